"""The RC2 collision object -> LevelEdit.set_collision; docs/blender-rc2.md,
"Collision".

The mesh is compared with what the import makes of lvl.collision()
(import_rc2.collision_faces): the same positions, faces and tags -> not
rewritten. Otherwise every face is written: triangles as triangles, quads
as quads (a, b, c, d), faces of five or more corners fanned into
triangles. A face's tag is its material's wadkit_tag (the import makes
one material per tag); a face whose material holds none keeps the
wadkit_tag face attribute (the tag it was imported with; a new face gets
its neighbour's), and a note counts them; without that attribute the
collision is not written (a note says so)."""
from __future__ import annotations

import numpy as np

from . import edit_track
from .export_read import MeshData, slot_values
from .import_rc2 import ATTR_TAG, collision_faces
from .mesh_build import ranges

POS_EPS = 1e-6


def slot_tags(ob) -> list[int]:
    """The collision tag of each material slot (its material's wadkit_tag),
    -1 for a slot whose material holds none."""
    out = []
    for slot in ob.material_slots:
        t = slot.material.get(ATTR_TAG) if slot.material is not None else None
        ok = isinstance(t, int) and not isinstance(t, bool) and 0 <= t <= 255
        out.append(t if ok else -1)
    return out


def tracked_props(ob) -> list[int] | None:
    """What decides how the mesh of ob is read besides its data (for
    edit_track): the slots' tags and whether material_index is there; None
    when ob is moved or a slot holds no tag (those go the whole way)."""
    tags = slot_tags(ob)
    eye = np.eye(4)
    if not tags or min(tags) < 0 or not np.array_equal(np.array(ob.matrix_basis), eye) \
            or not np.array_equal(np.array(ob.matrix_world), eye):
        return None
    return [int(ob.data.attributes.get("material_index") is not None), len(tags)] + tags


def read(ob) -> dict:
    """World positions (V,3) f32, corners (L,), sizes (F,), starts (F,),
    tag per face from the materials (-1: the face's material holds none),
    the stored wadkit_tag attribute (export_read.MeshData)."""
    d = MeshData(ob.data, uv=False, ints=(ATTR_TAG,))
    co = d.positions
    m = np.array(ob.matrix_basis if ob.parent is None else ob.matrix_world, np.float64)
    if not np.array_equal(m, np.eye(4)):
        co = (co @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
    return {"co": co, "corners": d.corner_vert.astype(np.int64),
            "sizes": d.sizes.astype(np.int64), "starts": d.starts.astype(np.int64),
            "tag": slot_values(slot_tags(ob), d.material_index), "stored": d.ints[ATTR_TAG]}


def collision(lvl, ed, ob, notes, session=None, seen=None) -> bool:
    """The collision edits of object ob into ed; True when it changed.
    session: the level's edit_track.Imported (or None): a mesh it vouches
    for is the one an earlier export found to be the base level's
    collision, and is not read. seen (a dict) gets "collision" ->
    ("trusted",) or ("same", ob, tracked_props(ob)) when the compare found
    it unchanged (export_rc2 records it)."""
    seen = {} if seen is None else seen
    props = tracked_props(ob)
    if session is not None and session.collision is not None and props is not None \
            and edit_track.unchanged_one(session.collision, ob, props):
        seen["collision"] = ("trusted",)
        return False
    r = read(ob)
    no_mat = r["tag"] < 0
    if no_mat.any():
        stored = r["stored"]
        if stored is None or ((stored[no_mat] < 0) | (stored[no_mat] > 255)).any():
            notes.append(f"{ob.name}: {int(no_mat.sum())} faces have no collision tag (a "
                         f"material with a {ATTR_TAG} property, or the {ATTR_TAG} face "
                         "attribute); the collision is not written")
            return False
        r["tag"] = np.where(no_mat, stored, r["tag"])
    pos0, corners0, sizes0, tags0, dropped = collision_faces(lvl.collision())
    if len(r["co"]) == len(pos0) and np.array_equal(r["sizes"], sizes0) \
            and np.array_equal(r["corners"], corners0) and np.array_equal(r["tag"], tags0) \
            and np.abs(r["co"] - pos0).max(initial=0) <= POS_EPS:
        if props is not None:
            seen["collision"] = ("same", ob, props)
        return False
    if no_mat.any():
        notes.append(f"{ob.name}: {int(no_mat.sum())} faces have a material that is no "
                     f"collision tag material; their {ATTR_TAG} attribute was written")
    if dropped:
        notes.append(f"{ob.name}: {dropped} faces of the base level with fewer than three "
                     "distinct corners (left out by the import) are not written back")
    sizes, starts, corners = r["sizes"], r["starts"], r["corners"]
    tri_f = np.flatnonzero(sizes == 3)
    quad_f = np.flatnonzero(sizes == 4)
    big_f = np.flatnonzero(sizes > 4)
    tris = [corners[ranges(starts[tri_f], sizes[tri_f])].reshape(-1, 3)]
    tags = [r["tag"][tri_f]]
    if len(big_f):          # fans (a, k, k + 1) of the faces with 5+ corners
        n_fan = sizes[big_f] - 2
        face = np.repeat(big_f, n_fan)
        k = ranges(np.ones(len(big_f), np.int64), n_fan)
        s = starts[face]
        tris.append(np.stack([corners[s], corners[s + k], corners[s + k + 1]], axis=1))
        tags.append(r["tag"][face])
    tri = np.concatenate(tris)
    quads = corners[ranges(starts[quad_f], sizes[quad_f])].reshape(-1, 4)
    used, inverse = np.unique(np.concatenate([tri.reshape(-1), quads.reshape(-1)]),
                              return_inverse=True)
    n3 = tri.size
    ed.set_collision(r["co"][used], inverse[:n3].reshape(-1, 3).astype(np.uint32),
                     np.concatenate(tags).astype(np.uint8),
                     inverse[n3:].reshape(-1, 4).astype(np.uint32),
                     r["tag"][quad_f].astype(np.uint8))
    return True
