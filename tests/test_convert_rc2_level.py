"""`wadkit convert` of a whole RC2 level (tests/builders/rc2_world.py):
terrain, ties / shrubs / mobys as instanced class meshes (EXT_mesh_gpu_instancing
or nodes sharing one mesh), collision and sky trees on request. Checked
against the builders' own facts and the glTF rules (gltf_check.py)."""
import subprocess
import sys

import numpy as np
import pytest

import wadkit
from builders import rc2_world as W
from wadkit import export
from wadkit.export.scene import GPU_INSTANCES, trs

import gltf_check as G

SMALL = W.SMALL
YUP = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]], np.float64)


@pytest.fixture(scope="module")
def level(tmp_path_factory):
    data, facts = W.world(**SMALL)
    p = tmp_path_factory.mktemp("rc2conv") / "LEVEL2.WAD"
    p.write_bytes(data)
    return str(p), facts


def convert(src, out, *flags):
    r = subprocess.run([sys.executable, "-m", "wadkit", "convert", src, "-o", str(out),
                        "-j", "1", *flags], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    gltf, binary = G.read_glb(out.read_bytes())
    G.check(gltf, binary)
    return gltf, binary


def _expected(facts, kind, cid):
    k = facts["classes"][kind].index(cid)
    b = facts["builders"][kind][k]
    return None if b is None else (b.expected(0) if kind == "tie" else b.expected())


@pytest.mark.parametrize("mode", ["auto", "gpu", "nodes"])
def test_instances_are_placed_class_meshes(level, tmp_path, mode):
    path, facts = level
    gltf, binary = convert(path, tmp_path / "l.glb", "--instancing", mode)
    lvl = wadkit.rc2.open(path)
    roots = [gltf["nodes"][i]["name"] for i in gltf["scenes"][0]["nodes"]]
    assert roots == ["terrain", "ties", "shrubs", "mobys"]
    meshes = gltf["meshes"]
    for layer, kind in (("ties", "tie"), ("shrubs", "shrub"), ("mobys", "moby")):
        inst = getattr(lvl, layer)
        n = len(inst)
        gpu = mode == "gpu" or (mode == "auto" and n > GPU_INSTANCES)
        root = next(x for x in gltf["nodes"] if x["name"] == layer)
        kids = [gltf["nodes"][c] for c in root["children"]]
        with_ext = [k for k in kids if "extensions" in k]
        assert bool(with_ext) == (gpu and any(
            facts["builders"][kind][facts["classes"][kind].index(int(c))] is not None
            for c in inst.class_id))
        got = G.placements(gltf, binary, layer)
        assert len(got) == n
        # each class mesh once; its triangles are the builder's (y up)
        mesh_of = {}
        for mi, _ in got:
            if mi is not None:
                cid = int(meshes[mi]["name"].split("_")[1])
                mesh_of[mi] = cid
        assert len(set(mesh_of.values())) == len(mesh_of)
        for mi, cid in mesh_of.items():
            exp = _expected(facts, kind, cid)
            tri = []
            for p in meshes[mi]["primitives"]:
                pos = G.accessor_array(gltf, binary, p["attributes"]["POSITION"])
                tri.append(pos[G.accessor_array(gltf, binary, p["indices"]).reshape(-1, 3)])
            tri = np.concatenate(tri)
            e = np.asarray(exp["positions"])[np.asarray(exp["triangles"])]
            e = np.stack([e[..., 0], e[..., 2], -e[..., 1]], axis=-1)
            assert len(tri) == len(e)
            # primitives are grouped by material: compare as sets of triangles
            key = lambda a: np.round(a.reshape(len(a), -1), 4).tolist()
            assert sorted(key(tri)) == sorted(key(e))
        # placements: every instance of a class, its matrix rotated to y up
        want = YUP @ np.asarray(inst.matrix, np.float64) @ YUP.T
        by_class = {}
        for mi, m in got:
            by_class.setdefault(mesh_of.get(mi), []).append(m)
        for cid in set(inst.class_id.tolist()):
            rows = np.flatnonzero(inst.class_id == cid)
            has = _expected(facts, kind, cid) is not None
            mats = by_class.get(cid if has else None, [])
            if has:
                np.testing.assert_allclose(np.array(mats), want[rows], atol=2e-4)
        empties = sum(1 for c in inst.class_id.tolist() if _expected(facts, kind, c) is None)
        assert len(by_class.get(None, [])) == empties
        if not gpu:
            names = sorted(k["name"] for k in kids)
            assert names == sorted(f"{kind}_{i}_c{c}" for i, c in enumerate(inst.class_id.tolist()))


def test_collision_and_sky_trees(level, tmp_path):
    path, facts = level
    gltf, binary = convert(path, tmp_path / "c.glb", "--collision", "--sky")
    lvl = wadkit.rc2.open(path)
    roots = [gltf["nodes"][i]["name"] for i in gltf["scenes"][0]["nodes"]]
    assert roots == ["terrain", "collision", "sky", "ties", "shrubs", "mobys"]
    c = lvl.collision()
    tri = G.triangles(gltf, binary, "collision")
    assert len(tri) == len(c["triangles"]) == 2 * facts["collision_faces"]
    mats = {m["name"] for m in gltf["materials"] if m["name"].startswith("coll_")}
    assert mats == {f"coll_{wadkit._rc2_scene.tag_name(t).replace(' ', '_')}"
                    for t in set(c["tag"].tolist())}
    sky = G.triangles(gltf, binary, "sky")
    assert len(sky) == sum(len(s["triangles"]) for s in lvl.sky()["shells"])
    # the sky is around the level: farther from the terrain's centre than any
    # terrain vertex
    ter = G.triangles(gltf, binary, "terrain").reshape(-1, 3)
    centre = (ter.min(0) + ter.max(0)) / 2
    assert np.linalg.norm(sky.reshape(-1, 3) - centre, axis=1).max() > \
        np.linalg.norm(ter - centre, axis=1).max()
    # without the flags neither tree
    gltf, _ = convert(path, tmp_path / "n.glb")
    assert not {"collision", "sky"} & {n["name"] for n in gltf["nodes"]}


def test_obj_flattens_every_instance(level, tmp_path):
    path, _ = level
    lvl = wadkit.rc2.open(path)
    scene = export.rc2_scene(lvl)
    out = tmp_path / "l.obj"
    export.write_obj(scene, out)
    faces = sum(1 for line in open(out) if line.startswith("f "))
    assert faces == scene.triangle_count == export.summary(scene)["triangles"]
    objects = [line for line in open(out) if line.startswith("o ties/")]
    assert len(objects) == len(lvl.ties)


def test_a_broken_class_is_a_note_and_empty_nodes(tmp_path):
    data, facts = W.world(**SMALL, edit_classes=lambda b: setattr(b["tie"][0], "q", 7))
    src = tmp_path / "LEVEL6.WAD"
    src.write_bytes(data)
    r = subprocess.run([sys.executable, "-m", "wadkit", "convert", str(src), "-o",
                        str(tmp_path / "b.glb"), "-j", "1", "--instancing", "nodes"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    bad = facts["classes"]["tie"][0]
    assert f"tie {bad}: mesh not decoded" in r.stderr
    gltf, binary = G.read_glb((tmp_path / "b.glb").read_bytes())
    lvl = wadkit.rc2.open(str(src))
    n_bad = int((lvl.ties.class_id == bad).sum())
    empties = [n for n in gltf["nodes"] if n["name"].endswith(f"_c{bad}")]
    assert len(empties) == n_bad and not any("mesh" in n for n in empties)


def test_trs_and_non_trs_matrices():
    rng = np.random.default_rng(3)
    m = np.tile(np.eye(4), (50, 1, 1))
    for i in range(50):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        s = rng.uniform(0.3, 3, 3) * rng.choice([-1, 1], 3)
        m[i] = G.trs_matrix(rng.normal(size=3) * 100, q, s)
    t, q, s, ok = trs(m)
    assert ok.all()
    back = np.array([G.trs_matrix(*a) for a in zip(t, q, s)])
    np.testing.assert_allclose(back, m, atol=1e-4)
    shear = np.eye(4)
    shear[0, 1] = 0.4
    projective = np.eye(4)
    projective[3, 0] = 0.1
    assert trs(np.stack([shear, projective, np.diag([1, 0, 1, 1.0])]))[3].tolist() == \
        [False, False, False]


def test_a_sheared_instance_is_baked(tmp_path):
    """glTF nodes must be TRS: a sheared instance gets a mesh of its own
    holding the class mesh transformed, the others share theirs."""
    from wadkit.export.scene import Instanced, Scene
    tri = {"positions": np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32),
           "triangles": np.array([[0, 1, 2]]), "material": np.array([0])}
    shear = np.eye(4)
    shear[0, 1] = 0.5
    m = np.stack([np.eye(4), shear, np.eye(4)])
    m[2, :3, 3] = (5, 0, 0)
    sc = Scene(instanced=[Instanced("ties", [("tie_1", tri)], np.zeros(3, np.int64), m,
                                    ["a", "b", "c"], "nodes")],
               materials=[export.Material("m")])
    gltf, binary = G.read_glb(export.glb_bytes(sc))
    G.check(gltf, binary)
    got = {gltf["nodes"][c]["name"]: gltf["nodes"][c] for c in gltf["nodes"][-1]["children"]}
    assert got["a"]["mesh"] == got["c"]["mesh"] != got["b"]["mesh"]
    p = G.accessor_array(gltf, binary, gltf["meshes"][got["b"]["mesh"]]["primitives"][0][
        "attributes"]["POSITION"])
    np.testing.assert_allclose(sorted(p.tolist()), sorted([[0, 0, 0], [1, 0, 0], [0.5, 1, 0]]))
