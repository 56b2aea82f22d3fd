"""The comparison for the ENG row: a plain pure-Python `struct` parser of
the same chunks (WAD container, TEXT table, TRAK, MAP tile part), written
from the spec (docs/formats/eng.md) the way a Python tool would be
(precompiled Structs, one unpack per record, math per vertex). It returns
the same world mesh as Level.world_mesh() (file space, the level's own
texture table, colour set 0), so the benchmark also checks it agrees.

Not part of wadkit: it validates nothing and exists to be timed."""
from __future__ import annotations

import math
import struct

import numpy as np

U32 = struct.Struct("<I")
CHUNK = struct.Struct("<4sI")
PAL = struct.Struct("<II")
PAGE = struct.Struct("<III")
ENTRY = struct.Struct("<HbbBBBB")
HEADER = struct.Struct("<3f24fHHII3HHI")      # TRAK model header, 0x84 bytes
VERT = struct.Struct("<6f")
FACE = struct.Struct("<HHHHHH4f")
TILE_A = struct.Struct("<3f3I")
TILE_B = struct.Struct("<6i")
SWAP = struct.Struct("<5I")


def chunks(wad: bytes) -> dict[str, bytes]:
    out, pos = {}, 4
    while pos + 8 <= len(wad):
        tag, size = CHUNK.unpack_from(wad, pos)
        name = tag[::-1].decode("ascii").strip()
        if name == "END":
            break
        if name == "MAP" and pos + 8 + size > len(wad):
            size -= 4
        out[name] = wad[pos + 8:pos + 8 + size]
        pos += 8 + size
    return out


def texture_table(text: bytes) -> list[tuple]:
    pos = 0
    (n,) = U32.unpack_from(text, pos)
    pos += 4
    for _ in range(n):
        _, count = PAL.unpack_from(text, pos)
        pos += 8 + 3 * count
    (n,) = U32.unpack_from(text, pos)
    pos += 4
    for _ in range(n):
        flags, w, h = PAGE.unpack_from(text, pos)
        pos += 12
        if flags & 0x80:
            (length,) = U32.unpack_from(text, pos)
            pos += 4 + length
        else:
            pos += w * h * (2 if flags else 1)
    (n,) = U32.unpack_from(text, pos)
    pos += 4
    return [ENTRY.unpack_from(text, pos + 8 * i) for i in range(n)]


def trak(data: bytes) -> list[dict]:
    (n,) = U32.unpack_from(data, 0)
    heads = [HEADER.unpack_from(data, 4 + 0x84 * i) for i in range(n)]
    pos = 4 + 0x84 * n
    models = []
    for h in heads:
        nv, nf, ga, gb, gc = h[27], h[28], h[31], h[32], h[33]
        verts = [VERT.unpack_from(data, pos + 24 * i) for i in range(nv)]
        pos += 24 * nv
        faces = [FACE.unpack_from(data, pos + 28 * i) for i in range(nf)]
        pos += 28 * nf + 32 * (ga + gb + gc)
        models.append({"verts": verts, "faces": faces})
    return models


def map_tiles(data: bytes, models: list[dict], swaps_flag: bool) -> list[dict]:
    n, w, h = struct.unpack_from("<3I", data, 0)
    pos = 12
    anim = [TILE_A.unpack_from(data, pos + 24 * i)[5] for i in range(n)]
    pos += 24 * n
    for elem in (4, 90, 34):
        (k,) = U32.unpack_from(data, pos)
        pos += 4 + k * elem
    pos += 256 + 4 * w * h
    b = [TILE_B.unpack_from(data, pos + 24 * i) for i in range(n)]
    pos += 24 * n
    model = [U32.unpack_from(data, pos + 4 * i)[0] for i in range(n)]
    pos += 4 * n
    swaps = []
    if swaps_flag:
        (k,) = U32.unpack_from(data, pos)
        swaps = [SWAP.unpack_from(data, pos + 4 + 20 * i) for i in range(k)]
        pos += 4 + 20 * k
    tiles, next_swap = [], 0
    for i in range(n):
        nv = len(models[model[i]]["verts"])
        colors = []
        if nv:
            sets = max(data[pos + 3], 1)
            colors = [data[pos + 4 * v:pos + 4 * v + 3] for v in range(nv)]
            pos += 4 * nv * sets
        if anim[i] and next_swap < len(swaps):
            nvb = len(models[swaps[next_swap][4]]["verts"])
            next_swap += 1
            if nvb:
                pos += 4 * nvb * max(data[pos + 3], 1)
        tiles.append({"b": b[i], "model": model[i], "colors": colors})
    return tiles


def world_mesh(wad: bytes) -> dict[str, np.ndarray]:
    c = chunks(wad)
    (wfpc,) = U32.unpack_from(c["WFPC"], 0)
    table = texture_table(c["TEXT"])
    models = trak(c["TRAK"])
    tiles = map_tiles(c["MAP"], models, bool(wfpc & 0x10000))
    pos, tri, uv, col = [], [], [], []
    tex, page, flg, tile_of = [], [], [], []
    base = 0
    for ti, t in enumerate(tiles):
        m = models[t["model"]]
        if not m["faces"]:
            continue
        rx, ry, rz, bx, by, bz = t["b"]
        if ry % 1024 == 0:     # exact at quarter turns (docs/formats/eng.md)
            ca, sa = ((1, 0), (0, 1), (-1, 0), (0, -1))[(ry >> 10) & 3]
        else:
            a = ry / 4096.0 * 2.0 * math.pi
            ca, sa = math.cos(a), math.sin(a)
        x, y, z = bx / 4096.0, by / 4096.0, -bz / 4096.0
        for v in m["verts"]:
            pos.append((x + v[0] * ca - v[2] * sa, y + v[1],
                        -(z + v[0] * sa + v[2] * ca)))
        for f in m["faces"]:
            flags, i0, i1, i2, ti_ = f[0], f[1], f[2], f[3], f[4]
            e = table[ti_]
            u0, v0 = e[3] / 256.0, e[5] / 256.0
            u1, v1 = (e[4] + 1) / 256.0, (e[6] + 1) / 256.0
            ua, ub = (u0, u1) if flags & 0x20 else (u1, u0)
            if not flags & 0x800:
                c3 = ((ua, v1), (ub, v1), (ua, v0))
            elif not flags & 0x10:
                c3 = ((ua, v1), (ub, v1), (ub, v0))
            else:
                c3 = ((ub, v0), (ua, v0), (ua, v1))
            # file space: corner order (0, 2, 1)
            tri.append((base + i0, base + i2, base + i1))
            uv.append((c3[0], c3[2], c3[1]))
            if flags & 0x4000:
                col.append(((1.0, 1.0, 1.0, 1.0),) * 3)
            else:
                cc = t["colors"]
                col.append(tuple((min(cc[i][0] / 128.0, 1.0), min(cc[i][1] / 128.0, 1.0),
                                  min(cc[i][2] / 128.0, 1.0), 1.0) for i in (i0, i2, i1)))
            tex.append(ti_)
            page.append(-1 if e[0] & 1 else e[1])
            flg.append(flags)
            tile_of.append(ti)
        base += len(m["verts"])
    return {"positions": np.array(pos, np.float32).reshape(-1, 3),
            "triangles": np.array(tri, np.uint32).reshape(-1, 3),
            "uv": np.array(uv, np.float32).reshape(-1, 3, 2),
            "color": np.array(col, np.float32).reshape(-1, 3, 4),
            "texture": np.array(tex, np.int32), "page": np.array(page, np.int32),
            "face_flags": np.array(flg, np.uint16), "tile": np.array(tile_of, np.int32)}
