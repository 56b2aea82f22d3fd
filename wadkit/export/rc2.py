"""RC2 level -> Scene: the tfrag terrain (and the chunks'), ties, shrubs and
mobys as instanced class meshes, and on request the collision and the sky,
all rotated from the game's Z-up to y-up. Through the level's Python API
and wadkit/_rc2_scene.py (what the Blender import shares)."""
from __future__ import annotations

import numpy as np

from .. import _rc2_scene as parts
from .._core import FormatError
from .scene import OPAQUE, Instanced, Layer, Material, Scene, zup_to_yup

# Z-up -> y-up as a matrix: (x, y, z) -> (x, z, -y)
YUP = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]], np.float64)
INSTANCING = ("auto", "gpu", "nodes")
_LAYER = {"tie": "ties", "shrub": "shrubs", "moby": "mobys"}


class _Textures:
    """Scene images and materials of one texture table: materials made on
    first use; images too, or all at once (preload: image k of the table
    is scene image base + k)."""

    def __init__(self, scene: Scene, images: list, prefix: str,
                 untextured: str | None = None, preload: bool = False):
        self.scene, self.images, self.prefix = scene, images, prefix
        self.untextured = untextured or f"{prefix}_untextured"
        self.mat: dict[int, int] = {}
        self.image: dict[int, int] = {}
        if preload:
            for k, img in enumerate(images):
                self.image[k] = len(scene.images)
                scene.images.append(np.ascontiguousarray(img, np.uint8))

    def material(self, t: int) -> int:
        if t not in self.mat:
            if 0 <= t < len(self.images):
                if t not in self.image:
                    self.image[t] = len(self.scene.images)
                    self.scene.images.append(np.ascontiguousarray(self.images[t], np.uint8))
                m = Material(f"{self.prefix}{t:03d}", self.image[t])
            else:
                m = Material(self.untextured, None)
            (self.mat[t],) = self.scene.add_materials([m])
        return self.mat[t]

    def per_face(self, texture) -> np.ndarray:
        tex = np.asarray(texture, np.int64)
        used, inv = np.unique(tex, return_inverse=True)
        lut = np.array([self.material(int(t)) for t in used], np.int64)
        return lut[inv.ravel()] if len(used) else np.zeros(0, np.int64)


def _terrain_layer(name: str, t: dict, tex: _Textures) -> Layer:
    """One material per tfrag texture used (MASK [assumed: PS2 alpha 0
    pixels are cut-outs; the terrain has no per-strip blend state])."""
    return Layer(name, "patch", {
        "positions": zup_to_yup(t["positions"]), "triangles": t["triangles"],
        "uv": t["uv"], "color": t["color"], "material": tex.per_face(t["texture"]),
        "group": t["patch"]})


def _instanced(lvl, kind: str, lod: int, scene: Scene, mode: str, notes: list) -> Instanced:
    geo = parts.class_geometry(lvl, kind, lod)
    tex = _Textures(scene, lvl.textures(kind), f"{kind}_tex")
    classes = []
    for g in geo:
        if g.error is not None:
            notes.append(f"{g.name}: mesh not decoded ({g.error}); its instances are "
                         "empty nodes")
        m = g.mesh
        if m is None:
            classes.append((g.name.replace(" ", "_"), None))
            continue
        tri = np.asarray(m["triangles"], np.int64)
        classes.append((g.name.replace(" ", "_"), {
            "positions": zup_to_yup(m["positions"]), "triangles": tri,
            "uv": np.asarray(m["uv"], np.float32)[tri],
            "material": tex.per_face(m["texture"])}))
    inst = getattr(lvl, parts.INSTANCES[kind])
    cls = parts.instance_classes(lvl, kind)
    mats = YUP @ np.asarray(inst.matrix, np.float64) @ YUP.T
    names = [f"{kind}_{i}_c{int(c)}" for i, c in enumerate(inst.class_id.tolist())]
    return Instanced(_LAYER[kind], classes, cls, mats, names, mode)


def _collision_layer(name: str, c: dict, scene: Scene) -> Layer:
    tags = np.asarray(c["tag"], np.int64)
    used, inv = np.unique(tags, return_inverse=True)
    mats = [Material(f"coll_{parts.tag_name(int(t)).replace(' ', '_')}", None,
                     (*parts.tag_colour(int(t)), 1.0), OPAQUE, True) for t in used]
    idx = scene.add_materials(mats)
    return Layer(name, "coll", {"positions": zup_to_yup(c["positions"]),
                                "triangles": c["triangles"],
                                "material": idx[inv.ravel()] if len(used) else inv,
                                "group": np.zeros(len(tags), np.int64)})


def _sky_layer(lvl, terrain: dict | None, scene: Scene) -> Layer | None:
    """The shells baked onto a sphere around the level (_rc2_scene.sky_transform);
    group = shell."""
    sky = lvl.sky()
    shells = [s for s in sky["shells"] if len(s["triangles"])]
    if not shells:
        return None
    lo, hi = parts.level_box(lvl, terrain)
    m = parts.sky_transform(sky, lo, hi)
    tex = _Textures(scene, sky["textures"], "sky")
    pos, tri, uv, col, mat, grp, base = [], [], [], [], [], [], 0
    for k, s in enumerate(sky["shells"]):
        t = np.asarray(s["triangles"], np.int64)
        if not len(t):
            continue
        p = np.asarray(s["positions"], np.float64) @ m[:3, :3].T + m[:3, 3]
        pos.append(p.astype(np.float32))
        tri.append(t + base)
        base += len(p)
        uv.append(np.asarray(s["uv"], np.float32)[t])
        col.append(np.asarray(s["color"], np.float32)[t])
        mat.append(tex.per_face(s["texture"]))
        grp.append(np.full(len(t), k))
    return Layer("sky", "shell", {
        "positions": zup_to_yup(np.concatenate(pos)), "triangles": np.concatenate(tri),
        "uv": np.concatenate(uv), "color": np.concatenate(col),
        "material": np.concatenate(mat), "group": np.concatenate(grp)})


def rc2_scene(lvl, *, lod: int = 0, collision: bool = False, sky: bool = False,
              instancing: str = "auto", notes: list | None = None) -> Scene:
    """The whole level. Always: terrain (and each chunk's, "chunk<i>"),
    ties, shrubs, mobys (a class that does not decode: its instances are
    empty nodes, and a line in notes). collision / sky: add those trees.
    instancing: see Instanced.mode. A level whose gameplay does not parse
    has no instances (a note says so)."""
    if instancing not in INSTANCING:
        raise ValueError(f"instancing {instancing!r}: one of {', '.join(INSTANCING)}")
    notes = [] if notes is None else notes
    scene = Scene(source=str(getattr(lvl, "path", "") or ""))
    tfrag = _Textures(scene, lvl.tfrag_textures, "tfrag", "untextured", preload=True)
    t = lvl.terrain(lod=lod)
    scene.layers.append(_terrain_layer("terrain", t, tfrag))
    chunks = list(getattr(lvl, "level_chunks", ()))
    for ch in chunks:
        if ch.has_terrain:
            scene.layers.append(_terrain_layer(f"chunk{ch.index}", ch.terrain(lod=lod), tfrag))
    for kind in parts.KINDS if hasattr(type(lvl), "tie_classes") else ():
        try:
            scene.instanced.append(_instanced(lvl, kind, lod, scene, instancing, notes))
        except FormatError as e:
            notes.append(f"{_LAYER[kind]}: not converted: {e}")
    if collision:
        scene.layers.append(_collision_layer("collision", lvl.collision(), scene))
        for ch in chunks:
            if ch.has_collision:
                scene.layers.append(_collision_layer(f"chunk{ch.index}_collision",
                                                     ch.collision(), scene))
    if sky:
        layer = _sky_layer(lvl, t, scene)
        if layer is not None:
            scene.layers.append(layer)
    return scene
