"""What the exporters write: a format-neutral scene.

A Scene holds layers (world, collision, objects), each a triangle mesh in
file space (right-handed, y up) with per-corner UVs and colours, a material
index and a group index per triangle. Groups become nodes (one per tile or
RC2 patch). Materials point at images (RGBA pages) or carry a flat colour.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

OPAQUE, MASK, BLEND = "OPAQUE", "MASK", "BLEND"


@dataclass
class Material:
    name: str
    image: int | None = None                    # index into Scene.images
    color: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    alpha: str = MASK                           # OPAQUE | MASK | BLEND
    double_sided: bool = False


@dataclass
class Layer:
    name: str          # node name of the layer's root ("world", "collision" …)
    prefix: str        # node name of a group: f"{prefix}_{group}"
    mesh: dict         # positions, triangles, [uv], [color], material, group


@dataclass
class Scene:
    layers: list[Layer] = field(default_factory=list)
    materials: list[Material] = field(default_factory=list)
    images: list[np.ndarray] = field(default_factory=list)  # (H,W,4) uint8
    source: str = ""

    def add_materials(self, mats: list[Material]) -> np.ndarray:
        """Append materials, keeping names unique: one equal to a material
        already here is that one; a new one whose name is taken gets
        ".2", ".3", … Returns the index in self.materials of each of mats."""
        index = {m.name: i for i, m in enumerate(self.materials)}
        out = []
        for m in mats:
            i = index.get(m.name)
            if i is not None and self.materials[i] == m:
                out.append(i)
                continue
            if i is not None:
                n = 2
                while f"{m.name}.{n}" in index:
                    n += 1
                m = Material(f"{m.name}.{n}", m.image, m.color, m.alpha, m.double_sided)
            index[m.name] = len(self.materials)
            out.append(len(self.materials))
            self.materials.append(m)
        return np.array(out, dtype=np.int64)

    def layer(self, name: str) -> Layer | None:
        return next((x for x in self.layers if x.name == name), None)

    @property
    def triangle_count(self) -> int:
        return sum(len(x.mesh["triangles"]) for x in self.layers)


# Surface colours of collision materials, so they tell apart in a viewer
# [assumed: any distinct colours do; 0x1e (water/death plane) is blue].
def collision_material(material: int) -> Material:
    if material == 0x1E:
        r, g, b = 0.2, 0.4, 1.0
    else:
        h = (material * 0.61803398875) % 1.0
        r, g, b = (0.35 + 0.55 * abs(((h * 6 + k) % 6) - 3) / 3
                   for k in (0, 4, 2))
    return Material(f"coll_{material:02x}", None, (r, g, b, 1.0), OPAQUE, True)


def zup_to_yup(positions: np.ndarray) -> np.ndarray:
    """Rotate Z-up to Y-up about x (-90°): (x, y, z) → (x, z, -y). Keeps
    handedness (a rotation, not a mirror)."""
    p = np.asarray(positions, dtype=np.float32)
    return np.ascontiguousarray(np.stack([p[:, 0], p[:, 2], -p[:, 1]], axis=1))
