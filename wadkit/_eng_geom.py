"""ENG level geometry (TRAK, STPC, MAP tile part) on a Level: glue over
wadkit._core.EngGeometry. All parsing and conversion is done in C; this
module only names things and caches them.

    lvl.flags                  # WFPC u32
    lvl.models[i]              # TRAK tile models (Model), file space
    lvl.model_counts           # their vertex/face/collision counts, no arrays
    lvl.objects                # STPC models (skinned ones: bone_counts)
    lvl.animations             # STPC animation blocks (dicts)
    lvl.tiles                  # Tiles: the MAP tile part as arrays
    lvl.zones                  # Zones: 32 × (mask, height) + the W×H grid
    lvl.world_mesh()           # dict of arrays, ready for foreach_set
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

from . import _core
from .results import Animation, ImportReport, Space, WorldMesh

if TYPE_CHECKING:
    import numpy as np


class Model:
    """One ENG model. Arrays are in the space it was read in ("file" by
    default: game space, z negated from the stored vertices, corner order
    (0,2,1)). positions/normals (N,3) f32; triangles (M,3) u32; face_flags
    (M,) u16; face_texture (M,) i32; face_planes (M,4) f32; centre (3,),
    box (8,3); collision_raw: the 32-byte records of groups A+B+C;
    collision_groups: their 3 counts. STPC models add bone_counts (per-bone
    vertex counts, empty for rigid models) and rigid_vertex_count."""

    def __init__(self, d: dict, space: Space):
        self.space = space
        self.__dict__.update(d)

    @property
    def collision(self) -> dict:
        """The collision polygons decoded (corners, normal, d, type,
        material, group …; see wadkit/_eng_floor.py decode_collision)."""
        from ._eng_floor import decode_collision
        return decode_collision(self.collision_raw, groups=self.collision_groups,
                                space=self.space)

    def __repr__(self) -> str:
        return (f"Model({len(self.positions)} vertices, "
                f"{len(self.triangles)} triangles, "
                f"{sum(self.collision_groups)} collision records)")


class _Table:
    """Named columns of one table, as attributes (lvl.tiles.position) or
    by name (lvl.tiles["position"]). As in a data frame: len() is the
    number of rows, iteration and `in` go over the column names."""

    _rows = ""  # the column whose length is the number of rows

    def __init__(self, d: dict):
        self.__dict__.update(d)

    def keys(self) -> list[str]:
        return list(self.__dict__)

    def __getitem__(self, key: str):
        return self.__dict__[key]

    def __contains__(self, key: object) -> bool:
        return key in self.__dict__

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.__dict__[self._rows])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} rows: {', '.join(self)})"


class Tiles(_Table):
    """The MAP tile part. position (N,3) f32 (from B, file space), rotation
    (N,) 0..4095, model (N,), cell (N,) = x + z·W and cell_xz (N,2), anim_flag,
    swap (N,) index into swaps (S,5) {cellX, y, cellZ, modelA, modelB} or -1,
    colors (K,4) u8 (R,G,B,A) with per-tile color_start/color_sets and
    color_b_start/color_b_sets (modelB of a swap tile; 0 sets = none).
    Raw: a_position (export space), a_rotation, a_model, b (N,6) i32 20.12.
    len(): the number of tiles."""

    _rows = "model"


class Zones(_Table):
    """mask (32,) u32, height (32,) i32, grid (H,W) u32 zone numbers.
    len(): the 32 zones."""

    _rows = "mask"


class GeometryMixin:
    """Geometry properties of an ENG Level (needs .chunk(), .chunks)."""

    def _chunk_or_none(self, tag: str):
        if tag not in self:
            return None, 0
        off = self.chunks[self._index(tag)].offset + 8
        return self.chunk(tag), off

    _GEOM_TAGS = ("WFPC", "TRAK", "MAP", "STPC")

    @property
    def _geom(self) -> _core.EngGeometry:
        """The parsed geometry chunks; parsed again after replace_chunk()
        gave one of them a new payload."""
        key = tuple(id(self._replaced.get(self._index(t))) if t in self else None
                    for t in self._GEOM_TAGS)
        cache = self.__dict__.get("_geom_cache")
        if cache is None or cache[0] != key:
            cache = (key, self._parse_geometry(), {})
            self.__dict__["_geom_cache"] = cache
            changed = getattr(self, "_floor_changed", None)
            if changed is not None:
                changed()
        return cache[1]

    def _floor_inputs(self):
        """What the floor test (wadkit/_eng_floor.py) needs from the parse."""
        from ._eng_floor import floor_inputs_from
        return floor_inputs_from(self.tiles, self.models)

    def _derived(self, name, make):
        """A value made from the parsed geometry, cached with it."""
        g = self._geom
        derived = self.__dict__["_geom_cache"][2]
        if name not in derived:
            derived[name] = make(g)
        return derived[name]

    def _parse_geometry(self) -> _core.EngGeometry:
        wfpc, wfpc_off = self._chunk_or_none("WFPC")
        trak, trak_off = self._chunk_or_none("TRAK")
        map_, map_off = self._chunk_or_none("MAP")
        stpc, stpc_off = self._chunk_or_none("STPC")
        g = _core.EngGeometry(wfpc, trak, trak_off, map_, map_off, stpc, stpc_off,
                              wfpc_off)
        for w in g.warnings:
            _core.warn(w)  # at the user's line, wherever the parse was started
        return g

    @property
    def flags(self) -> int:
        """The WFPC feature flags (0 when the level has no WFPC)."""
        return self._geom.flags

    @property
    def models(self) -> list[Model]:
        """TRAK tile models, file space."""
        return self._derived("models", lambda g: [Model(d, "file") for d in g.models("file")])

    @property
    def model_counts(self) -> dict[str, np.ndarray]:
        """Per TRAK model, without building the models: ``vertices``,
        ``faces`` and ``collision`` (records), each (M,) uint32."""
        return self._derived("model_counts", lambda g: g.model_counts())

    @property
    def objects(self) -> list[Model]:
        """STPC object models, file space."""
        return self._derived("objects", lambda g: [
            Model(d, "file") for d in g.models("file", objects=True)])

    def collision_polygons(self, models=None, space: Space = "file") -> dict:
        """The collision polygons of TRAK models (default: all, else the
        model indices given), tile-local, decoded in one call and
        concatenated in the order asked: the arrays of Model.collision
        (corners (P,4,3), n_corners, type, material, group …) plus model
        (P,) the model of each polygon, polygon (P,) its record number in
        that model (over groups A+B+C, as the floor test counts) and start
        (M+1,) each asked model's run."""
        import numpy as np
        from ._eng_floor import decode_collision
        ms = self.models
        ids = np.arange(len(ms)) if models is None else np.asarray(models, np.int64)
        parts = [ms[int(i)] for i in ids]
        groups = np.array([tuple(m.collision_groups) for m in parts], np.int64).reshape(-1, 3)
        counts = groups.sum(axis=1)
        start = np.zeros(len(parts) + 1, np.int64)
        np.cumsum(counts, out=start[1:])
        # the groups of each model's records: C (the record order is a format fact)
        out = dict(decode_collision(b"".join(bytes(m.collision_raw) for m in parts),
                                    space=space, groups=groups))
        out["model"] = np.repeat(ids, counts)
        out["polygon"] = np.arange(start[-1]) - np.repeat(start[:-1], counts)
        out["start"] = start
        return out

    def models_in(self, space: Space = "file", objects: bool = False) -> list[Model]:
        """TRAK (or STPC) models in "file" or "export" space."""
        return [Model(d, space) for d in self._geom.models(space, objects=objects)]

    @property
    def animations(self) -> list[Animation]:
        """STPC animations: n_frames, n_bones, n_delta, flag, a (nA,) u32,
        frame_words (nFrames,4) i16 or None, deltas [frame 0 (nDelta,4) i16,
        later frames (nDelta,) i16], matrices (nFrames,nBones,4,4) f32, raw."""
        return self._derived("animations", lambda g: g.animations())

    @property
    def animation_layout(self) -> str | None:
        return self._geom.animation_layout

    def bone_matrices(self, animation: int, space: Space = "file") -> np.ndarray:
        """The bone matrices of one STPC animation as the renderer applies
        them: (nFrames, nBones, 4, 4) float32, each acting on column vectors
        (p' = M @ (x, y, z, 1)) and taking a vertex of that bone (as
        lvl.objects gives it, in `space`) to its place in the model at that
        frame. docs/formats/eng.md "STPC animations"."""
        return _core.eng_bone_matrices(self.animations[animation]["matrices"], space)

    @property
    def tiles(self) -> Tiles:
        return self._derived("tiles", lambda g: Tiles(g.tiles("file")))

    def tiles_in(self, space: Space = "file") -> Tiles:
        return Tiles(self._geom.tiles(space))

    @property
    def zones(self) -> Zones:
        return self._derived("zones", lambda g: Zones(g.zones()))

    @property
    def geometry_warnings(self) -> list[str]:
        return self._geom.warnings

    def world_mesh(self, space: Space = "file", texture_table=None,
                   color_set: int = 0) -> WorldMesh:
        """The whole level as one mesh: positions (V,3) f32, triangles (T,3)
        u32, uv (T,3,2) f32 (U right, V down the texture page), color
        (T,3,4) f32, texture (T,) i32 (texture-table entry), page (T,) i32,
        face_flags (T,) u16, tile (T,) i32. texture_table: raw n×8 bytes
        (default: the level's own table when known); without one every face
        shows the unit rectangle."""
        if texture_table is None:
            texture_table = self._own_texture_table()
        return self._geom.world_mesh(space, texture_table, color_set)

    def _own_texture_table(self):
        """The level's texture table (n×8 bytes), or None without TEXT."""
        if "TEXT" not in self or not hasattr(self, "texture_table_raw"):
            return None
        return self.texture_table_raw

    def rebuild_geometry(self) -> dict[str, bytes]:
        """TRAK, MAP and STPC payloads rebuilt from the parsed fields (equal
        to the originals when nothing changed)."""
        out = {}
        g = self._geom
        for tag, build in (("TRAK", g.build_trak), ("MAP", g.build_map),
                           ("STPC", g.build_stpc)):
            if tag in self:
                out[tag] = build()
        return out


def _array(value, dtype, shape_tail, name):
    import numpy as np
    a = np.ascontiguousarray(value, dtype=dtype)
    if a.ndim != 1 + len(shape_tail) or tuple(a.shape[1:]) != shape_tail:
        raise ValueError(f"{name} must have shape (n, {', '.join(map(str, shape_tail))})"
                         f", not {a.shape}")
    return a


class ImportMixin:
    """The ENG write path (Level.with_geometry)."""

    def with_geometry(self, positions, triangles, uv, texture=None, color=None,
                      collision=None, keep_tiles: bool = False,
                      zones: Literal["flat", "keep"] = "flat", default_texture: int = 0,
                      face_flags=None, texture_table=None, page=None, tile=None):
        """A new Level whose TRAK and MAP tile part hold this mesh (file space:
        positions (V,3), triangles (T,3), uv (T,3,2) per corner, texture (T,)
        texture-table entries, color (T,3,4) per corner or None for grey).
        collision = (c_positions (CV,3), c_polygons (P,3|4; -1 pads a
        triangle), c_material (P,) or None); default: the render triangles.
        texture_table: raw n×8 bytes (default: the level's own table).
        page and tile (what world_mesh() also returns) are accepted and
        not used: the page follows from the texture entry, and the write
        path makes its own tiles — so with_geometry(**lvl.world_mesh())
        works. Every other chunk stays byte-identical. Raises wadkit.LimitError
        (nothing written) when the engine could not load the result. The
        returned level has .import_report."""
        import numpy as np
        if zones not in ("flat", "keep"):
            raise ValueError("zones must be 'flat' or 'keep'")
        pos = _array(positions, np.float32, (3,), "positions")
        tri = _array(triangles, np.uint32, (3,), "triangles")
        n = len(tri)
        uvs = _array(uv, np.float32, (3, 2), "uv")
        tex = (np.full(n, default_texture, np.int32) if texture is None
               else _array(texture, np.int32, (), "texture"))
        tex = np.where(tex < 0, default_texture, tex).astype(np.int32)
        col = None if color is None else _array(color, np.float32, (3, 4), "color")
        flags = None if face_flags is None else _array(face_flags, np.uint16, (), "face_flags")
        cpos = cpoly = cmat = None
        if collision is not None:
            cpos_in, cpoly_in, cmat_in = collision
            cpos = _array(cpos_in, np.float32, (3,), "collision positions")
            cpoly = np.asarray(cpoly_in, dtype=np.int32)
            if cpoly.ndim != 2 or cpoly.shape[1] not in (3, 4):
                raise ValueError("collision polygons must have shape (n, 3) or (n, 4)")
            if cpoly.shape[1] == 3:
                cpoly = np.hstack([cpoly, np.full((len(cpoly), 1), -1, np.int32)])
            cpoly = np.ascontiguousarray(cpoly)
            cmat = (np.zeros(len(cpoly), np.uint8) if cmat_in is None
                    else _array(cmat_in, np.uint8, (), "collision material"))
        for name, a in (("uv", uvs), ("texture", tex), ("color", col), ("face_flags", flags)):
            if a is not None and len(a) != n:
                raise ValueError(f"{name} has {len(a)} rows, triangles {n}")
        own = texture_table is None
        table = self._own_texture_table() if own else texture_table
        out = self._geom.import_mesh(
            pos, tri, uvs, tex, col, flags, cpos, cpoly, cmat, table,
            allow_new_entries=own and table is not None, keep_tiles=keep_tiles,
            zones_flat=(zones == "flat"))
        replaced = dict(self._replaced)
        replaced[self._index("TRAK")] = out["trak"]
        replaced[self._index("MAP")] = out["map"]
        new = type(self).__new__(type(self))
        if out["new_entries"]:
            replaced[self._index("TEXT")] = self._text_with_entries(out["new_entries"])
        new.__init__(_core.EngWad(self._wad.build(replaced)), None)
        report: ImportReport = out["report"]
        report["warnings"] = out["warnings"]
        if report["uv_inexact"]:
            report["warnings"].append(
                f"{report['uv_inexact']} triangles have UVs that are not half a "
                "texture rectangle; they got the nearest fitting rectangle")
        if report["uv_nearest_entry"]:
            report["warnings"].append(
                f"{report['uv_nearest_entry']} triangles needed texture rectangles "
                "the table lacks, and the table given is not the level's own; "
                "they use the nearest entry on their page")
        if report["collision_split"]:
            report["warnings"].append(
                f"{report['collision_split']} collision quads are not planar or "
                "not convex; each was written as two triangles")
        if report["dropped_collision"]:
            report["warnings"].append(
                f"{report['dropped_collision']} degenerate collision polygons dropped")
        if report["dropped_degenerate"]:
            report["warnings"].append(
                f"{report['dropped_degenerate']} degenerate triangles dropped")
        # verify: the whole geometry (and TEXT) must parse again
        g = new._geom
        if out["new_entries"] and len(new.texture_table_raw) != len(table) + len(out["new_entries"]):
            raise _core.WadError("rebuilt TEXT does not read back")
        if len(g.models("export")) != (len(self.models) if keep_tiles else 0) + report["tiles"]:
            raise _core.WadError("rebuilt TRAK does not read back")
        for w in report["warnings"]:
            _core.warn(w)
        new.import_report = report
        return new

    def _text_with_entries(self, new_entries: bytes) -> bytes:
        """The TEXT payload with entries appended to the texture table
        (C: wk_eng_text_with_entries); existing indices keep their meaning."""
        return self._textures().core.with_entries(new_entries)
