"""RC2 write-back: open -> save unchanged is byte-identical for every
generated level; each edit re-reads as made, in wadkit and in the spec
builders' own readers (tests/builders/rc2_read.py, which never call our C
code); every stream written passes the validator and decodes with the
builders' independent WAD-LZ decoder."""
import math
import os
import struct

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import rc2_collision as C
from builders import rc2_core
from builders import rc2_full as F
from builders import rc2_gameplay as G
from builders import rc2_level as R
from builders import rc2_read as RR
from builders import rc2_sky
from builders import tfrag as T
from builders import wadlz


def streams_ok(data: bytes) -> dict:
    """Every stream of the file passes our validator and decodes with the
    builder's decoder to what wadkit reads; returns the plain reading."""
    r = RR.level(data)
    lvl = wadkit.rc2.from_bytes(data)
    for name, s in r["streams"].items():
        s = s[:struct.unpack_from("<i", s, 3)[0]]
        assert wadkit.lz.validate(s) == [], name
        plain = wadlz.decompress(s)
        assert plain == r[name]
        assert plain == (lvl.core_data if name == "core_data" else
                         lvl.gameplay if name == "gameplay" else
                         lvl._lvl.decompress("gameplay_pal", 1 << 28))
    return r


def levels():
    """Every kind of generated level: (name, bytes)."""
    out = [("full", F.level()[0]), ("full 0x68", F.level(variant=0x68)[0]),
           ("greedy streams", F.level(compress=wadlz.greedy_compress)[0])]
    g = G.sample()
    gp = G.layout(g["blocks"])
    out.append(("gameplay+classes", R.whole_level(gp, rc2_core.SAMPLE_CLASSES,
                                                  compress=R.stored)[0]))
    out.append(("container", R.level()[0]))
    sky = rc2_sky.block([]) if hasattr(rc2_sky, "block") else b""
    core, fields = R.core_parts(tfrags=T.block([T.grid_patch(0, 0)]), sky=sky,
                                collision=C.block(F.OCTANTS), texels=bytes(64))
    t1 = T.block([T.grid_patch(4096, 0, texture=0)])
    chunks = {1: R.chunk(tfrags=t1, collision=C.block(F.OCTANTS))}
    out.append(("parts+chunks", R.level(core=core, core_fields=fields, chunks=chunks)[0]))
    from wadkit.samples import _rc2
    out.append(("sample", _rc2.build()))
    return out


LEVELS = levels()


@pytest.fixture(scope="module")
def full():
    data, info = F.level()
    return wadkit.rc2.from_bytes(data), data, info


# ---- unchanged ------------------------------------------------------------------

@pytest.mark.parametrize("name, data", LEVELS, ids=[n for n, _ in LEVELS])
def test_unchanged_level_saves_byte_identical(name, data, tmp_path):
    lvl = wadkit.rc2.from_bytes(data)
    assert lvl.to_bytes() == data
    new = lvl.edit().apply()                       # through the rewriter
    assert new.to_bytes() == data
    new.save(tmp_path / "out.wad")
    assert (tmp_path / "out.wad").read_bytes() == data


@pytest.mark.parametrize("name, data", [l for l in LEVELS if l[0].startswith(("full", "greedy"))],
                         ids=lambda x: x if isinstance(x, str) else "")
def test_everything_rewritten_from_its_own_fields_is_byte_identical(name, data):
    """Terrain given as terrain(0) gives, instances set from their own
    arrays, settings set to their own values: every block is re-serialised
    from its fields (gameplay) or compared and kept (terrain), and the
    file comes back byte for byte."""
    lvl = wadkit.rc2.from_bytes(data)
    ed = lvl.edit()
    t = lvl.terrain(0)
    ed.set_terrain(t["positions"], t["uv"], t["color"], t["texture"])
    for kind in ("tie", "shrub", "moby"):
        inst = getattr(lvl, kind + "s")
        ed.set_instances(kind, np.arange(len(inst)), inst.class_id, inst.matrix)
    s = lvl.settings
    ed.set_settings(fog_colour=s["fog_colour"], background_colour=s["background_colour"],
                    death_height=s["death_height"])
    new = ed.apply()
    assert new.edit_report["patches"] == {"in_place": [], "reencoded": [], "moved": []}
    assert new.to_bytes() == data


def test_gameplay_writer_reserialises_every_block(full):
    """The gameplay rewritten with every instance re-placed (a move to
    where it is) equals the builder's bytes: records, class lists, ambient
    block, header offsets."""
    lvl, data, info = full
    ed = lvl.edit()
    for kind in ("tie", "shrub", "moby"):
        inst = getattr(lvl, kind + "s")
        for i in range(len(inst)):
            ed.move(kind, i, inst.matrix[i])
    new = ed.apply()
    assert new.gameplay == G.layout(info["gameplay"]["blocks"])
    assert new.to_bytes() == data


# ---- terrain ----------------------------------------------------------------------

def patch_verts(t, p):
    return np.unique(t["triangles"][t["patch"] == p])


def test_moved_vertices_patch_in_place_and_keep_every_lod(full):
    lvl, data, info = full
    t = lvl.terrain(0)
    pos = t["positions"].copy()
    v = patch_verts(t, 1)[:5]
    pos[v] += np.float32([0.5, -0.25, 1.0])
    ed = lvl.edit()
    ed.set_terrain(positions=pos)
    new = ed.apply()
    assert new.edit_report["patches"] == {"in_place": [1], "reencoded": [], "moved": []}
    np.testing.assert_array_equal(new.terrain(0)["positions"], pos)
    for lod in (0, 1, 2):                      # topology of every LOD kept
        np.testing.assert_array_equal(new.terrain(lod)["triangles"],
                                      lvl.terrain(lod)["triangles"])
    # the builder's reader: only patch 1's positions changed, the rest of
    # the block byte for byte; patch 1's LOD 1 and 2 strips are its own
    old_b, new_b = bytes(lvl.tfrag_block()), bytes(new.tfrag_block())
    po, pn = RR.patches(old_b), RR.patches(new_b)
    for a, b in zip(po, pn):
        if a["index"] != 1:
            assert a["header"] == b["header"] and a["positions"] == b["positions"]
        assert a["strips"] == b["strips"] and a["indices"] == b["indices"]
    base = int(np.flatnonzero(t["patch"] == 1)[0])
    got = np.array(pn[1]["positions"], np.float32)
    first = int(t["triangles"][t["patch"] == 1].min())
    np.testing.assert_array_equal(got, pos[first:first + len(got)])
    assert base >= 0
    streams_ok(new.to_bytes())


def test_bounding_sphere_grows_only_when_a_vertex_leaves_it(full):
    lvl, data, info = full
    t = lvl.terrain(0)
    v = patch_verts(t, 0)
    for shift, grows in ((0.001, False), (30.0, True)):
        pos = t["positions"].copy()
        pos[v[0], 2] += shift
        ed = lvl.edit()
        ed.set_terrain(positions=pos)
        new = ed.apply()
        b = new.patches[0]["bsphere"]
        assert (b != lvl.patches[0]["bsphere"]) == grows
        c = np.array(b[:3])
        assert (np.linalg.norm(new.terrain(0)["positions"][v] - c, axis=1)
                <= b[3] * (1 + 1e-6)).all()


def test_uv_colour_and_texture_edits_in_place(full):
    lvl, data, info = full
    t = lvl.terrain(0)
    uv, col, tex = t["uv"].copy(), t["color"].copy(), t["texture"].copy()
    uv[t["patch"] == 2] += np.float32(0.125)
    col[t["patch"] == 3] = (0.5, 0.25, 1.0, 1.0)
    p4 = t["patch"] == 4
    tex[p4] = 1 - tex[p4]
    ed = lvl.edit()
    ed.set_terrain(uv=uv, color=col, texture=tex)
    new = ed.apply()
    assert new.edit_report["patches"]["in_place"] == [2, 3, 4]
    n = new.terrain(0)
    np.testing.assert_array_equal(n["uv"], uv)
    np.testing.assert_array_equal(n["color"], col)
    np.testing.assert_array_equal(n["texture"], tex)
    # the builder's reader agrees triangle by triangle
    ps = RR.patches(bytes(new.tfrag_block()))
    rows = np.flatnonzero(p4)
    for k, tri in zip(rows, RR.triangles(ps[4])):
        assert tri["texture"] == tex[k]
    for k, tri in zip(np.flatnonzero(t["patch"] == 2), RR.triangles(ps[2])):
        np.testing.assert_allclose(tri["uv"], uv[k], atol=0)


def test_edits_the_strips_cannot_hold_are_re_encoded(full):
    """A UV on one corner of a shared vertex and a texture on one triangle
    of a strip: the patch is re-encoded (it grew: placed after the last
    patch); LOD 0 reads back as given, wadkit and the builder agree."""
    lvl, data, info = full
    t = lvl.terrain(0)
    rows = np.flatnonzero(t["patch"] == 1)
    uv, tex = t["uv"].copy(), t["texture"].copy()
    uv[rows[0], 0] += np.float32(0.25)
    tex[rows[1]] = 1 - tex[rows[1]]
    ed = lvl.edit()
    ed.set_terrain(uv=uv, texture=tex)
    new = ed.apply()
    rep = new.edit_report["patches"]
    assert rep["in_place"] == [] and rep["reencoded"] + rep["moved"] == [1]
    n = new.terrain(0)
    assert len(n["triangles"]) == len(t["triangles"])
    np.testing.assert_allclose(n["uv"], uv, atol=1 / 8192)
    np.testing.assert_array_equal(n["texture"], tex)
    np.testing.assert_array_equal(n["positions"][n["triangles"]],
                                  t["positions"][t["triangles"]])
    ps = RR.patches(bytes(new.tfrag_block()))
    got = RR.triangles(ps[1])
    assert [g["texture"] for g in got] == tex[rows].tolist()
    np.testing.assert_allclose([g["positions"] for g in got],
                               t["positions"][t["triangles"][rows]], atol=1 / 1024)
    # untouched patches: their data bytes are where they were
    po = RR.patches(bytes(lvl.tfrag_block()))
    for a, b in zip(po, ps):
        if a["index"] != 1:
            assert a["header"] == b["header"]
    streams_ok(new.to_bytes())


def test_move_past_the_s16_range_re_encodes_around_a_new_origin(full):
    lvl, data, info = full
    t = lvl.terrain(0)
    pos = t["positions"].copy()
    pos[patch_verts(t, 0)[0]] += np.float32([40.0, 0, 0])
    ed = lvl.edit()
    ed.set_terrain(positions=pos)
    new = ed.apply()
    rep = new.edit_report["patches"]
    assert rep["reencoded"] + rep["moved"] == [0]
    n = new.terrain(0)
    np.testing.assert_allclose(n["positions"][n["triangles"]], pos[t["triangles"]],
                               atol=1 / 2048)


def test_set_patch_new_triangles(full):
    lvl, data, info = full
    # a fan of 6 triangles replacing patch 5
    ring = [(math.cos(a), math.sin(a), 0.5) for a in np.linspace(0, 2 * math.pi, 7)[:-1]]
    pos = np.array([(0.0, 0.0, 1.0)] + ring, np.float32) + np.float32([3, 3, 0])
    tri = np.array([(0, 1 + k, 1 + (k + 1) % 6) for k in range(6)], np.uint32)
    uv = np.zeros((6, 3, 2), np.float32)
    col = np.full((6, 3, 4), 1.0, np.float32)
    tex = np.array([0, 0, 0, 1, 1, 1], np.int32)
    ed = lvl.edit()
    ed.set_patch(5, pos, tri, uv, col, tex)
    new = ed.apply()
    n = new.terrain(0)
    rows = n["patch"] == 5
    assert rows.sum() == 6
    np.testing.assert_allclose(n["positions"][n["triangles"][rows]], pos[tri], atol=1 / 2048)
    assert n["texture"][rows].tolist() == tex.tolist()
    assert len(n["triangles"]) == len(lvl.terrain(0)["triangles"]) - (
        lvl.terrain(0)["patch"] == 5).sum() + 6


def test_terrain_limits_name_the_patch(full):
    lvl, data, info = full
    n = 300                                   # past 255 vertices and triangles
    pos = np.random.default_rng(1).uniform(0, 10, (n, 3)).astype(np.float32)
    tri = np.array([(k, k + 1, k + 2) for k in range(n - 2)], np.uint32)
    ed = lvl.edit()
    ed.set_patch(2, pos, tri, np.zeros((n - 2, 3, 2)), np.ones((n - 2, 3, 4)),
                 np.zeros(n - 2, np.int32))
    with pytest.raises(wadkit.LimitError, match="tfrag patch 2"):
        ed.apply()
    # a patch that does not fit the tfrags region's free bytes
    data2, _ = F.level(tfrag_slack=0)
    lvl2 = wadkit.rc2.from_bytes(data2)
    t = lvl2.terrain(0)
    tex = t["texture"].copy()
    rows = np.flatnonzero(t["patch"] == 1)
    tex[rows[1]] = 1 - tex[rows[1]]          # one triangle of a strip: re-encoded
    ed = lvl2.edit()
    ed.set_terrain(texture=tex)
    with pytest.raises(wadkit.LimitError, match="tfrag patch 1: re-encoded it takes"):
        ed.apply()
    # a UV the format cannot hold
    uv = t["uv"].copy()
    uv[rows[0]] = 9.0
    ed = lvl2.edit()
    ed.set_terrain(uv=uv)
    with pytest.raises(wadkit.LimitError, match="tfrag patch 1.*outside -4..8"):
        ed.apply()


# ---- instances ----------------------------------------------------------------------

def test_move_add_delete_instances(full):
    lvl, data, info = full
    ed = lvl.edit()
    ed.move("tie", 1, (5.0, 6.0, 7.0))
    new_tie = ed.add("tie", 300, (1.0, 1.0, 1.0), like=2)
    ed.delete("tie", 0)
    m = np.array(lvl.shrubs.matrix[1])
    m[:3, 3] = (-3, -4, -5)
    ed.move("shrub", 1, m)
    ed.add("shrub", 40, m)
    ed.delete("moby", 0)
    new = ed.apply()
    idx = new.edit_report["index"]
    assert idx["tie"].tolist() == [-1, 0, 1, 2] and new_tie == 3
    r = RR.gameplay(new.gameplay)
    src = RR.gameplay(lvl.gameplay)
    # ties: 1 and 2 kept in order, then the copy of 2 (new uid, its colours)
    assert [t["class_id"] for t in r["ties"]] == [200, 300, 300]
    assert r["ties"][0]["matrix"][0][3] == 5.0 and r["ties"][0]["matrix"][2][3] == 7.0
    for k in ("draw_distance", "directional_lights", "matrix_w", "occlusion_index"):
        assert r["ties"][2][k] == src["ties"][2][k], k
    assert r["ties"][2]["uid"] == max(t["uid"] for t in src["ties"]) + 1
    assert r["class_lists"]["tie"] == [200, 300]
    # ambient: tie 0's record dropped (deleted), tie 2's renumbered to 1,
    # and copied to the new tie
    assert r["ambient"] == [(1, src["ambient"][0][1]), (2, src["ambient"][0][1])]
    assert new.edit_report["gameplay"]["ambient_copied"] == 1
    assert new.edit_report["gameplay"]["ambient_dropped"] == 1
    # shrubs: colours kept, the new one a copy of the first of class 40
    assert [s["colour"] for s in r["shrubs"]] == [src["shrubs"][0]["colour"],
                                                  src["shrubs"][1]["colour"],
                                                  src["shrubs"][0]["colour"]]
    assert r["shrubs"][1]["matrix"][1][3] == -4.0
    assert r["class_lists"]["shrub"] == [40, 41]
    # mobys: one left, the header's counts follow
    assert len(r["mobys"]) == 1 and r["headers"]["moby"][:2] == (1, 2)
    assert r["mobys"][0] == src["mobys"][1]
    # wadkit reads the same
    assert new.ties.class_id.tolist() == [200, 300, 300]
    assert new.ties.ambient_record.tolist() == [-1, 0, 1]
    streams_ok(new.to_bytes())


def test_class_lists_follow_the_instances(full):
    lvl, data, info = full
    ed = lvl.edit()
    for i in range(3):
        ed.set_class("tie", i, 200)
    ed.add("moby", 10, (0.0, 0.0, 0.0))
    new = ed.apply()
    r = RR.gameplay(new.gameplay)
    assert r["class_lists"]["tie"] == [200]
    assert r["class_lists"]["moby"] == [8, 9, 10]
    # class 10 has no moby yet: the new one has Wrench's defaults
    m = r["mobys"][-1]
    assert (m["size"], m["class_id"], m["scale"], m["pvar_index"]) == (0x88, 10, 1.0, -1)
    # a tie whose class changed loses its ambient record (vertex count differs)
    assert r["ambient"] == [(0, RR.gameplay(lvl.gameplay)["ambient"][1][1])] or \
        new.edit_report["gameplay"]["ambient_dropped"] >= 1


def test_moby_matrix_becomes_position_rotation_scale(full):
    lvl, data, info = full
    m = np.eye(4)
    rot = np.array(G.rotation(0.3, -0.2, 0.1))
    m[:3, :3] = 1.5 * rot
    m[:3, 3] = (4, 5, 6)
    ed = lvl.edit()
    ed.move("moby", 1, m)
    new = ed.apply()
    r = RR.gameplay(new.gameplay)["mobys"][1]
    assert r["position"] == [4.0, 5.0, 6.0] and r["scale"] == 1.5
    np.testing.assert_allclose(r["rotation"], [0.1, -0.2, 0.3], atol=1e-6)
    np.testing.assert_allclose(new.mobys.matrix[1], m, atol=1e-6)
    # a sheared matrix cannot be stored
    m[0, 0] *= 2
    ed = lvl.edit()
    ed.move("moby", 1, m)
    with pytest.raises(wadkit.LimitError, match="moby 1: the matrix is not a rotation"):
        ed.apply()


def test_groups_are_renumbered_when_instances_go():
    g = G.sample()
    g["blocks"]["tie_groups"] = RR.group_block([[0, 2], [1], []])
    g["blocks"]["moby_groups"] = RR.group_block([[1, 0]])
    data, _ = F.level(gameplay=g)
    lvl = wadkit.rc2.from_bytes(data)
    ed = lvl.edit()
    ed.delete("tie", 0)
    ed.delete("moby", 1)
    new = ed.apply()
    r = RR.gameplay(new.gameplay)
    assert r["groups"]["tie"] == [[1], [0], []]
    assert r["groups"]["moby"] == [[0]]
    assert new.edit_report["gameplay"]["groups_remapped"] == (True, False, True)
    # appending keeps the groups' bytes
    ed = lvl.edit()
    ed.add("tie", 200, (0.0, 0.0, 0.0))
    new = ed.apply()
    assert RR.gameplay(new.gameplay)["groups"]["tie"] == [[0, 2], [1], []]
    assert new.edit_report["gameplay"]["groups_remapped"] == (False, False, False)


def test_blocks_after_an_edit_keep_their_alignment(full):
    lvl, data, info = full
    ed = lvl.edit()
    ed.add("moby", 8, (1.0, 2.0, 3.0))        # 0x88 bytes: not a multiple of 16
    new = ed.apply()
    old = {b.name: b for b in lvl.gameplay_blocks if b.present}
    for b in new.gameplay_blocks:
        if b.present:
            a = old[b.name].offset
            assert b.offset % min(0x40, a & -a) == 0, b.name
            if b.name not in ("moby_instances",):
                assert bytes(b.data[:old[b.name].decoded or len(b.data)]) == \
                    bytes(old[b.name].data[:old[b.name].decoded or len(b.data)]), b.name


def test_settings(full):
    lvl, data, info = full
    ed = lvl.edit()
    ed.set_settings(fog_colour=(90, 100, 120), background_colour=(1, 2, 3),
                    death_height=-80.5)
    new = ed.apply()
    s = RR.gameplay(new.gameplay)["settings"]
    assert s["fog_colour"] == [90, 100, 120] and s["background_colour"] == [1, 2, 3]
    assert s["death_height"] == -80.5
    assert new.settings["fog_colour"] == (90, 100, 120)
    assert {k: v for k, v in s.items() if k not in ("fog_colour", "background_colour",
                                                    "death_height")} == \
        {k: v for k, v in RR.gameplay(lvl.gameplay)["settings"].items()
         if k not in ("fog_colour", "background_colour", "death_height")}


def test_pal_gameplay_gets_the_same_edit():
    data, _ = F.level(variant=0x68)
    lvl = wadkit.rc2.from_bytes(data)
    # the builder points both slots at one extent: a distinct PAL copy
    r = RR.level(data)
    assert r["extents"]["gameplay"] == r["extents"]["gameplay_pal"]
    ed = lvl.edit()
    ed.move("tie", 0, (9.0, 9.0, 9.0))
    new = ed.apply()
    r2 = streams_ok(new.to_bytes())
    assert r2["extents"]["gameplay"] == r2["extents"]["gameplay_pal"]
    assert RR.gameplay(r2["gameplay"])["ties"][0]["matrix"][0][3] == 9.0


# ---- collision ----------------------------------------------------------------------

def test_collision_replaced(full):
    lvl, data, info = full
    c = lvl.collision()
    q = ~c["quad"]
    pos = np.vstack([c["positions"], [[10, 10, 1], [11, 10, 1], [10, 11, 1.5]]]).astype(np.float32)
    tris = np.vstack([c["triangles"][q], [[len(pos) - 3, len(pos) - 2, len(pos) - 1]]])
    tags = np.append(c["tag"][q], 7)
    ed = lvl.edit()
    ed.set_collision(pos, tris, tags, c["quads"], c["quad_tag"])
    new = ed.apply()
    n = new.collision()
    assert sorted(n["tag"].tolist()) == sorted(c["tag"].tolist() + [7])
    h = new.core_header
    blk = new.core_data[h["collision"]:h["textures_base"]]
    got = C.parse(blk)                        # the builder's reader
    faces = {(tuple(C.world(k, v[i]) for i in f[:-1]), f[-1]) for k, (v, fs) in got.items()
             for f in fs}
    assert ((tuple(int(x * 64) for x in pos[-1]), (640, 704, 64), (640, 640, 64)), 7) in {
        (tuple(a), t) for a, t in faces} or any(t == 7 for _, t in faces)
    # everything else in core_data is where it was
    oh = lvl.core_header
    assert new.core_data[:oh["collision"]] == lvl.core_data[:oh["collision"]]
    assert new.core_data[oh["textures_base"]:] == lvl.core_data[oh["textures_base"]:]
    streams_ok(new.to_bytes())


def test_collision_that_does_not_fit_its_region():
    data, _ = F.level(collision_slack=0)
    lvl = wadkit.rc2.from_bytes(data)
    rng = np.random.default_rng(3)
    pos = rng.uniform(0, 30, (600, 3)).astype(np.float32)
    tri = np.arange(600, dtype=np.uint32).reshape(-1, 3)
    ed = lvl.edit()
    ed.set_collision(pos, tri, np.zeros(200, np.uint8))
    with pytest.raises(wadkit.LimitError, match="collision block has .* its region"):
        ed.apply()


# ---- the streams ----------------------------------------------------------------------

def test_a_small_edit_of_a_big_level_reuses_the_old_streams():
    data, _ = F.generated(200, compress=wadlz.greedy_compress)
    lvl = wadkit.rc2.from_bytes(data)
    t = lvl.terrain(0)
    pos = t["positions"].copy()
    pos[patch_verts(t, 150)[:3]] += np.float32([0, 0, 0.5])
    ed = lvl.edit()
    ed.set_terrain(positions=pos)
    ed.move("tie", 1500, (1.0, 2.0, 3.0))
    new = ed.apply()
    s = new.edit_report["streams"]
    assert not s["core_data"]["whole"] and not s["gameplay"]["whole"]
    for k in ("core_data", "gameplay"):
        assert s[k]["kept_before"] > 0 and s[k]["kept_after"] > 0, s
    assert s["gameplay"]["compressed"] < len(lvl.gameplay) / 2
    r = streams_ok(new.to_bytes())
    np.testing.assert_array_equal(new.terrain(0)["positions"], pos)
    assert RR.gameplay(r["gameplay"])["ties"][1500]["matrix"][1][3] == 2.0



def test_edits_of_one_level_write_what_a_fresh_level_writes():
    """The map of the old streams is kept on the level after its first
    edit: later edits of it (other patches, other ties) give the bytes the
    same edit of a freshly read level gives, and read back as made."""
    data, _ = F.generated(200, compress=wadlz.greedy_compress)
    kept = wadkit.rc2.from_bytes(data)
    t = kept.terrain(0)
    for k, (patch, tie) in enumerate(((150, 1500), (3, 20), (150, 7))):
        pos = t["positions"].copy()
        pos[patch_verts(t, patch)[:3]] += np.float32([0, 0, 0.5 * (k + 1)])
        out = []
        for lvl in (kept, wadkit.rc2.from_bytes(data)):
            ed = lvl.edit()
            ed.set_terrain(positions=pos)
            ed.move("tie", tie, (1.0, 2.0, float(k)))
            out.append(ed.apply())
        assert out[0].to_bytes() == out[1].to_bytes()
        for name in ("core_data", "gameplay"):      # both spliced onto their map
            assert not out[0].edit_report["streams"][name]["whole"], name
        r = streams_ok(out[0].to_bytes())
        np.testing.assert_array_equal(out[0].terrain(0)["positions"], pos)
        assert RR.gameplay(r["gameplay"])["ties"][tie]["matrix"][2][3] == float(k)

# ---- saving -------------------------------------------------------------------------------

def test_save_refuses_the_source_and_writes_atomically(full, tmp_path):
    lvl0, data, info = full
    src = tmp_path / "LEVEL0.WAD"
    src.write_bytes(data)
    lvl = wadkit.rc2.open(src)
    with pytest.raises(ValueError, match="source file"):
        lvl.save(src)
    ed = lvl.edit()
    ed.move("tie", 0, (1.0, 1.0, 1.0))
    new = ed.apply()
    out = tmp_path / "out.wad"
    out.write_bytes(b"old")
    new.save(out)
    assert out.read_bytes() == new.to_bytes() and src.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LEVEL0.WAD", "out.wad"]


def test_save_refuses_a_level_whose_stream_does_not_decode(tmp_path):
    """Level.save decodes every stream first (through a small buffer,
    wk_lz_decodes_to): a core_data stream whose first packet reaches before
    the output start is refused and nothing is written."""
    data, _ = F.generated(200, compress=wadlz.greedy_compress)
    s = RR.level(data)["streams"]["core_data"]
    off = data.find(s[:64])
    bad = bytearray(data)
    bad[off + 16:off + 20] = b"\x10\xff\xfc\xff"   # far match, 32767 back
    lvl = wadkit.rc2.from_bytes(bytes(bad))
    out = tmp_path / "out.wad"
    with pytest.raises(wadkit.FormatError, match="core_data: .*reaches 32767 bytes back"):
        lvl.save(out)
    assert not out.exists()

    # a refused level is checked again at the next save (it stays refused)
    with pytest.raises(wadkit.FormatError, match="core_data"):
        lvl.save(out)
    assert not out.exists()


def test_save_checks_a_level_in_memory_once_and_a_mapped_one_every_time(full, tmp_path):
    """The check of save() is skipped only for bytes held in memory that
    passed it: those of from_bytes() after one save, apply()'s result (its
    rewrite checked them); a mapped file (which can change on disk) is
    checked at every save. The C call writes what it is given when told
    the bytes were checked, and checks them otherwise."""
    lvl0, data, info = full
    src = tmp_path / "LEVEL0.WAD"
    src.write_bytes(data)
    mapped = wadkit.rc2.open(src)
    mem = wadkit.rc2.from_bytes(data)
    assert mapped._checked is None and mem._checked is False
    for k in range(2):
        mapped.save(tmp_path / f"m{k}.wad")
        mem.save(tmp_path / f"b{k}.wad")
        assert (tmp_path / f"m{k}.wad").read_bytes() == data
        assert (tmp_path / f"b{k}.wad").read_bytes() == data
    assert mapped._checked is None and mem._checked is True
    ed = mem.edit()
    ed.move("tie", 0, (1.0, 1.0, 1.0))
    assert ed.apply()._checked is True
    mapped.close()
    junk = b"\0" * 4096
    with pytest.raises(wadkit.FormatError):
        _core.rc2_level_save(junk, os.fspath(tmp_path / "junk.wad"))
    assert not (tmp_path / "junk.wad").exists()
    _core.rc2_level_save(junk, os.fspath(tmp_path / "junk.wad"), True)
    assert (tmp_path / "junk.wad").read_bytes() == junk


# ---- hostile arguments ------------------------------------------------------------------

@pytest.mark.parametrize("call, match", [
    (lambda ed, t: ed.set_terrain(positions=t["positions"][:-1]), "positions has"),
    (lambda ed, t: ed.set_terrain(positions=t["positions"][:, :2]), r"positions must have shape \(n, 3\)"),
    (lambda ed, t: ed.set_terrain(uv=t["uv"][:, :, 0]), r"uv must have shape"),
    (lambda ed, t: ed.set_terrain(texture=t["texture"] + 5), "texture.*tfrag textures"),
    (lambda ed, t: ed.set_terrain(texture=t["texture"].astype(float)), "texture must hold integers"),
    (lambda ed, t: ed.set_terrain(positions=t["positions"] * np.nan), "not finite"),
    (lambda ed, t: ed.set_patch(99, [[0, 0, 0]], [[0, 0, 0]], np.zeros((1, 3, 2)),
                                np.zeros((1, 3, 4)), [0]), "patch must be an index"),
    (lambda ed, t: ed.set_patch(0, [[0, 0, 0]], [[0, 0, 5]], np.zeros((1, 3, 2)),
                                np.zeros((1, 3, 4)), [0]), "triangles name vertex 5"),
    (lambda ed, t: ed.move("tie", 99, (0, 0, 0)), "tie index must be 0..2"),
    (lambda ed, t: ed.move("ties", 0, (0, 0, 0)), "kind must be one of"),
    (lambda ed, t: ed.move("tie", 0, np.eye(3)), "matrix must be a finite 4x4"),
    (lambda ed, t: ed.move("tie", 0, (np.inf, 0, 0)), "matrix must be a finite"),
    (lambda ed, t: ed.add("tie", 12345, (0, 0, 0)), "class_id 12345 is not in"),
    (lambda ed, t: ed.add("moby", 8, (0, 0, 0), like=7), "moby index must be 0..1"),
    (lambda ed, t: ed.set_instances("shrub", [0, 5], [40, 40], np.zeros((2, 4, 4))),
     r"source\[1\] = 5"),
    (lambda ed, t: ed.set_instances("shrub", [0], [40, 40], np.zeros((2, 4, 4))),
     "have 1, 2 and 2 rows"),
    (lambda ed, t: ed.set_instances("shrub", [0], [77], np.zeros((1, 4, 4))),
     r"class_id\[0\] = 77"),
    (lambda ed, t: ed.set_collision([[0, 0, 0]], [[0, 0, 1]], [0]), "triangles name vertex 1"),
    (lambda ed, t: ed.set_collision([[0, 0, 0]], [[0, 0, 0]], [0, 1]), "one tag per triangle"),
    (lambda ed, t: ed.set_collision([[0, 0, 0]], [[0, 0, 0]], [300]), "tags holds values outside"),
    (lambda ed, t: ed.set_settings(fog_colour=(1, 2)), "fog_colour takes 3 values"),
    (lambda ed, t: ed.set_settings(fog_colour=(1.5, 2, 3)), "fog_colour must be integers"),
    (lambda ed, t: ed.set_settings(death_height="low"), "death_height must be finite"),
    (lambda ed, t: ed.set_settings(chunk_plane_records=[]), "not a settings field"),
    (lambda ed, t: ed.set_settings(nonsense=1), "not a settings field"),
])
def test_hostile_arguments_name_the_argument(full, call, match):
    lvl, data, info = full
    ed = lvl.edit()
    with pytest.raises(ValueError, match=match):
        call(ed, lvl.terrain(0))
    # nothing was recorded: the edit still writes the level unchanged
    assert ed.apply().to_bytes() == data


def test_deleted_instance_cannot_be_edited(full):
    lvl, data, info = full
    ed = lvl.edit()
    ed.delete("tie", 1)
    with pytest.raises(ValueError, match="tie 1 is deleted"):
        ed.move("tie", 1, (0, 0, 0))


@pytest.fixture(scope="module")
def big():
    data, _ = F.generated(200, compress=wadlz.greedy_compress)
    return wadkit.rc2.from_bytes(data)


@pytest.mark.parametrize("seed", range(6))
def test_random_edits_of_a_big_level_write_clean_streams(big, seed):
    """Moves (same size), additions and deletions (sizes change), terrain
    edits spread over the block: every stream the splice writes passes the
    validator and the builder's decoder gives what wadkit reads."""
    rng = np.random.default_rng(seed)
    ed = big.edit()
    for _ in range(int(rng.integers(1, 8))):
        ed.move("tie", int(rng.integers(0, 2000)), tuple(rng.uniform(-9, 9, 3)))
    if seed % 2:
        ed.add("shrub", int(big.shrubs.class_id[0]), (1.0, 2.0, 3.0), like=0)
        ed.delete("moby", int(rng.integers(0, 200)))
    t = big.terrain(0)
    pos = t["positions"].copy()
    for p in rng.choice(len(big.patches), int(rng.integers(1, 6)), replace=False):
        pos[patch_verts(t, p)[:2], 2] += np.float32(0.25)
    ed.set_terrain(positions=pos)
    new = ed.apply()
    r = streams_ok(new.to_bytes())
    np.testing.assert_array_equal(new.terrain(0)["positions"], pos)
    assert len(RR.gameplay(r["gameplay"])["shrubs"]) == 2000 + seed % 2


def test_padded_stream_section_is_kept_when_its_bytes_do_not_change():
    """Found by fuzz_rc2_level: a core_data section longer than its stream
    (padding after the declared size) lost its padding, and so the file
    changed, when an edit left core_data's bytes as they were."""
    core, fields = R.core_parts(tfrags=T.block([T.grid_patch(0, 0)]), sky=b"",
                                collision=C.block(F.OCTANTS), texels=bytes(64))
    stream = wadlz.greedy_compress(core)
    data, _ = R.level(core=core, core_stream=stream + b"\x5a" * 40,
                      core_fields={**fields, 0x88: len(stream)})
    lvl = wadkit.rc2.from_bytes(data)
    ed = lvl.edit()
    t = lvl.terrain(0)
    ed.set_terrain(t["positions"], t["uv"], t["color"], t["texture"])
    ed.set_patch(0, *patch_mesh(t, 0))       # re-encoded to the same bytes?
    new = ed.apply()
    if bytes(new.tfrag_block()) == bytes(lvl.tfrag_block()):
        assert new.to_bytes() == data
    ed = lvl.edit()
    ed.set_terrain(t["positions"], t["uv"], t["color"], t["texture"])
    assert ed.apply().to_bytes() == data


def patch_mesh(t, p):
    rows = np.flatnonzero(t["patch"] == p)
    verts, inv = np.unique(t["triangles"][rows].ravel(), return_inverse=True)
    return (t["positions"][verts], inv.reshape(-1, 3), t["uv"][rows], t["color"][rows],
            t["texture"][rows])


def test_file_not_a_whole_number_of_sectors_saves_unchanged():
    """Found by fuzz_rc2_level: a rewrite that moved nothing still padded
    the file to a whole sector."""
    data = F.level()[0] + b"tail"
    lvl = wadkit.rc2.from_bytes(data)
    assert lvl.edit().apply().to_bytes() == data
    ed = lvl.edit()
    ed.set_settings(death_height=-1.0)          # the gameplay moves, the tail goes
    new = ed.apply().to_bytes()
    assert len(new) % 2048 == 0 and wadkit.rc2.from_bytes(new).settings["death_height"] == -1.0


def test_a_block_two_slots_share_is_kept_or_refused_never_split(monkeypatch):
    """Two header slots may point at one block (fuzzing found it): an edit
    that leaves it alone keeps both slots on its unchanged bytes; an edit
    that would rewrite it for one slot is refused, naming both."""
    g = G.sample()
    g["blocks"]["moby_groups"] = RR.group_block([[1, 0]])
    plain_layout = G.layout

    def shared(blocks, order=G.WRENCH_ORDER):
        out = bytearray(plain_layout(blocks, order))
        at = struct.unpack_from("<i", out, G.SLOT["moby_groups"])[0]
        struct.pack_into("<i", out, G.SLOT["cuboids"], at)
        return bytes(out)

    monkeypatch.setattr(G, "layout", shared)
    data, _ = F.level(gameplay=g)
    lvl = wadkit.rc2.from_bytes(data)
    old = {b.name: b for b in lvl.gameplay_blocks}
    assert old["cuboids"].offset == old["moby_groups"].offset

    ed = lvl.edit()
    ed.move("tie", 0, (9.0, 9.0, 9.0))
    new = ed.apply()
    blocks = {b.name: b for b in new.gameplay_blocks}
    assert blocks["cuboids"].offset == blocks["moby_groups"].offset
    assert bytes(blocks["moby_groups"].data) == bytes(old["moby_groups"].data)
    assert RR.gameplay(new.gameplay)["groups"]["moby"] == [[1, 0]]

    ed = lvl.edit()
    ed.delete("moby", 1)          # the group names moby 1: its block would change
    with pytest.raises(wadkit.LimitError,
                       match="moby_groups: the level stores it as one block with "
                             "cuboids, which the edit would change too"):
        ed.apply()
