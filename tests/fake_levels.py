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

# Texture table: 0 = page 0 blend 0; 1 = page 1 blend 2; 2 = flat colour.
TEXTURES = [
    NS(page=0, flags=0x0000, flat=None, blend=0, uv=(0, 0, 1, 1)),
    NS(page=1, flags=0x2000, flat=None, blend=2, uv=(0, 0, 1, 1)),
    NS(page=0, flags=0x0001, flat=(255, 0, 51), blend=0, uv=(0, 0, 0, 0)),
]


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
        # model 0: a collision quad 1x1 at local y=0.5 and a triangle
        quad = NS(corners=np.array([[-.5, .5, -.5], [.5, .5, -.5],
                                    [.5, .5, .5], [-.5, .5, .5]], np.float32),
                  type=1, material=0)
        tri = NS(corners=np.array([[0, 1, 0], [1, 1, 0], [0, 1, 1]], np.float32),
                 type=0, material=0x1E)
        self.models = [NS(collision=[quad, tri]), NS(collision=[])]
        self.tiles = [NS(model=0, position=(10.5, 0.0, 20.5), rotation=0),
                      NS(model=0, position=(2.5, 1.0, 3.5), rotation=1024),
                      NS(model=1, position=(0.5, 0.0, 0.5), rotation=0)]
        self.objects = [NS(positions=np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]],
                                              np.float32),
                           triangles=np.array([[0, 1, 2]], np.uint32))]

    def world_mesh(self, space="file"):
        assert space == "file"
        return world_mesh()

    def floor(self, x, y, z):
        if x < 0:
            return None
        cands = [NS(tile=2, polygon=0, height=2.27, dist=0.454,
                    edges=[525, 304, 850, 1101], tolerance=-95, passed=True)]
        return NS(height=2.4744, tile=443, polygon=15, material=0,
                  candidates=cands)

    def needles(self):
        return [(443, 15, np.array([57.199, 2.469, 43.735]), 2.469)]


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
