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
from .import_eng import ATTR_TEXTURE, PROP_COLLISION_TILE, PROP_SOURCE, PROP_TILE
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
            "positions": convert.snap(convert.to_file(co))[tri],
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


def gather_collision(collection):
    """(positions (V,3) file space, polygons (P,4) with -1 padding a
    triangle, material (P,)) from the level's Collision objects, or None
    when the level was imported without collision."""
    obs = [o for o in collection.all_objects
           if o.type == "MESH" and PROP_COLLISION_TILE in o]
    if not obs:
        return None
    pos, polys, mats, base = [], [], [], 0
    for ob in sorted(obs, key=lambda o: o[PROP_COLLISION_TILE]):
        me = ob.data
        nv, npoly = len(me.vertices), len(me.polygons)
        co = np.empty(nv * 3, np.float32)
        me.vertices.foreach_get("co", co)
        m = np.array(ob.matrix_world, dtype=np.float64)
        co = (co.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
        sizes = np.empty(npoly, np.int32)
        me.polygons.foreach_get("loop_total", sizes)
        if npoly and (sizes.min() < 3 or sizes.max() > 4):
            raise ExportError(f"{ob.name}: collision polygons need 3 or 4 corners")
        loops = np.empty(len(me.loops), np.int32)
        me.loops.foreach_get("vertex_index", loops)
        starts = np.empty(npoly, np.int32)
        me.polygons.foreach_get("loop_start", starts)
        p4 = np.full((npoly, 4), -1, np.int32)
        for k in range(4):
            has = sizes > k
            p4[has, k] = loops[starts[has] + k] + base
        mat = np.zeros(npoly, np.int32)
        if "wadkit_material" in me.attributes:
            me.attributes["wadkit_material"].data.foreach_get("value", mat)
        pos.append(convert.snap(convert.to_file(co)))
        polys.append(p4)
        mats.append(mat)
        base += nv
    return (np.concatenate(pos), np.concatenate(polys),
            np.concatenate(mats).astype(np.uint8))


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
    """Write the scene's level to out_path. Returns ("unchanged" | "rebuilt",
    the write path's warnings).
    Raises ExportError / wadkit.FormatError / wadkit.LimitError; nothing is
    written then (the wadkit writers are atomic)."""
    coll = level_collection(context)
    context.view_layer.update()         # current matrix_world of every object
    base = base_path or coll.get(PROP_SOURCE)
    if not base:
        raise ExportError("no base level: set the base path")
    lvl = wadkit.eng.open(base)
    got = gather(coll)
    if unchanged(got, reference(lvl)):
        lvl.save(out_path)
        return "unchanged", []
    if not hasattr(lvl, "with_geometry"):
        raise ExportError("this wadkit has no ENG write path (with_geometry) yet")
    t = len(got["texture"])
    flat = got["positions"].reshape(-1, 3)
    tris = np.arange(3 * t, dtype=np.uint32).reshape(t, 3)
    import warnings
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", wadkit.WadWarning)
            new = lvl.with_geometry(flat, tris, got["uv"], got["texture"],
                                    color=got["color"], collision=gather_collision(coll),
                                    keep_tiles=keep_tiles, zones=zones)
        new.save(out_path)
    except wadkit.LimitError as e:
        raise ExportError(f"{_blame(str(e), coll, got['owners'])}: {e}") from e
    notes = [str(w.message) for w in caught]
    notes += [n for n in getattr(new, "import_report", {}).get("warnings", [])
              if n not in notes]
    return "rebuilt", notes


def _blame(message: str, coll, owners) -> str:
    """Name the Blender object a LimitError message points at: by tile
    ("tile N"), else by vertex or triangle of the exported triangle soup
    (vertex k is corner k % 3 of triangle k // 3)."""
    import re
    m = re.search(r"\btile (\d+)", message)
    if m:
        for ob in coll.objects:
            if ob.get(PROP_TILE) == int(m.group(1)):
                return f"object {ob.name!r}"
    for word, per in (("vertex", 3), ("triangle", 1)):
        m = re.search(rf"\b{word} (\d+)", message)
        if m and int(m.group(1)) // per < len(owners):
            return f"object {owners[int(m.group(1)) // per]!r}"
    return f"level {coll.name!r}"
