"""ENG collision records: decode to polygons (hand-computed corners, the
engine's n/127 · p = d/4064 scale, spaces), encode for the write path, and
bad input."""
import math

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import eng_collision as C

# A flat quad at y = 0.5 over the whole tile, written plane by plane by hand:
# surface (0,127,0) with d = 32·127·0.5 = 2032; edge planes z ≥ −0.5,
# x ≥ −0.5, z ≤ 0.5, x ≤ 0.5 (inward normals ×127, d = ±32·127·0.5).
QUAD_PLANES = [((0, 127, 0), 2032), ((0, 0, 127), -2032), ((127, 0, 0), -2032),
               ((0, 0, -127), -2032), ((-127, 0, 0), -2032)]
QUAD_CORNERS = [(-0.5, 0.5, -0.5), (-0.5, 0.5, 0.5), (0.5, 0.5, 0.5), (0.5, 0.5, -0.5)]

# A right triangle at y = 0.25 (d 1016 = 32·127·0.25) with edges z ≥ 0,
# x ≥ 0 and the hypotenuse x + z ≤ 0.5: normal (−1,0,−1)/√2·127 → (−90,0,−90),
# d = 32·(−90·0.5) = −1440, so x + z = 1440·127/(90·4064) = 0.5 exactly.
TRI_PLANES = [((0, 127, 0), 1016), ((0, 0, 127), 0), ((127, 0, 0), 0),
              ((-90, 0, -90), -1440)]
TRI_CORNERS = [(0.0, 0.25, 0.0), (0.0, 0.25, 0.5), (0.5, 0.25, 0.0)]


def decode(raw, **kw):
    return _core.eng_collision_decode(raw, **kw)


def test_record_layout_from_spec():
    raw = C.record(1, 0x1e, QUAD_PLANES)
    assert len(raw) == 32 and raw[0] == 1 and raw[1] == 0x1e
    assert raw[2:8] == bytes([0, 127, 0, 0]) + (2032).to_bytes(2, "little")
    out = decode(raw)
    assert out["raw_normal"].dtype == np.int8 and out["raw_d"].dtype == np.int16
    assert out["raw_normal"][0].tolist() == [list(n) for n, _ in QUAD_PLANES]
    assert out["raw_d"][0].tolist() == [d for _, d in QUAD_PLANES]


def test_quad_corners_by_hand():
    out = decode(C.record(1, 3, QUAD_PLANES))
    assert out["n_corners"].tolist() == [4]
    assert out["type"].tolist() == [1] and out["material"].tolist() == [3]
    np.testing.assert_allclose(out["corners"][0], QUAD_CORNERS, atol=1e-6)
    np.testing.assert_allclose(out["normal"][0], [0, 1, 0])
    assert out["d"][0] == pytest.approx(0.5)


def test_triangle_corners_by_hand_use_4064_scale():
    out = decode(C.record(0, 0, TRI_PLANES))
    assert out["n_corners"].tolist() == [3]
    np.testing.assert_allclose(out["corners"][0, :3], TRI_CORNERS, atol=1e-6)
    assert np.isnan(out["corners"][0, 3]).all()
    # d/4096 would put the surface at 0.248: the engine's scale gives 0.25
    assert out["corners"][0, 0, 1] == pytest.approx(0.25, abs=1e-7)


def test_export_space_negates_z_and_reverses_order():
    f = decode(C.record(0, 0, TRI_PLANES))
    e = decode(C.record(0, 0, TRI_PLANES), space="export")
    flip = np.array([1, 1, -1], np.float32)
    np.testing.assert_allclose(e["corners"][0, :3], f["corners"][0, [0, 2, 1]] * flip)
    np.testing.assert_allclose(e["normal"][0], f["normal"][0] * flip)
    assert e["d"][0] == f["d"][0]
    q = decode(C.record(1, 0, QUAD_PLANES), space="export")
    np.testing.assert_allclose(q["corners"][0], np.array(QUAD_CORNERS)[[0, 3, 2, 1]] * flip,
                               atol=1e-6)
    assert decode(b"", space="game")["corners"].shape == (0, 4, 3)
    with pytest.raises(ValueError, match="space"):
        decode(b"", space="world")


def test_groups():
    raw = C.record(1, 0, QUAD_PLANES) * 2 + C.record(0, 0, TRI_PLANES) * 3
    out = decode(raw, groups=(2, 0, 3))
    assert out["group"].tolist() == [0, 0, 2, 2, 2]
    assert out["n_corners"].tolist() == [4, 4, 3, 3, 3]
    assert decode(raw)["group"].tolist() == [0] * 5


def test_encode_matches_hand_records():
    raw, dropped = _core.eng_collision_encode([QUAD_CORNERS], 0)
    assert raw == C.record(1, 0, QUAD_PLANES) and dropped.tolist() == []
    raw, _ = _core.eng_collision_encode([TRI_CORNERS], [7])
    assert raw == C.record(0, 7, TRI_PLANES)
    # a (P,4,3) array with a NaN 4th corner is a triangle
    mixed = np.full((2, 4, 3), np.nan, np.float32)
    mixed[0] = QUAD_CORNERS
    mixed[1, :3] = TRI_CORNERS
    raw, _ = _core.eng_collision_encode(mixed, [0, 7])
    assert raw == C.record(1, 0, QUAD_PLANES) + C.record(0, 7, TRI_PLANES)


def test_encode_downward_polygon_sets_type_bit2():
    raw, _ = _core.eng_collision_encode([TRI_CORNERS[::-1]], 0)
    t, _, planes = C.unpack(raw)
    assert t == 4 and planes[0] == ((0, -127, 0), -1016)


def plane_residual(planes, pts):
    """Largest distance (units) of pts from a record plane ((n), d)."""
    (n, d) = planes
    ln = 32 * math.sqrt(sum(x * x for x in n))
    return max(abs(32 * sum(n[i] * p[i] for i in range(3)) - d) / ln for p in pts)


def test_encode_fits_planes_at_least_as_well_as_spec_rounding():
    # the spec builder rounds each unit normal ×127; the encoder may pick a
    # neighbour (±1) when its plane passes closer to the corners
    rng = np.random.default_rng(5)
    tris = rng.uniform(-2, 2, (200, 3, 3)).astype(np.float32)
    raw, dropped = _core.eng_collision_encode(tris, 0)
    assert dropped.tolist() == []
    for i in range(200):
        c = tris[i].tolist()
        ref = C.unpack(C.polygon(c))[2]
        got = C.unpack(raw[32 * i:32 * i + 32])[2]
        assert got[4] == ((0, 0, 0), 0)
        for k in range(4):
            pts = c if k == 0 else [c[k - 2], c[k - 1]]
            assert max(abs(a - b) for a, b in zip(got[k][0], ref[k][0])) <= 1, (i, k)
            assert plane_residual(got[k], pts) <= plane_residual(ref[k], pts) + 1e-9


def random_polygons(rng, n):
    """Triangles with angles ≥ 25° and rectangles, edges 0.2–1.5, tilted
    up to 60°, around points within ±2 units of the tile origin."""
    out, counts = np.full((n, 4, 3), np.nan), []
    i = 0
    while i < n:
        centre = rng.uniform(-2, 2, 3)
        axis = rng.normal(size=3)
        axis[1] = abs(axis[1]) + 1.0
        normal = axis / np.linalg.norm(axis)
        t1 = np.cross(normal, [1.0, 0, 0])
        t1 /= np.linalg.norm(t1)
        t2 = np.cross(normal, t1)
        if i % 2:
            w, h = rng.uniform(0.2, 1.5, 2)
            pts = [(-w, -h), (-w, h), (w, h), (w, -h)]
        else:
            a = np.sort(rng.uniform(0, 2 * np.pi, 3))
            gaps = np.diff(np.append(a, a[0] + 2 * np.pi))
            if gaps.min() < np.radians(50):  # inscribed angle = gap/2 ≥ 25°
                continue
            r = rng.uniform(0.3, 1.0)
            pts = [(r * np.cos(x), r * np.sin(x)) for x in a]
        poly = [centre + u * t1 + v * t2 for u, v in pts]
        if np.dot(np.cross(poly[1] - poly[0], poly[2] - poly[0]), normal) < 0:
            poly = poly[::-1]
        out[i, :len(poly)] = poly
        counts.append(len(poly))
        i += 1
    return out.astype(np.float32), np.array(counts, np.uint8)


def test_encode_decode_within_fixed_point_precision():
    rng = np.random.default_rng(11)
    corners, counts = random_polygons(rng, 400)
    raw, dropped = _core.eng_collision_encode(corners, 5, counts)
    assert len(raw) == 32 * 400 and dropped.tolist() == []
    out = decode(raw)
    assert out["n_corners"].tolist() == counts.tolist()
    assert (out["material"] == 5).all()
    err = np.nanmax(np.abs(out["corners"] - corners), axis=(1, 2))
    # i8 normals and i16 d: a few mm for polygons of this size (measured
    # over 4000: max 0.0072, 99 % < 0.0047, median 0.0012)
    assert err.max() < 0.009, err.max()
    assert np.median(err) < 0.002


def test_export_space_encode_is_file_space_mirrored():
    corners, counts = random_polygons(np.random.default_rng(3), 20)
    raw_f, _ = _core.eng_collision_encode(corners, 0, counts)
    exp = corners.copy()
    exp[:, :, 2] *= -1
    for i, n in enumerate(counts):
        exp[i, 1:n] = exp[i, 1:n][::-1]
    raw_e, _ = _core.eng_collision_encode(exp, 0, counts, space="export")
    assert raw_e == raw_f


def test_encode_limit_error_beyond_8_units():
    far = [(8.2, 0.0, 0.0), (8.2, 0.0, 0.5), (8.7, 0.0, 0.0)]
    with pytest.raises(wadkit.LimitError, match="i16 range"):
        _core.eng_collision_encode([far], 0)
    near = [(7.5, 0.0, 0.0), (7.5, 0.0, 0.3), (7.8, 0.0, 0.0)]
    _core.eng_collision_encode([near], 0)
    high = [(0.0, 8.5, 0.0), (0.0, 8.5, 0.5), (0.5, 8.5, 0.0)]
    with pytest.raises(wadkit.LimitError, match="polygon 1"):
        _core.eng_collision_encode([near, high], 0)


def test_encode_rejects_bad_polygons():
    line = [(0, 0, 0), (0.5, 0, 0), (1.0, 0, 0)]
    with pytest.raises(ValueError, match="degenerate"):
        _core.eng_collision_encode([TRI_CORNERS, line], 0)
    raw, dropped = _core.eng_collision_encode([line, TRI_CORNERS], 0, drop_degenerate=True)
    assert dropped.tolist() == [0] and raw == C.record(0, 0, TRI_PLANES)
    bent = [(0, 0, 0), (0, 0, 1), (1, 0.2, 1), (1, 0, 0)]
    with pytest.raises(ValueError, match="not planar"):
        _core.eng_collision_encode([bent], 0)
    dart = [(0, 0, 0), (0.2, 0, 0.3), (0, 0, 1), (1, 0, 0)]
    with pytest.raises(ValueError):
        _core.eng_collision_encode([dart], 0)
    nan = [(0, 0, 0), (0, 0, float("nan")), (1, 0, 0)]
    with pytest.raises(ValueError, match="finite"):
        _core.eng_collision_encode([nan], 0, drop_degenerate=True)
    with pytest.raises(ValueError, match="corners"):
        _core.eng_collision_encode(np.zeros((1, 5, 3)), 0)
    with pytest.raises(ValueError, match="3 or 4"):
        _core.eng_collision_encode([QUAD_CORNERS], 0, [5])
    with pytest.raises(ValueError, match="material"):
        _core.eng_collision_encode([QUAD_CORNERS], 300)


def test_decode_bad_length_is_format_error():
    raw = C.record(1, 0, QUAD_PLANES) + b"\x00"
    with pytest.raises(wadkit.FormatError) as e:
        decode(raw)
    assert e.value.offset == 32 and "1 bytes left over" in str(e.value)
    with pytest.raises(wadkit.FormatError) as e:
        decode(raw, offset=0x1000)
    assert e.value.offset == 0x1020


def test_decode_bad_groups_is_format_error():
    raw = C.record(1, 0, QUAD_PLANES) * 2
    with pytest.raises(wadkit.FormatError, match="do not add up"):
        decode(raw, groups=(1, 0, 0))
    with pytest.raises(ValueError, match=r"^groups: shape \(3,\) expected"):
        decode(raw, groups=(1, 1))
    with pytest.raises(wadkit.FormatError, match="of 2 models add up to 3, not the 2"):
        decode(raw, groups=[(1, 0, 0), (1, 1, 0)])


def test_decode_unsolvable_planes_give_nan():
    # edge planes parallel to the surface: no corner, no crash
    raw = C.record(0, 0, [((0, 127, 0), 0)] * 4)
    out = decode(raw)
    assert np.isnan(out["corners"]).all()


def test_decode_any_bytes_never_crash():
    rng = np.random.default_rng(1)
    raw = rng.integers(0, 256, 32 * 300, dtype=np.uint8).tobytes()
    out = decode(raw)
    assert out["corners"].shape == (300, 4, 3)
    assert set(out["n_corners"].tolist()) <= {3, 4}


def test_needle_corners_from_spec_reconstruct():
    # the spec's needle triangle (world corners, tile at (57.5, 2, 43.5),
    # ry 3072), rebuilt with its stated plane (108, 65, 10)/127
    b, ry = (57.5, 2.0, 43.5), 3072
    world = [(57.725, 2.553, 43.734), (57.750, 2.651, 43.677), (57.315, 2.497, 43.729)]
    local = [C.world_to_local(p, b, ry) for p in world]
    raw = C.polygon(local, surface=(108, 65, 10))
    out = decode(raw)
    back = [C.local_to_world(p, b, ry) for p in out["corners"][0, :3].tolist()]
    # the corners are given to 3 decimals and the normal to i8: within 4 mm
    np.testing.assert_allclose(back, world, atol=0.004)
    # the angle at the corner at x 57.315 is 13.5° (spec)
    c = np.array(back)
    u, v = c[0] - c[2], c[1] - c[2]
    ang = math.degrees(math.acos(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)))
    assert ang == pytest.approx(13.5, abs=0.5)
