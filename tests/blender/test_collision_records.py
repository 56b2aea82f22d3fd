"""Collision records that decode to no shape (planes that do not meet in
corners): the import leaves them out and says so, and an edited scene
still exports (the bench found `collision vertex 0 is not finite` here)."""
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert
from blender_addon.import_eng import import_eng

import levels


@pytest.fixture
def level(tmp_path):
    p = tmp_path / "undecodable.wad"
    p.write_bytes(levels.undecodable_collision_level())
    return str(p)


def collision_faces(coll_name):
    """(tile, polygon, material) of every face of the Collision objects (the
    tile from the object's parent) and their world corners (a list of (n,3)
    arrays)."""
    bpy.context.view_layer.update()
    rows, corners = [], []
    for ob in bpy.data.collections[coll_name].objects:
        me = ob.data
        m = np.array(ob.matrix_world)
        vals = {}
        for name in ("wadkit_polygon", "wadkit_material"):
            a = np.empty(len(me.polygons), np.int32)
            me.attributes[name].data.foreach_get("value", a)
            vals[name] = a
        for k, p in enumerate(me.polygons):
            rows.append((int(ob.parent["wadkit_tile"]), int(vals["wadkit_polygon"][k]),
                         int(vals["wadkit_material"][k])))
            co = np.array([me.vertices[i].co for i in p.vertices])
            corners.append(co @ m[:3, :3].T + m[:3, 3])
    return rows, corners


def test_the_fixture_has_a_record_without_corners(level):
    c = wadkit.eng.open(level).models[1].collision
    assert len(c["n_corners"]) == 2
    assert np.isfinite(c["corners"][0, :3]).all()
    assert not np.isfinite(c["corners"][1, :3]).all()


def test_import_leaves_the_record_out_and_says_so(scene, level):
    notes = []
    import_eng(bpy.context, wadkit.eng.open(level), name="u", notes=notes,
               collision=True, show_collision=True)
    rows, corners = collision_faces("u Collision")
    # tiles 0 and 2: model 0's quad and triangle; tile 1: only the good triangle
    assert sorted(rows) == [(0, 0, 0x11), (0, 1, 3), (1, 0, 5), (2, 0, 0x11), (2, 1, 3)]
    assert all(np.isfinite(c).all() for c in corners)
    assert any("1 collision record" in n and "model 1 (tiles 1)" in n for n in notes), notes
    # the good triangle of tile 1 (file y = 0.1) is at Blender z = 1 + 0.1
    (tri,) = [c for r, c in zip(rows, corners) if r[0] == 1]
    np.testing.assert_allclose(tri[:, 2], 1.1, atol=0.01)


def test_edited_scene_with_such_a_record_exports(scene, level, tmp_path):
    """A render edit keeps the collision as it is (the record without
    corners too); a collision edit of that model drops it, and says so."""
    from blender_addon.export_eng import export_eng
    src = wadkit.eng.open(level)
    assert bpy.ops.import_scene.wadkit_eng(filepath=level, import_collision=True) == {"FINISHED"}
    ob = bpy.data.objects["undecodable tile 1"]
    ob.data.vertices[0].co.z += 0.25
    bpy.context.view_layer.update()
    moved = np.array(ob.matrix_world @ ob.data.vertices[0].co)
    out = tmp_path / "out.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    new = wadkit.eng.open(str(out))
    want = convert.to_file(moved[None])[0]
    assert np.abs(new.world_mesh()["positions"] - want).max(axis=1).min() < 1e-3
    assert bytes(new.models[1].collision_raw) == bytes(src.models[1].collision_raw)
    # now edit that tile's collision: the record without corners goes, named
    (ch,) = ob.children
    ch.data.vertices[0].co.z += 0.05
    out2 = tmp_path / "out2.wad"
    how, notes = export_eng(bpy.context, str(out2))
    assert any("1 collision record(s) of model 1 had no corners" in n for n in notes), notes
    c = wadkit.eng.open(str(out2)).models[1].collision
    assert len(c["n_corners"]) == 1 and int(c["material"][0]) == 5
    assert np.isfinite(c["corners"][0, :3]).all()
