"""Whole RC2 levels from the spec builders, for the write-back tests and
the benchmark: tfrag patches (with free bytes after them in their region,
as Wrench leaves room for the other chunks), a collision block, gameplay
and core class tables. Plain Python; streams from builders.wadlz (or the
fast stored() layout)."""
from __future__ import annotations

import random
import struct

from . import rc2_collision as C
from . import rc2_core
from . import rc2_gameplay as G
from . import rc2_level as R
from . import tfrag as T

OCTANTS = {(1, 2, 0): ([(0, 0, 0), (16, 0, 0), (0, 16, 0), (16, 16, 64)],
                       [(0, 1, 3, 2, 5), (0, 1, 2, 9)]),
           (2, 2, 0): ([(-64, 0, 0), (-48, 0, 0), (-64, 16, 0)], [(0, 1, 2, 9)])}


# core_index 0xbc..0x100: the gs_ram table's one entry (not read), then the
# two tfrag texture entries the core header's defaults point at (0xc0): a
# 2x2 and a 4x2 8-bit texture at textures_base, palette 0
TEXTURES = (bytes(4) + struct.pack("<ihhhhhh", 0, 2, 2, 1, 0, 0, 0)
            + struct.pack("<ihhhhhh", 0x10, 4, 2, 1, 0, 0, 0) + bytes(0x20))


def terrain(n: int = 6, seed: int = 3) -> list[T.Patch]:
    """n grid patches side by side, some with LOD 1/2 reductions and two
    textures banded by row (textures 0 and 1)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ox, oy = (i % 30) * 8192, (i // 30) * 6144
        if i % 3 == 2:
            rows = [(0,), (None,), (1,), (None,)]
            out.append(T.banded_patch(ox, oy, rows, [0, 1], w=rng.randint(3, 6)))
        else:
            out.append(T.grid_patch(ox, oy, w=rng.randint(3, 6), h=4, texture=i % 2,
                                    lod_split=i % 3 == 1))
    for p in out:      # heights and colours that vary, as measured terrain does
        p.positions = [(x, y, z + rng.randint(-900, 900)) for x, y, z in p.positions]
        p.rgba = [tuple(rng.randint(0x30, 0x90) for _ in range(3)) + (0x80,) for _ in p.rgba]
        p.bsphere = sphere(p)
    return out


def sphere(p: T.Patch) -> tuple:
    """A bounding sphere that holds the patch: its box centre and the
    farthest vertex (the game culls by it)."""
    pts = [tuple((c + o) / 1024 for c, o in zip(v, p.origin)) for v in p.positions]
    lo = [min(q[a] for q in pts) for a in range(3)]
    hi = [max(q[a] for q in pts) for a in range(3)]
    c = [(lo[a] + hi[a]) / 2 for a in range(3)]
    r = max(sum((q[a] - c[a]) ** 2 for a in range(3)) ** 0.5 for q in pts)
    return (*c, r * 1.001)


def level(patches: list[T.Patch] | None = None, gameplay: dict | None = None,
          classes=None, octants=None, tfrag_slack: int = 0x800,
          collision_slack: int = 0x400, compress=R.stored, **kw) -> tuple[bytes, dict]:
    """(file bytes, {"patches", "gameplay" (builder fields), "classes",
    "octants", "where"})."""
    patches = terrain() if patches is None else patches
    g = G.sample() if gameplay is None else gameplay
    gp = G.layout(g["blocks"])
    cls = rc2_core.SAMPLE_CLASSES if classes is None else classes
    octs = OCTANTS if octants is None else octants
    tf = T.block(patches)
    core, fields = R.core_parts(tfrags=tf + bytes(tfrag_slack), sky=b"",
                                collision=C.block(octs) + bytes(collision_slack),
                                texels=bytes(128))
    data, where = R.whole_level(gp, cls, core=core, core_fields=fields,
                                compress=compress, index_head=TEXTURES, **kw)
    return data, {"patches": patches, "gameplay": g, "classes": cls, "octants": octs,
                  "where": where, "tfrags": tf}


def generated(n_patches: int = 800, seed: int = 16, compress=R.stored):
    """A level of the size issue 16 names: n patches, 40 tie classes /
    2,000 ties, 2,000 shrubs, 200 mobys (builders.rc2_gameplay.generated)."""
    g = G.generated(seed)
    classes = rc2_core.generated_classes(g["classes"])
    return level(terrain(n_patches, seed), g, classes, compress=compress,
                 tfrag_slack=0x4000)
