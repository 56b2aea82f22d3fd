"""A level object shaped like wadkit's ENG Level (world_mesh, tiles and
zones as tables of arrays, pages, textures as a dict of arrays, objects), made of small hand-chosen arrays, for testing the
add-on's Blender side on its own."""
from __future__ import annotations

from types import SimpleNamespace as NS

import numpy as np


def level(path=None):
    # tile 0 at cell (0,0), rotation 0; tile 1 at cell (1,0), rotation 1024 (90 deg)
    tiles = NS(model=np.array([0, 1]), rotation=np.array([0, 1024]),
               position=np.array([[0.5, 0.0, 0.5], [1.5, 1.0, 0.5]], np.float32),
               cell_xz=np.array([[0, 0], [1, 0]]), color_sets=np.array([1, 2]))
    zones = NS(grid=np.array([[0, 1]], np.uint32))
    positions = np.array([
        [0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1],          # tile 0 quad
        [1, 1, 0], [2, 1, 0], [2, 2, 0.5],                   # tile 1 triangles
        [1, 2, 0.5],
    ], np.float32)
    triangles = np.array([[0, 2, 1], [0, 3, 2], [4, 6, 5], [4, 7, 6],
                          [4, 4, 5]], np.uint32)              # last: degenerate
    uv = np.array([[[0, 0], [1, 1], [1, 0]], [[0, 0], [0, 1], [1, 1]],
                   [[0.25, 0.5], [0.75, 1], [0.75, 0.5]],
                   [[0.25, 0.5], [0.25, 1], [0.75, 1]],
                   [[0, 0], [0, 0], [0, 0]]], np.float32)
    color = np.ones((5, 3, 4), np.float32)
    color[0, 1] = (0.5, 0.25, 1.0, 1.0)
    color[2, 2] = (0.125, 0.75, 0.5, 1.0)
    wm = {"positions": positions, "triangles": triangles, "uv": uv, "color": color,
          "texture": np.array([0, 1, 2, 0, 0], np.int32),
          "face_flags": np.array([0, 8, 0x800, 0, 0], np.uint16),
          "tile": np.array([0, 0, 1, 1, 1], np.int32)}
    page0 = np.zeros((4, 8, 4), np.uint8)
    page0[..., 0] = 200
    page0[..., 3] = 255
    page0[0, 0] = 0                                          # transparent texel
    page1 = np.full((2, 2, 4), 255, np.uint8)
    pages = [NS(rgba=page0, kind="rgb16", flags=1), NS(rgba=page1, kind="pal8", flags=0)]
    textures = {"page": np.array([0, 1, 0], np.int8),
                "flat": np.array([False, False, True]),
                "color": np.array([[0, 0, 0], [0, 0, 0], [255, 128, 0]], np.uint8),
                "blend": np.array([0, 2, 0], np.uint8)}
    objects = [NS(positions=np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32),
                  triangles=np.array([[0, 1, 2], [0, 2, 3], [0, 3, 1]], np.uint32),
                  bone_counts=np.array([1, 3]))]

    no_collision = {"corners": np.zeros((0, 4, 3), np.float32),
                    "n_corners": np.zeros(0, np.uint8), "type": np.zeros(0, np.uint8),
                    "group": np.zeros(0, np.uint8), "material": np.zeros(0, np.uint8)}
    models = [NS(collision=no_collision), NS(collision=no_collision)]
    color2 = wm["color"] * 0.5                        # the second colour set

    def world_mesh(space="file", color_set=0):
        assert space == "file"
        return wm if color_set == 0 else dict(wm, color=color2)

    return NS(path=path, world_mesh=world_mesh, tiles=tiles, pages=pages,
              textures=textures, objects=objects, zones=zones,
              models=models)
