"""STPC objects in Blender: textured as the glTF export textures them, and
skinned models with an armature (one bone per bone group) whose actions are
the decoded animations, in both animation layouts (levels.objects_level,
built by the from-spec builders)."""
import warnings

import bpy
import numpy as np
import pytest

import wadkit
from wadkit.export.levels import model_uvs
from blender_addon import convert
from blender_addon.import_eng import import_eng
from blender_addon.import_eng_objects import FIRST_FRAME, to_blender_matrices

import levels


def _import(tmp_path, layout):
    p = tmp_path / f"objects_{layout}.wad"
    p.write_bytes(levels.objects_level(layout))
    lvl = wadkit.eng.open(p)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert lvl.animation_layout == layout
    assert any("Croc 2 layout" in str(w.message) for w in said) == (layout == "croc2")
    notes = []
    coll = import_eng(bpy.context, lvl, name="lvl", notes=notes)
    return lvl, coll, notes


def _corner_uvs(me):
    uv = np.empty(len(me.loops) * 2, np.float32)
    me.uv_layers.active.data.foreach_get("uv", uv)
    return uv.reshape(-1, 3, 2)


@pytest.mark.every_blender
@pytest.mark.parametrize("layout", ["spec", "croc2"])
def test_objects_are_textured_as_in_gltf(scene, tmp_path, layout):
    lvl, coll, _ = _import(tmp_path, layout)
    sub = coll.children["lvl Objects"]
    meshes = sorted((o for o in sub.objects if o.type == "MESH"), key=lambda o: o["wadkit_object"])
    assert [o["wadkit_object"] for o in meshes] == [0, 1, 2]
    for ob, m in zip(meshes, lvl.objects):
        want = convert.flip_v(model_uvs(m, lvl.textures))
        np.testing.assert_allclose(_corner_uvs(ob.data), want, atol=1e-6)
        # the level's materials: the entry's page and blend mode
        tex = m.face_texture.tolist()
        names = [ob.material_slots[p.material_index].material.name for p in ob.data.polygons]
        key = {0: "lvl page 00 b0", 1: "lvl flat ff8000 b0", 2: "lvl page 01 b1"}
        assert names == [key[t] for t in tex]
        col = ob.data.color_attributes["Col"]
        c = np.empty(len(col.data) * 4, np.float32)
        col.data.foreach_get("color", c)
        np.testing.assert_allclose(c, 1.0, atol=1e-6)   # white, as in the glTF export
    img = bpy.data.materials["lvl page 01 b1"].node_tree.nodes["wadkit texel"].image
    assert img.name == "lvl page 01"


def _posed_vertices(ob):
    deps = bpy.context.evaluated_depsgraph_get()
    ev = ob.evaluated_get(deps)
    me = ev.to_mesh()
    try:
        co = np.empty(len(me.vertices) * 3, np.float32)
        me.vertices.foreach_get("co", co)
    finally:
        ev.to_mesh_clear()
    return co.reshape(-1, 3)


@pytest.mark.every_blender
@pytest.mark.parametrize("layout", ["spec", "croc2"])
def test_skinned_objects_get_armatures_and_actions(scene, tmp_path, layout):
    lvl, coll, notes = _import(tmp_path, layout)
    sub = coll.children["lvl Objects"]
    arms = {o["wadkit_object"]: o for o in sub.objects if o.type == "ARMATURE"}
    assert sorted(arms) == [1, 2]                    # the two skinned models
    assert [b.name for b in arms[1].data.bones] == ["bone 0", "bone 1"]
    assert [b.name for b in arms[2].data.bones] == ["bone 0", "bone 1", "bone 2"]
    mesh1 = next(o for o in sub.objects if o.type == "MESH" and o["wadkit_object"] == 1)
    assert mesh1.parent == arms[1]
    assert mesh1.modifiers["Armature"].object == arms[1]
    # animations 0 and 1 have model 1's bone count; 2 (5 bones) fits none
    acts = sorted((a for a in bpy.data.actions if a.name.startswith("lvl object 1 ")),
                  key=lambda a: a["wadkit_animation"])
    assert [a["wadkit_animation"] for a in acts] == [0, 1]
    assert not [a for a in bpy.data.actions if a.name.startswith("lvl object 2 ")]
    assert any("1 animation(s) have a bone count no object model has (animation 2)" in n
               for n in notes)
    assert arms[1].animation_data.action == acts[0]
    counts = lvl.objects[1].bone_counts
    bone_of = np.repeat(np.arange(len(counts)), counts)
    file_pos = np.asarray(lvl.objects[1].positions, np.float64)
    for act in acts:
        k = act["wadkit_animation"]
        arms[1].animation_data.action = act
        decoded = lvl.bone_matrices(k)
        n_frames = lvl.animations[k]["n_frames"]
        assert decoded.shape[0] == n_frames
        assert tuple(act.frame_range) == (FIRST_FRAME, FIRST_FRAME + n_frames - 1)
        want = to_blender_matrices(decoded)
        for f in range(n_frames):
            bpy.context.scene.frame_set(FIRST_FRAME + f)
            for b in range(len(counts)):
                got = np.array(arms[1].pose.bones[b].matrix)
                np.testing.assert_allclose(got, want[f, b], atol=1e-5)
            # every vertex moved by its bone's frame matrix (file space, then
            # into Blender): what the renderer draws at that frame
            moved = np.einsum("vij,vj->vi", decoded[f][bone_of].astype(np.float64),
                              np.hstack([file_pos, np.ones((len(file_pos), 1))]))[:, :3]
            local = _posed_vertices(mesh1)
            np.testing.assert_allclose(local, convert.to_blender(moved), atol=1e-5)


def test_objects_off_makes_no_armatures_or_actions(scene, tmp_path):
    p = tmp_path / "o.wad"
    p.write_bytes(levels.objects_level())
    import_eng(bpy.context, wadkit.eng.open(p), name="lvl", objects=False)
    assert not bpy.data.armatures and not bpy.data.actions
