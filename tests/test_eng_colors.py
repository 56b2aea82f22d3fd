"""wadkit.eng.colors_to_display / colors_from_display: vertex colour bytes
and the values the world mesh shows (docs/formats/eng.md: byte/128, the game
doubles and clamps, so bytes above 0x80 all show 1.0)."""
import numpy as np
import pytest

import wadkit
from builders import eng_level as L


def test_to_display_is_what_the_world_mesh_shows():
    cols = [(0, 64, 128, 0), (200, 255, 1, 0), (127, 129, 3, 0)]
    quad = [(-0.5, 0, -0.5, 0, 1, 0), (0.5, 0, -0.5, 0, 1, 0), (0.5, 0, 0.5, 0, 1, 0)]
    model = L.Model(quad, [(0x800, 0, 1, 2, 0)])
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=L.color_block(3, [cols]))]
    lvl = wadkit.eng.from_bytes(L.level(trak_payload=L.trak([model]),
                                        map_payload_=L.map_payload(1, 1, tiles)))
    wm = lvl.world_mesh()
    shown = wadkit.eng.colors_to_display(lvl.tiles.colors)
    # corner k of the file-space triangle is vertex triangles[0][k]
    np.testing.assert_array_equal(wm["color"][0], shown[wm["triangles"][0]])
    by_hand = np.array([[0, 0.5, 1, 1], [1, 1, 1 / 128, 1], [127 / 128, 1, 3 / 128, 1]],
                       np.float32)
    np.testing.assert_array_equal(shown, by_hand)


def test_from_display_keeps_what_still_shows_and_rounds_the_rest():
    cur = np.array([[0, 64, 128, 1], [200, 255, 10, 0], [7, 7, 7, 2]], np.uint8)
    shown = wadkit.eng.colors_to_display(cur)
    assert wadkit.eng.colors_from_display(shown, cur).tolist() == cur.tolist()
    # Blender's sRGB round trip moves values by ~3e-5: still the same bytes
    assert wadkit.eng.colors_from_display(shown + 3e-5, cur).tolist() == cur.tolist()
    edit = shown.copy()
    edit[1, 2] = 0.5             # only B of vertex 1 painted: R, G keep 200, 255
    edit[2, :3] = (0.999, 2.5, -1)
    edit[0, 3] = 0.25            # alpha is not stored; byte 3 stays
    out = wadkit.eng.colors_from_display(edit, cur)
    assert out.tolist() == [[0, 64, 128, 1], [200, 255, 64, 0], [128, 255, 0, 2]]


def test_shapes_are_checked():
    with pytest.raises(ValueError, match=r"current: shape \(2, 4\) expected, got \(1, 4\)"):
        wadkit.eng.colors_from_display(np.zeros((2, 4)), np.zeros((1, 4), np.uint8))
    with pytest.raises(ValueError, match=r"colors: shape \(n, 4\) expected, got \(2, 3\)"):
        wadkit.eng.colors_to_display(np.zeros((2, 3), np.uint8))
    assert wadkit.eng.colors_to_display(np.zeros((0, 4), np.uint8)).shape == (0, 4)
