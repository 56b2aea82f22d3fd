"""WAD-LZ, the LZ compression of Ratchet & Clank 2 (PS2) level data.

    data = wadkit.lz.decompress(buf, max_size=1 << 28)  # FormatError if bad
    buf = wadkit.lz.compress(data)                      # a game-safe stream
    wadkit.lz.validate(buf)                             # [] when clean

The stream format and the game's rules are in docs/formats/rc2.md.
"""
from __future__ import annotations

from . import _core

DEFAULT_MAX_SIZE = 1 << 28


def decompress(buf, max_size: int = DEFAULT_MAX_SIZE) -> bytes:
    """Decode a whole WAD-LZ stream (16-byte header included). Bytes after
    the size its header declares are ignored. Raises wadkit.FormatError on
    any broken stream, and when the output would exceed max_size bytes."""
    return _core.lz_decompress(buf, max_size)


def compress(data) -> bytes:
    """A WAD-LZ stream the game can load: hash-chain matching with lazy
    evaluation (and a greedy parse, keeping the smaller stream: never larger
    than greedy), no two literal runs in a row, no packet crossing a 0x2000
    block, and only packet forms every known reader decodes alike."""
    return _core.lz_compress(data)


def validate(buf) -> list[str]:
    """Every rule the stream breaks, as messages starting with the offset
    of the packet; [] when it is clean."""
    return _core.lz_validate(buf)
