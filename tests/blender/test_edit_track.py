"""The export reads again only the meshes Blender reported as changed since
the import (blender_addon/edit_track.py). These tests hold it to that: every
kind of Python edit reaches the written level (Blender tags the mesh, or the
export reads it anyway), an unchanged scene reads no tile mesh whole, and
what the depsgraph cannot see (a disabled object, an excluded Collision
collection, a base file changed on disk) is read whole."""
from __future__ import annotations

import os

import bmesh
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import edit_track, export_compare
from editing import collision_child, export, load, tile_object
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
}


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


def test_unchanged_scene_reads_no_tile_mesh(scene, small, tmp_path, reads):
    load(small)
    how, _ = export(tmp_path / "o.wad")
    assert how == "unchanged"
    assert reads["tiles"] == []
    # the Collision collection is out of the view layer: its meshes are read
    assert reads["collision"] == [len({c.data for c in bpy.data.objects
                                       if "wadkit_collision" in c})]


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
