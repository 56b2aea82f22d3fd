"""ENG collision and the engine floor test: thin glue over wadkit._core.

The Level class gets `floor()` and `needles()` by mixing in FloorMixin and
providing `_floor_inputs()`; everything else is plain functions over arrays.
Positions are GAME space (= file space: y up, z as the game shows it), in
units (1.0 = one grid cell). See docs/formats/eng-collision.md.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from . import _core

# strat flag bits (strat+0xe8) the floor test reads; pass them as `flags`
FLAG_SKIP_MATERIAL_12 = 0x08000000  # skip material 0x12 instead of 0x11
FLAG_DOWN_PLANES = 0x00200000       # do not skip planes whose normal points down
FLAG_NO_CEILING = 0x00040200        # never fall back to the surface above
PROBE_OFFSET = 0x400                # the engine probes 0.25 above the feet
MATERIAL_WATER = 0x1E               # the winner with this material = no floor


class Needle(NamedTuple):
    """One exposed polygon tip: the engine puts a strat standing at `point`
    onto polygon `polygon` of tile `tile` at `height`, although the point is
    ≥ 0.08 outside the polygon and the next floor is `below` lower."""
    tile: int
    polygon: int      # counted over collision groups A+B+C
    point: tuple      # (x, y, z) game space
    height: float
    corner: int       # the polygon corner whose tolerance tip it is
    fraction: float   # 0.3, 0.6 or 0.9 of the way from corner to tip
    below: float      # drop to the next floor (inf when there is none)


def floor_world(width: int, height: int, a_xyz, b, model,
                collision: Sequence[bytes]) -> _core.EngFloorWorld:
    """The tile grid as the floor test sees it.

    a_xyz (N,3) MAP floats A (export space; only their cells are used),
    b (N,6) MAP ints B (rx, ry, rz, x, y, z; 20.12 game space), model (N,)
    model index per tile, collision: each TRAK model's raw collision records.
    Raises wadkit.FormatError for a model index out of range, a cell outside
    W×H or collision bytes that are not whole 32-byte records."""
    return _core.EngFloorWorld(width, height, a_xyz, b, model, list(collision))


def decode_collision(raw, *, groups=None, space: str = "file", offset: int = 0) -> dict:
    """Polygons of a model's collision records (tile-local). space 'file'
    (= game, as stored) or 'export' (the render vertices' space)."""
    return _core.eng_collision_decode(raw, space=space, groups=groups, offset=offset)


def encode_collision(corners, material, n_corners=None, *, space: str = "file",
                     drop_degenerate: bool = False):
    """Records for tile-local polygons -> (bytes, dropped indices).
    wadkit.LimitError when a polygon lies beyond ~8 units of the origin."""
    return _core.eng_collision_encode(corners, material, n_corners, space=space,
                                      drop_degenerate=drop_degenerate)


def floor_inputs_from(tiles, models) -> tuple:
    """The EngFloorWorld arguments from a parsed level's tile table and TRAK
    models, duck-typed: tiles.width, tiles.height, tiles.a_position (N,3)
    MAP floats A, tiles.b (N,6) MAP ints B, tiles.model (N,) the MAP
    model-index list; models[i].collision_raw (groups A+B+C, raw bytes)."""
    return (int(tiles.width), int(tiles.height), tiles.a_position, tiles.b,
            tiles.model, [bytes(m.collision_raw) for m in models])


class FloorMixin:
    """Level.floor() / Level.needles(). The class provides
    `_floor_inputs() -> (width, height, a_xyz, b, model, collision_list)`
    (e.g. `floor_inputs_from(self.tiles, self.models)`) and calls
    `_floor_changed()` whenever tiles or collision change."""

    _floor_world_obj = None

    def _floor_inputs(self):  # pragma: no cover - provided by the Level
        raise NotImplementedError

    def _floor_changed(self) -> None:
        self._floor_world_obj = None

    def floor_world(self) -> _core.EngFloorWorld:
        if self._floor_world_obj is None:
            self._floor_world_obj = floor_world(*self._floor_inputs())
        return self._floor_world_obj

    def floor(self, x: float, y: float, z: float, *, candidates: bool = False,
              flags: int = 0, probe_offset: int = PROBE_OFFSET):
        """The engine's floor under a strat standing at (x, y, z) (game
        space): dict(height, height_fixed, tile, polygon, material, source,
        dist) or None. candidates=True: always a dict, plus every polygon of
        the cell's tiles with its edge values and tolerance."""
        return self.floor_world().floor(x, y, z, candidates=candidates,
                                        flags=flags, probe_offset=probe_offset)

    def needles(self) -> list[Needle]:
        """Polygon tips that catch a strat above a lower floor (the spec's
        exposed-needle scan), one per polygon instance."""
        return [Needle(t, p, tuple(pt), h, c, f, b)
                for t, p, pt, h, c, f, b in self.floor_world().needles()]
