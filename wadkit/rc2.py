"""RC2 levels (Ratchet & Clank: Going Commando, PS2 LEVEL<n>.WAD): Python API.

    lvl = wadkit.rc2.open("LEVEL0.WAD")
    lvl.header        # {'header_size', 'sector', 'id', 'reverb'}
    lvl.extents       # {'data': (byte offset, byte size), ...}, present ones
    lvl.core_index    # memoryview of the uncompressed core index
    lvl.core_header   # its 0xbc-byte header, parsed
    lvl.core_data     # decompressed once, on first use
    lvl.gameplay      # decompressed once, on first use
"""
from __future__ import annotations

import os
from functools import cached_property

from . import _core
from .lz import DEFAULT_MAX_SIZE


class Level:
    """An RC2 level WAD, parsed and cross-checked; the file stays mapped."""

    def __init__(self, level: _core.Rc2Level, path: str | None = None,
                 max_size: int = DEFAULT_MAX_SIZE):
        self._lvl = level
        self.path = path
        self.max_size = max_size
        self.header = level.header
        raw = level.extents
        self.extents = {n: (off, size) for n, (off, size, _, _) in raw.items()
                        if size}
        self.sectors = {n: (sec, cnt) for n, (_, _, sec, cnt) in raw.items()}
        self.sections = {n: r for n, r in level.sections.items() if r[1]}
        self.core_header = level.core_header

    def _view(self, offset: int, size: int) -> memoryview:
        return memoryview(self._lvl)[offset:offset + size]

    def section(self, name: str) -> memoryview:
        """A data-extent section ('overlay', 'gs_ram', 'hud_bank0', ...) as
        a zero-copy view; KeyError when the level has none."""
        return self._view(*self.sections[name])

    def extent(self, name: str) -> memoryview:
        """A whole extent ('data', 'sound_bank', 'occlusion', ...)."""
        return self._view(*self.extents[name])

    @property
    def core_index(self) -> memoryview:
        return self.section("core_index")

    @property
    def gs_ram(self) -> memoryview:
        return self.section("gs_ram")

    @cached_property
    def core_data(self) -> bytes:
        """The decompressed core data; its size is checked against the core
        header (0x8c)."""
        return self._lvl.decompress("core_data", self.max_size)

    @cached_property
    def gameplay(self) -> bytes:
        """The decompressed gameplay extent (NTSC one in the 0x68 variant)."""
        return self._lvl.decompress("gameplay", self.max_size)

    def info(self) -> dict:
        """What `wadkit info` shows, as plain data (nothing decompressed)."""
        return {
            "format": "rc2",
            "path": self.path,
            "size": len(memoryview(self._lvl)),
            "header": self.header,
            "extents": {n: {"offset": o, "size": s,
                            "sector": self.sectors[n][0],
                            "sectors": self.sectors[n][1]}
                        for n, (o, s) in self.extents.items()},
            "sections": {n: {"offset": o, "size": s}
                         for n, (o, s) in self.sections.items()},
            "core_header": {n: list(v) if isinstance(v, tuple) else v
                            for n, v in self.core_header.items()},
        }


def open(path: str | os.PathLike, max_size: int = DEFAULT_MAX_SIZE) -> Level:
    """Open an RC2 LEVEL<n>.WAD (memory-mapped). Raises wadkit.FormatError.
    max_size caps every decompressed stream."""
    return Level(_core.Rc2Level(os.fspath(path)), os.fspath(path), max_size)


def from_bytes(data, max_size: int = DEFAULT_MAX_SIZE) -> Level:
    """Parse a level held in memory (the bytes are copied)."""
    return Level(_core.Rc2Level(data), None, max_size)
