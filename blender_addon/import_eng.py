"""ENG level -> Blender scene. Reads only the documented wadkit arrays
(lvl.world_mesh(), lvl.tiles, lvl.zones, lvl.pages, lvl.textures,
lvl.objects); never
bytes. All data is built first and linked to the scene at the end."""
from __future__ import annotations

import math
import os

import bpy
import numpy as np

from . import convert, materials
from .build import Created, Progress
from .mesh_build import build_mesh, drop_degenerate, split_by

# custom property names the exporter reads back
PROP_SOURCE = "wadkit_source"       # on the level collection: the source path
PROP_FORMAT = "wadkit_format"       # "eng" / "rc2"
PROP_TILE = "wadkit_tile"           # on a tile object: tile index
PROP_MODEL = "wadkit_model"
PROP_ROTATION = "wadkit_rotation"
PROP_COLLISION_TILE = "wadkit_collision_tile"
ATTR_TEXTURE = "wadkit_texture"     # face attribute: texture-table index
ATTR_FLAGS = "wadkit_face_flags"    # face attribute: engine face flags


def _tile_transform(tiles, i: int):
    """(location in Blender space, rotation about z) of tile i.
    tiles: lvl.tiles, a table of arrays (position (N,3) file space,
    rotation (N,) 0..4095, model (N,) ...)."""
    pos = np.asarray(tiles.position[i], np.float32)
    return convert.to_blender(pos)[0], convert.rotation_angle(int(tiles.rotation[i]))


def _to_local(world: np.ndarray, loc: np.ndarray, angle: float) -> np.ndarray:
    """Inverse of the object transform (rotation about z by angle, then loc)."""
    c, s = math.cos(angle), math.sin(angle)
    d = world - loc
    out = np.empty_like(d)
    out[:, 0] = c * d[:, 0] + s * d[:, 1]
    out[:, 1] = -s * d[:, 0] + c * d[:, 1]
    out[:, 2] = d[:, 2]
    return out


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
               merge: str = "TILE"):
    """Build the level into a new collection linked to the scene.
    merge: "TILE" (one object per tile) or "ZONE" (one per zone).
    Returns the collection. On any exception nothing stays behind."""
    created = Created()
    try:
        return _import(context, lvl, created, name, collision, objects,
                       vertex_colors, merge)
    except BaseException:
        created.rollback()
        raise


def _import(context, lvl, created, name, collision, objects, vertex_colors, merge):
    path = getattr(lvl, "path", None)
    name = name or (os.path.splitext(os.path.basename(path))[0] if path else "level")
    wm = lvl.world_mesh(space="file")
    tiles = lvl.tiles
    ntiles = len(tiles.model)
    tri_all = np.asarray(wm["triangles"])
    keep = drop_degenerate(tri_all)
    pos_b = convert.to_blender(wm["positions"])
    uv_b = convert.flip_v(wm["uv"])
    color = np.asarray(wm["color"], np.float32)
    # the second colour set, for the tiles that have one
    sets = np.asarray(getattr(tiles, "color_sets", np.zeros(ntiles)), np.int32)
    color2 = None
    if vertex_colors and (sets >= 2).any():
        color2 = np.asarray(lvl.world_mesh(space="file", color_set=1)["color"], np.float32)
    texture = np.asarray(wm["texture"], np.int32)
    flags = np.asarray(wm["face_flags"], np.int32)
    tile_of = np.asarray(wm["tile"], np.int32)
    mats = _Materials(created, name, lvl, vertex_colors)

    if merge == "ZONE":
        zone_of_tile = _tile_zones(lvl, ntiles)
        group_key = zone_of_tile[np.clip(tile_of[keep], 0, len(zone_of_tile) - 1)]
    else:
        group_key = tile_of[keep]
    # every texture index used -> a material (made once), faces -> material ids
    tex_used, tex_inv = np.unique(texture, return_inverse=True)
    mat_of_tex = np.array([mats.material_id(int(t)) for t in tex_used], np.int32)
    mat_of_face = mat_of_tex[tex_inv] if len(texture) else np.zeros(0, np.int32)
    groups = list(split_by(tri_all[keep], group_key))
    prog = Progress(context, len(groups) + (len(lvl.objects) if objects else 0))
    level_objs, n = [], 0
    try:
        for g, sel in groups:
            idx = keep[sel]
            tri = tri_all[idx]
            if merge == "TILE":
                # world_mesh() numbers each tile's vertices as one run: the
                # run is the tile's mesh (cheaper than np.unique per tile)
                lo = int(tri.min())
                used = np.arange(lo, int(tri.max()) + 1)
                inv = tri - lo
            else:
                used, inv = np.unique(tri, return_inverse=True)
            if merge == "TILE" and 0 <= g < ntiles:
                loc, ang = _tile_transform(tiles, g)
            else:
                loc, ang = np.zeros(3, np.float32), 0.0
            local = _to_local(pos_b[used], loc, ang)
            # material slots: the distinct materials of this object's faces
            mat_ids = mat_of_face[idx]
            used_mats, slots = np.unique(mat_ids, return_inverse=True)
            mat_list = [mats.by_index[int(k)] for k in used_mats]
            cols = {}
            if vertex_colors:
                cols[materials.COLOR_ATTR] = color[idx]
                if color2 is not None and merge == "TILE" and 0 <= g < ntiles \
                        and sets[g] >= 2:
                    cols[materials.COLOR2_ATTR] = color2[idx]
            label = f"{name} {'tile' if merge == 'TILE' else 'zone'} {g}"
            me = build_mesh(label, local, inv.reshape(-1, 3).astype(np.int32),
                            uv=uv_b[idx], colors=cols,
                            material_index=slots.astype(np.int32),
                            face_int={ATTR_TEXTURE: texture[idx], ATTR_FLAGS: flags[idx]}
                            if merge == "TILE" else
                            {ATTR_TEXTURE: texture[idx], ATTR_FLAGS: flags[idx],
                             "wadkit_tile": tile_of[idx]})
            for m in mat_list:
                me.materials.append(m)
            ob = created.mesh_object(label, me)
            ob.location = tuple(float(v) for v in loc)
            ob.rotation_euler = (0.0, 0.0, ang)
            if merge == "TILE" and 0 <= g < ntiles:
                ob[PROP_TILE] = g
                ob[PROP_MODEL] = int(tiles.model[g])
                ob[PROP_ROTATION] = int(tiles.rotation[g])
            level_objs.append(ob)
            n += 1
            prog.update(n)
        obj_objs = _import_objects(lvl, created, name, prog, n) if objects else []
        coll_objs = _import_collision(lvl, created, name, tiles, ntiles) \
            if collision else []
    finally:
        prog.end()

    # link everything at the end
    root = created.add("collections", bpy.data.collections.new(name))
    root[PROP_SOURCE] = path or ""
    root[PROP_FORMAT] = "eng"
    for ob in level_objs:
        root.objects.link(ob)
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
    out = grid[z, x].astype(np.int32)
    return out if len(out) else np.zeros(1, np.int32)


def _import_objects(lvl, created, name, prog, n):
    """STPC models, laid out in a row along +x beside the level (they have no
    place of their own in the level file)."""
    out, x = [], 0.0
    for i, m in enumerate(lvl.objects):
        tri = np.asarray(m.triangles)
        keep = drop_degenerate(tri)
        pos = convert.to_blender(m.positions)
        me = build_mesh(f"{name} object {i}", pos, tri[keep].astype(np.int32))
        ob = created.mesh_object(f"{name} object {i}", me)
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
        n += 1
        prog.update(n)
    return out


def _import_collision(lvl, created, name, tiles, ntiles):
    """Collision polygons, one object per tile (the tile model's decoded
    records, tile-local, placed by the tile transform like the render tile),
    one coloured material per ground material; type, group, material and
    polygon number (over groups A+B+C) kept as face attributes."""
    out, cmats = [], {}
    models = lvl.models
    decoded: dict[int, dict] = {}
    for i in range(ntiles):
        mi = int(tiles.model[i])
        if mi not in decoded:
            decoded[mi] = models[mi].collision
        c = decoded[mi]
        n = len(c["n_corners"])
        if n == 0:
            continue
        sizes = np.asarray(c["n_corners"], np.int32)
        corners = np.asarray(c["corners"], np.float32)          # (P,4,3) file space
        sel = (np.arange(4)[None, :] < sizes[:, None])
        pos = convert.to_blender(corners[sel])
        mat = np.asarray(c["material"], np.int32)
        used, slots = np.unique(mat, return_inverse=True)
        for mm in used:
            mm = int(mm)
            if mm not in cmats:
                cmats[mm] = created.add("materials", materials.collision_material(
                    f"{name} ground {mm:02x}", mm))
        me = build_mesh(f"{name} collision {i}", pos, np.arange(len(pos), dtype=np.int32),
                        face_sizes=sizes, material_index=slots.astype(np.int32),
                        face_int={"wadkit_type": c["type"], "wadkit_group": c["group"],
                                  "wadkit_material": mat,
                                  "wadkit_polygon": np.arange(n, dtype=np.int32),
                                  "wadkit_tile": np.full(n, i, np.int32)})
        for mm in used:
            me.materials.append(cmats[int(mm)])
        ob = created.mesh_object(f"{name} collision {i}", me)
        loc, ang = _tile_transform(tiles, i)
        ob.location = tuple(float(v) for v in loc)
        ob.rotation_euler = (0.0, 0.0, ang)
        ob.hide_render = True
        ob.display_type = "WIRE"
        ob[PROP_COLLISION_TILE] = i
        out.append(ob)
    return out
