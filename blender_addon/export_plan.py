"""The tile objects of a scene turned into LevelEdit calls. What changed is
found for all meshes at once (export_compare.py); the arguments of an edit
are built from the one mesh it needs (export_tiles.py).

Order: copies of tiles are added first (so a model rewritten for the
tiles that were edited is not rewritten under a copy that kept the old
one), then deletes, moves, geometry, colours and collision, each call on
all the tiles that share the change, so a linked mesh stays one model."""
from __future__ import annotations

import numpy as np
from mathutils import Matrix

from . import edit_track
from .export_compare import PLACE_EPS, MATRIX_EPS, collision_changes, placements, render_changes
from .export_read import COLOR_ATTRS, local_matrix
from .export_tiles import (Meshes, TileObject, as4, collision_arrays, render_arrays,
                           tile_color_bytes)
from .import_collision import PROP_HAS_CHILD
from .import_tiles import PROP_TILE
from .materials_map import FaceTextures


_IDENTITY = Matrix.Identity(4)


def _at_parent(ob) -> bool:
    """The child sits at its parent's origin, unturned (as the import put it)."""
    if ob.matrix_parent_inverse == _IDENTITY and ob.matrix_basis == _IDENTITY:
        return True
    return bool(np.abs(local_matrix(ob) - np.eye(4)).max() <= MATRIX_EPS)


def _key_matrix(m: np.ndarray) -> bytes:
    return np.round(m, 6).tobytes()


def _meshes_of(obs):
    """({mesh: index}, the meshes of obs in first-use order, the objects of
    obs showing each, the index of each object's mesh). A mesh is its own
    key (bpy hashes and compares an ID by its pointer)."""
    ix: dict = {}
    meshes, users, of_ob = [], [], []
    for ob in obs:
        me = ob.data
        g = ix.get(me)
        if g is None:
            g = ix[me] = len(meshes)
            meshes.append(me)
            users.append([ob])
        else:
            users[g].append(ob)
        of_ob.append(g)
    return ix, meshes, users, of_ob


class TilePlan:
    def __init__(self, ed, base, opts, notes: list, depsgraph=None, session=None,
                 marked: bool = False):
        """marked: the tile objects say whether their collision child was
        made (import_collision.PROP_MARKS); else every tile whose model has
        collision is taken to have had one (levels imported before the
        mark)."""
        self.ed, self.base, self.opts, self.notes = ed, base, opts, notes
        self.marked = marked
        self.session = session          # edit_track.Imported of this level, or None
        self.depsgraph = depsgraph
        self.meshes = Meshes()
        self.textures = FaceTextures()
        self.by_edit_tile: dict[int, TileObject] = {}
        self.names: dict[int, str] = {}  # tile of the edit -> its object's name (run fills it)
        self.count = {"moved": 0, "deleted": 0, "added": 0, "geometry": 0,
                      "colors": 0, "collision": 0}

    def claims(self, tile_obs, matrices, numbers=None):
        """(originals {tile: TileObject}, duplicates [TileObject]). Of the
        objects that claim one tile the original is the one still at the
        tile's place, else the one with the import's name, else the first by
        name; the others are copies of it (Shift+D / Alt+D). numbers: the
        wadkit_tile of each object (read when not given)."""
        if numbers is None:
            numbers = [int(ob[PROP_TILE]) for ob in tile_obs]
        by_tile: dict[int, list[TileObject]] = {}
        for k, (ob, m, t) in enumerate(zip(tile_obs, matrices, numbers)):
            by_tile.setdefault(t, []).append(TileObject(ob, t, m, k))
        originals, dups = {}, []
        for t, objs in sorted(by_tile.items()):
            if len(objs) > 1:
                objs.sort(key=lambda o: o.name)
                home = self.base.location[t]
                at_home = [o for o in objs if np.abs(o.matrix[:3, 3] - home).max() <= PLACE_EPS]
                first = (at_home or [o for o in objs if o.name.endswith(f" tile {t}")] or objs)[0]
                objs.remove(first)
                objs.insert(0, first)
            originals[t] = objs[0]
            dups += objs[1:]
        return originals, dups

    def _data(self, obj: TileObject):
        """MeshData of the mesh the object shows (modifiers applied)."""
        ob = obj.ob
        if ob.modifiers and self.depsgraph is not None:
            from .export_read import MeshData
            ev = ob.evaluated_get(self.depsgraph)
            me = ev.to_mesh()
            try:
                return MeshData(me, colors=COLOR_ATTRS, ints=("wadkit_texture",
                                                              "wadkit_face_flags"))
            finally:
                ev.to_mesh_clear()
        return self.meshes.get(ob.data)

    def _render(self, tile_obs):
        """What render_changes finds for the meshes of tile_obs (once per
        export): (meshes, the mesh index of each object, changed,
        colours changed, has colours, model, rep), the last five (G,)."""
        s = self.session
        _, meshes, users, of_ob = _meshes_of(tile_obs)
        rc = render_changes(self.base, meshes, self.textures,
                            None if s is None else (s.tiles, users))
        return (meshes, of_ob, *rc)

    def _all_as_base(self, tile_obs, matrices, children, numbers, render,
                     delete_missing: bool) -> bool:
        """True when run() would make no edit and add no note for these
        objects (checked for all at once, the rules of run() and
        _states()): every tile claimed once (and, with delete_missing, all
        claimed), no collision children, no modifiers, at its tile's place
        and turn, its mesh found unchanged (render_changes) and of its
        tile's model, its colours its tile's, and no lost collision child
        to report. Anything else: False, and run() takes its usual way."""
        base = self.base
        n = len(tile_obs)
        if children or not n:
            return False
        ts = np.asarray(numbers, np.int64)
        if len(np.unique(ts)) != n or (delete_missing and n != base.n_tiles):
            return False
        meshes, of_ob, changed, col_changed, has_col, model, rep = render
        g = np.asarray(of_ob, np.int64)
        if changed[g].any() or col_changed[g].any() or (model[g] != base.tile_model[ts]).any():
            return False
        m = np.asarray(matrices, np.float64).reshape(-1, 4, 4)
        _, rot, bake, _ = placements(m, base.rotation[ts])
        if bake.any() or (rot != base.rotation[ts]).any() or (
                np.abs(m[:, :3, 3] - base.location[ts]).max() > PLACE_EPS):
            return False
        if any(ob.modifiers for ob in tile_obs):
            return False
        if self.marked:
            if any(ob.get(PROP_HAS_CHILD) for ob in tile_obs):
                return False
        elif any(base.has_collision(x) for x in set(base.tile_model[ts].tolist())):
            return False
        other = np.flatnonzero((rep[g] != ts) & has_col[g]).tolist()
        return all(base.tile_bytes(int(ts[i])) == base.tile_bytes(int(rep[g[i]]))
                   for i in other)

    def _states(self, objs, children, render):
        """Per object: (render key, collision key, its collision children,
        colours differ from its tile's). render: _render() of the objects
        the plan was given (an object's row indexes it)."""
        base, s = self.base, self.session
        meshes, of_row, changed, col_changed, has_col, model, rep = render
        of_ob = [of_row[o.row] for o in objs]
        cmesh_ix, cmeshes, cusers, _ = _meshes_of([c for ch in children.values() for c in ch])
        cchanged, cmodel = collision_changes(
            base, cmeshes, None if s is None else (s.collision, cusers))
        changed, col_changed, has_col = changed.tolist(), col_changed.tolist(), has_col.tolist()
        model, rep = model.tolist(), rep.tolist()
        out = {}
        for o, g in zip(objs, of_ob):
            ob = o.ob
            if o.bake is not None or ob.modifiers:
                rk = ("object", o.name)
            elif changed[g]:
                rk = ("mesh", meshes[g].as_pointer())
            else:
                rk = ("base", model[g])
            r = rep[g]
            recolor = rk[0] == "base" and (col_changed[g] or (
                r != o.tile and has_col[g]
                and base.tile_bytes(o.tile) != base.tile_bytes(r)))
            ch = children.get(ob.as_pointer(), []) if children else []
            if len(ch) > 1:
                ch = sorted(ch, key=lambda c: c.name)
            if not ch:
                ck = ("keep",)
            elif o.bake is not None:
                ck = ("object", o.name)
            else:
                c0 = cmesh_ix[ch[0].data]
                if len(ch) == 1 and not cchanged[c0] and _at_parent(ch[0]):
                    ck = ("base", int(cmodel[c0]))
                else:
                    ck = ("mesh", tuple((c.data.as_pointer(), _key_matrix(local_matrix(c)))
                                        for c in ch))
            out[id(o)] = (rk, ck, ch, recolor)
        return out

    def run(self, tile_obs, matrices, children, call, numbers=None,
            delete_missing: bool = True) -> None:
        """children: {object pointer: its collision children}; call(fn,
        obj_name, *args, **kw) runs an edit, turning its errors into
        reports that name the object; numbers: as for claims();
        delete_missing: a tile no object claims is deleted (False: other
        objects hold the level's other tiles, export_zones.py)."""
        ed, base = self.ed, self.base
        if self.session is not None and not edit_track.materials_as_imported(self.session):
            self.session = None
        if numbers is None:
            numbers = [int(ob[PROP_TILE]) for ob in tile_obs]
        render = self._render(tile_obs)
        if self._all_as_base(tile_obs, matrices, children, numbers, render, delete_missing):
            self.names = {t: ob.name for ob, t in zip(tile_obs, numbers)}
            return
        originals, dups = self.claims(tile_obs, matrices, numbers)
        objs = list(originals.values()) + dups
        matrices = np.asarray(matrices, np.float64).reshape(-1, 4, 4)
        if objs:
            rows = np.fromiter((o.row for o in objs), np.int64, len(objs))
            pos, rot, bake, resid = placements(matrices[rows],
                                               base.rotation[[o.tile for o in objs]])
            for k, o in enumerate(objs):
                o.position, o.rotation = pos[k], int(rot[k])
                o.bake = resid[k] if bake[k] else None
        state = self._states(objs, children, render)
        if self.marked:
            def lost_child(ob, _model):
                return bool(ob.get(PROP_HAS_CHILD))
        else:
            def lost_child(_ob, model):
                return base.has_collision(model)
        for obj in dups:            # copies first: they keep the model their mesh came from
            rk, ck, ch, _ = state[id(obj)]
            model = rk[1] if rk[0] == "base" else int(base.tile_model[obj.tile])
            nv = int(base.lvl.model_counts["vertices"][model])
            src = base.tile_colors(obj.tile) if model == int(base.tile_model[obj.tile]) else None
            colors = tile_color_bytes(self._data(obj), src, nv)
            obj.new_tile = call(ed.add_tile, obj.name, model, obj.position, obj.rotation,
                                colors=colors, name=obj.name)
            self.by_edit_tile[obj.new_tile] = obj
            self.count["added"] += 1
            if not ch and lost_child(obj.ob, model):
                self.notes.append(f"object {obj.name!r} (a copy of tile {obj.tile}) has no "
                                  "collision object: it keeps its model's collision")
        for t in range(base.n_tiles if delete_missing else 0):
            if t not in originals:
                call(ed.delete_tile, f"tile {t}", t, name=f"tile {t}")
                self.count["deleted"] += 1
        without = []
        self.by_edit_tile.update(originals)
        self.names = {t: o.name for t, o in self.by_edit_tile.items()}
        if originals:
            # moved or turned: for all originals at once
            ts = np.fromiter(originals, np.int64, len(originals))
            orig = list(originals.values())
            rot = np.fromiter((o.rotation for o in orig), np.int64, len(orig))
            loc = matrices[rows[:len(orig)], :3, 3]
            moved = (rot != base.rotation[ts]) | (
                np.abs(loc - base.location[ts]).max(axis=1) > PLACE_EPS)
            for k in np.flatnonzero(moved).tolist():
                obj = orig[k]
                call(ed.place_tile, obj.name, obj.tile, obj.position, obj.rotation,
                     name=obj.name)
                self.count["moved"] += 1
            models = base.tile_model[ts].tolist()
            for obj, m in zip(orig, models):
                if state[id(obj)][1] == ("keep",) and lost_child(obj.ob, m):
                    without.append(obj.name)
        if without:
            self.notes.append(
                f"{len(without)} tile object(s) have no collision object (deleted?): their "
                f"collision was kept as it is in the level ({', '.join(without[:4])}"
                f"{' ...' if len(without) > 4 else ''}); to remove a tile's collision, "
                "delete the faces of its collision mesh, not the object")
        self._edits(objs, state, call)

    def _edits(self, objs, state, call) -> None:
        ed, base, opts = self.ed, self.base, self.opts
        groups: dict[tuple, list[TileObject]] = {}
        # an original tile still has its model here (only adds, deletes and
        # moves came before); an added one asks the edit
        tile_model = base.tile_model.tolist()
        for obj in objs:
            rk, ck, _, _ = state[id(obj)]
            now = tile_model[obj.tile] if obj.new_tile is None else ed.tile_model(obj.new_tile)
            groups.setdefault((rk, ck, now), []).append(obj)
        for (rk, ck, model_now), members in groups.items():
            first = members[0]
            tiles = [o.edit_tile for o in members]
            label = first.name if len(members) == 1 else \
                f"{first.name} (+{len(members) - 1} sharing its mesh)"
            if rk != ("base", model_now):
                d = self._data(first)
                pos, tri, uv, tex, flags = render_arrays(first.name, d, self.textures,
                                                         first.bake, self.notes, opts.triangulate)
                if (tex < 0).any():
                    raise ValueError(f"{first.name}: faces without a texture entry (no "
                                     "level material and no wadkit_texture attribute)")
                colors = [tile_color_bytes(d, ed.tile_colors(o.edit_tile), len(pos))
                          for o in members]
                call(ed.set_geometry, label, tiles, pos, tri, uv, tex,
                     colors=colors, face_flags=flags, name=first.name)
                self.count["geometry"] += len(members)
            else:
                for o in members:
                    if o.new_tile is None and state[id(o)][3]:
                        cur = base.tile_colors(o.tile)
                        c = tile_color_bytes(self._data(o), cur, cur.shape[1])
                        if c is None:
                            self.notes.append(
                                f"object {o.name!r} has no {COLOR_ATTRS[0]!r} colour "
                                "attribute (renamed or removed?): its tile keeps the "
                                "vertex colours it has in the file")
                            continue
                        call(ed.set_colors, o.name, o.tile, c, name=o.name)
                        self.count["colors"] += 1
            if ck[0] != "keep" and ck != ("base", model_now):
                _, _, ch, _ = state[id(first)]
                outer = None if first.bake is None else as4(first.bake)
                pos, poly, mat = collision_arrays(ch, self.meshes, outer, opts.triangulate,
                                                  notes=self.notes)
                call(ed.set_collision, label, tiles, pos, poly, mat, name=first.name)
                self.count["collision"] += len(members)
                if model_now < len(base.models):
                    lost = base.collision_ref(model_now).left_out
                    if lost:
                        self.notes.append(
                            f"{label}: {lost} collision record(s) of model {model_now} "
                            "had no corners (not in the scene) and are dropped with the "
                            "new collision")
