"""Which meshes the user changed since the import, as Blender reports them,
so the export reads only those (docs/blender.md "Speed",
docs/performance-eng-export.md; the RC2 terrain and collision meshes:
docs/blender-rc2.md "Speed").

What Blender tells (bpy 4.5, 5.0 and 5.3 alike; tests/blender/
test_edit_track.py holds each kind of edit to it):

- A mesh's data changed through the UI or Python (element and attribute
  sets, foreach_set, bmesh.to_mesh, transform, material slots, adding or
  removing attributes, UV layers and their names) tags the mesh. A mesh
  that a visible object shows is evaluated and reported in
  depsgraph_update_post (`depsgraph.updates`); one that no object in the
  view layer's depsgraph shows (an excluded Collision collection, a
  disabled object) is not reported, but the tag still sets
  `depsgraph.id_type_updated('MESH')` of the next evaluation, and the
  mesh is reported when it is shown again.
- Not tagged at all: the topology set element by element through RNA
  (`MeshLoop.vertex_index`, `MeshPolygon.vertices`, `MeshPolygon.
  loop_start`), the renaming of a (colour) attribute, and
  `vertices.add` etc. (which change the counts). These the check below reads.

The rule. An import records, per mesh it made, its element counts, its
corners (`.corner_vert`, each mesh from 0), its faces' first corners
(`loop_start`) and which of the attributes the export reads by name it has
(an Imported session; the RC2 export instead records the terrain and
collision meshes each export found to be the base level's, for the next),
and the number of evaluations so far that had a mesh tagged (`_mesh_tags`).
The export trusts a mesh as unchanged when all of this holds: the session
is of this level collection and of the base file as it is on disk, the
handler ran all along, its custom properties and material slots are the
import's, its counts, corners, face starts and named attributes are the
recorded ones (one foreach_get of corners per mesh, one of face starts
per mesh that has faces other than triangles),
and either an object of the level that shows it is visible and Blender has
not reported the mesh since the import, or (shown by no visible object)
no evaluation since the record had any mesh tagged. Every other mesh is
read whole and compared with the base level; when that finds every mesh
of a record unchanged, the record counts from then on (`rearm`).

A Blender without `ID.session_uid` (3.4, which is below the add-on's
declared 3.6, has none; [assumed] that some 3.x between may lack it too)
tracks nothing: every export reads every mesh whole (correct, slower);
`uid()` stands in the IDs' addresses for the keys that live only through
one call."""
from __future__ import annotations

import os

import bpy
import numpy as np
from bpy.app.handlers import persistent

from .materials_map import PROP_ENTRIES, PROP_GROUND
from .export_batch import segment_any


FAST = bpy.app.version >= (4, 0, 0)
HAS_UID = "session_uid" in bpy.types.ID.bl_rna.properties


def uid(idb) -> int:
    """The ID's session_uid, or (a Blender without it) its address."""
    return idb.session_uid if HAS_UID else idb.as_pointer()

_dirty: set[int] = set()        # session_uid of meshes Blender evaluated since their import
_sessions: dict[int, "Imported"] = {}    # level collection session_uid -> what it made
_mesh_tags = 0                  # evaluations so far that had any mesh tagged


def mesh_tags() -> int:
    return _mesh_tags


@persistent
def _on_update(_scene, depsgraph):
    global _mesh_tags
    if depsgraph.id_type_updated("MESH"):
        _mesh_tags += 1
    for u in depsgraph.updates:
        if u.is_updated_geometry and isinstance(u.id, bpy.types.Mesh):
            _dirty.add(uid(u.id.original))


def _handlers():
    return bpy.app.handlers.depsgraph_update_post


def register() -> None:
    if HAS_UID and _on_update not in _handlers():
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
    """What the check of unchanged() compares, for meshes as an import (or
    an export that found them unchanged) saw them: counts (G,3), corners
    (each mesh from 0) with l_start (G+1,), faces' first corners (each mesh
    from 0) with f_start (G+1,), the custom properties given to each, and
    which of `names` (attributes the export reads by name) each has.
    epoch: mesh_tags() when the meshes were last known to be as recorded."""

    def __init__(self, meshes, props, corner_vert: np.ndarray, l_start: np.ndarray,
                 loop_start: np.ndarray, f_start: np.ndarray, has_color=None,
                 names: tuple = ()):
        self.index = {uid(me): k for k, me in enumerate(meshes)}
        self.counts = np.array([(len(me.vertices), len(me.loops), len(me.polygons))
                                for me in meshes], np.int64).reshape(-1, 3)
        self.props = np.asarray(props, np.int64).reshape(len(meshes), -1)
        self.corner_vert = np.ascontiguousarray(corner_vert, np.int32)
        self.l_start = np.asarray(l_start, np.int64)
        self.loop_start = np.ascontiguousarray(loop_start, np.int32)
        self.f_start = np.asarray(f_start, np.int64)
        self.has_color = (np.zeros(len(meshes), bool) if has_color is None
                          else np.asarray(has_color, bool))
        self.names = tuple(names)
        self.present = present(meshes, self.names)
        self.epoch = -1             # set by remember()

    @classmethod
    def of_arrays(cls, meshes, props, arr, has_color=None, names=()) -> "MeshRecord":
        """The record of meshes build_meshes made from MeshArrays arr."""
        corner_start = arr.face_start[arr.f_start]
        nl = np.diff(corner_start)
        g_of_corner = np.repeat(np.arange(len(nl)), nl)
        nf = np.diff(arr.f_start)
        local = arr.face_start[:-1] - np.repeat(corner_start[:-1], nf)
        return cls(meshes, props, arr.corner_vert - arr.v_start[g_of_corner], corner_start,
                   local, arr.f_start, has_color, names)


def joined(a: "MeshRecord | None", b: MeshRecord) -> MeshRecord:
    """One record of a's meshes and then b's (the same props and names);
    its epoch is the older of the two."""
    if a is None:
        return b
    out = MeshRecord.__new__(MeshRecord)
    out.index = {**a.index, **{u: k + len(a.counts) for u, k in b.index.items()}}
    out.counts = np.concatenate([a.counts, b.counts])
    out.props = np.concatenate([a.props, b.props])
    out.corner_vert = np.concatenate([a.corner_vert, b.corner_vert])
    out.l_start = np.concatenate([a.l_start, b.l_start[1:] + a.l_start[-1]])
    out.loop_start = np.concatenate([a.loop_start, b.loop_start])
    out.f_start = np.concatenate([a.f_start, b.f_start[1:] + a.f_start[-1]])
    out.has_color = np.concatenate([a.has_color, b.has_color])
    out.names = a.names
    out.present = np.concatenate([a.present, b.present])
    out.epoch = min(a.epoch, b.epoch)
    return out


def adopt(context, session: "Imported", rec: MeshRecord) -> None:
    """Meshes made after the import (collision_build.py) join the session's
    collision record: the scene is evaluated now, and what that reports
    about them is not an edit."""
    if not tracking():
        return
    context.view_layer.update()
    _dirty.difference_update(rec.index)
    rec.epoch = _mesh_tags
    session.collision = joined(session.collision, rec)


def present(meshes, names) -> np.ndarray:
    """(G, len(names)) bool: which of the attributes names each mesh has."""
    if not names:
        return np.zeros((len(meshes), 0), bool)
    flat = [n in at for me in meshes for at in (me.attributes,) for n in names]
    return np.array(flat, bool).reshape(len(meshes), len(names))


def _corner_getter():
    """get(me, out): a mesh's corners (corner_vert, from 0) into out."""
    if FAST:
        return lambda me, out: me.attributes[".corner_vert"].data.foreach_get("value", out)
    return lambda me, out: me.loops.foreach_get("vertex_index", out)


def _topology(me, nl: int, nf: int):
    cv = np.empty(nl, np.int32)
    ls = np.empty(nf, np.int32)
    if nl:
        _corner_getter()(me, cv)
    if nf:
        me.polygons.foreach_get("loop_start", ls)
    return cv, ls


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
    what unchanged_one() compares; every attribute name is watched)."""
    me = ob.data
    cv, ls = _topology(me, len(me.loops), len(me.polygons))
    return MeshRecord([me], [props], cv, [0, len(cv)], ls, [0, len(ls)],
                      names=tuple(me.attributes.keys()))


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
    for rec in (imported.tiles, imported.collision, *imported.extra.values()):
        if isinstance(rec, MeshRecord):       # extra: ENG zone meshes ("zones")
            _dirty.difference_update(rec.index)
            rec.epoch = _mesh_tags
    _sessions[uid(root)] = imported


def rearm(rec: MeshRecord | None, meshes, unchanged: np.ndarray, epoch: int) -> None:
    """An export read `meshes` whole at mesh_tags() == epoch and found
    those of `unchanged` to be the base level's: if that is every mesh of
    the record, they are known to be as recorded from then on (their data
    as recorded is what the record's check compares; a tag after the read
    moves mesh_tags() on)."""
    if rec is None or not len(meshes) or not np.all(unchanged):
        return
    if {uid(me) for me in meshes} >= rec.index.keys():
        rec.epoch = epoch
        _dirty.difference_update(rec.index)


def session_for(coll, base_file) -> Imported | None:
    """The import session of this level collection, if its base file is the
    one on disk it was made from and changes were tracked all along."""
    s = _sessions.get(uid(coll)) if tracking() else None
    if s is None or s.key is None or _file_key(base_file) != s.key:
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
    """(G,) bool: the meshes (of `meshes`) this session can vouch for, by
    the rule of this module's docstring (users[g]: the level's objects
    showing mesh g; props (G,P) as recorded). Material slots are not
    compared: changing them tags the mesh (tests/blender/test_edit_track.py)."""
    return vouched(rec, meshes, props, users)[0]


def vouched(rec: MeshRecord | None, meshes, props: np.ndarray, users):
    """unchanged(), and (G,) the record's row of each mesh (-1: none)."""
    g = len(meshes)
    out = np.zeros(g, bool)
    if rec is None or not g:
        return out, np.full(g, -1, np.int64)
    index = rec.index
    uids = [uid(me) for me in meshes]
    k = np.array([index.get(u, -1) for u in uids], np.int64)
    props = np.asarray(props, np.int64).reshape(g, -1)
    cand = (k >= 0) & (props == rec.props[np.maximum(k, 0)]).all(axis=1)
    quiet = rec.epoch == _mesh_tags          # no mesh tagged since the record
    for i in np.flatnonzero(cand).tolist():
        cand[i] = uids[i] not in _dirty and (
            quiet or any(ob.visible_get() for ob in users[i]))
    idx = np.flatnonzero(cand)
    if not len(idx):
        return out, k
    kk = k[idx]
    # the candidates' corners and face starts are read where the record has
    # them (a mesh whose counts or names differ is not read): one pass per
    # mesh, its attributes looked up once
    want = rec.counts[kk].tolist()
    names = rec.names
    has = rec.present[kk].tolist()
    l0s = rec.l_start[kk].tolist()
    f0s = rec.f_start[kk].tolist()
    cv = np.empty(len(rec.corner_vert), np.int32)
    lsb = np.empty(len(rec.loop_start), np.int32)
    read_l = np.zeros(len(rec.corner_vert), bool)
    read_f = np.zeros(len(rec.loop_start), bool)
    ok = np.zeros(len(idx), bool)
    fast = FAST
    for j, i in enumerate(idx.tolist()):
        me = meshes[i]
        nv, nl, nf = want[j]
        if len(me.vertices) != nv or len(me.loops) != nl or len(me.polygons) != nf:
            continue
        at = me.attributes
        if names and [n in at for n in names] != has[j]:
            continue
        if nl:
            l0 = l0s[j]
            if fast:
                at[".corner_vert"].data.foreach_get("value", cv[l0:l0 + nl])
            else:
                me.loops.foreach_get("vertex_index", cv[l0:l0 + nl])
            read_l[l0:l0 + nl] = True
        # the face starts of a mesh of triangles only cannot change while its
        # counts do not (every face needs three corners): read for the others
        if nf and nl != 3 * nf:
            f0 = f0s[j]
            me.polygons.foreach_get("loop_start", lsb[f0:f0 + nf])
            read_f[f0:f0 + nf] = True
        ok[j] = True
    if ok.any():
        # differences, by the record's rows, in one compare
        bad_l = read_l & (cv != rec.corner_vert)
        bad_f = read_f & (lsb != rec.loop_start)
        if bad_l.any() or bad_f.any():
            bad = segment_any(bad_l, rec.l_start) | segment_any(bad_f, rec.f_start)
            ok &= ~bad[kk]
    out[idx] = ok
    return out, k
