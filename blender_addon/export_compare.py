"""Which tile meshes, colours, collision meshes and placements the user
changed: the scene's arrays (export_batch.Batch) against what the import
makes of the base level, all meshes at once."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from . import convert, edit_track
from .export_batch import Batch, compare_runs, segment_any
from .export_read import COLOR_ATTRS
from .import_collision import ATTR_MATERIAL
from .import_tiles import ATTR_FLAGS, ATTR_TEXTURE, PROP_COLOR_TILE, PROP_MODEL, tile_mesh_arrays
from .materials_map import PROP_GROUND
from .mesh_build import srgb_to_linear

PLACE_EPS = 1e-6        # Blender units: a location this close to the tile's is the same
MATRIX_EPS = 1e-5       # a 3x3 part this close to a pure turn about z is one


def _int_prop(me, name):
    v = me.get(name)
    return int(v) if isinstance(v, int) else -1


def render_changes(base, meshes, textures, track=None):
    """For tile meshes: (changed (G,) bool, colours_changed (G,) bool, has
    colours (G,) bool, model (G,), rep (G,)). A mesh is unchanged when it
    is bit for bit what the import made of its model (wadkit_model) with
    the colours of its tile (wadkit_color_tile). track: (session record,
    users: the objects showing each mesh) for edit_track.unchanged: the meshes it
    vouches for are not read again."""
    g = len(meshes)
    model = np.array([_int_prop(me, PROP_MODEL) for me in meshes], np.int64)
    rep = np.array([_int_prop(me, PROP_COLOR_TILE) for me in meshes], np.int64)
    trusted = np.zeros(g, bool)
    if track is not None:
        rec, users = track
        trusted, row = edit_track.vouched(rec, meshes, np.stack([model, rep], axis=1), users)
    changed = np.zeros(g, bool)
    colors_changed = np.zeros(g, bool)
    has_col = np.zeros(g, bool)
    if trusted.any():
        has_col[trusted] = rec.has_color[row[trusted]]
    rest = np.flatnonzero(~trusted)
    if len(rest):
        sub = _read_changes(base, [meshes[i] for i in rest.tolist()], textures,
                            model[rest], rep[rest])
        changed[rest], colors_changed[rest], has_col[rest] = sub
    return changed, colors_changed, has_col, model, rep


def _read_changes(base, meshes, textures, model, rep):
    """render_changes for meshes read whole: (changed, colours_changed,
    has colours), each (G,) bool."""
    b = Batch(meshes, colors=COLOR_ATTRS, ints=(ATTR_TEXTURE, ATTR_FLAGS))
    g = len(meshes)
    known = (model >= 0) & (rep >= 0) & (rep < base.n_tiles)
    known[known] = base.tile_model[rep[known]] == model[known]
    changed = ~known
    idx = np.flatnonzero(known)
    # the models of these meshes only (an edit of one tile reads one model)
    used, local = np.unique(model[idx], return_inverse=True)
    lay = SimpleNamespace(rep=rep[idx], model=local.reshape(-1), f_start=base.face_start,
                          sets=base.color_sets, colors=base.color_bytes,
                          color_start=base.color_start)
    models = base.models
    ref, _ = tile_mesh_arrays(lay, [models[m] for m in used.tolist()], base.wm, True,
                              lambda tex: np.zeros(len(tex), np.int64))
    sub = np.zeros(g, bool)
    sub[idx] = True

    def cmp(a, a_start, r, r_start):
        """Compare runs of the known meshes with the reference's runs."""
        out = np.zeros(g, bool)
        full_r = np.zeros(g + 1, np.int64)
        # reference runs laid out for all meshes (empty where unknown)
        lens = np.zeros(g, np.int64)
        lens[idx] = np.diff(r_start)
        full_r[1:] = np.cumsum(lens)
        out |= compare_runs(a, a_start, r, full_r, sub)
        return out

    ref_pos = ref.positions.reshape(-1, 3)
    changed |= cmp(b.positions, b.v_start, ref_pos, ref.v_start)
    corner_start = ref.face_start[ref.f_start]
    local = ref.corner_vert - np.repeat(ref.v_start[:-1], np.diff(corner_start))
    changed |= cmp(b.corner_vert, b.l_start, local, corner_start)
    changed |= segment_any(b.sizes != 3, b.f_start)
    changed |= ~b.has_uv | b.corner_colored
    changed |= cmp(b.uv, b.l_start, ref.uv, corner_start)
    for name, key in ((ATTR_TEXTURE, ATTR_TEXTURE), (ATTR_FLAGS, ATTR_FLAGS)):
        arr, has = b.ints[name]
        changed |= ~has
        changed |= cmp(arr, b.f_start, ref.face_int[key].astype(np.int32), ref.f_start)
    changed |= ~_materials_kept(b, textures)
    colors_changed = np.zeros(g, bool)
    for name in COLOR_ATTRS:
        arr, has = b.colors[name]
        got = ref.point_colors.get(name)
        if got is None:
            colors_changed |= has                   # a second set the tile lacks
            continue
        disp, which = got
        want = np.zeros(g, bool)
        want[idx] = True if which is None else which
        colors_changed |= has != want
        lin = srgb_to_linear(disp)              # over every reference vertex
        lens = np.zeros(g, np.int64)
        lens[idx] = np.diff(ref.v_start)
        r_start = np.concatenate([[0], np.cumsum(lens)])
        colors_changed |= compare_runs(arr, b.v_start, lin, r_start, has & want)
    return changed, colors_changed, b.colors[COLOR_ATTRS[0]][1]


def _materials_kept(b: Batch, textures) -> np.ndarray:
    """(G,) bool: every face's material stands for its texture attribute."""
    tex, has = b.ints[ATTR_TEXTURE]
    nslots = np.array([len(m) for m in b.materials], np.int64)
    slot_start = np.concatenate([[0], np.cumsum(nslots)])
    ptr = np.array([0 if m is None else m.as_pointer() for ms in b.materials for m in ms]
                   + [0], np.int64)
    for ms in b.materials:
        for m in ms:
            textures.entries_of(m)                  # fills the entry -> material table
    g_face = np.repeat(np.arange(len(b)), np.diff(b.f_start))
    mi = np.clip(b.material_index, 0, np.maximum(nslots[g_face] - 1, 0))
    actual = np.where(nslots[g_face] > 0, ptr[slot_start[g_face] + mi], 0)
    lut = textures.lut
    inside = (tex >= 0) & (tex < len(lut))
    ok = inside & (lut[np.where(inside, tex, 0)] == actual)
    bad = segment_any(~ok, b.f_start)
    for k in np.flatnonzero(bad).tolist():       # another material for the same entry?
        f0, f1 = b.f_start[k], b.f_start[k + 1]
        ms = b.materials[k] or [None]
        slot = np.clip(b.material_index[f0:f1], 0, len(ms) - 1)
        fine = True
        for s in np.unique(slot).tolist():
            fine &= bool(np.isin(tex[f0:f1][slot == s], textures.entries_of(ms[s])).all())
        bad[k] = not fine
    return ~bad


def collision_changes(base, meshes, track=None):
    """For collision meshes: (changed (G,), model (G,)). Unchanged: the
    polygons of its model (wadkit_model) as the import showed them, corner
    for corner, with the same ground materials. The reference of all
    meshes read is decoded in one call, in mesh order. track: as for
    render_changes."""
    g = len(meshes)
    model = np.array([_int_prop(me, PROP_MODEL) for me in meshes], np.int64)
    changed = np.zeros(g, bool)
    trusted = np.zeros(g, bool)
    epoch = edit_track.mesh_tags()
    if track is not None:
        rec, users = track
        trusted = edit_track.unchanged(rec, meshes, model.reshape(-1, 1), users)
    rest = np.flatnonzero(~trusted)
    if len(rest):
        changed[rest] = _read_collision([meshes[i] for i in rest.tolist()], base, model[rest])
        if track is not None:           # all as the base level: trusted from here on
            edit_track.rearm(track[0], meshes, ~changed, epoch)
    return changed, model


def _read_collision(meshes, base, model) -> np.ndarray:
    b = Batch(meshes, uv=False, ints=(ATTR_MATERIAL,))
    g = len(meshes)
    known = np.array([base.has_model(int(m)) for m in model], bool)
    c = base.lvl.collision_polygons(model[known])
    n = np.asarray(c["n_corners"], np.int64)
    corners = np.asarray(c["corners"], np.float32).reshape(-1, 4, 3)
    used = np.arange(4)[None, :] < n[:, None]
    good = (np.isfinite(corners).all(axis=2) | ~used).all(axis=1) & (n >= 3) & (n <= 4)
    owner = np.repeat(np.arange(int(known.sum())), np.diff(c["start"]))
    npoly = np.zeros(g, np.int64)
    npoly[known] = np.bincount(owner[good], minlength=int(known.sum()))
    sizes = n[good].astype(np.int32)
    ncorner = np.zeros(g, np.int64)
    ncorner[known] = np.bincount(owner[good], weights=sizes, minlength=int(known.sum()))
    p_start = np.concatenate([[0], np.cumsum(npoly)])
    c_start = np.concatenate([[0], np.cumsum(ncorner)])
    r_corners = convert.to_blender(corners[good][used[good]])
    r_mat = np.asarray(c["material"], np.int32)[good]
    changed = ~known
    changed |= compare_runs(b.sizes, b.f_start, sizes, p_start, known)
    corner_pos = b.positions[b.corner_vert + np.repeat(b.v_start[:-1], np.diff(b.l_start))]
    changed |= compare_runs(corner_pos, b.l_start, r_corners, c_start, known)
    changed |= compare_runs(ground_materials(b), b.f_start, r_mat, p_start, known)
    return changed


def ground_materials(b: Batch) -> np.ndarray:
    """(F,) ground material of every face, as collision_material_of takes
    it: the wadkit_material attribute, else the face's ground material,
    else 0."""
    attr, has = b.ints[ATTR_MATERIAL]
    nslots = np.array([len(m) for m in b.materials], np.int64)
    slot_start = np.concatenate([[0], np.cumsum(nslots)])
    ground = [m.get(PROP_GROUND) if m is not None else None for ms in b.materials for m in ms]
    lut = np.array([x if isinstance(x, int) else -1 for x in ground] + [-1], np.int32)
    g_face = np.repeat(np.arange(len(b)), np.diff(b.f_start))
    mi = np.clip(b.material_index, 0, np.maximum(nslots[g_face] - 1, 0))
    gm = np.where(nslots[g_face] > 0, lut[slot_start[g_face] + mi], -1)
    return np.where(has[g_face], attr, np.maximum(gm, 0)).astype(np.int32)


def placements(matrices: np.ndarray, base_rotation: np.ndarray):
    """What tile placement each world matrix (N,4,4) stands for: (position
    (N,3) file space, rotation (N,) = the base rotation turned by the
    nearest quarter turns, bake (N,) bool, residual (N,3,3) = what the
    matrix does beyond that turn, to go into the model where bake)."""
    m = np.asarray(matrices, np.float64).reshape(-1, 4, 4)
    a = m[:, :3, :3]
    theta = np.arctan2(a[:, 1, 0], a[:, 0, 0])
    units, _off = convert.rotation_units(theta)
    base_rotation = np.asarray(base_rotation, np.int64)
    q = np.rint(((units - base_rotation) % convert.ROTATION_UNITS) / convert.QUARTER)
    rot = (base_rotation + q.astype(np.int64) * convert.QUARTER) % convert.ROTATION_UNITS
    r = convert.z_rotation(convert.rotation_angle(rot))
    residual = np.einsum("nji,njk->nik", r, a)
    bake = np.abs(residual - np.eye(3)).reshape(len(m), -1).max(axis=1) > MATRIX_EPS
    pos = convert.snap(convert.to_file(m[:, :3, 3].astype(np.float32)))
    return pos, rot, bake, residual
