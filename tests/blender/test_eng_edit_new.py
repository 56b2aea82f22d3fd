"""New objects in the level collection become new tiles (issue 14): any
mesh, n-gons triangulated, its material's texture entry, its collision
from a child or (when asked) its faces; what cannot be written is named."""
import bmesh
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert

from editing import export, load, own_tile, terrain, tile_object


@pytest.fixture
def terr(tmp_path):
    return terrain(tmp_path)


def new_grid(coll, name, x, y, z, size=0.6, cuts=3, quads=False, material=None):
    """A flat grid object of (cuts+1)^2 quads (triangulated unless quads),
    centred at Blender (x, y, z), linked to coll."""
    me = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_grid(bm, x_segments=cuts + 1, y_segments=cuts + 1, size=size / 2,
                          calc_uvs=True)
    if not quads:
        bmesh.ops.triangulate(bm, faces=bm.faces[:])
    bm.to_mesh(me)
    bm.free()
    ob = bpy.data.objects.new(name, me)
    ob.location = (x, y, z)
    if material is not None:
        me.materials.append(material)
    coll.objects.link(ob)
    return ob


def new_tiles(src, new):
    return np.arange(len(src.tiles.model), len(new.tiles.model))


def water_cell(src):
    """Blender location of a water tile (an empty spot of the terrain)."""
    k = int(np.flatnonzero(src.tiles.model == 0)[0])
    return convert.to_blender(src.tiles.position[k][None])[0]


def test_new_mesh_with_a_level_material(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    coll = load(path)
    mat = tile_object("terr", own_tile(src)).material_slots[0].material
    entries = list(mat["wadkit_textures"])
    x, y, _ = water_cell(src)
    ob = new_grid(coll, "my floor", x, y, 0.5, material=mat)
    out = tmp_path / "newmat.wad"
    how, notes = export(out)
    new = wadkit.eng.open(str(out))
    added = new_tiles(src, new)
    assert len(added) >= 1
    np.testing.assert_array_equal(new.tiles.model[:len(src.tiles.model)], src.tiles.model)
    wm = new.world_mesh()
    faces = np.isin(wm["tile"], added)
    assert faces.sum() == len(ob.data.polygons)
    tex = set(wm["texture"][faces].tolist())
    table = new.textures
    # the material's page: the entries it stands for (or a copy with a fitted rectangle)
    assert {int(table["page"][e]) for e in tex} == {int(table["page"][e]) for e in entries}
    assert any("my floor" in n and "no collision" in n for n in notes), notes


def test_new_mesh_without_a_level_material_is_named(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    coll = load(path)
    x, y, _ = water_cell(src)
    mine = bpy.data.materials.new("My Paint")
    new_grid(coll, "plain", x, y, 0.25, material=mine)
    out = tmp_path / "plain.wad"
    how, notes = export(out)
    assert any("'plain'" in n and "'My Paint'" in n for n in notes), notes
    new = wadkit.eng.open(str(out))
    wm = new.world_mesh()
    faces = np.isin(wm["tile"], new_tiles(src, new))
    t = new.textures
    # no image: a flat entry of its base colour as the colour picker shows
    # it (Blender's default 0.8 linear = 231 display), said so (issue 15)
    assert any("'plain', material 'My Paint' has no image" in n and "e7e7e7" in n
               for n in notes), notes
    for e in set(wm["texture"][faces].tolist()):
        assert t["flat"][e] and t["color"][e].tolist() == [231, 231, 231]


def test_ngons_are_triangulated_or_refused(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    coll = load(path)
    x, y, _ = water_cell(src)
    ob = new_grid(coll, "quads", x, y, 0.5, cuts=1, quads=True)
    # one face of five corners
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    vs = [bm.verts.new(p) for p in ((0, 0, 0.3), (0.2, 0, 0.3), (0.25, 0.15, 0.3),
                                     (0.1, 0.25, 0.3), (-0.05, 0.15, 0.3))]
    bm.faces.new(vs)
    bm.to_mesh(ob.data)
    bm.free()
    with pytest.raises(RuntimeError, match="quads: has faces with more than three corners"):
        bpy.ops.export_scene.wadkit_eng(filepath=str(tmp_path / "no.wad"), triangulate=False)
    assert not (tmp_path / "no.wad").exists()
    out = tmp_path / "tri.wad"
    assert bpy.ops.export_scene.wadkit_eng(filepath=str(out)) == {"FINISHED"}
    new = wadkit.eng.open(str(out))
    wm = new.world_mesh()
    # 4 quads -> 8 triangles, the pentagon -> 3
    assert np.isin(wm["tile"], new_tiles(src, new)).sum() == 4 * 2 + 3


def test_new_mesh_collision_from_a_child_or_its_faces(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    coll = load(path)
    x, y, _ = water_cell(src)
    ob = new_grid(coll, "deck", x, y, 0.5)
    # no collision: said so, nothing to stand on
    out = tmp_path / "deck.wad"
    export(out)
    assert wadkit.eng.open(str(out)).floor(x, 0.51, -y) is None or \
        wadkit.eng.open(str(out)).floor(x, 0.51, -y)["height"] < 0
    # from its own faces, when asked
    out2 = tmp_path / "deck2.wad"
    export(out2, floors_from_faces=True)
    hit = wadkit.eng.open(str(out2)).floor(x, 0.51, -y)
    assert hit is not None and hit["height"] == pytest.approx(0.5, abs=1e-3)
    # from a collision child (here 0.1 higher than the faces)
    ch = new_grid(coll, "deck collision", 0, 0, 0.1)
    ch.parent = ob
    out3 = tmp_path / "deck3.wad"
    how, notes = export(out3)
    assert not any("'deck' has no collision" in n for n in notes)
    hit = wadkit.eng.open(str(out3)).floor(x, 0.61, -y)
    assert hit is not None and hit["height"] == pytest.approx(0.6, abs=1e-3)


def test_over_8000_vertices_is_refused_naming_the_object(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    load(path)
    ob = tile_object("terr", own_tile(src))
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    bmesh.ops.subdivide_edges(bm, edges=bm.edges[:], cuts=22, use_grid_fill=True)
    bmesh.ops.triangulate(bm, faces=bm.faces[:])
    bm.to_mesh(ob.data)
    bm.free()
    assert len(ob.data.vertices) > 8000
    out = tmp_path / "big.wad"
    out.write_bytes(b"keep")
    with pytest.raises(RuntimeError, match=f"object '{ob.name}'.*8000"):
        bpy.ops.export_scene.wadkit_eng(filepath=str(out))
    assert out.read_bytes() == b"keep"


def test_every_object_is_exported_or_named(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    coll = load(path)
    coll.objects.link(bpy.data.objects.new("a lamp", bpy.data.lights.new("l", "POINT")))
    coll.objects.link(bpy.data.objects.new("an empty", None))
    stray = bpy.data.objects.new("stray collision", bpy.data.meshes.new("sc"))
    coll.objects.link(stray)
    out = tmp_path / "named.wad"
    how, notes = export(out)
    for name in ("'a lamp'", "'an empty'", "'stray collision'"):
        assert any(name in n and "not exported" in n for n in notes), (name, notes)
    assert how == "unchanged" and out.read_bytes() == wad
