"""RC2 core class tables from the spec (docs/formats/rc2-gameplay.md, "Core class
tables"), plain Python + struct; never wadkit's C code.

The core header holds {count, offset into core_index} of the moby (0x18),
tie (0x20) and shrub (0x28) class tables and of their texture tables (0x38,
0x40, 0x48). An entry: s32 offset into the decompressed core_data (0 = no
data), s32 class number, two words, u8 textures[16] (0xff = none); shrub
entries add 8 s16 of billboard info (0x30 bytes in all). Class data is
appended to core_data at 0x40-byte boundaries, as Wrench's packer does.
"""
from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field

# kind: (table slot, texture-table slot, entry size); the tables go into
# core_index in this order, as in Wrench's packer.
KINDS = {"moby": (0x18, 0x38, 0x20), "tie": (0x20, 0x40, 0x20),
         "shrub": (0x28, 0x48, 0x30)}
TEXTURE_ENTRY = 0x10


@dataclass
class ClassSpec:
    id: int
    data: bytes | None              # None: offset 0 (no data in core_data)
    textures: list[int] = field(default_factory=list)
    word_8: int = 0
    word_c: int = 0
    billboard: tuple = (0,) * 8
    slots: bytes | None = None      # all 16 texture bytes, when given


def entry(kind: str, offset: int, c: ClassSpec) -> bytes:
    slots = c.slots if c.slots is not None else bytes(c.textures) + b"\xff" * (16 - len(c.textures))
    out = struct.pack("<4i", offset, c.id, c.word_8, c.word_c) + slots
    if kind == "shrub":
        out += struct.pack("<8h", *c.billboard)
    assert len(out) == KINDS[kind][2]
    return out


def with_classes(core: bytes, classes: dict[str, list[ClassSpec]],
                 texture_counts: dict[str, int], index_at: int = 0x100,
                 align: int = 0x40, texture_entries: dict[str, list[bytes]] | None = None
                 ) -> tuple[bytes, dict[int, int], bytes, dict]:
    """Append every class's data to core (moby, tie, shrub order, each at an
    `align` boundary) and build the tables for core_index starting at
    `index_at`. texture_entries: the 16-byte texture entries of a kind's
    table (default: texture_counts[kind] 8x8 entries at data offset 0,
    palette 0). Returns (core_data, core header fields {offset: value},
    the core_index bytes from index_at on, {kind: [data offsets]})."""
    out = bytearray(core)
    offsets: dict[str, list[int]] = {}
    for kind in KINDS:
        offsets[kind] = []
        for c in classes.get(kind, []):
            if c.data is None:
                offsets[kind].append(0)
                continue
            out += bytes(-len(out) % align)
            offsets[kind].append(len(out))
            out += c.data
    out += bytes(-len(out) % 0x10)
    fields: dict[int, int] = {}
    table = bytearray()
    for kind, (slot, _, _) in KINDS.items():
        table += bytes(-(index_at + len(table)) % 0x10)
        fields[slot], fields[slot + 4] = len(classes.get(kind, [])), index_at + len(table)
        for off, c in zip(offsets[kind], classes.get(kind, [])):
            table += entry(kind, off, c)
    for kind, (_, tex_slot, _) in KINDS.items():
        table += bytes(-(index_at + len(table)) % 0x10)
        given = (texture_entries or {}).get(kind)
        n = texture_counts.get(kind, 0) if given is None else len(given)
        fields[tex_slot], fields[tex_slot + 4] = n, index_at + len(table)
        table += b"".join(given) if given is not None else \
            b"".join(struct.pack("<ihhhhhh", 0, 8, 8, 1, 0, 0, 0) for _ in range(n))
    return bytes(out), fields, bytes(table), offsets


def generated_classes(numbers: dict[str, list[int]], seed: int = 16,
                      texture_counts=None) -> dict[str, list[ClassSpec]]:
    """Classes for the given class numbers: opaque data of 0x100..0x900
    bytes (a byte pattern per class, compressible as real meshes are),
    1..6 textures each; a few moby classes without data (offset 0), as
    levels have classes whose code lives elsewhere."""
    rng = random.Random(seed)
    texture_counts = texture_counts or {"moby": 60, "tie": 80, "shrub": 40}
    out: dict[str, list[ClassSpec]] = {}
    for kind, ids in numbers.items():
        specs = []
        for i, cid in enumerate(ids):
            size = rng.randrange(0x100, 0x900, 0x10)
            unit = struct.pack("<4h", cid & 0x7FFF, i, rng.randrange(-300, 300), 0x1000)
            data = (unit * (size // 8 + 1))[:size]
            if kind == "moby" and i % 9 == 4:
                data = None
            tex = rng.sample(range(texture_counts[kind]), rng.randrange(1, 7))
            bb = (32, 32, 1, 0x40, 0x80, 0, 0, 0) if kind == "shrub" else (0,) * 8
            specs.append(ClassSpec(cid, data, tex, billboard=bb))
        out[kind] = specs
    return out


# The classes of rc2_gameplay.sample()'s instances (one moby class without data).
SAMPLE_CLASSES = {"tie": [ClassSpec(200, b"T" * 0x50, [0, 1]), ClassSpec(300, b"U" * 0x90, [2])],
                  "shrub": [ClassSpec(40, b"S" * 0x30, [1], billboard=(1, 2, 3, 4, 5, 6, 7, 8)),
                            ClassSpec(41, b"s" * 0x20, [])],
                  "moby": [ClassSpec(8, b"M" * 0x70, [0]), ClassSpec(9, None, []),
                           ClassSpec(10, b"N" * 0x10, [3, 4])]}
