"""File > Export > R&C2 level in a real Blender: poll, byte-identical when
nothing changed, moved terrain vertices, materials, deleted faces and the
fog colour reaching the file, every other object reported by name."""
import bpy
import numpy as np
import pytest

import wadkit
from builders import rc2_full as F
from builders import rc2_read as RR


@pytest.fixture
def rc2(tmp_path):
    data, info = F.level()
    p = tmp_path / "LEVEL0.WAD"
    p.write_bytes(data)
    return str(p), data


def imported(path):
    assert bpy.ops.import_scene.wadkit_rc2(filepath=path, lod=0) == {"FINISHED"}
    root = bpy.data.collections["LEVEL0"]
    (ob,) = [o for o in root.all_objects if o.get("wadkit_kind") == "terrain"]
    return root, ob


def export(tmp_path, name="out.wad"):
    out = tmp_path / name
    assert bpy.ops.export_scene.wadkit_rc2(filepath=str(out)) == {"FINISHED"}
    return out


def test_poll_only_with_an_rc2_level(scene, rc2):
    assert not bpy.ops.export_scene.wadkit_rc2.poll()
    imported(rc2[0])
    assert bpy.ops.export_scene.wadkit_rc2.poll()


def test_unchanged_scene_is_byte_identical(scene, rc2, tmp_path):
    imported(rc2[0])
    assert export(tmp_path).read_bytes() == rc2[1]


def test_the_export_pauses_the_garbage_collector_and_restores_it(scene, rc2, tmp_path):
    """export_rc2 runs with gc disabled and leaves it as it found it, also
    when it fails."""
    import gc
    from blender_addon import export_rc2 as X
    imported(rc2[0])
    seen = []
    real = X._Scan

    def scan(*a):
        seen.append(gc.isenabled())
        return real(*a)
    X._Scan = scan
    try:
        assert gc.isenabled()
        export(tmp_path)
        gc.disable()
        export(tmp_path, "b.wad")
        assert not gc.isenabled()
        gc.enable()
        with pytest.raises(RuntimeError, match="source file"):
            bpy.ops.export_scene.wadkit_rc2(filepath=rc2[0])
        assert gc.isenabled() and seen == [False, False, False]
    finally:
        X._Scan = real
        gc.enable()


def test_moved_vertices_reach_the_file(scene, rc2, tmp_path):
    root, ob = imported(rc2[0])
    lvl = wadkit.rc2.open(rc2[0])
    t = lvl.terrain(0)
    me = ob.data
    moved = np.unique(t["triangles"][t["patch"] == 1])[:4]
    for i in moved:
        me.vertices[int(i)].co.z += 1.5
    out = export(tmp_path)
    new = wadkit.rc2.open(str(out))
    want = t["positions"].copy()
    want[moved, 2] += np.float32(1.5)
    np.testing.assert_allclose(new.terrain(0)["positions"], want, atol=1 / 1024)
    assert new.terrain(0)["positions"][moved[0], 2] != t["positions"][moved[0], 2]
    # the builder's own reader sees them; LODs kept; other patches' bytes too
    ps, po = RR.patches(bytes(new.tfrag_block())), RR.patches(bytes(lvl.tfrag_block()))
    assert [p["header"] for p in ps if p["index"] != 1] == \
        [p["header"] for p in po if p["index"] != 1]
    for lod in (1, 2):
        np.testing.assert_array_equal(new.terrain(lod)["triangles"],
                                      lvl.terrain(lod)["triangles"])


def test_material_change_and_fog_colour(scene, rc2, tmp_path):
    root, ob = imported(rc2[0])
    lvl = wadkit.rc2.open(rc2[0])
    t = lvl.terrain(0)
    me = ob.data
    slot = {s.material.name[-3:]: k for k, s in enumerate(ob.material_slots)}
    rows = np.flatnonzero(t["patch"] == 4)
    target = 1 - int(t["texture"][rows[0]])
    if f"{target:03d}" not in slot:
        pytest.skip("both textures are used in the generated level")
    for r in rows:                       # the whole patch on the other texture
        me.polygons[int(r)].material_index = slot[f"{target:03d}"]
    root["wadkit_fog_colour"] = [10, 20, 30]
    out = export(tmp_path)
    new = wadkit.rc2.open(str(out))
    assert new.settings["fog_colour"] == (10, 20, 30)
    assert RR.gameplay(new.gameplay)["settings"]["fog_colour"] == [10, 20, 30]
    assert (new.terrain(0)["texture"][rows] == target).all()
    other = np.flatnonzero(t["patch"] != 4)
    np.testing.assert_array_equal(new.terrain(0)["texture"][other], t["texture"][other])


def test_deleted_faces_re_encode_their_patch(scene, rc2, tmp_path):
    root, ob = imported(rc2[0])
    lvl = wadkit.rc2.open(rc2[0])
    t = lvl.terrain(0)
    rows = np.flatnonzero(t["patch"] == 2)
    import bmesh
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    bm.faces.ensure_lookup_table()
    bmesh.ops.delete(bm, geom=[bm.faces[int(rows[0])], bm.faces[int(rows[1])]],
                     context="FACES_ONLY")
    bm.to_mesh(ob.data)
    bm.free()
    out = export(tmp_path)
    new = wadkit.rc2.open(str(out))
    n = new.terrain(0)
    assert (n["patch"] == 2).sum() == len(rows) - 2
    assert len(n["triangles"]) == len(t["triangles"]) - 2
    keep = np.flatnonzero(t["patch"] != 2)
    got = n["positions"][n["triangles"][n["patch"] != 2]]
    np.testing.assert_array_equal(got, t["positions"][t["triangles"][keep]])
    # only patch 2 is re-encoded: every other patch keeps its stored data
    # (the builder's reader; the headers' data offsets may move)
    ps, po = RR.patches(bytes(new.tfrag_block())), RR.patches(bytes(lvl.tfrag_block()))
    fields = ("pos", "vinfo", "strips", "indices", "adgifs", "positions", "rgba")
    for a, b in zip(ps, po):
        if a["index"] != 2:
            assert [a[k] for k in fields] == [b[k] for k in fields], a["index"]


def test_objects_it_cannot_write_are_reported(scene, rc2, tmp_path, capsys):
    root, ob = imported(rc2[0])
    extra = bpy.data.objects.new("my tie", None)
    root.objects.link(extra)
    cube = bpy.data.meshes.new("new terrain")
    cube.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], [(0, 1, 2)])
    root.objects.link(bpy.data.objects.new("new terrain", cube))
    out = tmp_path / "out.wad"
    # reports of an operator run from Python go to the window manager
    assert bpy.ops.export_scene.wadkit_rc2(filepath=str(out)) == {"FINISHED"}
    from blender_addon.export_rc2 import export_rc2
    how, notes = export_rc2(bpy.context, str(tmp_path / "again.wad"))
    assert any(n.startswith("my tie: not written") for n in notes)
    assert any(n.startswith("new terrain: not written") for n in notes)
    assert out.read_bytes() == rc2[1]          # nothing else changed


def test_a_moved_instance_reaches_the_file(scene, rc2, tmp_path):
    root, _ = imported(rc2[0])
    lvl = wadkit.rc2.open(rc2[0])
    (tie,) = [o for o in root.all_objects
              if o.get("wadkit_kind") == "tie" and o["wadkit_instance"] == 1]
    tie.location.x += 2.5
    how, notes = __import__("blender_addon.export_rc2", fromlist=["x"]).export_rc2(
        bpy.context, str(tmp_path / "moved.wad"))
    assert "instances" in how
    new = wadkit.rc2.open(str(tmp_path / "moved.wad"))
    want = np.array(lvl.ties.matrix)
    want[1, 0, 3] += 2.5
    np.testing.assert_allclose(new.ties.matrix, want, atol=1e-4)
    assert not any("tie" in n and "not written" in n and "#" in n for n in notes)


@pytest.mark.every_blender
def test_terrain_imported_without_vertex_colours_keeps_the_levels(scene, rc2, tmp_path):
    """vertex_colors=False: the mesh has no colour attribute, so the export
    keeps the level's colours: unchanged is byte-identical, a moved vertex
    changes positions only, and a patch re-encoded from its faces is
    written white with a note naming the object."""
    assert bpy.ops.import_scene.wadkit_rc2(filepath=rc2[0], lod=0,
                                           vertex_colors=False) == {"FINISHED"}
    root = bpy.data.collections["LEVEL0"]
    (ob,) = [o for o in root.all_objects if o.get("wadkit_kind") == "terrain"]
    assert not ob.data.color_attributes
    assert export(tmp_path).read_bytes() == rc2[1]
    lvl = wadkit.rc2.open(rc2[0])
    t = lvl.terrain(0)
    assert np.ptp(t["color"]) > 0                   # the level's colours are not all one
    v = int(t["triangles"][t["patch"] == 1][0, 0])
    ob.data.vertices[v].co.z += 1.0
    n = wadkit.rc2.open(str(export(tmp_path, "moved.wad"))).terrain(0)
    np.testing.assert_array_equal(n["color"], t["color"])
    assert n["positions"][v, 2] != t["positions"][v, 2]
    # faces deleted: patch 2 is re-encoded, white, and the note says so
    import bmesh
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    bm.faces.ensure_lookup_table()
    rows = np.flatnonzero(t["patch"] == 2)
    bmesh.ops.delete(bm, geom=[bm.faces[int(rows[0])]], context="FACES_ONLY")
    bm.to_mesh(ob.data)
    bm.free()
    from blender_addon.export_rc2 import export_rc2
    how, notes = export_rc2(bpy.context, str(tmp_path / "deleted.wad"))
    assert [x for x in notes if "colour attribute" in x] == [
        f"{ob.name}: no 'Col' colour attribute (imported without vertex colours): the tfrag "
        "patches re-encoded from their faces are written white: 1, 2"], notes  # 1: moved
    n = wadkit.rc2.open(str(tmp_path / "deleted.wad")).terrain(0)
    np.testing.assert_allclose(n["color"][n["patch"] == 2], 1.0, atol=1 / 128)
    np.testing.assert_array_equal(n["color"][n["patch"] == 0], t["color"][t["patch"] == 0])


@pytest.mark.every_blender
def test_a_sheared_instance_is_where_blender_puts_it_until_moved():
    """export_rc2_instances._still: a placement equal to the stored matrix,
    or to what Blender makes of a sheared one (location / rotation / scale),
    is still there; one moved off (its translation or its turn) is not."""
    from mathutils import Matrix
    from blender_addon.export_rc2_instances import _still

    sheared = np.array([[1.0, 0.4, 0.0, 3.0], [0.0, 1.0, 0.0, -2.0],
                        [0.0, 0.0, 2.0, 5.0], [0.0, 0.0, 0.0, 1.0]])
    back = np.array(Matrix.LocRotScale(*Matrix(sheared.tolist()).decompose()))
    assert not np.allclose(back, sheared, atol=1e-3)

    class Inst:
        matrix = np.stack([sheared, np.eye(4)])

    moved, turned = back.copy(), back.copy()
    moved[2, 3] += 0.5
    turned[:3, :3] = turned[:3, :3] @ np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])
    got = _still(Inst, {0: [(None, None, None, m) for m in (sheared, back, moved, turned)],
                        1: [(None, None, None, np.eye(4))]})
    assert got == {0: [True, True, False, False], 1: [True]}
