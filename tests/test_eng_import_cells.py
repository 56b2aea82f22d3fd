"""The write path's cells (issue 14, part C): tiles turned by a quarter turn
no longer put points at -1e-16 (a cell before the grid), and cells are
half-open: a polygon goes into the cells its interior covers, not into the
next cell when it ends on the line between them."""
import warnings

import numpy as np
import pytest

import wadkit
from builders import eng_terrain as T
from test_eng_import import base_level, quad_mesh, quiet


def rotated_level():
    wad, facts = T.terrain_level(grid=10, seed=4, water_border=False, swap=False,
                                 crates=0)
    assert {1024, 3072} <= set(facts["rotations"].values())
    return wadkit.eng.from_bytes(wad)


def test_world_mesh_of_quarter_turns_is_exact():
    lvl = rotated_level()
    pos = lvl.world_mesh()["positions"]
    # patches end on the grid's own edges x = 0 and z = 0: exactly, not -1e-16
    assert pos[:, 0].min() == 0.0 and pos[:, 2].min() == 0.0
    frac = pos[:, [0, 2]] * 4 - np.round(pos[:, [0, 2]] * 4)
    assert np.abs(frac).max() == 0.0           # every vertex on its 1/4 grid


def test_with_geometry_of_world_mesh_agrees_with_the_source_floor():
    """with_geometry(**world_mesh()) of a level with 90°-rotated tiles
    succeeds; the engine's floor heights agree with the source within 5 mm
    at >= 99.5 % of 2,000 random points."""
    lvl = rotated_level()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        new = lvl.with_geometry(**lvl.world_mesh())
    rng = np.random.default_rng(7)
    pts = rng.uniform(0.0, 10.0, (2400, 2))
    pts = pts[(pts[:, 0] >= 1) | (pts[:, 1] >= 1)][:2000]   # not the water cell
    agree = 0
    for x, z in pts:
        y = T.height(x, z) + 0.1
        a, b = lvl.floor(x, y, z), new.floor(x, y, z)
        assert a is not None
        agree += b is not None and abs(a["height"] - b["height"]) < 0.005
    assert agree / 2000 >= 0.995, agree
    # every collision polygon went into its own cell only: as many records
    # as the source's terrain triangles (water cell (0, 0): the plane is not
    # a render triangle and does not come back)
    src = sum(len(lvl.models[m].triangles) for m in lvl.tiles.model)
    assert new.import_report["collision_records"] == src


def test_polygon_ending_on_a_cell_line_stays_in_its_cell():
    lvl = wadkit.eng.from_bytes(base_level(w=4, h=4))
    pos, tri, uv, tex = quad_mesh(x0=1.0, z0=1.0, size=1.0)   # exactly cell (1, 1)
    new = quiet(lvl.with_geometry, pos, tri, uv, tex)
    assert new.tiles.cell_xz.tolist() == [[1, 1]]
    assert new.import_report["collision_records"] == 2
    # reaching 0.01 over the line: the next cell gets it too
    pos, tri, uv, tex = quad_mesh(x0=1.0, z0=1.0, size=1.01)
    new = quiet(lvl.with_geometry, pos, tri, uv, tex)
    assert sorted(map(tuple, new.tiles.cell_xz.tolist())) == [(1, 1), (1, 2), (2, 1), (2, 2)]


def test_triangle_covers_only_the_cells_its_interior_does():
    """A diagonal triangle's box covers four cells, its interior three."""
    lvl = wadkit.eng.from_bytes(base_level(w=4, h=4))
    pos = np.array([[1.0, 0.5, 1.0], [1.0, 0.5, 3.0], [3.0, 0.5, 1.0]], np.float32)
    tri = np.array([[0, 1, 2]], np.uint32)
    uv = np.array([[(0.25, 0.25), (0, 0), (0, 0.25)]], np.float32)
    new = quiet(lvl.with_geometry, pos, tri, uv, np.zeros(1, np.int32))
    cells = sorted(map(tuple, new.tiles.cell_xz.tolist()))
    assert cells == [(1, 1), (1, 2), (2, 1)]


def test_wall_on_a_cell_line_belongs_to_the_cell_after_it():
    lvl = wadkit.eng.from_bytes(base_level(w=4, h=4))
    wall = np.array([[2.0, 0, 1.2], [2.0, 0, 1.8], [2.0, 1, 1.8], [2.0, 1, 1.2]],
                    np.float32)
    floor_, tri, uv, tex = quad_mesh()
    new = quiet(lvl.with_geometry, floor_, tri, uv, tex,
                collision=(wall, np.array([[0, 1, 2, 3]]), None))
    cells = sorted(map(tuple, new.tiles.cell_xz.tolist()))
    assert (2, 1) in cells and (1, 1) in cells     # render in (1,1), wall in (2,1)
    recs = {tuple(c): sum(new.models[new.tiles.model[k]].collision_groups)
            for k, c in enumerate(new.tiles.cell_xz.tolist())}
    assert recs[(2, 1)] == 1 and recs[(1, 1)] == 0


def test_polygon_past_the_grid_edge_is_still_refused():
    lvl = wadkit.eng.from_bytes(base_level(w=4, h=4))
    pos, tri, uv, tex = quad_mesh(x0=-0.01, z0=1.0)
    with pytest.raises(wadkit.LimitError, match="reaches cell \\(-1, 1\\)"):
        quiet(lvl.with_geometry, pos, tri, uv, tex)
    # ending within 1/2048 of the edge is on the edge
    pos, tri, uv, tex = quad_mesh(x0=-1e-4, z0=1.0)
    assert quiet(lvl.with_geometry, pos, tri, uv, tex).import_report["tiles"] >= 1
