# Typed stubs for the C extension wadkit._core (csrc/module/).
# Keep in sync with the binding: tests/test_stubs.py compares both ways.
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, final

import numpy as np
from numpy.typing import NDArray

from typing_extensions import Buffer

glib_version: Final[tuple[int, int, int]]
detect_size: Final[int]

# "file" (= game space) or "export"; docs/formats/eng.md "Coordinate spaces"
_Space = Literal["file", "export"]
_CollSpace = Literal["file", "game", "export"]

class WadError(Exception):
    """Base class of every wadkit error."""

class FormatError(WadError, ValueError):
    """The input breaks its format."""
    offset: int | None   # absolute byte offset in the file, or None
    context: str         # where, e.g. "ENG WAD chunk TRAK > model 12"
    tile: int | None     # the tile at fault, where known
    model: int | None    # the model at fault, where known
    vertex: int | None   # the vertex at fault, where known
    object: str | None   # the name the caller gave the edit (LevelEdit)

class LimitError(WadError, ValueError):
    """A write the game could not load; nothing was written."""
    offset: int | None
    context: str
    tile: int | None
    model: int | None
    vertex: int | None
    object: str | None

class MissingChunkError(FormatError, KeyError):
    """The level has no chunk of the kind asked for."""
    chunk: str

class WadWarning(UserWarning):
    """A tolerated oddity in a file (kept as it is)."""

def warn(message: str, /) -> None:
    """A WadWarning at the first caller outside the wadkit package."""

def detect(head: Buffer, /) -> Literal["eng", "rc2"] | None:
    """The format of a file from its first detect_size bytes."""

@final
class EngWad:
    """An ENG level WAD's chunk table; the whole file via the buffer protocol
    (memoryview(wad) is the file's bytes)."""
    def __new__(cls, source: str | os.PathLike[str] | Buffer) -> EngWad: ...
    @property
    def chunks(self) -> list[tuple[str, int, int, int]]:
        """(name, header offset, payload size, stored size field), file order."""
    @property
    def warnings(self) -> list[str]: ...
    @property
    def declared_length(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def size(self) -> int: ...
    def build(self, replacements: Mapping[int, Buffer] | None = None) -> bytes: ...
    def save(self, path: str | os.PathLike[str],
             replacements: Mapping[int, Buffer] | None = None) -> None: ...
    if sys.version_info >= (3, 12):
        def __buffer__(self, flags: int, /) -> memoryview: ...

@final
class EngText:
    """A parsed ENG TEXT payload (palettes, pages, texture table, effects)."""
    def __new__(cls, payload: Buffer, base_offset: int = 0) -> EngText: ...
    @property
    def pages(self) -> list[tuple[str, int, int, int, int, bool, bool]]:
        """(kind, flags, width, height, palette, palette_shared, replaced)."""
    @property
    def palettes(self) -> list[tuple[int, NDArray[np.uint8], NDArray[np.uint8]]]: ...
    @property
    def table_raw(self) -> bytes: ...
    @property
    def tail_raw(self) -> bytes: ...
    @property
    def effects(self) -> list[dict[str, Any]] | None: ...
    @property
    def effects_note(self) -> str | None: ...
    def page_rgba(self, i: int, /) -> NDArray[np.uint8]: ...
    def set_page_rgba(self, i: int, rgba: NDArray[np.uint8], /) -> None: ...
    def add_page(self, rgba: NDArray[np.uint8], kind: str, /) -> int: ...
    def add_entry(self, flags: int, page: int, page2: int, u0: int, u1: int,
                  v0: int, v1: int, /) -> int: ...
    def add_flat_entry(self, flags: int, r: int, g: int, b: int, /) -> int: ...
    def textures(self) -> dict[str, NDArray[Any]]: ...
    def build(self) -> bytes: ...
    def with_entries(self, entries: Buffer, /) -> bytes: ...

def eng_face_uvs(rect: tuple[float, float, float, float], face_flags: int,
                 /) -> NDArray[np.float32]:
    """UVs (3, 2) of a face's corners from its texture rectangle and flags."""

@final
class EngFloorWorld:
    """The engine's map floor test over a level's tiles (game space)."""
    def __new__(cls, width: int, height: int, a_xyz: NDArray[np.float32],
                b: NDArray[np.int32], model: NDArray[np.uint32],
                coll: Sequence[Buffer]) -> EngFloorWorld: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def n_tiles(self) -> int: ...
    def floor(self, x: float, y: float, z: float, *, candidates: bool = False,
              flags: int = 0, probe_offset: int = 0x400,
              fixed: bool = False) -> dict[str, Any] | None: ...
    def needles(self) -> list[tuple[int, int, tuple[float, float, float], float,
                                    int, float, float]]: ...
    def cell(self, cx: int, cz: int, /) -> list[int]: ...

def eng_sine_table() -> NDArray[np.int32]:
    """(4096,) int32: the floor test's sine table."""
def eng_colors_to_display(colors: NDArray[np.uint8], /) -> NDArray[np.float32]:
    """Vertex colour bytes (n, 4) as the world mesh shows them."""
def eng_colors_from_display(rgba: NDArray[np.float32], current: NDArray[np.uint8],
                            /) -> NDArray[np.uint8]:
    """Display values (n, 4) back to colour bytes (a channel still showing
    its current byte keeps it)."""
def eng_bone_matrices(matrices: NDArray[np.float32], space: _Space = "file",
                      /) -> NDArray[np.float32]:
    """Stored bone matrices (n, 16) -> (n, 4, 4) acting on column vectors."""
def eng_collision_decode(raw: Buffer, *, space: _CollSpace = "file",
                         groups: tuple[int, int, int] | NDArray[np.uint32] | None = None,
                         offset: int = 0) -> dict[str, NDArray[Any]]:
    """32-byte collision records → tile-local polygons (dict of arrays)."""
def eng_collision_encode(corners: NDArray[np.float32], material: NDArray[np.uint8],
                         n_corners: NDArray[np.uint8] | None = None, *,
                         space: _CollSpace = "file",
                         drop_degenerate: bool = False) -> tuple[bytes, list[int]]:
    """Tile-local polygons → 32-byte records, and the dropped indices."""

@final
class EngEdit:
    """Pending edits of an ENG level's tiles and models (wadkit/_eng_edit.py
    is the documented API)."""
    def __new__(cls, wfpc: int, trak: Buffer, trak_base: int, map: Buffer,
                map_base: int, texture_table: Buffer | None,
                allow_new_entries: bool = True) -> EngEdit: ...
    @property
    def counts(self) -> tuple[int, int, int]: ...
    def tile_model(self, tile: int, /) -> int | None: ...
    def tile_colors(self, tile: int, /) -> NDArray[np.uint8]: ...
    def model_verts(self, model: int, /) -> int: ...
    def set_geometry(self, tiles: NDArray[np.uint32], positions: NDArray[np.float32],
                     triangles: NDArray[np.uint32], uv: NDArray[np.float32],
                     texture: NDArray[np.int32], face_flags: NDArray[np.uint16] | None,
                     colors: Sequence[NDArray[np.uint8] | None] | None,
                     name: str | None, /) -> dict[str, Any]: ...
    def set_collision(self, tiles: NDArray[np.uint32], positions: NDArray[np.float32],
                      polygons: NDArray[np.int32], material: NDArray[np.uint8] | None,
                      name: str | None, /) -> dict[str, Any]: ...
    def set_colors(self, tile: int, colors: NDArray[np.uint8], name: str | None,
                   /) -> None: ...
    def place_tile(self, tile: int, position: tuple[float, float, float],
                   rotation: int, name: str | None, /) -> None: ...
    def delete_tile(self, tile: int, name: str | None, /) -> None: ...
    def add_tile(self, model: int, position: tuple[float, float, float],
                 rotation: int, colors: NDArray[np.uint8] | None, name: str | None,
                 /) -> int: ...
    def add_mesh(self, positions: NDArray[np.float32], triangles: NDArray[np.uint32],
                 uv: NDArray[np.float32], texture: NDArray[np.int32],
                 color: NDArray[np.float32] | None, face_flags: NDArray[np.uint16] | None,
                 c_positions: NDArray[np.float32] | None,
                 c_polygons: NDArray[np.int32] | None,
                 c_material: NDArray[np.uint8] | None, zones_flat: bool,
                 name: str | None, /) -> dict[str, Any]: ...
    def flat_entry(self, r: int, g: int, b: int, /) -> int: ...
    def build(self) -> dict[str, Any]: ...

@final
class EngGeometry:
    """The parsed TRAK, MAP tile part and STPC of an ENG level (chunks given
    as payloads with their file offsets; None for an absent chunk)."""
    def __new__(cls, wfpc: Buffer | None, trak: Buffer | None, trak_base: int,
                map: Buffer | None, map_base: int, stpc: Buffer | None,
                stpc_base: int, wfpc_base: int = 0) -> EngGeometry: ...
    @property
    def flags(self) -> int: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def counts(self) -> tuple[int, int]: ...
    @property
    def animation_layout(self) -> str | None: ...
    def models(self, space: _Space = "file",
               objects: bool = False) -> list[dict[str, Any]]: ...
    def model_counts(self) -> dict[str, NDArray[np.uint32]]: ...
    def tiles(self, space: _Space = "file") -> dict[str, NDArray[Any]]: ...
    def zones(self) -> dict[str, NDArray[Any]]: ...
    def animations(self) -> list[dict[str, Any]]: ...
    def world_mesh(self, space: _Space = "file", texture_table: Buffer | None = None,
                   color_set: int = 0) -> dict[str, NDArray[Any]]: ...
    def import_mesh(self, positions: NDArray[np.float32],
                    triangles: NDArray[np.uint32], uv: NDArray[np.float32],
                    texture: NDArray[np.int32], color: NDArray[np.float32] | None,
                    face_flags: NDArray[np.uint16] | None,
                    c_positions: NDArray[np.float32] | None,
                    c_polygons: NDArray[np.int32] | None,
                    c_material: NDArray[np.uint8] | None,
                    texture_table: Buffer | None, allow_new_entries: bool = True,
                    keep_tiles: bool = False,
                    zones_flat: bool = True) -> dict[str, Any]: ...
    def build_trak(self) -> bytes: ...
    def build_map(self) -> bytes: ...
    def build_stpc(self) -> bytes: ...

@final
class Rc2Level:
    """An RC2 LEVEL<n>.WAD's container; the whole file via the buffer protocol."""
    def __new__(cls, source: str | os.PathLike[str] | Buffer) -> Rc2Level: ...
    @property
    def header(self) -> dict[str, int]: ...
    @property
    def extents(self) -> dict[str, tuple[int, int, int, int]]:
        """{name: (byte offset, byte size, sector, sector count)}."""
    @property
    def sections(self) -> dict[str, tuple[int, int]]: ...
    @property
    def core_header(self) -> dict[str, int | tuple[int, int]]: ...
    def decompress(self, name: str, max_size: int = 1 << 28) -> bytes: ...
    def tfrag_block(self, core_size: int, /) -> tuple[int, int, int]: ...
    def core_block(self, name: str, core_size: int, /) -> tuple[int, int]: ...
    def tfrag_texture_count(self) -> int: ...
    def textures(self, core_data: Buffer, kind: str = ..., /) -> list[NDArray[np.uint8]]: ...
    @property
    def chunk_headers(self) -> dict[str, dict[str, int]]:
        """{'chunk<i>': {tfrags, collision}} of the present chunk extents."""
    if sys.version_info >= (3, 12):
        def __buffer__(self, flags: int, /) -> memoryview: ...

def lz_decompress(data: Buffer, max_size: int = 1 << 28, expected: int = -1) -> bytes:
    """A whole WAD-LZ stream → bytes (FormatError on a broken stream)."""
def lz_compress(data: Buffer, *, level: str = "default", threads: int = 1,
                block_size: int = 0) -> bytes:
    """A game-safe WAD-LZ stream ('default', 'max'; 'best', 'lazy', 'greedy')."""
def lz_validate(data: Buffer, limit: int = 1000) -> list[str]:
    """The game's stream rules the data breaks; [] when clean."""
def tfrag_parse(block: Buffer, lod: int = 0, texture_count: int = -1,
                base: int = 0) -> dict[str, Any]:
    """A tfrags block → dict of arrays (positions, triangles, uv, …, patches)."""
def tfrag_texture(pixels: Buffer, width: int, height: int, palette: Buffer,
                  /) -> NDArray[np.uint8]:
    """8-bit pixels + a 256-entry CLUT-ordered palette → (H, W, 4) RGBA."""
def tie_mesh(data: Buffer, lod: int = 0, offset: int = 0,
             class_id: int = -1) -> dict[str, Any]:
    """A tie class → dict of arrays (positions, triangles, uv, texture) + header facts."""
def shrub_mesh(data: Buffer, offset: int = 0, class_id: int = -1) -> dict[str, Any]:
    """A shrub class → dict of arrays (positions, triangles, uv, normals, texture)."""
def moby_mesh(data: Buffer, lod: int = 0, offset: int = 0,
              class_id: int = -1) -> dict[str, Any]:
    """A moby class → dict of arrays of one LOD's bind-pose mesh (0 high, 1 low)."""
def tfrag_build(meshes: Sequence[tuple[NDArray[np.float32], NDArray[np.float32],
                                      NDArray[np.float32], NDArray[np.uint32],
                                      NDArray[np.uint32], NDArray[np.int32]]],
                lod_distance: float = 32.0, /) -> bytes:
    """Packed meshes → a tfrags block (read back before it is returned)."""
def eng_new_level(width: int, height: int, wfpc: int,
                  palettes: Sequence[tuple[int, NDArray[np.uint8]]],
                  pages: Sequence[tuple[int, int, int, NDArray[np.uint8]]],
                  entries: Buffer, zone_table: NDArray[np.uint32] | None,
                  zone_grid: NDArray[np.uint32] | None,
                  objects: Sequence[tuple[NDArray[np.float32], NDArray[np.uint32],
                                          NDArray[np.uint16], NDArray[np.float32]]],
                  /) -> bytes:
    """A new minimal ENG level WAD (wadkit.eng.new_level shapes the parts)."""
def eng_texture_entry(flags: int, page: int, palette: int, u0: int, v0: int,
                      u1: int, v1: int, /) -> bytes:
    """One 8-byte ENG texture-table entry (rect u0 v0 u1 v1, inclusive)."""
def eng_flat_entry(r: int, g: int, b: int, flags: int = 0, /) -> bytes:
    """One 8-byte ENG flat-colour texture-table entry."""
def rc2_empty_gameplay(tail: Buffer, /) -> bytes:
    """A gameplay with every block absent, then tail."""
def rc2_new_gameplay(tail: Buffer, /) -> bytes:
    """A gameplay with empty settings, class lists and instance blocks."""
def rc2_build_level(tfrags: Buffer,
                    textures: Sequence[tuple[int, int, int, NDArray[np.uint8]]],
                    palettes: NDArray[np.uint8], gameplay: Buffer, level_id: int,
                    reverb: int, sky: Buffer | None = ..., collision: Buffer | None = ...,
                    classes: dict[str, list[tuple[int, Buffer | None, bytes,
                                                  tuple[int, ...]]]] = ...,
                    tables: list[list[int] | None] = ..., /) -> bytes:
    """A new RC2 level file (wadkit.rc2.build_level shapes the parts)."""
def rc2_tie_build(positions: NDArray[np.float32], uv: NDArray[np.float32],
                  indices: NDArray[np.uint32], strip_len: NDArray[np.uint32],
                  strip_tex: NDArray[np.uint8], o_class: int,
                  lod_distances: tuple[float, float, float], /) -> bytes:
    """A new tie class (wadkit.rc2.build_tie_class)."""
def rc2_shrub_build(positions: NDArray[np.float32], uv: NDArray[np.float32],
                    normals: NDArray[np.float32], triangles: NDArray[np.uint32],
                    texture: NDArray[np.uint8], o_class: int, mip_distance: float,
                    /) -> bytes:
    """A new shrub class (wadkit.rc2.build_shrub_class)."""
def rc2_moby_build(positions: NDArray[np.float32], uv: NDArray[np.float32],
                   normals: NDArray[np.float32], triangles: NDArray[np.uint32],
                   texture: NDArray[np.uint8], class_number: int, /) -> bytes:
    """A new moby class (wadkit.rc2.build_moby_class)."""
def rc2_sky_build(colour: Buffer, clear_screen: int,
                  shells: list[tuple[NDArray[np.float32], NDArray[np.uint8],
                                     NDArray[np.int16], NDArray[np.uint32]]], /) -> bytes:
    """A sky block of untextured shells (wadkit.rc2.build_sky)."""
def collision_parse(block: Buffer, base: int = 0) -> dict[str, Any]:
    """A collision block → the deduplicated world mesh and the octants."""
def collision_build(positions: NDArray[np.float32], tris: NDArray[np.uint32],
                    tri_tags: NDArray[np.uint8], quads: NDArray[np.uint32],
                    quad_tags: NDArray[np.uint8], /) -> bytes:
    """Faces → a collision block (exact octant binning; read back)."""
def collision_build_octants(mesh_offset: int, z_node: tuple[int, int],
                            y_nodes: NDArray[np.int32], x_nodes: NDArray[np.int32],
                            coord: NDArray[np.int32], counts: NDArray[np.uint32],
                            vertices: NDArray[np.int16], faces: NDArray[np.uint8],
                            face_tag: NDArray[np.uint8], hero: Buffer, /) -> bytes:
    """Octants as stored → a collision block in the canonical layout."""
def sky_parse(block: Buffer, base: int = 0) -> dict[str, Any]:
    """A sky block → header, texture entries and shells of arrays."""
def rc2_tfrags_edit(region: Buffer, base: int, texture_count: int,
                    positions: NDArray[np.float32] | None,
                    uv: NDArray[np.float32] | None, color: NDArray[np.float32] | None,
                    texture: NDArray[np.int32] | None,
                    meshes: Sequence[tuple[int, NDArray[np.float32], NDArray[np.uint32],
                                           NDArray[np.float32], NDArray[np.float32],
                                           NDArray[np.int32]]],
                    /) -> tuple[bytes, NDArray[np.uint8]]:
    """The tfrags region edited (in place or re-encoded per patch) and a
    status per patch (0 kept, 1 in place, 2 re-encoded, 3 moved)."""
def rc2_level_tfrags_edit(level: Rc2Level, positions: NDArray[np.float32] | None,
                          uv: NDArray[np.float32] | None,
                          color: NDArray[np.float32] | None,
                          texture: NDArray[np.int32] | None,
                          meshes: Sequence[tuple[int, NDArray[np.float32],
                                                 NDArray[np.uint32], NDArray[np.float32],
                                                 NDArray[np.float32], NDArray[np.int32]]],
                          /) -> tuple[bytes, NDArray[np.uint8]]:
    """rc2_tfrags_edit of the level's tfrags block (its decoded core_data,
    offset and tfrag texture count); the block's parse is kept on the level."""
def rc2_gameplay_write(gameplay: Buffer, core_ids: dict[str, NDArray[np.int32]],
                       instances: dict[str, tuple[NDArray[np.int32], NDArray[np.int32],
                                                  NDArray[np.float32]]],
                       settings: Sequence[tuple[str, tuple[float, ...]]],
                       /) -> tuple[bytes, dict[str, Any]]:
    """A gameplay rewritten from its parse and the edit, and a report."""
def rc2_level_rewrite(level: Buffer, tfrags: Buffer | None, collision: Buffer | None,
                      gameplay: Buffer | None, gameplay_pal: Buffer | None,
                      /) -> tuple[bytes, dict[str, dict[str, Any]]]:
    """The level file with new blocks / gameplay, streams recompressed,
    extents laid out again; read back before it is returned."""
def rc2_restream(old_stream: Buffer, new_plain: Buffer, /) -> tuple[bytes, dict[str, Any]]:
    """The stream a save writes for new_plain in place of old_stream (its
    blocks and leading packets reused where they still decode right)."""
def rc2_level_save(level: Buffer, path: str | os.PathLike[str], /) -> None:
    """Check a level file and write it atomically."""
def rc2_gameplay_parse(gameplay: Buffer, tie_ids: NDArray[np.int32] | None = None,
                       shrub_ids: NDArray[np.int32] | None = None,
                       moby_ids: NDArray[np.int32] | None = None) -> dict[str, Any]:
    """A decompressed RC2 gameplay → blocks, settings, class lists, instances
    (dicts of arrays); *_ids (int32): the core class numbers to check against."""
def rc2_classes_parse(core_index: Buffer, base: int = 0) -> dict[str, dict[str, Any]]:
    """The core moby / tie / shrub class tables → {kind: dict of arrays}."""
def rc2_gameplay_layouts() -> dict[str, tuple[int, tuple[tuple[str, int, str, int], ...]]]:
    """{kind: (record size, ((field, offset, type, components), ...))}."""
