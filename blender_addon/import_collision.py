"""Collision in Blender: one mesh per model (its decoded records, tile-local,
lvl.collision_polygons), shown by one child object per tile that uses the
model, so the collision moves, turns, deletes and duplicates with its tile.

Face attributes keep what the export and the floor tools read back: the
record's type, group (A/B/C), ground material and record number."""
from __future__ import annotations

import numpy as np

from . import convert, materials
from .import_tiles import PROP_MODEL, face_slots
from .edit_track import MeshRecord
from .mesh_build import MeshArrays, build_meshes

PROP_COLLISION = "wadkit_collision"     # object: the model whose collision it shows
# tile object: its collision child was made (by the import or Build collision);
# level collection: its tile objects carry that mark (imports since the mark)
PROP_HAS_CHILD = "wadkit_collision_child"
PROP_MARKS = "wadkit_collision_marks"
ATTR_TYPE = "wadkit_type"
ATTR_GROUP = "wadkit_group"
ATTR_MATERIAL = "wadkit_material"
ATTR_POLYGON = "wadkit_polygon"         # record number in its model (A+B+C)


def collision_meshes(lvl, created, level: str, model_ids, notes: list, tiles_of,
                     ground: dict | None = None):
    """({model: mesh} for the models that have collision polygons with a
    shape, their edit_track.MeshRecord or None). Records whose corners are
    not finite (planes that do not meet) have no shape: they are left out
    and listed in notes (with tiles_of(model) -> the tiles that use it).
    ground: {ground material: bpy material} to use instead of making one
    (Build collision reuses the import's)."""
    model_ids = np.asarray(model_ids, np.int64)
    c = lvl.collision_polygons(model_ids)
    n = np.asarray(c["n_corners"], np.int64)
    if not len(n):
        return {}, None
    corners = np.asarray(c["corners"], np.float32).reshape(-1, 4, 3)
    used = np.arange(4)[None, :] < n[:, None]
    good = (np.isfinite(corners).all(axis=2) | ~used).all(axis=1) & (n >= 3) & (n <= 4)
    owner = np.repeat(np.arange(len(model_ids)), np.diff(c["start"]))
    if not good.all():
        bad_m, bad_n = np.unique(model_ids[owner[~good]], return_counts=True)
        where = ", ".join(f"model {m} (tiles {_few(tiles_of(m))}): {k}"
                          for m, k in zip(bad_m[:8].tolist(), bad_n[:8].tolist()))
        more = " ..." if len(bad_m) > 8 else ""
        notes.append(f"{int((~good).sum())} collision record(s) have no corners (their "
                     f"planes do not meet) and were left out of the scene; they stay in "
                     f"the level unless that model's collision is edited ({where}{more})")
    keep = np.flatnonzero(good)
    if not len(keep):
        return {}, None
    gi_all = owner[keep]
    groups, gi = np.unique(gi_all, return_inverse=True)     # models with polygons
    f_start = np.searchsorted(gi, np.arange(len(groups) + 1)).astype(np.int64)
    sizes = n[keep]
    face_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    pos = convert.to_blender(corners[keep][used[keep]])    # every corner its own vertex
    arr = MeshArrays(pos, face_start[f_start], np.arange(len(pos)), face_start, f_start)
    mat = np.asarray(c["material"], np.int64)[keep]
    ground = ground or {}
    cmats = {int(m): ground.get(int(m)) or created.add("materials", materials.collision_material(
        f"{level} ground {int(m):02x}", int(m))) for m in np.unique(mat)}
    mat_ids = np.array(sorted(cmats))
    arr.material_index, slot_mats = face_slots(gi, np.searchsorted(mat_ids, mat), len(groups))
    arr.face_int = {ATTR_TYPE: np.asarray(c["type"], np.int64)[keep],
                    ATTR_GROUP: np.asarray(c["group"], np.int64)[keep],
                    ATTR_MATERIAL: mat,
                    ATTR_POLYGON: np.asarray(c["polygon"], np.int64)[keep]}
    ms = model_ids[groups]
    names = [f"{level} collision {int(m)}" for m in ms]
    meshes = build_meshes(names, arr, [[cmats[int(mat_ids[k])] for k in s] for s in slot_mats],
                          created)
    out = {}
    for m, me in zip(ms.tolist(), meshes):
        me[PROP_MODEL] = m
        out[m] = me
    return out, MeshRecord.of_arrays(meshes, ms.reshape(-1, 1), arr, names=(ATTR_MATERIAL,))


def _few(tiles) -> str:
    t = list(tiles)
    return ", ".join(map(str, t[:4])) + (" ..." if len(t) > 4 else "")


def child_tiles(tile_model, meshes: dict) -> list[int]:
    """The tiles that get a collision child: those whose model has a mesh."""
    return [t for t, m in enumerate(np.asarray(tile_model).tolist()) if m in meshes]


def child_name(tile_name: str) -> str:
    return f"{tile_name} collision"


def setup_children(children, parents, models) -> None:
    """Collision child objects at their tile's origin (tile space), drawn as
    wire, not rendered. children[k] belongs to parents[k], shows model
    models[k]. Each parent is marked as having had its child made."""
    for ch, ob, m in zip(children, parents, models):
        ob[PROP_HAS_CHILD] = 1
        if ch.name != child_name(ob.name) and not ch.name.startswith(child_name(ob.name)):
            ch.name = child_name(ob.name)       # the tile's name was taken: follow it
        ch.parent = ob
        ch.hide_render = True
        ch.display_type = "WIRE"
        ch[PROP_COLLISION] = int(m)
