"""An 8-bit RGB PNG writer in NumPy, zlib and struct (no image library):
what tools/ui_screenshots.py writes its screenshots with. Each row gets
the filter (none, Sub, Up, Average, Paeth) of least absolute sum, the
heuristic the PNG specification suggests."""
from __future__ import annotations

import struct
import zlib

import numpy as np


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + \
        struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_bytes(rgb: np.ndarray) -> bytes:
    """rgb: (h, w, 3) uint8, top row first."""
    rgb = np.asarray(rgb)
    if rgb.dtype != np.uint8 or rgb.ndim != 3 or rgb.shape[2] != 3 or 0 in rgb.shape:
        raise ValueError(f"want a (h, w, 3) uint8 array, not {rgb.dtype} {rgb.shape}")
    h, w, _ = rgb.shape
    x = rgb.reshape(h, w * 3).astype(np.int16)
    left = np.zeros_like(x)
    left[:, 3:] = x[:, :-3]
    up = np.zeros_like(x)
    up[1:] = x[:-1]
    upleft = np.zeros_like(x)
    upleft[1:, 3:] = x[:-1, :-3]
    cands = [x, x - left, x - up, x - ((left + up) >> 1), x - _paeth(left, up, upleft)]
    cands = [(c & 0xFF).astype(np.uint8) for c in cands]
    cost = np.stack([np.abs(c.astype(np.int8).astype(np.int16)).sum(axis=1) for c in cands])
    best = cost.argmin(axis=0)
    rows = np.empty((h, w * 3 + 1), np.uint8)
    rows[:, 0] = best
    rows[:, 1:] = np.choose(best[:, None], cands)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + \
        _chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + _chunk(b"IEND", b"")


def write_png(path: str, rgb: np.ndarray) -> int:
    """Write rgb to path; returns the file's bytes."""
    data = png_bytes(rgb)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)
