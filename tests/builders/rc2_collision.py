"""RC2 collision blocks from the spec (docs/formats/rc2-collision-sky.md, "Collision"),
plain Python + struct, and a plain reader of them. Independent of wadkit's
C reader and writer.

An octant is given as (vertices, faces): vertices (x, y, z) in stored units
around the octant centre (x, y: 1/16 m, z: 1/64 m); faces (v0, v1, v2, tag)
or (v0, v1, v2, v3, tag) for quads, in stored order (quads are written
first, as the format requires).
"""
from __future__ import annotations

import struct


def pack_vertex(x: int, y: int, z: int) -> int:
    assert -512 <= x < 512 and -512 <= y < 512 and -2048 <= z < 2048
    return (x & 0x3FF) | ((y & 0x3FF) << 10) | ((z & 0xFFF) << 20)


def unpack_vertex(v: int) -> tuple[int, int, int]:
    def s(value, bits):
        return value - (1 << bits) if value & (1 << (bits - 1)) else value
    return s(v & 0x3FF, 10), s((v >> 10) & 0x3FF, 10), s(v >> 20, 12)


def octant_bytes(vertices, faces) -> bytes:
    quads = [f for f in faces if len(f) == 5]
    tris = [f for f in faces if len(f) == 4]
    out = struct.pack("<HBB", len(faces), len(vertices), len(quads))
    out += b"".join(struct.pack("<I", pack_vertex(*v)) for v in vertices)
    out += b"".join(struct.pack("<4B", f[0], f[1], f[2], f[-1]) for f in quads + tris)
    out += bytes(f[3] for f in quads)
    return out


def size_byte(vertices, faces) -> int:
    nq = sum(len(f) == 5 for f in faces)
    return (4 + 4 * len(vertices) + 4 * len(faces) + nq + 15) // 16


def pad(b: bytearray, start: int, align: int):
    b += bytes(-(len(b) - start) % align)


def block(octants: dict, hero: bytes = b"", mesh_offset: int = 0x40,
          empty_z: str = "zero") -> bytes:
    """The canonical layout: header {mesh offset, hero offset}, zeros up to
    the mesh; a Z node {s16 coord, u16 count, u16 (offset / 4) per slot};
    every Y node (4-aligned), then every X node (4-aligned), then every
    octant (16-aligned), each group in z, y, x order; an X entry is
    offset << 8 | size byte. Node bounds are tight. empty_z: an empty Z slot
    is written as offset 0 ("zero") or as a Y node of count 0 ("node")."""
    out = bytearray(struct.pack("<ii", mesh_offset, 0))
    out += bytes(mesh_offset - len(out))
    m = len(out)
    keys = sorted(octants, key=lambda k: (k[2], k[1], k[0]))
    if not keys:
        out += struct.pack("<hH", 0, 0)
        return _hero(out, hero)
    z0, z1 = keys[0][2], keys[-1][2]
    out += struct.pack("<hH", z0, z1 - z0 + 1) + bytes(2 * (z1 - z0 + 1))
    ynodes = {}
    for z in range(z0, z1 + 1):
        ys = sorted({k[1] for k in keys if k[2] == z})
        if not ys and empty_z == "zero":
            continue
        pad(out, m, 4)
        struct.pack_into("<H", out, m + 4 + 2 * (z - z0), (len(out) - m) // 4)
        y0, n = (ys[0], ys[-1] - ys[0] + 1) if ys else (0, 0)
        ynodes[z] = (len(out), y0, n)
        out += struct.pack("<hH", y0, n) + bytes(4 * n)
    xnodes = {}
    for z, (at, y0, n) in ynodes.items():
        for y in range(y0, y0 + n):
            xs = sorted(k[0] for k in keys if k[2] == z and k[1] == y)
            if not xs:
                continue
            pad(out, m, 4)
            struct.pack_into("<I", out, at + 4 + 4 * (y - y0), len(out) - m)
            xnodes[(y, z)] = (len(out), xs[0])
            out += struct.pack("<hH", xs[0], xs[-1] - xs[0] + 1) + bytes(4 * (xs[-1] - xs[0] + 1))
    for k in keys:
        verts, faces = octants[k]
        pad(out, m, 16)
        at, x0 = xnodes[(k[1], k[2])]
        struct.pack_into("<I", out, at + 4 + 4 * (k[0] - x0),
                         ((len(out) - m) << 8) | size_byte(verts, faces))
        out += octant_bytes(verts, faces)
    return _hero(out, hero)


def _hero(out: bytearray, hero: bytes) -> bytes:
    if hero:
        pad(out, 0, 0x40)
        struct.pack_into("<i", out, 4, len(out))
        out += hero
    return bytes(out)


def parse(data: bytes) -> dict:
    """{(x, y, z): (vertices, faces)} read back by the layout (no checks
    beyond what struct does): faces as in `block`."""
    mesh, hero = struct.unpack_from("<ii", data, 0)
    m = data[mesh:hero if hero else len(data)]
    out = {}
    zc, zn = struct.unpack_from("<hH", m, 0)
    for zi in range(zn):
        zo = 4 * struct.unpack_from("<H", m, 4 + 2 * zi)[0]
        if not zo:
            continue
        yc, yn = struct.unpack_from("<hH", m, zo)
        for yi in range(yn):
            yo = struct.unpack_from("<I", m, zo + 4 + 4 * yi)[0]
            if not yo:
                continue
            xc, xn = struct.unpack_from("<hH", m, yo)
            for xi in range(xn):
                e = struct.unpack_from("<I", m, yo + 4 + 4 * xi)[0]
                if not e >> 8:
                    continue
                o = e >> 8
                nf, nv, nq = struct.unpack_from("<HBB", m, o)
                verts = [unpack_vertex(v) for v in struct.unpack_from(f"<{nv}I", m, o + 4)]
                f0 = o + 4 + 4 * nv
                faces = []
                for i in range(nf):
                    a, b, c, tag = m[f0 + 4 * i:f0 + 4 * i + 4]
                    faces.append((a, b, c, m[f0 + 4 * nf + i], tag) if i < nq
                                 else (a, b, c, tag))
                out[(xc + xi, yc + yi, zc + zi)] = (verts, faces)
    return out


def world(key, vertex) -> tuple[int, int, int]:
    """A stored vertex of octant key in world units of 1/64 m."""
    x, y, z = key
    return (256 * x + 128 + 4 * vertex[0], 256 * y + 128 + 4 * vertex[1],
            256 * z + 128 + vertex[2])
