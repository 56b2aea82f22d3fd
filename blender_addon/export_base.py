"""What the base level holds, in the form the import put it into Blender,
so the export can tell what the user changed: each model's render mesh
(tile space, Blender axes), each tile's colours and placement, each
model's collision polygons. Made on demand and cached per model."""
from __future__ import annotations

import numpy as np

import wadkit

from . import convert
from .mesh_build import drop_degenerate, srgb_to_linear


class RenderRef:
    """A model's mesh as the import built it."""

    def __init__(self, positions, corner_vert, uv, texture, flags):
        self.positions = positions        # (V,3) f32 Blender space
        self.corner_vert = corner_vert    # (3T,) int32, degenerate triangles dropped
        self.uv = uv                      # (3T,2) f32, v flipped
        self.texture = texture            # (T,) int32
        self.flags = flags                # (T,) int32


class CollisionRef:
    """A model's collision polygons as the import shows them (those with
    corners), and how many records it left out."""

    def __init__(self, corners, sizes, material, left_out):
        self.corners = corners            # (C,3) f32 Blender space, polygon by polygon
        self.sizes = sizes                # (P,) 3 or 4
        self.material = material          # (P,) int32
        self.left_out = left_out          # records without corners (not in the scene)


def _tile_arrays(tiles):
    """What Base holds of lvl.tiles: each tile's model, rotation, position
    (file and Blender space), colour bytes with each tile's start and set
    count, and the first tile of each model."""
    tile_model = np.asarray(tiles.model, np.int64)
    position = np.asarray(tiles.position, np.float32).reshape(-1, 3)
    out = [tile_model, np.asarray(tiles.rotation, np.int64), position,
           convert.to_blender(position),                          # Blender space
           np.asarray(tiles.colors, np.uint8).reshape(-1, 4),
           np.asarray(tiles.color_start, np.int64), np.asarray(tiles.color_sets, np.int64)]
    for a in out:
        a.setflags(write=False)
    tm = tile_model.tolist()
    return (*out, dict(zip(reversed(tm), range(len(tm) - 1, -1, -1))))


def base_cache(lvl, models, wm) -> dict:
    """What an import leaves with its session for Base (its own parse of
    the base file: models, world mesh, tile arrays)."""
    return {"models": models, "wm": wm, "tiles": _tile_arrays(lvl.tiles)}


class Base:
    def __init__(self, lvl, cache: dict | None = None):
        """cache: where the parsed models and world mesh of this base file
        are kept between exports (the import session's; the import puts
        its own there, edit_track.Imported.extra["eng_base"]); the session
        is only handed out while the base file on disk is the one it was
        made from, so they are still the file's."""
        self.lvl = lvl
        self._cache = {} if cache is None else cache
        self._render: dict[int, RenderRef] = {}
        self._coll: dict[int, CollisionRef] = {}
        t = self.kept("tiles", lambda: _tile_arrays(lvl.tiles))
        (self.tile_model, self.rotation, self.position, self.location, self.color_bytes,
         self.color_start, self.color_sets, self._tile_of_model) = t
        self.n_tiles = len(self.tile_model)

    @property
    def models(self):
        """lvl.models (parsed when first asked: an unchanged scene needs none)."""
        m = self._cache.get("models")
        if m is None:
            m = self._cache["models"] = self.lvl.models
        return m

    @property
    def wm(self):
        """lvl.world_mesh(space="file"), its arrays read-only (shared with
        later exports)."""
        wm = self._cache.get("wm")
        if wm is None:
            wm = self._cache["wm"] = self.lvl.world_mesh(space="file")
        for a in wm.values():
            a.setflags(write=False)
        return wm

    def kept(self, key: str, make):
        """make()'s result, made once per base file and kept with the
        others (read-only arrays, or tuples of them: shared with later
        exports)."""
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = make()
            for a in v if isinstance(v, tuple) else (v,):
                if isinstance(a, np.ndarray):
                    a.setflags(write=False)
        return v

    @property
    def face_start(self) -> np.ndarray:
        """(N+1,) each tile's run of faces in the world mesh."""
        return self.kept("face_start", lambda: np.searchsorted(
            np.asarray(self.wm["tile"], np.int64), np.arange(self.n_tiles + 1)))

    def tile_bytes(self, t: int) -> bytes:
        """Tile t's colour bytes (all sets), for comparing tiles."""
        nv = int(self.lvl.model_counts["vertices"][int(self.tile_model[t])])
        s = int(self.color_start[t])
        return self.color_bytes[s:s + max(1, int(self.color_sets[t])) * nv].tobytes()

    def has_collision(self, m: int) -> bool:
        """Model m holds collision records (shown in the scene or not)."""
        return bool(self.lvl.model_counts["collision"][m])

    def has_model(self, m) -> bool:
        return isinstance(m, int) and m in self._tile_of_model

    def render(self, m: int) -> RenderRef:
        ref = self._render.get(m)
        if ref is None:
            model = self.models[m]
            tri = np.asarray(model.triangles, np.int64).reshape(-1, 3)
            keep = drop_degenerate(tri)
            wm, t = self.wm, self._tile_of_model[m]
            face = self.face_start[t] + keep
            ref = RenderRef(convert.to_blender(model.positions),
                            tri[keep].reshape(-1).astype(np.int32),
                            convert.flip_v(np.asarray(wm["uv"], np.float32)[face]).reshape(-1, 2),
                            np.asarray(model.face_texture, np.int32)[keep],
                            np.asarray(model.face_flags, np.int32)[keep])
            self._render[m] = ref
        return ref

    def tile_colors(self, t: int) -> np.ndarray:
        """(sets, V, 4) uint8: tile t's colour bytes in the base level."""
        nv = int(self.lvl.model_counts["vertices"][int(self.tile_model[t])])
        sets = max(1, int(self.color_sets[t]))
        s = self.color_start[t]
        return self.color_bytes[s:s + sets * nv].reshape(sets, nv, 4)

    def tile_linear(self, t: int, k: int) -> np.ndarray | None:
        """Colour set k of tile t as Blender stores what the import made
        (linear (V,4)), None when the tile has no set k."""
        c = self.tile_colors(t)
        if k >= len(c):
            return None
        return srgb_to_linear(wadkit.eng.colors_to_display(c[k]))

    def collision(self, models) -> None:
        """Decode (once) the collision of these models."""
        need = sorted({int(m) for m in models} - set(self._coll))
        if not need:
            return
        c = self.lvl.collision_polygons(need)
        n = np.asarray(c["n_corners"], np.int64)
        corners = np.asarray(c["corners"], np.float32).reshape(-1, 4, 3)
        used = np.arange(4)[None, :] < n[:, None]
        good = (np.isfinite(corners).all(axis=2) | ~used).all(axis=1) & (n >= 3) & (n <= 4)
        mat = np.asarray(c["material"], np.int32)
        for k, m in enumerate(need):
            s = slice(int(c["start"][k]), int(c["start"][k + 1]))
            g = good[s]
            self._coll[m] = CollisionRef(convert.to_blender(corners[s][g][used[s][g]]),
                                         n[s][g].astype(np.int32), mat[s][g],
                                         int((~g).sum()))

    def collision_ref(self, m: int) -> CollisionRef:
        self.collision([m])
        return self._coll[m]
