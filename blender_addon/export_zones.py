"""Zone objects (merge="ZONE") -> edits of their tiles. A zone mesh holds a
copy of each of its tiles' model vertices in world space, every face
marked with its tile and every vertex with its model vertex, so moved
vertices, UVs and colours go back to their tiles' models (set_geometry /
set_colors). Faces added or removed cannot be taken back to a tile: the
export refuses them, naming the object."""
from __future__ import annotations

import numpy as np

from . import convert
from .export_read import COLOR_ATTRS, MeshData
from .export_tiles import tile_color_bytes
from .import_tiles import ATTR_FLAGS, ATTR_TEXTURE
from .import_zones import ATTR_TILE, ATTR_VERTEX
from .materials_map import FaceTextures
from .mesh_build import drop_degenerate

MOVED = 1e-5          # Blender units: a vertex moved less than this is not moved


def zone_edits(ed, base, zone_obs, call, notes) -> None:
    wm = base.wm
    tri_all = np.asarray(wm["triangles"], np.int64)
    keep = drop_degenerate(tri_all)
    tile_of = np.asarray(wm["tile"], np.int64)
    world = convert.to_blender(np.asarray(wm["positions"], np.float32))
    textures = FaceTextures()
    # every tile whose model has faces holds a run of its model's vertices
    nv = np.array([len(m.positions) for m in base.models], np.int64)
    nf = np.array([len(m.triangles) for m in base.models], np.int64)
    run = np.where(nf[base.tile_model] > 0, nv[base.tile_model], 0)
    vstart = np.concatenate([[0], np.cumsum(run)])
    for ob in zone_obs:
        d = MeshData(ob.data, colors=COLOR_ATTRS[:1], ints=(ATTR_TEXTURE, ATTR_FLAGS, ATTR_TILE))
        vert = _point_ints(ob.data, ATTR_VERTEX)
        ftile = d.ints.get(ATTR_TILE)
        if vert is None or ftile is None or not d.triangles_only:
            raise ValueError(f"{ob.name}: not a zone mesh as the import made it "
                             "(its tile/vertex attributes or triangles are gone)")
        m = np.array(ob.matrix_world, np.float64)
        pos = (d.positions.astype(np.float64) @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
        corner_model_vertex = vert[d.corner_vert].reshape(-1, 3)
        for t in np.unique(ftile).tolist():
            _tile(ed, base, ob.name, t, d, pos, ftile == t, corner_model_vertex,
                  tri_all, keep[tile_of[keep] == t], int(vstart[min(t, len(run))]),
                  world, textures, call, notes)


def _point_ints(me, name):
    a = me.attributes.get(name)
    if a is None or a.domain != "POINT":
        return None
    out = np.empty(len(me.vertices), np.int32)
    a.data.foreach_get("value", out)
    return out


def _tile(ed, base, obj_name, t, d, pos, sel, cmv, tri_all, ref_faces, first, world,
          textures, call, notes) -> None:
    if not 0 <= t < base.n_tiles:
        raise ValueError(f"{obj_name}: faces of tile {t}, which the level does not have")
    model = base.models[int(base.tile_model[t])]
    faces = np.flatnonzero(sel)
    ref_tri = tri_all[ref_faces]
    nv = len(model.positions)
    # the tile's world vertex numbers are first + model vertex
    if len(faces) != len(ref_faces) or not np.array_equal(cmv[faces] + first, ref_tri):
        raise ValueError(f"{obj_name}: faces of tile {t} were added, removed or "
                         "reconnected; a per-zone import exports only moved vertices, "
                         "UVs and colours (import per tile to edit more)")
    corners = (faces[:, None] * 3 + np.arange(3)).reshape(-1)
    vpos = pos[d.corner_vert[corners]]                       # (3F,3) world, Blender
    ref = world[ref_tri.reshape(-1)]
    uv_ref = base.render(int(base.tile_model[t])).uv
    uv = d.uv[corners] if d.uv is not None else None
    tex = d.ints[ATTR_TEXTURE][faces]
    moved = np.abs(vpos - ref).max(axis=1) > MOVED
    same_geo = (not moved.any() and uv is not None and np.array_equal(uv, uv_ref)
                and np.array_equal(tex, base.render(int(base.tile_model[t])).texture))
    cur = base.tile_colors(t)
    lin = d.point_colors(COLOR_ATTRS[0])
    cols = None
    if lin is not None:
        # per model vertex, from the zone vertices of this tile
        pv = np.full((nv, 4), np.nan, np.float32)
        pv[cmv[faces].reshape(-1)] = lin[d.corner_vert[corners]]
        ref_lin = base.tile_linear(t, 0)
        pv = np.where(np.isnan(pv), ref_lin, pv)
        if not np.array_equal(pv, ref_lin):
            fake = _Colors(pv)
            cols = tile_color_bytes(fake, cur, nv)
    if same_geo:
        if cols is not None:
            call(ed.set_colors, obj_name, t, cols, name=obj_name)
        return
    # local positions: the model's, with the moved vertices un-placed
    local = convert.to_blender(model.positions).astype(np.float64)
    mv = cmv[faces].reshape(-1)[moved]
    a = convert.rotation_angle(int(base.rotation[t]))
    inv = convert.z_rotation(-a)[0]
    local[mv] = (vpos[moved] - base.location[t]) @ inv.T
    ftex = textures.per_face(_Faces(d, faces), obj_name, notes)
    call(ed.set_geometry, obj_name, [t], convert.to_file(local.astype(np.float32)),
         np.asarray(model.triangles, np.uint32)[drop_degenerate(
             np.asarray(model.triangles, np.int64))],
         convert.flip_v(uv.reshape(-1, 3, 2)) if uv is not None else
         convert.flip_v(uv_ref.reshape(-1, 3, 2)),
         ftex.astype(np.int32), colors=[cols if cols is not None else cur],
         face_flags=np.clip(d.ints[ATTR_FLAGS][faces], 0, 0xFFFF).astype(np.uint16),
         name=obj_name)


class _Colors:
    """point_colors() of a tile's own vertices, for tile_color_bytes."""

    def __init__(self, lin):
        self._lin = lin

    def point_colors(self, name):
        return self._lin if name == COLOR_ATTRS[0] else None


class _Faces:
    """The faces of one tile of a zone mesh, for FaceTextures."""

    def __init__(self, d, faces):
        self.sizes = d.sizes[faces]
        self.ints = {ATTR_TEXTURE: d.ints[ATTR_TEXTURE][faces]}
        self.material_index = d.material_index[faces]
        self.materials = d.materials
