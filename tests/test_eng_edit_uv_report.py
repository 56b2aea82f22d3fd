"""The UV fit is reported, not silent: add_mesh and set_geometry count the
triangles whose entry and corner flags the fitter chose and the largest UV
error in texels (issue 15: a 0.01 UV shift must not come out as 3/256
without a word). Levels from the terrain builder (tests/builders)."""
import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import eng_terrain as T

pytestmark = pytest.mark.filterwarnings("ignore::wadkit.WadWarning")


def quads(n=2, size=1.0, x0=2.0, z0=2.0, y=1.0):
    """n×n quads, each two triangles showing texture entry 0's rectangle."""
    pos, tri, uv = [], [], []
    step = size / n
    for i in range(n):
        for j in range(n):
            k = len(pos)
            x, z = x0 + i * step, z0 + j * step
            pos += [(x, y, z), (x + step, y, z), (x + step, y, z + step), (x, y, z + step)]
            tri += [(k, k + 2, k + 1), (k, k + 3, k + 2)]
    return (np.array(pos, np.float32), np.array(tri, np.uint32),
            np.zeros((len(tri), 3, 2), np.float32))


def entry0_uvs(lvl, n_tri):
    """UVs that show entry 0 exactly: the two halves of its rectangle by
    the engine's corner rules (0x800, 0x810), in file corner order."""
    rect = tuple(float(x) for x in lvl.textures["rect"][0])
    halves = [_core.eng_face_uvs(rect, f)[[0, 2, 1]] for f in (0x800, 0x810)]
    return np.array([halves[k % 2] for k in range(n_tri)], np.float32)


def test_add_mesh_reports_fitted_triangles_and_their_largest_error():
    lvl = wadkit.eng.from_bytes(T.terrain_level()[0])
    pos, tri, _ = quads()
    exact = entry0_uvs(lvl, len(tri))
    ed = lvl.edit()
    r = ed.add_mesh(pos, tri, exact, np.zeros(len(tri), np.int32), name="Exact")
    assert r["uv_fitted"] == len(tri) and r["uv_max_error"] == pytest.approx(0, abs=1e-3)
    shifted = exact + np.float32(0.01)            # 2.56 texels: 3 texels off, 0.44 left
    r = ed.add_mesh(pos + [0, 0, 2], tri, shifted, np.zeros(len(tri), np.int32),
                    name="Shifted")
    assert r["uv_fitted"] == len(tri)
    assert r["uv_max_error"] == pytest.approx(0.44, abs=0.011)
    assert r["uv_inexact"] == 0                    # within half a texel
    new = ed.apply()
    assert new.edit_report["uv_fitted"] == 2 * len(tri)
    assert new.edit_report["uv_max_error"] == pytest.approx(0.44, abs=0.011)
    assert new.edit_report["new_texture_entries"] == 1      # the shifted rectangle


def test_set_geometry_reports_a_uv_shift():
    lvl = wadkit.eng.from_bytes(T.terrain_level()[0])
    t = lvl.tiles
    models, counts = np.unique(t.model, return_counts=True)
    tile = int(np.flatnonzero(t.model == models[(counts == 1) & (models > 0)][0])[0])
    m = lvl.models[t.model[tile]]
    wm = lvl.world_mesh()
    uv = wm["uv"][wm["tile"] == tile] + np.float32(0.01)
    ed = lvl.edit()
    r = ed.set_geometry(tile, m.positions, m.triangles, uv, m.face_texture,
                        face_flags=m.face_flags)
    assert r["uv_fitted"] == len(m.triangles)
    assert 0.4 < r["uv_max_error"] <= 0.5
    assert ed.apply().edit_report["uv_fitted"] == len(m.triangles)
