"""Editing an ENG level in place (issue 14): Level.edit() -> LevelEdit.

A LevelEdit holds pending changes to a level's tiles and models; the level
itself never changes. apply() writes them the way the engine stores a
level and returns a new, re-parsed Level:

- every untouched model and tile keeps its bytes (same TRAK model bytes,
  same MAP records); only edited models are encoded again, tile order and
  rotations are kept, model indices never change (new models are appended);
- a model is rewritten in place when the tiles given are exactly the tiles
  (and tile swaps) that use it; otherwise a new model is appended for those
  tiles and the others keep the old one;
- what an edit leaves alone keeps its stored bits: vertex positions equal
  to the stored ones, normals of vertices none of whose faces changed, face
  planes of unchanged faces, the model's box while every vertex stays in it,
  collision records whose polygon did not change (so set_geometry with a
  model's own data gives its own bytes back).

    ed = lvl.edit()
    ed.set_geometry([12], positions, triangles, uv, texture, name="Tile 12")
    ed.place_tile(40, (10.5, 2.0, 7.5), 1024)
    new = ed.apply()
    new.edit_report["models_rewritten"]     # [12]

Spaces: tile-local arguments are FILE space (y up, z as the game shows
it, = game space), unrotated, relative to the tile's position; world
arguments are file space. Rotation: 0..4095, 4096 = a full turn about +y.
Tiles are numbered as in the source level; tiles added by add_tile /
add_mesh get the numbers after them, and a deleted tile keeps its number
until apply() (edit_report["tile_index"] maps every number to the new
level's tile, -1 for deleted ones).

Errors: arguments of the wrong shape, dtype or range raise ValueError naming
the argument; what the game could not load raises wadkit.LimitError with
.tile, .model, .vertex and .object (the `name` you passed) set where they
apply. An edit that raises changes nothing. docs/formats/eng.md "Editing a
level in place" has the rules, limits and [assumed] points.
"""
from __future__ import annotations

import warnings

import numpy as np

from . import _core
from ._args import array


def _array(value, dtype, tail, name, op, integer=False, lo=None, hi=None):
    """value checked and converted (wadkit._args.array), errors naming op."""
    return array(value, dtype, tail, name, integer=integer, lo=lo, hi=hi, op=op)


def _tiles(tiles, op):
    t = np.atleast_1d(np.asarray(tiles))
    return _array(t, np.uint32, (), "tiles", op, integer=True, lo=0, hi=2 ** 31 - 1)


def _colors(c, op, what="colors"):
    """One tile's colours: (V, 4) or (S, V, 4) integers 0..255 -> bytes-like."""
    if c is None:
        return None
    a = np.asarray(c)
    if a.ndim == 2:
        a = a[None]
    if a.ndim != 3 or a.shape[2] != 4:
        raise ValueError(f"{op}: {what} must have shape (V, 4) or (sets, V, 4) "
                         f"as lvl.tiles gives them, not {np.shape(c)}")
    if a.dtype.kind not in "iu" and a.size:
        raise ValueError(f"{op}: {what} must hold bytes 0..255 (R, G, B, byte 3; "
                         f"0x80 = full brightness), not {a.dtype}")
    if a.size and (a.min() < 0 or a.max() > 255):
        raise ValueError(f"{op}: {what} must lie in 0..255")
    return np.ascontiguousarray(a, dtype=np.uint8)


def _polygons(value, name, op):
    """(P, 3) or (P, 4) corner indices -> (P, 4) int32, -1 padding triangles."""
    q = np.asarray(value)
    if q.ndim != 2 or q.shape[1] not in (3, 4):
        raise ValueError(f"{op}: {name} must have shape (n, 3) or (n, 4), not {q.shape}")
    if q.shape[1] == 3:
        q = np.hstack([q, np.full((len(q), 1), -1)])
    q = _array(q, np.int32, (4,), name, op, integer=True, lo=-1, hi=2 ** 31 - 1)
    if len(q) and (q[:, :3] < 0).any():
        raise ValueError(f"{op}: {name}: only the 4th corner may be -1")
    return q


def _position(p, op):
    p = np.asarray(p, dtype=np.float64)
    if p.shape != (3,) or not np.all(np.isfinite(p)):
        raise ValueError(f"{op}: position must be three finite numbers (x, y, z)")
    return tuple(float(v) for v in p)


def _rotation(r, op):
    if isinstance(r, (bool, np.bool_)) or not float(r).is_integer() or not 0 <= r <= 4095:
        raise ValueError(f"{op}: rotation must be an integer 0..4095 "
                         f"(4096 = a full turn), not {r!r}")
    return int(r)


def _index(v, name, op):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) \
            or not 0 <= v < 2 ** 32:
        raise ValueError(f"{op}: {name} must be a non-negative integer, not {v!r}")
    return int(v)


def _name(name, op):
    if name is not None and not isinstance(name, str):
        raise ValueError(f"{op}: name must be a str or None, not {type(name).__name__}")
    return name


class LevelEdit:
    """Pending edits of an ENG level (see the module docstring)."""

    def __init__(self, level):
        self._level = level
        trak = level.chunk("TRAK")
        map_ = level.chunk("MAP")
        base = {t: level.chunks[level._index(t)].offset + 8 for t in ("TRAK", "MAP")}
        table = level._own_texture_table()
        self._core = _core.EngEdit(level.flags, trak, base["TRAK"], map_, base["MAP"],
                                   table, table is not None)
        self._edits: list[dict] = []

    # --- what the edit holds now ---

    @property
    def tile_count(self) -> int:
        """Tiles in the edit's numbering: the source's, then added ones
        (deleted ones still count)."""
        return self._core.counts[0]

    @property
    def model_count(self) -> int:
        return self._core.counts[2]

    def tile_model(self, tile: int) -> int | None:
        """The model a tile uses now (None: deleted)."""
        return self._core.tile_model(_index(tile, "tile", "tile_model"))

    def tile_colors(self, tile: int) -> np.ndarray:
        """A tile's vertex colours now: (sets, nVerts, 4) uint8, R G B and
        byte 3 (the set count in the first entry), 0x80 = full brightness."""
        return self._core.tile_colors(_index(tile, "tile", "tile_colors"))

    def model_vertex_count(self, model: int) -> int:
        return self._core.model_verts(_index(model, "model", "model_vertex_count"))

    # --- edits ---

    def set_geometry(self, tiles, positions, triangles, uv, texture, colors=None,
                     face_flags=None, name: str | None = None) -> dict:
        """New render geometry shared by `tiles` (an index or a list).

        positions (V, 3) tile-local file space (y up, unrotated, relative
        to the tile position); triangles (T, 3) indices into positions
        (file corner order, counter-clockwise seen from the front); one
        model vertex per position (shared, as the engine counts them:
        V ≤ 8000); uv (T, 3, 2) per corner (U right, V down the page, 0..1);
        texture (T,) texture-table entries; face_flags (T,) u16 or None
        (0): bits other than the UV-corner bits 0x10/0x20/0x800 are kept,
        the batch bit 0x8 is kept and set where the engine needs it.

        UVs: when the entry with the face's own corner bits shows these UVs
        (within half a texel) both are kept; else the rectangle and corner
        bits are fitted: an entry with that rectangle, else a new entry (a
        copy of the face's entry; only on the level's own table), else the
        nearest entry on the page (counted as uv_nearest).

        colors: None, or one entry per tile: None (keep the tile's colours
        if the vertex count is unchanged, else grey 0x80 and a warning) or
        (V, 4) / (sets, V, 4) uint8 in the form lvl.tiles gives them.

        Collision is not changed (set_collision does that). Returns
        {model, in_place, uv_fitted, uv_max_error (texels), uv_inexact,
        uv_nearest, grey_tiles}. LimitError (nothing changed): > 8000
        vertices, > 65535 triangles, a texture index past the table, a
        coordinate past the 20.12 range."""
        op = "set_geometry"
        t = _tiles(tiles, op)
        pos = _array(positions, np.float32, (3,), "positions", op)
        tri = _array(triangles, np.uint32, (3,), "triangles", op, integer=True, lo=0,
                     hi=2 ** 32 - 1)
        n = len(tri)
        uvs = _array(uv, np.float32, (3, 2), "uv", op)
        tex = _array(texture, np.int32, (), "texture", op, integer=True, lo=0, hi=65535)
        flags = None if face_flags is None else _array(
            face_flags, np.uint16, (), "face_flags", op, integer=True, lo=0, hi=65535)
        for nm, a in (("uv", uvs), ("texture", tex), ("face_flags", flags)):
            if a is not None and len(a) != n:
                raise ValueError(f"{op}: {nm} has {len(a)} rows, triangles {n}")
        cols = None
        if colors is not None:
            if isinstance(colors, np.ndarray) and colors.ndim == 2:
                raise ValueError(f"{op}: colors must hold one entry per tile "
                                 "(a list), not one array")
            cols = [_colors(c, op, f"colors[{k}]") for k, c in enumerate(colors)]
        out = self._core.set_geometry(t, pos, tri, uvs, tex, flags, cols, _name(name, op))
        self._note(op, name, t, out)
        return out

    def set_collision(self, tiles, positions, polygons, material=None,
                      name: str | None = None) -> dict:
        """New collision shared by `tiles`: positions (V, 3) tile-local file
        (= game) space, polygons (P, 3) or (P, 4) indices (-1 in the 4th
        column: a triangle), corners counter-clockwise seen from the side
        the surface faces; material (P,) ground types (0 normal, 0x1e
        water/death plane …; None: 0). Type and quad bit follow the polygon.

        A polygon that is an existing record of the tiles' model (its
        decoded corners within 0.1 mm, same material) keeps that record's
        bytes and group; others are encoded and grouped by their normal
        (A floors ny ≥ 0.5, B ceilings ny ≤ −0.5, C walls) [assumed]. Records
        are written group A, then B, then C, each in polygon order. Changed
        records that reach into other cells are also entered into
        collision-only tiles there at apply() (the engine tests only the
        tiles of the player's cell). Returns {model, in_place, kept,
        encoded, split, dropped, groups}. LimitError: a plane beyond the
        record's reach (about ±8 units of the tile origin)."""
        op = "set_collision"
        t = _tiles(tiles, op)
        pos = _array(positions, np.float32, (3,), "positions", op)
        poly = _polygons(polygons, "polygons", op)
        mat = None if material is None else _array(
            material, np.uint8, (), "material", op, integer=True, lo=0, hi=255)
        if mat is not None and len(mat) != len(poly):
            raise ValueError(f"{op}: material has {len(mat)} rows, polygons {len(poly)}")
        out = self._core.set_collision(t, pos, poly, mat, _name(name, op))
        self._note(op, name, t, out)
        return out

    def set_colors(self, tile: int, colors, name: str | None = None) -> None:
        """A tile's vertex colours only: (V, 4) or (sets, V, 4) uint8 for
        the vertices of its model now."""
        op = "set_colors"
        tile = _index(tile, "tile", op)
        c = _colors(colors, op)
        if c is None:
            raise ValueError(f"{op}: colors must be given")
        self._core.set_colors(tile, c, _name(name, op))
        self._note(op, name, [tile], {})

    def place_tile(self, tile: int, position, rotation: int,
                   name: str | None = None) -> None:
        """Move and turn a tile: position file space, rotation 0..4095 about
        +y (4096 = a full turn). The tile keeps its model (and collision,
        which moves with it). The originals only use quarter turns (0, 1024,
        2048, 3072); other angles are written, but the engine turns the
        floor test's probe with its own sine table, which we do not have
        [assumed round(4096·sin)], so bake other turns into the model with
        set_geometry instead. The position must put the tile in the grid by
        the loader's rule (x, z in (−0.5, W + 0.5)), each coordinate within
        ±4096."""
        op = "place_tile"
        tile = _index(tile, "tile", op)
        self._core.place_tile(tile, _position(position, op), _rotation(rotation, op),
                              _name(name, op))
        self._note(op, name, [tile], {})

    def delete_tile(self, tile: int, name: str | None = None) -> None:
        """Remove a tile (and its collision; a tile swap of it goes too, with
        a warning). Its model stays in TRAK."""
        op = "delete_tile"
        tile = _index(tile, "tile", op)
        self._core.delete_tile(tile, _name(name, op))
        self._note(op, name, [tile], {})

    def add_tile(self, model: int, position, rotation: int, colors=None,
                 name: str | None = None) -> int:
        """A new tile of an existing model (a duplicate: the same model,
        with colors=ed.tile_colors(source)). colors None: grey with a
        warning. Returns its number in the edit."""
        op = "add_tile"
        model = _index(model, "model", op)
        t = self._core.add_tile(model, _position(position, op), _rotation(rotation, op),
                                _colors(colors, op), _name(name, op))
        self._note(op, name, [t], {"model": model})
        return t

    def add_mesh(self, positions, triangles, uv, texture=None, color=None,
                 collision=None, zones: str = "keep", name: str | None = None,
                 face_flags=None) -> dict:
        """A mesh in WORLD file space through the write path's cell split
        (as with_geometry: a tile per used cell and height band) into new
        tiles and models; the level's other tiles stay. texture (T,)
        entries, or None: a flat grey entry (found or added, with a
        warning). color (T, 3, 4) per corner 0..1 or None (grey).
        collision: None (no collision), "faces" (the render triangles), or
        (positions (CV, 3), polygons (P, 3|4), material (P,) | None), world
        file space; every polygon goes into each cell its interior covers.
        zones: "keep" (the cells' zones) or "flat" (every cell zone 0, zone 0
        sees all). The cells must lie in the level's grid. Returns
        {first_tile, n_tiles, first_model, n_models, dropped_degenerate,
        dropped_collision, collision_split, uv_inexact, uv_nearest,
        uv_fitted (triangles whose entry and corner flags the fit chose),
        uv_max_error (texels)}."""
        op = "add_mesh"
        if zones not in ("keep", "flat"):
            raise ValueError(f"{op}: zones must be 'keep' or 'flat', not {zones!r}")
        pos = _array(positions, np.float32, (3,), "positions", op)
        tri = _array(triangles, np.uint32, (3,), "triangles", op, integer=True, lo=0,
                     hi=2 ** 32 - 1)
        n = len(tri)
        uvs = _array(uv, np.float32, (3, 2), "uv", op)
        notes = []
        if texture is None:
            grey = self._core.flat_entry(128, 128, 128)
            tex = np.full(n, grey, np.int32)
            notes.append(f"{name + ': ' if name else ''}no texture given: the "
                         f"faces use the flat grey texture entry {grey}")
        else:
            tex = _array(texture, np.int32, (), "texture", op, integer=True, lo=0,
                         hi=65535)
        col = None if color is None else _array(color, np.float32, (3, 4), "color", op)
        flags = None if face_flags is None else _array(
            face_flags, np.uint16, (), "face_flags", op, integer=True, lo=0, hi=65535)
        for nm, a in (("uv", uvs), ("texture", tex), ("color", col), ("face_flags", flags)):
            if a is not None and len(a) != n:
                raise ValueError(f"{op}: {nm} has {len(a)} rows, triangles {n}")
        cpos = cpoly = cmat = None
        if isinstance(collision, str):
            if collision != "faces":
                raise ValueError(f"{op}: collision must be None, 'faces' or "
                                 f"(positions, polygons, material), not {collision!r}")
            pass                # the write path's default: the render triangles
        elif collision is not None:
            try:
                cp, cq, cm = collision
            except (TypeError, ValueError):
                raise ValueError(f"{op}: collision must be (positions, polygons, "
                                 "material)") from None
            cpos = _array(cp, np.float32, (3,), "collision positions", op)
            cpoly = _polygons(cq, "collision polygons", op)
            cmat = None if cm is None else _array(
                cm, np.uint8, (), "collision material", op, integer=True, lo=0, hi=255)
        if collision is None:
            # no collision: an empty collision mesh (not the render faces)
            cpos = np.zeros((0, 3), np.float32)
            cpoly = np.zeros((0, 4), np.int32)
        out = self._core.add_mesh(pos, tri, uvs, tex, col, flags, cpos, cpoly, cmat,
                                  zones == "flat", _name(name, op))
        out["warnings"] = notes
        self._note(op, name, list(range(out["first_tile"],
                                        out["first_tile"] + out["n_tiles"])), out)
        return out

    def _note(self, op, name, tiles, out):
        entry = {"op": op, "name": name, "tiles": [int(t) for t in tiles]}
        entry.update({k: v for k, v in out.items() if k != "warnings"})
        entry["warnings"] = list(out.get("warnings", ()))
        self._edits.append(entry)

    # --- writing ---

    def apply(self):
        """The edited level: a new Level, re-parsed and checked, with
        .edit_report (see docs/formats/eng.md "Editing a level in place"):
        unchanged (the bytes are the source's), chunks_changed (tags
        whose payload differs from the source's), models_rewritten,
        models_added, tiles_added, tiles_deleted, tiles_moved, tile_index,
        uv_fitted, uv_max_error, new_texture_entries, spill_tiles,
        spill_records, edits (one dict per call, with its name), warnings.
        The edit stays usable (apply again after more edits)."""
        lvl = self._level
        out = self._core.build()
        replaced = dict(lvl._replaced)
        changed = []
        for tag in ("TRAK", "MAP"):
            if not out[tag.lower() + "_same"]:   # compared in C (memcmp)
                replaced[lvl._index(tag)] = out[tag.lower()]
                changed.append(tag)
        if out["new_entries"]:
            replaced[lvl._index("TEXT")] = lvl._text_with_entries(out["new_entries"])
            changed.append("TEXT")
        data = lvl._wad.build(replaced or None)
        new = type(lvl)(_core.EngWad(data), None)
        self._verify(new, out)
        report = self._report(out, changed)
        for w in report["warnings"]:
            _core.warn(w)               # at the user's line (csrc/module/warn.c)
        new.edit_report = report
        return new

    @staticmethod
    def _verify(new, out):
        """The written level parses (container, TRAK, MAP) to what was built."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", _core.WadWarning)
            n_models, n_tiles = new._geom.counts   # full parse of TRAK, MAP, STPC
        if (n_models, n_tiles) != (out["models"], out["tiles"]):
            raise _core.WadError("the edited level does not read back: "
                                 f"{n_models} models / {n_tiles} tiles, built "
                                 f"{out['models']} / {out['tiles']}")

    def _report(self, out, changed) -> dict:
        edits = self._edits
        def tiles_of(op):
            return sorted({t for e in edits if e["op"] == op for t in e["tiles"]})
        fits = [e for e in edits if e["op"] in ("set_geometry", "add_mesh")]
        warn = list(out["warnings"])
        for e in edits:
            warn += e["warnings"]
        n_base = out["base_models"]
        return {
            "unchanged": not changed,
            "chunks_changed": changed,
            "models_rewritten": [int(m) for m in out["models_rewritten"]],
            "models_added": list(range(n_base, out["models"])),
            "tiles_added": tiles_of("add_tile") + tiles_of("add_mesh"),
            "tiles_deleted": tiles_of("delete_tile"),
            "tiles_moved": tiles_of("place_tile"),
            "tile_index": out["tile_index"],
            "uv_fitted": sum(e["uv_fitted"] for e in fits),
            "uv_max_error": max((e["uv_max_error"] for e in fits), default=0.0),
            "new_texture_entries": len(out["new_entries"]) // 8,
            "spill_tiles": out["spill_tiles"],
            "spill_records": out["spill_records"],
            "tiles": out["tiles"],
            "models": out["models"],
            "edits": [dict(e) for e in edits],
            "warnings": warn,
        }


class EditMixin:
    """Level.edit()."""

    def edit(self) -> LevelEdit:
        """Pending edits of this level's tiles and models (wadkit/_eng_edit.py);
        the level itself is not changed. Needs TRAK and MAP."""
        from .eng import missing_chunk
        for tag in ("TRAK", "MAP"):
            if tag not in self:
                raise missing_chunk(tag)
        return LevelEdit(self)
