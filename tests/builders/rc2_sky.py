"""RC2 sky blocks from the spec (docs/formats/rc2-collision-sky.md, "Sky"), plain Python
+ struct. Independent of wadkit's C reader.

A shell is (textured, clusters); a cluster is (vertices, st, faces) or
(vertices, st, faces, bounding sphere) (else the block's `bsphere`):
vertices (x, y, z, alpha) s16; st one 4-byte record per vertex, given as
(s, t) s16 pairs or as 4-tuples of bytes (the RGBA reading); faces
(i0, i1, i2, texture) with texture 0xFF = none.
"""
from __future__ import annotations

import struct


def pad(b: bytearray, align: int):
    b += bytes(-len(b) % align)


def st_record(st) -> bytes:
    return struct.pack("<hh", *st) if len(st) == 2 else bytes(st)


def cluster_data(vertices, st, faces) -> tuple[bytes, int, int, int]:
    """(data, vertex offset, st offset, face offset): vertices, then the ST
    records 4-aligned, then the faces 4-aligned, padded to 16."""
    d = bytearray(b"".join(struct.pack("<4h", *v) for v in vertices))
    pad(d, 4)
    st_at = len(d)
    d += b"".join(st_record(s) for s in st)
    pad(d, 4)
    tri_at = len(d)
    d += b"".join(struct.pack("<4B", *f) for f in faces)
    pad(d, 16)
    return bytes(d), 0, st_at, tri_at


def block(shells, textures=(), colour=(10, 20, 30, 0x80), clear_screen=1,
          fx=b"", max_sprites=0, bsphere=(0.0, 0.0, 0.0, 100.0)) -> bytes:
    """The header (0x40), the fx list, the texture entries, the texture data
    (palettes and pixels, 0x40-aligned), a sprite buffer, then the shells:
    each 16-aligned header {s32 clusters, s32 flags}, its 0x20-byte cluster
    headers from +0x10, then each cluster's data. textures: (width,
    height, pixels, palette of 1024 bytes)."""
    out = bytearray(0x40)
    fx_at = len(out)
    out += fx
    pad(out, 16)
    defs_at = len(out)
    out += bytes(16 * len(textures))
    pad(out, 0x40)
    data_at = len(out)
    for i, (w, h, pixels, palette) in enumerate(textures):
        pad(out, 0x40)
        pal = len(out) - data_at
        out += palette
        pad(out, 0x40)
        px = len(out) - data_at
        out += pixels
        struct.pack_into("<4i", out, defs_at + 16 * i, pal, px, w, h)
    sprites = 0
    if max_sprites:
        pad(out, 0x40)
        sprites = len(out)
        out += bytes(0x20 * max_sprites)
    shell_at = []
    for textured, clusters in shells:
        pad(out, 16)
        shell_at.append(len(out))
        out += struct.pack("<ii8x", len(clusters), 0 if textured else 1)
        heads = len(out)
        out += bytes(0x20 * len(clusters))
        for k, (verts, st, faces, *sphere) in enumerate(clusters):
            pad(out, 16)
            d, v_at, st_at, tri_at = cluster_data(verts, st, faces)
            struct.pack_into("<4fihhhhhh", out, heads + 0x20 * k,
                             *(sphere[0] if sphere else bsphere), len(out),
                             len(verts), len(faces), v_at, st_at, tri_at, len(d))
            out += d
    struct.pack_into("<4Bhhhhhhiiii", out, 0, *colour, clear_screen, len(shells), 0,
                     max_sprites, len(textures), len(fx), defs_at, data_at, fx_at,
                     sprites)
    struct.pack_into("<8i", out, 0x20, *(shell_at + [0] * (8 - len(shell_at))))
    return bytes(out)
