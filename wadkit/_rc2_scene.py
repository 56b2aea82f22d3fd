"""An RC2 level as a viewer sees it: every class mesh decoded once with its
textures resolved to the level's texture tables, which class each instance
uses, the collision tag names, where the sky goes. Shared by the glTF/OBJ
export (wadkit/export/rc2.py) and the Blender import
(blender_addon/import_rc2.py); docs/formats/rc2.md ("A whole level in a
viewer") says why each choice is made."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._core import FormatError

KINDS = ("tie", "shrub", "moby")
INSTANCES = {"tie": "ties", "shrub": "shrubs", "moby": "mobys"}
NO_SLOT = 0xFF

# Collision tag names by the tag's low 4 bits [assumed: noclip's comments,
# docs/formats/rc2-collision-sky.md "Octant"; the high bits are taken for footstep sounds]
TAG_NAMES = {0: "water", 1: "damage", 2: "magneboots", 3: "mud", 4: "slide",
             5: "jump", 7: "ice", 8: "out of bounds (wall-jump)", 9: "no mantle",
             10: "no wall-jump", 11: "mud", 12: "out of bounds", 13: "ocean",
             14: "shallow water", 15: "ground"}


def tag_name(tag: int) -> str:
    """"0x2f ground": the tag in hex and the name of its low 4 bits."""
    return f"0x{tag:02x} {TAG_NAMES.get(tag & 0xF, 'unknown')}"


# tag low 4 bits -> display colour (linear RGB 0..1) [assumed: any distinct
# colours do; water kinds blue, damage red, ice light blue, out of bounds
# black, ground a neutral brown]
_TAG_COLOURS = {0: (0.1, 0.3, 1.0), 13: (0.05, 0.15, 0.8), 14: (0.3, 0.6, 1.0),
                1: (1.0, 0.1, 0.05), 7: (0.7, 0.9, 1.0), 8: (0.1, 0.1, 0.1),
                12: (0.05, 0.05, 0.05), 15: (0.55, 0.5, 0.42), 4: (0.9, 0.7, 0.2)}


def tag_colour(tag: int) -> tuple[float, float, float]:
    """The display colour of a collision tag: by its low 4 bits where
    named above, else a stable colour from the whole tag."""
    rgb = _TAG_COLOURS.get(tag & 0xF)
    if rgb is None:
        h = (tag * 0x9E3779B1) & 0xFFFFFF
        rgb = tuple(0.3 + 0.5 * ((h >> s) & 255) / 255 for s in (16, 8, 0))
    return rgb


@dataclass
class ClassGeometry:
    """One class of a core table as a viewer draws it. mesh: positions
    (V,3) f32 (game space, Z up, class-local), uv (V,2) f32, triangles
    (T,3) u32, texture (T,) i32 = index into level.textures(kind) (-1 =
    untextured), normals (V,3) or None; None when the class has nothing to
    draw (no data in the level, an empty moby) or did not decode (error:
    the FormatError's text)."""
    kind: str
    index: int
    id: int
    mesh: dict | None
    error: str | None = None

    @property
    def name(self) -> str:
        return f"{self.kind} {self.id}"


def resolve_textures(cls, texture: np.ndarray, n_level: int) -> np.ndarray:
    """Per-face slot numbers (0..15, -1 none) of a class mesh -> indices
    into the level's texture table of the class's kind, through the
    class's slots: slot s names table entry cls.textures[s]; a slot at or
    past the first 0xff, or an entry beyond the table, is untextured (-1)."""
    lut = np.full(17, -1, np.int32)
    for s, t in enumerate(cls.textures[:16]):
        lut[s] = t if 0 <= t < n_level else -1
    tex = np.asarray(texture, np.int64)
    return lut[np.where((tex >= 0) & (tex < 16), tex, 16)]


def _drawable(m: dict) -> dict | None:
    if m is None or not len(m["triangles"]) or m.get("has_mesh", True) is False:
        return None
    return m


def class_geometry(lvl, kind: str, lod: int = 0) -> list[ClassGeometry]:
    """Every class of the kind's core table, decoded (LOD lod for ties,
    min(lod, 1) for mobys, shrubs have one). A class that breaks its
    format comes back with mesh None and the error's text (the caller
    says so; its instances are still placed)."""
    table = getattr(lvl, f"{kind}_classes")
    n_level = _texture_count(lvl, kind)
    use_lod = 0 if kind == "shrub" else min(lod, 1) if kind == "moby" else lod
    out = []
    for cls in table:
        try:
            m = _drawable(cls.mesh(use_lod))
        except FormatError as e:
            out.append(ClassGeometry(kind, cls.index, cls.id, None, str(e)))
            continue
        if m is not None:
            m = {"positions": np.asarray(m["positions"], np.float32),
                 "uv": np.asarray(m["uv"], np.float32),
                 "triangles": np.asarray(m["triangles"], np.uint32),
                 "texture": resolve_textures(cls, m["texture"], n_level),
                 "normals": m.get("normals")}
        out.append(ClassGeometry(kind, cls.index, cls.id, m))
    return out


def _texture_count(lvl, kind: str) -> int:
    count = lvl.core_header[f"{kind}_textures"][0]
    return max(0, int(count))


def instance_classes(lvl, kind: str) -> np.ndarray:
    """For each instance of the kind, the index of its class in the core
    table (the first entry with its number, as ClassTable.by_id); the
    gameplay reader has checked that every instance's class is there."""
    ids = getattr(lvl, f"{kind}_classes").ids
    inst = np.asarray(getattr(lvl, INSTANCES[kind]).class_id, np.int64)
    if not len(inst):
        return np.zeros(0, np.int64)
    order = np.argsort(ids, kind="stable")
    pos = np.searchsorted(ids[order], inst)
    pos = np.minimum(pos, len(ids) - 1)
    found = order[pos]
    if not np.array_equal(ids[found], inst):
        bad = int(np.flatnonzero(ids[found] != inst)[0])
        raise FormatError(f"{kind} instance {bad}: class {int(inst[bad])} is not "
                          "in the core class table")
    return found


def level_box(lvl, terrain: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) of the terrain's vertices and every instance position: what
    the sky has to hold. A level with neither gives a 1 m box."""
    pts = []
    if terrain is not None and len(terrain["positions"]):
        p = np.asarray(terrain["positions"], np.float32)
        pts += [p.min(axis=0), p.max(axis=0)]
    for kind in KINDS:
        m = np.asarray(getattr(lvl, INSTANCES[kind]).matrix, np.float32)
        if len(m):
            t = m[:, :3, 3]
            pts += [t.min(axis=0), t.max(axis=0)]
    if not pts:
        return np.zeros(3, np.float32), np.ones(3, np.float32)
    a = np.stack(pts)
    return a.min(axis=0), a.max(axis=0)


def sky_transform(sky: dict, lo, hi, margin: float = 1.5) -> np.ndarray:
    """The 4x4 matrix that puts the sky shells (stored around the camera,
    a few units across) on a sphere about the level's box: centred on the
    box centre, scaled so the shells' farthest vertex lies margin x the
    box's half diagonal away [assumed: the game draws the sky around the
    camera at infinity; a still picture needs it around the whole level]."""
    c = (np.asarray(lo, np.float64) + np.asarray(hi, np.float64)) / 2
    half = max(float(np.linalg.norm(np.asarray(hi, np.float64) - c)), 1.0)
    r = max((float(np.linalg.norm(s["positions"], axis=1).max())
             for s in sky["shells"] if len(s["positions"])), default=1.0)
    k = margin * half / max(r, 1e-6)
    m = np.eye(4)
    m[:3, :3] *= k
    m[:3, 3] = c
    return m


def settings_colours(settings: dict | None) -> dict:
    """{"background": (r, g, b) 0..1 or None, "fog": ...}: the level
    settings' s32 colours as display values (byte / 255); a colour whose r
    is negative is none (Wrench's reading of -1)."""
    out = {"background": None, "fog": None}
    if settings is None:
        return out
    for key, field in (("background", "background_colour"), ("fog", "fog_colour")):
        rgb = [int(v) for v in settings[field]]
        if rgb[0] >= 0:
            out[key] = tuple(min(max(v, 0), 255) / 255.0 for v in rgb)
    return out
