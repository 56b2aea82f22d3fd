"""A level object shaped like wadkit's ENG Level (models, tiles and zones as
tables of arrays, world_mesh, collision_polygons, pages, textures as a dict
of arrays, objects), made of small hand-chosen arrays, for testing the
add-on's Blender side on its own. The world mesh is made here from the
models and tiles by the placement rule of docs/formats/eng.md (file space:
X = x + vx·cos a + vz·sin a, Z = z − vx·sin a + vz·cos a)."""
from __future__ import annotations

from types import SimpleNamespace as NS

import numpy as np

# model 0: a quad; model 1: two triangles and a degenerate one (file space,
# tile-local); model 1's tile is turned by 1024 (90 degrees)
MODEL0 = NS(positions=np.array([[-.5, 0, -.5], [.5, 0, -.5], [.5, 0, .5], [-.5, 0, .5]],
                               np.float32),
            triangles=np.array([[0, 2, 1], [0, 3, 2]], np.uint32),
            face_texture=np.array([0, 1], np.int32), face_flags=np.array([0, 8], np.uint16))
MODEL1 = NS(positions=np.array([[.5, 0, -.5], [.5, 0, .5], [0, 1, .5], [0, 1, -.5]],
                               np.float32),
            triangles=np.array([[0, 2, 1], [0, 3, 2], [0, 0, 1]], np.uint32),
            face_texture=np.array([2, 0, 0], np.int32),
            face_flags=np.array([0x800, 0, 0], np.uint16))
# colour bytes (R, G, B, byte 3): tile 0 one set, tile 1 two sets
COLORS0 = [(128, 128, 128, 0), (64, 32, 128, 0), (128, 128, 128, 0), (128, 128, 128, 0)]
COLORS1 = [(128, 128, 128, 2), (128, 128, 128, 0), (16, 96, 64, 0), (128, 128, 128, 0)]
COLORS1B = [(64, 64, 64, 0)] * 4


def _place(pos, rot, local):
    a = rot / 4096 * 2 * np.pi
    c, s = np.cos(a), np.sin(a)
    out = np.empty_like(local)
    out[:, 0] = pos[0] + local[:, 0] * c + local[:, 2] * s
    out[:, 1] = pos[1] + local[:, 1]
    out[:, 2] = pos[2] - local[:, 0] * s + local[:, 2] * c
    return out


def level(path=None):
    models = [MODEL0, MODEL1]
    colors = np.array(COLORS0 + COLORS1 + COLORS1B, np.uint8)
    tiles = NS(model=np.array([0, 1]), rotation=np.array([0, 1024]),
               position=np.array([[0.5, 0.0, 0.5], [1.5, 1.0, 0.5]], np.float32),
               cell_xz=np.array([[0, 0], [1, 0]]), color_sets=np.array([1, 2]),
               colors=colors, color_start=np.array([0, 4]))
    zones = NS(grid=np.array([[0, 1]], np.uint32))
    uv0 = np.array([[[0, 0], [1, 1], [1, 0]], [[0, 0], [0, 1], [1, 1]]], np.float32)
    uv1 = np.array([[[0.25, 0.5], [0.75, 1], [0.75, 0.5]], [[0.25, 0.5], [0.25, 1], [0.75, 1]],
                    [[0, 0], [0, 0], [0, 0]]], np.float32)

    def world_mesh(space="file", color_set=0):
        assert space == "file"
        pos, tri, col, tile = [], [], [], []
        for t in range(2):
            m = models[t]
            v0 = sum(len(p) for p in pos)
            pos.append(_place(tiles.position[t], tiles.rotation[t], m.positions))
            tri.append(m.triangles + v0)
            s = tiles.color_start[t] + (color_set if color_set < tiles.color_sets[t] else 0) * 4
            vc = np.minimum(colors[s:s + 4, :3] / 128, 1.0)
            vc = np.hstack([vc, np.ones((4, 1))]).astype(np.float32)
            col.append(vc[m.triangles])
            tile += [t] * len(m.triangles)
        return {"positions": np.concatenate(pos).astype(np.float32),
                "triangles": np.concatenate(tri).astype(np.uint32),
                "uv": np.concatenate([uv0, uv1]), "color": np.concatenate(col),
                "texture": np.concatenate([m.face_texture for m in models]),
                "face_flags": np.concatenate([m.face_flags for m in models]),
                "tile": np.array(tile, np.int32)}

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
                  bone_counts=np.array([1, 3]), face_texture=np.array([0, 0, 2]),
                  face_flags=np.zeros(3, np.uint16))]

    def collision_polygons(model_ids):
        n = len(model_ids)
        return {"corners": np.zeros((0, 4, 3), np.float32), "n_corners": np.zeros(0, np.uint8),
                "type": np.zeros(0, np.uint8), "group": np.zeros(0, np.uint8),
                "material": np.zeros(0, np.uint8), "polygon": np.zeros(0, np.int64),
                "model": np.zeros(0, np.int64), "start": np.zeros(n + 1, np.int64)}

    return NS(path=path, world_mesh=world_mesh, tiles=tiles, pages=pages,
              textures=textures, objects=objects, zones=zones, models=models,
              collision_polygons=collision_polygons, animations=[])
