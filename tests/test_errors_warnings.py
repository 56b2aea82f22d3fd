"""What a user catches: file errors are the OSError of their errno with
.errno and .filename set; a WadWarning points at the user's line (the
first caller outside the wadkit package), not at wadkit's glue."""
import errno
import os
import warnings

import pytest

import wadkit
from builders import eng_wad as B
from test_eng_geometry import stpc_level
from test_eng_import import TABLE, base_level, quad_mesh

HERE = os.path.abspath(__file__)


@pytest.mark.parametrize("opener", [wadkit.eng.open, wadkit.rc2.open, wadkit.open])
def test_missing_file(tmp_path, opener):
    path = tmp_path / "none.wad"
    with pytest.raises(FileNotFoundError) as e:
        opener(path)
    assert e.value.errno == errno.ENOENT
    assert os.fspath(e.value.filename) == os.fspath(path)


@pytest.mark.parametrize("opener", [wadkit.eng.open, wadkit.rc2.open, wadkit.open])
def test_folder(tmp_path, opener):
    with pytest.raises(IsADirectoryError) as e:
        opener(tmp_path)
    assert e.value.errno == errno.EISDIR
    assert os.fspath(e.value.filename) == os.fspath(tmp_path)


def test_save_errors_name_the_target(tmp_path):
    lvl = wadkit.eng.from_bytes(B.sample_wad())
    ro = tmp_path / "ro.wad"
    ro.write_bytes(b"old")
    ro.chmod(0o444)
    with pytest.raises(PermissionError, match="read-only") as e:
        lvl.save(ro)
    assert e.value.errno == errno.EACCES and e.value.filename == ro
    assert ro.read_bytes() == b"old"
    with pytest.raises(IsADirectoryError) as e:
        lvl.save(tmp_path)
    assert e.value.errno == errno.EISDIR and e.value.filename == tmp_path
    missing = tmp_path / "no" / "such" / "x.wad"
    with pytest.raises(FileNotFoundError) as e:
        lvl.save(str(missing))
    assert e.value.errno == errno.ENOENT and e.value.filename == str(missing)


def _recorded(fn):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        out = fn()
    return out, [w for w in rec if issubclass(w.category, wadkit.WadWarning)]


def test_container_warning_points_at_the_caller(tmp_path):
    """EngWad warns from C while the parse is started in wadkit/eng.py."""
    data = B.wad([("INFO", B.info_payload())], length=12345)
    path = tmp_path / "a.wad"
    path.write_bytes(data)
    for fn in (lambda: wadkit.eng.from_bytes(data), lambda: wadkit.eng.open(path),
               lambda: wadkit.open(path)):
        _, rec = _recorded(fn)
        assert [str(w.message)[:23] for w in rec] == ["length field says 12345"]
        assert rec[0].filename == HERE, rec[0].filename


def test_geometry_warning_points_at_the_caller():
    """Geometry warnings come from a lazy parse started by whichever
    property is used first: each points at that use."""
    data = stpc_level("croc2")
    for use in ("objects", "animations", "flags"):
        lvl = wadkit.eng.from_bytes(data)
        _, rec = _recorded(lambda: getattr(lvl, use))
        assert any("Croc 2 layout" in str(w.message) for w in rec), use
        assert all(w.filename == HERE for w in rec), [w.filename for w in rec]


def test_write_path_warning_points_at_the_caller():
    lvl = wadkit.eng.from_bytes(base_level())
    pos, tri, uv, tex = quad_mesh()
    _, rec = _recorded(lambda: lvl.with_geometry(pos, tri, uv, tex, texture_table=TABLE))
    assert any("tile swaps" in str(w.message) for w in rec)
    assert all(w.filename == HERE for w in rec), [w.filename for w in rec]


def test_warn_helper_outside_the_package():
    """Called from here (outside wadkit), the warning is at this line."""
    _, rec = _recorded(lambda: wadkit._core.warn("hello"))
    assert rec[0].filename == HERE and str(rec[0].message) == "hello"
    with warnings.catch_warnings():
        warnings.simplefilter("error", wadkit.WadWarning)
        with pytest.raises(wadkit.WadWarning):
            wadkit._core.warn("as error")


def test_edit_and_convert_warnings_point_at_the_caller():
    """LevelEdit.apply() (a grey tile) and the converter (a level without
    TEXT) warn at the user's line, through the same helper."""
    from builders import eng_terrain as T
    from wadkit.export import level_scene
    lvl = wadkit.eng.from_bytes(T.terrain_level(grid=4)[0])
    ed = lvl.edit()
    ed.add_tile(lvl.tiles.model[5], (1.5, 0.0, 1.5), 0)
    _, rec = _recorded(ed.apply)
    assert any("grey" in str(w.message) for w in rec), [str(w.message) for w in rec]
    assert rec and all(w.filename == HERE for w in rec), [w.filename for w in rec]
    tags = [c.tag for c in lvl.chunks]
    plain = wadkit.eng.from_bytes(B.wad([(t, bytes(lvl.chunk(t))) for t in tags
                                         if t not in ("TEXT", "END")]))
    _, rec = _recorded(lambda: level_scene(plain))     # eng_scene one call deeper
    assert any("no TEXT chunk" in str(w.message) for w in rec)
    assert all(w.filename == HERE for w in rec), [w.filename for w in rec]


def test_edit_of_a_level_without_map_names_the_chunk():
    lvl = wadkit.eng.from_bytes(B.wad([("INFO", B.info_payload())]))
    with pytest.raises(wadkit.MissingChunkError, match="no TRAK chunk") as e:
        lvl.edit()
    assert isinstance(e.value, KeyError) and e.value.chunk == "TRAK"
