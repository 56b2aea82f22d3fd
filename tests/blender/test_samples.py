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


def test_rc2_sample_whole_level(scene, samples):
    """The RC2 sample's ties, shrubs, mobys, sky and collision arrive, in
    the counts docs/samples.md gives (tests/test_samples_doc.py keeps the
    doc and the sample in step)."""
    from blender_addon import import_rc2 as I
    from wadkit.samples import _rc2
    lvl = wadkit.rc2.open(samples["rc2"])
    assert bpy.ops.import_scene.wadkit_rc2(filepath=samples["rc2"]) == {"FINISHED"}
    parts = {c[I.PROP_PART]: c for c in bpy.data.collections["sample_rc2"].children}
    assert {"ties", "shrubs", "mobys", "sky", "collision"} <= set(parts)
    for part, n, kind in (("ties", _rc2.TIES, "tie"), ("shrubs", _rc2.SHRUBS, "shrub"),
                          ("mobys", _rc2.MOBYS, "moby")):
        obs = parts[part].objects
        assert len(obs) == n and all(o[I.PROP_KIND] == kind for o in obs)
    # every class shows its mesh
    for kind, table in (("tie", lvl.tie_classes), ("shrub", lvl.shrub_classes),
                        ("moby", lvl.moby_classes)):
        meshes = [me for me in bpy.data.meshes if me.get(I.PROP_KIND) == kind]
        assert sorted(me[I.PROP_CLASS] for me in meshes) == sorted(table.ids.tolist())
        for me in meshes:
            assert len(me.polygons) == len(table.by_id(me[I.PROP_CLASS]).mesh()["triangles"])
    assert not [o for o in parts["mobys"].objects if o.type == "EMPTY"
                and o.instance_type != "COLLECTION"]
    sky = sorted(parts["sky"].objects, key=lambda o: o[I.PROP_SHELL])
    assert [len(o.data.polygons) for o in sky] == \
        [len(s["triangles"]) for s in lvl.sky()["shells"]] == [240, 48]
    (coll,) = parts["collision"].objects
    c = lvl.collision()
    n_tri = len(c["triangles"]) - 2 * len(c["quads"])
    assert len(coll.data.polygons) == n_tri + len(c["quads"])
    assert n_tri == 2 * (_rc2.PATCHES * _rc2.QUADS) ** 2
    names = {m.name for m in coll.data.materials}
    assert names == {"sample_rc2 coll 0x0e shallow water", "sample_rc2 coll 0x0f ground"}
    assert tuple(bpy.data.collections["sample_rc2"]["wadkit_fog_colour"]) == (150, 170, 200)


def test_rc2_sample_exports_unchanged_and_edited(scene, samples, tmp_path):
    """The whole sample through File > Export: unchanged, the same bytes;
    a moved tie, shrub and moby reach the file (read back by wadkit)."""
    path = samples["rc2"]
    assert bpy.ops.import_scene.wadkit_rc2(filepath=path) == {"FINISHED"}
    out = tmp_path / "same.wad"
    assert bpy.ops.export_scene.wadkit_rc2(filepath=str(out)) == {"FINISHED"}
    assert out.read_bytes() == open(path, "rb").read()
    from blender_addon import import_rc2 as I
    parts = {c[I.PROP_PART]: c for c in bpy.data.collections["sample_rc2"].children}
    moved = {}
    for part in ("ties", "shrubs", "mobys"):
        ob = min(parts[part].objects, key=lambda o: o[I.PROP_INSTANCE])
        ob.location.z += 1.5
        moved[part] = (ob[I.PROP_INSTANCE], ob.location.z)
    bpy.context.view_layer.update()
    out = tmp_path / "moved.wad"
    assert bpy.ops.export_scene.wadkit_rc2(filepath=str(out)) == {"FINISHED"}
    old, new = wadkit.rc2.open(path), wadkit.rc2.open(str(out))
    for part, (i, z) in moved.items():
        a, b = getattr(old, part).matrix, getattr(new, part).matrix
        assert abs(float(b[i, 2, 3]) - z) < 1e-4
        assert np.allclose(np.delete(a, i, 0), np.delete(b, i, 0))
    assert len(new.collision()["triangles"]) == len(old.collision()["triangles"])
