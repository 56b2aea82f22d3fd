"""The floor tools panel's operators on the small generated level."""
import bpy
import numpy as np
import pytest

import levels


@pytest.fixture
def small(tmp_path):
    p = tmp_path / "small.wad"
    p.write_bytes(levels.small_level())
    return str(p)


def selected(ob):
    sel = np.empty(len(ob.data.polygons), bool)
    ob.data.polygons.foreach_get("select", sel)
    return sel.tolist()


def test_floor_at_cursor(scene, small):
    bpy.ops.import_scene.wadkit_eng(filepath=small, merge="TILE")
    # Blender (0.25, -0.25, 1) = file (0.25, 1, 0.25): above tile 0, where the
    # material-3 triangle at height 0.25 is the floor (the water quad under
    # it, material 0x11, is skipped by the engine's rule)
    scene.cursor.location = (0.25, -0.25, 1.0)
    assert bpy.ops.wadkit.floor_at_cursor() == {"FINISHED"}
    assert bpy.context.window_manager.wadkit_floor_result == \
        "height 0.2500, small tile 0, polygon 1, material 0x03"
    # that face of the tile's collision mesh (model 0's, shared with tile 2)
    c0 = bpy.data.objects["small tile 0 collision"]
    assert selected(c0) == [False, True]
    scene.cursor.location = (5.0, 5.0, 1.0)       # outside the grid
    assert bpy.ops.wadkit.floor_at_cursor() == {"FINISHED"}
    assert bpy.context.window_manager.wadkit_floor_result == "no floor below the cursor"


def test_select_needles(scene, small):
    bpy.ops.import_scene.wadkit_eng(filepath=small, import_collision=True)
    import wadkit
    assert wadkit.eng.open(small).needles() == []
    assert bpy.ops.wadkit.select_needles() == {"FINISHED"}
    assert bpy.context.window_manager.wadkit_floor_result == "0 needle polygons (0 faces)"
    assert not any(selected(bpy.data.objects["small tile 0 collision"]))


def test_floor_tools_make_only_the_collision_they_select(scene, small):
    """Collision on demand (the default import): no needle, no object made;
    the floor at the cursor makes the collision object of its tile only."""
    bpy.ops.import_scene.wadkit_eng(filepath=small, merge="TILE")
    assert bpy.ops.wadkit.select_needles() == {"FINISHED"}
    assert not [o for o in bpy.data.objects if "wadkit_collision" in o]
    scene.cursor.location = (0.25, -0.25, 1.0)
    assert bpy.ops.wadkit.floor_at_cursor() == {"FINISHED"}
    assert [o.name for o in bpy.data.objects if "wadkit_collision" in o] == \
        ["small tile 0 collision"]
    assert selected(bpy.data.objects["small tile 0 collision"]) == [False, True]


def test_select_needles_selects_the_needle(scene, tmp_path):
    p = tmp_path / "needle.wad"
    p.write_bytes(levels.needle_level())
    import wadkit
    assert [(n.tile, n.polygon) for n in wadkit.eng.open(str(p)).needles()] == [(0, 0)]
    bpy.ops.import_scene.wadkit_eng(filepath=str(p), merge="TILE")      # collision on demand
    assert "needle tile 0 collision" not in bpy.data.objects
    assert bpy.ops.wadkit.select_needles() == {"FINISHED"}     # makes the tile's
    ob = bpy.data.objects["needle tile 0 collision"]
    assert [len(f.vertices) for f in ob.data.polygons] == [3, 4]
    assert bpy.context.window_manager.wadkit_floor_result == "1 needle polygons (1 faces)"
    assert selected(ob) == [True, False]


def test_floor_without_level_is_a_report(scene):
    with pytest.raises(RuntimeError, match="no imported ENG level"):
        bpy.ops.wadkit.floor_at_cursor()


def test_floor_tools_on_a_per_zone_import_report_and_change_nothing(scene, small):
    """Per zone (the default import) the tile is named and no tile or
    collision object is made: the scene is left as it is."""
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    before = sorted(o.name for o in bpy.data.objects)
    assert all("wadkit_zone" in o for o in bpy.data.collections["small"].objects)
    scene.cursor.location = (0.25, -0.25, 1.0)
    assert bpy.ops.wadkit.floor_at_cursor() == {"FINISHED"}
    result = bpy.context.window_manager.wadkit_floor_result
    assert result.startswith("height 0.2500, ") and "tile 0, polygon 1, material 0x03" in result
    assert bpy.ops.wadkit.select_needles() == {"FINISHED"}
    assert sorted(o.name for o in bpy.data.objects) == before


def test_the_panel_shows_the_result_one_part_a_line(scene, small):
    """The sidebar is narrow and a label does not wrap: each part of the
    result on a line of its own, under the two buttons."""
    from blender_addon import floor_tools

    class Col:
        def __init__(self):
            self.ops, self.labels = [], []

        def operator(self, idname, **_kw):
            self.ops.append(idname)

        def label(self, text=""):
            self.labels.append(text)

    class Layout:
        def __init__(self):
            self.col = Col()

        def column(self):
            return self.col

    bpy.ops.import_scene.wadkit_eng(filepath=small, merge="TILE")
    scene.cursor.location = (0.25, -0.25, 1.0)
    assert bpy.ops.wadkit.floor_at_cursor() == {"FINISHED"}

    class Panel:
        layout = Layout()

    floor_tools.WADKIT_PT_floor.draw(Panel(), bpy.context)
    assert Panel.layout.col.ops == ["wadkit.floor_at_cursor", "wadkit.select_needles"]
    assert Panel.layout.col.labels == ["height 0.2500", "small tile 0", "polygon 1",
                                       "material 0x03"]
