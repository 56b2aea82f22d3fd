"""wadkit for Blender: File > Import/Export of ENG (The Emperor's New Groove,
Croc-2 engine) levels, File > Import of RC2 (Ratchet & Clank 2) terrain, and
floor tools. Thin: all parsing and writing is done by the wadkit package
(its C extension); this add-on turns its NumPy arrays into Blender data.

Works as a legacy add-on (bl_info, Blender 3.6+; wadkit must be importable
in Blender's Python) and as a Blender 4.2+ extension (blender_manifest.toml,
wadkit bundled as a wheel)."""

bl_info = {
    "name": "wadkit: Croc-engine / Ratchet & Clank 2 levels",
    "author": "wadkit",
    "version": (0, 1, 0),
    "blender": (3, 6, 0),
    "location": "File > Import / Export, View3D > Sidebar > wadkit",
    "description": "Import and export Emperor's New Groove (Croc-2 engine) "
                   "level WADs; import Ratchet & Clank 2 terrain",
    "category": "Import-Export",
}

if "bpy" in locals():      # F8 / script reload: reload the submodules
    import importlib
    for _m in ("convert", "build", "mesh_build", "materials", "edit_track", "import_eng",
               "export_eng", "import_rc2", "operators", "floor_tools",
               "collision_build", "zone_tiles"):
        if _m in locals():
            importlib.reload(locals()[_m])

import bpy  # noqa: E402

from . import (collision_build, edit_track, materials, operators, floor_tools,  # noqa: E402
               zone_tiles)

_classes = operators.CLASSES + floor_tools.CLASSES + zone_tiles.CLASSES + collision_build.CLASSES


def _clear_caches():
    """The module-level caches hold bpy data of one file (template
    materials) and mapped level files (floor tools)."""
    materials.clear_cache()
    floor_tools.clear_cache()
    edit_track.clear()


@bpy.app.handlers.persistent
def _on_load_post(*_args):
    _clear_caches()


def register():
    for c in _classes:
        bpy.utils.register_class(c)
    operators.register_menus()
    collision_build.register_menus()
    floor_tools.register_props()
    bpy.app.handlers.load_post.append(_on_load_post)
    edit_track.register()


def unregister():
    edit_track.unregister()
    if _on_load_post in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.remove(_on_load_post)
    _clear_caches()
    floor_tools.unregister_props()
    collision_build.unregister_menus()
    operators.unregister_menus()
    for c in reversed(_classes):
        bpy.utils.unregister_class(c)
