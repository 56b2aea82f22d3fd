"""ENG collision records, built from the spec (docs/formats/eng-collision.md,
"The record" and "The floor test") with struct and plain math only — never with
wadkit's own encoder.

Record, 32 bytes: u8 type, u8 material, 5 × {i8 nx, i8 ny, i8 nz, u8 0,
i16 d}. Plane 0 is the surface, planes 1..4 the edges (normals inwards).
Type bit 0 = quad. The engine's plane is (n/127)·p = d/4064, p in units.

The corner convention this builder uses (and the spec's needle example
follows): edge plane j (plane 1+j) runs from corner j-1 to corner j, so
corner i lies on edge planes i and i+1; the surface faces along the
right-hand normal of the corner order.
"""
from __future__ import annotations

import math
import struct

RECORD = struct.Struct("<BB" + "bbbBh" * 5)
assert RECORD.size == 32


def record(type_: int, material: int, planes, pad=(0, 0, 0, 0, 0)) -> bytes:
    """planes: up to 5 ((nx, ny, nz), d); missing planes are zero."""
    planes = list(planes) + [((0, 0, 0), 0)] * (5 - len(planes))
    fields = [type_, material]
    for k, ((nx, ny, nz), d) in enumerate(planes):
        fields += [nx, ny, nz, pad[k], d]
    return RECORD.pack(*fields)


def unpack(raw: bytes):
    """(type, material, [((nx, ny, nz), d)] × 5) of one record."""
    f = RECORD.unpack(raw)
    planes = [((f[2 + 5 * k], f[3 + 5 * k], f[4 + 5 * k]), f[6 + 5 * k])
              for k in range(5)]
    return f[0], f[1], planes


def _sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0]]


def _unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def _q(u):
    return tuple(max(-127, min(127, int(round(127 * x)))) for x in u)


def _d(n, pts):
    """d for the engine's arithmetic: mean of 32·(n·p), rounded."""
    return int(round(sum(32 * sum(n[i] * p[i] for i in range(3))
                         for p in pts) / len(pts)))


def planes_from_corners(corners, surface=None):
    """The planes of a polygon given by its corners (tile-local game space).
    surface: force the i8 surface normal (e.g. one the spec states)."""
    c = [list(map(float, p)) for p in corners]
    n = len(c)
    if surface is None:
        u = _unit(_cross(_sub(c[1], c[0]), _sub(c[2], c[0])))
        sn = _q(u)
    else:
        sn = tuple(surface)
        u = _unit(sn)
    planes = [(sn, _d(sn, c))]
    for j in range(n):
        a, b = c[j - 1], c[j]
        en = _q(_unit(_cross(u, _sub(b, a))))
        planes.append((en, _d(en, [a, b])))
    return planes


def polygon(corners, material=0, surface=None, type_=None) -> bytes:
    planes = planes_from_corners(corners, surface)
    if type_ is None:
        type_ = (1 if len(corners) == 4 else 0) | (4 if planes[0][0][1] < 0 else 0)
    return record(type_, material, planes)


def world_to_local(p, b_pos, ry):
    """Game-space world point -> tile-local, for a tile at b_pos (units)
    rotated by ry (0..4095). From the spec's tile transform
    (docs/formats/eng.md "Coordinate spaces"), written in game space
    (z negated): world = B + (lx c + lz s, ly, −lx s + lz c)."""
    a = ry / 4096 * 2 * math.pi
    c, s = math.cos(a), math.sin(a)
    dx, dy, dz = p[0] - b_pos[0], p[1] - b_pos[1], p[2] - b_pos[2]
    return (dx * c - dz * s, dy, dx * s + dz * c)


def local_to_world(p, b_pos, ry):
    a = ry / 4096 * 2 * math.pi
    c, s = math.cos(a), math.sin(a)
    return (b_pos[0] + p[0] * c + p[2] * s, b_pos[1] + p[1],
            b_pos[2] - p[0] * s + p[2] * c)


def tile_arrays(tiles):
    """tiles: [(bx, by, bz, ry, model)] in units (game space) ->
    (a_xyz, b, model) lists as the MAP stores them: A = (x, y, −z) floats,
    B = (0, ry, 0, x, y, z) in 20.12."""
    a, b, m = [], [], []
    for bx, by, bz, ry, model in tiles:
        a.append((bx, by, -bz))
        b.append((0, ry, 0, round(bx * 4096), round(by * 4096), round(bz * 4096)))
        m.append(model)
    return a, b, m
