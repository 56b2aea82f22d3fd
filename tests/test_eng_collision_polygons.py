"""Level.collision_polygons: every model's collision decoded in one call,
against each model's own Model.collision (built by the from-spec builder)."""
import numpy as np

import wadkit
from builders import eng_collision as C
from builders import eng_level as L


def level():
    floor = C.polygon([(-0.5, 0, -0.5), (-0.5, 0, 0.5), (0.5, 0, 0.5), (0.5, 0, -0.5)],
                      material=0x11)
    tri = C.polygon([(-0.5, 0.25, -0.5), (-0.5, 0.25, 0.0), (0.0, 0.25, -0.5)], material=3)
    water = C.polygon([(-0.5, -1, -0.5), (-0.5, -1, 0.5), (0.5, -1, 0.5)], material=0x1e)
    quad = [(-0.5, 0, -0.5, 0, 1, 0), (0.5, 0, -0.5, 0, 1, 0), (0.5, 0, 0.5, 0, 1, 0)]
    models = [L.Model(quad, [(0x800, 0, 1, 2, 0)], floor + tri + water, (1, 1, 1)),
              L.Model(quad, [(0x800, 0, 1, 2, 0)]),
              L.Model(quad, [(0x800, 0, 1, 2, 0)], water + tri, (0, 2, 0))]
    tiles = [L.Tile(0.5 + i, 0.0, -0.5, 0, i, colors=L.color_block(3, [[(0x80,) * 3 + (0,)] * 3]))
             for i in range(3)]
    return wadkit.eng.from_bytes(L.level(trak_payload=L.trak(models),
                                         map_payload_=L.map_payload(3, 1, tiles)))


def test_all_models_concatenated_as_each_decodes():
    lvl = level()
    c = lvl.collision_polygons()
    assert c["start"].tolist() == [0, 3, 3, 5]
    assert c["model"].tolist() == [0, 0, 0, 2, 2]
    assert c["polygon"].tolist() == [0, 1, 2, 0, 1]
    assert c["group"].tolist() == [0, 1, 2, 1, 1]
    assert c["material"].tolist() == [0x11, 3, 0x1e, 0x1e, 3]
    for m in range(3):
        own = lvl.models[m].collision
        s = slice(c["start"][m], c["start"][m + 1])
        for k in ("corners", "n_corners", "type", "material", "group", "normal", "d"):
            np.testing.assert_array_equal(np.asarray(c[k])[s], np.asarray(own[k]), err_msg=k)


def test_chosen_models_in_the_order_asked():
    lvl = level()
    c = lvl.collision_polygons([2, 0, 2])
    assert c["start"].tolist() == [0, 2, 5, 7]
    assert c["model"].tolist() == [2, 2, 0, 0, 0, 2, 2]
    assert c["material"].tolist() == [0x1e, 3, 0x11, 3, 0x1e, 0x1e, 3]
    e = lvl.collision_polygons([], space="export")
    assert e["start"].tolist() == [0] and len(e["corners"]) == 0
