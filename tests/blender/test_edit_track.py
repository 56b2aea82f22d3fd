"""The export reads again only the meshes Blender reported as changed since
the import (blender_addon/edit_track.py). These tests hold it to that: every
kind of Python edit reaches the written level (Blender tags the mesh, or the
export's check of corners, face starts and attribute names finds it), an
unchanged scene reads no mesh whole, the meshes of an excluded Collision
collection are trusted only while no mesh at all was tagged, and what the
depsgraph cannot see otherwise (a disabled object, a base file changed on
disk) is read whole."""
from __future__ import annotations

import os

import bmesh
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import edit_track, export_compare
from editing import collision_child, export, load, terrain, tile_object
from mesh_edits import bmesh_move, nudge

pytestmark = pytest.mark.every_blender


@pytest.fixture
def reads(monkeypatch):
    """How many tile / collision meshes each export read whole."""
    got = {"tiles": [], "collision": []}
    orig_r, orig_c = export_compare._read_changes, export_compare._read_collision

    def read_r(base, meshes, *a):
        got["tiles"].append(len(meshes))
        return orig_r(base, meshes, *a)

    def read_c(meshes, *a):
        got["collision"].append(len(meshes))
        return orig_c(meshes, *a)

    monkeypatch.setattr(export_compare, "_read_changes", read_r)
    monkeypatch.setattr(export_compare, "_read_collision", read_c)
    return got


def _other_material(me):
    """An import material standing for no entry of slot 0's material."""
    mine = set(me.materials[0]["wadkit_textures"])
    for m in bpy.data.materials:
        e = m.get("wadkit_textures")
        if e is not None and len(e) and not mine & set(e):
            return m
    raise AssertionError("no other level material")


def _flags(me):
    vals = np.empty(len(me.polygons), np.int32)
    a = me.attributes["wadkit_face_flags"]
    a.data.foreach_get("value", vals)
    vals[0] ^= 0x10
    a.data.foreach_set("value", vals)


EDITS = {
    "vertex co": lambda me: setattr(me.vertices[0], "co", me.vertices[0].co + type(
        me.vertices[0].co)((0, 0, 0.25))),
    "position foreach_set": lambda me: nudge(me.attributes["position"].data, "vector", 3, 2),
    "vertices foreach_set": lambda me: nudge(me.vertices, "co", 3, 2),
    "uv foreach_set": lambda me: nudge(me.attributes[me.uv_layers.active.name].data,
                                        "vector", 2, 0, 0.3),
    "uv_layers foreach_set": lambda me: nudge(me.uv_layers.active.data, "uv", 2, 0, 0.3),
    "colour foreach_set": lambda me: nudge(me.color_attributes["Col"].data, "color", 4, 0,
                                            -0.5),
    "face flags foreach_set": _flags,
    "material slot": lambda me: me.materials.__setitem__(0, _other_material(me)),
    "bmesh.to_mesh": bmesh_move,
    # RNA item sets of the topology: Blender tags nothing for these
    # (docs/blender.md "Speed"); the export's cheap check reads corner_vert
    "loop vertex_index": lambda me: setattr(me.loops[0], "vertex_index",
                                            me.loops[1].vertex_index),
    "polygon vertices": lambda me: setattr(me.polygons[0], "vertices",
                                           tuple(reversed(me.polygons[0].vertices))),
    "attribute renamed": lambda me: setattr(me.attributes["wadkit_face_flags"], "name", "flags"),
}


def _shift_face_start(me):
    """A triangle next to a quad becomes the quad and the quad the triangle
    (MeshPolygon.loop_start of the second moved by one corner: the one
    valid loop_start edit, face starts must rise)."""
    sizes = [p.loop_total for p in me.polygons]
    i = next(i for i in range(len(sizes) - 1) if {sizes[i], sizes[i + 1]} == {3, 4})
    me.polygons[i + 1].loop_start += 1 if sizes[i] == 3 else -1


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_every_python_edit_reaches_the_file(scene, small, tmp_path, edit, reads):
    """Edits without mesh.update(): each is written (and the mesh is the
    only tile mesh read whole: Blender reported it)."""
    load(small)
    me = tile_object("small", 1).data
    EDITS[edit](me)
    out = tmp_path / "o.wad"
    how, _ = export(out)
    assert how != "unchanged"
    assert out.read_bytes() != open(small, "rb").read()
    assert reads["tiles"] == [1]


def test_unchanged_scene_reads_no_mesh(scene, small, tmp_path, reads):
    """Nothing edited: no tile mesh and (no mesh tagged since the import) no
    collision mesh of the excluded Collision collection is read whole."""
    load(small)
    how, _ = export(tmp_path / "o.wad")
    assert how == "unchanged"
    assert reads["tiles"] == [] and reads["collision"] == []
    assert (tmp_path / "o.wad").read_bytes() == open(small, "rb").read()


def _n_collision_meshes():
    return len({c.data for c in bpy.data.objects if "wadkit_collision" in c})


def test_excluded_collision_read_after_any_mesh_tag(scene, small, tmp_path, reads):
    """A tile edit tags a mesh: Blender cannot say which, so the excluded
    collision meshes are read whole once; found unchanged, they are trusted
    again by the next export."""
    load(small)
    nudge(tile_object("small", 1).data.attributes["position"].data, "vector", 3, 2)
    how, _ = export(tmp_path / "o.wad")
    assert how != "unchanged" and "collision" not in how
    assert reads["collision"] == [_n_collision_meshes()]
    export(tmp_path / "p.wad")
    assert reads["collision"] == [_n_collision_meshes()]


COLLISION_EDITS = {
    "vertex co": EDITS["vertex co"],
    "position foreach_set": lambda me: nudge(me.attributes["position"].data, "vector", 3, 2,
                                             0.1),
    "bmesh.to_mesh": bmesh_move,
    "ground material item": lambda me: setattr(
        me.attributes["wadkit_material"].data[0], "value",
        me.attributes["wadkit_material"].data[0].value ^ 1),
    "loop vertex_index": EDITS["loop vertex_index"],
    "polygon vertices": EDITS["polygon vertices"],
    "polygon loop_start": _shift_face_start,
}


@pytest.mark.parametrize("edit", sorted(COLLISION_EDITS))
def test_excluded_collision_edit_kinds_are_written(scene, small, tmp_path, edit):
    """Each kind of script edit of a mesh of the excluded Collision
    collection (tagged or not) reaches the file."""
    load(small)
    ch = collision_child(tile_object("small", 0))
    COLLISION_EDITS[edit](ch.data)
    out = tmp_path / "o.wad"
    how, _ = export(out)
    assert "collision" in how
    assert out.read_bytes() != open(small, "rb").read()


def test_shown_collision_is_tracked(scene, small, tmp_path, reads):
    """show_collision=True: the collision objects are evaluated, so their
    meshes are tracked like the tiles' (none read whole when unchanged),
    and an edit of one is read and written."""
    load(small, show_collision=True)
    how, _ = export(tmp_path / "o.wad")
    assert how == "unchanged" and reads["collision"] == [] and reads["tiles"] == []
    ch = collision_child(tile_object("small", 0))
    nudge(ch.data.attributes["position"].data, "vector", 3, 2, 0.1)
    how, _ = export(tmp_path / "p.wad")
    assert "collision" in how and reads["collision"] == [1]


def test_disabled_object_is_read_whole(scene, small, tmp_path, reads):
    """An object disabled in viewports is not evaluated: Blender reports no
    change of its mesh, so the export reads it."""
    load(small)
    ob = tile_object("small", 1)
    ob.hide_viewport = True
    bpy.context.view_layer.update()
    nudge(ob.data.attributes["position"].data, "vector", 3, 2)
    out = tmp_path / "o.wad"
    how, _ = export(out)
    assert how != "unchanged" and reads["tiles"] == [1]
    z = np.asarray(wadkit.eng.open(str(out)).models[int(ob["wadkit_model"])].positions)
    z0 = np.asarray(wadkit.eng.open(small).models[int(ob["wadkit_model"])].positions)
    assert not np.array_equal(z, z0)


def test_excluded_collision_edit_is_written(scene, small, tmp_path):
    """The Collision collection left out of the view layer (the default):
    a script's edit of a collision mesh (positions and ground material)
    reaches the file."""
    load(small)
    ch = collision_child(tile_object("small", 0))
    nudge(ch.data.attributes["position"].data, "vector", 3, 2, 0.1)
    mats = np.empty(len(ch.data.polygons), np.int32)
    ch.data.attributes["wadkit_material"].data.foreach_get("value", mats)
    ch.data.attributes["wadkit_material"].data.foreach_set("value", mats ^ 1)
    out = tmp_path / "o.wad"
    how, _ = export(out)
    assert "collision" in how
    m = int(tile_object("small", 0)["wadkit_model"])
    got = wadkit.eng.open(str(out)).collision_polygons([m])["material"]
    want = wadkit.eng.open(small).collision_polygons([m])["material"]
    assert set(np.asarray(got).tolist()) == set((np.asarray(want) ^ 1).tolist())


def test_base_file_changed_on_disk_reads_all(scene, small, tmp_path, reads):
    """The session is of the file as imported: touched since, every mesh is
    compared with the file again."""
    load(small)
    st = os.stat(small)
    os.utime(small, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    how, _ = export(tmp_path / "o.wad")
    assert how == "unchanged"
    assert reads["tiles"] == [len({o.data for o in bpy.data.objects if "wadkit_tile" in o})]


def test_no_tracking_without_the_handler(scene, small, tmp_path, reads):
    """Without the depsgraph handler (the add-on's register() not run)
    nothing is trusted: an edit is still written."""
    edit_track.unregister()
    try:
        load(small)
        nudge(tile_object("small", 1).data.attributes["position"].data, "vector", 3, 2)
        how, _ = export(tmp_path / "o.wad")
    finally:
        edit_track.register()
    assert how != "unchanged"
    assert reads["tiles"] == [len({o.data for o in bpy.data.objects if "wadkit_tile" in o})]


def test_excluded_collision_renamed_attribute_is_read(scene, small, tmp_path, reads):
    """Renaming wadkit_material tags nothing; the check of attribute names
    finds it and the mesh is read whole (its faces' ground materials then
    come from their material slots: the same, so the level is unchanged)."""
    load(small)
    ch = collision_child(tile_object("small", 0))
    ch.data.attributes["wadkit_material"].name = "ground"
    export(tmp_path / "o.wad")
    assert reads["collision"] == [1]


def test_excluded_collision_edit_after_a_rearm_is_written(scene, small, tmp_path, reads):
    """An export that read the collision whole and found it unchanged trusts
    it again; a script's edit of a collision mesh after that tags a mesh,
    so the next export reads the collision again and writes the edit."""
    load(small)
    nudge(tile_object("small", 1).data.attributes["position"].data, "vector", 3, 2)
    export(tmp_path / "o.wad")                       # reads the collision, re-arms
    ch = collision_child(tile_object("small", 0))
    nudge(ch.data.attributes["position"].data, "vector", 3, 2, 0.1)
    how, _ = export(tmp_path / "p.wad")
    assert "collision" in how
    assert reads["collision"] == [_n_collision_meshes()] * 2


def test_segment_any_agrees_with_its_definition():
    """segment_any (any flag per run, by the flags set) against what it
    stands for: a sum of the flags per run."""
    from blender_addon.export_batch import segment_any
    from blender_addon.mesh_build import starts
    rng = np.random.default_rng(7)
    for g in (0, 1, 2, 9, 40):
        counts = rng.integers(0, 6, g) * (rng.random(g) < 0.7)     # some runs empty
        st = starts(counts)
        for density in (0.0, 0.02, 0.5):
            flags = rng.random(int(st[-1])) < density
            want = np.array([flags[st[k]:st[k + 1]].sum() > 0 for k in range(g)], bool)
            np.testing.assert_array_equal(segment_any(flags, st), want)


def test_check_blames_each_untagged_edit_on_its_own_mesh(scene, tmp_path):
    """The check reads each mesh's corners (and face starts) into the
    record's layout: edits Blender does not tag (a loop's vertex, a face's
    corners, a renamed attribute) make those meshes, and only those,
    untrusted, in whatever order the meshes are asked about."""
    path, _ = terrain(tmp_path)
    coll = load(path)
    s = edit_track.session_for(coll, path)
    by_uid = {me.session_uid: me for me in bpy.data.meshes}
    users = {}
    for ob in bpy.data.objects:
        if ob.type == "MESH":
            users.setdefault(ob.data.session_uid, []).append(ob)
    for rec, kind in ((s.tiles, "tiles"), (s.collision, "collision")):
        # the record's meshes, last first (the record's rows reversed)
        meshes = [by_uid[u] for u in sorted(rec.index, key=rec.index.get, reverse=True)]
        props = rec.props[[rec.index[me.session_uid] for me in meshes]]
        ask = lambda: edit_track.unchanged(rec, meshes, props,  # noqa: E731
                                           [users[me.session_uid] for me in meshes])
        assert len(meshes) > 8 and ask().all(), kind
        a, b = meshes[2], meshes[6]
        EDITS["loop vertex_index"](a)
        if kind == "tiles":
            b.attributes["wadkit_face_flags"].name = "renamed"
        else:
            EDITS["polygon vertices"](b)
        edited = {a.session_uid, b.session_uid}
        assert ask().tolist() == [me.session_uid not in edited for me in meshes], kind
