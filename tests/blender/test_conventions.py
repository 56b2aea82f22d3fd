"""Blender's conventions for an add-on: operators that change data have
UNDO and a poll, tools are offered only where they can work, nothing
transient is saved into the .blend, module caches do not outlive the file
they belong to, no deprecated API (Blender 5.0's use_nodes), and a .wad
dropped on the 3D view imports (FileHandler, 4.1+). Run in every Blender
of `make test-blender`."""
import warnings

import bpy
import pytest

import levels
from blender_addon import floor_tools, materials, operators

pytestmark = pytest.mark.every_blender


def test_floor_tools_have_undo_and_a_poll(scene, small):
    ops = (floor_tools.WADKIT_OT_floor_at_cursor, floor_tools.WADKIT_OT_select_needles)
    for op in ops:
        assert {"REGISTER", "UNDO"} <= op.bl_options, op
    assert not floor_tools.WADKIT_PT_floor.poll(bpy.context)
    assert not bpy.ops.wadkit.floor_at_cursor.poll()
    assert not bpy.ops.wadkit.select_needles.poll()
    assert not bpy.ops.export_scene.wadkit_eng.poll()
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    assert floor_tools.WADKIT_PT_floor.poll(bpy.context)
    assert bpy.ops.wadkit.floor_at_cursor.poll()
    assert bpy.ops.wadkit.select_needles.poll()
    assert bpy.ops.export_scene.wadkit_eng.poll()


def test_export_menu_entries_only_with_their_level(scene, small, tmp_path):
    class Layout:
        def __init__(self):
            self.ops = []

        def operator(self, idname, text=""):
            self.ops.append(idname)

    class Menu:
        layout = None
    menu = Menu()
    menu.layout = Layout()
    operators._menu_export(menu, bpy.context)
    assert menu.layout.ops == []
    bpy.ops.import_scene.wadkit_rc2(filepath=_rc2_sample(tmp_path))
    operators._menu_export(menu, bpy.context)
    assert menu.layout.ops == ["export_scene.wadkit_rc2"]   # only the RC2 entry
    menu.layout = Layout()
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    operators._menu_export(menu, bpy.context)
    assert menu.layout.ops == ["export_scene.wadkit_eng", "export_scene.wadkit_rc2"]


def _rc2_sample(tmp_path):
    import wadkit.samples
    p = tmp_path / "rc2.wad"
    p.write_bytes(wadkit.samples.rc2_bytes(0))
    return str(p)


def test_floor_result_is_not_saved_in_the_blend(scene, small, tmp_path):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    scene.cursor.location = (0.25, -0.25, 1.0)
    assert bpy.ops.wadkit.floor_at_cursor() == {"FINISHED"}
    wm = bpy.context.window_manager
    assert wm.wadkit_floor_result.startswith("height 0.2500")
    assert not hasattr(scene, "wadkit_floor")
    blend = tmp_path / "saved.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend))
    bpy.ops.wm.open_mainfile(filepath=str(blend))
    assert bpy.context.window_manager.wadkit_floor_result == ""
    assert not any(k.startswith("wadkit") for k in bpy.context.scene.keys())


def test_caches_cleared_on_load_post_and_unregister(scene, small, addon):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    scene.cursor.location = (0.25, -0.25, 1.0)
    bpy.ops.wadkit.floor_at_cursor()
    assert materials._templates and floor_tools._levels
    bpy.ops.wm.read_factory_settings(use_empty=True)       # fires load_post
    assert not materials._templates and not floor_tools._levels
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    assert materials._templates
    addon.unregister()
    try:
        assert not materials._templates and not floor_tools._levels
        assert addon._on_load_post not in bpy.app.handlers.load_post
        assert not hasattr(bpy.types.WindowManager, "wadkit_floor_result")
    finally:
        addon.register()
    assert bpy.app.handlers.load_post.count(addon._on_load_post) == 1


def test_import_uses_no_deprecated_api(scene, small):
    """Blender 5.0 deprecates Material.use_nodes (a new material has its
    node tree); the import must not touch it there."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        assert bpy.ops.import_scene.wadkit_eng(filepath=small) == {"FINISHED"}
    assert [str(w.message) for w in caught if w.category is DeprecationWarning] == []
    for mat in bpy.data.materials:
        assert any(n.type == "BSDF_PRINCIPLED" for n in mat.node_tree.nodes), mat.name


@pytest.mark.skipif(bpy.app.version < (4, 1, 0), reason="FileHandler is Blender 4.1+")
def test_file_handlers_import_dropped_files(scene, small, tmp_path):
    handlers = {c.bl_idname: c for c in operators.CLASSES
                if issubclass(c, bpy.types.FileHandler)}
    assert set(handlers) == {"WADKIT_FH_eng", "WADKIT_FH_rc2"}
    for h in handlers.values():
        assert ".wad" in h.bl_file_extensions.split(";")
        mod, name = h.bl_import_operator.split(".")
        assert getattr(getattr(bpy.ops, mod), name).idname()   # registered
        assert getattr(bpy.types, h.bl_idname, None) is not None
    # a drop of two files: the operator gets directory + files
    other = tmp_path / "other.wad"
    other.write_bytes(levels.small_level())
    assert bpy.ops.import_scene.wadkit_eng(
        directory=str(tmp_path), files=[{"name": "small.wad"}, {"name": "other.wad"}]) \
        == {"FINISHED"}
    assert {"small", "other"} <= {c.name for c in bpy.data.collections}
