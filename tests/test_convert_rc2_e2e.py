"""End to end for RC2: a LEVEL file with tfrag terrain and textures built by
the from-spec builders → `wadkit convert` / `textures`; positions rotated
from Z-up to y-up, checked by hand."""
import struct
import subprocess
import sys

import numpy as np
import pytest

import wadkit
from wadkit import export

import gltf_check as G

from builders import rc2_level as R
from builders import tfrag as T


def quad_patch() -> "T.Patch":
    """Four corners at origin (2048, -1024, 100) (÷1024: (2, -1, 0.0977)),
    one LOD 0 strip of 4 on ad-gif 0 = texture 1."""
    return T.Patch(
        positions=[(0, 0, 0), (1024, 0, 0), (0, 1024, 0), (1024, 1024, 512)],
        origin=(2048, -1024, 100),
        vinfo=[(0, 0, 4096, 0), (4096, 0, 4096, 2), (0, -4096, 4096, 4),
               (2048, -2048, 4096, 6)],
        rgba=[(0x80, 0x40, 0, 0x80)] * 4, adgifs=[1],
        strips={0: [(4, 0)], 1: [(3, 0)], 2: [(3, 0)]},
        indices={0: [0, 1, 2, 3], 1: [0, 1, 3], 2: [0, 1, 3]})


def level() -> bytes:
    blk = T.block([quad_patch(), T.grid_patch(0, 0, texture=0)])
    core = bytearray(R.CORE_SIZE)
    core[:len(blk)] = blk
    core[0x2000:0x2004] = bytes([255, 0, 0, 255])              # texture 0: 2×2
    core[0x2010:0x2018] = bytes([0, 8, 16, 24, 1, 2, 3, 255])  # texture 1: 4×2
    table = (struct.pack("<ihhhhhh", 0, 2, 2, 1, 0, 0, 0)
             + struct.pack("<ihhhhhh", 0x10, 4, 2, 1, 0, 0, 0))
    data, _ = R.level(core=bytes(core), index_tail=bytes(4) + table + bytes(0x20))
    return data


def test_convert_rc2_terrain(write, tmp_path):
    src = write("LEVEL0.WAD", level())
    out = tmp_path / "l.glb"
    r = subprocess.run([sys.executable, "-m", "wadkit", "convert", src, "-o",
                        str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    gltf, binary = G.read_glb(out.read_bytes())
    G.check(gltf, binary)
    assert [n["name"] for n in gltf["nodes"]] == ["patch_0", "patch_1", "terrain"]
    assert len(G.triangles(gltf, binary, "terrain")) == 2 + 48
    # patch 0, Z-up corners (2,-1,z0) (3,-1,z0) (2,0,z0) (3,0,z0+0.5) with
    # z0 = 100/1024 → y-up (x, z, -y)
    z0 = 100 / 1024
    quad = G.triangles(gltf, binary, "terrain")[:2].reshape(-1, 3)
    np.testing.assert_allclose(quad.min(0), [2, z0, 0], atol=1e-6)
    np.testing.assert_allclose(quad.max(0), [3, z0 + 0.5, 1], atol=1e-6)
    lvl = wadkit.rc2.open(src)
    by_name = {i["name"]: i for i in gltf["images"]}
    for k, tex in enumerate(lvl.tfrag_textures):
        v = gltf["bufferViews"][by_name[f"page{k:02d}"]["bufferView"]]
        png = binary[v["byteOffset"]:v["byteOffset"] + v["byteLength"]]
        np.testing.assert_array_equal(export.read_png(png), tex)
    r = subprocess.run([sys.executable, "-m", "wadkit", "textures", src,
                        str(tmp_path / "t")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(export.read_png(tmp_path / "t" / "tfrag_001.png"),
                                  lvl.tfrag_textures[1])


def test_convert_rc2_lod(write, tmp_path):
    """LOD 1: the quad patch has one strip of 3 (1 triangle), the grid patch
    the same 4 strips as LOD 0 (48)."""
    src = write("LEVEL0.WAD", level())
    out = tmp_path / "l1.glb"
    r = subprocess.run([sys.executable, "-m", "wadkit", "convert", src, "-o",
                        str(out), "--lod", "1"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    gltf, binary = G.read_glb(out.read_bytes())
    assert len(G.triangles(gltf, binary, "terrain")) == 1 + 48
