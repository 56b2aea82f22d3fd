"""The base level written early (blender_addon/export_early.py): the bytes,
the target's mode and level.save's refusals are as without it, and no
hidden file is left behind, whether the export finds the scene unchanged,
changed, or fails."""
import os
import stat

import bpy
import pytest

from blender_addon import export_early

import levels


@pytest.fixture
def small(tmp_path):
    p = tmp_path / "small.wad"
    p.write_bytes(levels.small_level())
    return str(p)


@pytest.fixture
def commits(monkeypatch):
    """The results of EarlyWrite.commit() during the test."""
    out = []
    real = export_early.EarlyWrite.commit

    def commit(self):
        out.append(real(self))
        return out[-1]
    monkeypatch.setattr(export_early.EarlyWrite, "commit", commit)
    return out


def test_unchanged_is_the_early_file(scene, small, tmp_path, commits):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    out = tmp_path / "out.wad"
    out.write_bytes(b"old")
    for _ in range(2):
        assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
        assert out.read_bytes() == open(small, "rb").read()
    assert commits == [True, True]
    assert sorted(os.listdir(tmp_path)) == ["out.wad", "small.wad"]


def test_other_mode_is_kept_by_the_plain_save(scene, small, tmp_path, commits):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    out = tmp_path / "out.wad"
    out.write_bytes(b"old")
    os.chmod(out, 0o600)
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() == open(small, "rb").read()
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    assert commits == [False]
    assert sorted(os.listdir(tmp_path)) == ["out.wad", "small.wad"]


def test_read_only_target_and_the_source_are_refused(scene, small, tmp_path):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    out = tmp_path / "ro.wad"
    out.write_bytes(b"keep me")
    os.chmod(out, 0o444)
    with pytest.raises(RuntimeError, match="read-only"):
        bpy.ops.export_scene.wadkit_eng(filepath=str(out))
    assert out.read_bytes() == b"keep me"
    before = open(small, "rb").read()
    with pytest.raises(RuntimeError, match="source file"):
        bpy.ops.export_scene.wadkit_eng(filepath=small)
    assert open(small, "rb").read() == before
    with pytest.raises(RuntimeError):
        bpy.ops.export_scene.wadkit_eng(filepath=str(tmp_path / "no" / "such.wad"))
    assert sorted(os.listdir(tmp_path)) == ["ro.wad", "small.wad"]


def test_moved_tile_discards_the_early_file(scene, small, tmp_path, commits):
    """Moving an object tags no mesh: the early write starts, and the edit
    found is saved instead."""
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    bpy.context.view_layer.update()
    bpy.data.objects["small tile 1"].rotation_euler.z += 1.5707963
    out = tmp_path / "moved.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() != open(small, "rb").read()
    assert commits == []            # changed: discarded without a commit
    assert sorted(os.listdir(tmp_path)) == ["moved.wad", "small.wad"]
