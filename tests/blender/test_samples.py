"""The sample levels of wadkit.samples (built by wadkit's own writers: an
integration check, not an independent witness) through the operators, in
every Blender of `make test-blender`."""
import bpy
import numpy as np
import pytest

import wadkit
import wadkit.samples

pytestmark = pytest.mark.every_blender


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    return wadkit.samples.write_samples(tmp_path_factory.mktemp("samples"), seed=0)


def n_good(tri):
    return int(((tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2])
                & (tri[:, 0] != tri[:, 2])).sum())


def test_eng_sample_imports_and_exports_unchanged(scene, samples, tmp_path):
    path = samples["eng"]
    lvl = wadkit.eng.open(path)
    assert bpy.ops.import_scene.wadkit_eng(filepath=path) == {"FINISHED"}
    tiles = bpy.data.collections["sample_eng"].objects
    assert sum(len(o.data.polygons) for o in tiles) == n_good(lvl.world_mesh()["triangles"])
    assert len(bpy.data.collections["sample_eng Objects"].objects) == len(lvl.objects)
    assert len(bpy.data.images) == len({int(p) for p in lvl.world_mesh()["page"] if p >= 0})
    out = tmp_path / "out.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() == open(path, "rb").read()


def test_rc2_sample_terrain(scene, samples):
    t = wadkit.rc2.open(samples["rc2"]).terrain(lod=0)
    assert bpy.ops.import_scene.wadkit_rc2(filepath=samples["rc2"]) == {"FINISHED"}
    (ob,) = [o for o in bpy.data.collections["sample_rc2"].all_objects
             if o.get("wadkit_kind") == "terrain"]
    assert len(ob.data.polygons) == n_good(t["triangles"])
    co = np.array([v.co for v in ob.data.vertices])
    np.testing.assert_allclose(co.min(axis=0), t["positions"].min(axis=0), atol=1e-5)
