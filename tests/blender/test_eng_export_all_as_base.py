"""The export's shortcut for a tile scene found unchanged as a whole
(export_plan.TilePlan._all_as_base): taken for an unchanged scene, and
refused for each kind of object-level edit, whose edit then reaches the
file (the mesh edits: test_edit_track.py, which run through it too)."""
from __future__ import annotations

import bpy
import pytest

from blender_addon import export_plan
from editing import export, load, tile_object

pytestmark = pytest.mark.every_blender


@pytest.fixture
def verdicts(monkeypatch):
    got = []
    orig = export_plan.TilePlan._all_as_base

    def spy(self, *a, **kw):
        got.append(orig(self, *a, **kw))
        return got[-1]

    monkeypatch.setattr(export_plan.TilePlan, "_all_as_base", spy)
    return got


def test_unchanged_scene_takes_the_shortcut(scene, small, tmp_path, verdicts):
    load(small, import_collision=False)
    out = tmp_path / "o.wad"
    how, _ = export(out)
    assert verdicts == [True] and how == "unchanged"
    assert out.read_bytes() == open(small, "rb").read()


def _copy(ob):
    c = ob.copy()
    ob.users_collection[0].objects.link(c)


OBJECT_EDITS = {
    "moved": lambda ob: setattr(ob, "location", ob.location + type(ob.location)((0.5, 0, 0))),
    "turned": lambda ob: setattr(ob, "rotation_euler", (0, 0, ob.rotation_euler[2] + 1.5708)),
    "modifier": lambda ob: ob.modifiers.new("d", "DISPLACE").__setattr__("strength", 0.5),
    "copied": _copy,
    "deleted": lambda ob: bpy.data.objects.remove(ob),
    "vertex co": lambda ob: setattr(ob.data.vertices[0], "co", ob.data.vertices[0].co + type(
        ob.data.vertices[0].co)((0, 0, 0.25))),
    "loop vertex_index": lambda ob: setattr(ob.data.loops[0], "vertex_index",
                                            ob.data.loops[1].vertex_index),
}


@pytest.mark.parametrize("edit", sorted(OBJECT_EDITS))
def test_object_edits_refuse_the_shortcut(scene, small, tmp_path, verdicts, edit):
    load(small, import_collision=False)
    OBJECT_EDITS[edit](tile_object("small", 1))
    bpy.context.view_layer.update()
    out = tmp_path / "o.wad"
    how, _ = export(out)
    assert verdicts == [False]
    assert how != "unchanged"
    assert out.read_bytes() != open(small, "rb").read()


def test_lost_collision_child_refuses_the_shortcut(scene, small, tmp_path, verdicts):
    """A deleted collision child is reported (a note), as without the shortcut."""
    load(small, import_collision=True)
    child = next(c for c in bpy.data.objects if "wadkit_collision" in c and c.parent)
    bpy.data.objects.remove(child)
    how, notes = export(tmp_path / "o.wad")
    assert verdicts == [False]
    assert any("no collision object" in n for n in notes)
