"""RC2 tfrag blocks assembled from the spec (docs/formats/rc2-tfrag.md), plain
Python + struct: VIF codes, the five VIF lists of a patch in the game's
layout, patch headers and the block. Independent of wadkit's C writer."""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

V4_32, V4_16, V3_16, V4_8 = (3, 0), (3, 1), (2, 1), (3, 2)


def code(cmd: int, num: int = 0, imm: int = 0) -> bytes:
    return struct.pack("<I", imm | (num << 16) | (cmd << 24))


def unpack(fmt: tuple[int, int], data: bytes, addr: int, usn: bool = False) -> bytes:
    """UNPACK: vn/vl in the command byte, element size ((32>>vl)*(vn+1))/8,
    num elements (256 -> 0), payload padded to 4 bytes."""
    vn, vl = fmt
    elem = ((32 >> vl) * (vn + 1)) // 8
    assert len(data) % elem == 0 and 0 < len(data) // elem <= 256
    n = len(data) // elem
    body = data + bytes(-len(data) % 4)
    return code(0x60 | (vn << 2) | vl, n & 0xFF, addr | (usn << 14)) + body


def strow(*row: int) -> bytes:
    return code(0x30) + struct.pack("<4i", *row)


def stcol(*row: int) -> bytes:
    return code(0x31) + struct.pack("<4i", *row)


def stmask(mask: int) -> bytes:
    return code(0x20) + struct.pack("<I", mask)


def mpg(words: bytes) -> bytes:
    assert len(words) % 8 == 0
    return code(0x4A, len(words) // 8) + words


def direct(qwords: bytes) -> bytes:
    assert len(qwords) % 16 == 0
    return code(0x50, 0, len(qwords) // 16) + qwords


def stmod(mode: int) -> bytes:
    return code(0x05, 0, mode)


def stcycl(wl: int, cl: int) -> bytes:
    return code(0x01, 0, cl | (wl << 8))


def pad16(b: bytes) -> bytes:
    return b + bytes(-len(b) % 16)


def adgif(texture: int) -> bytes:
    """5 quadwords {data_lo, data_hi, address, pad}: TEX0, TEX1, CLAMP,
    MIPTBP1, MIPTBP2; TEX0's data_lo is the tfrag texture index."""
    regs = (0x06, 0x14, 0x08, 0x34, 0x36)
    return b"".join(struct.pack("<iiB7x", texture if r == 0x06 else 0, 0, r)
                    for r in regs)


def strip_records(runs: list[tuple]) -> bytes:
    """runs: (vertex count, ad-gif index or None[, offset byte]). A run that
    binds an ad-gif (and always the first) is stored biased (count - 128),
    with the ad-gif offset (index * 5) in byte 2; a plain run (None) stores
    count and its offset byte (default -1), which binds nothing: only a
    biased record changes the texture. KEEP: a biased record with offset
    -1, which keeps the texture too. A zero record ends the list."""
    out = b""
    for n, ad, *byte in runs:
        if ad is None:
            out += struct.pack("<bbbb", n, 0, byte[0] if byte else -1, 0)
        elif ad == KEEP:
            out += struct.pack("<bbbb", n - 128, 0, -1, 0)
        else:
            out += struct.pack("<bbbb", n - 128, 0, ad * 5, 0)
    return out + bytes(4)


KEEP = "keep"


def run_textures(runs: list[tuple], adgifs: list[int]) -> list[int]:
    """The texture of every triangle of a strip list, by the rule: the
    active ad-gif changes only on a biased record with offset >= 0."""
    out, active = [], None
    for n, ad, *_ in runs:
        if ad is not None and ad != KEEP:
            active = ad
        out += [adgifs[active]] * (n - 2)
    return out


def u8s(values: list[int]) -> bytes:
    b = bytes(values)
    return b + bytes(-len(b) % 4)


@dataclass
class Patch:
    """positions: s16 (x, y, z) per vertex, split over the three tiers by
    `tiers` (common, LOD 0+1, LOD 0); origin: the s32 STROW added to them.
    vinfo: (s, t, parent, vertex) with vertex = 2 * position index, split by
    `vinfo_tiers`. strips / indices: per LOD (0, 1, 2)."""
    positions: list
    origin: tuple
    vinfo: list
    rgba: list
    adgifs: list
    strips: dict
    indices: dict
    tiers: tuple = None
    vinfo_tiers: tuple = None
    bsphere: tuple = (0.0, 0.0, 0.0, 1.0)
    flags: int = 0
    addr_base: int = 9                    # where the ad-gifs go in VU memory
    extra: bytes = b""                    # codes put before the LOD 0+1 lists
    tri_count: int | None = None          # override the header's counts
    vert_count: int | None = None
    headers: dict = field(default_factory=dict)  # header offset -> (fmt, value)

    def tris(self, lod: int) -> int:
        return sum(r[0] - 2 for r in self.strips[lod])


def patch_bytes(p: Patch) -> tuple[bytes, bytes]:
    """(header without the data field, data) in the game's layout."""
    npos = len(p.positions)
    tiers = p.tiers or (npos, 0, 0)
    vt = p.vinfo_tiers or (len(p.vinfo), 0, 0)
    a_adgif = p.addr_base
    a_pos = a_adgif + 5 * len(p.adgifs)
    a_vinfo = a_pos + 2 * npos
    a_ind = a_vinfo + len(p.vinfo)
    nind = max(len(v) for v in p.indices.values())
    a_strip = a_ind + (nind + 3) // 4
    pos_b = [b"".join(struct.pack("<3h", *v) for v in part) for part in
             (p.positions[:tiers[0]], p.positions[tiers[0]:tiers[0] + tiers[1]],
              p.positions[tiers[0] + tiers[1]:])]
    vi_b = [b"".join(struct.pack("<4h", *v) for v in part) for part in
            (p.vinfo[:vt[0]], p.vinfo[vt[0]:vt[0] + vt[1]], p.vinfo[vt[0] + vt[1]:])]
    ind_row = strow(a_vinfo, a_vinfo, a_vinfo, a_vinfo)
    origin = strow(*p.origin, 0)

    lod2 = (ind_row + stmod(1) + unpack(V4_8, u8s(p.indices[2]), a_ind, True)
            + stmod(0) + unpack(V4_8, strip_records(p.strips[2]), a_strip))
    vu = [0] * 20
    vu[0], vu[2], vu[4] = tiers
    vu[6], vu[7], vu[13], vu[18], vu[19] = a_pos, a_vinfo, a_ind, a_strip, a_adgif
    vu_unpack = unpack(V4_16, struct.pack("<20H", *vu), 0, True)
    common = (vu_unpack
              + unpack(V4_32, b"".join(adgif(t) for t in p.adgifs), a_adgif)
              + strow(0x45000000, 0x45000000, 0, a_pos) + stmod(1)
              + unpack(V4_16, vi_b[0], a_vinfo) + origin + stcycl(1, 2)
              + unpack(V3_16, pos_b[0], a_pos) + stcycl(4, 4) + stmod(0))
    lod1 = (unpack(V4_8, strip_records(p.strips[1]), a_strip) + ind_row + stmod(1)
            + unpack(V4_8, u8s(p.indices[1]), a_ind, True))
    lod01 = p.extra + stmod(1)
    if vi_b[1]:
        lod01 += strow(0x45000000, 0x45000000, a_pos, a_pos)
        lod01 += unpack(V4_16, vi_b[1], a_vinfo + vt[0])
    lod01 += origin + stcycl(1, 2)
    if pos_b[1]:
        lod01 += unpack(V3_16, pos_b[1], a_pos + 2 * tiers[0])
    lod0 = b""
    if pos_b[2]:
        lod0 += unpack(V3_16, pos_b[2], a_pos + 2 * (tiers[0] + tiers[1]))
    lod0 += (stmod(0) + stcycl(4, 4) + unpack(V4_8, strip_records(p.strips[0]), a_strip)
             + ind_row + stmod(1) + unpack(V4_8, u8s(p.indices[0]), a_ind, True))
    if vi_b[2]:
        lod0 += unpack(V4_16, vi_b[2], a_vinfo + vt[0] + vt[1])
    lod0 += stmod(0)

    data = pad16(lod2)
    shared = len(data)
    data += pad16(common)
    lod1_ofs = len(data)
    data += pad16(lod1)
    lod01_ofs = len(data)
    data += pad16(lod01)
    lod1_size = (len(data) - shared) // 16
    data += pad16(lod0)
    rgba_ofs = len(data)
    rgba = b"".join(struct.pack("<4B", *c) for c in p.rgba)
    data += pad16(rgba)
    rgba_size = (len(rgba) + 15) // 16

    h = bytearray(0x40)
    struct.pack_into("<4f", h, 0, *p.bsphere)
    tex_ofs = shared + len(vu_unpack) + 4        # the ad-gif payload
    struct.pack_into("<6H", h, 0x14, 0, shared, lod1_ofs, lod01_ofs, tex_ofs,
                     rgba_ofs)
    h[0x20] = (lod1_ofs - shared) // 16
    h[0x21] = lod1_ofs // 16
    h[0x22] = lod1_size
    h[0x23] = (rgba_ofs - lod01_ofs) // 16
    h[0x28] = len(p.adgifs)
    h[0x29] = rgba_size
    h[0x2D] = p.flags
    h[0x3C] = npos if p.vert_count is None else p.vert_count
    h[0x3D] = p.tris(0) if p.tri_count is None else p.tri_count
    for off, (fmt, value) in p.headers.items():
        struct.pack_into(fmt, h, off, value)
    return bytes(h), data


def block(patches: list[Patch], lod_distance: float = 32.0) -> bytes:
    """12-byte header {table_offset 0x40, count, f32}, padding to 0x40, the
    patch table, then each patch's data (16-aligned); a header's data field
    is relative to table_offset."""
    table = 0x40
    heads, body = [], b""
    start = table + 0x40 * len(patches)
    for p in patches:
        h, d = patch_bytes(p)
        h = bytearray(h)
        struct.pack_into("<i", h, 0x10, start + len(body) - table)
        heads.append(bytes(h))
        body += pad16(d)
    head = struct.pack("<iif", table, len(patches), lod_distance)
    return head + bytes(table - len(head)) + b"".join(heads) + body


def grid_patch(ox: int, oy: int, w: int = 6, h: int = 4, texture: int = 0,
               lod_split: bool = False) -> Patch:
    """A w x h grid of quads (unit 1024 = 1.0) as h strips of 2(w+1)
    vertices; LODs 1 and 2 use every other row when lod_split."""
    pos = [(x * 256, y * 256, (x * y) % 7) for y in range(h + 1) for x in range(w + 1)]
    vinfo = [(x * 512, -y * 512, 4096, 2 * (y * (w + 1) + x))
             for y in range(h + 1) for x in range(w + 1)]
    runs, idx = [], []
    for y in range(h):
        for x in range(w + 1):
            idx += [y * (w + 1) + x, (y + 1) * (w + 1) + x]
        runs.append((2 * (w + 1), 0 if y == 0 else None))
    strips = {0: runs, 1: runs, 2: runs}
    indices = {0: idx, 1: idx, 2: idx}
    if lod_split:
        half = runs[: (h + 1) // 2]
        strips = {0: runs, 1: half, 2: half[:1]}
        indices = {0: idx, 1: idx[: sum(r[0] for r in half)], 2: idx[:2 * (w + 1)]}
    rgba = [(0x80, (i * 5) & 0xFF, 0x40, 0x80) for i in range(len(pos))]
    return Patch(positions=pos, origin=(ox, oy, 0), vinfo=vinfo, rgba=rgba,
                 adgifs=[texture], strips=strips, indices=indices)


def banded_patch(ox: int, oy: int, rows: list[tuple], adgifs: list[int],
                 w: int = 6) -> Patch:
    """A grid patch of len(rows) strips of 2(w+1) vertices, row r stored as
    the strip record rows[r] = (ad-gif or None or KEEP[, offset byte]): a
    terrain whose texture changes between rows, with plain records that
    may carry a stale offset byte (which must bind nothing)."""
    g = grid_patch(ox, oy, w, len(rows))
    runs = [(2 * (w + 1), *r) for r in rows]
    return Patch(positions=g.positions, origin=g.origin, vinfo=g.vinfo,
                 rgba=g.rgba, adgifs=adgifs, strips={0: runs, 1: runs, 2: runs},
                 indices=g.indices)
