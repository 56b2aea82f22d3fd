"""RC2 terrain import of a generated LEVEL WAD (levels.rc2_level: its
gameplay and collision regions are byte patterns, so those parts are
reported as not imported and the terrain still comes in)."""
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert
from conftest import datablock_counts

import levels


@pytest.fixture
def rc2(tmp_path):
    p = tmp_path / "LEVEL0.WAD"
    p.write_bytes(levels.rc2_level())
    return str(p)


def test_rc2_terrain(scene, rc2):
    assert bpy.ops.import_scene.wadkit_rc2(filepath=rc2, lod=0) == {"FINISHED"}
    t = wadkit.rc2.open(rc2).terrain(lod=0)
    root = bpy.data.collections["LEVEL0"]
    assert root["wadkit_format"] == "rc2" and root["wadkit_lod"] == 0
    assert not root.objects
    (terrain,) = [c for c in root.children if c["wadkit_part"] == "terrain"]
    (ob,) = terrain.objects
    assert ob["wadkit_kind"] == "terrain"
    me = ob.data
    assert len(me.polygons) == len(t["triangles"]) == 96
    # the game is z-up: positions are taken as they are
    co = np.array([v.co for v in me.vertices])
    tri = np.array([p.vertices[:] for p in me.polygons])
    np.testing.assert_allclose(co[tri], t["positions"][t["triangles"]], atol=1e-6)
    uv = np.empty(len(me.loops) * 2, np.float32)
    me.uv_layers["UVMap"].data.foreach_get("uv", uv)
    np.testing.assert_allclose(uv.reshape(-1, 3, 2), convert.flip_v(t["uv"]), atol=1e-6)
    col = np.empty(len(me.loops) * 4, np.float32)
    me.color_attributes["Col"].data.foreach_get("color_srgb", col)
    np.testing.assert_allclose(col.reshape(-1, 3, 4), t["color"], rtol=2e-4, atol=1e-4)
    patch = np.empty(96, np.int32)
    me.attributes["wadkit_patch"].data.foreach_get("value", patch)
    assert patch.tolist() == t["patch"].tolist() and set(patch) == {0, 1}
    # one material and one image per tfrag texture used
    assert sorted(m.name for m in bpy.data.materials) == ["LEVEL0 tfrag 000", "LEVEL0 tfrag 001"]
    assert sorted(i.name for i in bpy.data.images) == ["LEVEL0 tfrag 000", "LEVEL0 tfrag 001"]
    assert tuple(bpy.data.images["LEVEL0 tfrag 001"].size) == (4, 2)
    idx = np.empty(96, np.int32)
    me.polygons.foreach_get("material_index", idx)
    names = [ob.material_slots[i].material.name[-3:] for i in idx]
    assert [int(n) for n in names] == t["texture"].tolist()


def test_rc2_malformed_leaves_scene_unchanged(scene, rc2, tmp_path):
    before = datablock_counts()
    data = bytearray(open(rc2, "rb").read())
    bad = tmp_path / "LEVEL1.WAD"
    bad.write_bytes(bytes(data[:100]))
    with pytest.raises(wadkit.FormatError) as fe:
        wadkit.rc2.open(str(bad)).terrain()
    with pytest.raises(RuntimeError) as exc:
        bpy.ops.import_scene.wadkit_rc2(filepath=str(bad))
    assert str(fe.value) in str(exc.value)
    assert datablock_counts() == before
