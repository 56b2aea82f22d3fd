"""File > Export > R&C2 level of the whole level in a real Blender
(issue 17): a level from the spec builders (tests/builders/rc2_world.py,
class meshes, sky and collision) imported both ways (collection instances
and linked duplicates), edited the way a user does (delete, Shift+D,
Alt+D, another class, a new object of a class mesh, collision faces and
tags, the world colour), exported through the operator and read back with
wadkit and with the builders' own readers (builders.rc2_read,
builders.rc2_collision). What the export cannot write is a note naming
the object."""
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon.export_common import ExportError
from blender_addon.export_rc2 import export_rc2
from builders import rc2_collision as C
from builders import rc2_read as RR
from builders import rc2_world as W

KINDS = ("tie", "shrub", "moby")


@pytest.fixture(scope="module")
def world_bytes():
    data, facts = W.world(**W.SMALL, collision_slack=0x2000)
    return data, facts


@pytest.fixture
def level(world_bytes, tmp_path):
    p = tmp_path / "LEVEL3.WAD"
    p.write_bytes(world_bytes[0])
    return str(p), world_bytes[0]


def imported(path, instancing="COLLECTION", **kw):
    assert bpy.ops.import_scene.wadkit_rc2(filepath=path, instancing=instancing,
                                           **kw) == {"FINISHED"}
    return bpy.data.collections["LEVEL3"]


def objects_of(root, kind):
    return sorted((o for o in root.all_objects if o.get("wadkit_kind") == kind),
                  key=lambda o: o["wadkit_instance"])


def export_op(tmp_path, name="out.wad"):
    out = tmp_path / name
    assert bpy.ops.export_scene.wadkit_rc2(filepath=str(out)) == {"FINISHED"}
    return str(out)


def duplicate(ob, linked: bool):
    """Shift+D (linked=False) / Alt+D of ob through the operator."""
    bpy.ops.object.select_all(action="DESELECT")
    ob.select_set(True)
    bpy.context.view_layer.objects.active = ob
    assert bpy.ops.object.duplicate(linked=linked) == {"FINISHED"}
    (d,) = bpy.context.selected_objects
    assert d is not ob
    return d


def class_source(kind, cid, instancing):
    """What an instance of class cid shows: the class collection or mesh."""
    if instancing == "COLLECTION":
        return next(c for c in bpy.data.collections
                    if c.get("wadkit_kind") == kind and c.get("wadkit_class") == cid)
    return next(m for m in bpy.data.meshes
                if m.get("wadkit_kind") == kind and m.get("wadkit_class") == cid)


def show_class(ob, kind, cid, instancing):
    src = class_source(kind, cid, instancing)
    if instancing == "COLLECTION":
        ob.instance_collection = src
    else:
        ob.data = src


def collision_faces(new):
    """{(corner positions in 1/64 m, sorted), tag} of the written collision
    block, read by the builder's reader."""
    h = new.core_header
    blk = bytes(new.core_data[h["collision"]:h["textures_base"]])
    out = set()
    for key, (verts, faces) in C.parse(blk).items():
        for f in faces:
            out.add((tuple(sorted(C.world(key, verts[i]) for i in f[:-1])), f[-1]))
    return out


@pytest.mark.every_blender
@pytest.mark.parametrize("instancing", ["COLLECTION", "LINKED"])
def test_every_edit_round_trips(scene, level, tmp_path, instancing):
    path, data = level
    root = imported(path, instancing)
    how, notes = export_rc2(bpy.context, str(tmp_path / "same.wad"))
    assert (tmp_path / "same.wad").read_bytes() == data and how.startswith("unchanged")
    assert notes == []
    lvl = wadkit.rc2.open(path)
    src = RR.gameplay(lvl.gameplay)
    ties, shrubs, mobys = (objects_of(root, k) for k in KINDS)
    tie_ids = lvl.tie_classes.ids.tolist()
    with_mesh = [c for c in tie_ids if any(
        m.get("wadkit_class") == c for m in bpy.data.meshes if m.get("wadkit_kind") == "tie")]

    # ties: 3 deleted, 5 duplicated twice (Shift+D moved, Alt+D left), 7
    # shown as another class
    bpy.data.objects.remove(ties[3])
    d1 = duplicate(ties[5], linked=False)
    d1.location = (d1.location.x + 4.0, d1.location.y, d1.location.z + 1.0)
    d2 = duplicate(ties[5], linked=True)
    other = next(c for c in with_mesh if c != lvl.ties.class_id[7])
    show_class(ties[7], "tie", other, instancing)
    # shrubs: a new object showing a class (no wadkit_instance), 0 moved
    s_cls = int(lvl.shrubs.class_id[2])
    if instancing == "COLLECTION":
        new_shrub = bpy.data.objects.new("my shrub", None)
        new_shrub.instance_type = "COLLECTION"
    else:
        new_shrub = bpy.data.objects.new("my shrub", class_source("shrub", s_cls, instancing))
    show_class(new_shrub, "shrub", s_cls, instancing)
    new_shrub.location = (1.0, 2.0, 3.0)
    next(c for c in root.children if c.get("wadkit_part") == "shrubs").objects.link(new_shrub)
    shrubs[0].location.z += 2.0
    # mobys: an empty (a class without a mesh) duplicated, another given a
    # class by its wadkit_class property
    empties = [o for o in mobys if o.type == "EMPTY" and o.instance_collection is None]
    assert len(empties) >= 2
    e_copy = duplicate(empties[0], linked=False)
    e_copy.location.x += 1.5
    m_ids = lvl.moby_classes.ids.tolist()
    target = next(c for c in m_ids if c != empties[1]["wadkit_class"])
    empties[1]["wadkit_class"] = target
    # collision: a vertex moved, a face deleted, a face on another tag
    (col,) = [o for o in root.all_objects if o.get("wadkit_kind") == "collision"]
    me = col.data
    slots = [s.material["wadkit_tag"] for s in col.material_slots]
    f0 = me.polygons[0]
    v = f0.vertices[0]
    me.vertices[v].co.z += 0.5
    f1 = me.polygons[1]
    new_slot = next(k for k, t in enumerate(slots) if k != f1.material_index)
    f1.material_index = new_slot
    import bmesh
    bm = bmesh.new()
    bm.from_mesh(me)
    bm.faces.ensure_lookup_table()
    bmesh.ops.delete(bm, geom=[bm.faces[len(bm.faces) - 1]], context="FACES_ONLY")
    bm.to_mesh(me)
    bm.free()
    # the world colour (the level's background colour)
    w = bpy.context.scene.world
    from blender_addon.mesh_build import srgb_to_linear
    lin = srgb_to_linear(np.array([200 / 255, 100 / 255, 50 / 255, 1.0], np.float32))
    w.node_tree.nodes["Background"].inputs["Color"].default_value = (*lin[:3], 1.0)

    out = export_op(tmp_path)
    how, notes = export_rc2(bpy.context, str(tmp_path / "again.wad"))
    assert notes == [] and "instances" in how and "collision" in how and "settings" in how
    new = wadkit.rc2.open(out)
    r = RR.gameplay(new.gameplay)

    # ties: kept ones in order (3 gone, 7 of the other class), then the two copies of 5
    n = len(lvl.ties)
    keep = [i for i in range(n) if i != 3]
    want_cls = lvl.ties.class_id[keep].tolist()
    want_cls[keep.index(7)] = other
    copies = sorted([d1, d2], key=lambda o: o.name)
    assert new.ties.class_id.tolist() == want_cls + [int(lvl.ties.class_id[5])] * 2
    assert [t["class_id"] for t in r["ties"]] == new.ties.class_id.tolist()
    m = np.array(new.ties.matrix)
    np.testing.assert_allclose(m[:n - 1], np.array(lvl.ties.matrix)[keep], atol=1e-4)
    for k, d in enumerate(copies):
        np.testing.assert_allclose(m[n - 1 + k], np.array(d.matrix_world), atol=1e-4)
        rec, orig = r["ties"][n - 1 + k], src["ties"][5]
        for f in ("draw_distance", "directional_lights", "occlusion_index", "matrix_w"):
            assert rec[f] == orig[f], f
        assert rec["uid"] != orig["uid"]
    assert m[n - 1][0, 3] == pytest.approx(lvl.ties.matrix[5][0][3] + 4.0, abs=1e-4)
    # shrubs: 0 moved, the new one last, a copy of the first of its class
    ns = len(lvl.shrubs)
    assert new.shrubs.class_id.tolist() == lvl.shrubs.class_id.tolist() + [s_cls]
    assert r["shrubs"][0]["matrix"][2][3] == pytest.approx(lvl.shrubs.matrix[0][2][3] + 2.0,
                                                           abs=1e-4)
    assert r["shrubs"][ns]["matrix"][0][3] == 1.0 and r["shrubs"][ns]["matrix"][2][3] == 3.0
    first = int(np.flatnonzero(lvl.shrubs.class_id == s_cls)[0])
    assert r["shrubs"][ns]["colour"] == src["shrubs"][first]["colour"]
    # mobys: the copy of the empty last, the other empty on its new class
    nm = len(lvl.mobys)
    i0, i1 = empties[0]["wadkit_instance"], empties[1]["wadkit_instance"]
    assert len(new.mobys) == nm + 1
    want = lvl.mobys.class_id.tolist()
    want[i1] = target
    assert new.mobys.class_id.tolist() == want + [int(lvl.mobys.class_id[i0])]
    assert r["mobys"][nm]["position"][0] == pytest.approx(
        src["mobys"][i0]["position"][0] + 1.5, abs=1e-4)
    # collision: as the mesh now is
    old_c, new_c = lvl.collision(), new.collision()
    n_faces = len(old_c["tag"]) - int(old_c["quad"].sum()) + len(old_c["quad_tag"])
    n_now = len(new_c["tag"]) - int(new_c["quad"].sum()) + len(new_c["quad_tag"])
    assert n_now == n_faces - 1 == len(me.polygons)
    moved = tuple(me.vertices[v].co)
    assert np.any(np.all(np.abs(new_c["positions"] - moved) < 1 / 64, axis=1))
    # every face once per tag, as the builder's reader sees the octants
    # (a face in several octants counted once)
    by_tag = {}
    for _, t in collision_faces(new):
        by_tag[t] = by_tag.get(t, 0) + 1
    tags_now = [col.material_slots[p.material_index].material["wadkit_tag"]
                for p in me.polygons]
    assert by_tag == {t: tags_now.count(t) for t in set(tags_now)}
    assert sorted(new_c["tag"][~new_c["quad"]].tolist() + new_c["quad_tag"].tolist()) == \
        sorted(tags_now)
    # the world colour is the background colour; the builder's reader sees it
    assert new.settings["background_colour"] == (200, 100, 50)
    assert RR.gameplay(new.gameplay)["settings"]["background_colour"] == [200, 100, 50]
    assert new.settings["fog_colour"] == lvl.settings["fog_colour"]


def test_objects_it_cannot_write_are_named(scene, level, tmp_path):
    path, data = level
    root = imported(path)
    # a new mesh that is no terrain and uses no class mesh
    me = bpy.data.meshes.new("blob")
    me.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], [(0, 1, 2)])
    root.objects.link(bpy.data.objects.new("blob", me))
    root.objects.link(bpy.data.objects.new("lamp", bpy.data.lights.new("lamp", "POINT")))
    # an edit of a class mesh (new class geometry) and of a sky shell
    cls_ob = next(o for o in root.all_objects if o.get("wadkit_kind") == "tie_class")
    cls_ob.data.vertices[0].co.x += 1.0
    sky = next(o for o in root.all_objects if o.get("wadkit_kind") == "sky")
    sky.data.vertices[0].co.z += 1.0
    # an instance showing a mesh that is no class: written with its class
    tie = objects_of(root, "tie")[0]
    tie.instance_type = "NONE"
    odd = bpy.data.objects.new("odd", me)
    odd["wadkit_kind"] = "tie"
    odd["wadkit_instance"] = 2
    odd["wadkit_class"] = 2
    root.objects.link(odd)
    out = str(tmp_path / "o.wad")
    how, notes = export_rc2(bpy.context, out)
    text = "\n".join(notes)
    assert "blob: not written (a mesh that is no terrain patch" in text
    assert "lamp: not written (a light object" in text
    assert f"{cls_ob.name}: class mesh edited; class geometry is not written" in text
    assert f"{sky.name}: not written (the sky is not written back" in text
    assert "odd: shows mesh 'blob', which is no tie class of the level" in text
    assert len(notes) == 5, notes
    # tie 0 (now a plain empty) keeps its class: unchanged otherwise; the
    # odd copy of tie 2 is written as a new tie of tie 2's class
    lvl, new = wadkit.rc2.open(path), wadkit.rc2.open(out)
    assert new.ties.class_id.tolist() == lvl.ties.class_id.tolist() + [lvl.ties.class_id[2]]
    # the operator shows the notes and writes the same file
    assert bpy.ops.export_scene.wadkit_rc2(filepath=str(tmp_path / "op.wad")) == {"FINISHED"}
    assert (tmp_path / "op.wad").read_bytes() == open(out, "rb").read()


def test_parts_not_imported_are_kept(scene, level, tmp_path):
    path, data = level
    imported(path, import_shrubs=False, import_mobys=False, import_collision=False)
    assert open(export_op(tmp_path), "rb").read() == data


def test_collision_faces_without_a_tag_material(scene, level, tmp_path):
    path, data = level
    root = imported(path)
    (col,) = [o for o in root.all_objects if o.get("wadkit_kind") == "collision"]
    plain = bpy.data.materials.new("plain")
    col.data.materials.append(plain)
    col.data.polygons[0].material_index = len(col.material_slots) - 1
    col.data.vertices[0].co.z += 0.25
    how, notes = export_rc2(bpy.context, str(tmp_path / "a.wad"))
    assert any(n.startswith(f"{col.name}: 1 faces have a material that is no collision "
                            "tag material; their wadkit_tag attribute was written")
               for n in notes)
    lvl, new = wadkit.rc2.open(path), wadkit.rc2.open(str(tmp_path / "a.wad"))
    assert sorted(new.collision()["quad_tag"].tolist() + new.collision()["tag"].tolist()) \
        == sorted(lvl.collision()["quad_tag"].tolist() + lvl.collision()["tag"].tolist())
    # without the attribute too: not written, said
    col.data.attributes.remove(col.data.attributes["wadkit_tag"])
    how, notes = export_rc2(bpy.context, str(tmp_path / "b.wad"))
    assert "collision" not in how
    assert any(n.startswith(f"{col.name}: 1 faces have no collision tag") for n in notes)


def test_collision_that_outgrows_its_region_names_the_object(scene, tmp_path):
    data, _ = W.world(**W.SMALL)           # no room after the collision block
    p = tmp_path / "LEVEL3.WAD"
    p.write_bytes(data)
    root = imported(str(p))
    (col,) = [o for o in root.all_objects if o.get("wadkit_kind") == "collision"]
    col.data.vertices[0].co.z += 0.5
    with pytest.raises(ExportError, match=rf"^{col.name}: .*collision block has \d+ bytes"):
        export_rc2(bpy.context, str(tmp_path / "x.wad"))
    assert not (tmp_path / "x.wad").exists()


def test_a_limit_names_the_object(scene, level, tmp_path):
    path, data = level
    root = imported(path)
    moby = objects_of(root, "moby")[4]
    moby.scale = (1.0, 2.0, 1.0)        # a moby stores one scale
    with pytest.raises(ExportError, match=rf"^{moby.name}: RC2 gameplay: moby 4: the matrix is not"):
        export_rc2(bpy.context, str(tmp_path / "x.wad"))
    # the operator reports it as an error (bpy.ops raises it from Python)
    with pytest.raises(RuntimeError, match=rf"Error: {moby.name}: RC2 gameplay: moby 4"):
        bpy.ops.export_scene.wadkit_rc2(filepath=str(tmp_path / "x.wad"))
    assert not (tmp_path / "x.wad").exists()


@pytest.mark.parametrize("instancing", ["COLLECTION", "LINKED"])
def test_moves_planned_at_once_are_the_moves_planned_one_by_one(scene, level, instancing):
    """Instances._plain moves the only objects of their instances that
    moved, all at once (LevelEdit.move_many); the edit is the one the plan
    of every object one by one (_kind) makes: the same matrices, classes,
    copies, deletes and notes, beside a duplicate, a class change, a turn
    and a delete."""
    from blender_addon import export_rc2 as X
    from blender_addon.export_rc2_instances import Instances
    root = imported(level[0], instancing)
    ties, mobys = objects_of(root, "tie"), objects_of(root, "moby")
    for k, ob in enumerate(ties[:4] + mobys[:2]):
        ob.location.z += 0.5 + k
    ties[4].rotation_euler.z += 0.3
    duplicate(mobys[2], linked=False).location.x += 2.0
    bpy.data.objects.remove(mobys[3])
    bpy.context.view_layer.update()
    lvl = wadkit.rc2.from_bytes(level[1])

    def plan(one_by_one):
        notes: list = []
        scan = X._Scan(root, notes)
        ed = lvl.edit()
        inst = Instances(lvl, ed, notes, list(KINDS))
        if one_by_one:
            inst._plain = lambda items, m: np.zeros(len(items), bool)
        assert inst.plan(scan.instances, X.placements(root, scan.instances, scan.count))
        return ed, notes, inst

    (bulk, n0, i0), (each, n1, _) = plan(False), plan(True)
    assert set(i0._moved) == {"tie", "moby"} and len(i0._moved["tie"][0]) == 5
    assert n0 == n1 and bulk._inst.keys() == each._inst.keys()
    for kind in bulk._inst:
        for f in ("source", "class_id", "matrix", "deleted"):
            np.testing.assert_array_equal(bulk._inst[kind][f], each._inst[kind][f], f)
    assert bulk.apply().to_bytes() == each.apply().to_bytes()
