"""The RC2 sample level: rolling terrain of tfrag patches with three
paletted textures, ties, shrubs, mobys, collision, a sky and level
settings, every byte written by wadkit's own writers (wadkit.rc2.
build_tfrags, build_tie_class, build_shrub_class, build_sky,
build_collision, new_gameplay, build_level). The class meshes and the sky
are in _rc2_props.py. docs/samples.md says what is in it."""
from __future__ import annotations

import struct

import numpy as np

from .. import rc2
from . import _pages, _rc2_props as props

PATCHES = 8          # patches a side
QUADS = 8            # quads a patch side (81 vertices, 128 triangles)
STEP = 2.0           # units a quad side
UV_SCALE = 1 / 4.0   # texture repeats every 4 units
SUN = np.array([0.4, -0.3, 0.85]) / np.linalg.norm([0.4, -0.3, 0.85])
LEVEL_ID = 0
TEX_GRASS, TEX_ROCK, TEX_SAND = range(3)
WATER = -1.5          # the water plane's height (collision only)
TAG_GROUND, TAG_WATER = 0x0F, 0x0E   # "ground", "shallow water" (low 4 bits)
TIES, SHRUBS, MOBYS = 60, 200, 20
MOBY_CLASSES = tuple(c[1] for c in props.MOBY_CLASSES)
# class textures: 64 x 64 8-bit, each its own palette (lo, hi colours)
CLASS_TEXTURES = {"crate": ((95, 60, 28), (190, 140, 80)),
                  "stone": ((80, 78, 74), (170, 165, 150)),
                  "metal": ((60, 70, 85), (150, 165, 185)),
                  "grass": ((60, 110, 25), (150, 200, 70)),
                  "leaves": ((25, 70, 20), (90, 150, 50))}


def _textures(rng):
    """Three 64×64 8-bit textures, each with its own 256-colour palette."""
    pals = np.zeros((3, 256, 4), np.uint8)
    pals[..., 3] = 255
    tex = []
    for k, (lo, hi) in enumerate((((30, 80, 20), (110, 170, 60)),
                                  ((70, 65, 60), (175, 170, 160)),
                                  ((160, 140, 90), (235, 215, 160)))):
        idx, colours = _pages.palette_page(rng, lo, hi, 0, 256, size=64)
        pals[k, :, :3] = np.clip(np.rint(colours), 0, 255)
        tex.append((idx, k))
    return tex, pals


def _height(rng):
    """Height (Z) over the whole terrain, a function of (x, y)."""
    bumps = [(rng.uniform(0, PATCHES * QUADS * STEP, 2), rng.uniform(8, 24),
              rng.uniform(-6, 14)) for _ in range(12)]

    def h(x, y):
        z = 2.0 * np.sin(x * 0.07) * np.cos(y * 0.05)
        for (cx, cy), s, a in bumps:
            z = z + a * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * s * s))
        return z
    return h


def _patch(h, px: int, py: int) -> dict:
    n = QUADS + 1
    j, i = np.mgrid[0:n, 0:n]
    x = (px * QUADS + i) * STEP
    y = (py * QUADS + j) * STEP
    z = h(x, y)
    pos = np.stack([x, y, z], -1).reshape(-1, 3)
    e = 0.05
    nrm = np.stack([-(h(x + e, y) - h(x - e, y)) / (2 * e),
                    -(h(x, y + e) - h(x, y - e)) / (2 * e), np.ones_like(z)], -1)
    nrm /= np.linalg.norm(nrm, axis=-1, keepdims=True)
    k = 0.45 + 0.55 * np.clip(nrm @ SUN, 0, 1)
    color = np.stack([k, k * 0.97, k * 0.92, np.ones_like(k)], -1).reshape(-1, 4)
    uv = np.stack([i * STEP * UV_SCALE, j * STEP * UV_SCALE], -1).reshape(-1, 2)
    strips, textures = [], []
    slope = nrm[..., 2].reshape(n, n)
    for row in range(QUADS):
        # (row + 1, col), (row, col) alternately: the first triangle faces +Z
        s = np.empty(2 * n, np.uint32)
        s[0::2] = (row + 1) * n + np.arange(n)
        s[1::2] = row * n + np.arange(n)
        strips.append(s)
        zr = z[row:row + 2].mean()
        steep = slope[row:row + 2].min() < 0.9
        textures.append(TEX_SAND if zr < -1.0 else TEX_ROCK if steep or zr > 7
                        else TEX_GRASS)
    return {"positions": pos, "uv": uv, "color": color, "strips": strips,
            "textures": textures}


def _class_textures(rng):
    """{name: (pixels, palette colours (256, 3))}: noise ramps; the crate
    texture gets board lines and a frame."""
    out = {}
    for name, (lo, hi) in CLASS_TEXTURES.items():
        idx, colours = _pages.palette_page(rng, lo, hi, 1, 255, size=64)
        if name == "crate":
            idx[::16], idx[:, :4], idx[:, -4:], idx[:4], idx[-4:] = 1, 1, 1, 1, 1
        pal = np.zeros((256, 3))
        pal[1:] = colours
        pal[0] = np.asarray(lo) * 0.5
        out[name] = (idx, pal)
    return out


def _placements(rng, h, n, margin, min_z):
    """n spots (x, y, z on the ground) on dry land, and yaws."""
    size = PATCHES * QUADS * STEP
    out = []
    while len(out) < n:
        x, y = rng.uniform(margin, size - margin, 2)
        z = float(h(x, y))
        if z > min_z:
            out.append((x, y, z))
    return np.array(out), rng.uniform(0, 2 * np.pi, n)


def _matrices(spots, yaw, scale, sink=0.0):
    """Column-vector 4x4 matrices T(spot) Rz(yaw) S(scale)."""
    n = len(spots)
    m = np.zeros((n, 4, 4), np.float32)
    c, s = np.cos(yaw) * scale, np.sin(yaw) * scale
    m[:, 0, 0], m[:, 0, 1], m[:, 1, 0], m[:, 1, 1] = c, -s, s, c
    m[:, 2, 2] = scale
    m[:, :3, 3] = spots - (0, 0, sink)
    m[:, 3, 3] = 1
    return m


def _collision(h):
    """The terrain's quads as two triangles each (ground) and a water
    quad over every quad whose ground dips under the water plane."""
    n = PATCHES * QUADS + 1
    j, i = np.mgrid[0:n, 0:n]
    x, y = i * STEP, j * STEP
    z = h(x, y)
    pos = np.stack([x, y, z], -1).reshape(-1, 3)
    k = (j[:-1, :-1] * n + i[:-1, :-1]).ravel()
    tris = np.concatenate([np.stack([k, k + 1, k + n + 1], 1),
                           np.stack([k + n + 1, k + n, k], 1)])
    wet = (np.minimum.reduce([z[:-1, :-1], z[1:, :-1], z[:-1, 1:], z[1:, 1:]]) < WATER).ravel()
    q = np.flatnonzero(wet)
    wpos = pos[:, :2][np.stack([k[q], k[q] + 1, k[q] + n + 1, k[q] + n], 1)]
    wpos = np.concatenate([wpos.reshape(-1, 2), np.full((4 * len(q), 1), WATER)], 1)
    quads = np.arange(4 * len(q), dtype=np.uint32).reshape(-1, 4) + len(pos)
    allpos = np.concatenate([pos, wpos]).astype(np.float32)
    return rc2.build_collision(allpos, tris.astype(np.uint32),
                               np.full(len(tris), TAG_GROUND, np.uint8), quads,
                               np.full(len(quads), TAG_WATER, np.uint8))


def _gameplay(ties, shrubs, mobys) -> bytes:
    """Settings, class lists and instances (docs/formats/rc2-gameplay.md;
    written in C), after a tag and the patch grid (the
    sample's own bytes, no block points at them)."""
    tail = b"WADKIT-SAMPLE-GAMEPLAY\0\0" + struct.pack("<4i", PATCHES, PATCHES, QUADS, 0)
    return rc2.new_gameplay(
        tail,
        classes={"tie": [c[1] for c in props.TIE_CLASSES],
                 "shrub": [c[1] for c in props.SHRUB_CLASSES], "moby": MOBY_CLASSES},
        instances={"tie": ties, "shrub": shrubs, "moby": mobys},
        settings={"background_colour": (110, 150, 205), "fog_colour": (150, 170, 200),
                  # noclip's scale: world units x 1024 [assumed]
                  "fog_near_distance": 60 * 1024.0, "fog_far_distance": 220 * 1024.0,
                  "fog_near_intensity": 0.0, "fog_far_intensity": 160.0,
                  "death_height": -20.0})


def _classes(rng):
    """(classes for build_level, class_textures, gameplay class numbers)."""
    ctex = _class_textures(rng)
    names = list(CLASS_TEXTURES)
    pals = [ctex[n][1] for n in names]
    tie_tex = [n for n in names if n in ("crate", "stone", "metal")]
    shrub_tex = [n for n in names if n in ("grass", "leaves")]
    moby_tex = [n for n in names if n in ("crate", "metal")]
    classes = {"tie": [], "shrub": [], "moby": []}
    for _, cid, make, tex in props.TIE_CLASSES:
        pos, uv, strips = make(rng)
        data = rc2.build_tie_class(pos, uv, strips, cid, (40.0, 80.0, 160.0))
        classes["tie"].append((cid, data, [tie_tex.index(t) for t in tex]))
    for _, cid, make, tex in props.SHRUB_CLASSES:
        data = rc2.build_shrub_class(*props.shrub_arrays(make), cid, 50.0)
        classes["shrub"].append((cid, data, [shrub_tex.index(t) for t in tex]))
    for _, cid, make, tex in props.MOBY_CLASSES:
        data = rc2.build_moby_class(*props.triangles(*make(rng)), cid)
        classes["moby"].append((cid, data, [moby_tex.index(t) for t in tex]))
    return classes, names, {"tie": tie_tex, "shrub": shrub_tex, "moby": moby_tex}, ctex, pals


def build(seed: int = 0) -> bytes:
    """The RC2 sample level file."""
    rng = np.random.default_rng(seed + 0x5243)
    tex, pals = _textures(rng)
    h = _height(rng)
    meshes = [_patch(h, px, py) for py in range(PATCHES) for px in range(PATCHES)]
    block = rc2.build_tfrags(meshes)
    classes, names, kind_tex, ctex, cpals = _classes(rng)
    base = len(pals)
    pals = np.concatenate([pals, np.zeros((len(cpals), 256, 4), np.uint8)])
    for k, p in enumerate(cpals):
        pals[base + k, :, :3] = np.clip(np.rint(p), 0, 255)
        pals[base + k, :, 3] = 255
    class_textures = {kind: [(ctex[n][0], base + names.index(n)) for n in tex]
                      for kind, tex in kind_tex.items()}
    spots, yaw = _placements(rng, h, TIES, 6.0, WATER + 0.6)
    tie_cls = np.array([c[1] for c in props.TIE_CLASSES])[
        rng.integers(0, len(props.TIE_CLASSES), TIES)]
    ties = (tie_cls, _matrices(spots, yaw, rng.uniform(0.8, 1.3, TIES), sink=0.1))
    spots, yaw = _placements(rng, h, SHRUBS, 2.0, WATER + 0.2)
    shrub_cls = np.array([c[1] for c in props.SHRUB_CLASSES])[
        rng.choice(len(props.SHRUB_CLASSES), SHRUBS, p=[0.5, 0.25, 0.25])]
    shrubs = (shrub_cls, _matrices(spots, yaw, rng.uniform(0.7, 1.4, SHRUBS)))
    spots, yaw = _placements(rng, h, MOBYS, 10.0, WATER + 0.6)
    mobys = (np.array(MOBY_CLASSES)[rng.integers(0, len(MOBY_CLASSES), MOBYS)],
             _matrices(spots + (0, 0, 0.5), yaw, np.ones(MOBYS)))
    sky = rc2.build_sky(props.sky_shells(), colour=(110, 150, 205, 0x80))
    return rc2.build_level(block, tex, pals, _gameplay(ties, shrubs, mobys),
                           level_id=LEVEL_ID, sky=sky, collision=_collision(h),
                           classes=classes, class_textures=class_textures)
