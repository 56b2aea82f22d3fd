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


def shown_class(ob) -> tuple[str | None, int | None, str | None]:
    """(kind, class) of the class mesh or class collection ob shows, else
    (None, None, what it shows instead: None for a plain empty)."""
    if ob.type == "MESH":
        src, what = ob.data, f"mesh '{ob.data.name}'"
    elif ob.type == "EMPTY":
        src = ob.instance_collection if ob.instance_type == "COLLECTION" else None
        if src is None:
            return None, None, None
        what = f"collection '{src.name}'"
    else:
        return None, None, f"a {ob.type.lower()} object"
    kind, cid = src.get(PROP_KIND), src.get(PROP_CLASS)
    if kind in KINDS and isinstance(cid, int):
        return kind, cid, None
    return None, None, what


def is_instance(ob) -> bool:
    """ob is written as an instance: it has an instance kind, or shows a
    class mesh or class collection."""
    return ob.get(PROP_KIND) in KINDS or shown_class(ob)[0] is not None


def placement(ob) -> np.ndarray:
    """The object's world matrix as Blender shows it now: matrix_basis
    follows location / rotation / scale at once, matrix_world only after
    the next evaluation (a parented object: matrix_world)."""
    return np.array(ob.matrix_basis if ob.parent is None else ob.matrix_world, np.float64)


class Instances:
    """The instance edits of one export: plan(objects), then name_in() to
    name the object in an error of the written level."""

    def __init__(self, lvl, ed, notes: list, imported_kinds):
        self.lvl, self.ed, self.notes = lvl, ed, notes
        self.imported = set(imported_kinds)
        # (kind, number in the edit) -> object name, for errors of apply()
        self.names: dict[tuple[str, int], str] = {}
        self.deleted: dict[str, set] = {k: set() for k in KINDS}
        self._ids: dict[str, set] = {}

    def plan(self, objects) -> bool:
        """Edits for these objects (each is_instance); True when any."""
        from mathutils import Matrix
        by_kind: dict[str, list] = {k: [] for k in KINDS}
        for ob in sorted(objects, key=lambda o: o.name):
            kind, cid, what = shown_class(ob)
            own = ob.get(PROP_KIND)
            if kind is None:
                kind = own if own in KINDS else None
            elif own in KINDS and own != kind and isinstance(ob.get(PROP_INSTANCE), int):
                self.notes.append(f"{ob.name}: a {own} that shows {kind} class {cid}; a "
                                  f"{own} cannot take a {kind} class (its class is kept)")
                kind, cid = own, None
            if kind is None:
                continue
            by_kind[kind].append((ob, cid, what))
        changed = False
        for kind, obs in by_kind.items():
            changed |= self._kind(kind, obs, Matrix)
        return changed

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

    def _kind(self, kind, obs, Matrix) -> bool:
        inst = getattr(self.lvl, kind + "s")
        n = len(inst)
        ed, changed = self.ed, False
        old_cls = np.asarray(inst.class_id).tolist()
        holders: dict[int, list] = {}
        new = []
        for ob, cid, what in obs:
            i = ob.get(PROP_INSTANCE)
            if ob.get(PROP_KIND) == kind and isinstance(i, int) and not isinstance(i, bool) \
                    and 0 <= i < n:
                holders.setdefault(i, []).append((ob, cid, what))
            else:
                if i is not None:
                    self.notes.append(f"{ob.name}: {PROP_INSTANCE} {i!r} is no {kind} of "
                                      "the level; written as a new instance")
                new.append((ob, cid, what, None))
        for i, group in holders.items():
            stored = Matrix(np.asarray(inst.matrix[i], np.float64).tolist())
            as_imported = np.array(Matrix.LocRotScale(*stored.decompose()))
            still = [np.allclose(placement(o), as_imported, rtol=1e-6, atol=1e-5)
                     for o, _, _ in group]
            # the first (by name) still where the instance was keeps it; else the first
            k = still.index(True) if any(still) else 0
            ob, cid, what = group[k]
            self.names[(kind, i)] = ob.name
            c = self._class(kind, ob, cid, what, old_cls[i])
            if c != old_cls[i]:
                ed.set_class(kind, i, c)
                changed = True
            if not still[k]:
                ed.move(kind, i, placement(ob).astype(np.float32))
                changed = True
            new += [(o, c2, w, i) for j, (o, c2, w) in enumerate(group) if j != k]
        for ob, cid, what, like in new:        # before the deletes: like stays valid
            c = self._class(kind, ob, cid, what, None if like is None else old_cls[like])
            if c is None:
                continue
            k = ed.add(kind, c, placement(ob).astype(np.float32), like=like)
            self.names[(kind, k)] = ob.name
            changed = True
        if kind in self.imported:
            for i in sorted(set(range(n)) - set(holders)):
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
        name = self.names.get((kind, kept[k])) if k < len(kept) else None
        return f"{name}: {message}" if name else message
