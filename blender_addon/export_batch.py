"""Many meshes read into one set of arrays, and compared in one go with the
arrays the import would make of the base level: the export's fast way to
find the meshes the user changed (an unchanged scene costs a few NumPy
passes over the level, not a few per mesh)."""
from __future__ import annotations

import numpy as np

from .export_read import FAST
from .mesh_build import ranges, starts as _starts


def segment_any(flags: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """(G,) bool: any flag set in each run [starts[g], starts[g+1])."""
    g = len(starts) - 1
    out = np.zeros(g, bool)
    hit = np.flatnonzero(flags)        # few or none: an unchanged mesh has none
    if len(hit):
        # the run holding flag i: the last start <= i (empty runs skipped)
        out[np.searchsorted(starts, hit, side="right") - 1] = True
    return out


class Batch:
    """Meshes back to back: positions (V,3), corner_vert (L,) (each mesh
    from 0), sizes (F,), material_index (F,), uv (L,2) with has_uv (G,),
    point colours name -> ((V,4) linear, has (G,)), face ints name ->
    ((F,), has (G,)); v/l/f_start (G+1,); materials: each mesh's slots."""

    def __init__(self, meshes, *, uv=True, colors=(), ints=()):
        self.meshes = meshes
        nv = np.fromiter((len(m.vertices) for m in meshes), np.int64, len(meshes))
        nl = np.fromiter((len(m.loops) for m in meshes), np.int64, len(meshes))
        nf = np.fromiter((len(m.polygons) for m in meshes), np.int64, len(meshes))
        self.v_start, self.l_start, self.f_start = _starts(nv), _starts(nl), _starts(nf)
        V, L, F = int(self.v_start[-1]), int(self.l_start[-1]), int(self.f_start[-1])
        pos = np.empty(V * 3, np.float32)
        cv = np.empty(L, np.int32)
        sizes = np.full(F, 3, np.int32)
        mi = np.zeros(F, np.int32)
        self.uv = np.zeros((L, 2), np.float32) if uv else None
        self.has_uv = np.zeros(len(meshes), bool)
        self.colors = {n: (np.ones((V, 4), np.float32), np.zeros(len(meshes), bool))
                       for n in colors}
        self.corner_colored = np.zeros(len(meshes), bool)   # a colour on the corners
        self.ints = {n: (np.zeros(F, np.int32), np.zeros(len(meshes), bool)) for n in ints}
        self.materials = []
        uvf = self.uv.reshape(-1) if uv else None
        for g, me in enumerate(meshes):
            v0, v1 = self.v_start[g], self.v_start[g + 1]
            l0, l1 = self.l_start[g], self.l_start[g + 1]
            f0, f1 = self.f_start[g], self.f_start[g + 1]
            at = me.attributes
            if FAST:
                if v1 > v0:
                    at["position"].data.foreach_get("vector", pos[3 * v0:3 * v1])
                if l1 > l0:
                    at[".corner_vert"].data.foreach_get("value", cv[l0:l1])
            else:
                me.vertices.foreach_get("co", pos[3 * v0:3 * v1])
                me.loops.foreach_get("vertex_index", cv[l0:l1])
            if l1 - l0 != 3 * (f1 - f0):
                me.polygons.foreach_get("loop_total", sizes[f0:f1])
            a = at.get("material_index")
            if a is not None and f1 > f0 and a.domain == "FACE":
                a.data.foreach_get("value", mi[f0:f1])
            if uv:
                layer = me.uv_layers.active
                if layer is not None:
                    if FAST:
                        at[layer.name].data.foreach_get("vector", uvf[2 * l0:2 * l1])
                    else:
                        layer.data.foreach_get("uv", uvf[2 * l0:2 * l1])
                    self.has_uv[g] = True
            for name, (arr, has) in self.colors.items():
                ca = me.color_attributes.get(name)
                if ca is None:
                    continue
                if ca.domain != "POINT":
                    self.corner_colored[g] = True
                    continue
                ca.data.foreach_get("color", arr[v0:v1].reshape(-1))
                has[g] = True
            for name, (arr, has) in self.ints.items():
                a = at.get(name)
                if a is not None and a.domain == "FACE" and a.data_type == "INT":
                    if f1 > f0:
                        a.data.foreach_get("value", arr[f0:f1])
                    has[g] = True
            self.materials.append(list(me.materials))
        self.positions = pos.reshape(-1, 3)
        self.corner_vert = cv
        self.sizes = sizes
        self.material_index = mi

    def __len__(self) -> int:
        return len(self.meshes)


def compare_runs(a, a_start, b, b_start, which) -> np.ndarray:
    """(G,) bool: run g of a differs from run g of b (only for the runs
    `which` marks; the others are left False). Runs of different lengths
    differ."""
    g = len(a_start) - 1
    out = np.zeros(g, bool)
    la, lb = np.diff(a_start), np.diff(b_start)
    ok = which & (la == lb)
    out[which & (la != lb)] = True
    idx = np.flatnonzero(ok)
    if not len(idx):
        return out
    ia = ranges(a_start[idx], la[idx])
    ib = ranges(b_start[idx], la[idx])
    diff = a[ia] != b[ib]
    if diff.ndim > 1:
        diff = diff.any(axis=tuple(range(1, diff.ndim)))
    out[idx] = segment_any(diff, _starts(la[idx]))
    return out
