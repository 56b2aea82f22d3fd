"""Hostile rows for the ENG level chunks the geometry and texture code read
(TRAK, STPC, MAP tile part, TEXT): every count and size field of a small
valid level set to 0 / ±1 / past the end / the u32 extremes, every
structural boundary cut, and hand-written bombs. The "eng-level" parser
opens the WAD and touches everything a converter would: models, objects,
animations, tiles, zones, the world mesh, every page's pixels, palettes,
the texture table and effects, and the floor test on each tile.

Rows whose outcome depends on what the shifted bytes happen to say are
`Either` (FormatError or success, never a crash, a hang or a memory blow-up);
a count or size that cannot fit is an `Error`."""
from __future__ import annotations

import struct
import warnings

import wadkit
from builders import eng_level as L
from builders import eng_text as T

from . import PARSERS, U32_EXTREMES, Either, Error, Ok, add, with_u32

QUAD = [(-0.5, 0, -0.5, 0, 1, 0), (0.5, 0, -0.5, 0, 1, 0),
        (0.5, 0, 0.5, 0, 1, 0), (-0.5, 0, 0.5, 0, 1, 0)]
TRI = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]


def touch(lvl):
    """Everything a converter reads; returns lvl."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        if "TRAK" in lvl:
            lvl.models
        if "STPC" in lvl:
            lvl.objects, lvl.animations
        if "MAP" in lvl:
            tiles = lvl.tiles
            lvl.zones
            lvl.world_mesh()
            for i in range(min(len(tiles), 8)):
                x, y, z = (float(v) for v in tiles.a_position[i])
                lvl.floor(x, y + 0.5, -z)
        if "TEXT" in lvl:
            for page in lvl.pages:
                page.rgba
            lvl.palettes, lvl.textures, lvl.texture_effects
    return lvl


def parse_bytes(data):
    return touch(wadkit.eng.from_bytes(data))


def parse_path(path):
    return touch(wadkit.eng.open(path))


PARSERS["eng-level"] = (parse_bytes, parse_path)


def grey(n, sets=1):
    return L.color_block(n, [[(0x80, 0x80, 0x80, 0)] * n] * sets)


def parts():
    """The payloads of the base level, each built from the spec."""
    quad = L.Model(QUAD, [(0x800, 0, 1, 2, 0), (0x810, 0, 2, 3, 1)], bytes(range(32)), (1, 0, 0))
    tri = L.Model(TRI, [(0, 0, 1, 2, 1)])
    trak = L.trak([quad, tri])
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=grey(4)),
             L.Tile(1.5, 0, -0.5, 1024, 1, anim=1, colors=grey(3, 2), colors_b=grey(4))]
    map_ = L.map_payload(2, 2, tiles, strat_list=[7], records90=1, paths34=1,
                         grid=[0, 1, 2, 3], swaps=[(1, 0, 0, 1, 0)], rest=b"REST")
    stpc = L.stpc([L.Model(TRI, [(0, 0, 1, 2, 0)], bones=[1, 2])],
                  [L.animation(2, 2, 0, 3, 2), L.animation(0, 1, 1, 0, 1, seed=2)])
    pal = T.palette([0x0000, 0x001F, 0x83E0, 0x7FFF], extra=b"\1\2\3\4")
    rle = T.literal([0x001F, 0x03E0]) + T.repeat(5, 0x7C00) + T.literal([0x8000])
    text = T.text(palettes=[pal], pages=[T.page_pal8(2, 2, bytes([0, 1, 2, 3])),
                                         T.page_rgb16(2, 1, [1, 0x8000]),
                                         T.page_rle16(4, 2, rle)],
                  entries=[T.entry(page=0, page2=0, u1=1, v1=1), T.entry(page=2)],
                  tail=T.effects([T.effect(0, 1, b"\1\2")]))
    return {"TRAK": trak, "MAP": map_, "STPC": stpc, "TEXT": text}


def level(**over) -> bytes:
    p = parts()
    p.update(over)
    return L.level(wfpc=0x10000, trak_payload=p["TRAK"], map_payload_=p["MAP"],
                   stpc_payload=p["STPC"], text_payload=p["TEXT"])


# Structural fields of the base payloads: (chunk, name, offset, width 4|2).
TRAK_M0 = 4                                   # header of model 0
TRAK_FIELDS = [("model count", 0, 4), ("m0 vertex count", TRAK_M0 + 0x6c, 2),
               ("m0 face count", TRAK_M0 + 0x6e, 2), ("m0 group A", TRAK_M0 + 0x78, 2),
               ("m0 group B", TRAK_M0 + 0x7a, 2), ("m1 vertex count", TRAK_M0 + 0x84 + 0x6c, 2),
               ("m1 face count", TRAK_M0 + 0x84 + 0x6e, 2)]
MAP_LISTS = 12 + 2 * 24                         # after N, W, H and 2 A records
MAP_FIELDS = [("tile count", 0, 4), ("width", 4, 4), ("height", 8, 4),
              ("a0 model", 12 + 16, 4), ("strat list count", MAP_LISTS, 4),
              ("90-byte records", MAP_LISTS + 8, 4), ("34-byte records", MAP_LISTS + 8 + 94, 4)]
MAP_SWAPS = MAP_LISTS + 8 + 94 + 38 + 32 * 8 + 4 * 4 + 2 * 24 + 2 * 4
MAP_FIELDS += [("swap count", MAP_SWAPS, 4), ("swap model b", MAP_SWAPS + 4 + 16, 4)]
STPC_FIELDS = [("model count", 0, 4), ("m0 vertex count", 4 + 0x6c, 2),
               ("m0 bone count", 4 + 0x86, 2)]
TEXT_FIELDS = [("palette count", 0, 4), ("palette colours", 8, 4), ("page count", 4 + 8 + 12, 4),
               ("page0 width", 4 + 8 + 12 + 8, 4), ("page0 height", 4 + 8 + 12 + 12, 4)]
FIELDS = {"TRAK": TRAK_FIELDS, "MAP": MAP_FIELDS, "STPC": STPC_FIELDS, "TEXT": TEXT_FIELDS}


def with_field(payload: bytes, off: int, width: int, value: int) -> bytes:
    fmt = "<I" if width == 4 else "<H"
    value &= 0xFFFFFFFF if width == 4 else 0xFFFF
    return payload[:off] + struct.pack(fmt, value) + payload[off + width:]


def _rows():
    base = parts()
    for tag, fields in FIELDS.items():
        payload = base[tag]
        for name, off, width in fields:
            old = struct.unpack_from("<I" if width == 4 else "<H", payload, off)[0]
            values = {0, old - 1, old + 1, 0xFFFF} | (set(U32_EXTREMES) if width == 4 else set())
            for v in sorted(values - {old}):
                if v < 0:
                    continue
                data = level(**{tag: with_field(payload, off, width, v)})
                # a count of elements that cannot fit in the payload is an error
                huge = v >= 0x7FFFFFFF or (width == 2 and v == 0xFFFF)
                add("eng-level", f"{tag} {name} = {v:#x}", data,
                    Error() if huge and "count" in name else Either())
        # cuts at every field and the middle of the payload
        for n in sorted({off for _, off, _ in fields} | {len(payload) // 2, 1, 3}):
            add("eng-level", f"{tag} cut at {n}", level(**{tag: payload[:n]}),
                Error() if tag != "MAP" or n < MAP_SWAPS else Either())


_rows()
add("eng-level", "base level", level(), Ok())

# bombs: small inputs that ask for a lot
add("eng-level", "animation of 2^32-1 empty frames",
    lambda: level(STPC=L.stpc([], [struct.pack("<8I", 0, 0, 0xFFFFFFFF, 1, 0, 0, 0, 0)])),
    Error(match="without deltas or bones"), max_mb=16)
add("eng-level", "RLE16 page 4096x4096 from a few runs",
    lambda: level(TEXT=T.text(pages=[T.page_rle16(
        4096, 4096, T.repeat(32767, 0x7C00) * 512 + T.repeat(512, 0x7C00))],
        entries=[T.entry(page=0), T.entry(page=0)])),
    Ok(check=lambda lvl: lvl.pages[0].rgba.shape == (4096, 4096, 4)), max_mb=200)
add("eng-level", "RLE16 page one run past 4096x4096",
    level(TEXT=T.text(pages=[T.page_rle16(4096, 4096, T.repeat(32767, 0x7C00) * 513)])),
    Error(match="overflows"))
add("eng-level", "RLE16 page wider than the largest side",
    level(TEXT=T.text(pages=[T.page_rle16(4097, 1, T.repeat(4097, 1))])), Error())
add("eng-level", "zone grid of 2^16 x 2^16 cells",
    level(MAP=with_field(with_field(parts()["MAP"], 4, 4, 0x10000), 8, 4, 0x10000)), Error())
add("eng-level", "tile position NaN",
    level(MAP=parts()["MAP"][:12] + struct.pack("<f", float("nan")) + parts()["MAP"][16:]),
    Either())
add("eng-level", "tile position inf",
    level(MAP=parts()["MAP"][:12] + struct.pack("<f", float("inf")) + parts()["MAP"][16:]),
    Either())
add("eng-level", "vertex position NaN",
    level(TRAK=parts()["TRAK"][:4 + 2 * 0x84] + struct.pack("<f", float("nan"))
          + parts()["TRAK"][4 + 2 * 0x84 + 4:]), Either())
add("eng-level", "MAP without TRAK", L.level(map_payload_=parts()["MAP"]), Error())
add("eng-level", "face corner past the vertices",
    level(TRAK=with_field(parts()["TRAK"], 4 + 2 * 0x84 + 4 * 24 + 2, 2, 4)), Error())
add("eng-level", "STPC bone counts do not add up",
    level(STPC=with_field(parts()["STPC"], 4 + 0x8c, 2, 9)), Error())
