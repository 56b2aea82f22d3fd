"""The ENG sample level: an island of tiles with hills, a river, crates and
ramps, built with wadkit's own writers (wadkit.eng.new_level for the base
WAD, Level.with_geometry for the terrain). docs/samples.md says what is in
it and why."""
from __future__ import annotations

import numpy as np

from .. import eng
from .._eng_new import texture_entry, flat_entry
from . import _pages
from ._geom import Soup, box, QUAD_UV

GRID = 28            # cells a side
SUB = 5              # terrain quads per cell side
WATER_Y = -2.75      # the water plane (as model 0 of the original levels)
MATERIAL_WATER = 0x1E
SEA_FLOOR = -4.0
SUN = np.array([0.45, 0.8, 0.35]) / np.linalg.norm([0.45, 0.8, 0.35])
ZONE_SPLIT = GRID // 2

# texture pages: kind, what
PAGE_GRASS, PAGE_ROCK, PAGE_SAND, PAGE_CRATE, PAGE_WOOD = range(5)
RECTS = 4            # 4 × 4 sub-rectangles of 64 pixels on terrain pages


def _entries():
    """The texture table: 16 rectangles on each terrain page, the crate and
    wood pages whole, one flat colour. Returns (bytes, index dict)."""
    out, index = [], {}
    for page in (PAGE_GRASS, PAGE_ROCK, PAGE_SAND):
        index[page] = len(out)
        for j in range(RECTS):
            for i in range(RECTS):
                out.append(texture_entry(page, (64 * i, 64 * j, 64 * i + 63, 64 * j + 63)))
    for page in (PAGE_CRATE, PAGE_WOOD):
        index[page] = len(out)
        out.append(texture_entry(page))
    index["gold"] = len(out)
    out.append(flat_entry((230, 190, 40)))
    return b"".join(out), index


def _pages_and_palette(rng):
    """Five 256×256 pages: grass and rock 8-bit (one shared palette),
    sand 16-bit, crate and wood RLE16."""
    grass, grass_pal = _pages.palette_page(rng, (40, 90, 25), (120, 175, 60), 0, 128)
    rock, rock_pal = _pages.palette_page(rng, (80, 75, 70), (170, 165, 155), 128, 128)
    palette = _pages.rgba(np.concatenate([grass_pal, rock_pal]))
    n = _pages.noise(rng, 256, 16, 3)
    sand = _pages.rgba(_pages.ramp(n, (170, 150, 100), (235, 215, 160)))
    pages = [("pal8", grass), ("pal8", rock), ("rgb16", sand),
             ("rle16", _pages.crate(rng)), ("rle16", _pages.planks(rng))]
    return pages, [palette]


def _heights(rng) -> np.ndarray:
    """(N, N) heights of the terrain vertices, N = GRID·SUB + 1; index
    [z, x] at file position (x/SUB, z/SUB)."""
    n = GRID * SUB + 1
    z, x = np.mgrid[0:n, 0:n] / SUB
    c = GRID / 2
    ang = np.arctan2(z - c, x - c)
    wobble = sum(rng.uniform(0.02, 0.06) * np.cos(k * ang + rng.uniform(0, 2 * np.pi))
                 for k in (2, 3, 5))
    r = np.hypot(x - c, z - c) / (GRID * 0.42) + wobble
    land = 1 - r
    t = np.clip((land + 0.12) / 0.4, 0, 1)
    h = SEA_FLOOR + (1.2 - SEA_FLOOR) * t * t * (3 - 2 * t)
    hills = np.zeros_like(h)
    for _ in range(7):
        hx, hz = rng.uniform(c - 7, c + 7, 2)
        s = rng.uniform(1.8, 3.5)
        hills += rng.uniform(1.5, 4.0) * np.exp(-((x - hx) ** 2 + (z - hz) ** 2) / (2 * s * s))
    h += hills * np.clip(land / 0.3, 0, 1)
    # the river: from near the middle to the coast along a wavy line
    a0 = rng.uniform(0, 2 * np.pi)
    s = np.linspace(0, 1, 200)
    px = c + np.cos(a0) * s * GRID * 0.55 + np.sin(s * 9) * 1.2 * -np.sin(a0)
    pz = c + np.sin(a0) * s * GRID * 0.55 + np.sin(s * 9) * 1.2 * np.cos(a0)
    d = np.full_like(h, np.inf)
    for qx, qz in zip(px[::2], pz[::2]):
        d = np.minimum(d, np.hypot(x - qx, z - qz))
    bank = np.clip((d - 0.5) / 1.3, 0, 1)
    bank = bank * bank * (3 - 2 * bank)
    h = np.minimum(h, -3.4 * (1 - bank) + h * bank)
    return h.astype(np.float64)


def _light(normals: np.ndarray, under: np.ndarray | None = None) -> np.ndarray:
    """RGBA 0..1 (1.0 = the game's 0x80) from a sun and a sky term."""
    nd = np.clip(normals @ SUN, 0, 1)
    k = 0.42 + 0.58 * nd
    if under is not None:
        k = np.where(under, k * 0.65, k)
    col = np.empty(k.shape + (4,), np.float32)
    col[..., 0] = k
    col[..., 1] = k * 0.97
    col[..., 2] = k * 0.9
    col[..., 3] = 1
    return col


def _terrain(h: np.ndarray, idx: dict):
    """Shared-vertex terrain: positions, triangles, uv, colour, texture of
    every terrain quad with a corner above the sea floor's fade."""
    n = h.shape[0]
    z, x = np.mgrid[0:n, 0:n] / SUB
    pos = np.stack([x, h, z], -1).reshape(-1, 3)
    gz, gx = np.gradient(h, 1 / SUB)
    nrm = np.stack([-gx, np.ones_like(h), -gz], -1)
    nrm /= np.linalg.norm(nrm, axis=-1, keepdims=True)
    vcol = _light(nrm, h < WATER_Y).reshape(-1, 4)
    jj, ii = np.mgrid[0:n - 1, 0:n - 1]
    v00 = (jj * n + ii).ravel()
    v10, v01, v11 = v00 + 1, v00 + n, v00 + n + 1
    hq = np.stack([h[:-1, :-1], h[:-1, 1:], h[1:, :-1], h[1:, 1:]], -1).reshape(-1, 4)
    keep = hq.max(1) > WATER_Y - 0.6
    mean = hq.mean(1)
    slope = (hq.max(1) - hq.min(1)) * SUB
    kind = np.where(mean < 0.35, PAGE_SAND, np.where(slope > 2.2, PAGE_ROCK, PAGE_GRASS))
    sub = (jj % RECTS * RECTS + ii % RECTS).ravel()
    tex = np.array([idx[k] for k in kind]) + sub
    rect = np.stack([ii % RECTS, jj % RECTS, ii % RECTS + 1, jj % RECTS + 1], -1)
    rect = rect.reshape(-1, 4) * (64 / 256)
    # (p00, p11, p10) and (p11, p00, p01): up-facing, UVs QUAD_UV
    tris = np.stack([np.stack([v00, v11, v10], -1), np.stack([v11, v00, v01], -1)], 1)
    uv = np.empty((len(v00), 2, 3, 2), np.float32)
    uv[:] = QUAD_UV
    u0, vv0, u1, vv1 = (rect[:, k, None, None] for k in range(4))
    uv[..., 0] = u0 + uv[..., 0] * (u1 - u0)
    uv[..., 1] = vv0 + uv[..., 1] * (vv1 - vv0)
    tris, uv = tris[keep].reshape(-1, 3), uv[keep].reshape(-1, 3, 2)
    tex = np.repeat(tex[keep], 2)
    return pos, tris.astype(np.uint32), uv, vcol[tris], tex.astype(np.int32)


def _props(rng, h, idx, soup: Soup):
    """Crates and ramps on dry ground, levelled under them (h is changed
    in place); returns their (x, z) spots."""
    c = GRID / 2
    spots = []
    tries = 0
    light = lambda n: _light(np.asarray(n, np.float64))
    while len(spots) < 14 and tries < 2000:
        tries += 1
        x, z = rng.uniform(c - 9, c + 9, 2)
        x0, x1, z0, z1 = x - 1.0, x + 1.0, z - 0.6, z + 0.6
        rows = slice(int(z0 * SUB), int(z1 * SUB) + 2)
        cols = slice(int(x0 * SUB), int(x1 * SUB) + 2)
        area = h[rows, cols]
        if area.min() < 0.6 or area.max() - area.min() > 1.5:
            continue
        if any(np.hypot(x - sx, z - sz) < 2.4 for sx, sz in spots):
            continue
        spots.append((x, z))
        ground = float(np.round(area.mean() * 16) / 16)
        h[rows, cols] = ground      # level the ground under the prop
        if len(spots) % 3:      # a crate, sometimes two stacked
            s = 0.4
            box(soup, (x - s, ground, z - s), (x + s, ground + 2 * s, z + s),
                (0, 0, 1, 1), light, idx[PAGE_CRATE])
            if len(spots) % 3 == 2:
                box(soup, (x - 0.3, ground + 0.8, z - 0.3), (x + 0.3, ground + 1.4, z + 0.3),
                    (0, 0, 1, 1), light, idx[PAGE_CRATE])
        else:                   # every third spot: a ramp rising along +x
            _ramp(soup, x - 1.0, ground, z - 0.5, 2.0, 1.0, 0.8, idx[PAGE_WOOD], light)
    return spots


def _ramp(soup, x, y, z, length, width, height, tex, light):
    p = lambda dx, dy, dz: (x + dx, y + dy, z + dz)
    up = np.array([-height, length, 0.0])
    up /= np.linalg.norm(up)
    soup.quad(p(0, 0, 0), p(length, height, 0), p(0, 0, width), p(length, height, width),
              (0, 0, 1, 1), light(up), tex, up)
    back = np.array([1.0, 0, 0])
    soup.quad(p(length, 0, 0), p(length, height, 0), p(length, 0, width),
              p(length, height, width), (0, 0, 1, 1), light(back), tex, back)
    for dz, n in ((0, (0, 0, -1.0)), (width, (0, 0, 1.0))):
        soup.tri(p(0, 0, dz), p(length, 0, dz), p(length, height, dz), (0, 0, 1, 1),
                 light(n), tex, np.array(n))


def _water(h) -> tuple[np.ndarray, np.ndarray]:
    """One quad at WATER_Y per cell where the terrain dips below it (or is
    not drawn): collision positions (4P,3), polygons (P,4)."""
    low = np.zeros((GRID, GRID), bool)
    for cz in range(GRID):
        for cx in range(GRID):
            blk = h[cz * SUB:(cz + 1) * SUB + 1, cx * SUB:(cx + 1) * SUB + 1]
            low[cz, cx] = blk.min() < WATER_Y + 0.05
    cz, cx = np.nonzero(low)
    # corners turning the way the terrain's triangles do: p00 p01 p11 p10
    # (file order); the far edges stop 1/512 short of the next cell so that
    # each quad lies in its own cell only
    e = 1 - 1 / 512
    off = np.array([[0, 0], [0, e], [e, e], [e, 0]], np.float64)
    pos = np.empty((len(cx), 4, 3), np.float32)
    pos[..., 0] = cx[:, None] + off[:, 0]
    pos[..., 1] = WATER_Y
    pos[..., 2] = cz[:, None] + off[:, 1]
    poly = np.arange(4 * len(cx), dtype=np.int32).reshape(-1, 4)
    return pos.reshape(-1, 3), poly


def _objects(idx):
    """STPC object models: a crate, a gem (flat gold), a signpost."""
    objs = []
    for build in (_obj_crate, _obj_gem, _obj_sign):
        soup = Soup()
        build(soup, idx)
        pos, tri, uv, _col, tex = soup.arrays()
        objs.append({"positions": pos, "triangles": tri, "uv": uv, "texture": tex})
    return objs


def _obj_crate(soup, idx):
    box(soup, (-0.5, 0, -0.5), (0.5, 1, 0.5), (0, 0, 1, 1), lambda n: (1, 1, 1, 1),
        idx[PAGE_CRATE], bottom=True)


def _obj_gem(soup, idx):
    tips = [np.array([0, 0.6, 0.0]), np.array([0, -0.6, 0.0])]
    ring = [np.array([np.cos(a) * 0.35, 0, np.sin(a) * 0.35])
            for a in np.linspace(0, 2 * np.pi, 7)[:-1]]
    for tip in tips:
        for k in range(6):
            a, b = ring[k], ring[(k + 1) % 6]
            out = (a + b) / 2 + tip * 0.5
            soup.tri(tip, a, b, (0, 0, 1, 1), (1, 1, 1, 1), idx["gold"], out)


def _obj_sign(soup, idx):
    box(soup, (-0.06, 0, -0.06), (0.06, 1.2, 0.06), (0, 0, 1, 1), lambda n: (1, 1, 1, 1),
        idx[PAGE_WOOD])
    box(soup, (-0.5, 0.8, -0.04), (0.5, 1.15, 0.04), (0, 0, 1, 1), lambda n: (1, 1, 1, 1),
        idx[PAGE_WOOD])


def _zones():
    """Four quadrant zones that see each other (the island is small
    enough to see whole), heights 0."""
    table = np.zeros((32, 2), np.uint32)
    table[:4, 0] = 0xF
    g = np.arange(GRID)
    grid = (g[:, None] >= ZONE_SPLIT) * 2 + (g[None, :] >= ZONE_SPLIT)
    return table, grid.astype(np.uint32)


def build(seed: int = 0) -> eng.Level:
    """The ENG sample level as a parsed Level (not yet saved)."""
    rng = np.random.default_rng(seed)
    entries, idx = _entries()
    pages, palettes = _pages_and_palette(rng)
    table, grid = _zones()
    base = eng.new_level(GRID, GRID, pages, palettes, entries, _objects(idx),
                         zone_table=table, zone_grid=grid)
    h = _heights(rng)
    soup = Soup()
    _props(rng, h, idx, soup)
    pos, tri, uv, col, tex = _terrain(h, idx)
    ppos, ptri, puv, pcol, ptex = soup.arrays()
    tri = np.concatenate([tri, ptri + len(pos)])
    pos = np.concatenate([pos, ppos]).astype(np.float32)
    uv = np.concatenate([uv, puv])
    col = np.concatenate([col, pcol])
    tex = np.concatenate([tex, ptex])
    wpos, wpoly = _water(h)
    cpos = np.concatenate([pos, wpos])
    cpoly = np.concatenate([np.hstack([tri.astype(np.int32),
                                       np.full((len(tri), 1), -1, np.int32)]),
                            wpoly + len(pos)])
    cmat = np.concatenate([np.zeros(len(tri), np.uint8),
                           np.full(len(wpoly), MATERIAL_WATER, np.uint8)])
    return base.with_geometry(pos, tri, uv, tex, color=col,
                              collision=(cpos, cpoly, cmat), zones="keep")
