"""Editing collision in Blender (issue 14): a collision child moves with its
tile, its vertex, polygon and new-face edits are exported (alone or with
render edits), the records the user did not touch keep their bytes, and a
deleted Collision collection loses nothing. Each test runs on collision
objects made by the import (import_collision=True) and on ones made later
by Build collision (the default import, then every tile built)."""
import bpy
import numpy as np
import pytest

import wadkit

from editing import (assert_floor_on_face, chunk_payloads, collision_child, export,
                     load, own_tile, terrain, tile_object)

pytestmark = pytest.mark.usefixtures("made")
RECORD = 32      # bytes of a collision record (docs/formats/eng-collision.md)


@pytest.fixture
def terr(tmp_path):
    return terrain(tmp_path)


def records(lvl, m):
    raw = bytes(lvl.models[m].collision_raw)
    return [raw[k:k + RECORD] for k in range(0, len(raw), RECORD)]


def water_count(lvl) -> int:
    return sum(int((np.asarray(lvl.models[int(m)].collision["material"]) == 0x1E).sum())
               for m in lvl.tiles.model)


def test_imported_as_a_child_in_tile_space(scene, terr):
    path, _ = terr
    src = wadkit.eng.open(path)
    load(path)
    t = own_tile(src)
    ob = tile_object("terr", t)
    ch = collision_child(ob)
    assert ch.parent == ob and ch.hide_render and ch.display_type == "WIRE"
    assert tuple(ch.location) == (0, 0, 0) and tuple(ch.rotation_euler) == (0, 0, 0)
    m = int(src.tiles.model[t])
    c = src.models[m].collision
    assert len(ch.data.polygons) == len(c["n_corners"])
    for name in ("type", "group", "material"):
        a = np.empty(len(ch.data.polygons), np.int32)
        ch.data.attributes[f"wadkit_{name}"].data.foreach_get("value", a)
        assert a.tolist() == np.asarray(c[name]).tolist(), name
    # one collision mesh per model: the water tiles share theirs
    water = [tile_object("terr", int(k)) for k in np.flatnonzero(src.tiles.model == 0)]
    assert len({collision_child(o).data.name for o in water}) == 1
    assert collision_child(water[0]).data.name == "terr collision 0"


def test_collision_vertex_edit(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    m = int(src.tiles.model[t])
    load(path)
    ch = collision_child(tile_object("terr", t))
    face = ch.data.polygons[5]
    v = face.vertices[0]
    ch.data.vertices[v].co.z += 0.05
    out = tmp_path / "cvert.wad"
    how, notes = export(out)
    new = wadkit.eng.open(str(out))
    a, b = chunk_payloads(path), chunk_payloads(out)
    assert a["MAP"] == b["MAP"] or len(new.tiles.model) > len(src.tiles.model)
    old, now = records(src, m), records(new, m)
    assert len(old) == len(now)
    changed = [k for k in range(len(old)) if old[k] != now[k]]
    assert changed == [5]                         # the untouched records keep their bytes
    np.testing.assert_array_equal(new.models[m].positions, src.models[m].positions)
    assert_floor_on_face(new, ch, 5, cell=tuple(np.floor(src.tiles.position[t][[0, 2]])))


def test_collision_polygon_moved_and_new_face(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    m = int(src.tiles.model[t])
    load(path)
    ob = tile_object("terr", t)
    ch = collision_child(ob)
    me = ch.data
    for i in me.polygons[9].vertices:            # move a polygon up
        me.vertices[i].co.z += 0.1
    # a new floor triangle (a face added in edit mode), with ground material 3
    import bmesh
    bm = bmesh.new()
    bm.from_mesh(me)
    z = max(v.co.z for v in bm.verts) + 0.2
    vs = [bm.verts.new(p) for p in ((-0.2, -0.2, z), (0.2, -0.2, z), (0.0, 0.2, z))]
    f = bm.faces.new(vs)
    layer = bm.faces.layers.int.get("wadkit_material")
    f[layer] = 3
    bm.to_mesh(me)
    bm.free()
    n_new = len(me.polygons) - 1
    out = tmp_path / "cpoly.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    c = new.models[m].collision
    assert len(c["n_corners"]) == len(src.models[m].collision["n_corners"]) + 1
    assert 3 in np.asarray(c["material"]).tolist()
    cell = tuple(np.floor(src.tiles.position[t][[0, 2]]))
    assert_floor_on_face(new, ch, 9, cell=cell)
    assert_floor_on_face(new, ch, n_new, cell=cell)
    hit = new.floor(*(np.asarray(src.tiles.position[t]) + (0, z + 0.005 - 0, 0)))
    assert hit is not None and hit["material"] == 3


def test_collision_with_render_edits(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    m = int(src.tiles.model[t])
    load(path)
    ob = tile_object("terr", t)
    ob.data.vertices[0].co.z += 0.1
    ch = collision_child(ob)
    ch.data.vertices[0].co.z += 0.1
    out = tmp_path / "both.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    assert new.tiles.model[t] == m
    np.testing.assert_allclose(new.models[m].positions[0] - src.models[m].positions[0],
                               (0, 0.1, 0), atol=1e-6)
    changed = [k for k, (x, y) in enumerate(zip(records(src, m), records(new, m))) if x != y]
    assert len(changed) == 1
    assert_floor_on_face(new, ch, changed[0])


def test_deleted_collision_collection_keeps_the_collision(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load(path)
    sub = coll.children["terr Collision"]
    for ob in list(sub.objects):
        bpy.data.objects.remove(ob)
    bpy.data.collections.remove(sub)
    tile_object("terr", t).data.vertices[0].co.z += 0.1       # and a render edit
    out = tmp_path / "nocoll.wad"
    how, notes = export(out)
    new = wadkit.eng.open(str(out))
    assert water_count(new) == water_count(src) > 0
    for k in range(len(src.tiles.model)):
        assert bytes(new.models[int(new.tiles.model[k])].collision_raw) == \
            bytes(src.models[int(src.tiles.model[k])].collision_raw)
    assert any("no collision object" in n and "kept as it is" in n for n in notes), notes


def test_water_plane_survives_every_edit(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    load(path)
    t = own_tile(src)
    ob = tile_object("terr", t)
    ob.location.z += 0.5
    collision_child(ob).data.vertices[0].co.x += 0.05
    water = tile_object("terr", int(np.flatnonzero(src.tiles.model == 0)[0]))
    bpy.data.objects.remove(collision_child(water))
    bpy.data.objects.remove(water)
    out = tmp_path / "water.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    assert water_count(new) == water_count(src) - 1            # only the deleted tile's
    raw0 = bytes(src.models[0].collision_raw)
    assert bytes(new.models[0].collision_raw) == raw0
