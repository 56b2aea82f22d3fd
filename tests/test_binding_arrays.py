"""Every binding takes its input arrays one way (csrc/module/arrays.c,
wk_array_arg): any array-like is converted to the documented dtype and C
order, wrong shapes and dtypes are refused naming the argument."""
import warnings

import numpy as np
import pytest

import wadkit
from wadkit import _core
from test_eng_import import TABLE, base_level, quad_mesh


def _geom():
    return wadkit.eng.from_bytes(base_level())._geom


def _import(g, pos, tri, uv, tex, **kw):
    args = dict(color=None, face_flags=None, c_positions=None, c_polygons=None,
                c_material=None, texture_table=TABLE)
    args.update(kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        return g.import_mesh(pos, tri, uv, tex, args["color"], args["face_flags"],
                             args["c_positions"], args["c_polygons"],
                             args["c_material"], args["texture_table"])


def test_import_mesh_converts_float64_positions():
    """float64 positions used to be read as float32 bytes ("coordinate
    2.72e+23"); they are converted, and give the same level."""
    g = _geom()
    pos, tri, uv, tex = quad_mesh()
    want = _import(g, pos, tri, uv, tex)
    got = _import(g, pos.astype(np.float64), tri.astype(np.int64),
                  uv.astype(np.float64), tex.astype(np.int64))
    assert got["trak"] == want["trak"] and got["map"] == want["map"]
    # lists, a Fortran-ordered copy and a strided view are array-likes too
    lists = _import(g, pos.tolist(), tri.tolist(), uv.tolist(), tex.tolist())
    assert lists["trak"] == want["trak"]
    wide = np.zeros((4, 6), np.float32)
    wide[:, ::2] = pos
    strided = _import(g, wide[:, ::2], np.asfortranarray(tri), uv, tex)
    assert strided["trak"] == want["trak"] and strided["map"] == want["map"]


@pytest.mark.parametrize("which, value, exc, message", [
    ("pos", np.zeros((4, 2), np.float32), ValueError,
     r"positions: shape \(n, 3\) expected, got \(4, 2\)"),
    ("pos", np.zeros(12, np.float32), ValueError,
     r"positions: shape \(n, 3\) expected, got \(12,\)"),
    ("tri", np.zeros((2, 3), np.float32), TypeError,
     r"triangles: an array of float32 cannot be converted to uint32"),
    ("tri", np.full((2, 3), -1), ValueError, r"triangles: value -1 \(item 0\) does not fit uint32 \(0\.\.4294967295\)"),
    ("uv", np.zeros((3, 3, 2), np.float32), ValueError,
     r"uv: shape \(2, 3, 2\) expected, got \(3, 3, 2\)"),
    ("tex", np.array([0, 1 << 40]), ValueError, r"texture: value 1099511627776 \(item 1\) does not fit int32"),
    ("tex", ["a", "b"], TypeError, r"texture: an array of <U1 cannot be converted"),
    ("pos", None, TypeError, r"positions: an array is needed, not None"),
    ("pos", [[0, 1], [2]], ValueError, r"^positions: "),
])
def test_import_mesh_refuses_by_name(which, value, exc, message):
    g = _geom()
    pos, tri, uv, tex = quad_mesh()
    args = dict(pos=pos, tri=tri, uv=uv, tex=tex)
    args[which] = value
    with pytest.raises(exc, match=message):
        _import(g, args["pos"], args["tri"], args["uv"], args["tex"])


def test_import_mesh_optional_arrays_by_name():
    g = _geom()
    pos, tri, uv, tex = quad_mesh()
    with pytest.raises(ValueError, match=r"color: shape \(2, 3, 4\) expected"):
        _import(g, pos, tri, uv, tex, color=np.zeros((2, 3, 3), np.float32))
    with pytest.raises(ValueError, match=r"face_flags: shape \(2,\) expected, got \(3,\)"):
        _import(g, pos, tri, uv, tex, face_flags=np.zeros(3, np.uint16))
    with pytest.raises(ValueError, match=r"c_material: shape \(1,\) expected"):
        _import(g, pos, tri, uv, tex, c_positions=pos,
                c_polygons=np.array([[0, 1, 2, 3]]), c_material=np.zeros(2, np.uint8))
    with pytest.raises(ValueError, match=r"c_polygons: shape \(n, 4\) expected"):
        _import(g, pos, tri, uv, tex, c_positions=pos, c_polygons=np.array([[0, 1, 2]]))


def test_array_taken_without_copy_when_it_fits():
    """A C-ordered array of the right dtype is handed to the core as it is
    (no copy): the binding holds one more reference while it runs, nothing
    else (checked through the reference count before and after)."""
    import sys
    g = _geom()
    pos, tri, uv, tex = quad_mesh()
    before = [sys.getrefcount(a) for a in (pos, tri, uv, tex)]
    _import(g, pos, tri, uv, tex)
    assert [sys.getrefcount(a) for a in (pos, tri, uv, tex)] == before


def test_other_bindings_refuse_by_name():
    a = np.zeros((2, 3), np.float32)
    b = np.zeros((2, 6), np.int32)
    m = np.zeros(2, np.uint32)
    with pytest.raises(ValueError, match=r"^b: shape \(2, 6\) expected, got \(2, 5\)"):
        _core.EngFloorWorld(4, 4, a, b[:, :5], m, [b"", b""])
    with pytest.raises(ValueError, match=r"^corners: shape \(n, n, 3\) expected"):
        _core.eng_collision_encode(np.zeros((1, 3, 2), np.float32), 0)
    with pytest.raises(ValueError, match=r"^material: shape \(1,\) expected"):
        _core.eng_collision_encode(np.zeros((1, 3, 3), np.float32), [1, 2])
    with pytest.raises(ValueError, match=r"^object positions: shape \(n, 3\)"):
        _core.eng_new_level(4, 4, 0, [], [], b"", None, None,
                            [(np.zeros((3, 2)), np.zeros((1, 3)), [0], np.zeros((1, 3, 2)))])
    with pytest.raises(ValueError, match=r"^zone grid: shape \(4, 5\) expected"):
        _core.eng_new_level(5, 4, 0, [], [], b"", None, np.zeros((5, 4), int), [])
    with pytest.raises(ValueError, match=r"^page pixels: shape \(2, 2\) expected"):
        _core.eng_new_level(4, 4, 0, [], [(0, 2, 2, np.zeros((2, 3), np.uint8))],
                            b"", None, None, [])
    mesh = (np.zeros((3, 3)), np.zeros((3, 2)), np.zeros((2, 4)), [0, 1, 2], [3], [0])
    with pytest.raises(ValueError, match=r"^mesh 0 color: shape \(3, 4\) expected"):
        _core.tfrag_build([mesh])
    with pytest.raises(ValueError, match=r"^texture 0 pixels: shape \(4, 4\) expected"):
        _core.rc2_build_level(b"x" * 16, [(4, 4, 0, np.zeros((4, 3), np.uint8))],
                              np.zeros((1, 256, 4), np.uint8), b"g", 0, 0)


def test_eng_new_level_accepts_any_array_like():
    """Lists and float64 arrays (converted) give the same WAD as the
    documented dtypes."""
    obj = dict(positions=[[0, 0, 0], [1, 0, 0], [0, 0, 1]], triangles=[[0, 1, 2]],
               texture=[0], uv=[[(0, 0), (1, 0), (0, 1)]])
    typed = dict(positions=np.array(obj["positions"], np.float32),
                 triangles=np.array(obj["triangles"], np.uint32),
                 texture=np.array([0], np.uint16),
                 uv=np.array(obj["uv"], np.float32))
    page = [("rle16", np.zeros((8, 8, 4), np.uint8))]
    from wadkit._eng_new import texture_entry
    entry = [texture_entry(0)]
    a = wadkit.eng.new_level(4, 4, page, textures=entry, objects=[obj])
    b = wadkit.eng.new_level(4, 4, page, textures=entry, objects=[typed])
    assert a.to_bytes() == b.to_bytes()


# ---- the bindings main brought (ENG edit, colours, RC2 collision, save) ----

def _edit_level():
    from builders import eng_terrain as T
    wad, _ = T.terrain_level(grid=6)
    return wadkit.eng.from_bytes(wad), wad


def _tile_arrays(lvl, tile):
    m = lvl.models[lvl.tiles.model[tile]]
    mesh = lvl.world_mesh()
    return (m.positions.copy(), m.triangles.copy(), mesh["uv"][mesh["tile"] == tile],
            m.face_texture.astype(np.int32))


def test_eng_edit_binding_converts_any_array_like():
    """EngEdit.set_geometry takes float64 positions, int64 triangles and
    lists as the documented dtypes (the same edited bytes), and names the
    argument of a wrong shape or dtype."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        lvl, _ = _edit_level()
        pos, tri, uv, tex = _tile_arrays(lvl, 7)
        pos[0, 1] += 0.25
        tiles = np.array([7], np.uint32)
        a = lvl.edit()
        a._core.set_geometry(tiles, pos, tri, uv, tex, None, None, None)
        b = lvl.edit()
        b._core.set_geometry([7], pos.astype(np.float64), tri.astype(np.int64),
                             uv.tolist(), tex.astype(np.int64), None, None, None)
        assert a._core.build()["trak"] == b._core.build()["trak"]
        core = lvl.edit()._core
    n = len(tri)
    with pytest.raises(ValueError, match=r"^positions: shape \(n, 3\) expected, got \(4, 2\)"):
        core.set_geometry(tiles, np.zeros((4, 2)), tri, uv, tex, None, None, None)
    with pytest.raises(TypeError, match=r"^triangles: an array of float64 cannot"):
        core.set_geometry(tiles, pos, tri.astype(np.float64), uv, tex, None, None, None)
    with pytest.raises(ValueError, match=rf"^uv: shape \({n}, 3, 2\) expected"):
        core.set_geometry(tiles, pos, tri, uv[:1], tex, None, None, None)
    with pytest.raises(ValueError, match=rf"^face_flags: shape \({n},\) expected"):
        core.set_geometry(tiles, pos, tri, uv, tex, np.zeros(n + 1, np.uint16), None, None)
    with pytest.raises(ValueError, match=r"^colors\[0\]: shape \(n, n, 4\) expected"):
        core.set_geometry(tiles, pos, tri, uv, tex, None, [np.zeros((2, 3), np.uint8)], None)
    with pytest.raises(ValueError, match=r"^polygons: shape \(n, 4\) expected"):
        core.set_collision(tiles, pos, np.zeros((1, 3), np.int32), None, None)
    with pytest.raises(ValueError, match=r"^material: shape \(1,\) expected, got \(2,\)"):
        core.set_collision(tiles, pos, np.zeros((1, 4), np.int32), [0, 0], None)
    with pytest.raises(TypeError, match=r"^colors: an array is needed, not None"):
        core.set_colors(7, None, None)
    with pytest.raises(ValueError, match=r"^c_material: shape \(0,\) expected"):
        core.add_mesh(pos, tri, uv, tex, None, None, np.zeros((0, 3)),
                      np.zeros((0, 4)), [1], False, None)


def test_colour_and_rc2_writer_bindings_refuse_by_name():
    with pytest.raises(ValueError, match=r"^current: shape \(2, 4\) expected, got \(3, 4\)"):
        _core.eng_colors_from_display(np.zeros((2, 4)), np.zeros((3, 4), np.uint8))
    assert _core.eng_colors_to_display([[128, 64, 0, 0]]).tolist() == [[1.0, 0.5, 0.0, 1.0]]
    pos = [[1, 1, 1], [2, 1, 1], [1, 2, 1]]
    want = _core.collision_build(np.float32(pos), np.uint32([[0, 1, 2]]), np.uint8([3]),
                                 np.zeros((0, 4), np.uint32), np.zeros(0, np.uint8))
    # float64 / int64 / lists / empty lists convert to the same block
    assert _core.collision_build(pos, [[0, 1, 2]], [3], np.zeros((0, 4)), []) == want
    with pytest.raises(ValueError, match=r"^triangle tags: shape \(1,\) expected, got \(2,\)"):
        _core.collision_build(pos, [[0, 1, 2]], [3, 3], np.zeros((0, 4)), [])
    with pytest.raises(TypeError, match=r"^triangle tags: an array of float64 cannot"):
        _core.collision_build(pos, [[0, 1, 2]], [3.5], np.zeros((0, 4)), [])
    with pytest.raises(ValueError, match=r"^quads: shape \(n, 4\) expected"):
        _core.collision_build(pos, [[0, 1, 2]], [3], [[0, 1, 2]], [0])
    oct_args = dict(y=np.zeros((0, 3)), x=np.zeros((0, 3)), coord=np.zeros((1, 3), int),
                    counts=np.zeros((2, 3), int), v=np.zeros((0, 3)), f=np.zeros((0, 4)),
                    t=np.zeros(0))
    with pytest.raises(ValueError, match=r"^counts: shape \(1, 3\) expected, got \(2, 3\)"):
        _core.collision_build_octants(0, (0, 0), *oct_args.values(), b"")
    with pytest.raises(ValueError, match=r"^mesh 0 color: shape \(1, 3, 4\) expected"):
        _core.rc2_tfrags_edit(b"", 0, 1, None, None, None, None,
                              [(0, np.zeros((3, 3)), [[0, 1, 2]], np.zeros((1, 3, 2)),
                                np.zeros((1, 3)), [0])])
    with pytest.raises(ValueError, match=r"^ties matrix: shape \(1, 4, 4\) expected"):
        _core.rc2_gameplay_write(b"", {}, {"tie": ([0], [1], np.zeros((1, 4)))}, [])
    with pytest.raises(ValueError, match=r"^shrub core ids: value 4294967296"):
        _core.rc2_gameplay_write(b"", {"shrub": [1 << 32]}, {}, [])
    with pytest.raises(TypeError, match=r"^tie_ids: an array of float64 cannot"):
        _core.rc2_gameplay_parse(b"", [0.5])
