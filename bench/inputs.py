"""Benchmark inputs, generated (no game data exists here): an ENG level at
the size of an original (t1l1m001: ~650 TRAK models, ~26,000 world
triangles, textured) and scaled copies (×4, ×10: more models, more tiles on
a larger grid, more texture pages). Built with the from-spec fixture
builders in tests/builders (struct only, never wadkit's writers)."""
from __future__ import annotations

import math
import os
import random
import sys

_TESTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

from builders import eng_collision, eng_level, eng_text  # noqa: E402

# One ×1 level. Chosen so the world mesh has ~26,000 triangles like
# t1l1m001 (docs/formats/eng.md "World mesh": 26,442): 650 models of 10–70 vertices
# and about as many faces, ~690 tiles (model 0, the fall plane, has none).
BASE = {"models": 650, "tiles": 690, "pages": 8, "entries": 96, "grid": 48}


def _model(rnd: random.Random) -> eng_level.Model:
    nv = rnd.randint(10, 70)
    verts = [(rnd.uniform(-0.6, 0.6), rnd.uniform(-1, 2), rnd.uniform(-0.6, 0.6),
              0.0, 1.0, 0.0) for _ in range(nv)]
    nf = rnd.randint(nv // 2, 3 * nv // 2)
    faces = [(rnd.choice((0x800, 0x810, 0x830, 0x808, 0x4800, 0x420)),
              *rnd.sample(range(nv), 3), rnd.randrange(BASE["entries"]))
             for _ in range(nf)]
    # collision: valid polygons over some of the model's own faces (game
    # space: z negated), built by the spec builder
    coll = b""
    for _flags, a, b, c, _tex in faces[:rnd.randint(2, 9)]:
        corners = [(verts[i][0], verts[i][1], -verts[i][2]) for i in (a, c, b)]
        try:
            coll += eng_collision.polygon(corners, material=rnd.choice((0, 0, 0, 3)))
        except ZeroDivisionError:         # a degenerate face: no polygon
            pass
    n = len(coll) // 32
    groups = (n - n // 3, n // 3, 0)
    return eng_level.Model(verts, faces, coll, groups)


def _pages(rnd: random.Random, n: int) -> list[bytes]:
    """n 256×256 16-bit pages (the PC format), stripes of random colours."""
    out = []
    for _ in range(n):
        row = [rnd.randrange(1, 0x10000) for _ in range(256)]
        out.append(eng_text.page_rgb16(256, 256, row * 256))
    return out


def eng_level_wad(scale: int = 1, seed: int = 11) -> tuple[bytes, dict]:
    """(WAD bytes, facts) of a generated ENG level scale× the base size.
    Collision records are valid polygons over a few faces of each model
    (random bytes would not survive the write path's checks)."""
    rnd = random.Random(seed * 1000 + scale)
    n_models, n_tiles = BASE["models"] * scale, BASE["tiles"] * scale
    n_pages = min(BASE["pages"] * scale, 127)      # page is an i8
    n_entries = BASE["entries"] * scale
    grid = int(BASE["grid"] * math.sqrt(scale))
    models = [eng_level.Model([(-0.5, -2.75, -0.5, 0, 1, 0), (0.5, -2.75, -0.5, 0, 1, 0),
                               (0.5, -2.75, 0.5, 0, 1, 0), (-0.5, -2.75, 0.5, 0, 1, 0)],
                              [], bytes(range(32)), (1, 0, 0))]
    models += [_model(rnd) for _ in range(1, n_models)]
    tiles, swaps = [], []
    for i in range(n_tiles):
        # every model placed once, then random repeats (shared models)
        mi = i if i < n_models else rnd.randrange(n_models)
        cx, cz = rnd.randrange(1, grid - 1), rnd.randrange(1, grid - 1)  # models stick out ±0.6
        nv = len(models[mi].verts)
        nsets = 2 if rnd.random() < 0.2 else 1
        sets = [[(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256), 0)
                 for _ in range(nv)] for _ in range(nsets)]
        anim, cb = 0, b""
        if rnd.random() < 0.02:
            anim = 1
            mb = rnd.randrange(1, n_models)
            swaps.append((cx, rnd.randrange(4096), cz, mi, mb))
            nvb = len(models[mb].verts)
            cb = eng_level.color_block(nvb, [[(9, 8, 7, 1)] * nvb])
        tiles.append(eng_level.Tile(cx + 0.5, rnd.randint(-8, 8) / 4, -(cz + 0.5),
                                    rnd.choice((0, 1024, 2048, 3072)), mi, anim,
                                    eng_level.color_block(nv, sets), cb))
    mp = eng_level.map_payload(grid, grid, tiles, strat_list=[1, 2, 3], records90=2,
                               paths34=5, grid=[rnd.randrange(32) for _ in range(grid * grid)],
                               swaps=swaps, rest=bytes(rnd.randrange(256) for _ in range(3000)))
    entries = []
    for k in range(n_entries):
        u0, v0 = rnd.randrange(0, 224, 32), rnd.randrange(0, 224, 32)
        flat = k % 16 == 15
        entries.append(eng_text.entry(flags=1 if flat else 0, page=k % n_pages,
                                      u0=u0, u1=u0 + 31, v0=v0, v1=v0 + 31))
    text = eng_text.text(pages=_pages(rnd, n_pages), entries=entries,
                         tail=eng_text.effects([]))
    wad = eng_level.level(wfpc=0x10000, trak_payload=eng_level.trak(models),
                          map_payload_=mp, text_payload=text)
    world_tris = sum(len(models[t.model].faces) for t in tiles)
    return wad, {"scale": scale, "models": n_models, "tiles": n_tiles,
                 "world_triangles": world_tris, "pages": n_pages,
                 "bytes": len(wad)}


def tiny_eng_level_wad(scale: int = 1) -> tuple[bytes, dict]:
    """A small level for the harness self-test (seconds, not minutes)."""
    saved = dict(BASE)
    BASE.update(models=12, tiles=20, pages=2, entries=16, grid=6)
    try:
        return eng_level_wad(scale, seed=5)
    finally:
        BASE.update(saved)
