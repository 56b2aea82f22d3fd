"""RC2 LEVEL<n>.WAD container: header (0x60 and 0x68), sector extents,
data-section pairs, core index/header, LZ-compressed core_data and gameplay,
and every cross-check as a bad-input case."""
import json
import struct
import subprocess
import sys

import pytest

import wadkit
from wadkit import lz
from builders import rc2_level as R
from builders import wadlz as W


def patched(data: bytes, offset: int, fmt: str, *values) -> bytes:
    b = bytearray(data)
    struct.pack_into(fmt, b, offset, *values)
    return bytes(b)


DATA = 0x800            # the data extent: sector 1
CORE_INDEX = DATA + 0x80


def test_header_and_extents_in_sectors(write):
    data, info = R.level()
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", data))
    assert lvl.header == {"header_size": 0x60, "sector": 1234, "id": 30,
                          "reverb": 5}
    # sector pairs converted to bytes: sector n -> n * 2048
    assert lvl.extents["data"] == (0x800, 0x800)
    assert lvl.extents["sound_bank"] == (0x1000, 0x800)
    assert lvl.extents["gameplay"] == (0x1800, 0x1000)
    assert lvl.extents["occlusion"] == (0x2800, 0x800)
    assert "chunk0" not in lvl.extents                   # size 0: absent
    assert lvl.sectors["gameplay"] == (3, 2)
    assert len(data) == 0x3000


def test_data_sections_are_bytes_relative_to_data(write):
    data, info = R.level()
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", data))
    assert lvl.sections["overlay"] == (DATA + 0x60, 0x20)
    assert lvl.sections["core_index"] == (CORE_INDEX, 0x100)
    assert bytes(lvl.section("overlay")) == b"\xab" * 0x20
    assert bytes(lvl.gs_ram) == bytes(range(256)) * 4
    assert "hud_bank1" not in lvl.sections
    assert bytes(lvl.section("transition_textures")) == b"T" * 0x30
    assert bytes(lvl.extent("sound_bank")[0x18:0x1c]) == b"SBlk"


def test_core_index_and_header(write):
    data, info = R.level()
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", data))
    idx = lvl.core_index
    assert isinstance(idx, memoryview) and idx.readonly and len(idx) == 0x100
    h = lvl.core_header
    assert h["gs_ram"] == (1, 0xBC)
    assert h["tfrag_textures"] == (2, 0xC0)
    assert (h["tfrags"], h["occlusion"], h["sky"], h["collision"],
            h["textures_base"]) == (0, 0x1000, 0x1400, 0x1800, 0x2000)
    assert h["compressed_size"] == len(info["core_stream"])
    assert h["decompressed_size"] == 0x3000
    assert struct.unpack_from("<i", idx, 0x8C)[0] == 0x3000


def test_core_data_is_decompressed_once(write):
    data, info = R.level()
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", data))
    assert lvl.core_data == info["core"]
    assert lvl.core_data is lvl.core_data
    occ = lvl.core_header["occlusion"]
    assert lvl.core_data[occ:occ + 4] == info["core"][0x1000:0x1004]


def test_gameplay_is_wad_lz_with_a_16_byte_header(write):
    data, info = R.level()
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", data))
    assert lvl.gameplay == info["gameplay"]
    s = info["gameplay_stream"]
    assert s[16] == 0x07 and s[27] >= 0x40 and s[28] < 0x10
    # The spec record's reading: packets from offset 8. Bytes 8 and 9 are
    # header padding (0 0): an 18-byte run over 6 padding bytes and the
    # real first packet, then the little match's distance byte (< 0x10)
    # is taken as a second literal run -- the failure the record saw.
    as_if_8 = W.header(len(s) - 8) + s[8:]
    with pytest.raises(wadkit.FormatError, match="two WAD-LZ literal runs"):
        lz.decompress(as_if_8)


def test_0x68_variant(write):
    data, info = R.level(variant=0x68)
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", data))
    assert lvl.header["header_size"] == 0x68 and lvl.header["reverb"] == 5
    assert lvl.extents["data"] == (0x800, 0x800)
    assert lvl.extents["gameplay_pal"] == lvl.extents["gameplay"]
    assert lvl.gameplay == info["gameplay"] and lvl.core_data == info["core"]


def test_from_bytes_and_detection(write):
    data, _ = R.level()
    path = write("LEVEL0.WAD", data)
    assert wadkit.detect(data[:16]) == "rc2"
    assert isinstance(wadkit.open(path), wadkit.rc2.Level)
    assert wadkit.rc2.from_bytes(data).extents == wadkit.rc2.open(path).extents


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "wadkit", *args],
                          capture_output=True, text=True)


def test_cli_info_json_and_text(write):
    data, info = R.level()
    path = write("LEVEL0.WAD", data)
    r = run_cli("info", path, "--json")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["format"] == "rc2" and j["size"] == len(data)
    assert j["extents"]["gameplay"] == {"offset": 0x1800, "size": 0x1000,
                                        "sector": 3, "sectors": 2}
    assert j["core_header"]["decompressed_size"] == 0x3000
    r = run_cli("info", path)
    assert r.returncode == 0 and "RC2 level WAD" in r.stdout
    assert "core_data" in r.stdout and "0x1800" in r.stdout


def test_cli_lz_round_trip(write, tmp_path):
    plain = R.core_plain() * 3
    src = write("plain.bin", plain)
    c, d = tmp_path / "c.wad", tmp_path / "d.bin"
    assert run_cli("lz", "c", src, str(c)).returncode == 0
    assert lz.validate(c.read_bytes()) == []
    assert run_cli("lz", "d", str(c), str(d)).returncode == 0
    assert d.read_bytes() == plain
    assert run_cli("lz", "v", str(c)).returncode == 0
    bad = write("bad.wad", W.stream(W.run(b"ABCD") + W.run(b"EFGH")))
    r = run_cli("lz", "v", bad)
    assert r.returncode == 1 and "two literal runs" in r.stdout
    r = run_cli("lz", "d", bad, str(d))
    assert r.returncode == 1 and "Traceback" not in r.stderr


# ---- bad input: every declared size against an independent number ---------

def bad(data, match, write):
    path = write("LEVEL0.WAD", data)
    with pytest.raises(wadkit.FormatError, match=match) as e:
        lvl = wadkit.rc2.open(path)
        lvl.core_data
        lvl.gameplay
    return e.value


def test_header_size_must_be_0x60_or_0x68(write):
    data, _ = R.level()
    e = bad(patched(data, 0, "<i", 0x50), "neither 0x60 nor 0x68", write)
    assert e.offset == 0 and "RC2 level header" in e.context
    bad(data[:0x40], "0x60-byte header", write)


def test_extent_past_end_of_file(write):
    data, _ = R.level()
    # occlusion: sector 5 + 1 ends exactly at 0x3000; one more sector is out
    e = bad(patched(data, 0x2C, "<i", 2), "extent occlusion", write)
    assert e.offset == 0x28
    bad(data[:-1], "extent occlusion", write)          # file cut short
    bad(patched(data, 0x10, "<ii", 0, 1), "extent data", write)  # over header
    bad(patched(data, 0x14, "<i", -1), "negative", write)


def test_sections_must_lie_inside_data(write):
    data, _ = R.level()
    e = bad(patched(data, DATA + 0x48, "<ii", 0x700, 0x200), "section core_data",
            write)
    assert e.offset == DATA + 0x48 and "RC2 data extent" in e.context
    bad(patched(data, DATA + 0x08, "<i", -4), "section core_index", write)


def test_core_index_too_small(write):
    data, _ = R.level()
    bad(patched(data, DATA + 0x0C, "<i", 0xBB), "cannot hold the 0xbc", write)


def test_compressed_size_mismatch(write):
    data, info = R.level()
    n = len(info["core_stream"])
    e = bad(patched(data, CORE_INDEX + 0x88, "<i", n + 1), "compressed", write)
    assert e.offset == CORE_INDEX + 0x88
    # the stream's own size field larger than its section
    core_at = DATA + info["sections"]["core_data"][0]
    bad(patched(data, core_at + 3, "<i", n + 100), "size field says", write)


def test_decompressed_size_lying(write):
    data, info = R.level()
    for declared in (0x2fff, 0x3001):
        lvl = wadkit.rc2.from_bytes(patched(data, CORE_INDEX + 0x8C, "<i", declared))
        with pytest.raises(wadkit.FormatError, match="declared") as e:
            lvl.core_data
        assert "core_data" in e.value.context


def test_region_offsets_must_increase_inside_core_data(write):
    data, _ = R.level()
    bad(patched(data, CORE_INDEX + 0x10, "<i", 0x1000), "sky offset", write)
    bad(patched(data, CORE_INDEX + 0x14, "<i", 0x1300), "collision offset", write)
    bad(patched(data, CORE_INDEX + 0x60, "<i", 0x3001), "textures_base", write)
    bad(patched(data, CORE_INDEX + 0x8C, "<i", 0x1800), "collision offset", write)


def test_core_data_bomb_is_capped(write):
    data, _ = R.level()
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", data), max_size=0x1000)
    with pytest.raises(wadkit.FormatError, match="limit"):
        lvl.core_data


def test_broken_gameplay_stream(write):
    data, info = R.level()
    gp = 0x1800
    e = bad(patched(data, gp + 27, "B", 0x01), "literal runs", write)
    assert e.offset == gp + 27 and "gameplay" in e.context
    bad(patched(data, gp, "3s", b"XXX"), "magic", write)


def test_random_damage_to_the_headers(write):
    """Bytes changed in the level header, data table or core header: a clean
    FormatError or a level whose streams decode to their declared sizes."""
    import random
    rng = random.Random(3)
    data, info = R.level()
    spots = list(range(0x60)) + list(range(DATA, DATA + 0x58)) + \
        list(range(CORE_INDEX, CORE_INDEX + 0xBC))
    for _ in range(300):
        b = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            b[rng.choice(spots)] = rng.randrange(256)
        try:
            lvl = wadkit.rc2.from_bytes(bytes(b), max_size=1 << 20)
            assert len(lvl.core_data) == lvl.core_header["decompressed_size"]
            lvl.gameplay
        except wadkit.FormatError as e:
            assert e.context


def test_stream_names(write):
    data, _ = R.level()
    lvl = wadkit.rc2.from_bytes(data)
    with pytest.raises(ValueError, match="no gameplay_pal stream"):
        lvl._lvl.decompress("gameplay_pal")
    with pytest.raises(wadkit.FormatError, match="gameplay extent is empty"):
        wadkit.rc2.from_bytes(patched(data, 0x24, "<i", 0)).gameplay


def test_missing_parts_name_the_offset_of_their_pair(write):
    """An absent data extent, core_data section or gameplay stream is
    reported at the offset of the {offset, size} pair that says so."""
    data, _ = R.level()
    e = bad(patched(data, 0x14, "<i", 0), "no data extent", write)
    assert e.offset == 0x10 and "RC2 level header" in e.context
    e = bad(patched(data, DATA + 0x4C, "<i", 0), "has no core_data", write)
    assert e.offset == DATA + 0x48 and "RC2 core" in e.context
    with pytest.raises(wadkit.FormatError, match="gameplay extent is empty") as info:
        wadkit.rc2.from_bytes(patched(data, 0x24, "<i", 0)).gameplay
    assert info.value.offset == 0x20


def test_negative_max_size_is_a_value_error(write):
    """A negative max_size used to reach PyBytes_FromStringAndSize (a
    SystemError for streams without a declared size)."""
    data, _ = R.level()
    lvl = wadkit.rc2.from_bytes(data)
    for name in ("core_data", "gameplay"):
        with pytest.raises(ValueError, match="max_size must be >= 0"):
            lvl._lvl.decompress(name, max_size=-1)
