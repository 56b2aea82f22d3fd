"""The per-zone import (merge="ZONE"): one mesh per zone in world space,
straight from the world mesh (the core places the tiles). Every face keeps
its tile (face attribute wadkit_tile) and every vertex its model vertex
(point attribute wadkit_vertex), so that edits of existing faces can be
taken back to their tiles on export. Collision is not part of this view."""
from __future__ import annotations

import numpy as np

import wadkit

from . import convert, materials
from .import_tiles import ATTR_FLAGS, ATTR_TEXTURE, face_slots
from .mesh_build import MeshArrays, drop_degenerate, run_starts, sort_stable

PROP_ZONE = "wadkit_zone"           # object: zone number
ATTR_TILE = "wadkit_tile"           # face attribute: the tile of the face
ATTR_VERTEX = "wadkit_vertex"       # point attribute: vertex number in the tile's model


def tile_zones(lvl, ntiles: int) -> np.ndarray:
    """Zone number of every tile: lvl.zones.grid at the tile's cell."""
    grid = np.asarray(lvl.zones.grid)
    xz = np.asarray(lvl.tiles.cell_xz, np.int64).reshape(-1, 2)
    h, w = grid.shape
    x = np.clip(xz[:, 0], 0, w - 1)
    z = np.clip(xz[:, 1], 0, h - 1)
    out = grid[z, x].astype(np.int64)
    return out if len(out) else np.zeros(1, np.int64)


def _vertex_runs(corners: np.ndarray, gi_corner: np.ndarray, nverts: int, ngroups: int):
    """Renumber the vertices the corners use so that each group's vertices
    are one run, in their old order. Returns (source vertex of each new
    vertex, new vertex of each corner, v_start (G+1,)). A vertex used by
    two groups is duplicated."""
    vg = np.full(nverts, -1, np.int64)
    vg[corners] = gi_corner
    if np.array_equal(vg[corners], gi_corner):
        used = np.flatnonzero(vg >= 0)
        gu = vg[used]
        order = used if (np.diff(gu) >= 0).all() else used[sort_stable(gu)]
        new = np.empty(nverts, np.int64)
        new[order] = np.arange(len(order))
        return order, new[corners], run_starts(vg[order], ngroups)
    key = gi_corner * nverts + corners
    uniq, inv = np.unique(key, return_inverse=True)
    return uniq % nverts, inv.reshape(-1), run_starts(uniq // nverts, ngroups)


def zone_mesh_arrays(lvl, wm, models, mat_of_texture, vertex_colors: bool):
    """(zone numbers (G,), MeshArrays of one mesh per zone, each mesh's
    material list)."""
    ntiles = len(lvl.tiles.model)
    tri_all = np.asarray(wm["triangles"], np.int64)
    tile_of = np.asarray(wm["tile"], np.int64)
    zone_of_tile = tile_zones(lvl, ntiles)
    faces = drop_degenerate(tri_all)
    gkey = zone_of_tile[np.clip(tile_of[faces], 0, len(zone_of_tile) - 1)]
    if len(gkey) and (np.diff(gkey) < 0).any():
        order = sort_stable(gkey)
        faces, gkey = faces[order], gkey[order]
    gvals, gi = np.unique(gkey, return_inverse=True)
    f_start = np.searchsorted(gi, np.arange(len(gvals) + 1)).astype(np.int64)
    corners = tri_all[faces].reshape(-1)
    nv_all = len(wm["positions"])
    src, corner_vert, v_start = _vertex_runs(corners, np.repeat(gi, 3), nv_all, len(gvals))
    arr = MeshArrays(convert.to_blender(np.asarray(wm["positions"], np.float32)[src]),
                     v_start, corner_vert, np.arange(0, 3 * len(faces) + 1, 3), f_start)
    arr.uv = convert.flip_v(np.asarray(wm["uv"], np.float32)[faces]).reshape(-1, 2)
    texture = np.asarray(wm["texture"], np.int64)[faces]
    arr.face_int = {ATTR_TEXTURE: texture,
                    ATTR_FLAGS: np.asarray(wm["face_flags"], np.int64)[faces],
                    ATTR_TILE: tile_of[faces]}
    # model vertex of each world vertex: every tile whose model has faces
    # holds a run of its model's vertices, in tile order
    nv = np.array([len(m.positions) for m in models], np.int64)
    tmodel = np.asarray(lvl.tiles.model, np.int64)
    nf = np.array([len(m.triangles) for m in models], np.int64)
    run = np.where(nf[tmodel] > 0, nv[tmodel], 0)
    t_vstart = np.concatenate([[0], np.cumsum(run)])
    v_tile = np.searchsorted(t_vstart, src, side="right") - 1
    model_vertex = src - t_vstart[v_tile]
    arr.point_int = {ATTR_VERTEX: model_vertex}
    if vertex_colors:       # the tile's colour set 0, as in the tile import
        tiles = lvl.tiles
        first = np.asarray(tiles.color_start, np.int64)[v_tile] + model_vertex
        arr.point_colors[materials.COLOR_ATTR] = (wadkit.eng.colors_to_display(
            np.asarray(tiles.colors, np.uint8).reshape(-1, 4)[first]), None)
    arr.material_index, slot_mats = face_slots(gi, mat_of_texture(texture), len(gvals))
    return gvals, arr, slot_mats
