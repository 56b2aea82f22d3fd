"""Procedural texture pages for the sample levels: tileable value noise in
NumPy, deterministic from a numpy Generator."""
from __future__ import annotations

import numpy as np


def noise(rng: np.random.Generator, size: int = 256, cells: int = 8,
          octaves: int = 3) -> np.ndarray:
    """(size, size) float32 in 0..1, tileable (periodic bilinear value noise,
    octaves halving in amplitude)."""
    out = np.zeros((size, size), np.float64)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        g = rng.random((cells, cells))
        t = np.arange(size) * cells / size
        i0 = np.floor(t).astype(int)
        f = t - i0
        f = f * f * (3 - 2 * f)
        i1 = (i0 + 1) % cells
        rows = g[i0] * (1 - f)[:, None] + g[i1] * f[:, None]
        out += amp * (rows[:, i0] * (1 - f) + rows[:, i1] * f)
        total += amp
        amp *= 0.5
        cells *= 2
    return (out / total).astype(np.float32)


def ramp(n: float | np.ndarray, lo, hi) -> np.ndarray:
    """Blend RGB lo..hi by n (any shape) -> (..., 3) float."""
    n = np.asarray(n, np.float64)[..., None]
    return np.asarray(lo, np.float64) * (1 - n) + np.asarray(hi, np.float64) * n


def rgba(rgb: np.ndarray) -> np.ndarray:
    """Opaque uint8 RGBA from float RGB 0..255."""
    out = np.empty(rgb.shape[:-1] + (4,), np.uint8)
    out[..., :3] = np.clip(np.rint(rgb), 0, 255)
    out[..., 3] = 255
    return out


def palette_page(rng, lo, hi, base: int, count: int, size: int = 256):
    """An 8-bit page using palette entries base..base+count-1, which ramp
    from lo to hi: (indices (size, size) u8, colours (count, 3))."""
    n = noise(rng, size, 8, 4)
    n = (n - n.min()) / max(float(n.max() - n.min()), 1e-6)
    idx = (base + np.minimum((n * count).astype(int), count - 1)).astype(np.uint8)
    return idx, ramp(np.linspace(0, 1, count), lo, hi)


def planks(rng, size: int = 256, boards: int = 8, lo=(96, 60, 30),
           hi=(170, 120, 70), edge=(50, 30, 15)) -> np.ndarray:
    """Wooden boards in a few flat shades (runs of equal pixels: compresses
    well as RLE16): (size, size, 4) uint8."""
    rows = size // boards
    shade = rng.random(boards)
    rgb = np.empty((size, size, 3))
    for b in range(boards):
        # grain: each pixel row of a board one shade (long runs for RLE16)
        grain = shade[b] * 0.7 + 0.15 + rng.uniform(-0.08, 0.08, rows)
        rgb[b * rows:(b + 1) * rows] = ramp(grain, lo, hi)[:, None, :]
        rgb[b * rows] = edge
        knot = rng.integers(0, size - 8)
        rgb[b * rows + rows // 3:b * rows + rows // 3 + 3, knot:knot + 6] = edge
    return rgba(rgb)


def crate(rng, size: int = 256) -> np.ndarray:
    """A crate face: planks with a frame and a diagonal brace."""
    px = planks(rng, size, 6, (120, 80, 40), (190, 140, 80)).copy()
    frame = np.array([70, 42, 20, 255], np.uint8)
    w = size // 10
    px[:w], px[-w:], px[:, :w], px[:, -w:] = frame, frame, frame, frame
    for i in range(size):
        px[i, max(i - w // 2, 0):min(i + w // 2, size)] = frame
    return px
