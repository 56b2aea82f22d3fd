"""Import of generated ENG levels (tests/blender/levels.py, from the
from-spec builders) through the operator: counts of objects, faces,
materials and images; UVs, colours, positions and pixels spot-checked
against the level's own arrays; collision."""

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


def corner_array(me, layer, prop, width):
    a = np.empty(len(me.loops) * width, np.float32)
    layer.data.foreach_get(prop, a)
    return a.reshape(-1, 3, width)


def face_ints(me, name):
    a = np.empty(len(me.polygons), np.int32)
    me.attributes[name].data.foreach_get("value", a)
    return a


def world_positions(ob):
    bpy.context.view_layer.update()
    m = np.array(ob.matrix_world)
    co = np.array([v.co for v in ob.data.vertices])
    tri = np.array([p.vertices[:] for p in ob.data.polygons])
    return (co @ m[:3, :3].T + m[:3, 3])[tri]


def test_small_level(scene, small):
    assert bpy.ops.import_scene.wadkit_eng(filepath=small) == {"FINISHED"}
    lvl = wadkit.eng.open(small)
    wm = lvl.world_mesh()
    root = bpy.data.collections["small"]
    assert root["wadkit_source"] == small
    tiles = sorted(root.objects, key=lambda o: o["wadkit_tile"])
    assert [o.name for o in tiles] == ["small tile 0", "small tile 1", "small tile 2"]
    assert [len(o.data.polygons) for o in tiles] == [2, 1, 2]
    # the edges made with NumPy are what Blender would make: nothing to fix
    assert [o.data.validate() for o in tiles] == [False] * 3
    assert [len(o.data.edges) for o in tiles] == [5, 3, 5]
    # materials: one per (page, blend, flat colour); one image per page
    assert sorted(m.name for m in bpy.data.materials if "ground" not in m.name) == [
        "small flat ff8000 b0", "small page 00 b0", "small page 01 b1"]
    assert sorted(i.name for i in bpy.data.images) == ["small page 00", "small page 01"]
    for k, page in enumerate(lvl.pages):
        img = bpy.data.images[f"small page {k:02d}"]
        px = np.empty(len(img.pixels), np.float32)
        img.pixels.foreach_get(px)
        h, w = page.rgba.shape[:2]
        np.testing.assert_allclose(px.reshape(h, w, 4)[::-1] * 255, page.rgba, atol=1e-3)
    # the transparent texel (page 0, row 0, column 0) stays transparent
    assert lvl.pages[0].rgba[0, 0, 3] == 0
    for ob in tiles:
        sel = wm["tile"] == ob["wadkit_tile"]
        me = ob.data
        # positions: the object transform puts the local vertices back where
        # the world mesh has them (file space -> Blender z-up)
        want = convert.to_blender(wm["positions"][wm["triangles"][sel]].reshape(-1, 3))
        np.testing.assert_allclose(world_positions(ob).reshape(-1, 3), want, atol=1e-5)
        uv = corner_array(me, me.uv_layers["UVMap"], "uv", 2)
        np.testing.assert_allclose(uv, convert.flip_v(wm["uv"][sel]), atol=1e-6)
        col = corner_array(me, me.color_attributes["Col"], "color_srgb", 4)
        np.testing.assert_allclose(col, wm["color"][sel], atol=1e-4)
        assert face_ints(me, "wadkit_texture").tolist() == wm["texture"][sel].tolist()
    # tile 2 has two colour sets: the second is "Col2", from color_set=1
    wm2 = lvl.world_mesh(color_set=1)
    me2 = tiles[2].data
    col2 = corner_array(me2, me2.color_attributes["Col2"], "color_srgb", 4)
    np.testing.assert_allclose(col2, wm2["color"][wm2["tile"] == 2], atol=1e-4)
    assert not np.allclose(col2, wm["color"][wm["tile"] == 2])
    assert "Col2" not in tiles[0].data.color_attributes
    # transforms: tile 1 at file (1.5, 1, 0.5) rot 1024 -> Blender (1.5, -0.5, 1), 90 deg
    assert tuple(tiles[1].location) == pytest.approx((1.5, -0.5, 1.0))
    assert tiles[1].rotation_euler.z == pytest.approx(np.pi / 2)


def test_small_level_collision(scene, small):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    coll = bpy.data.collections["small Collision"]
    assert coll.hide_render
    # one object per zone; model 0 (tiles 0 and 2) has a quad and a
    # triangle, model 1 none; tile 0 is in zone 0 (cell 0,0), tile 2 in
    # zone 2 (cell 0,1 of the grid [0, 1, 2, 3])
    obs = sorted(coll.objects, key=lambda o: o["wadkit_collision_zone"])
    assert [o["wadkit_collision_zone"] for o in obs] == [0, 2]
    assert [o.name for o in obs] == ["small collision zone 0", "small collision zone 2"]
    for ob, tile in zip(obs, (0, 2)):
        me = ob.data
        assert [len(p.vertices) for p in me.polygons] == [4, 3]
        assert face_ints(me, "wadkit_material").tolist() == [0x11, 3]
        assert face_ints(me, "wadkit_polygon").tolist() == [0, 1]
        assert face_ints(me, "wadkit_tile").tolist() == [tile, tile]
        assert me.validate() is False               # nothing to correct
        assert ob.hide_render
        assert [s.material["wadkit_collision_material"] for s in ob.material_slots] == [3, 0x11]
    # water and material 3 look different
    w = bpy.data.materials["small ground 11"].diffuse_color[:]
    g = bpy.data.materials["small ground 03"].diffuse_color[:]
    assert w != g
    # the floor quad of tile 0 lies at file y = 0 over cell (0, 0): Blender z = 0,
    # x in [0, 1], y in [-1, 0]
    me = obs[0].data
    bpy.context.view_layer.update()
    m = np.array(obs[0].matrix_world)
    quad = np.array([me.vertices[i].co for i in me.polygons[0].vertices])
    quad = quad @ m[:3, :3].T + m[:3, 3]
    np.testing.assert_allclose(quad[:, 2], 0.0, atol=0.02)
    assert quad[:, 0].min() == pytest.approx(0.0, abs=0.02)
    assert quad[:, 0].max() == pytest.approx(1.0, abs=0.02)
    assert quad[:, 1].min() == pytest.approx(-1.0, abs=0.02)


def test_small_level_objects(scene, small):
    bpy.ops.import_scene.wadkit_eng(filepath=small)
    (ob,) = bpy.data.collections["small Objects"].objects
    assert len(ob.data.polygons) == 2
    assert [g.name for g in ob.vertex_groups] == ["bone 0", "bone 1"]


def test_realistic_level_counts(scene, realistic):
    p, _ = realistic
    lvl = wadkit.eng.open(str(p))
    wm = lvl.world_mesh()
    # its speed is `make bench`'s (ratios to wm.obj_import), not a test's
    assert bpy.ops.import_scene.wadkit_eng(filepath=str(p)) == {"FINISHED"}
    tiles = bpy.data.collections["real"].objects
    tri = wm["triangles"]
    good = (tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2]) & (tri[:, 0] != tri[:, 2])
    assert sum(len(o.data.polygons) for o in tiles) == int(good.sum())
    assert len(tiles) == len(np.unique(wm["tile"]))
    assert len(bpy.data.images) == 8
    assert len([m for m in bpy.data.materials if "ground" not in m.name]) == 8
    def shaped(c):          # records whose corners exist (finite)
        n = np.asarray(c["n_corners"])
        return sum(bool(np.isfinite(c["corners"][k, :n[k]]).all()) for k in range(len(n)))
    n_coll = sum(shaped(lvl.models[int(m)].collision) for m in lvl.tiles.model)
    coll_obs = bpy.data.collections["real Collision"].objects
    assert sum(len(o.data.polygons) for o in coll_obs) == n_coll
    zones = np.asarray(lvl.zones.grid)[tuple(np.asarray(lvl.tiles.cell_xz)[:, ::-1].T)]
    assert len(coll_obs) == len(np.unique(zones))
    # type, group and material per face as each model's own decode has them
    # (the import decodes all models' records in one call)
    for ob in list(coll_obs)[:4]:
        me = ob.data
        tile, poly = face_ints(me, "wadkit_tile"), face_ints(me, "wadkit_polygon")
        for name in ("group", "type", "material"):
            got = face_ints(me, "wadkit_" + name)
            want = [int(lvl.models[int(lvl.tiles.model[t])].collision[name][p])
                    for t, p in zip(tile, poly)]
            assert got.tolist() == want, name
