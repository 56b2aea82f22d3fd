"""Blender scene -> ENG level: the export patches the base level.

The level collection's objects are compared with what the import made of
the base level (export_tiles.py, export_plan.py); what differs becomes an
edit of wadkit's LevelEdit; objects the user added become new tiles
(export_new.py); every object the export cannot write is named in a note
(a WARNING report). Nothing changed -> the base level is saved as it is
(byte-identical); "unchanged" is said only when the bytes are."""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

import wadkit

from . import edit_track
from . import export_common as common
from .eng_materials import Refused, TextEdits
from .export_base import Base
from .export_common import ExportError
from .export_new import add_new_object, stpc_changed
from .export_plan import TilePlan
from .export_read import level_objects
from .export_tiles import is_collision
from .import_collision import PROP_MARKS
from .import_eng import PROP_MERGE, PROP_SOURCE
from .import_eng_objects import PROP_OBJECT
from .import_tiles import PROP_TILE
from .import_zones import PROP_ZONE


@dataclass
class Options:
    triangulate: bool = True          # faces of 4+ corners split as Blender does
    floors_from_faces: bool = False   # new meshes without a collision child: collision = faces
    zones: str = "keep"               # zones of new tiles: "keep" (the cells') / "flat"


def level_collection(context):
    """The imported ENG level collection the export works on: the active
    object's, else the only one in the scene (export_common)."""
    return common.level_collection(context, "eng")


class _Scan:
    """The level collection's objects by kind, with the world matrices of
    the tiles and the new objects (tile_matrices, new_matrices: (N,4,4),
    read in the same walk)."""

    def __init__(self, coll, n_tiles: int):
        self.tiles, self.zones, self.stpc, self.new, self.skipped = [], [], [], [], []
        self.tile_numbers: list[int] = []        # wadkit_tile of each of self.tiles
        self.orphans = []
        self.children: dict[int, list] = {}      # object pointer -> collision children
        obs, mats = level_objects(coll, matrices=True)
        here = None                     # the objects' pointers, once a child needs them
        tile_rows, new_rows = [], []
        for i, ob in enumerate(obs):
            kind = ob.type
            if PROP_OBJECT in ob and kind in ("MESH", "ARMATURE"):
                if kind == "MESH":
                    self.stpc.append(ob)      # STPC armatures: shown with their model
            elif kind != "MESH":
                self.skipped.append((ob.name, f"a {kind.lower()} object, not a mesh"))
            elif is_collision(ob, kind):
                parent = ob.parent
                if parent is not None and here is None:
                    here = {o.as_pointer() for o in obs}
                if parent is None or parent.as_pointer() not in here:
                    self.orphans.append(ob.name)
                else:
                    self.children.setdefault(parent.as_pointer(), []).append(ob)
            elif PROP_ZONE in ob:
                self.zones.append(ob)
            elif isinstance(t := ob.get(PROP_TILE), int) and 0 <= t < n_tiles:
                self.tiles.append(ob)
                self.tile_numbers.append(t)
                tile_rows.append(i)
            else:
                self.new.append(ob)
                new_rows.append(i)
        self.tile_matrices = mats[np.array(tile_rows, np.int64)]
        self.new_matrices = mats[np.array(new_rows, np.int64)]


def export_eng(context, out_path: str, *, base_path: str | None = None,
               options: Options | None = None) -> tuple[str, list[str]]:
    """Write the scene's level to out_path. Returns ("unchanged" | a summary
    of the edits, notes for WARNING reports). Raises ExportError /
    wadkit.FormatError / wadkit.LimitError / OSError; nothing is written
    then (wadkit's writes are atomic)."""
    opts = options or Options()
    coll = level_collection(context)
    context.view_layer.update()         # current matrix_world of every object
    base_file = base_path or coll.get(PROP_SOURCE)
    if not base_file:
        raise ExportError("no base level: set the base path")
    lvl = wadkit.eng.open(base_file)
    p = patched_level(context, coll, lvl, opts)
    p.level.save(out_path)
    return p.how, p.notes


class _Edit:
    """lvl.edit(), made when first used: an unchanged scene makes no edit
    (and its C side parses TRAK and MAP)."""

    __slots__ = ("_lvl", "_ed")

    def __init__(self, lvl):
        self._lvl, self._ed = lvl, None

    def __getattr__(self, name):
        if self._ed is None:
            self._ed = self._lvl.edit()
        return getattr(self._ed, name)


@dataclass
class Patched:
    level: object           # the edited level, or the base level when nothing changed
    changed: bool
    how: str                # "unchanged" or a summary of the edits
    notes: list
    objects: dict           # tile of `level` -> the name of the object it came from


def patched_level(context, coll, lvl, opts: Options | None = None) -> Patched:
    """The base level with the scene's edits applied (not written)."""
    opts = opts or Options()
    session = edit_track.session_for(coll, getattr(lvl, "path", None))
    base = Base(lvl, None if session is None else session.extra.setdefault("eng_base", {}))
    scan = _Scan(coll, base.n_tiles)
    notes: list[str] = []
    for name, why in scan.skipped:
        notes.append(f"object {name!r} is not exported: {why}")
    for name in scan.orphans:
        notes.append(f"collision object {name!r} is not the child of an object of the "
                     "level (its tile was deleted, or it was unparented): not exported; "
                     "parent it to the object it belongs to")
    for ob in scan.stpc:
        if stpc_changed(ob, lvl):
            notes.append(f"object {ob.name!r} is an STPC object model, shown for reference: "
                         "edits of it are not exported")
    text = TextEdits(lvl, coll.get(PROP_SOURCE), notes)
    try:
        text.prepare(scan.tiles + scan.zones + scan.new + scan.stpc)
    except Refused as e:
        raise ExportError(str(e)) from e
    ed = _Edit(lvl)
    names_of_tile: dict[int, str] = {}
    calls = []

    def call(fn, obj_name, *args, **kw):
        calls.append(obj_name)
        try:
            return fn(*args, **kw)
        except wadkit.LimitError as e:
            raise ExportError(f"{_blame(e, obj_name, names_of_tile)}: {e}") from e
        except ValueError as e:
            msg = str(e)
            raise ExportError(msg if msg.startswith(obj_name) else f"{obj_name}: {msg}") from e

    plan, counts = None, None
    zone = bool(scan.zones) or coll.get(PROP_MERGE) == "ZONE"
    if zone and coll.get(PROP_MERGE) != "ZONE":
        raise ExportError("the level collection mixes zone and tile objects; "
                          "export needs one import kind")
    if scan.tiles or (base.n_tiles and not zone):
        # tile objects: all of a per-tile import, or those made of a
        # per-zone import's tiles (zone_tiles.py), the zones holding the rest
        plan = TilePlan(ed, base, opts, notes, context.evaluated_depsgraph_get(), session,
                        marked=bool(coll.get(PROP_MARKS)))
        plan.textures.resolve = text.entries_of
        try:
            plan.run(scan.tiles, scan.tile_matrices, scan.children,
                     call, scan.tile_numbers, delete_missing=not zone)
        except ValueError as e:           # from the arrays built for an edit
            raise ExportError(str(e)) from e
        names_of_tile.update(plan.names)
        counts = dict(plan.count)
    if zone:
        from .export_zones import trusted_zones, zone_edits
        claimed = {}
        for ob, t in zip(scan.tiles, scan.tile_numbers):
            claimed.setdefault(t, ob.name)
        try:
            zc = zone_edits(ed, base, scan.zones, call, notes, text.entries_of, claimed,
                            trusted_zones(session, scan.zones))
        except ValueError as e:           # a zone mesh the export cannot take back
            raise ExportError(str(e)) from e
        counts = {k: (counts or {}).get(k, 0) + zc.get(k, 0) for k in {*zc, *(counts or {})}}
    added = 0
    if scan.new:
        mats = scan.new_matrices
        meshes = plan.meshes if plan else None
        textures = plan.textures if plan else None
        if plan is None:
            from .export_tiles import Meshes
            from .materials_map import FaceTextures
            meshes, textures = Meshes(), FaceTextures(text.entries_of)
        deps = context.evaluated_depsgraph_get()
        for ob, m in zip(scan.new, mats):
            try:
                added += add_new_object(ed, ob, m, scan.children.get(ob.as_pointer(), []),
                                        textures, meshes, opts, notes, call, deps,
                                        names_of_tile)
            except ValueError as e:
                raise ExportError(str(e)) from e
    by_tile = dict(names_of_tile)
    if not calls:
        if text.changed:                # pages painted, no tile edited
            return Patched(lvl, True, "patched: " + ", ".join(text.summary()), notes, by_tile)
        return Patched(lvl, False, "unchanged", notes, by_tile)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", wadkit.WadWarning)
        try:
            new = ed.apply()
        except wadkit.LimitError as e:
            raise ExportError(f"{_blame(e, None, names_of_tile)}: {e}") from e
    rep = new.edit_report
    for w in [str(c.message) for c in caught] + list(rep.get("warnings", ())):
        if w not in notes:
            notes.append(w)
    if rep.get("uv_fitted"):
        notes.append(f"{rep['uv_fitted']} triangles had their texture entry and UV corners "
                     f"fitted to their UVs (largest UV error {rep['uv_max_error']:.2f} "
                     "texels; the engine shows half a texture rectangle per triangle)")
    index = rep.get("tile_index")
    objects = {}
    if index is not None:
        index = np.asarray(index)
        ts = [t for t in by_tile if 0 <= t < len(index)]
        objects = {k: by_tile[t] for t, k in zip(ts, index[ts].tolist()) if k >= 0}
    if rep["unchanged"] and not text.changed:
        return Patched(lvl, False, "unchanged", notes, by_tile)
    return Patched(new, True, _summary(counts, rep, added, text), notes, objects)


def _summary(counts, rep, added: int, text) -> str:
    parts = []
    if counts is not None:
        c = counts
        for key, label in (("geometry", "tiles with new geometry"), ("colors", "recoloured"),
                           ("collision", "with new collision"), ("moved", "moved"),
                           ("added", "copied"), ("deleted", "deleted")):
            if c.get(key):
                parts.append(f"{c[key]} {label}")
    if added:
        parts.append(f"{added} new tiles from new objects")
    parts.append(f"{len(rep['models_rewritten'])} models rewritten, "
                 f"{len(rep['models_added'])} added")
    parts += text.summary()
    return "patched: " + ", ".join(parts)


def _blame(e, obj_name, names_of_tile) -> str:
    """The Blender object a LimitError is about, from its structured fields."""
    tile = getattr(e, "tile", None)
    if tile is not None and tile in names_of_tile:
        return f"object {names_of_tile[tile]!r}"
    obj = getattr(e, "object", None)
    if obj:
        return f"object {obj!r}"
    if obj_name:
        return f"object {obj_name!r}"
    model = getattr(e, "model", None)
    return f"model {model}" if model is not None else "the level"
