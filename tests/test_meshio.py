"""Reading meshes for import-mesh: OBJ and glTF written by hand here (not by
our exporter), with node transforms, strides, polygons and bad input."""
import json
import struct

import numpy as np
import pytest

from wadkit.meshio import MeshError, read_mesh


def _gltf(tmp_path, nodes, positions, indices, *, stride=None, extra=None):
    pos = np.asarray(positions, np.float32)
    idx = np.asarray(indices, np.uint16)
    if stride:   # interleave 4 padding bytes after each position
        raw = b"".join(p.tobytes() + b"\xee" * (stride - 12) for p in pos)
    else:
        raw = pos.tobytes()
    ib = idx.tobytes() + b"\0" * (-idx.nbytes % 4)
    buf = raw + ib
    view0 = {"buffer": 0, "byteOffset": 0, "byteLength": len(raw)}
    if stride:
        view0["byteStride"] = stride
    g = {"asset": {"version": "2.0"}, "scene": 0,
         "scenes": [{"nodes": [0]}], "nodes": nodes,
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0},
                                     "indices": 1, "material": 0}]}],
         "materials": [{"name": "page02_b0"}],
         "buffers": [{"byteLength": len(buf)}],
         "bufferViews": [view0, {"buffer": 0, "byteOffset": len(raw),
                                 "byteLength": idx.nbytes}],
         "accessors": [{"bufferView": 0, "componentType": 5126,
                        "count": len(pos), "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5123,
                        "count": idx.size, "type": "SCALAR"}]}
    if extra:
        g.update(extra)
    js = json.dumps(g).encode()
    js += b" " * (-len(js) % 4)
    body = struct.pack("<II", len(js), 0x4E4F534A) + js + \
        struct.pack("<II", len(buf), 0x004E4942) + buf
    path = tmp_path / "m.glb"
    path.write_bytes(struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body)
    return path


TRI = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]


def test_gltf_node_translation_and_parent_scale(tmp_path):
    nodes = [{"children": [1], "scale": [2, 2, 2]},
             {"mesh": 0, "translation": [1, 0, 5]}]
    m = read_mesh(_gltf(tmp_path, nodes, TRI, [0, 1, 2]))
    # child first: (p + t), then the parent's scale
    np.testing.assert_allclose(m["positions"], [[2, 0, 10], [4, 0, 10], [2, 2, 10]])
    assert m["triangles"].tolist() == [[0, 1, 2]]
    assert m["material_names"] == ["page02_b0"] and m["material"].tolist() == [0]
    assert m["uv"] is None and m["color"] is None


def test_gltf_rotation_quaternion(tmp_path):
    s = np.sqrt(0.5)   # 90° about y: x → -z
    m = read_mesh(_gltf(tmp_path, [{"mesh": 0, "rotation": [0, s, 0, s]}],
                        TRI, [0, 1, 2]))
    np.testing.assert_allclose(m["positions"][1], [0, 0, -1], atol=1e-6)


def test_gltf_mirror_matrix_flips_winding(tmp_path):
    mirror = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    m = read_mesh(_gltf(tmp_path, [{"mesh": 0, "matrix": mirror}], TRI, [0, 1, 2]))
    assert m["triangles"].tolist() == [[0, 2, 1]]
    np.testing.assert_allclose(m["positions"][1], [-1, 0, 0])


def test_gltf_byte_stride(tmp_path):
    m = read_mesh(_gltf(tmp_path, [{"mesh": 0}], TRI, [2, 1, 0], stride=16))
    np.testing.assert_allclose(m["positions"], TRI)
    assert m["triangles"].tolist() == [[2, 1, 0]]


def test_gltf_bad_index_and_short_buffer(tmp_path):
    with pytest.raises(MeshError, match="index is past"):
        read_mesh(_gltf(tmp_path, [{"mesh": 0}], TRI, [0, 1, 3]))
    p = _gltf(tmp_path, [{"mesh": 0}], TRI, [0, 1, 2],
              extra={"accessors": [{"bufferView": 0, "componentType": 5126,
                                    "count": 9, "type": "VEC3"},
                                   {"bufferView": 1, "componentType": 5123,
                                    "count": 3, "type": "SCALAR"}]})
    with pytest.raises(MeshError, match="runs past"):
        read_mesh(p)


def test_glb_wrong_version(tmp_path):
    p = tmp_path / "v1.glb"
    p.write_bytes(struct.pack("<IIIII", 0x46546C67, 1, 20, 0, 0x4E4F534A))
    with pytest.raises(MeshError, match="not a glTF 2.0"):
        read_mesh(p)


def test_obj_polygons_colours_negative_indices(tmp_path):
    p = tmp_path / "q.obj"
    p.write_text("v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 1 0 1 0 0 1\nv 0 0 1 1 1 1\n"
                 "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
                 "usemtl a\nf 1/1 2/2 3/3 4/4\nusemtl b\nf -4/-4 -2/-2 -1/-1\n")
    m = read_mesh(p)
    assert m["triangles"].tolist() == [[0, 1, 2], [0, 2, 3], [0, 2, 3]]
    assert m["material_names"] == ["a", "b"]
    assert m["material"].tolist() == [0, 0, 1]
    np.testing.assert_allclose(m["uv"][0], [[0, 1], [1, 1], [1, 0]])   # V flipped
    np.testing.assert_allclose(m["color"][0, 1], [0, 1, 0, 1])


def test_obj_errors(tmp_path):
    p = tmp_path / "bad.obj"
    p.write_text("v 0 0 0\nf 1 2 3\n")
    with pytest.raises(MeshError, match="vertex that does not exist"):
        read_mesh(p)
    p.write_text("v 0 0 zero\n")
    with pytest.raises(MeshError, match="bad number"):
        read_mesh(p)
    with pytest.raises(MeshError, match="unknown mesh format"):
        read_mesh(tmp_path / "x.fbx")


def test_layers_of_our_exports_chosen_by_name(tmp_path):
    import fake_levels as F
    from wadkit import export
    sc = export.eng_scene(F.FakeEngLevel(), collision=True)
    for ext in ("glb", "obj"):
        export.write(sc, tmp_path / f"l.{ext}")
        p = tmp_path / f"l.{ext}"
        assert len(read_mesh(p)["triangles"]) == 10
        assert len(read_mesh(p, exclude=("collision", "objects"))["triangles"]) == 4
        coll = read_mesh(p, only="collision")
        assert len(coll["triangles"]) == 6
        assert sorted(set(coll["material_names"][i] for i in coll["material"])) == \
            ["coll_00", "coll_1e"]
        # a file without that layer: everything
        assert len(read_mesh(p, only="terrain")["triangles"]) == 10
