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
    lvl.textures("tie")  # the tie (moby, shrub) texture table, the same way
    lvl.collision()   # collision mesh: positions, triangles, tag, quads
    lvl.collision_octants()  # the collision octants as stored
    lvl.sky()         # sky shells, clusters, textures
    lvl.level_chunks  # chunks 0..2 present: .terrain(lod), .collision()
    lvl.settings      # level settings (fog, background, death height, chunk planes)
    lvl.ties, lvl.shrubs, lvl.mobys   # instances: NumPy arrays per field
    lvl.tie_classes, lvl.shrub_classes, lvl.moby_classes  # core class tables
    lvl.gameplay_blocks  # the 39 gameplay blocks: offsets, sizes, bytes

    wadkit.rc2.tie_mesh(class_bytes, lod=0)   # one class's mesh (docs:
    wadkit.rc2.shrub_mesh(class_bytes)        # "Class meshes")
    wadkit.rc2.moby_mesh(class_bytes, lod=0)
    wadkit.rc2.class_mesh("tie", cls, lod=0)  # from a core class object

    ed = lvl.edit(); ...; new = ed.apply(); new.save(path)   # writing back
"""
from __future__ import annotations

import os
from functools import cached_property

from . import _core
from ._level import MappedLevel
from . import _rc2_edit
from . import _rc2_gameplay as _gp
from .lz import DEFAULT_MAX_SIZE
from .results import Patch, Terrain

TEXTURE_KINDS = ("tfrag", "moby", "tie", "shrub")


class Level(MappedLevel):
    """An RC2 level WAD, parsed and cross-checked; the file stays mapped
    until close() (or the end of a with block)."""

    def __init__(self, level: _core.Rc2Level, path: str | None = None,
                 max_size: int = DEFAULT_MAX_SIZE, in_memory: bool = False,
                 checked: bool = False):
        self._lvl = level
        self.path = path
        # save()'s check of these bytes: None, done every time (a mapped
        # file can change on disk); False, not done yet (bytes held in
        # memory, immutable); True, passed (once in memory, or the
        # rewrite's own check of what apply() wrote)
        self._checked = bool(checked) if in_memory else None
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

    def _tfrag_texture_count(self) -> int:
        return self._lvl.tfrag_texture_count()

    def _tfrags(self, lod: int) -> dict:
        cache = self.__dict__.setdefault("_tfrag_cache", {})
        if lod not in cache:
            start, _, count = self._lvl.tfrag_block(len(self.core_data))
            cache[lod] = _core.tfrag_parse(self.tfrag_block(), lod, count, start)
        return cache[lod]

    @cached_property
    def level_chunks(self) -> list[LevelChunk]:
        """The chunk extents present (chunk0..2), each with its own tfrag
        terrain and collision (LevelChunk); named so as not to be taken for
        the ENG container's chunks."""
        return [LevelChunk(self, int(name[5:]), h)
                for name, h in sorted(self._lvl.chunk_headers.items())]

    @property
    def patches(self) -> list[Patch]:
        """Per tfrag patch: vert_count, tri_count (LOD 0), bsphere (x, y, z,
        r), flags, ad_gifs, mip_dist, occl_index, lod_tris (decoded
        triangles of LOD 0, 1, 2) and offset (in core_data)."""
        return self._tfrags(0)["patches"]

    @cached_property
    def tfrag_textures(self) -> list:
        """The tfrag texture table decoded to (H, W, 4) uint8 RGBA."""
        return self.textures("tfrag")

    def textures(self, kind: str = "tfrag") -> list:
        """A texture table of the core header decoded to (H, W, 4) uint8
        RGBA: "tfrag", "moby", "tie" or "shrub"; class meshes name their
        textures through the class's slots into the table of their kind
        (docs/formats/rc2-tfrag.md, "Textures"). Decoded and checked in C
        (csrc/core/rc2/rc2_texture.c), once per kind."""
        if kind not in TEXTURE_KINDS:
            raise ValueError(f"no {kind!r} texture table (one of "
                             f"{', '.join(TEXTURE_KINDS)})")
        cache = self.__dict__.setdefault("_texture_cache", {})
        if kind not in cache:
            cache[kind] = self._lvl.textures(self.core_data, kind)
        return cache[kind]

    def sky_block(self) -> memoryview:
        """The sky block of core_data: from the sky offset to the collision
        offset (it has no stored size; C: wk_rc2_core_block)."""
        start, end = self._lvl.core_block("sky", len(self.core_data))
        return memoryview(self.core_data)[start:end]

    @cached_property
    def _sky(self) -> dict:
        # the textures come decoded from C (csrc/module/rc2_sky.c)
        return _core.sky_parse(self.sky_block(), self.core_header["sky"])

    def sky(self) -> dict:
        """The sky (docs/formats/rc2-collision-sky.md, "Sky"): colour (RGBA bytes),
        clear_screen, maximum_sprite_count, fx (bytes: texture indices),
        textures (list of (H, W, 4) uint8 RGBA, one per texture entry),
        texture_entries, the raw header offsets, and shells (at most 8):
        each {textured, flags, clusters (their headers), positions (V,3)
        f32, uv (V,2) f32, color (V,4) f32, alpha (V,) i16 and st (V,4) u8
        as stored, triangles (T,3) u32 (stored order reversed), texture
        (T,) i32 (-1 = none), cluster (T,) i32}. Untextured shells read the
        ST record as RGBA (noclip's reading); uv keeps Wrench's."""
        return self._sky

    def collision_block(self) -> memoryview:
        """The collision block of core_data: from the collision offset to
        textures_base (it has no stored size; C: wk_rc2_core_block)."""
        start, end = self._lvl.core_block("collision", len(self.core_data))
        return memoryview(self.core_data)[start:end]

    @cached_property
    def _collision(self) -> dict:
        return _core.collision_parse(self.collision_block(),
                                     self.core_header["collision"])

    def collision(self) -> dict:
        """The collision mesh, deduplicated over the octants that repeat
        it: positions (V,3) f32 in metres (file space, Z up); triangles
        (T,3) u32 counter-clockwise from the front, every face as
        triangles: the stored triangles first, then each quad as two
        consecutive rows; tag (T,) u8 (the face's collision type); quad
        (T,) bool (a half of a quad); quads (Q,4) u32 and quad_tag (Q,) u8
        (the quads themselves, split r0-r2); folded: stored triangles
        dropped as halves of a stored quad. See docs/formats/rc2-collision-sky.md."""
        return _collision_mesh(self._collision)

    def collision_octants(self) -> dict:
        """The collision octants as stored (see _core.collision_parse and
        docs/formats/rc2-collision-sky.md): mesh_offset, hero_groups, hero (bytes, not
        decoded), z_node (coord, count, offset), y_nodes / x_nodes (N,3)
        i32 {offset (0 = absent), coord, count}, coord (N,3) i32 grid
        coordinates, offset (N,) u32, size (N,) u8 (the X entry's size
        byte), counts (N,3) u32 {vertices, faces, quads}, vertices (V,3)
        i16 around the octant centre (x, y in 1/16 m, z in 1/64 m), faces
        (F,4) u8 stored v0..v3 (v3 only for the first `quads` of an octant),
        face_tag (F,) u8. build_collision_octants(...) lays them out again."""
        return self._collision["octants"]

    # ---- gameplay and core class tables (docs/formats/rc2-gameplay.md) ----------

    @cached_property
    def _classes(self) -> dict:
        return _core.rc2_classes_parse(self.core_index, self.sections["core_index"][0])

    @cached_property
    def tie_classes(self) -> _gp.ClassTable:
        """The core tie class table: Rc2Class objects (id, offset, size,
        textures, data = the class's bytes in core_data)."""
        return _gp.class_table("tie", self._classes["tie"], self)

    @cached_property
    def shrub_classes(self) -> _gp.ClassTable:
        """The core shrub class table (Rc2Class objects, with billboard)."""
        return _gp.class_table("shrub", self._classes["shrub"], self)

    @cached_property
    def moby_classes(self) -> _gp.ClassTable:
        """The core moby class table (Rc2Class objects; offset 0 = no data)."""
        return _gp.class_table("moby", self._classes["moby"], self)

    @cached_property
    def _gameplay(self) -> dict:
        c = self._classes
        return _core.rc2_gameplay_parse(self.gameplay, c["tie"]["id"],
                                        c["shrub"]["id"], c["moby"]["id"])

    @cached_property
    def gameplay_blocks(self) -> tuple:
        """The 39 gameplay header slots in header order (GameplayBlock: name,
        slot, offset, size, decoded, data, tail); absent ones have offset 0."""
        return _gp.blocks(self._gameplay, self.gameplay)

    @property
    def settings(self) -> dict | None:
        """The level settings block (None if absent): background_colour,
        fog_colour (s32 r, g, b), fog distances and intensities, death_height,
        sphere and ship fields, chunk_plane_records (as stored) of which the
        first chunk_plane_count are planes, core_sounds_count."""
        return self._gameplay["settings"]

    def _instances(self, kind: str) -> _gp.Instances:
        block = next(b for b in self.gameplay_blocks if b.name == f"{kind}_instances")
        return _gp.Instances(kind, self._gameplay[kind], block,
                             _core.rc2_gameplay_layouts()[kind][1])

    @cached_property
    def ties(self) -> _gp.Instances:
        """Tie instances (class_id, matrix (n,4,4), matrix_w, ...,
        ambient_record: index into tie_ambient or -1)."""
        return self._instances("tie")

    @cached_property
    def shrubs(self) -> _gp.Instances:
        """Shrub instances (class_id, matrix, matrix_w, colour (n,3), ...)."""
        return self._instances("shrub")

    @cached_property
    def mobys(self) -> _gp.Instances:
        """Moby instances (class_id, position, rotation, scale, matrix
        computed from them, and every other field of the 0x88-byte record)."""
        return self._instances("moby")

    @property
    def class_lists(self) -> dict:
        """The gameplay's class lists {"tie", "shrub", "moby": int32 array or
        None when absent}; tie and shrub lists are checked to be the
        instances' distinct classes in order of first appearance."""
        return self._gameplay["class_lists"]

    @property
    def tie_ambient(self) -> dict | None:
        """The tie ambient RGBA records in stored order: instance, count
        (16-bit words), offset (of the data in the gameplay), start (of the
        record's words in words) and words (every record's 16-bit words,
        decoded in C); None if the level has no such block."""
        return self._gameplay["tie_ambient"]

    def tie_ambient_colours(self, tie: int):
        """Tie instance `tie`'s ambient RGBA words (uint16 array, not
        decoded further), or None when it has none."""
        rec = int(self.ties.ambient_record[tie])
        if rec < 0:
            return None
        a = self.tie_ambient
        start = int(a["start"][rec])
        return a["words"][start:start + int(a["count"][rec])]

    # ---- writing (wadkit/_rc2_edit.py, docs/formats/rc2-writing.md) ----------

    edit_report: dict | None = None   # set on a Level made by LevelEdit.apply()

    def edit(self) -> _rc2_edit.LevelEdit:
        """Pending edits (terrain, instances, collision, settings);
        apply() returns the edited Level. See wadkit/_rc2_edit.py."""
        return _rc2_edit.LevelEdit(self)

    def to_bytes(self) -> bytes:
        """The level file: this level's own bytes (an edited level is
        written and re-read by apply())."""
        return bytes(memoryview(self._lvl))

    def save(self, path: str | os.PathLike) -> None:
        """Write the level atomically (temp file, fsync, rename), after
        parsing it and decoding every stream once more — once per level
        held in memory (from_bytes(), apply()'s result, which its rewrite
        checked so): its bytes cannot change, so later saves write them
        without that check. Refuses to write over the file this level was
        opened from."""
        if self.path is not None and os.path.exists(path) \
                and os.path.samefile(path, self.path):
            raise ValueError(f"{os.fspath(path)} is the source file of this "
                             "level; save to another path")
        _core.rc2_level_save(self._lvl, path, bool(self._checked))
        if self._checked is False:
            self._checked = True

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


class LevelChunk:
    """Chunk <index> of a level: the extent chunk<index> opens with
    {s32 tfrags, s32 collision}, offsets of WAD-LZ streams from its start
    (0 = none); the tfrags and the collision inside read as the level's own
    (docs/formats/rc2-collision-sky.md, "Chunks"). Textures are the level's tfrag
    textures."""

    def __init__(self, level: Level, index: int, header: dict):
        self.level = level
        self.index = index
        self.name = f"chunk{index}"
        self.tfrags_offset = header["tfrags"]
        self.collision_offset = header["collision"]

    def __repr__(self) -> str:
        return (f"<LevelChunk {self.index}: tfrags at {self.tfrags_offset:#x}, "
                f"collision at {self.collision_offset:#x}>")

    @property
    def has_terrain(self) -> bool:
        return self.tfrags_offset != 0

    @property
    def has_collision(self) -> bool:
        return self.collision_offset != 0

    def _stream(self, part: str) -> bytes:
        if not (self.has_terrain if part == "tfrags" else self.has_collision):
            err = _core.MissingChunkError(f"chunk {self.index} has no {part}")
            err.offset, err.context = None, f"RC2 {self.name} header"
            err.chunk = f"{self.name}.{part}"
            raise err
        return self.level._lvl.decompress(f"{self.name}.{part}", self.level.max_size)

    @cached_property
    def tfrag_block(self) -> bytes:
        """The decompressed tfrags block of this chunk."""
        return self._stream("tfrags")

    @cached_property
    def collision_block(self) -> bytes:
        """The decompressed collision block of this chunk."""
        return self._stream("collision")

    def _tfrags(self, lod: int) -> dict:
        cache = self.__dict__.setdefault("_tfrag_cache", {})
        if lod not in cache:
            cache[lod] = _core.tfrag_parse(self.tfrag_block, lod,
                                           self.level._tfrag_texture_count())
        return cache[lod]

    def terrain(self, lod: int = 0) -> dict:
        """As Level.terrain, for this chunk's tfrags (KeyError if none)."""
        t = self._tfrags(lod)
        return {k: t[k] for k in ("positions", "triangles", "uv", "color",
                                  "texture", "patch")}

    @property
    def patches(self) -> list[dict]:
        return self._tfrags(0)["patches"]

    @cached_property
    def _collision(self) -> dict:
        return _core.collision_parse(self.collision_block)

    def collision(self) -> dict:
        """As Level.collision, for this chunk (KeyError if none)."""
        return _collision_mesh(self._collision)

    def collision_octants(self) -> dict:
        return self._collision["octants"]


def _collision_mesh(parsed: dict) -> dict:
    return {k: parsed[k] for k in ("positions", "triangles", "tag", "quad",
                                   "quads", "quad_tag", "folded")}


def build_collision(positions, triangles, tags, quads=None,
                    quad_tags=None) -> bytes:
    """Write a collision block (C writer; read back before it is returned).
    positions (V,3) metres, Z up (quantised to 1/16 m in x and y, 1/64 m
    in z); triangles (T,3) and quads (Q,4) counter-clockwise from the front
    (a quad (a, b, c, d) is the triangles (a, b, c), (c, d, a)); one tag
    per face. Every face goes into every 4 m octant it touches (exact
    closed triangle/box test on the quantised positions) and no other.
    wadkit.LimitError names the octant or face that breaks an engine
    limit (255 vertices, 255 quads or 4080 bytes per octant, a vertex more
    than 32 m from its octant's centre, ...); nothing is dropped."""
    import numpy as np
    q = np.zeros((0, 4), np.uint32) if quads is None else quads
    qtag = np.zeros(0, np.uint8) if quad_tags is None else quad_tags
    return _core.collision_build(positions, triangles, tags, q, qtag)


def build_collision_octants(octants: dict) -> bytes:
    """Lay out collision octants as given (Level.collision_octants() or the
    same dict edited): the tree shape, octant order, vertices and faces are
    kept, every offset recomputed in the canonical layout; a block written
    in that layout comes back byte for byte."""
    z = octants["z_node"]
    return _core.collision_build_octants(
        int(octants["mesh_offset"]), (int(z[0]), int(z[1])),
        *(octants[k] for k in ("y_nodes", "x_nodes", "coord", "counts", "vertices",
                               "faces", "face_tag")),
        bytes(octants.get("hero", b"")))


def tie_mesh(data, lod: int = 0, offset: int = 0, class_id: int = -1) -> dict:
    """Decode LOD lod (0 finest .. 2) of one tie class (its bytes, e.g. the
    class's slice of core_data; offset = where they start there, for
    errors; class_id names it in errors, else the header's o_class).
    positions (V,3) f32, game space (Z up), the class scale applied; uv
    (V,2) f32; triangles (T,3) u32; texture (T,) i32, an index into the
    class's 16 textures; plus header facts (o_class, scale, bsphere,
    lod_distances, packet_counts, lod_headers, strips, ...). No normals or
    vertex colours (docs/formats/rc2-classes.md, "Tie classes"). FormatError when
    the class breaks an invariant (GS walk, q = 4096, counts)."""
    return _core.tie_mesh(data, lod, offset, class_id)


def shrub_mesh(data, offset: int = 0, class_id: int = -1) -> dict:
    """Decode one shrub class: positions, uv, normals (V,3) f32 unit
    vectors, triangles, texture (as tie_mesh) plus header facts."""
    return _core.shrub_mesh(data, offset, class_id)


def moby_mesh(data, lod: int = 0, offset: int = 0, class_id: int = -1) -> dict:
    """Decode the mesh of one moby class LOD (0 high, 1 low) in its bind
    pose: positions, uv, normals, triangles, texture (-1 = none) plus
    scale, bsphere, joint_count, packet_counts, format, has_mesh. Metal
    packets and bangles are not decoded."""
    return _core.moby_mesh(data, lod, offset, class_id)


_CLASS_MESH = {"tie": tie_mesh, "shrub": shrub_mesh, "moby": moby_mesh}


def class_mesh(kind: str, cls, lod: int = 0) -> dict:
    """The mesh of a core class object (kind 'tie', 'shrub' or 'moby'):
    decodes cls.data, naming cls.id in errors; cls.offset (where the bytes
    start in core_data) when the object has one. Meant as the body of the
    class objects' mesh(lod) method."""
    decode = _CLASS_MESH[kind]
    offset = getattr(cls, "offset", 0)
    if kind == "shrub":
        if lod != 0:
            raise ValueError(f"shrub classes have one LOD, not {lod}")
        return decode(cls.data, offset, cls.id)
    return decode(cls.data, lod, offset, cls.id)


def open(path: str | os.PathLike, max_size: int = DEFAULT_MAX_SIZE) -> Level:
    """Open an RC2 LEVEL<n>.WAD (memory-mapped until Level.close(); use it
    in a with block). Raises wadkit.FormatError, or the OSError of the
    file. max_size caps every decompressed stream."""
    return Level(_core.Rc2Level(os.fspath(path)), os.fspath(path), max_size)


def from_bytes(data, max_size: int = DEFAULT_MAX_SIZE,
               path: str | os.PathLike | None = None) -> Level:
    """Parse a level held in memory. A bytes object is shared (it is
    immutable), any other buffer (bytearray, memoryview …) is copied.
    path: the file the bytes were read from, if any (Level.path; save()
    refuses to write over it)."""
    return Level(_core.Rc2Level(data), None if path is None else os.fspath(path), max_size,
                 in_memory=True)


def empty_gameplay(tail: bytes = b"") -> bytes:
    """A gameplay with every block absent (the header of block offsets, all
    0; docs/formats/rc2-gameplay.md "Gameplay"), then tail: for build_level."""
    return _core.rc2_empty_gameplay(tail)


def new_gameplay(tail: bytes = b"", classes: dict | None = None,
                 instances: dict | None = None, settings: dict | None = None) -> bytes:
    """A gameplay for a new level (C: wk_rc2_gameplay_skeleton, then the
    gameplay writer): the header, tail, then settings, class lists and
    instance blocks. classes: {kind: class numbers of the core table};
    instances: {kind: (class_id (n,), matrix (n, 4, 4) for column
    vectors)} — each record otherwise Wrench's defaults; settings: fields
    of Level.settings by name. docs/formats/rc2-writers.md, "Gameplay"."""
    import numpy as np
    for what, d in (("classes", classes), ("instances", instances)):
        bad = set(d or {}) - {"tie", "shrub", "moby"}
        if bad:
            raise ValueError(f"{what}: kinds {sorted(bad)} are not tie, shrub or moby")
    plain = _core.rc2_new_gameplay(tail)
    ids = {k: np.asarray(v, np.int32) for k, v in (classes or {}).items()}
    inst = {}
    for kind, (cls, mat) in (instances or {}).items():
        cls = np.asarray(cls, np.int32)
        inst[kind] = (np.full(len(cls), -1, np.int32), cls,
                      np.asarray(mat, np.float32).reshape(len(cls), 4, 4))
    vals = [(k, tuple(float(x) for x in (v if isinstance(v, (tuple, list)) else (v,))))
            for k, v in (settings or {}).items()]
    out, _ = _core.rc2_gameplay_write(plain, ids, inst, vals)
    return out


def build_tie_class(positions, uv, strips, o_class: int,
                    lod_distances=(30.0, 60.0, 120.0)) -> bytes:
    """A tie class (C: csrc/core/rc2/tie_write.c; read back before it is
    returned): positions (V, 3) in the class's space (game units, Z up),
    uv (V, 2), strips [(vertex indices, texture slot 0..15)] in GS strip
    order (triangle k of a strip is (k, k+1, k+2), odd k reversed); all
    three LODs get the same strips. LimitError names the class."""
    import numpy as np
    idx = [np.asarray(i, np.uint32).ravel() for i, _ in strips]
    return _core.rc2_tie_build(
        positions, uv, np.concatenate(idx) if idx else np.zeros(0, np.uint32),
        np.array([len(i) for i in idx], np.uint32),
        np.array([t for _, t in strips], np.uint8), o_class, tuple(lod_distances))


def build_shrub_class(positions, uv, normals, triangles, texture, o_class: int,
                      mip_distance: float = 60.0) -> bytes:
    """A shrub class (C: shrub_write.c; read back): triangles (T, 3)
    counter-clockwise seen from where their vertex normals point, texture
    (T,) slots 0..15, normals (V, 3) unit vectors."""
    return _core.rc2_shrub_build(positions, uv, normals, triangles, texture,
                                 o_class, mip_distance)


def build_moby_class(positions, uv, normals, triangles, texture, class_id: int) -> bytes:
    """A moby class of one rigid mesh (C: moby_write.c; read back):
    triangles (T, 3) counter-clockwise from the front, texture (T,) slots
    0..15, normals (V, 3); both LODs the same; no joints, animations or
    sounds. class_id only names the class in errors."""
    return _core.rc2_moby_build(positions, uv, normals, triangles, texture, class_id)


def build_sky(shells, colour=(0, 0, 0, 0x80), clear_screen: int = 1) -> bytes:
    """A sky block of untextured shells (C: rc2_sky_write.c; read back):
    shells [(positions (V, 3) units, |x| < 32; rgba (V, 4) uint8 colour;
    alpha (V,) int16, 0x80 opaque; triangles (T, 3))]."""
    return _core.rc2_sky_build(bytes(colour), clear_screen, [tuple(s) for s in shells])


def build_level(tfrags: bytes, textures, palettes, gameplay: bytes,
                level_id: int = 0, reverb: int = 0, sky: bytes | None = None,
                collision: bytes | None = None, classes: dict | None = None,
                class_textures: dict | None = None) -> bytes:
    """Write a level file (C writer; parsed again, both streams decoded
    and the class and texture tables read before it is returned): a 0x60
    header, the data extent (core_index with the core header, gs_ram
    palette table, class tables and texture tables; gs_ram; core_data =
    the tfrags block, occlusion, sky, collision, the texels and the class
    data, WAD-LZ) and the gameplay extent (WAD-LZ).
    textures: the tfrag textures [(pixels (H, W) uint8 indices, palette
    number)]; palettes: (n, 256, 4) uint8 RGBA (alpha 255 = opaque),
    written in the GS's CLUT order with PS2 alpha; sky, collision: blocks
    (build_sky, build_collision; None = empty); classes: {"tie" | "shrub"
    | "moby": [(class number, class bytes or None, [texture indices into
    class_textures[kind]])]}; class_textures: {kind: [(pixels, palette)]}.
    docs/samples.md, docs/formats/rc2-writers.md."""
    import numpy as np
    tex: list[tuple] = []

    def take(items, what):
        first = len(tex)
        for i, (px, pal) in enumerate(items):
            a = np.asarray(px)
            if a.ndim != 2:
                raise ValueError(f"{what} texture {i}: pixels of shape {a.shape}, not (H, W)")
            tex.append((a.shape[1], a.shape[0], int(pal), a))
        return list(range(first, len(tex)))
    bad = set(class_textures or {}) - {"moby", "tie", "shrub"}
    if bad:
        raise ValueError(f"class_textures: kinds {sorted(bad)} are not moby, tie or shrub")
    tables = [take(textures, "tfrag")]
    for kind in ("moby", "tie", "shrub"):
        tables.append(take((class_textures or {}).get(kind, ()), kind))
    cls: dict[str, list] = {}
    for kind, items in (classes or {}).items():
        out = []
        for c in items:
            cid, data, slots = c[0], c[1], list(c[2])
            if len(slots) > 16:
                raise ValueError(f"{kind} class {cid}: {len(slots)} textures, a class has 16")
            bb = tuple(c[3]) if len(c) > 3 else (0,) * 8
            out.append((int(cid), None if data is None else bytes(data),
                        bytes(slots) + b"\xff" * (16 - len(slots)), bb))
        cls[kind] = out
    return _core.rc2_build_level(tfrags, tex, palettes, gameplay, level_id, reverb,
                                 sky, collision, cls, tables)
