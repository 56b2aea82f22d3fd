"""RC2 collision: hand-built octants against hand-derived faces, the
invariants the data declares as FormatErrors naming the octant, the octants
laid out again byte for byte, and the writer (exact octant binning checked
against an independent SAT on a generated 20k-face mesh, limits)."""
import struct

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import rc2_collision as C

QUAD_OCTANT = {(1, 2, 0): ([(0, 0, 0), (16, 0, 0), (0, 16, 0), (16, 16, 64)],
                           [(0, 1, 3, 2, 5), (0, 1, 2, 9)])}


def parse(octants, **kw):
    return _core.collision_parse(C.block(octants, **kw))


def test_one_octant_hand_derived():
    c = parse(QUAD_OCTANT)
    # centre of octant (1, 2, 0) = (6, 10, 2) m; x, y / 16, z / 64
    assert c["positions"].tolist() == [[6, 10, 2], [7, 10, 2], [6, 11, 2], [7, 11, 3]]
    # stored triangle (0, 1, 2) reversed; stored quad (0, 1, 3, 2) is
    # (s2, s1, s0, s3) = (3, 1, 0, 2), split (3, 1, 0), (0, 2, 3)
    assert c["triangles"].tolist() == [[2, 1, 0], [3, 1, 0], [0, 2, 3]]
    assert c["tag"].tolist() == [9, 5, 5]
    assert c["quad"].tolist() == [False, True, True]
    assert c["quads"].tolist() == [[3, 1, 0, 2]] and c["quad_tag"].tolist() == [5]
    assert c["positions"].dtype == np.float32 and c["triangles"].dtype == np.uint32
    o = c["octants"]
    assert o["coord"].tolist() == [[1, 2, 0]] and o["counts"].tolist() == [[4, 2, 1]]
    # 4 + 16 + 8 + 1 = 29 bytes: size byte 2; the octant follows three nodes
    assert o["size"].tolist() == [2]
    assert o["faces"].tolist() == [[0, 1, 3, 2], [0, 1, 2, 0]]
    assert o["face_tag"].tolist() == [5, 9]
    assert o["vertices"].tolist() == [[0, 0, 0], [16, 0, 0], [0, 16, 0], [16, 16, 64]]


def test_faces_repeated_per_octant_are_one_face():
    # the same world triangle stored in two neighbouring octants: x = 4 m is
    # their shared wall; (4, 1, 1) .. seen from both centres (2 and 6 m)
    left = [(32, 0, 0), (32, 16, 0), (16, 0, 64)]       # +2 m, +1 m ... from x=2
    right = [(-32, 0, 0), (-32, 16, 0), (-48, 0, 64)]   # the same from x = 6
    c = parse({(0, 0, 0): (left, [(0, 1, 2, 3)]), (1, 0, 0): (right, [(0, 1, 2, 3)])})
    assert len(c["positions"]) == 3 and len(c["triangles"]) == 1
    assert c["positions"].tolist() == [[4, 2, 2], [4, 3, 2], [3, 2, 3]]
    assert len(c["octants"]["coord"]) == 2
    # the same corners with another tag is another face (nothing dropped)
    c = parse({(0, 0, 0): (left, [(0, 1, 2, 3)]), (1, 0, 0): (right, [(1, 2, 0, 4)])})
    assert c["tag"].tolist() == [3, 4]
    # a rotation of the corners (winding kept) is the same face
    c = parse({(0, 0, 0): (left, [(0, 1, 2, 3)]), (1, 0, 0): (right, [(1, 2, 0, 3)])})
    assert len(c["triangles"]) == 1


def test_triangle_halves_of_a_quad_are_folded():
    verts = [(0, 0, 0), (16, 0, 0), (16, 16, 0), (0, 16, 0)]
    quad = (0, 1, 2, 3, 7)
    c = parse({(0, 0, 0): (verts, [quad]),
               (0, 0, 1): ([(x, y, z - 256) for x, y, z in verts],
                           [(1, 2, 3, 7), (0, 1, 2, 8)])})
    # the octant above stores the same world corners (z - 256 from a centre
    # 4 m higher); (1, 2, 3) is a half of the quad (same tag): folded;
    # (0, 1, 2) with tag 8 is a face of its own
    assert c["folded"] == 1 and len(c["positions"]) == 4
    assert c["tag"].tolist() == [8, 7, 7] and c["quad"].tolist() == [False, True, True]
    c = parse({(0, 0, 0): (verts, [quad, (1, 2, 3, 7), (2, 3, 0, 7), (0, 1, 2, 8)])})
    assert c["folded"] == 2
    assert c["tag"].tolist() == [8, 7, 7] and c["quad"].tolist() == [False, True, True]


# ---- invariants ---------------------------------------------------------------

def fails(data, match):
    with pytest.raises(wadkit.FormatError, match=match) as e:
        _core.collision_parse(data, base=0x1000)
    assert 0x1000 <= e.value.offset < 0x1000 + len(data), e.value
    return e.value


def entry_at(blk):
    """Offset of the one octant's X entry in a one-octant block."""
    m = struct.unpack_from("<i", blk, 0)[0]
    zo = 4 * struct.unpack_from("<H", blk, m + 4)[0]
    yo = struct.unpack_from("<I", blk, m + zo + 4)[0]
    return m + yo + 4


def test_size_byte_must_match_the_counts():
    blk = bytearray(C.block(QUAD_OCTANT))
    at = entry_at(blk)
    blk[at] = 3                          # 29 bytes need 2
    e = fails(bytes(blk), "size byte 3")
    assert "octant (1, 2, 0)" in str(e) and e.offset == 0x1000 + at


def test_face_index_past_the_vertices():
    bad = {(1, 2, 0): (QUAD_OCTANT[(1, 2, 0)][0], [(0, 1, 4, 2, 5), (0, 1, 2, 9)])}
    blk = C.block(bad)
    e = fails(blk, "vertex index 4, the octant has 4")
    assert "octant (1, 2, 0)" in str(e)
    # the quad's fourth corner is the one after the faces
    bad = {(1, 2, 0): (QUAD_OCTANT[(1, 2, 0)][0], [(0, 1, 3, 9, 5), (0, 1, 2, 9)])}
    blk = C.block(bad)
    e = fails(blk, "vertex index 9")
    assert blk[e.offset - 0x1000] == 9


def test_octant_offsets_16_aligned_inside_the_mesh():
    blk = bytearray(C.block(QUAD_OCTANT))
    at = entry_at(blk)
    e = struct.unpack_from("<I", blk, at)[0]
    struct.pack_into("<I", blk, at, e + (4 << 8))
    fails(bytes(blk), "not 16-aligned")
    struct.pack_into("<I", blk, at, (len(blk) << 8) | 2)
    fails(bytes(blk), "not 16-aligned inside")
    o = struct.unpack_from("<I", C.block(QUAD_OCTANT), at)[0] >> 8
    struct.pack_into("<I", blk, at, (o + 16) << 8 | 2)   # inside the octant
    fails(bytes(blk), "run past|size byte")


def test_nodes_and_header_out_of_range():
    blk = bytearray(C.block(QUAD_OCTANT))
    struct.pack_into("<i", blk, 0, len(blk))
    fails(bytes(blk), "outside")
    blk = bytearray(C.block(QUAD_OCTANT))
    struct.pack_into("<H", blk, 0x42, 0xFFFF)          # Z count
    fails(bytes(blk), "Z node")
    blk = bytearray(C.block(QUAD_OCTANT))
    m = 0x40
    zo = 4 * struct.unpack_from("<H", blk, m + 4)[0]
    struct.pack_into("<I", blk, m + zo + 4, 6)          # X node offset
    fails(bytes(blk), "not 4-aligned")
    blk[m + 4:m + 6] = struct.pack("<H", 0x7FFF)
    fails(bytes(blk), "Y node")
    fails(bytes(C.block(QUAD_OCTANT))[:7], "no header")


def test_quads_more_than_faces():
    blk = bytearray(C.block(QUAD_OCTANT))
    o = 0x40 + (struct.unpack_from("<I", blk, entry_at(blk))[0] >> 8)
    blk[o + 3] = 3
    fails(bytes(blk), "3 quads among 2 faces|size byte")


def test_shared_nodes_cannot_multiply_work():
    """Every Z slot pointing at one Y node whose slots all point at one X
    node whose slots all point at one octant: a FormatError, not 10^9
    octants."""
    verts = [(0, 0, 0), (16, 0, 0), (0, 16, 0)]
    blk = bytearray(C.block({(0, 0, 0): (verts, [(0, 1, 2, 1)])}))
    m = 0x40
    n = 2000
    # rebuild by hand: Z node of n slots -> one Y node of n slots -> one X
    # node of n slots -> one octant
    z = struct.pack("<hH", 0, n) + struct.pack("<H", 0) * n
    y_at = len(z) + (-len(z) % 4)
    y = struct.pack("<hH", 0, n)
    x_at = y_at + 4 + 4 * n
    y += struct.pack("<I", x_at) * n
    oct_at = x_at + 4 + 4 * n
    oct_at += -oct_at % 16
    x = struct.pack("<hH", 0, n) + struct.pack("<I", (oct_at << 8) | 2) * n
    mesh = bytearray(z + bytes(y_at - len(z)) + y + x)
    mesh += bytes(oct_at - len(mesh)) + C.octant_bytes(verts, [(0, 1, 2, 1)])
    for i in range(n):
        struct.pack_into("<H", mesh, 4 + 2 * i, y_at // 4)
    data = bytes(blk[:m]) + bytes(mesh)
    fails(data, "shared")


def test_random_damage_parses_or_raises_format_error():
    rng = np.random.default_rng(3)
    good = C.block({(x, y, z): ([(0, 0, 0), (16, 0, 0), (0, 16, 0), (16, 16, 64)],
                                [(0, 1, 3, 2, 5), (0, 1, 2, 9)])
                    for x in range(3) for y in range(2) for z in (-1, 0)})
    ok = 0
    for _ in range(500):
        blk = bytearray(good)
        for _ in range(int(rng.integers(1, 4))):
            blk[int(rng.integers(0, len(blk)))] = int(rng.integers(0, 256))
        try:
            c = _core.collision_parse(bytes(blk))
        except wadkit.FormatError as e:
            assert e.offset is not None and 0 <= e.offset < len(blk)
            continue
        ok += 1
        assert len(c["triangles"]) == 0 or c["triangles"].max() < len(c["positions"])
    assert ok > 0


# ---- the octants laid out again ------------------------------------------------

def octants_round_trip(blk):
    raw = _core.collision_parse(blk)["octants"]
    return wadkit.rc2.build_collision_octants(raw)


@pytest.mark.parametrize("empty_z", ["zero", "node"])
def test_octants_rewrite_byte_for_byte(empty_z):
    rng = np.random.default_rng(7)
    octs = {}
    for key in {(int(a), int(b), int(c)) for a, b, c in rng.integers(-3, 4, (40, 3))}:
        nv = int(rng.integers(3, 30))
        verts = [tuple(int(v) for v in rng.integers(-500, 500, 3)) for _ in range(nv)]
        faces = [tuple(int(v) for v in rng.integers(0, nv, 4)) + (int(rng.integers(0, 256)),)
                 for _ in range(int(rng.integers(0, 4)))]
        faces += [tuple(int(v) for v in rng.integers(0, nv, 3)) + (int(rng.integers(0, 256)),)
                  for _ in range(int(rng.integers(1, 20)))]
        octs[key] = (verts, faces)
    blk = C.block(octs, empty_z=empty_z)
    assert octants_round_trip(blk) == blk
    assert C.parse(blk) == octs
    hero = bytes(range(48))
    blk = C.block(octs, hero=hero, empty_z=empty_z)
    assert octants_round_trip(blk) == blk
    assert wadkit.rc2.from_bytes  # the level API is tested below
