"""The Blender test environment itself: a real Blender, and wadkit's
extension (built against NumPy 2) loading next to the NumPy that Blender
ships (1.26 in 4.5 and 5.0, 2.x in 5.3)."""
import sys

import bpy
import numpy as np
import pytest

import wadkit
from builders import eng_wad

pytestmark = pytest.mark.every_blender


def test_real_blender():
    # a bpy wheel (4.5 LTS, 5.0, 5.3); the Debian fallback would be 3.4
    assert bpy.app.version >= (3, 4, 0)
    assert bpy.app.background
    # Blender 4.2-5.0 run CPython 3.11, 5.1+ 3.13 (the extension's two wheels)
    if bpy.app.version >= (4, 2, 0):
        assert sys.version_info[:2] == ((3, 13) if bpy.app.version >= (5, 1, 0) else (3, 11))


def test_numpy_abi_wadkit_loads_next_to_blenders_numpy():
    # bpy 4.5/5.0 pin NumPy 1.26; our extension is compiled against NumPy
    # >= 2 and must work there too (in the Debian fallback NumPy is 1.x)
    major = int(np.__version__.split(".")[0])
    assert major == (2 if bpy.app.version >= (5, 1, 0) else 1), np.__version__
    lvl = wadkit.eng.from_bytes(eng_wad.sample_wad())
    assert [c.tag for c in lvl.chunks][:3] == ["INFO", "WFPC", "TEXT"]
    assert bytes(lvl.chunk("WFPC")) == b"\x00\x00\x01\x00"
