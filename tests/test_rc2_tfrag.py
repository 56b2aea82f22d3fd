"""RC2 tfrag terrain: hand-assembled patches against hand-derived geometry,
one test per wrong turn of the spec record, hostile patches, a generated
level of ~800 patches, and textures through a whole LEVEL fixture."""
import struct

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import rc2_level as R
from builders import tfrag as T


def quad(**kw) -> T.Patch:
    """Four corners; origin (2048, -1024, 100); one strip of 4 on ad-gif 0
    (texture 3) for LOD 0, one triangle (0, 1, 3) for LODs 1 and 2."""
    args = dict(
        positions=[(0, 0, 0), (1024, 0, 0), (0, 1024, 0), (1024, 1024, 512)],
        origin=(2048, -1024, 100),
        vinfo=[(0, 0, 4096, 0), (4096, 0, 4096, 2), (0, -4096, 4096, 4),
               (2048, -2048, 4096, 6)],
        rgba=[(0x80, 0x40, 0, 0x80), (0, 0x80, 0, 0x40), (0, 0, 0x80, 0x80),
              (0x20, 0x20, 0x20, 0x80)],
        adgifs=[3],
        strips={0: [(4, 0)], 1: [(3, 0)], 2: [(3, 0)]},
        indices={0: [0, 1, 2, 3], 1: [0, 1, 3], 2: [0, 1, 3]})
    args.update(kw)
    return T.Patch(**args)


def parse(patches, lod=0, **kw):
    return _core.tfrag_parse(T.block(patches), lod, **kw)


def test_quad_hand_derived():
    t = parse([quad()])
    # (s16 + origin) / 1024
    assert t["positions"].tolist() == [
        [2.0, -1.0, 100 / 1024], [3.0, -1.0, 100 / 1024],
        [2.0, 0.0, 100 / 1024], [3.0, 0.0, 612 / 1024]]
    # strip 0 1 2 3: (0 1 2), then the second triangle wound back: (2 1 3)
    assert t["triangles"].tolist() == [[0, 1, 2], [2, 1, 3]]
    # s/4096 for s >= 0; negative values halved (offset-mode float, docs)
    assert t["uv"][0].tolist() == [[0, 0], [1, 0], [0, -0.5]]
    assert t["uv"][1].tolist() == [[0, -0.5], [1, 0], [0.5, -0.25]]
    # colour indexed by position, 0x80 = 1.0
    assert t["color"][1].tolist() == [[0, 0, 1, 1], [0, 1, 0, 0.5],
                                      [0.25, 0.25, 0.25, 1]]
    assert t["texture"].tolist() == [3, 3] and t["patch"].tolist() == [0, 0]
    p = t["patches"][0]
    assert (p["vert_count"], p["tri_count"], p["lod_tris"]) == (4, 2, (2, 1, 1))
    assert t["lod_distance"] == 32.0
    assert parse([quad()], 2)["triangles"].tolist() == [[0, 1, 3]]


def test_dtypes_and_shapes():
    t = parse([quad(), quad()])
    assert t["positions"].dtype == np.float32 and t["positions"].shape == (8, 3)
    assert t["triangles"].dtype == np.uint32 and t["triangles"].shape == (4, 3)
    assert t["uv"].shape == (4, 3, 2) and t["color"].shape == (4, 3, 4)
    assert t["texture"].dtype == np.int32 and t["patch"].tolist() == [0, 0, 1, 1]
    assert t["triangles"][2:].tolist() == [[4, 5, 6], [6, 5, 7]]  # own vertices


# ---- the four wrong turns of the spec record --------------------------------

def test_wrong_turn_element_size_from_the_command_not_the_immediate():
    # ad-gifs at 0x17: positions land at VU address 0x1c, whose low nibble
    # read as vn/vl would mean 16-byte elements instead of 6
    p = quad(addr_base=0x17)
    imm = 0x17 + 5
    assert (((32 >> (imm & 3)) * (((imm >> 2) & 3) + 1)) // 8) != 6
    a, b = parse([p]), parse([quad()])
    assert a["positions"].tolist() == b["positions"].tolist()
    assert a["triangles"].tolist() == b["triangles"].tolist()


def test_wrong_turn_payloads_pad_to_4_not_2():
    # 5 positions = 30 bytes, padded to 32: a 2-byte rule reads the next
    # code word 2 bytes early
    p = quad(positions=quad().positions + [(7, 7, 7)],
             rgba=quad().rgba + [(0, 0, 0, 0)])
    t = parse([p])
    assert t["positions"].shape == (5, 3)
    assert t["positions"][4].tolist() == [(7 + 2048) / 1024, (7 - 1024) / 1024,
                                          107 / 1024]


def test_wrong_turn_inline_payloads_are_skipped():
    # payloads that look like unpack codes: a walk that ignores them finds
    # extra "positions" and misses the real ones
    fake = T.code(0x69, 4, 0x20) + bytes(4)
    extra = (T.stcol(0x69040020, 0, 0, 0) + T.stmask(0x69040020)
             + T.mpg(fake) + T.direct(fake * 2) + T.code(0x51, 0, 1) + fake * 2)
    p = quad(extra=extra)
    t = parse([p])
    assert t["positions"].tolist() == parse([quad()])["positions"].tolist()


def test_wrong_turn_strips_banked_by_lod_not_arrival():
    # the LOD 2 list arrives first; LOD 0 must still get the LOD 0 strips
    g = T.grid_patch(0, 0, lod_split=True)
    t0, t2 = parse([g], 0), parse([g], 2)
    assert t0["patches"][0]["lod_tris"] == (48, 24, 12)
    assert len(t0["triangles"]) == 48 and len(t2["triangles"]) == 12
    # first two triangles of the first row: (0, 7, 1) then (1, 7, 8)
    assert t0["triangles"][:2].tolist() == [[0, 7, 1], [1, 7, 8]]


def test_positions_spread_over_three_tiers():
    """Only a quarter of real patches keep all positions in the common list."""
    p = quad(tiers=(2, 1, 1), vinfo_tiers=(2, 1, 1),
             strips={0: [(4, 0)], 1: [(3, 0)], 2: [(3, 0)]},
             indices={0: [0, 1, 2, 3], 1: [0, 1, 2], 2: [1, 0, 1]})
    t = parse([p])
    assert t["positions"].tolist() == parse([quad()])["positions"].tolist()
    assert parse([p], 1)["triangles"].tolist() == [[0, 1, 2]]
    # LOD 1 may not use the LOD-0-only vertex info (index 3)
    bad = quad(tiers=(2, 1, 1), vinfo_tiers=(2, 1, 1))
    with pytest.raises(wadkit.FormatError, match="outside the 3 vertex infos"):
        parse([bad])


# ---- hostile patches ----------------------------------------------------------

def fails(blk, match, **kw):
    with pytest.raises(wadkit.FormatError, match=match) as e:
        _core.tfrag_parse(blk, **kw)
    return e.value


def test_counts_must_match_the_header():
    e = fails(T.block([quad(), quad(vert_count=5)]), "vert_count 5")
    assert "tfrag patch 1" in e.context and e.offset == 0x40 + 0x40 + 0x3C
    fails(T.block([quad(tri_count=3)]), "tri_count 3")


def test_offsets_past_the_block():
    blk = bytearray(T.block([quad()]))
    struct.pack_into("<i", blk, 0x40 + 0x10, len(blk))
    fails(bytes(blk), "past the")
    fails(T.block([quad()])[:-20], "past the")
    blk = bytearray(T.block([quad()]))
    struct.pack_into("<i", blk, 4, 1000)
    fails(bytes(blk), "does not fit")
    fails(b"\x40\0\0", "no header")


def test_vif_walk_desynchronised():
    # a DIRECT claiming 100 quadwords inside a short list
    e = fails(T.block([quad(extra=T.code(0x50, 0, 100))]), "VIF payload")
    assert "LOD 0+1 list" in e.context


def test_bad_strips():
    fails(T.block([quad(indices={0: [0, 1, 2, 9], 1: [0, 1, 3], 2: [0, 1, 3]})]),
          "index 9 outside")
    fails(T.block([quad(strips={0: [(4, None)], 1: [(3, 0)], 2: [(3, 0)]})]),
          "not biased")
    fails(T.block([quad(strips={0: [(4, 2)], 1: [(3, 0)], 2: [(3, 0)]})]),
          "ad-gif 2 outside")
    fails(T.block([quad(strips={0: [(5, 0)], 1: [(3, 0)], 2: [(3, 0)]},
                        tri_count=3)]), "5 vertices")
    fails(T.block([quad()]), "texture 3, the table has 2", texture_count=2)
    fails(T.block([quad(vinfo=[(0, 0, 4096, 0)] * 3 + [(0, 0, 4096, 8)])]),
          "position 8/2")


def test_generated_level_800_patches():
    patches = [T.grid_patch((i % 40) * 6144, (i // 40) * 4096, texture=i % 5,
                            lod_split=i % 3 == 0) for i in range(800)]
    t = _core.tfrag_parse(T.block(patches), 0, texture_count=5)
    assert len(t["patches"]) == 800
    assert len(t["triangles"]) == 800 * 48 == sum(p["tri_count"] for p in t["patches"])
    assert t["positions"].shape == (800 * 35, 3)
    assert t["triangles"].max() < len(t["positions"])
    assert np.array_equal(np.bincount(t["texture"]), [48 * 160] * 5)
    # patch 41 starts one grid cell right and one up: (6144, 4096) / 1024
    first = t["triangles"][t["patch"] == 41][0][0]
    assert t["positions"][first].tolist() == [6.0, 4.0, 0.0]


# ---- texture binding: only biased records bind --------------------------------

def test_texture_changes_only_on_a_biased_record():
    """Hand-derived from the rule (docs/formats/rc2-tfrag.md, strips): a biased
    record with offset >= 0 binds ad-gif offset/5; a plain record keeps the
    active texture whatever its offset byte; a biased record with offset
    -1 keeps it too."""
    rows = [(0,), (None, 5), (1,), (T.KEEP,), (None, 0), (2,), (None,)]
    p = T.banded_patch(0, 0, rows, adgifs=[7, 9, 4])
    t = parse([p])
    per_row = [7, 7, 9, 9, 9, 4, 4]       # written out by hand from the rule
    assert t["texture"].tolist() == [x for x in per_row for _ in range(12)]
    assert t["texture"].tolist() == T.run_textures(p.strips[0], p.adgifs)


def old_reading(runs, adgifs):
    """What tfrag.c did before: bind on every record whose offset >= 0."""
    out, active = [], None
    for n, ad, *byte in runs:
        off = (-1 if ad is None and not byte else byte[0] if ad is None
               else -1 if ad == T.KEEP else 5 * ad)
        if off >= 0:
            active = off // 5
        out += [adgifs[active]] * (n - 2)
    return out


def banded_level(n=800, seed=16):
    """n patches of 4..8 rows, 1..4 ad-gifs over 5 textures; a texture
    change on some rows, and plain records carrying a stale offset byte."""
    rng = np.random.default_rng(seed)
    patches = []
    for i in range(n):
        nad = int(rng.integers(1, 5))
        adgifs = [int(x) for x in rng.choice(5, nad, replace=False)]
        rows = [(0,)]
        for _ in range(int(rng.integers(3, 8))):
            r = rng.random()
            if r < 0.25:
                rows.append((int(rng.integers(0, nad)),))
            elif r < 0.45:
                rows.append((None, 5 * int(rng.integers(0, nad))))
            elif r < 0.5:
                rows.append((T.KEEP,))
            else:
                rows.append((None,))
        patches.append(T.banded_patch((i % 40) * 6144, (i // 40) * 4096, rows, adgifs))
    return patches


def test_generated_level_textures_follow_the_rule():
    patches = banded_level()
    t = _core.tfrag_parse(T.block(patches), 0, texture_count=5)
    want, old, wrong_patches = [], [], 0
    for p in patches:
        w, o = T.run_textures(p.strips[0], p.adgifs), old_reading(p.strips[0], p.adgifs)
        want += w
        old += o
        wrong_patches += w != o
    assert t["texture"].tolist() == want
    changed = int(np.sum(np.array(want) != np.array(old)))
    # the generator must exercise the defect: the old reading differs
    assert changed > 0 and wrong_patches > 0
    # docs/formats/rc2-tfrag.md quotes these (the old binary gave the same count)
    assert (changed, len(want), wrong_patches) == (7620, 57960, 281)


def test_writer_binds_with_biased_records_only():
    """The writer stores a texture change as a biased record and every other
    strip as a plain one: byte for byte what the spec builder writes."""
    m = dict(QUAD_MESH, strips=[[0, 1, 2, 3]] * 4, textures=[3, 3, 5, 3])
    built = wadkit.rc2.build_tfrags([m])
    o = (2560, -512, 256)
    pos = [(round(x * 1024) - o[0], round(y * 1024) - o[1], round(z * 1024) - o[2])
           for x, y, z in QUAD_MESH["positions"]]
    runs = [(4, 0), (4, None), (4, 1), (4, 0)]
    spec = T.block([quad(positions=pos, origin=o, adgifs=[3, 5],
                         vinfo=[(0, 0, 4096, 0), (4096, 0, 4096, 2),
                                (0, -4096, 4096, 4), (2048, -2048, 4096, 6)],
                         strips={0: runs, 1: runs, 2: runs},
                         indices={k: [0, 1, 2, 3] * 4 for k in range(3)},
                         bsphere=(2.5, -0.5, 0.25, float(np.float32(np.sqrt(0.5 + 0.0625)))))])
    assert built == spec
    assert _core.tfrag_parse(built, 0)["texture"].tolist() == [3] * 4 + [5] * 2 + [3] * 2


# ---- through a whole level: terrain, patches, textures ------------------------

def level_with_terrain(palette: int = 0):
    blk = T.block([quad(adgifs=[1]), T.grid_patch(0, 0, texture=0)])
    assert len(blk) <= 0x1000
    core = bytearray(R.CORE_SIZE)
    core[:len(blk)] = blk
    pixels = bytes([0, 8, 16, 24, 1, 2, 3, 255])
    core[0x2000 + 0x10:0x2000 + 0x18] = pixels          # texture 1: 4 x 2
    core[0x2000:0x2000 + 4] = bytes([255, 0, 0, 255])   # texture 0: 2 x 2
    table = (struct.pack("<ihhhhhh", 0, 2, 2, 1, 0, 0, 0)
             + struct.pack("<ihhhhhh", 0x10, 4, 2, 1, palette, 0, 0))
    data, _ = R.level(core=bytes(core), index_tail=bytes(4) + table + bytes(0x20))
    return data


def test_level_terrain_patches_and_textures(write):
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", level_with_terrain()))
    t = lvl.terrain()
    assert len(t["triangles"]) == 2 + 48 and set(t["texture"].tolist()) == {0, 1}
    assert [p["tri_count"] for p in lvl.patches] == [2, 48]
    assert len(lvl.tfrag_block()) == 0x1000        # up to the occlusion offset
    tex = lvl.tfrag_textures
    assert [x.shape for x in tex] == [(2, 2, 4), (2, 4, 4)]
    # palette = gs_ram bytes 0..1023: entry j = (4j, 4j+1, 4j+2, 4j+3);
    # index bits 3 and 4 swapped (8 <-> 16); alpha < 0x80 doubled, else 255
    assert tex[1][0].tolist() == [[0, 1, 2, 6], [64, 65, 66, 134],
                                  [32, 33, 34, 70], [96, 97, 98, 198]]
    assert tex[1][1].tolist() == [[4, 5, 6, 14], [8, 9, 10, 22],
                                  [12, 13, 14, 30], [252, 253, 254, 255]]
    assert tex[0].dtype == np.uint8


def test_texture_palette_out_of_range(write):
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", level_with_terrain(palette=1)))
    with pytest.raises(wadkit.FormatError, match="palette 1"):
        lvl.tfrag_textures


# ---- the writer -----------------------------------------------------------------

QUAD_MESH = dict(positions=[[2, -1, 0], [3, -1, 0], [2, 0, 0], [3, 0, 0.5]],
                 uv=[[0, 0], [1, 0], [0, -0.5], [0.5, -0.25]],
                 color=[[1, 0.5, 0, 1], [0, 1, 0, 0.5], [0, 0, 1, 1],
                        [0.25, 0.25, 0.25, 1]],
                 strips=[[0, 1, 2, 3]], textures=[3])


def test_writer_matches_the_spec_builder_byte_for_byte():
    # the writer's origin is the rounded bounding-box centre: (2.5, -0.5,
    # 0.25) * 1024; its bounding sphere that centre and the farthest corner
    built = wadkit.rc2.build_tfrags([QUAD_MESH])
    o = (2560, -512, 256)
    pos = [(round(x * 1024) - o[0], round(y * 1024) - o[1], round(z * 1024) - o[2])
           for x, y, z in QUAD_MESH["positions"]]
    spec = T.block([quad(positions=pos, origin=o,
                         vinfo=[(0, 0, 4096, 0), (4096, 0, 4096, 2),
                                (0, -4096, 4096, 4), (2048, -2048, 4096, 6)],
                         strips={0: [(4, 0)], 1: [(4, 0)], 2: [(4, 0)]},
                         indices={0: [0, 1, 2, 3], 1: [0, 1, 2, 3], 2: [0, 1, 2, 3]},
                         bsphere=(2.5, -0.5, 0.25, float(np.float32(np.sqrt(0.5 + 0.0625)))))])
    assert built == spec


def random_grid(rng, w, h, ntex):
    xs, ys = np.meshgrid(np.arange(w + 1), np.arange(h + 1))
    pos = np.stack([xs.ravel() * 0.75 + rng.integers(-50, 50),
                    ys.ravel() * 0.5 + rng.integers(-50, 50),
                    rng.integers(-512, 512, xs.size) / 1024], axis=1)
    uv = rng.integers(-4096, 8192, (xs.size, 2)) / 4096
    color = rng.integers(0, 256, (xs.size, 4)) / 128
    strips = [[y * (w + 1) + x + d * (w + 1) for x in range(w + 1) for d in (0, 1)]
              for y in range(h)]
    return dict(positions=pos, uv=uv, color=color, strips=strips,
                textures=rng.integers(0, ntex, h))


def test_writer_round_trip():
    rng = np.random.default_rng(5)
    meshes = [random_grid(rng, int(rng.integers(1, 9)), int(rng.integers(1, 6)), 4)
              for _ in range(60)]
    t = _core.tfrag_parse(wadkit.rc2.build_tfrags(meshes, 40.0), 0, texture_count=4)
    assert t["lod_distance"] == 40.0 and len(t["patches"]) == 60
    base = 0
    tri = 0
    for i, m in enumerate(meshes):
        n = len(m["positions"])
        got = t["positions"][base:base + n]
        assert np.abs(got - m["positions"]).max() <= 0.5 / 1024 + 1e-6
        want = []
        for s, tex in zip(m["strips"], m["textures"]):
            for j in range(len(s) - 2):
                a, b, c = s[j], s[j + 1], s[j + 2]
                want.append(((b, a, c) if j % 2 else (a, b, c), tex))
        tris = t["triangles"][tri:tri + len(want)] - base
        assert tris.tolist() == [list(w) for w, _ in want]
        assert t["texture"][tri:tri + len(want)].tolist() == [x for _, x in want]
        corners = np.array([w for w, _ in want])
        assert np.abs(t["uv"][tri:tri + len(want)] - m["uv"][corners]).max() <= 1 / 8192
        assert np.abs(t["color"][tri:tri + len(want)]
                      - np.clip(m["color"][corners], 0, 255 / 128)).max() <= 1 / 256
        assert (t["patch"][tri:tri + len(want)] == i).all()
        base += n
        tri += len(want)


@pytest.mark.parametrize("change, match", [
    (dict(positions=np.zeros((256, 3)), uv=np.zeros((256, 2)),
          color=np.zeros((256, 4))), "256 vertices"),
    (dict(strips=[[0, 1]]), "2 vertices"),
    (dict(strips=[[0, 1, 9]]), "index 9"),
    (dict(positions=[[0, 0, 0], [70, 0, 0], [0, 1, 0], [1, 1, 0]]), "extent"),
    (dict(uv=[[9, 0]] * 4), "UV 9"),
    (dict(strips=[[0, 1, 2, 3]] * 128, textures=[0] * 128), "256 triangles"),
])
def test_writer_limits(change, match):
    m = dict(QUAD_MESH, **change)
    with pytest.raises(wadkit.LimitError, match=match) as e:
        wadkit.rc2.build_tfrags([QUAD_MESH, m])
    assert "tfrag mesh 1" in str(e.value)


def test_writer_vu_memory_limit():
    rng = np.random.default_rng(1)
    # 72 vertices, 7 textures: 9 + 35 + 3*72 + 126/4 + 8 = 300 quadwords
    big = random_grid(rng, 8, 7, 1)
    big["textures"] = list(range(7))
    t = _core.tfrag_parse(wadkit.rc2.build_tfrags([big]), 0)
    assert t["patches"][0]["ad_gifs"] == 7
    bigger = random_grid(rng, 10, 8, 1)        # 99 vertices: 9+5+297+44+9 = 364
    with pytest.raises(wadkit.LimitError, match="VU memory"):
        wadkit.rc2.build_tfrags([bigger])


def test_random_damage_parses_or_raises_format_error():
    """Flipped bytes anywhere in a block: a clean FormatError or a parse
    whose every patch still matches its header (never a crash)."""
    rng = np.random.default_rng(11)
    good = T.block([T.grid_patch(0, 0, lod_split=True), quad(), quad(tiers=(2, 1, 1),
                    vinfo_tiers=(2, 1, 1), strips={0: [(4, 0)], 1: [(3, 0)], 2: [(3, 0)]},
                    indices={0: [0, 1, 2, 3], 1: [0, 1, 2], 2: [1, 0, 1]})])
    ok = 0
    for _ in range(400):
        blk = bytearray(good)
        for _ in range(int(rng.integers(1, 4))):
            blk[int(rng.integers(0, len(blk)))] = int(rng.integers(0, 256))
        for lod in (0, 2):
            try:
                t = _core.tfrag_parse(bytes(blk), lod)
            except wadkit.FormatError as e:
                assert e.offset is not None and 0 <= e.offset < len(blk)
                continue
            ok += 1
            assert all(p["lod_tris"][0] == p["tri_count"] for p in t["patches"])
            assert len(t["triangles"]) == 0 or t["triangles"].max() < len(t["positions"])
    assert ok > 0


def test_strip_errors_point_at_the_bad_byte():
    """A bad strip index, vertex info or texture is reported at its own
    absolute offset, not at the start of the patch data."""
    blk = T.block([quad(indices={0: [0, 1, 2, 9], 1: [0, 1, 3], 2: [0, 1, 3]})])
    assert blk.count(bytes([0, 1, 2, 9])) == 1
    e = fails(blk, "index 9 outside", base=0x1000)
    assert e.offset == 0x1000 + blk.index(bytes([0, 1, 2, 9])) + 3
    # vertex info 3 = (0, 0, 4096, 8): its vertex field is its last 2 bytes
    blk = T.block([quad(vinfo=[(0, 0, 4096, 0)] * 3 + [(0, 0, 4096, 8)])])
    vi = struct.pack("<4h", 0, 0, 4096, 8)
    assert blk.count(vi) == 1
    assert fails(blk, "position 8/2").offset == blk.index(vi) + 6


def test_writer_clamps_non_finite_colours():
    """A colour of inf or 1e30 is written as 0xff (it used to wrap to 0),
    NaN and -inf as 0."""
    m = dict(QUAD_MESH, color=[[np.inf, 1e30, np.nan, -np.inf]] * 4)
    t = _core.tfrag_parse(wadkit.rc2.build_tfrags([m]), 0)
    assert t["color"][0].tolist() == [[255 / 128, 255 / 128, 0, 0]] * 3


def test_writable_buffer_is_parsed_from_a_copy():
    """A bytearray (which another thread could change between the parse's
    checks and the fill) gives the same arrays as bytes: it is copied first;
    a bad byte in it is still reported at its offset."""
    blk = T.block([T.grid_patch(0, 0, lod_split=True), quad()])
    a, b = _core.tfrag_parse(blk, 0), _core.tfrag_parse(bytearray(blk), 0)
    for k in ("positions", "triangles", "uv", "color", "texture", "patch"):
        assert np.array_equal(a[k], b[k]), k
    bad = bytearray(T.block([quad(vert_count=5)]))
    e = fails(bad, "vert_count 5")
    assert e.offset == 0x40 + 0x3C


def test_negative_texture_count_is_a_format_error(write):
    """A negative tfrag texture count in the core header used to reach
    tfrag_parse as "no table" and switch the texture-index check off."""
    data = level_with_terrain()
    at = wadkit.rc2.from_bytes(data).sections["core_index"][0] + 0x30
    bad = bytearray(data)
    struct.pack_into("<i", bad, at, -1)
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", bytes(bad)))
    with pytest.raises(wadkit.FormatError, match="count -1 is negative") as e:
        lvl.terrain()
    assert e.value.offset == at and "RC2 core header" in e.value.context
