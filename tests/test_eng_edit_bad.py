"""Hostile arguments to the ENG edit API (wadkit/_eng_edit.py): wrong
shapes, dtypes and ranges, unknown or deleted tiles and models. Each raises
ValueError (or LimitError, a ValueError) naming the argument, and the edit
stays as it was."""
import numpy as np
import pytest

import wadkit
from builders import eng_terrain as T

pytestmark = pytest.mark.filterwarnings("ignore::wadkit.WadWarning")


@pytest.fixture(scope="module")
def source():
    wad, facts = T.terrain_level(grid=6)
    return wad, facts


def good_geometry(lvl, tile):
    m = lvl.models[lvl.tiles.model[tile]]
    n = len(m.triangles)
    uv = np.tile(np.float32([[0.25, 0.25], [0, 0], [0, 0.25]]), (n, 1, 1))
    return dict(positions=m.positions, triangles=m.triangles, uv=uv,
                texture=np.zeros(n, np.int32))


TILE = 7        # a terrain tile of the 6×6 level (not the border water)

GEOMETRY_CASES = {
    "positions shape": (dict(positions=np.zeros((4, 2))), "positions must have shape"),
    "positions dtype": (dict(positions=np.array([["a", "b", "c"]])), "positions must hold numbers"),
    "triangles negative": (dict(triangles=np.array([[0, -1, 2]])), "triangles must lie in"),
    "triangles float": (dict(triangles=np.array([[0.0, 1.5, 2.0]])), "triangles must hold integers"),
    "triangles past V": (dict(triangles="past"), "triangles: triangle 3 uses vertex 99"),
    "uv rows": (dict(uv=np.zeros((1, 3, 2))), "uv has 1 rows"),
    "uv shape": (dict(uv=np.zeros((32, 3))), "uv must have shape"),
    "texture past table": (dict(texture=None), "texture: triangle 0 uses entry 50"),
    "texture negative": (dict(texture=-1), "texture must lie in 0..65535"),
    "face_flags range": (dict(face_flags=70000), "face_flags must lie in"),
    "positions NaN": (dict(positions="nan"), "positions: vertex 0 is not finite"),
    "tiles unknown": (dict(tiles=999), "tile 999 does not exist"),
    "tiles negative": (dict(tiles=-1), "tiles must lie in"),
    "tiles twice": (dict(tiles=[TILE, TILE]), "listed twice"),
    "tiles empty": (dict(tiles=[]), "tiles is empty"),
    "colors one array": (dict(colors="array"), "colors must hold one entry per tile"),
    "colors wrong count": (dict(colors="short"), "colors of tile 7"),
    "colors float": (dict(colors="float"), "colors\\[0\\] must hold bytes"),
    "colors count": (dict(colors=[None, None]), "colors has 2 entries, tiles 1"),
    "name": (dict(name=5), "name must be a str"),
}


@pytest.mark.parametrize("case", sorted(GEOMETRY_CASES))
def test_set_geometry_refuses(source, case):
    wad, _ = source
    lvl = wadkit.eng.from_bytes(wad)
    args = good_geometry(lvl, TILE)
    n, nv = len(args["triangles"]), len(args["positions"])
    change, match = GEOMETRY_CASES[case]
    change = dict(change)
    if "texture" in change:
        t = np.zeros(n, np.int32)
        t[0] = 50 if change["texture"] is None else change["texture"]
        change["texture"] = t
    if "face_flags" in change:
        f = np.zeros(n, np.int64)
        f[0] = change["face_flags"]
        change["face_flags"] = f
    if isinstance(change.get("positions"), str):
        p = args["positions"].copy()
        p[0, 0] = np.nan
        change["positions"] = p
    if isinstance(change.get("triangles"), str):
        t = args["triangles"].copy()
        t[3, 1] = 99
        change["triangles"] = t
    c = change.get("colors")
    if c == "array":
        change["colors"] = np.zeros((nv, 4), np.uint8)
    elif c == "short":
        change["colors"] = [np.zeros((nv - 1, 4), np.uint8)]
    elif c == "float":
        change["colors"] = [np.zeros((nv, 4), np.float32) + 0.5]
    kw = {**args, "tiles": TILE, **change}
    ed = lvl.edit()
    with pytest.raises(ValueError, match=match):
        ed.set_geometry(kw.pop("tiles"), kw.pop("positions"), kw.pop("triangles"),
                        kw.pop("uv"), kw.pop("texture"), **kw)
    assert ed.apply().to_bytes() == wad


@pytest.mark.parametrize("call, match", [
    (lambda ed: ed.place_tile(TILE, (1.5, 0, 1.5), 4096), "rotation must be an integer 0..4095"),
    (lambda ed: ed.place_tile(TILE, (1.5, 0, 1.5), -1), "rotation"),
    (lambda ed: ed.place_tile(TILE, (1.5, 0, 1.5), 1.5), "rotation"),
    (lambda ed: ed.place_tile(TILE, (np.nan, 0, 1.5), 0), "position must be three finite"),
    (lambda ed: ed.place_tile(TILE, (1.5, 0), 0), "position must be three"),
    (lambda ed: ed.place_tile(TILE, (7.5, 0, 1.5), 0), "outside the 6×6 grid"),
    (lambda ed: ed.place_tile(TILE, (1.5, 5000, 1.5), 0), "within ±4096"),
    (lambda ed: ed.place_tile(99, (1.5, 0, 1.5), 0), "tile 99 does not exist"),
    (lambda ed: ed.place_tile(True, (1.5, 0, 1.5), 0), "tile must be"),
    (lambda ed: ed.delete_tile(-3), "tile must be a non-negative"),
    (lambda ed: ed.add_tile(999, (1.5, 0, 1.5), 0), "model 999 does not exist"),
    (lambda ed: ed.add_tile(0, (1.5, 0, 1.5), 0, np.zeros((3, 4), np.uint8)),
     "colors of tile .*: 12 bytes are not"),
    (lambda ed: ed.set_colors(TILE, np.zeros((5, 3), np.uint8)), "colors must have shape"),
    (lambda ed: ed.set_colors(TILE, np.zeros((1, 4), np.uint8)), "are not 1..255 sets"),
    (lambda ed: ed.set_colors(TILE, np.full((25, 4), 300)), "must lie in 0..255"),
    (lambda ed: ed.set_colors(TILE, np.zeros((256, 25, 4), np.uint8)), "1..255 sets"),
    (lambda ed: ed.set_collision(TILE, np.zeros((3, 3)), [[0, 1]]), "polygons must have shape"),
    (lambda ed: ed.set_collision(TILE, np.zeros((3, 3)), [[0, -1, 2]]), "only the 4th corner"),
    (lambda ed: ed.set_collision(TILE, np.zeros((3, 3)), [[0, 1, 5]]), "uses vertex 5 of 3"),
    (lambda ed: ed.set_collision(TILE, np.zeros((3, 3)), [[0, 1, 2]], [1, 2]),
     "material has 2 rows"),
    (lambda ed: ed.set_collision(TILE, np.zeros((3, 3)), [[0, 1, 2]], [300]),
     "material must lie in"),
    (lambda ed: ed.set_collision(TILE, np.full((3, 3), np.inf), [[0, 1, 2]]),
     "not finite"),
    (lambda ed: ed.add_mesh(np.zeros((3, 3)), [[0, 1, 2]], np.zeros((1, 3, 2)), [0],
                            zones="open"), "zones must be"),
    (lambda ed: ed.add_mesh(np.zeros((3, 3)), [[0, 1, 2]], np.zeros((1, 3, 2)), [0],
                            collision="render"), "collision must be None, 'faces'"),
    (lambda ed: ed.add_mesh(np.zeros((3, 3)), [[0, 1, 2]], np.zeros((1, 3, 2)), [0],
                            collision=(np.zeros((3, 3)),)), "collision must be"),
    (lambda ed: ed.add_mesh(np.zeros((3, 3)), [[0, 1, 2]], np.zeros((1, 3, 2)), [0],
                            color=np.zeros((2, 3, 4))), "color has 2 rows"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_tile_calls_refuse(source, call, match):
    wad, _ = source
    lvl = wadkit.eng.from_bytes(wad)
    ed = lvl.edit()
    with pytest.raises(ValueError, match=match):
        call(ed)
    assert ed.apply().to_bytes() == wad


def test_deleted_tile_cannot_be_edited(source):
    wad, _ = source
    ed = wadkit.eng.from_bytes(wad).edit()
    ed.delete_tile(TILE)
    assert ed.tile_model(TILE) is None
    for call in (lambda: ed.delete_tile(TILE),
                 lambda: ed.place_tile(TILE, (1.5, 0, 1.5), 0),
                 lambda: ed.set_colors(TILE, np.zeros((1, 4), np.uint8)),
                 lambda: ed.tile_colors(TILE)):
        with pytest.raises(ValueError, match="deleted"):
            call()


def test_tiles_of_different_collision_cannot_share_geometry(source):
    wad, _ = source
    lvl = wadkit.eng.from_bytes(wad)
    args = good_geometry(lvl, TILE)
    with pytest.raises(ValueError, match="different collision") as info:
        lvl.edit().set_geometry([TILE, TILE + 1], args["positions"], args["triangles"],
                                args["uv"], args["texture"], name="Joined")
    assert info.value.args and "Joined" not in str(info.value)


def test_failed_edit_adds_no_texture_entries(source):
    """UVs that need a new entry, then a limit: the entry is not kept."""
    wad, _ = source
    lvl = wadkit.eng.from_bytes(wad)
    args = good_geometry(lvl, TILE)
    uv = args["uv"] * 0.5
    tri = args["triangles"].copy()
    tri[-1, 0] = len(args["positions"])      # the last triangle is bad
    ed = lvl.edit()
    with pytest.raises(ValueError):
        ed.set_geometry(TILE, args["positions"], tri, uv, args["texture"])
    new = ed.apply()
    assert new.edit_report["new_texture_entries"] == 0 and new.to_bytes() == wad


def test_more_than_65535_triangles_is_a_limit_error(source):
    wad, _ = source
    lvl = wadkit.eng.from_bytes(wad)
    n = 65536
    pos = np.zeros((3, 3), np.float32)
    tri = np.tile(np.uint32([0, 1, 2]), (n, 1))
    with pytest.raises(wadkit.LimitError, match="65536 triangles") as info:
        lvl.edit().set_geometry(TILE, pos, tri, np.zeros((n, 3, 2), np.float32),
                                np.zeros(n, np.int32), name="Dense")
    assert info.value.object == "Dense" and info.value.tile == TILE
