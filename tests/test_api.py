"""The Python API as a user meets it: levels with a repr and a lifetime
(with / close), tables that behave like tables, one form of chunk tag,
missing chunks as FormatError naming them, wadkit.open per format."""
import gc
import struct

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import eng_text as T
from builders import eng_wad as B
from builders import rc2_level as R
from test_eng_import import base_level


@pytest.fixture
def eng_path(write):
    return write("t1.wad", base_level())


@pytest.fixture
def rc2_path(write):
    data, _ = R.level()
    return write("LEVEL0.WAD", data)


def test_eng_level_repr_and_with(eng_path):
    with wadkit.eng.open(eng_path) as lvl:
        assert repr(lvl) == (f"<wadkit.eng.Level {eng_path!r}: {len(lvl.chunks)} "
                             f"chunks, {lvl.info()['size']} bytes>")
        assert not lvl.closed and len(lvl.tiles) == 1
    assert lvl.closed and repr(lvl) == f"<wadkit.eng.Level {eng_path!r}, closed>"
    for use in (lambda: lvl.chunk("TRAK"), lambda: lvl.tiles, lambda: lvl.pages,
                lambda: lvl.to_bytes(), lambda: lvl.world_mesh(), lambda: lvl.warnings):
        with pytest.raises(ValueError, match="closed"):
            use()
    assert [c.tag for c in lvl.chunks][:2] == ["INFO", "WFPC"]   # still known
    mem = wadkit.eng.from_bytes(base_level())
    mem.replace_chunk("LGHT", b"\0")
    assert repr(mem).startswith("<wadkit.eng.Level in memory: ")
    assert repr(mem).endswith(", 1 chunks replaced>")


def test_eng_close_lets_go_of_the_file(eng_path):
    """close() drops every parse that holds the mapped file: afterwards
    nothing but this test holds the EngWad (whose last reference unmaps)."""
    import sys
    lvl = wadkit.eng.open(eng_path)
    lvl.tiles, lvl.models, lvl.textures   # parse what holds views of the file
    wad = lvl._wad
    assert sys.getrefcount(wad) > 3       # the level and the parses
    lvl.close()
    gc.collect()
    assert sys.getrefcount(wad) == 2      # `wad` and getrefcount's argument


def test_rc2_level_repr_and_with(rc2_path):
    with wadkit.rc2.open(rc2_path) as lvl:
        assert repr(lvl).startswith(f"<wadkit.rc2.Level {rc2_path!r}: level 30, "
                                    "header 0x60, ")
        core = lvl.core_data
        assert len(core) > 0
    assert lvl.closed and repr(lvl) == f"<wadkit.rc2.Level {rc2_path!r}, closed>"
    for use in (lambda: lvl.core_data, lambda: lvl.section("gs_ram"),
                lambda: lvl.terrain(), lambda: lvl.info()):
        with pytest.raises(ValueError, match="closed"):
            use()
    assert lvl.header["id"] == 30                                 # still known


def test_tables_are_tables():
    lvl = wadkit.eng.from_bytes(base_level())
    t = lvl.tiles
    assert "model" in t and "nope" not in t
    assert list(t) == t.keys() and "position" in list(t)
    assert len(t) == 1 and t["model"] is t.model
    assert repr(t).startswith("Tiles(1 rows: ")
    z = lvl.zones
    assert len(z) == 32 and set(z) == {"mask", "height", "grid"}
    assert "grid" in z and dict((k, z[k]) for k in z).keys() == {"mask", "height", "grid"}


def test_chunk_tags_have_one_form():
    """Tags are given without the file's padding; lookups take both forms."""
    lvl = wadkit.eng.from_bytes(base_level())
    tags = [c.tag for c in lvl.chunks]
    assert "MAP" in tags and "END" in tags and all(t == t.strip() for t in tags)
    assert [c["tag"] for c in lvl.info()["chunks"]] == tags
    assert "MAP" in lvl and "MAP " in lvl
    assert bytes(lvl.chunk("MAP")) == bytes(lvl.chunk("MAP "))
    assert set(lvl.rebuild_geometry()) == {"TRAK", "MAP", "STPC"}


def test_missing_chunk_is_a_format_error_naming_it():
    lvl = wadkit.eng.from_bytes(B.wad([("INFO", B.info_payload())]))
    for use, chunk in ((lambda: lvl.pages, "TEXT"), (lambda: lvl.textures, "TEXT"),
                       (lambda: lvl.tiles, "MAP"), (lambda: lvl.zones, "MAP"),
                       (lambda: lvl.world_mesh(), "MAP"), (lambda: lvl.chunk("NOPE"), "NOPE")):
        with pytest.raises(wadkit.FormatError, match=f"no {chunk} chunk") as e:
            use()
        assert isinstance(e.value, wadkit.MissingChunkError)
        assert isinstance(e.value, KeyError)      # what older callers caught
        assert e.value.chunk == chunk and e.value.offset is None
        assert e.value.context == "ENG WAD"
        assert str(e.value) == f"this level has no {chunk} chunk"
    geom = _core.EngGeometry(None, None, 0, None, 0, None, 0)
    with pytest.raises(wadkit.MissingChunkError, match="no TRAK chunk"):
        geom.build_trak()


def test_open_per_format(eng_path, rc2_path, write):
    assert isinstance(wadkit.open(eng_path), wadkit.eng.Level)
    assert isinstance(wadkit.open(rc2_path), wadkit.rc2.Level)
    assert isinstance(wadkit.open(eng_path, "eng"), wadkit.eng.Level)
    with pytest.raises(wadkit.FormatError):
        wadkit.open(eng_path, "rc2")              # parsed as RC2: it is not one
    with pytest.raises(ValueError, match="format must be"):
        wadkit.open(eng_path, "psx")
    with pytest.raises(wadkit.FormatError, match="not a level file") as e:
        wadkit.open(write("x.bin", b"hello world, not a level"))
    assert e.value.offset == 0 and e.value.context == "file header"


def test_detect_signatures():
    """ENG: u32 length, then a first chunk's tag spelled backwards; RC2: the
    header size 0x60 or 0x68 (docs/formats/*.md)."""
    assert wadkit.detect(b"\x10\0\0\0" + b"INFO"[::-1]) == "eng"
    assert wadkit.detect(b"\x10\0\0\0" + b"TRAK"[::-1]) is None   # not a first chunk
    assert wadkit.detect(struct.pack("<I", 0x60) + bytes(12)) == "rc2"
    assert wadkit.detect(struct.pack("<I", 0x68) + bytes(12)) == "rc2"
    assert wadkit.detect(struct.pack("<I", 0x68) + bytes(4)) is None   # too short
    assert wadkit.detect(b"") is None and _core.detect_size == 16


def test_texture_entry_helpers_match_the_layout():
    """{u16 flags, i8 page, i8 byte 3, u8 u0, u1, v0, v1} (eng_uv.h), and a
    flat entry keeps its colour in u0 u1 v0 (builders/eng_text.py)."""
    from wadkit._eng_new import flat_entry, texture_entry
    assert texture_entry(3, (1, 2, 30, 40), 0x10) == T.entry(0x10, 3, -1, 1, 30, 2, 40)
    assert flat_entry((9, 8, 7), 2) == T.entry(3, 0, -1, 9, 8, 7, 255)
    with pytest.raises(ValueError, match="u1 256 is outside 0..255"):
        texture_entry(0, (0, 0, 256, 0))


def test_textures_uv_order_as_documented():
    """Level.textures uv is u0 v0 u1 v1; the file stores u0 u1 v0 v1."""
    entry = T.entry(0, 0, -1, 1, 2, 3, 4)          # u0=1 u1=2 v0=3 v1=4
    lvl = wadkit.eng.from_bytes(B.wad([("INFO", B.info_payload()),
                                       ("TEXT", T.text(entries=[entry]))]))
    assert lvl.textures["uv"].tolist() == [[1, 3, 2, 4]]
    assert "u0 v0 u1 v1" in type(lvl).textures.__doc__
    assert np.array_equal(lvl.textures["rect"][0], np.float32([1, 3, 3, 5]) / 256)
