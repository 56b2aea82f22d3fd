"""A Blender without ID.session_uid (3.4 has none; the add-on declares
3.6): edit tracking is off, so every export reads every mesh whole, and
the exports are what they are with it — unchanged byte-identical, an edit
written. Simulated here by switching edit_track.HAS_UID off (every
Blender we test has session_uid)."""
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import edit_track
from builders import rc2_full as F

from editing import export, terrain, zone_objects

pytestmark = pytest.mark.every_blender


@pytest.fixture
def no_uid(monkeypatch):
    edit_track.unregister()
    monkeypatch.setattr(edit_track, "HAS_UID", False)
    edit_track.register()             # without session_uid it adds no handler
    assert not edit_track.tracking()
    yield
    edit_track.unregister()
    monkeypatch.undo()
    edit_track.register()
    assert edit_track.tracking()


def test_eng_exports_without_tracking(scene, no_uid, tmp_path):
    path, wad = terrain(tmp_path)
    assert bpy.ops.import_scene.wadkit_eng(filepath=path) == {"FINISHED"}
    coll = bpy.data.collections["terr"]
    assert edit_track.session_for(coll, path) is None
    assert export(tmp_path / "same.wad") == ("unchanged", [])
    assert (tmp_path / "same.wad").read_bytes() == wad
    ob = zone_objects(coll)[0]
    ob.data.vertices[0].co.z += 0.5
    ob.data.update()
    how, _ = export(tmp_path / "moved.wad")
    assert how.startswith("patched"), how
    want = wadkit.eng.open(path).world_mesh()["positions"]
    got = wadkit.eng.open(str(tmp_path / "moved.wad")).world_mesh()["positions"]
    assert len(got) == len(want) and np.abs(got - want).max() == pytest.approx(0.5, abs=1e-3)


def test_rc2_exports_without_tracking(scene, no_uid, tmp_path):
    from blender_addon.export_rc2 import export_rc2
    data, _ = F.level()
    p = tmp_path / "LEVEL0.WAD"
    p.write_bytes(data)
    assert bpy.ops.import_scene.wadkit_rc2(filepath=str(p), lod=0) == {"FINISHED"}
    export_rc2(bpy.context, str(tmp_path / "same.wad"))
    assert (tmp_path / "same.wad").read_bytes() == data
    root = bpy.data.collections["LEVEL0"]
    (tie,) = [o for o in root.all_objects
              if o.get("wadkit_kind") == "tie" and o["wadkit_instance"] == 1]
    tie.location.x += 2.5
    how, _ = export_rc2(bpy.context, str(tmp_path / "moved.wad"))
    assert "instances" in how
    want = np.array(wadkit.rc2.open(str(p)).ties.matrix)
    want[1, 0, 3] += 2.5
    np.testing.assert_allclose(wadkit.rc2.open(str(tmp_path / "moved.wad")).ties.matrix,
                               want, atol=1e-4)
