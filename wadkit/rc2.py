"""RC2 levels (Ratchet & Clank: Going Commando, PS2 LEVEL<n>.WAD): Python API.

    lvl = wadkit.rc2.open("LEVEL0.WAD")
    lvl.header        # {'header_size', 'sector', 'id', 'reverb'}
    lvl.extents       # {'data': (byte offset, byte size), ...}, present ones
    lvl.core_index    # memoryview of the uncompressed core index
    lvl.core_header   # its 0xbc-byte header, parsed
    lvl.core_data     # decompressed once, on first use
    lvl.gameplay      # decompressed once, on first use
    lvl.terrain(lod=0)  # tfrag terrain as NumPy arrays (see Level.terrain)
    lvl.patches       # per tfrag patch: counts, bounding sphere, flags
    lvl.tfrag_textures  # list of (H, W, 4) uint8 RGBA
"""
from __future__ import annotations

import os
from functools import cached_property

from . import _core
from ._level import MappedLevel
from .lz import DEFAULT_MAX_SIZE
from .results import Patch, Terrain


class Level(MappedLevel):
    """An RC2 level WAD, parsed and cross-checked; the file stays mapped
    until close() (or the end of a with block)."""

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

    # the mapped file is held until close() (wadkit/_level.py)
    _KEEP = ("path", "max_size", "header", "extents", "sectors", "sections",
             "core_header")

    @property
    def _lvl(self) -> _core.Rc2Level:
        return self._held()

    @_lvl.setter
    def _lvl(self, lvl: _core.Rc2Level) -> None:
        self._hold(lvl)

    def __repr__(self) -> str:
        where = self._where()
        if self.closed:
            return f"<wadkit.rc2.Level {where}, closed>"
        return (f"<wadkit.rc2.Level {where}: level {self.header['id']}, "
                f"header 0x{self.header['header_size']:x}, "
                f"{len(self.extents)} extents, {len(memoryview(self._lvl))} bytes>")

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

    def tfrag_block(self) -> memoryview:
        """The tfrags block of core_data: from the tfrags offset to the first
        of the occlusion / sky / collision offsets after it (it has no
        stored size; C: wk_rc2_tfrag_block)."""
        start, end, _ = self._lvl.tfrag_block(len(self.core_data))
        return memoryview(self.core_data)[start:end]

    def terrain(self, lod: int = 0) -> Terrain:
        """The tfrag terrain of one LOD (0 finest .. 2) for the whole level:
        positions (V,3) f32 in file space (Z up), triangles (T,3) u32 with
        consistent winding, uv (T,3,2) f32, color (T,3,4) f32 (1.0 = the
        PS2's 0x80), texture (T,) i32 (index into tfrag_textures), patch
        (T,) i32. Every patch must reproduce its header's vert_count and
        tri_count, or FormatError."""
        t = self._tfrags(lod)
        return {k: t[k] for k in ("positions", "triangles", "uv", "color",
                                  "texture", "patch")}

    def _tfrags(self, lod: int) -> dict:
        cache = self.__dict__.setdefault("_tfrag_cache", {})
        if lod not in cache:
            start, _, count = self._lvl.tfrag_block(len(self.core_data))
            cache[lod] = _core.tfrag_parse(self.tfrag_block(), lod, count, start)
        return cache[lod]

    @property
    def patches(self) -> list[Patch]:
        """Per tfrag patch: vert_count, tri_count (LOD 0), bsphere (x, y, z,
        r), flags, ad_gifs, mip_dist, occl_index, lod_tris (decoded
        triangles of LOD 0, 1, 2) and offset (in core_data)."""
        return self._tfrags(0)["patches"]

    @cached_property
    def tfrag_textures(self) -> list:
        """The tfrag texture table decoded to (H, W, 4) uint8 RGBA (C:
        csrc/core/rc2/rc2_texture.c, which checks every entry)."""
        return self._lvl.tfrag_textures(self.core_data)

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


def build_tfrags(meshes, lod_distance: float = 32.0) -> bytes:
    """Write a tfrags block, one patch per mesh (C writer; the result is
    read back before it is returned). A mesh is a dict:
      positions (N,3) file units, Z up; uv (N,2); color (N,4), 1.0 = 0x80;
      strips: a list of vertex-index sequences (GS triangle strips);
      textures: one tfrag texture index per strip.
    Every LOD gets the same strips. wadkit.LimitError when a mesh breaks a
    limit of the format (255 vertices or triangles, 3..127 vertices per
    strip, VU memory of 0x148 quadwords, s16 range around the origin)."""
    import numpy as np
    packed = []
    for m in meshes:
        strips = [np.asarray(s, dtype=np.uint32).ravel() for s in m["strips"]]
        packed.append((
            np.ascontiguousarray(m["positions"], dtype=np.float32).reshape(-1, 3),
            np.ascontiguousarray(m["uv"], dtype=np.float32).reshape(-1, 2),
            np.ascontiguousarray(m["color"], dtype=np.float32).reshape(-1, 4),
            np.concatenate(strips) if strips else np.zeros(0, np.uint32),
            np.array([len(s) for s in strips], dtype=np.uint32),
            np.ascontiguousarray(m["textures"], dtype=np.int32).ravel()))
    return _core.tfrag_build(packed, lod_distance)


def open(path: str | os.PathLike, max_size: int = DEFAULT_MAX_SIZE) -> Level:
    """Open an RC2 LEVEL<n>.WAD (memory-mapped until Level.close(); use it
    in a with block). Raises wadkit.FormatError, or the OSError of the
    file. max_size caps every decompressed stream."""
    return Level(_core.Rc2Level(os.fspath(path)), os.fspath(path), max_size)


def from_bytes(data, max_size: int = DEFAULT_MAX_SIZE) -> Level:
    """Parse a level held in memory. A bytes object is shared (it is
    immutable), any other buffer (bytearray, memoryview …) is copied."""
    return Level(_core.Rc2Level(data), None, max_size)


def build_level(tfrags: bytes, textures, palettes, gameplay: bytes,
                level_id: int = 0, reverb: int = 0) -> bytes:
    """Write a level file (C writer; parsed again and both streams decoded
    before it is returned): a 0x60 header, the data extent (core_index with
    the core header, gs_ram palette table and tfrag texture table; gs_ram;
    core_data = the tfrags block, empty occlusion/sky/collision regions and
    the texels, WAD-LZ) and the gameplay extent (WAD-LZ).
    textures: [(pixels (H, W) uint8 indices, palette number)];
    palettes: (n, 256, 4) uint8 RGBA (alpha 255 = opaque), written in the
    GS's CLUT order with PS2 alpha. docs/samples.md."""
    import numpy as np
    tex = []
    for i, (px, pal) in enumerate(textures):
        a = np.asarray(px)
        if a.ndim != 2:
            raise ValueError(f"texture {i}: pixels of shape {a.shape}, not (H, W)")
        tex.append((a.shape[1], a.shape[0], int(pal), a))
    return _core.rc2_build_level(tfrags, tex, palettes, gameplay, level_id, reverb)
