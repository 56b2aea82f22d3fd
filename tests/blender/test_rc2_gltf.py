"""Blender's own glTF importer reads `wadkit convert` of a whole RC2 level
(tests/builders/rc2_world.py) back: the same triangles drawn, one object
per instance (EXT_mesh_gpu_instancing or nodes sharing a mesh), the class
meshes once each, the bounds summary() promises in Blender's frame."""
import numpy as np
import pytest

import bpy
import wadkit
from builders import rc2_world as W
from wadkit import export

pytestmark = pytest.mark.every_blender

SMALL = W.SMALL


@pytest.fixture(scope="module")
def level(tmp_path_factory):
    data, facts = W.world(**SMALL)
    p = tmp_path_factory.mktemp("rc2gl") / "LEVEL7.WAD"
    p.write_bytes(data)
    return str(p), facts


@pytest.mark.parametrize("mode", ["gpu", "nodes"])
def test_blender_reads_the_whole_level_back(scene, level, tmp_path, mode, monkeypatch):
    path, facts = level
    # Blender's Python has no Pillow: the textures go in as the add-on's own
    # PNGs (stored deflate; the geometry is what is checked here)
    from blender_addon import materials
    monkeypatch.setattr(export.gltf, "png_bytes", materials.png_bytes)
    lvl = wadkit.rc2.open(path)
    out = tmp_path / f"l_{mode}.glb"
    s = export.export_level(lvl, out, collision=True, sky=True, instancing=mode)
    assert bpy.ops.import_scene.gltf(filepath=str(out)) == {"FINISHED"}
    dg = bpy.context.evaluated_depsgraph_get()
    tris, lo, hi, shown = 0, None, None, 0
    for inst in dg.object_instances:
        ob = inst.object
        if ob.type != "MESH":
            continue
        shown += 1
        me = ob.data
        me.calc_loop_triangles()
        tris += len(me.loop_triangles)
        co = np.empty(len(me.vertices) * 3, np.float32)
        me.vertices.foreach_get("co", co)
        m = np.array(inst.matrix_world)
        w = co.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3]
        lo = w.min(0) if lo is None else np.minimum(lo, w.min(0))
        hi = w.max(0) if hi is None else np.maximum(hi, w.max(0))
    assert tris == s["triangles"]
    e = export.blender_expectation(s)
    np.testing.assert_allclose(lo, e["min"], atol=1e-3)
    np.testing.assert_allclose(hi, e["max"], atol=1e-3)
    # one object per instance with a mesh, the class meshes once each
    inst_layers = {k: v for k, v in s["layers"].items() if "instances" in v}
    with_mesh = sum(
        sum(1 for c in getattr(lvl, name).class_id.tolist()
            if facts["builders"][name[:-1]][facts["classes"][name[:-1]].index(c)] is not None)
        for name in inst_layers)
    plain = sum(v["groups"] for k, v in s["layers"].items() if "instances" not in v)
    assert shown == with_mesh + plain
    class_meshes = {ob.data.name for ob in bpy.data.objects if ob.type == "MESH"
                    and ob.data.name.split("_")[0] in ("tie", "shrub", "moby")}
    assert len(class_meshes) == sum(v["meshes"] for v in inst_layers.values())
