"""Floor tools (View3D sidebar > wadkit): the engine's floor test at the 3D
cursor, and selection of the collision polygons the needle scan reports.
Both call the wadkit level API (lvl.floor, lvl.needles) on the level's
source file."""
from __future__ import annotations

import bpy
import numpy as np

import wadkit

from . import convert

_levels: dict[str, object] = {}


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
        st = context.scene.wadkit_floor
        if hit is None:
            st.result = "no floor below the cursor"
        else:
            st.result = (f"height {hit['height']:.4f}, tile {hit['tile']}, "
                         f"polygon {hit['polygon']}, material 0x{hit['material']:02x}")
            _select_polygons(coll, {(int(hit["tile"]), int(hit["polygon"]))})
        self.report({"INFO"}, st.result)
        return {"FINISHED"}


class WADKIT_OT_select_needles(bpy.types.Operator):
    """Select the collision polygons the needle scan reports"""
    bl_idname = "wadkit.select_needles"
    bl_label = "Select needle polygons"

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
        context.scene.wadkit_floor.result = f"{len(found)} needle polygons ({n} faces)"
        self.report({"INFO"}, context.scene.wadkit_floor.result)
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
        sel = np.array([(int(t), int(p)) in wanted for t, p in zip(tile, poly)], bool)
        me.polygons.foreach_set("select", sel)
        count += int(sel.sum())
    return count


class WADKIT_PT_floor(bpy.types.Panel):
    bl_label = "Floor tools"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "wadkit"

    def draw(self, context):
        col = self.layout.column()
        col.operator(WADKIT_OT_floor_at_cursor.bl_idname)
        col.operator(WADKIT_OT_select_needles.bl_idname)
        col.label(text=context.scene.wadkit_floor.result)


class WadkitFloorState(bpy.types.PropertyGroup):
    result: bpy.props.StringProperty(name="Result", default="")


CLASSES = [WadkitFloorState, WADKIT_OT_floor_at_cursor, WADKIT_OT_select_needles,
           WADKIT_PT_floor]


def register_props():
    bpy.types.Scene.wadkit_floor = bpy.props.PointerProperty(type=WadkitFloorState)


def unregister_props():
    del bpy.types.Scene.wadkit_floor
