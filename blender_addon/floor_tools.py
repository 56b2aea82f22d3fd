"""Floor tools (View3D sidebar > wadkit): the engine's floor test at the 3D
cursor, and selection of the collision polygons the needle scan reports.
Both run the wadkit level API (lvl.floor, lvl.needles) on the level as the
scene has it now: the source file with the scene's edits applied, the
way the export would write it (export_eng.patched_level), so a moved tile
or an edited collision mesh is what is tested."""
from __future__ import annotations

import bpy
import numpy as np

import wadkit

from . import convert

def _level(context):
    """(level collection, the level as the scene has it, {tile of that
    level: object name})."""
    from .export_eng import ExportError, level_collection, patched_level
    coll = level_collection(context)
    path = coll.get("wadkit_source")
    if not path:
        raise ExportError("the level collection has no source path")
    context.view_layer.update()
    p = patched_level(context, coll, wadkit.eng.open(path))
    return coll, p.level, p.objects


class WADKIT_OT_floor_at_cursor(bpy.types.Operator):
    """Run the engine's floor test straight down from the 3D cursor"""
    bl_idname = "wadkit.floor_at_cursor"
    bl_label = "Floor at 3D cursor"

    def execute(self, context):
        try:
            coll, lvl, objects = _level(context)
            x, y, z = convert.to_file(np.array(context.scene.cursor.location))[0]
            hit = lvl.floor(float(x), float(y), float(z))
        except Exception as e:          # noqa: BLE001 -- shown to the user
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        st = context.scene.wadkit_floor
        if hit is None:
            st.result = "no floor below the cursor"
        else:
            name = objects.get(int(hit["tile"]), f"tile {hit['tile']}")
            st.result = (f"height {hit['height']:.4f}, {name}, "
                         f"polygon {hit['polygon']}, material 0x{hit['material']:02x}")
            _select_faces(coll, [(name, (float(x), float(hit["height"]), float(z)))])
        self.report({"INFO"}, st.result)
        return {"FINISHED"}


class WADKIT_OT_select_needles(bpy.types.Operator):
    """Select the collision polygons the needle scan reports"""
    bl_idname = "wadkit.select_needles"
    bl_label = "Select needle polygons"

    def execute(self, context):
        try:
            coll, lvl, objects = _level(context)
            needles = lvl.needles()
            found = [(objects.get(int(n.tile), ""), (n.point[0], n.height, n.point[2]))
                     for n in needles]
        except Exception as e:          # noqa: BLE001
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        n = _select_faces(coll, found)
        context.scene.wadkit_floor.result = f"{len(found)} needle polygons ({n} faces)"
        self.report({"INFO"}, context.scene.wadkit_floor.result)
        return {"FINISHED"}


def _select_faces(coll, hits) -> int:
    """Select, in the collision children of the named tile objects, the
    face under each hit point (file space): the face whose triangle the
    point lies on (within 2 cm; the records' corners are rounded). Every
    other collision face is deselected. Returns how many faces were
    selected."""
    from .export_tiles import is_collision
    wanted: dict[str, list] = {}
    for name, point in hits:
        wanted.setdefault(name, []).append(point)
    selected = {}
    for ob in coll.all_objects:
        if not is_collision(ob) or ob.parent is None:
            continue
        me = ob.data
        sel = selected.setdefault(me.as_pointer(), (me, np.zeros(len(me.polygons), bool)))[1]
        points = wanted.get(ob.parent.name)
        if not points:
            continue
        from .export_read import local_matrix
        # from the parent (an excluded Collision collection is not evaluated)
        world = np.array(ob.parent.matrix_world, np.float64) @ local_matrix(ob)
        local = convert.to_blender(np.array(points, np.float32)).astype(np.float64)
        local = (local - world[:3, 3]) @ np.linalg.inv(world[:3, :3]).T
        for p in local:
            f = _face_at(me, p)
            if f is not None:
                sel[f] = True
    count = 0
    for me, sel in selected.values():
        me.polygons.foreach_set("select", sel)
        count += int(sel.sum())
    return count


def _face_at(me, p, tol: float = 0.02):
    """The face of mesh me whose triangle is nearest to point p (mesh
    space), if nearer than tol."""
    me.calc_loop_triangles()
    n = len(me.loop_triangles)
    if not n:
        return None
    vi = np.empty(3 * n, np.int32)
    me.loop_triangles.foreach_get("vertices", vi)
    face = np.empty(n, np.int32)
    me.loop_triangles.foreach_get("polygon_index", face)
    co = np.empty(3 * len(me.vertices), np.float32)
    me.vertices.foreach_get("co", co)
    t = co.reshape(-1, 3)[vi.reshape(-1, 3)].astype(np.float64)
    d = np.array([_point_triangle(p, *tri) for tri in t])
    k = int(np.argmin(d))
    return int(face[k]) if d[k] <= tol else None


def _point_triangle(p, a, b, c) -> float:
    """Distance from p to triangle abc."""
    ab, ac, ap = b - a, c - a, p - a
    n = np.cross(ab, ac)
    nn = float(n @ n)
    if nn == 0:
        return np.inf
    q = p - (ap @ n) / nn * n                   # p in the triangle's plane
    # barycentric of q
    v0, v1, v2 = ab, ac, q - a
    d00, d01, d11 = v0 @ v0, v0 @ v1, v1 @ v1
    d20, d21 = v2 @ v0, v2 @ v1
    den = d00 * d11 - d01 * d01
    v = (d11 * d20 - d01 * d21) / den
    w = (d00 * d21 - d01 * d20) / den
    if v >= 0 and w >= 0 and v + w <= 1:
        return float(np.linalg.norm(p - q))
    # nearest point on the edges
    best = np.inf
    for s, e in ((a, b), (b, c), (c, a)):
        se = e - s
        k = np.clip(((p - s) @ se) / (se @ se), 0, 1)
        best = min(best, float(np.linalg.norm(p - (s + k * se))))
    return best


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
