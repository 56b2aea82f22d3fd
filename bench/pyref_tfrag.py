"""The comparison for the tfrag row: a plain pure-Python walk of an RC2
tfrags block (docs/formats/rc2-tfrag.md "Tfrag terrain"), written for the
benchmark the way a Python tool would: struct per VIF code, per index, per
corner. LOD 0 only, no validation; returns the same arrays as
wadkit._core.tfrag_parse(block, 0) so the benchmark checks it agrees."""
from __future__ import annotations

import struct

import numpy as np

# list order of transfer: LOD 2, common, LOD 1, LOD 0+1, LOD 0
LOD2, COMMON, LOD1, LOD01, LOD0 = range(5)
TIER = {COMMON: 0, LOD01: 1, LOD0: 2}
LOD = {LOD2: 2, LOD1: 1, LOD0: 0}


def vif_codes(data: bytes, start: int, end: int):
    """(cmd, imm, num, payload offset, payload size) of each VIF code."""
    pos = start
    while pos < end:
        (word,) = struct.unpack_from("<I", data, pos)
        pos += 4
        imm, num, cmd = word & 0xFFFF, (word >> 16) & 0xFF, (word >> 24) & 0x7F
        if cmd & 0x60 == 0x60:
            vn, vl = (cmd >> 2) & 3, cmd & 3
            size = ((num or 256) * (((32 >> vl) * (vn + 1)) // 8) + 3) & ~3
        elif cmd in (0x30, 0x31):
            size = 16
        elif cmd == 0x20:
            size = 4
        elif cmd == 0x4A:
            size = (num or 256) * 8
        elif cmd in (0x50, 0x51):
            size = (imm or 65536) * 16
        else:
            size = 0
        yield cmd, imm, num, pos, size
        pos += size


def patch(block: bytes, table: int, index: int, out: dict, base_vertex: int):
    h = table + 0x40 * index
    data = table + struct.unpack_from("<i", block, h + 0x10)[0]
    lod2, shared, lod1, lod01, _tex, rgba = struct.unpack_from("<6H", block, h + 0x14)
    lod0 = shared + block[h + 0x22] * 16
    bounds = [(lod2, shared), (shared, lod1), (lod1, lod01), (lod01, lod0), (lod0, rgba)]
    header = None
    for cmd, imm, num, at, size in vif_codes(block, data + shared, data + lod1):
        if cmd == 0x6D and imm & 0x3FF == 0 and imm >> 14 & 1:  # V4_16 usn @0
            header = struct.unpack_from("<20H", block, at)
            break
    indices_addr, strips_addr = header[13], header[18]
    row = [0, 0, 0, 0]
    pos = {0: [], 1: [], 2: []}
    vinfo = {0: [], 1: [], 2: []}
    strips, indices, adgifs = {}, {}, []
    for lst, (a, b) in enumerate(bounds):
        for cmd, imm, num, at, size in vif_codes(block, data + a, data + b):
            if cmd == 0x30:
                row = list(struct.unpack_from("<4i", block, at))
                continue
            if cmd & 0x60 != 0x60:
                continue
            vn, vl, n, addr = (cmd >> 2) & 3, cmd & 3, num or 256, imm & 0x3FF
            if lst == COMMON and vn == 3 and vl == 1 and addr == 0 and imm >> 14 & 1:
                continue                          # the VU header
            if vn == 3 and vl == 0:               # ad-gifs, 5 quadwords each
                adgifs = [struct.unpack_from("<i", block, at + 80 * k)[0]
                          for k in range(n // 5)]
            elif vn == 2 and vl == 1:             # positions, + the row
                ox, oy, oz = row[0], row[1], row[2]
                pos[TIER[lst]] = [((x + ox) / 1024.0, (y + oy) / 1024.0, (z + oz) / 1024.0)
                                  for x, y, z in struct.iter_unpack(
                                      "<3h", block[at:at + 6 * n])]
            elif vn == 3 and vl == 1:             # vertex info (s, t, parent, vertex)
                vinfo[TIER[lst]] = list(struct.iter_unpack("<4h", block[at:at + 8 * n]))
            elif vn == 3 and vl == 2 and lst in LOD:
                if addr == strips_addr:
                    strips[LOD[lst]] = block[at:at + 4 * n]
                elif addr == indices_addr:
                    indices[LOD[lst]] = block[at:at + 4 * n]
    vi = vinfo[0] + vinfo[1] + vinfo[2]
    colors = block[data + rgba:data + rgba + 16 * block[h + 0x29]]
    idx, k, adgif = indices[0], 0, -1
    rec = strips[0]
    for r in range(0, len(rec), 4):
        raw, off = struct.unpack_from("<bxbx", rec, r)
        if raw == 0:
            break
        n = raw + 128 if raw < 0 else raw
        if off >= 0:
            adgif = off // 5
        texture = adgifs[adgif]
        for j in range(n - 2):
            c = [idx[k + j], idx[k + j + 1], idx[k + j + 2]]
            if j & 1:
                c[0], c[1] = c[1], c[0]
            tri, uv, col = [], [], []
            for v in c:
                s, t, _parent, vertex = vi[v]
                p = vertex // 2
                tri.append(base_vertex + p)
                uv.append((s / (8192.0 if s < 0 else 4096.0),
                           t / (8192.0 if t < 0 else 4096.0)))
                col.append(tuple(colors[4 * p + a] / 128.0 for a in range(4)))
            out["triangles"].append(tri)
            out["uv"].append(uv)
            out["color"].append(col)
            out["texture"].append(texture)
            out["patch"].append(index)
        k += n
    verts = pos[0] + pos[1] + pos[2]
    out["positions"] += verts
    return len(verts)


def terrain(block: bytes) -> dict[str, np.ndarray]:
    table, count = struct.unpack_from("<ii", block, 0)
    out = {k: [] for k in ("positions", "triangles", "uv", "color", "texture", "patch")}
    base = 0
    for i in range(count):
        base += patch(block, table, i, out, base)
    return {"positions": np.array(out["positions"], np.float32).reshape(-1, 3),
            "triangles": np.array(out["triangles"], np.uint32).reshape(-1, 3),
            "uv": np.array(out["uv"], np.float32).reshape(-1, 3, 2),
            "color": np.array(out["color"], np.float32).reshape(-1, 3, 4),
            "texture": np.array(out["texture"], np.int32),
            "patch": np.array(out["patch"], np.int32)}
