"""ENG WAD container: chunk table, zero-copy payloads, rebuild, atomic save,
and every bad-input case of the foundation issue."""
import os
import struct
import warnings

import pytest

import wadkit
from builders import eng_wad as B


def open_quiet(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        return wadkit.eng.open(path)


def test_chunk_table_offsets_and_sizes(write):
    data = B.sample_wad()
    lvl = wadkit.eng.open(write("a.wad", data))
    assert [c.tag for c in lvl.chunks] == [
        "INFO", "WFPC", "TEXT", "TRAK", "STPC", "MAP", "LGHT", "END"]
    # offsets by hand: 4-byte length field, then 8-byte headers + payloads
    assert lvl.chunks[0] == ("INFO", 4, 4)
    assert lvl.chunks[1] == ("WFPC", 16, 4)
    assert lvl.chunks[2] == ("TEXT", 28, 768)
    assert lvl.chunks[3].offset == 28 + 8 + 768
    assert lvl.chunks[-1] == ("END", len(data) - 8, 0)
    assert lvl.warnings == []


def test_payload_is_zero_copy_view(write):
    data = B.sample_wad()
    lvl = wadkit.eng.open(write("a.wad", data))
    view = lvl.chunk("TEXT")
    assert isinstance(view, memoryview) and view.readonly
    assert bytes(view) == bytes(range(256)) * 3
    assert bytes(lvl.chunk("INFO")) == struct.pack("<I", 1)
    assert bytes(lvl.chunk("MAP")) == b"\x01\x02\x03\x04" * 10
    with pytest.raises(KeyError):
        lvl.chunk("NOPE")


def test_unchanged_rebuild_is_byte_identical(write, tmp_path):
    data = B.sample_wad()
    src = write("a.wad", data)
    lvl = wadkit.eng.open(src)
    assert lvl.to_bytes() == data
    out = tmp_path / "b.wad"
    lvl.save(out)
    assert out.read_bytes() == data


def test_from_bytes_matches_file(write):
    data = B.sample_wad()
    assert wadkit.eng.from_bytes(data).chunks == wadkit.eng.open(write("a.wad", data)).chunks


def test_replace_payload_recomputes_length(write):
    data = B.sample_wad()
    lvl = wadkit.eng.open(write("a.wad", data))
    lvl.replace_chunk("TRAK", b"\xaa" * 100)
    out = lvl.to_bytes()
    assert struct.unpack_from("<I", out)[0] == len(out) == len(data) + 96
    again = wadkit.eng.from_bytes(out)
    assert bytes(again.chunk("TRAK")) == b"\xaa" * 100
    assert bytes(again.chunk("TEXT")) == bytes(lvl.chunk("TEXT"))


def test_wrong_length_field_warns_and_is_kept(write):
    data = B.wad([("INFO", B.info_payload())], length=12345)
    with pytest.warns(wadkit.WadWarning, match="length field says 12345"):
        lvl = wadkit.eng.open(write("a.wad", data))
    assert lvl.declared_length == 12345
    assert lvl.to_bytes() == data            # unchanged: kept as it was
    lvl.replace_chunk("INFO", B.info_payload())
    out = lvl.to_bytes()                      # changed: the true length
    assert struct.unpack_from("<I", out)[0] == len(out)


def test_trailing_bytes_warn_and_are_kept(write):
    data = B.wad([("INFO", B.info_payload())], trailing=b"junk!")
    with pytest.warns(wadkit.WadWarning, match="5 bytes after the END"):
        lvl = wadkit.eng.open(write("a.wad", data))
    assert lvl.to_bytes() == data


def test_unknown_chunk_kept_with_warning(write):
    data = B.wad([("INFO", B.info_payload()), ("ZZZZ", b"opaque data"),
                  ("TRAK", b"\0" * 4)])
    with pytest.warns(wadkit.WadWarning, match="unknown chunk 'ZZZZ'"):
        lvl = wadkit.eng.open(write("a.wad", data))
    assert bytes(lvl.chunk("ZZZZ")) == b"opaque data"
    assert lvl.to_bytes() == data


def test_map_size_quirk_read_right_and_written_back(write):
    map_payload = b"\x11" * 20
    data = B.wad([("INFO", B.info_payload()), ("MAP", map_payload),
                  ("STPC", b"\x22" * 8)], map_quirk=True)
    with pytest.warns(wadkit.WadWarning, match="4 bytes too large"):
        lvl = wadkit.eng.open(write("a.wad", data))
    assert bytes(lvl.chunk("MAP")) == map_payload
    assert lvl.chunks[1].size == 20
    assert bytes(lvl.chunk("STPC")) == b"\x22" * 8
    assert lvl.to_bytes() == data
    lvl.replace_chunk("MAP", b"\x33" * 8)
    out = lvl.to_bytes()
    # the stored MAP size stays 4 larger than the payload, as in the original
    assert struct.unpack_from("<I", out, lvl.chunks[1].offset + 4)[0] == 12


def test_unchanged_save_of_an_odd_file_writes_its_bytes(write, tmp_path):
    # nothing replaced: the build hands out the file's own bytes (no copy,
    # no second parse), so every oddity the parse kept must be in them
    data = B.wad([("INFO", B.info_payload()), ("MAP", b"\x11" * 20), ("STPC", b"\x22" * 8),
                  ("ZZZZ", b"opaque")], map_quirk=True, length=777, trailing=b"junk!")
    lvl = open_quiet(write("a.wad", data))
    out = tmp_path / "b.wad"
    lvl.save(out)
    assert out.read_bytes() == data
    # a replacement by the same payload is a change: the true length is written
    lvl.replace_chunk("ZZZZ", b"opaque")
    lvl.save(out)
    got = out.read_bytes()
    assert struct.unpack_from("<I", got)[0] == len(got) == len(data)
    assert got[4:] == data[4:] and got != data


def test_save_is_atomic_and_never_touches_source(write, tmp_path, monkeypatch):
    data = B.sample_wad()
    src = write("a.wad", data)
    lvl = wadkit.eng.open(src)
    with pytest.raises(ValueError, match="source file"):
        lvl.save(src)
    assert open(src, "rb").read() == data
    target = tmp_path / "t.wad"
    target.write_bytes(b"old contents")
    missing_dir = tmp_path / "nope" / "t.wad"
    with pytest.raises(FileNotFoundError):
        lvl.save(missing_dir)
    lvl.save(target)
    assert target.read_bytes() == data
    assert sorted(os.listdir(tmp_path)) == ["a.wad", "t.wad"]  # no temp files left


def test_failed_build_leaves_target_intact(write, tmp_path):
    lvl = wadkit.eng.open(write("a.wad", B.sample_wad()))
    target = tmp_path / "t.wad"
    target.write_bytes(b"old contents")
    with pytest.raises(IndexError):
        lvl._wad.save(str(target), {99: b""})
    assert target.read_bytes() == b"old contents"
    a_dir = tmp_path / "a_dir"
    a_dir.mkdir()
    with pytest.raises(OSError):
        lvl.save(a_dir)          # cannot replace a folder by a file
    assert a_dir.is_dir() and list(a_dir.iterdir()) == []
    assert sorted(os.listdir(tmp_path)) == ["a.wad", "a_dir", "t.wad"]


# ---- bad input: every case raises FormatError naming chunk and offset ----

GOOD = B.sample_wad()
TEXT_OFF = 28  # offset of the TEXT chunk header in GOOD


def _with_u32(data, off, value):
    b = bytearray(data)
    struct.pack_into("<I", b, off, value)
    return bytes(b)


BAD = {
    "empty file": (b"", 0, "length field"),
    "truncated length field": (b"\x10\x00", 0, "length field"),
    "truncated chunk header": (GOOD[:TEXT_OFF + 6], TEXT_OFF + 4, "chunk"),
    "truncated chunk size": (GOOD[:TEXT_OFF + 5], TEXT_OFF + 4, "chunk"),
    "chunk size past the end": (_with_u32(GOOD, TEXT_OFF + 4, 769 + len(GOOD)), TEXT_OFF, "TEXT"),
    "absurd chunk size": (_with_u32(GOOD, TEXT_OFF + 4, 0xFFFFFFFF), TEXT_OFF, "TEXT"),
    "missing END": (B.wad([("INFO", B.info_payload())], end=False), 16, "END"),
    "payload cut short": (GOOD[:TEXT_OFF + 8 + 100], TEXT_OFF, "TEXT"),
    "duplicate tag": (B.wad([("INFO", b"1234"), ("TRAK", b""), ("INFO", b"5678")]), 24, "INFO"),
    "binary garbage tag": (B.wad([("INFO", b"1234")])[:16] + b"\x00\x01\x02\x03" + b"\0" * 12,
                           16, "not a chunk name"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_raises_format_error(name, write):
    data, offset, what = BAD[name]
    path = write("bad.wad", data)
    with pytest.raises(wadkit.FormatError) as info:
        open_quiet(path)
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, wadkit.WadError)
    assert err.offset == offset, str(err)
    assert what in str(err)
    assert f"0x{offset:x}" in str(err)
    assert err.context.startswith("ENG WAD")
    with pytest.raises(wadkit.FormatError):
        wadkit.eng.from_bytes(data)


def test_every_truncation_is_a_format_error():
    data = B.sample_wad()
    for n in range(len(data) - 8 + 7):  # everything short of the END chunk
        with pytest.raises(wadkit.FormatError):
            wadkit.eng.from_bytes(data[:n])


def test_from_bytes_shares_bytes_and_copies_other_buffers():
    """An immutable bytes object is used in place (no copy of the whole
    file); a bytearray is copied, so changing it later changes nothing."""
    import numpy as np
    data = B.wad([("INFO", B.info_payload()), ("TRAK", b"\x00" * 4)])
    lvl = wadkit.eng.from_bytes(data)
    view = np.frombuffer(memoryview(lvl._wad), np.uint8)
    assert np.shares_memory(view, np.frombuffer(data, np.uint8))
    buf = bytearray(data)
    lvl2 = wadkit.eng.from_bytes(buf)
    buf[:] = bytes(len(buf))
    assert bytes(lvl2.chunk("INFO")) == B.info_payload()
    del data, view
    assert bytes(lvl.chunk("INFO")) == B.info_payload()   # kept alive by the level
    assert lvl.to_bytes() == lvl2.to_bytes()


def test_from_bytes_holds_a_reference_instead_of_a_copy():
    import sys
    data = B.wad([("INFO", B.info_payload())])
    before = sys.getrefcount(data)
    lvl = wadkit.eng.from_bytes(data)
    assert sys.getrefcount(data) == before + 1
    del lvl
    assert sys.getrefcount(data) == before
