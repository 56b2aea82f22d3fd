"""LevelEdit.move_many (issue 17, round i17m): many instances placed at
once write what the same move() calls write; its arguments are checked
as move()'s are."""
import numpy as np
import pytest

import wadkit
from builders import rc2_full as F


@pytest.fixture(scope="module")
def data():
    return F.level()[0]


def test_move_many_writes_what_moves_one_by_one_write(data):
    lvl = wadkit.rc2.from_bytes(data)
    for kind in ("tie", "moby", "shrub"):
        inst = getattr(lvl, kind + "s")
        n = len(inst)
        if n < 2:
            continue
        idx = np.array([n - 1, 0], np.int64)
        m = np.array(inst.matrix, np.float64).reshape(n, 4, 4)[idx]
        m[:, :3, 3] += (1.5, -2.0, 0.25)
        if kind == "tie":
            m[0, 0, 1] = 0.125          # a tie keeps its whole matrix
        one, many = lvl.edit(), lvl.edit()
        for i, mm in zip(idx.tolist(), m):
            one.move(kind, i, mm)
        many.move_many(kind, idx, m)
        a, b = one.apply(), many.apply()
        assert a.to_bytes() == b.to_bytes() != data, kind
        got = np.array(getattr(b, kind + "s").matrix, np.float32).reshape(n, 4, 4)[idx]
        # a tie stores its matrix as given; a moby position, rotation, scale
        np.testing.assert_allclose(got, m.astype(np.float32), atol=0 if kind == "tie" else 1e-5)


def test_move_many_checks_its_arguments(data):
    lvl = wadkit.rc2.from_bytes(data)
    n = len(lvl.ties)
    eye = np.eye(4)[None].repeat(2, 0)
    ed = lvl.edit()
    for idx, m, match in (([0, n], eye, r"indices must lie in 0\.\.%d" % (n - 1)),
                          ([0, -1], eye, "indices must lie in"),
                          ([True, False], eye, "not bools"),
                          ([0.5, 1], eye, "must hold integers"),
                          ([1, 1], eye, "distinct"),
                          ([0], eye, "indices has 1 rows, matrices 2"),
                          ([0, 1], eye[:, :3], r"matrices must have shape \(n, 4, 4\)"),
                          ([0, 1], eye + np.inf, "not finite"),
                          ([0, 1], eye * 1e300, "not finite")):
        with np.errstate(over="ignore"), pytest.raises(ValueError, match=match):
            ed.move_many("tie", idx, m)
    with pytest.raises(ValueError, match="kind must be one of"):
        ed.move_many("crate", [0], eye[:1])
    ed.delete("tie", 1)
    with pytest.raises(ValueError, match="tie 1 is deleted"):
        ed.move_many("tie", [0, 1], eye)
    # nothing was moved by the calls that raised
    assert ed.apply().to_bytes() == (lambda e: (e.delete("tie", 1), e.apply())[1])(
        lvl.edit()).to_bytes()
