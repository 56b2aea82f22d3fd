"""The arguments of tile edits (LevelEdit.set_geometry, set_colors,
set_collision) built from the Blender mesh they come from."""
from __future__ import annotations

import numpy as np

import wadkit

from . import convert
from .export_read import COLOR_ATTRS, MeshData, local_matrix, to_file_points
from .import_collision import ATTR_MATERIAL, PROP_COLLISION
from .import_tiles import ATTR_FLAGS, ATTR_TEXTURE, PROP_MODEL
from .materials_map import FaceTextures, collision_material_of
from .mesh_build import linear_to_srgb


class TileObject:
    """One tile object of the scene and what it asks for."""

    def __init__(self, ob, tile: int, matrix: np.ndarray, row: int):
        self.ob, self.name, self.tile = ob, ob.name, tile
        self.matrix = matrix
        self.row = row                  # its index in the matrices the plan was given
        self.new_tile = None            # its number in the edit when added
        self.bake = None                # 3x3 Blender-space part not a tile turn
        self.position = None            # file space
        self.rotation = None

    @property
    def edit_tile(self) -> int:
        return self.tile if self.new_tile is None else self.new_tile


class Meshes:
    """MeshData of each mesh datablock, read once."""

    def __init__(self):
        self._data: dict[int, MeshData] = {}

    def get(self, me, collision: bool = False) -> MeshData:
        k = me.as_pointer()
        d = self._data.get(k)
        if d is None:
            if collision:
                d = MeshData(me, uv=False, ints=(ATTR_MATERIAL,))
            else:
                d = MeshData(me, colors=COLOR_ATTRS, ints=(ATTR_TEXTURE, ATTR_FLAGS))
            self._data[k] = d
        return d


def render_arrays(obj_name, d: MeshData, textures: FaceTextures, bake, notes, triangulate):
    """set_geometry arguments from a mesh: (positions (V,3) file, triangles
    (T,3), uv (T,3,2), texture (T,), face_flags (T,), faces (T,) source face)."""
    if not d.triangles_only and not triangulate:
        raise ValueError(f"{obj_name}: has faces with more than three corners; "
                         "triangulate it or enable 'Triangulate'")
    tri, face, corners = d.triangulated()
    pos = d.positions if bake is None else d.positions @ bake.T
    if d.uv is None:
        notes.append(f"object {obj_name!r} has no UV map: its faces show texel (0, 0)")
        uv = np.zeros((len(tri), 3, 2), np.float32)
    else:
        uv = convert.flip_v(d.uv[corners])
    tex = textures.per_face(d, obj_name, notes)[face]
    flags = d.ints.get(ATTR_FLAGS)
    flags = np.zeros(len(tri), np.int32) if flags is None else flags[face]
    # file space keeps the triangle winding (to_file is a rotation)
    return (convert.to_file(pos.astype(np.float32)), tri.astype(np.uint32), uv,
            tex.astype(np.int32), np.clip(flags, 0, 0xFFFF).astype(np.uint16))


def tile_color_bytes(d: MeshData, current: np.ndarray | None, nv: int):
    """(sets, V, 4) bytes for a tile from the mesh's point colours (set 0
    from Col, set 1 from Col2), starting from the tile's current bytes when
    the vertex count is the same. None when the mesh has no colours."""
    c0 = d.point_colors(COLOR_ATTRS[0])
    if c0 is None:
        return None
    c1 = d.point_colors(COLOR_ATTRS[1])
    if current is None or current.shape[1] != nv:
        sets = 2 if c1 is not None else 1
        current = np.zeros((sets, nv, 4), np.uint8)
    out = current.copy()
    for k, c in enumerate((c0, c1)):
        if c is not None and k < len(out):
            out[k] = wadkit.eng.colors_from_display(linear_to_srgb(c), current[k])
    return out


def as4(m3) -> np.ndarray:
    out = np.eye(4)
    out[:3, :3] = m3
    return out


def collision_arrays(children, meshes: Meshes, outer, triangulate: bool,
                     world: bool = False, notes=None):
    """set_collision arguments from collision children, each through its
    transform relative to its parent and then `outer` (4x4 or None):
    positions (V,3) file space, polygons (P,4) (-1 pads a triangle),
    material (P,). world: the result is world space (its float noise on
    the 1/4096 grid removed); else tile space, as it is."""
    pos, polys, mats, off = [], [], [], 0
    for ch in children:
        d = meshes.get(ch.data, collision=True)
        m = local_matrix(ch) if outer is None else outer @ local_matrix(ch)
        p = d.positions.astype(np.float64) @ m[:3, :3].T + m[:3, 3]
        mat = collision_material_of(d, ch.name, notes)
        small = d.sizes <= 4
        if not small.all() and not triangulate:
            raise ValueError(f"{ch.name}: collision faces need 3 or 4 corners; "
                             "triangulate it or enable 'Triangulate'")
        q = np.full((int(small.sum()), 4), -1, np.int64)
        for k in range(4):
            has = d.sizes[small] > k
            q[has, k] = d.corner_vert[d.starts[small][has] + k]
        polys.append(q + off)
        mats.append(mat[small])
        if not small.all():              # n-gons: Blender's triangles of them
            tri, face, _ = d.triangulated()
            big = ~small[face]
            t = np.full((int(big.sum()), 4), -1, np.int64)
            t[:, :3] = tri[big]
            polys.append(t + off)
            mats.append(mat[face[big]])
        pos.append(p)
        off += len(p)
    if not pos:
        return np.zeros((0, 3), np.float32), np.zeros((0, 4), np.int32), np.zeros(0, np.uint8)
    p = np.concatenate(pos)
    return (to_file_points(p) if world else convert.to_file(p.astype(np.float32)),
            np.concatenate(polys).astype(np.int32),
            np.concatenate(mats).astype(np.uint8))


def is_collision(ob, kind: str | None = None) -> bool:
    """A collision object: made by the import (wadkit_collision), or a mesh
    the user named so ("... collision ..."). kind: ob.type, when read."""
    return ((ob.type if kind is None else kind) == "MESH"
            and (PROP_COLLISION in ob or "collision" in ob.name.lower()))


def collision_children(ob):
    return [c for c in ob.children if is_collision(c)]


def mesh_model(me):
    m = me.get(PROP_MODEL)
    return int(m) if isinstance(m, int) else None
