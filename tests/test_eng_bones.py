"""STPC bone matrices as the renderer applies them (Level.bone_matrices):
a bone's vertex goes through its frame matrix as the row vector v·M (the
stored form), checked in both spaces and both animation layouts against the
plain-Python transform of the from-spec builder (tests/builders/eng_level.py)."""
import math
import warnings

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import eng_level as L

# a skinned model: bone 0 holds vertex 0, bone 1 vertices 1..3 (export space)
VERTS = [(0.1, 0.2, 0.3, 0, 1, 0), (1.0, -0.5, 0.25, 0, 1, 0),
         (0.0, 1.0, -2.0, 0, 1, 0), (0.5, 0.5, 0.5, 0, 1, 0)]


def frame_matrix(f, b):
    return L.turn_matrix(0.3 + 0.7 * f + b, (f + b) % 3, t=(f, -b, 0.5 * f + 2), scale=1 + 0.1 * b)


def level(layout):
    model = L.Model(VERTS, [(0, 0, 1, 2, 0), (0, 1, 2, 3, 0)], bones=[1, 3])
    # a second animation after the first: only one layout reads both
    anims = [L.animation(1, 3, 0, 2, 2, layout, matrix=frame_matrix),
             L.animation(0, 2, 1, 0, 1, layout, seed=2)]
    st = L.stpc([model], anims)
    return wadkit.eng.from_bytes(L.level(trak_payload=L.trak([]), stpc_payload=st))


@pytest.mark.parametrize("layout", ["spec", "croc2"])
def test_bone_matrices_move_each_bones_vertices(layout):
    lvl = level(layout)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert lvl.animation_layout == layout
    assert any("Croc 2 layout" in str(w.message) for w in said) == (layout == "croc2")
    (obj,) = lvl.objects
    bone_of = np.repeat(np.arange(2), obj.bone_counts)
    file_m = lvl.bone_matrices(0)
    export_m = lvl.bone_matrices(0, space="export")
    assert file_m.shape == export_m.shape == (3, 2, 4, 4) and file_m.dtype == np.float32
    for f in range(3):
        for v, (x, y, z, *_n) in enumerate(VERTS):
            b = int(bone_of[v])
            want = L.row_transform(frame_matrix(f, b), (x, y, z))        # export space
            got_e = export_m[f, b] @ np.array([x, y, z, 1.0])
            np.testing.assert_allclose(got_e[:3], want, atol=1e-5)
            got_f = file_m[f, b] @ np.append(obj.positions[v], 1.0)      # file: z negated
            np.testing.assert_allclose(got_f[:3], [want[0], want[1], -want[2]], atol=1e-5)
            assert got_f[3] == pytest.approx(1.0)
    # the stored floats are the transpose of the export-space matrix
    np.testing.assert_array_equal(export_m, np.swapaxes(lvl.animations[0]["matrices"], 2, 3))


def test_a_turn_stays_a_turn_in_file_space():
    """Mirroring z on both sides keeps a rotation a rotation (det +1)."""
    m = np.array(L.turn_matrix(math.radians(30), 1), np.float32).reshape(4, 4)
    f = _core.eng_bone_matrices(m)
    assert np.linalg.det(f[:3, :3]) == pytest.approx(1.0, abs=1e-6)
    # about y, the mirror (a turn by -a) and the row -> column transpose
    # (also -a) cancel: the file-space matrix holds the stored floats
    np.testing.assert_allclose(f[:3, :3], m[:3, :3], atol=1e-7)


def test_bone_matrices_refuse_bad_arrays():
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 4, 4\)"):
        _core.eng_bone_matrices(np.zeros((3, 3), np.float32))
    with pytest.raises(ValueError, match=r"^matrices: shape \(\.\.\., 4, 4\) expected, got \(2, 4, 3\)"):
        _core.eng_bone_matrices(np.zeros((2, 4, 3), np.float32))
    with pytest.raises(ValueError, match="'file' \\(= game\\) or 'export'"):
        _core.eng_bone_matrices(np.zeros((4, 4), np.float32), "world")
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    np.testing.assert_array_equal(_core.eng_bone_matrices(m, "game"),
                                  _core.eng_bone_matrices(m.astype(np.float64), "file"))
    assert _core.eng_bone_matrices(np.zeros((0, 2, 4, 4))).shape == (0, 2, 4, 4)
