"""RC2 tie classes built from the spec (docs/formats/rc2-classes.md, "Tie classes"),
plain Python + struct; independent of wadkit's C code.

A class is three LODs of packets; a packet is a list of strips, each strip
its vertices (x, y, z, s, t as stored integers) and the ad-gif it samples.
The builder lays the GS packet out (ad-gif 0 at offset 0, a material change
of 6 quadwords before a strip that changes ad-gif, the strip's GIF tag of 1,
then 3 per vertex), writes one vertex record per GS vertex except that a
vertex repeated in a packet becomes the second GS offset of its first
record, stores the records in a scrambled order, pads small packets with
copies of a regular record, and puts the records it is told to into the
24-byte morphing layout. `expected(lod)` is the mesh the spec says a reader
must produce, derived from the strips alone.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

HEADER = 0x80
AD_GIF = 0x50
GS_AD_GIF, GS_STRIP, GS_VERTEX = 6, 1, 3
Q_ONE = 4096


@dataclass
class Strip:
    vertices: list            # [(x, y, z, s, t)], stored s16 values
    adgif: int = 0            # index into the class's ad-gifs
    winding: int = 0          # byte 3 of the strip record (Wrench's reading)
    byte1: int = 0            # byte 1 (noclip's winding reading; not used)


@dataclass
class Packet:
    strips: list
    morph: set = field(default_factory=set)   # record numbers stored as 24-byte
    order: str = "reverse"                     # record order: "gs" or "reverse"
    reuse: bool = True                         # repeated vertex -> second offset
    min_regular: int = 4                       # pad with copies up to this many


def _pad(b: bytes, n: int) -> bytes:
    return b + bytes(-len(b) % n)


def _adgif(texture: int) -> bytes:
    """TieAdGifs: TEX0, TEX1, MIPTBP1, CLAMP, MIPTBP2, 16 bytes each
    {s32 data_lo, s32 data_hi, u8 address, pad}."""
    regs = ((0x06, texture), (0x14, 0), (0x34, 0), (0x08, 0), (0x36, 0))
    return b"".join(struct.pack("<iiB7x", v, 0, r) for r, v in regs)


def packet_body(p: Packet, q: int = Q_ONE) -> tuple[bytes, int, int]:
    """(body, vert_ofs, vert_size) of one packet, in quadwords for the
    last two."""
    next_ofs = GS_AD_GIF
    material = p.strips[0].adgif
    src = [material * AD_GIF, 0, 0, 0]
    dest = [0, 0, 0, 0]
    changes = 0
    records = []       # [xyz, st, ofs, ofs2]
    seen = {}
    strip_recs = []
    for s in p.strips:
        if s.adgif != material:
            assert changes < 3, "a packet holds at most 4 ad-gifs"
            dest[changes] = next_ofs
            src[changes + 1] = s.adgif * AD_GIF
            changes += 1
            material = s.adgif
            next_ofs += GS_AD_GIF
        strip_recs.append(struct.pack("<BBBB", len(s.vertices), s.byte1,
                                      next_ofs, s.winding))
        next_ofs += GS_STRIP
        for v in s.vertices:
            key = tuple(v)
            if p.reuse and key in seen and records[seen[key]][3] == 0:
                records[seen[key]][3] = next_ofs
            else:
                seen.setdefault(key, len(records))
                records.append([v[:3], v[3:5], next_ofs, 0])
            next_ofs += GS_VERTEX
    regular = [r for i, r in enumerate(records) if i not in p.morph]
    morph = [r for i, r in enumerate(records) if i in p.morph]
    while len(regular) < p.min_regular:
        regular.append(list(regular[-1]))       # padding: same offset again
    if p.order == "reverse":
        regular.reverse()
        morph.reverse()
    vbytes = b""
    for xyz, st, o1, o2 in regular:
        vbytes += struct.pack("<3hH3HH", *xyz, o1, *(c & 0xFFFF for c in st), q, o2)
    for i, (xyz, st, o1, o2) in enumerate(morph):
        d = (i + 1, -i, 7)                        # LOD morph offsets
        vbytes += struct.pack("<3hH3hH3HH", *d, o1, *xyz, 0,
                              *(c & 0xFFFF for c in st), q, o2)
    unpack = bytearray(12)
    unpack[3] = len(p.strips)
    unpack[8] = 2 * len(regular) + 4
    unpack[9] = 3 * len(morph) + 4
    unpack[10], unpack[11] = len(regular), len(morph)
    body = struct.pack("<4i", *dest) + struct.pack("<4i", *src) + bytes(unpack)
    body += b"".join(strip_recs)
    body = _pad(body, 16)
    vert_ofs = len(body) // 16
    vbytes = _pad(vbytes, 16)
    body += vbytes
    # noclip's trailing arrays: normal and RGBA indices (not read by wadkit)
    body += _pad(bytes(len(regular)), 4) + bytes(4 * len(morph))
    body = _pad(body, 16)
    body += _pad(bytes([64] * len(regular)), 4) + bytes([64, 64, 64, 64] * len(morph))
    return _pad(body, 16), vert_ofs, len(vbytes) // 16


@dataclass
class TieClass:
    lods: list                 # 3 lists of Packet
    textures: int = 2          # ad-gifs in the class
    scale: float = 0.5
    o_class: int = 1234
    bsphere: tuple = (1.0, 2.0, 3.0, 40.0)
    dists: tuple = (10.0, 50.0, 200.0)
    q: int = Q_ONE
    mip_distance: float = 100.0

    def bytes(self) -> bytes:
        return build(self)

    def expected(self, lod: int) -> dict:
        return expected(self, lod)


def build(c: TieClass) -> bytes:
    """Header (0x80), ad-gifs at 0x80, then per LOD a packet table (16-byte
    headers) followed by the packet bodies, every piece 16-aligned."""
    out = bytearray(HEADER)
    out += b"".join(_adgif(t) for t in range(c.textures))
    tables, counts = [], []
    for lod in c.lods:
        out += bytes(-len(out) % 16)
        table = len(out)
        tables.append(table)
        counts.append(len(lod))
        out += bytes(16 * len(lod))
        for j, p in enumerate(lod):
            out += bytes(-len(out) % 16)
            body, vofs, vsize = packet_body(p, c.q)
            struct.pack_into("<iBBBBBBBBBBBB", out, table + 16 * j,
                             len(out) - table, len({s.adgif for s in p.strips}),
                             0, len(p.strips), 0, vofs, vsize, 0, 0, 0, 0, 0, 0)
            out += body
    struct.pack_into("<3i3BB3fi", out, 0, *tables, *counts, c.textures,
                     *c.dists, HEADER)
    struct.pack_into("<f2hf", out, 0x40, c.scale, c.o_class, 0, c.mip_distance)
    struct.pack_into("<4f", out, 0x50, *c.bsphere)
    for i, lod in enumerate(c.lods):
        strips = [s for p in lod for s in p.strips]
        struct.pack_into("<3h", out, 0x60 + 8 * i,
                         sum(len(s.vertices) for s in strips),
                         sum(len(s.vertices) - 2 for s in strips), len(strips))
    return bytes(out)


def expected(c: TieClass, lod: int) -> dict:
    """One vertex per GS vertex in packet order; strip triangle i >= 2 is
    (i-2, i-1, i) when i % 2 equals the winding byte, else (i, i-1, i-2)."""
    pos, uv, tris, tex = [], [], [], []
    for p in c.lods[lod]:
        for s in p.strips:
            base = len(pos)
            for i, (x, y, z, sv, tv) in enumerate(s.vertices):
                pos.append((x, y, z))
                uv.append((sv, tv))
                if i >= 2:
                    k = base + i
                    tris.append((k - 2, k - 1, k) if i % 2 == s.winding
                                else (k, k - 1, k - 2))
                    tex.append(s.adgif)
    f = np.float32(c.scale) / np.float32(1024)
    return {
        "positions": (np.array(pos, np.float32).reshape(-1, 3) * f),
        "uv": np.array(uv, np.float32).reshape(-1, 2) / np.float32(4096),
        "triangles": np.array(tris, np.uint32).reshape(-1, 3),
        "texture": np.array(tex, np.int32),
    }


def grid_strips(w: int, h: int, ox: int = 0, adgif: int = 0) -> list:
    """h strips over a (w+1) x (h+1) grid: row strips of 2(w+1) vertices,
    neighbouring strips share a row (the same vertices again)."""
    out = []
    for y in range(h):
        vs = []
        for x in range(w + 1):
            for yy in (y, y + 1):
                vs.append((ox + 512 * x, 512 * yy, 37 * x * yy, 1024 * x, -2048 * yy))
        out.append(Strip(vs, adgif=adgif))
    return out


def sample_class() -> TieClass:
    """Three LODs: LOD 0 two packets (a grid over two ad-gifs, morphing
    records, a wound-backwards strip), LOD 1 one grid, LOD 2 one strip."""
    a = grid_strips(3, 2, adgif=0) + [Strip([(0, 0, 0, 0, 0), (900, 0, 5, 4096, 0),
                                             (0, 900, 5, 0, 4096)], adgif=1)]
    b = [Strip([(-100, -100, 9, -4096, 100), (100, -100, 9, 8191, -8192),
                (-100, 100, -9, 3, 4), (100, 100, -9, 5, 6)], adgif=1, winding=1)]
    return TieClass(lods=[[Packet(a, morph={1, 4, 9}), Packet(b, order="gs")],
                          [Packet(grid_strips(1, 2, adgif=1))],
                          [Packet([Strip([(0, 0, 0, 0, 0), (64, 0, 0, 1, 1),
                                          (0, 64, 0, 2, 2)])])]])


def random_class(rnd, packets=(6, 3, 1), o_class: int = 1) -> TieClass:
    """A class of random strips: shared vertices, ad-gif changes (at most
    3 per packet), morphing records, both record orders, wound-backwards
    strips. rnd: a random.Random."""
    def vert():
        return tuple(rnd.randrange(-30000, 30000) for _ in range(3)) + \
            (rnd.randrange(-32768, 32768), rnd.randrange(-32768, 32768))
    lods = []
    for n in packets:
        lod = []
        for _ in range(n):
            strips, pool = [], [vert() for _ in range(12)]
            for _ in range(rnd.randint(1, 4)):
                vs = [rnd.choice(pool) if rnd.random() < 0.3 else vert()
                      for _ in range(rnd.randint(3, 12))]
                strips.append(Strip(vs, adgif=rnd.randrange(4), winding=rnd.random() < 0.2))
            if sum(a.adgif != b.adgif for a, b in zip(strips, strips[1:])) > 3:
                for s in strips:
                    s.adgif = strips[0].adgif
            nrec = sum(len(s.vertices) for s in strips)
            lod.append(Packet(strips, morph={i for i in range(nrec) if rnd.random() < 0.25},
                              order=rnd.choice(["gs", "reverse"])))
        lods.append(lod)
    return TieClass(lods=lods, textures=4, scale=rnd.uniform(0.1, 8), o_class=o_class)
