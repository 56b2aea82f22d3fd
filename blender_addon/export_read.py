"""Blender meshes and objects read into NumPy arrays for the export: one
foreach_get per mesh and property, no per-vertex Python."""
from __future__ import annotations

import bpy
import numpy as np

from . import convert, materials

FAST = bpy.app.version >= (4, 0, 0)     # topology as attributes (a copy)


class MeshData:
    """A mesh as arrays (Blender space, the mesh's own coordinates).

    positions (V,3) f32; corner_vert (L,); sizes (F,) corners per face;
    starts (F,) first corner of each face; uv (L,2) of the active UV map or
    None; colors name -> ((V,4) or (L,4) linear colours, domain); ints name
    -> (F,) ints of an INT face attribute, or None where the mesh lacks it;
    material_index (F,); materials the mesh's material slots."""

    def __init__(self, me, *, uv=True, colors=(), ints=()):
        nv, nl, nf = len(me.vertices), len(me.loops), len(me.polygons)
        at = me.attributes
        co = np.empty(nv * 3, np.float32)
        cv = np.empty(nl, np.int32)
        if FAST:
            if nv:
                at["position"].data.foreach_get("vector", co)
            if nl:
                at[".corner_vert"].data.foreach_get("value", cv)
        else:
            me.vertices.foreach_get("co", co)
            me.loops.foreach_get("vertex_index", cv)
        self.positions = co.reshape(-1, 3)
        self.corner_vert = cv
        if nl == 3 * nf:      # every face has >= 3 corners: all triangles
            self.sizes = np.full(nf, 3, np.int32)
            self.starts = np.arange(0, nl, 3, dtype=np.int32)
        else:
            self.sizes = np.empty(nf, np.int32)
            self.starts = np.empty(nf, np.int32)
            me.polygons.foreach_get("loop_total", self.sizes)
            me.polygons.foreach_get("loop_start", self.starts)
        self.uv = None
        layer = me.uv_layers.active if uv else None
        if layer is not None:
            u = np.empty(nl * 2, np.float32)
            if FAST:
                at[layer.name].data.foreach_get("vector", u)
            else:
                layer.data.foreach_get("uv", u)
            self.uv = u.reshape(-1, 2)
        self.colors = {}
        for name in colors:
            ca = me.color_attributes.get(name)
            if ca is None or ca.domain not in ("POINT", "CORNER"):
                continue
            c = np.empty(len(ca.data) * 4, np.float32)
            ca.data.foreach_get("color", c)
            self.colors[name] = (c.reshape(-1, 4), ca.domain)
        self.ints = {}
        for name in ints:
            self.ints[name] = face_ints(at, name, nf)
        mi = face_ints(at, "material_index", nf)
        self.material_index = mi if mi is not None else np.zeros(nf, np.int32)
        self.materials = list(me.materials)
        self.mesh = me

    @property
    def triangles_only(self) -> bool:
        return bool((self.sizes == 3).all())

    def point_colors(self, name: str) -> np.ndarray | None:
        """(V,4) linear colours per vertex: a point attribute as it is, a
        corner attribute by the last corner of each vertex."""
        got = self.colors.get(name)
        if got is None:
            return None
        c, domain = got
        if domain == "POINT":
            return c
        out = np.ones((len(self.positions), 4), np.float32)
        out[self.corner_vert] = c
        return out

    def corner_colors(self, name: str) -> np.ndarray | None:
        got = self.colors.get(name)
        if got is None:
            return None
        c, domain = got
        return c[self.corner_vert] if domain == "POINT" else c

    def triangulated(self):
        """(triangles (T,3) vertex indices, face (T,) the face each came
        from, corners (T,3) corner indices) with faces of more than three
        corners split as Blender triangulates them (loop triangles)."""
        if self.triangles_only:
            corners = np.arange(len(self.corner_vert), dtype=np.int64).reshape(-1, 3)
            return self.corner_vert[corners], np.arange(len(corners)), corners
        me = self.mesh
        me.calc_loop_triangles()
        n = len(me.loop_triangles)
        loops = np.empty(n * 3, np.int32)
        face = np.empty(n, np.int32)
        me.loop_triangles.foreach_get("loops", loops)
        me.loop_triangles.foreach_get("polygon_index", face)
        corners = loops.reshape(-1, 3).astype(np.int64)
        return self.corner_vert[corners], face.astype(np.int64), corners


def slot_values(values, material_index) -> np.ndarray:
    """(F,) int32: what each face's material slot stands for (values[slot]),
    -1 where material_index names no slot."""
    lut = np.array(list(values) + [-1], np.int32)
    mi = material_index
    return lut[np.where((mi >= 0) & (mi < len(values)), mi, len(values))]


def face_ints(at, name, nf):
    """(nf,) int32 of the face attribute name (INT, INT8 or BOOLEAN) of the
    attributes at, or None when the mesh has no such face attribute."""
    a = at.get(name)
    if a is None or a.domain != "FACE" or a.data_type not in ("INT", "INT8", "BOOLEAN"):
        return None
    out = np.empty(nf, np.int32)
    if nf:
        a.data.foreach_get("value", out)
    return out


def level_objects(coll, matrices: bool = False):
    """The objects of coll and of the collections below it, each once, as
    Collection.all_objects gives them but without it: its first read after
    the hierarchy changed (an import, a copy) builds a cache at a list
    search per object (7-16 ms for the 1,379 objects of the bench's ENG
    level in bpy 4.5, against 1-6 ms for this walk; three imports, load ~2).
    matrices: (objects, their (N,4,4) float64 world matrices), the matrices
    read in the same walk with one foreach_get per collection (Blender
    stores them column by column)."""
    seen, out, rows, flats, k = set(), [], [], [], 0
    for c in (coll, *coll.children_recursive):
        objs = c.objects
        if matrices and len(objs):
            flat = np.empty(len(objs) * 16, np.float32)
            objs.foreach_get("matrix_world", flat)
            flats.append(flat)
        for j, ob in enumerate(objs):
            if ob not in seen:          # bpy hashes and compares an ID by its pointer
                seen.add(ob)
                out.append(ob)
                rows.append(k + j)
        k += len(objs)
    if not matrices:
        return out
    flat = np.concatenate(flats) if flats else np.empty(0, np.float32)
    m = flat.reshape(-1, 4, 4).transpose(0, 2, 1)[np.array(rows, np.int64)]
    return out, m.astype(np.float64)


def local_matrix(ob) -> np.ndarray:
    """A child's transform relative to its parent (parent inverse x basis),
    computed from the object's own data, so it is right also for objects
    the view layer does not evaluate (an excluded Collision collection)."""
    return np.array(ob.matrix_parent_inverse, np.float64) @ np.array(ob.matrix_basis,
                                                                       np.float64)


def to_file_points(p: np.ndarray, m: np.ndarray | None = None) -> np.ndarray:
    """(N,3) Blender points, transformed by the 4x4 m when given, in file
    space, float noise on the 1/4096 grid removed."""
    p = np.asarray(p, np.float64)
    if m is not None:
        p = p @ m[:3, :3].T + m[:3, 3]
    return convert.snap(convert.to_file(p.astype(np.float32)))


def display_colors(linear: np.ndarray) -> np.ndarray:
    """Blender's linear colour storage -> display (sRGB) values, the form
    wadkit's colours take."""
    from .mesh_build import linear_to_srgb
    return linear_to_srgb(linear)


COLOR_ATTRS = (materials.COLOR_ATTR, materials.COLOR2_ATTR)
