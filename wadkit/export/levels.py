"""Level objects (ENG, RC2) → Scene, through their documented Python API only.

ENG: lvl.world_mesh(space="file"), lvl.pages, lvl.textures, lvl.tiles,
lvl.models[i].collision, lvl.objects.  RC2: lvl.terrain(lod), lvl.tfrag_textures.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _core
from .scene import BLEND, MASK, Layer, Material, Scene, collision_material, \
    zup_to_yup

FACE_TWOSIDED = 0x0400
TEX_FLAT = 0x0001


def _get(obj, *names, default=None):
    """A field of a record that may be an object, a dict or a namedtuple."""
    for n in names:
        if isinstance(obj, dict) and n in obj:
            return obj[n]
        if hasattr(obj, n):
            return getattr(obj, n)
    return default


# ---------------------------------------------------------------- ENG


def _eng_entry(e) -> tuple[int, int, tuple | None]:
    """(page, blend mode, flat RGB or None) of a texture-table entry."""
    flags = int(_get(e, "flags", default=0))
    page = int(_get(e, "page", default=-1))
    blend = _get(e, "blend", "blend_mode")
    blend = (flags >> 12) & 7 if blend is None else int(blend)
    flat = _get(e, "flat", "flat_color", "flat_colour", "color", "colour")
    if flat is not None:
        flat = tuple(int(c) for c in flat)[:3]
    elif flags & TEX_FLAT:
        flat = (255, 255, 255)
    return page, blend, flat


def texture_entries(textures) -> list[tuple[int, int, tuple | None]]:
    """(page, blend, flat RGB or None) per texture-table entry, from the
    table as a dict of arrays (flags, page, flat, color, blend — the TEXT
    API) or as a sequence of entry records."""
    if _get(textures, "page") is not None and np.ndim(_get(textures, "page")) == 1:
        page = np.asarray(_get(textures, "page")).tolist()
        flags = np.asarray(_get(textures, "flags", default=np.zeros(len(page))),
                           dtype=np.int64)
        blend = _get(textures, "blend", "blend_mode")
        blend = (flags >> 12) & 7 if blend is None else np.asarray(blend)
        flat = _get(textures, "flat")
        flat = (flags & TEX_FLAT) != 0 if flat is None else np.asarray(flat, bool)
        color = _get(textures, "color", "colour")
        color = np.full((len(page), 3), 255) if color is None else np.asarray(color)
        return [(int(p), int(b), tuple(int(c) for c in rgb[:3]) if f else None)
                for p, b, f, rgb in zip(page, blend.tolist(), flat.tolist(), color)]
    return [_eng_entry(e) for e in textures]


def eng_materials(textures, n_pages: int, texture: np.ndarray,
                  face_flags: np.ndarray) -> tuple[list[Material], np.ndarray]:
    """One material per (page, blend mode, flat colour, double-sided) that
    the triangles use. Returns the materials and the material per triangle.

    Alpha: blend mode 0 → MASK (the page's transparent pixels, value 0, are
    cut out); any other blend mode → BLEND with alpha factor 0.5, as the
    Blender add-on shows it [assumed: the spec names bits 12-14 "blend
    mode" without the modes' meaning; non-zero modes are the
    semi-transparent ones in the PS1 lineage of this engine; texels are
    opaque, docs/formats/eng.md "ABGR1555"]."""
    entries = texture_entries(textures)
    base_keys = sorted(set(entries), key=repr)
    key_id = {k: i for i, k in enumerate(base_keys)}
    none_id = len(base_keys)
    table = np.array([key_id[k] for k in entries] + [none_id], dtype=np.int64)
    tex = np.asarray(texture, dtype=np.int64)
    tex = np.where((tex >= 0) & (tex < len(entries)), tex, len(entries))
    two = (np.asarray(face_flags, dtype=np.int64) & FACE_TWOSIDED) != 0
    used, per_tri = np.unique(table[tex] * 2 + two, return_inverse=True)
    mats = []
    for k in used.tolist():
        base, double = divmod(k, 2)
        if base == none_id:
            mats.append(Material("untextured", None, (1.0, 1.0, 1.0, 1.0),
                                 MASK, bool(double)))
            continue
        page, blend, flat = base_keys[base]
        alpha = MASK if blend == 0 else BLEND
        a = 1.0 if blend == 0 else 0.5
        name = (f"flat_{flat[0]:02x}{flat[1]:02x}{flat[2]:02x}" if flat
                else f"page{page:02d}") + f"_b{blend}" + ("_2s" if double else "")
        if flat is not None:
            mats.append(Material(name, None,
                                 (flat[0] / 255, flat[1] / 255, flat[2] / 255, a),
                                 alpha, bool(double)))
        else:
            img = page if 0 <= page < n_pages else None
            mats.append(Material(name, img, (1.0, 1.0, 1.0, a), alpha,
                                 bool(double)))
    return mats, per_tri.ravel()


def collision_polygons(coll) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A model's collision → (corners (P,4,3) f32, quad (P,) bool,
    material (P,) int), corners counter-clockwise around the surface normal
    when the decoder gives one. Accepts a record of arrays (corners (P,4,3)
    or (P,k,3), n_corners or type, material, normal) or a sequence of
    polygons with .corners/.type/.material."""
    if coll is None:
        return np.zeros((0, 4, 3), np.float32), np.zeros(0, bool), np.zeros(0, int)
    corners = _get(coll, "corners")
    if corners is not None and not callable(corners) and np.ndim(corners) == 3:
        corners = np.asarray(corners, dtype=np.float32)
        n = _get(coll, "n_corners")
        kinds = np.asarray(n, np.int64) == 4 if n is not None else \
            np.asarray(_get(coll, "type", "kind"), dtype=np.int64)
        mat = np.asarray(_get(coll, "material"), dtype=np.int64)
    else:
        polys = list(coll)
        corners = np.zeros((len(polys), 4, 3), np.float32)
        kinds = np.zeros(len(polys), np.int64)
        mat = np.zeros(len(polys), np.int64)
        for i, p in enumerate(polys):          # per polygon, not per vertex
            c = np.asarray(_get(p, "corners"), dtype=np.float32)
            corners[i, :len(c)] = c
            kinds[i] = int(_get(p, "type", "kind", default=len(c) == 4))
            mat[i] = int(_get(p, "material", default=0))
    if corners.shape[1] == 3:
        corners = np.concatenate([corners, corners[:, :1]], axis=1)
    quad = (kinds & 1) != 0
    normal = _get(coll, "normal") if isinstance(coll, dict) or hasattr(coll, "normal") else None
    if normal is not None and len(corners):
        # the decoder lists corners clockwise around the surface normal; turn
        # them so the right-hand normal is the surface's (front faces up for
        # floors, and the write path encodes the same side back)
        n = np.asarray(normal, dtype=np.float32)
        rh = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        flip = (rh * n).sum(axis=1) < 0
        tri_order = np.where(quad[:, None], [0, 3, 2, 1], [0, 2, 1, 3])
        corners = np.where(flip[:, None, None],
                           np.take_along_axis(corners, tri_order[:, :, None], 1),
                           corners)
    return corners, quad, mat


def tile_transform(local: np.ndarray, position, rotation: int) -> np.ndarray:
    """Tile-local → world, both in file space. The spec's transform (export
    space, a = rot/4096·2π: X = x + vx·cos a − vz·sin a, Z = z + vx·sin a +
    vz·cos a) with z negated on both sides gives, in file space:
    X = x + vx·cos a + vz·sin a, Z = z − vx·sin a + vz·cos a."""
    a = (int(rotation) % 4096) / 4096.0 * 2.0 * math.pi
    c, s = math.cos(a), math.sin(a)
    v = np.asarray(local, dtype=np.float64)
    p = np.asarray(position, dtype=np.float64)
    out = np.empty_like(v)
    with np.errstate(invalid="ignore"):    # unused NaN/inf corners stay so
        out[:, 0] = p[0] + v[:, 0] * c + v[:, 2] * s
        out[:, 1] = p[1] + v[:, 1]
        out[:, 2] = p[2] - v[:, 0] * s + v[:, 2] * c
    return out.astype(np.float32)


def model_collision(model):
    """A model's decoded collision: .collision when the API gives it, else
    its 32-byte records decoded by the core (file space)."""
    coll = getattr(model, "collision", None)
    if coll is None and getattr(model, "collision_raw", None) is not None:
        from .. import _core
        groups = tuple(int(g) for g in model.collision_groups)
        coll = _core.eng_collision_decode(bytes(model.collision_raw),
                                          space="file", groups=groups)
    return coll


def _tile_rows(tiles):
    """(model, position, rotation) per tile, from a table of arrays (the
    geometry API: tiles.model, .position, .rotation) or a list of records."""
    model = _get(tiles, "model")
    if model is not None and np.ndim(model) == 1:
        pos = np.asarray(_get(tiles, "position"), dtype=np.float64)
        rot = np.asarray(_get(tiles, "rotation"), dtype=np.int64)
        return zip(np.asarray(model).tolist(), pos, rot.tolist())
    return ((int(_get(t, "model")), _get(t, "position"),
             int(_get(t, "rotation", "rot", default=0))) for t in tiles)


def eng_collision_mesh(lvl) -> dict:
    """All collision polygons of all tiles, placed, as triangles (quads
    split 0-1-2, 0-2-3); group = tile index, material = surface material."""
    per_model: dict[int, tuple] = {}
    pos, tris, mats, groups = [], [], [], []
    base = 0
    for ti, (mi, tpos, trot) in enumerate(_tile_rows(lvl.tiles)):
        if mi not in per_model:
            corners, quad, mat = collision_polygons(model_collision(lvl.models[mi]))
            p = len(corners)
            t = np.stack([np.arange(p) * 4 + k for k in (0, 1, 2)], axis=1)
            q = np.stack([np.arange(p) * 4 + k for k in (0, 2, 3)], axis=1)[quad]
            local = corners.reshape(-1, 3)
            tri = np.concatenate([t, q]).reshape(-1, 3)
            tmat = np.concatenate([mat, mat[quad]])
            # a record whose planes do not meet in a point decodes to
            # non-finite corners: leave such triangles out (JSON has no NaN)
            ok = np.isfinite(local[tri]).all(axis=(1, 2))
            per_model[mi] = (local, tri[ok], tmat[ok])
        local, t, m = per_model[mi]
        if not len(t):
            continue
        pos.append(tile_transform(local, tpos, trot))
        tris.append(t + base)
        mats.append(m)
        groups.append(np.full(len(t), ti))
        base += len(local)
    if not pos:
        return {"positions": np.zeros((0, 3), np.float32),
                "triangles": np.zeros((0, 3), np.uint32),
                "material": np.zeros(0, np.int64), "group": np.zeros(0, np.int64)}
    return {"positions": np.concatenate(pos), "triangles": np.concatenate(tris),
            "material": np.concatenate(mats), "group": np.concatenate(groups)}


def _add_collision(scene: Scene, coll: dict) -> None:
    used, inv = np.unique(coll["material"], return_inverse=True)
    index = scene.add_materials([collision_material(int(m)) for m in used])
    coll = dict(coll, material=index[inv.ravel()])
    scene.layers.append(Layer("collision", "coll_tile", coll))


UV_FLAGS = 0x0010 | 0x0020 | 0x0800     # the face flags the UV rules read


def model_uvs(model, textures) -> np.ndarray | None:
    """Per-corner UVs (M,3,2) of a model's faces in file-space corner order,
    by the engine's rules (the core's eng_face_uvs, called once per distinct
    (texture, UV flags) pair, not per face). None without the API."""
    from .. import _core
    rects = _get(textures, "rect") if textures is not None else None
    if rects is None or not hasattr(_core, "eng_face_uvs"):
        return None
    rects = np.asarray(rects, dtype=np.float32)
    tex = np.asarray(model.face_texture, dtype=np.int64)
    flags = np.asarray(model.face_flags, dtype=np.int64) & UV_FLAGS
    tex = np.where((tex >= 0) & (tex < len(rects)), tex, len(rects))
    rects = np.concatenate([rects, [[0, 0, 1, 1]]]).astype(np.float32)
    pairs, inv = np.unique(np.stack([tex, flags], 1), axis=0, return_inverse=True)
    table = np.stack([_core.eng_face_uvs((float(rects[t][0]), float(rects[t][1]),
                                          float(rects[t][2]), float(rects[t][3])),
                                         int(f))
                      for t, f in pairs.tolist()]) if len(pairs) else \
        np.zeros((0, 3, 2), np.float32)
    # eng_face_uvs is in stored (export) corner order; file order is (0,2,1)
    return table[inv.ravel()][:, [0, 2, 1]].astype(np.float32)


def _eng_objects(lvl, scene: Scene, world_max_x: float, textures) -> None:
    """STPC object models side by side along +x, 2 units past the level,
    textured like the world (materials by page/blend), white vertex colour."""
    pos, tris, groups, texs, flags = [], [], [], [], []
    uvs: list[np.ndarray | None] = []
    x = world_max_x + 2.0
    base = 0
    for i, m in enumerate(lvl.objects):
        p = np.asarray(m.positions, dtype=np.float32)
        t = np.asarray(m.triangles, dtype=np.int64)
        if not len(t) or not len(p):
            continue
        lo, hi = p.min(axis=0), p.max(axis=0)
        pos.append(p + np.array([x - lo[0], 0, 0], np.float32))
        x += float(hi[0] - lo[0]) + 1.0
        tris.append(t + base)
        groups.append(np.full(len(t), i))
        uvs.append(model_uvs(m, textures) if hasattr(m, "face_texture") else None)
        texs.append(np.asarray(getattr(m, "face_texture", np.full(len(t), -1))))
        flags.append(np.asarray(getattr(m, "face_flags", np.zeros(len(t)))))
        base += len(p)
    if not pos:
        return
    n = sum(len(t) for t in tris)
    mesh = {"positions": np.concatenate(pos), "triangles": np.concatenate(tris),
            "group": np.concatenate(groups),
            "color": np.ones((n, 3, 4), np.float32)}
    got = [u for u in uvs if u is not None]
    if textures is not None and len(got) == len(uvs):
        mats, per_tri = eng_materials(textures, len(scene.images),
                                      np.concatenate(texs), np.concatenate(flags))
        mesh["uv"] = np.concatenate(got)
        # the world's materials again where the objects share them
        mesh["material"] = scene.add_materials(mats)[per_tri]
    else:
        index = scene.add_materials([Material("object", None, (0.8, 0.8, 0.8, 1.0))])
        mesh["material"] = np.full(n, index[0])
    scene.layers.append(Layer("objects", "object", mesh))


def lacks_chunk(lvl, tag: str) -> bool:
    """True when the level says it has no such chunk (`tag in lvl`); levels
    without a chunk table (hand-made test levels) lack nothing."""
    try:
        return tag not in lvl
    except TypeError:
        return False


def missing_chunk(tag: str, what: str) -> Exception:
    """The MissingChunkError for a chunk a command cannot do without."""
    from .. import eng
    return eng.missing_chunk(tag, f"no {tag} chunk in this WAD: {what}")


def _empty_world() -> dict:
    return {"positions": np.zeros((0, 3), np.float32),
            "triangles": np.zeros((0, 3), np.uint32),
            "uv": np.zeros((0, 3, 2), np.float32),
            "color": np.zeros((0, 3, 4), np.float32),
            "texture": np.zeros(0, np.int32), "face_flags": np.zeros(0, np.uint16),
            "tile": np.zeros(0, np.int32)}


def eng_scene(lvl, *, collision: bool = False, objects: bool = False) -> Scene:
    """World (and collision, objects) of an ENG level. A level without a
    TEXT chunk is converted untextured, one without a MAP chunk has no
    world or collision (its objects are still written): each with a
    WadWarning. Without MAP and objects there is nothing to write: a
    FormatError."""
    no_map, no_text = lacks_chunk(lvl, "MAP"), lacks_chunk(lvl, "TEXT")
    if no_map and not (objects and len(lvl.objects)):
        hint = "" if objects or not len(lvl.objects) else \
            " but its object models (--objects)"
        raise missing_chunk("MAP", f"the level has no tiles: nothing to convert{hint}")
    if no_map:
        _core.warn("no MAP chunk: no tiles, so no world or collision; "
                   "only the object models are written")
        mesh = _empty_world()
    else:
        mesh = lvl.world_mesh(space="file")
    if no_text:
        _core.warn("no TEXT chunk: no texture pages, so the level is "
                   "written untextured")
        images, textures = [], {"page": np.zeros(0, np.int8)}
    else:
        images = [np.ascontiguousarray(p.rgba, dtype=np.uint8) for p in lvl.pages]
        textures = lvl.textures
    mats, per_tri = eng_materials(textures, len(images), mesh["texture"],
                                  mesh["face_flags"])
    scene = Scene(materials=mats, images=images, source=str(lvl.path or ""))
    scene.layers.append(Layer("world", "tile", {
        "positions": mesh["positions"], "triangles": mesh["triangles"],
        "uv": mesh["uv"], "color": mesh["color"], "material": per_tri,
        "group": mesh["tile"]}))
    if collision and not no_map:
        _add_collision(scene, eng_collision_mesh(lvl))
    if objects:
        p = np.asarray(mesh["positions"])
        _eng_objects(lvl, scene, float(p[:, 0].max()) if len(p) else 0.0,
                     None if no_text else textures)
    return scene


# ---------------------------------------------------------------- RC2


def level_scene(lvl, *, collision=False, objects=False, lod=0, sky=False,
                instancing="auto", notes=None) -> Scene:
    """A Scene from an opened level of either game (sky, instancing, notes:
    RC2, see export/rc2.py; objects: ENG)."""
    if hasattr(lvl, "terrain"):
        from .rc2 import rc2_scene
        return rc2_scene(lvl, lod=lod, collision=collision, sky=sky,
                         instancing=instancing, notes=notes)
    if hasattr(lvl, "world_mesh"):
        return eng_scene(lvl, collision=collision, objects=objects)
    raise NotImplementedError(f"converting {_kind(lvl)} levels is not built "
                              "into this wadkit yet")


def _kind(lvl) -> str:
    return type(lvl).__module__.rsplit(".", 1)[-1].upper()
