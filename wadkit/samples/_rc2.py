"""The RC2 sample level: rolling terrain of tfrag patches with three
paletted textures, written by wadkit's own writers (wadkit.rc2.build_tfrags
for the patches, wadkit.rc2.build_level for the container).
docs/samples.md says what is in it."""
from __future__ import annotations

import struct

import numpy as np

from .. import rc2
from . import _pages

PATCHES = 8          # patches a side
QUADS = 8            # quads a patch side (81 vertices, 128 triangles)
STEP = 2.0           # units a quad side
UV_SCALE = 1 / 4.0   # texture repeats every 4 units
SUN = np.array([0.4, -0.3, 0.85]) / np.linalg.norm([0.4, -0.3, 0.85])
LEVEL_ID = 0
TEX_GRASS, TEX_ROCK, TEX_SAND = range(3)


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


def _gameplay() -> bytes:
    """A gameplay with no blocks (docs/formats/rc2-gameplay.md, "Gameplay"; the
    header is written in C) [assumed: the sample places no instances yet],
    then a tag and the patch grid (the sample's own, no game layout), up to
    256 bytes."""
    head = rc2.empty_gameplay(b"WADKIT-SAMPLE-GAMEPLAY\0\0" + struct.pack(
        "<4i", PATCHES, PATCHES, QUADS, 0))
    return head + bytes(0x100 - len(head))


def build(seed: int = 0) -> bytes:
    """The RC2 sample level file."""
    rng = np.random.default_rng(seed + 0x5243)
    tex, pals = _textures(rng)
    h = _height(rng)
    meshes = [_patch(h, px, py) for py in range(PATCHES) for px in range(PATCHES)]
    block = rc2.build_tfrags(meshes)
    return rc2.build_level(block, tex, pals, _gameplay(), level_id=LEVEL_ID)
