"""The tile objects of a scene turned into LevelEdit calls (see
export_tiles.py for the comparisons). Order: duplicates are added first
(so a model rewritten for the tiles that were edited is not rewritten
under a copy that kept the old one), then deletes, moves, geometry,
colours and collision, each call on the tiles that share the change."""
from __future__ import annotations

import numpy as np

from .export_read import local_matrix
from .export_tiles import (MATRIX_EPS, PLACE_EPS, Meshes, TileObject, as4, collision_arrays,
                           mesh_model, placement, render_arrays,
                           same_collision, same_render, tile_color_bytes)
from .import_tiles import PROP_TILE
from .materials_map import FaceTextures


def _key_matrix(m: np.ndarray) -> bytes:
    return np.round(m, 6).tobytes()


class TilePlan:
    def __init__(self, ed, base, opts, notes: list):
        self.ed, self.base, self.opts, self.notes = ed, base, opts, notes
        self.meshes = Meshes()
        self.textures = FaceTextures()
        self.by_edit_tile: dict[int, TileObject] = {}
        self.count = {"moved": 0, "deleted": 0, "added": 0, "geometry": 0,
                      "colors": 0, "collision": 0}

    # -- which object is which tile ----------------------------------------

    def claims(self, tile_obs, matrices):
        """(originals {tile: TileObject}, duplicates [TileObject]). Of the
        objects that claim one tile the original is the one still at the
        tile's place, else the one with the import's name, else the first by
        name; the others are copies of it (Shift+D / Alt+D)."""
        by_tile: dict[int, list[TileObject]] = {}
        for ob, m in zip(tile_obs, matrices):
            by_tile.setdefault(int(ob[PROP_TILE]), []).append(TileObject(ob, int(ob[PROP_TILE]), m))
        originals, dups = {}, []
        for t, objs in sorted(by_tile.items()):
            objs.sort(key=lambda o: o.name)
            if len(objs) > 1:
                home = self.base.location[t]
                at_home = [o for o in objs if np.abs(o.matrix[:3, 3] - home).max() <= PLACE_EPS]
                first = (at_home or [o for o in objs if o.name.endswith(f" tile {t}")] or objs)[0]
                objs.remove(first)
                objs.insert(0, first)
            originals[t] = objs[0]
            dups += objs[1:]
        return originals, dups

    # -- the state each object asks for -------------------------------------

    def _render_key(self, obj: TileObject):
        me = obj.ob.data
        d = self.meshes.get(me)
        m = mesh_model(me)
        same = (m is not None and self.base.has_model(m)
                and same_render(d, self.base.render(m), self.textures))
        if same and obj.bake is None:
            return ("base", m), d
        if obj.bake is not None:
            return ("object", obj.name), d
        return ("mesh", me.as_pointer()), d

    def _collision_key(self, obj: TileObject):
        ch = self.children.get(obj.ob.as_pointer(), [])
        if not ch:
            return ("keep",), ch
        if len(ch) == 1 and obj.bake is None \
                and np.abs(local_matrix(ch[0]) - np.eye(4)).max() <= MATRIX_EPS:
            m = mesh_model(ch[0].data)
            if m is not None and self.base.has_model(m):
                d = self.meshes.get(ch[0].data, collision=True)
                if same_collision(d, self.base.collision_ref(m)):
                    return ("base", m), ch
        if obj.bake is not None:
            return ("object", obj.name), ch
        return ("mesh", tuple((c.data.as_pointer(), _key_matrix(local_matrix(c)))
                              for c in sorted(ch, key=lambda c: c.name))), ch

    # -- the edits -----------------------------------------------------------

    def run(self, tile_obs, matrices, children, call) -> None:
        """children: {object pointer: its collision children}; call(fn,
        obj_name, *args, **kw) runs an edit, turning its errors into
        reports that name the object."""
        ed, base = self.ed, self.base
        self.children = children
        originals, dups = self.claims(tile_obs, matrices)
        base.collision(np.unique(base.tile_model).tolist()
                       + [m for ch in children.values() for c in ch
                          if (m := mesh_model(c.data)) is not None and base.has_model(m)])
        objs = list(originals.values()) + dups
        for obj in objs:
            placement(obj, int(base.rotation[obj.tile]))
        state = {}
        for obj in objs:
            rk, d = self._render_key(obj)
            ck, ch = self._collision_key(obj)
            state[id(obj)] = (rk, d, ck, ch)
        # copies first: they keep the model their mesh came from
        for obj in dups:
            rk, d, ck, ch = state[id(obj)]
            model = rk[1] if rk[0] == "base" else int(base.tile_model[obj.tile])
            nv = len(base.models[model].positions)
            src = base.tile_colors(obj.tile) if model == int(base.tile_model[obj.tile]) else None
            colors = tile_color_bytes(d, src, nv)
            obj.new_tile = call(ed.add_tile, obj.name, model, obj.position, obj.rotation,
                                colors=colors, name=obj.name)
            self.by_edit_tile[obj.new_tile] = obj
            self.count["added"] += 1
            if not ch and base.collision_ref(model).sizes.size:
                self.notes.append(f"object {obj.name!r} (a copy of tile {obj.tile}) has no "
                                  "collision object: it keeps its model's collision")
        for t in range(base.n_tiles):
            if t not in originals:
                call(ed.delete_tile, f"tile {t}", t, name=f"tile {t}")
                self.count["deleted"] += 1
        kept_without = []
        for t, obj in originals.items():
            self.by_edit_tile[t] = obj
            moved = (obj.rotation != int(base.rotation[t])
                     or np.abs(obj.matrix[:3, 3] - base.location[t]).max() > PLACE_EPS)
            if moved:
                call(ed.place_tile, obj.name, t, obj.position, obj.rotation, name=obj.name)
                self.count["moved"] += 1
            if state[id(obj)][2] == ("keep",) and base.collision_ref(
                    int(base.tile_model[t])).sizes.size:
                kept_without.append(obj.name)
        if kept_without:
            self.notes.append(f"{len(kept_without)} tile object(s) have no collision object "
                              f"(deleted?): their collision was kept as it is in the level "
                              f"({', '.join(kept_without[:4])}{' ...' if len(kept_without) > 4 else ''}); "
                              "to remove a tile's collision delete its faces, not the object")
        self._geometry_and_collision(objs, state, call)

    def _geometry_and_collision(self, objs, state, call) -> None:
        ed, base, opts = self.ed, self.base, self.opts
        groups: dict[tuple, list[TileObject]] = {}
        for obj in objs:
            rk, d, ck, ch = state[id(obj)]
            model_now = ed.tile_model(obj.edit_tile)
            groups.setdefault((rk, ck, model_now), []).append(obj)
        for (rk, ck, model_now), members in groups.items():
            first = members[0]
            _, d, _, ch = state[id(first)]
            tiles = [o.edit_tile for o in members]
            label = first.name if len(members) == 1 else \
                f"{first.name} (+{len(members) - 1} sharing its mesh)"
            if rk != ("base", model_now):
                pos, tri, uv, tex, flags = render_arrays(first.name, d, self.textures,
                                                         first.bake, self.notes, opts.triangulate)
                if (tex < 0).any():
                    raise ValueError(f"{first.name}: faces without a texture entry (no "
                                     "level material and no wadkit_texture attribute)")
                colors = [tile_color_bytes(state[id(o)][1], ed.tile_colors(o.edit_tile),
                                           len(pos)) for o in members]
                call(ed.set_geometry, label, tiles, pos, tri, uv, tex,
                     colors=colors, face_flags=flags, name=first.name)
                self.count["geometry"] += len(members)
            else:
                for o in members:
                    if o.new_tile is not None:
                        continue                        # colours given with add_tile
                    cur = base.tile_colors(o.tile)
                    d_o = state[id(o)][1]
                    if self._colors_differ(d_o, o.tile):
                        call(ed.set_colors, o.name, o.tile,
                             tile_color_bytes(d_o, cur, cur.shape[1]), name=o.name)
                        self.count["colors"] += 1
            if ck[0] != "keep" and ck != ("base", model_now):
                outer = None if first.bake is None else as4(first.bake)
                pos, poly, mat = collision_arrays(ch, self.meshes, outer, opts.triangulate)
                call(ed.set_collision, label, tiles, pos, poly, mat, name=first.name)
                self.count["collision"] += len(members)

    def _colors_differ(self, d, t: int) -> bool:
        from .export_read import COLOR_ATTRS
        for k, name in enumerate(COLOR_ATTRS):
            c = d.point_colors(name)
            if c is None:
                continue
            ref = self.base.tile_linear(t, k)
            if ref is None or c.shape != ref.shape or not np.array_equal(c, ref):
                return True
        return False
