"""Import of generated ENG levels (tests/blender/levels.py, from the
from-spec builders) through the operator: counts of objects, faces,
materials and images; UVs, colours, positions and pixels spot-checked
against the level's own arrays; collision."""

import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert

import levels


@pytest.fixture
def small(tmp_path):
    p = tmp_path / "small.wad"
    p.write_bytes(levels.small_level())
    return str(p)


def corner_array(me, layer, prop, width):
    """A per-corner layer, or a per-vertex one taken at every corner, as
    (F,3,width)."""
    a = np.empty(len(layer.data) * width, np.float32)
    layer.data.foreach_get(prop, a)
    a = a.reshape(-1, width)
    if len(layer.data) != len(me.loops):          # point domain
        vi = np.empty(len(me.loops), np.int32)
        me.loops.foreach_get("vertex_index", vi)
        a = a[vi]
    return a.reshape(-1, 3, width)


def face_ints(me, name):
    a = np.empty(len(me.polygons), np.int32)
    me.attributes[name].data.foreach_get("value", a)
    return a


def world_positions(ob):
    bpy.context.view_layer.update()
    m = np.array(ob.matrix_world)
    co = np.array([v.co for v in ob.data.vertices])
    tri = np.array([p.vertices[:] for p in ob.data.polygons])
    return (co @ m[:3, :3].T + m[:3, 3])[tri]


def test_small_level(scene, small):
    assert bpy.ops.import_scene.wadkit_eng(filepath=small, merge="TILE") == {"FINISHED"}
    lvl = wadkit.eng.open(small)
    wm = lvl.world_mesh()
    root = bpy.data.collections["small"]
    assert root["wadkit_source"] == small
    tiles = sorted(root.objects, key=lambda o: o["wadkit_tile"])
    assert [o.name for o in tiles] == ["small tile 0", "small tile 1", "small tile 2"]
    assert [len(o.data.polygons) for o in tiles] == [2, 1, 2]
    # the edges made with NumPy are what Blender would make: nothing to fix
    assert [o.data.validate() for o in tiles] == [False] * 3
    assert [len(o.data.edges) for o in tiles] == [5, 3, 5]
    # materials: one per (page, blend, flat colour); one image per page
    assert sorted(m.name for m in bpy.data.materials if "ground" not in m.name) == [
        "small flat ff8000 b0", "small page 00 b0", "small page 01 b1"]
    assert sorted(i.name for i in bpy.data.images) == ["small page 00", "small page 01"]
    for k, page in enumerate(lvl.pages):
        img = bpy.data.images[f"small page {k:02d}"]
        px = np.empty(len(img.pixels), np.float32)
        img.pixels.foreach_get(px)
        h, w = page.rgba.shape[:2]
        np.testing.assert_allclose(px.reshape(h, w, 4)[::-1] * 255, page.rgba, atol=1e-3)
    # the transparent texel (page 0, row 0, column 0) stays transparent
    assert lvl.pages[0].rgba[0, 0, 3] == 0
    for ob in tiles:
        sel = wm["tile"] == ob["wadkit_tile"]
        me = ob.data
        # positions: the object transform puts the local vertices back where
        # the world mesh has them (file space -> Blender z-up)
        want = convert.to_blender(wm["positions"][wm["triangles"][sel]].reshape(-1, 3))
        np.testing.assert_allclose(world_positions(ob).reshape(-1, 3), want, atol=1e-5)
        uv = corner_array(me, me.uv_layers["UVMap"], "uv", 2)
        np.testing.assert_allclose(uv, convert.flip_v(wm["uv"][sel]), atol=1e-6)
        assert me.color_attributes["Col"].domain == "POINT"     # one per model vertex
        col = corner_array(me, me.color_attributes["Col"], "color_srgb", 4)
        np.testing.assert_allclose(col, wm["color"][sel], atol=1e-4)
        assert face_ints(me, "wadkit_texture").tolist() == wm["texture"][sel].tolist()
    # tile 2 has two colour sets: the second is "Col2", from color_set=1
    wm2 = lvl.world_mesh(color_set=1)
    me2 = tiles[2].data
    col2 = corner_array(me2, me2.color_attributes["Col2"], "color_srgb", 4)
    np.testing.assert_allclose(col2, wm2["color"][wm2["tile"] == 2], atol=1e-4)
    assert not np.allclose(col2, wm["color"][wm["tile"] == 2])
    assert "Col2" not in tiles[0].data.color_attributes
    # tiles 0 and 2 share model 0 but not their colours: two meshes of it;
    # the mesh holds the model's vertices in tile space
    assert [o.data.name for o in tiles] == ["small model 0", "small model 1",
                                            "small model 0 colours 1"]
    assert [o.data["wadkit_model"] for o in tiles] == [0, 1, 0]
    np.testing.assert_array_equal(np.array([v.co for v in tiles[0].data.vertices]),
                                  convert.to_blender(lvl.models[0].positions))
    # transforms: tile 1 at file (1.5, 1, 0.5) rot 1024 -> Blender (1.5, -0.5, 1), 90 deg
    assert tuple(tiles[1].location) == pytest.approx((1.5, -0.5, 1.0))
    assert tiles[1].rotation_euler.z == pytest.approx(np.pi / 2)


@pytest.mark.parametrize("made", ["import", "build"])
def test_small_level_collision(scene, small, made):
    """Made by the import when asked, or later by Build collision (the
    default import makes none): the same objects, meshes and materials."""
    if made == "import":
        bpy.ops.import_scene.wadkit_eng(filepath=small, import_collision=True)
    else:
        bpy.ops.import_scene.wadkit_eng(filepath=small, merge="TILE")
        assert "small Collision" not in bpy.data.collections
        assert not [o for o in bpy.data.objects if "wadkit_collision" in o]
        assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}
        made = (len(bpy.data.meshes), len(bpy.data.objects), len(bpy.data.materials))
        assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}     # nothing twice
        assert (len(bpy.data.meshes), len(bpy.data.objects), len(bpy.data.materials)) == made
    coll = bpy.data.collections["small Collision"]
    assert coll.hide_render
    # a child of each tile whose model has collision, in tile space; model 0
    # (tiles 0 and 2) has a quad and a triangle, model 1 none: one mesh
    obs = sorted(coll.objects, key=lambda o: o.name)
    assert [o.name for o in obs] == ["small tile 0 collision", "small tile 2 collision"]
    assert [o.parent.name for o in obs] == ["small tile 0", "small tile 2"]
    assert obs[0].data == obs[1].data and obs[0].data.name == "small collision 0"
    me = obs[0].data
    assert [len(p.vertices) for p in me.polygons] == [4, 3]
    assert face_ints(me, "wadkit_material").tolist() == [0x11, 3]
    assert face_ints(me, "wadkit_polygon").tolist() == [0, 1]
    assert me.validate() is False               # nothing to correct
    for ob in obs:
        assert ob.hide_render and ob["wadkit_collision"] == 0
        assert [s.material["wadkit_collision_material"] for s in ob.material_slots] == [3, 0x11]
    # water and material 3 look different
    w = bpy.data.materials["small ground 11"].diffuse_color[:]
    g = bpy.data.materials["small ground 03"].diffuse_color[:]
    assert w != g
    # made by the import: left out of the view layer (faster) until ticked in
    # the outliner; by Build collision: shown (it was asked for)
    lc = bpy.context.view_layer.layer_collection.children["small"]
    assert lc.children["small Collision"].exclude == (made == "import")
    lc.children["small Collision"].exclude = False
    # the floor quad of tile 0 lies at file y = 0 over cell (0, 0): Blender z = 0,
    # x in [0, 1], y in [-1, 0]
    bpy.context.view_layer.update()
    m = np.array(obs[0].matrix_world)
    quad = np.array([me.vertices[i].co for i in me.polygons[0].vertices])
    quad = quad @ m[:3, :3].T + m[:3, 3]
    np.testing.assert_allclose(quad[:, 2], 0.0, atol=0.02)
    assert quad[:, 0].min() == pytest.approx(0.0, abs=0.02)
    assert quad[:, 0].max() == pytest.approx(1.0, abs=0.02)
    assert quad[:, 1].min() == pytest.approx(-1.0, abs=0.02)


def test_small_level_objects(scene, small):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    # the skinned model: its mesh parented to an armature of two bones
    arm, ob = sorted(bpy.data.collections["small Objects"].objects, key=lambda o: o.type)
    assert (arm.type, ob.type, ob.parent) == ("ARMATURE", "MESH", arm)
    assert len(ob.data.polygons) == 2
    assert [g.name for g in ob.vertex_groups] == ["bone 0", "bone 1"]
    assert [b.name for b in arm.data.bones] == ["bone 0", "bone 1"]


def test_realistic_level_counts(scene, realistic):
    p, _ = realistic
    lvl = wadkit.eng.open(str(p))
    wm = lvl.world_mesh()
    # its speed is `make bench`'s (ratios to wm.obj_import), not a test's
    assert bpy.ops.import_scene.wadkit_eng(filepath=str(p), import_collision=True) \
        == {"FINISHED"}
    tiles = bpy.data.collections["real"].objects
    tri = wm["triangles"]
    good = (tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2]) & (tri[:, 0] != tri[:, 2])
    assert sum(len(o.data.polygons) for o in tiles) == int(good.sum())
    assert len(tiles) == len(lvl.tiles.model)          # an object for every tile
    assert len(bpy.data.images) == 8
    assert len([m for m in bpy.data.materials if "ground" not in m.name]) == 8
    def shaped(c):          # records whose corners exist (finite)
        n = np.asarray(c["n_corners"])
        return sum(bool(np.isfinite(c["corners"][k, :n[k]]).all()) for k in range(len(n)))
    coll_obs = bpy.data.collections["real Collision"].objects
    with_coll = [t for t in range(len(lvl.tiles.model))
                 if shaped(lvl.models[int(lvl.tiles.model[t])].collision)]
    assert len(coll_obs) == len(with_coll)
    assert sorted(o.parent["wadkit_tile"] for o in coll_obs) == with_coll
    # one mesh per model; its faces: the records with corners, with type,
    # group and material per face as each model's own decode has them (the
    # import decodes all models' records in one call)
    meshes = {o.data.name: o.data for o in coll_obs}
    assert len(meshes) == len({int(lvl.tiles.model[t]) for t in with_coll})
    for me in list(meshes.values())[:6]:
        c = lvl.models[me["wadkit_model"]].collision
        assert len(me.polygons) == shaped(c)
        poly = face_ints(me, "wadkit_polygon")
        for name in ("group", "type", "material"):
            got = face_ints(me, "wadkit_" + name)
            assert got.tolist() == [int(c[name][p]) for p in poly], name
