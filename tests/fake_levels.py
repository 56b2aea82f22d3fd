"""Small hand-made level objects with the documented Python API (issues 3, 4,
7), for testing the exporters and the CLI apart from the readers. Every
number here is chosen by hand so the tests can check results by hand."""
from __future__ import annotations

from types import SimpleNamespace as NS

import numpy as np

# Two pages: page 0 is 4x4 with one transparent pixel, page 1 is 8 wide, 2 high.
PAGE0 = np.arange(4 * 4 * 4, dtype=np.uint8).reshape(4, 4, 4) * 3
PAGE0[..., 3] = 255
PAGE0[0, 1] = (0, 0, 0, 0)
PAGE1 = np.full((2, 8, 4), (10, 200, 30, 128), dtype=np.uint8)

# Texture table as the TEXT API gives it (a dict of arrays, one row per
# entry): 0 = page 0 blend 0; 1 = page 1 blend 2; 2 = flat colour ff0033.
TEXTURES = {
    "flags": np.array([0x0000, 0x2000, 0x0001], np.uint16),
    "page": np.array([0, 1, 0], np.int8),
    "flat": np.array([False, False, True]),
    "color": np.array([[0, 0, 0], [0, 0, 0], [255, 0, 51]], np.uint8),
    "blend": np.array([0, 2, 0], np.uint8),
}


def world_mesh() -> dict:
    """Tile 3: a unit quad at y=0 over x,z in [10,11]x[20,21] (texture 0),
    two triangles sharing an edge. Tile 8: one triangle at y=2 (texture 1,
    double-sided), and one flat-colour triangle (texture 2)."""
    positions = np.array([
        [10, 0, 20], [11, 0, 20], [11, 0, 21], [10, 0, 21],   # tile 3
        [5, 2, 5], [6, 2, 5], [5, 3, 6],                      # tile 8
        [5, 2, 7],
    ], dtype=np.float32)
    triangles = np.array([[0, 2, 1], [0, 3, 2], [4, 6, 5], [4, 7, 6]],
                         dtype=np.uint32)
    uv = np.array([
        [[0, 1], [1, 0], [1, 1]],
        [[0, 1], [0, 0], [1, 0]],       # corners 0 and 2 repeat tri 0's
        [[0, .5], [1, 0], [1, .5]],
        [[0, 0], [0, 0], [0, 0]],
    ], dtype=np.float32)
    color = np.ones((4, 3, 4), dtype=np.float32)
    color[0, 1] = (0.5, 0.25, 1.0, 1.0)   # corner of vertex 2 in tri 0 only
    return {"positions": positions, "triangles": triangles, "uv": uv,
            "color": color,
            "texture": np.array([0, 0, 1, 2], dtype=np.int32),
            "face_flags": np.array([0x808, 0x818, 0x400, 0], dtype=np.uint16),
            "tile": np.array([3, 3, 8, 8], dtype=np.int32)}


class FakeEngLevel:
    """The ENG API as issues 3/4 document it, backed by the data above."""

    def __init__(self, path="fake.wad"):
        self.path = path
        self.pages = [NS(rgba=PAGE0, kind="rgb16", flags=1),
                      NS(rgba=PAGE1, kind="pal8", flags=0)]
        self.textures = TEXTURES
        # model 0: a collision quad 1x1 at local y=0.5 and a triangle, as
        # the collision decoder gives them (NaN 4th corner for triangles)
        nan = np.nan
        coll = {"corners": np.array([[[-.5, .5, -.5], [.5, .5, -.5],
                                      [.5, .5, .5], [-.5, .5, .5]],
                                     [[0, 1, 0], [1, 1, 0], [0, 1, 1],
                                      [nan, nan, nan]]], np.float32),
                "n_corners": np.array([4, 3], np.uint8),
                "type": np.array([1, 0], np.uint8),
                "material": np.array([0, 0x1E], np.uint8)}
        empty = {k: v[:0] for k, v in coll.items()}
        self.models = [NS(collision=coll), NS(collision=empty)]
        # the MAP tile part as a table of arrays
        self.tiles = NS(model=np.array([0, 0, 1], np.uint32),
                        position=np.array([[10.5, 0, 20.5], [2.5, 1, 3.5],
                                           [0.5, 0, 0.5]], np.float32),
                        rotation=np.array([0, 1024, 0], np.int32))
        self.objects = [NS(positions=np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]],
                                              np.float32),
                           triangles=np.array([[0, 1, 2]], np.uint32))]

    def world_mesh(self, space="file"):
        assert space == "file"
        return world_mesh()

    def floor(self, x, y, z, candidates=False):
        """As the floor API: a dict; height None when there is no floor."""
        if x < 0:
            d = dict(height=None, height_fixed=None, tile=None, polygon=None,
                     material=None, source=None)
        else:
            d = dict(height=2.4744, height_fixed=10135, tile=443, polygon=15,
                     material=0, source="floor", dist=1023)
        if candidates:
            d["candidates"] = [
                dict(tile=443, polygon=2, material=0, type=1, skip=None,
                     branch="floor", passed=True, chosen=False, local=(1, 2, 3),
                     dist=1859, plane_y=9298, height=2.27, dist_units=0.454,
                     tol=-95, edges=[525, 304, 850, 1101]),
                dict(tile=443, polygon=3, material=0x11, type=0, skip="material",
                     branch=None, passed=False, chosen=False)]
        return d

    def needles(self):
        return [(443, 15, (57.199, 2.469, 43.735), 2.469, 2, 0.3, 0.199)]


class FakeRc2Level:
    """RC2 terrain (Z-up) as issue 7 documents it."""

    def __init__(self):
        self.path = "LEVEL0.WAD"
        self.tfrag_textures = [np.full((4, 4, 4), 77, np.uint8)]

    def terrain(self, lod=0):
        return {"positions": np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0],
                                       [0, 0, 5]], np.float32),
                "triangles": np.array([[0, 1, 2], [0, 1, 3]], np.uint32),
                "uv": np.zeros((2, 3, 2), np.float32),
                "color": np.ones((2, 3, 4), np.float32),
                "texture": np.array([0, -1], np.int32),
                "patch": np.array([4, 9], np.int32)}
