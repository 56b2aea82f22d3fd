"""The operators as a user (or a bpy script) calls them: errors become
operator reports, and a failed import leaves the scene as it was."""
import bpy
import pytest

from builders import eng_wad
from conftest import datablock_counts


def test_malformed_file_reports_format_error_and_changes_nothing(scene, tmp_path):
    bpy.ops.mesh.primitive_cube_add()              # something already in the scene
    before = datablock_counts()
    names = sorted(o.name for o in bpy.data.objects)
    good = eng_wad.sample_wad()
    bad = good[:40]                                 # chunk list cut off
    path = tmp_path / "bad.wad"
    path.write_bytes(bad)
    with pytest.raises(RuntimeError) as exc:
        bpy.ops.import_scene.wadkit_eng(filepath=str(path))
    # the report is the FormatError's own text (with its context and offset)
    import wadkit
    with pytest.raises(wadkit.FormatError) as fe:
        wadkit.eng.open(str(path))
    assert str(fe.value) in str(exc.value)
    assert "ENG WAD" in str(exc.value)
    assert datablock_counts() == before
    assert sorted(o.name for o in bpy.data.objects) == names


def test_missing_file_is_a_report(scene, tmp_path):
    with pytest.raises(RuntimeError, match="No such file"):
        bpy.ops.import_scene.wadkit_eng(filepath=str(tmp_path / "none.wad"))


def test_export_without_level_is_a_report(scene, tmp_path):
    out = tmp_path / "out.wad"
    with pytest.raises(RuntimeError, match="no imported ENG level"):
        bpy.ops.export_scene.wadkit_eng(filepath=str(out))
    assert not out.exists()

