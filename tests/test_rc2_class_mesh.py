"""RC2 class meshes (ties, shrubs, mobys): classes assembled by the
from-spec builders (tests/builders/rc2_tie.py, rc2_shrub.py, rc2_moby.py)
against the meshes the builders derive from their own strips; every
invariant of docs/formats/rc2-classes.md broken once, each a FormatError with the
offset; truncations and byte flips that must fail or decode the same."""
import random
import struct
import types

import numpy as np
import pytest

import wadkit
from wadkit import _core, rc2
from builders import rc2_moby as M
from builders import rc2_shrub as S
from builders import rc2_tie as T


def same(got: dict, want: dict):
    for k, v in want.items():
        assert got[k].shape == v.shape, k
        if v.dtype.kind in "iu":
            assert got[k].tolist() == v.tolist(), k
        else:
            np.testing.assert_allclose(got[k], v, rtol=1e-6, atol=1e-6, err_msg=k)


def fails(fn, data, *args, match=None, at=None):
    with pytest.raises(wadkit.FormatError, match=match) as e:
        fn(data, *args)
    assert e.value.offset is not None and 0 <= e.value.offset <= len(data)
    if at is not None:
        assert e.value.offset == at, (hex(e.value.offset), hex(at))
    return e.value


# ---- ties --------------------------------------------------------------------

def test_tie_three_lods_match_the_builder():
    c = T.sample_class()
    b = c.bytes()
    for lod in range(3):
        m = rc2.tie_mesh(b, lod)
        same(m, c.expected(lod))
        assert m["positions"].dtype == np.float32 and m["triangles"].dtype == np.uint32
        assert m["uv"].dtype == np.float32 and m["texture"].dtype == np.int32
        assert "normals" not in m
    m = rc2.tie_mesh(b, 0)
    assert (m["o_class"], m["scale"], m["texture_count"]) == (1234, 0.5, 2)
    assert m["packet_counts"] == (2, 1, 1) and m["strips"] == 4
    assert m["lod_distances"] == (10.0, 50.0, 200.0) and m["bsphere"] == (1, 2, 3, 40)
    # the declared LOD counts are reported, not checked (their meaning is
    # not settled); the builder writes GS vertices, strip triangles, strips
    assert m["lod_headers"][0] == {"vert_count": len(m["positions"]),
                                   "tri_count": len(m["triangles"]), "strip_count": 4}


def test_tie_hand_derived():
    # one strip of 4: (x, y, z) * 0.5 / 1024, s / 4096 signed
    c = T.TieClass(lods=[[T.Packet([T.Strip([(1024, 0, 0, 4096, 0), (0, 2048, 0, 0, -4096),
                                             (0, 0, -1024, 0, 0), (2048, 2048, 0, 1, 2)],
                                            adgif=1)])]] * 3)
    m = rc2.tie_mesh(c.bytes())
    assert m["positions"].tolist() == [[0.5, 0, 0], [0, 1, 0], [0, 0, -0.5], [1, 1, 0]]
    assert m["uv"].tolist() == [[1, 0], [0, -1], [0, 0], [1 / 4096, 2 / 4096]]
    assert m["triangles"].tolist() == [[0, 1, 2], [3, 2, 1]]
    assert m["texture"].tolist() == [1, 1]


def test_tie_record_order_sharing_morphing_and_padding_do_not_change_the_mesh():
    strips = T.grid_strips(2, 3, adgif=1)
    base = None
    for p in (T.Packet(strips, order="gs", reuse=False),
              T.Packet(strips, order="reverse", reuse=True),
              T.Packet(strips, morph={0, 2, 3, 7}),
              T.Packet(strips, min_regular=30)):
        c = T.TieClass(lods=[[p]] * 3)
        m = rc2.tie_mesh(c.bytes())
        same(m, c.expected(0))
        if base is not None:
            assert m["triangles"].tolist() == base
        base = m["triangles"].tolist()


def test_tie_winding_is_byte_3_not_byte_1():
    vs = [(0, 0, 0, 0, 0), (100, 0, 0, 0, 0), (0, 100, 0, 0, 0), (100, 100, 0, 0, 0)]
    tri = {}
    for b1, b3 in ((0, 0), (1, 0), (0, 1)):
        c = T.TieClass(lods=[[T.Packet([T.Strip(vs, winding=b3, byte1=b1)])]] * 3)
        tri[b1, b3] = rc2.tie_mesh(c.bytes())["triangles"].tolist()
    assert tri[0, 0] == tri[1, 0] == [[0, 1, 2], [3, 2, 1]]
    assert tri[0, 1] == [[2, 1, 0], [1, 2, 3]]


def test_tie_material_changes_between_strips():
    s = [T.Strip([(i, 0, 0, 0, 0), (i, 9, 0, 0, 0), (i + 5, 0, 0, 0, 0)], adgif=a)
         for i, a in enumerate((0, 1, 0, 1))]
    c = T.TieClass(lods=[[T.Packet(s)]] * 3)
    assert rc2.tie_mesh(c.bytes())["texture"].tolist() == [0, 1, 0, 1]


def _tie_packet0(b: bytes, lod: int = 0) -> tuple[int, int, int]:
    """(packet header offset, body offset, vertex offset) of LOD lod's
    first packet, read with the documented layout."""
    table = struct.unpack_from("<i", b, 4 * lod)[0]
    data, = struct.unpack_from("<i", b, table)
    return table, table + data, table + data + 16 * b[table + 8]


def test_tie_q_must_be_4096():
    c = T.sample_class()
    c.q = 4095
    b = c.bytes()
    _, _, verts = _tie_packet0(b)
    e = fails(rc2.tie_mesh, b, match=r"q = 4095", at=verts)
    assert "tie class 1234" in str(e) and "LOD 0 packet 0" in e.context


def test_tie_hostile_headers_and_walks():
    b = T.sample_class().bytes()
    table, body, verts = _tie_packet0(b)

    def patched(off, fmt, *v):
        x = bytearray(b)
        struct.pack_into(fmt, x, off, *v)
        return bytes(x)

    fails(rc2.tie_mesh, b[:0x7f], match="header", at=0)
    fails(rc2.tie_mesh, patched(0x0c, "<B", 200), match="packet table", at=0)
    fails(rc2.tie_mesh, patched(0x0f, "<B", 17), match="at most 16", at=0x0f)
    fails(rc2.tie_mesh, patched(0x40, "<f", 0.0), match="scale", at=0x40)
    fails(rc2.tie_mesh, patched(0x40, "<f", float("nan")), match="scale", at=0x40)
    fails(rc2.tie_mesh, patched(table + 8, "<B", b[table + 8] + 1),
          match="vertices at", at=table + 8)
    fails(rc2.tie_mesh, patched(body + 0x20 + 10, "<B", b[body + 0x2a] - 1),
          match="vertex counts disagree", at=body + 0x20)
    fails(rc2.tie_mesh, patched(body + 0x20 + 11, "<B", b[body + 0x2b] + 3),
          match="vertex counts disagree", at=body + 0x20)
    # the first ad-gif's source offset is not a multiple of 0x50 / past the table
    fails(rc2.tie_mesh, patched(body + 0x10, "<i", 0x51), match="ad-gif source", at=body + 0x10)
    fails(rc2.tie_mesh, patched(body + 0x10, "<i", 2 * 0x50), match="ad-gif source")
    # a strip that declares one vertex too many, or one too few
    n0 = b[body + 0x2c]
    fails(rc2.tie_mesh, patched(body + 0x2c, "<B", n0 + 1), match="outside every strip|more than")
    fails(rc2.tie_mesh, patched(body + 0x2c, "<B", n0 - 1), match="outside every strip")
    fails(rc2.tie_mesh, patched(body + 0x2c, "<B", 2), match="2 vertices")
    # a strip's GIF tag moved off its GS offset: the walk stalls
    fails(rc2.tie_mesh, patched(body + 0x2c + 2, "<B", b[body + 0x2e] + 1),
          match="stalls at offset 6", at=body)
    # a material change nobody reaches
    fails(rc2.tie_mesh, patched(body + 8, "<i", 250), match="never reached", at=body + 8)
    # the packet body outside the class
    fails(rc2.tie_mesh, patched(table, "<i", len(b)), match="packet body", at=table)
    with pytest.raises(ValueError, match="LOD 3"):
        rc2.tie_mesh(b, 3)


# ---- shrubs ------------------------------------------------------------------

def test_shrub_matches_the_builder():
    c = S.sample_class()
    m = rc2.shrub_mesh(c.bytes())
    same(m, c.expected())
    assert m["normals"].dtype == np.float32
    assert np.allclose(np.linalg.norm(m["normals"], axis=1), 1, atol=1e-4)
    assert (m["o_class"], m["scale"], m["packet_count"]) == (777, 0.25, 3)
    assert (m["padding_vertices"], m["dropped_triangles"]) == (4, 2)
    assert m["texture"].tolist() == [3] * 6 + [7]
    assert m["bsphere"] == (0.5, -1.0, 2.0, 9.0) and m["billboard_offset"] == 0
    assert rc2.shrub_mesh(S.ShrubClass(S.sample_class().packets, billboard=True)
                          .bytes())["billboard_offset"] > 0


def test_shrub_faces_follow_their_normals():
    c = S.sample_class()
    m = rc2.shrub_mesh(c.bytes())
    p, n = m["positions"], m["normals"]
    for t in m["triangles"]:
        face = np.cross(p[t[1]] - p[t[0]], p[t[2]] - p[t[0]])
        assert face @ n[t].sum(axis=0) >= 0


def _shrub_packet0(b: bytes) -> tuple[int, int]:
    at, size = struct.unpack_from("<ii", b, 0x40)
    return at, size


def _unpacks(b: bytes, at: int, size: int) -> list:
    """(num, VU address, payload offset, code offset) of each unpack of a
    VIF list, walked with the documented code layout."""
    pos, out = at, []
    while pos < at + size:
        word, = struct.unpack_from("<I", b, pos)
        cmd, num, imm = (word >> 24) & 0x7F, (word >> 16) & 0xFF, word & 0xFFFF
        pos += 4
        if cmd & 0x60 == 0x60:
            vn, vl = (cmd >> 2) & 3, cmd & 3
            out.append((num, imm & 0x3FF, pos, pos - 4))
            pos += (num * ((32 >> vl) * (vn + 1)) // 8 + 3) & ~3
    return out


def test_shrub_hostile():
    c = S.sample_class()
    b = c.bytes()
    at, size = _shrub_packet0(b)
    head = at + 12 + 4               # the header unpack's payload

    def patched(off, fmt, *v, src=b):
        x = bytearray(src)
        struct.pack_into(fmt, x, off, *v)
        return bytes(x)

    fails(rc2.shrub_mesh, b[:0x3f], match="header", at=0)
    fails(rc2.shrub_mesh, patched(0x28, "<h", 300), match="packet table", at=0x28)
    fails(rc2.shrub_mesh, patched(0x2c, "<i", len(b) - 8), match="normal table", at=0x2c)
    fails(rc2.shrub_mesh, patched(0x44, "<i", -1), match="packet size")
    fails(rc2.shrub_mesh, patched(0x20, "<f", -1.0), match="scale", at=0x20)
    # the header's vertex count (or its VU address) against the unpacks
    fails(rc2.shrub_mesh, patched(head + 8, "<i", struct.unpack_from("<i", b, head + 8)[0] + 1),
          match="disagrees with the unpacks", at=head)
    fails(rc2.shrub_mesh, patched(head + 12, "<i", 0), match="disagrees", at=head)
    # the header unpack as V4_8: its payload is a quarter the size
    fails(rc2.shrub_mesh, patched(at + 12 + 3, "<B", 0x6E), match="unpack")
    # a fourth unpack, and only two
    x = bytearray(b)
    extra = S.unpack(3, 1, bytes(8), 0, 1)
    four = b[:at] + b[at:at + size] + extra
    x = bytearray(four + b[at + size:])
    struct.pack_into("<ii", x, 0x40, at, size + len(extra))
    for i in range(1, 3):   # later offsets move
        o, s2 = struct.unpack_from("<ii", x, 0x40 + 8 * i)
        struct.pack_into("<ii", x, 0x40 + 8 * i, o + len(extra), s2)
    struct.pack_into("<i", x, 0x2c, struct.unpack_from("<i", b, 0x2c)[0] + len(extra))
    fails(rc2.shrub_mesh, bytes(x), match="unpack 4 of a list", at=at + size)
    third = _unpacks(b, at, size)[2][3]
    fails(rc2.shrub_mesh, patched(0x44, "<i", third - at), match="2 unpacks", at=at)
    # the stop bit
    fails(rc2.shrub_mesh, S.ShrubClass(c.packets, stop_at=3).bytes(), match="stop bit")
    fails(rc2.shrub_mesh, S.ShrubClass(c.packets, stop_at=5).bytes(), match="stop bit")
    # GIF tags: 2 registers; a sprite; a texture that comes too late
    fails(rc2.shrub_mesh, S.ShrubClass(c.packets, nreg=2).bytes(), match="2 registers")
    tag = head + 16
    low, = struct.unpack_from("<Q", b, tag)
    sprite = (low & ~(7 << 47)) | (6 << 47)
    fails(rc2.shrub_mesh, patched(tag, "<Q", sprite), match="primitive 6", at=tag)
    late = S.ShrubClass([[("strip", [(0, 0, 0, 0, 0, 0)] * 3), ("texture", 1)]]).bytes()
    fails(rc2.shrub_mesh, late, match="before any texture")
    # normal 24, texture 16
    bad_n = S.ShrubClass([[("texture", 1), ("strip", [(0, 0, 0, 0, 0, 24)] * 3)]])
    fails(rc2.shrub_mesh, bad_n.bytes(), match="normal 24")
    bad_t = S.ShrubClass([[("texture", 16), ("strip", [(0, 0, 0, 0, 0, 1)] * 3)]])
    fails(rc2.shrub_mesh, bad_t.bytes(), match="texture 16")
    # a GIF tag that declares one vertex more than follow it; a vertex moved
    fails(rc2.shrub_mesh, patched(tag, "<Q", low + 1), match="more than follow|stalls")
    v0 = at + 12 + 4 + 16 * (1 + 2 + 4) + 4 + 4   # first position record
    fails(rc2.shrub_mesh, patched(v0 + 6, "<h", 9), match="stalls")


def test_shrub_packets_are_three_unpacks_with_consistent_addresses():
    # every packet of the sample: exactly three unpacks whose counts and VU
    # addresses agree with the header (the invariant, read from the bytes)
    b = S.sample_class().bytes()
    n = struct.unpack_from("<h", b, 0x28)[0]
    for i in range(n):
        at, size = struct.unpack_from("<ii", b, 0x40 + 8 * i)
        unpacks = _unpacks(b, at, size)
        assert len(unpacks) == 3
        textures, tags, verts, vofs = struct.unpack_from("<4i", b, unpacks[0][2])
        assert unpacks[0][:2] == (1 + tags + 4 * textures, 0)
        assert unpacks[1][:2] == (verts, vofs) and unpacks[2][:2] == (verts, vofs + verts)


# ---- mobys -------------------------------------------------------------------

@pytest.mark.parametrize("fmt", [2, 1])
def test_moby_both_lods_match_the_builder(fmt):
    c = M.sample_class(fmt)
    b = c.bytes()
    for lod in (0, 1):
        m = rc2.moby_mesh(b, lod)
        same(m, c.expected(lod))
    m = rc2.moby_mesh(b)
    assert m["format"] == fmt and m["has_mesh"] and m["packet_counts"] == (2, 1, 0)
    assert m["scale"] == 0.125 and m["bsphere"] == (0, 1, 2, 3)
    assert m["texture"].tolist()[:8] == [2] * 8 and m["texture"].tolist()[-3:] == [5] * 3
    with pytest.raises(ValueError, match="LOD 2"):
        rc2.moby_mesh(b, 2)


def test_moby_duplicates_of_small_packets_use_the_last_vertex_indices():
    # packets of 1..9 own vertices: their cache indices sit 7 vertices late,
    # the last ones in the padding and the last vertex; later packets
    # duplicate them all (a packet of 1 or 2 is where Wrench's reader slips)
    for n in range(1, 10):
        own = [(10 * i, 5 * i, 1, 0, 0, 200 + 3 * i) for i in range(n)]
        first = M.Packet(own, [(1, [0, 0] + list(range(n)))])
        dup = M.Packet([(7, 7, 7, 0, 0, 50), (8, 8, 8, 0, 0, 51)],
                       [(None, [0, 1] + list(range(2, n + 2)))],
                       dupes=[200 + 3 * i for i in range(n)])
        again = M.Packet([(1, 2, 3, 0, 0, 7)], [(None, [0, 1, 2])], dupes=[51, 50])
        c = M.MobyClass(high=[first, dup, again])
        m = rc2.moby_mesh(c.bytes())
        same(m, c.expected())
        assert m["positions"][-2:].tolist() == (c.expected()["positions"][[n + 1, n]]).tolist()


def test_moby_without_a_mesh():
    b = bytearray(M.sample_class().bytes())
    struct.pack_into("<i", b, 0, 0)
    m = rc2.moby_mesh(bytes(b))
    assert not m["has_mesh"] and m["positions"].shape == (0, 3)
    assert m["triangles"].shape == (0, 3) and m["normals"].shape == (0, 3)


def _moby_entry(b: bytes, i: int = 0) -> tuple:
    table, = struct.unpack_from("<i", b, 0)
    return (table + 16 * i,) + struct.unpack_from("<IHHIBBBB", b, table + 16 * i)


def test_moby_hostile():
    c = M.sample_class()
    b = c.bytes()
    e, vl, vls, tex, vt, vds, d, ee, tvc = _moby_entry(b)

    def patched(off, fmt, *v):
        x = bytearray(b)
        struct.pack_into(fmt, x, off, *v)
        return bytes(x)

    fails(rc2.moby_mesh, b[:0x40], match="header", at=0)
    fails(rc2.moby_mesh, patched(4, "<B", 99), match="packet table")
    fails(rc2.moby_mesh, patched(0x24, "<f", float("inf")), match="scale", at=0x24)
    fails(rc2.moby_mesh, patched(e + 15, "<B", tvc + 1), match="disagrees", at=vt)
    fails(rc2.moby_mesh, patched(e + 13, "<B", d + 1), match="disagrees", at=vt)
    fails(rc2.moby_mesh, patched(vt + 10, "<H", tvc - 1), match="disagrees", at=vt)
    fails(rc2.moby_mesh, patched(e + 12, "<B", vds + 7), match="disagrees", at=vt)
    fails(rc2.moby_mesh, patched(e + 6, "<H", 0), match="unpacks", at=e)
    fails(rc2.moby_mesh, patched(e + 4, "<H", 99), match="VIF list", at=e)
    # the index header: pad byte, texture offset
    st_n = struct.unpack_from("<I", b, vl)[0] >> 16 & 0xFF
    ih = vl + 4 + 4 * st_n + 4
    fails(rc2.moby_mesh, patched(ih + 3, "<B", 1), match="index header", at=ih)
    fails(rc2.moby_mesh, patched(ih + 1, "<B", b[ih + 1] + 1), match="index header", at=ih)
    # an index past the packet's vertices; the end marker gone
    fails(rc2.moby_mesh, patched(ih + 4 + 2, "<B", 99), match="names vertex 98", at=ih + 6)
    idx_n = struct.unpack_from("<I", b, ih - 4)[0] >> 16 & 0xFF
    raw = b[ih + 4:ih + 4 * idx_n]
    end = ih + 4 + raw.index(b"\x01\x01\x01\x00") + 3
    x = bytearray(b)
    x[end:ih + 4 * idx_n] = b"\x01" * (ih + 4 * idx_n - end)
    fails(rc2.moby_mesh, bytes(x), match="no end", at=ih + 4)
    fails(rc2.moby_mesh, patched(end - 1, "<B", 0x81), match="no end")
    # the first strip must open with two restart indices
    fails(rc2.moby_mesh, patched(ih + 4 + 1, "<B", b[ih + 5] & 0x7F),
          match="never started", at=ih + 4)
    # a secret index that is negative; a texture out of range
    fails(rc2.moby_mesh, patched(ih + 2, "<b", -3), match="secret index -3")
    tex_at = b.index(struct.pack("<iiB", 2, 0, 0x06), ih)
    fails(rc2.moby_mesh, patched(tex_at, "<i", 16), match="texture 16", at=tex_at)
    fails(rc2.moby_mesh, patched(tex_at, "<i", -2), match="texture -2", at=tex_at)
    # a duplicate of a slot no vertex filled
    e1, vl1, _, _, vt1, *_ = _moby_entry(b, 1)
    dup_at = vt1 + 24
    fails(rc2.moby_mesh, patched(dup_at, "<H", 99 << 7), match="cache slot 99", at=dup_at)
    # more duplicates than the table has room for
    fails(rc2.moby_mesh, patched(vt1 + 8, "<H", 40), match="disagrees|overlap")
    # too few texture coordinates
    x = bytearray(b)
    word, = struct.unpack_from("<I", b, vl)
    struct.pack_into("<I", x, vl, (word & ~0xFF0000) | ((st_n - 1) << 16))
    fails(rc2.moby_mesh, bytes(x))


def test_moby_texture_switch_inside_a_strip_applies_at_once():
    # noclip's reading: a triangle takes the texture in force when it is
    # drawn. Entries 0 (switch, texture 1, v0), v1 restart, v2; 0 (switch,
    # texture 4, v3, a lone restart), v0 plain: Wrench would file the last
    # triangle under the strip's first texture.
    p = M.Packet([(0, 0, 0, 0, 0, 1), (9, 0, 0, 0, 0, 2), (0, 9, 0, 0, 0, 3),
                  (9, 9, 0, 0, 0, 4)],
                 [(1, [0, 1, 2]), (4, [3, 0])])
    b = bytearray(M.MobyClass(high=[p]).bytes())
    at = b.index(bytes([0, 0x82, 3, 0, 0x81, 1, 1, 1, 0]))
    b[at + 4] = 0x01
    m = rc2.moby_mesh(bytes(b))
    assert m["triangles"].tolist() == [[1, 0, 2], [2, 3, 0]]
    assert m["texture"].tolist() == [1, 4]


# ---- all three: robustness, the Python API ----------------------------------

CLASSES = [
    ("tie", lambda: T.sample_class().bytes(), lambda d: rc2.tie_mesh(d, 0)),
    ("shrub", lambda: S.sample_class().bytes(), rc2.shrub_mesh),
    ("moby", lambda: M.sample_class().bytes(), lambda d: rc2.moby_mesh(d, 0)),
]


@pytest.mark.parametrize("kind,make,decode", CLASSES, ids=[c[0] for c in CLASSES])
def test_truncated_classes_fail_or_decode_the_same(kind, make, decode):
    b = make()
    full = decode(b)
    for cut in range(0, len(b), 3):
        try:
            m = decode(b[:cut])
        except wadkit.FormatError as e:
            assert e.offset is not None and 0 <= e.offset <= len(b)
            assert kind in e.context
            continue
        assert m["triangles"].tolist() == full["triangles"].tolist(), cut


@pytest.mark.parametrize("kind,make,decode", CLASSES, ids=[c[0] for c in CLASSES])
def test_flipped_bytes_fail_cleanly_or_decode(kind, make, decode):
    b = make()
    rnd = random.Random(16)
    for _ in range(400):
        x = bytearray(b)
        for _ in range(rnd.randint(1, 3)):
            x[rnd.randrange(len(x))] = rnd.randrange(256)
        try:
            m = decode(bytes(x))
        except wadkit.FormatError as e:
            assert e.offset is not None
            continue
        nv = len(m["positions"])
        assert m["triangles"].size == 0 or int(m["triangles"].max()) < nv
        assert len(m["uv"]) == nv and len(m["texture"]) == len(m["triangles"])


def test_offset_and_class_id_name_the_class():
    c = T.sample_class()
    c.q = 1
    e = fails(rc2.tie_mesh, c.bytes(), 0, 0, 99)
    assert "tie class 99" in str(e)
    with pytest.raises(wadkit.FormatError) as e:
        rc2.tie_mesh(c.bytes(), 0, 0x10000, 99)
    assert e.value.offset >= 0x10000
    with pytest.raises(wadkit.FormatError, match="shrub class 777"):
        rc2.shrub_mesh(S.sample_class().bytes()[:0x50])
    with pytest.raises(wadkit.FormatError, match="moby class 5:"):
        rc2.moby_mesh(b"\0" * 0x20, 0, 0, 5)
    with pytest.raises(ValueError, match="negative"):
        rc2.shrub_mesh(b"", -1)


def test_class_mesh_for_core_class_objects():
    tie = types.SimpleNamespace(data=memoryview(T.sample_class().bytes()), id=4, offset=0x40)
    same(rc2.class_mesh("tie", tie, lod=1), T.sample_class().expected(1))
    shrub = types.SimpleNamespace(data=S.sample_class().bytes(), id=5)
    same(rc2.class_mesh("shrub", shrub), S.sample_class().expected())
    moby = types.SimpleNamespace(data=bytearray(M.sample_class().bytes()), id=6)
    same(rc2.class_mesh("moby", moby, 1), M.sample_class().expected(1))
    with pytest.raises(ValueError):
        rc2.class_mesh("shrub", shrub, 1)
    bad = types.SimpleNamespace(data=b"\0" * 8, id=321, offset=0x1230)
    with pytest.raises(wadkit.FormatError, match="tie class 321") as e:
        rc2.class_mesh("tie", bad)
    assert e.value.offset == 0x1230


def test_larger_random_classes_match_their_builders():
    # many packets with random strips, ad-gif changes, shared and morphing
    # records (ties); strips, lists and textures over many packets (shrubs);
    # grids and duplicates across packets (mobys)
    rnd = random.Random(1616)
    tie = T.random_class(rnd, packets=(40, 12, 3))
    b = tie.bytes()
    for lod in range(3):
        same(rc2.tie_mesh(b, lod), tie.expected(lod))
    shrub = S.random_class(rnd, packets=30)
    same(rc2.shrub_mesh(shrub.bytes()), shrub.expected())
    moby = M.random_class(rnd, packets=20)
    for lod in (0, 1):
        same(rc2.moby_mesh(moby.bytes(), lod), moby.expected(lod))


def test_a_level_of_many_classes():
    # 40 tie, 30 shrub and 25 moby classes (3 without data) in one level,
    # every mesh decoded through the class objects; the triangle totals are
    # the builders' own
    from builders import rc2_core as RC
    from builders import rc2_gameplay as G
    from builders import rc2_level as R
    rnd = random.Random(40)
    ties = [T.random_class(rnd, o_class=1000 + i) for i in range(40)]
    shrubs = [S.random_class(rnd, o_class=2000 + i) for i in range(30)]
    mobys = [None if i % 9 == 4 else M.random_class(rnd) for i in range(25)]
    classes = {"tie": [RC.ClassSpec(c.o_class, c.bytes(), [0, 1, 2, 3]) for c in ties],
               "shrub": [RC.ClassSpec(c.o_class, c.bytes(), list(range(16))) for c in shrubs],
               "moby": [RC.ClassSpec(i, None if c is None else c.bytes(), [1])
                        for i, c in enumerate(mobys)]}
    lvl = rc2.from_bytes(R.whole_level(G.layout({}), classes, compress=R.stored)[0])
    got = sum(len(c.mesh(lod)["triangles"]) for c in lvl.tie_classes for lod in range(3))
    assert got == sum(len(c.expected(lod)["triangles"]) for c in ties for lod in range(3))
    got = sum(len(c.mesh()["triangles"]) for c in lvl.shrub_classes)
    assert got == sum(len(c.expected()["triangles"]) for c in shrubs)
    meshes = [c.mesh() for c in lvl.moby_classes]
    assert [m is None for m in meshes] == [c is None for c in mobys]
    assert sum(len(m["triangles"]) for m in meshes if m) == \
        sum(len(c.expected()["triangles"]) for c in mobys if c)


def test_level_class_objects_decode_their_meshes():
    from builders import rc2_core as RC
    from builders import rc2_gameplay as G
    from builders import rc2_level as R
    tie, shrub, moby = T.sample_class(), S.sample_class(), M.sample_class()
    broken = T.sample_class()
    broken.q = 7
    classes = {"tie": [RC.ClassSpec(1234, tie.bytes(), [3, 4]),
                       RC.ClassSpec(55, broken.bytes(), [1])],
               "shrub": [RC.ClassSpec(777, shrub.bytes(), [0] * 8)],
               "moby": [RC.ClassSpec(9, moby.bytes(), [2] * 6), RC.ClassSpec(10, None)]}
    data, where = R.whole_level(G.layout({}), classes, compress=R.stored)
    lvl = rc2.from_bytes(data)
    for lod in range(3):
        same(lvl.tie_classes[0].mesh(lod=lod), tie.expected(lod))
    same(lvl.shrub_classes[0].mesh(), shrub.expected())
    same(lvl.moby_classes.by_id(9).mesh(lod=1), moby.expected(1))
    assert lvl.moby_classes.by_id(10).mesh() is None
    with pytest.raises(wadkit.FormatError, match="tie class 55") as e:
        lvl.tie_classes[1].mesh()
    # the offset is in core_data: the broken class's first vertex record
    start = where["class_offsets"]["tie"][1]
    _, _, verts = _tie_packet0(broken.bytes())
    assert e.value.offset == start + verts


@pytest.mark.parametrize("make, decode, at", [
    (T.sample_class, rc2.tie_mesh, 0x40),
    (S.sample_class, rc2.shrub_mesh, 0x20),
    (M.sample_class, rc2.moby_mesh, 0x24),
])
def test_a_scale_that_would_overflow_a_position_is_refused(make, decode, at):
    """Fuzz-found (rc2_class_mesh): a finite scale near the float maximum
    made s16 · scale / 1024 infinite. The largest scale whose 32768 ·
    scale / 1024 is still a float decodes to finite positions; the next
    float up is a FormatError at the scale."""
    b = bytearray(make().bytes())
    fmax = np.finfo(np.float32).max
    limit = np.float32(fmax / 32)                 # 32768 / 1024
    while float(limit) / 1024 * 32768 > float(fmax):
        limit = np.nextafter(limit, np.float32(0))
    struct.pack_into("<f", b, at, float(limit))
    m = decode(bytes(b))
    assert np.isfinite(m["positions"]).all()
    struct.pack_into("<f", b, at, float(np.nextafter(limit, np.float32(np.inf))))
    fails(decode, bytes(b), match="scale", at=at)
    struct.pack_into("<f", b, at, 3.0e38)
    fails(decode, bytes(b), match="scale", at=at)
