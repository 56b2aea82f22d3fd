"""End to end: ENG WADs built by the from-spec builders → `wadkit convert`
/ `textures` → files checked against hand-derived positions, UVs, pixels
and collision."""
import json
import struct
import subprocess
import sys

import numpy as np
import pytest

import wadkit
from wadkit import export

import gltf_check as G

from builders import eng_level as L
from builders import eng_text as T


def run(*args):
    return subprocess.run([sys.executable, "-m", "wadkit", *args],
                          capture_output=True, text=True)


def coll_quad(material=0) -> bytes:
    """A flat 1×1 collision quad at local y 0: surface (0,127,0) d 0, edges
    x ≥ -0.5, x ≤ 0.5, z ≥ -0.5, z ≤ 0.5 (inward normals ×127, d = -0.5·4064)."""
    planes = [(0, 127, 0, 0), (127, 0, 0, -2032), (0, 0, 127, -2032),
              (-127, 0, 0, -2032), (0, 0, -127, -2032)]
    return bytes([1, material]) + b"".join(struct.pack("<bbbBh", x, y, z, 0, d)
                                           for x, y, z, d in planes)


# page 0: 2×2 ABGR1555, row-major: red, transparent, green + bit 15, blue
PAGE_WORDS = [0x001F, 0x0000, 0x83E0, 0x7C00]
PAGE_RGBA = np.array([[[255, 0, 0, 255], [0, 0, 0, 0]],
                      [[0, 255, 0, 255], [0, 0, 255, 255]]], np.uint8)   # bit 15: opaque


def small_level(text=True, map_=True, stpc=False) -> bytes:
    """One tile: a unit quad (export space, y 0) at A (3.5, 1, -2.5), rot 0,
    faces 0x808 (first quad half) and 0x818 (second half) on texture 0
    (page 0, u 0..1, v 0..1), a collision quad, grey vertex colours. Or
    the same level without its TEXT / MAP chunk, with or without an STPC
    chunk of one object model (a triangle)."""
    verts = [(-.5, 0, -.5, 0, 1, 0), (.5, 0, -.5, 0, 1, 0),
             (.5, 0, .5, 0, 1, 0), (-.5, 0, .5, 0, 1, 0)]
    model = L.Model(verts, [(0x808, 0, 1, 2, 0), (0x818, 0, 2, 3, 0)],
                    coll_quad(), (1, 0, 0))
    tile = L.Tile(3.5, 1.0, -2.5, 0, 0,
                  colors=L.color_block(4, [[(128, 128, 128, 0)] * 4]))
    text_ = T.text(pages=[T.page_rgb16(2, 2, PAGE_WORDS)],
                   entries=[T.entry(0, 0, -1, 0, 1, 0, 1)])
    obj = L.Model(verts[:3], [(0, 0, 1, 2, 0)])
    return L.level(trak_payload=L.trak([model]),
                   map_payload_=L.map_payload(8, 8, [tile]) if map_ else None,
                   stpc_payload=L.stpc([obj]) if stpc else None,
                   text_payload=text_ if text else None)


# Hand-derived, file space (x, y, -z of the export-space world position):
# v0 (3,1,3) v1 (4,1,3) v2 (4,1,2) v3 (3,1,2). UV rect U0=V0=0, U1=V1=2/256.
# 0x808: (a,V1) (b,V1) (b,V0) with a=U1, b=U0; 0x818: (b,V0) (a,V0) (a,V1).
U1 = 2 / 256
CORNERS = {  # (triangle's vertex set) -> {position: uv}
    0: {(3, 1, 3): (U1, U1), (4, 1, 3): (0, U1), (4, 1, 2): (0, 0)},
    1: {(3, 1, 3): (0, 0), (4, 1, 2): (U1, 0), (3, 1, 2): (U1, U1)},
}


def test_convert_small_level_glb(write, tmp_path):
    src = write("small.wad", small_level())
    out = tmp_path / "small.glb"
    r = run("convert", src, "-o", str(out), "--collision")
    assert r.returncode == 0, r.stderr
    gltf, binary = G.read_glb(out.read_bytes())
    G.check(gltf, binary)
    node = next(n for n in gltf["nodes"] if n["name"] == "tile_0")
    prim = gltf["meshes"][node["mesh"]]["primitives"][0]
    pos = G.accessor_array(gltf, binary, prim["attributes"]["POSITION"])
    uv = G.accessor_array(gltf, binary, prim["attributes"]["TEXCOORD_0"])
    col = G.accessor_array(gltf, binary, prim["attributes"]["COLOR_0"])
    idx = G.accessor_array(gltf, binary, prim["indices"]).reshape(-1, 3)
    assert len(idx) == 2
    def key(p, t):
        return (tuple(round(float(x), 5) for x in p),
                tuple(round(float(x), 6) for x in t))
    got = {frozenset(key(pos[i], uv[i]) for i in tri) for tri in idx}
    want = {frozenset(key(p, t) for p, t in c.items()) for c in CORNERS.values()}
    assert got == want
    np.testing.assert_allclose(col, 1.0)            # 0x80 = 1.0
    acc = gltf["accessors"][prim["attributes"]["POSITION"]]
    assert acc["min"] == [3, 1, 2] and acc["max"] == [4, 1, 3]
    mat = gltf["materials"][prim["material"]]
    assert mat["alphaMode"] == "MASK" and mat["name"] == "page00_b0"
    v = gltf["bufferViews"][gltf["images"][0]["bufferView"]]
    png = binary[v["byteOffset"]:v["byteOffset"] + v["byteLength"]]
    np.testing.assert_array_equal(export.read_png(png), PAGE_RGBA)
    # collision: the quad placed on the tile, 2 triangles of total area 1
    tris = G.triangles(gltf, binary, "collision")
    assert len(tris) == 2
    np.testing.assert_allclose(tris.reshape(-1, 3).min(axis=0), [3, 1, 2], atol=0.01)
    np.testing.assert_allclose(tris.reshape(-1, 3).max(axis=0), [4, 1, 3], atol=0.01)
    area = np.linalg.norm(np.cross(tris[:, 1] - tris[:, 0],
                                   tris[:, 2] - tris[:, 0]), axis=1).sum() / 2
    assert area == pytest.approx(1.0, abs=0.02)


def test_convert_small_level_obj_and_textures(write, tmp_path):
    src = write("small.wad", small_level())
    r = run("convert", src, "-o", str(tmp_path / "o"), "--format", "obj")
    assert r.returncode == 0, r.stderr
    obj = (tmp_path / "o" / "small.obj").read_text()
    assert obj.count("\nf ") == 2 and "\no tile_0\n" in obj
    np.testing.assert_array_equal(
        export.read_png(tmp_path / "o" / "small_page_00.png"), PAGE_RGBA)
    r = run("textures", src, str(tmp_path / "t"))
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(export.read_png(tmp_path / "t" / "page_00.png"),
                                  PAGE_RGBA)


def test_convert_realistic_level_batch_with_a_bad_file(write, tmp_path):
    data, facts = L.realistic_level()
    good = write("real.wad", data)
    bad = write("bad.wad", data[:len(data) // 2])
    r = run("convert", good, bad, good, "-o", str(tmp_path / "out"))
    assert r.returncode == 1
    assert "bad.wad" in r.stderr and "Traceback" not in r.stderr
    lvl = wadkit.eng.open(good)
    model_tris = np.array([len(m.triangles) for m in lvl.models])
    expected = int(model_tris[np.asarray(lvl.tiles.model)].sum())
    for name in ("real.glb", "real_2.glb"):
        gltf, binary = G.read_glb((tmp_path / "out" / name).read_bytes())
        G.check(gltf, binary)
        n = sum(gltf["accessors"][p["indices"]]["count"] // 3
                for m in gltf["meshes"] for p in m["primitives"])
        assert n == expected
    s = export.summary(export.level_scene(lvl))
    assert s["triangles"] == expected


def test_object_uvs_follow_the_world_mesh_rules(write, tmp_path):
    """model_uvs (used for --objects) gives, for every tile model, exactly
    the UVs the core's world mesh gives that tile (same rules, same order)."""
    from wadkit.export.levels import model_uvs
    data, _ = L.realistic_level()
    lvl = wadkit.eng.open(write("real.wad", data))
    m = lvl.world_mesh()
    tile_of = np.asarray(m["tile"])
    for ti in range(0, len(lvl.tiles.model), 7):
        want = m["uv"][tile_of == ti]
        got = model_uvs(lvl.models[int(lvl.tiles.model[ti])], lvl.textures)
        np.testing.assert_array_equal(got, want)
    out = tmp_path / "o.glb"
    r = run("convert", str(tmp_path / "real.wad"), "-o", str(out), "--objects")
    assert r.returncode == 0, r.stderr
    gltf, binary = G.read_glb(out.read_bytes())
    G.check(gltf, binary)
    objs = G.triangles(gltf, binary, "objects")
    assert len(objs) == sum(len(o.triangles) for o in lvl.objects)


@pytest.mark.parametrize("fmt", ["glb", "obj"])
def test_import_mesh_round_trip(write, tmp_path, fmt):
    """convert → import-mesh into the same level → the world mesh has the same
    triangles with the same UVs (hand-derived CORNERS) and the page intact."""
    src = write("small.wad", small_level())
    mesh_path = tmp_path / f"m.{fmt}"
    assert run("convert", src, "-o", str(mesh_path), "--collision").returncode == 0
    new = tmp_path / "new.wad"
    r = run("import-mesh", src, str(mesh_path), str(new), "--coll-mesh", str(mesh_path))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    lvl = wadkit.eng.open(new)
    m = lvl.world_mesh()
    assert len(m["triangles"]) == 2
    got = {frozenset((tuple(round(float(x), 4) for x in m["positions"][v]),
                      tuple(round(float(x), 6) for x in uv))
                     for v, uv in zip(tri, uvs))
           for tri, uvs in zip(m["triangles"], m["uv"])}
    want = {frozenset((tuple(float(x) for x in p), tuple(round(float(x), 6) for x in t))
                      for p, t in c.items()) for c in CORNERS.values()}
    assert got == want
    assert m["texture"].tolist() == [0, 0]
    np.testing.assert_array_equal(lvl.pages[0].rgba, PAGE_RGBA)
    hit = lvl.floor(3.5, 1.2, 2.5)
    assert hit is not None and hit["height"] == pytest.approx(1.0, abs=0.01)


def test_info_counts(write):
    data, facts = L.realistic_level()
    path = write("real.wad", data)
    r = run("info", path, "--json")
    assert r.returncode == 0, r.stderr
    c = json.loads(r.stdout)["counts"]
    lvl = wadkit.eng.open(path)
    faces = np.array([len(m.triangles) for m in lvl.models])
    assert c["models"] == facts["models"] == 300
    assert c["tiles"] == facts["tiles"] and c["grid"] == [64, 64]
    assert c["triangles"] == int(faces[np.asarray(lvl.tiles.model)].sum())
    assert c["objects"] == 2 and c["pages"] == 0 and c["textures"] == 64
    assert "errors" not in c
    # tiles with faces: the tiles the world mesh (and so a converted world's
    # nodes, and the demo's line) has, counted from the mesh itself
    assert c["tiles_with_faces"] == len(np.unique(lvl.world_mesh()["tile"]))
    assert c["tiles_with_faces"] < c["tiles"]
    text = run("info", path).stdout
    assert (f"counts: models 300, objects 2, tiles 1400 ({c['tiles_with_faces']} "
            "with faces), grid 64x64") in text


def test_info_counts_of_a_damaged_level(write):
    data = small_level()
    # cut the MAP payload short by rewriting its size field and the length
    lvl = wadkit.eng.from_bytes(data)
    m = next(c for c in lvl.chunks if c.tag == "MAP")
    bad = bytearray(data[:m.offset + 8 + 20]) + data[m.offset + 8 + m.size:]
    struct.pack_into("<I", bad, m.offset + 4, 20)
    struct.pack_into("<I", bad, 0, len(bad))
    r = run("info", write("bad.wad", bytes(bad)), "--json")
    assert r.returncode == 0, r.stderr
    c = json.loads(r.stdout)["counts"]
    assert c["pages"] == 1 and c["textures"] == 1        # TEXT still counted
    assert len(c["errors"]) == 1 and "MAP" in c["errors"][0]
