"""Tile objects made on demand from a per-zone import (View3D sidebar >
wadkit > Tiles and collision > Make tile objects, Object > Make ENG tile
objects;
`bpy.ops.wadkit.eng_make_tiles`).

A per-zone import shows the level in a few objects, cheap to make and to
draw, and exports vertex, UV, colour, material, whole-tile move/turn and
delete edits of them (export_zones.py). Edits that need a tile of its own
(a copy, a turn by any angle, collision objects, faces added) need tile
objects: the chosen tiles become objects as the per-tile import makes them
(import_tiles.py: tile space, placed by the tile, one mesh per model and
colours), their faces leave the zone meshes, and the export takes both
kinds side by side. A tile whose zone faces were edited is refused: its
edit would be lost (export first). docs/blender.md, "Per-zone view"."""
from __future__ import annotations

import bmesh
import bpy
import numpy as np

import wadkit

from . import edit_track, materials
from .build import Created, new_ids
from .export_base import Base
from .export_read import level_objects
from .export_zones import face_tiles, zone_edits
from .import_collision import PROP_MARKS
from .import_eng import PROP_MERGE, PROP_SOURCE, LevelMaterials
from .import_tiles import (PROP_COLOR_TILE, PROP_MODEL, TileLayout, mesh_names,
                           place_objects, tile_mesh_arrays)
from .import_zones import PROP_ZONE
from .operators import LevelEdit


class TilesError(ValueError):
    """The tiles cannot be made into tile objects (why in the text)."""


class _Record:
    """An `ed` for zone_edits that applies nothing: it records which tiles
    the scene's zone meshes edit."""

    def __init__(self):
        self.tiles: set[int] = set()

    def _note(self, tiles, *_a, **_k):
        self.tiles.update([tiles] if isinstance(tiles, int) else tiles)

    place_tile = set_colors = delete_tile = set_geometry = _note


def edited_tiles(root, base) -> set:
    """The tiles the zone objects of root edit (as the export would);
    base: the level's export_base.Base."""
    rec = _Record()

    def call(fn, _obj_name, *args, **_kw):
        fn(*args)

    zones = [ob for ob in level_objects(root) if PROP_ZONE in ob]
    try:
        zone_edits(rec, base, zones, call, [])
    except ValueError as e:
        raise TilesError(str(e)) from e
    return rec.tiles


def make_tile_objects(context, root, tiles) -> list:
    """Make tile objects of `tiles` (held by zone objects of the per-zone
    level collection root) and take their faces out of the zone meshes.
    Returns the objects made. Nothing changes on an error."""
    if root.get(PROP_MERGE) != "ZONE":
        raise TilesError(f"{root.name}: not a per-zone import (its tiles are objects)")
    path = root.get(PROP_SOURCE)
    if not path:
        raise TilesError(f"{root.name}: the level collection does not say which file "
                         "it came from")
    lvl = wadkit.eng.open(path)
    # the import's parsed models and world mesh, while the file is the one
    # it imported (export_base.Base)
    session = edit_track.session_for(root, path)
    base = Base(lvl, None if session is None else session.extra.setdefault("eng_base", {}))
    tiles = sorted(set(int(t) for t in tiles))
    zones = [ob for ob in level_objects(root) if PROP_ZONE in ob]
    held = {}
    for ob in zones:
        for t in np.unique(face_tiles(ob.data)).tolist():
            held[t] = ob
    missing = [t for t in tiles if t not in held]
    if missing:
        raise TilesError(f"{root.name}: tile(s) {_list(missing)} are in no zone object")
    edited = sorted(edited_tiles(root, base) & set(tiles))
    if edited:
        raise TilesError(f"{root.name}: tile(s) {_list(edited)} were edited in their zone "
                         "object; export first (their edits would be lost)")
    if not tiles:
        return []
    wm, models = base.wm, base.models
    vertex_colors = any(materials.COLOR_ATTR in ob.data.color_attributes for ob in zones)
    created = Created()
    try:
        mats = LevelMaterials(created, root.name, lvl, vertex_colors)
        mats.adopt({m for ob in zones for m in ob.data.materials})
        layout = TileLayout(lvl, wm, models, vertex_colors).subset(tiles)
        arr, slots = tile_mesh_arrays(layout, models, wm, vertex_colors, mats.of_textures)
        from .mesh_build import build_meshes
        meshes = build_meshes(mesh_names(root.name, layout), arr,
                              [[mats.by_index[k] for k in s] for s in slots], created)
        for me, m, r in zip(meshes, layout.model.tolist(), layout.rep.tolist()):
            me[PROP_MODEL] = m
            me[PROP_COLOR_TILE] = r
        obs = created.add_all("objects", new_ids(
            bpy.data.objects, [f"{root.name} tile {t}" for t in tiles],
            [meshes[g] for g in layout.group[tiles].tolist()]))
        place_objects(obs, lvl.tiles, tiles)
        for ob in obs:
            root.objects.link(ob)
    except BaseException:
        created.rollback()
        raise
    root[PROP_MARKS] = 1            # the new tile objects say they have no collision child
    _drop_faces(zones, set(tiles))
    return obs


def _drop_faces(zones, tiles: set) -> None:
    """Remove the faces of `tiles` (and the vertices only they use) from
    the zone meshes; a zone object left without faces is removed."""
    for ob in zones:
        ft = face_tiles(ob.data)
        drop = np.isin(ft, list(tiles))
        if not drop.any():
            continue
        if drop.all():
            me = ob.data
            bpy.data.objects.remove(ob)
            if me.users == 0:
                bpy.data.meshes.remove(me)
            continue
        bm = bmesh.new()
        try:
            bm.from_mesh(ob.data)
            bm.faces.ensure_lookup_table()
            bmesh.ops.delete(bm, geom=[bm.faces[i] for i in np.flatnonzero(drop).tolist()],
                             context="FACES")
            bm.to_mesh(ob.data)
        finally:
            bm.free()
        ob.data.update()


def _list(ts) -> str:
    return ", ".join(map(str, ts[:10])) + (f" and {len(ts) - 10} more" if len(ts) > 10 else "")


def _tiles_of(obs) -> list:
    """The tiles the zone objects among obs hold."""
    out = set()
    for ob in obs:
        if PROP_ZONE in ob:
            out.update(np.unique(face_tiles(ob.data)).tolist())
    return sorted(out)


def zone_tiles(root) -> list:
    """Every tile the zone objects of root hold."""
    return _tiles_of(level_objects(root))


def chosen_tiles(context) -> list:
    """The tiles the operator works on: those of the selected faces of
    zone objects in Edit Mode (which is left for Object Mode), else those
    of the selected zone objects."""
    if context.mode == "EDIT_MESH":
        out = set()
        obs = [ob for ob in context.objects_in_mode if PROP_ZONE in ob]
        bpy.ops.object.mode_set(mode="OBJECT")      # the edit-mode faces into the meshes
        for ob in obs:
            me = ob.data
            sel = np.empty(len(me.polygons), bool)
            me.polygons.foreach_get("select", sel)
            out.update(np.unique(face_tiles(me)[sel]).tolist())
        return sorted(out)
    return _tiles_of(getattr(context, "selected_objects", ()))


class WADKIT_OT_eng_make_tiles(LevelEdit, bpy.types.Operator):
    """Make tile objects of the tiles of the selected faces (Edit Mode) or of the selected zone objects of a per-zone import, to move, copy, turn or give collision to each tile on its own; their faces leave the zone objects"""  # noqa: E501
    bl_idname = "wadkit.eng_make_tiles"
    bl_label = "Make tile objects"
    bl_options = {"REGISTER", "UNDO"}
    refusals = (TilesError,)

    def act(self, context, notes) -> str:
        from .export_eng import level_collection
        root = level_collection(context)
        tiles = chosen_tiles(context)
        if not tiles:
            raise TilesError("select zone objects, or faces of one in Edit Mode")
        if context.mode != "OBJECT":
            bpy.ops.object.mode_set(mode="OBJECT")
        obs = make_tile_objects(context, root, tiles)
        context.view_layer.update()      # without the zone objects removed
        for ob in context.selected_objects:
            ob.select_set(False)
        for ob in obs:
            ob.select_set(True)
        if obs:
            context.view_layer.objects.active = obs[0]
        return f"{root.name}: {len(obs)} tile object(s) made"


CLASSES = [WADKIT_OT_eng_make_tiles]
