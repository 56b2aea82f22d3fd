"""File space <-> Blender space, in NumPy (no bpy here, so it is testable
anywhere). File space is y-up and right-handed; Blender is z-up. The mapping
is the one of Blender's glTF importer: (x, y, z) -> (x, -z, y), a rotation,
so the winding of triangles is unchanged. Export applies the inverse.

The add-on's only copies of the tile rotation unit and the V flip are here."""
from __future__ import annotations

import numpy as np

ROTATION_UNITS = 4096           # a full turn of a tile (docs/formats/eng.md)
QUARTER = ROTATION_UNITS // 4   # the turns the floor test knows exactly


def to_blender(p: np.ndarray) -> np.ndarray:
    """(N,3) file space -> (N,3) float32 Blender space."""
    p = np.asarray(p, dtype=np.float32).reshape(-1, 3)
    return np.ascontiguousarray(np.stack([p[:, 0], -p[:, 2], p[:, 1]], axis=1))


def to_file(p: np.ndarray) -> np.ndarray:
    """(N,3) Blender space -> (N,3) float32 file space."""
    p = np.asarray(p, dtype=np.float32).reshape(-1, 3)
    return np.ascontiguousarray(np.stack([p[:, 0], p[:, 2], -p[:, 1]], axis=1))


def rotation_angle(rot) -> np.ndarray | float:
    """The engine's tile rotation 0..4095 (scalar or array) in radians. A
    file-space rotation about +y by a is a rotation about Blender's +z by a
    (see to_blender)."""
    a = np.asarray(rot, np.float64) / ROTATION_UNITS * 2.0 * np.pi
    return float(a) if a.ndim == 0 else a


def rotation_units(angle) -> np.ndarray:
    """Radians about Blender's +z -> the nearest tile rotation 0..4095
    (int64) and how far the angle is from it (radians)."""
    a = np.asarray(angle, np.float64)
    units = np.rint(a / (2.0 * np.pi) * ROTATION_UNITS)
    off = a - units * (2.0 * np.pi / ROTATION_UNITS)
    return units.astype(np.int64) % ROTATION_UNITS, off


def z_rotation(angle) -> np.ndarray:
    """(N,3,3) float64 rotations about Blender's +z by the angles (N,)."""
    a = np.asarray(angle, np.float64).reshape(-1)
    c, s = np.cos(a), np.sin(a)
    m = np.zeros((len(a), 3, 3))
    m[:, 0, 0], m[:, 0, 1], m[:, 1, 0], m[:, 1, 1], m[:, 2, 2] = c, -s, s, c, 1.0
    return m


def flip_v(uv: np.ndarray) -> np.ndarray:
    """Image rows run top-down in the file, bottom-up in Blender; the same
    flip both ways."""
    uv = np.array(uv, dtype=np.float32, copy=True)
    uv[..., 1] = 1.0 - uv[..., 1]
    return uv


def snap(p: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """Remove the float noise the object transforms add (a corner at x = 0
    coming back as -1e-8 would fall outside the grid): values within eps of
    the engine's 1/4096 fixed-point grid are put on it; others stay."""
    p = np.asarray(p, dtype=np.float32)
    q = np.round(p.astype(np.float64) * 4096.0) / 4096.0
    return np.where(np.abs(p - q) < eps, q, p).astype(np.float32)
