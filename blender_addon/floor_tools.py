"""Floor tools (View3D sidebar > wadkit): the engine's floor test at the 3D
cursor, and selection of the collision polygons the needle scan reports
(the collision objects of the tiles it names are made first where the
import left them to be made on demand: collision_build.py; a tile still
in a zone mesh of a per-zone import is named, its face not selected).
Both run the wadkit level API (lvl.floor, lvl.needles) on the level as the
scene has it now: the source file with the scene's edits applied, the
way the export would write it (export_eng.patched_level), so a moved tile
or an edited collision mesh is what is tested.
They are offered only where an imported ENG level is in the scene (poll);
the last result is shown in the panel and kept on the window manager,
which is not saved into the .blend."""
from __future__ import annotations

import bpy
import numpy as np

import wadkit

from . import convert
from .operators import eng_level_in_scene, poll_eng_level

_levels: dict[str, object] = {}     # source path -> opened level (mapped file)


def clear_cache() -> None:
    """Forget the opened levels (on load_post and unregister: a new file
    may hold other levels, and the files may have changed)."""
    _levels.clear()


def _show(context, text: str) -> None:
    context.window_manager.wadkit_floor_result = text
    # the panel shows it at once, not on its next redraw
    for window in getattr(context.window_manager, "windows", ()):
        for area in window.screen.areas:
            if area.type == "VIEW_3D":
                area.tag_redraw()


def _level(context):
    """(level collection, the level as the scene has it, {tile of that
    level: object name})."""
    from .export_eng import ExportError, level_collection, patched_level
    coll = level_collection(context)
    path = coll.get("wadkit_source")
    if not path:
        raise ExportError("the level collection has no source path")
    if path not in _levels:
        _levels[path] = wadkit.eng.open(path)
    context.view_layer.update()
    p = patched_level(context, coll, _levels[path])     # the base is not changed
    return coll, p.level, p.objects


class WADKIT_OT_floor_at_cursor(bpy.types.Operator):
    """Run the engine's floor test straight down from the 3D cursor"""
    bl_idname = "wadkit.floor_at_cursor"
    bl_label = "Floor at 3D cursor"
    bl_options = {"REGISTER", "UNDO"}
    poll = classmethod(poll_eng_level)

    def execute(self, context):
        try:
            coll, lvl, objects = _level(context)
            x, y, z = convert.to_file(np.array(context.scene.cursor.location))[0]
            hit = lvl.floor(float(x), float(y), float(z))
        except Exception as e:          # noqa: BLE001 -- shown to the user
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if hit is None:
            result = "no floor below the cursor"
        else:
            name = objects.get(int(hit["tile"]), f"tile {hit['tile']}")
            result = (f"height {hit['height']:.4f}, {name}, "
                      f"polygon {hit['polygon']}, material 0x{hit['material']:02x}")
            found = [(name, _corners(lvl, hit["tile"], hit["polygon"]))]
            try:
                _with_collision(context, coll, found)
            except Exception as e:      # noqa: BLE001
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
            _select_faces(coll, found)
        _show(context, result)
        self.report({"INFO"}, result)
        return {"FINISHED"}


class WADKIT_OT_select_needles(bpy.types.Operator):
    """Select the collision polygons the needle scan reports"""
    bl_idname = "wadkit.select_needles"
    bl_label = "Select needle polygons"
    bl_options = {"REGISTER", "UNDO"}
    poll = classmethod(poll_eng_level)

    def execute(self, context):
        try:
            coll, lvl, objects = _level(context)
            needles = lvl.needles()
            found = [(objects.get(int(n.tile), ""), _corners(lvl, n.tile, n.polygon))
                     for n in needles]
            _with_collision(context, coll, found)
        except Exception as e:          # noqa: BLE001
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        n = _select_faces(coll, found)
        _show(context, f"{len(found)} needle polygons ({n} faces)")
        self.report({"INFO"}, context.window_manager.wadkit_floor_result)
        return {"FINISHED"}


def _with_collision(context, coll, hits) -> None:
    """The tile objects named in hits get their collision objects where
    the import left them to be made on demand (collision_build.py), so the
    faces can be selected."""
    names = {name for name, _ in hits if name}
    if names:
        from .collision_build import build_collision
        from .export_read import level_objects
        from .import_tiles import PROP_TILE
        # a tile held by a zone mesh (per-zone import) has no object to
        # give a child: its record is reported, not selected
        obs = [ob for ob in level_objects(coll) if ob.name in names and PROP_TILE in ob]
        if obs:
            build_collision(context, coll, obs)


def _corners(lvl, tile: int, polygon: int) -> np.ndarray:
    """Tile-local file-space corners of collision record `polygon` of a
    tile's model, as the level holds it."""
    c = lvl.models[int(lvl.tiles.model[int(tile)])].collision
    return np.asarray(c["corners"][int(polygon)][:int(c["n_corners"][int(polygon)])])


def _select_faces(coll, hits) -> int:
    """Select, in the collision children of the named tile objects, the
    face that stands for each hit record (corners (n,3) tile-local file
    space): the face whose corners, in tile space, are within 1 cm of the
    record's (which the encoder rounds). Every other collision face is
    deselected. Returns how many faces were selected."""
    from .export_read import local_matrix
    from .export_tiles import is_collision
    wanted: dict[str, list] = {}
    for name, corners in hits:
        wanted.setdefault(name, []).append(convert.to_blender(corners).astype(np.float64))
    selected = {}
    for ob in coll.all_objects:
        if not is_collision(ob) or ob.parent is None:
            continue
        me = ob.data
        sel = selected.setdefault(me.as_pointer(), (me, np.zeros(len(me.polygons), bool)))[1]
        records = wanted.get(ob.parent.name)
        if not records:
            continue
        m = local_matrix(ob)
        co = np.empty(3 * len(me.vertices), np.float32)
        me.vertices.foreach_get("co", co)
        co = co.reshape(-1, 3).astype(np.float64) @ m[:3, :3].T + m[:3, 3]
        for rec in records:
            f = _face_of(me, co, rec)
            if f is not None:
                sel[f] = True
    count = 0
    for me, sel in selected.values():
        me.polygons.foreach_set("select", sel)
        count += int(sel.sum())
    return count


def _face_of(me, co, rec, tol: float = 0.01):
    """The face with rec's corners (any start, same order), or None."""
    n = len(rec)
    best, found = tol, None
    for p in me.polygons:
        if p.loop_total != n:
            continue
        pts = co[list(p.vertices)]
        for k in range(n):
            d = float(np.abs(np.roll(pts, -k, axis=0) - rec).max())
            if d < best:
                best, found = d, p.index
    return found


class WADKIT_PT_floor(bpy.types.Panel):
    bl_label = "Floor tools"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "wadkit"

    @classmethod
    def poll(cls, context):
        return eng_level_in_scene(context)

    def draw(self, context):
        col = self.layout.column()
        col.operator(WADKIT_OT_floor_at_cursor.bl_idname)
        col.operator(WADKIT_OT_select_needles.bl_idname)
        # one line per part ("height …", the tile, polygon, material): the
        # sidebar is narrow and a label does not wrap
        for part in context.window_manager.wadkit_floor_result.split(", "):
            col.label(text=part)


CLASSES = [WADKIT_OT_floor_at_cursor, WADKIT_OT_select_needles, WADKIT_PT_floor]


def register_props():
    # on the window manager: shown in the panel, never saved into the .blend
    bpy.types.WindowManager.wadkit_floor_result = bpy.props.StringProperty(
        name="Floor tools result", default="")


def unregister_props():
    del bpy.types.WindowManager.wadkit_floor_result
