"""Helpers for the editing tests: a fixture level from the from-spec
terrain builder (turned tiles, shared models, a water plane, a tile swap),
import/export through the operators, world positions, and the floor test
compared with the collision polygons the scene shows."""
from __future__ import annotations

import bpy
import numpy as np

import wadkit
from blender_addon import convert
from blender_addon.export_eng import Options, export_eng
from blender_addon.export_read import local_matrix
from builders import eng_terrain


def terrain(tmp_path, **kw) -> tuple[str, bytes]:
    wad, _ = eng_terrain.terrain_level(grid=kw.pop("grid", 6), **kw)
    p = tmp_path / "terr.wad"
    p.write_bytes(wad)
    return str(p), wad


# How load() makes the collision objects when kw does not say: by the
# import (import_collision=True), or by the default import and then Build
# collision for every tile (a test module's fixture sets it to run its
# edits on both).
BUILD_COLLISION = False


def load(path: str, **kw):
    """Import path one object per tile unless kw says otherwise (the
    default import is per zone: test_eng_import_default.py); these tests
    edit collision objects, so they are made now unless kw says otherwise
    (the default import makes them on demand: test_collision_on_demand.py),
    or built after it (BUILD_COLLISION)."""
    build = BUILD_COLLISION and "import_collision" not in kw
    kw.setdefault("import_collision", not build)
    kw.setdefault("merge", "TILE")
    assert bpy.ops.import_scene.wadkit_eng(filepath=path, **kw) == {"FINISHED"}
    if build:
        for o in bpy.context.view_layer.objects:
            o.select_set(False)
        assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}
    bpy.context.view_layer.update()
    return bpy.data.collections[path.rsplit("/", 1)[-1].rsplit(".", 1)[0]]


def export(out, **opts) -> tuple[str, list[str]]:
    """export_eng on the scene: (summary, notes); the operator's WARNING
    reports are these notes."""
    bpy.context.view_layer.update()
    return export_eng(bpy.context, str(out), options=Options(**opts))


def tile_object(name: str, t: int):
    return bpy.data.objects[f"{name} tile {t}"]


def own_tile(lvl) -> int:
    """A tile with faces and collision whose model no other tile or swap
    uses, alone in its cell (no other tile's floor there)."""
    t = lvl.tiles
    models, counts = np.unique(t.model, return_counts=True)
    swapped = set(np.asarray(t.swaps)[:, 3:5].reshape(-1).tolist())
    cells, per_cell = np.unique(t.cell, return_counts=True)
    alone = set(cells[per_cell == 1].tolist())
    for m in models[counts == 1]:
        k = int(np.flatnonzero(t.model == m)[0])
        if len(lvl.models[int(m)].triangles) and int(m) not in swapped and \
                len(lvl.models[int(m)].collision["n_corners"]) and int(t.cell[k]) in alone:
            return k
    raise AssertionError("no tile with a model of its own")


def shared_tiles(lvl) -> list[int]:
    """The tiles of a model with faces that several tiles use."""
    t = lvl.tiles
    models, counts = np.unique(t.model, return_counts=True)
    for m in models[counts > 1]:
        if len(lvl.models[int(m)].triangles):
            return [int(k) for k in np.flatnonzero(t.model == m)]
    raise AssertionError("no shared model")


def world(ob, co=None) -> np.ndarray:
    """Vertices of ob (or the points co, mesh space) in world space; a
    child through its parent (right also where the view layer does not
    evaluate it)."""
    m = np.array(ob.matrix_world, np.float64)
    if ob.parent is not None:
        m = np.array(ob.parent.matrix_world, np.float64) @ local_matrix(ob)
    if co is None:
        co = np.array([v.co for v in ob.data.vertices])
    return np.asarray(co, np.float64) @ m[:3, :3].T + m[:3, 3]


def file_points(ob) -> np.ndarray:
    return convert.to_file(world(ob).astype(np.float32))


def collision_child(ob):
    (ch,) = [c for c in ob.children if "wadkit_collision" in c]
    return ch


def face_samples(ob, face: int, n: int = 6, seed: int = 0):
    """(file-space points (n,3) inside a collision face of ob on its plane,
    as the scene shows it), away from its edges: every barycentric weight
    at least 0.2, out of reach of the engine's edge tolerance (0.016), with
    which a neighbouring polygon may catch a point just inside this one."""
    me = ob.data
    p = world(ob, [me.vertices[i].co for i in me.polygons[face].vertices])
    f = convert.to_file(p.astype(np.float32)).astype(np.float64)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = rng.integers(1, len(f) - 1)          # a triangle of the fan
        w = 0.2 + 0.4 * rng.dirichlet((2.0, 2.0, 2.0))
        out.append(w[0] * f[0] + w[1] * f[k] + w[2] * f[k + 1])
    return np.array(out)


def floor_heights(lvl, points) -> np.ndarray:
    """The engine's floor height under each point (probing from 1 cm above
    it), NaN where there is none."""
    out = []
    for x, y, z in points:
        hit = lvl.floor(float(x), float(y) + 0.01, float(z))
        out.append(np.nan if hit is None else hit["height"])
    return np.array(out)


def assert_floor_on_face(lvl, ob, face: int, n: int = 8, tol: float = 1e-3,
                         cell=None) -> int:
    """The written level's floor test agrees, at points on collision face
    `face` of ob, with the face's plane there (within tol, 1 mm). cell
    (x, z): only points in that grid cell, where no other tile's floor
    reaches. Returns how many points were tested."""
    pts = face_samples(ob, face, n)
    if cell is not None:
        inside = (np.floor(pts[:, 0]) == cell[0]) & (np.floor(pts[:, 2]) == cell[1])
        pts = pts[inside]
    got = floor_heights(lvl, pts)
    np.testing.assert_allclose(got, pts[:, 1], atol=tol)
    return len(pts)


def chunk_payloads(path) -> dict:
    lvl = wadkit.eng.open(str(path))
    return {c.tag: bytes(lvl.chunk(c.tag)) for c in lvl.chunks}


def face_tiles(ob) -> np.ndarray:
    """The tile of each face of a per-zone import's mesh (`wadkit_tile`)."""
    ft = np.empty(len(ob.data.polygons), np.int32)
    ob.data.attributes["wadkit_tile"].data.foreach_get("value", ft)
    return ft


def zone_objects(coll):
    """The zone objects of a per-zone level collection."""
    return [o for o in coll.objects if "wadkit_zone" in o]


def holder(coll, t):
    """The zone object whose mesh holds tile t's faces."""
    (ob,) = [o for o in zone_objects(coll) if (face_tiles(o) == t).any()]
    return ob
