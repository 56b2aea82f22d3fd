"""The Blender test environment itself: a real Blender, NumPy 1.x next to
wadkit's extension built against NumPy 2."""
import bpy
import numpy as np

import wadkit
from builders import eng_wad


def test_real_blender():
    # 4.5 LTS from the bpy wheel; the Debian fallback would be 3.4
    assert bpy.app.version >= (3, 4, 0)
    assert bpy.app.background


def test_numpy_abi_wadkit_loads_next_to_numpy_1():
    # bpy pins NumPy < 2; our extension is compiled against NumPy >= 2 and
    # must work here (in the Debian-blender fallback NumPy is 1.x as well).
    assert int(np.__version__.split(".")[0]) == 1
    lvl = wadkit.eng.from_bytes(eng_wad.sample_wad())
    assert [c.tag for c in lvl.chunks][:3] == ["INFO", "WFPC", "TEXT"]
    assert bytes(lvl.chunk("WFPC")) == b"\x00\x00\x01\x00"
