"""ENG level geometry: TRAK/STPC models, MAP tile part, spaces, tile
transform, UVs, vertex colours, world mesh, byte-identical rebuild. Expected
numbers are worked out by hand from the spec (docs/formats/eng.md)."""
import struct
import warnings

import numpy as np
import pytest

import wadkit
from builders import eng_level as L

QUAD = [(-0.5, 0, -0.5, 0, 1, 0), (0.5, 0, -0.5, 0, 1, 0),
        (0.5, 0, 0.5, 0, 1, 0), (-0.5, 0, 0.5, 0, 1, 0)]


def grey(n, sets=1):
    return L.color_block(n, [[(0x80, 0x80, 0x80, 0)] * n] * sets)


def open_level(data):
    with warnings.catch_warnings():
        warnings.simplefilter("error", wadkit.WadWarning)
        return wadkit.eng.from_bytes(data)


def chunk_payloads(data):
    lvl = wadkit.eng.from_bytes(data)
    return {c.tag: bytes(lvl.chunk(c.tag)) for c in lvl.chunks}


# ---- tile transform and spaces ----

# world positions (export space) of QUAD's vertices for a tile at
# A = (2.5, 1.0, -3.5), by hand from X = x + vx·cos a − vz·sin a,
# Z = z + vx·sin a + vz·cos a, a = rot/4096·2π
QUAD_WORLD = {
    0: [(2.0, -4.0), (3.0, -4.0), (3.0, -3.0), (2.0, -3.0)],
    1024: [(3.0, -4.0), (3.0, -3.0), (2.0, -3.0), (2.0, -4.0)],
    2048: [(3.0, -3.0), (2.0, -3.0), (2.0, -4.0), (3.0, -4.0)],
    3072: [(2.0, -3.0), (2.0, -4.0), (3.0, -4.0), (3.0, -3.0)],
}


def quad_level():
    model = L.Model(QUAD, [(0x800, 0, 1, 2, 0), (0x810, 0, 2, 3, 0)])
    tiles = [L.Tile(2.5, 1.0, -3.5, rot, 0, colors=grey(4)) for rot in QUAD_WORLD]
    return L.level(trak_payload=L.trak([model]),
                   map_payload_=L.map_payload(4, 5, tiles))


@pytest.mark.parametrize("space", ["export", "file"])
def test_quad_tile_rotations_world_positions(space):
    lvl = open_level(quad_level())
    mesh = lvl.world_mesh(space=space)
    zs = -1.0 if space == "file" else 1.0
    expected = []
    for rot, corners in QUAD_WORLD.items():
        expected += [(x, 1.0, zs * z) for x, z in corners]
    np.testing.assert_allclose(mesh["positions"], expected, atol=1e-6)
    order = [(0, 1, 2), (0, 2, 3)] if space == "export" else [(0, 2, 1), (0, 3, 2)]
    tris = [tuple(4 * t + v for v in tri) for t in range(4) for tri in order]
    assert mesh["triangles"].tolist() == [list(t) for t in tris]
    assert mesh["tile"].tolist() == [0, 0, 1, 1, 2, 2, 3, 3]


def test_tiles_arrays_file_space():
    lvl = open_level(quad_level())
    t = lvl.tiles
    assert len(t) == 4 and t.width == 4 and t.height == 5
    # B = (2.5, 1.0, 3.5)·4096 in game space = file space
    np.testing.assert_array_equal(t.position, [[2.5, 1.0, 3.5]] * 4)
    np.testing.assert_array_equal(lvl.tiles_in("export").position, [[2.5, 1.0, -3.5]] * 4)
    assert t.rotation.tolist() == [0, 1024, 2048, 3072]
    assert t.b[1].tolist() == [0, 1024, 0, 10240, 4096, 14336]
    # cell = floor(x) + floor(-z)·W = 2 + 3·4
    assert t.cell.tolist() == [14] * 4 and t.cell_xz.tolist() == [[2, 3]] * 4
    assert t.model.dtype == np.uint32 and t.position.dtype == np.float32


def test_model_spaces_negate_z_and_reverse_corners():
    verts = [(0.1, 0.2, 0.3, 0.0, 0.6, 0.8), (1.0, 0.0, 0.0, 0, 1, 0),
             (0.0, 0.0, 1.0, 0, 1, 0)]
    model = L.Model(verts, [(0x4800, 0, 1, 2, 7)])
    lvl = open_level(L.level(trak_payload=L.trak([model])))
    m = lvl.models[0]
    f32 = np.float32
    np.testing.assert_array_equal(m.positions[0], [f32(0.1), f32(0.2), -f32(0.3)])
    np.testing.assert_array_equal(m.normals[0], [0.0, f32(0.6), -f32(0.8)])
    assert m.triangles.tolist() == [[0, 2, 1]]
    assert m.face_flags.tolist() == [0x4800] and m.face_texture.tolist() == [7]
    e = lvl.models_in("export")[0]
    assert e.triangles.tolist() == [[0, 1, 2]]
    np.testing.assert_array_equal(e.positions, np.array(verts, f32)[:, :3])
    # face plane by hand: (v1-v0)×(v2-v0) = (0.9,-0.2,-0.3)×(-0.1,-0.2,0.7)
    # = (-0.2, -0.6, -0.2) -> normalised (-1,-3,-1)/sqrt(11)
    n = np.array([-1, -3, -1]) / np.sqrt(11)
    np.testing.assert_allclose(e.face_planes[0, :3], n, atol=1e-6)
    np.testing.assert_allclose(m.face_planes[0, :3], n * [1, 1, -1], atol=1e-6)
    for arr in (m.positions, m.normals, m.triangles, m.face_flags):
        assert arr.flags["C_CONTIGUOUS"]


# ---- UVs ----

U0, U1, V0, V1 = 16 / 256, 32 / 256, 32 / 256, 64 / 256
# corners v0, v1, v2 (file order of the face record) for each flag combination
UV_BY_FLAGS = {
    0x000: [(U1, V1), (U0, V1), (U1, V0)],
    0x010: [(U1, V1), (U0, V1), (U1, V0)],   # 0x10 alone changes nothing
    0x020: [(U0, V1), (U1, V1), (U0, V0)],
    0x030: [(U0, V1), (U1, V1), (U0, V0)],
    0x800: [(U1, V1), (U0, V1), (U0, V0)],
    0x820: [(U0, V1), (U1, V1), (U1, V0)],
    0x810: [(U0, V0), (U1, V0), (U1, V1)],
    0x830: [(U1, V0), (U0, V0), (U0, V1)],
}
TRI = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]
# vertex colours R,G,B,A and what they mean (byte/128, clamped to 1)
TRI_COLORS = [(0x80, 0x40, 0xff, 0), (0x20, 0x00, 0x80, 0), (0xc0, 0x80, 0x10, 0)]
TRI_RGB = [(1.0, 0.5, 1.0), (0.25, 0.0, 1.0), (1.0, 1.0, 0.125)]


def uv_level(text=True):
    faces = [(flags, 0, 1, 2, 0) for flags in UV_BY_FLAGS]
    faces.append((0x800, 0, 1, 2, 1))      # flat colour entry
    faces.append((0x4000, 0, 1, 2, 0))     # ignores vertex colours
    tiles = [L.Tile(1.5, 0, -1.5, 0, 0, colors=L.color_block(3, [TRI_COLORS]))]
    table = L.text_table([(0, 3, -1, 16, 31, 32, 63), (1, 0, -1, 255, 128, 0, 0)])
    return L.level(trak_payload=L.trak([L.Model(TRI, faces)]),
                   text_payload=table if text else None,
                   map_payload_=L.map_payload(3, 3, tiles))


def table_of(data):
    text = chunk_payloads(data)["TEXT"]
    n = struct.unpack_from("<I", text, 8)[0]
    return text[12:12 + 8 * n]


@pytest.mark.parametrize("space", ["export", "file"])
@pytest.mark.parametrize("own_table", [False, True])
def test_uv_corner_rules(space, own_table):
    data = uv_level()
    lvl = open_level(data)
    # the level's own table (TEXT parser) or the same bytes passed in
    mesh = lvl.world_mesh(space=space,
                          texture_table=None if own_table else table_of(data))
    order = [0, 1, 2] if space == "export" else [0, 2, 1]
    for t, (flags, uvs) in enumerate(UV_BY_FLAGS.items()):
        assert mesh["face_flags"][t] == flags
        np.testing.assert_allclose(mesh["uv"][t], [uvs[k] for k in order], err_msg=hex(flags))
        np.testing.assert_allclose(mesh["color"][t][:, :3], [TRI_RGB[k] for k in order])
        assert mesh["page"][t] == 3 and mesh["texture"][t] == 0
    flat, white = len(UV_BY_FLAGS), len(UV_BY_FLAGS) + 1
    assert mesh["page"][flat] == -1 and mesh["texture"][flat] == 1
    # a flat colour is the material's colour (page -1), not mixed in here
    np.testing.assert_allclose(mesh["color"][flat][:, :3], [TRI_RGB[k] for k in order])
    np.testing.assert_array_equal(mesh["color"][white], np.ones((3, 4)))
    np.testing.assert_array_equal(mesh["color"][..., 3], 1.0)
    for key, dtype in (("positions", np.float32), ("triangles", np.uint32),
                       ("uv", np.float32), ("color", np.float32), ("texture", np.int32),
                       ("face_flags", np.uint16), ("tile", np.int32)):
        assert mesh[key].dtype == dtype and mesh[key].flags["C_CONTIGUOUS"], key


def test_uv_without_table_is_unit_rectangle():
    lvl = open_level(uv_level(text=False))
    mesh = lvl.world_mesh(space="export")
    # flags 0x800: (a,V1)(b,V1)(b,V0) with a = U1 = 1, b = U0 = 0, V0 = 0, V1 = 1
    np.testing.assert_array_equal(mesh["uv"][4], [(1, 1), (0, 1), (0, 0)])
    assert mesh["texture"].tolist() == [0] * 8 + [1, 0]
    assert (mesh["page"] == -1).all()


def test_texture_index_past_the_table_is_a_format_error():
    data = uv_level()
    lvl = open_level(data)
    with pytest.raises(wadkit.FormatError) as info:
        lvl.world_mesh(texture_table=table_of(data)[:8])
    trak = wadkit.eng.from_bytes(data).chunks[3]
    assert trak.tag == "TRAK"
    # face 8 (tex 1) of model 0: header 4 + 0x84, 3 vertices, 8 faces, +8
    assert info.value.offset == trak.offset + 8 + 4 + 0x84 + 3 * 24 + 8 * 28 + 8
    assert "TRAK model 0" in info.value.context


# ---- colour sets and tile swaps ----

def swap_level():
    a_sets = [TRI_COLORS, [(0x40, 0x40, 0x40, 0)] * 3]
    model_a = L.Model(TRI, [(0, 0, 1, 2, 0)])
    model_b = L.Model(QUAD, [(0, 0, 1, 2, 0)])
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=L.color_block(3, a_sets)),
             L.Tile(1.5, 0, -0.5, 0, 0, anim=1, colors=L.color_block(3, [TRI_COLORS]),
                    colors_b=L.color_block(4, [[(1, 2, 3, 0)] * 4, [(4, 5, 6, 0)] * 4]))]
    mp = L.map_payload(2, 1, tiles, swaps=[(1, 0, 0, 0, 1)], rest=b"REST" * 5)
    return L.level(wfpc=0x10000, trak_payload=L.trak([model_a, model_b]),
                   map_payload_=mp)


def test_colour_sets_and_swap_colours():
    data = swap_level()
    lvl = open_level(data)
    t = lvl.tiles
    assert lvl.flags == 0x10000 and t.has_swap_block
    assert t.swap.tolist() == [-1, 0] and t.swaps.tolist() == [[1, 0, 0, 0, 1]]
    assert t.color_sets.tolist() == [2, 1]
    assert t.color_b_sets.tolist() == [0, 2]
    # colour entries in file order: tile 0 (2 sets × 3), tile 1 (3), modelB (2 × 4)
    assert t.color_start.tolist() == [0, 6] and t.color_b_start.tolist()[1] == 9
    assert len(t.colors) == 6 + 3 + 8
    assert t.colors[0].tolist() == [0x80, 0x40, 0xff, 2]     # byte 3 = set count
    assert t.colors[9].tolist() == [1, 2, 3, 2] and t.colors[13].tolist() == [4, 5, 6, 0]
    m0 = lvl.world_mesh(space="export")
    np.testing.assert_allclose(m0["color"][0][:, :3], TRI_RGB)
    m1 = lvl.world_mesh(space="export", color_set=1)
    np.testing.assert_allclose(m1["color"][0][:, :3], np.full((3, 3), 0.5))
    # tile 1 has one set: set 1 falls back to its set 0
    np.testing.assert_allclose(m1["color"][1][:, :3], TRI_RGB)
    assert lvl.rebuild_geometry()["MAP"] == chunk_payloads(data)["MAP"]


def test_zones():
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=grey(3))]
    table = [(0xffffffff if k == 0 else k, 100 * k - 5) for k in range(32)]
    mp = L.map_payload(3, 2, tiles, zone_table=table, grid=[0, 1, 2, 3, 4, 5])
    lvl = open_level(L.level(trak_payload=L.trak([L.Model(TRI, [])]), map_payload_=mp))
    z = lvl.zones
    assert z.mask[0] == 0xffffffff and z.mask[31] == 31
    assert z.height[0] == -5 and z.height[2] == 195
    assert z.grid.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_a_b_disagreement_warns():
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=grey(3),
                    b=(0, 0, 0, 2048, 0, 4096))]      # B z = 1.0, A says 0.5
    data = L.level(trak_payload=L.trak([L.Model(TRI, [])]),
                   map_payload_=L.map_payload(1, 1, tiles))
    lvl = wadkit.eng.from_bytes(data)
    with pytest.warns(wadkit.WadWarning, match="position .A. and fixed-point"):
        lvl.tiles
    assert any("tile 0" in w for w in lvl.geometry_warnings)


# ---- STPC ----

def stpc_level(layout):
    rigid = L.Model(TRI, [(0x800, 0, 1, 2, 3)], bytes(range(32)), (0, 1, 0))
    skinned = L.Model(QUAD, [(0, 0, 1, 2, 1)], bones=[1, 3])
    anims = [L.animation(2, 3, 0, 5, 2, layout), L.animation(0, 2, 1, 0, 1, layout, seed=2)]
    st = L.stpc([rigid, skinned], anims, tail=b"SinkingStatuePad\0" * 3)
    return L.level(trak_payload=L.trak([]), stpc_payload=st)


@pytest.mark.parametrize("layout", ["spec", "croc2"])
def test_stpc_models_and_animations(layout):
    data = stpc_level(layout)
    lvl = wadkit.eng.from_bytes(data)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert lvl.animation_layout == layout
    assert any("Croc 2 layout" in str(w.message) for w in rec) == (layout == "croc2")
    rigid, skinned = lvl.objects
    assert rigid.rigid_vertex_count == 3 and rigid.bone_counts.tolist() == []
    assert rigid.collision_groups == (0, 1, 0) and rigid.collision_raw == bytes(range(32))
    assert skinned.rigid_vertex_count == 0 and skinned.bone_counts.tolist() == [1, 3]
    assert skinned.triangles.tolist() == [[0, 2, 1]]
    a0, a1 = lvl.animations
    assert (a0["n_frames"], a0["n_bones"], a0["n_delta"], a0["flag"]) == (3, 2, 5, 0)
    assert a0["a"].tolist() == [7, 8]
    assert a0["frame_words"].tolist() == [[f, -f, 1, 3] for f in range(3)]
    assert a0["deltas"][0].tolist() == [[i, 2 * i, -i, 1] for i in range(5)]
    assert a0["deltas"][2].tolist() == [20 + i for i in range(5)]
    assert a0["matrices"].shape == (3, 2, 4, 4)
    assert a0["matrices"][2, 1].ravel().tolist() == [2100 + k for k in range(16)]
    assert a1["frame_words"] is None and a1["matrices"][1, 0, 0, 0] == 1000
    assert lvl.rebuild_geometry()["STPC"] == chunk_payloads(data)["STPC"]


# ---- the generated level: realistic statistics, byte-identical rebuild ----

@pytest.fixture(scope="module")
def realistic():
    return L.realistic_level()


def test_realistic_level_rebuilds_byte_identically(realistic, tmp_path):
    data, facts = realistic
    assert facts["models"] == 300 and 20000 <= facts["triangles"] <= 30000
    lvl = open_level(data)
    assert len(lvl.models) == 300 and len(lvl.tiles) == facts["tiles"]
    assert sum(len(m.triangles) for m in lvl.models) == facts["triangles"]
    assert lvl.zones.grid.shape == (64, 64) and len(lvl.tiles.swaps) == facts["swaps"]
    payloads = chunk_payloads(data)
    rebuilt = lvl.rebuild_geometry()
    for tag in ("TRAK", "MAP", "STPC"):
        assert rebuilt[tag] == payloads[tag.strip()], tag
    out = tmp_path / "copy.wad"
    lvl.save(out)
    assert out.read_bytes() == data
    m0 = lvl.models[0]
    assert m0.collision_raw == bytes(range(32)) and m0.collision_groups == (1, 0, 0)


def test_realistic_world_mesh(realistic):
    data, facts = realistic
    lvl = open_level(data)
    mesh = lvl.world_mesh(texture_table=table_of(data))
    per_tile = [len(lvl.models[m].triangles) for m in lvl.tiles.model]
    assert len(mesh["triangles"]) == sum(per_tile)
    assert mesh["triangles"].max() < len(mesh["positions"])
    assert set(np.unique(mesh["page"])) <= set(range(8))
    assert (mesh["color"] <= 1).all() and (mesh["color"] >= 0).all()
    # every tile's triangles sit in its cell (models reach at most 0.6·√2)
    t = mesh["tile"]
    cx = lvl.tiles.cell_xz[t]
    centre = mesh["positions"][mesh["triangles"][:, 0]][:, [0, 2]]
    assert (np.abs(centre - (cx + 0.5)) < 0.9).all()


def test_replacing_a_chunk_reparses_the_geometry():
    lvl = open_level(quad_level())
    assert len(lvl.models) == 1
    two = L.trak([L.Model(QUAD, []), L.Model(QUAD, [(0, 0, 1, 2, 0)])])
    lvl.replace_chunk("TRAK", two)
    assert len(lvl.models) == 2 and len(lvl.models[1].triangles) == 1
    assert lvl.rebuild_geometry()["TRAK"] == two


def test_floor_test_through_the_parsed_level():
    """The spec's worked example (t1l4m002 cell 57,43) as a whole WAD: the
    tile comes from MAP (A, B, model index) and the records from TRAK, and
    Level.floor reproduces the spec's in-game table."""
    from test_eng_floor import SPEC_TABLE, worked_example_model
    coll = worked_example_model()
    model = L.Model([], [], coll, (len(coll) // 32, 0, 0))
    tile = L.Tile(57.5, 2.0, -43.5, 3072, 0)
    data = L.level(trak_payload=L.trak([model]),
                   map_payload_=L.map_payload(64, 64, [tile]))
    lvl = open_level(data)
    assert lvl.tiles.b[0].tolist() == [0, 3072, 0, 57.5 * 4096, 2 * 4096, 43.5 * 4096]
    for (x, y, z), poly, height in SPEC_TABLE:
        hit = lvl.floor(x, y, z)
        assert hit["tile"] == 0 and hit["polygon"] == poly
        assert abs(hit["height"] - height) <= 0.001


def test_model_counts_without_the_models():
    """lvl.model_counts: vertices, faces and collision records per model as
    the builder wrote them, without building the models' arrays."""
    from builders import eng_collision
    floor = eng_collision.polygon([(-0.5, 0, -0.5), (-0.5, 0, 0.5), (0.5, 0, 0.5),
                                   (0.5, 0, -0.5)], material=3)
    models = [L.Model(QUAD, [(0x800, 0, 1, 2, 0), (0x810, 0, 2, 3, 0)]),
              L.Model(QUAD, [(0x800, 0, 1, 2, 0)], floor + floor, (1, 1, 0))]
    tiles = [L.Tile(2.5, 1.0, -3.5, 0, 0, colors=grey(4)),
             L.Tile(1.5, 1.0, -2.5, 0, 1, colors=grey(4))]
    lvl = open_level(L.level(trak_payload=L.trak(models),
                             map_payload_=L.map_payload(4, 5, tiles)))
    c = lvl.model_counts
    assert {k: v.tolist() for k, v in c.items()} == {
        "vertices": [4, 4], "faces": [2, 1], "collision": [0, 2]}
    assert all(v.dtype == np.uint32 for v in c.values())
    # and the same as the models say
    assert [len(m.positions) for m in lvl.models] == c["vertices"].tolist()
    assert [sum(m.collision_groups) for m in lvl.models] == c["collision"].tolist()
