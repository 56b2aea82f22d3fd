"""The whole RC2 level in Blender (File > Import > R&C2): a level built by
the spec builders (tests/builders/rc2_world.py) with terrain, tie / shrub /
moby classes and instances, sky and collision. What the import made is
checked against the builders' own facts (class meshes from their
expected(), the texture slots they wrote, the instances' matrices) and
the level's parsed arrays."""
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert
from blender_addon import import_rc2 as I
from builders import rc2_world as W
from conftest import datablock_counts

SMALL = W.SMALL
pytestmark = pytest.mark.every_blender
KIND_OF = {"ties": "tie", "shrubs": "shrub", "mobys": "moby"}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    data, facts = W.world(**SMALL)
    p = tmp_path_factory.mktemp("rc2w") / "LEVEL3.WAD"
    p.write_bytes(data)
    return str(p), facts


def _parts(root) -> dict:
    return {c[I.PROP_PART]: c for c in root.children}


def _expected_mesh(facts, kind, k):
    b = facts["builders"][kind][k]
    return None if b is None else (b.expected(0) if kind == "tie" else b.expected())


def _face_int(me, name):
    out = np.empty(len(me.polygons), np.int32)
    me.attributes[name].data.foreach_get("value", out)
    return out


@pytest.mark.parametrize("instancing", ["COLLECTION", "LINKED"])
def test_whole_level(scene, world, instancing):
    path, facts = world
    assert bpy.ops.import_scene.wadkit_rc2(filepath=path, instancing=instancing) == {"FINISHED"}
    lvl = wadkit.rc2.open(path)
    root = bpy.data.collections["LEVEL3"]
    assert root[I.PROP_FORMAT] == "rc2" and root[I.PROP_SOURCE] == path
    parts = _parts(root)
    want = set(I.PARTS) | ({"classes"} if instancing == "COLLECTION" else set())
    assert set(parts) == want
    assert [c[I.PROP_PART] for c in root.children][:6] == list(I.PARTS)
    # settings as collection properties (the export writes them back)
    assert list(root["wadkit_fog_colour"]) == facts["settings"]["fog_colour"]
    assert root["wadkit_death_height"] == facts["settings"]["death_height"]

    for part, kind in KIND_OF.items():
        inst = getattr(lvl, part)
        obs = sorted(parts[part].objects, key=lambda o: o[I.PROP_INSTANCE])
        assert len(obs) == len(inst) == SMALL[part]
        assert [o[I.PROP_INSTANCE] for o in obs] == list(range(len(inst)))
        assert [o[I.PROP_CLASS] for o in obs] == inst.class_id.tolist()
        assert all(o[I.PROP_KIND] == kind for o in obs)
        m = np.array([np.array(o.matrix_world) for o in obs])
        np.testing.assert_allclose(m, inst.matrix, atol=2e-5)
        # one mesh per class with a mesh; the instances show it
        ids = facts["classes"][kind]
        for o in obs:
            k = ids.index(o[I.PROP_CLASS])
            exp = _expected_mesh(facts, kind, k)
            me = _shown_mesh(o)
            if exp is None:
                assert me is None and o.type == "EMPTY"
                assert o.name.startswith(f"{kind} ") and f" c{ids[k]}" in o.name
                continue
            assert me[I.PROP_CLASS] == ids[k] and me[I.PROP_KIND] == kind
        meshes = [me for me in bpy.data.meshes if me.get(I.PROP_KIND) == kind]
        with_mesh = [c for c, b in zip(ids, facts["builders"][kind]) if b is not None]
        assert sorted(me[I.PROP_CLASS] for me in meshes) == sorted(with_mesh)
        users = {me.name: 0 for me in meshes}
        for o in obs:
            me = _shown_mesh(o)
            if me is not None:
                users[me.name] += 1
        assert sum(users.values()) == sum(
            1 for c in inst.class_id if facts["builders"][kind][ids.index(int(c))] is not None)


def _shown_mesh(o):
    if o.type == "MESH":
        return o.data
    if o.instance_type == "COLLECTION" and o.instance_collection is not None:
        (proto,) = o.instance_collection.objects
        return proto.data
    return None


def test_class_meshes_are_the_builders(scene, world):
    """Every class mesh: the builder's triangles (positions per corner, UVs
    with v flipped) and per face the texture its slot names in the class
    table (builder: slot s of class i -> (i + s) % count), the material's
    image being that texture of the level."""
    path, facts = world
    bpy.ops.import_scene.wadkit_rc2(filepath=path)
    lvl = wadkit.rc2.open(path)
    for kind in ("tie", "shrub", "moby"):
        ids = facts["classes"][kind]
        images = lvl.textures(kind)
        for me in (m for m in bpy.data.meshes if m.get(I.PROP_KIND) == kind):
            k = ids.index(me[I.PROP_CLASS])
            exp = _expected_mesh(facts, kind, k)
            tri = np.asarray(exp["triangles"])
            co = np.array([v.co for v in me.vertices])
            got = co[np.array([p.vertices[:] for p in me.polygons])]
            np.testing.assert_allclose(got, np.asarray(exp["positions"])[tri], atol=1e-4)
            uv = np.empty(len(me.loops) * 2, np.float32)
            me.uv_layers["UVMap"].data.foreach_get("uv", uv)
            np.testing.assert_allclose(uv.reshape(-1, 3, 2),
                                       convert.flip_v(np.asarray(exp["uv"])[tri]), atol=1e-6)
            slots = facts["slots"][kind][k]
            want = np.array([slots[s] if 0 <= s < len(slots) else -1
                             for s in np.asarray(exp["texture"]).tolist()])
            assert _face_int(me, I.ATTR_TEXTURE).tolist() == want.tolist()
            idx = np.empty(len(me.polygons), np.int32)
            me.polygons.foreach_get("material_index", idx)
            for f in np.unique(idx):
                mat = me.materials[int(f)]
                t = int(want[idx == f][0])
                assert (want[idx == f] == t).all()
                img = next(n for n in mat.node_tree.nodes if n.type == "TEX_IMAGE").image
                px = np.empty(img.size[0] * img.size[1] * 4, np.float32)
                img.pixels.foreach_get(px)
                px = (px.reshape(img.size[1], img.size[0], 4)[::-1] * 255).round()
                np.testing.assert_array_equal(px, images[t])
            assert not me.validate(verbose=False)


def test_terrain_sky_collision_world(scene, world):
    path, facts = world
    bpy.ops.import_scene.wadkit_rc2(filepath=path)
    lvl = wadkit.rc2.open(path)
    parts = _parts(bpy.data.collections["LEVEL3"])
    (ter,) = parts["terrain"].objects
    assert ter[I.PROP_KIND] == "terrain"
    assert len(ter.data.polygons) == facts["terrain_triangles"] == len(lvl.terrain()["triangles"])
    # sky: both shells, around the whole level box
    sky = sorted(parts["sky"].objects, key=lambda o: o[I.PROP_SHELL])
    assert [o[I.PROP_SHELL] for o in sky] == [0, 1] and len(sky) == facts["sky_shells"]
    lo, hi = _world_box(ter)
    for o in lvl.ties.matrix[:, :3, 3], lvl.shrubs.matrix[:, :3, 3]:
        lo, hi = np.minimum(lo, o.min(0)), np.maximum(hi, o.max(0))
    dome = sky[0]
    corners = np.array([dome.matrix_world @ __import__("mathutils").Vector(v.co)
                        for v in dome.data.vertices])
    centre = (lo + hi) / 2
    assert np.linalg.norm(corners - centre, axis=1).max() > np.linalg.norm(hi - centre)
    assert len(dome.data.polygons) == len(lvl.sky()["shells"][0]["triangles"])
    assert {m.name for m in dome.data.materials} == {"LEVEL3 sky 00"}
    # collision: quads as quads, one material per tag, hidden from render
    (coll,) = parts["collision"].objects
    c = lvl.collision()
    me = coll.data
    assert coll.hide_render and parts["collision"].hide_render
    assert len(me.polygons) == facts["collision_faces"] == len(c["quads"])
    assert {len(p.vertices) for p in me.polygons} == {4}
    tags = _face_int(me, I.ATTR_TAG)
    assert sorted(tags.tolist()) == sorted(c["quad_tag"].tolist())
    names = {m.name for m in me.materials}
    assert names == {f"LEVEL3 coll {wadkit._rc2_scene.tag_name(t)}" for t in set(tags.tolist())}
    assert "LEVEL3 coll 0x07 ice" in names
    idx = np.empty(len(me.polygons), np.int32)
    me.polygons.foreach_get("material_index", idx)
    assert all(me.materials[int(i)][I.ATTR_TAG] == t for i, t in zip(idx, tags))
    assert not me.validate(verbose=False)
    # world: the background colour (s32 bytes, sRGB) in linear storage
    w = bpy.context.scene.world
    assert w.name == "LEVEL3 world"
    bg = [v / 255 for v in facts["settings"]["background_colour"]]
    lin = [c / 12.92 if c < 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in bg]
    np.testing.assert_allclose(tuple(w.color), lin, rtol=1e-5)


def _world_box(ob):
    co = np.array([v.co for v in ob.data.vertices])
    return co.min(0), co.max(0)


def test_parts_can_be_left_out(scene, world):
    path, _ = world
    assert bpy.ops.import_scene.wadkit_rc2(
        filepath=path, import_terrain=False, import_sky=False, import_collision=False,
        import_shrubs=False, import_world=False) == {"FINISHED"}
    root = bpy.data.collections["LEVEL3"]
    assert set(_parts(root)) == {"ties", "mobys", "classes"}
    assert bpy.context.scene.world is None or bpy.context.scene.world.name != "LEVEL3 world"
    assert not [o for o in bpy.data.objects if o.get(I.PROP_KIND) in ("terrain", "sky")]


def test_a_class_that_does_not_decode_is_said_and_its_instances_kept(scene, tmp_path):
    """A tie class whose records break q = 4096: the import names it in a
    note, its instances are empties at their matrices, the rest imports."""
    data, facts = W.world(**SMALL, edit_classes=lambda b: setattr(b["tie"][0], "q", 7))
    bad_id = facts["classes"]["tie"][0]
    p = tmp_path / "LEVEL4.WAD"
    p.write_bytes(data)
    notes = []
    lvl = wadkit.rc2.open(str(p))
    root = I.import_rc2(bpy.context, lvl, notes=notes)
    assert any(f"tie {bad_id}: mesh not decoded" in n for n in notes), notes
    ties = _parts(root)["ties"].objects
    assert len(ties) == SMALL["ties"]
    bad = [o for o in ties if o[I.PROP_CLASS] == bad_id]
    assert bad and all(o.type == "EMPTY" and o.instance_collection is None for o in bad)
    for o in bad:
        np.testing.assert_allclose(np.array(o.matrix_world),
                                   lvl.ties.matrix[o[I.PROP_INSTANCE]], atol=2e-5)
    good = [o for o in ties if o[I.PROP_CLASS] != bad_id]
    assert good and all(o.instance_collection is not None for o in good)


def test_malformed_level_leaves_the_scene_unchanged(scene, world, tmp_path):
    path, _ = world
    before = datablock_counts()
    bad = tmp_path / "LEVEL5.WAD"
    bad.write_bytes(open(path, "rb").read()[:5000])
    with pytest.raises(RuntimeError):
        bpy.ops.import_scene.wadkit_rc2(filepath=str(bad))
    assert datablock_counts() == before


def test_creation_order_puts_the_511_largest_names_after_each_later_one(scene):
    """build.creation_order, by which the instance objects are made: up to
    511 names descending; beyond, the 511 largest descending, then the
    others ascending, each sorting before those 511 and after every other
    name made before it (Blender's sorted insert then compares two names:
    docs/performance-rc2-import.md). Its sort key orders names as
    bpy.data.objects does."""
    from blender_addon.build import blender_name_key, creation_order
    rng = np.random.default_rng(5)
    for n in (0, 1, 300, 511, 512, 1500):
        names = [f"{k} {i:04d}" for k, i in
                 zip(rng.choice(["tie", "Shrub", "moby", "_x"], n), rng.permutation(n))]
        order = creation_order(names)
        assert sorted(order) == list(range(n))
        keys = [blender_name_key(names[i]) for i in order]
        top = sorted(keys)[max(0, n - 511):]
        assert keys[:len(top)] == top[::-1]
        rest = keys[len(top):]
        assert rest == sorted(rest) and (not rest or rest[-1] < top[0])
    made = [bpy.data.objects.new(names[i], None) for i in order]
    ours = set(names)
    assert [o.name for o in bpy.data.objects if o.name in ours] == \
        sorted(names, key=blender_name_key)
    bpy.data.batch_remove(made)
