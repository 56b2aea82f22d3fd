"""Hostile rows for WAD-LZ (wadkit.lz.decompress, max_size 16 MiB): every
cut of valid streams, the size field lying every way, back-references
before the start of the output, a bomb (small input, huge output)."""
from __future__ import annotations

import mmap
import struct

from wadkit import lz
from builders import wadlz as W

from . import PARSERS, U32_EXTREMES, Either, Error, Ok, add, with_bytes

MAX = 1 << 24


def parse_path(path):
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        with memoryview(m) as view:
            return lz.decompress(view, max_size=MAX)


PARSERS["lz"] = (lambda data: lz.decompress(data, max_size=MAX), parse_path)

TEXT = b"The quick brown fox jumps over the lazy dog. " * 8
GOOD = {
    "literals": W.stream(W.run(b"hello, world")),
    "little": W.stream(W.run(b"abcdefgh") + W.little(5, 8)),
    "medium": W.stream(W.run(bytes(range(64))) + W.medium(40, 64, b"xy")),
    "greedy": W.greedy_compress(TEXT),
}

for label, good in GOOD.items():
    add("lz", f"{label}: intact", good, Ok())
    for n in range(len(good)):
        add("lz", f"{label}: cut at {n}", good[:n], Error())
    for v in sorted({0, 15, 16, len(good) - 1, len(good) + 1, *U32_EXTREMES}):
        data = with_bytes(good, 3, struct.pack("<I", v))
        # shorter: a stream that ends early, or a header-only stream
        add("lz", f"{label}: size field {v:#x}", data,
            Either() if 16 <= v < len(good) else Error())

add("lz", "little match before any output", W.stream(W.little(5, 8)), Error())
add("lz", "medium match reaching before the start",
    W.stream(W.run(b"abcd") + W.medium(40, 64)), Error())
add("lz", "far match reaching before the start",
    W.stream(W.run(b"abcd") + W.far(40, 0x4001)), Error())
add("lz", "not a stream", b"PK\x03\x04" + bytes(60), Error(0))
add("lz", "bomb: 64 MiB of zeros from a small stream",
    lambda: lz.compress(bytes(64 << 20)), Error(match="limit"), max_mb=40)
