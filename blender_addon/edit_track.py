"""Which meshes the user changed since the import, as Blender reports them,
so the export reads only those (docs/blender.md "Speed"; the RC2 terrain
and collision meshes: docs/blender-rc2.md "Speed").

Blender tags a mesh for re-evaluation whenever its data is changed through
the UI or through Python (element sets, foreach_set, bmesh.to_mesh,
attributes: tests/blender/test_edit_track.py checks each), and reports it
in depsgraph_update_post when the depsgraph evaluates it. A mesh that no
visible object shows is not evaluated, and its change is reported only
once it is shown again; such meshes are never trusted here.

An import records, per mesh it made, its element counts and positions
(an Imported session; the RC2 export instead records the terrain and
collision meshes each export found to be the base level's, for the next). The export trusts a mesh as unchanged when all of
this holds: the session is of this level collection and of the base file
as it is on disk, the handler ran all along, Blender has not reported the
mesh since the import, an object of the level that shows it is visible,
its custom properties and material slots are the import's, and its counts
and positions (read again: one foreach_get per mesh) are the recorded
ones. Every other mesh is read whole and compared with the base level."""
from __future__ import annotations

import os

import bpy
import numpy as np
from bpy.app.handlers import persistent

from .materials_map import PROP_ENTRIES, PROP_GROUND
from .mesh_build import ranges, starts

FAST = bpy.app.version >= (4, 0, 0)

_dirty: set[int] = set()        # session_uid of meshes Blender evaluated since their import
_sessions: dict[int, "Imported"] = {}    # level collection session_uid -> what it made


@persistent
def _on_update(_scene, depsgraph):
    for u in depsgraph.updates:
        if u.is_updated_geometry and isinstance(u.id, bpy.types.Mesh):
            _dirty.add(u.id.original.session_uid)


def _handlers():
    return bpy.app.handlers.depsgraph_update_post


def register() -> None:
    if _on_update not in _handlers():
        _handlers().append(_on_update)


def unregister() -> None:
    if _on_update in _handlers():
        _handlers().remove(_on_update)
    clear()


def clear() -> None:
    """Forget every session (a file was loaded: the IDs are new)."""
    _dirty.clear()
    _sessions.clear()


def tracking() -> bool:
    return _on_update in _handlers()


def _file_key(path) -> tuple | None:
    try:
        st = os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    return (os.path.realpath(path), st.st_size, st.st_mtime_ns)


class MeshRecord:
    """Counts and positions of meshes as an import made them, and the
    custom properties and material slots it gave each."""

    def __init__(self, meshes, props, positions: np.ndarray, v_start: np.ndarray,
                 has_color=None):
        self.index = {me.session_uid: k for k, me in enumerate(meshes)}
        self.counts = np.array([(len(me.vertices), len(me.loops), len(me.polygons))
                                for me in meshes], np.int64).reshape(-1, 3)
        self.props = np.asarray(props, np.int64).reshape(len(meshes), -1)
        self.positions = np.ascontiguousarray(positions, np.float32).reshape(-1, 3)
        self.v_start = np.asarray(v_start, np.int64)
        self.has_color = (np.zeros(len(meshes), bool) if has_color is None
                          else np.asarray(has_color, bool))


def stands_for(material) -> tuple:
    """What an import material means to the export: its texture entries and
    its ground material (custom properties the user could change)."""
    e = material.get(PROP_ENTRIES)
    try:
        entries = tuple(int(x) for x in e) if e is not None else ()
    except TypeError:
        entries = None
    g = material.get(PROP_GROUND)
    return entries, g if isinstance(g, int) else None


def record_one(ob, props) -> MeshRecord:
    """The record of the mesh of ob as it is now (props: a list of ints,
    what unchanged_one() compares)."""
    me = ob.data
    pos = np.empty(len(me.vertices) * 3, np.float32)
    if FAST:
        me.attributes["position"].data.foreach_get("vector", pos)
    else:
        me.vertices.foreach_get("co", pos)
    return MeshRecord([me], [props], pos, np.zeros(1, np.int64))


def unchanged_one(rec: MeshRecord | None, ob, props) -> bool:
    """unchanged() for the mesh of object ob alone (shown by ob), props
    as given to record_one()."""
    if rec is None or ob.type != "MESH" or len(props) != rec.props.shape[1]:
        return False
    return bool(unchanged(rec, [ob.data], np.array([props], np.int64), [[ob]])[0])


class Imported:
    """What one import made (RC2: what the last export found unchanged):
    tiles (ENG tile meshes; RC2: the terrain mesh), collision meshes, the
    materials whose custom properties the export reads (ENG)."""

    def __init__(self, source: str, tiles: MeshRecord | None, collision: MeshRecord | None,
                 materials):
        self.key = _file_key(source)
        self.tiles, self.collision = tiles, collision
        self.materials = {m.as_pointer(): stands_for(m) for m in materials}
        self.extra: dict = {}       # what an export keeps for the next (RC2: "terrain")


def remember(context, root, imported: Imported) -> None:
    """Record an import (after it linked everything): the scene is evaluated
    now (what the operator would do right after), and what that reports
    about the new meshes is not an edit."""
    if not tracking() or imported.key is None:
        return
    context.view_layer.update()
    for rec in (imported.tiles, imported.collision):
        if rec is not None:
            _dirty.difference_update(rec.index)
    _sessions[root.session_uid] = imported


def session_for(coll, base_file) -> Imported | None:
    """The import session of this level collection, if its base file is the
    one on disk it was made from and changes were tracked all along."""
    s = _sessions.get(coll.session_uid)
    if s is None or not tracking() or s.key is None or _file_key(base_file) != s.key:
        return None
    return s


def materials_as_imported(s: Imported) -> bool:
    """The import's materials still mean what they meant (their custom
    properties); else no mesh is trusted (a change of them tags no mesh)."""
    for m in bpy.data.materials:
        want = s.materials.get(m.as_pointer())
        if want is not None and stands_for(m) != want:
            return False
    return True


def unchanged(rec: MeshRecord | None, meshes, props: np.ndarray, users) -> np.ndarray:
    """(G,) bool: the meshes (of `meshes`) this session can vouch for:
    made by the import, not reported since, shown by a visible object of
    the level (users[g]: the level's objects showing mesh g), with the
    import's properties (props (G,P)), and their counts and positions as
    recorded. Material slots are not compared: changing them tags the
    mesh (tests/blender/test_edit_track.py)."""
    g = len(meshes)
    out = np.zeros(g, bool)
    if rec is None or not g:
        return out
    index = rec.index
    k = np.array([index.get(me.session_uid, -1) for me in meshes], np.int64)
    props = np.asarray(props, np.int64).reshape(g, -1)
    cand = (k >= 0) & (props == rec.props[np.maximum(k, 0)]).all(axis=1)
    for i in np.flatnonzero(cand).tolist():
        cand[i] = meshes[i].session_uid not in _dirty and any(
            ob.visible_get() for ob in users[i])
    idx = np.flatnonzero(cand)
    if not len(idx):
        return out
    sub = [meshes[i] for i in idx.tolist()]
    kk = k[idx]
    counts = np.array([(len(me.vertices), len(me.loops), len(me.polygons)) for me in sub],
                      np.int64).reshape(-1, 3)
    ok = (counts == rec.counts[kk]).all(axis=1)
    nv = np.where(ok, counts[:, 0], 0)
    vs = starts(nv).tolist()
    buf = np.empty((vs[-1], 3), np.float32)
    flat = buf.reshape(-1)
    for j, me in enumerate(sub):
        if vs[j + 1] > vs[j]:
            dst = flat[3 * vs[j]:3 * vs[j + 1]]
            if FAST:
                me.attributes["position"].data.foreach_get("vector", dst)
            else:
                me.vertices.foreach_get("co", dst)
    diff = (buf != rec.positions[ranges(rec.v_start[kk], nv)]).any(axis=1)
    moved = np.bincount(np.repeat(np.arange(len(sub)), nv), weights=diff,
                        minlength=len(sub)) > 0
    out[idx] = ok & ~moved
    return out
