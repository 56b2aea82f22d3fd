"""The ENG import's Blender side on a level object with the documented API
and hand-chosen arrays (synthetic.py): objects, transforms, UVs, colours,
materials, images, options, rollback."""
import math

import bpy
import numpy as np
import pytest

from blender_addon import convert
from blender_addon.import_eng import import_eng

from conftest import datablock_counts
import synthetic


def world_of(ob):
    bpy.context.view_layer.update()
    m = np.array(ob.matrix_world)
    co = np.array([v.co for v in ob.data.vertices])
    return co @ m[:3, :3].T + m[:3, 3]


def test_tiles_become_placed_objects(scene):
    coll = import_eng(bpy.context, synthetic.level(), name="lvl", merge="TILE")
    tiles = sorted((o for o in coll.objects), key=lambda o: o["wadkit_tile"])
    assert [o.name for o in tiles] == ["lvl tile 0", "lvl tile 1"]
    # the degenerate triangle (4,4,5) is dropped
    assert [len(o.data.polygons) for o in tiles] == [2, 2]
    t1 = tiles[1]
    # file (1.5, 1.0, 0.5) -> Blender (1.5, -0.5, 1.0); rotation 1024 = 90 deg about z
    assert tuple(t1.location) == pytest.approx((1.5, -0.5, 1.0))
    assert t1.rotation_euler.z == pytest.approx(math.pi / 2)
    assert t1["wadkit_model"] == 1 and t1["wadkit_rotation"] == 1024
    # the tile's local vertices placed by the object transform give back the
    # world positions: file (2, 2, 0.5) -> Blender (2, -0.5, 2)
    w = world_of(t1)
    assert np.isclose(w, (2.0, -0.5, 2.0), atol=1e-5).all(axis=1).any()
    assert np.isclose(w, (1.0, 0.0, 1.0), atol=1e-5).all(axis=1).any()
    assert coll["wadkit_format"] == "eng"
    assert coll.name in bpy.context.scene.collection.children


def test_uvs_colours_and_face_attributes(scene):
    lvl = synthetic.level()
    wm = lvl.world_mesh()
    coll = import_eng(bpy.context, lvl, name="lvl", merge="TILE")
    me = bpy.data.objects["lvl tile 0"].data
    uv = np.empty(len(me.loops) * 2, np.float32)
    me.uv_layers["UVMap"].data.foreach_get("uv", uv)
    # v is flipped (image rows top-down in the file, bottom-up in Blender)
    assert uv.reshape(-1, 3, 2)[0].tolist() == [[0, 1], [1, 0], [1, 1]]
    # colours: one per model vertex (point domain), byte/128
    ca = me.color_attributes["Col"]
    assert ca.domain == "POINT"
    col = np.empty(len(me.vertices) * 4, np.float32)
    ca.data.foreach_get("color_srgb", col)
    want = np.array(synthetic.COLORS0, np.float32) / 128
    want[:, 3] = 1
    # Blender keeps colours linear: sRGB -> linear -> sRGB costs ~3e-5
    np.testing.assert_allclose(col.reshape(-1, 4), want, atol=1e-4)
    tex = np.empty(2, np.int32)
    me.attributes["wadkit_texture"].data.foreach_get("value", tex)
    assert tex.tolist() == [0, 1]
    # tile 0 has one colour set, tile 1 two: the second is "Col2"
    assert "Col2" not in me.color_attributes
    t1c2 = bpy.data.objects["lvl tile 1"].data.color_attributes["Col2"]
    c2 = np.empty(len(t1c2.data) * 4, np.float32)
    t1c2.data.foreach_get("color_srgb", c2)
    np.testing.assert_allclose(c2.reshape(-1, 4)[:, :3], 0.5, atol=1e-4)
    flags = np.empty(2, np.int32)
    me.attributes["wadkit_face_flags"].data.foreach_get("value", flags)
    assert flags.tolist() == [0, 8]
    t1 = bpy.data.objects["lvl tile 1"].data
    col1 = np.empty(len(t1.vertices) * 4, np.float32)
    t1.color_attributes["Col"].data.foreach_get("color_srgb", col1)
    assert col1.reshape(-1, 4)[2].tolist() == pytest.approx([0.125, 0.75, 0.5, 1.0], abs=1e-4)


def test_materials_and_images(scene):
    import_eng(bpy.context, synthetic.level(), name="lvl", merge="TILE")
    mats = {m.name: m for m in bpy.data.materials}
    # one per (page, blend, flat colour): page 0 opaque, page 1 blend 2, flat ff8000
    assert set(mats) == {"lvl page 00 b0", "lvl page 01 b2", "lvl flat ff8000 b0"}
    imgs = {i.name: i for i in bpy.data.images}
    assert set(imgs) == {"lvl page 00", "lvl page 01"}
    img = imgs["lvl page 00"]
    assert tuple(img.size) == (8, 4)
    assert img.packed_file is not None
    px = np.empty(8 * 4 * 4, np.float32)
    img.pixels.foreach_get(px)
    px = px.reshape(4, 8, 4)
    # file row 0 (top) is Blender's last row; texel (0,0) is transparent
    assert px[3, 0, 3] == 0.0
    assert px[2, 0].tolist() == pytest.approx([200 / 255, 0, 0, 1])
    semi = mats["lvl page 01 b2"]
    opaque = mats["lvl page 00 b0"]
    if hasattr(semi, "surface_render_method"):
        assert semi.surface_render_method == "BLENDED"
        assert opaque.surface_render_method == "DITHERED"
    # texel x vertex colour feeds the base colour; image alpha feeds alpha
    bsdf = opaque.node_tree.nodes["Principled BSDF"]
    mix = bsdf.inputs["Base Color"].links[0].from_node
    assert mix.blend_type == "MULTIPLY"
    kinds = {link.from_node.bl_idname for inp in mix.inputs if inp.is_linked for link in inp.links}
    assert kinds == {"ShaderNodeTexImage", "ShaderNodeMix"}
    # the vertex colour, or white where the mesh has none (by its alpha)
    white = opaque.node_tree.nodes["wadkit colour or white"]
    assert {link.from_socket.name for inp in white.inputs if inp.is_linked
            for link in inp.links} == {"Color", "Alpha"}
    assert {link.from_node.bl_idname for inp in white.inputs if inp.is_linked
            for link in inp.links} == {"ShaderNodeVertexColor"}
    assert bsdf.inputs["Alpha"].links[0].from_socket.name == "Alpha"
    # material slots of tile 0: page 0 then page 1
    t0 = bpy.data.objects["lvl tile 0"]
    assert [s.material.name for s in t0.material_slots] == ["lvl page 00 b0", "lvl page 01 b2"]
    idx = np.empty(2, np.int32)
    t0.data.polygons.foreach_get("material_index", idx)
    assert idx.tolist() == [0, 1]


def _render_pixels(path, width, height):
    """Cycles render of the scene, as (height, width, 4) floats."""
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = 4
    sc.cycles.use_denoising = False
    sc.render.resolution_x, sc.render.resolution_y = width, height
    sc.render.resolution_percentage = 100
    sc.render.image_settings.file_format = "PNG"
    sc.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(str(path))
    px = np.empty(width * height * 4, np.float32)
    img.pixels.foreach_get(px)
    return px.reshape(height, width, 4)


@pytest.mark.every_blender
def test_a_mesh_without_colours_shows_its_material_not_black(scene, tmp_path):
    """A mesh the user made and gave a level material, without the import's
    colour attribute, renders like the same mesh with white colours (it
    used to render black: the material multiplied by a missing attribute)."""
    coll = import_eng(bpy.context, synthetic.level(), name="lvl")
    coll.hide_render = True
    mat = bpy.data.materials["lvl flat ff8000 b0"]
    for x, colours in ((-1.05, True), (1.05, False)):
        me = bpy.data.meshes.new(f"plane {colours}")
        me.from_pydata([(x - 1, -1, 0), (x + 1, -1, 0), (x + 1, 1, 0), (x - 1, 1, 0)], [],
                       [(0, 1, 2, 3)])
        me.materials.append(mat)
        if colours:
            ca = me.color_attributes.new("Col", "FLOAT_COLOR", "CORNER")
            ca.data.foreach_set("color", np.ones(16, np.float32))
        ob = bpy.data.objects.new(me.name, me)
        bpy.context.scene.collection.objects.link(ob)
    cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
    cam.data.type = "ORTHO"
    cam.data.ortho_scale = 4.2
    cam.location = (0, 0, 5)
    bpy.context.scene.collection.objects.link(cam)
    bpy.context.scene.camera = cam
    world = bpy.data.worlds.new("w")             # uniform white light, no lamp
    if world.node_tree is None:                  # Blender 5.0 makes the tree itself
        world.use_nodes = True
    bg = next(n for n in world.node_tree.nodes if n.type == "BACKGROUND")
    bg.inputs["Color"].default_value = (1.0, 1.0, 1.0, 1.0)
    bg.inputs["Strength"].default_value = 1.0
    bpy.context.scene.world = world
    px = _render_pixels(tmp_path / "r.png", 16, 8)
    with_col, without = px[2:6, 2:6, :3].mean((0, 1)), px[2:6, 10:14, :3].mean((0, 1))
    assert with_col[0] > 0.3 and with_col[0] > 2 * with_col[2]       # orange
    assert without == pytest.approx(with_col, abs=0.03)


def test_objects_collection_with_bone_groups(scene):
    coll = import_eng(bpy.context, synthetic.level(), name="lvl")
    sub = coll.children["lvl Objects"]
    arm, ob = sorted(sub.objects, key=lambda o: o.type)
    assert (arm.type, ob.parent) == ("ARMATURE", arm)
    assert len(ob.data.polygons) == 3
    assert [g.name for g in ob.vertex_groups] == ["bone 0", "bone 1"]
    in_b1 = [v.index for v in ob.data.vertices
             if any(g.group == ob.vertex_groups["bone 1"].index for g in v.groups)]
    assert in_b1 == [1, 2, 3]


def test_options(scene):
    coll = import_eng(bpy.context, synthetic.level(), name="z", objects=False,
                      vertex_colors=False, merge="ZONE")
    assert sorted(o.name for o in coll.all_objects) == ["z zone 0", "z zone 1"]
    assert len(bpy.data.objects["z zone 1"].data.color_attributes) == 0
    assert not coll.children


def test_failure_leaves_nothing(scene):
    before = datablock_counts()
    lvl = synthetic.level()

    class Boom(Exception):
        pass

    def bad_objects():
        raise Boom("late failure")
        yield  # noqa

    lvl.objects = type("L", (), {"__len__": lambda s: 1,
                                 "__iter__": lambda s: bad_objects()})()
    with pytest.raises(Boom):
        import_eng(bpy.context, lvl, name="lvl")
    assert datablock_counts() == before
    assert not bpy.context.scene.collection.children


def test_axis_mapping_round_trip():
    p = np.array([[1, 2, 3], [-4, 5.5, -6]], np.float32)
    b = convert.to_blender(p)
    assert b.tolist() == [[1, -3, 2], [-4, 6, 5.5]]
    assert convert.to_file(b).tolist() == p.tolist()
