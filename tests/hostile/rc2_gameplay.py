"""Hostile rows for the RC2 gameplay (settings, class lists, tie / shrub /
moby instances, tie ambient records) and the core class tables: header
slots, counts and offsets set to 0 / ±1 / extremes, gameplay cut short.
Each row is a whole level built by the spec builders (gameplay stored as
literal WAD-LZ runs), so the bytes the reader sees are the bytes changed."""
from __future__ import annotations

import struct

import wadkit
from builders import rc2_core as C
from builders import rc2_gameplay as G
from builders import rc2_level as R

from . import PARSERS, U32_EXTREMES, Either, Error, Ok, add, with_u32

MAX = 1 << 24


def touch(lvl):
    lvl.gameplay_blocks, lvl.settings, lvl.class_lists, lvl.tie_ambient
    lvl.ties, lvl.shrubs, lvl.mobys
    lvl.tie_classes, lvl.shrub_classes, lvl.moby_classes
    for c in lvl.tie_classes:
        c.data
    return lvl


PARSERS["rc2_gameplay"] = (
    lambda data: touch(wadkit.rc2.from_bytes(data, max_size=MAX)),
    lambda path: touch(wadkit.rc2.open(path, max_size=MAX)))


FIELDS, CLASSES = G.sample(), C.SAMPLE_CLASSES
GP = G.layout(FIELDS["blocks"])


def level(gp: bytes) -> bytes:
    return R.whole_level(gp, CLASSES, compress=R.stored)[0]


def gp_u32(off: int, value: int) -> bytes:
    return with_u32(GP, off, value)


def at(name: str) -> int:
    return struct.unpack_from("<i", GP, G.SLOT[name])[0]


GOOD = level(GP)
add("rc2_gameplay", "intact", GOOD,
    Ok(check=lambda lvl: (len(lvl.ties), len(lvl.shrubs), len(lvl.mobys)) == (3, 2, 2)))

for name in ("settings", "tie_classes", "tie_instances", "shrub_classes",
             "shrub_instances", "moby_classes", "moby_instances",
             "tie_ambient_rgbas", "cameras", "areas"):
    old = at(name) if name in FIELDS["blocks"] else 0
    for v in sorted({0, 1, 0x9B, 0x9C, len(GP) - 1, len(GP), old + 4, *U32_EXTREMES} - {old}):
        expect = Error(offset=G.SLOT[name]) if (v & 0xFFFFFFFF) >= len(GP) or 0 < v < 0x9C \
            else Either()
        add("rc2_gameplay", f"slot {name} = {v & 0xFFFFFFFF:#x}",
            lambda v=v, name=name: level(gp_u32(G.SLOT[name], v)), expect)

# counts in the blocks: records, class numbers, chunk planes
for name, off in (("tie_instances", 0), ("shrub_instances", 0), ("moby_instances", 0),
                  ("tie_classes", 0), ("shrub_classes", 0), ("moby_classes", 0),
                  ("settings", 0x68)):
    old = struct.unpack_from("<i", GP, at(name) + off)[0]
    for v in sorted({0, old + 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x10000} - {old}):
        big = v >= 0x10000
        add("rc2_gameplay", f"{name} count = {v:#x}",
            lambda v=v, name=name, off=off: level(gp_u32(at(name) + off, v)),
            Error() if big and name != "settings" else Either())

# ambient records: index and size words
amb = at("tie_ambient_rgbas")
for k, part in ((0, "index"), (2, "size")):
    for v in (0x7FFF, 0x8000, 0xFFFE, 3):
        add("rc2_gameplay", f"ambient {part} = {v:#x}",
            lambda v=v, k=k: level(GP[:amb + k] + struct.pack("<H", v) + GP[amb + k + 2:]),
            Either())

for n in sorted({0, 4, 0x9B, 0x9C, 0xA0, len(GP) // 2, len(GP) - 1}):
    add("rc2_gameplay", f"gameplay cut at {n}", lambda n=n: level(GP[:n]), Error())

# the core class tables, in the uncompressed core_index of the level file
_, WHERE = R.whole_level(GP, CLASSES, compress=R.stored)
INDEX = R.SECTOR + WHERE["sections"]["core_index"][0]
for slot in (0x18, 0x1C, 0x20, 0x24, 0x28, 0x2C, 0x38, 0x40, 0x48, 0x78, 0xB4):
    old = struct.unpack_from("<I", GOOD, INDEX + slot)[0]
    for v in sorted({0, old + 1, max(old - 1, 0), 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF} - {old}):
        add("rc2_gameplay", f"core header +{slot:#x} = {v:#x}",
            with_u32(GOOD, INDEX + slot, v), Either())
