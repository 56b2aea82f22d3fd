"""Blender scene -> ENG level, through the wadkit write path.

The tile objects of an imported level collection are read back (world
positions, UVs, vertex colours, the texture index kept as a face attribute),
converted to file space and compared with the base level's own world mesh:
when nothing changed the base level is saved as it is (byte-identical);
otherwise the geometry goes through lvl.with_geometry(...)."""
from __future__ import annotations

import bpy
import numpy as np

import wadkit

from . import convert, materials
from .import_eng import (ATTR_TEXTURE, ATTR_TILE, PROP_COLLISION_ZONE, PROP_SOURCE,
                         PROP_TILE, PROP_ZONE)
from .mesh_build import drop_degenerate, linear_to_srgb, srgb_to_linear


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


def _matrices(pool, obs) -> np.ndarray:
    """(len(obs),4,4) world matrices of obs, all objects of the bpy
    collection `pool`, read in one foreach_get (Blender stores them column
    by column)."""
    n = len(pool)
    flat = np.empty(n * 16, np.float32)
    pool.foreach_get("matrix_world", flat)
    where = {ob.as_pointer(): k for k, ob in enumerate(pool)}
    idx = np.array([where[ob.as_pointer()] for ob in obs], np.int64)
    return flat.reshape(n, 4, 4).transpose(0, 2, 1)[idx].astype(np.float64)


def _read(obs, with_corners: bool = True, ints=(), matrices=None):
    """The meshes of obs read into arrays over all of them, with one
    foreach_get per mesh and property: world positions (V,3) Blender space,
    corner vertices (L,) numbered over all meshes, polygon sizes (F,) and
    starts (F,), and per object its run of polygons (f_start (G+1,)) and
    corners; uv (L,2) and linear colour (L,4) when with_corners; ints:
    (attribute name, per object a value for all its faces or None to
    read the INT face attribute) -> (F,) under that name (0 where a mesh
    lacks it)."""
    me_list = [ob.data for ob in obs]
    nv = np.array([len(me.vertices) for me in me_list], np.int64)
    nl = np.array([len(me.loops) for me in me_list], np.int64)
    nf = np.array([len(me.polygons) for me in me_list], np.int64)
    v_start, l_start, f_start = (np.concatenate([[0], np.cumsum(x)]) for x in (nv, nl, nf))
    co = np.empty(int(v_start[-1]) * 3, np.float32)
    loops = np.empty(int(l_start[-1]), np.int32)
    sizes = np.empty(int(f_start[-1]), np.int32)
    starts = np.empty(int(f_start[-1]), np.int32)
    uv = np.zeros(int(l_start[-1]) * 2, np.float32) if with_corners else None
    col = np.ones(int(l_start[-1]) * 4, np.float32) if with_corners else None
    mats = matrices if matrices is not None else np.empty((len(obs), 4, 4), np.float64)
    ints = [(name, fill, np.zeros(int(f_start[-1]), np.int32)) for name, fill in ints]
    fast = bpy.app.version >= (4, 0, 0)
    for i, (ob, me) in enumerate(zip(obs, me_list)):
        v0, v1, l0, l1 = v_start[i], v_start[i + 1], l_start[i], l_start[i + 1]
        f0, f1 = f_start[i], f_start[i + 1]
        if matrices is None:
            mats[i] = ob.matrix_world
        at = me.attributes
        if fast:        # Blender 4+: attributes are copied, properties go element-wise
            at["position"].data.foreach_get("vector", co[3 * v0:3 * v1])
            if l1 > l0:
                at[".corner_vert"].data.foreach_get("value", loops[l0:l1])
        else:
            me.vertices.foreach_get("co", co[3 * v0:3 * v1])
            me.loops.foreach_get("vertex_index", loops[l0:l1])
        if l1 - l0 == 3 * (f1 - f0):
            # every polygon has >= 3 corners, so these are all triangles
            sizes[f0:f1] = 3
            starts[f0:f1] = np.arange(0, 3 * (f1 - f0), 3)
        else:
            me.polygons.foreach_get("loop_total", sizes[f0:f1])
            me.polygons.foreach_get("loop_start", starts[f0:f1])
        for name, fill, out in ints:
            if fill[i] is not None:
                out[f0:f1] = fill[i]
                continue
            a = at.get(name)
            if a is not None and f1 > f0:
                try:
                    a.data.foreach_get("value", out[f0:f1])
                except (RuntimeError, TypeError):    # not an INT face attribute
                    out[f0:f1] = 0
        if with_corners:
            uvl = me.uv_layers.active
            if uvl is not None:
                if fast:
                    at[uvl.name].data.foreach_get("vector", uv[2 * l0:2 * l1])
                else:
                    uvl.data.foreach_get("uv", uv[2 * l0:2 * l1])
            ca = me.color_attributes.get(materials.COLOR_ATTR)
            if ca is not None and ca.domain == "CORNER":     # float or byte colours
                ca.data.foreach_get("color", col[4 * l0:4 * l1])
    g_v = np.repeat(np.arange(len(obs)), nv)
    co = co.reshape(-1, 3).astype(np.float64)
    m = mats[g_v]
    world = np.einsum("nij,nj->ni", m[:, :3, :3], co) + m[:, :3, 3]
    g_l = np.repeat(np.arange(len(obs)), nl)
    g_f = np.repeat(np.arange(len(obs)), nf)
    return {**{name: out for name, _fill, out in ints},
            "co": world.astype(np.float32), "loops": loops + v_start[g_l],
            "sizes": sizes, "starts": starts + l_start[g_f], "f_start": f_start,
            "nf": nf, "uv": None if uv is None else uv.reshape(-1, 2),
            "color": None if col is None else col.reshape(-1, 4)}


def level_objects(collection):
    """The tile objects (wadkit_tile) and zone objects (wadkit_zone) of a
    level collection, tiles by tile, then zones by zone."""
    tiles = sorted((o for o in collection.objects if o.type == "MESH" and PROP_TILE in o),
                   key=lambda o: o[PROP_TILE])
    zones = sorted((o for o in collection.objects if o.type == "MESH" and PROP_ZONE in o),
                   key=lambda o: o[PROP_ZONE])
    return tiles + zones


def gather(collection, linear_color: bool = False):
    """File-space triangle soup of the collection's tile (or zone) objects:
    dict positions (T,3,3), uv (T,3,2), color (T,3,4), texture (T,), tile (T,)
    in tile order (stable), and the object of every triangle (for error
    reports). color: display values (Blender's color_srgb), or Blender's
    linear storage when linear_color."""
    obs = level_objects(collection)
    if not obs:
        raise ExportError("the level collection holds no tile objects")
    none = [None] * len(obs)
    r = _read(obs, ints=[(ATTR_TEXTURE, none),
                         (ATTR_TILE, [o.get(PROP_TILE) for o in obs])],
              matrices=_matrices(collection.objects, obs))
    nt = len(r["sizes"])
    if (r["sizes"] != 3).any():
        bad = obs[int(np.searchsorted(r["f_start"], np.flatnonzero(r["sizes"] != 3)[0],
                                      side="right")) - 1]
        raise ExportError(f"{bad.name}: only triangles can be exported "
                          "(triangulate the mesh)")
    corner = (r["starts"][:, None] + np.arange(3)).reshape(-1)
    tri = r["loops"][corner].reshape(-1, 3)
    texture, tile = r[ATTR_TEXTURE], r[ATTR_TILE]
    owner = np.repeat(np.arange(len(obs)), r["nf"])
    order = None
    if nt and (np.diff(tile) < 0).any():
        order = np.argsort(tile, kind="stable")
        tri, texture, tile, owner, corner = (tri[order], texture[order], tile[order],
                                             owner[order], corner.reshape(-1, 3)[order])
    corner = corner.reshape(-1)
    col = r["color"][corner].reshape(nt, 3, 4)
    uv = r["uv"][corner].reshape(nt, 3, 2)
    uv[..., 1] = 1.0 - uv[..., 1]
    names = [o.name for o in obs]
    return {
        "positions": convert.snap(convert.to_file(r["co"]))[tri],
        "uv": uv,
        "color": col if linear_color else linear_to_srgb(col),
        "texture": texture,
        "tile": tile,
        "owners": _Owners(names, owner),
    }


class _Owners:
    """owners[t]: the name of the object triangle t came from."""

    def __init__(self, names, index):
        self.names, self.index = names, index

    def __len__(self):
        return len(self.index)

    def __getitem__(self, t):
        return self.names[int(self.index[t])]


def gather_collision(collection):
    """(positions (V,3) file space, polygons (P,4) with -1 padding a
    triangle, material (P,)) from the level's Collision objects, or None
    when the level was imported without collision."""
    obs = sorted((o for o in collection.all_objects
                  if o.type == "MESH" and PROP_COLLISION_ZONE in o),
                 key=lambda o: o[PROP_COLLISION_ZONE])
    if not obs:
        return None
    r = _read(obs, with_corners=False, ints=[("wadkit_material", [None] * len(obs))],
              matrices=_matrices(collection.all_objects, obs))
    sizes, starts = r["sizes"], r["starts"]
    npoly = len(sizes)
    g_f = np.repeat(np.arange(len(obs)), r["nf"])
    if npoly and (sizes.min() < 3 or sizes.max() > 4):
        bad = obs[int(g_f[np.flatnonzero((sizes < 3) | (sizes > 4))[0]])]
        raise ExportError(f"{bad.name}: collision polygons need 3 or 4 corners")
    finite = np.isfinite(r["co"]).all(axis=1)
    if not finite.all():
        g_v = np.repeat(np.arange(len(obs)), np.diff(np.concatenate(
            [[0], np.cumsum([len(o.data.vertices) for o in obs])])))
        bad = obs[int(g_v[np.flatnonzero(~finite)[0]])]
        raise ExportError(f"{bad.name}: a collision vertex is not a finite number")
    p4 = np.full((npoly, 4), -1, np.int32)
    for k in range(4):
        has = sizes > k
        p4[has, k] = r["loops"][starts[has] + k]
    mat = r["wadkit_material"]
    return convert.snap(convert.to_file(r["co"])), p4, mat.astype(np.uint8)


def reference(lvl, linear_color: bool = False):
    """The base level's world mesh in the same form as gather(): triangles
    ordered by tile (stable), degenerate ones dropped as the import does."""
    wm = lvl.world_mesh(space="file")
    tri = np.asarray(wm["triangles"])
    keep = drop_degenerate(tri)
    tile = np.asarray(wm["tile"])[keep]
    if len(tile) and (np.diff(tile) < 0).any():
        keep = keep[np.argsort(tile, kind="stable")]
    pos = np.asarray(wm["positions"], np.float32)
    col = np.asarray(wm["color"], np.float32)[keep]
    col = np.maximum(col, 0.0)
    return {"positions": pos[tri[keep]], "uv": np.asarray(wm["uv"])[keep],
            "color": srgb_to_linear(col) if linear_color else col,
            "texture": np.asarray(wm["texture"])[keep],
            "tile": np.asarray(wm["tile"])[keep]}


def unchanged(a, b) -> bool:
    """Same triangles within float round-off of the Blender round trip
    (colours compared as both hold them: display or linear alike)."""
    if len(a["texture"]) != len(b["texture"]):
        return False
    return (np.array_equal(a["texture"], b["texture"])
            and np.array_equal(a["tile"], b["tile"])
            and np.allclose(a["positions"], b["positions"], rtol=0, atol=1e-4)
            and np.allclose(a["uv"], b["uv"], rtol=0, atol=1e-5)
            and np.allclose(a["color"], b["color"], rtol=0, atol=1e-3))


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
    got = gather(coll, linear_color=True)
    if unchanged(got, reference(lvl, linear_color=True)):
        lvl.save(out_path)
        return "unchanged", []
    got["color"] = linear_to_srgb(got["color"])
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
