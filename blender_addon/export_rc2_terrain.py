"""The RC2 terrain mesh -> LevelEdit (set_terrain / set_patch);
docs/blender-rc2.md, "Terrain".

When the mesh's vertices and faces are the imported ones, moved vertices,
UVs, vertex colours and materials go to set_terrain (patches are patched
in place where they can be); when faces were added or deleted, every
patch whose faces changed is re-encoded from its faces (set_patch)."""
from __future__ import annotations

import re

import numpy as np

from . import convert, edit_track, materials
from .export_common import ExportError
from .export_read import MeshData, slot_values
from .import_rc2 import ATTR_PATCH, ATTR_TEXTURE
from .mesh_build import drop_degenerate, linear_to_srgb, srgb_to_linear

_TFRAG_MATERIAL = re.compile(r" tfrag (\d+)(\.\d+)?$")
POS_EPS, UV_EPS, COL_EPS = 1e-6, 1e-6, 2e-3


def slot_textures(ob) -> list[int]:
    """The tfrag texture of each material slot (its material's name ends in
    "tfrag NNN"), -1 for a slot whose material names none."""
    out = []
    for slot in ob.material_slots:
        hit = _TFRAG_MATERIAL.search(slot.material.name) if slot.material else None
        out.append(int(hit.group(1)) if hit else -1)
    return out


def tracked_props(ob) -> list[int] | None:
    """What decides how the mesh of ob is read besides its data (for
    edit_track: a change of these tags no mesh): the slots' textures, the
    UV maps and the active one, whether the colour attribute and
    material_index are there; None when ob is moved (its matrices are not
    the identity) or a slot names no texture (those go the whole way)."""
    tex = slot_textures(ob)
    if not tex or min(tex) < 0 or not _identity(ob):
        return None
    me = ob.data
    ca = me.color_attributes.get(materials.COLOR_ATTR)
    return [len(me.uv_layers), me.uv_layers.active_index,
            int(ca is not None and ca.domain == "CORNER"),
            int(me.attributes.get("material_index") is not None), len(tex)] + tex


def _identity(ob) -> bool:
    eye = np.eye(4)
    return np.array_equal(np.array(ob.matrix_basis), eye) and np.array_equal(
        np.array(ob.matrix_world), eye)


def _read(ob) -> dict:
    """World positions (V,3), corners (L,), polygon sizes / starts (F,),
    per-corner UV (file convention) and display colour (None: no colour
    attribute), per-face texture and patch (export_read.MeshData: one
    foreach_get per array)."""
    d = MeshData(ob.data, colors=(materials.COLOR_ATTR,), ints=(ATTR_TEXTURE, ATTR_PATCH))
    m = np.array(ob.matrix_world, np.float64)
    co = d.positions
    if not np.array_equal(m, np.eye(4)):
        co = (co @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
    uv = d.uv if d.uv is not None else np.zeros((len(d.corner_vert), 2), np.float32)
    tex = slot_values(slot_textures(ob), d.material_index)
    stored = d.ints[ATTR_TEXTURE]
    if stored is not None:
        tex = np.where(tex < 0, stored, tex)
    return {"co": co, "loops": d.corner_vert, "sizes": d.sizes, "starts": d.starts,
            "uv": convert.flip_v(uv), "color_linear": d.corner_colors(materials.COLOR_ATTR),
            "texture": tex, "patch": d.ints[ATTR_PATCH]}


def _pick(same, new, old):
    """new, with the rows marked same set to old's stored bits (float noise
    of the round trip through Blender)."""
    out = np.where(same.reshape((-1,) + (1,) * (new.ndim - 1)), old, new)
    return np.ascontiguousarray(out, dtype=old.dtype)


def _masks(t, keep, r, base=None) -> dict:
    """Row by row, what the compare of a mesh with the imported topology
    makes of it: "pos" (V,) and "uv" (T,) the rows within the tolerance of
    the base level's (they keep its bits), "col" (T,) the triangles whose
    colours moved (they are converted). base: an earlier export's masks
    with the arrays it read ("pos_read", "uv_read", "col_read": its
    baseline); the rows bit for bit as read then are not compared again
    (a row's answer depends on it and on the base level's row alone)."""
    out = {}
    # the base level's rows are taken only for the rows compared (keep[k]:
    # with a baseline, the few that were not read as before)
    for key, new, old, eps in (
            ("pos", r["co"], lambda k: t["positions"][k], POS_EPS),
            ("uv", r["uv"].reshape(-1, 3, 2), lambda k: t["uv"][keep[k]], UV_EPS),
            # colours compared in Blender's linear storage
            ("col", r["color_linear"].reshape(-1, 3, 4),
             lambda k: srgb_to_linear(t["color"][keep[k]]), COL_EPS)):
        was = base.get(key + "_read") if base is not None else None
        if was is None or was.shape != new.shape:
            rows = slice(None)
            got = np.zeros(len(new), bool)
        else:
            # a whole-array compare first (the common case: a part not
            # touched); the same != as the rows', so the same answer
            rows = (np.zeros(0, np.intp) if np.array_equal(new, was) else
                    np.flatnonzero((new != was).reshape(len(new), -1).any(axis=1)))
            got = base[key].copy()
        out[key] = got
        d = np.abs(new[rows] - old(rows))
        if len(d):
            d = d.reshape(len(d), -1).max(axis=1)
            got[rows] = d > eps if key == "col" else d <= eps
    return out


def _changed_parts(t, keep, r, lin, m) -> dict:
    """The parts of terrain(0) the mesh changes, for set_terrain (the
    others are left out: the level keeps them). A row outside the
    tolerance ("pos", "uv" of _masks False) differs from the base level's,
    one within it keeps the base level's bits: a part changes when any
    row is outside; colours and textures are compared as converted."""
    new = {}
    if not m["pos"].all():
        new["positions"] = _pick(m["pos"], r["co"], t["positions"])
    if not m["uv"].all():
        uv = t["uv"].copy()
        uv[keep] = _pick(m["uv"], r["uv"].reshape(-1, 3, 2), t["uv"][keep])
        new["uv"] = uv
    moved = m["col"]            # changed colours converted
    if moved.any():
        col = t["color"].copy()
        part = col[keep]
        part[moved] = linear_to_srgb(lin[moved])
        col[keep] = part
        if not np.array_equal(col, t["color"]):
            new["color"] = col
    if not np.array_equal(r["texture"], t["texture"][keep]):
        tex = t["texture"].copy()
        tex[keep] = r["texture"]
        new["texture"] = tex
    return new


def _same_topology(r, tri_kept, n_positions) -> bool:
    return (len(r["co"]) == n_positions and len(r["sizes"]) == len(tri_kept)
            and bool((r["sizes"] == 3).all())
            and np.array_equal(r["loops"], tri_kept.reshape(-1).astype(np.int32)))


def terrain(lvl, ed, ob, notes, session=None, seen=None) -> bool:
    """Terrain edits into ed; True when something changed. session: the
    level's edit_track.Imported (or None): a mesh it vouches for (and
    whose slots name textures of the level) is the one an earlier export
    found to be the base level's terrain, and is not read; its "terrain"
    entry (an earlier export's "terrain_baseline") spares the compare of
    the rows as they were read then. seen (a
    dict) gets what export_rc2 records for the next export: "terrain" ->
    ("trusted",) or ("same", ob, tracked_props(ob)) when the compare
    found the mesh unchanged, "terrain_baseline" -> this compare's
    _masks() with the arrays read."""
    seen = {} if seen is None else seen
    count = lvl._tfrag_texture_count()
    props = tracked_props(ob)
    if props is not None and max(props[5:]) >= count:
        props = None
    if session is not None and session.tiles is not None and props is not None \
            and edit_track.unchanged_one(session.tiles, ob, props):
        seen["terrain"] = ("trusted",)
        return False
    t = lvl.terrain(0)
    tri = t["triangles"]
    keep = drop_degenerate(tri)
    r = _read(ob)
    same = _same_topology(r, tri[keep], len(t["positions"]))
    if r["color_linear"] is None and same:
        # imported without vertex colours: the corners keep the level's
        r["color_linear"] = srgb_to_linear(t["color"][keep]).reshape(-1, 4)
    lin = None if r["color_linear"] is None else r["color_linear"].reshape(-1, 3, 4)
    bad = (r["texture"] < 0) | (r["texture"] >= count)
    if bad.any():
        raise ExportError(f"{ob.name}: {int(bad.sum())} faces have no tfrag texture "
                          f"(a material named '... tfrag NNN' or the {ATTR_TEXTURE} "
                          "attribute)")
    if same:
        m = _masks(t, keep, r, session.extra.get("terrain") if session is not None else None)
        m.update(pos_read=r["co"], uv_read=r["uv"].reshape(-1, 3, 2), col_read=lin)
        seen["terrain_baseline"] = m
        new = _changed_parts(t, keep, r, lin, m)
        if not new:
            if props is not None:
                seen["terrain"] = ("same", ob, props)
            return False
        ed.set_terrain(**new)
        return True
    r["color"] = None if lin is None else linear_to_srgb(r["color_linear"])
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
    kept = np.zeros(len(t["patch"]), bool)      # keep holds indices: as a mask
    white = []          # patches re-encoded with no colour attribute to take
    kept[keep] = True
    for p in range(n_patches):
        mine = fan_face[r["patch"][fan_face] == p]
        corners = fan_corner[r["patch"][fan_face] == p]
        rows = np.flatnonzero((t["patch"] == p) & kept)
        new_pos = r["co"][r["loops"][corners]]
        if len(corners) == len(rows) and np.abs(
                new_pos - t["positions"][t["triangles"][rows]]).max(initial=0) <= POS_EPS \
                and np.abs(r["uv"][corners] - t["uv"][rows]).max(initial=0) <= UV_EPS \
                and (r["color"] is None or np.abs(
                    r["color"][corners] - t["color"][rows]).max(initial=0) <= COL_EPS) \
                and np.array_equal(r["texture"][mine], t["texture"][rows]):
            continue
        if len(corners) == 0:
            notes.append(f"{ob.name}: every face of tfrag patch {p} was deleted; a "
                         "patch cannot be removed, it is kept as it was")
            continue
        verts, inverse = np.unique(r["loops"][corners].reshape(-1), return_inverse=True)
        if r["color"] is None:
            col = np.ones(corners.shape + (4,), np.float32)
            white.append(p)
        else:
            col = r["color"][corners]
        ed.set_patch(p, r["co"][verts], inverse.reshape(-1, 3).astype(np.uint32),
                     r["uv"][corners], col, r["texture"][mine])
        changed = True
    if white:
        notes.append(f"{ob.name}: no '{materials.COLOR_ATTR}' colour attribute (imported "
                     "without vertex colours): the tfrag patches re-encoded from their "
                     f"faces are written white: {', '.join(map(str, white))}")
    return changed
