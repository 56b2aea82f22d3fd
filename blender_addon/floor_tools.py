"""Floor tools (View3D sidebar > wadkit): the engine's floor test at the 3D
cursor, and selection of the collision polygons the needle scan reports.
Both call the wadkit level API (lvl.floor, lvl.needles) on the level's
source file. They are offered only where an imported ENG level is in the
scene (poll); the last result is shown in the panel and kept on the
window manager, which is not saved into the .blend."""
from __future__ import annotations

import bpy
import numpy as np

import wadkit

from . import convert
from .operators import eng_level_in_scene

_levels: dict[str, object] = {}     # source path -> opened level (mapped file)


def clear_cache() -> None:
    """Forget the opened levels (on load_post and unregister: a new file
    may hold other levels, and the files may have changed)."""
    _levels.clear()


def _poll(cls, context) -> bool:
    if eng_level_in_scene(context):
        return True
    cls.poll_message_set("no imported ENG level in the scene")
    return False


def _show(context, text: str) -> None:
    context.window_manager.wadkit_floor_result = text


def _level(context):
    from .export_eng import ExportError, level_collection
    coll = level_collection(context)
    path = coll.get("wadkit_source")
    if not path:
        raise ExportError("the level collection has no source path")
    if path not in _levels:
        _levels[path] = wadkit.eng.open(path)
    return coll, _levels[path]


class WADKIT_OT_floor_at_cursor(bpy.types.Operator):
    """Run the engine's floor test straight down from the 3D cursor"""
    bl_idname = "wadkit.floor_at_cursor"
    bl_label = "Floor at 3D cursor"
    bl_options = {"REGISTER", "UNDO"}
    poll = classmethod(_poll)

    def execute(self, context):
        try:
            coll, lvl = _level(context)
            if not hasattr(lvl, "floor"):
                raise wadkit.WadError("this wadkit has no floor test yet")
            x, y, z = convert.to_file(np.array(context.scene.cursor.location))[0]
            hit = lvl.floor(float(x), float(y), float(z))
        except Exception as e:          # noqa: BLE001 -- shown to the user
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if hit is None:
            result = "no floor below the cursor"
        else:
            result = (f"height {hit['height']:.4f}, tile {hit['tile']}, "
                      f"polygon {hit['polygon']}, material 0x{hit['material']:02x}")
            _select_polygons(coll, {(int(hit["tile"]), int(hit["polygon"]))})
        _show(context, result)
        self.report({"INFO"}, result)
        return {"FINISHED"}


class WADKIT_OT_select_needles(bpy.types.Operator):
    """Select the collision polygons the needle scan reports"""
    bl_idname = "wadkit.select_needles"
    bl_label = "Select needle polygons"
    bl_options = {"REGISTER", "UNDO"}
    poll = classmethod(_poll)

    def execute(self, context):
        try:
            coll, lvl = _level(context)
            if not hasattr(lvl, "needles"):
                raise wadkit.WadError("this wadkit has no needle scan yet")
            found = {(int(n.tile), int(n.polygon)) for n in lvl.needles()}
        except Exception as e:          # noqa: BLE001
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        n = _select_polygons(coll, found)
        _show(context, f"{len(found)} needle polygons ({n} faces)")
        self.report({"INFO"}, context.window_manager.wadkit_floor_result)
        return {"FINISHED"}


def _select_polygons(coll, wanted: set) -> int:
    """Select the collision faces whose (tile, polygon) attributes are in
    wanted; returns how many faces were selected."""
    count = 0
    for ob in coll.all_objects:
        me = ob.data
        if ob.type != "MESH" or "wadkit_polygon" not in me.attributes:
            continue
        n = len(me.polygons)
        tile = np.empty(n, np.int32)
        poly = np.empty(n, np.int32)
        me.attributes["wadkit_tile"].data.foreach_get("value", tile)
        me.attributes["wadkit_polygon"].data.foreach_get("value", poly)
        keys = np.array(sorted(t * 2 ** 32 + p for t, p in wanted), np.int64)
        sel = np.isin(tile.astype(np.int64) * 2 ** 32 + poly, keys)
        me.polygons.foreach_set("select", sel)
        count += int(sel.sum())
    return count


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
        col.label(text=context.window_manager.wadkit_floor_result)


CLASSES = [WADKIT_OT_floor_at_cursor, WADKIT_OT_select_needles, WADKIT_PT_floor]


def register_props():
    # on the window manager: shown in the panel, never saved into the .blend
    bpy.types.WindowManager.wadkit_floor_result = bpy.props.StringProperty(
        name="Floor tools result", default="")


def unregister_props():
    del bpy.types.WindowManager.wadkit_floor_result
