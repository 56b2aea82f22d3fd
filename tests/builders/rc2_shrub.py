"""RC2 shrub classes built from the spec (docs/formats/rc2-classes.md, "Shrub
classes"), plain Python + struct; independent of wadkit's C code.

A packet is a list of primitives: ("texture", index) or ("strip" | "tris",
[(x, y, z, s, t, normal index), ...]). The builder gives every item its GS
packet offset (texture 5 quadwords, GIF tag 1, vertex 3), pads a packet to
six vertices with copies of the last one (same offset), sets the stop bit on
the fourth vertex from the end and writes the three unpacks: header + GIF
tags + textures (V4_32 at 0), positions (V4_16 at the header's vertex
offset), texture coordinates + normal indices (V4_16 right after).
`expected()` is the mesh the spec says a reader must produce.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

import numpy as np

HEADER = 0x40
NORMALS = 24
GS_TEXTURE, GS_GIF_TAG, GS_VERTEX = 5, 1, 3
PRIM = {"tris": 3, "strip": 4}
STOP = 0x8000


def vif(cmd: int, num: int = 0, imm: int = 0) -> bytes:
    return struct.pack("<I", imm | (num << 16) | (cmd << 24))


def unpack(vn: int, vl: int, payload: bytes, addr: int, count: int) -> bytes:
    """UNPACK with the USE_VIF1_TOPS flag (bit 15 of the immediate), as
    Wrench writes shrub packets; payload padded to 4 bytes."""
    return vif(0x60 | (vn << 2) | vl, count & 0xFF, addr | 0x8000) + payload \
        + bytes(-len(payload) % 4)


def gif_tag(nloop: int, prim: int, eop: bool, nreg: int = 3) -> bytes:
    low = nloop | (eop << 15) | (1 << 46) | ((prim | 8 | 16 | 32 | 64) << 47) \
        | (nreg << 60)
    return struct.pack("<QI", low, 0x412)


def normal_table() -> list:
    """24 unit vectors (s16, x 32767) spread over the sphere."""
    out = []
    for i in range(NORMALS):
        z = 1 - 2 * (i + 0.5) / NORMALS
        r = math.sqrt(1 - z * z)
        a = i * 2.399963
        out.append(tuple(round(c * 32767) for c in (r * math.cos(a), r * math.sin(a), z)))
    return out


@dataclass
class ShrubClass:
    packets: list
    scale: float = 0.25
    o_class: int = 777
    bsphere: tuple = (0.5, -1.0, 2.0, 9.0)
    normals: list = field(default_factory=normal_table)
    billboard: bool = False
    stop_at: int = 4              # the stop bit: this many from the end
    nreg: int = 3
    mode_bits: int = 3
    instance_count: int = 5
    tex1: tuple = (0xFF92, 4)     # TEX1 data words of a texture record
    mip_distance: float = 60.0

    def bytes(self) -> bytes:
        return build(self)

    def expected(self) -> dict:
        return expected(self)


def packet_bytes(prims: list, stop_at: int = 4, nreg: int = 3,
                 tex1: tuple = (0xFF92, 4)) -> bytes:
    tags, texs, p1, p2 = [], [], [], []
    ofs = 0
    for kind, arg in prims:
        if kind == "texture":
            t = arg
            texs.append(struct.pack("<iiB3xi", *tex1, 0x14, ofs)
                        + struct.pack("<iiB7x", 0, 0, 0x08)
                        + struct.pack("<iiB7x", t, 0, 0x34)
                        + struct.pack("<iiB7x", t, 0, 0x06))
            ofs += GS_TEXTURE
        else:
            tags.append([len(arg), PRIM[kind], ofs])
            ofs += GS_GIF_TAG
            for x, y, z, s, t, n in arg:
                p1.append([x, y, z, ofs])
                p2.append([s, t, 4096, n])
                ofs += GS_VERTEX
    while len(p1) < 6:
        p1.append(list(p1[-1]))
        p2.append(list(p2[-1]))
    p2[len(p2) - stop_at][3] |= STOP
    head = struct.pack("<4i", len(texs), len(tags), len(p1), 1 + len(tags) + 4 * len(texs))
    head += b"".join(gif_tag(n, prim, i == len(tags) - 1, nreg) + struct.pack("<i", o)
                     for i, (n, prim, o) in enumerate(tags))
    head += b"".join(texs)
    vofs = 1 + len(tags) + 4 * len(texs)
    out = vif(0x01, 0, 0x0404) + vif(0x00) + vif(0x05)          # STCYCL, NOP, STMOD
    out += unpack(3, 0, head, 0, len(head) // 16)
    out += vif(0x05)
    out += unpack(3, 1, b"".join(struct.pack("<4h", *v) for v in p1), vofs, len(p1))
    out += vif(0x05)
    out += unpack(3, 1, b"".join(struct.pack("<3hH", *v) for v in p2), vofs + len(p1),
                  len(p2))
    return out


def build(c: ShrubClass) -> bytes:
    """Header (0x40), packet table {offset, size} at 0x40, packets
    16-aligned, an optional billboard, then the 24 normals."""
    out = bytearray(HEADER + 8 * len(c.packets))
    for i, prims in enumerate(c.packets):
        out += bytes(-len(out) % 16)
        pk = packet_bytes(prims, c.stop_at, c.nreg, c.tex1)
        struct.pack_into("<ii", out, HEADER + 8 * i, len(out), len(pk))
        out += pk
    billboard = 0
    if c.billboard:
        out += bytes(-len(out) % 16)
        billboard = len(out)
        out += struct.pack("<4f", 30.0, 2.0, 3.0, 0.5) + bytes(48)
    out += bytes(-len(out) % 16)
    normals = len(out)
    out += b"".join(struct.pack("<4h", *n, 0) for n in c.normals)
    struct.pack_into("<4ffHhii", out, 0, *c.bsphere, c.mip_distance, c.mode_bits,
                     c.instance_count, 0, billboard)
    struct.pack_into("<fhhhhi", out, 0x20, c.scale, c.o_class, 0, len(c.packets), 0,
                     normals)
    return bytes(out)


def expected(c: ShrubClass) -> dict:
    """Vertices in GS order (padding left out); strips give (k-2, k-1, k),
    lists every three; a triangle with two corners at one position is left
    out, and one whose face normal (right-handed) points against the sum of
    its vertex normals is reversed. Texture: the last one set (across
    packets)."""
    pos, uv, nrm, tris, tex = [], [], [], [], []
    texture = -1
    for prims in c.packets:
        for kind, arg in prims:
            if kind == "texture":
                texture = arg
                continue
            base = len(pos)
            for x, y, z, s, t, n in arg:
                pos.append((x, y, z))
                uv.append((s, t))
                nrm.append(c.normals[n])
            k = len(arg)
            corners = ([(i - 2, i - 1, i) for i in range(2, k)] if kind == "strip"
                       else [(i, i + 1, i + 2) for i in range(0, k, 3)])
            for a, b, d in corners:
                a, b, d = base + a, base + b, base + d
                P = [np.array(pos[i], np.int64) for i in (a, b, d)]
                if any((P[i] == P[(i + 1) % 3]).all() for i in range(3)):
                    continue
                face = np.cross(P[1] - P[0], P[2] - P[0])
                nsum = sum(np.array(nrm[i], np.int64) for i in (a, b, d))
                tris.append((d, b, a) if int(face @ nsum) < 0 else (a, b, d))
                tex.append(texture)
    f = np.float32(c.scale) / np.float32(1024)
    return {
        "positions": np.array(pos, np.float32).reshape(-1, 3) * f,
        "uv": np.array(uv, np.float32).reshape(-1, 2) / np.float32(4096),
        "normals": np.array(nrm, np.float32).reshape(-1, 3) / np.float32(32767),
        "triangles": np.array(tris, np.uint32).reshape(-1, 3),
        "texture": np.array(tex, np.int32),
    }


def sample_class() -> ShrubClass:
    """Three packets: texture 3, a strip of leaves and a triangle list; a
    short strip that needs padding (still texture 3, set in packet 0);
    texture 7 and a strip with a repeated corner (zero-area triangles)."""
    leaf = [(0, 0, 0, 0, 0, 0), (400, 0, 40, 4096, 0, 1), (0, 400, 80, 0, 4096, 2),
            (400, 400, 120, 4096, 4096, 3), (800, 0, 0, 8192, 0, 4)]
    tris = [(0, 0, 500, 0, 0, 5), (-300, 0, 500, 100, 0, 5), (0, -300, 500, 0, 100, 5),
            (10, 10, -10, -4096, 0, 20), (10, -10, -10, 0, -4096, 20),
            (-10, 10, -10, 1, 1, 20)]
    small = [(5, 5, 5, 1, 2, 6), (50, 5, 5, 3, 4, 7), (5, 50, 5, 5, 6, 8)]
    rep = [(0, 0, 0, 0, 0, 9), (100, 0, 0, 1, 0, 9), (100, 0, 0, 1, 0, 9),
           (0, 100, 30, 0, 1, 9), (100, 100, 30, 1, 1, 9)]
    return ShrubClass(packets=[
        [("texture", 3), ("strip", leaf), ("tris", tris)],
        [("strip", small)],
        [("texture", 7), ("strip", rep)],
    ])


def random_class(rnd, packets: int = 8, o_class: int = 1) -> ShrubClass:
    """Random strips and triangle lists over packets, textures set now and
    then (always in the first packet). rnd: a random.Random."""
    def vert():
        return tuple(rnd.randrange(-30000, 30000) for _ in range(3)) + \
            (rnd.randrange(-32768, 32768), rnd.randrange(-32768, 32768), rnd.randrange(NORMALS))
    out = []
    for _ in range(packets):
        prims = [("texture", rnd.randrange(16))] if rnd.random() < 0.7 or not out else []
        for _ in range(rnd.randint(1, 3)):
            kind = rnd.choice(["strip", "tris"])
            n = rnd.randint(3, 9) if kind == "strip" else 3 * rnd.randint(1, 3)
            prims.append((kind, [vert() for _ in range(n)]))
            if rnd.random() < 0.3:
                prims.append(("texture", rnd.randrange(16)))
        if prims[-1][0] == "texture":
            prims.pop()
        out.append(prims)
    return ShrubClass(out, scale=rnd.uniform(0.1, 8), o_class=o_class)
