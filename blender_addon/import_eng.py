"""ENG level -> Blender scene. Reads only the documented wadkit arrays
(lvl.world_mesh(), lvl.tiles, lvl.zones, lvl.pages, lvl.textures,
lvl.objects); never
bytes. All data is built first and linked to the scene at the end."""
from __future__ import annotations

import os

import bpy
import numpy as np

from . import convert, materials
from .build import Created, Progress
from .mesh_build import (MeshArrays, build_mesh, build_meshes, drop_degenerate,
                         run_starts, sort_stable)

# custom property names the exporter reads back
PROP_SOURCE = "wadkit_source"       # on the level collection: the source path
PROP_FORMAT = "wadkit_format"       # "eng" / "rc2"
PROP_TILE = "wadkit_tile"           # on a tile object: tile index
PROP_MODEL = "wadkit_model"
PROP_ROTATION = "wadkit_rotation"
PROP_ZONE = "wadkit_zone"           # on a zone object (merge="ZONE")
PROP_COLLISION_ZONE = "wadkit_collision_zone"   # on a collision object
ATTR_TILE = "wadkit_tile"           # face attribute: tile index (zone and collision objects)
ATTR_TEXTURE = "wadkit_texture"     # face attribute: texture-table index
ATTR_FLAGS = "wadkit_face_flags"    # face attribute: engine face flags


def _texture_table(lvl):
    """lvl.textures (a dict of arrays: page, flat, color, blend ...), or
    None when the level has no TEXT chunk."""
    try:
        return lvl.textures
    except KeyError:
        return None


def _pages(lvl):
    try:
        return list(lvl.pages)
    except KeyError:
        return []


class _Materials:
    """Images and materials made on demand, one per page / TexKey."""

    def __init__(self, created: Created, level_name: str, lvl, vertex_colors: bool):
        self.created, self.level = created, level_name
        self.pages = _pages(lvl)
        self.table = _texture_table(lvl)
        self.vertex_colors = vertex_colors
        self.images: dict[int, object] = {}
        self.by_key: dict[materials.TexKey, int] = {}
        self.by_index: list = []

    def key(self, texture: int) -> materials.TexKey:
        t = self.table
        if t is not None and 0 <= texture < len(t["page"]):
            return materials.texture_key(t, texture)
        return materials.TexKey(-1, 0, (255, 255, 255))   # no texture: white

    def image(self, page: int):
        if page not in self.images:
            rgba = self.pages[page].rgba
            self.images[page] = self.created.add("images", materials.make_image(
                f"{self.level} page {page:02d}", rgba))
        return self.images[page]

    def material_id(self, texture: int) -> int:
        """Index into self.by_index of the material of a texture entry."""
        k = self.key(texture)
        if k not in self.by_key:
            img = self.image(k.page) if 0 <= k.page < len(self.pages) else None
            if k.flat is not None:
                name = f"{self.level} flat {k.flat[0]:02x}{k.flat[1]:02x}{k.flat[2]:02x} b{k.blend}"
            elif img is None:
                name = f"{self.level} page {k.page:02d} missing b{k.blend}"
            else:
                name = f"{self.level} page {k.page:02d} b{k.blend}"
            self.by_key[k] = len(self.by_index)
            self.by_index.append(self.created.add("materials", materials.make_material(
                name, k, img, self.vertex_colors)))
        return self.by_key[k]


def import_eng(context, lvl, *, name: str | None = None, collision: bool = True,
               objects: bool = True, vertex_colors: bool = True,
               merge: str = "TILE", notes: list | None = None):
    """Build the level into a new collection linked to the scene.
    merge: "TILE" (one object per tile) or "ZONE" (one per zone).
    notes: a list the import's warnings are appended to (records it had
    to leave out). Returns the collection. On any exception nothing stays
    behind."""
    created = Created()
    try:
        return _import(context, lvl, created, name, collision, objects,
                       vertex_colors, merge, notes if notes is not None else [])
    except BaseException:
        created.rollback()
        raise


def _tile_transforms(tiles, ntiles: int):
    """(location (N,3) Blender space float32, angle (N,) radians) of every
    tile: location = the tile position, rotation about z."""
    loc = convert.to_blender(np.asarray(tiles.position, np.float32).reshape(-1, 3)[:ntiles])
    ang = np.asarray(tiles.rotation, np.float64)[:ntiles] / 4096.0 * 2.0 * np.pi
    return loc, ang


def _rotate_z(p: np.ndarray, ang: np.ndarray) -> np.ndarray:
    """Rotate each row of p (N,3) about z by its angle (N,), float64."""
    c, s = np.cos(ang), np.sin(ang)
    out = np.empty((len(p), 3), np.float64)
    out[:, 0] = c * p[:, 0] - s * p[:, 1]
    out[:, 1] = s * p[:, 0] + c * p[:, 1]
    out[:, 2] = p[:, 2]
    return out


def _runs(keys: np.ndarray):
    """(distinct values, run index of every element, starts (G+1,)) of a
    sorted key array."""
    n = len(keys)
    change = np.empty(n, bool)
    if n:
        change[0] = True
        np.not_equal(keys[1:], keys[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    idx = np.cumsum(change) - 1
    return keys[starts], idx, np.append(starts, n).astype(np.int64)


def _slots(gi: np.ndarray, mat: np.ndarray, ngroups: int, nmats: int):
    """Material slots per group: (slot of every face within its group,
    material ids of each group's slots as a list of arrays). A group's
    slots are its distinct materials in id order."""
    present = np.zeros((ngroups, max(1, nmats)), bool)
    present[gi, mat] = True
    slot = np.cumsum(present, axis=1, dtype=np.int32) - 1
    rows, cols = np.nonzero(present)
    bounds = np.searchsorted(rows, np.arange(ngroups + 1))
    return slot[gi, mat], [cols[bounds[g]:bounds[g + 1]] for g in range(ngroups)]


def _vertex_runs(corners: np.ndarray, gi_corner: np.ndarray, nverts: int, ngroups: int):
    """Renumber the vertices the corners use so that each group's vertices
    are one run, in their old order. Returns (source vertex of each new
    vertex, new vertex of each corner, v_start (G+1,)). A vertex used by
    two groups is duplicated."""
    vg = np.full(nverts, -1, np.int64)
    vg[corners] = gi_corner
    if np.array_equal(vg[corners], gi_corner):
        used = np.flatnonzero(vg >= 0)
        gu = vg[used]
        order = used if (np.diff(gu) >= 0).all() else used[sort_stable(gu)]
        new = np.empty(nverts, np.int64)
        new[order] = np.arange(len(order))
        return order, new[corners], run_starts(vg[order], ngroups)
    key = gi_corner * nverts + corners
    uniq, inv = np.unique(key, return_inverse=True)
    return uniq % nverts, inv.reshape(-1), run_starts(uniq // nverts, ngroups)


def _import(context, lvl, created, name, collision, objects, vertex_colors, merge, notes):
    path = getattr(lvl, "path", None)
    name = name or (os.path.splitext(os.path.basename(path))[0] if path else "level")
    wm = lvl.world_mesh(space="file")
    tiles = lvl.tiles
    ntiles = len(tiles.model)
    tri_all = np.asarray(wm["triangles"], np.int64)
    tile_of = np.asarray(wm["tile"], np.int64)
    sets = np.asarray(getattr(tiles, "color_sets", np.zeros(ntiles)), np.int32)
    mats = _Materials(created, name, lvl, vertex_colors)
    tloc, tang = _tile_transforms(tiles, ntiles)
    zone_of_tile = _tile_zones(lvl, ntiles) if (merge == "ZONE" or collision) else None
    prog = Progress(context, 4)

    # faces by group (tile or zone), stable: a group's faces keep their order
    faces = drop_degenerate(tri_all)
    if merge == "ZONE":
        gkey = zone_of_tile[np.clip(tile_of[faces], 0, len(zone_of_tile) - 1)]
    else:
        gkey = tile_of[faces]
    reordered = bool(len(gkey) and (np.diff(gkey) < 0).any())
    if reordered:
        order = sort_stable(gkey)
        faces, gkey = faces[order], gkey[order]
    gvals, gi, f_start = _runs(gkey)
    ng, nf = len(gvals), len(faces)
    # every face kept, in file order: the arrays are used as they are
    identity = nf == len(tri_all) and not reordered

    def per_face(a, dtype):
        a = np.asarray(a, dtype)
        return a if identity else a[faces]

    corners = per_face(tri_all, np.int64).reshape(-1)
    src, corner_vert, v_start = _vertex_runs(corners, np.repeat(gi, 3),
                                             len(wm["positions"]), ng)
    pos = convert.to_blender(np.asarray(wm["positions"], np.float32)[src])
    is_tile = (merge != "ZONE") & (gvals >= 0) & (gvals < ntiles)
    if merge != "ZONE":
        # tile-local: the inverse of the object transform (loc, rotation)
        gv = np.repeat(np.arange(ng), np.diff(v_start))
        t = np.where(is_tile, gvals, 0)[gv]
        ok = is_tile[gv]
        d = pos - np.where(ok[:, None], tloc[t], 0)
        pos = _rotate_z(d, -np.where(ok, tang[t], 0.0)).astype(np.float32)
    prog.update(1)

    arr = MeshArrays(pos, v_start, corner_vert, np.arange(0, 3 * nf + 1, 3), f_start)
    uv = np.array(per_face(wm["uv"], np.float32), copy=True).reshape(-1, 2)
    uv[:, 1] = 1.0 - uv[:, 1]
    arr.uv = uv
    if vertex_colors:
        arr.colors[materials.COLOR_ATTR] = (
            per_face(wm["color"], np.float32).reshape(-1, 4), None)
    if vertex_colors and merge != "ZONE":
        # the second colour set, on the tiles that have one
        two = sets[np.clip(tile_of[faces], 0, max(0, ntiles - 1))] >= 2 if ntiles \
            else np.zeros(nf, bool)
        has2 = np.bincount(gi, weights=two, minlength=ng) > 0
        if has2.any():
            c2 = lvl.world_mesh(space="file", color_set=1)["color"]
            arr.colors[materials.COLOR2_ATTR] = (
                per_face(c2, np.float32).reshape(-1, 4), has2)
    texture = per_face(wm["texture"], np.int64)
    arr.face_int = {ATTR_TEXTURE: texture,
                    ATTR_FLAGS: per_face(wm["face_flags"], np.int64)}
    if merge == "ZONE":
        arr.face_int[ATTR_TILE] = tile_of[faces]
    # every texture index used -> a material (made once)
    lo = int(texture.min()) if nf else 0
    used = np.flatnonzero(np.bincount(texture - lo)) if nf else np.zeros(0, np.int64)
    mat_of_tex = np.zeros(len(used) and int(used[-1]) + 1, np.int64)
    mat_of_tex[used] = [mats.material_id(int(t) + lo) for t in used]
    arr.material_index, slot_mats = _slots(gi, mat_of_tex[texture - lo], ng,
                                           len(mats.by_index))
    prog.update(2)

    kind = "zone" if merge == "ZONE" else "tile"
    labels = [f"{name} {kind} {int(g)}" for g in gvals]
    by_index = mats.by_index
    meshes = build_meshes(labels, arr, [[by_index[k] for k in s] for s in slot_mats])
    new_object = bpy.data.objects.new
    level_objs = []
    for i, me in enumerate(meshes):
        created.add("meshes", me)
        ob = created.add("objects", new_object(labels[i], me))
        g = int(gvals[i])
        if is_tile[i]:
            ob.location = tloc[g].tolist()
            ob.rotation_euler[2] = float(tang[g])
            ob[PROP_TILE] = g
            ob[PROP_MODEL] = int(tiles.model[g])
            ob[PROP_ROTATION] = int(tiles.rotation[g])
        elif merge == "ZONE":
            ob[PROP_ZONE] = g
        level_objs.append(ob)
    prog.update(3)
    obj_objs = _import_objects(lvl, created, name) if objects else []
    coll_objs = _import_collision(lvl, created, name, tiles, ntiles, tloc, tang,
                                  zone_of_tile, notes) if collision else []
    prog.update(4)
    prog.end()

    # link everything at the end
    root = created.add("collections", bpy.data.collections.new(name))
    root[PROP_SOURCE] = path or ""
    root[PROP_FORMAT] = "eng"
    link = root.objects.link
    for ob in level_objs:
        link(ob)
    if obj_objs:
        sub = created.add("collections", bpy.data.collections.new(f"{name} Objects"))
        root.children.link(sub)
        for ob in obj_objs:
            sub.objects.link(ob)
    if coll_objs:
        sub = created.add("collections", bpy.data.collections.new(f"{name} Collision"))
        sub.hide_render = True
        root.children.link(sub)
        for ob in coll_objs:
            sub.objects.link(ob)
    context.scene.collection.children.link(root)
    return root


def _tile_zones(lvl, ntiles: int) -> np.ndarray:
    """Zone number of every tile: lvl.zones.grid at the tile's cell."""
    grid = np.asarray(lvl.zones.grid)
    xz = np.asarray(lvl.tiles.cell_xz, np.int64).reshape(-1, 2)
    h, w = grid.shape
    x = np.clip(xz[:, 0], 0, w - 1)
    z = np.clip(xz[:, 1], 0, h - 1)
    out = grid[z, x].astype(np.int64)
    return out if len(out) else np.zeros(1, np.int64)


def _import_objects(lvl, created, name):
    """STPC models, laid out in a row along +x beside the level (they have no
    place of their own in the level file)."""
    out, x = [], 0.0
    for i, m in enumerate(lvl.objects):
        tri = np.asarray(m.triangles)
        keep = drop_degenerate(tri)
        pos = convert.to_blender(m.positions)
        me = created.add("meshes", build_mesh(f"{name} object {i}", pos, tri[keep]))
        ob = created.add("objects", bpy.data.objects.new(f"{name} object {i}", me))
        ob["wadkit_object"] = i
        counts = getattr(m, "bone_counts", None)
        if counts is not None and len(counts):
            start = 0
            for b, c in enumerate(counts):       # vertices are grouped by bone
                vg = ob.vertex_groups.new(name=f"bone {b}")
                vg.add(list(range(start, start + int(c))), 1.0, "REPLACE")
                start += int(c)
        if len(pos):
            width = float(pos[:, 0].max() - pos[:, 0].min())
            ob.location = (x - float(pos[:, 0].min()), -4.0, 0.0)
            x += width + 1.0
        out.append(ob)
    return out


_COLL_KEYS = ("n_corners", "type", "group", "material")


def _model_collision(lvl, model_ids):
    """The decoded collision records of the given models, concatenated:
    dict of arrays over all their polygons (corners (P,4,3) tile-local file
    space ...) and p_start (M+1,) each model's run. One decode call for all
    (records decode independently; the group of each record comes from its
    model's three counts)."""
    models = lvl.models
    parts = [models[int(m)] for m in model_ids]
    groups = np.array([tuple(getattr(m, "collision_groups", (0, 0, 0))) for m in parts],
                      np.int64).reshape(-1, 3)
    raws = [bytes(getattr(m, "collision_raw", b"")) for m in parts]
    counts = np.array([len(r) // 32 for r in raws], np.int64)
    p_start = np.zeros(len(parts) + 1, np.int64)
    np.cumsum(counts, out=p_start[1:])
    if not hasattr(parts[0] if parts else None, "collision_raw") or \
            (groups.sum(axis=1) != counts).any():
        return _model_collision_each(parts)
    from wadkit._eng_floor import decode_collision
    c = decode_collision(b"".join(raws), space=getattr(parts[0], "space", "file"))
    out = {"corners": np.asarray(c["corners"], np.float32).reshape(-1, 4, 3)}
    for k in _COLL_KEYS:
        out[k] = np.asarray(c[k], np.int64)
    out["group"] = np.repeat(np.tile(np.arange(3), len(parts)), groups.reshape(-1))
    return out, p_start


def _model_collision_each(parts):
    """_model_collision through each model's own .collision."""
    cs = [m.collision for m in parts]
    counts = [len(c["n_corners"]) for c in cs]
    p_start = np.zeros(len(cs) + 1, np.int64)
    np.cumsum(counts, out=p_start[1:])
    out = {"corners": np.concatenate(
        [np.asarray(c["corners"], np.float32).reshape(-1, 4, 3) for c in cs])
        if cs else np.zeros((0, 4, 3), np.float32)}
    for k in _COLL_KEYS:
        out[k] = np.concatenate([np.asarray(c[k], np.int64) for c in cs]) \
            if cs else np.zeros(0, np.int64)
    return out, p_start


def _import_collision(lvl, created, name, tiles, ntiles, tloc, tang, zone_of_tile, notes):
    """Collision polygons, one object per zone (vertices in Blender world
    space: the tile model's decoded records placed by the tile transform);
    one coloured material per ground material; type, group, material,
    polygon number (over groups A+B+C) and tile kept as face attributes.
    Records whose corners are not finite (planes that do not meet) have no
    shape: they are left out and listed in notes."""
    tmodel = np.asarray(tiles.model, np.int64)[:ntiles]
    model_ids, tm = np.unique(tmodel, return_inverse=True)
    c, p_start = _model_collision(lvl, model_ids)
    count = np.diff(p_start)[tm]
    total = int(count.sum())
    if total == 0:
        return []
    tile = np.repeat(np.arange(ntiles), count)
    first = np.repeat(np.cumsum(count) - count, count)
    poly = np.arange(total) - first                     # record number in its model
    src = p_start[tm][tile] + poly
    n = c["n_corners"][src]
    corner = np.arange(4)[None, :] < n[:, None]         # (N,4) corners in use
    p = convert.to_blender(c["corners"][src]).reshape(-1, 3)
    world = _rotate_z(p, np.repeat(tang[tile], 4)) + np.repeat(tloc[tile], 4, axis=0)
    world = world.reshape(-1, 4, 3)
    good = (np.isfinite(world).all(axis=2) | ~corner).all(axis=1) & (n >= 3) & (n <= 4)
    if not good.all():
        bad_tiles, bad_n = np.unique(tile[~good], return_counts=True)
        where = ", ".join(f"tile {t}: {k}" for t, k in zip(bad_tiles[:8], bad_n[:8]))
        more = " ..." if len(bad_tiles) > 8 else ""
        notes.append(f"{int((~good).sum())} collision record(s) have no corners (their "
                     f"planes do not meet) and were left out ({where}{more})")
    keep = np.flatnonzero(good)
    zone = zone_of_tile[np.clip(tile[keep], 0, len(zone_of_tile) - 1)]
    keep = keep[sort_stable(zone)] if len(zone) and (np.diff(zone) < 0).any() else keep
    zone = zone_of_tile[np.clip(tile[keep], 0, len(zone_of_tile) - 1)]
    zvals, zi, f_start = _runs(zone)
    sizes = n[keep]
    face_start = np.zeros(len(keep) + 1, np.int64)
    np.cumsum(sizes, out=face_start[1:])
    pos = world[keep][corner[keep]]                     # every corner its own vertex
    arr = MeshArrays(pos, face_start[f_start], np.arange(len(pos)), face_start, f_start)
    mat = c["material"][src][keep]
    used = np.flatnonzero(np.bincount(mat, minlength=256))
    cmats = {}
    for mm in used:
        cmats[int(mm)] = created.add("materials", materials.collision_material(
            f"{name} ground {int(mm):02x}", int(mm)))
    arr.material_index, slot_mats = _slots(zi, mat, len(zvals), 256)
    arr.face_int = {"wadkit_type": c["type"][src][keep], "wadkit_group": c["group"][src][keep],
                    "wadkit_material": mat, "wadkit_polygon": poly[keep],
                    ATTR_TILE: tile[keep]}
    labels = [f"{name} collision zone {int(z)}" for z in zvals]
    out = []
    meshes = build_meshes(labels, arr, [[cmats[int(k)] for k in s] for s in slot_mats])
    for i, me in enumerate(meshes):
        created.add("meshes", me)
        ob = created.add("objects", bpy.data.objects.new(labels[i], me))
        ob.hide_render = True
        ob.display_type = "WIRE"
        ob[PROP_COLLISION_ZONE] = int(zvals[i])
        out.append(ob)
    return out
