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
class Instanced:
    """Instances of classes (RC2 ties, shrubs, mobys): one mesh per class,
    placed by a matrix per instance. classes: (name, mesh dict as a
    Layer's without group, or None for a class without a mesh: its
    instances are empty nodes); instance_class (n,) index into classes;
    matrices (n, 4, 4) file space (y up), for column vectors; names (n,)
    node names. mode: "gpu" (EXT_mesh_gpu_instancing: one node per class),
    "nodes" (one node per instance sharing the class mesh) or "auto" (gpu
    when the layer has more than GPU_INSTANCES instances)."""
    name: str
    classes: list
    instance_class: np.ndarray
    matrices: np.ndarray
    names: list
    mode: str = "auto"

    def flattened(self) -> Layer:
        """Every instance's mesh transformed into one Layer (group =
        instance), for formats without instancing (OBJ)."""
        pos, tris, parts, base = [], [], {}, 0
        for i, (ci, m) in enumerate(zip(self.instance_class.tolist(), self.matrices)):
            mesh = self.classes[ci][1]
            if mesh is None or not len(mesh["triangles"]):
                continue
            p = np.asarray(mesh["positions"], np.float64)
            pos.append((p @ m[:3, :3].T + m[:3, 3]).astype(np.float32))
            tris.append(np.asarray(mesh["triangles"], np.int64) + base)
            base += len(p)
            for k in ("uv", "color", "material"):
                if k in mesh:
                    parts.setdefault(k, []).append(np.asarray(mesh[k]))
            parts.setdefault("group", []).append(np.full(len(mesh["triangles"]), i))
        if not pos:
            return Layer(self.name, self.name, {"positions": np.zeros((0, 3), np.float32),
                                                "triangles": np.zeros((0, 3), np.int64)})
        mesh = {"positions": np.concatenate(pos), "triangles": np.concatenate(tris)}
        mesh.update({k: np.concatenate(v) for k, v in parts.items()
                     if len(v) == len(pos)})
        return Layer(self.name, self.name, mesh)


GPU_INSTANCES = 256     # "auto": more instances than this in a layer -> gpu


@dataclass
class Scene:
    layers: list[Layer] = field(default_factory=list)
    instanced: list[Instanced] = field(default_factory=list)
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
        """Triangles drawn: the layers' and every instance's."""
        n = sum(len(x.mesh["triangles"]) for x in self.layers)
        for inst in self.instanced:
            per = np.array([0 if m is None else len(m["triangles"]) for _, m in inst.classes])
            n += int(per[inst.instance_class].sum()) if len(per) else 0
        return n


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


def trs(matrices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(translation (n,3), rotation (n,4) unit quaternions x, y, z, w,
    scale (n,3), ok (n,) bool) of 4x4 matrices for column vectors; ok is
    False where a matrix is no translation x rotation x scale (shear, a
    zero scale, a projective bottom row): glTF cannot hold those as TRS."""
    m = np.asarray(matrices, np.float64).reshape(-1, 4, 4)
    a, t = m[:, :3, :3], m[:, :3, 3]
    s = np.linalg.norm(a, axis=1)                         # column lengths
    s[np.linalg.det(a) < 0, 0] *= -1                      # a mirror: negative x
    safe = np.where(np.abs(s) < 1e-12, 1.0, s)
    r = a / safe[:, None, :]
    err = np.abs(np.einsum("nji,njk->nik", r, r) - np.eye(3)).max(axis=(1, 2)) \
        if len(m) else np.zeros(0)
    ok = (err < 1e-4) & (np.abs(s) >= 1e-12).all(axis=1) & \
        (np.abs(m[:, 3] - [0, 0, 0, 1]).max(axis=1) < 1e-6)
    return t.astype(np.float32), _quaternions(r).astype(np.float32), \
        s.astype(np.float32), ok


def _quaternions(r: np.ndarray) -> np.ndarray:
    """Rotation matrices (n,3,3) -> unit quaternions (n,4) x, y, z, w (the
    largest of the four components computed first: stable everywhere)."""
    n = len(r)
    q = np.zeros((n, 4))
    tr = r[:, 0, 0] + r[:, 1, 1] + r[:, 2, 2]
    cand = np.stack([tr, r[:, 0, 0], r[:, 1, 1], r[:, 2, 2]], axis=1)
    k = np.argmax(cand, axis=1)
    for case in range(4):
        i = np.flatnonzero(k == case)
        if not len(i):
            continue
        m = r[i]
        if case == 0:
            w = np.sqrt(np.maximum(1 + tr[i], 0)) / 2
            q[i] = np.stack([(m[:, 2, 1] - m[:, 1, 2]) / (4 * w),
                             (m[:, 0, 2] - m[:, 2, 0]) / (4 * w),
                             (m[:, 1, 0] - m[:, 0, 1]) / (4 * w), w], axis=1)
            continue
        a = case - 1
        b, c = (a + 1) % 3, (a + 2) % 3
        v = np.sqrt(np.maximum(1 + m[:, a, a] - m[:, b, b] - m[:, c, c], 0)) / 2
        out = np.zeros((len(i), 4))
        out[:, a] = v
        out[:, b] = (m[:, b, a] + m[:, a, b]) / (4 * v)
        out[:, c] = (m[:, c, a] + m[:, a, c]) / (4 * v)
        out[:, 3] = (m[:, c, b] - m[:, b, c]) / (4 * v)
        q[i] = out
    q /= np.linalg.norm(q, axis=1, keepdims=True).clip(1e-12)
    return q
