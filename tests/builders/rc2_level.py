"""RC2 LEVEL<n>.WAD fixtures built from the spec (docs/formats/rc2.md),
plain Python + struct. Compressed parts come from the tests' own WAD-LZ
builder (builders.wadlz), never from wadkit's C encoder.

Default layout (offsets in bytes):
    0x0000  level header (0x60, or 0x68 variant), padded to a sector
    0x0800  data extent (sector 1): 0x58-byte pair table, then sections at
            DATA_SECTIONS offsets; core_data is a WAD-LZ stream
    then    sound_bank, gameplay (WAD-LZ), occlusion, a sector or more each
"""
from __future__ import annotations

import struct

from . import wadlz

SECTOR = 2048

# core_data regions (offsets into the decompressed core data)
CORE_SIZE = 0x3000
REGIONS = {"tfrags": 0x0, "occlusion": 0x1000, "sky": 0x1400,
           "collision": 0x1800, "textures_base": 0x2000}
CORE_OFFSETS = {"tfrags": 0x08, "occlusion": 0x0C, "sky": 0x10,
                "collision": 0x14, "textures_base": 0x60}


def pad_sector(b: bytes) -> bytes:
    return b + bytes(-len(b) % SECTOR)


def core_plain() -> bytes:
    """Decompressed core data: each region filled with its own pattern."""
    out = bytearray(CORE_SIZE)
    for i in range(CORE_SIZE):
        region = sum(i >= v for v in REGIONS.values())
        out[i] = (region * 40 + (i % (region + 3))) & 0xFF
    return bytes(out)


def gameplay_plain() -> bytes:
    """Ten distinct bytes, then eight of them again 10 back (a little match
    right after the opening literal run, as in the spec record's dump:
    `07 50 01 ...`), then records."""
    head = b"0123456789" + b"01234567" + b"X"
    return head + b"".join(struct.pack("<IIff", i, i * 3, i * 0.25, -i * 1.5)
                           for i in range(300))


def core_parts(tfrags: bytes = b"", occlusion: bytes = b"", sky: bytes = b"",
               collision: bytes = b"", texels: bytes = b"") -> tuple[bytes, dict]:
    """Decompressed core data holding the given blocks one after another,
    each 16-aligned and at least 16 bytes (the region offsets must
    increase), and the core header fields that point at them."""
    core, fields = bytearray(), {}
    for name, blob in (("tfrags", tfrags), ("occlusion", occlusion), ("sky", sky),
                       ("collision", collision), ("textures_base", texels)):
        core += bytes(-len(core) % 16)
        fields[CORE_OFFSETS[name]] = len(core)
        core += blob + bytes(max(0, 16 - len(blob)))
    return bytes(core), fields


def chunk(tfrags: bytes | None = None, collision: bytes | None = None) -> bytes:
    """A chunk extent: {s32 tfrags, s32 collision} offsets from its start
    (0 = none), then each block as a WAD-LZ stream, 16-aligned."""
    out = bytearray(8)
    for k, blob in enumerate((tfrags, collision)):
        if blob is None:
            continue
        out += bytes(-len(out) % 16)
        struct.pack_into("<i", out, 4 * k, len(out))
        out += wadlz.greedy_compress(blob)
    return bytes(out)


def core_header(fields: dict[int, int]) -> bytes:
    h = bytearray(0xBC)
    for off, value in fields.items():
        struct.pack_into("<i", h, off, value)
    return bytes(h)


def level(*, variant: int = 0x60, level_id: int = 30, reverb: int = 5,
          core: bytes | None = None, core_stream: bytes | None = None,
          core_fields: dict[int, int] | None = None,
          gameplay: bytes | None = None,
          index_tail: bytes = bytes(range(0x44)),
          compress=wadlz.greedy_compress,
          chunks: dict[int, bytes] | None = None,
          gs_ram: bytes | None = None) -> tuple[bytes, dict]:
    """A whole level file and a dict of where things went. index_tail: the
    core_index after its 0xbc-byte header (at least 0x44 bytes: the gs_ram
    and tfrag texture tables the default fields point at lie there);
    compress: the WAD-LZ encoder of both streams (builders.wadlz); chunks:
    chunk extents by index (0..2), e.g. from chunk(); gs_ram: the
    gs_ram section (default 1 KiB: one palette of bytes 0..255)."""
    core = core_plain() if core is None else core
    stream = compress(core) if core_stream is None else core_stream
    fields = {0x00: 1, 0x04: 0xBC,               # gs_ram {count, offset}
              0x30: 2, 0x34: 0xC0,               # tfrag_textures {count, offset}
              0x88: len(stream), 0x8C: len(core)}
    for name, off in CORE_OFFSETS.items():
        fields[off] = REGIONS[name]
    fields.update(core_fields or {})
    assert len(index_tail) >= 0x44
    core_index = core_header(fields) + index_tail             # 0x100 bytes or more

    # data extent: pair table, then the sections 0x10-aligned
    sections = [("overlay", b"\xab" * 0x20), ("core_index", core_index),
                ("gs_ram", bytes(range(256)) * 4 if gs_ram is None else gs_ram), ("hud_header", b"H" * 0x10),
                ("hud_bank0", b"B" * 0x20), ("hud_bank1", b""),
                ("hud_bank2", b""), ("hud_bank3", b""), ("hud_bank4", b""),
                ("core_data", stream), ("transition_textures", b"T" * 0x30)]
    table = bytearray(0x58)
    body = bytearray()
    where = {}
    pos = 0x60
    for i, (name, blob) in enumerate(sections):
        if blob:
            struct.pack_into("<ii", table, 8 * i, pos, len(blob))
            where[name] = (pos, len(blob))
            body += bytes(pos - 0x58 - len(body)) + blob
            pos = 0x58 + len(body)
            pos += -pos % 0x10
    data = bytes(table) + bytes(body)

    plain_gp = gameplay_plain() if gameplay is None else gameplay
    gp = compress(plain_gp)
    extents = [("data", data), ("sound_bank", b"\0" * 0x18 + b"SBlk" + b"\1" * 0x1e4),
               ("gameplay", gp), ("occlusion", bytes(range(256)))]
    extents += [(f"chunk{i}", blob) for i, blob in sorted((chunks or {}).items())]
    hsize = variant
    head = bytearray(hsize)
    struct.pack_into("<iii", head, 0, hsize, 1234, level_id)
    slot = ({"data": 0x10, "sound_bank": 0x18, "gameplay": 0x20, "occlusion": 0x28,
             "chunk0": 0x30, "chunk1": 0x38, "chunk2": 0x40}
            if variant == 0x60 else
            {"data": 0x0C, "sound_bank": 0x14, "gameplay": 0x1C,
             "gameplay_pal": 0x24, "occlusion": 0x2C,
             "chunk0": 0x34, "chunk1": 0x3C, "chunk2": 0x44})
    struct.pack_into("<i", head, 0x0C if variant == 0x60 else 0x4C, reverb)
    out = bytearray(pad_sector(bytes(head)))
    ext_where = {}
    for name, blob in extents:
        sector, count = len(out) // SECTOR, (len(blob) + SECTOR - 1) // SECTOR
        struct.pack_into("<ii", head, slot[name], sector, count)
        ext_where[name] = (sector, count)
        out += pad_sector(blob)
    if variant == 0x68:                      # PAL gameplay: same stream again
        sector, count = ext_where["gameplay"]
        struct.pack_into("<ii", head, slot["gameplay_pal"], sector, count)
        ext_where["gameplay_pal"] = (sector, count)
    out[:hsize] = head
    return bytes(out), {"sections": where, "extents": ext_where,
                        "core": core, "core_stream": stream,
                        "gameplay": plain_gp, "gameplay_stream": gp}


def stored(data: bytes) -> bytes:
    """A WAD-LZ stream of literal runs only (dummies between them), laid out
    by the game's block rule: fast to build for large fixtures."""
    packets = []
    for i in range(0, len(data), 273):
        if packets:
            packets.append(wadlz.dummy())
        chunk = data[i:i + 273]
        if len(chunk) < 4:       # a run holds 4..273 bytes; a dummy carries 0..3
            packets[-1:] = [wadlz.dummy(chunk)]
            continue
        packets.append(wadlz.run(chunk))
    return wadlz.layout(packets)


def whole_level(gameplay: bytes, classes: dict, texture_counts: dict | None = None,
                core: bytes | None = None, compress=wadlz.greedy_compress,
                index_head: bytes = bytes(range(0x44)), **kw) -> tuple[bytes, dict]:
    """A level with gameplay and core class tables (builders.rc2_core):
    core_data = `core` (default core_plain()) with the classes' data
    appended; core_index = header, index_head (0x44 bytes: where the
    default gs_ram and tfrag texture tables lie), then the
    class and texture tables at 0x100. The returned dict adds "class_offsets"
    ({kind: [data offsets]}) and "core_fields"."""
    from . import rc2_core
    counts = texture_counts or {"moby": 60, "tie": 80, "shrub": 40}
    core_data, fields, tables, offsets = rc2_core.with_classes(
        core_plain() if core is None else core, classes, counts)
    fields.update(kw.pop("core_fields", {}))
    data, where = level(core=core_data, core_fields=fields, gameplay=gameplay,
                        index_tail=index_head + tables, compress=compress, **kw)
    where.update(class_offsets=offsets, core_fields=fields)
    return data, where
