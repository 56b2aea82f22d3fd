"""A new, minimal ENG level from parts (glue over _core.eng_new_level; the
WAD is written in C, csrc/core/eng/eng_new.c). The terrain goes in
afterwards with Level.with_geometry. See docs/samples.md.

    lvl = wadkit.eng.new_level(32, 32, pages=[("pal8", idx), ("rle16", rgba)],
                               palettes=[pal], textures=[texture_entry(0)])
"""
from __future__ import annotations

import numpy as np

from . import _core

PAGE_FLAGS = {"pal8": 0x00, "rgb16": 0x01, "rle16": 0x80}


def texture_entry(page: int, rect=(0, 0, 255, 255), flags: int = 0,
                  palette: int = -1) -> bytes:
    """One 8-byte texture-table entry (written in C, eng_uv.c): page, rect =
    (u0, v0, u1, v1) in page pixels (u1, v1 inclusive), entry flags, byte 3
    (palette; -1 as in the original files)."""
    u0, v0, u1, v1 = rect
    return _core.eng_texture_entry(flags, page, palette, u0, v0, u1, v1)


def flat_entry(rgb, flags: int = 0) -> bytes:
    """A flat-colour entry (flag bit 0; the colour in u0, u1, v0)."""
    r, g, b = rgb
    return _core.eng_flat_entry(r, g, b, flags)


def new_level_bytes(width: int, height: int, pages, palettes=(), textures=(),
                    objects=(), zone_table=None, zone_grid=None,
                    flags: int = 0) -> bytes:
    """The WAD bytes. pages: [(kind, pixels)], kind 'pal8' with (H, W)
    uint8 indices into palette 0, or 'rgb16' / 'rle16' with (H, W, 4) uint8
    RGBA. palettes: [(n, 4) uint8 RGBA]. textures: entries (bytes each, or
    one bytes of n×8). objects: [dict(positions (V,3), triangles (F,3),
    texture (F,), uv (F,3,2) per corner)] in file space, become STPC models
    (corner flags chosen to show the UVs with each face's entry). zone_table (32, 2) u32 {mask, height} (default: zone 0 sees
    all); zone_grid (height, width) zone numbers (default 0). flags: WFPC."""
    pal = [(i, np.ascontiguousarray(p, dtype=np.uint8).reshape(-1, 4))
           for i, p in enumerate(palettes)]
    pg = []
    for i, (kind, px) in enumerate(pages):
        if kind not in PAGE_FLAGS:
            raise ValueError(f"page {i}: kind {kind!r}, not one of {list(PAGE_FLAGS)}")
        a = np.ascontiguousarray(px, dtype=np.uint8)
        want = 2 if kind == "pal8" else 3
        if a.ndim != want or (want == 3 and a.shape[2] != 4):
            raise ValueError(f"page {i} ({kind}): pixels of shape {a.shape}")
        pg.append((PAGE_FLAGS[kind], a.shape[1], a.shape[0], a))
    entries = textures if isinstance(textures, (bytes, bytearray)) else b"".join(textures)
    obj = []
    for o in objects:
        tri = np.ascontiguousarray(o["triangles"], dtype=np.uint32).reshape(-1, 3)
        obj.append((np.ascontiguousarray(o["positions"], dtype=np.float32).reshape(-1, 3),
                    tri, np.ascontiguousarray(o["texture"], dtype=np.uint16).ravel(),
                    np.ascontiguousarray(o["uv"], dtype=np.float32).reshape(-1, 3, 2)))
    zt = None if zone_table is None else np.ascontiguousarray(zone_table, dtype=np.uint32)
    zg = None if zone_grid is None else np.ascontiguousarray(zone_grid, dtype=np.uint32)
    return _core.eng_new_level(width, height, flags, pal, pg, bytes(entries),
                               zt, zg, obj)
