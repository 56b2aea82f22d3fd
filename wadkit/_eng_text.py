"""ENG TEXT chunk (textures) for wadkit.eng.Level: glue over _core.EngText.

Format and the assumptions made: docs/formats/eng.md, section "TEXT".
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _core


class Palette(NamedTuple):
    index: int          # the record's first u32 as stored (meaning unknown)
    rgba: np.ndarray    # (n, 4) uint8
    extra: np.ndarray   # (n,) uint8, the n bytes after the colours


class Page:
    """One texture page. .rgba is decoded on first use (H, W, 4) uint8."""

    __slots__ = ("index", "kind", "flags", "width", "height", "palette",
                 "palette_shared", "replaced", "_text", "_rgba")

    def __init__(self, text: _core.EngText, index: int, info: tuple):
        (self.kind, self.flags, self.width, self.height, palette,
         self.palette_shared, self.replaced) = info
        self.palette = palette if palette >= 0 else None
        self.index = index
        self._text = text
        self._rgba = None

    @property
    def rgba(self) -> np.ndarray:
        if self._rgba is None:
            self._rgba = self._text.page_rgba(self.index)
            self._rgba.flags.writeable = False
        return self._rgba

    def __repr__(self) -> str:
        pal = f", palette={self.palette}" if self.kind == "pal8" else ""
        return (f"Page({self.index}, {self.kind!r}, {self.width}x{self.height}, "
                f"flags=0x{self.flags:x}{pal})")


class Textures:
    """The parsed TEXT of one level; Level keeps one and rebuilds the chunk
    from it whenever a page changes."""

    def __init__(self, payload, base_offset: int):
        self.core = _core.EngText(payload, base_offset)
        self._pages: list[Page] | None = None

    @property
    def pages(self) -> list[Page]:
        if self._pages is None:
            self._pages = [Page(self.core, i, info)
                           for i, info in enumerate(self.core.pages)]
        return self._pages

    @property
    def palettes(self) -> list[Palette]:
        return [Palette(*p) for p in self.core.palettes]

    def set_page_rgba(self, i: int, rgba) -> bytes:
        """Re-encode page i; returns the new TEXT payload."""
        rgba = np.asarray(rgba)
        if rgba.dtype != np.uint8:
            raise TypeError(f"page pixels must be uint8 RGBA, not {rgba.dtype}")
        self.core.set_page_rgba(i, np.ascontiguousarray(rgba))
        self._pages = None
        return self.core.build()

    def add_page(self, rgba, kind: str) -> tuple[int, bytes]:
        """Append a 16-bit page; returns (its index, the new TEXT payload)."""
        rgba = np.asarray(rgba)
        if rgba.dtype != np.uint8:
            raise TypeError(f"page pixels must be uint8 RGBA, not {rgba.dtype}")
        i = self.core.add_page(np.ascontiguousarray(rgba), kind)
        self._pages = None
        return i, self.core.build()

    def add_entry(self, flags: int, page: int, palette: int, uv) -> tuple[int, bytes]:
        """Append a texture-table entry (uv = u0, v0, u1, v1 as stored);
        returns (its index, the new TEXT payload)."""
        u0, v0, u1, v1 = (int(x) for x in uv)
        i = self.core.add_entry(int(flags), int(page), int(palette), u0, u1, v0, v1)
        return i, self.core.build()

    def add_flat_entry(self, flags: int, rgb) -> tuple[int, bytes]:
        r, g, b = (int(x) for x in rgb)
        i = self.core.add_flat_entry(int(flags), r, g, b)
        return i, self.core.build()
