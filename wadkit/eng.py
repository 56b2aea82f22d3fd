"""ENG levels (The Emperor's New Groove, PC; Croc-2 engine): Python API.

    with wadkit.eng.open("t1l1m001.wad") as lvl:   # the file stays mapped
        lvl.chunks            # [Chunk(tag='INFO', offset=4, size=4), ...]
        lvl.chunk("TRAK")     # zero-copy memoryview of the payload
        lvl.save("copy.wad")  # byte-identical when nothing changed; atomic
        ed = lvl.edit()       # patch tiles and models in place (wadkit/_eng_edit.py)

Chunk tags are written without the padding the file has ("MAP", "END"):
Chunk.tag, info() and rebuild_geometry() use that form; chunk(), "in" and
replace_chunk() take it or the padded one ("MAP ").
"""
from __future__ import annotations

import os
from typing import NamedTuple

from . import _core
from ._core import MissingChunkError
from ._eng_edit import EditMixin, LevelEdit  # noqa: F401 (wadkit.eng.LevelEdit)
from ._eng_geom import GeometryMixin, ImportMixin
from . import _eng_text
from ._eng_floor import FloorMixin
from ._level import MappedLevel
from .results import TextureTable


class Chunk(NamedTuple):
    tag: str      # chunk name without the file's padding ("MAP", "TRAK")
    offset: int   # offset of the 8-byte chunk header in the file
    size: int     # payload size in bytes (without the header)


def _tag(tag: str) -> str:
    """The one form of a tag: without the trailing blanks of the file."""
    return tag.rstrip(" ")


def missing_chunk(tag: str, message: str | None = None) -> MissingChunkError:
    """The error for a chunk the level lacks (a FormatError and a KeyError);
    message: what it says instead of "this level has no TAG chunk"."""
    err = MissingChunkError(message or f"this level has no {_tag(tag)} chunk")
    err.offset, err.context, err.chunk = None, "ENG WAD", _tag(tag)
    return err


class Level(MappedLevel, GeometryMixin, ImportMixin, EditMixin, FloorMixin):
    """An ENG level WAD. Holds the file mapped until close() (or the end of
    a with block); edits are kept until save()."""

    def __init__(self, wad: _core.EngWad, path: str | None = None):
        self._wad = wad
        self.path = path
        self._raw = wad.chunks
        self.chunks = [Chunk(_tag(name), off, size) for name, off, size, _ in self._raw]
        self._replaced: dict[int, bytes] = {}

    # the mapped file is held until close() (wadkit/_level.py)
    _KEEP = ("path", "chunks", "_raw", "_replaced")

    @property
    def _wad(self) -> _core.EngWad:
        return self._held()

    @_wad.setter
    def _wad(self, wad: _core.EngWad) -> None:
        self._hold(wad)

    def __repr__(self) -> str:
        where = self._where()
        if self.closed:
            return f"<wadkit.eng.Level {where}, closed>"
        edited = f", {len(self._replaced)} chunks replaced" if self._replaced else ""
        return (f"<wadkit.eng.Level {where}: {len(self.chunks)} chunks, "
                f"{self._wad.size} bytes{edited}>")

    @property
    def warnings(self) -> list[str]:
        return self._wad.warnings

    @property
    def declared_length(self) -> int:
        return self._wad.declared_length

    def _index(self, tag: str) -> int:
        tag = _tag(tag)
        for i, c in enumerate(self.chunks):
            if c.tag == tag:
                return i
        raise missing_chunk(tag)

    def __contains__(self, tag: str) -> bool:
        tag = _tag(tag)
        return any(c.tag == tag for c in self.chunks)

    def chunk(self, tag: str) -> memoryview:
        """The payload of a chunk: a replaced one, or a view into the file."""
        i = self._index(tag)
        if i in self._replaced:
            return memoryview(self._replaced[i])
        c = self.chunks[i]
        return memoryview(self._wad)[c.offset + 8:c.offset + 8 + c.size]

    def replace_chunk(self, tag: str, payload) -> None:
        """Give a chunk a new payload (written by to_bytes()/save())."""
        self._replaced[self._index(tag)] = bytes(payload)

    def to_bytes(self) -> bytes:
        """The whole WAD as it would be saved (verified by parsing it again;
        with no chunk replaced it is the file's own bytes)."""
        return self._wad.build(self._replaced or None)

    def save(self, path: str | os.PathLike) -> None:
        """Write atomically (temp file, fsync, rename). Refuses to write over
        the file this level was opened from."""
        if self.path is not None and os.path.exists(path) \
                and os.path.samefile(path, self.path):
            raise ValueError(f"{os.fspath(path)} is the source file of this "
                             "level; save to another path")
        self._wad.save(path, self._replaced or None)

    def info(self) -> dict:
        """What `wadkit info` shows, as plain data."""
        return {
            "format": "eng",
            "path": self.path,
            "size": self._wad.size,
            "declared_length": self._wad.declared_length,
            "chunks": [{"tag": _tag(name), "offset": off, "size": size,
                        "size_field": field}
                       for name, off, size, field in self._raw],
            "warnings": self.warnings,
        }

    # --- TEXT: textures (wadkit/_eng_text.py, docs/formats/eng.md "TEXT") ---
    _text: _eng_text.Textures | None = None
    _text_src: object = None

    def _textures(self) -> _eng_text.Textures:
        """The parsed TEXT chunk (parsed again if the chunk was replaced)."""
        i = self._index("TEXT")
        src = self._replaced.get(i)
        if self._text is None or self._text_src is not src:
            self._text = _eng_text.Textures(self.chunk("TEXT"),
                                            self.chunks[i].offset + 8)
            self._text_src = src
        return self._text

    @property
    def pages(self) -> list[_eng_text.Page]:
        """Texture pages: .rgba (H, W, 4) uint8, .kind 'pal8'|'rgb16'|'rle16',
        .flags, .width, .height, .palette (pal8 only)."""
        return self._textures().pages

    @property
    def palettes(self) -> list[_eng_text.Palette]:
        """[(index field, (n, 4) uint8 RGBA, (n,) uint8 extra bytes)]."""
        return self._textures().palettes

    @property
    def texture_table_raw(self) -> bytes:
        """The texture table as stored: n × 8 bytes."""
        return self._textures().core.table_raw

    @property
    def textures(self) -> TextureTable:
        """The texture table as a dict of NumPy arrays, one row per entry:
        flags u16, page i8, palette i8 (byte 3), uv (n, 4) u8 = u0 v0 u1 v1
        (the file stores them u0 u1 v0 v1), rect (n, 4) f32 = U0 V0 U1 V1
        in 0..1, flat bool, color
        (n, 3) u8 (R, G, B of flat entries, else 0), blend u8 (bits 12-14),
        mode2 u8 (bits 8-10)."""
        return self._textures().core.textures()

    @property
    def texture_effects(self) -> list[dict] | None:
        """The animated-texture records after the table ({texture, type,
        params, frames}), or None when they do not decode (kept as bytes)."""
        return self._textures().core.effects

    def set_page_rgba(self, i: int, rgba) -> None:
        """Replace page i's pixels ((H, W, 4) uint8), encoded in the page's
        own kind; written by save(). Raises wadkit.LimitError when an 8-bit
        page cannot be re-quantised to its one palette."""
        tex = self._textures()
        self.replace_chunk("TEXT", tex.set_page_rgba(i, rgba))
        self._text_src = self._replaced[self._index("TEXT")]

    def add_page(self, rgba, kind: str | None = None) -> int:
        """Append a texture page from (H, W, 4) uint8 RGBA (256 × 256 like
        the game's pages: UVs count in 1/256 of a page); kind 'rgb16' or
        'rle16', None: the kind most of the level's 16-bit pages have
        (rle16 without any). Returns its index. Raises wadkit.LimitError
        when the TEXT already has 128 pages (an entry names its page in an
        i8). docs/formats/eng.md "TEXT"."""
        tex = self._textures()
        if kind is None:
            kinds = [p.kind for p in tex.pages if p.kind != "pal8"]
            kind = "rgb16" if kinds.count("rgb16") > kinds.count("rle16") else "rle16"
        i, payload = tex.add_page(rgba, kind)
        self.replace_chunk("TEXT", payload)
        return i

    def add_texture_entry(self, page: int, uv, flags: int = 0, palette: int = -1) -> int:
        """Append a texture-table entry: page, uv = (u0, v0, u1, v1) as
        lvl.textures["uv"] gives them (u1, v1 inclusive, 0..255), flags u16
        (bits 12-14 the blend mode; bit 0 a flat colour), palette = byte 3.
        Existing entries keep their indices. Returns its index. Raises
        wadkit.LimitError past 65536 entries."""
        i, payload = self._textures().add_entry(flags, page, palette, uv)
        self.replace_chunk("TEXT", payload)
        return i

    def add_flat_entry(self, rgb, flags: int = 0) -> int:
        """Append a flat-colour texture entry of colour rgb (3 bytes) with
        flags (bit 0, "flat", is set; bits 12-14 the blend mode). Returns its
        index. Raises wadkit.LimitError past 65536 entries."""
        i, payload = self._textures().add_flat_entry(flags, rgb)
        self.replace_chunk("TEXT", payload)
        return i


def open(path: str | os.PathLike) -> Level:
    """Open an ENG level WAD (memory-mapped until Level.close(); use it in
    a with block). Raises wadkit.FormatError, or the OSError of the file."""
    return Level(_core.EngWad(os.fspath(path)), os.fspath(path))


def from_bytes(data) -> Level:
    """Parse an ENG level WAD held in memory. A bytes object is shared (it
    is immutable), any other buffer (bytearray, memoryview …) is copied."""
    return Level(_core.EngWad(data))


def new_level(width: int, height: int, pages, palettes=(), textures=(),
              objects=(), zone_table=None, zone_grid=None, flags: int = 0) -> Level:
    """A new minimal level: TEXT with these pages/palettes/texture entries,
    STPC with these object models, an empty TRAK and a MAP grid of
    width × height cells without tiles (add the terrain with
    with_geometry). Arguments: wadkit/_eng_new.py new_level_bytes."""
    from ._eng_new import new_level_bytes
    return from_bytes(new_level_bytes(width, height, pages, palettes, textures,
                                      objects, zone_table, zone_grid, flags))


def colors_to_display(colors):
    """Vertex colour bytes ((n, 4) uint8: R, G, B, byte 3, as lvl.tiles
    gives them) as the world mesh shows them: (n, 4) float32, byte/128
    clamped to 1, alpha 1 (docs/formats/eng.md "MAP tile part")."""
    return _core.eng_colors_to_display(colors)


def colors_from_display(rgba, current):
    """Display colours (n, 4) back to bytes for the same vertices: a channel
    whose value is still what its `current` byte (n, 4) shows keeps it
    (values above 0x80 survive), others get round(c·128) in 0..255; byte 3
    (the set count in a tile's first entry) is kept from current."""
    return _core.eng_colors_from_display(rgba, current)
