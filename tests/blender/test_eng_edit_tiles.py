"""Editing tiles in Blender and exporting (issue 14): every edit is read
back with wadkit as meant. Fixture: the from-spec terrain level (turned
tiles, a crate model shared by three tiles, a water plane, a tile swap)."""
import math
import struct

import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert

from editing import (assert_floor_on_face, chunk_payloads, collision_child, export,
                     file_points, floor_heights, load, own_tile, shared_tiles, terrain,
                     tile_object)


@pytest.fixture
def terr(tmp_path):
    return terrain(tmp_path)


def tile_world(lvl, t):
    """File-space world positions of tile t's model vertices, as the level
    places them (the world mesh's run of that tile)."""
    wm = lvl.world_mesh()
    tri = wm["triangles"][wm["tile"] == t]
    return wm["positions"][np.unique(tri)]


def trak_spans(trak: bytes):
    """(header start, data start, data end) of every model in a TRAK payload
    (docs/formats/eng.md: count, 0x84-byte headers, then data in order)."""
    n = struct.unpack_from("<I", trak)[0]
    at, out = 4 + n * 0x84, []
    for j in range(n):
        nv, nf = struct.unpack_from("<HH", trak, 4 + j * 0x84 + 0x6c)
        nc = sum(struct.unpack_from("<3H", trak, 4 + j * 0x84 + 0x78))
        end = at + nv * 24 + nf * 28 + nc * 32
        out.append((4 + j * 0x84, at, end))
        at = end
    return out


def test_unchanged_export_is_byte_identical(scene, terr, tmp_path):
    path, wad = terr
    load(path)
    out = tmp_path / "same.wad"
    how, notes = export(out)
    assert how == "unchanged" and out.read_bytes() == wad
    # through the operator too
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() == wad


def test_single_vertex_edit_changes_only_that_model(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    m = int(src.tiles.model[t])
    load(path)
    ob = tile_object("terr", t)
    ob.data.vertices[3].co.z += 0.125
    moved = file_points(ob)[3]
    out = tmp_path / "vertex.wad"
    how, notes = export(out)
    assert how.startswith("patched")
    new = wadkit.eng.open(str(out))
    # tile count, order, models and rotations unchanged
    np.testing.assert_array_equal(new.tiles.model, src.tiles.model)
    np.testing.assert_array_equal(new.tiles.rotation, src.tiles.rotation)
    assert len(new.models) == len(src.models)
    assert len(out.read_bytes()) < 1.01 * len(wad)
    # only TRAK changed, and in it only model m's bytes
    a, b = chunk_payloads(path), chunk_payloads(out)
    assert {k for k in a if a[k] != b[k]} == {"TRAK"}
    sa, sb = trak_spans(a["TRAK"]), trak_spans(b["TRAK"])
    for j, ((ha, da, ea), (hb, db, eb)) in enumerate(zip(sa, sb)):
        if j != m:
            assert a["TRAK"][ha:ha + 0x84] == b["TRAK"][hb:hb + 0x84], j
            assert a["TRAK"][da:ea] == b["TRAK"][db:eb], j
    # the vertex is where it was moved to, the others where they were
    got = tile_world(new, t)
    want = tile_world(src, t)
    d = np.abs(got - moved).max(axis=1)
    assert d.min() < 1e-5
    assert np.abs(np.delete(got, d.argmin(), axis=0)
                  - np.delete(want, np.abs(want - got[d.argmin()]).sum(axis=1).argmin(),
                              axis=0)).max() < 1e-5


def test_linked_mesh_edit_rewrites_the_shared_model(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    tiles = shared_tiles(src)
    m = int(src.tiles.model[tiles[0]])
    load(path)
    obs = [tile_object("terr", t) for t in tiles]
    assert len({o.data.name for o in obs}) == 1          # one mesh for the model
    obs[0].data.vertices[0].co.z += 0.2
    out = tmp_path / "linked.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    assert len(new.models) == len(src.models)            # rewritten in place
    np.testing.assert_array_equal(new.tiles.model, src.tiles.model)
    lift = new.models[m].positions[0] - src.models[m].positions[0]
    np.testing.assert_allclose(lift, (0, 0.2, 0), atol=1e-6)
    for o in obs:            # every tile of the model shows the edit
        w = file_points(o)[0]
        assert np.abs(tile_world(new, int(o["wadkit_tile"])) - w).max(axis=1).min() < 1e-5


def test_single_user_copy_becomes_a_new_model(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    tiles = shared_tiles(src)
    load(path)
    ob = tile_object("terr", tiles[1])
    ob.data = ob.data.copy()                         # Object > Make Single User
    ob.data.vertices[1].co.x += 0.1
    out = tmp_path / "single.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    assert len(new.models) == len(src.models) + 1
    assert int(new.tiles.model[tiles[1]]) == len(src.models)
    for t in tiles[:1] + tiles[2:]:
        assert new.tiles.model[t] == src.tiles.model[t]
    m = int(src.tiles.model[tiles[0]])
    np.testing.assert_array_equal(new.models[m].positions, src.models[m].positions)


@pytest.mark.usefixtures("made")
def test_move_and_quarter_turn_change_only_the_placement(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    load(path)
    ob = tile_object("terr", t)
    ob.location.x += 0.0                             # same cell: the grid is full
    ob.location.z += 0.75
    ob.rotation_euler.z += math.pi / 2
    out = tmp_path / "turned.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    a, b = chunk_payloads(path), chunk_payloads(out)
    assert a["TRAK"] == b["TRAK"]                    # the model is kept
    assert new.tiles.model[t] == src.tiles.model[t]
    assert new.tiles.rotation[t] == (src.tiles.rotation[t] + 1024) % 4096
    np.testing.assert_allclose(new.tiles.position[t],
                               src.tiles.position[t] + (0, 0.75, 0), atol=1 / 4096)
    np.testing.assert_allclose(np.sort(tile_world(new, t), axis=0),
                               np.sort(file_points(ob), axis=0), atol=1e-4)
    # its collision went with it: the floor test agrees with the child's faces
    ch = collision_child(ob)
    for f in range(0, len(ch.data.polygons), 7):
        assert_floor_on_face(new, ch, f)


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.usefixtures("made")
def test_other_transform_is_baked_into_the_model(scene, terr, tmp_path, shared):
    """A turn that is not a quarter, a scale: baked into the tile's model
    (in place when no other tile uses it, else a new model for it)."""
    path, wad = terr
    src = wadkit.eng.open(path)
    t = shared_tiles(src)[1] if shared else own_tile(src)
    load(path)
    ob = tile_object("terr", t)
    ob.rotation_euler.z += math.radians(20)
    ob.scale = (0.9, 0.9, 1.1)
    out = tmp_path / "baked.wad"
    export(out)
    new = wadkit.eng.open(str(out))
    m = int(src.tiles.model[t])
    if shared:
        assert int(new.tiles.model[t]) == len(src.models)      # a new model
        for k in shared_tiles(src):
            if k != t:
                assert new.tiles.model[k] == m
        np.testing.assert_array_equal(new.models[m].positions, src.models[m].positions)
    else:
        assert new.tiles.model[t] == m                         # rewritten in place
    # (collision that now reaches into other cells gets collision-only tiles
    # there, after the level's own tiles)
    n = len(src.tiles.model)
    np.testing.assert_array_equal(np.delete(new.tiles.model[:n], t),
                                  np.delete(src.tiles.model, t))
    assert new.tiles.rotation[t] == src.tiles.rotation[t]      # nearest quarter: the same
    np.testing.assert_allclose(np.sort(tile_world(new, t), axis=0),
                               np.sort(file_points(ob), axis=0), atol=1e-4)
    ch = collision_child(ob)
    cell = tuple(np.floor(new.tiles.position[t][[0, 2]]))
    tested = sum(assert_floor_on_face(new, ch, f, n=6, cell=cell)
                 for f in range(len(ch.data.polygons)))
    assert tested >= 6         # (the crate has one collision quad)


@pytest.mark.usefixtures("made")
def test_deleted_tile_is_removed_with_its_collision(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    load(path)
    ob = tile_object("terr", t)
    probe = file_points(collision_child(ob)).mean(axis=0)
    bpy.data.objects.remove(collision_child(ob))
    bpy.data.objects.remove(ob)
    out = tmp_path / "deleted.wad"
    how, notes = export(out)
    new = wadkit.eng.open(str(out))
    keep = [k for k in range(len(src.tiles.model)) if k != t]
    np.testing.assert_array_equal(new.tiles.model, src.tiles.model[keep])
    np.testing.assert_array_equal(new.tiles.rotation, src.tiles.rotation[keep])
    hit = new.floor(*probe)
    assert hit is None or hit["height"] < probe[1] - 0.5       # only the water below


@pytest.mark.parametrize("linked", [False, True])
@pytest.mark.usefixtures("made")
def test_duplicated_tile_is_added(scene, terr, tmp_path, linked):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    load(path, show_collision=True)          # the collision child can be selected too
    ob = tile_object("terr", t)
    ch = collision_child(ob)
    for o in bpy.context.view_layer.objects:
        o.select_set(o in (ob, ch))
    bpy.context.view_layer.objects.active = ob
    if linked:
        bpy.ops.object.duplicate(linked=True)
    else:
        bpy.ops.object.duplicate(linked=False)
    (copy,) = [o for o in bpy.context.selected_objects if o.type == "MESH"
               and "wadkit_collision" not in o]
    water = int(np.flatnonzero(src.tiles.model == 0)[0])       # a cell of water
    copy.location = convert.to_blender(src.tiles.position[water][None])[0] + (0, 0, 1.0)
    out = tmp_path / "copy.wad"
    how, notes = export(out)
    new = wadkit.eng.open(str(out))
    n = len(src.tiles.model)
    assert len(new.tiles.model) == n + 1
    np.testing.assert_array_equal(new.tiles.model[:n], src.tiles.model)
    assert new.tiles.model[n] == src.tiles.model[t]          # same model, no copy of it
    assert len(new.models) == len(src.models)
    np.testing.assert_allclose(np.sort(tile_world(new, n), axis=0),
                               np.sort(file_points(copy), axis=0), atol=1e-4)
    cc = collision_child(copy)
    assert_floor_on_face(new, cc, 0)


def test_duplicate_without_its_collision_child_keeps_the_models(scene, terr, tmp_path):
    """Collision hidden (the default): Shift+D copies only the tile object;
    the new tile still has its model's collision, and the export says so."""
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    coll = load(path)
    lc = bpy.context.view_layer.layer_collection.children["terr"].children["terr Collision"]
    assert lc.exclude
    ob = tile_object("terr", t)
    for o in bpy.context.view_layer.objects:
        o.select_set(o == ob)
    bpy.context.view_layer.objects.active = ob
    bpy.ops.object.duplicate()
    copy = bpy.context.view_layer.objects.active
    assert copy != ob and not copy.children
    water = int(np.flatnonzero(src.tiles.model == 0)[0])
    copy.location = convert.to_blender(src.tiles.position[water][None])[0] + (0, 0, 1.0)
    out = tmp_path / "copy.wad"
    how, notes = export(out)
    assert any(copy.name in n and "keeps its model's collision" in n for n in notes), notes
    new = wadkit.eng.open(str(out))
    n = len(src.tiles.model)
    assert new.tiles.model[n] == src.tiles.model[t]
    assert coll.name


def test_vertex_paint_changes_only_that_tiles_colours(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    load(path)
    ob = tile_object("terr", t)
    col = ob.data.color_attributes["Col"]
    assert col.domain == "POINT"
    col.data[2].color_srgb = (0.25, 0.5, 0.75, 1.0)
    out = tmp_path / "paint.wad"
    export(out)
    a, b = chunk_payloads(path), chunk_payloads(out)
    assert a["TRAK"] == b["TRAK"]
    new = wadkit.eng.open(str(out))
    nv = len(src.models[int(src.tiles.model[t])].positions)
    for k in range(len(src.tiles.model)):
        s0, s1 = int(src.tiles.color_start[k]), int(new.tiles.color_start[k])
        n = nv if k == t else len(src.models[int(src.tiles.model[k])].positions)
        old = src.tiles.colors[s0:s0 + n]
        now = new.tiles.colors[s1:s1 + n]
        if k != t:
            np.testing.assert_array_equal(now, old)
        else:
            assert now[2, :3].tolist() == [32, 64, 96]
            np.testing.assert_array_equal(np.delete(now, 2, axis=0), np.delete(old, 2, axis=0))


@pytest.mark.usefixtures("made")
def test_floor_after_moving_a_tile_follows_the_scene(scene, terr, tmp_path):
    """The floor tool tests the scene's collision, not the source file."""
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    load(path)
    ob = tile_object("terr", t)
    ch = collision_child(ob)
    before = floor_heights(src, [file_points(ch).mean(axis=0)])[0]
    ob.location.z += 1.0
    bpy.context.view_layer.update()
    centre = file_points(ch).mean(axis=0)
    scene.cursor.location = convert.to_blender(centre[None])[0] + (0, 0, 0.05)
    assert bpy.ops.wadkit.floor_at_cursor() == {"FINISHED"}
    res = bpy.context.window_manager.wadkit_floor_result
    h = float(res.split()[1].rstrip(","))
    assert h == pytest.approx(before + 1.0, abs=0.01), res
    assert ob.name in res


@pytest.mark.parametrize("how", ["rename", "remove"])
@pytest.mark.parametrize("moved", [False, True])
def test_tile_without_its_colour_attribute_keeps_its_colours(scene, terr, tmp_path, how, moved):
    """The 'Col' attribute renamed or removed: the export names the object
    in a note and the tile keeps the colours it has in the file (not a
    failure, not grey); a moved vertex is still written."""
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    load(path)
    ob = tile_object("terr", t)
    me = ob.data
    if how == "rename":
        me.color_attributes["Col"].name = "Paint"
    else:
        me.color_attributes.remove(me.color_attributes["Col"])
    if moved:
        me.vertices[0].co.z += 0.25
    out = tmp_path / f"nocol_{how}_{moved}.wad"
    how_done, notes = export(out)
    if not moved:
        assert [n for n in notes if ob.name in n and "'Col'" in n] != [], notes
    new = wadkit.eng.open(str(out))
    nv = len(src.models[int(src.tiles.model[t])].positions)
    s0, s1 = int(src.tiles.color_start[t]), int(new.tiles.color_start[t])
    np.testing.assert_array_equal(new.tiles.colors[s1:s1 + nv], src.tiles.colors[s0:s0 + nv])
    if moved:
        assert not np.allclose(tile_world(new, t), tile_world(src, t))
    else:
        assert chunk_payloads(path)["TRAK"] == chunk_payloads(out)["TRAK"]


def test_exports_compare_with_the_imports_arrays(scene, terr, tmp_path):
    """The export compares edited tile meshes with the models and world
    mesh the import made (kept with the import session, read-only), not a
    new parse of the base file: two edits exported one after the other
    both reach the file, and a base file changed on disk is parsed anew."""
    from blender_addon import edit_track
    path, wad = terr
    src = wadkit.eng.open(path)
    coll = load(path)
    s = edit_track.session_for(coll, path)
    kept = s.extra["eng_base"]
    assert kept["wm"]["uv"].flags.writeable       # the import's own arrays
    t = own_tile(src)
    ob = tile_object("terr", t)
    ob.data.vertices[0].co.z += 0.25
    out = tmp_path / "one.wad"
    export(out)
    assert s.extra["eng_base"] is kept and not kept["wm"]["uv"].flags.writeable
    first = tile_world(wadkit.eng.open(str(out)), t)
    assert not np.allclose(first, tile_world(src, t))
    ob.data.vertices[1].co.z += 0.25
    export(out)
    second = tile_world(wadkit.eng.open(str(out)), t)
    assert not np.allclose(second, first)
    # the base file replaced (a new mtime and size): no session, parsed anew
    with open(path, "ab") as f:
        f.write(b"\0" * 4)
    assert edit_track.session_for(coll, path) is None


def test_level_objects_are_all_objects_once(scene, terr, tmp_path):
    """export_read.level_objects (the export's walk instead of
    Collection.all_objects): the same objects, each once, also for an object
    linked into two collections of the level; the export stays unchanged."""
    from blender_addon.export_read import level_objects
    path, wad = terr
    coll = load(path)
    ob = tile_object("terr", 3)
    extra = bpy.data.collections.new("terr extra")
    coll.children.link(extra)
    extra.objects.link(ob)                    # in the level twice
    got = level_objects(coll)
    assert len(got) == len(coll.all_objects)
    assert {o.as_pointer() for o in got} == {o.as_pointer() for o in coll.all_objects}
    obs, m = level_objects(coll, matrices=True)
    assert [o.as_pointer() for o in obs] == [o.as_pointer() for o in got]
    for o, mo in zip(obs, m):
        np.testing.assert_allclose(mo, np.array(o.matrix_world), atol=1e-6)
    out = tmp_path / "same.wad"
    how, _ = export(out)
    assert how == "unchanged" and out.read_bytes() == wad
