"""Hostile rows for the RC2 LEVEL<n>.WAD container and what is read through
it (core_data and gameplay decompressed, tfrag terrain of each LOD, patches,
textures): header extent pairs, the data extent's section table and the core
header's fields set to 0 / ±1 / extremes, cuts at sector boundaries."""
from __future__ import annotations

import struct

import wadkit
from builders import rc2_level as R

from . import PARSERS, U32_EXTREMES, Either, Error, Ok, add, with_u32

MAX = 1 << 24


def touch(lvl):
    lvl.core_data, lvl.gameplay
    for lod in range(3):
        lvl.terrain(lod)
    lvl.patches, lvl.tfrag_textures, lvl.info()
    return lvl


PARSERS["rc2"] = (lambda data: touch(wadkit.rc2.from_bytes(data, max_size=MAX)),
                  lambda path: touch(wadkit.rc2.open(path, max_size=MAX)))

def _level_with_terrain():
    """The tfrag test's level: two patches in core_data, two textures."""
    from test_rc2_tfrag import level_with_terrain
    data = level_with_terrain()
    _, where = R.level()          # the same layout: only core_data differs
    return data, where


GOOD, WHERE = _level_with_terrain()
add("rc2", "intact", GOOD, Ok())
# header: {sector, count} pairs of data, sound_bank, gameplay, occlusion
for slot, name in ((0x10, "data"), (0x18, "sound_bank"), (0x20, "gameplay"), (0x28, "occlusion")):
    for k, part in ((0, "sector"), (4, "count")):
        old = struct.unpack_from("<i", GOOD, slot + k)[0]
        for v in sorted({0, (old - 1) & 0xFFFFFFFF, old + 1, *U32_EXTREMES} - {old}):
            add("rc2", f"header {name} {part} = {v:#x}",
                with_u32(GOOD, slot + k, v), Either())
add("rc2", "header size field 0", with_u32(GOOD, 0, 0), Error())
add("rc2", "header size field 0x64", with_u32(GOOD, 0, 0x64), Error())
# the data extent's {offset, size} table of sections
data_off = WHERE["extents"]["data"][0] * R.SECTOR
for i in range(11):
    for k, part in ((0, "offset"), (4, "size")):
        at = data_off + 8 * i + k
        old = struct.unpack_from("<i", GOOD, at)[0]
        for v in sorted({(old - 1) & 0xFFFFFFFF, old + 1, 0x7FFFFFFF, 0xFFFFFFFF} - {old}):
            add("rc2", f"section {i} {part} = {v & 0xFFFFFFFF:#x}", with_u32(GOOD, at, v),
                Either())
# core header fields (in core_index)
core_at = data_off + WHERE["sections"]["core_index"][0]
for off in (0x00, 0x04, 0x08, 0x0C, 0x10, 0x30, 0x34, 0x88, 0x8C):
    old = struct.unpack_from("<I", GOOD, core_at + off)[0]
    for v in sorted({0, old + 1, max(old - 1, 0), 0x7FFFFFFF, 0xFFFFFFFF} - {old}):
        add("rc2", f"core header +{off:#x} = {v:#x}", with_u32(GOOD, core_at + off, v),
            Either())
for n in sorted({0, 4, 0x5F, 0x60, R.SECTOR - 1, R.SECTOR, len(GOOD) // 2, len(GOOD) - 1}):
    add("rc2", f"cut at {n}", GOOD[:n], Error())
