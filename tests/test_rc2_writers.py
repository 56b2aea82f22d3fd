"""The RC2 class, sky and gameplay writers (csrc/core/rc2/tie_write.c,
shrub_write.c, rc2_sky_write.c, wk_rc2_gameplay_skeleton): byte for byte
against the spec builders where they lay out the same thing
(docs/formats/rc2-writers.md says which choices), decoded back by our
readers, and bad input refused naming the object."""
import math
import struct

import numpy as np
import pytest

import wadkit
import wadkit.rc2 as rc2
from builders import rc2_gameplay as G
from builders import rc2_read as RR
from builders import rc2_shrub as SB
from builders import rc2_sky as KB
from builders import rc2_tie as TB

# positions q / 32768 with the largest |q| 32000: the writer's scale is
# then 32000 / 32768 * 1024 / 32000 = 1/32 exactly, so q comes back as is
SCALE = np.float32(1 / 32)


def _q_positions(rng, n):
    q = rng.integers(-32000, 32001, (n, 3))
    q[0] = (32000, 0, -5)
    return q, (q / 32768).astype(np.float32)


def _sphere(pos):
    p = pos.astype(np.float64)
    c = (p.min(0) + p.max(0)) / 2
    r = math.sqrt(max(((p - c) ** 2).sum(1)))
    return tuple(float(np.float32(v)) for v in (*c, r * 1.001 + 1e-3))


# ---- ties --------------------------------------------------------------------

def _tie_input(rng, strips=5):
    lens = rng.integers(3, 9, strips)
    q, pos = _q_positions(rng, int(lens.sum()))
    st = rng.integers(-20000, 20000, (len(pos), 2))
    uv = (st / 4096).astype(np.float32)
    tex = [0, 0, 1, 1, 1][:strips]
    at = np.cumsum([0, *lens])
    out = [(np.arange(at[i], at[i + 1]), tex[i]) for i in range(strips)]
    return q, pos, st, uv, out


def test_tie_class_byte_exact_against_the_builder():
    rng = np.random.default_rng(1)
    q, pos, st, uv, strips = _tie_input(rng)
    data = rc2.build_tie_class(pos, uv, strips, 321, (10.0, 50.0, 100.0))
    verts = [(*q[i], *st[i]) for i in range(len(q))]
    tb_strips = [TB.Strip([verts[i] for i in idx], adgif=t) for idx, t in strips]
    packet = [TB.Packet(tb_strips, order="gs", reuse=False, min_regular=0)]
    spec = TB.TieClass(lods=[packet, packet, packet], textures=2, scale=float(SCALE),
                       o_class=321, bsphere=_sphere(pos), dists=(10.0, 50.0, 100.0))
    assert data == spec.bytes()
    for lod in range(3):
        m, e = rc2.tie_mesh(data, lod), spec.expected(lod)
        for k in ("positions", "uv", "triangles", "texture"):
            assert np.array_equal(m[k], e[k]), k


def test_tie_class_splits_packets_and_reads_back():
    """A strip set too big for one packet: several packets, each within
    the GS budget, decoding to the same triangles."""
    rng = np.random.default_rng(2)
    strips, pos = [], []
    for k in range(40):
        n = 20
        pos.append(rng.uniform(-3, 3, (n, 3)))
        strips.append((np.arange(k * n, (k + 1) * n), k % 5))
    pos = np.concatenate(pos).astype(np.float32)
    uv = rng.uniform(-2, 2, (len(pos), 2)).astype(np.float32)
    data = rc2.build_tie_class(pos, uv, strips, 7)
    m = rc2.tie_mesh(data, 0)
    assert len(m["triangles"]) == 40 * 18 and m["strips"] == 40
    assert m["packet_counts"][0] > 1
    assert np.allclose(m["positions"], pos, atol=3 * 6 / 32000)
    assert np.abs(m["uv"] - uv).max() <= 0.5 / 4096 + 1e-7
    # header invariants: LOD tables increase, every one 16-aligned, the
    # three LODs hold the same packets
    tables = struct.unpack_from("<3i", data, 0)
    assert 0x80 < tables[0] < tables[1] < tables[2] and all(t % 16 == 0 for t in tables)
    assert len(data) % 16 == 0
    assert all(np.array_equal(rc2.tie_mesh(data, lod)["triangles"], m["triangles"])
               for lod in (1, 2))


@pytest.mark.parametrize("change, words", [
    (lambda s: [(np.arange(2), 0)], "strip 0 has 2 vertices"),
    (lambda s: [(np.arange(100), 0)], "strip 0 has 100 vertices"),
    (lambda s: [(np.array([0, 1, 100]), 0)], "index 100 of 100"),
    (lambda s: [(np.arange(3), 16)], "texture slot 16"),
])
def test_tie_class_bad_input_names_the_class(change, words):
    pos = np.random.default_rng(0).uniform(-1, 1, (100, 3)).astype(np.float32)
    uv = np.zeros((100, 2), np.float32)
    with pytest.raises(wadkit.LimitError, match=f"tie class 55.*{words}"):
        rc2.build_tie_class(pos, uv, change(None), 55)


def test_tie_class_bad_arrays():
    with pytest.raises(ValueError, match="positions"):
        rc2.build_tie_class(np.zeros((3, 2)), np.zeros((3, 2)), [(np.arange(3), 0)], 1)
    with pytest.raises(wadkit.LimitError, match="not an s16"):
        rc2.build_tie_class(np.zeros((3, 3)), np.zeros((3, 2)), [(np.arange(3), 0)], 40000)
    bad = np.zeros((3, 3), np.float32)
    bad[1, 0] = np.nan
    with pytest.raises(wadkit.LimitError, match="vertex 1 is not finite"):
        rc2.build_tie_class(bad, np.zeros((3, 2)), [(np.arange(3), 0)], 1)


# ---- shrubs --------------------------------------------------------------------

def _normal_table():
    """docs/formats/rc2-writers.md, "Shrub classes": the poles, rings of
    eight at ±40° (the lower one turned by 22.5°), six on the equator."""
    out = [(0, 0, 1), (0, 0, -1)]
    for ring in (0, 1):
        e = math.radians(-40 if ring else 40)
        for i in range(8):
            a = (i + 0.5 * ring) * math.pi / 4
            out.append((math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)))
    out += [(math.cos(i * math.pi / 3), math.sin(i * math.pi / 3), 0) for i in range(6)]
    return np.array(out)


def test_shrub_class_byte_exact_against_the_builder():
    rng = np.random.default_rng(3)
    ntri = 20                        # slot 0: 16 + 1, slot 2: 3 triangles
    q, pos = _q_positions(rng, 3 * ntri)
    st = rng.integers(-9000, 9000, (len(pos), 2))
    uv = (st / 4096).astype(np.float32)
    table = _normal_table()
    nrm = rng.normal(size=(len(pos), 3))
    nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
    tri = np.arange(3 * ntri, dtype=np.uint32).reshape(-1, 3)
    tex = np.array([2, 0] * 3 + [0] * (ntri - 6), np.uint8)
    data = rc2.build_shrub_class(pos, uv, nrm.astype(np.float32), tri, tex, 99, 45.0)
    n_idx = np.argmax(nrm.astype(np.float32) @ table.T, axis=1)
    # per slot in slot order, input order within it, 16 triangles a packet;
    # a texture record where the slot changes
    packets = []
    for slot in range(16):
        mine = [t for t in range(ntri) if tex[t] == slot]
        for start in range(0, len(mine), 16):
            g = mine[start:start + 16]
            verts = [(*q[v], *st[v], int(n_idx[v])) for t in g for v in tri[t]]
            packets.append(([("texture", slot)] if start == 0 else []) + [("tris", verts)])
    spec = SB.ShrubClass(packets, scale=float(SCALE), o_class=99, bsphere=_sphere(pos),
                         normals=[tuple(int(round(c * 32767)) for c in n) for n in table],
                         mode_bits=0, instance_count=0, tex1=(0, 0), mip_distance=45.0)
    assert [len(p) for p in packets] == [2, 1, 2]
    assert data == spec.bytes()
    m, e = rc2.shrub_mesh(data), spec.expected()
    for k in ("positions", "uv", "normals", "triangles", "texture"):
        assert np.array_equal(m[k], e[k]), k


def test_shrub_class_winding_follows_the_normals():
    """Triangles wound counter-clockwise about their normals come back as
    given (the reader orients them by the stored normals)."""
    pos = np.array([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 0), (0, 1, 0), (1, 0, 0)],
                   np.float32)
    nrm = np.array([(0, 0, 1)] * 3 + [(0, 0, -1)] * 3, np.float32)
    tri = np.array([(0, 1, 2), (3, 4, 5)], np.uint32)
    m = rc2.shrub_mesh(rc2.build_shrub_class(pos, np.zeros((6, 2)), nrm, tri,
                                             np.zeros(2, np.uint8), 5))
    assert m["triangles"].tolist() == [[0, 1, 2], [3, 4, 5]]


def test_shrub_class_bad_input_names_the_class():
    pos = np.array([(0, 0, 0), (1, 0, 0), (0, 1, 0)], np.float32)
    nrm = np.tile(np.float32([0, 0, 1]), (3, 1))
    one = np.array([(0, 1, 2)], np.uint32)
    with pytest.raises(wadkit.LimitError, match="shrub class 8: .*two corners"):
        rc2.build_shrub_class(pos, np.zeros((3, 2)), nrm, np.array([(0, 1, 1)], np.uint32),
                              np.zeros(1, np.uint8), 8)
    with pytest.raises(wadkit.LimitError, match="shrub class 8: .*slot 16"):
        rc2.build_shrub_class(pos, np.zeros((3, 2)), nrm, one, np.full(1, 16, np.uint8), 8)
    with pytest.raises(wadkit.LimitError, match="shrub class 8: .*vertex 3"):
        rc2.build_shrub_class(pos, np.zeros((3, 2)), nrm, np.array([(0, 1, 3)], np.uint32),
                              np.zeros(1, np.uint8), 8)
    with pytest.raises(ValueError, match="as many rows"):
        rc2.build_shrub_class(pos, np.zeros((2, 2)), nrm, one, np.zeros(1, np.uint8), 8)


# ---- sky ------------------------------------------------------------------------

def _clusters(tri, limit=128):
    """The writer's greedy cut (docs/formats/rc2-writers.md, "Sky")."""
    out, cur, seen = [], [], set()
    for t in tri:
        fresh = len(set(t.tolist()) - seen)
        if len(seen) + fresh > limit:
            out.append(cur)
            cur, seen = [], set()
        cur.append(t)
        seen |= set(t.tolist())
    return out + [cur]


def test_sky_byte_exact_against_the_builder():
    rng = np.random.default_rng(4)
    shells, spec = [], []
    for n, ntri in ((150, 260), (20, 30)):
        q = rng.integers(-30000, 30000, (n, 3))
        pos = (q / 1024).astype(np.float32)
        rgba = rng.integers(0, 256, (n, 4)).astype(np.uint8)
        alpha = rng.integers(0, 0x81, n).astype(np.int16)
        tri = np.array([rng.choice(n, 3, replace=False) for _ in range(ntri)], np.uint32)
        shells.append((pos, rgba, alpha, tri))
        clusters = []
        for part in _clusters(tri):
            local = {}
            for t in part:
                for v in t.tolist():
                    local.setdefault(v, len(local))
            vs = list(local)
            p = pos[vs].astype(np.float64)
            c = (p.min(0) + p.max(0)) / 2
            r = math.sqrt(max(((p - c) ** 2).sum(1))) + 1 / 1024
            clusters.append(([(*q[v], alpha[v]) for v in vs], [tuple(rgba[v]) for v in vs],
                             [(local[t[2]], local[t[1]], local[t[0]], 0xFF) for t in
                              (x.tolist() for x in part)],
                             tuple(float(np.float32(x)) for x in (*c, r))))
        spec.append((False, clusters))
    data = rc2.build_sky(shells, colour=(9, 8, 7, 6), clear_screen=0)
    assert data == KB.block(spec, colour=(9, 8, 7, 6), clear_screen=0)
    sky = wadkit._core.sky_parse(data, 0)
    assert len(sky["shells"][0]["clusters"]) == 3
    for s, (pos, rgba, alpha, tri) in zip(sky["shells"], shells):
        got = s["positions"][s["triangles"]]
        assert np.array_equal(got, pos[tri])          # the triangles as given
        assert not s["textured"] and (s["texture"] == -1).all()


def test_sky_bad_input():
    pos = np.zeros((3, 3), np.float32)
    ok = (pos, np.zeros((3, 4), np.uint8), np.zeros(3, np.int16),
          np.array([(0, 1, 2)], np.uint32))
    with pytest.raises(wadkit.LimitError, match="9 sky shells"):
        rc2.build_sky([ok] * 9)
    far = pos.copy()
    far[2, 1] = 40.0
    with pytest.raises(wadkit.LimitError, match="sky shell 1: vertex 2"):
        rc2.build_sky([ok, (far, *ok[1:])])
    with pytest.raises(wadkit.LimitError, match="sky shell 0: triangle 0 names vertex 5"):
        rc2.build_sky([(*ok[:3], np.array([(0, 1, 5)], np.uint32))])
    with pytest.raises(ValueError, match="shell 0 rgba"):
        rc2.build_sky([(pos, np.zeros((3, 3), np.uint8), *ok[2:])])


# ---- gameplay ------------------------------------------------------------------

def test_new_gameplay_skeleton_byte_exact():
    """Header, tail, then the empty blocks in Wrench's order, 16-aligned:
    the spec builder's layout of the same blocks."""
    tail = b"TAIL" * 5
    s = {"background_colour": (0, 0, 0), "fog_colour": (0, 0, 0), "fog_near_distance": 0.0,
         "fog_far_distance": 0.0, "fog_near_intensity": 0.0, "fog_far_intensity": 0.0,
         "death_height": 0.0, "is_spherical_world": 0, "sphere_centre": (0, 0, 0),
         "ship_position": (0, 0, 0), "ship_rotation_z": 0.0, "ship_path": 0,
         "ship_camera_cuboid_start": 0, "ship_camera_cuboid_end": 0, "pad_58": 0,
         "chunk_plane_records": G.chunk_planes([]), "core_sounds_count": 0}
    blocks = [("settings", G.settings_block(s))]
    for kind in ("moby", "tie", "shrub"):
        blocks += [(f"{kind}_classes", G.class_list([])),
                   (f"{kind}_instances", G.instance_block(kind, []))]
    pad = lambda b: b + bytes(-len(b) % 16)       # noqa: E731
    gap = tail + bytes(-(G.HEADER + len(tail)) % 16)
    want = G.exact(gap, [(n, pad(b)) for n, b in blocks])
    assert rc2.new_gameplay(tail) == want


def test_new_gameplay_with_instances_reads_back():
    m = np.tile(np.eye(4, dtype=np.float32), (3, 1, 1))
    m[:, :3, 3] = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    gp = rc2.new_gameplay(b"", classes={"tie": [5, 6], "moby": [9]},
                          instances={"tie": ([6, 5, 6], m), "moby": ([9], m[:1])},
                          settings={"death_height": -7.5, "fog_colour": (1, 2, 3)})
    r = RR.gameplay(gp)
    assert [t["class_id"] for t in r["ties"]] == [6, 5, 6]
    assert [t["matrix"][0][3] for t in r["ties"]] == [1, 4, 7]
    assert r["class_lists"] == {"tie": [6, 5], "shrub": [], "moby": [9]}
    assert r["mobys"][0]["position"] == [1, 2, 3] and r["mobys"][0]["scale"] == 1.0
    assert r["settings"]["death_height"] == -7.5 and r["settings"]["fog_colour"] == [1, 2, 3]
    with pytest.raises(ValueError, match="class"):
        rc2.new_gameplay(b"", classes={"tie": [5]}, instances={"tie": ([4], m[:1])})


# ---- mobys -----------------------------------------------------------------------

def _azel(n):
    """The writer's normal bytes (docs/formats/rc2-writers.md, "Moby
    classes"): a = atan2(x, y), e = asin(z), byte = round(angle·128/π) mod 256."""
    e = np.arcsin(np.clip(n[:, 2] / np.linalg.norm(n, axis=1), -1, 1))
    a = np.arctan2(n[:, 0], n[:, 1])
    return (np.rint(a * 128 / np.pi).astype(int) % 256,
            np.rint(e * 128 / np.pi).astype(int) % 256)


def test_moby_class_byte_exact_against_the_builder():
    from builders import rc2_moby as MB
    rng = np.random.default_rng(6)
    n, ntri = 150, 90                     # 3 packets: 40 + 40 + 10 triangles
    q, pos = _q_positions(rng, n)
    st = rng.integers(-9000, 9000, (n, 2))
    uv = (st / 4096).astype(np.float32)
    nrm = rng.normal(size=(n, 3)).astype(np.float32)
    tri = np.array([rng.choice(n, 3, replace=False) for _ in range(ntri)], np.uint32)
    tex = np.repeat(np.array([0, 3, 3, 1, 0, 5], np.uint8), 15)
    data = rc2.build_moby_class(pos, uv, nrm, tri, tex, 300)
    az, el = _azel(nrm.astype(np.float64))
    packets, local = [], {}
    start, cur = 0, 0
    while start < ntri:                   # the writer's cut: 40 triangles, 120 vertices
        used, end = [], start
        while end < ntri and end - start < 40:
            fresh = [v for v in dict.fromkeys(tri[end].tolist()) if v not in used]
            if len(used) + len(fresh) > 120:
                break
            used += fresh
            end += 1
        local = {v: k for k, v in enumerate(used)}
        strips = []
        for t in range(start, end):
            a, b, c = (local[v] for v in tri[t].tolist())
            switch = int(tex[t]) if tex[t] != cur else None
            cur = int(tex[t])
            strips.append((switch, [b, a, c]))
        verts = [(*q[v], int(az[v]), int(el[v]), k) for k, v in enumerate(used)]
        packets.append(MB.Packet(verts, strips, sts=[tuple(st[v]) for v in used], transfers=0))
        start = end
    assert len(packets) == 3

    # the low LOD: the same packets, the same switches (its texture state
    # starts at 0 again)
    lo = [MB.Packet(p.vertices, list(p.strips), sts=p.sts, transfers=0) for p in packets]
    spec = MB.MobyClass(high=packets, low=lo, scale=float(SCALE), bsphere=_sphere(pos),
                        tex1=(0, 0), tex_offset_qw=True)
    assert data == spec.bytes()
    for lod in (0, 1):
        m, e = rc2.moby_mesh(data, lod), spec.expected(lod)
        for k in ("positions", "uv", "triangles", "texture"):
            assert np.array_equal(m[k], e[k]), k
        np.testing.assert_allclose(m["normals"], e["normals"], atol=1e-6)
        # and the triangles are the input's, with the input's textures
        assert np.array_equal(m["positions"][m["triangles"]], pos[tri])
        assert m["texture"].tolist() == tex.tolist()


def test_moby_class_bad_input_names_the_class():
    pos = np.eye(3, dtype=np.float32)
    nrm = np.tile(np.float32([0, 0, 1]), (3, 1))
    with pytest.raises(wadkit.LimitError, match="moby class 4: triangle 0 names vertex 3"):
        rc2.build_moby_class(pos, np.zeros((3, 2)), nrm, np.array([(0, 1, 3)], np.uint32),
                             np.zeros(1, np.uint8), 4)
    with pytest.raises(wadkit.LimitError, match="moby class 4: triangle 0 samples texture slot 16"):
        rc2.build_moby_class(pos, np.zeros((3, 2)), nrm, np.array([(0, 1, 2)], np.uint32),
                             np.full(1, 16, np.uint8), 4)
    with pytest.raises(wadkit.LimitError, match="moby class 4: vertex 0: texture coordinate"):
        rc2.build_moby_class(pos, np.full((3, 2), 9.0), nrm, np.array([(0, 1, 2)], np.uint32),
                             np.zeros(1, np.uint8), 4)


@pytest.mark.parametrize("build,kind", [
    (lambda p, n: rc2.build_moby_class(p, np.zeros((3, 2)), n, np.array([(0, 1, 2)], np.uint32),
                                       np.zeros(1, np.uint8), 4), "moby class 4"),
    (lambda p, n: rc2.build_shrub_class(p, np.zeros((3, 2)), n, np.array([(0, 1, 2)], np.uint32),
                                        np.zeros(1, np.uint8), 4), "shrub class 4"),
    (lambda p, n: rc2.build_tie_class(p, np.zeros((3, 2)), [(np.arange(3), 0)], 4),
     "tie class 4")])
def test_class_writers_refuse_a_vertex_that_is_not_finite_or_too_far(build, kind):
    """The three writers quantise vertices alike (class_write.c): a position
    over 1e6 or not finite, or (moby, shrub) a normal that is not finite, is
    a LimitError naming the class and the vertex."""
    pos = np.eye(3, dtype=np.float32)
    nrm = np.tile(np.float32([0, 0, 1]), (3, 1))
    far = pos.copy()
    far[2, 1] = 2e6
    with pytest.raises(wadkit.LimitError, match=f"{kind}: vertex 2 is not finite or lies over 1e6"):
        build(far, nrm)
    if kind != "tie class 4":
        bad = nrm.copy()
        bad[1, 2] = np.inf
        with pytest.raises(wadkit.LimitError, match=f"{kind}: vertex 1 .*its normal is not finite"):
            build(pos, bad)


# ---- any mesh in the limits comes back ------------------------------------------

from hypothesis import given, settings, strategies as hs  # noqa: E402


def _soup(seed, n_tri, spread):
    """n_tri triangles over a shared vertex pool, no two corners of a
    triangle at one place."""
    rng = np.random.default_rng(seed)
    n = max(3, n_tri)
    pos = rng.uniform(-spread, spread, (n, 3)).astype(np.float32)
    uv = rng.uniform(-7.9, 7.9, (n, 2)).astype(np.float32)
    tri = np.array([rng.choice(n, 3, replace=False) for _ in range(n_tri)], np.uint32)
    tex = rng.integers(0, 16, n_tri).astype(np.uint8)
    return rng, pos, uv, tri, tex


def _close(got, want, spread):
    # s16 over ±32000 of the largest coordinate: half a step
    return np.abs(got - want).max() <= spread / 32000 * 0.51 + 1e-6


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 2 ** 32 - 1), hs.integers(1, 300), hs.sampled_from([0.01, 1.0, 500.0]))
def test_any_mesh_comes_back(seed, n_tri, spread):
    rng, pos, uv, tri, tex = _soup(seed, n_tri, spread)
    big = float(np.abs(pos).max())
    # ties: each triangle a strip of its own (winding byte 0: as given)
    data = rc2.build_tie_class(pos, uv, [(t, int(s)) for t, s in zip(tri, tex)], 1)
    m = rc2.tie_mesh(data, 2)
    assert _close(m["positions"][m["triangles"]], pos[tri], big)
    assert np.abs(m["uv"][m["triangles"]] - uv[tri]).max() <= 0.5 / 4096 + 1e-7
    assert m["texture"].tolist() == tex.tolist()
    # mobys: as given, both LODs
    nrm = rng.normal(size=pos.shape).astype(np.float32)
    for lod in (0, 1):
        m = rc2.moby_mesh(rc2.build_moby_class(pos, uv, nrm, tri, tex, 2), lod)
        assert _close(m["positions"][m["triangles"]], pos[tri], big)
        assert m["texture"].tolist() == tex.tolist()
    # shrubs: flat normals that agree with the winding; grouped by slot
    p = pos[tri].astype(np.float64)
    face = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    ok = np.linalg.norm(face, axis=1) > (big / 100) ** 2   # not a sliver
    if ok.any():
        keep = tri[ok]
        flat = pos[keep.ravel()]
        fn = np.repeat(face[ok] / np.linalg.norm(face[ok], axis=1, keepdims=True), 3, 0)
        own = np.arange(3 * len(keep), dtype=np.uint32).reshape(-1, 3)
        m = rc2.shrub_mesh(rc2.build_shrub_class(flat, uv[keep.ravel()], fn.astype(np.float32),
                                                 own, tex[ok], 3))
        order = np.argsort(tex[ok], kind="stable")
        assert _close(m["positions"][m["triangles"]], flat[own][order], big)
        assert m["texture"].tolist() == sorted(tex[ok].tolist())
    # sky: inside 32 units
    sky_pos = (pos / big * 30).astype(np.float32)
    rgba = rng.integers(0, 256, (len(pos), 4)).astype(np.uint8)
    s = wadkit._core.sky_parse(rc2.build_sky([(sky_pos, rgba, np.full(len(pos), 0x80, np.int16),
                                                tri)]), 0)["shells"][0]
    assert np.abs(s["positions"][s["triangles"]] - sky_pos[tri]).max() <= 0.5 / 1024 + 1e-6
