"""Editing a per-zone import (merge="ZONE") and exporting: tiles deleted
with their faces or their zone object are removed, a tile's faces moved
and turned as a whole move the tile (its model and collision kept), and
what cannot go back to a tile is refused by name. Fixture: the from-spec
terrain level (turned tiles, a shared crate model, a water plane)."""
import math

import bmesh
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert
from blender_addon.export_common import ExportError

from editing import (chunk_payloads, export, face_tiles, holder, load, own_tile, terrain,
                     zone_objects)

pytestmark = pytest.mark.every_blender


@pytest.fixture
def terr(tmp_path):
    return terrain(tmp_path)


def load_zones(path):
    return load(path, merge="ZONE", import_collision=False)


def tile_verts(ob, t) -> np.ndarray:
    ft = face_tiles(ob)
    return np.unique([v for p in ob.data.polygons if ft[p.index] == t for v in p.vertices])


def coords(me) -> np.ndarray:
    co = np.empty(len(me.vertices) * 3, np.float32)
    me.vertices.foreach_get("co", co)
    return co.reshape(-1, 3)


def turn_about(p, centre, up: float):
    """p (N,3) Blender space turned a quarter turn about +z through centre
    and raised by up."""
    r = convert.z_rotation(math.pi / 2)[0]
    return (p - centre) @ r.T + centre + (0.0, 0.0, up)


def tile_world(lvl, t):
    wm = lvl.world_mesh()
    return wm["positions"][np.unique(wm["triangles"][wm["tile"] == t])]


def floors_moved(src, new, t, up: float):
    """At points inside tile t's area, the new level's floor is the
    source's turned a quarter turn about the tile's position and raised by
    up (its collision moved with it). Returns how many points had a floor."""
    pos = np.asarray(src.tiles.position[t], np.float64)
    pts = tile_world(src, t).astype(np.float64)
    pts = pos + 0.5 * (pts - pos)               # inside the tile, off its edges
    hits = 0
    r = convert.z_rotation(math.pi / 2)[0]
    for p in pts:
        a = src.floor(float(p[0]), float(p[1]) + 0.01, float(p[2]))
        if a is None or a["height"] < p[1] - 0.5:
            continue
        q = convert.to_file((convert.to_blender(p[None].astype(np.float32))[0]
                             - convert.to_blender(pos[None].astype(np.float32))[0]) @ r.T
                            + convert.to_blender(pos[None].astype(np.float32))[0])[0]
        b = new.floor(float(q[0]), float(p[1]) + up + 0.01, float(q[2]))
        assert b is not None and b["height"] == pytest.approx(a["height"] + up, abs=1e-3)
        hits += 1
    return hits


def test_unchanged_zone_export_is_byte_identical(scene, terr, tmp_path):
    path, wad = terr
    load_zones(path)
    out = tmp_path / "same.wad"
    assert export(out)[0] == "unchanged" and out.read_bytes() == wad


def test_deleting_a_tiles_faces_removes_the_tile(scene, terr, tmp_path):
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load_zones(path)
    ob = holder(coll, t)
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    ft = face_tiles(ob)
    bmesh.ops.delete(bm, geom=[f for f in bm.faces if ft[f.index] == t], context="FACES")
    bm.to_mesh(ob.data)
    bm.free()
    out = tmp_path / "deleted.wad"
    how, _ = export(out)
    assert "1 deleted" in how, how
    new = wadkit.eng.open(str(out))
    keep = [k for k in range(len(src.tiles.model)) if k != t]
    np.testing.assert_array_equal(new.tiles.model, src.tiles.model[keep])
    np.testing.assert_array_equal(new.tiles.position, src.tiles.position[keep])


def test_deleting_a_zone_object_removes_its_tiles(scene, terr, tmp_path):
    path, _ = terr
    src = wadkit.eng.open(path)
    coll = load_zones(path)
    zones = sorted((o for o in coll.objects if "wadkit_zone" in o), key=lambda o: o.name)
    assert len(zones) > 1
    gone = set(np.unique(face_tiles(zones[0])).tolist())
    bpy.data.objects.remove(zones[0])
    out = tmp_path / "zone_deleted.wad"
    how, _ = export(out)
    assert f"{len(gone)} deleted" in how, how
    new = wadkit.eng.open(str(out))
    keep = [k for k in range(len(src.tiles.model)) if k not in gone]
    np.testing.assert_array_equal(new.tiles.model, src.tiles.model[keep])


def test_faces_moved_and_turned_as_a_whole_move_the_tile(scene, terr, tmp_path):
    """A tile's faces raised 0.75 and turned 90° about its position in the
    zone mesh: TRAK (its model) is kept, its placement changes, and its
    collision (not shown in this view) moves with it."""
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load_zones(path)
    ob = holder(coll, t)
    vs = tile_verts(ob, t)
    co = coords(ob.data)
    centre = convert.to_blender(src.tiles.position[t][None])[0]
    co[vs] = turn_about(co[vs], centre, 0.75)
    ob.data.vertices.foreach_set("co", co.reshape(-1))
    ob.data.update()
    out = tmp_path / "turned.wad"
    how, _ = export(out)
    assert "1 moved" in how and "new geometry" not in how, how
    new = wadkit.eng.open(str(out))
    assert chunk_payloads(path)["TRAK"] == chunk_payloads(out)["TRAK"]
    assert new.tiles.rotation[t] == (src.tiles.rotation[t] + 1024) % 4096
    np.testing.assert_allclose(new.tiles.position[t],
                               src.tiles.position[t] + (0, 0.75, 0), atol=1 / 4096)
    np.testing.assert_allclose(np.sort(tile_world(new, t), axis=0),
                               np.sort(convert.to_file(co[vs]), axis=0), atol=1e-4)
    assert floors_moved(src, new, t, 0.75) > 0


def separate(ob, faces) -> object:
    """P > Selection in Edit Mode on the faces; returns the new object."""
    for o in bpy.context.view_layer.objects:
        o.select_set(False)
    bpy.context.view_layer.objects.active = ob
    ob.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    bm = bmesh.from_edit_mesh(ob.data)
    bm.faces.ensure_lookup_table()
    for f in bm.verts:
        f.select = False
    for f in bm.edges:
        f.select = False
    for f in bm.faces:
        f.select = f.index in faces
    bm.select_flush_mode()
    bmesh.update_edit_mesh(ob.data)
    before = set(bpy.data.objects)
    assert bpy.ops.mesh.separate(type="SELECTED") == {"FINISHED"}
    bpy.ops.object.mode_set(mode="OBJECT")
    (made,) = set(bpy.data.objects) - before
    return made


def test_tile_separated_and_moved_as_an_object_moves_the_tile(scene, terr, tmp_path):
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load_zones(path)
    ob = holder(coll, t)
    part = separate(ob, set(np.flatnonzero(face_tiles(ob) == t).tolist()))
    c = convert.to_blender(src.tiles.position[t][None])[0].astype(np.float64)
    m = np.eye(4)
    m[:3, :3] = convert.z_rotation(math.pi / 2)[0]
    m[:3, 3] = c - m[:3, :3] @ c + (0, 0, 0.75)
    part.matrix_world = m.T.tolist()        # mathutils takes rows
    bpy.context.view_layer.update()
    out = tmp_path / "separated.wad"
    how, _ = export(out)
    assert "1 moved" in how and "new geometry" not in how, how
    new = wadkit.eng.open(str(out))
    assert chunk_payloads(path)["TRAK"] == chunk_payloads(out)["TRAK"]
    assert len(new.tiles.model) == len(src.tiles.model)
    assert new.tiles.rotation[t] == (src.tiles.rotation[t] + 1024) % 4096
    assert floors_moved(src, new, t, 0.75) > 0


def test_a_tile_split_over_two_objects_is_refused_by_name(scene, terr, tmp_path):
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load_zones(path)
    ob = holder(coll, t)
    faces = np.flatnonzero(face_tiles(ob) == t)
    assert len(faces) > 1
    part = separate(ob, set(faces[: len(faces) // 2].tolist()))
    out = tmp_path / "split.wad"
    with pytest.raises(ExportError) as e:
        export(out)
    assert ob.name in str(e.value) and part.name in str(e.value)
    assert f"tile {t}" in str(e.value)
    assert not out.exists()


def test_a_zone_object_duplicated_is_refused_by_name(scene, terr, tmp_path):
    path, _ = terr
    coll = load_zones(path)
    ob = next(o for o in coll.objects if "wadkit_zone" in o)
    dup = ob.copy()
    coll.objects.link(dup)
    with pytest.raises(ExportError) as e:
        export(tmp_path / "dup.wad")
    assert ob.name in str(e.value) and dup.name in str(e.value)


def test_a_vertex_moved_and_the_tile_moved_exports_both(scene, terr, tmp_path):
    """A tile moved as a whole with one of its vertices moved further: the
    tile is placed anew and the one vertex goes into its model."""
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load_zones(path)
    ob = holder(coll, t)
    vs = tile_verts(ob, t)
    assert len(vs) >= 4
    co = coords(ob.data)
    centre = convert.to_blender(src.tiles.position[t][None])[0]
    co[vs] = turn_about(co[vs], centre, 0.75)
    co[vs[0], 2] += 0.25
    ob.data.vertices.foreach_set("co", co.reshape(-1))
    ob.data.update()
    out = tmp_path / "both.wad"
    how, _ = export(out)
    assert "1 moved" in how and "1 tiles with new geometry" in how, how
    new = wadkit.eng.open(str(out))
    assert new.tiles.rotation[t] == (src.tiles.rotation[t] + 1024) % 4096
    got = tile_world(new, t)
    want = convert.to_file(co[vs])
    assert np.abs(got[:, None, :] - want[None, :, :]).max(axis=2).min(axis=0).max() < 1e-3



def test_another_material_on_a_tiles_face_reaches_the_file(scene, tmp_path):
    """A face of a zone mesh given another level material (its texture
    attribute left as it was) takes that material's entry, as in a tile
    object (test_eng_materials.py)."""
    import levels
    path = tmp_path / "paint.wad"
    path.write_bytes(levels.paint_level())
    src = wadkit.eng.open(str(path))
    coll = load_zones(str(path))
    ob = holder(coll, 0)
    me = ob.data
    mat = bpy.data.materials["paint page 01 b1"]
    if mat.name not in me.materials:
        me.materials.append(mat)
    ft = face_tiles(ob)
    tex = np.empty(len(me.polygons), np.int32)
    me.attributes["wadkit_texture"].data.foreach_get("value", tex)
    page = np.asarray(src.textures["page"])
    f = int(np.flatnonzero((ft == 0) & (page[tex] == 0))[0])
    me.polygons[f].material_index = list(me.materials).index(mat)
    me.update()
    out = tmp_path / "material.wad"
    how, _ = export(out)
    assert "1 tiles with new geometry" in how, how
    new = wadkit.eng.open(str(out))
    wm = new.world_mesh()
    pages = np.asarray(new.textures["page"])[np.asarray(wm["texture"])[wm["tile"] == 0]]
    assert (pages == 1).sum() == (page[tex[ft == 0]] == 1).sum() + 1


@pytest.mark.parametrize("attr", ["wadkit_face_flags", "wadkit_texture"])
def test_a_changed_or_removed_face_attribute(scene, terr, tmp_path, attr):
    """A face-flags value set on one face of a tile reaches the file; a
    removed attribute is no error: flags are kept, texture entries come
    from the faces' materials (the same entries here)."""
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load_zones(path)
    ob = holder(coll, t)
    me = ob.data
    f = int(np.flatnonzero(face_tiles(ob) == t)[0])
    if attr == "wadkit_face_flags":
        a = me.attributes[attr]
        a.data[f].value = a.data[f].value | 0x4000
        how, _ = export(tmp_path / "flags.wad")
        assert "1 tiles with new geometry" in how, how
        wm = wadkit.eng.open(str(tmp_path / "flags.wad")).world_mesh()
        def marked(wm):
            return int((np.asarray(wm["face_flags"])[wm["tile"] == t] & 0x4000 != 0).sum())
        assert marked(wm) == marked(src.world_mesh()) + 1
    for ob2 in coll.objects:
        if attr in ob2.data.attributes:
            ob2.data.attributes.remove(ob2.data.attributes[attr])
    out = tmp_path / "removed.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    np.testing.assert_array_equal(new.world_mesh()["texture"], src.world_mesh()["texture"])


@pytest.mark.parametrize("what", ["uv", "colour"])
def test_one_corner_edit_of_one_tile_reaches_the_file(scene, terr, tmp_path, what):
    """One UV corner or one vertex colour of one tile changed in its zone
    mesh: that tile is written anew, every other tile keeps its bytes (the
    export's whole-mesh compare must not take the edited tile for
    untouched; a face's texture and flags: the tests above)."""
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load_zones(path)
    ob = holder(coll, t)
    me = ob.data
    f = int(np.flatnonzero(face_tiles(ob) == t)[0])
    loop = me.polygons[f].loop_start
    if what == "uv":
        uv = me.uv_layers.active.data[loop].uv
        me.uv_layers.active.data[loop].uv = (uv[0] + 0.25, uv[1])
    else:
        me.color_attributes["Col"].data[me.loops[loop].vertex_index].color = (0.5, 0.25,
                                                                              0.125, 1.0)
    me.update()
    out = tmp_path / f"{what}.wad"
    how, _ = export(out)
    assert ("recoloured" if what == "colour" else "new geometry") in how, how
    new = wadkit.eng.open(str(out))
    a, b = src.world_mesh(), new.world_mesh()
    key = {"uv": "uv", "colour": "color"}[what]
    assert not np.array_equal(a[key][a["tile"] == t], b[key][b["tile"] == t])
    for k in ("uv", "color", "texture"):
        np.testing.assert_array_equal(a[k][a["tile"] != t], b[k][b["tile"] != t])


def test_a_zone_object_moved_moves_its_tiles(scene, terr, tmp_path):
    """The mesh untouched (the export trusts it as imported), the object
    moved: every tile of it is placed anew, the others are not."""
    path, wad = terr
    src = wadkit.eng.open(path)
    coll = load_zones(path)
    out = tmp_path / "same.wad"
    assert export(out)[0] == "unchanged" and out.read_bytes() == wad
    ob = sorted(zone_objects(coll), key=lambda o: o.name)[0]
    ts = np.unique(face_tiles(ob))
    ob.location.z += 0.5
    out = tmp_path / "moved.wad"
    how, _ = export(out)
    assert f"{len(ts)} moved" in how, how
    new = wadkit.eng.open(str(out))
    d = convert.to_file(np.array([[0.0, 0.0, 0.5]], np.float32))[0]
    np.testing.assert_allclose(new.tiles.position[ts], src.tiles.position[ts] + d,
                               atol=1 / 4096)
    rest = np.setdiff1d(np.arange(len(src.tiles.model)), ts)
    np.testing.assert_array_equal(new.tiles.position[rest], src.tiles.position[rest])


def test_successive_exports_write_what_one_export_of_the_same_edits_writes(
        scene, terr, tmp_path):
    """The export keeps what it derives of the base level with the import
    session (export_base.Base.kept): a second export after more edits writes
    the bytes of a fresh import given all the edits at once, and a vertex
    colour edited between them is read, not taken from the first export."""
    path, _ = terr

    def edit(coll, step):
        ob = max(zone_objects(coll), key=lambda o: len(o.data.polygons))
        if step == 0:
            ob.data.vertices[0].co.z += 0.25
        else:
            ob.data.vertices[5].co.x -= 0.125
            ob.data.color_attributes["Col"].data[7].color = (0.25, 0.5, 1.0, 1.0)
        ob.data.update()

    coll = load_zones(path)
    edit(coll, 0)
    export(tmp_path / "first.wad")
    edit(coll, 1)
    export(tmp_path / "second.wad")
    bpy.ops.wm.read_factory_settings(use_empty=True)
    coll = load_zones(path)
    edit(coll, 0)
    edit(coll, 1)
    export(tmp_path / "once.wad")
    assert (tmp_path / "second.wad").read_bytes() == (tmp_path / "once.wad").read_bytes()
    assert (tmp_path / "second.wad").read_bytes() != (tmp_path / "first.wad").read_bytes()
