"""Hostile rows for what an RC2 level holds besides its terrain: the
collision block (header, Z/Y/X nodes, X entries, octant counts), the sky
block (header counts and offsets, shell and cluster headers) and the chunk
extents (their header and streams). Fields inside core_data are changed
before compression, so each row is a well-formed container around a bad
block."""
from __future__ import annotations

import struct

import wadkit
from builders import rc2_collision as C
from builders import rc2_level as R
from builders import rc2_sky as S
from builders import tfrag as T

from . import PARSERS, U32_EXTREMES, Either, Ok, add, with_u32

MAX = 1 << 24


def touch(lvl):
    lvl.collision(), lvl.collision_octants(), lvl.sky()
    for ch in lvl.level_chunks:
        if ch.has_terrain:
            ch.terrain(), ch.terrain(2)
        if ch.has_collision:
            ch.collision()
    return lvl


PARSERS["rc2_parts"] = (lambda data: touch(wadkit.rc2.from_bytes(data, max_size=MAX)),
                        lambda path: touch(wadkit.rc2.open(path, max_size=MAX)))

OCTANTS = {(x, y, z): ([(0, 0, 0), (16, 0, 0), (0, 16, 0), (16, 16, 64)],
                       [(0, 1, 3, 2, 5), (0, 1, 2, 9)])
           for x in (0, 1) for y in (-1, 0) for z in (3,)}
TRI = [(1024, 0, 0, 0x80), (0, 2048, 0, 0x40), (0, 0, -1024, 0x80)]
SHELLS = [(True, [(TRI, [(0, 0), (4096, 0), (2048, 4096)], [(0, 1, 2, 0)])] * 2),
          (False, [(TRI, [(255, 0, 0, 0x80)] * 3, [(2, 1, 0, 0xFF)])])]
COLLISION = C.block(OCTANTS)
SKY = S.block(SHELLS, textures=[(2, 2, bytes(4), bytes(1024))], fx=b"\0")
TFRAGS = T.block([T.grid_patch(0, 0, texture=1)])
CHUNKS = {1: R.chunk(tfrags=TFRAGS, collision=COLLISION)}


def level(collision: bytes = COLLISION, sky: bytes = SKY, chunks=None) -> bytes:
    core, fields = R.core_parts(tfrags=TFRAGS, sky=sky, collision=collision,
                                texels=bytes(64))
    data, _ = R.level(core=core, core_fields=fields,
                      chunks=CHUNKS if chunks is None else chunks)
    return data


def patched(blob: bytes, off: int, fmt: str, value: int) -> bytes:
    b = bytearray(blob)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)


GOOD = level()
add("rc2_parts", "intact", GOOD,
    Ok(check=lambda lvl: len(lvl.collision()["quads"]) == 4
       and len(lvl.sky()["shells"]) == 2 and len(lvl.level_chunks) == 1))

# collision: header words, the Z node, a Y entry, an X entry, octant counts
m = struct.unpack_from("<i", COLLISION, 0)[0]
zo = 4 * struct.unpack_from("<H", COLLISION, m + 4)[0]
yo = struct.unpack_from("<I", COLLISION, m + zo + 4)[0]
xe = struct.unpack_from("<I", COLLISION, m + yo + 4)[0]
octant = m + (xe >> 8)
FIELDS = [("header mesh", 0, "<I"), ("header hero groups", 4, "<I"),
          ("Z coord", m, "<H"), ("Z count", m + 2, "<H"), ("Z entry", m + 4, "<H"),
          ("Y count", m + zo + 2, "<H"), ("Y entry", m + zo + 4, "<I"),
          ("X count", m + yo + 2, "<H"), ("X entry", m + yo + 4, "<I"),
          ("octant faces", octant, "<H"), ("octant vertices", octant + 2, "<B"),
          ("octant quads", octant + 3, "<B")]
for name, off, fmt in FIELDS:
    old = struct.unpack_from(fmt, COLLISION, off)[0]
    top = (1 << (8 * struct.calcsize(fmt))) - 1
    for v in sorted({v & top for v in (0, 1, old + 1, max(old - 1, 0), top, top >> 1)}
                    - {old}):
        add("rc2_parts", f"collision {name} = {v:#x}",
            lambda off=off, fmt=fmt, v=v: level(collision=patched(COLLISION, off, fmt, v)),
            Either())

# sky: header counts and offsets, the first shell's and cluster's headers
shell = struct.unpack_from("<i", SKY, 0x20)[0]
SKY_FIELDS = [("shell count", 6, "<H"), ("texture count", 0x0C, "<H"),
              ("fx count", 0x0E, "<H"), ("texture defs", 0x10, "<I"),
              ("texture data", 0x14, "<I"), ("fx list", 0x18, "<I"),
              ("shell 0", 0x20, "<I"), ("shell 1", 0x24, "<I"),
              ("cluster count", shell, "<I"), ("shell flags", shell + 4, "<I"),
              ("cluster data", shell + 0x20, "<I"),
              ("vertex count", shell + 0x24, "<H"), ("tri count", shell + 0x26, "<H"),
              ("vertex offset", shell + 0x28, "<H"), ("st offset", shell + 0x2A, "<H"),
              ("tri offset", shell + 0x2C, "<H"), ("data size", shell + 0x2E, "<H")]
for name, off, fmt in SKY_FIELDS:
    old = struct.unpack_from(fmt, SKY, off)[0]
    top = (1 << (8 * struct.calcsize(fmt))) - 1
    for v in sorted({v & top for v in (0, old + 1, max(old - 1, 0), top, top >> 1)}
                    - {old}):
        add("rc2_parts", f"sky {name} = {v:#x}",
            lambda off=off, fmt=fmt, v=v: level(sky=patched(SKY, off, fmt, v)), Either())

# chunk extent header (uncompressed, in the file)
_lvl = wadkit.rc2.from_bytes(GOOD)
chunk_at = _lvl.extents["chunk1"][0]
for k, part in ((0, "tfrags"), (4, "collision")):
    for v in sorted({8, 16, 0x7FF, 0x800, *U32_EXTREMES}):
        add("rc2_parts", f"chunk1 {part} offset = {v:#x}",
            with_u32(GOOD, chunk_at + k, v), Either())
add("rc2_parts", "chunk1 streams cut", lambda: level(chunks={1: CHUNKS[1][:40]}), Either())
