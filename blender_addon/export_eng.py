"""Blender scene -> ENG level, through the wadkit write path.

The tile objects of an imported level collection are read back (world
positions, UVs, vertex colours, the texture index kept as a face attribute),
converted to file space and compared with the base level's own world mesh:
when nothing changed the base level is saved as it is (byte-identical);
otherwise the geometry goes through lvl.with_geometry(...)."""
from __future__ import annotations

import numpy as np

import wadkit

from . import convert, materials
from .import_eng import ATTR_FLAGS, ATTR_TEXTURE, PROP_SOURCE, PROP_TILE
from .mesh_build import drop_degenerate, read_mesh


class ExportError(Exception):
    """An export problem to show the user (a report), nothing written."""


def level_collection(context):
    """The imported ENG level collection the export works on: the active
    object's, else the only one in the scene."""
    found = [c for c in context.scene.collection.children_recursive
             if c.get("wadkit_format") == "eng"]
    ob = context.active_object
    if ob is not None:
        for c in found:
            if ob.name in c.all_objects:
                return c
    if len(found) == 1:
        return found[0]
    raise ExportError("select an object of the imported ENG level to export"
                      if found else "no imported ENG level in the scene")


def gather(collection, depsgraph=None):
    """File-space triangle soup of the collection's tile objects:
    dict positions (T,3,3), uv (T,3,2), color (T,3,4), texture (T,), tile (T,)
    and the object of every triangle (for error reports)."""
    parts, owners = [], []
    obs = sorted((o for o in collection.objects if o.type == "MESH" and PROP_TILE in o),
                 key=lambda o: o[PROP_TILE])
    for ob in obs:
        me = ob.data
        co, tri = read_mesh(me, ob.matrix_world)
        nt = len(me.polygons)
        if len(tri) != nt:
            raise ExportError(f"{ob.name}: only triangles can be exported "
                              "(triangulate the mesh)")
        tex = np.empty(nt, np.int32)
        me.attributes[ATTR_TEXTURE].data.foreach_get("value", tex) \
            if ATTR_TEXTURE in me.attributes else tex.fill(0)
        uv = np.zeros(nt * 3 * 2, np.float32)
        if me.uv_layers.active is not None:
            me.uv_layers.active.data.foreach_get("uv", uv)
        col = np.ones(nt * 3 * 4, np.float32)
        if materials.COLOR_ATTR in me.color_attributes:
            me.color_attributes[materials.COLOR_ATTR].data.foreach_get("color_srgb", col)
        parts.append({
            "positions": convert.to_file(co)[tri],
            "uv": convert.flip_v(uv.reshape(nt, 3, 2)),
            "color": col.reshape(nt, 3, 4),
            "texture": tex,
            "tile": np.full(nt, int(ob[PROP_TILE]), np.int32),
        })
        owners += [ob.name] * nt
    if not parts:
        raise ExportError("the level collection holds no tile objects")
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    out["owners"] = owners
    return out


def reference(lvl):
    """The base level's world mesh in the same form as gather(): triangles
    ordered by tile (stable), degenerate ones dropped as the import does."""
    wm = lvl.world_mesh(space="file")
    tri = np.asarray(wm["triangles"])
    keep = drop_degenerate(tri)
    keep = keep[np.argsort(np.asarray(wm["tile"])[keep], kind="stable")]
    pos = np.asarray(wm["positions"], np.float32)
    return {"positions": pos[tri[keep]], "uv": np.asarray(wm["uv"])[keep],
            "color": np.asarray(wm["color"])[keep],
            "texture": np.asarray(wm["texture"])[keep],
            "tile": np.asarray(wm["tile"])[keep]}


def unchanged(a, b) -> bool:
    """Same triangles within float round-off of the Blender round trip."""
    if len(a["texture"]) != len(b["texture"]):
        return False
    return (np.array_equal(a["texture"], b["texture"])
            and np.array_equal(a["tile"], b["tile"])
            and np.allclose(a["positions"], b["positions"], atol=1e-4)
            and np.allclose(a["uv"], b["uv"], atol=1e-5)
            and np.allclose(a["color"], b["color"], atol=1e-3))


def export_eng(context, out_path: str, *, base_path: str | None = None,
               keep_tiles: bool = False, zones: str = "keep") -> str:
    """Write the scene's level to out_path. Returns "unchanged" or "rebuilt".
    Raises ExportError / wadkit.FormatError / wadkit.LimitError; nothing is
    written then (the wadkit writers are atomic)."""
    coll = level_collection(context)
    base = base_path or coll.get(PROP_SOURCE)
    if not base:
        raise ExportError("no base level: set the base path")
    lvl = wadkit.eng.open(base)
    got = gather(coll)
    if unchanged(got, reference(lvl)):
        lvl.save(out_path)
        return "unchanged"
    if not hasattr(lvl, "with_geometry"):
        raise ExportError("this wadkit has no ENG write path (with_geometry) yet")
    t = len(got["texture"])
    flat = got["positions"].reshape(-1, 3)
    tris = np.arange(3 * t, dtype=np.uint32).reshape(t, 3)
    try:
        new = lvl.with_geometry(flat, tris, got["uv"], got["texture"],
                                color=got["color"], keep_tiles=keep_tiles,
                                zones=zones)
        new.save(out_path)
    except wadkit.LimitError as e:
        raise ExportError(f"{_blame(str(e), coll)}: {e}") from e
    return "rebuilt"


def _blame(message: str, coll) -> str:
    """Name the Blender object of the tile a LimitError message names."""
    import re
    m = re.search(r"tile (\d+)", message)
    if m:
        for ob in coll.objects:
            if ob.get(PROP_TILE) == int(m.group(1)):
                return f"object {ob.name!r}"
    return f"level {coll.name!r}"
