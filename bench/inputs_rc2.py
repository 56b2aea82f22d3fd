"""RC2 benchmark inputs, generated: a tfrags block of ~800 patches
(~30,000 triangles) built with the spec builder tests/builders/tfrag.py,
and a ~12 MB "decompressed core" for the WAD-LZ rows. No game data exists
here, so the core is a stand-in [assumed]: the tfrag block, 8-bit texture
pixels (smooth noise, quantised), instance-like records (floats, ids,
colours) and zero padding, in proportions picked to look like a level
core, not measured from one."""
from __future__ import annotations

import random
import struct

import numpy as np

from . import inputs  # noqa: F401  (puts tests/ on sys.path)
from builders import tfrag as T  # noqa: E402


def _patch(rnd: random.Random, ox: int, oy: int, texture: int) -> T.Patch:
    w, h = rnd.randint(4, 6), 4
    pos = [(x * 256, y * 256, rnd.randint(-300, 300))
           for y in range(h + 1) for x in range(w + 1)]
    vinfo = [(x * 512 + rnd.randint(-64, 64), -y * 512, 4096, 2 * (y * (w + 1) + x))
             for y in range(h + 1) for x in range(w + 1)]
    runs, idx = [], []
    for y in range(h):
        for x in range(w + 1):
            idx += [y * (w + 1) + x, (y + 1) * (w + 1) + x]
        runs.append((2 * (w + 1), 0 if y == 0 else None))
    half = runs[: (h + 1) // 2]
    strips = {0: runs, 1: half, 2: half[:1]}
    indices = {0: idx, 1: idx[: sum(n for n, _ in half)], 2: idx[:2 * (w + 1)]}
    rgba = [(rnd.randint(0x40, 0x90), rnd.randint(0x40, 0x90), rnd.randint(0x40, 0x90), 0x80)
            for _ in pos]
    return T.Patch(positions=pos, origin=(ox, oy, rnd.randint(-2048, 2048)), vinfo=vinfo,
                   rgba=rgba, adgifs=[texture], strips=strips, indices=indices)


def tfrag_block(n: int = 800, textures: int = 40, seed: int = 7) -> tuple[bytes, dict]:
    rnd = random.Random(seed)
    side = max(1, int(n ** 0.5))
    patches = [_patch(rnd, (i % side) * 6144, (i // side) * 4096, i % textures)
               for i in range(n)]
    return T.block(patches), {"patches": n, "triangles": sum(p.tris(0) for p in patches),
                              "textures": textures}


def core(size_mb: float = 12, seed: int = 7, patches: int = 800) -> bytes:
    """A stand-in decompressed core of about size_mb MB."""
    rng = np.random.default_rng(seed)
    block, _ = tfrag_block(patches, seed=seed)
    parts = [block]
    n_tex = int(size_mb * 0.3 * (1 << 20)) // (128 * 128)
    for _ in range(n_tex):                      # smooth 8-bit index images
        base = rng.integers(0, 256)
        img = np.cumsum(rng.integers(-3, 4, (128, 128)), axis=1) + base
        parts.append((img % 256).astype(np.uint8).tobytes())
    n_rec = int(size_mb * 0.45 * (1 << 20)) // 64      # 64-byte instance records
    rec = np.zeros(n_rec, dtype=[("pos", "<f4", 3), ("scale", "<f4"), ("rot", "<f4", 3),
                                 ("id", "<u2"), ("cls", "<u2"), ("uid", "<i4"),
                                 ("color", "u1", 4), ("pad", "u1", 20)])
    rec["pos"] = np.round(rng.uniform(-500, 500, (n_rec, 3)), 1)
    rec["scale"] = 1.0
    rec["rot"][:, 2] = rng.choice([0.0, 1.5707964, 3.1415927, -1.5707964], n_rec)
    rec["id"] = rng.integers(0, 300, n_rec)
    rec["cls"] = rng.choice([0x1f4, 0x1f5, 0x2a0, 0x0c8], n_rec)
    rec["uid"] = np.arange(n_rec)
    rec["color"] = [0x80, 0x80, 0x80, 0x80]
    parts.append(rec.tobytes())
    out = b"".join(parts)
    target = int(size_mb * (1 << 20))
    return out + bytes(max(0, target - len(out)))
