"""The RC2 sample's class meshes and sky, as NumPy arrays for wadkit's
writers (wadkit.rc2.build_tie_class, build_shrub_class, build_moby_class,
build_sky): six tie classes (crates, a rock, a pillar, a barrel, a wall),
three shrub classes (grass, a bush, a fern), three moby classes (a bolt
crate, a gem, a lamp post) and two sky shells. Class space: metres,
Z up, the base at z = 0. docs/samples.md says what is in the level."""
from __future__ import annotations

import numpy as np

# ---- ties: strips [(indices, texture slot)] over positions / uv -------------


class _Strips:
    def __init__(self):
        self.pos, self.uv, self.strips = [], [], []

    def strip(self, pts, uvs, slot=0):
        base = len(self.pos)
        self.pos.extend(pts)
        self.uv.extend(uvs)
        self.strips.append((np.arange(base, base + len(pts)), slot))

    def quad(self, a, b, c, d, slot=0, uv=((0, 0), (1, 0), (1, 1), (0, 1))):
        """Corners counter-clockwise seen from the front: strip a b d c."""
        self.strip([a, b, d, c], [uv[0], uv[1], uv[3], uv[2]], slot)

    def tri(self, a, b, c, slot=0, uv=((0, 0), (1, 0), (0.5, 1))):
        self.strip([a, b, c], list(uv), slot)

    def arrays(self):
        return (np.array(self.pos, np.float32), np.array(self.uv, np.float32),
                self.strips)


def _box(sx, sy, sz, slot=0, tiles=1.0):
    s = _Strips()
    x, y = sx / 2, sy / 2
    c = [(-x, -y, 0), (x, -y, 0), (x, y, 0), (-x, y, 0),
         (-x, -y, sz), (x, -y, sz), (x, y, sz), (-x, y, sz)]
    u, v = tiles * max(sx, sy) / max(sz, 1e-6), tiles
    uv = ((0, 0), (u, 0), (u, v), (0, v))
    for f in ((4, 5, 6, 7), (3, 2, 1, 0), (0, 1, 5, 4), (1, 2, 6, 5),
              (2, 3, 7, 6), (3, 0, 4, 7)):
        s.quad(*(c[i] for i in f), slot=slot, uv=uv)
    return s.arrays()


def _cylinder(r, h, sides, slot=0, cap_slot=None):
    """An outward band strip (t0 b0 t1 b1 …) and two capping fans as
    triangles."""
    s = _Strips()
    a = np.linspace(0, 2 * np.pi, sides + 1)
    pts, uvs = [], []
    for i, t in enumerate(a):
        x, y = r * np.cos(t), r * np.sin(t)
        pts += [(x, y, h), (x, y, 0)]
        uvs += [(2 * i / sides, 1), (2 * i / sides, 0)]
    s.strip(pts, uvs, slot)
    cap = slot if cap_slot is None else cap_slot
    for i in range(sides):
        p = [(r * np.cos(a[k]), r * np.sin(a[k])) for k in (i, i + 1)]
        s.tri((0, 0, h), (*p[0], h), (*p[1], h), cap)
        s.tri((0, 0, 0), (*p[1], 0), (*p[0], 0), cap)
    return s.arrays()


def _rock(rng, r):
    """A lumpy icosahedron, one 3-vertex strip per face."""
    t = (1 + 5 ** 0.5) / 2
    v = np.array([(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
                  (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)],
                 np.float64)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    v *= r * rng.uniform(0.75, 1.15, (12, 1)) * np.array([1.2, 1.0, 0.7])
    v[:, 2] += r * 0.45
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9),
             (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2),
             (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10),
             (8, 6, 7), (9, 8, 1)]
    s = _Strips()
    for f in faces:
        # icosahedron faces above are counter-clockwise from outside
        s.tri(*(tuple(v[i]) for i in f), uv=((0, 0), (1.5, 0), (0.75, 1.3)))
    return s.arrays()


# (name, class number, builder, texture names); slot k samples the k-th
TIE_CLASSES = (
    ("crate", 1001, lambda rng: _box(1.6, 1.6, 1.6), ("crate",)),
    ("tall crate", 1002, lambda rng: _box(1.2, 1.2, 2.4, tiles=2.0), ("crate",)),
    ("rock", 1003, lambda rng: _rock(rng, 1.4), ("stone",)),
    ("pillar", 1004, lambda rng: _cylinder(0.5, 4.0, 8, 0, 1), ("stone", "metal")),
    ("barrel", 1005, lambda rng: _cylinder(0.55, 1.2, 12, 0), ("metal",)),
    ("wall", 1006, lambda rng: _box(4.0, 0.6, 1.8, tiles=1.0), ("stone",)),
)


# ---- shrubs: triangles with vertex normals ---------------------------------

def _card(pos, uv, nrm, tri, tex, corners, slot):
    """A double-sided quad: two triangles each way, normals ±."""
    a, b, c, d = (np.asarray(p, np.float64) for p in corners)
    n = np.cross(b - a, d - a)
    n /= np.linalg.norm(n)
    uvs = ((0, 0), (1, 0), (1, 1), (0, 1))
    for sign, order in ((1, (0, 1, 2, 0, 2, 3)), (-1, (0, 2, 1, 0, 3, 2))):
        base = len(pos)
        pos.extend([a, b, c, d])
        uv.extend(uvs)
        nrm.extend([sign * n] * 4)
        tri.extend([(base + order[k], base + order[k + 1], base + order[k + 2])
                    for k in (0, 3)])
        tex.extend([slot, slot])


def _crossed(cards, width, height, slot, tilt=0.0, lift=0.0):
    pos, uv, nrm, tri, tex = [], [], [], [], []
    for k in range(cards):
        t = np.pi * k / cards
        dx, dy = np.cos(t) * width / 2, np.sin(t) * width / 2
        ox, oy = -np.sin(t) * tilt, np.cos(t) * tilt
        _card(pos, uv, nrm, tri, tex,
              [(-dx, -dy, lift), (dx, dy, lift), (dx + ox, dy + oy, height),
               (-dx + ox, -dy + oy, height)], slot)
    return pos, uv, nrm, tri, tex


def _fern():
    pos, uv, nrm, tri, tex = [], [], [], [], []
    for k in range(5):
        t = 2 * np.pi * k / 5
        d = np.array([np.cos(t), np.sin(t), 0.0])
        side = np.array([-np.sin(t), np.cos(t), 0.0]) * 0.18
        tip = d * 0.9 + (0, 0, 0.55)
        _card(pos, uv, nrm, tri, tex, [side * 0.3, -side * 0.3, tip - side, tip + side], 0)
    return pos, uv, nrm, tri, tex


SHRUB_CLASSES = (
    ("grass", 2001, lambda: _crossed(3, 0.9, 0.6, 0), ("grass",)),
    ("bush", 2002, lambda: _crossed(4, 1.6, 1.3, 0, tilt=0.15), ("leaves",)),
    ("fern", 2003, _fern, ("leaves",)),
)


def shrub_arrays(make):
    pos, uv, nrm, tri, tex = make()
    return (np.array(pos, np.float32), np.array(uv, np.float32),
            np.array(nrm, np.float32), np.array(tri, np.uint32), np.array(tex, np.uint8))


# ---- mobys: triangles with vertex normals -----------------------------------

def triangles(pos, uv, strips):
    """Strips (GS order: odd triangles reversed) as triangles, with flat
    normals: (positions, uv, normals, triangles, texture slots), every
    triangle its own three vertices."""
    tri, slot = [], []
    for idx, s in strips:
        for k in range(len(idx) - 2):
            a, b, c = idx[k], idx[k + 1], idx[k + 2]
            tri.append((a, b, c) if k % 2 == 0 else (c, b, a))
            slot.append(s)
    corners = np.array(tri).ravel()
    p = pos[corners].reshape(-1, 3, 3).astype(np.float64)
    n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    return (pos[corners].astype(np.float32), uv[corners].astype(np.float32),
            np.repeat(n, 3, axis=0).astype(np.float32),
            np.arange(len(corners), dtype=np.uint32).reshape(-1, 3),
            np.array(slot, np.uint8))


def _gem():
    s = _Strips()
    r, h = 0.35, 0.5
    ring = [(r * np.cos(a), r * np.sin(a), h) for a in np.linspace(0, 2 * np.pi, 7)[:-1]]
    for i in range(6):
        a, b = ring[i], ring[(i + 1) % 6]
        s.tri(a, b, (0, 0, 2 * h))
        s.tri(b, a, (0, 0, 0))
    return s.arrays()


def _lamp():
    pos, uv, strips = _cylinder(0.08, 2.2, 6, 0)
    s = _Strips()
    s.pos, s.uv, s.strips = list(pos), list(uv), list(strips)
    top = _box(0.45, 0.45, 0.35)
    base = len(s.pos)
    s.pos += [p + np.array([0, 0, 2.2]) for p in top[0]]
    s.uv += list(top[1])
    s.strips += [(i + base, 1) for i, _ in top[2]]
    return s.arrays()


# (name, class number, builder, texture names): meshes as strips, written
# as triangles with flat normals
MOBY_CLASSES = (
    ("bolt crate", 3001, lambda rng: _box(0.9, 0.9, 0.9), ("crate",)),
    ("gem", 3002, lambda rng: _gem(), ("metal",)),
    ("lamp post", 3003, lambda rng: _lamp(), ("metal", "crate")),
)


# ---- sky ------------------------------------------------------------------

def _dome(radius, rings, sides, lo, hi, below=-0.15):
    """A dome seen from inside: `rings` rings of `sides` vertices from
    `below` (radians under the horizon) upwards and an apex, colours
    ramping from lo (horizon) to hi (zenith)."""
    pos, col = [], []

    def colour(e):
        k = max(0.0, e) / (np.pi / 2)
        return (*np.rint(np.asarray(lo) * (1 - k) + np.asarray(hi) * k), 255)
    for e in np.linspace(below, np.pi / 2, rings + 1)[:-1]:
        for i in range(sides):
            a = 2 * np.pi * i / sides
            pos.append((radius * np.cos(e) * np.cos(a), radius * np.cos(e) * np.sin(a),
                        radius * np.sin(e)))
            col.append(colour(e))
    apex = len(pos)
    pos.append((0.0, 0.0, radius))
    col.append(colour(np.pi / 2))
    tri = []
    for r in range(rings):
        for i in range(sides):
            a, b = r * sides + i, r * sides + (i + 1) % sides
            if r == rings - 1:
                tri.append((a, apex, b))
                continue
            c, d = a + sides, b + sides
            # counter-clockwise seen from the centre
            tri += [(a, c, b), (b, c, d)]
    n = len(pos)
    return (np.array(pos, np.float32), np.array(col, np.uint8),
            np.full(n, 0x80, np.int16), np.array(tri, np.uint32))


def _haze(radius, sides, warm, height):
    """A band round the horizon, opaque at the bottom, fading upwards;
    warmer towards +x (where the sun sets)."""
    pos, col, alpha = [], [], []
    for z, a_v in ((-1.0, 0x80), (height, 0x10)):
        for i in range(sides):
            a = 2 * np.pi * i / sides
            w = 0.5 + 0.5 * np.cos(a)
            c = np.asarray((200, 212, 228)) * (1 - w) + np.asarray(warm) * w
            pos.append((radius * np.cos(a), radius * np.sin(a), z))
            col.append((*np.rint(c), 255))
            alpha.append(a_v)
    tri = []
    for i in range(sides):
        a, b = i, (i + 1) % sides
        tri += [(a, a + sides, b), (b, a + sides, b + sides)]
    return (np.array(pos, np.float32), np.array(col, np.uint8),
            np.array(alpha, np.int16), np.array(tri, np.uint32))


def sky_shells():
    return [_dome(30.0, 8, 16, (170, 200, 230), (45, 90, 175)),
            _haze(28.0, 24, (240, 205, 170), 2.5)]
