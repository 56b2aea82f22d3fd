"""Export of an imported ENG level: byte-identical when unchanged, a moved
vertex survives the round trip, a LimitError is an operator report naming
the object and nothing is written."""
import os

import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert

import levels


@pytest.fixture
def small(tmp_path):
    p = tmp_path / "small.wad"
    p.write_bytes(levels.small_level())
    return str(p)


def test_unchanged_scene_exports_byte_identical(scene, small, tmp_path):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    out = tmp_path / "out.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() == open(small, "rb").read()


def test_unchanged_realistic_level_exports_byte_identical(scene, tmp_path, realistic):
    src, wad = realistic
    bpy.ops.import_scene.wadkit_eng(filepath=src)
    out = tmp_path / "out.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() == wad


def test_moved_vertex_reimports_moved(scene, small, tmp_path):
    bpy.ops.import_scene.wadkit_eng(filepath=small, merge="TILE")
    ob = bpy.data.objects["small tile 1"]          # the upright triangle
    me = ob.data
    bpy.context.view_layer.update()
    top = max(range(len(me.vertices)), key=lambda i: me.vertices[i].co.z)
    before = np.array(ob.matrix_world @ me.vertices[top].co)
    me.vertices[top].co.z += 0.5                   # local z = world z (rotation about z)
    bpy.context.view_layer.update()
    moved = np.array(ob.matrix_world @ me.vertices[top].co)
    assert moved[2] == pytest.approx(before[2] + 0.5)
    out = tmp_path / "moved.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() != open(small, "rb").read()
    # the written level has the vertex where it was moved to (file space)
    wm = wadkit.eng.open(str(out)).world_mesh()
    want = convert.to_file(moved[None])[0]
    d = np.abs(wm["positions"] - want).max(axis=1)
    assert d.min() < 1e-3, (want, wm["positions"])
    old = convert.to_file(before[None])[0]
    assert np.abs(wm["positions"] - old).max(axis=1).min() > 0.4
    # and the Blender import of it shows it there
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=str(out))
    bpy.context.view_layer.update()
    verts = np.concatenate([
        np.array([o.matrix_world @ v.co for v in o.data.vertices])
        for o in bpy.data.collections["moved"].objects])
    assert np.abs(verts - moved).max(axis=1).min() < 1e-3
    # the other triangles kept their textures
    assert sorted(wm["texture"].tolist()) == [0, 0, 1, 1, 2]


def test_limit_error_is_a_report_and_nothing_is_written(scene, small, tmp_path):
    bpy.ops.import_scene.wadkit_eng(filepath=small, merge="TILE")
    ob = bpy.data.objects["small tile 2"]
    ob.data.vertices[0].co.x += 1.0e6            # beyond the 20.12 fixed-point range
    out = tmp_path / "limit.wad"
    out.write_bytes(b"keep me")
    with pytest.raises(RuntimeError) as exc:
        bpy.ops.export_scene.wadkit_eng(filepath=str(out))
    msg = str(exc.value)
    assert "object 'small tile 2'" in msg
    # the report names the object from the LimitError's structured fields
    # and carries wadkit's own text
    from blender_addon.export_eng import ExportError, patched_level
    with pytest.raises(ExportError) as direct:
        patched_level(bpy.context, bpy.data.collections["small"], wadkit.eng.open(small))
    cause = direct.value.__cause__
    assert isinstance(cause, wadkit.LimitError) and cause.object == "small tile 2"
    assert str(cause) in msg
    assert out.read_bytes() == b"keep me"
    assert sorted(os.listdir(tmp_path)) == ["limit.wad", "small.wad"]


def test_zone_import_exports(scene, small, tmp_path):
    """merge="ZONE": one object per zone (world-space vertices, the tile as
    a face attribute) exports byte-identical unchanged, and with a moved
    vertex rebuilds the level with the move."""
    bpy.ops.import_scene.wadkit_eng(filepath=small, merge="ZONE")
    zones = sorted(o.name for o in bpy.data.collections["small"].objects)
    assert zones == ["small zone 0", "small zone 1", "small zone 2"]
    out = tmp_path / "same.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() == open(small, "rb").read()
    ob = bpy.data.objects["small zone 1"]          # tile 1, the upright triangle
    me = ob.data
    top = max(range(len(me.vertices)), key=lambda i: me.vertices[i].co.z)
    me.vertices[top].co.z += 0.5
    moved = np.array(me.vertices[top].co)
    out = tmp_path / "moved.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    wm = wadkit.eng.open(str(out)).world_mesh()
    want = convert.to_file(moved[None])[0]
    assert np.abs(wm["positions"] - want).max(axis=1).min() < 1e-3
