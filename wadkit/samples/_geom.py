"""Mesh pieces for the sample levels: textured quads and triangles with the
corner UVs the ENG corner rules can show (half a texture rectangle each),
collected into one triangle soup."""
from __future__ import annotations

import numpy as np

# Corner UVs (file corner order) of the two halves of a quad p00 p10 p01
# p11 drawn as the triangles (p00, p11, p10) and (p11, p00, p01), in (U, V)
# with U0/V0 = 0 and U1/V1 = 1 of the rectangle: p00 -> (U0, V0), p10 ->
# (U1, V0), p01 -> (U0, V1), p11 -> (U1, V1). Stored (export) corner order
# is (0, 2, 1); there they are the engine's second and first quad halves.
QUAD_UV = np.array([[[0, 0], [1, 1], [1, 0]],
                    [[1, 1], [0, 0], [0, 1]]], np.float32)
# a lone triangle: the engine's triangle rule (U1,V1)(U0,V1)(U1,V0) in stored order
TRI_UV = np.array([[1, 1], [1, 0], [0, 1]], np.float32)


class Soup:
    """Triangles with their own corners: positions (3 per triangle), UV in
    0..1 page units, colour, texture-table entry."""

    def __init__(self):
        self.pos, self.uv, self.col, self.tex = [], [], [], []

    def add(self, pos, uv, col, tex):
        """pos (T,3,3), uv (T,3,2), col (T,3,4) or (4,), tex (T,) or int."""
        pos = np.asarray(pos, np.float32).reshape(-1, 3, 3)
        n = len(pos)
        self.pos.append(pos)
        self.uv.append(np.broadcast_to(np.asarray(uv, np.float32), (n, 3, 2)))
        self.col.append(np.broadcast_to(np.asarray(col, np.float32).reshape(-1, 4)
                                        if np.ndim(col) == 1 else
                                        np.asarray(col, np.float32), (n, 3, 4)))
        self.tex.append(np.broadcast_to(np.asarray(tex, np.int32), (n,)))

    def quad(self, p00, p10, p01, p11, rect, col, tex, outward):
        """A quad facing `outward` (its corner roles are swapped when the
        given order faces the other way). rect = (U0, V0, U1, V1)."""
        p00, p10, p01, p11 = (np.asarray(p, np.float64) for p in (p00, p10, p01, p11))
        if np.dot(np.cross(p11 - p00, p10 - p00), outward) < 0:
            p10, p01 = p01, p10
        pos = [[p00, p11, p10], [p11, p00, p01]]
        self.add(pos, rect_uv(QUAD_UV, rect), col, tex)

    def tri(self, a, b, c, rect, col, tex, outward):
        a, b, c = (np.asarray(p, np.float64) for p in (a, b, c))
        if np.dot(np.cross(b - a, c - a), outward) < 0:
            b, c = c, b
        self.add([[a, b, c]], rect_uv(TRI_UV, rect)[None], col, tex)

    def arrays(self):
        """positions (3T,3), triangles (T,3), uv (T,3,2), color (T,3,4),
        texture (T,)."""
        pos = np.concatenate(self.pos)
        n = len(pos)
        return (pos.reshape(-1, 3), np.arange(3 * n, dtype=np.uint32).reshape(n, 3),
                np.concatenate(self.uv), np.concatenate(self.col),
                np.concatenate(self.tex))


def rect_uv(uv01, rect) -> np.ndarray:
    """Map 0..1 corner UVs onto rect = (U0, V0, U1, V1)."""
    u0, v0, u1, v1 = rect
    out = np.array(uv01, np.float32)
    out[..., 0] = u0 + out[..., 0] * (u1 - u0)
    out[..., 1] = v0 + out[..., 1] * (v1 - v0)
    return out


def box(soup: Soup, lo, hi, rect, col_of_normal, tex, bottom=False):
    """An axis-aligned box, faces outward; col_of_normal(n) -> RGBA."""
    lo, hi = np.asarray(lo, np.float64), np.asarray(hi, np.float64)
    for axis in range(3):
        for side in (0, 1):
            n = np.zeros(3)
            n[axis] = 1 if side else -1
            if axis == 1 and side == 0 and not bottom:
                continue
            a, b = [k for k in range(3) if k != axis]
            corners = []
            for cb in (0, 1):
                for ca in (0, 1):
                    p = lo.copy()
                    p[axis] = hi[axis] if side else lo[axis]
                    p[a] = hi[a] if ca else lo[a]
                    p[b] = hi[b] if cb else lo[b]
                    corners.append(p)
            soup.quad(*corners, rect, col_of_normal(n), tex, n)
