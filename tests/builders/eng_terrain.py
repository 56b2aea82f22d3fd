"""A terrain level built from the spec with the plain-Python builders (never
wadkit's writers): one tile per cell, each a height-field patch of
SUB × SUB quads in tile-local coordinates with its collision triangles,
tiles turned by 0/1024/2048/3072 as in the originals, models shared between
tiles where their patches are equal, a water plane (model 0, material
0x1e) and one tile swap. Heights come from one world function, so patches
meet at the cell lines whatever their rotation.

Spaces (docs/formats/eng.md "Coordinate spaces"): stored vertices are export space (z of
file space negated); the tile transform turns a local export point by
a = rot/4096·2π about y; collision is tile-local game (= file) space."""
from __future__ import annotations

import math
import random

from . import eng_collision, eng_level

SUB = 4
WATER_Y = -2.75


def height(x: float, z: float) -> float:
    """World height at file-space (x, z)."""
    return 0.6 * math.sin(x * 0.9) * math.cos(z * 0.7) + 0.15 * math.sin(x * 2.3 + z)


def _rot(rot):
    """cos, sin of a quarter-turn rotation, exact."""
    return {0: (1, 0), 1024: (0, 1), 2048: (-1, 0), 3072: (0, -1)}[rot]


def local_to_world_file(cx, cz, rot, vx, vz):
    """File-space (x, z) of a local EXPORT point (vx, vz) of the tile at cell
    (cx, cz) centre, by the spec's transform (export z = −file z)."""
    c, s = _rot(rot)
    x_e = (cx + 0.5) + vx * c - vz * s
    z_e = -(cz + 0.5) + vx * s + vz * c
    return x_e, -z_e


def patch(cx, cz, rot, y0, entries=(0, 1)):
    """The model of one tile: (verts, faces, collision records, groups)."""
    n = SUB + 1
    verts = []
    for j in range(n):
        for i in range(n):
            vx, vz = -0.5 + i / SUB, -0.5 + j / SUB
            x, z = local_to_world_file(cx, cz, rot, vx, vz)
            verts.append((vx, height(x, z) - y0, vz, 0.0, 1.0, 0.0))
    faces, coll = [], b""
    for j in range(SUB):
        for i in range(SUB):
            quad = [j * n + i, j * n + i + 1, (j + 1) * n + i + 1, (j + 1) * n + i]
            for tri in ((quad[0], quad[1], quad[2]), (quad[0], quad[2], quad[3])):
                # file-space corners (x, y, −z_export) turning up (+y)
                f = [(verts[v][0], verts[v][1], -verts[v][2]) for v in tri]
                e1 = [f[1][k] - f[0][k] for k in range(3)]
                e2 = [f[2][k] - f[0][k] for k in range(3)]
                up = e1[2] * e2[0] - e1[0] * e2[2]
                if up < 0:
                    tri = (tri[0], tri[2], tri[1])
                    f = [f[0], f[2], f[1]]
                # stored (export) order = file corners (0, 2, 1)
                faces.append((0x800, tri[0], tri[2], tri[1],
                              entries[(i + j) % len(entries)]))
                coll += eng_collision.polygon(f)
    # bit 0x8 starts a render batch: at the first face and at each page change
    faces = [(fl | (8 if k == 0 or faces[k - 1][4] != tex else 0), a, b, c, tex)
             for k, (fl, a, b, c, tex) in enumerate(faces)]
    return verts, faces, coll, (len(coll) // 32, 0, 0)


def crate(size=0.3, y=0.0):
    """A box model (8 vertices, 12 faces, its top as one collision quad) in
    tile-local export space; the base of the box at local y."""
    h = size / 2
    v = [(x, y + yy, z, 0.0, 1.0, 0.0) for yy in (0, size) for z in (-h, h) for x in (-h, h)]
    quads = [(4, 5, 7, 6), (0, 2, 3, 1), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2),
             (1, 3, 7, 5)]
    faces = []
    for k, (a, b, c, d) in enumerate(quads):
        faces += [(0x808 if k == 0 else 0x800, a, b, c, 1), (0x810, a, c, d, 1)]
    top = [(-h, y + size, h), (h, y + size, h), (h, y + size, -h), (-h, y + size, -h)]
    # game space: z negated; counter-clockwise seen from above
    top = [(p[0], p[1], -p[2]) for p in top][::-1]
    return eng_level.Model(v, faces, eng_collision.polygon(top), (1, 0, 0))


def terrain_level(grid=8, seed=1, shared=True, swap=True, water_border=True,
                  crates=3):
    """(wad bytes, facts). water_border: the cells on the border are water
    (model 0 only); else only cell (0, 0) is, and rotated patches end on
    the grid's own edges."""
    rnd = random.Random(seed)
    water = eng_level.Model([(-0.5, WATER_Y, -0.5, 0, 1, 0), (0.5, WATER_Y, -0.5, 0, 1, 0),
                             (0.5, WATER_Y, 0.5, 0, 1, 0), (-0.5, WATER_Y, 0.5, 0, 1, 0)],
                            [], eng_collision.polygon(
                                [(-0.5, WATER_Y, -0.5), (-0.5, WATER_Y, 0.5),
                                 (0.5, WATER_Y, 0.5), (0.5, WATER_Y, -0.5)],
                                material=0x1E), (1, 0, 0))
    models, tiles, keys = [water], [], {}
    rots = {}
    for cz in range(grid):
        for cx in range(grid):
            if (cx, cz) == (0, 0) or (water_border
                                      and (cx in (0, grid - 1) or cz in (0, grid - 1))):
                tiles.append((cx, cz, 0, 0, 0.0))
                continue
            rot = rnd.choice((0, 1024, 2048, 3072))
            y0 = round(height(cx + 0.5, cz + 0.5) * 16) / 16
            verts, faces, coll, groups = patch(cx, cz, rot, y0)
            key = (tuple(verts), tuple(faces)) if shared else len(models)
            if key not in keys:
                keys[key] = len(models)
                models.append(eng_level.Model(verts, faces, coll, groups))
            rots[(cx, cz)] = rot
            tiles.append((cx, cz, rot, keys[key], y0))
    if crates:
        # one crate model shared by several tiles, turned, on the terrain
        ci = len(models)
        models.append(crate())
        for k in range(crates):
            cx, cz = 1 + (3 * k) % max(grid - 2, 1), 1 + (5 * k) % max(grid - 2, 1)
            tiles.append((cx, cz, (1024 * k) % 4096, ci,
                          round(height(cx + 0.5, cz + 0.5) * 16) / 16 + 0.5))
    map_tiles, swaps, anim_done = [], [], False
    for cx, cz, rot, mi, y0 in tiles:
        nv = len(models[mi].verts)
        cols = [[(60 + 3 * (v % 40), 100, 0x80 - v % 50, 0) for v in range(nv)]]
        anim, cb = 0, b""
        if swap and mi and not anim_done and cx > 2:
            anim, anim_done = 1, True
            swaps.append((cx, 7, cz, mi, 0))
            cb = eng_level.color_block(len(water.verts), [[(5, 6, 7, 0)] * 4])
        map_tiles.append(eng_level.Tile(cx + 0.5, y0, -(cz + 0.5), rot, mi, anim,
                                        eng_level.color_block(nv, cols), cb))
    mp = eng_level.map_payload(grid, grid, map_tiles, strat_list=[4, 5], records90=1,
                               paths34=2, grid=[(x * 7) % 4 for x in range(grid * grid)],
                               swaps=swaps if swap else None,
                               rest=b"STRATS-AND-PATHS" * 4)
    text = eng_level.text_table([(0, 0, -1, 0, 63, 0, 63), (0, 1, -1, 64, 127, 0, 63),
                                 (1, 0, -1, 200, 100, 50, 255)])
    wad = eng_level.level(wfpc=0x10000 if swap else 0,
                          trak_payload=eng_level.trak(models), map_payload_=mp,
                          text_payload=text, stpc_payload=eng_level.stpc([], [], tail=b"x"))
    return wad, {"grid": grid, "models": len(models), "tiles": len(map_tiles),
                 "rotations": rots, "swaps": len(swaps)}
