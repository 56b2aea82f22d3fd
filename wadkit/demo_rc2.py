"""The RC2 sample level behind `wadkit demo`: tfrag terrain patches over a
noise heightmap, four 8-bit textures with palettes in gs_ram, core data
compressed with wadkit's WAD-LZ, a gameplay extent. Written with wadkit's
writers (wadkit.rc2.build_tfrags, wadkit.lz.compress); the container
around them is laid out here as docs/formats/rc2.md describes it.

    data = build_rc2_demo(seed=1)     # bytes of a LEVEL<n>.WAD
"""
from __future__ import annotations

import struct

import numpy as np

from .demo import _fbm

SECTOR = 2048
PATCHES = (24, 24)          # patches along x, y
QUADS = (6, 4)              # quads per patch along x, y (35 vertices, 48 triangles)
QUAD = 0.5                  # quad size in file units
TEX_SIZE = 64
NAMES = ("sand", "grass", "rock", "snow")


def _swap34(i: np.ndarray) -> np.ndarray:
    """PS2 CLUT order: index bits 3 and 4 swapped (an involution)."""
    return (i & ~0x18) | ((i & 0x08) << 1) | ((i & 0x10) >> 1)


def textures(seed: int = 1) -> list[tuple[np.ndarray, np.ndarray]]:
    """(pixels (64,64) u8, palette (256,4) u8 RGBA, alpha 0x80 = opaque)."""
    rng = np.random.default_rng(seed + 2000)
    ramps = [((180, 160, 110), (235, 220, 170)), ((40, 90, 30), (110, 170, 60)),
             ((80, 75, 70), (160, 150, 140)), ((200, 205, 215), (250, 250, 255))]
    out = []
    for (c0, c1) in ramps:
        t = np.linspace(0, 1, 256)[:, None]
        pal = np.round(np.array(c0) * (1 - t) + np.array(c1) * t).astype(np.uint8)
        pal = np.concatenate([pal, np.full((256, 1), 0x80, np.uint8)], 1)
        px = np.clip(_fbm(rng, (TEX_SIZE, TEX_SIZE), base=8) * 256, 0, 255)
        out.append((px.astype(np.uint8), pal))
    return out


def terrain_meshes(seed: int = 1) -> list[dict]:
    """One build_tfrags mesh per patch: positions Z-up, per-vertex UVs and
    colours, one strip per quad row, a texture per strip by height/slope."""
    rng = np.random.default_rng(seed)
    px, py = PATCHES
    qx, qy = QUADS
    nx, ny = px * qx, py * qy
    h = _fbm(rng, (ny + 1, nx + 1), base=3, octaves=5)
    h = (h - 0.35) * 9.0
    gy, gx = np.mgrid[0:qy + 1, 0:qx + 1]
    strip_idx = [np.stack([y * (qx + 1) + np.arange(qx + 1),
                           (y + 1) * (qx + 1) + np.arange(qx + 1)], 1).ravel()
                 for y in range(qy)]
    light = np.array([0.3, -0.4, 0.85])
    light /= np.linalg.norm(light)
    meshes = []
    for j in range(py):
        for i in range(px):
            hz = h[j * qy:j * qy + qy + 1, i * qx:i * qx + qx + 1]
            x = (i * qx + gx) * QUAD
            y = (j * qy + gy) * QUAD
            pos = np.stack([x, y, hz], -1).reshape(-1, 3)
            dzdx = np.gradient(hz, QUAD, axis=1)
            dzdy = np.gradient(hz, QUAD, axis=0)
            n = np.stack([-dzdx, -dzdy, np.ones_like(hz)], -1)
            n /= np.linalg.norm(n, axis=-1, keepdims=True)
            shade = np.clip(0.35 + 0.65 * (n @ light), 0.25, 1.0).reshape(-1)
            color = np.stack([shade, shade, shade, np.ones_like(shade)], 1)
            uv = np.stack([gx / qx, gy / qy * 0.75], -1).reshape(-1, 2)
            tex = []
            for y0 in range(qy):
                row = hz[y0:y0 + 2]
                slope = np.abs(np.diff(row, axis=1)).max() / QUAD
                mean = row.mean()
                tex.append(2 if slope > 1.2 else 0 if mean < -0.8 else
                           3 if mean > 2.6 else 1)
            meshes.append({"positions": pos.astype(np.float32),
                           "uv": uv.astype(np.float32),
                           "color": color.astype(np.float32),
                           "strips": strip_idx, "textures": tex})
    return meshes


def _pad(b: bytes, n: int) -> bytes:
    return b + bytes(-len(b) % n)


def level_bytes(tfrag_block: bytes, texs, compress, level_id: int = 1) -> bytes:
    """A LEVEL file: header 0x60; data extent (pair table, core_index,
    gs_ram, core_data as WAD-LZ); a gameplay extent (WAD-LZ). core_data:
    the tfrag block, 16-byte occlusion / sky / collision regions (empty:
    zeros [assumed: the sample has none; the regions only need to be
    ordered]), then the texture pixels at textures_base."""
    core = bytearray(_pad(tfrag_block, 16))
    occlusion = len(core)
    core += bytes(16)
    sky = len(core)
    core += bytes(16)
    collision = len(core)
    core += bytes(16)
    textures_base = len(core)
    entries, gs = b"", b""
    for k, (px, pal) in enumerate(texs):
        data_ofs = len(core) - textures_base
        core += _pad(px.tobytes(), 16)
        stored = np.empty_like(pal)
        stored[_swap34(np.arange(256))] = pal          # CLUT order in gs_ram
        gs += stored.tobytes()
        h, w = px.shape
        # 16 bytes: i32 data offset, i16 width, height, type, palette, 2 × pad
        entries += struct.pack("<ihhhhhh", data_ofs, w, h, 1, 4 * k, 0, 0)
    plain = bytes(core)
    stream = compress(plain)
    stream_size = int.from_bytes(stream[3:7], "little", signed=True)
    fields = {0x00: 1, 0x04: 0xBC, 0x08: 0, 0x0C: occlusion, 0x10: sky,
              0x14: collision, 0x30: len(texs), 0x34: 0xC0,
              0x60: textures_base, 0x88: stream_size, 0x8C: len(plain)}
    head = bytearray(0xBC)
    for off, v in fields.items():
        struct.pack_into("<i", head, off, v)
    # 0xBC: one gs_ram upload record [assumed: count 1; only its place is read]
    core_index = bytes(head) + struct.pack("<I", 0) + entries + bytes(0x20)

    sections = {1: core_index, 2: gs, 9: stream}     # pair slots of the table
    table = bytearray(0x58)
    body = bytearray()
    pos = 0x60
    for slot, blob in sections.items():
        body += bytes(pos - 0x58 - len(body))
        struct.pack_into("<ii", table, 8 * slot, pos, len(blob))
        body += blob
        pos = 0x58 + len(body)
        pos += -pos % 0x10
    data = bytes(table) + bytes(body)
    gameplay = compress(b"wadkit sample level: no gameplay records" + bytes(24))

    header = bytearray(0x60)
    struct.pack_into("<iiii", header, 0, 0x60, 0, level_id, 0)
    out = bytearray(_pad(bytes(header), SECTOR))
    for slot, blob in ((0x10, data), (0x20, gameplay)):
        sector, count = len(out) // SECTOR, -(-len(blob) // SECTOR)
        struct.pack_into("<ii", out, slot, sector, count)
        out += _pad(blob, SECTOR)
    return bytes(out)


def build_rc2_demo(seed: int = 1) -> bytes:
    """The RC2 sample level as LEVEL WAD bytes (needs wadkit.rc2 and lz)."""
    try:
        from . import lz, rc2
    except ImportError:
        raise NotImplementedError("the RC2 writers are not built into this "
                                  "wadkit yet") from None
    if not hasattr(rc2, "build_tfrags"):
        raise NotImplementedError("the RC2 tfrag writer (build_tfrags) is not "
                                  "built into this wadkit yet")
    block = rc2.build_tfrags(terrain_meshes(seed))
    return level_bytes(block, textures(seed), lz.compress)
