"""The shapes of what wadkit's readers return: plain dicts at run time (so
`mesh["positions"]` works as it always did), typed for a type checker.
Array shapes and meanings: the docstrings of the methods that return them.
"""
from __future__ import annotations

from typing import Any, Literal, TypedDict

import numpy as np
from numpy.typing import NDArray

# An ENG coordinate space: "file" (= game space: y up, z as the game shows
# it) or "export" (as the TRAK vertices are stored: z negated).
# docs/formats/eng.md "Coordinate spaces".
Space = Literal["file", "export"]


class Mesh(TypedDict):
    """What every level mesh has (ENG world mesh, RC2 terrain)."""
    positions: NDArray[np.float32]   # (V, 3)
    triangles: NDArray[np.uint32]    # (T, 3)
    uv: NDArray[np.float32]          # (T, 3, 2)
    color: NDArray[np.float32]       # (T, 3, 4)
    texture: NDArray[np.int32]       # (T,)


class WorldMesh(Mesh):
    """eng.Level.world_mesh()."""
    page: NDArray[np.int32]          # (T,)
    face_flags: NDArray[np.uint16]   # (T,)
    tile: NDArray[np.int32]          # (T,)


class TextureTable(TypedDict):
    """eng.Level.textures: one row per texture-table entry."""
    flags: NDArray[np.uint16]
    page: NDArray[np.int8]
    palette: NDArray[np.int8]
    uv: NDArray[np.uint8]            # (n, 4) u0 v0 u1 v1
    rect: NDArray[np.float32]        # (n, 4) U0 V0 U1 V1 in 0..1
    flat: NDArray[np.bool_]
    color: NDArray[np.uint8]         # (n, 3)
    blend: NDArray[np.uint8]
    mode2: NDArray[np.uint8]


class Animation(TypedDict):
    """One entry of eng.Level.animations."""
    n_frames: int
    n_bones: int
    n_delta: int
    flag: int
    a: NDArray[np.uint32]
    frame_words: NDArray[np.int16] | None
    deltas: list[NDArray[np.int16]]
    matrices: NDArray[np.float32]    # (n_frames, n_bones, 4, 4)
    offset: int
    raw: bytes


class ImportReport(TypedDict):
    """eng.Level.with_geometry(...).import_report."""
    tiles: int
    dropped_degenerate: int
    dropped_collision: int
    uv_inexact: int
    uv_nearest_entry: int
    collision_records: int
    collision_split: int
    warnings: list[str]


class FloorHit(TypedDict, total=False):
    """eng.Level.floor(): the floor under a point (candidates only when
    asked for)."""
    height: float | None
    height_fixed: int | None
    tile: int | None
    polygon: int | None
    material: int | None
    source: str | None
    dist: int
    candidates: list[dict[str, Any]]


class Terrain(Mesh):
    """rc2.Level.terrain()."""
    patch: NDArray[np.int32]         # (T,)


class Patch(TypedDict):
    """One entry of rc2.Level.patches."""
    vert_count: int
    tri_count: int
    bsphere: tuple[float, float, float, float]
    flags: int
    ad_gifs: int
    mip_dist: int
    occl_index: int
    lod_tris: tuple[int, int, int]
    offset: int
