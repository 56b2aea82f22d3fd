"""ENG level -> Blender scene. Reads only the documented wadkit arrays
(lvl.models, lvl.tiles, lvl.world_mesh(), lvl.collision_polygons(),
lvl.zones, lvl.pages, lvl.textures, lvl.objects); never bytes. All data is
built first and linked to the scene at the end.

The scene keeps the level's structure (import_tiles.py): a tile object per
tile, placed by the tile, holding its model's mesh in tile space (shared
by the tiles of one model and colours), and the model's collision as a
child object (import_collision.py). merge="ZONE" gives one world-space
mesh per zone instead (import_zones.py)."""
from __future__ import annotations

import os

import bpy
import numpy as np

from . import edit_track, materials
from .build import Created, Progress, new_ids
from .import_collision import (PROP_MARKS, child_name, child_tiles, collision_meshes,
                               setup_children)
from .import_eng_objects import import_objects
from .eng_materials import PROP_PAGE
from .export_base import base_cache
from .edit_track import MeshRecord
from .import_tiles import (ATTR_FLAGS, ATTR_TEXTURE, PROP_COLOR_TILE, PROP_MODEL, TileLayout,
                           mesh_names, place_objects, tile_mesh_arrays)
from .import_zones import ATTR_TILE, ATTR_VERTEX, PROP_ZONE, zone_mesh_arrays
from .materials_map import PROP_ENTRIES
from .mesh_build import build_meshes

PROP_SOURCE = "wadkit_source"       # level collection: the source path
PROP_FORMAT = "wadkit_format"       # "eng" / "rc2"
PROP_MERGE = "wadkit_merge"         # level collection: "TILE" / "ZONE"


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


class LevelMaterials:
    """Images and materials made on demand, one per page / TexKey. Each
    material records the texture entries it stands for (PROP_ENTRIES)."""

    def __init__(self, created: Created, level_name: str, lvl, vertex_colors: bool):
        self.created, self.level = created, level_name
        self.source = getattr(lvl, "path", None) or ""
        self.pages = _pages(lvl)
        self.table = _texture_table(lvl)
        self.vertex_colors = vertex_colors
        self.images: dict[int, object] = {}
        self.by_key: dict[materials.TexKey, int] = {}
        self.by_index: list = []
        self.entries: dict[materials.TexKey, list[int]] = {}
        if self.table is not None:
            for e in range(len(self.table["page"])):
                self.entries.setdefault(materials.texture_key(self.table, e), []).append(e)

    def adopt(self, mats) -> None:
        """Use the level's materials already in the file (those an import
        made: PROP_ENTRIES) for their keys instead of making new ones."""
        for mat in mats:
            entries = mat.get(PROP_ENTRIES) if mat is not None else None
            if entries and self.table is not None:
                k = self.key(int(entries[0]))
                if k not in self.by_key:
                    self.by_key[k] = len(self.by_index)
                    self.by_index.append(mat)

    def key(self, texture: int) -> materials.TexKey:
        t = self.table
        if t is not None and 0 <= texture < len(t["page"]):
            return materials.texture_key(t, texture)
        return materials.TexKey(-1, 0, (255, 255, 255))   # no texture: white

    def image(self, page: int):
        if page not in self.images:
            rgba = self.pages[page].rgba
            img = self.created.add("images", materials.make_image(
                f"{self.level} page {page:02d}", rgba))
            img[PROP_PAGE] = page                  # the export writes paint back
            img[PROP_SOURCE] = self.source
            self.images[page] = img
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
            # a page the level lacks: drawn white (a flat colour)
            shown = k if img is not None or k.flat is not None else k._replace(
                flat=(255, 255, 255))
            mat = self.created.add("materials", materials.make_material(
                name, shown, img, self.vertex_colors))
            mat[PROP_ENTRIES] = self.entries.get(k, [])
            self.by_index.append(mat)
        return self.by_key[k]

    def of_textures(self, texture: np.ndarray) -> np.ndarray:
        """Material number of every face's texture entry (each made once)."""
        texture = np.asarray(texture, np.int64)
        if not len(texture):
            return np.zeros(0, np.int64)
        lo = int(texture.min())
        used = np.flatnonzero(np.bincount(texture - lo))
        lut = np.zeros(int(used[-1]) + 1, np.int64)
        lut[used] = [self.material_id(int(t) + lo) for t in used]
        return lut[texture - lo]


def default_merge(collision: bool) -> str:
    """The import's objects when none are asked for: one per zone (the
    fastest import: Blender's cost is per object; tiles become objects on
    demand, zone_tiles.py), one per tile when collision objects are asked
    for, since they are the tile objects' children."""
    return "TILE" if collision else "ZONE"


def import_eng(context, lvl, *, name: str | None = None, collision: bool = False,
               objects: bool = True, vertex_colors: bool = True,
               merge: str | None = None, notes: list | None = None,
               show_collision: bool = False):
    """Build the level into a new collection linked to the scene.
    merge: "TILE" (one object per tile, collision as its child) or "ZONE"
    (one object per zone, no collision); None: default_merge(). collision: make the collision
    children now; else they are made on demand (collision_build.py) and
    the level's collision is written back as it is. show_collision: made
    now and the Collision collection in the view layer (else excluded
    until ticked). notes: a list the import's warnings are appended to.
    Returns the collection. On any exception nothing stays behind."""
    created = Created()
    collision = collision or show_collision       # asked to be shown: made now
    merge = merge or default_merge(collision)
    try:
        return _import(context, lvl, created, name, collision, objects,
                       vertex_colors, merge, notes if notes is not None else [],
                       show_collision)
    except BaseException:
        created.rollback()
        raise


def _import(context, lvl, created, name, collision, objects, vertex_colors, merge, notes,
            show_collision):
    path = getattr(lvl, "path", None)
    name = name or (os.path.splitext(os.path.basename(path))[0] if path else "level")
    prog = Progress(context, 4)
    wm = lvl.world_mesh(space="file")
    models = lvl.models
    mats = LevelMaterials(created, name, lvl, vertex_colors)
    new_object = bpy.data.objects.new
    coll_obs = []
    if merge == "ZONE":
        zones, arr, slots = zone_mesh_arrays(lvl, wm, models, mats.of_textures, vertex_colors)
        labels = [f"{name} zone {int(z)}" for z in zones]
        prog.update(1)
        meshes = build_meshes(labels, arr, [[mats.by_index[k] for k in s] for s in slots],
                              created)
        level_obs = []
        for label, me, z in zip(labels, meshes, zones.tolist()):
            ob = created.add("objects", new_object(label, me))
            ob[PROP_ZONE] = z
            level_obs.append(ob)
        # the export trusts the zone meshes Blender reports no change of
        zrec = MeshRecord.of_arrays(
            meshes, np.zeros((len(meshes), 0), np.int64), arr,
            np.full(len(meshes), materials.COLOR_ATTR in arr.point_colors),
            names=(materials.COLOR_ATTR, ATTR_TEXTURE, ATTR_FLAGS, ATTR_TILE, ATTR_VERTEX))
        if collision:
            notes.append("a per-zone import shows no collision; the level's collision "
                         "is written back as it is")
        prog.update(3)
    else:
        tiles = lvl.tiles
        layout = TileLayout(lvl, wm, models, vertex_colors)
        arr, slots = tile_mesh_arrays(layout, models, wm, vertex_colors, mats.of_textures)
        prog.update(1)
        meshes = build_meshes(mesh_names(name, layout), arr,
                              [[mats.by_index[k] for k in s] for s in slots], created)
        for me, m, r in zip(meshes, layout.model.tolist(), layout.rep.tolist()):
            me[PROP_MODEL] = m
            me[PROP_COLOR_TILE] = r
        prog.update(2)
        tmodel = np.asarray(tiles.model, np.int64)
        cmeshes, crec = {}, None
        if collision:
            cmeshes, crec = collision_meshes(lvl, created, name, np.unique(tmodel), notes,
                                       lambda m: np.flatnonzero(tmodel == m).tolist())
        # tile objects and collision children made in one go (build.new_ids)
        tile_names = [f"{name} tile {t}" for t in range(len(tmodel))]
        with_child = child_tiles(tmodel, cmeshes)
        cmodel = tmodel[with_child].tolist()
        obs = created.add_all("objects", new_ids(
            bpy.data.objects, tile_names + [child_name(tile_names[t]) for t in with_child],
            [meshes[g] for g in layout.group.tolist()] + [cmeshes[m] for m in cmodel]))
        level_obs, coll_obs = obs[:len(tile_names)], obs[len(tile_names):]
        place_objects(level_obs, tiles)
        setup_children(coll_obs, [level_obs[t] for t in with_child], cmodel)
        trec = MeshRecord.of_arrays(
            meshes, np.stack([layout.model, layout.rep], axis=1), arr,
            np.full(len(meshes), materials.COLOR_ATTR in arr.point_colors),
            names=(materials.COLOR_ATTR, materials.COLOR2_ATTR, ATTR_TEXTURE, ATTR_FLAGS))
        prog.update(3)
    obj_obs = import_objects(context, lvl, created, name, mats, notes) if objects else []
    prog.update(4)
    prog.end()

    # link everything at the end
    root = created.add("collections", bpy.data.collections.new(name))
    root[PROP_SOURCE] = path or ""
    root[PROP_FORMAT] = "eng"
    root[PROP_MERGE] = merge
    if merge != "ZONE":
        root[PROP_MARKS] = 1
    link = root.objects.link
    for ob in level_obs:
        link(ob)
    for label, obs in (("Objects", obj_obs), ("Collision", coll_obs)):
        if obs:
            sub = created.add("collections", bpy.data.collections.new(f"{name} {label}"))
            sub.hide_render = label == "Collision"
            root.children.link(sub)
            for ob in obs:
                sub.objects.link(ob)
    context.scene.collection.children.link(root)
    if coll_obs and not show_collision:
        # not in the view layer until ticked in the outliner: Blender then
        # does not evaluate (nor draw) one more object per tile
        lc = context.view_layer.layer_collection.children[root.name]
        lc.children[f"{name} Collision"].exclude = True
    if path and merge == "ZONE":
        imported = edit_track.Imported(path, None, None, created.of_kind("materials"))
        imported.extra["zones"] = zrec
        imported.extra["eng_base"] = base_cache(lvl, models, wm)
        edit_track.remember(context, root, imported)
    elif path:
        imported = edit_track.Imported(path, trec, crec,
                                       [m for m in created.of_kind("materials")])
        # what the export compares edited meshes with (export_base.Base)
        imported.extra["eng_base"] = base_cache(lvl, models, wm)
        edit_track.remember(context, root, imported)
    return root
