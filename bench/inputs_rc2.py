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


def gameplay(n_mobies: int = 600, seed: int = 7) -> bytes:
    """A stand-in decompressed gameplay section [assumed layout, picked to
    look like one, not measured]: a small header table, moby instances
    (0x88-byte records: ids, a position, rotation, floats and flags), tie
    and shrub instances (4×4 float matrices with an id), and paths (float
    points)."""
    rng = np.random.default_rng(seed)
    head = np.arange(0, 0x100, 4, dtype="<u4") * 0x10
    moby = np.zeros(n_mobies, dtype=[("size", "<u4"), ("mission", "<i4"), ("uid", "<i4"),
                                     ("bolts", "<i4"), ("cls", "<u2"), ("pad0", "<u2"),
                                     ("scale", "<f4"), ("draw", "<f4"), ("update", "<i4"),
                                     ("pos", "<f4", 3), ("rot", "<f4", 3), ("group", "<i4"),
                                     ("light", "<i4"), ("pvar", "<i4"), ("color", "u1", 4),
                                     ("rest", "<i4", 12)])
    moby["size"] = 0x88
    moby["mission"] = -1
    moby["uid"] = np.arange(n_mobies)
    moby["cls"] = rng.choice([0x1f4, 0x1f5, 0x2a0, 0x0c8, 0x3e8, 0x102], n_mobies)
    moby["scale"] = 1.0
    moby["draw"] = 64.0
    moby["update"] = 32
    moby["pos"] = np.round(rng.uniform(-400, 400, (n_mobies, 3)), 2)
    moby["rot"][:, 2] = rng.choice([0.0, 1.5707964, 3.1415927], n_mobies)
    moby["group"] = -1
    moby["pvar"] = np.where(rng.random(n_mobies) < 0.3, np.arange(n_mobies), -1)
    moby["color"] = [0x80, 0x80, 0x80, 0xff]
    moby["rest"][:, ::3] = -1
    n_ties = n_mobies * 2
    ties = np.zeros((n_ties, 20), "<f4")
    ang = rng.uniform(0, 2 * np.pi, n_ties)
    ties[:, 0], ties[:, 2], ties[:, 5] = np.cos(ang), np.sin(ang), 1.0
    ties[:, 8], ties[:, 10], ties[:, 15] = -np.sin(ang), np.cos(ang), 1.0
    ties[:, 12:15] = np.round(rng.uniform(-400, 400, (n_ties, 3)), 1)
    ties_i = ties.view("<i4")
    ties_i[:, 16] = rng.integers(0, 80, n_ties)
    ties_i[:, 17] = -1
    paths = np.round(np.cumsum(rng.normal(0, 2, (n_mobies * 8, 4)), axis=0), 2).astype("<f4")
    paths[:, 3] = 0.0
    return b"".join(a.tobytes() for a in (head, moby, ties, paths))


def text_like(size: int, seed: int = 7) -> bytes:
    """Word soup of a Zipf-distributed vocabulary with punctuation and
    line breaks (the way text, scripts and strings compress)."""
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(b"etaoinshrdlcumwfgypbvkjxqz", np.uint8)
    vocab = []
    for _ in range(4000):
        n = int(rng.integers(2, 10))
        vocab.append(bytes(letters[np.minimum(rng.geometric(0.15, n) - 1, 25)]))
    ranks = np.minimum(rng.zipf(1.3, size // 3), len(vocab)) - 1
    out, n = [], 0
    for k, r in enumerate(ranks):
        w = vocab[r]
        out.append(w + (b".\n" if k % 13 == 12 else b", " if k % 7 == 6 else b" "))
        n += len(out[-1])
        if n >= size:
            break
    return b"".join(out)[:size]


def lz_inputs(quick: bool = False) -> dict[str, bytes]:
    """The WAD-LZ compression rows' ten inputs (name -> bytes): generated
    level cores of three sizes and the tfrag block alone, gameplay of two
    sizes, the ENG ×1 level, and 2 MiB each of random bytes, zeros and
    text-like bytes. quick: the same kinds, tiny."""
    from . import inputs
    k = 1 / 32 if quick else 1
    mib = int((2 << 20) * k)
    block, _ = tfrag_block(25 if quick else 800, seed=3)
    eng = (inputs.tiny_eng_level_wad() if quick else inputs.eng_level_wad(1))[0]
    return {
        "core 12 MiB": core(12 * k, patches=20 if quick else 800),
        "core 4 MiB": core(4 * k, seed=5, patches=10 if quick else 300),
        "core 1.3 MiB": core(1.3 * k, seed=3, patches=5 if quick else 100),
        "tfrag block": block,
        "gameplay 600": gameplay(20 if quick else 600),
        "gameplay 3000": gameplay(60 if quick else 3000, seed=9),
        "ENG level ×1": eng,
        "random 2 MiB": np.random.default_rng(1).integers(0, 256, mib, np.uint8).tobytes(),
        "zeros 2 MiB": bytes(mib),
        "text-like 2 MiB": text_like(mib),
    }
