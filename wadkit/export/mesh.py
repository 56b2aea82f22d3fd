"""Per-corner triangle data → indexed vertex lists, grouped for export.

The readers give UVs and colours per triangle corner (T,3,…). glTF and OBJ
want indexed vertices, so corners are turned into vertices and identical
ones (same group, position, UV and colour, compared bit for bit) are merged.
Everything is done with NumPy sorts; nothing loops over vertices in Python.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Part:
    """The triangles of one group that use one material."""
    material: int
    indices: np.ndarray   # (n,3) uint32, local to the group's vertices


@dataclass
class Group:
    """One node's worth of geometry (a tile, a patch, a collision tile …)."""
    id: int
    start: int            # first vertex in the shared vertex arrays
    count: int            # number of vertices
    parts: list[Part]


@dataclass
class Indexed:
    positions: np.ndarray           # (V,3) float32
    uv: np.ndarray | None           # (V,2) float32
    color: np.ndarray | None        # (V,4) float32
    groups: list[Group]

    @property
    def triangle_count(self) -> int:
        return sum(len(p.indices) for g in self.groups for p in g.parts)


def _f32(a, shape_tail) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.float32)
    if a.shape[1:] != shape_tail:
        raise ValueError(f"array of shape {a.shape}, expected (n, "
                         f"{', '.join(map(str, shape_tail))})")
    return a


def index_corners(mesh: dict) -> Indexed:
    """mesh: positions (V,3), triangles (T,3), optional uv (T,3,2) and
    color (T,3,4), material (T,) and group (T,) (both default 0).
    Returns vertices ordered by group and first use; parts ordered by
    group, then material, triangles in their original order within a part."""
    pos = _f32(mesh["positions"], (3,))
    tri = np.asarray(mesh["triangles"], dtype=np.int64)
    t = len(tri)
    if tri.shape != (t, 3):
        raise ValueError(f"triangles of shape {tri.shape}, expected (T, 3)")
    if t and (tri.min() < 0 or tri.max() >= len(pos)):
        raise ValueError("triangle index outside the vertex array")
    material = np.asarray(mesh.get("material", np.zeros(t)), dtype=np.int64)
    group = np.asarray(mesh.get("group", np.zeros(t)), dtype=np.int64)
    uv = mesh.get("uv")
    color = mesh.get("color")
    for name, a in (("material", material), ("group", group)):
        if a.shape != (t,):
            raise ValueError(f"{name} of shape {a.shape}, expected ({t},)")

    order = np.lexsort((material, group))          # stable: group, material
    tri, material, group = tri[order], material[order], group[order]
    columns = [np.repeat(group.astype(np.int32), 3).view(np.float32)[:, None],
               pos[tri.reshape(-1)]]
    uv_col = color_col = None
    if uv is not None:
        uv_col = len(columns)
        columns.append(_f32(uv, (3, 2))[order].reshape(-1, 2))
    if color is not None:
        color_col = len(columns)
        columns.append(_f32(color, (3, 4))[order].reshape(-1, 4))
    widths = [c.shape[1] for c in columns]
    rows = np.ascontiguousarray(np.concatenate(columns, axis=1))
    keys = rows.view(np.dtype((np.void, rows.shape[1] * 4))).ravel()

    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")    # vertices in order of use
    rank = np.empty_like(by_first)
    rank[by_first] = np.arange(len(by_first))
    vertex_of_corner = rank[inverse.ravel()]
    vrows = rows[first[by_first]]

    def col(i):
        s = sum(widths[:i])
        return np.ascontiguousarray(vrows[:, s:s + widths[i]])

    vgroup = np.repeat(group, 3)[first[by_first]]
    return Indexed(
        positions=col(1),
        uv=col(uv_col) if uv_col is not None else None,
        color=col(color_col) if color_col is not None else None,
        groups=_groups(vgroup, group, material,
                       vertex_of_corner.reshape(-1, 3)))


def _runs(*keys: np.ndarray) -> np.ndarray:
    """Start indices of runs of equal key tuples in sorted arrays, plus the end."""
    n = len(keys[0])
    change = np.zeros(n, dtype=bool)
    if n:
        change[0] = True
        for k in keys:
            change[1:] |= k[1:] != k[:-1]
    return np.append(np.flatnonzero(change), n)


def _groups(vgroup, group, material, tri) -> list[Group]:
    vstarts = _runs(vgroup)
    tstarts = _runs(group, material)
    out: list[Group] = []
    vi = 0
    for a, b in zip(tstarts[:-1], tstarts[1:]):
        g = int(group[a])
        if not out or out[-1].id != g:
            start, end = int(vstarts[vi]), int(vstarts[vi + 1])
            vi += 1
            out.append(Group(g, start, end - start, []))
        cur = out[-1]
        local = (tri[a:b] - cur.start).astype(np.uint32)
        cur.parts.append(Part(int(material[a]), local))
    return out


def bounds(positions: np.ndarray) -> tuple[list[float], list[float]]:
    """Per-axis min and max as Python floats (for glTF accessors)."""
    if len(positions) == 0:
        return [0.0] * positions.shape[1], [0.0] * positions.shape[1]
    return (positions.min(axis=0).tolist(), positions.max(axis=0).tolist())
