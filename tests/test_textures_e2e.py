"""`wadkit textures` on a WAD whose TEXT is built by the from-spec builder:
every page kind comes out as a PNG with the hand-derived pixels."""
import os
import subprocess
import sys

import numpy as np

from builders import eng_text as T
from builders import eng_wad as W
from wadkit import export


def test_textures_all_page_kinds(write, tmp_path):
    # pal8 2×1 over a 2-colour palette; rgb16 2×1; rle16 3×1 (one repeat run)
    pal = T.palette([0x001F, 0x7C00])                      # red, blue
    pages = [T.page_pal8(2, 1, bytes([1, 0])),
             T.page_rgb16(2, 1, [0x03E0, 0x0000]),         # green, transparent
             T.page_rle16(3, 1, T.repeat(3, 0x801F))]      # red + bit 15, ×3
    text = T.text(palettes=[pal], pages=pages,
                  entries=[T.entry(0, 0, 0, 0, 1, 0, 0)])
    path = write("t.wad", W.wad([("INFO", W.info_payload()), ("TEXT", text)]))
    r = subprocess.run([sys.executable, "-m", "wadkit", "textures", path,
                        str(tmp_path / "out")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["page_00.png", "page_01.png",
                                                   "page_02.png"]
    got = [export.read_png(tmp_path / "out" / f"page_{i:02d}.png") for i in range(3)]
    np.testing.assert_array_equal(got[0], [[[0, 0, 255, 255], [255, 0, 0, 255]]])
    np.testing.assert_array_equal(got[1], [[[0, 255, 0, 255], [0, 0, 0, 0]]])
    np.testing.assert_array_equal(got[2], [[[255, 0, 0, 255]] * 3])   # bit 15: opaque
