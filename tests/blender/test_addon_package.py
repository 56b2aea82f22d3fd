"""Registration, menu entries, and the two packagings (legacy add-on and
4.2+ extension manifest)."""
import os
import tomllib

import bpy

HERE = os.path.dirname(__file__)
ADDON = os.path.join(HERE, "..", "..", "blender_addon")


def test_operators_registered(addon):
    for op in ("import_scene.wadkit_eng", "export_scene.wadkit_eng",
               "import_scene.wadkit_rc2", "wadkit.floor_at_cursor",
               "wadkit.select_needles", "wadkit.eng_build_collision",
               "wadkit.eng_make_tiles"):
        mod, name = op.split(".")
        assert getattr(getattr(bpy.ops, mod), name).idname() in (
            f"{mod.upper()}_OT_{name}",), op


def test_menu_entries(addon):
    from blender_addon import collision_build, operators
    imp = bpy.types.TOPBAR_MT_file_import._dyn_ui_initialize()
    exp = bpy.types.TOPBAR_MT_file_export._dyn_ui_initialize()
    assert operators._menu_import in imp
    assert operators._menu_export in exp
    assert collision_build._menu_object in bpy.types.VIEW3D_MT_object._dyn_ui_initialize()


def test_manifest_matches_bl_info(addon):
    with open(os.path.join(ADDON, "blender_manifest.toml"), "rb") as f:
        man = tomllib.load(f)
    assert man["schema_version"] == "1.0.0"
    assert man["type"] == "add-on"
    assert man["id"] == "wadkit"
    assert tuple(int(x) for x in man["version"].split(".")) == addon.bl_info["version"]
    assert man["blender_version_min"] == "4.2.0"
    assert addon.bl_info["blender"] == (3, 6, 0)
    assert all(w.startswith("./wheels/wadkit-") and w.endswith(".whl")
               for w in man["wheels"])
    assert man["wheels"]
