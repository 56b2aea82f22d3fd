"""Structural checks of glTF 2.0 output, from the specification's rules
(independent of our writer): GLB framing, buffer/view/accessor ranges,
alignment, index ranges, POSITION min/max, references between objects.
read_glb() unpacks a .glb with struct only."""
from __future__ import annotations

import json
import struct

import numpy as np

SIZES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
DTYPES = {5121: "<u1", 5123: "<u2", 5125: "<u4", 5126: "<f4"}
COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def read_glb(data: bytes) -> tuple[dict, bytes]:
    magic, version, length = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67 and version == 2
    assert length == len(data)
    jlen, jtype = struct.unpack_from("<II", data, 12)
    assert jtype == 0x4E4F534A and jlen % 4 == 0
    gltf = json.loads(data[20:20 + jlen])
    pos, binary = 20 + jlen, b""
    if pos < length:
        blen, btype = struct.unpack_from("<II", data, pos)
        assert btype == 0x004E4942 and blen % 4 == 0
        binary = data[pos + 8:pos + 8 + blen]
        assert pos + 8 + blen == length
    return gltf, binary


def accessor_array(gltf: dict, binary: bytes, i: int) -> np.ndarray:
    a = gltf["accessors"][i]
    v = gltf["bufferViews"][a["bufferView"]]
    n = COMPONENTS[a["type"]]
    start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    arr = np.frombuffer(binary, dtype=DTYPES[a["componentType"]],
                        count=a["count"] * n, offset=start)
    return arr.reshape(a["count"], n) if n > 1 else arr


def check(gltf: dict, binary: bytes) -> None:
    """Assert the rules of glTF 2.0 that a writer can get wrong."""
    assert gltf["asset"]["version"] == "2.0"
    for b in gltf.get("buffers", []):
        assert b["byteLength"] <= len(binary)
    for v in gltf.get("bufferViews", []):
        assert v["buffer"] == 0
        assert v.get("byteOffset", 0) + v["byteLength"] <= gltf["buffers"][0]["byteLength"]
    for a in gltf.get("accessors", []):
        v = gltf["bufferViews"][a["bufferView"]]
        size = SIZES[a["componentType"]] * COMPONENTS[a["type"]]
        off = a.get("byteOffset", 0)
        assert off % SIZES[a["componentType"]] == 0
        assert (v.get("byteOffset", 0) + off) % SIZES[a["componentType"]] == 0
        assert off + a["count"] * size <= v["byteLength"]
        assert a["count"] >= 1
    n_mat = len(gltf.get("materials", []))
    for m in gltf.get("meshes", []):
        for p in m["primitives"]:
            attrs = p["attributes"]
            count = gltf["accessors"][attrs["POSITION"]]["count"]
            for name, acc in attrs.items():
                assert gltf["accessors"][acc]["count"] == count, name
            pa = gltf["accessors"][attrs["POSITION"]]
            assert pa["type"] == "VEC3" and pa["componentType"] == 5126
            pos = accessor_array(gltf, binary, attrs["POSITION"])
            assert pa["min"] == pos.min(axis=0).tolist()
            assert pa["max"] == pos.max(axis=0).tolist()
            idx = accessor_array(gltf, binary, p["indices"])
            assert idx.size % 3 == 0 and int(idx.max()) < count
            assert p.get("mode", 4) == 4
            assert 0 <= p["material"] < n_mat
            v = gltf["bufferViews"][gltf["accessors"][p["indices"]]["bufferView"]]
            assert v.get("target", 34963) == 34963
    for node in gltf.get("nodes", []):
        for c in node.get("children", []):
            assert 0 <= c < len(gltf["nodes"])
        if "mesh" in node:
            assert 0 <= node["mesh"] < len(gltf["meshes"])
    for t in gltf.get("textures", []):
        assert 0 <= t["source"] < len(gltf["images"])
        assert 0 <= t["sampler"] < len(gltf["samplers"])
    for m in gltf.get("materials", []):
        assert m.get("alphaMode", "OPAQUE") in ("OPAQUE", "MASK", "BLEND")
        tex = m["pbrMetallicRoughness"].get("baseColorTexture")
        if tex is not None:
            assert 0 <= tex["index"] < len(gltf["textures"])
    for e in gltf.get("extensionsRequired", []):
        assert e in gltf.get("extensionsUsed", [])
    for node in gltf.get("nodes", []):
        assert "matrix" not in node or not ({"translation", "rotation", "scale"} & set(node))
        if "rotation" in node:
            assert abs(np.linalg.norm(node["rotation"]) - 1) < 1e-5
        inst = node.get("extensions", {}).get("EXT_mesh_gpu_instancing")
        if inst is None:
            continue
        # the extension's rules: a node with a mesh; attributes of one count,
        # TRANSLATION/SCALE VEC3 and ROTATION VEC4 floats (unit quaternions)
        assert "EXT_mesh_gpu_instancing" in gltf.get("extensionsUsed", [])
        assert "mesh" in node
        attrs = inst["attributes"]
        counts = {gltf["accessors"][a]["count"] for a in attrs.values()}
        assert len(counts) == 1
        for name, kind in (("TRANSLATION", "VEC3"), ("ROTATION", "VEC4"), ("SCALE", "VEC3")):
            if name in attrs:
                a = gltf["accessors"][attrs[name]]
                assert a["type"] == kind and a["componentType"] == 5126
        if "ROTATION" in attrs:
            q = accessor_array(gltf, binary, attrs["ROTATION"])
            assert np.abs(np.linalg.norm(q, axis=1) - 1).max() < 1e-5


def triangles(gltf: dict, binary: bytes, root: str) -> np.ndarray:
    """(n,3,3) positions of every triangle under a root node, in file order."""
    names = {n.get("name"): n for n in gltf["nodes"]}
    out = []
    for c in names[root]["children"]:
        mesh = gltf["meshes"][gltf["nodes"][c]["mesh"]]
        for p in mesh["primitives"]:
            pos = accessor_array(gltf, binary, p["attributes"]["POSITION"])
            idx = accessor_array(gltf, binary, p["indices"]).reshape(-1, 3)
            out.append(pos[idx])
    return np.concatenate(out) if out else np.zeros((0, 3, 3), np.float32)


def trs_matrix(t, q, s) -> np.ndarray:
    """4x4 (column vectors) of a glTF translation, rotation (x, y, z, w),
    scale: T * R * S."""
    x, y, z, w = (float(v) for v in q)
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4)
    m[:3, :3] = r * np.asarray(s, np.float64)
    m[:3, 3] = t
    return m


def placements(gltf: dict, binary: bytes, root: str) -> list[tuple[int | None, np.ndarray]]:
    """(mesh index or None, 4x4 matrix) of every instance under a root node:
    its child nodes (TRS, with or without a mesh) and each instance of a
    child carrying EXT_mesh_gpu_instancing, in file order."""
    names = {n.get("name"): n for n in gltf["nodes"]}
    out = []
    for c in names[root]["children"]:
        node = gltf["nodes"][c]
        inst = node.get("extensions", {}).get("EXT_mesh_gpu_instancing")
        base = trs_matrix(node.get("translation", (0, 0, 0)), node.get("rotation", (0, 0, 0, 1)),
                          node.get("scale", (1, 1, 1)))
        if inst is None:
            out.append((node.get("mesh"), base))
            continue
        a = inst["attributes"]
        n = gltf["accessors"][next(iter(a.values()))]["count"]
        t = accessor_array(gltf, binary, a["TRANSLATION"]) if "TRANSLATION" in a else np.zeros((n, 3))
        q = accessor_array(gltf, binary, a["ROTATION"]) if "ROTATION" in a else np.tile([0, 0, 0, 1.0], (n, 1))
        s = accessor_array(gltf, binary, a["SCALE"]) if "SCALE" in a else np.ones((n, 3))
        for k in range(n):
            out.append((node["mesh"], base @ trs_matrix(t[k], q[k], s[k])))
    return out
