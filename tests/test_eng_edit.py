"""Editing an ENG level in place: Level.edit() (wadkit/_eng_edit.py). Every
edit kind; what changes and what stays byte for byte; the expected bytes of
an edited model built by the plain-Python builder (tests/builders)."""
import math
import struct
import warnings

import numpy as np
import pytest

import wadkit
from builders import eng_level as L
from builders import eng_terrain as T

pytestmark = pytest.mark.filterwarnings("ignore::wadkit.WadWarning")


def level(**kw):
    wad, facts = T.terrain_level(**kw)
    return wadkit.eng.from_bytes(wad), wad, facts


def payloads(data) -> dict:
    lvl = wadkit.eng.from_bytes(data)
    return {c.tag: bytes(lvl.chunk(c.tag)) for c in lvl.chunks}


def tile_geometry(lvl, tile):
    """What a tile's model holds, as set_geometry takes it (tile-local file
    space, UVs per corner from the world mesh)."""
    m = lvl.models[lvl.tiles.model[tile]]
    mesh = lvl.world_mesh()
    uv = mesh["uv"][mesh["tile"] == tile]
    return m.positions.copy(), m.triangles.copy(), uv, m.face_texture.copy(), \
        m.face_flags.copy()


def shared_tiles(lvl):
    """A model used by two or more tiles, and its tiles."""
    models, counts = np.unique(lvl.tiles.model, return_counts=True)
    m = int(models[(counts >= 2) & (models > 0)][0])
    return m, [int(t) for t in np.flatnonzero(lvl.tiles.model == m)]


def own_tile(lvl, alone=False):
    """A tile whose model no other tile (nor swap) uses; alone: and no other
    tile shares its cell."""
    t = lvl.tiles
    models, counts = np.unique(t.model, return_counts=True)
    swap_models = set(t.swaps[:, 3].tolist() + t.swaps[:, 4].tolist())
    for m in models[(counts == 1) & (models > 0)]:
        k = int(np.flatnonzero(t.model == m)[0])
        if int(m) not in swap_models and (not alone or (t.cell == t.cell[k]).sum() == 1):
            return k, int(m)
    raise AssertionError("no unshared model")


def trak_model_span(trak: bytes, m: int):
    """(header offset, data start, data end) of model m in a TRAK payload."""
    n = struct.unpack_from("<I", trak)[0]
    at = 4 + n * 0x84
    for j in range(n):
        nv, nf = struct.unpack_from("<HH", trak, 4 + j * 0x84 + 0x6c)
        nc = sum(struct.unpack_from("<3H", trak, 4 + j * 0x84 + 0x78))
        end = at + nv * 24 + nf * 28 + nc * 32
        if j == m:
            return 4 + j * 0x84, at, end
        at = end
    raise IndexError(m)


# ---- no edit, same data ----

def test_no_edit_is_byte_identical():
    lvl, wad, _ = level()
    new = lvl.edit().apply()
    assert new.to_bytes() == wad
    assert new.edit_report["unchanged"] is True
    assert new.edit_report["models_rewritten"] == []


def test_set_geometry_with_the_models_own_data_gives_its_bytes():
    lvl, wad, _ = level()
    tile, m = own_tile(lvl)
    pos, tri, uv, tex, flags = tile_geometry(lvl, tile)
    ed = lvl.edit()
    r = ed.set_geometry(tile, pos, tri, uv, tex, face_flags=flags, name="same")
    assert r["in_place"] and r["model"] == m and r["uv_fitted"] == 0
    new = ed.apply()
    assert new.to_bytes() == wad and new.edit_report["unchanged"]
    assert new.edit_report["models_rewritten"] == [m]


# ---- a single-vertex edit: only that model's bytes (independent builder) ----

def test_single_vertex_edit_changes_only_that_model():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    pos, tri, uv, tex, flags = tile_geometry(lvl, tile)
    pos[7, 1] += 3.0                      # out of the model's box: box recomputed
    ed = lvl.edit()
    ed.set_geometry([tile], pos, tri, uv, tex, face_flags=flags, name="Tile")
    new = ed.apply()
    rep = new.edit_report
    assert rep["models_rewritten"] == [m] and rep["models_added"] == []
    assert not rep["unchanged"]
    old, now = payloads(wad), payloads(new.to_bytes())
    assert set(old) == set(now)
    for tag in old:
        if tag != "TRAK":
            assert now[tag] == old[tag], tag
    assert len(new.to_bytes()) == len(wad)           # grew by 0 bytes (< 1 %)
    t0, t1 = lvl.tiles, new.tiles
    assert len(t1) == len(t0)
    np.testing.assert_array_equal(t1.model, t0.model)
    np.testing.assert_array_equal(t1.rotation, t0.rotation)
    np.testing.assert_array_equal(t1.b, t0.b)

    # the expected model, built from the spec by tests/builders (struct only)
    src = lvl.models[m]
    verts_e = src.positions.astype(np.float32) * np.float32([1, 1, -1])
    verts_e[7, 1] = np.float32(verts_e[7, 1] + np.float32(3.0))
    normals = src.normals.astype(np.float32) * np.float32([1, 1, -1])
    stored = src.triangles[:, [0, 2, 1]]           # file (0,2,1) -> stored order
    dirty = {int(v) for f in stored if 7 in f for v in f}
    acc = np.zeros((len(verts_e), 3))
    for f in stored:
        p = verts_e[f].astype(np.float64)
        acc[f] += np.cross(p[1] - p[0], p[2] - p[0])
    for v in dirty:
        normals[v] = (acc[v] / np.linalg.norm(acc[v])).astype(np.float32)
    verts = [tuple(map(float, verts_e[i])) + tuple(map(float, normals[i]))
             for i in range(len(verts_e))]
    faces = [(int(src.face_flags[k]), *map(int, stored[k]), int(src.face_texture[k]))
             for k in range(len(stored))]
    want = L.Model(verts, faces, bytes(src.collision_raw), src.collision_groups,
                   margin=1 / 128)
    h, a, b = trak_model_span(old["TRAK"], m)
    expected = (old["TRAK"][:h] + want.header() + old["TRAK"][h + 0x84:a]
                + want.data() + old["TRAK"][b:])
    assert now["TRAK"] == expected


def test_shared_model_edit_appends_a_model_for_those_tiles():
    lvl, wad, facts = level()
    m, tiles = shared_tiles(lvl)
    pos, tri, uv, tex, flags = tile_geometry(lvl, tiles[0])
    pos[0, 1] += 0.01
    ed = lvl.edit()
    r = ed.set_geometry(tiles[:1], pos, tri, uv, tex, face_flags=flags)
    assert not r["in_place"] and r["model"] == facts["models"]
    new = ed.apply()
    assert new.edit_report["models_added"] == [facts["models"]]
    assert new.tiles.model[tiles[0]] == facts["models"]
    assert all(new.tiles.model[t] == m for t in tiles[1:])
    old, now = payloads(wad), payloads(new.to_bytes())
    # old models unchanged; the new one at the end, the MAP differs only in
    # the tile's two model fields (A and the index array)
    n = facts["models"]
    assert now["TRAK"][4 + (n + 1) * 0x84:].startswith(old["TRAK"][4 + n * 0x84:])
    diff = [i for i in range(len(old["MAP"])) if old["MAP"][i] != now["MAP"][i]]
    assert len(now["MAP"]) == len(old["MAP"]) and 1 <= len(diff) <= 8
    # editing all users of the shared model rewrites it in place
    ed = lvl.edit()
    assert ed.set_geometry(tiles, pos, tri, uv, tex, face_flags=flags)["in_place"]


# ---- tiles: place, delete, add (duplicate), colours ----

def test_place_tile_changes_only_its_map_records():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    ed = lvl.edit()
    ed.place_tile(tile, (2.5, 1.25, 3.5), 3072, name="moved")
    new = ed.apply()
    old, now = payloads(wad), payloads(new.to_bytes())
    assert now["TRAK"] == old["TRAK"]
    assert new.tiles.rotation[tile] == 3072
    np.testing.assert_allclose(new.tiles.position[tile], (2.5, 1.25, 3.5))
    np.testing.assert_array_equal(np.delete(new.tiles.b, tile, 0),
                                  np.delete(lvl.tiles.b, tile, 0))
    assert new.tiles.cell_xz[tile].tolist() == [2, 3]
    assert new.edit_report["tiles_moved"] == [tile]
    # the tile's collision moved with it: the engine finds its floor there
    local = lvl.models[m].collision["corners"][0, :3].mean(0)
    c, s = 0.0, -1.0                               # rotation 3072
    world = (2.5 + local[0] * c + local[2] * s, 1.25 + local[1],
             3.5 - local[0] * s + local[2] * c)
    hit = new.floor(world[0], world[1] + 0.1, world[2])
    assert hit is not None and hit["tile"] == tile
    assert abs(hit["height"] - world[1]) < 0.001


def test_delete_tile_drops_its_records_and_colours():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl, alone=True)
    ed = lvl.edit()
    ed.delete_tile(tile)
    new = ed.apply()
    t0, t1 = lvl.tiles, new.tiles
    assert len(t1) == len(t0) - 1
    keep = np.arange(len(t0)) != tile
    np.testing.assert_array_equal(t1.b, t0.b[keep])
    np.testing.assert_array_equal(t1.model, t0.model[keep])
    idx = new.edit_report["tile_index"]
    assert idx[tile] == -1 and idx[tile + 1] == tile
    # every remaining tile keeps its colour block
    for k in range(len(t1)):
        j = k if k < tile else k + 1
        n = len(lvl.models[t0.model[j]].positions) * t0.color_sets[j]
        np.testing.assert_array_equal(
            t1.colors[t1.color_start[k]:t1.color_start[k] + n],
            t0.colors[t0.color_start[j]:t0.color_start[j] + n])
    assert payloads(new.to_bytes())["TRAK"] == payloads(wad)["TRAK"]
    # no floor left where the tile was
    x, z = t0.position[tile][[0, 2]]
    assert new.floor(x, 5, z) is None


def test_deleting_a_swap_tile_drops_its_swap_and_says_so():
    lvl, wad, facts = level()
    st = int(np.flatnonzero(lvl.tiles.swap >= 0)[0])
    ed = lvl.edit()
    ed.delete_tile(st, name="door")
    with pytest.warns(wadkit.WadWarning, match="door: tile .* tile swap"):
        new = ed.apply()
    assert len(new.tiles.swaps) == len(lvl.tiles.swaps) - 1


def test_add_tile_duplicates_a_tile():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    ed = lvl.edit()
    cols = ed.tile_colors(tile)
    t = ed.add_tile(m, (1.5, 0.5, 2.5), 1024, cols, name="copy")
    assert t == facts["tiles"]
    new = ed.apply()
    assert len(new.tiles) == facts["tiles"] + 1 and new.tiles.model[t] == m
    assert new.tiles.rotation[t] == 1024
    s = new.tiles
    n = len(lvl.models[m].positions)
    np.testing.assert_array_equal(s.colors[s.color_start[t]:s.color_start[t] + n],
                                  cols[0])
    assert payloads(new.to_bytes())["TRAK"] == payloads(wad)["TRAK"]
    old_map, new_map = payloads(wad)["MAP"], payloads(new.to_bytes())["MAP"]
    assert new_map.endswith(old_map[-64:])       # the rest of MAP kept


def test_set_colors_changes_only_that_block():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    ed = lvl.edit()
    nv = len(lvl.models[m].positions)
    two = np.zeros((2, nv, 4), np.uint8)
    two[0, :, 0] = 200
    two[1, :, 1] = 50
    ed.set_colors(tile, two)
    new = ed.apply()
    t = new.tiles
    assert t.color_sets[tile] == 2
    block = t.colors[t.color_start[tile]:t.color_start[tile] + 2 * nv]
    assert block[0, 3] == 2                       # byte 3 of entry 0: the set count
    assert (block[:nv, 0] == 200).all() and (block[nv:, 1] == 50).all()
    wm = new.world_mesh(color_set=1)
    got = wm["color"][wm["tile"] == tile][..., 1]
    np.testing.assert_allclose(got, 50 / 128)
    assert payloads(new.to_bytes())["TRAK"] == payloads(wad)["TRAK"]


# ---- collision ----

def test_collision_unchanged_keeps_bytes_and_edited_polygon_is_reencoded():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    c = lvl.models[m].collision
    n = len(c["corners"])
    pos = c["corners"].reshape(-1, 3)
    poly = np.arange(4 * n).reshape(n, 4)
    poly[c["n_corners"] == 3, 3] = -1
    ed = lvl.edit()
    r = ed.set_collision(tile, pos, poly, c["material"])
    assert r["kept"] == n and r["encoded"] == 0 and r["in_place"]
    assert ed.apply().to_bytes() == wad
    # raise one corner of polygon 3 by 0.1: only that record changes
    pos2 = pos.copy()
    pos2[4 * 3 + 1, 1] += 0.1
    ed = lvl.edit()
    r = ed.set_collision([tile], pos2, poly, c["material"], name="coll")
    assert r["kept"] == n - 1 and r["encoded"] == 1
    new = ed.apply()
    before, after = lvl.models[m].collision_raw, new.models[m].collision_raw
    assert len(after) == len(before)
    diff = {i // 32 for i in range(len(before)) if before[i] != after[i]}
    assert diff == {3}
    # the floor test on the edited polygon agrees with it within 1 mm
    tri = pos2[4 * 3:4 * 3 + 3].astype(np.float64)
    b = lvl.tiles.b[tile]
    ry = int(b[1])
    cs, sn = {0: (1, 0), 1024: (0, 1), 2048: (-1, 0), 3072: (0, -1)}[ry]
    for w in ((0.6, 0.2, 0.2), (0.2, 0.6, 0.2), (0.3, 0.3, 0.4)):
        p = np.dot(w, tri)
        wx, wy, wz = (b[3] / 4096 + p[0] * cs + p[2] * sn, b[4] / 4096 + p[1],
                      b[5] / 4096 - p[0] * sn + p[2] * cs)
        hit = new.floor(wx, wy + 0.05, wz)
        assert hit is not None and hit["tile"] == tile and hit["polygon"] == 3
        assert abs(hit["height"] - wy) < 0.001


def test_new_collision_face_reaching_the_next_cell_gets_a_spill_tile():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    c = lvl.models[m].collision
    n = len(c["corners"])
    pos = c["corners"].reshape(-1, 3)
    poly = np.arange(4 * n).reshape(n, 4)
    poly[c["n_corners"] == 3, 3] = -1
    # a flat ledge 1.5 units above the tile, reaching 0.4 into the cells
    # around it (tile-local: the tile's turn decides which cell is which)
    y = 1.5
    ledge = np.array([[-0.9, y, -0.9], [-0.9, y, 0.9], [0.9, y, 0.9], [0.9, y, -0.9]],
                     np.float32)
    pos = np.vstack([pos, ledge])
    poly = np.vstack([poly, [4 * n, 4 * n + 1, 4 * n + 2, 4 * n + 3]])
    mat = np.append(c["material"], 0)
    ed = lvl.edit()
    r = ed.set_collision(tile, pos, poly, mat, name="ledge")
    assert r["encoded"] == 1 and r["groups"][0] == n + 1
    new = ed.apply()
    rep = new.edit_report
    assert rep["spill_tiles"] == 8 and rep["spill_records"] == 8
    bx, by, bz = lvl.tiles.position[tile]
    for dx, dz in ((0, 0), (0.7, 0), (-0.7, 0.7), (0, -0.7), (0.7, 0.7)):
        hit = new.floor(bx + dx, by + y + 0.05, bz + dz)
        assert hit is not None and abs(hit["height"] - (by + y)) < 0.001, (dx, dz)
    # the spill tiles are collision-only and come after the source's tiles
    t = new.tiles
    assert len(t) == facts["tiles"] + 8
    for k in range(facts["tiles"], len(t)):
        assert len(new.models[t.model[k]].triangles) == 0


def test_collision_beyond_the_records_reach_is_a_limit_error_naming_the_object():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    far = np.array([[0, 20, 0], [0, 20, 1], [1, 20, 0]], np.float32)
    ed = lvl.edit()
    with pytest.raises(wadkit.LimitError, match="i16") as info:
        ed.set_collision(tile, far, [[0, 1, 2]], name="Cliff")
    e = info.value
    assert (e.tile, e.model, e.object) == (tile, m, "Cliff")
    assert ed.apply().to_bytes() == wad          # nothing changed


# ---- new meshes ----

def grid_mesh(x0, z0, n=4, size=1.0, y=0.3):
    xs = np.linspace(0, size, n + 1)
    X, Z = np.meshgrid(x0 + xs, z0 + xs, indexing="ij")
    pos = np.stack([X, np.full_like(X, y), Z], -1).reshape(-1, 3).astype(np.float32)
    idx = lambda i, j: i * (n + 1) + j
    tris = []
    for i in range(n):
        for j in range(n):
            a, b, c, d = idx(i, j), idx(i, j + 1), idx(i + 1, j + 1), idx(i + 1, j)
            tris += [(a, b, c), (a, c, d)]
    tri = np.array(tris, np.uint32)
    uv = np.zeros((len(tri), 3, 2), np.float32)
    uv[:] = [(0.25, 0.25), (0, 0), (0, 0.25)]     # entry 0, second quad half
    return pos, tri, uv


def test_add_mesh_makes_new_tiles_through_the_cell_split():
    lvl, wad, facts = level()
    pos, tri, uv = grid_mesh(2.0, 2.0, size=2.0, y=2.0)
    ed = lvl.edit()
    r = ed.add_mesh(pos, tri, uv, np.zeros(len(tri), np.int32), collision="faces",
                    name="Plane")
    assert r["n_tiles"] == 4 and r["first_tile"] == facts["tiles"]
    new = ed.apply()
    assert len(new.tiles) == facts["tiles"] + 4
    assert len(new.models) == facts["models"] + 4
    old, now = payloads(wad), payloads(new.to_bytes())
    n = facts["models"]
    assert now["TRAK"][4 + (n + 4) * 0x84:].startswith(old["TRAK"][4 + n * 0x84:])
    hit = new.floor(3.3, 2.05, 2.7)
    assert hit is not None and abs(hit["height"] - 2.0) < 0.001
    assert hit["tile"] >= facts["tiles"]


def test_add_mesh_without_texture_uses_a_flat_grey_entry_and_says_so():
    lvl, wad, facts = level()
    pos, tri, uv = grid_mesh(3.0, 3.0, n=1, size=0.5)
    ed = lvl.edit()
    ed.add_mesh(pos, tri, uv, name="Cube")
    with pytest.warns(wadkit.WadWarning, match="Cube: no texture given"):
        new = ed.apply()
    assert new.edit_report["new_texture_entries"] == 1
    assert new.textures["flat"][-1] and new.textures["color"][-1].tolist() == [128] * 3
    # no collision was asked for
    k = facts["tiles"]
    assert sum(new.models[new.tiles.model[k]].collision_groups) == 0


def test_add_mesh_outside_the_grid_is_refused():
    lvl, wad, facts = level(grid=6)
    pos, tri, uv = grid_mesh(5.5, 1.0)
    ed = lvl.edit()
    with pytest.raises(wadkit.LimitError, match="outside the level's 6×6 grid") as info:
        ed.add_mesh(pos, tri, uv, np.zeros(len(tri), np.int32), name="Far")
    assert info.value.object == "Far"
    assert ed.apply().to_bytes() == wad


# ---- limits and structured error fields ----

def test_vertex_limit_names_tile_model_and_object():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    rng = np.random.default_rng(0)
    pos = rng.uniform(-0.5, 0.5, (8001, 3)).astype(np.float32)
    tri = np.arange(8001 - 8001 % 3, dtype=np.uint32).reshape(-1, 3)
    uv = np.zeros((len(tri), 3, 2), np.float32)
    ed = lvl.edit()
    with pytest.raises(wadkit.LimitError, match="8001 vertices") as info:
        ed.set_geometry(tile, pos, tri, uv, np.zeros(len(tri), np.int32), name="Big")
    e = info.value
    assert (e.tile, e.model, e.object) == (tile, m, "Big")
    # 8000 is fine, and counted as the engine does: shared vertices
    r = ed.set_geometry(tile, pos[:8000], tri[:2666], uv[:2666],
                        np.zeros(2666, np.int32), name="Big")
    assert r["in_place"]
    new = ed.apply()
    assert len(new.models[m].positions) == 8000


def test_format_error_fields_from_a_bad_map():
    lvl, wad, facts = level()
    p = payloads(wad)
    bad = bytearray(p["MAP"])
    n = struct.unpack_from("<I", bad)[0]
    # the model index array follows B: find tile 5's index and break it
    at = bad.index(struct.pack("<6i", *lvl.tiles.b[5])) + 24 * (n - 5) + 4 * 5
    struct.pack_into("<I", bad, at, 999)
    lvl2 = wadkit.eng.from_bytes(wad)
    lvl2.replace_chunk("MAP", bytes(bad))
    with pytest.raises(wadkit.FormatError) as info:
        lvl2.tiles
    assert info.value.tile == 5 and info.value.object is None
    # Python-raised errors have the fields too (class defaults)
    e = wadkit.LimitError("x")
    assert (e.tile, e.model, e.vertex, e.object, e.offset) == (None,) * 5


def test_uvs_off_the_rectangle_are_fitted_and_counted():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    pos, tri, uv, tex, flags = tile_geometry(lvl, tile)
    uv[0] *= 0.5                            # another rectangle: a new entry
    ed = lvl.edit()
    r = ed.set_geometry(tile, pos, tri, uv, tex, face_flags=flags)
    assert r["uv_fitted"] == 1 and r["uv_max_error"] <= 0.5
    new = ed.apply()
    assert new.edit_report["new_texture_entries"] == 1
    assert new.edit_report["uv_fitted"] == 1
    wm = new.world_mesh()
    np.testing.assert_allclose(wm["uv"][wm["tile"] == tile], uv, atol=0.5 / 256)


def test_single_vertex_edit_on_the_demo_sample():
    """The issue's acceptance on wadkit's demo level: only that model's bytes
    change (plus the WAD's length fields), tiles untouched."""
    import wadkit.samples
    lvl = wadkit.samples.eng_level()
    src = lvl.to_bytes()
    t = lvl.tiles
    tile = next(k for k in range(400, len(t)) if len(lvl.models[t.model[k]].triangles))
    pos, tri, uv, tex, flags = tile_geometry(lvl, tile)
    pos[0, 1] += 0.25
    ed = lvl.edit()
    ed.set_geometry(tile, pos, tri, uv, tex, face_flags=flags, name="Tile")
    new = ed.apply()
    data = new.to_bytes()
    assert len(data) < 1.01 * len(src)
    assert new.edit_report["models_rewritten"] == [int(t.model[tile])]
    np.testing.assert_array_equal(new.tiles.model, t.model)
    np.testing.assert_array_equal(new.tiles.rotation, t.rotation)
    np.testing.assert_array_equal(new.tiles.b, t.b)
    old, now = payloads(src), payloads(data)
    assert [k for k in old if old[k] != now[k]] == ["TRAK"]
    h, a, b = trak_model_span(old["TRAK"], int(t.model[tile]))
    ha, aa, ba = trak_model_span(now["TRAK"], int(t.model[tile]))
    assert (h, a) == (ha, aa)
    diff = np.flatnonzero(np.frombuffer(old["TRAK"][:len(now["TRAK"])], np.uint8)
                          != np.frombuffer(now["TRAK"][:len(old["TRAK"])], np.uint8))
    assert len(diff) and all(h <= i < h + 0x84 or a <= i < ba for i in diff)
    assert now["TRAK"][ba:] == old["TRAK"][b:]


def test_threads_share_one_edit_safely():
    """Calls on one edit from several threads (each runs without the GIL,
    under the edit's lock): every call lands, the result parses."""
    import threading
    lvl, wad, facts = level()
    ed = lvl.edit()
    tiles = [k for k in range(facts["tiles"]) if lvl.tiles.model[k] > 0][:8]
    errors = []

    def work(k, tile):
        try:
            for r in range(20):
                ed.place_tile(tile, (1.5 + k % 4, 0.25 * r, 1.5 + k // 4), 1024 * (r % 4))
                ed.apply()
        except Exception as exc:        # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k, t)) for k, t in enumerate(tiles)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    new = ed.apply()
    for k, t in enumerate(tiles):
        np.testing.assert_allclose(new.tiles.position[t], (1.5 + k % 4, 4.75, 1.5 + k // 4))
        assert new.tiles.rotation[t] == 3072


def test_batch_bit_every_page_change_and_256_faces():
    lvl, wad, facts = level()
    tile, m = own_tile(lvl)
    n = 600
    rng = np.random.default_rng(2)
    pos = rng.uniform(-0.4, 0.4, (n + 2, 3)).astype(np.float32)
    tri = np.stack([np.arange(n), np.arange(n) + 1, np.arange(n) + 2], 1).astype(np.uint32)
    uv = np.tile(np.float32([[0.25, 0.25], [0, 0], [0, 0.25]]), (n, 1, 1))
    tex = np.zeros(n, np.int32)
    tex[400:] = 1                                 # page 1 from face 400 on
    ed = lvl.edit()
    ed.set_geometry(tile, pos, tri, uv, tex)
    flags = ed.apply().models[m].face_flags
    assert np.flatnonzero(flags & 0x8).tolist() == [0, 256, 400]
