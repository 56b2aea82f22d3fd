"""Blender scene -> RC2 level, through wadkit's write path (lvl.edit()).

An imported RC2 level collection (import_rc2.py names its custom
properties) holds the tfrag terrain, the tie / shrub / moby instances, the
class meshes, sky, collision and the level settings as collection
properties; the export writes back:

- the terrain mesh (export_rc2_terrain.py: moved vertices, UVs, vertex
  colours, materials; faces added or deleted re-encode their patches);
- the instances (export_rc2_instances.py: moved, duplicated, deleted, new
  objects of a class mesh, class changes);
- the collision mesh (export_rc2_collision.py: positions, faces, tags);
- fog colour, background colour and death height (the collection's
  wadkit_fog_colour, wadkit_background_colour, wadkit_death_height) and
  the colour of the world the import made (the background colour, or the
  fog colour when the level has no background colour);

and reports by name every object of the collection it does not write
(what it is and why). An unchanged scene gives the base file byte for
byte. docs/blender-rc2.md."""
from __future__ import annotations

import gc

import bpy
import numpy as np

import wadkit

from . import edit_track
from . import export_common as common
from .export_common import ExportError
from .export_rc2_collision import collision as collision_edit
from .export_rc2_instances import KINDS, MESHES, NOTHING, Instances, placements, shown_class
from .export_rc2_terrain import terrain as terrain_edit
from .import_rc2 import (ATTR_PATCH, PARTS, PROP_CLASS, PROP_DIGEST, PROP_INSTANCE, PROP_KIND,
                         PROP_LOD, PROP_PART, PROP_PARTS, PROP_SOURCE, PROP_WORLD,
                         PROP_WORLD_FIELD, PROP_WORLD_RGB, SETTINGS_PROPS)
from .mesh_build import digest, linear_to_srgb

__all__ = ["ExportError", "export_rc2", "level_collection"]

_PART_KIND = {"ties": "tie", "shrubs": "shrub", "mobys": "moby"}


def level_collection(context):
    """The imported RC2 level collection: the active object's, else the
    only one in the scene (export_common)."""
    return common.level_collection(context, "rc2")


def _imported_parts(root) -> set:
    """The parts the import made (PROP_PARTS; a collection made before it
    was stored: the sub-collections present)."""
    p = root.get(PROP_PARTS)
    if p is not None:
        return {str(x) for x in p}
    return {c.get(PROP_PART) for c in root.children_recursive} & set(PARTS)


def _edited(me) -> bool:
    """A mesh the import fingerprinted (PROP_DIGEST) that shows something
    else now."""
    d = me.get(PROP_DIGEST)
    return isinstance(d, str) and d != digest(me)


# enum values of the Object properties read with foreach_get
_ENUM = {p: {e.identifier: e.value for e in bpy.types.Object.bl_rna.properties[p].enum_items}
         for p in ("type", "instance_type")}


class _Scan:
    """The level collection's objects sorted by what the export does with
    them; notes for the ones it does not write."""

    def __init__(self, root, notes: list):
        self.terrain = self.collision = None
        self.instances = []
        classes = [c for c in root.children_recursive if c.get(PROP_PART) == "classes"]
        in_classes = {edit_track.uid(ob) for c in classes for ob in c.all_objects}
        every = root.all_objects
        # len(all_objects) walks the collection on every call: counted once
        self.count = n = len(every)
        types, shows = np.empty(n, np.int32), np.empty(n, np.int32)
        if n:
            every.foreach_get("type", types)             # enum values (_ENUM)
            every.foreach_get("instance_type", shows)
        # an empty that instances no collection shows nothing (shown_class)
        plain = ((types == _ENUM["type"]["EMPTY"])
                 & (shows != _ENUM["instance_type"]["COLLECTION"]))
        in_cls = np.zeros(n, bool)
        if n and in_classes:     # no class objects (none decoded): no uids read
            if edit_track.HAS_UID:
                uids = np.empty(n, np.int32)
                every.foreach_get("session_uid", uids)
            else:
                uids = np.array([ob.as_pointer() for ob in every], np.int64)
            in_cls = np.isin(uids, np.fromiter(in_classes, uids.dtype, len(in_classes)))
        cache: dict = {}
        terrains, collisions = [], []
        add = self.instances.append
        for k, (ob, bare, cls) in enumerate(zip(every, (plain & ~in_cls).tolist(),
                                                in_cls.tolist())):
            try:     # an imported instance has all three: subscripts cost a third of get()
                kind, num, klass = ob[PROP_KIND], ob[PROP_INSTANCE], ob[PROP_CLASS]
            except KeyError:
                g = ob.get
                kind, num, klass = g(PROP_KIND), g(PROP_INSTANCE), g(PROP_CLASS)
            if bare:     # the common object: what the branches below make of it
                if kind in KINDS:
                    add((ob, kind, num, NOTHING, klass, k))
                else:
                    notes.append(f"{ob.name}: not written ({self._why(ob, kind)})")
                continue
            if cls:
                self._class_object(ob, kind, notes)
            elif kind == "terrain" and ob.type == "MESH":
                terrains.append(ob)
            elif kind == "collision" and ob.type == "MESH":
                collisions.append(ob)
            elif (shown := shown_class(ob, cache))[0] is not None or kind in KINDS:
                # an instance (export_rc2_instances.Instances.plan): the object,
                # its wadkit_kind, wadkit_instance, what it shows, wadkit_class
                # and its place in all_objects (placements())
                add((ob, kind, num, shown, klass, k))
            else:
                why = self._why(ob, kind)
                if why is not None:
                    notes.append(f"{ob.name}: not written ({why})")
        if not terrains:       # a collection from before wadkit_kind
            terrains = [ob for ob in root.all_objects if ob.type == "MESH"
                        and ATTR_PATCH in ob.data.attributes]
            notes[:] = [n for n in notes if not any(n.startswith(f"{ob.name}: ")
                                                    for ob in terrains)]
        for found, kind in ((terrains, "terrain"), (collisions, "collision")):
            found.sort(key=lambda o: o.name)
            setattr(self, kind, found[0] if found else None)
            for ob in found[1:]:
                notes.append(f"{ob.name}: not written (a second {kind} object; the export "
                             f"writes {found[0].name}, a level has one)")
        # class meshes shown by linked duplicates: an edit is new class geometry
        for me, ob in cache.get(MESHES, []):
            if _edited(me):
                notes.append(f"{ob.name}: its class mesh '{me.name}' was edited; class "
                             "geometry is not written (the instance is, with its class)")

    @staticmethod
    def _why(ob, kind) -> str | None:
        """Why ob is not written; None: it shows what the level holds (an
        unchanged sky shell or chunk mesh: the file keeps it as it was)."""
        if kind in ("sky", "chunk_terrain", "chunk_collision"):
            what = {"sky": "the sky", "chunk_terrain": "chunk terrain",
                    "chunk_collision": "chunk collision"}[kind]
            if ob.type == "MESH" and isinstance(ob.data.get(PROP_DIGEST), str) \
                    and not _edited(ob.data):
                return None
            return f"{what} is not written back; the edit of its mesh is lost"
        if ob.type == "MESH":
            return ("a mesh that is no terrain patch, collision or class mesh; new "
                    "geometry is written only as terrain faces (join it into the terrain "
                    "mesh) or as instances of a class")
        return f"a {ob.type.lower()} object the level has no place for"

    @staticmethod
    def _class_object(ob, kind, notes) -> None:
        """A prototype in the Classes collection: its mesh and place are the
        class's; an edit is new class geometry, not written."""
        if not (isinstance(kind, str) and kind.endswith("_class")):
            notes.append(f"{ob.name}: in the Classes collection, where it changes what "
                         "every instance of that class shows; not written (move it to "
                         "the Ties, Shrubs or Mobys collection to make it an instance)")
            return
        if ob.type == "MESH" and _edited(ob.data):
            notes.append(f"{ob.name}: class mesh edited; class geometry is not written "
                         f"(class {ob.get(PROP_CLASS)} keeps its mesh)")
        if not np.allclose(np.array(ob.matrix_basis), np.eye(4), atol=1e-6):
            notes.append(f"{ob.name}: moved in its class collection; not written (move "
                         "the instances instead)")


def _settings(lvl, root, notes) -> dict:
    """The settings fields whose collection property or world colour
    differs from the level's."""
    try:
        s = lvl.settings
    except wadkit.WadError:
        s = None
    if s is None:
        return {}
    new = {}
    for prop, field in SETTINGS_PROPS.items():
        if prop not in root:
            continue
        v = root[prop]
        v = tuple(int(x) for x in v) if isinstance(s[field], tuple) else float(v)
        if v != s[field]:
            new[field] = v
    w = root.get(PROP_WORLD)
    if isinstance(w, bpy.types.World):
        _world(w, s, new, notes)
    return new


def _world_rgb(w) -> list[tuple]:
    """The colours the world shows: its Background node's and its viewport
    colour, as display bytes."""
    out = []
    tree = w.node_tree          # the import made it (use_nodes before Blender 5)
    bg = next((n for n in tree.nodes if n.type == "BACKGROUND"), None) if tree else None
    if bg is not None:
        out.append(tuple(bg.inputs["Color"].default_value)[:3])
    out.append(tuple(w.color)[:3])
    disp = linear_to_srgb(np.array([(*c, 1.0) for c in out], np.float32))[:, :3]
    return [tuple(int(v) for v in np.clip(np.rint(d * 255), 0, 255)) for d in disp]


def _world(w, s, new: dict, notes) -> None:
    field, base = w.get(PROP_WORLD_FIELD), w.get(PROP_WORLD_RGB)
    if field not in ("background_colour", "fog_colour") or base is None:
        return
    base = tuple(int(x) for x in base)
    changed = [c for c in _world_rgb(w) if c != base]
    if not changed:
        return
    rgb = changed[0]
    prop = next(p for p, f in SETTINGS_PROPS.items() if f == field)
    if field in new and new[field] != rgb:
        notes.append(f"{w.name}: the world colour {rgb} is not written: the collection's "
                     f"{prop} was edited too ({new[field]}), which is")
        return
    new[field] = rgb


def _blame(message: str, inst: Instances, scan: _Scan) -> str:
    """An error of writing the level with the Blender object it is about
    named first (an instance, the collision or the terrain object)."""
    named = inst.name_in(message)
    if named != message:
        return named
    for ob, words in ((scan.collision, ("collision",)), (scan.terrain, ("patch", "tfrag"))):
        if ob is not None and any(w in message for w in words):
            return f"{ob.name}: {message}"
    return message


def _remember(context, root, base, session, seen: dict) -> None:
    """Record for the next export (edit_track) the terrain and collision
    meshes this one found to be the base level's (the compare said so, or
    the session vouched for them), and the terrain compare's baseline. A
    mesh found changed is not recorded: the next export reads it again."""
    recs = {}
    for kind, old in (("terrain", session.tiles if session else None),
                      ("collision", session.collision if session else None)):
        how = seen.get(kind)
        recs[kind] = (None if how is None else old if how[0] == "trusted"
                      else edit_track.record_one(how[1], how[2]))
    new = edit_track.Imported(base, recs["terrain"], recs["collision"], ())
    baseline = seen.get("terrain_baseline")
    if baseline is None and session is not None:
        baseline = session.extra.get("terrain")
    if baseline is not None:
        new.extra["terrain"] = baseline
    new.extra["base_level"] = seen["base_level"]
    edit_track.remember(context, root, new)


def _base_level(base: str, session) -> "wadkit.rc2.Level":
    """The base level: the one an earlier export of this session read (its
    decoded streams, terrain and tables cached on it), while the session
    says the file on disk is still the one it was made from; else read
    now, into memory (no mapping of the user's file is kept between
    exports)."""
    lvl = session.extra.get("base_level") if session is not None else None
    if lvl is None:
        with open(base, "rb") as f:
            lvl = wadkit.rc2.from_bytes(f.read(), path=base)
    return lvl


def export_rc2(context, filepath: str, base_path: str | None = None):
    """Write the scene's RC2 level to filepath. Returns (how, notes):
    notes name every object that is not written. Python's cyclic garbage
    collector is paused meanwhile: the export makes some 10^4 short-lived
    containers (a tuple per object), which die by reference counting, and
    collections run for them midway (about 1 ms of a modified export, now
    and then a full one of tens of ms: docs/performance-rc2-export.md,
    round i17m) would find nothing to free."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _export(context, filepath, base_path)
    finally:
        if paused:
            gc.enable()


def _export(context, filepath: str, base_path: str | None):
    root = level_collection(context)
    base = base_path or root.get(PROP_SOURCE) or ""
    if not base:
        raise ExportError(f"{root.name}: the level collection does not say which "
                          "file it came from; give the base level")
    # every edit evaluated: Blender reports the changed meshes (edit_track)
    context.view_layer.update()
    session = edit_track.session_for(root, base)
    lvl = _base_level(base, session)
    ed = lvl.edit()
    notes, changed, seen = [], [], {}
    scan = _Scan(root, notes)
    parts = _imported_parts(root)
    inst = Instances(lvl, ed, notes, [_PART_KIND[p] for p in parts if p in _PART_KIND])
    if inst.plan(scan.instances, placements(root, scan.instances, scan.count)):
        changed.append("instances")
    if scan.terrain is not None:
        if root.get(PROP_LOD, 0) != 0:
            notes.append(f"{scan.terrain.name}: imported at LOD {root[PROP_LOD]}; "
                         "only LOD 0 terrain is written back (not written)")
        elif terrain_edit(lvl, ed, scan.terrain, notes, session, seen):
            changed.append("terrain")
    if scan.collision is not None and collision_edit(lvl, ed, scan.collision, notes,
                                                     session, seen):
        changed.append("collision")
    seen["base_level"] = lvl
    _remember(context, root, base, session, seen)
    new_settings = _settings(lvl, root, notes)
    try:
        if new_settings:
            ed.set_settings(**new_settings)
            changed.append("settings")
        if not changed:
            lvl.save(filepath)
            return "unchanged: the base level's bytes", notes
        new = ed.apply()
        new.save(filepath)
    except ValueError as e:        # LimitError included
        raise ExportError(_blame(str(e), inst, scan)) from None
    rep = new.edit_report.get("patches", {})
    done = ", ".join(f"{len(v)} patches {k.replace('_', ' ')}" for k, v in rep.items() if v)
    return f"{' and '.join(changed)} written" + (f" ({done})" if done else ""), notes
