"""ENG collision objects made on demand (View3D sidebar > wadkit >
Tiles and collision > Build collision, or Object > Build ENG collision;
`bpy.ops.wadkit.eng_build_collision`).

The import makes no collision objects unless asked (import_collision):
the level's collision stays in the level and is written back as it is, a
moved, turned, copied or deleted tile taking its model's collision along
(it is kept per model, in tile space). Building makes for the chosen tile
objects exactly what the import makes with import_collision=True: a child
object per tile, in tile space, one mesh per model (shared with the other
children of that model already in the scene), the ground materials, in
the level's Collision collection, which is then shown. In a per-zone
import the operator makes tile objects of the chosen zone tiles first
(zone_tiles.py). From then on an
edit of those children is exported as a collision edit (export_plan.py);
a tile whose child was made and then deleted is reported by the export.
docs/blender.md, "Collision"."""
from __future__ import annotations

import bpy
import numpy as np

import wadkit

from . import edit_track
from .build import Created, layer_collection, new_ids
from .export_eng import _Scan, level_collection
from .export_tiles import is_collision
from .import_collision import (PROP_COLLISION, PROP_MARKS, child_name, collision_meshes,
                               setup_children)
from .import_eng import PROP_MERGE, PROP_SOURCE
from .import_tiles import PROP_TILE
from .operators import LevelEdit, eng_level_in_scene
from .zone_tiles import TilesError, chosen_tiles, make_tile_objects, zone_tiles


class BuildError(ValueError):
    """The level collection cannot get collision objects (why in the text)."""


def _collision_collection(root, created):
    """The level's Collision collection, made (as the import makes it, not
    linked yet) when there is none."""
    for c in root.children:
        if c.name.endswith(" Collision"):
            return c
    sub = created.add("collections", bpy.data.collections.new(f"{root.name} Collision"))
    sub.hide_render = True
    return sub


def _show(context, sub) -> None:
    """The Collision collection in the view layer (not excluded)."""
    lc = layer_collection(context.view_layer.layer_collection, sub)
    if lc is not None:
        lc.exclude = False


def build_collision(context, root, tile_obs=None, notes: list | None = None,
                    show: bool = True) -> list:
    """Make the collision child of every tile object of the level
    collection root in tile_obs (None: every tile object of root) that has
    none. show: the Collision collection is put into the view layer.
    notes gets the import's warnings (records without a shape). Returns
    the children made; nothing is left behind on an error."""
    path = root.get(PROP_SOURCE)
    if not path:
        raise BuildError(f"{root.name}: the level collection does not say which file "
                         "it came from")
    lvl = wadkit.eng.open(path)
    notes = [] if notes is None else notes
    scan = _Scan(root, len(lvl.tiles))
    if root.get(PROP_MERGE) == "ZONE" and not scan.tiles:
        raise BuildError(f"{root.name}: a per-zone import has no tile objects to give "
                         "collision; make tile objects of the tiles first (Tiles > Make "
                         "tile objects)")
    mesh_of = {}            # model -> the mesh its children in the level show
    for ch in (c for cs in scan.children.values() for c in cs):
        m = ch.get(PROP_COLLISION)
        if isinstance(m, int):
            mesh_of.setdefault(m, ch.data)
    chosen = None if tile_obs is None else {ob.as_pointer() for ob in tile_obs}
    tile_model = np.asarray(lvl.tiles.model, np.int64)
    tiles, models = [], []
    for ob, t in zip(scan.tiles, scan.tile_numbers):
        p = ob.as_pointer()
        if p not in scan.children and (chosen is None or p in chosen):
            tiles.append(ob)
            models.append(int(tile_model[t]))
    created = Created()
    try:
        missing = sorted(set(models) - set(mesh_of))
        if missing:
            ground = {m["wadkit_collision_material"]: m for m in bpy.data.materials
                      if m.name.startswith(f"{root.name} ground ")
                      and isinstance(m.get("wadkit_collision_material"), int)}
            made, rec = collision_meshes(
                lvl, created, root.name, missing, notes,
                lambda m: np.flatnonzero(tile_model == m).tolist(), ground)
            mesh_of.update(made)
        else:
            rec = None
        pick = [k for k, m in enumerate(models) if m in mesh_of]
        parents = [tiles[k] for k in pick]
        cmodel = [models[k] for k in pick]
        children = created.add_all("objects", new_ids(
            bpy.data.objects, [child_name(ob.name) for ob in parents],
            [mesh_of[m] for m in cmodel]))
        if children:
            sub = _collision_collection(root, created)
            if sub.name in root.children:
                # linked one by one into a collection of the scene, each object
                # resyncs the view layers (quadratic): out, link, back in
                root.children.unlink(sub)
            for ch in children:
                sub.objects.link(ch)
            root.children.link(sub)
            setup_children(children, parents, cmodel)
            if show:
                _show(context, sub)
    except BaseException:
        created.rollback()
        raise
    root[PROP_MARKS] = 1
    session = edit_track.session_for(root, path)
    if session is not None and rec is not None:
        edit_track.adopt(context, session, rec)    # the export trusts them as made
    return children


class WADKIT_OT_eng_build_collision(LevelEdit, bpy.types.Operator):
    """Make the collision objects of the selected tiles of the level (every tile when no tile is selected; in a per-zone import the tiles of the selected zone objects or faces become tile objects first): a child per tile, shown in the level's Collision collection, editable and exported"""  # noqa: E501
    bl_idname = "wadkit.eng_build_collision"
    bl_label = "Build collision"
    bl_options = {"REGISTER", "UNDO"}
    refusals = (BuildError, TilesError)

    def act(self, context, notes) -> str:
        root = level_collection(context)
        picked = [ob for ob in getattr(context, "selected_objects", ())
                  if PROP_TILE in ob and not is_collision(ob)]
        everything, made_tiles = not picked, []
        if root.get(PROP_MERGE) == "ZONE":
            # a per-zone import: the chosen zone tiles become tile objects
            # first (their collision objects are the tiles' children)
            tiles = chosen_tiles(context)
            everything = not tiles and not picked
            if everything:
                tiles = zone_tiles(root)
            if tiles:
                made_tiles = make_tile_objects(context, root, tiles)
                context.view_layer.update()
        chosen = picked + made_tiles
        made = build_collision(context, root, None if everything else chosen, notes)
        which = "every tile" if everything else f"{len(chosen)} selected tile(s)"
        tiles_made = f"{len(made_tiles)} tile object(s) and " if made_tiles else ""
        return (f"{root.name}: {tiles_made}{len(made)} collision object(s) made for "
                f"{which} (tiles whose model has no collision get none)")


class WADKIT_PT_collision(bpy.types.Panel):
    bl_label = "Tiles and collision"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "wadkit"

    @classmethod
    def poll(cls, context):
        return eng_level_in_scene(context)

    def draw(self, context):
        self.layout.operator("wadkit.eng_make_tiles")
        self.layout.operator(WADKIT_OT_eng_build_collision.bl_idname)


def _menu_object(self, context):
    """Object menu entry, shown only while an imported ENG level is in the
    scene (like the export entries)."""
    if eng_level_in_scene(context):
        self.layout.operator("wadkit.eng_make_tiles", text="Make ENG tile objects")
        self.layout.operator(WADKIT_OT_eng_build_collision.bl_idname,
                             text="Build ENG collision")


CLASSES = [WADKIT_OT_eng_build_collision, WADKIT_PT_collision]


def register_menus():
    bpy.types.VIEW3D_MT_object.append(_menu_object)


def unregister_menus():
    bpy.types.VIEW3D_MT_object.remove(_menu_object)
