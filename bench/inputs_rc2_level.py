"""A whole generated RC2 level for the write-back rows: the spec builders'
800-patch terrain, 2,000 ties of 40 classes, 2,000 shrubs, 200 mobys
(tests/builders/rc2_full.generated) and a 20,000-quad heightfield
collision laid out by the spec builder (each quad in the 4 m octant of its
first corner: a valid block for reading, timing and rewriting). Streams by
the builder's greedy encoder, as a level made elsewhere would have."""
from __future__ import annotations

import math

from . import inputs  # noqa: F401  (puts tests/ on sys.path)
from builders import rc2_full as F  # noqa: E402
from builders import wadlz  # noqa: E402


def heightfield_octants(side: int = 142) -> dict:
    """side x side quads of 1 m (about 20,000), z a gentle wave."""
    octs: dict = {}
    for j in range(side):
        for i in range(side):
            key = (i // 4, j // 4, 0)
            verts, faces = octs.setdefault(key, ([], []))
            cx, cy = 4 * key[0] + 2, 4 * key[1] + 2
            corner = []
            for dx, dy in ((0, 0), (1, 0), (1, 1), (0, 1)):
                x, y = i + dx, j + dy
                z = 1.5 * math.sin(x / 7) * math.cos(y / 9)
                v = (int((x - cx) * 16), int((y - cy) * 16), int(round((z - 2) * 64)))
                if v not in verts:
                    verts.append(v)
                corner.append(verts.index(v))
            faces.append((corner[2], corner[1], corner[0], corner[3], (i + j) % 8))
    return octs


def level(patches: int = 800, quick: bool = False) -> bytes:
    data, _ = F.level(F.terrain(patches), *_gameplay(quick),
                      octants=heightfield_octants(20 if quick else 142),
                      tfrag_slack=0x8000, collision_slack=0x1000,
                      compress=wadlz.greedy_compress)
    return data


def _gameplay(quick: bool):
    from builders import rc2_core, rc2_gameplay as G
    g = G.generated(16, ties=200 if quick else 2000, shrubs=200 if quick else 2000,
                    mobys=50 if quick else 200)
    return g, rc2_core.generated_classes(g["classes"])
