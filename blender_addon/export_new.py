"""Objects the user added to the level collection -> new tiles
(LevelEdit.add_mesh: the write path's cell split), and the checks that
name every object the export cannot write."""
from __future__ import annotations

import numpy as np

from . import convert
from .export_read import COLOR_ATTRS, MeshData, display_colors, to_file_points
from .export_tiles import collision_arrays
from .import_tiles import ATTR_TEXTURE


def _mesh_of(ob, depsgraph):
    """The mesh the user sees (modifiers applied) and a cleanup call."""
    if ob.modifiers and depsgraph is not None:
        ev = ob.evaluated_get(depsgraph)
        return ev.to_mesh(), ev.to_mesh_clear
    return ob.data, (lambda: None)


def add_new_object(ed, ob, matrix, children, textures, meshes, opts, notes, call,
                   depsgraph, tile_names: dict) -> int:
    """One new object through ed.add_mesh; returns the tiles it made (and
    names them in tile_names: edit tile -> object name)."""
    me, done = _mesh_of(ob, depsgraph)
    try:
        d = MeshData(me, colors=COLOR_ATTRS + _active_color(me), ints=(ATTR_TEXTURE,))
        if not len(d.sizes):
            notes.append(f"object {ob.name!r} has no faces: nothing to export")
            return 0
        if not d.triangles_only and not opts.triangulate:
            raise ValueError(f"{ob.name}: has faces with more than three corners; "
                             "triangulate it or enable 'Triangulate'")
        tri, face, corners = d.triangulated()
        pos = to_file_points(d.positions, matrix)
        if d.uv is None:
            uv = np.zeros((len(tri), 3, 2), np.float32)
        else:
            uv = convert.flip_v(d.uv[corners])
        tex = textures.per_face(d, ob.name, notes)[face]
        col = None
        for cname in COLOR_ATTRS[:1] + _active_color(me):
            c = d.corner_colors(cname)
            if c is not None:
                col = display_colors(c[corners]).astype(np.float32)
                break
        coll = _collision_of(ob, children, meshes, opts, notes)
        made = 0
        for sel, texture in ((tex >= 0, "entries"), (tex < 0, None)):
            if not sel.any():
                continue
            if texture is not None and d.uv is None:
                notes.append(f"object {ob.name!r} has no UV map: its faces show "
                             "texel (0, 0) of their texture")
            out = call(ed.add_mesh, ob.name, pos, tri[sel], uv[sel],
                       texture=tex[sel] if texture else None,
                       color=None if col is None else col[sel],
                       collision=coll, zones=opts.zones, name=ob.name)
            coll = "faces" if coll == "faces" else None     # collision once
            made += int(out["n_tiles"])
            first = int(out["first_tile"])
            tile_names.update({t: ob.name for t in range(first, first + int(out["n_tiles"]))})
            if out.get("uv_inexact"):
                notes.append(f"object {ob.name!r}: {out['uv_inexact']} triangles have UVs "
                             "that are not half a texture rectangle; fitted to the nearest")
            if out.get("uv_nearest"):
                notes.append(f"object {ob.name!r}: {out['uv_nearest']} triangles use the "
                             "nearest texture entry on their page")
            for w in out.get("warnings", ()):
                notes.append(w)
        return made
    finally:
        done()


def _active_color(me) -> tuple:
    a = getattr(me.color_attributes, "active_color", None)
    return (a.name,) if a is not None and a.name not in COLOR_ATTRS else ()


def _collision_of(ob, ch, meshes, opts, notes):
    """A new object's collision: its collision children ch (world space),
    else its own faces when the user asks, else none (said so)."""
    if ch:
        return collision_arrays(ch, meshes, np.array(ob.matrix_world, np.float64),
                                opts.triangulate, world=True, notes=notes)
    if opts.floors_from_faces:
        return "faces"
    notes.append(f"object {ob.name!r} has no collision object (a child named "
                 "'... collision') and 'Collision from new meshes' is off: it gets no "
                 "collision (nothing stands on it)")
    return None


def stpc_changed(ob, lvl) -> bool:
    """An STPC object (shown for reference) whose mesh is not the model's."""
    from .mesh_build import drop_degenerate
    i = ob.get("wadkit_object")
    objs = lvl.objects
    if not isinstance(i, int) or not 0 <= i < len(objs):
        return True
    m = objs[i]
    d = MeshData(ob.data, uv=False)
    tri = np.asarray(m.triangles, np.int64).reshape(-1, 3)
    keep = drop_degenerate(tri)
    return not (d.triangles_only
                and np.array_equal(d.positions, convert.to_blender(m.positions))
                and np.array_equal(d.corner_vert, tri[keep].reshape(-1)))
