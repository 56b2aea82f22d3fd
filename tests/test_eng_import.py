"""ENG write path: Level.with_geometry (mesh → TRAK + MAP tile part)."""
import struct
import warnings

import numpy as np
import pytest

import wadkit
from builders import eng_level as L
from test_eng_geometry import UV_BY_FLAGS, chunk_payloads, table_of, uv_level

TRI = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]

# the base level has one tile swap; replacing its tiles drops it (tested below)
pytestmark = pytest.mark.filterwarnings("ignore:1 tile swaps")


def quiet(fn, *a, **kw):
    if fn.__name__ == "with_geometry":
        kw.setdefault("texture_table", TABLE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        return fn(*a, **kw)


TABLE = L.text_table([(0, p, -1, 0, 63, 0, 63) for p in range(4)])[12:]


def base_level(wfpc=0x10000, w=4, h=4, entries=None, rest=b"STRATS-AND-PATHS" * 3):
    """One old tile (model 0) with a swap; a TEXT table of `entries`."""
    entries = entries or [(0, p, -1, 0, 63, 0, 63) for p in range(4)]
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, anim=1,
                    colors=L.color_block(3, [[(0x80, 0x80, 0x80, 0)] * 3]),
                    colors_b=L.color_block(3, [[(1, 1, 1, 0)] * 3]))]
    grid = [k % 3 for k in range(w * h)]
    mp = L.map_payload(w, h, tiles, swaps=[(0, 0, 0, 0, 0)], grid=grid, rest=rest,
                       strat_list=[5, 6], records90=1, paths34=2)
    return L.level(wfpc=wfpc, trak_payload=L.trak([L.Model(TRI, [(0, 0, 1, 2, 0)])]),
                   map_payload_=mp, text_payload=L.text_table(entries),
                   stpc_payload=L.stpc([], [], tail=b"opaque"))


def quad_mesh(x0=1.1, z0=1.1, y=0.5, size=0.8, tex=0):
    """A floor quad in file space, CCW seen from above (+y): normal up."""
    pos = np.array([[x0, y, z0], [x0, y, z0 + size], [x0 + size, y, z0 + size],
                    [x0 + size, y, z0]], np.float32)
    tri = np.array([[0, 1, 2], [0, 2, 3]], np.uint32)
    # first half (0x800) and second half (0x810) of the rectangle 0..63
    u0, u1 = 0.0, 64 / 256
    uv = np.array([[(u1, u1), (u0, u0), (u0, u1)],
                   [(u0, u0), (u1, u1), (u1, u0)]], np.float32)
    return pos, tri, uv, np.full(2, tex, np.int32)


def triangle_set(mesh, digits=3):
    keys = []
    for t in range(len(mesh["triangles"])):
        p = mesh["positions"][mesh["triangles"][t]].round(digits).tolist()
        keys.append((tuple(map(tuple, p)), tuple(map(tuple, mesh["uv"][t].tolist())),
                     int(mesh["page"][t]),
                     tuple(map(tuple, (mesh["color"][t] * 128).round().tolist()))))
    return sorted(keys)


def test_round_trip_realistic_level():
    data, _ = L.realistic_level(extent=0.45)
    lvl = wadkit.eng.from_bytes(data)
    table = table_of(data)
    mesh = lvl.world_mesh(texture_table=table)
    new = quiet(lvl.with_geometry, mesh["positions"], mesh["triangles"], mesh["uv"],
                mesh["texture"], mesh["color"], face_flags=mesh["face_flags"],
                texture_table=table)
    rep = new.import_report
    assert rep["dropped_degenerate"] == 0 and rep["uv_inexact"] == 0
    assert rep["uv_nearest_entry"] == 0
    again = new.world_mesh(texture_table=table)
    # expected order: tiles by cell (z, x) and height band (8 units) of the
    # centroid, faces by page,
    # then input order (all table entries have the same state flags)
    p = mesh["positions"].astype(np.float64)[mesh["triangles"]]
    c = p[:, 0] / 3 + p[:, 1] / 3 + p[:, 2] / 3
    order = np.lexsort((np.arange(len(c)), mesh["page"], np.floor(c[:, 1] / 8),
                        np.floor(c[:, 0]), np.floor(c[:, 2])))
    assert len(again["triangles"]) == len(order)
    np.testing.assert_allclose(again["positions"][again["triangles"]],
                               mesh["positions"][mesh["triangles"]][order], atol=1e-5)
    np.testing.assert_array_equal(again["uv"], mesh["uv"][order])
    np.testing.assert_array_equal(again["page"], mesh["page"][order])
    np.testing.assert_array_equal(again["color"], mesh["color"][order])
    keep = 0xffff & ~(0x8 | 0x10 | 0x20 | 0x800)
    np.testing.assert_array_equal(again["face_flags"] & keep,
                                  mesh["face_flags"][order] & keep)
    old, now = chunk_payloads(data), chunk_payloads(new.to_bytes())
    for tag in ("INFO", "WFPC", "TEXT", "STPC", "LGHT", "END"):
        assert now[tag] == old[tag], tag
    # the rest of MAP (strats, paths …) is untouched: the same 3000 bytes end it
    assert now["MAP"][-3000:] == old["MAP"][-3000:]
    assert new.to_bytes()[:4] == struct.pack("<I", len(new.to_bytes()))


def test_every_uv_pattern_fits_back_exactly():
    data = uv_level()
    lvl = wadkit.eng.from_bytes(data)
    table = table_of(data)
    mesh = lvl.world_mesh(texture_table=table)
    new = quiet(lvl.with_geometry, mesh["positions"], mesh["triangles"], mesh["uv"],
                mesh["texture"], mesh["color"], face_flags=mesh["face_flags"],
                texture_table=table)
    assert new.import_report["uv_inexact"] == 0
    again = new.world_mesh(texture_table=table)
    assert triangle_set(again, 5) == triangle_set(mesh, 5)
    assert len(again["uv"]) == len(UV_BY_FLAGS) + 2


def test_uvs_not_half_a_rectangle_are_counted_and_warned():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh()
    uv[0, 2] = (0.1, 0.05)             # no rectangle corner
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        new = lvl.with_geometry(pos, tri, uv, tex, texture_table=TABLE)
    msgs = [str(w.message) for w in rec]
    assert any("1 triangles have UVs that are not half" in m for m in msgs)
    assert any("1 tile swaps (doors, bridges …) dropped" in m for m in msgs)
    assert new.import_report["uv_inexact"] == 1


def test_missing_rectangle_uses_nearest_entry_when_no_text_writer():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh(tex=2)
    uv *= 0.5                           # rectangle 0..31: not in the table
    with pytest.warns(wadkit.WadWarning, match="2 triangles needed texture"):
        new = lvl.with_geometry(pos, tri, uv, tex, texture_table=TABLE)
    m = new.world_mesh()
    assert m["texture"].tolist() == [2, 2]   # the entry on page 2


def test_tile_split_placement_colours_and_batches():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh(x0=1.25, z0=2.25, size=0.5)
    color = np.full((2, 3, 4), 0.5, np.float32)
    new = quiet(lvl.with_geometry, pos, tri, uv, tex, color)
    t = new.tiles
    assert len(t) == 1 and t.cell_xz.tolist() == [[1, 2]]
    # A and B agree: x = 1.5, z = -2.5 (export), y on a 1/16 step
    np.testing.assert_array_equal(t.a_position, [[1.5, 0.5, -2.5]])
    assert t.b.tolist() == [[0, 0, 0, 1.5 * 4096, 0.5 * 4096, 2.5 * 4096]]
    assert t.swaps.tolist() == [] and t.has_swap_block
    assert t.colors.tolist() == [[64, 64, 64, 0]] * 4
    m = new.models[0]
    assert len(m.positions) == 4 and m.face_flags[0] & 0x8 and not m.face_flags[1] & 0x8
    assert sorted(m.face_flags & 0x830) == [0x800, 0x810]
    assert m.collision_groups == (2, 0, 0)
    np.testing.assert_allclose(np.sort(new.world_mesh()["positions"], 0), np.sort(pos, 0))
    # box and centre recomputed: vertex bounds ± 1/128 (local, export space)
    e = new.models_in("export")[0]
    lo = e.positions.min(0) - 1 / 128
    hi = e.positions.max(0) + 1 / 128
    np.testing.assert_allclose(e.box[0], [lo[0], lo[1], hi[2]], atol=1e-6)
    np.testing.assert_allclose(e.box[7], [hi[0], hi[1], lo[2]], atol=1e-6)
    np.testing.assert_allclose(e.centre, (lo + hi) / 2, atol=1e-6)
    # smoothed normals of a flat floor point up; face planes too
    np.testing.assert_allclose(m.normals, [[0, 1, 0]] * 4, atol=1e-6)
    np.testing.assert_allclose(m.face_planes[:, :3], [[0, 1, 0]] * 2, atol=1e-6)


def test_batches_sorted_by_page_and_split_every_256_faces():
    lvl = wadkit.eng.from_bytes(base_level())
    rng = np.random.default_rng(1)
    n = 600
    pos = np.zeros((3 * n, 3), np.float32)
    pos[:, 0] = 2.2 + rng.random(3 * n) * 0.5
    pos[:, 2] = 2.2 + rng.random(3 * n) * 0.5
    pos[:, 1] = rng.random(3 * n) * 0.5
    tri = np.arange(3 * n, dtype=np.uint32).reshape(n, 3)
    _, _, quv, _ = quad_mesh()
    uv = np.repeat(quv[:1], n, 0)
    tex = np.array([k % 2 for k in range(n)], np.int32)   # pages 0 and 1
    new = quiet(lvl.with_geometry, pos, tri, uv, tex)
    m = new.models[0]
    starts = np.flatnonzero(m.face_flags & 0x8).tolist()
    # 300 faces on page 0, then 300 on page 1: batches at 0, 256, 300, 556
    assert starts == [0, 256, 300, 556]
    pages = new.world_mesh(texture_table=table_of(base_level()))["page"]
    assert pages.tolist() == [0] * 300 + [1] * 300


def decode_records(raw):
    recs = []
    for off in range(0, len(raw), 32):
        r = raw[off:off + 32]
        planes = [(struct.unpack_from("<3b", r, 2 + 6 * k),
                   struct.unpack_from("<h", r, 2 + 6 * k + 4)[0]) for k in range(5)]
        recs.append((r[0], r[1], planes))
    return recs


def test_collision_encoding_quad_and_triangle():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh(x0=1.1, z0=1.1, size=0.8)
    cpos = np.array([[1.1, 0.5, 1.1], [1.1, 0.5, 1.9], [1.9, 0.7, 1.9], [1.9, 0.7, 1.1],
                     [1.2, 0.6, 1.2], [1.8, 0.9, 1.2], [1.2, 0.6, 1.8]], np.float32)
    polys = np.array([[0, 1, 2, 3], [4, 6, 5, -1]], np.int32)
    new = quiet(lvl.with_geometry, pos, tri, uv, tex,
                collision=(cpos, polys, np.array([0x1e, 3], np.uint8)))
    m = new.models[0]
    assert m.collision_groups == (2, 0, 0)
    (t0, mat0, p0), (t1, mat1, p1) = decode_records(m.collision_raw)
    assert (t0 & 1, mat0, t1 & 1, mat1) == (1, 0x1e, 0, 3)
    assert p1[4] == ((0, 0, 0), 0)            # a triangle's 5th plane is empty
    origin = np.array([1.5, new.tiles.b[0][4] / 4096, 1.5])
    for planes, idx in ((p0, [0, 1, 2, 3]), (p1, [4, 6, 5])):
        corners = cpos[idx] - origin          # tile-local game space
        n, d = planes[0]
        assert n[1] > 0                       # a floor: normal up
        # the engine's plane: n/127 · p = d/4064 — corners on it within 5 mm
        for c in corners:
            assert abs(np.dot(n, c) / 127 - d / 4064) < 0.005
        centre = corners.mean(0)
        for k in range(len(idx)):
            # edge plane 1+k runs through corners k-1 and k (the convention
            # of eng_collision.h: corner i = surface ∩ edge i ∩ edge i+1)
            (en, ed), a, b = planes[1 + k], corners[k - 1], corners[k]
            for c in (a, b):                  # the edge passes through its corners
                assert abs(np.dot(en, c) / 127 - ed / 4064) < 0.005
            assert np.dot(en, centre) / 127 - ed / 4064 > 0.05   # inwards


def test_polygon_entered_into_every_cell_it_covers():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh(x0=1.5, z0=1.5, size=1.0)   # covers 4 cells
    new = quiet(lvl.with_geometry, pos, tri, uv, tex)
    t = new.tiles
    assert sorted(map(tuple, t.cell_xz.tolist())) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    # render faces only in the centroid's cells, collision in all four
    counts = {tuple(c): (len(new.models[m].triangles), sum(new.models[m].collision_groups))
              for c, m in zip(t.cell_xz.tolist(), t.model)}
    assert sum(c[0] for c in counts.values()) == 2
    assert all(c[1] >= 1 for c in counts.values())


def test_zones_flat_keep_and_grid_growth():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh(x0=5.2, z0=1.2, size=0.5)   # x beyond W = 4
    with pytest.warns(wadkit.WadWarning, match="grown from 4×4 to 6×4"):
        flat = lvl.with_geometry(pos, tri, uv, tex, texture_table=TABLE)
    assert flat.zones.grid.shape == (4, 6) and (flat.zones.grid == 0).all()
    assert flat.zones.mask[0] == 0xffffffff and flat.zones.mask[1] == 2
    keep = quiet(lvl.with_geometry, pos, tri, uv, tex, zones="keep")
    old = lvl.zones.grid
    np.testing.assert_array_equal(keep.zones.grid[:, :4], old)
    assert (keep.zones.grid[:, 4:] == 0).all() and keep.zones.mask[0] == 1


def test_keep_tiles_appends():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh()
    new = quiet(lvl.with_geometry, pos, tri, uv, tex, keep_tiles=True)
    assert len(new.models) == 2 and new.tiles.model.tolist() == [0, 1]
    assert new.tiles.swap.tolist() == [0, -1] and len(new.tiles.swaps) == 1
    assert new.tiles.color_b_sets.tolist() == [1, 0]


def test_degenerate_triangles_dropped_and_counted():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh()
    tri = np.vstack([tri, [[0, 0, 1]], [[0, 1, 1]]]).astype(np.uint32)
    uv = np.vstack([uv, uv])
    tex = np.zeros(4, np.int32)
    with pytest.warns(wadkit.WadWarning, match="2 degenerate triangles dropped"):
        new = lvl.with_geometry(pos, tri, uv, tex, texture_table=TABLE)
    assert new.import_report["dropped_degenerate"] == 2
    assert len(new.world_mesh()["triangles"]) == 2


# ---- limits: LimitError, nothing written ----

def limit_case(name):
    pos, tri, uv, tex = quad_mesh()
    kw = {}
    if name == "vertices per model":
        n = 8001 // 3 + 1
        rng = np.random.default_rng(0)
        pos = (1.2 + rng.random((3 * n, 3)) * 0.5).astype(np.float32)
        tri = np.arange(3 * n, dtype=np.uint32).reshape(n, 3)
        uv, tex = np.repeat(uv[:1], n, 0), np.zeros(n, np.int32)
        match = "8000 vertices"
    elif name == "collision plane range":
        pos[:, 0] *= 20                # a 20-unit wide floor quad
        match = "outside the i16 range"
    elif name == "texture index":
        tex[:] = 4
        match = "texture 4, the table has 4 entries"
    elif name == "outside the grid":
        pos[:, 0] -= 3
        match = "the grid covers"
    elif name == "fixed-point range":
        pos[0, 1] = 1e7
        match = "beyond the 20.12 fixed-point range"
    return pos, tri, uv, tex, kw, match


@pytest.mark.parametrize("name", ["vertices per model", "collision plane range",
                                  "texture index", "outside the grid",
                                  "fixed-point range"])
def test_limits_raise_and_write_nothing(name, tmp_path):
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex, kw, match = limit_case(name)
    target, fresh = tmp_path / "new.wad", tmp_path / "fresh.wad"
    target.write_bytes(b"old")
    for path in (target, fresh):
        with pytest.raises(wadkit.LimitError, match=match):
            lvl.with_geometry(pos, tri, uv, tex, texture_table=TABLE, **kw).save(path)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.wad"]


def heightfield(n=16, step=0.5):
    """Terrain over 8×8 cells in file space; triangles CCW from above."""
    xs = np.arange(n + 1) * step
    X, Z = np.meshgrid(xs, xs, indexing="ij")
    H = 0.5 + 0.4 * np.sin(X * 1.3) * np.cos(Z * 0.9)
    pos = np.stack([X, H, Z], -1).reshape(-1, 3).astype(np.float32)
    idx = lambda i, j: i * (n + 1) + j
    tris = []
    for i in range(n):
        for j in range(n):
            a, b, c, d = idx(i, j), idx(i, j + 1), idx(i + 1, j + 1), idx(i + 1, j)
            tris += [(a, b, c), (a, c, d)]
    return pos, np.array(tris, np.uint32)


def mesh_height(pos, step, n, x, z):
    """Height of the heightfield's triangle under (x, z), by hand."""
    i, j = int(x // step), int(z // step)
    fx, fz = x / step - i, z / step - j
    h = lambda a, b: pos[(i + a) * (n + 1) + j + b][1]
    if fz >= fx:   # triangle (a, b, c): corners (0,0), (0,1), (1,1)
        return h(0, 0) + fz * (h(0, 1) - h(0, 0)) + fx * (h(1, 1) - h(0, 1))
    return h(0, 0) + fx * (h(1, 0) - h(0, 0)) + fz * (h(1, 1) - h(1, 0))


def collision_height(lvl, x, z):
    """Highest collision surface whose edges accept (x, z), with the engine's
    plane scale (n/127 · p = d/4064) and a 1/64 edge tolerance."""
    t = lvl.tiles
    best = None
    for k in np.flatnonzero((t.cell_xz[:, 0] == int(x)) & (t.cell_xz[:, 1] == int(z))):
        bx, by, bz = t.b[k][3:] / 4096
        lx, lz = x - bx, z - bz
        for typ, _, planes in decode_records(lvl.models[t.model[k]].collision_raw):
            (nx, ny, nz), d = planes[0]
            if ny <= 0:
                continue
            y = (d / 4064 * 127 - nx * lx - nz * lz) / ny
            edges = planes[1:5 if typ & 1 else 4]
            if all(np.dot(en, (lx, y, lz)) / 127 - ed / 4064 >= -1 / 64 for en, ed in edges):
                best = y + by if best is None else max(best, y + by)
    return best


def test_floor_heights_agree_with_the_mesh():
    pos, tri = heightfield()
    base = wadkit.eng.from_bytes(base_level(w=8, h=8))
    uv = np.zeros((len(tri), 3, 2), np.float32)
    new = quiet(base.with_geometry, pos, tri, uv, np.zeros(len(tri), np.int32))
    rng = np.random.default_rng(5)
    pts = rng.uniform(0.01, 7.99, (2000, 2))
    diffs = []
    for x, z in pts:
        got = collision_height(new, x, z)
        diffs.append(np.inf if got is None else abs(got - mesh_height(pos, 0.5, 16, x, z)))
    diffs = np.array(diffs)
    assert (diffs < 0.005).mean() >= 0.99, np.sort(diffs)[-30:]


def test_tall_cell_split_into_tiles_by_height():
    """Floors 30 units apart in one cell: one origin could not reach both
    with i16 plane distances, so the cell gets a tile per height band."""
    lvl = wadkit.eng.from_bytes(base_level())
    p0, t0, uv, tex = quad_mesh(y=0.25)
    p1, _, _, _ = quad_mesh(y=30.25)
    pos = np.vstack([p0, p1])
    tri = np.vstack([t0, t0 + 4]).astype(np.uint32)
    new = quiet(lvl.with_geometry, pos, tri, np.vstack([uv, uv]), np.zeros(4, np.int32))
    t = new.tiles
    assert t.cell_xz.tolist() == [[1, 1], [1, 1]]
    assert sorted(t.position[:, 1].tolist()) == [0.25, 30.25]
    for k in range(2):
        recs = decode_records(new.models[t.model[k]].collision_raw)
        assert len(recs) == 2 and all(abs(r[2][0][1]) < 40 for r in recs)
    assert abs(collision_height(new, 1.5, 1.5) - 30.25) < 0.005


def test_new_rectangles_become_new_texture_entries():
    data = base_level()
    lvl = wadkit.eng.from_bytes(data)
    pos, tri, uv, tex = quad_mesh(tex=2)
    uv *= 0.5                           # rectangle 0..31 on page 2: not in TEXT
    new = lvl.with_geometry(pos, tri, uv, tex)      # the level's own table
    assert new.import_report["uv_nearest_entry"] == 0
    table = new.texture_table_raw
    assert len(table) == len(lvl.texture_table_raw) + 8
    # one new entry, a copy of entry 2 with the new rectangle (u0 u1 v0 v1)
    assert table[-8:] == struct.pack("<Hbb4B", 0, 2, -1, 0, 31, 0, 31)
    m = new.world_mesh()
    assert m["texture"].tolist() == [4, 4] and m["page"].tolist() == [2, 2]
    np.testing.assert_array_equal(np.sort(m["uv"].ravel()), np.sort(uv.ravel()))
    old, now = chunk_payloads(data), chunk_payloads(new.to_bytes())
    assert now["TEXT"][:-len(TABLE) - 8 - 4] == old["TEXT"][:-len(TABLE) - 4]


def test_engine_floor_test_on_the_written_level():
    """The bit-exact floor test (wadkit/_eng_floor.py) on a written terrain:
    ≥ 99 % of 2000 random points within 5 mm of the mesh height."""
    pos, tri = heightfield()
    base = wadkit.eng.from_bytes(base_level(w=9, h=9))
    uv = np.zeros((len(tri), 3, 2), np.float32)
    new = quiet(base.with_geometry, pos, tri, uv, np.zeros(len(tri), np.int32))
    rng = np.random.default_rng(11)
    diffs = []
    for x, z in rng.uniform(0.01, 7.99, (2000, 2)):
        want = mesh_height(pos, 0.5, 16, x, z)
        hit = new.floor(x, want, z)
        diffs.append(np.inf if hit is None else abs(hit["height"] - want))
    diffs = np.array(diffs)
    assert (diffs < 0.005).mean() >= 0.99, np.sort(diffs)[-20:]


def test_model_collision_decodes_the_written_polygons():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh()                 # 1.1 .. 1.9, y 0.5
    new = quiet(lvl.with_geometry, pos, tri, uv, tex)
    c = new.models[0].collision
    assert c["n_corners"].tolist() == [3, 3] and c["group"].tolist() == [0, 0]
    origin = np.array([1.5, 0.5, 1.5])               # tile: cell centre, y 0.5
    for k in range(2):
        want = pos[tri[k]] - origin
        got = c["corners"][k, :3]
        # the same corners, possibly starting at another one
        assert any(np.allclose(np.roll(got, r, 0), want, atol=1e-3) for r in range(3))


def test_non_finite_uvs_and_colours_convert_safely():
    """NaN / huge UVs and colours never reach an integer conversion: UVs that
    fit no rectangle are counted as inexact (the sanitizer build used to stop
    on a signed overflow), an infinite or huge colour clamps to 255 (it used
    to wrap to 0) and NaN reads as 0."""
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh(x0=1.25, z0=2.25, size=0.5)
    uv[0, 0] = (np.nan, 1e30)
    uv[1, 1] = (np.inf, -np.inf)
    color = np.full((2, 3, 4), 0.5, np.float32)
    color[:, :, 0] = np.inf
    color[:, :, 1] = 1e30
    color[:, :, 2] = np.nan
    new = quiet(lvl.with_geometry, pos, tri, uv, tex, color)
    assert new.import_report["uv_inexact"] == 2
    assert new.tiles.colors.tolist() == [[255, 255, 0, 0]] * 4


def test_grid_growth_beyond_the_bound_is_a_limit_error(tmp_path):
    """A long thin base grid (1 × 1100) grown sideways to x = 1000 would need
    1001 × 1100 cells: refused before anything is allocated or written."""
    lvl = wadkit.eng.from_bytes(base_level(w=1, h=1100))
    pos, tri, uv, tex = quad_mesh(x0=1000.2, z0=1.2, size=0.5)
    target = tmp_path / "new.wad"
    with pytest.raises(wadkit.LimitError, match="1×1100 to 1001×1100"):
        lvl.with_geometry(pos, tri, uv, tex, texture_table=TABLE).save(target)
    assert not target.exists()
    # growing a small grid stays allowed
    pos, tri, uv, tex = quad_mesh(x0=1000.2, z0=1.2, size=0.5)
    with pytest.warns(wadkit.WadWarning, match="grown from 4×4 to 1001×4"):
        lvl4 = wadkit.eng.from_bytes(base_level())
        lvl4.with_geometry(pos, tri, uv, tex, texture_table=TABLE)


def test_texture_table_beyond_65536_entries_is_refused_not_cut():
    """As world_mesh does: a table a u16 face index cannot reach the end of
    is a ValueError (it used to be cut to 65536 entries silently)."""
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh()
    big = TABLE * (65537 // 4 + 1)
    assert len(big) // 8 > 65536
    with pytest.raises(ValueError, match=r"n ≤ 65536"):
        lvl.world_mesh(texture_table=big)
    with pytest.raises(ValueError, match=r"n ≤ 65536"):
        lvl.with_geometry(pos, tri, uv, tex, texture_table=big)
