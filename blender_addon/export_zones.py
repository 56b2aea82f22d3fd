"""Zone objects (merge="ZONE") -> edits of their tiles. A zone mesh holds a
copy of each of its tiles' model vertices in world space, every face
marked with its tile and every vertex with its model vertex, so moved
vertices, UVs and colours go back to their tiles' models (set_geometry /
set_colors). A tile whose faces were all moved (and turned by quarter
turns about the vertical) is placed anew and keeps its model and its
collision (place_tile); a tile no zone object holds any more (its faces
deleted, its zone object deleted) is deleted with its collision. Faces of
a tile added, removed in part, or spread over two objects cannot be taken
back to a tile: the export refuses them, naming the objects."""
from __future__ import annotations

import numpy as np

import wadkit

from . import convert, edit_track
from .export_read import COLOR_ATTRS, MeshData
from .export_tiles import tile_color_bytes
from .import_tiles import ATTR_FLAGS, ATTR_TEXTURE
from .import_zones import ATTR_TILE, ATTR_VERTEX
from .materials_map import FaceTextures
from .mesh_build import drop_degenerate, srgb_to_linear

MOVED = 1e-5          # Blender units: a vertex moved less than this is not moved
# Blender units: how far a vertex of a tile moved as a whole may be from
# the new placement's position of it and still count as moved with it:
# float noise of a turned world position, well under the file's 1/4096 grid.
FIT = 1e-4


def trusted_zones(session, zone_obs) -> set:
    """The zone objects (as_pointer) whose meshes the import session
    vouches for (edit_track: Blender reported no change of them) and that
    sit where the import put them: their tiles are the base level's."""
    rec = None if session is None else session.extra.get("zones")
    if rec is None or not zone_obs or not edit_track.materials_as_imported(session):
        return set()
    meshes = [ob.data for ob in zone_obs]
    ok = edit_track.unchanged(rec, meshes, np.zeros((len(meshes), 0), np.int64),
                              [[ob] for ob in zone_obs])
    eye = np.eye(4)
    return {ob.as_pointer() for ob, good in zip(zone_obs, ok.tolist())
            if good and np.array_equal(np.array(ob.matrix_world), eye)}


def _base_arrays(base) -> tuple:
    """What the zone export compares with, of the base level alone: the
    world mesh's triangles, its non-degenerate faces, each face's tile,
    the world positions (Blender space), and each tile's run of world
    vertices (every tile whose model has faces holds a run of its model's
    vertices) with their starts."""
    wm = base.wm
    tri_all = np.asarray(wm["triangles"], np.int64)
    keep = drop_degenerate(tri_all)
    tile_of = np.asarray(wm["tile"], np.int64)
    world = convert.to_blender(np.asarray(wm["positions"], np.float32))
    nv = np.array([len(m.positions) for m in base.models], np.int64)
    nf = np.array([len(m.triangles) for m in base.models], np.int64)
    run = np.where(nf[base.tile_model] > 0, nv[base.tile_model], 0)
    vstart = np.concatenate([[0], np.cumsum(run)])
    return tri_all, keep, tile_of, world, run, vstart


def zone_edits(ed, base, zone_obs, call, notes, resolve=None, claimed=None,
               trusted=frozenset()) -> dict:
    """Apply the zone objects' edits to ed. resolve: the texture entries of
    a material the import did not make (FaceTextures); claimed: {tile: the
    name of a tile object made of it} (zone_tiles.py: the per-tile export
    takes those; a tile both there and in a zone mesh is refused). Returns
    the counts of tiles given new geometry, recoloured, moved and deleted."""
    claimed = claimed or {}
    count = {"geometry": 0, "colors": 0, "moved": 0, "deleted": 0}
    tri_all, keep, tile_of, world, run, vstart = base.kept("zone_arrays",
                                                          lambda: _base_arrays(base))
    textures = FaceTextures(resolve)
    read, holder = [], {}                 # holder: tile -> the object holding its faces
    for ob in zone_obs:
        if ob.as_pointer() in trusted:       # only which tiles it holds is read
            d = vert = None
            ftile = face_tiles(ob.data)     # present: the record checks
        else:
            d = MeshData(ob.data, colors=COLOR_ATTRS[:1],
                         ints=(ATTR_TEXTURE, ATTR_FLAGS, ATTR_TILE))
            vert = _point_ints(ob.data, ATTR_VERTEX)
            ftile = d.ints.get(ATTR_TILE)
        if d is not None and (vert is None or ftile is None or not d.triangles_only):
            raise ValueError(f"{ob.name}: not a zone mesh as the import made it "
                             "(its tile/vertex attributes or triangles are gone)")
        ts = np.unique(ftile).tolist()
        for t in ts:
            if t in holder:
                raise ValueError(f"{ob.name}: faces of tile {t} are also in object "
                                 f"{holder[t]!r}; a tile's faces must stay in one object "
                                 "(make tile objects of it to copy or split it: Tiles and "
                                 "collision > Make tile objects)")
            if t in claimed:
                raise ValueError(f"{ob.name}: faces of tile {t} are also tile object "
                                 f"{claimed[t]!r}; delete one of the two")
            holder[t] = ob.name
        read.append((ob, d, vert, ftile, ts))
    ref = _Reference(base, tri_all, keep, tile_of, vstart)
    for ob, d, vert, ftile, ts in read:
        if d is None:
            continue
        m = np.array(ob.matrix_world, np.float64)
        pos = (d.positions.astype(np.float64) @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
        corner_model_vertex = vert[d.corner_vert].reshape(-1, 3)
        mats_kept = textures.kept(d)     # the face's material stands for its entry
        same = ref.same_tiles(d, vert, ftile, pos, world, mats_kept)
        for t in ts:
            if same[t]:
                continue
            what = _tile(ed, base, ob.name, t, d, pos, ftile == t, corner_model_vertex,
                         tri_all, keep[tile_of[keep] == t], int(vstart[min(t, len(run))]),
                         world, textures, call, notes, mats_kept)
            for key in what:
                count[key] += 1
    shown = np.zeros(base.n_tiles, bool)   # the tiles the import put in a zone mesh
    shown[tile_of[keep][tile_of[keep] < base.n_tiles]] = True
    for t in np.flatnonzero(shown).tolist():
        if t not in holder and t not in claimed:
            call(ed.delete_tile, f"tile {t}", t, name=f"tile {t}")
            count["deleted"] += 1
    return count


class _Reference:
    """The world mesh as the import put it in the zone meshes, by face and
    vertex, to find the tiles of a zone mesh nobody touched with a few
    whole-array compares (the per-tile path, _tile, then sees only the
    others; for an untouched tile it would do nothing)."""

    def __init__(self, base, tri_all, keep, tile_of, vstart):
        self.base, self.tri, self.vstart = base, tri_all, vstart
        n = base.n_tiles

        def by_tile():
            kt = tile_of[keep]
            inside = kt < n
            count = np.bincount(kt[inside], minlength=n)[:n]
            return (keep[inside][np.argsort(kt[inside], kind="stable")],  # faces by tile
                    count, np.concatenate([[0], np.cumsum(count)]))
        self.order, self.count, self.start = base.kept("zone_by_tile", by_tile)

    def linear(self):
        """Colour set 0 of every world vertex as the import stores it
        (linear (V,4)); world vertex vstart[t] + i is model vertex i of t."""
        def make():
            b, vs = self.base, self.vstart
            run = np.diff(vs)
            vt = np.repeat(np.arange(len(run)), run)
            rows = np.asarray(b.color_start, np.int64)[vt] + np.arange(len(vt)) - vs[vt]
            return srgb_to_linear(wadkit.eng.colors_to_display(
                np.ascontiguousarray(b.color_bytes[rows])))
        return self.base.kept("zone_linear", make)

    def same_tiles(self, d, vert, ftile, pos, world, mats_kept) -> np.ndarray:
        """(n_tiles,) bool: the tiles whose faces in this zone mesh are as
        the import made them (faces, corners, positions, UVs, texture,
        flags, material, colour set 0)."""
        n = self.base.n_tiles
        out = np.zeros(n, bool)
        tex = d.ints.get(ATTR_TEXTURE)
        ft = ftile.astype(np.int64)
        if d.uv is None or tex is None or not len(ft) or ft.min() < 0 or ft.max() >= n:
            return out
        order = np.argsort(ft, kind="stable")
        cnt = np.bincount(ft, minlength=n)
        st = ft[order]
        rank = np.arange(len(ft)) - np.concatenate([[0], np.cumsum(cnt)])[st]
        sel = (cnt == self.count)[st]
        f, rf = order[sel], self.order[self.start[st[sel]] + rank[sel]]
        corners = (f[:, None] * 3 + np.arange(3)).reshape(-1)
        cv = d.corner_vert[corners]
        wv = vert[cv].astype(np.int64) + self.vstart[np.repeat(ft[f], 3)]
        wvc = np.clip(wv, 0, len(world) - 1)
        wm = self.base.wm
        ok = (wv.reshape(-1, 3) == self.tri[rf]).all(axis=1)
        ok &= (np.abs(pos[cv] - world[wvc]).max(axis=1) <= MOVED).reshape(-1, 3).all(axis=1)
        ok &= (d.uv[corners].reshape(-1, 3, 2)
               == convert.flip_v(np.asarray(wm["uv"])[rf])).all(axis=(1, 2))
        ok &= tex[f] == np.asarray(wm["texture"])[rf]
        flags = d.ints.get(ATTR_FLAGS)
        if flags is not None:
            ok &= flags[f] == np.asarray(wm["face_flags"])[rf]
        ok &= mats_kept[f]
        lin = d.point_colors(COLOR_ATTRS[0])
        if lin is not None:
            ok &= (lin[cv] == self.linear()[wvc]).all(axis=1).reshape(-1, 3).all(axis=1)
        bad = np.bincount(ft[f][~ok], minlength=n)
        out[:] = (cnt == self.count) & (bad == 0) & (cnt > 0)
        return out


def _rigid_move(vpos, ref, loc):
    """If the tile's corners vpos (world, Blender) are its base corners ref
    moved as a whole and turned by k quarter turns about +z (most corners
    agreeing within FIT): (k, new location in Blender space), else None.
    None too when it did not move."""
    best = None
    for k in range(4):
        r = convert.z_rotation(k * np.pi / 2)[0]
        d = vpos.astype(np.float64) - (ref.astype(np.float64) - loc) @ r.T
        t = np.median(d, axis=0)
        fit = int((np.abs(d - t).max(axis=1) <= FIT).sum())
        if best is None or fit > best[0]:
            best = (fit, k, t)
    fit, k, t = best
    if 2 * fit <= len(vpos) or (k == 0 and np.abs(t - loc).max() <= MOVED):
        return None
    return k, t


def _point_ints(me, name):
    a = me.attributes.get(name)
    if a is None or a.domain != "POINT":
        return None
    out = np.empty(len(me.vertices), np.int32)
    a.data.foreach_get("value", out)
    return out


def face_tiles(me) -> np.ndarray:
    """The wadkit_tile of every face of a zone mesh (none: empty)."""
    a = me.attributes.get(ATTR_TILE)
    if a is None or a.domain != "FACE":
        return np.zeros(0, np.int32)
    out = np.empty(len(me.polygons), np.int32)
    a.data.foreach_get("value", out)
    return out


def _tile(ed, base, obj_name, t, d, pos, sel, cmv, tri_all, ref_faces, first, world,
          textures, call, notes, mats_kept) -> tuple:
    """Edit tile t from the faces sel of zone mesh d. Returns what it did:
    some of "moved", "geometry", "colors"."""
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
                         "UVs and colours, moves and deletes (make tile objects of it to edit "
                         "more: Tiles and collision > Make tile objects)")
    corners = (faces[:, None] * 3 + np.arange(3)).reshape(-1)
    vpos = pos[d.corner_vert[corners]]                       # (3F,3) world, Blender
    ref = world[ref_tri.reshape(-1)]
    loc, rot = base.location[t].astype(np.float64), int(base.rotation[t])
    done = []
    tol = MOVED
    placed = _rigid_move(vpos, ref, loc) if len(vpos) else None
    if placed is not None:
        k, new_loc = placed
        new_pos = convert.snap(convert.to_file(new_loc[None].astype(np.float32)))[0]
        new_rot = (rot + k * convert.QUARTER) % convert.ROTATION_UNITS
        call(ed.place_tile, obj_name, t, new_pos, new_rot, name=obj_name)
        done.append("moved")
        r = convert.z_rotation(k * np.pi / 2)[0]
        loc_new = convert.to_blender(new_pos[None])[0].astype(np.float64)
        ref = ((ref.astype(np.float64) - loc) @ r.T + loc_new).astype(np.float32)
        loc, rot, tol = loc_new, new_rot, FIT
    ref_r = base.render(int(base.tile_model[t]))
    uv_ref = ref_r.uv
    uv = d.uv[corners] if d.uv is not None else None
    tex = d.ints.get(ATTR_TEXTURE)
    # a face-flags attribute the user removed: the faces keep their flags
    flags = ref_r.flags if d.ints.get(ATTR_FLAGS) is None else d.ints[ATTR_FLAGS][faces]
    moved = np.abs(vpos - ref).max(axis=1) > tol
    same_geo = (not moved.any() and uv is not None and np.array_equal(uv, uv_ref)
                and tex is not None and bool(mats_kept[faces].all())
                and np.array_equal(tex[faces], ref_r.texture)
                and np.array_equal(flags, ref_r.flags))
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
            done.append("colors")
        return tuple(done)
    # local positions: the model's, with the moved vertices un-placed
    local = convert.to_blender(model.positions).astype(np.float64)
    mv = cmv[faces].reshape(-1)[moved]
    inv = convert.z_rotation(-convert.rotation_angle(rot))[0]
    local[mv] = (vpos[moved] - loc) @ inv.T
    ftex = textures.per_face(_Faces(d, faces), obj_name, notes)
    call(ed.set_geometry, obj_name, [t], convert.to_file(local.astype(np.float32)),
         np.asarray(model.triangles, np.uint32)[drop_degenerate(
             np.asarray(model.triangles, np.int64))],
         convert.flip_v(uv.reshape(-1, 3, 2)) if uv is not None else
         convert.flip_v(uv_ref.reshape(-1, 3, 2)),
         ftex.astype(np.int32), colors=[cols if cols is not None else cur],
         face_flags=np.clip(flags, 0, 0xFFFF).astype(np.uint16),
         name=obj_name)
    return (*done, "geometry")


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
        tex = d.ints.get(ATTR_TEXTURE)
        self.ints = {} if tex is None else {ATTR_TEXTURE: tex[faces]}
        self.material_index = d.material_index[faces]
        self.materials = d.materials
