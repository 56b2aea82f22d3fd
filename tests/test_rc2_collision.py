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
from damage import parses_or_format_error

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
    good = C.block({(x, y, z): ([(0, 0, 0), (16, 0, 0), (0, 16, 0), (16, 16, 64)],
                                [(0, 1, 3, 2, 5), (0, 1, 2, 9)])
                    for x in range(3) for y in range(2) for z in (-1, 0)})

    def check(c):
        assert len(c["triangles"]) == 0 or c["triangles"].max() < len(c["positions"])
    assert parses_or_format_error(good, _core.collision_parse, check, seed=3) > 0


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


# ---- the writer ----------------------------------------------------------------

def q16(v):
    return np.round(np.asarray(v, dtype=np.float64) * 16) / 16


def q64(v):
    return np.round(np.asarray(v, dtype=np.float64) * 64) / 64


def generated_mesh(seed=20):
    """About 20,000 faces with the statistics of a level: a heightfield of
    0.75 m cells (quads and triangle pairs), walls standing exactly on
    octant planes, a floor exactly on z = 8 m, boxes, a region at negative
    coordinates and scattered triangles up to 12 m across. Positions on
    the stored grid (x, y: 1/16 m, z: 1/64 m)."""
    rng = np.random.default_rng(seed)
    pos, tris, quads = [], [], []

    def vert(x, y, z):
        pos.append((q16(x), q16(y), q64(z)))
        return len(pos) - 1

    nx, ny = 110, 70
    base = len(pos)
    for j in range(ny + 1):
        for i in range(nx + 1):
            vert(-20 + 0.75 * i, -12 + 0.75 * j,
                 3 * np.sin(i / 9) + 2 * np.cos(j / 7) + rng.integers(0, 8) / 64)
    for j in range(ny):
        for i in range(nx):
            a = base + j * (nx + 1) + i
            b, c, d = a + 1, a + nx + 2, a + nx + 1
            if rng.random() < 0.5:
                quads.append((a, b, c, d))
            else:
                tris += [(a, b, c), (c, d, a)]
    for k in range(300):                       # walls on x = 4 m planes
        x = 4.0 * int(rng.integers(-4, 14))
        y = float(rng.integers(-40, 40))
        z = float(rng.integers(0, 24)) / 2
        quads.append((vert(x, y, z), vert(x, y + 1.5, z), vert(x, y + 1.5, z + 2.25),
                      vert(x, y, z + 2.25)))
    for k in range(400):                       # floor tiles on z = 8 m
        x, y = float(rng.integers(0, 60)), float(rng.integers(-30, 30))
        quads.append((vert(x, y, 8), vert(x + 1, y, 8), vert(x + 1, y + 1, 8),
                      vert(x, y + 1, 8)))
    for k in range(300):                       # boxes
        x0, y0, z0 = (float(v) for v in rng.integers(-60, 60, 3))
        s = float(rng.integers(1, 12)) / 4
        c = [vert(x0 + dx * s, y0 + dy * s, z0 + dz * s)
             for dz in (0, 1) for dy in (0, 1) for dx in (0, 1)]
        for f in ((0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3),
                  (0, 4, 6, 2), (1, 3, 7, 5)):
            quads.append(tuple(c[i] for i in f))
    while len(tris) + len(quads) < 20000:     # scattered triangles
        p = rng.uniform(-90, 90, 3)
        size = rng.uniform(0.2, 12)
        tris.append(tuple(vert(*(p + rng.uniform(-size, size, 3) / 2)) for _ in range(3)))
    n_t, n_q = len(tris), len(quads)
    return (np.array(pos, dtype=np.float32), np.array(tris, dtype=np.uint32),
            rng.integers(0, 256, n_t).astype(np.uint8), np.array(quads, dtype=np.uint32),
            rng.integers(0, 256, n_q).astype(np.uint8))


def units(p):
    """World positions in integer 1/64 m."""
    return np.round(np.asarray(p, dtype=np.float64) * 64).astype(np.int64)


def sat_overlaps(a, b, c, h=128):
    """Independent exact SAT, vectorised: corners (N,3) int64 relative to
    the box centre; the closed box [-h, h]^3. Returns (N,) bool."""
    v = np.stack([a, b, c], axis=1)                        # N,3(corner),3
    lo, hi = v.min(axis=1), v.max(axis=1)
    keep = ((lo <= h) & (hi >= -h)).all(axis=1)            # box faces
    edges = np.stack([b - a, c - b, a - c], axis=1)        # N,3,3
    axes = [np.cross(edges[:, 0], edges[:, 1])]
    eye = np.eye(3, dtype=np.int64)
    for i in range(3):
        for j in range(3):
            axes.append(np.cross(np.broadcast_to(eye[i], edges[:, j].shape), edges[:, j]))
    for n in axes:
        p = np.einsum("nk,nck->nc", n, v)
        r = h * np.abs(n).sum(axis=1)
        keep &= ~((p.min(axis=1) > r) | (p.max(axis=1) < -r))
    return keep


def expected_octants(pos_u, faces):
    """face index -> set of octant keys, from the SAT above: candidates are
    the closed octants the bounding box touches."""
    cand_face, cand_key = [], []
    for f, idx in enumerate(faces):
        pts = pos_u[list(idx)]
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        k0 = -(-lo // 256) - 1
        k1 = hi // 256
        for z in range(k0[2], k1[2] + 1):
            for y in range(k0[1], k1[1] + 1):
                for x in range(k0[0], k1[0] + 1):
                    cand_face.append(f)
                    cand_key.append((x, y, z))
    cf = np.array(cand_face)
    ck = np.array(cand_key, dtype=np.int64)
    centre = ck * 256 + 128
    hit = np.zeros(len(cf), bool)
    for half in (0, 1):
        corner = []
        for k in range(3):
            sel = [faces[f][(k + 2 * half) % len(faces[f])] if len(faces[f]) == 4 or half == 0
                   else faces[f][k] for f in cf]
            corner.append(pos_u[sel] - centre)
        ok = sat_overlaps(*corner)
        if half:
            ok &= np.array([len(faces[f]) == 4 for f in cf])
        hit |= ok
    out = [set() for _ in faces]
    for f, key in zip(cf[hit], ck[hit]):
        out[f].add(tuple(int(v) for v in key))
    return out


def stored_octants(blk, pos_u, faces, tags):
    """face index -> set of octant keys, read with the spec builder's own
    reader; a stored face is matched by its world corners in stored order
    (triangle (a, b, c) -> (c, b, a), quad (a, b, c, d) -> (c, b, a, d))."""
    index = {}
    for f, (idx, tag) in enumerate(zip(faces, tags)):
        order = (2, 1, 0) if len(idx) == 3 else (2, 1, 0, 3)
        index.setdefault((tuple(tuple(int(v) for v in pos_u[idx[k]]) for k in order),
                          int(tag)), []).append(f)
    out = [set() for _ in faces]
    for key, (verts, fs) in C.parse(blk).items():
        for face in fs:
            corners = tuple(C.world(key, verts[i]) for i in face[:-1])
            for f in index[(corners, face[-1])]:
                out[f].add(key)
    return out


@pytest.fixture(scope="module")
def mesh20k():
    pos, tris, ttag, quads, qtag = generated_mesh()
    blk = wadkit.rc2.build_collision(pos, tris, ttag, quads=quads, quad_tags=qtag)
    return pos, tris, ttag, quads, qtag, blk


def test_every_face_in_exactly_the_octants_it_touches(mesh20k):
    pos, tris, ttag, quads, qtag, blk = mesh20k
    faces = [tuple(t) for t in tris.tolist()] + [tuple(q) for q in quads.tolist()]
    tags = list(ttag) + list(qtag)
    assert len(faces) >= 20000
    pos_u = units(pos)
    want = expected_octants(pos_u, faces)
    got = stored_octants(blk, pos_u, faces, tags)
    bad = [f for f in range(len(faces)) if want[f] != got[f]]
    assert not bad, (len(bad), bad[:5], [(want[f], got[f]) for f in bad[:3]])
    assert all(want)                          # no face without an octant
    n_pairs = sum(len(s) for s in want)
    assert n_pairs > len(faces)               # faces repeat per octant
    # docs/formats/rc2-collision-sky.md quotes these numbers of this mesh
    assert (len(tris), len(quads), n_pairs, len(C.parse(blk)), len(blk)) == (
        13625, 6375, 51583, 23124, 1339780)


def test_written_collision_reads_back_and_rewrites_identically(mesh20k):
    pos, tris, ttag, quads, qtag, blk = mesh20k
    c = _core.collision_parse(blk)
    nt = int((~c["quad"]).sum())
    assert nt == len(tris) and len(c["quads"]) == len(quads) and c["folded"] == 0
    # the same faces (positions exact: the input lies on the stored grid)
    def key_set(p, t, tags):
        return sorted((tuple(map(tuple, p[list(f)].tolist())), int(g)) for f, g in zip(t, tags))
    tq = c["triangles"][~c["quad"]]
    assert key_set(c["positions"], tq, c["tag"][~c["quad"]]) == key_set(pos, tris, ttag)
    assert key_set(c["positions"], c["quads"], c["quad_tag"]) == key_set(pos, quads, qtag)
    again = wadkit.rc2.build_collision(c["positions"], tq, c["tag"][~c["quad"]],
                                       quads=c["quads"], quad_tags=c["quad_tag"])
    assert again == blk                       # the canonical order is a function of the faces
    assert wadkit.rc2.build_collision_octants(c["octants"]) == blk
    o = c["octants"]
    assert (o["counts"][:, 0] < 256).all() and (o["counts"][:, 2] < 256).all()
    assert (o["offset"] % 16 == 0).all()


def test_hand_derived_octants_of_one_triangle():
    # z = 2 m; x, y >= 0, x + y <= 7: its bounding box touches (1, 1, 0),
    # the triangle does not (x + y >= 8 there); the planes x = 0 and y = 0
    # touch the octants at -1
    blk = wadkit.rc2.build_collision([[0, 0, 2], [7, 0, 2], [0, 7, 2]], [[0, 1, 2]], [4])
    assert sorted(C.parse(blk)) == sorted(
        (x, y, 0) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (1, 1))
    # a face exactly on z = 4 m is in the octants below and above
    blk = wadkit.rc2.build_collision([[1, 1, 4], [2, 1, 4], [1, 2, 4]], [[0, 1, 2]], [4])
    assert sorted(C.parse(blk)) == [(0, 0, 0), (0, 0, 1)]


def limit(match, *args, **kw):
    with pytest.raises(wadkit.LimitError, match=match) as e:
        wadkit.rc2.build_collision(*args, **kw)
    return str(e.value)


def test_limits_name_the_octant():
    rng = np.random.default_rng(2)
    # 300 distinct vertices inside octant (0, 0, 0)
    p = np.round(rng.uniform(0.5, 3.5, (300, 3)) * 16) / 16
    t = np.arange(300).reshape(100, 3)
    assert "octant (0, 0, 0): more than 255 vertices" in limit("255 vertices", p, t, np.zeros(100, np.uint8))
    # 256 quads on four corners
    p = [[1, 1, 1], [2, 1, 1], [2, 2, 1], [1, 2, 1]]
    q = [[0, 1, 2, 3]] * 256
    msg = limit("255 quads", p, np.zeros((0, 3)), [], quads=q, quad_tags=np.arange(256) % 256)
    assert "octant (0, 0, 0)" in msg
    # 1100 triangles: 4 + 12 + 4400 bytes > 4080
    msg = limit("4080 bytes", p, [[0, 1, 2]] * 1100, np.zeros(1100, np.uint8))
    assert "octant (0, 0, 0)" in msg
    # a vertex 38 m from the centre of an octant the face touches
    msg = limit("from the octant centre", [[1, 1, 1], [39, 1, 1], [1, 2, 1]], [[0, 1, 2]], [0])
    assert "octant (0, 0, 0)" in msg and "triangle 0" in msg
    limit("spans 70.00 m", [[1, 1, 1], [71, 1, 1], [1, 2, 1]], [[0, 1, 2]], [0])
    limit("131,068 m", [[1, 1, 1], [2e6, 1, 1], [1, 2, 1]], [[0, 1, 2]], [0])
    limit("131,068 m", [[1, 1, np.nan], [2, 1, 1], [1, 2, 1]], [[0, 1, 2]], [0])
    with pytest.raises(ValueError, match="vertex 7 of 3"):
        wadkit.rc2.build_collision(p[:3], [[0, 1, 7]], [0])


def test_negative_coordinates_and_the_empty_mesh():
    blk = wadkit.rc2.build_collision([[-98.5, -3, -7], [-97.5, -3, -7], [-98.5, -2, -7]],
                                     [[0, 1, 2]], [1])
    keys = sorted(C.parse(blk))
    assert keys == [(-25, -1, -2)]
    c = _core.collision_parse(blk)
    # corners come back in the order given (the positions in stored order)
    assert c["positions"][c["triangles"][0]].tolist() == [[-98.5, -3, -7], [-97.5, -3, -7],
                                                          [-98.5, -2, -7]]
    empty = wadkit.rc2.build_collision(np.zeros((0, 3)), np.zeros((0, 3)), [])
    assert C.parse(empty) == {} and len(_core.collision_parse(empty)["triangles"]) == 0
