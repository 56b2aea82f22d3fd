"""RC2 tfrag terrain -> one Blender mesh (patch index as a face attribute),
materials from the tfrag textures, vertex colours."""
from __future__ import annotations

import os

import bpy
import numpy as np

import wadkit

from . import convert, materials
from .build import Created, Progress
from .mesh_build import build_mesh, drop_degenerate

def import_rc2(context, lvl, *, lod: int = 0, name: str | None = None,
               vertex_colors: bool = True):
    created = Created()
    try:
        return _import(context, lvl, created, lod, name, vertex_colors)
    except BaseException:
        created.rollback()
        raise


def _import(context, lvl, created, lod, name, vertex_colors):
    path = getattr(lvl, "path", None)
    name = name or (os.path.splitext(os.path.basename(path))[0] if path else "rc2")
    t = lvl.terrain(lod=lod)
    tri = np.asarray(t["triangles"])
    keep = drop_degenerate(tri)
    # RC2 file space is the game's, z-up like Blender (docs/formats/rc2.md):
    # positions are taken as they are
    pos = np.asarray(t["positions"], np.float32)
    tex = np.asarray(t["texture"], np.int32)[keep]
    images = list(getattr(lvl, "tfrag_textures", []) or [])
    prog = Progress(context, len(images) + 1)
    try:
        mat_of, mlist = {}, []
        slots = np.empty(len(keep), np.int32)
        for j, ti in enumerate(tex):
            ti = int(ti)
            if ti not in mat_of:
                img = None
                if 0 <= ti < len(images):
                    img = created.add("images", materials.make_image(
                        f"{name} tfrag {ti:03d}", np.asarray(images[ti])))
                key = materials.TexKey(ti if img else -1, 0, None if img else (255, 255, 255))
                mat_of[ti] = len(mlist)
                mlist.append(created.add("materials", materials.make_material(
                    f"{name} tfrag {ti:03d}", key, img, vertex_colors)))
                prog.update(len(mlist))
            slots[j] = mat_of[ti]
        cols = {materials.COLOR_ATTR: np.asarray(t["color"], np.float32)[keep]} \
            if vertex_colors else {}
        me = build_mesh(f"{name} terrain", pos, tri[keep].astype(np.int32),
                        uv=convert.flip_v(np.asarray(t["uv"])[keep]), colors=cols,
                        material_index=slots,
                        face_int={"wadkit_texture": tex,
                                  "wadkit_patch": np.asarray(t["patch"], np.int32)[keep]})
        for m in mlist:
            me.materials.append(m)
        ob = created.mesh_object(f"{name} terrain", me)
    finally:
        prog.end()
    root = created.add("collections", bpy.data.collections.new(name))
    root["wadkit_source"] = path or ""
    root["wadkit_format"] = "rc2"
    root["wadkit_lod"] = lod
    _settings_props(root, lvl)
    root.objects.link(ob)
    context.scene.collection.children.link(root)
    return root


# level settings the export writes back when they change (export_rc2.py)
SETTINGS_PROPS = {"wadkit_fog_colour": "fog_colour",
                  "wadkit_background_colour": "background_colour",
                  "wadkit_death_height": "death_height"}


def _settings_props(root, lvl) -> None:
    """The level's fog and background colours (s32 r, g, b) and death
    height as custom properties of the level collection."""
    try:
        s = lvl.settings
    except wadkit.WadError:    # a level whose gameplay does not parse: none
        return
    if s is None:
        return
    for prop, field in SETTINGS_PROPS.items():
        v = s[field]
        root[prop] = list(v) if isinstance(v, tuple) else v
