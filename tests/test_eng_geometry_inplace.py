"""TRAK models and MAP colours are read in place (views into the payload)
when the payload cannot change, and copied otherwise (a mutable buffer, or
data not 4-aligned). Whichever way, the parse gives the same models, world
mesh, byte-identical rebuilds and the same errors, and the views stay valid
after the caller drops its own references."""
import gc
import struct
import warnings

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import eng_level as L


@pytest.fixture(scope="module")
def level():
    data, _ = L.realistic_level()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        lvl = wadkit.eng.from_bytes(data)
    parts = {}
    for c in lvl.chunks:
        parts[c.tag.strip()] = (bytes(lvl.chunk(c.tag)), c.offset + 8)
    return parts


def geometry(parts, wrap):
    """EngGeometry of the level with TRAK and MAP passed through wrap."""
    trak, trak_at = parts["TRAK"]
    map_, map_at = parts["MAP"]
    wfpc, wfpc_at = parts.get("WFPC", (None, 0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        return _core.EngGeometry(wfpc, wrap(trak), trak_at, wrap(map_), map_at,
                                 None, 0, wfpc_at)


def shifted(k):
    """The payload k bytes into a bytes object: not 4-aligned for k = 1..3."""
    return lambda b: memoryview(b"\0" * k + b)[k:]


def summary(g):
    models = g.models("file")
    mesh = g.world_mesh("file", None, 1)
    return models, mesh


def assert_same(a, b):
    ma, mesh_a = a
    mb, mesh_b = b
    assert len(ma) == len(mb)
    for x, y in zip(ma, mb):
        assert sorted(x) == sorted(y)
        for k in x:
            if isinstance(x[k], np.ndarray):
                np.testing.assert_array_equal(x[k], y[k], err_msg=k)
            else:
                assert x[k] == y[k], k
    for k in mesh_a:
        np.testing.assert_array_equal(mesh_a[k], mesh_b[k], err_msg=k)


@pytest.mark.parametrize("wrap", [bytearray, shifted(1), shifted(2), shifted(3)],
                         ids=["bytearray", "off1", "off2", "off3"])
def test_copied_parse_equals_the_view_parse(level, wrap):
    view = geometry(level, bytes)
    other = geometry(level, wrap)
    assert_same(summary(view), summary(other))
    for g in (view, other):
        assert g.build_trak() == level["TRAK"][0]
        assert g.build_map() == level["MAP"][0]


def test_views_outlive_the_callers_bytes(level):
    trak, map_ = bytes(level["TRAK"][0]), bytes(level["MAP"][0])
    g = geometry({**level, "TRAK": (trak, level["TRAK"][1]),
                  "MAP": (map_, level["MAP"][1])}, memoryview)
    del trak, map_
    gc.collect()
    _ = [bytes(len(level["TRAK"][0])) for _ in range(4)]  # reuse freed memory
    assert g.build_trak() == level["TRAK"][0]
    assert g.build_map() == level["MAP"][0]
    assert_same(summary(g), summary(geometry(level, bytearray)))


def test_a_mutable_buffer_is_copied(level):
    trak, map_ = bytearray(level["TRAK"][0]), bytearray(level["MAP"][0])
    g = geometry({**level, "TRAK": (trak, level["TRAK"][1]),
                  "MAP": (map_, level["MAP"][1])}, lambda b: b)
    before = summary(g)
    trak[:] = bytes(len(trak))
    map_[:] = bytes(len(map_))
    assert_same(before, summary(g))
    assert g.build_trak() == level["TRAK"][0]
    assert g.build_map() == level["MAP"][0]


@pytest.mark.parametrize("wrap", [bytes, bytearray, shifted(1)],
                         ids=["view", "bytearray", "off1"])
def test_bad_face_index_has_the_same_offset_either_way(level, wrap):
    trak, trak_at = level["TRAK"]
    n_models = struct.unpack_from("<I", trak)[0]
    # the models' data follow the headers: vertices, faces, collision
    at = 4 + n_models * 0x84
    for j in range(n_models):
        n_verts, n_faces = struct.unpack_from("<HH", trak, 4 + j * 0x84 + 0x6c)
        n_coll = sum(struct.unpack_from("<3H", trak, 4 + j * 0x84 + 0x78))
        if n_faces:
            break
        at += n_verts * 24 + n_coll * 32
    face0 = at + n_verts * 24          # corner 1 of face 0 is at +4
    bad = bytearray(trak)
    struct.pack_into("<H", bad, face0 + 4, n_verts)
    with pytest.raises(wadkit.FormatError) as info:
        geometry({**level, "TRAK": (bytes(bad), trak_at)}, wrap)
    assert info.value.offset == trak_at + face0 + 4
    assert info.value.context.startswith(f"TRAK model {j}")
    assert f"uses vertex {n_verts}" in str(info.value)
