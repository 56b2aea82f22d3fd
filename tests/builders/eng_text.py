"""ENG TEXT payloads, built from the spec (docs/formats/eng.md "TEXT" and
docs/formats/eng.md "TEXT") with struct only:

    u32 nPal; nPal × {u32 index, u32 n, n × u16 ABGR1555, n × u8}
    u32 nPages; nPages × {u32 flags, u32 w, u32 h, data}
        flags & 0x80: u32 byte length + RLE16 words
        flags != 0:   w·h × u16
        flags == 0:   w·h × u8 palette indices
    u32 nTex; nTex × {u16 flags, i8 page, i8 page2, u8 u0, u1, v0, v1}
    tail: u32 nEffects + effect records
"""
from __future__ import annotations

import struct


def palette(colors: list[int], extra: bytes | None = None, index: int = 0) -> bytes:
    extra = bytes(len(colors)) if extra is None else extra
    assert len(extra) == len(colors)
    return (struct.pack("<II", index, len(colors))
            + struct.pack(f"<{len(colors)}H", *colors) + extra)


def page_pal8(w: int, h: int, indices: bytes) -> bytes:
    assert len(indices) == w * h
    return struct.pack("<III", 0, w, h) + bytes(indices)


def page_rgb16(w: int, h: int, words: list[int], flags: int = 1) -> bytes:
    assert len(words) == w * h and flags and not flags & 0x80
    return struct.pack("<III", flags, w, h) + struct.pack(f"<{len(words)}H", *words)


def literal(words: list[int]) -> list[int]:
    """An RLE16 literal run: count word n >= 0, then n pixel words."""
    return [len(words)] + list(words)


def repeat(n: int, word: int) -> list[int]:
    """An RLE16 repeat run: count word -n, then the pixel word."""
    return [(-n) & 0xFFFF, word]


def page_rle16(w: int, h: int, stream: list[int], flags: int = 0x80,
               byte_length: int | None = None) -> bytes:
    data = struct.pack(f"<{len(stream)}H", *[x & 0xFFFF for x in stream])
    n = len(data) if byte_length is None else byte_length
    return struct.pack("<IIII", flags, w, h, n) + data


def entry(flags=0, page=0, page2=-1, u0=0, u1=0, v0=0, v1=0) -> bytes:
    return struct.pack("<HbbBBBB", flags, page, page2, u0, u1, v0, v1)


def text(palettes=(), pages=(), entries=(), tail: bytes = b"",
         page_count: int | None = None, palette_count: int | None = None,
         entry_count: int | None = None) -> bytes:
    out = struct.pack("<I", len(palettes) if palette_count is None else palette_count)
    out += b"".join(palettes)
    out += struct.pack("<I", len(pages) if page_count is None else page_count)
    out += b"".join(pages)
    out += struct.pack("<I", len(entries) if entry_count is None else entry_count)
    out += b"".join(entries)
    return out + tail


# Effect records (layout per type from ArgonautReverse, Croc 2 PC).
def effect(texture: int, type_: int, params: bytes, frames: list[int] = ()) -> bytes:
    return (struct.pack("<HB", texture, type_) + params
            + struct.pack(f"<{len(frames)}H", *frames))


def effects(records: list[bytes]) -> bytes:
    return struct.pack("<I", len(records)) + b"".join(records)


def rle16_decode(words: list[int], n_pixels: int) -> list[int]:
    """Reference decoder straight from the spec (for checking our encoder)."""
    out, i = [], 0
    while len(out) < n_pixels:
        c = struct.unpack("<h", struct.pack("<H", words[i]))[0]
        i += 1
        if c >= 0:
            out += words[i:i + c]
            i += c
        else:
            out += [words[i]] * -c
            i += 1
    assert len(out) == n_pixels and i == len(words)
    return out


def rle16_runs(words: list[int]) -> list[tuple[int, int]]:
    """(start pixel, length) of each run in a stream."""
    runs, i, px = [], 0, 0
    while i < len(words):
        c = struct.unpack("<h", struct.pack("<H", words[i]))[0]
        n = c if c >= 0 else -c
        runs.append((px, n))
        px += n
        i += 1 + (c if c >= 0 else 1)
    return runs


def read_pages(payload: bytes) -> list[dict]:
    """Walk a TEXT payload (spec layout): each page's header, data and the
    offset of its record, for checking what our writer produced."""
    pos = 0
    (npal,) = struct.unpack_from("<I", payload, pos)
    pos += 4
    for _ in range(npal):
        _, n = struct.unpack_from("<II", payload, pos)
        pos += 8 + 3 * n
    (npages,) = struct.unpack_from("<I", payload, pos)
    pos += 4
    pages = []
    for _ in range(npages):
        start = pos
        flags, w, h = struct.unpack_from("<III", payload, pos)
        pos += 12
        if flags & 0x80:
            (n,) = struct.unpack_from("<I", payload, pos)
            pos += 4
            words = list(struct.unpack_from(f"<{n // 2}H", payload, pos))
            pos += n
        elif flags:
            words = list(struct.unpack_from(f"<{w * h}H", payload, pos))
            pos += 2 * w * h
        else:
            words = list(payload[pos:pos + w * h])
            pos += w * h
        pages.append(dict(flags=flags, w=w, h=h, words=words, start=start,
                          record=payload[start:pos]))
    return pages
