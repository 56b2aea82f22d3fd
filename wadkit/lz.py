"""WAD-LZ, the LZ compression of Ratchet & Clank 2 (PS2) level data.

    data = wadkit.lz.decompress(buf, max_size=1 << 28)  # FormatError if bad
    buf = wadkit.lz.compress(data)                      # a game-safe stream
    buf = wadkit.lz.compress(data, level="max", threads=0)
    wadkit.lz.validate(buf)                             # [] when clean

The stream format and the game's rules are in docs/formats/rc2-wadlz.md; the
levels' speed and size in docs/performance.md.
"""
from __future__ import annotations

from typing import Literal

from . import _core

DEFAULT_MAX_SIZE = 1 << 28

Level = Literal["default", "fast", "max", "best", "lazy", "greedy"]
LEVELS: tuple[str, ...] = ("default", "fast", "max", "best", "lazy", "greedy")


def decompress(buf, max_size: int = DEFAULT_MAX_SIZE) -> bytes:
    """Decode a whole WAD-LZ stream (16-byte header included). Bytes after
    the size its header declares are ignored. Raises wadkit.FormatError on
    any broken stream, and when the output would exceed max_size bytes."""
    return _core.lz_decompress(buf, max_size)


def compress(data, level: Level = "default", threads: int = 1) -> bytes:
    """A WAD-LZ stream the game can load: no two literal runs in a row, no
    packet crossing a 0x2000 block, and only packet forms every known reader
    decodes alike.

    level: "default" (a lazy parse, ~1.2-1.4x the speed of the first
    encoder's "greedy" and no larger than its "best" on make bench's
    inputs), "fast" (a greedy parse: ~1.9x greedy's speed, ~4 % larger than
    "best"; what RC2 saves use),
    "max" (an optimal parse over the format's costs: ~3 % smaller, ~20x
    slower), or the first encoder's "best", "lazy", "greedy" (kept for
    comparison). threads: parse the input's 1 MiB blocks
    on this many threads (0: one per processor); the stream is the same
    for any number of threads."""
    return _core.lz_compress(data, level=level, threads=threads)


def validate(buf) -> list[str]:
    """Every rule the stream breaks, as messages starting with the offset
    of the packet; [] when it is clean."""
    return _core.lz_validate(buf)
