"""Blender meshes from NumPy arrays: everything allocated once and filled
with foreach_set from contiguous arrays (no bpy.ops, no per-vertex Python)."""
from __future__ import annotations

import bpy
import numpy as np



def split_by(triangles: np.ndarray, key: np.ndarray):
    """Yield (key value, triangle indices) for each distinct key, in key order."""
    order = np.argsort(key, kind="stable")
    k = key[order]
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]]) if len(k) else []
    ends = list(starts[1:]) + [len(k)]
    for s, e in zip(starts, ends):
        yield int(k[s]), order[s:e]


def drop_degenerate(triangles: np.ndarray) -> np.ndarray:
    """Indices of triangles whose three corners are distinct vertices
    (Blender cannot hold a face that uses one vertex twice)."""
    t = triangles
    ok = (t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 0] != t[:, 2])
    return np.flatnonzero(ok)


def build_mesh(name: str, positions: np.ndarray, triangles: np.ndarray, *,
               uv: np.ndarray | None = None,
               colors: dict[str, np.ndarray] | None = None,
               material_index: np.ndarray | None = None,
               face_int: dict[str, np.ndarray] | None = None,
               face_sizes: np.ndarray | None = None) -> bpy.types.Mesh:
    """positions (V,3) in Blender space; triangles (T,3) indices into them;
    uv (T,3,2) per corner, Blender convention (v up); colors name -> (T,3,4)
    display values (byte/128; RC2's may exceed 1: 0x80 = 1.0, up to 2x
    brighter), stored through color_srgb; material_index (T,); face_int name -> (T,) ints
    stored as face attributes. face_sizes (F,): polygons of mixed sizes,
    triangles then being the flat corner list (no uv/colors then)."""
    nv = len(positions)
    corners = np.ascontiguousarray(triangles, np.int32).ravel()
    sizes = (np.full(len(triangles), 3, np.int32) if face_sizes is None
             else np.ascontiguousarray(face_sizes, np.int32))
    nt = len(sizes)
    starts = np.zeros(nt, np.int32)
    if nt:
        np.cumsum(sizes[:-1], out=starts[1:])
    me = bpy.data.meshes.new(name)
    me.vertices.add(nv)
    me.loops.add(len(corners))
    me.polygons.add(nt)
    me.vertices.foreach_set("co", np.ascontiguousarray(positions, np.float32).ravel())
    me.loops.foreach_set("vertex_index", corners)
    me.polygons.foreach_set("loop_start", starts)
    if bpy.app.version < (4, 0, 0):
        me.polygons.foreach_set("loop_total", sizes)
    if uv is not None:
        layer = me.uv_layers.new(name="UVMap")
        layer.data.foreach_set("uv", np.ascontiguousarray(uv, np.float32).ravel())
    for cname, col in (colors or {}).items():
        attr = me.color_attributes.new(cname, "FLOAT_COLOR", "CORNER")
        attr.data.foreach_set("color_srgb", np.ascontiguousarray(
            np.maximum(col, 0.0), np.float32).ravel())
    if material_index is not None:
        me.polygons.foreach_set("material_index",
                                np.ascontiguousarray(material_index, np.int32))
    for aname, vals in (face_int or {}).items():
        attr = me.attributes.new(aname, "INT", "FACE")
        attr.data.foreach_set("value", np.ascontiguousarray(vals, np.int32))
    me.update(calc_edges=True)
    return me


def read_mesh(me: bpy.types.Mesh, matrix=None):
    """(positions (V,3) Blender space, transformed by matrix if given;
    triangles (T,3)) of a triangulated mesh; polygons with more than three
    corners are fanned."""
    nv = len(me.vertices)
    co = np.empty(nv * 3, np.float32)
    me.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    if matrix is not None:
        m = np.array(matrix, dtype=np.float64)
        co = (co @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
    me.calc_loop_triangles()
    nt = len(me.loop_triangles)
    tri = np.empty(nt * 3, np.int32)
    me.loop_triangles.foreach_get("vertices", tri)
    return co, tri.reshape(-1, 3)
