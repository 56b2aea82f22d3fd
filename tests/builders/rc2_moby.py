"""RC2 moby class meshes built from the spec (docs/formats/rc2-classes.md, "Moby
classes"), plain Python + struct; independent of wadkit's C code.

A packet has its vertices (x, y, z, azimuth, elevation, cache index), the
duplicates (cache slots of vertices sent before, in this packet or an
earlier one), one (s, t) per vertex and duplicate, and strips: a texture
(or None to keep the current one) and a list of packet vertex numbers; an
entry ("r", n) is a lone restart (a vertex that enters the GS queue without
drawing). The builder writes the index buffer with restart bits on the
first two entries of a strip, a zero entry plus secret index where a strip
switches texture, and the 1, 1, 1, 0 ending; the vertex table with each
vertex's cache index stored seven vertices later, then padding vertices and
a last vertex holding the remaining indices.
`expected(lod)` derives the mesh from the strips alone.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

import numpy as np

HEADER = 0x48
LATE = 7
ST_ADDR, INDEX_ADDR = 0xC2, 0x12D
FLG = 0x8000


@dataclass
class Packet:
    vertices: list              # [(x, y, z, az, el, cache)]
    strips: list                # [(texture or None, [n | ("r", n), ...])]
    dupes: list = field(default_factory=list)
    sts: list = None            # [(s, t)] for vertices + dupes
    transfers: int = 1          # matrix transfers (2 bytes each)

    def st(self) -> list:
        if self.sts is not None:
            return self.sts
        return [(256 * i - 1000, 4096 - 512 * i) for i in
                range(len(self.vertices) + len(self.dupes))]


@dataclass
class MobyClass:
    high: list
    low: list = field(default_factory=list)
    scale: float = 0.125
    bsphere: tuple = (0.0, 1.0, 2.0, 3.0)
    joints: int = 0
    format: int = 2             # 2: R&C2 vertex tables; 1: R&C1 ones
    tex1: tuple = (0xFF92, 4)   # TEX1 data words of a texture record
    tex_offset_qw: bool = False  # entry +6: the texture unpack's quadword, not 2

    def bytes(self) -> bytes:
        return build(self)

    def expected(self, lod: int = 0) -> dict:
        return expected(self, lod)


def vif(cmd: int, num: int = 0, imm: int = 0) -> bytes:
    return struct.pack("<I", imm | ((num & 0xFF) << 16) | (cmd << 24))


def _pad(b, n: int, at: int = 0):
    return b + bytes(-(len(b) + at) % n)


def index_buffer(p: Packet) -> tuple[bytes, list, list]:
    """(index bytes after the 4-byte header, secrets, textures)."""
    idx, secrets, textures = [], [], []
    for tex, entries in p.strips:
        for j, e in enumerate(entries):
            lone = isinstance(e, tuple)
            n = e[1] if lone else e
            if j == 0 and tex is not None:
                idx.append(0)
                secrets.append(n + 1)
                textures.append(tex)
            else:
                idx.append((n + 1) | (0x80 if (j < 2 or lone) else 0))
    idx += [1, 1, 1, 0]
    return bytes(idx), secrets, textures


def vif_list(p: Packet, at: int, tex1=(0xFF92, 4)) -> tuple[bytes, int]:
    """(the list, the quadword of its texture unpack code; 0: none)."""
    sts = p.st()
    out = vif(0x70 | (1 << 2) | 1, len(sts), ST_ADDR | FLG)
    out += b"".join(struct.pack("<2h", *st) for st in sts)
    idx, secrets, textures = index_buffer(p)
    body = bytearray(4) + idx
    body = _pad(body, 4)
    num = len(body) // 4
    body[1] = num if textures else 0
    body[2] = (secrets[0] if secrets else 0) & 0xFF
    out += vif(0x60 | (3 << 2) | 2, num, INDEX_ADDR | FLG) + bytes(body)
    tex_qw = 0
    if textures:
        while (at + len(out)) % 16 != 0xC:
            out += bytes(1)
        tex_qw = len(out) // 16
        tex = bytearray()
        for t in textures:
            tex += struct.pack("<iiB7x", *tex1, 0x14)
            tex += struct.pack("<iiB7x", 0, 0, 0x08)
            tex += struct.pack("<iiB7x", t, 0, 0x06)
            tex += struct.pack("<iiB7x", 0, 0, 0x34)
        for i, s in enumerate(secrets[1:]):
            tex[16 * i + 0xC] = s & 0xFF
        out += vif(0x60 | (3 << 2) | 0, 4 * len(textures), (INDEX_ADDR + num) | FLG)
        out += bytes(tex)
    return _pad(out, 16, at), tex_qw


def vertex_table(p: Packet, fmt: int) -> tuple[bytes, int]:
    """(table, transfer count); the table is a whole number of quadwords."""
    n, d = len(p.vertices), len(p.dupes)
    hsize = 16 if fmt == 2 else 32
    body = bytearray(hsize) + bytes(2 * p.transfers)
    body = _pad(body, 8)
    body += b"".join(struct.pack("<H", slot << 7) for slot in p.dupes)
    body = _pad(body, 16)
    vto = len(body)
    own = [v[5] for v in p.vertices]
    # the stream of 9-bit fields: vertex k carries own[k - 7]
    epi = [0] * max(LATE - n, 0) + own[max(n - LATE, 0):]
    stream = [0] * min(n, LATE) + own[:max(n - LATE, 0)]
    pad = 0
    while (n + pad) % 4 != 2 and pad < 7:
        pad += 1
    stream += epi[:pad + 1]
    extra = epi[pad + 1:]
    for k, (x, y, z, az, el, _cache) in enumerate(p.vertices):
        body += struct.pack("<H6xBB3h", stream[k], az, el, x, y, z)
    for k in range(n, n + pad):
        body += struct.pack("<H14x", stream[k])
    body += struct.pack("<H2x6H", stream[n + pad], *(extra + [0] * (6 - len(extra))))
    tvc = n + d
    if fmt == 2:
        struct.pack_into("<8H", body, 0, p.transfers, 0, 0, n, d, tvc, vto, 0)
    else:
        end = len(body)
        body += bytes(16)                       # the R&C1 "unknown_e" data
        struct.pack_into("<8I", body, 0, p.transfers, 0, 0, n, d, tvc, vto, end)
    return bytes(body), tvc


def build(c: MobyClass) -> bytes:
    packets = c.high + c.low
    table = 0x50
    out = bytearray(table + 16 * len(packets))
    for i, p in enumerate(packets):
        out = _pad(out, 16)
        vl_at = len(out)
        vl, tex_qw = vif_list(p, vl_at, c.tex1)
        tex = (tex_qw if c.tex_offset_qw else 2) if tex_qw else 0
        out += vl
        vt_at = len(out)
        vt, tvc = vertex_table(p, c.format)
        out += vt
        struct.pack_into("<IHHIBBBB", out, table + 16 * i, vl_at, len(vl) // 16,
                         tex, vt_at, len(vt) // 16, (0xF + tvc * 6) // 16,
                         (3 + tvc) // 4, tvc)
    struct.pack_into("<i4BBBBB", out, 0, table, len(c.high), len(c.low), 0,
                     len(packets), c.joints, 0, 0, 0 if c.format == 2 else 1)
    struct.pack_into("<f", out, 0x24, c.scale)
    struct.pack_into("<4f", out, 0x30, *c.bsphere)
    return bytes(out)


def expected(c: MobyClass, lod: int = 0) -> dict:
    """Per packet: its vertices, then its duplicates (copied from the last
    vertex that filled the cache slot, with their own s, t). Per strip the
    list L = v0, v0, v1 (a strip opens with a lone restart, which stands
    for a repeated index), then v2, ... (a lone restart adds the previous
    entry again, then itself); the triangle ending at a drawn entry p is
    (L[p-2], L[p-1], L[p]), its first two swapped when p - 2 is odd.
    Texture: the strip's, else the one before (0 at the start)."""
    pos, nrm, uv, tris, tex = [], [], [], [], []
    cache = {}
    texture = 0
    f = np.float32(c.scale) / np.float32(1024)
    for p in (c.high if lod == 0 else c.low):
        base = len(pos)
        sts = p.st()
        verts = []
        for x, y, z, az, el, slot in p.vertices:
            a, e = az * math.pi / 128, el * math.pi / 128
            v = ((x, y, z), (math.sin(a) * math.cos(e), math.cos(a) * math.cos(e),
                             math.sin(e)))
            cache[slot] = v
            verts.append(v)
        verts += [cache[s] for s in p.dupes]
        for (xyz, n), st in zip(verts, sts):
            pos.append(xyz)
            nrm.append(n)
            uv.append(st)
        for t, entries in p.strips:
            if t is not None:
                texture = t
            L, drawn = [], []
            for j, e in enumerate(entries):
                lone = isinstance(e, tuple) or j == 1
                v = base + (e[1] if isinstance(e, tuple) else e)
                if j == 0:
                    L.append(v)
                elif lone:
                    L += [L[-1], v]
                else:
                    L.append(v)
                    drawn.append(len(L) - 1)
            for q in drawn:
                a, b, d = L[q - 2], L[q - 1], L[q]
                tris.append((b, a, d) if (q - 2) % 2 else (a, b, d))
                tex.append(texture)
    return {
        "positions": np.array(pos, np.float32).reshape(-1, 3) * f,
        "normals": np.array(nrm, np.float32).reshape(-1, 3),
        "uv": np.array(uv, np.float32).reshape(-1, 2) / np.float32(4096),
        "triangles": np.array(tris, np.uint32).reshape(-1, 3),
        "texture": np.array(tex, np.int32),
    }


def grid_packet(w: int, h: int, slot0: int, texture=None, z: int = 0) -> Packet:
    """A (w+1) x (h+1) grid as h strips (each row pair), cache slots from
    slot0 on."""
    verts = [(300 * x, 300 * y, z + 11 * x * y, (16 * x) & 0xFF, (8 * y) & 0xFF,
              slot0 + y * (w + 1) + x) for y in range(h + 1) for x in range(w + 1)]
    strips = []
    for y in range(h):
        row = []
        for x in range(w + 1):
            row += [y * (w + 1) + x, (y + 1) * (w + 1) + x]
        strips.append((texture if y == 0 else None, row))
    return Packet(verts, strips)


def sample_class(fmt: int = 2) -> MobyClass:
    """High LOD: a 4 x 2 grid on texture 2 (15 vertices), then a packet of
    two own vertices and two duplicates of the first packet's (a tiny
    vertex table) drawing a quad on texture 5 with a lone restart; low LOD:
    one triangle with no texture switch."""
    a = grid_packet(4, 2, 100, texture=2)
    b = Packet(vertices=[(-50, -50, 7, 64, 32, 300), (50, -50, 7, 0, 64, 301)],
               dupes=[100, 104],
               strips=[(5, [0, 1, 2, ("r", 3), 1, 0])], transfers=3)
    low = Packet(vertices=[(0, 0, 0, 0, 0, 1), (99, 0, 0, 0, 0, 2), (0, 99, 0, 0, 0, 3)],
                 strips=[(None, [0, 1, 2])], transfers=0)
    return MobyClass(high=[a, b], low=[low], format=fmt)


def random_class(rnd, packets: int = 6) -> MobyClass:
    """Grid packets with random sizes and textures; every third packet
    also draws duplicates of the packet before. rnd: a random.Random."""
    high = [grid_packet(rnd.randint(1, 5), rnd.randint(1, 4), 16 * i,
                        texture=rnd.choice([None, rnd.randrange(16)]), z=i)
            for i in range(packets)]
    for i in range(1, packets, 3):
        slots = [v[5] for v in high[i - 1].vertices][:4]
        high[i].dupes = slots
        first = len(high[i].vertices)
        high[i].strips.append((None, [first + k for k in range(len(slots))]))
    return MobyClass(high=high, low=high[:2], scale=rnd.uniform(0.1, 8))
