"""The RC2 sample's whole level (docs/samples.md): read back by wadkit and
by the spec builders' plain readers (tests/builders), which must agree on
the class tables, instances and matrices, collision faces and tags, sky
shells and settings; and build_level's class and texture tables checked
against the invariants the data declares."""
import struct

import numpy as np
import pytest

import wadkit
import wadkit.rc2 as rc2
from builders import rc2_collision as CB
from builders import rc2_read as RR
from wadkit.samples import _rc2, _rc2_props as props

KINDS = {"moby": (0x18, 0x38, 0x20), "tie": (0x20, 0x40, 0x20), "shrub": (0x28, 0x48, 0x30)}


@pytest.fixture(scope="module")
def sample():
    data = _rc2.build(0)
    return data, rc2.from_bytes(data), RR.level(data)


def _table(data, raw, kind):
    """A class table read with struct from core_index (docs/formats/rc2-gameplay.md,
    "Core class tables"): [(offset, id, slots)]."""
    slot, _, size = KINDS[kind]
    ci = raw["sections"]["core_index"][0]
    count, at = RR.core_field(raw["core"], slot), RR.core_field(raw["core"], slot + 4)
    return count, at, [struct.unpack_from("<2i8x16s", data, ci + at + size * i)
                       for i in range(count)]


def test_class_tables_agree(sample):
    data, lvl, raw = sample
    core = raw["core_data"]
    assert len(core) == RR.core_field(raw["core"], 0x8C)
    ends = []
    for kind, classes in (("tie", props.TIE_CLASSES), ("shrub", props.SHRUB_CLASSES),
                          ("moby", props.MOBY_CLASSES)):
        count, at, entries = _table(data, raw, kind)
        assert count == len(classes) and at % 16 == 0
        assert [e[1] for e in entries] == [c[1] for c in classes]
        table = getattr(lvl, kind + "_classes")
        assert table.ids.tolist() == [e[1] for e in entries]
        offs = [e[0] for e in entries]
        # data after textures_base, at 0x40 boundaries, strictly increasing
        assert offs == sorted(offs) and len(set(offs)) == count
        assert all(o % 0x40 == 0 and o >= RR.core_field(raw["core"], 0x60) for o in offs)
        ends.append(offs[-1])
        for e, cls in zip(entries, table):
            assert cls.offset == e[0] and bytes(cls.data) == core[e[0]:e[0] + cls.size]
            assert list(cls.textures) == list(e[2][:len(cls.textures)])
            assert set(e[2][len(cls.textures):]) <= {0xFF}
    # moby, tie, shrub data in that order (Wrench's packer)
    assert ends[2] < _table(data, raw, "tie")[2][0][0]
    assert ends[0] < ends[1] < len(core)


def test_class_meshes_are_the_sample_meshes(sample):
    _, lvl, _ = sample
    rng = np.random.default_rng(0 + 0x5243)
    _rc2._textures(rng)
    _rc2._height(rng)
    _rc2._class_textures(rng)
    for cls, (_, cid, make, tex) in zip(lvl.tie_classes, props.TIE_CLASSES):
        pos, uv, strips = make(rng)
        for lod in range(3):
            m = cls.mesh(lod)
            want = np.concatenate([pos[i] for i, _ in strips])
            assert np.abs(m["positions"] - want).max() < 2e-4, cid
            assert len(m["triangles"]) == sum(len(i) - 2 for i, _ in strips)
        assert len(cls.textures) == len(tex)
    for cls, (_, cid, make, tex) in zip(lvl.moby_classes, props.MOBY_CLASSES):
        pos, uv, nrm, tri, slot = props.triangles(*make(rng))
        for lod in range(2):
            m = cls.mesh(lod)
            assert np.abs(m["positions"][m["triangles"]] - pos[tri]).max() < 1e-4, cid
            assert m["texture"].tolist() == slot.tolist()
            # normals as stored: two bytes of angle, within 1.5° of the face's
            cos = np.sum(m["normals"][m["triangles"]].reshape(-1, 3) * nrm[tri.ravel()], 1)
            assert cos.min() > np.cos(np.radians(1.5))
    for cls, (_, cid, make, tex) in zip(lvl.shrub_classes, props.SHRUB_CLASSES):
        pos, uv, nrm, tri, slot = props.shrub_arrays(make)
        m = cls.mesh()
        assert len(m["triangles"]) == len(tri) and m["texture"].tolist() == slot.tolist()
        # the triangles come back as given (wound about their normals)
        assert np.abs(m["positions"][m["triangles"]] - pos[tri]).max() < 1e-4, cid


def test_instances_agree_with_the_plain_reader(sample):
    _, lvl, raw = sample
    gp = RR.gameplay(raw["gameplay"])
    assert (len(gp["ties"]), len(gp["shrubs"]), len(gp["mobys"])) == \
        (_rc2.TIES, _rc2.SHRUBS, _rc2.MOBYS) == (len(lvl.ties), len(lvl.shrubs), len(lvl.mobys))
    for kind, recs in (("tie", gp["ties"]), ("shrub", gp["shrubs"])):
        inst = getattr(lvl, kind + "s")
        assert [r["class_id"] for r in recs] == inst.class_id.tolist()
        assert np.array_equal(np.array([r["matrix"] for r in recs], np.float32), inst.matrix)
        assert all(r["matrix_w"] == np.float32(0.01) for r in recs)     # Wrench's value
        first = list(dict.fromkeys(r["class_id"] for r in recs))
        assert gp["class_lists"][kind] == first == lvl.class_lists[kind].tolist()
    pos = np.array([r["position"] for r in gp["mobys"]], np.float32)
    assert np.array_equal(pos, lvl.mobys.position)
    assert np.array_equal(pos, lvl.mobys.matrix[:, :3, 3])
    assert all(r["scale"] == 1.0 and r["size"] == 0x88 for r in gp["mobys"])
    assert set(gp["class_lists"]["moby"]) == set(_rc2.MOBY_CLASSES)
    # every instance stands on the ground (ties sunk by 0.1, mobys 0.5 up)
    h = _rc2._height(_height_rng())
    t = lvl.ties.matrix[:, :3, 3]
    assert np.abs(t[:, 2] + 0.1 - h(t[:, 0], t[:, 1])).max() < 1e-3
    assert (h(t[:, 0], t[:, 1]) > _rc2.WATER).all()


def _height_rng():
    rng = np.random.default_rng(0 + 0x5243)
    _rc2._textures(rng)
    return rng


def test_settings_agree(sample):
    _, lvl, raw = sample
    s = RR.gameplay(raw["gameplay"])["settings"]
    assert s["death_height"] == lvl.settings["death_height"] == -20.0
    assert tuple(s["background_colour"]) == lvl.settings["background_colour"] == (110, 150, 205)
    assert tuple(s["fog_colour"]) == lvl.settings["fog_colour"]
    assert s["fog_near_distance"] < s["fog_far_distance"]
    assert s["chunk_planes"] == [(0.0,) * 3 + (0,) + (0.0,) * 3 + (0,)]


def test_collision_agrees_with_the_plain_reader(sample):
    _, lvl, raw = sample
    core = raw["core_data"]
    start, end = RR.core_field(raw["core"], 0x14), RR.core_field(raw["core"], 0x60)
    octants = CB.parse(core[start:end])
    oc = lvl.collision_octants()
    assert len(octants) == len(oc["offset"])
    faces = sum(len(f) for _, f in octants.values())
    quads = sum(1 for _, fs in octants.values() for f in fs if len(f) == 5)
    assert faces == int(oc["counts"][:, 1].sum()) and quads == int(oc["counts"][:, 2].sum())
    tags = {f[-1] for _, fs in octants.values() for f in fs}
    assert tags == {_rc2.TAG_GROUND, _rc2.TAG_WATER}
    # water faces are the stored quads, all at the water height (1/64 m)
    for key, (verts, fs) in octants.items():
        for f in fs:
            if f[-1] == _rc2.TAG_WATER:
                assert len(f) == 5
                assert {CB.world(key, verts[i])[2] for i in f[:4]} == {_rc2.WATER * 64}
    c = lvl.collision()
    assert np.array_equal(np.unique(c["tag"]), [_rc2.TAG_WATER, _rc2.TAG_GROUND])
    assert int((c["tag"] == _rc2.TAG_GROUND).sum()) == 2 * (_rc2.PATCHES * _rc2.QUADS) ** 2


def test_sky_agrees_with_the_plain_reader(sample):
    _, lvl, raw = sample
    core = raw["core_data"]
    at = RR.core_field(raw["core"], 0x10)
    colour, _, n = struct.unpack_from("<4shh", core, at)
    assert n == 2 == len(lvl.sky()["shells"])
    total = 0
    for i, shell in enumerate(lvl.sky()["shells"]):
        so = struct.unpack_from("<i", core, at + 0x20 + 4 * i)[0]
        nc, flags = struct.unpack_from("<ii", core, at + so)
        assert flags == 1 and not shell["textured"] and nc == len(shell["clusters"])
        heads = [struct.unpack_from("<4fihhhhhh", core, at + so + 0x10 + 0x20 * k)
                 for k in range(nc)]
        assert sum(h[5] for h in heads) == len(shell["positions"])
        assert sum(h[6] for h in heads) == len(shell["triangles"])
        assert all(h[5] <= 128 and h[10] % 16 == 0 for h in heads)
        total += len(shell["triangles"])
        # every vertex inside 32 units (s16 / 1024) and drawn from inside
        p = shell["positions"]
        assert np.abs(p).max() < 32
        t = shell["triangles"]
        a, b, d = p[t[:, 0]], p[t[:, 1]], p[t[:, 2]]
        assert (np.sum(np.cross(b - a, d - a) * (a + b + d), 1) < 0).all()
    assert total == 7 * 32 + 16 + 48


def test_texture_tables(sample):
    data, lvl, raw = sample
    assert [len(lvl.textures(k)) for k in ("tfrag", "moby", "tie", "shrub")] == [3, 2, 3, 2]
    ci = raw["sections"]["core_index"][0]
    for kind, n in (("moby", 2), ("tie", 3), ("shrub", 2)):
        count, at = RR.core_field(raw["core"], KINDS[kind][1]), \
            RR.core_field(raw["core"], KINDS[kind][1] + 4)
        assert count == n and at % 16 == 0
        for k in range(n):
            e = struct.unpack_from("<i6h", data, ci + at + 16 * k)
            assert e[1:3] == (64, 64)


def test_build_level_refuses_bad_classes():
    rng = np.random.default_rng(1)
    tex, pals = _rc2._textures(rng)
    block = rc2.build_tfrags([_rc2._patch(_rc2._height(rng), 0, 0)])
    gp = rc2.empty_gameplay()
    with pytest.raises(ValueError, match="tie class 5: texture slot 0 names entry 1"):
        rc2.build_level(block, tex, pals, gp, classes={"tie": [(5, b"x" * 16, [1])]},
                        class_textures={"tie": [(np.zeros((4, 4), np.uint8), 0)]})
    with pytest.raises(ValueError, match="shrub class 6: 17 textures"):
        rc2.build_level(block, tex, pals, gp, classes={"shrub": [(6, b"x", [0] * 17)]})
    with pytest.raises(ValueError, match="moby texture 0: pixels"):
        rc2.build_level(block, tex, pals, gp, class_textures={"moby": [(np.zeros(4), 0)]})
    with pytest.raises(ValueError, match="sky block of 4 bytes"):
        rc2.build_level(block, tex, pals, gp, sky=b"abcd")
    with pytest.raises(ValueError, match="kind 'ties' is not"):
        rc2.build_level(block, tex, pals, gp, classes={"ties": []})
    with pytest.raises(ValueError, match="kinds \\['tfrag'\\]"):
        rc2.build_level(block, tex, pals, gp, class_textures={"tfrag": []})
    with pytest.raises(ValueError, match="instances: kinds"):
        rc2.new_gameplay(b"", instances={"ties": ([], np.zeros((0, 4, 4)))})
    with pytest.raises(wadkit.LimitError, match="1025 tie classes"):
        rc2.build_level(block, tex, pals, gp, classes={"tie": [(i, None, []) for i in range(1025)]})
