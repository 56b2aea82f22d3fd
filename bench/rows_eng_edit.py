"""ENG edit rows (issue 14): what a single-vertex edit costs on the Python
side — Level.edit(), set_geometry of one tile with one vertex moved,
apply() (written, re-parsed, checked) — against the rebuild the export did
before (with_geometry of the whole world mesh) and against a plain copy
and re-parse of the same level (what any write of it costs at least)."""
from __future__ import annotations

import warnings

import numpy as np

import wadkit.eng
import wadkit.samples

from . import inputs
from .harness import Row, median_times


def _one_vertex(lvl):
    """set_geometry arguments: a middle tile with faces, vertex 0 raised."""
    t = lvl.tiles
    faced = [k for k in range(len(t)) if len(lvl.models[t.model[k]].triangles)]
    tile = faced[len(faced) // 2]
    m = lvl.models[t.model[tile]]
    mesh = lvl.world_mesh()
    pos = m.positions.copy()
    pos[0, 1] += 0.01
    return tile, pos, m.triangles, mesh["uv"][mesh["tile"] == tile], m.face_texture, \
        m.face_flags


def _edit(lvl, args):
    tile, pos, tri, uv, tex, flags = args
    ed = lvl.edit()
    ed.set_geometry(tile, pos, tri, uv, tex, face_flags=flags)
    return ed.apply()


def _rebuild(lvl, mesh):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        return lvl.with_geometry(**mesh)


def _copy(lvl):
    return wadkit.eng.from_bytes(bytes(lvl.to_bytes()))._geom


def _rows_for(label: str, lvl, rounds: int) -> list[Row]:
    args = _one_vertex(lvl)
    new = _edit(lvl, args)
    rep = new.edit_report
    if rep["models_rewritten"] != [int(lvl.tiles.model[args[0]])] or rep["unchanged"]:
        raise AssertionError("the edit did not rewrite exactly its model")
    grow = len(new.to_bytes()) / len(lvl.to_bytes()) - 1
    mesh = lvl.world_mesh()
    t_edit, t_rebuild = median_times([lambda: _edit(lvl, args),
                                      lambda: _rebuild(lvl, mesh)], rounds)
    t_edit2, t_copy = median_times([lambda: _edit(lvl, args), lambda: _copy(lvl)],
                                   rounds)
    facts = (f"{len(lvl.tiles)} tiles, {len(lvl.models)} models, "
             f"{len(lvl.to_bytes()) / 1e6:.1f} MB; the file grew {grow * 100:.2f} %")
    return [
        Row(f"ENG single-vertex edit → level, {label}",
            "lvl.edit(); set_geometry(1 tile, 1 vertex moved); apply()",
            "with_geometry(**world_mesh()): the whole-level rebuild",
            t_edit, t_rebuild, ratio=t_rebuild / t_edit, target=10, kind="min",
            note=facts, extra={"growth": grow}).judge(),
        Row(f"ENG single-vertex edit vs copy + re-parse, {label}",
            "the same edit + apply()", "from_bytes(to_bytes()) + geometry parse",
            t_edit2, t_copy, ratio=t_edit2 / t_copy, target=10, kind="max",
            note="what writing the level costs at the least: its bytes copied "
                 "and parsed again; the edit also builds TRAK and MAP and "
                 "checks them").judge(),
    ]


def rows(rounds: int, quick: bool) -> list[Row]:
    if quick:
        tiny = wadkit.eng.from_bytes(inputs.tiny_eng_level_wad()[0])
        return _rows_for("tiny level", tiny, rounds)
    out = _rows_for("demo sample", wadkit.samples.eng_level(), rounds)
    # the rebuild of the 4,140-tile level takes seconds a call: fewer rounds
    big = wadkit.eng.from_bytes(inputs.eng_level_wad(6)[0])
    out += _rows_for("generated 4,140 tiles", big, max(3, rounds // 2))
    return out
