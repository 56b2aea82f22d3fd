"""Blender meshes from NumPy arrays: everything allocated once and filled
with foreach_set from contiguous arrays (no bpy.ops, no per-vertex Python).

Many meshes are built from one set of arrays (build_meshes): the arrays
hold all meshes back to back, each mesh a contiguous run of vertices,
polygons and corners, so every foreach_set gets a slice (no copy). Edges
are Blender's: `Mesh.update(calc_edges=True)` after the corners are set
(faster than finding the unique corner pairs with NumPy: 2.4-4.6x on a
60k-triangle mesh in bpy 4.5, 5.0 and 5.3, by-hand runs of 2026-12-03)."""
from __future__ import annotations

import bpy
import numpy as np

from .build import new_ids


def drop_degenerate(triangles: np.ndarray) -> np.ndarray:
    """Indices of triangles whose three corners are distinct vertices
    (Blender cannot hold a face that uses one vertex twice)."""
    t = triangles
    ok = (t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 0] != t[:, 2])
    return np.flatnonzero(ok)


def starts(counts) -> np.ndarray:
    """(n+1,) int64 run starts of runs of these lengths."""
    out = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def ranges(first: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenated aranges first[k] .. first[k] + counts[k]."""
    counts = np.asarray(counts, np.int64)
    total = int(counts.sum())
    if not total:
        return np.zeros(0, np.int64)
    return np.repeat(np.asarray(first, np.int64) - starts(counts)[:-1], counts) + np.arange(total)


def run_starts(sorted_keys: np.ndarray, n: int) -> np.ndarray:
    """(n+1,) starts of the runs of key 0..n-1 in a sorted key array."""
    return np.searchsorted(sorted_keys, np.arange(n + 1)).astype(np.int64)


def sort_stable(keys: np.ndarray) -> np.ndarray:
    """Stable argsort of small non-negative ints (radix sort for < 2**15)."""
    if len(keys) and keys.max() < 2 ** 15:
        return np.argsort(keys.astype(np.int16), kind="stable")
    return np.argsort(keys, kind="stable")


# -- colours ---------------------------------------------------------------

_LUT_SCALE = 128.0           # ENG colours are byte/128, RC2's 0x80 = 1.0


def _srgb_to_linear_exact(c: np.ndarray) -> np.ndarray:
    """Blender's srgb_to_linearrgb (BLI math_color), in float32."""
    c = np.asarray(c, np.float32)
    lin = np.power((np.maximum(c, 0.04045) + np.float32(0.055)) * np.float32(1 / 1.055),
                   np.float32(2.4))
    low = np.where(c < 0, np.float32(0), c * np.float32(1 / 12.92))
    return np.where(c < 0.04045, low, lin).astype(np.float32)


_LUT = _srgb_to_linear_exact(np.arange(512, dtype=np.float32) / np.float32(_LUT_SCALE))


def srgb_to_linear(rgba: np.ndarray) -> np.ndarray:
    """(..., 4) display (sRGB) colours -> Blender's linear storage, alpha
    as is: what setting `color_srgb` does, without its per-element slow
    path. Values that are multiples of 1/128 (all of ENG's and RC2's) go
    through a table; others through the formula."""
    c = np.ascontiguousarray(rgba, np.float32)
    s = c * np.float32(_LUT_SCALE)
    k = np.rint(s)
    if np.array_equal(k, s) and (k.size == 0 or k.max() < len(_LUT)):
        out = _LUT[np.maximum(k, 0).astype(np.intp)]
        out[..., 3] = c[..., 3]
        return out
    out = _srgb_to_linear_exact(c)
    out[..., 3] = c[..., 3]
    return out


def linear_to_srgb(rgba: np.ndarray) -> np.ndarray:
    """The inverse (Blender's linearrgb_to_srgb), alpha as is."""
    c = np.asarray(rgba, np.float32)
    out = c.copy()
    rgb = c[..., :3]
    hi = np.float32(1.055) * np.power(np.maximum(rgb, 0.0031308), np.float32(1 / 2.4)) \
        - np.float32(0.055)
    lo = np.where(rgb < 0, np.float32(0), rgb * np.float32(12.92))
    out[..., :3] = np.where(rgb < 0.0031308, lo, hi)
    return out


# -- building --------------------------------------------------------------

class MeshArrays:
    """The data of G meshes back to back.

    positions (V,3) float32, Blender space, each mesh's vertices a run
    (v_start (G+1,)); polygons as corner lists: corner_vert (L,) global
    vertex numbers, face_start (F+1,) global corner offsets, each mesh's
    polygons a run (f_start (G+1,)). Optional per corner: uv (L,2),
    colors name -> ((L,4) display colours, bool (G,) which meshes get it or
    None for all); point_colors the same per vertex ((V,4));
    per polygon: material_index (F,) (slot within its mesh), face_int
    name -> (F,) ints; per vertex: point_int name -> (V,) ints."""

    def __init__(self, positions, v_start, corner_vert, face_start, f_start):
        self.positions = np.ascontiguousarray(positions, np.float32).reshape(-1)
        self.v_start = np.asarray(v_start, np.int64)
        self.corner_vert = np.asarray(corner_vert, np.int64)
        self.face_start = np.asarray(face_start, np.int64)
        self.f_start = np.asarray(f_start, np.int64)
        self.uv = None
        self.colors: dict[str, tuple[np.ndarray, np.ndarray | None]] = {}
        self.point_colors: dict[str, tuple[np.ndarray, np.ndarray | None]] = {}
        self.material_index = None
        self.face_int: dict[str, np.ndarray] = {}
        self.point_int: dict[str, np.ndarray] = {}

    @property
    def count(self) -> int:
        return len(self.v_start) - 1


def build_meshes(names: list[str], a: MeshArrays, materials=None, created=None) -> list:
    """One bpy mesh per run of `a`, named by names; materials: per mesh the
    list of its material slots (appended before any object uses the mesh:
    Blender then has no objects to bring up to date). Returns the meshes,
    recorded in `created` (build.Created) as soon as they exist.

    Blender 4+ keeps topology in attributes (".corner_vert", ".edge_verts"
    ...): setting those is a copy, where the MeshLoop/MeshEdge properties
    of the same data go element by element (~6x slower per mesh)."""
    g = a.count
    corner_start = a.face_start[a.f_start]                    # (G+1,)
    g_of_corner = np.repeat(np.arange(g), np.diff(corner_start))
    g_of_face = np.repeat(np.arange(g), np.diff(a.f_start))
    local_vert = (a.corner_vert - a.v_start[g_of_corner]).astype(np.int32)
    local_start = (a.face_start[:-1] - corner_start[g_of_face]).astype(np.int32)
    sizes = np.diff(a.face_start).astype(np.int32)
    uv = None if a.uv is None else np.ascontiguousarray(a.uv, np.float32).reshape(-1)
    cols = [(n, np.ascontiguousarray(srgb_to_linear(c)).reshape(-1), w, "CORNER")
            for n, (c, w) in a.colors.items()]
    cols += [(n, np.ascontiguousarray(srgb_to_linear(c)).reshape(-1), w, "POINT")
             for n, (c, w) in a.point_colors.items()]
    mat = None if a.material_index is None else np.ascontiguousarray(a.material_index, np.int32)
    ints = [(n, np.ascontiguousarray(v, np.int32)) for n, v in a.face_int.items()]
    pints = [(n, np.ascontiguousarray(v, np.int32)) for n, v in a.point_int.items()]
    fast = bpy.app.version >= (4, 0, 0)
    out = new_ids(bpy.data.meshes, names[:g])
    if created is not None:
        created.add_all("meshes", out)
    for i in range(g):
        v0, v1 = int(a.v_start[i]), int(a.v_start[i + 1])
        c0, c1 = int(corner_start[i]), int(corner_start[i + 1])
        f0, f1 = int(a.f_start[i]), int(a.f_start[i + 1])
        me = out[i]
        me.vertices.add(v1 - v0)
        me.loops.add(c1 - c0)
        me.polygons.add(f1 - f0)
        at = me.attributes
        if fast:
            # (a mesh without vertices or corners has no such attribute)
            if v1 > v0:
                at["position"].data.foreach_set("vector", a.positions[3 * v0:3 * v1])
            if c1 > c0:
                at[".corner_vert"].data.foreach_set("value", local_vert[c0:c1])
                me.polygons.foreach_set("loop_start", local_start[f0:f1])
            if uv is not None:
                at.new("UVMap", "FLOAT2", "CORNER").data.foreach_set("vector", uv[2 * c0:2 * c1])
            if mat is not None:
                at.new("material_index", "INT", "FACE").data.foreach_set("value", mat[f0:f1])
        else:
            me.vertices.foreach_set("co", a.positions[3 * v0:3 * v1])
            me.loops.foreach_set("vertex_index", local_vert[c0:c1])
            me.polygons.foreach_set("loop_start", local_start[f0:f1])
            me.polygons.foreach_set("loop_total", sizes[f0:f1])
            if uv is not None:
                me.uv_layers.new(name="UVMap").data.foreach_set("uv", uv[2 * c0:2 * c1])
            if mat is not None:
                me.polygons.foreach_set("material_index", mat[f0:f1])
        if c1 > c0:
            me.update(calc_edges=True)
        for cname, col, which, domain in cols:
            if which is None or which[i]:
                lo, hi = (c0, c1) if domain == "CORNER" else (v0, v1)
                me.color_attributes.new(cname, "FLOAT_COLOR", domain).data.foreach_set(
                    "color", col[4 * lo:4 * hi])
        for aname, vals in ints:
            at.new(aname, "INT", "FACE").data.foreach_set("value", vals[f0:f1])
        for aname, vals in pints:
            at.new(aname, "INT", "POINT").data.foreach_set("value", vals[v0:v1])
        if materials is not None:
            ms = me.materials
            for m in materials[i]:
                ms.append(m)
    return out


def build_mesh(name: str, positions: np.ndarray, triangles: np.ndarray, *,
               uv: np.ndarray | None = None,
               colors: dict[str, np.ndarray] | None = None,
               material_index: np.ndarray | None = None,
               face_int: dict[str, np.ndarray] | None = None,
               face_sizes: np.ndarray | None = None) -> bpy.types.Mesh:
    """One mesh. positions (V,3) in Blender space; triangles (T,3) indices
    into them; uv (T,3,2) per corner, Blender convention (v up); colors
    name -> (T,3,4) display values (byte/128; RC2's may exceed 1: 0x80 =
    1.0, up to 2x brighter); material_index (T,); face_int name -> (T,)
    ints stored as face attributes. face_sizes (F,): polygons of mixed
    sizes, triangles then being the flat corner list."""
    corners = np.ascontiguousarray(triangles, np.int64).reshape(-1)
    sizes = (np.full(len(triangles), 3, np.int64) if face_sizes is None
             else np.asarray(face_sizes, np.int64))
    face_start = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=face_start[1:])
    a = MeshArrays(positions, [0, len(positions)], corners, face_start, [0, len(sizes)])
    if uv is not None:
        a.uv = np.asarray(uv, np.float32).reshape(-1, 2)
    for cname, col in (colors or {}).items():
        a.colors[cname] = (np.asarray(col, np.float32).reshape(-1, 4), None)
    a.material_index = material_index
    a.face_int = dict(face_int or {})
    return build_meshes([name], a)[0]


# -- reading back ----------------------------------------------------------

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


def digest(me: bpy.types.Mesh) -> str:
    """A fingerprint of what a mesh shows: positions, faces, material
    indices, the active UV map and the colour attributes (one foreach_get
    each). The import stores it on the meshes the export does not write,
    so the export can tell an edit of them from none."""
    import hashlib
    h = hashlib.blake2b(digest_size=16)
    nv, nl, nf = len(me.vertices), len(me.loops), len(me.polygons)
    h.update(np.array([nv, nl, nf], np.int64).tobytes())
    for coll, prop, n, dtype in ((me.vertices, "co", 3 * nv, np.float32),
                                 (me.loops, "vertex_index", nl, np.int32),
                                 (me.polygons, "loop_total", nf, np.int32),
                                 (me.polygons, "material_index", nf, np.int32)):
        a = np.empty(n, dtype)
        coll.foreach_get(prop, a)
        h.update(a.tobytes())
    uvl = me.uv_layers.active
    if uvl is not None:
        a = np.empty(2 * nl, np.float32)
        uvl.data.foreach_get("uv", a)
        h.update(a.tobytes())
    for ca in me.color_attributes:
        a = np.empty(4 * len(ca.data), np.float32)
        ca.data.foreach_get("color", a)
        h.update(ca.name.encode() + a.tobytes())
    return h.hexdigest()
