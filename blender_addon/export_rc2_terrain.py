"""The RC2 terrain mesh -> LevelEdit (set_terrain / set_patch);
docs/blender-rc2.md, "Terrain".

When the mesh's vertices and faces are the imported ones, moved vertices,
UVs, vertex colours and materials go to set_terrain (patches are patched
in place where they can be); when faces were added or deleted, every
patch whose faces changed is re-encoded from its faces (set_patch)."""
from __future__ import annotations

import re

import bpy
import numpy as np

from . import convert, materials
from .export_common import ExportError
from .import_rc2 import ATTR_PATCH, ATTR_TEXTURE
from .mesh_build import drop_degenerate, linear_to_srgb, srgb_to_linear

_TFRAG_MATERIAL = re.compile(r" tfrag (\d+)(\.\d+)?$")
POS_EPS, UV_EPS, COL_EPS = 1e-6, 1e-6, 2e-3


def _face_int(me, name, n) -> np.ndarray | None:
    a = me.attributes.get(name)
    if a is None or a.domain != "FACE" or a.data_type != "INT":
        return None
    out = np.empty(n, np.int32)
    a.data.foreach_get("value", out)
    return out


def _read(ob) -> dict:
    """World positions (V,3), corners (L,), polygon sizes / starts (F,),
    per-corner UV (file convention) and display colour, per-face texture;
    one foreach_get per array (Blender 4+: on the attributes, which are
    copied whole)."""
    me = ob.data
    nv, nl, nf = len(me.vertices), len(me.loops), len(me.polygons)
    at = me.attributes
    fast = bpy.app.version >= (4, 0, 0)
    co = np.empty(nv * 3, np.float32)
    loops = np.empty(nl, np.int32)
    if fast:
        at["position"].data.foreach_get("vector", co)
        if nl:
            at[".corner_vert"].data.foreach_get("value", loops)
    else:
        me.vertices.foreach_get("co", co)
        me.loops.foreach_get("vertex_index", loops)
    m = np.array(ob.matrix_world, np.float64)
    co = co.reshape(-1, 3)
    if not np.array_equal(m, np.eye(4)):
        co = (co @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
    if nl == 3 * nf:       # every polygon has >= 3 corners: all triangles
        sizes, starts = np.full(nf, 3, np.int32), np.arange(0, nl, 3, dtype=np.int32)
    else:
        sizes, starts = np.empty(nf, np.int32), np.empty(nf, np.int32)
        me.polygons.foreach_get("loop_total", sizes)
        me.polygons.foreach_get("loop_start", starts)
    uv = np.zeros(nl * 2, np.float32)
    uvl = me.uv_layers.active
    if uvl is not None:
        if fast:
            at[uvl.name].data.foreach_get("vector", uv)
        else:
            uvl.data.foreach_get("uv", uv)
    col = np.ones(nl * 4, np.float32)
    ca = me.color_attributes.get(materials.COLOR_ATTR)
    if ca is not None and ca.domain == "CORNER":
        ca.data.foreach_get("color", col)           # linear; converted below
    mi = _face_int(me, "material_index", nf)
    if mi is None:
        mi = np.zeros(nf, np.int32)
    slot_tex = []
    for slot in ob.material_slots:
        hit = _TFRAG_MATERIAL.search(slot.material.name) if slot.material else None
        slot_tex.append(int(hit.group(1)) if hit else -1)
    lut = np.array(slot_tex + [-1], np.int32)
    tex = lut[np.where((mi >= 0) & (mi < len(slot_tex)), mi, len(slot_tex))]
    stored = _face_int(me, ATTR_TEXTURE, nf)
    if stored is not None:
        tex = np.where(tex < 0, stored, tex)
    return {"co": co, "loops": loops, "sizes": sizes, "starts": starts,
            "uv": convert.flip_v(uv.reshape(-1, 2)), "color_linear": col.reshape(-1, 4),
            "texture": tex, "patch": _face_int(me, ATTR_PATCH, nf)}


def _keep(new, old, eps):
    """new, with the rows that differ from old by at most eps set to old's
    stored bits (float noise of the round trip through Blender)."""
    same = np.abs(new - old).reshape(len(new), -1).max(axis=1) <= eps
    out = np.where(same.reshape((-1,) + (1,) * (new.ndim - 1)), old, new)
    return np.ascontiguousarray(out, dtype=old.dtype)


def _same_topology(r, tri_kept, n_positions) -> bool:
    return (len(r["co"]) == n_positions and len(r["sizes"]) == len(tri_kept)
            and bool((r["sizes"] == 3).all())
            and np.array_equal(r["loops"], tri_kept.reshape(-1).astype(np.int32)))


def terrain(lvl, ed, ob, notes) -> bool:
    """Terrain edits into ed; True when something changed."""
    t = lvl.terrain(0)
    tri = t["triangles"]
    keep = drop_degenerate(tri)
    r = _read(ob)
    lin = r["color_linear"].reshape(-1, 3, 4)
    bad = (r["texture"] < 0) | (r["texture"] >= lvl._tfrag_texture_count())
    if bad.any():
        raise ExportError(f"{ob.name}: {int(bad.sum())} faces have no tfrag texture "
                          f"(a material named '... tfrag NNN' or the {ATTR_TEXTURE} "
                          "attribute)")
    if _same_topology(r, tri[keep], len(t["positions"])):
        pos = _keep(r["co"], t["positions"], POS_EPS)
        uv, col, tex = t["uv"].copy(), t["color"].copy(), t["texture"].copy()
        uv[keep] = _keep(r["uv"].reshape(-1, 3, 2), t["uv"][keep], UV_EPS)
        # colours compared in Blender's linear storage; changed ones converted
        old_lin = srgb_to_linear(t["color"][keep])
        moved = np.abs(lin - old_lin).reshape(len(lin), -1).max(axis=1) > COL_EPS
        part = t["color"][keep]
        part[moved] = linear_to_srgb(lin[moved])
        col[keep] = part
        tex[keep] = r["texture"]
        if all(np.array_equal(a, b) for a, b in ((pos, t["positions"]), (uv, t["uv"]),
                                                 (col, t["color"]), (tex, t["texture"]))):
            return False
        ed.set_terrain(pos, uv, col, tex)
        return True
    r["color"] = linear_to_srgb(r["color_linear"])
    return _patches(lvl, ed, ob, r, t, keep, notes)


def _patches(lvl, ed, ob, r, t, keep, notes) -> bool:
    """Faces added or deleted: every patch whose faces changed gets them
    as its new mesh (fanned into triangles)."""
    if r["patch"] is None:
        raise ExportError(f"{ob.name}: the faces changed and the {ATTR_PATCH} "
                          "attribute is gone; wadkit cannot tell the patches apart")
    n_patches = len(lvl.patches)
    out_of_range = (r["patch"] < 0) | (r["patch"] >= n_patches)
    if out_of_range.any():
        notes.append(f"{ob.name}: {int(out_of_range.sum())} faces name no patch "
                     f"of the level ({ATTR_PATCH}); not written")
    # fan every polygon: (F') triangles of corner indices
    fan_face, fan_corner = [], []
    for f, (n, s) in enumerate(zip(r["sizes"].tolist(), r["starts"].tolist())):
        for k in range(1, n - 1):
            fan_face.append(f)
            fan_corner.append((s, s + k, s + k + 1))
    fan_face = np.array(fan_face, np.int64)
    fan_corner = np.array(fan_corner, np.int64).reshape(-1, 3)
    changed = False
    for p in range(n_patches):
        mine = fan_face[r["patch"][fan_face] == p]
        corners = fan_corner[r["patch"][fan_face] == p]
        rows = np.flatnonzero((t["patch"] == p) & keep)
        new_pos = r["co"][r["loops"][corners]]
        if len(corners) == len(rows) and np.abs(
                new_pos - t["positions"][t["triangles"][rows]]).max(initial=0) <= POS_EPS \
                and np.abs(r["uv"][corners] - t["uv"][rows]).max(initial=0) <= UV_EPS \
                and np.abs(r["color"][corners] - t["color"][rows]).max(initial=0) <= COL_EPS \
                and np.array_equal(r["texture"][mine], t["texture"][rows]):
            continue
        if len(corners) == 0:
            notes.append(f"{ob.name}: every face of tfrag patch {p} was deleted; a "
                         "patch cannot be removed, it is kept as it was")
            continue
        verts, inverse = np.unique(r["loops"][corners].reshape(-1), return_inverse=True)
        ed.set_patch(p, r["co"][verts], inverse.reshape(-1, 3).astype(np.uint32),
                     r["uv"][corners], r["color"][corners], r["texture"][mine])
        changed = True
    return changed
