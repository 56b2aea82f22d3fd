"""Exporters (glTF 2.0, OBJ, PNG) on hand-made scenes and fake levels with
the documented reader API; results checked against hand-derived values."""
import json

import numpy as np
import pygltflib
import pytest

from wadkit import export as E
from wadkit.export.levels import eng_collision_mesh, tile_transform
from wadkit.export.mesh import index_corners

import fake_levels as F
import gltf_check as G


def _canon(tris):
    """Triangles (n,3,3) in a canonical order, for order-free comparison."""
    flat = np.asarray(tris, dtype=np.float64).reshape(len(tris), -1)
    return flat[np.lexsort(flat.T[::-1])]


def _scene():
    return E.eng_scene(F.FakeEngLevel())


# ---------------------------------------------------------------- corners


def test_corners_merge_only_identical_vertices():
    ix = index_corners({**F.world_mesh(), "group": F.world_mesh()["tile"],
                        "material": np.zeros(4, int)})
    # tile 3: 6 corners; tri 0 corner 1 has its own colour → vertex 2 splits;
    # vertices 0 (same uv, colour) are shared, 3 once: 0, 2(red), 1, 3, 2 = 5
    # tile 8: tri 2 corners all distinct uv from tri 3's → 3 + 3 = 6
    assert [g.id for g in ix.groups] == [3, 8]
    assert [g.count for g in ix.groups] == [5, 6]
    assert len(ix.positions) == 11
    assert ix.triangle_count == 4


def test_corners_reproduce_every_corner():
    mesh = F.world_mesh()
    ix = index_corners({**mesh, "group": mesh["tile"],
                        "material": mesh["texture"]})
    got_pos, got_uv, got_col = [], [], []
    for g in ix.groups:
        for p in g.parts:
            v = p.indices.astype(int) + g.start
            got_pos.append(ix.positions[v])
            got_uv.append(ix.uv[v])
            got_col.append(ix.color[v])
    # order: group then material, stable → same as input here
    np.testing.assert_array_equal(np.concatenate(got_pos),
                                  mesh["positions"][mesh["triangles"]])
    np.testing.assert_array_equal(np.concatenate(got_uv), mesh["uv"])
    np.testing.assert_array_equal(np.concatenate(got_col), mesh["color"])


def test_corners_sort_by_group_and_material():
    pos = np.eye(3, dtype=np.float32)
    ix = index_corners({"positions": pos,
                        "triangles": np.array([[0, 1, 2]] * 4),
                        "group": np.array([2, 1, 2, 1]),
                        "material": np.array([1, 0, 0, 1])})
    assert [(g.id, [p.material for p in g.parts]) for g in ix.groups] == \
        [(1, [0, 1]), (2, [0, 1])]
    assert [g.count for g in ix.groups] == [3, 3]


def test_corners_reject_bad_indices():
    with pytest.raises(ValueError, match="outside"):
        index_corners({"positions": np.zeros((2, 3)),
                       "triangles": np.array([[0, 1, 2]])})


# ---------------------------------------------------------------- materials


def test_eng_materials_alpha_flat_and_double_sided():
    sc = _scene()
    by_name = {m.name: m for m in sc.materials}
    assert set(by_name) == {"page00_b0", "page01_b2_2s", "flat_ff0033_b0"}
    assert by_name["page00_b0"].alpha == "MASK"
    assert by_name["page00_b0"].image == 0
    assert by_name["page01_b2_2s"].alpha == "BLEND"
    assert by_name["page01_b2_2s"].color[3] == 0.5      # texels are opaque
    assert by_name["page00_b0"].color[3] == 1.0
    assert by_name["page01_b2_2s"].double_sided
    flat = by_name["flat_ff0033_b0"]
    assert flat.image is None and flat.color == (1.0, 0.0, 0.2, 1.0)


def test_eng_materials_blend_from_flags_and_bad_texture_index():
    entries = [{"page": 0, "flags": 0x3000}]   # no blend field: bits 12-14
    mats, per = E.levels.eng_materials(entries, 1, np.array([0, 7, -1]),
                                       np.zeros(3, np.uint16))
    assert [m.alpha for m in mats] == ["BLEND", "MASK"]
    assert [m.name for m in mats] == ["page00_b3", "untextured"]
    assert per.tolist() == [0, 1, 1]


# ---------------------------------------------------------------- glTF


def test_glb_container_and_structure():
    sc = _scene()
    data = E.glb_bytes(sc)
    gltf, binary = G.read_glb(data)
    G.check(gltf, binary)
    assert len(binary) == gltf["buffers"][0]["byteLength"]
    # JSON chunk: header 12 + chunk header 8 + JSON, BIN: 8 + bytes
    jlen = int.from_bytes(data[12:16], "little")
    assert len(data) == 12 + 8 + jlen + 8 + len(binary)
    names = [n["name"] for n in gltf["nodes"]]
    assert names == ["tile_3", "tile_8", "world"]
    assert gltf["scenes"][0]["nodes"] == [2]


def test_glb_counts_and_bounds():
    gltf, binary = G.read_glb(E.glb_bytes(_scene()))
    tris = G.triangles(gltf, binary, "world")
    assert len(tris) == 4
    mesh = F.world_mesh()
    expected = mesh["positions"][mesh["triangles"]]
    np.testing.assert_array_equal(_canon(tris), _canon(expected))
    acc = gltf["accessors"]
    tile3 = gltf["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
    assert acc[tile3]["min"] == [10, 0, 20] and acc[tile3]["max"] == [11, 0, 21]
    tile8 = gltf["meshes"][1]["primitives"][0]["attributes"]["POSITION"]
    assert acc[tile8]["min"] == [5, 2, 5] and acc[tile8]["max"] == [6, 3, 7]


def test_glb_materials_and_embedded_png():
    gltf, binary = G.read_glb(E.glb_bytes(_scene()))
    mats = {m["name"]: m for m in gltf["materials"]}
    assert mats["page00_b0"]["alphaMode"] == "MASK"
    assert mats["page00_b0"]["alphaCutoff"] == 0.5
    assert mats["page01_b2_2s"]["alphaMode"] == "BLEND"
    assert mats["page01_b2_2s"]["pbrMetallicRoughness"]["baseColorFactor"][3] == 0.5
    assert mats["page01_b2_2s"]["doubleSided"] is True
    assert mats["flat_ff0033_b0"]["pbrMetallicRoughness"]["baseColorFactor"] == \
        [1.0, 0.0, 0.2, 1.0]
    assert "baseColorTexture" not in mats["flat_ff0033_b0"]["pbrMetallicRoughness"]
    pages = [F.PAGE0, F.PAGE1]
    assert len(gltf["images"]) == 2
    for img in gltf["images"]:
        v = gltf["bufferViews"][img["bufferView"]]
        png = binary[v["byteOffset"]:v["byteOffset"] + v["byteLength"]]
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        page = pages[int(img["name"][4:])]
        np.testing.assert_array_equal(E.read_png(png), page)
    tex = mats["page01_b2_2s"]["pbrMetallicRoughness"]["baseColorTexture"]
    assert gltf["images"][gltf["textures"][tex["index"]]["source"]]["name"] == "page01"


def test_glb_uv_and_colour_attributes():
    gltf, binary = G.read_glb(E.glb_bytes(_scene()))
    p = gltf["meshes"][0]["primitives"][0]
    idx = G.accessor_array(gltf, binary, p["indices"]).reshape(-1, 3)
    uv = G.accessor_array(gltf, binary, p["attributes"]["TEXCOORD_0"])
    col = G.accessor_array(gltf, binary, p["attributes"]["COLOR_0"])
    np.testing.assert_array_equal(uv[idx], F.world_mesh()["uv"][:2])
    np.testing.assert_array_equal(col[idx][0, 1], [0.5, 0.25, 1.0, 1.0])


def test_glb_loads_in_pygltflib(tmp_path):
    path = tmp_path / "lvl.glb"
    E.write_glb(_scene(), path)
    g = pygltflib.GLTF2().load(str(path))
    assert len(g.meshes) == 2 and len(g.materials) == 3
    assert g.asset.version == "2.0"
    blob = g.binary_blob()
    assert len(blob) >= g.buffers[0].byteLength


def test_gltf_and_bin_same_content_as_glb(tmp_path):
    sc = _scene()
    E.write_gltf(sc, tmp_path / "lvl.gltf")
    gltf = json.loads((tmp_path / "lvl.gltf").read_text())
    binary = (tmp_path / "lvl.bin").read_bytes()
    assert gltf["buffers"][0]["uri"] == "lvl.bin"
    assert gltf["buffers"][0]["byteLength"] == len(binary)
    G.check(gltf, binary)
    g2, b2 = G.read_glb(E.glb_bytes(sc))
    del gltf["buffers"][0]["uri"]
    assert gltf == g2 and binary == b2
    g = pygltflib.GLTF2().load(str(tmp_path / "lvl.gltf"))
    assert len(g.nodes) == 3


def test_collision_layer_nodes_and_transform():
    sc = E.eng_scene(F.FakeEngLevel(), collision=True)
    gltf, binary = G.read_glb(E.glb_bytes(sc))
    G.check(gltf, binary)
    roots = [gltf["nodes"][i]["name"] for i in gltf["scenes"][0]["nodes"]]
    assert roots == ["world", "collision"]
    tris = G.triangles(gltf, binary, "collision")
    # model 0: a quad (2 triangles) + a triangle, placed by tiles 0 and 1;
    # model 1 has no collision
    assert len(tris) == 6
    # tile 0, rotation 0: quad at y 0.5 over x 10..11, z 20..21
    np.testing.assert_allclose(tris[0], [[10, .5, 20], [11, .5, 20], [11, .5, 21]])
    coll_names = {m["name"] for m in gltf["materials"]} & {"coll_00", "coll_1e"}
    assert coll_names == {"coll_00", "coll_1e"}


def test_tile_transform_rotations():
    # local (1, 0, 0) and (0, 0, 1) under 0/1024/2048/3072, by hand from the
    # spec's export-space formula with z negated (file space)
    v = np.array([[1, 0, 0], [0, 0, 1]], np.float32)
    expect = {0: [[1, 0, 0], [0, 0, 1]], 1024: [[0, 0, -1], [1, 0, 0]],
              2048: [[-1, 0, 0], [0, 0, -1]], 3072: [[0, 0, 1], [-1, 0, 0]]}
    for rot, e in expect.items():
        np.testing.assert_allclose(tile_transform(v, (0, 0, 0), rot), e, atol=1e-6)
    np.testing.assert_allclose(tile_transform(v, (5, 1, 7), 1024),
                               [[5, 1, 6], [6, 1, 7]], atol=1e-6)


def test_record_forms_of_textures_tiles_and_collision():
    # the same level with per-entry / per-tile / per-polygon records
    from types import SimpleNamespace as NS
    lvl = F.FakeEngLevel()
    t = F.TEXTURES
    lvl.textures = [NS(page=int(t["page"][i]), flags=int(t["flags"][i]),
                       blend=int(t["blend"][i]),
                       flat=tuple(t["color"][i]) if t["flat"][i] else None)
                    for i in range(3)]
    tl = lvl.tiles
    lvl.tiles = [NS(model=int(tl.model[i]), position=tl.position[i],
                    rotation=int(tl.rotation[i])) for i in range(3)]
    c = lvl.models[0].collision
    lvl.models[0] = NS(collision=[NS(corners=c["corners"][0], type=1, material=0),
                                  NS(corners=c["corners"][1][:3], type=0,
                                     material=0x1E)])
    lvl.models[1] = NS(collision=[])
    a = E.glb_bytes(E.eng_scene(lvl, collision=True))
    b = E.glb_bytes(E.eng_scene(F.FakeEngLevel(), collision=True))
    assert a == b


def test_collision_quads_split_and_grouped_by_tile():
    c = eng_collision_mesh(F.FakeEngLevel())
    assert c["group"].tolist() == [0, 0, 0, 1, 1, 1]
    assert c["material"].tolist() == [0, 0x1E, 0, 0, 0x1E, 0]


def test_objects_layer_side_by_side():
    sc = E.eng_scene(F.FakeEngLevel(), objects=True)
    obj = sc.layer("objects")
    assert obj is not None and len(obj.mesh["triangles"]) == 1
    assert "uv" not in obj.mesh          # the fake objects have no face data
    # placed 2 units past the world's max x (11)
    assert obj.mesh["positions"][:, 0].min() == 13.0


def test_rc2_terrain_rotated_to_y_up():
    sc = E.rc2_scene(F.FakeRc2Level())
    layer = sc.layer("terrain")
    p = layer.mesh["positions"]
    # (x, y, z) z-up → (x, z, -y): the z-up point (0,1,0) lies at -z, (0,0,5) at y 5
    np.testing.assert_array_equal(p, [[0, 0, 0], [1, 0, 0], [0, 0, -1], [0, 5, 0]])
    # a rotation: triangle normals turn with it, (0,0,1) → (0,1,0)
    a, b, c = p[[0, 1, 2]]
    np.testing.assert_allclose(np.cross(b - a, c - a), [0, 1, 0])
    assert [m.name for m in sc.materials] == ["untextured", "tfrag000"]
    gltf, binary = G.read_glb(E.glb_bytes(sc))
    G.check(gltf, binary)
    assert [n["name"] for n in gltf["nodes"]] == ["patch_4", "patch_9", "terrain"]


def test_summary_for_reimport_checks():
    s = E.summary(E.eng_scene(F.FakeEngLevel(), collision=True))
    assert s["triangles"] == 10
    assert s["layers"]["world"] == {"triangles": 4, "min": [5, 0, 5],
                                    "max": [11, 3, 21], "groups": 2}
    # tile 1 at (2.5, 1, 3.5), rot 1024: X = 2.5 + vz, Z = 3.5 - vx; the
    # triangle's corner (1,1,0) lands at z 2.5, the quad spans x 2..3
    assert s["min"] == [2.0, 0.0, 2.5]


# ---------------------------------------------------------------- OBJ


def _parse_obj(text):
    v, vt, faces, objects, mats = [], [], [], [], []
    for line in text.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "v":
            v.append([float(x) for x in w[1:]])
        elif w[0] == "vt":
            vt.append([float(x) for x in w[1:]])
        elif w[0] == "f":
            faces.append([[int(i) for i in c.split("/")] for c in w[1:]])
        elif w[0] == "o":
            objects.append(w[1])
        elif w[0] == "usemtl":
            mats.append(w[1])
    return np.array(v), np.array(vt), faces, objects, mats


def test_obj_mtl_and_pngs(tmp_path):
    E.write_obj(E.eng_scene(F.FakeEngLevel(), collision=True), tmp_path / "l.obj")
    v, vt, faces, objects, mats = _parse_obj((tmp_path / "l.obj").read_text())
    assert objects == ["tile_3", "tile_8", "collision/coll_tile_0",
                       "collision/coll_tile_1"]
    assert len(faces) == 10 and v.shape[1] == 6
    mesh = F.world_mesh()
    # corners as (x y z r g b u v), compared with the input order-free
    got = np.array([[np.concatenate([v[c[0] - 1], vt[c[1] - 1]]) for c in f]
                    for f in faces[:4]])
    want = np.concatenate([mesh["positions"][mesh["triangles"]],
                           mesh["color"][..., :3], mesh["uv"][..., :1],
                           1 - mesh["uv"][..., 1:]], axis=2)   # V flipped
    np.testing.assert_allclose(_canon(got), _canon(want), atol=1e-4)
    assert all(len(c) == 1 for f in faces[4:] for c in f)   # collision: no vt
    assert int(max(c[0] for f in faces for c in f)) == len(v)
    mtl = (tmp_path / "l.mtl").read_text()
    assert "map_Kd l_page_00.png" in mtl and "newmtl coll_1e" in mtl
    np.testing.assert_array_equal(E.read_png(tmp_path / "l_page_01.png"), F.PAGE1)


def test_write_textures(tmp_path):
    paths = E.write_textures(F.FakeEngLevel(), tmp_path / "tex")
    assert [p.rsplit("/", 1)[1] for p in paths] == ["page_00.png", "page_01.png"]
    np.testing.assert_array_equal(E.read_png(paths[0]), F.PAGE0)
    paths = E.write_textures(F.FakeRc2Level(), tmp_path / "rc2")
    assert paths[0].endswith("tfrag_000.png")


def test_png_rejects_non_rgba():
    with pytest.raises(ValueError, match="RGBA"):
        E.png_bytes(np.zeros((4, 4, 3), np.uint8))


def test_write_unknown_format(tmp_path):
    with pytest.raises(ValueError, match="unknown export format"):
        E.write(_scene(), tmp_path / "x.fbx")


# ---------------------------------------------------------------- reading back

@pytest.mark.parametrize("ext", ["glb", "gltf", "obj"])
def test_export_reads_back_with_meshio(tmp_path, ext):
    from wadkit.meshio import read_mesh
    E.write(_scene(), tmp_path / f"l.{ext}")
    m = read_mesh(tmp_path / f"l.{ext}")
    mesh = F.world_mesh()
    got = m["positions"][m["triangles"]]
    want = mesh["positions"][mesh["triangles"]]
    np.testing.assert_allclose(_canon(np.concatenate([got, m["uv"], m["color"]], 2)),
                               _canon(np.concatenate([want, mesh["uv"], mesh["color"]], 2)),
                               atol=1e-4)
    names = [m["material_names"][i] for i in m["material"]]
    assert sorted(names) == ["flat_ff0033_b0", "page00_b0", "page00_b0", "page01_b2_2s"]


def test_model_uvs_by_the_engine_rules_in_file_order():
    from types import SimpleNamespace as NS
    from wadkit.export.levels import model_uvs
    u1 = 2 / 256
    textures = {"rect": np.array([[0, 0, u1, u1]], np.float32)}
    m = NS(face_texture=np.array([0, 0, 0, 5]),
           face_flags=np.array([0x808, 0x818, 0x000, 0x838]))
    uv = model_uvs(m, textures)
    # stored order: 0x808 (a,V1)(b,V1)(b,V0); 0x818 (b,V0)(a,V0)(a,V1);
    # none (a,V1)(b,V1)(a,V0); a=U1, b=U0 (no mirror). File order (0,2,1).
    np.testing.assert_allclose(uv[0], [[u1, u1], [0, 0], [0, u1]])
    np.testing.assert_allclose(uv[1], [[0, 0], [u1, u1], [u1, 0]])
    np.testing.assert_allclose(uv[2], [[u1, u1], [u1, 0], [0, u1]])
    # texture 5 is past the table: the unit rectangle; 0x20 mirrors U
    # (a=U0, b=U1): 0x838 → (b,V0)(a,V0)(a,V1) = (1,0)(0,0)(0,1) → file order
    np.testing.assert_allclose(uv[3], [[1, 0], [0, 1], [0, 0]])


def test_objects_layer_textured_when_the_api_allows():
    from types import SimpleNamespace as NS
    lvl = F.FakeEngLevel()
    lvl.textures = dict(F.TEXTURES, rect=np.array([[0, 0, .5, .5]] * 3, np.float32))
    lvl.objects = [NS(positions=np.eye(3, dtype=np.float32),
                      triangles=np.array([[0, 1, 2]], np.uint32),
                      face_texture=np.array([1]), face_flags=np.array([0x808]))]
    sc = E.eng_scene(lvl, objects=True)
    obj = sc.layer("objects").mesh
    assert obj["uv"].shape == (1, 3, 2)
    assert sc.materials[obj["material"][0]].name == "page01_b2"
    gltf, binary = G.read_glb(E.glb_bytes(sc))
    G.check(gltf, binary)


def test_blender_expectation_axes():
    s = E.summary(_scene())      # min (5,0,5) max (11,3,21)
    e = E.blender_expectation(s)
    assert e == {"triangles": 4, "min": [5.0, -21.0, 0.0], "max": [11.0, -5.0, 3.0]}
    assert E.blender_expectation(s, "world") == e


def test_collision_faces_the_decoded_surface_normal():
    from wadkit.export.levels import collision_polygons
    nan = np.nan
    coll = {"corners": np.array([[[-.5, 0, -.5], [.5, 0, -.5], [.5, 0, .5], [-.5, 0, .5]],
                                 [[0, 0, 0], [1, 0, 0], [0, 0, 1], [nan, nan, nan]],
                                 [[0, 0, 0], [0, 0, 1], [1, 0, 0], [nan, nan, nan]]],
                                np.float32),
            "n_corners": np.array([4, 3, 3]), "material": np.array([0, 0, 0]),
            "normal": np.array([[0, 1, 0], [0, 1, 0], [0, 1, 0]], np.float32)}
    corners, quad, _ = collision_polygons(coll)
    # right-hand normals of (0,1,2): all up now; the quad reversed to 0,3,2,1,
    # the first triangle to 0,2,1, the third (already up) unchanged
    rh = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    assert (rh[:, 1] > 0).all()
    np.testing.assert_array_equal(corners[0], coll["corners"][0][[0, 3, 2, 1]])
    np.testing.assert_array_equal(corners[2, :3], coll["corners"][2, :3])
    assert quad.tolist() == [True, False, False]


def test_collision_with_non_finite_corners_is_left_out():
    lvl = F.FakeEngLevel()
    c = dict(lvl.models[0].collision)
    c["corners"] = c["corners"].copy()
    c["corners"][1, 1] = np.inf          # the triangle's planes did not meet
    lvl.models[0].collision = c
    mesh = eng_collision_mesh(lvl)
    assert len(mesh["triangles"]) == 4   # the two quads' halves, per tile
    assert (mesh["material"] == 0).all()
    gltf, binary = G.read_glb(E.glb_bytes(E.eng_scene(lvl, collision=True)))
    G.check(gltf, binary)


def test_non_finite_positions_never_reach_json():
    sc = E.Scene(layers=[E.Layer("world", "tile", {
        "positions": np.array([[0, 0, 0], [1, 0, 0], [np.nan, 0, 1]], np.float32),
        "triangles": np.array([[0, 1, 2]]), "material": np.zeros(1, int),
        "group": np.zeros(1, int)})], materials=[E.Material("m")])
    with pytest.raises(ValueError):
        E.glb_bytes(sc)
