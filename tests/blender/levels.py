"""ENG fixture levels for the Blender tests, composed from the from-spec
builders (tests/builders: eng_level for geometry, eng_text for TEXT)."""
from __future__ import annotations

import struct

from builders import eng_collision as C
from builders import eng_level as L
from builders import eng_text as T

# ABGR1555 words: R = bits 0-4, G 5-9, B 10-14; 0 = transparent
RED, GREEN, BLUE = 0x001F, 0x03E0, 0x7C00


def small_level(tri_collision: bytes = b"", stpc: bytes | None = None,
                text: bytes | None = None) -> bytes:
    """3 tiles of 2 models: tile 0 (model 0, rot 0), tile 1 (model 1, rot
    1024), tile 2 (model 0, rot 2048, two colour sets). Model 0 has two
    collision polygons: a floor quad of material 0x11 (water) and a triangle
    of material 3. Textures: 0 = page 0,
    1 = a flat colour, 2 = page 1 with blend mode 1. Page 0 is 4x4 RGB16 with
    a transparent texel, page 1 a 2x2 8-bit page on a 4-colour palette.
    tri_collision: collision records for model 1 (none by default); stpc:
    the STPC payload (default: one skinned model, no animations); text: the
    TEXT payload (default: the one above)."""
    coll = (C.polygon([(-0.5, 0, -0.5), (-0.5, 0, 0.5), (0.5, 0, 0.5), (0.5, 0, -0.5)],
                      material=0x11)
            + C.polygon([(-0.5, 0.25, -0.5), (-0.5, 0.25, 0.0), (0.0, 0.25, -0.5)],
                        material=3))
    quad = L.Model([(-0.5, 0, -0.5, 0, 1, 0), (0.5, 0, -0.5, 0, 1, 0),
                    (0.5, 0, 0.5, 0, 1, 0), (-0.5, 0, 0.5, 0, 1, 0)],
                   [(0x800, 0, 1, 2, 0), (0x800, 0, 2, 3, 1)], coll, (2, 0, 0))
    tri = L.Model([(-0.5, 0, -0.5, 0, 0, 1), (0.5, 0, -0.5, 0, 0, 1),
                   (0.0, 1.0, -0.5, 0, 0, 1)],
                  [(0x800, 0, 1, 2, 2)], tri_collision, (len(tri_collision) // 32, 0, 0))
    grey = [(0x80, 0x80, 0x80, 0)]

    def cols(n, base):
        return [(base + 10 * i, 0x40, 0x80 - 8 * i, 0) for i in range(n)]

    tiles = [
        L.Tile(0.5, 0.0, -0.5, 0, 0, colors=L.color_block(4, [cols(4, 0x20)])),
        L.Tile(1.5, 1.0, -0.5, 1024, 1, colors=L.color_block(3, [grey * 3])),
        L.Tile(0.5, 0.5, -1.5, 2048, 0,
               colors=L.color_block(4, [cols(4, 0x60), cols(4, 0x10)])),
    ]
    mp = L.map_payload(2, 2, tiles, grid=[0, 1, 2, 3])
    page0 = [RED] * 16
    page0[0] = 0
    page0[5] = GREEN | 0x8000
    text = text if text is not None else T.text(
        palettes=[T.palette([0, RED, GREEN, BLUE])],
        pages=[T.page_rgb16(4, 4, page0), T.page_pal8(2, 2, bytes([1, 2, 3, 1]))],
        entries=[T.entry(0, 0, -1, 0, 3, 0, 3),
                 T.entry(1, 0, -1, 0xFF, 0x80, 0x00, 0),      # flat colour ff8000
                 T.entry(0x1000, 1, -1, 0, 1, 0, 1)])
    st = stpc if stpc is not None else L.stpc([L.Model(
        [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 1, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)],
        [(0, 0, 1, 2, 0), (0, 0, 2, 3, 0)], bones=[1, 3])])
    return L.level(trak_payload=L.trak([quad, tri]), stpc_payload=st,
                   map_payload_=mp, text_payload=text)


def objects_level(layout: str = "spec") -> bytes:
    """small_level with three STPC models and three animations in the given
    layout: model 0 rigid (a textured triangle on page 0, entry 0), model 1
    skinned with bones [1, 3] (faces on entry 2: page 1, blend 1), model 2
    skinned with 3 bones [2, 1, 1]; animation 0 (3 frames, 2 bones) and 1
    (2 frames, 2 bones) fit model 1, animation 2 (2 frames, 5 bones) no
    model. Frame matrices: L.turn_matrix turns, scales and moves."""
    def mat(f, b):
        return L.turn_matrix(0.4 * f + 0.9 * b + 0.2, (f + b) % 3,
                             t=(0.5 * f, 0.25 * b, -0.3 * f), scale=1.0 + 0.2 * b)

    v = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 1, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]
    models = [L.Model(v[:3], [(0x800, 0, 1, 2, 0)]),
              L.Model(v, [(0x800, 0, 1, 2, 2), (0x810, 0, 2, 3, 2)], bones=[1, 3]),
              L.Model(v, [(0, 0, 1, 2, 1), (0, 1, 2, 3, 1)], bones=[2, 1, 1])]
    anims = [L.animation(1, 3, 0, 2, 2, layout, matrix=mat),
             L.animation(0, 2, 1, 0, 2, layout, seed=2, matrix=lambda f, b: mat(f + 5, b)),
             L.animation(0, 2, 1, 0, 5, layout, seed=3)]
    return small_level(stpc=L.stpc(models, anims, tail=b"strat data" * 3))


def paint_level(extra_pages: int = 0) -> bytes:
    """small_level with a page of each kind, each drawn by a face: page 0
    rgb16 4x4 (tile 0's model, entry 0; texel 5 carries bit 15), page 1 pal8
    2x2 (tile 1's model, entry 2, blend 1), page 2 rle16 8x8 in the
    builder's own runs (an STPC object's face, entry 3), then extra_pages
    1x1 rgb16 pages no entry draws (128 pages in all: a full TEXT)."""
    page0 = [RED] * 16
    page0[0] = 0
    page0[5] = GREEN | 0x8000
    rle = T.repeat(20, BLUE | 0x8000) + T.literal([RED, GREEN, 0, RED]) + T.repeat(40, GREEN)
    pages = [T.page_rgb16(4, 4, page0), T.page_pal8(2, 2, bytes([1, 2, 3, 1])),
             T.page_rle16(8, 8, rle)]
    pages += [T.page_rgb16(1, 1, [RED])] * extra_pages
    text = T.text(palettes=[T.palette([0, RED, GREEN, BLUE])], pages=pages,
                  entries=[T.entry(0, 0, -1, 0, 3, 0, 3),
                           T.entry(1, 0, -1, 0xFF, 0x80, 0x00, 0),
                           T.entry(0x1000, 1, -1, 0, 1, 0, 1),
                           T.entry(0, 2, -1, 0, 7, 0, 7)])
    v = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 1, 0, 0, 1, 0)]
    st = L.stpc([L.Model(v, [(0x800, 0, 1, 2, 3)])])
    return small_level(stpc=st, text=text)


def undecodable_collision_level() -> bytes:
    """small_level whose model 1 (tile 1) has two collision records: a
    valid floor triangle (polygon 0, material 5) and a record whose edge
    planes 1 and 2 are parallel (polygon 1, material 6), so that corner 1
    (edge planes 1 and 2 meeting the surface) does not exist: its decoded
    corners are not finite. Such a record has no shape to show or edit."""
    good = C.polygon([(-0.5, 0.1, -0.5), (-0.5, 0.1, 0.0), (0.0, 0.1, -0.5)], material=5)
    bad = C.record(0, 6, [((0, 127, 0), 0), ((127, 0, 0), 0), ((127, 0, 0), 16),
                          ((0, 0, 127), 0)])
    return small_level(good + bad)


def realistic_level(pages: int = 8) -> tuple[bytes, dict]:
    """eng_level.realistic_level (~25,000 triangles, 64x64 grid) with a TEXT
    that has `pages` 32x32 RGB16 pages for its 64 texture entries."""
    wad, facts = L.realistic_level()
    words = [(k * 37 + 1) & 0x7FFF or 1 for k in range(32 * 32)]
    text = T.text(pages=[T.page_rgb16(32, 32, words) for _ in range(pages)],
                  entries=[T.entry(0, k % pages, -1, 0, 31, 0, 31) for k in range(64)])
    # swap the minimal TEXT for the full one: rebuild the chunk list
    from builders import eng_wad
    chunks, off = [], 4
    while True:
        tag = wad[off:off + 4][::-1].decode()
        size = struct.unpack_from("<I", wad, off + 4)[0]
        if tag == "END ":
            break
        payload = wad[off + 8:off + 8 + size]
        chunks.append((tag, text if tag == "TEXT" else payload))
        off += 8 + size
    return eng_wad.wad(chunks), facts


def rc2_level() -> bytes:
    """An RC2 LEVEL WAD whose tfrag block holds two 6x4 grid patches (48
    triangles each) on textures 0 and 1: a 2x2 and a 4x2 8-bit texture
    (the construction of tests/test_rc2_tfrag.py level_with_terrain)."""
    from builders import rc2_level as R
    from builders import tfrag as TF
    blk = TF.block([TF.grid_patch(0, 0, texture=0), TF.grid_patch(6144, 0, texture=1)])
    assert len(blk) <= 0x1000
    core = bytearray(R.CORE_SIZE)
    core[:len(blk)] = blk
    core[0x2000 + 0x10:0x2000 + 0x18] = bytes([0, 8, 16, 24, 1, 2, 3, 255])
    core[0x2000:0x2000 + 4] = bytes([255, 0, 0, 255])
    table = (struct.pack("<ihhhhhh", 0, 2, 2, 1, 0, 0, 0)
             + struct.pack("<ihhhhhh", 0x10, 4, 2, 1, 0, 0, 0))
    data, _ = R.level(core=bytes(core), index_tail=bytes(4) + table + bytes(0x20))
    return data


def needle_level() -> bytes:
    """One tile (cell 0,0) whose model has a floor quad to render and, as
    collision, a thin 9.5-degree needle triangle at height 0.2 (polygon 0)
    over a floor square at 0 (polygon 1): the needle scan reports polygon
    0 (the case of tests/test_eng_floor.py, in a whole WAD)."""
    needle = C.polygon([(-0.3, 0.2, 0.0), (0.3, 0.2, 0.05), (0.3, 0.2, -0.05)])
    square = C.polygon([(-0.5, 0, -0.5), (-0.5, 0, 0.5), (0.5, 0, 0.5), (0.5, 0, -0.5)])
    quad = L.Model([(-0.5, 0, -0.5, 0, 1, 0), (0.5, 0, -0.5, 0, 1, 0),
                    (0.5, 0, 0.5, 0, 1, 0), (-0.5, 0, 0.5, 0, 1, 0)],
                   [(0x800, 0, 1, 2, 0), (0x800, 0, 2, 3, 0)], needle + square, (2, 0, 0))
    tiles = [L.Tile(0.5, 0.0, -0.5, 0, 0,
                    colors=L.color_block(4, [[(0x80, 0x80, 0x80, 0)] * 4]))]
    text = T.text(pages=[T.page_rgb16(2, 2, [RED] * 4)],
                  entries=[T.entry(0, 0, -1, 0, 1, 0, 1)])
    return L.level(trak_payload=L.trak([quad]), map_payload_=L.map_payload(1, 1, tiles),
                   text_payload=text)
