"""Bad ENG geometry input: every count/offset the geometry parser reads is
checked, and each failure is a FormatError naming chunk, model/tile and the
absolute file offset (worked out by hand from the layout below)."""
import struct
import warnings

import pytest

import wadkit
from builders import eng_level as L

TRI = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]
TRI_SIZE = 0x84 + 3 * 24 + 28 + 32          # header + data of the TRAK model


def trak_model():
    return L.Model(TRI, [(0x800, 0, 1, 2, 0)], bytes(32), (0, 0, 1))


def grey3():
    return L.color_block(3, [[(0x80, 0x80, 0x80, 0)] * 3])


def parts(**over):
    p = {"wfpc": 0x10000, "trak": L.trak([trak_model()]),
         "stpc": L.stpc([L.Model(TRI, [(0, 0, 1, 2, 0)])], [L.animation(2, 3, 0, 5, 2)]),
         "tiles": [L.Tile(0.5, 0, -0.5, 0, 0, colors=grey3())],
         "w": 2, "h": 2, "swaps": [], "rest": b"xyz"}
    p.update(over)
    return p


def build(p, map_payload=None):
    mp = map_payload if map_payload is not None else L.map_payload(
        p["w"], p["h"], p["tiles"], swaps=p["swaps"], rest=p["rest"])
    return L.level(wfpc=p["wfpc"], trak_payload=p["trak"], stpc_payload=p["stpc"],
                   map_payload_=mp)


def base_of(data, tag):
    """Absolute offset of a chunk's payload (the container parse is tested
    on its own)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lvl = wadkit.eng.from_bytes(data)
    return next(c.offset + 8 for c in lvl.chunks if c.tag.strip() == tag)


def patch(b, off, fmt, *v):
    b = bytearray(b)
    struct.pack_into(fmt, b, off, *v)
    return bytes(b)


def expect(data, tag, rel, context, what):
    lvl = wadkit.eng.from_bytes(data)
    with pytest.raises(wadkit.FormatError) as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", wadkit.WadWarning)
            lvl.models
    err = info.value
    assert err.offset == base_of(data, tag) + rel, str(err)
    assert err.context.startswith(context), err.context
    assert what in str(err), str(err)
    assert f"0x{err.offset:x}" in str(err)


def map_rel_after_grid(n_tiles, w, h):
    # N W H, A records, three empty lists, zone table, grid
    return 12 + 24 * n_tiles + 12 + 256 + 4 * w * h


def test_good_fixture_parses():
    data = build(parts())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lvl = wadkit.eng.from_bytes(data)
        assert len(lvl.models) == 1 and len(lvl.tiles) == 1 and len(lvl.objects) == 1


# ---- TRAK ----

def test_trak_model_count_past_the_end():
    trak = patch(L.trak([trak_model()]), 0, "<I", 1000)
    expect(build(parts(trak=trak)), "TRAK", 4, "TRAK", "model header count 1000")


def test_trak_vertices_past_the_end():
    trak = L.trak([trak_model()])[:4 + 0x84 + 2 * 24]
    expect(build(parts(trak=trak)), "TRAK", 4 + 0x84, "TRAK model 0", "vertex count 3")


def test_trak_face_index_not_below_nverts():
    rel = 4 + 0x84 + 3 * 24 + 2 + 2 * 2             # face 0, corner 2
    trak = patch(L.trak([trak_model()]), rel, "<H", 3)
    expect(build(parts(trak=trak)), "TRAK", rel, "TRAK model 0",
           "face 0: corner 2 uses vertex 3, the model has 3")


def test_trak_collision_records_past_the_end():
    trak = patch(L.trak([trak_model()]), 4 + 0x78, "<3H", 5, 0, 1)
    expect(build(parts(trak=trak)), "TRAK", 4 + 0x84 + 72 + 28, "TRAK model 0",
           "collision record count 6")


def test_trak_bytes_after_last_model():
    trak = L.trak([trak_model()]) + b"\0\0\0\0"
    expect(build(parts(trak=trak)), "TRAK", 4 + TRI_SIZE, "TRAK", "4 bytes after")


def test_wfpc_too_short():
    data = L.level(trak_payload=L.trak([]))
    data = data.replace(b"CPFW\x04\x00\x00\x00\x00\x00\x00\x00", b"CPFW\x02\x00\x00\x00\x00\x00")
    data = struct.pack("<I", len(data)) + data[4:]
    expect(data, "WFPC", 0, "WFPC", "truncated flags")


# ---- STPC ----

def test_stpc_bone_counts_must_add_up():
    stpc = L.stpc([L.Model(TRI + TRI[:1], [], bones=[1, 1])])
    expect(build(parts(stpc=stpc)), "STPC", 4 + 0x8c, "STPC model 0",
           "bone vertex counts add up to 2, the model has 4")


def test_stpc_model_header_count_past_the_end():
    stpc = patch(L.stpc([]), 0, "<I", 7)
    expect(build(parts(stpc=stpc)), "STPC", 4, "STPC", "model header count 7")


STPC_MODEL = 0x8c + 72 + 28                 # the rigid STPC model of parts()


def test_stpc_animation_frames_past_the_end():
    stpc = parts()["stpc"][:-10]
    # frames start after u32 n1, the model, u32 n2, header 32, nA 8, words 24
    expect(build(parts(stpc=stpc)), "STPC", 4 + STPC_MODEL + 4 + 64,
           "STPC > animation 0", "truncated animation frames")


def test_stpc_animation_pointer_slot_not_zero():
    stpc = patch(parts()["stpc"], 4 + STPC_MODEL + 4 + 4, "<I", 0x1234)
    expect(build(parts(stpc=stpc)), "STPC", 4 + STPC_MODEL + 4,
           "STPC > animation 0", "pointer slots")


def test_stpc_animation_count_past_the_end():
    stpc = patch(parts()["stpc"], 4 + STPC_MODEL, "<I", 10 ** 8)
    expect(build(parts(stpc=stpc)), "STPC", 4 + STPC_MODEL + 4, "STPC",
           "animation header count 100000000")


# ---- MAP ----

@pytest.mark.parametrize("x,z", [(2.5, -0.5), (0.5, -2.5), (-0.7, -0.5),
                                 (0.5, 0.7), (float("nan"), -0.5),
                                 (float("inf"), -0.5)])
def test_map_tile_outside_the_grid(x, z):
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=grey3()),
             L.Tile(x, 0, z, 0, 0, colors=grey3(), b=(0, 0, 0, 0, 0, 0))]
    expect(build(parts(tiles=tiles)), "MAP", 12 + 24, "MAP > tile 1",
           "lies outside the 2×2 grid")


def test_map_tile_count_past_the_end():
    mp = patch(L.map_payload(2, 2, parts()["tiles"], swaps=[]), 0, "<I", 1 << 30)
    expect(build(parts(), mp), "MAP", 12, "MAP", "tile (A) count")


def test_map_list_count_past_the_end():
    mp = patch(L.map_payload(2, 2, parts()["tiles"], swaps=[]), 12 + 24 + 4, "<I", 1 << 28)
    expect(build(parts(), mp), "MAP", 12 + 24 + 8, "MAP", "90-byte records count")


def test_map_zone_grid_past_the_end():
    # W×H = 2^32 cells would overflow 32-bit arithmetic: still a clean error
    tiles = parts()["tiles"]
    mp = patch(L.map_payload(2, 2, tiles, swaps=[]), 4, "<II", 0x10000, 0x10000)
    expect(build(parts(), mp), "MAP", 12 + 24 + 12 + 256, "MAP", "zone grid cell count")


def test_map_model_index_not_below_trak_count():
    tiles = [L.Tile(0.5, 0, -0.5, 0, 3, colors=grey3())]
    expect(build(parts(tiles=tiles)), "MAP", map_rel_after_grid(1, 2, 2) + 24,
           "MAP > tile 0", "model index 3, TRAK has 1 models")


def test_map_swap_model_not_below_trak_count():
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, anim=1, colors=grey3(), colors_b=grey3())]
    rel = map_rel_after_grid(1, 2, 2) + 24 + 4 + 4
    expect(build(parts(tiles=tiles, swaps=[(0, 0, 0, 0, 9)])), "MAP", rel,
           "MAP > tile swap 0", "models 0/9")


def test_map_swap_count_past_the_end():
    mp = L.map_payload(2, 2, parts()["tiles"], swaps=[])
    rel = map_rel_after_grid(1, 2, 2) + 24 + 4
    mp = patch(mp, rel, "<I", 1 << 29)
    expect(build(parts(), mp), "MAP", rel + 4, "MAP", "tile swap count")


COLORS_REL = map_rel_after_grid(1, 2, 2) + 24 + 4 + 4   # + swap count (0)


def test_map_colour_block_past_the_end():
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=grey3()[:8])]
    expect(build(parts(tiles=tiles, rest=b"")), "MAP", COLORS_REL,
           "MAP > tile 0 (model 0)", "vertex colours count 3")


def test_map_colour_sets_past_the_end():
    colors = patch(grey3(), 3, "<B", 200)          # 200 sets claimed
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=colors)]
    expect(build(parts(tiles=tiles)), "MAP", COLORS_REL,
           "MAP > tile 0 (model 0)", "vertex colour sets count 600")


def test_map_swap_colour_block_past_the_end():
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, anim=1, colors=grey3(), colors_b=b"")]
    expect(build(parts(tiles=tiles, swaps=[(0, 0, 0, 0, 0)], rest=b"")), "MAP",
           COLORS_REL + 20 + 12, "MAP > tile 0 (swap model 0)", "vertex colours count 3")


def test_map_needs_trak():
    data = L.level(map_payload_=L.map_payload(1, 1, []))
    lvl = wadkit.eng.from_bytes(data)
    with pytest.raises(wadkit.FormatError, match="needs a TRAK"):
        lvl.tiles


def test_every_truncation_of_map_and_trak_is_a_format_error():
    p = parts()
    trak = p["trak"]
    for n in range(0, len(trak), 7):
        with pytest.raises(wadkit.FormatError):
            wadkit.eng.from_bytes(build(parts(trak=trak[:n])))._geom
    mp = L.map_payload(2, 2, p["tiles"], swaps=[])
    for n in range(0, len(mp), 5):
        with pytest.raises(wadkit.FormatError):
            wadkit.eng.from_bytes(build(p, mp[:n]))._geom


def test_random_damage_never_crashes():
    """Flip bytes of the geometry chunks: parse, read out, rebuild and build
    the world mesh either work or raise FormatError (the sanitizer run
    checks memory safety on the same inputs)."""
    import random
    good = build(parts(tiles=[L.Tile(0.5, 0, -0.5, 0, 0, anim=1, colors=grey3(),
                                     colors_b=grey3())],
                       swaps=[(0, 0, 0, 0, 0)]))
    ranges = [(base_of(good, t), base_of(good, t) + n) for t, n in
              (("TRAK", len(parts()["trak"])), ("STPC", len(parts()["stpc"])))]
    m = base_of(good, "MAP")
    ranges.append((m, len(good) - 8 - 8 - 2 - 8))   # up to the LGHT chunk
    rnd = random.Random(7)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(300):
        data = bytearray(good)
        lo, hi = rnd.choice(ranges)
        for _ in range(rnd.randint(1, 4)):
            data[rnd.randrange(lo, hi)] = rnd.randrange(256)
        lvl = wadkit.eng.from_bytes(bytes(data))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lvl.models, lvl.objects, lvl.animations, lvl.tiles, lvl.zones
                lvl.world_mesh()
                rebuilt = lvl.rebuild_geometry()
            for tag, payload in rebuilt.items():     # whatever parses rebuilds exactly
                assert payload == bytes(lvl.chunk(tag)), tag
            outcomes["ok"] += 1
        except wadkit.FormatError:
            outcomes["error"] += 1
    assert outcomes["ok"] > 0 and outcomes["error"] > 0, outcomes


def test_stpc_animation_frame_size_overflowing_64_bits():
    """2^31 frames × 2^27 bones × 64 bytes is 2^64: the frame size must not
    wrap to 0 and let a 32-byte header pass as a whole animation."""
    anim = struct.pack("<8I", 0, 0, 1 << 31, 1, 0, 0, 1 << 27, 0)
    stpc = L.stpc([L.Model(TRI, [(0, 0, 1, 2, 0)])], [anim])
    expect(build(parts(stpc=stpc)), "STPC", 4 + STPC_MODEL + 4 + 32,
           "STPC > animation 0", "truncated animation frames")


def test_world_mesh_amplification_is_bounded():
    """Tiles share models: a 3-vertex model with 60,000 faces placed on 80
    tiles is 4.8M triangles from a ~1.7 MB file. The world mesh refuses it
    (FormatError naming the tile) instead of allocating gigabytes."""
    import resource
    faces = [(0x800, 0, 1, 2, 0)] * 60000
    big = L.Model(TRI, faces, bytes(32), (0, 0, 1))
    tiles = [L.Tile(0.5 + (i % 8), 0, -(0.5 + i // 8), 0, 0, colors=grey3())
             for i in range(80)]
    data = L.level(wfpc=0, trak_payload=L.trak([big]),
                   map_payload_=L.map_payload(8, 10, tiles))
    lvl = wadkit.eng.from_bytes(data)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(wadkit.FormatError, match="more than 4194304") as info:
        lvl.world_mesh()
    assert "tile 69" in str(info.value)   # 70 tiles × 60,000 > 4,194,304
    assert "MAP world mesh" in info.value.context
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 200 * 1024
