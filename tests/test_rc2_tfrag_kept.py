"""The tfrag edit's parse kept on the level (issue 17, round i17m): the
first terrain edit of a Level parses its tfrags block and converts the
stored LOD 0 terrain once (wk_rc2_level_tfrags_edit, kept on the
Rc2Level); every later edit of the same level starts from that parse.
Each edit must still write what the same edit of a freshly read level
writes, and what the region-taking rc2_tfrags_edit writes."""
import math
import threading

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import rc2_full as F
from builders import wadlz


def _rows(t, p):
    return np.flatnonzero(t["patch"] == p)


def _fan(centre):
    """A fan of 6 triangles around centre (more than a small patch holds
    in its place: re-encoded, moved after the last patch)."""
    ring = [(math.cos(a), math.sin(a), 0.5) for a in np.linspace(0, 2 * math.pi, 7)[:-1]]
    pos = np.array([(0.0, 0.0, 1.0)] + ring, np.float32) + np.float32(centre)
    tri = np.array([(0, 1 + k, 1 + (k + 1) % 6) for k in range(6)], np.uint32)
    return (pos, tri, np.zeros((6, 3, 2), np.float32), np.full((6, 3, 4), 0.5, np.float32),
            np.array([0, 0, 0, 1, 1, 1], np.int32))


def _edits(t):
    """Terrain edits of every kind, in turn: (name, fn(LevelEdit)), each
    from the stored terrain (an edit never builds on an earlier one)."""
    def positions(dz, patch):
        def go(ed):
            pos = t["positions"].copy()
            pos[np.unique(t["triangles"][_rows(t, patch)])[:4]] += np.float32([0, 0, dz])
            ed.set_terrain(positions=pos)
        return go

    def texture_and_uv(ed):
        tex, uv = t["texture"].copy(), t["uv"].copy()
        r = _rows(t, 1)
        tex[r[1]] = 1 - tex[r[1]]          # one triangle of a strip: re-encoded
        uv[_rows(t, 2)] += np.float32(0.125)
        ed.set_terrain(uv=uv, texture=tex)

    def color(ed):
        col = t["color"].copy()
        col[_rows(t, 0)] = np.float32([0.25, 0.5, 0.75, 1.0])
        ed.set_terrain(color=col)

    def bad_uv(ed):                          # LimitError: nothing is kept of it
        uv = t["uv"].copy()
        uv[_rows(t, 3)[0]] = 9.0
        ed.set_terrain(uv=uv)

    return [("positions", positions(0.5, 1)), ("texture+uv", texture_and_uv),
            ("mesh", lambda ed: ed.set_patch(4, *_fan((3, 3, 0)))), ("color", color),
            ("limit", bad_uv), ("positions again", positions(-0.75, 1)),
            ("mesh and positions", lambda ed: (positions(0.25, 5)(ed),
                                               ed.set_patch(2, *_fan((9, 1, 0)))))]


@pytest.mark.parametrize("make", [lambda: F.level()[0],
                                  lambda: F.level(variant=0x68)[0],
                                  lambda: F.level(compress=wadlz.greedy_compress)[0]],
                         ids=["stored", "0x68", "greedy"])
def test_successive_terrain_edits_of_one_level_write_a_fresh_levels_bytes(make):
    data = make()
    kept = wadkit.rc2.from_bytes(data)
    t = kept.terrain(0)
    statuses = set()
    for name, edit in _edits(t):
        out = []
        for lvl in (kept, wadkit.rc2.from_bytes(data)):
            ed = lvl.edit()
            edit(ed)
            try:
                out.append(ed.apply())
            except wadkit.LimitError as e:
                out.append(str(e))
        if name == "limit":
            assert isinstance(out[0], str) and out[0] == out[1], name
            assert "outside -4..8" in out[0]
            continue
        assert out[0].to_bytes() == out[1].to_bytes(), name
        assert out[0].edit_report["patches"] == out[1].edit_report["patches"], name
        statuses.update(k for k, v in out[0].edit_report["patches"].items() if v)
    # every way a patch is written was taken from the kept parse
    assert statuses == {"in_place", "reencoded", "moved"}


def test_the_level_edit_writes_what_the_region_edit_writes():
    """rc2_level_tfrags_edit (the level's block, offset and texture count
    found in C) against rc2_tfrags_edit of the block Python cuts out."""
    data = F.level(compress=wadlz.greedy_compress)[0]
    kept = wadkit.rc2.from_bytes(data)
    t = kept.terrain(0)
    start = kept.core_header["tfrags"]
    count = kept._tfrag_texture_count()
    pos = t["positions"].copy()
    pos[np.unique(t["triangles"][_rows(t, 1)])] += np.float32([0.25, 0, 0])
    tex = t["texture"].copy()
    tex[_rows(t, 5)] = 1
    for args in ((pos, None, None, None, []), (None, None, None, tex, []),
                 (None, None, None, None, [(4,) + _fan((3, 3, 0))]),
                 (pos, t["uv"], t["color"], t["texture"], [(2,) + _fan((1, 1, 0))])):
        mine = _core.rc2_level_tfrags_edit(kept._lvl, *args)
        fresh = wadkit.rc2.from_bytes(data)
        ref = _core.rc2_tfrags_edit(fresh.tfrag_block(), start, count, *args)
        assert mine[0] == ref[0]
        np.testing.assert_array_equal(mine[1], ref[1])
    with pytest.raises(TypeError, match="Rc2Level"):
        _core.rc2_level_tfrags_edit(data, pos, None, None, None, [])
    with pytest.raises(ValueError, match="positions: 3 rows, the terrain has"):
        _core.rc2_level_tfrags_edit(kept._lvl, pos[:3], None, None, None, [])


def test_first_edits_in_threads_share_one_parse():
    """Threads that make a level's first terrain edit at once (the parse is
    made without the GIL; one is kept, the others freed) each write the
    bytes a fresh level's edit writes."""
    data = F.level()[0]
    t = wadkit.rc2.from_bytes(data).terrain(0)
    edits = []
    for k in range(4):
        pos = t["positions"].copy()
        pos[np.unique(t["triangles"][_rows(t, k)])[:3]] += np.float32([0, 0, 0.5 + k])
        edits.append(pos)
    want = [_core.rc2_level_tfrags_edit(wadkit.rc2.from_bytes(data)._lvl, p, None, None,
                                        None, [])[0] for p in edits]
    for _ in range(5):
        kept = wadkit.rc2.from_bytes(data)._lvl
        got = [None] * len(edits)
        go = threading.Barrier(len(edits))

        def run(k):
            go.wait()
            got[k] = _core.rc2_level_tfrags_edit(kept, edits[k], None, None, None, [])[0]
        threads = [threading.Thread(target=run, args=(k,)) for k in range(len(edits))]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert got == want
