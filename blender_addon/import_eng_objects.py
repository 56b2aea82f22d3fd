"""STPC object models -> Blender: textured meshes (UVs and materials as the
glTF export makes them: wadkit.export.levels.model_uvs and the level's
materials), and for skinned models an armature with one bone per bone group
whose actions are the level's animations (lvl.bone_matrices: one matrix per
bone and frame, as the renderer applies it).

Which animation belongs to which model is not in the file as far as our
sources know: every animation whose bone count is the model's becomes an
action of that model's armature [assumed], the first of them assigned.
Decoded frame f is Blender frame f + 1. docs/blender.md "STPC objects"."""
from __future__ import annotations

import bpy
import numpy as np
from mathutils import Matrix

from . import convert
from .mesh_build import build_mesh, drop_degenerate

PROP_OBJECT = "wadkit_object"           # object (mesh and armature): the STPC model
PROP_ANIMATION = "wadkit_animation"     # action: the animation number
BONE_LENGTH = 0.1                       # display length of a bone (rest: identity)
FIRST_FRAME = 1                         # Blender frame of decoded frame 0
ATTR_TEXTURE = "wadkit_texture"
ATTR_FLAGS = "wadkit_face_flags"

# file space -> Blender space as a matrix (convert.to_blender: (x, -z, y))
_TO_BLENDER = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], np.float64)


def to_blender_matrices(m: np.ndarray) -> np.ndarray:
    """(..., 4, 4) file-space matrices on column vectors -> Blender space:
    R·M·Rᵀ with R the axis change (translation R·t)."""
    m = np.asarray(m, np.float64)
    out = np.zeros(m.shape, np.float64)
    r = _TO_BLENDER
    out[..., :3, :3] = r @ m[..., :3, :3] @ r.T
    out[..., :3, 3] = m[..., :3, 3] @ r.T
    out[..., 3, :] = m[..., 3, :]
    return out


def import_objects(context, lvl, created, name: str, mats, notes: list) -> list:
    """The STPC models laid out in a row along +x beside the level (they have
    no place of their own in the level file). mats: the import's materials
    (of_textures, by_index). Returns the objects made (armatures and the
    meshes parented to them)."""
    textures = mats.table
    from wadkit.export.levels import model_uvs
    anims = lvl.animations
    by_bones: dict[int, list[int]] = {}
    for k, a in enumerate(anims):
        if a["n_bones"] and a["n_frames"]:
            by_bones.setdefault(int(a["n_bones"]), []).append(k)
    out, x = [], 0.0
    skinned = []
    for i, m in enumerate(lvl.objects):
        tri = np.asarray(m.triangles, np.int64).reshape(-1, 3)
        keep = drop_degenerate(tri)
        pos = convert.to_blender(m.positions)
        tex = np.asarray(m.face_texture, np.int64)[keep]
        uv = model_uvs(m, textures) if textures is not None else None
        mat = mats.of_textures(tex)
        used, slot = np.unique(mat, return_inverse=True)
        me = created.add("meshes", build_mesh(
            f"{name} object {i}", pos, tri[keep],
            uv=None if uv is None else convert.flip_v(uv[keep]),
            colors={"Col": np.ones((len(keep), 3, 4), np.float32)},
            material_index=slot.ravel(),
            face_int={ATTR_TEXTURE: tex,
                      ATTR_FLAGS: np.asarray(m.face_flags, np.int64)[keep]}))
        for k in used.tolist():
            me.materials.append(mats.by_index[k])
        ob = created.add("objects", bpy.data.objects.new(f"{name} object {i}", me))
        ob[PROP_OBJECT] = i
        top = ob
        counts = np.asarray(getattr(m, "bone_counts", ()), np.int64)
        if len(counts):
            start = len(pos) - int(counts.sum())      # rigid vertices first, if any
            for b, c in enumerate(counts.tolist()):   # vertices are grouped by bone
                vg = ob.vertex_groups.new(name=f"bone {b}")
                vg.add(list(range(start, start + c)), 1.0, "REPLACE")
                start += c
            top = _armature(created, f"{name} object {i} armature", len(counts))
            top[PROP_OBJECT] = i
            ob.parent = top
            mod = ob.modifiers.new("Armature", "ARMATURE")
            mod.object = top
            skinned.append((top, i, by_bones.get(len(counts), [])))
            out.append(top)
        if len(pos):
            width = float(pos[:, 0].max() - pos[:, 0].min())
            top.location = (x - float(pos[:, 0].min()), -4.0, 0.0)
            x += width + 1.0
        out.append(ob)
    if skinned:
        _make_bones(context, [t for t, _i, _a in skinned])
        bad = 0
        for arm, i, ks in skinned:
            for k in ks:
                bad += _action(created, arm, f"{name} object {i} anim {k}", k,
                               lvl.bone_matrices(k))
            if ks:
                arm.animation_data.action = bpy.data.actions[f"{name} object {i} anim {ks[0]}"]
        if bad:
            notes.append(f"{bad} bone matrices of the animations are not a turn, scale "
                         "and move (shear): their actions show the nearest such pose")
    bones = {len(np.asarray(getattr(m, "bone_counts", ()))) for m in lvl.objects}
    lone = [k for n, ks in by_bones.items() if n not in bones for k in ks]
    if lone:
        notes.append(f"{len(lone)} animation(s) have a bone count no object model has "
                     f"(animation {', '.join(map(str, lone[:6]))}"
                     f"{' ...' if len(lone) > 6 else ''}): not imported as actions")
    return out


def _armature(created, label: str, n_bones: int):
    arm = created.add("armatures", bpy.data.armatures.new(label))
    ob = created.add("objects", bpy.data.objects.new(label, arm))
    ob["wadkit_bones"] = n_bones
    return ob


def _make_bones(context, arms) -> None:
    """One bone per bone group in each armature, rest pose the identity
    (head at the origin, tail along +y): a pose matrix is then the frame
    matrix itself. Bones need edit mode: the armatures are linked to the
    scene for that moment."""
    scene, layer = context.scene, context.view_layer
    if context.mode != "OBJECT" and context.active_object is not None:
        bpy.ops.object.mode_set(mode="OBJECT")
    active = layer.objects.active
    selected = [o for o in layer.objects if o.select_get()]
    for o in selected:
        o.select_set(False)
    for ob in arms:
        scene.collection.objects.link(ob)
        ob.select_set(True)
    try:
        layer.objects.active = arms[0]
        bpy.ops.object.mode_set(mode="EDIT")       # every selected armature
        for ob in arms:
            eb = ob.data.edit_bones
            for b in range(ob["wadkit_bones"]):
                bone = eb.new(f"bone {b}")
                bone.head = (0.0, 0.0, 0.0)
                bone.tail = (0.0, BONE_LENGTH, 0.0)
        bpy.ops.object.mode_set(mode="OBJECT")
    finally:
        for ob in arms:
            ob.select_set(False)
            scene.collection.objects.unlink(ob)
        for o in selected:
            o.select_set(True)
        layer.objects.active = active


_CHANNELS = (("location", 3), ("rotation_quaternion", 4), ("scale", 3))


def _action(created, arm, label: str, k: int, file_mats: np.ndarray) -> int:
    """An action of armature arm from one animation's matrices (nFrames,
    nBones, 4, 4) in file space: per bone location, quaternion and scale
    keyed at every frame. Returns how many matrices did not decompose
    exactly (shear)."""
    act = created.add("actions", bpy.data.actions.new(label))
    act[PROP_ANIMATION] = k
    act.use_fake_user = True               # kept when another action is shown
    ad = arm.animation_data or arm.animation_data_create()
    ad.action = act
    m = to_blender_matrices(file_mats)
    n_frames, n_bones = m.shape[:2]
    frames = np.arange(n_frames, dtype=np.float32) + FIRST_FRAME
    bad = 0
    for b in range(n_bones):
        vals = np.zeros((n_frames, 10), np.float32)
        prev = None
        for f in range(n_frames):
            mat = Matrix(m[f, b].tolist())
            loc, rot, scale = mat.decompose()
            if prev is not None and rot.dot(prev) < 0:
                rot.negate()                   # the same turn, no flip between keys
            prev = rot
            vals[f] = (*loc, *rot, *scale)
            back = np.array(Matrix.LocRotScale(loc, rot, scale))
            bad += int(np.abs(back - m[f, b]).max() > 1e-4 * max(1.0, np.abs(m[f, b]).max()))
        pb = arm.pose.bones[b]
        pb.rotation_mode = "QUATERNION"
        col = 0
        for path, n in _CHANNELS:
            for c in range(n):
                fc = act.fcurve_ensure_for_datablock(
                    arm, f'pose.bones["{pb.name}"].{path}', index=c)
                fc.keyframe_points.add(n_frames)
                co = np.empty(2 * n_frames, np.float32)
                co[0::2], co[1::2] = frames, vals[:, col]
                fc.keyframe_points.foreach_set("co", co)
                fc.keyframe_points.foreach_set(
                    "interpolation", np.full(n_frames, _LINEAR, np.int32))
                fc.update()
                col += 1
    return bad


_LINEAR = bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items["LINEAR"].value
