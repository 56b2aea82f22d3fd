"""The level structure in Blender: one object per tile, its mesh in tile
space, shared by the tiles of one model whose vertex colours are the same.

Positions, triangles, texture entries and face flags of a mesh come from
the model (lvl.models, file space, tile-local); its UVs from the world
mesh's run of faces of one tile using it (the core's UV rules, the same for
every tile of the model); its vertex colours (point domain: one per model
vertex, as the engine stores them) from that tile's colour bytes
(lvl.tiles.colors) as the world mesh shows them
(wadkit.eng.colors_to_display). The object is placed by the tile
(lvl.tiles: position, rotation)."""
from __future__ import annotations

import copy

import numpy as np

import wadkit

from . import convert, materials
from .mesh_build import MeshArrays, ranges, starts

# names the export reads back
PROP_TILE = "wadkit_tile"           # object: tile index in the source level
PROP_MODEL = "wadkit_model"         # object and mesh: TRAK model index
PROP_ROTATION = "wadkit_rotation"   # object: the tile rotation 0..4095
PROP_COLOR_TILE = "wadkit_color_tile"   # mesh: the tile whose colours it holds
ATTR_TEXTURE = "wadkit_texture"     # face attribute: texture-table index
ATTR_FLAGS = "wadkit_face_flags"    # face attribute: engine face flags


class TileLayout:
    """Which mesh each tile gets, from the level's arrays (no bpy).

    group (N,) mesh number of every tile; rep (G,) the tile each mesh is
    built from; model (G,) its model; f_start (N+1,) each tile's run of
    faces in the world mesh; sets (N,) colour sets of each tile, its
    colours tiles.colors[color_start + k·nVerts ...] for set k."""

    def __init__(self, lvl, wm, models, vertex_colors: bool):
        tiles = lvl.tiles
        n = len(tiles.model)
        tmodel = np.asarray(tiles.model, np.int64)
        nverts = np.array([len(m.positions) for m in models], np.int64)
        tile_of = np.asarray(wm["tile"], np.int64)
        self.f_start = np.searchsorted(tile_of, np.arange(n + 1)).astype(np.int64)
        self.sets = np.asarray(tiles.color_sets, np.int64) if n else np.zeros(0, np.int64)
        self.colors = np.asarray(tiles.colors, np.uint8).reshape(-1, 4)
        self.color_start = np.asarray(tiles.color_start, np.int64)
        keys: dict = {}
        group = np.empty(n, np.int64)
        if vertex_colors:
            cols, start = self.colors, self.color_start
            length = np.maximum(self.sets, 1) * nverts[tmodel]
            for t in range(n):
                k = (int(tmodel[t]), cols[start[t]:start[t] + length[t]].tobytes())
                group[t] = keys.setdefault(k, len(keys))
        else:
            for t in range(n):
                group[t] = keys.setdefault(int(tmodel[t]), len(keys))
        self.group = group
        self.rep = np.full(len(keys), -1, np.int64)
        self.rep[group[::-1]] = np.arange(n)[::-1]          # first tile of each
        self.model = tmodel[self.rep]

    def subset(self, tiles) -> "TileLayout":
        """The layout of only the meshes these tiles use: a copy whose
        groups are those (renumbered in order); group is -1 for the other
        tiles."""
        used = np.unique(self.group[np.asarray(tiles, np.int64)])
        sub = copy.copy(self)
        sub.rep, sub.model = self.rep[used], self.model[used]
        remap = np.full(len(self.rep), -1, np.int64)
        remap[used] = np.arange(len(used))
        sub.group = remap[self.group]
        return sub


def model_arrays(models):
    """All models back to back: (positions (ΣV,3) f32 file space, v_start
    (M+1,), triangles (ΣT,3) int64 model-local, t_start (M+1,))."""
    pos = [np.asarray(m.positions, np.float32).reshape(-1, 3) for m in models]
    tri = [np.asarray(m.triangles, np.int64).reshape(-1, 3) for m in models]
    v_start = starts([len(p) for p in pos])
    t_start = starts([len(t) for t in tri])
    return (np.concatenate(pos) if pos else np.zeros((0, 3), np.float32), v_start,
            np.concatenate(tri) if tri else np.zeros((0, 3), np.int64), t_start)


def tile_mesh_arrays(layout: TileLayout, models, wm, vertex_colors: bool, mat_of_texture):
    """MeshArrays of all tile meshes (one per layout group) and each mesh's
    material list. mat_of_texture(texture (F,)) -> material number (F,).
    layout.model indexes `models`."""
    m_pos, m_vstart, m_tri, m_tstart = model_arrays(models)
    gm = np.asarray(layout.model, np.int64)
    rep = np.asarray(layout.rep, np.int64)
    g = len(gm)
    nv = np.diff(m_vstart)[gm]
    nt = np.diff(m_tstart)[gm]
    v_start = starts(nv)
    in_wm = layout.f_start[rep + 1] - layout.f_start[rep]
    bad = np.flatnonzero((nt > 0) & (in_wm != nt))
    if len(bad):
        k = int(bad[0])
        raise ValueError(f"tile {int(rep[k])}: the world mesh has {int(in_wm[k])} faces, "
                         f"its model {int(nt[k])}")
    tri = m_tri[ranges(m_tstart[gm], nt)]
    g_of_t = np.repeat(np.arange(g), nt)
    keep = np.flatnonzero((tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2])
                          & (tri[:, 0] != tri[:, 2]))       # drop_degenerate, all at once
    local_face = np.arange(len(tri)) - np.repeat(starts(nt)[:-1], nt)
    gk = g_of_t[keep]
    face = layout.f_start[rep][gk] + local_face[keep]
    corner_vert = (tri[keep] + v_start[gk][:, None]).reshape(-1)
    nf = np.bincount(gk, minlength=g).astype(np.int64)
    f_start = starts(nf)
    positions = convert.to_blender(m_pos[ranges(m_vstart[gm], nv)])
    arr = MeshArrays(positions, v_start, corner_vert,
                     np.arange(0, 3 * len(face) + 1, 3), f_start)
    arr.uv = convert.flip_v(np.asarray(wm["uv"], np.float32)[face]).reshape(-1, 2)
    if vertex_colors:
        # set 0 of each mesh's tile, and set 1 where it has two or more
        vi = np.arange(int(v_start[-1])) - np.repeat(v_start[:-1], nv)
        first = np.repeat(layout.color_start[rep], nv) + vi
        arr.point_colors[materials.COLOR_ATTR] = (
            wadkit.eng.colors_to_display(layout.colors[first]), None)
        has2 = layout.sets[rep] >= 2
        if has2.any():
            second = np.where(np.repeat(has2, nv), first + np.repeat(nv, nv), first)
            arr.point_colors[materials.COLOR2_ATTR] = (
                wadkit.eng.colors_to_display(layout.colors[second]), has2)
    texture = np.asarray(wm["texture"], np.int64)[face]
    arr.face_int = {ATTR_TEXTURE: texture,
                    ATTR_FLAGS: np.asarray(wm["face_flags"], np.int64)[face]}
    arr.material_index, slot_mats = face_slots(gk, mat_of_texture(texture), g)
    return arr, slot_mats


def face_slots(gi: np.ndarray, mat: np.ndarray, ngroups: int):
    """Material slots per mesh: (slot of every face within its mesh, the
    material numbers of each mesh's slots as a list of arrays). A mesh's
    slots are its distinct materials in number order."""
    nmats = int(mat.max()) + 1 if len(mat) else 1
    present = np.zeros((ngroups, nmats), bool)
    present[gi, mat] = True
    slot = np.cumsum(present, axis=1, dtype=np.int32) - 1
    rows, cols = np.nonzero(present)
    bounds = np.searchsorted(rows, np.arange(ngroups + 1))
    return slot[gi, mat], [cols[bounds[g]:bounds[g + 1]] for g in range(ngroups)]


def mesh_names(level: str, layout: TileLayout) -> list[str]:
    """"<level> model M", and "<level> model M colours K" for the second
    and later colour variants of one model."""
    seen: dict[int, int] = {}
    out = []
    for m in layout.model.tolist():
        k = seen.get(m, 0)
        seen[m] = k + 1
        out.append(f"{level} model {m}" + (f" colours {k}" if k else ""))
    return out


def place_objects(obs, tiles, numbers=None) -> None:
    """Location, rotation and the export's properties of each tile object:
    obs[k] for tile numbers[k] (None: obs[t] for tile t)."""
    ts = np.arange(len(obs)) if numbers is None else np.asarray(numbers, np.int64)
    loc = convert.to_blender(np.asarray(tiles.position, np.float32).reshape(-1, 3)[ts])
    rot = np.asarray(tiles.rotation, np.int64)[ts]
    ang = convert.rotation_angle(rot)
    tmodel = np.asarray(tiles.model, np.int64)[ts]
    for k, ob in enumerate(obs):
        ob.location = loc[k].tolist()
        ob.rotation_euler[2] = float(ang[k])
        ob[PROP_TILE] = int(ts[k])
        ob[PROP_MODEL] = int(tmodel[k])
        ob[PROP_ROTATION] = int(rot[k])
