"""Tile objects made of a per-zone import's tiles (Make tile objects):
the chosen tiles become objects as the per-tile import makes them, their
faces leave the zone meshes, and the export takes both kinds side by
side — unchanged stays byte-identical, a made tile turned by any angle,
copied, deleted or given collision reaches the file, and a tile both in a
zone mesh and a tile object is refused. Fixture: the from-spec terrain
level."""
import math

import bmesh
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert
from blender_addon.export_common import ExportError

from editing import (export, face_tiles, holder, load, own_tile, shared_tiles, terrain,
                     zone_objects)

pytestmark = pytest.mark.every_blender


@pytest.fixture
def terr(tmp_path):
    return terrain(tmp_path)


def select(*obs):
    for o in bpy.context.view_layer.objects:
        o.select_set(o in obs)
    if obs:
        bpy.context.view_layer.objects.active = obs[0]


def make_tiles_of_faces(ob, tiles):
    """Make tile objects of the tiles `tiles` by selecting their faces of
    zone object ob in Edit Mode."""
    select(ob)
    bpy.ops.object.mode_set(mode="EDIT")
    bm = bmesh.from_edit_mesh(ob.data)
    layer = bm.faces.layers.int["wadkit_tile"]
    for v in bm.verts:
        v.select = False
    for e in bm.edges:
        e.select = False
    for f in bm.faces:
        f.select = f[layer] in tiles
    bm.select_flush_mode()
    bmesh.update_edit_mesh(ob.data)
    assert bpy.ops.wadkit.eng_make_tiles() == {"FINISHED"}
    assert bpy.context.mode == "OBJECT"
    bpy.context.view_layer.update()
    return list(bpy.context.selected_objects)


def test_make_tiles_of_a_zone_object_then_unchanged_export_is_byte_identical(
        scene, terr, tmp_path):
    path, wad = terr
    coll = load(path, merge="ZONE", import_collision=False)
    zs = sorted(zone_objects(coll), key=lambda o: o.name)
    ts = sorted(np.unique(face_tiles(zs[0])).tolist())
    name = zs[0].name
    select(zs[0])
    assert bpy.ops.wadkit.eng_make_tiles() == {"FINISHED"}
    made = sorted(bpy.context.selected_objects, key=lambda o: o["wadkit_tile"])
    assert [o["wadkit_tile"] for o in made] == ts
    assert name not in bpy.data.objects            # left with no faces: removed
    src = wadkit.eng.open(path)
    for o in made:           # placed by the tile, as the per-tile import places it
        np.testing.assert_allclose(np.array(o.location),
                                   convert.to_blender(src.tiles.position[o["wadkit_tile"]]
                                                      [None])[0], atol=1e-6)
    out = tmp_path / "same.wad"
    how, notes = export(out)
    assert how == "unchanged" and out.read_bytes() == wad, (how, notes)
    assert notes == []


def test_make_tiles_of_selected_faces(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load(path, merge="ZONE", import_collision=False)
    ob = holder(coll, t)
    n_before = len(ob.data.polygons)
    n_t = int((face_tiles(ob) == t).sum())
    (made,) = make_tiles_of_faces(ob, {t})
    assert made["wadkit_tile"] == t and made.users_collection[0] == coll
    assert len(ob.data.polygons) == n_before - n_t and not (face_tiles(ob) == t).any()
    assert len(made.data.polygons) == len(src.models[int(src.tiles.model[t])].triangles)
    out = tmp_path / "same.wad"
    assert export(out)[0] == "unchanged" and out.read_bytes() == wad


def test_a_made_tile_turned_by_any_angle_reaches_the_file(scene, terr, tmp_path):
    """30° is no quarter turn: the zone view alone would refuse it; the
    tile object bakes it into the tile's model as the per-tile export
    does, the other tiles keep their bytes."""
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load(path, merge="ZONE", import_collision=False)
    (made,) = make_tiles_of_faces(holder(coll, t), {t})
    made.rotation_euler[2] += math.radians(30)
    bpy.context.view_layer.update()
    want = np.array([made.matrix_world @ v.co for v in made.data.vertices])
    out = tmp_path / "turned.wad"
    how, _ = export(out)
    assert "patched" in how, how
    new = wadkit.eng.open(str(out))
    assert len(new.tiles.model) == len(src.tiles.model)
    wm = new.world_mesh()
    got = convert.to_blender(wm["positions"][np.unique(wm["triangles"][wm["tile"] == t])])
    np.testing.assert_allclose(np.sort(got, axis=0), np.sort(want, axis=0), atol=2e-3)
    others = [k for k in range(len(src.tiles.model)) if k != t]
    np.testing.assert_array_equal(new.tiles.position[others], src.tiles.position[others])


def test_a_made_tile_copied_adds_a_tile_of_its_model(scene, terr, tmp_path):
    path, _ = terr
    src = wadkit.eng.open(path)
    t = shared_tiles(src)[0]
    coll = load(path, merge="ZONE", import_collision=False)
    (made,) = make_tiles_of_faces(holder(coll, t), {t})
    dup = made.copy()
    coll.objects.link(dup)
    dup.location.x += 3.0
    out = tmp_path / "copied.wad"
    how, _ = export(out)
    assert "1 copied" in how, how
    new = wadkit.eng.open(str(out))
    assert len(new.tiles.model) == len(src.tiles.model) + 1
    assert len(new.models) == len(src.models)          # the copy shares the model
    assert int(new.tiles.model[-1]) == int(src.tiles.model[t])
    want = convert.to_file((convert.to_blender(src.tiles.position[t][None])[0]
                            + (3.0, 0.0, 0.0))[None].astype(np.float32))[0]
    np.testing.assert_allclose(new.tiles.position[-1], want, atol=1 / 4096)
    np.testing.assert_array_equal(new.tiles.position[:-1], src.tiles.position)


def test_deleting_a_made_tile_object_deletes_the_tile(scene, terr, tmp_path):
    path, _ = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load(path, merge="ZONE", import_collision=False)
    (made,) = make_tiles_of_faces(holder(coll, t), {t})
    bpy.data.objects.remove(made)
    out = tmp_path / "deleted.wad"
    how, _ = export(out)
    assert "1 deleted" in how, how
    new = wadkit.eng.open(str(out))
    keep = [k for k in range(len(src.tiles.model)) if k != t]
    np.testing.assert_array_equal(new.tiles.model, src.tiles.model[keep])


def test_build_collision_on_made_tiles(scene, terr, tmp_path):
    """Collision objects for the made tile: unchanged exports the same
    bytes; its collision child moved up moves the tile's floor."""
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load(path, merge="ZONE", import_collision=False)
    (made,) = make_tiles_of_faces(holder(coll, t), {t})
    select(made)
    assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}
    (child,) = [c for c in made.children if "wadkit_collision" in c]
    out = tmp_path / "same.wad"
    assert export(out)[0] == "unchanged" and out.read_bytes() == wad
    for v in child.data.vertices:
        v.co.z += 0.5
    out = tmp_path / "raised.wad"
    how, _ = export(out)
    assert "1 with new collision" in how, how
    new = wadkit.eng.open(str(out))
    x, y, z = (float(c) for c in src.tiles.position[t])
    a, b = src.floor(x, y + 3, z), new.floor(x, y + 3, z)
    assert a is not None and b is not None
    assert b["height"] == pytest.approx(a["height"] + 0.5, abs=2e-3)


def test_an_edited_tile_is_refused(scene, terr):
    """A tile whose zone faces were edited cannot be made into an object:
    the edit would be lost; nothing changes."""
    path, _ = terr
    t = own_tile(wadkit.eng.open(path))
    coll = load(path, merge="ZONE", import_collision=False)
    ob = holder(coll, t)
    ft = face_tiles(ob)
    v = next(p.vertices[0] for p in ob.data.polygons if ft[p.index] == t)
    ob.data.vertices[v].co.z += 0.25
    n = len(bpy.data.objects)
    select(ob)
    with pytest.raises(RuntimeError, match=f"tile.s. {t} were edited"):
        bpy.ops.wadkit.eng_make_tiles()
    assert len(bpy.data.objects) == n and (face_tiles(ob) == t).any()


def test_a_tile_in_a_zone_mesh_and_a_tile_object_is_refused(scene, terr, tmp_path):
    path, _ = terr
    t = own_tile(wadkit.eng.open(path))
    coll = load(path, merge="ZONE", import_collision=False)
    zone = holder(coll, t)
    keep = zone.data.copy()
    (made,) = make_tiles_of_faces(zone, {t})
    zone.data = keep                       # the tile's faces back in the zone
    with pytest.raises(ExportError) as e:
        export(tmp_path / "both.wad")
    assert zone.name in str(e.value) and made.name in str(e.value)
