"""ENG level geometry chunks (TRAK, STPC, MAP tile part, a minimal TEXT
table) built from the spec with struct only (docs/formats/eng.md "Level
geometry").
Never calls wadkit's writers: a fixture made here is an independent witness.

Coordinates passed in are EXPORT space (as the files store vertices and
MAP A); B is derived as (x, y, -z)·4096 unless given."""
from __future__ import annotations

import math
import struct

from . import eng_wad

TRAK_HEADER = 0x84
STPC_HEADER = 0x8c


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def face_plane(p0, p1, p2):
    e1 = [p1[k] - p0[k] for k in range(3)]
    e2 = [p2[k] - p0[k] for k in range(3)]
    n = [e1[1] * e2[2] - e1[2] * e2[1],
         e1[2] * e2[0] - e1[0] * e2[2],
         e1[0] * e2[1] - e1[1] * e2[0]]
    ln = math.sqrt(sum(c * c for c in n)) or 1.0
    n = [c / ln for c in n]
    return n + [sum(n[k] * p0[k] for k in range(3))]


class Model:
    """verts: [(x,y,z,nx,ny,nz)]; faces: [(flags, v0, v1, v2, tex)];
    coll: 32-byte records, groups: their (A, B, C) counts."""

    def __init__(self, verts, faces, coll: bytes = b"", groups=(0, 0, 0),
                 bones=None, rigid=None, margin=0.01):
        assert len(coll) == 32 * sum(groups)
        self.verts, self.faces, self.coll, self.groups = verts, faces, coll, groups
        self.bones = bones or []
        self.rigid = rigid
        self.margin = margin

    def header(self, stpc=False) -> bytes:
        if self.verts:
            lo = [min(v[k] for v in self.verts) - self.margin for k in range(3)]
            hi = [max(v[k] for v in self.verts) + self.margin for k in range(3)]
        else:
            lo = hi = [0.0, 0.0, 0.0]
        centre = [(lo[k] + hi[k]) / 2 for k in range(3)]
        corners = []
        for zz in (hi[2], lo[2]):          # +z first, then -z
            for yy in (lo[1], hi[1]):
                for xx in (lo[0], hi[0]):
                    corners += [xx, yy, zz]
        h = struct.pack("<3f", *centre) + struct.pack("<24f", *corners)
        h += struct.pack("<HHII", len(self.verts), len(self.faces), 0, 0)
        h += struct.pack("<3HHI", *self.groups, 0, 0)
        if stpc:
            rigid = len(self.verts) if self.rigid is None else self.rigid
            if self.bones:
                rigid = 0
            h += struct.pack("<HHI", rigid, len(self.bones), 0)
        assert len(h) == (STPC_HEADER if stpc else TRAK_HEADER)
        return h

    def data(self, stpc=False) -> bytes:
        out = b""
        if stpc:
            out += b"".join(struct.pack("<H", b) for b in self.bones)
        for v in self.verts:
            out += struct.pack("<6f", *v)
        for flags, a, b, c, tex in self.faces:
            p = [[f32(x) for x in self.verts[i][:3]] for i in (a, b, c)]
            out += struct.pack("<HHHHHH4f", flags, a, b, c, tex, 0,
                               *face_plane(*p))
        return out + self.coll


def trak(models) -> bytes:
    return (struct.pack("<I", len(models))
            + b"".join(m.header() for m in models)
            + b"".join(m.data() for m in models))


def animation(n_a, n_frames, flag, n_delta, n_bones, layout="spec",
              seed=1, matrix=None) -> bytes:
    """An animation block with deterministic contents. Matrix k of frame f
    holds the floats f*1000 + bone*100 + (0..15), or matrix(f, bone): 16
    floats in file order (the renderer's row-vector form, translation in
    12..14)."""
    h = struct.pack("<8I", n_a, 0, n_frames, flag, n_delta, 0, n_bones, 0)
    out = h + b"".join(struct.pack("<I", seed * 7 + i) for i in range(n_a))
    if flag == 0:
        out += b"".join(struct.pack("<4h", f, -f, seed, 3) for f in range(n_frames))
    if layout == "croc2" and n_frames:
        if n_delta:
            out += b"\0" * (4 * n_frames)
        out += b"\0" * (4 * n_frames)
    for f in range(n_frames):
        if n_delta:
            if f == 0:
                out += b"".join(struct.pack("<4h", i, 2 * i, -i, 1) for i in range(n_delta))
            else:
                out += b"".join(struct.pack("<h", f * 10 + i) for i in range(n_delta))
                if n_delta & 1:
                    out += b"\0\0"
        for b in range(n_bones):
            m = matrix(f, b) if matrix else [f * 1000 + b * 100 + k for k in range(16)]
            out += struct.pack("<16f", *m)
    return out


def turn_matrix(angle: float, axis: int, t=(0.0, 0.0, 0.0), scale=1.0) -> list[float]:
    """A rotation by angle (radians) about export-space axis 0/1/2, scaled,
    then moved by t: 16 floats in the stored row-vector form (v' = v·M)."""
    c, s_ = math.cos(angle) * scale, math.sin(angle) * scale
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    rows = [[scale if r == c_ else 0.0 for c_ in range(3)] for r in range(3)]
    rows[axis][axis] = scale
    rows[i][i], rows[i][j], rows[j][i], rows[j][j] = c, s_, -s_, c
    return [x for r in rows for x in r + [0.0]] + list(t) + [1.0]


def row_transform(m, v):
    """v (3 floats) through a stored matrix: the row vector v·M (the
    renderer's bone transform, public Croc 2 project)."""
    return [sum(v[k] * m[4 * k + c] for k in range(3)) + m[12 + c] for c in range(3)]


def stpc(models, anims=(), tail=b"") -> bytes:
    out = struct.pack("<I", len(models))
    for m in models:
        out += m.header(stpc=True) + m.data(stpc=True)
    out += struct.pack("<I", len(anims)) + b"".join(anims)
    return out + tail


def color_block(nverts: int, sets: list[list[tuple]]) -> bytes:
    """sets: one list of (r,g,b,a) per set, each nverts long. Byte 3 of the
    first entry is set to the set count when there are two or more."""
    out = bytearray()
    for s in sets:
        assert len(s) == nverts
        for c in s:
            out += bytes(c)
    if len(sets) >= 2:
        out[3] = len(sets)
    elif nverts:
        assert out[3] < 2, "byte 3 of the first entry would mean more sets"
    return bytes(out)


class Tile:
    def __init__(self, x, y, z, rot, model, anim=0, colors=None, colors_b=None,
                 b=None):
        self.x, self.y, self.z, self.rot, self.model, self.anim = x, y, z, rot, model, anim
        self.colors = colors or b""        # bytes of the colour block
        self.colors_b = colors_b or b""    # block for modelB (swap tiles)
        self.b = b or (0, rot, 0, round(x * 4096), round(y * 4096), round(-z * 4096))


def map_payload(w, h, tiles, *, strat_list=(), records90=0, paths34=0,
                zone_table=None, grid=None, swaps=None, rest=b"") -> bytes:
    out = struct.pack("<3I", len(tiles), w, h)
    for t in tiles:
        out += struct.pack("<3f3I", t.x, t.y, t.z, t.rot, t.model, t.anim)
    out += struct.pack("<I", len(strat_list)) + b"".join(struct.pack("<I", v) for v in strat_list)
    out += struct.pack("<I", records90) + bytes(range(90)) * records90
    out += struct.pack("<I", paths34) + bytes(range(100, 134)) * paths34
    zone_table = zone_table or [(1 << k, -k * 4096) for k in range(32)]
    out += b"".join(struct.pack("<Ii", m, hh) for m, hh in zone_table)
    grid = grid or [0] * (w * h)
    out += b"".join(struct.pack("<I", z) for z in grid)
    for t in tiles:
        out += struct.pack("<6i", *t.b)
    out += b"".join(struct.pack("<I", t.model) for t in tiles)
    if swaps is not None:
        out += struct.pack("<I", len(swaps))
        out += b"".join(struct.pack("<5I", *s) for s in swaps)
    for t in tiles:
        out += t.colors + t.colors_b
    return out + rest


def text_table(entries) -> bytes:
    """A minimal TEXT: no palettes, no pages, the texture table. entries:
    (flags, page, page2, u0, u1, v0, v1)."""
    return struct.pack("<3I", 0, 0, len(entries)) + b"".join(
        struct.pack("<Hbb4B", *e) for e in entries)


def level(*, wfpc=0, trak_payload=None, stpc_payload=None, map_payload_=None,
          text_payload=None) -> bytes:
    chunks = [("INFO", eng_wad.info_payload()), ("WFPC", struct.pack("<I", wfpc))]
    if text_payload is not None:
        chunks.append(("TEXT", text_payload))
    if trak_payload is not None:
        chunks.append(("TRAK", trak_payload))
    if stpc_payload is not None:
        chunks.append(("STPC", stpc_payload))
    if map_payload_ is not None:
        chunks.append(("MAP", map_payload_))
    chunks.append(("LGHT", b"\x01\x02"))
    return eng_wad.wad(chunks)


def realistic_level(seed=3, n_models=300, grid=64, n_tiles=1400, extent=0.6):
    """A level with roughly the statistics of the originals: ~300 tile
    models, ~25,000 triangles over them, a 64×64 grid, vertex colour sets,
    anim tiles with swaps (WFPC 0x10000), zones, STPC models and animations.
    Returns (wad bytes, facts) where facts lists what was put in."""
    import random
    rnd = random.Random(seed)
    models = [Model([(-0.5, -2.75, -0.5, 0, 1, 0), (0.5, -2.75, -0.5, 0, 1, 0),
                     (0.5, -2.75, 0.5, 0, 1, 0), (-0.5, -2.75, 0.5, 0, 1, 0)],
                    [], bytes(range(32)), (1, 0, 0))]
    n_tris = 0
    for i in range(1, n_models):
        nv = rnd.randint(20, 140)
        verts = [(rnd.uniform(-extent, extent), rnd.uniform(-1, 2),
                  rnd.uniform(-extent, extent),
                  0.0, 1.0, 0.0) for _ in range(nv)]
        nf = rnd.randint(nv // 2, 3 * nv // 2)
        faces = []
        for _ in range(nf):
            a, b, c = rnd.sample(range(nv), 3)
            faces.append((rnd.choice((0x800, 0x810, 0x830, 0x8, 0x4800, 0x420)),
                          a, b, c, rnd.randrange(64)))
        n_tris += nf
        g = (rnd.randint(0, 6), rnd.randint(0, 2), rnd.randint(0, 1))
        coll = bytes(rnd.randrange(256) for _ in range(32 * sum(g)))
        models.append(Model(verts, faces, coll, g))
    tiles, swaps = [], []
    for i in range(n_tiles):
        cx, cz = rnd.randrange(grid), rnd.randrange(grid)
        mi = rnd.randrange(n_models)
        nv = len(models[mi].verts)
        nsets = 2 if rnd.random() < 0.2 else 1
        sets = [[(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256), 0)
                 for _ in range(nv)] for _ in range(nsets)]
        anim = 1 if rnd.random() < 0.02 else 0
        cb = b""
        if anim:
            mb = rnd.randrange(1, n_models)
            swaps.append((cx, rnd.randrange(4096), cz, mi, mb))
            nvb = len(models[mb].verts)
            cb = color_block(nvb, [[(9, 8, 7, 1)] * nvb])
        tiles.append(Tile(cx + 0.5, rnd.randint(-8, 8) / 4, -(cz + 0.5),
                          rnd.choice((0, 1024, 2048, 3072)), mi, anim,
                          color_block(nv, sets), cb))
    zone_grid = [rnd.randrange(32) for _ in range(grid * grid)]
    mp = map_payload(grid, grid, tiles, strat_list=[1, 2, 3], records90=2,
                     paths34=5, grid=zone_grid, swaps=swaps,
                     rest=bytes(rnd.randrange(256) for _ in range(3000)))
    objects = [Model([(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 1, 0, 0, 1, 0)],
                     [(0x800, 0, 1, 2, 3)]),
               Model([(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 1, 0, 0, 1, 0),
                      (0, 0, 1, 0, 1, 0)], [(0, 0, 1, 2, 1), (0, 0, 2, 3, 1)],
                     bones=[1, 3])]
    st = stpc(objects, [animation(2, 3, 0, 5, 2), animation(0, 2, 1, 0, 1, seed=2)],
              tail=b"strat script data" * 20)
    text = text_table([(0, k % 8, -1, 0, 31, 0, 31) for k in range(64)])
    wad = level(wfpc=0x10000, trak_payload=trak(models), stpc_payload=st,
                map_payload_=mp, text_payload=text)
    return wad, {"models": n_models, "triangles": n_tris, "tiles": n_tiles,
                 "swaps": len(swaps), "grid": grid}
