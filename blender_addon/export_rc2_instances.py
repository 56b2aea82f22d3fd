"""Tie, shrub and moby objects -> LevelEdit calls (move, set_class, add,
delete); docs/blender-rc2.md, "Instances".

An object stands for instance i of its kind when it carries wadkit_kind
and wadkit_instance = i (the import set them; Shift+D and Alt+D copy
them). Its class is the one of the class mesh it shows (a linked
duplicate: the mesh's wadkit_class) or of the class collection it shows
(a collection instance: the collection's wadkit_class); an empty that
shows neither (a class without a mesh) has its wadkit_class property.

- Several objects of one instance (duplicates): the first by name of those
  still where the instance was keeps it (none there: the first by name);
  each other one is a new instance copying its record (colours, lights,
  draw distances: add(like=i)), in name order.
- An object that shows a class mesh or class collection and carries no
  wadkit_instance (Alt+D of a class object moved out of the Classes
  collection, or a new object given a class mesh) is a new instance.
- An instance number no object carries any more is deleted (only for
  kinds the import made: a level imported without shrubs keeps them).
- A class change (another class's mesh or collection shown, or the
  wadkit_class property edited on an empty) is set_class.
Whatever cannot be written (a class not in the level's table, a mesh that
is no class mesh) is a note naming the object."""
from __future__ import annotations

import re

import numpy as np

from .import_rc2 import PROP_CLASS, PROP_INSTANCE, PROP_KIND

KINDS = ("tie", "shrub", "moby")
MESHES = "meshes"
NOTHING = (None, None, None)        # shown_class() of a plain empty: one object
_NO_INT = np.iinfo(np.int64).min     # no int (an ID property's int is 32-bit)


def shown_class(ob, cache: dict | None = None) -> tuple[str | None, int | None, str | None]:
    """(kind, class) of the class mesh or class collection ob shows, else
    (None, None, what it shows instead: None for a plain empty). cache:
    a dict kept over calls (objects share their class's mesh or
    collection); cache[MESHES] collects the class meshes shown."""
    t = ob.type
    if t == "EMPTY":
        src = ob.instance_collection
        if src is None or ob.instance_type != "COLLECTION":
            return NOTHING
    elif t == "MESH":
        src = ob.data
    else:
        return None, None, f"a {t.lower()} object"
    key = src.as_pointer()
    hit = cache.get(key) if cache is not None else None
    if hit is None:
        kind, cid = src.get(PROP_KIND), src.get(PROP_CLASS)
        if kind in KINDS and isinstance(cid, int):
            hit = (kind, cid, None)
            if t == "MESH" and cache is not None:
                cache.setdefault(MESHES, []).append((src, ob))
        else:
            hit = (None, None, (f"mesh '{src.name}'" if t == "MESH"
                                else f"collection '{src.name}'"))
        if cache is not None:
            cache[key] = hit
    return hit


def placements(coll, items, n: int) -> np.ndarray:
    """(N, 4, 4) float64: where each object of items (tuples (ob, ..., k),
    k its place in coll.all_objects: export_rc2._Scan) is now. matrix_basis (one
    foreach_get for the collection) follows location / rotation / scale
    at once, matrix_world only after the next evaluation; a parented
    object: its matrix_world. n: len(coll.all_objects)."""
    buf = np.empty(16 * n, np.float32)
    if n:
        coll.all_objects.foreach_get("matrix_basis", buf)
    m = buf.reshape(-1, 4, 4).transpose(0, 2, 1)
    if not items:
        return np.zeros((0, 4, 4))
    out = m[np.array([it[5] for it in items], np.int64)].astype(np.float64)
    for j, it in enumerate(items):
        if it[0].parent is not None:
            out[j] = np.array(it[0].matrix_world, np.float64)
    return out


def _near(now, ref) -> np.ndarray:
    """(N,) bool: placements equal to the stored matrices (float noise)."""
    return (np.abs(now - ref) <= 1e-5 + 1e-6 * np.abs(ref)).all(axis=(1, 2))


def _at_stored(now, ref) -> np.ndarray:
    """(N,) bool: placements still where the stored matrices put them: equal
    to one (float noise), or to what Blender makes of it (a sheared matrix
    comes back as location / rotation / scale)."""
    from mathutils import Matrix
    ok = _near(now, ref)
    # what Blender makes of ref keeps its translation (as float32): an
    # object moved off it is not there whatever the rest says
    t_back = ref[:, :3, 3].astype(np.float32).astype(np.float64)
    t_near = (np.abs(now[:, :3, 3] - t_back) <= 1e-5 + 1e-6 * np.abs(t_back)).all(axis=1)
    for k in np.flatnonzero(~ok & t_near).tolist():
        back = Matrix(ref[k].tolist())
        back = np.array(Matrix.LocRotScale(*back.decompose()))
        ok[k] = bool((np.abs(now[k] - back) <= 1e-5 + 1e-6 * np.abs(back)).all())
    return ok


def _still(inst, holders: dict) -> dict:
    """{instance: [object still where the import put it, per object of its
    group]} (_at_stored)."""
    if not holders:
        return {}
    stored = np.asarray(inst.matrix, np.float64)
    idx = np.array([i for i, g in holders.items() for _ in g], np.int64)
    now = np.array([m for g in holders.values() for *_, m in g], np.float64)
    ok = _at_stored(now, stored[idx])
    out, k = {}, 0
    for i, g in holders.items():
        out[i] = ok[k:k + len(g)].tolist()
        k += len(g)
    return out


class Instances:
    """The instance edits of one export: plan(objects), then name_in() to
    name the object in an error of the written level."""

    def __init__(self, lvl, ed, notes: list, imported_kinds):
        self.lvl, self.ed, self.notes = lvl, ed, notes
        self.imported = set(imported_kinds)
        # (kind, number in the edit) -> object, for errors of apply()
        self.names: dict[tuple[str, int], object] = {}
        self.deleted: dict[str, set] = {k: set() for k in KINDS}
        self._ids: dict[str, set] = {}
        # the plain instances (_plain): their numbers; (numbers, item indices)
        self._held: dict[str, set] = {k: set() for k in KINDS}
        self._plain_of: dict[str, tuple] = {}
        self._moved: dict[str, tuple] = {}
        self._items: list = []

    def plan(self, items, matrices) -> bool:
        """Edits for these objects at these placements ((N, 4, 4),
        placements()); True when any. items: (object, its wadkit_kind,
        wadkit_instance, shown_class(), wadkit_class, place in the
        collection) per object written as an instance: it has an instance
        kind, or shows a class mesh or class collection (export_rc2._Scan)."""
        rest = np.flatnonzero(~self._plain(items, matrices)).tolist()
        by_kind: dict[str, list] = {k: [] for k in KINDS}
        names = {j: items[j][0].name for j in rest}
        for j in sorted(rest, key=names.__getitem__):
            ob, own, i, (kind, cid, what) = items[j][:4]
            if kind is None:
                kind = own if own in KINDS else None
            elif own in KINDS and own != kind and isinstance(i, int):
                self.notes.append(f"{names[j]}: a {own} that shows {kind} class {cid}; a "
                                  f"{own} cannot take a {kind} class (its class is kept)")
                kind, cid = own, None
            if kind is None:
                continue
            by_kind[kind].append((ob, own, i, cid, what, matrices[j]))
        changed = bool(self._moved)
        for kind, (i, m) in self._moved.items():
            self.ed.move_many(kind, i, m)
        for kind, obs in by_kind.items():
            changed |= self._kind(kind, obs)
        return changed

    def _plain(self, items, matrices) -> np.ndarray:
        """The items that ask for no edit but a move and no note, found for
        all at once: the only object of its instance (wadkit_kind and
        wadkit_instance), showing its instance's class (or nothing: an
        empty) with that class or none in wadkit_class, a class the level
        holds. (N,) bool; their instances go into self._held, (instance,
        item) into self._plain_of; those no longer where the instance is
        (_at_stored) into self._moved: kind -> (instances, placements as
        float32), what _kind would move them to one by one."""
        out = np.zeros(len(items), bool)
        self._items = items
        if not items:
            return out
        _, own, num, shown, prop, _ = zip(*items)
        code = {k: c for c, k in enumerate(KINDS)}
        own = np.array([code.get(x, -1) if type(x) is str else -1 for x in own], np.int64)
        # an int (not bool) >= 0; -1 stands for anything else
        num = np.array([i if type(i) is int else -1 for i in num], np.int64)
        # what each shows: its class (no_cid: none), whether it is a class of
        # the object's own kind or nothing; most show nothing (NOTHING): one
        # pass finds the others
        n = len(items)
        s_kind, cid = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
        no_cid, fits = np.ones(n, bool), np.ones(n, bool)
        for j in [j for j, x in enumerate(shown) if x is not NOTHING]:
            k, c, what = shown[j]
            s_kind[j] = -1 if k is None else code[k]
            no_cid[j], cid[j] = c is None, -1 if c is None else c
            fits[j] = what is None
        fits &= (s_kind < 0) | (s_kind == own)
        # wadkit_class: an int (a custom property's int is 32-bit), else none
        prop = np.array([x if type(x) is int else _NO_INT for x in prop], np.int64)
        no_prop = prop == _NO_INT
        for c, kind in enumerate(KINDS):
            inst = getattr(self.lvl, kind + "s")
            n = len(inst)
            j = np.flatnonzero((own == c) & (num >= 0) & (num < n))
            if not len(j):
                continue
            i = num[j]
            old = np.asarray(inst.class_id, np.int64)[i]
            ok = fits[j] & (np.bincount(i, minlength=n)[i] == 1)
            ok &= (no_cid[j] | (cid[j] == old)) & (no_prop[j] | (prop[j] == old))
            ok &= np.isin(old, np.array(sorted(self._known(kind)), np.int64))
            jk, ik = j[ok], i[ok]
            ref = np.asarray(inst.matrix, np.float64)[ik]
            away = np.flatnonzero(~_near(matrices[jk], ref))
            if len(away):
                away = away[~_at_stored(matrices[jk[away]], ref[away])]
            if len(away):
                self._moved[kind] = (ik[away], matrices[jk[away]].astype(np.float32))
            out[j[ok]] = True
            self._plain_of[kind] = (i[ok], j[ok])
            self._held[kind] = set(i[ok].tolist())
        return out

    def _class(self, kind, ob, shown, what, old) -> int | None:
        """The class ob is written with (old: its instance's class, or the
        class of the instance it duplicates; None for a new object); None
        (and a note) when it has none the level holds."""
        prop = ob.get(PROP_CLASS)
        prop = prop if isinstance(prop, int) and not isinstance(prop, bool) else None
        if what is not None:
            self.notes.append(f"{ob.name}: shows {what}, which is no {kind} class of the "
                              "level (a new class cannot be written); "
                              + ("not written" if old is None else f"written with class {old}"))
            return old
        if shown is not None and shown != old:
            cid = shown
            if prop not in (None, old, shown):
                self.notes.append(f"{ob.name}: shows {kind} class {shown} but its "
                                  f"{PROP_CLASS} says {prop}; written as class {shown}")
        elif prop is not None and prop != old:
            cid = prop
        else:
            cid = old if old is not None else shown
        if cid is None:
            self.notes.append(f"{ob.name}: a {kind} with no class (no class mesh shown, no "
                              f"{PROP_CLASS}); not written")
            return None
        if cid not in self._known(kind):
            self.notes.append(f"{ob.name}: {kind} class {cid} is not in the level's class "
                              "table (a new class cannot be written); "
                              + ("not written" if old is None else f"written with class {old}"))
            return old
        return cid

    def _known(self, kind) -> set:
        if kind not in self._ids:
            self._ids[kind] = set(getattr(self.lvl, kind + "_classes").ids.tolist())
        return self._ids[kind]

    def _kind(self, kind, obs) -> bool:
        inst = getattr(self.lvl, kind + "s")
        n = len(inst)
        ed, changed = self.ed, False
        old_cls = np.asarray(inst.class_id).tolist()
        holders: dict[int, list] = {}
        new = []
        for ob, own, i, cid, what, m in obs:
            if own == kind and isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n:
                holders.setdefault(i, []).append((ob, cid, what, m))
            else:
                if i is not None:
                    self.notes.append(f"{ob.name}: {PROP_INSTANCE} {i!r} is no {kind} of "
                                      "the level; written as a new instance")
                new.append((ob, cid, what, m, None))
        still = _still(inst, holders)
        for i, group in holders.items():
            flags = still[i]
            # the first (by name) still where the instance was keeps it; else the first
            k = flags.index(True) if any(flags) else 0
            ob, cid, what, m = group[k]
            self.names[(kind, i)] = ob
            c = self._class(kind, ob, cid, what, old_cls[i])
            if c != old_cls[i]:
                ed.set_class(kind, i, c)
                changed = True
            if not flags[k]:
                ed.move(kind, i, m.astype(np.float32))
                changed = True
            new += [(*g, i) for j, g in enumerate(group) if j != k]
        for ob, cid, what, m, like in new:     # before the deletes: like stays valid
            c = self._class(kind, ob, cid, what, None if like is None else old_cls[like])
            if c is None:
                continue
            k = ed.add(kind, c, m.astype(np.float32), like=like)
            self.names[(kind, k)] = ob
            changed = True
        if kind in self.imported:
            for i in sorted(set(range(n)) - set(holders) - self._held[kind]):
                ed.delete(kind, i)
                self.deleted[kind].add(i)
                changed = True
        return changed

    def name_in(self, message: str) -> str:
        """message (of an error writing the level) with the Blender object
        named first when it names an instance of the written level ("moby
        3: ...": the written list holds the kept instances in their order,
        then the added ones)."""
        hit = re.search(r"\b(tie|shrub|moby)s?:? (?:instance )?(\d+):", message)
        if hit is None:
            return message
        kind, k = hit.group(1), int(hit.group(2))
        gone = self.deleted[kind]
        kept = [i for i in range(self.ed.instance_count(kind)) if i not in gone]
        ob = self.names.get((kind, kept[k])) if k < len(kept) else None
        if ob is None and k < len(kept) and kind in self._plain_of:
            i, j = self._plain_of[kind]
            hit = np.flatnonzero(i == kept[k])
            ob = self._items[int(j[hit[0]])][0] if len(hit) else None
        return f"{ob.name}: {message}" if ob is not None else message
