"""RC2 core class tables (moby, tie, shrub): the entries, each class's bytes
in core_data (up to the next block boundary), the checks, and the record's
claim that the tables "do not decode" tested with the layout both public
readers use."""
import struct

import numpy as np
import pytest

import wadkit
from builders import rc2_core as C
from builders import rc2_gameplay as G
from builders import rc2_level as R
from wadkit import commands


@pytest.fixture(scope="module")
def level():
    g = G.generated(ties=300, shrubs=200, mobys=60)
    classes = C.generated_classes(g["classes"])
    data, where = R.whole_level(g["gameplay"], classes, compress=R.stored)
    return wadkit.rc2.from_bytes(data), data, classes, where


def index_at(where) -> int:
    """File offset of core_index (the builder's layout: data extent at sector 1)."""
    return R.SECTOR + where["sections"]["core_index"][0]


def test_entries_and_sizes(level):
    lvl, _, classes, where = level
    core_size = lvl.core_header["decompressed_size"]
    starts = sorted(o for offs in where["class_offsets"].values() for o in offs if o)
    for kind, table in (("moby", lvl.moby_classes), ("tie", lvl.tie_classes),
                        ("shrub", lvl.shrub_classes)):
        specs = classes[kind]
        assert [c.id for c in table] == [s.id for s in specs]
        assert [c.offset for c in table] == where["class_offsets"][kind]
        for c, s in zip(table, specs):
            assert c.kind == kind and c.textures == tuple(s.textures)
            assert c.texture_slots == bytes(s.textures) + b"\xff" * (16 - len(s.textures))
            if s.data is None:
                assert (c.offset, c.size, bytes(c.data)) == (0, 0, b"")
                continue
            nxt = min([o for o in starts if o > c.offset] + [core_size])
            assert c.size == nxt - c.offset
            # the class's bytes, then the 0x40 alignment before the next one
            assert bytes(c.data) == s.data + bytes(c.size - len(s.data))
        assert [c.billboard for c in table] == ([s.billboard for s in specs]
                                                if kind == "shrub" else [None] * len(specs))
    assert lvl.tie_classes.by_id(classes["tie"][3].id) is lvl.tie_classes[3]
    assert lvl.tie_classes.ids.dtype == np.int32
    with pytest.raises(KeyError):
        lvl.tie_classes.by_id(-5)


def test_entry_words_kept():
    specs = {"tie": [C.ClassSpec(7, b"x" * 32, [0], word_8=-3, word_c=0x1234,
                                 slots=bytes([0, 0xFF, 5]) + b"\xff" * 13)]}
    data, _ = R.whole_level(G.layout({}), specs, compress=R.stored)
    c = wadkit.rc2.from_bytes(data).tie_classes[0]
    assert (c.word_8, c.word_c) == (-3, 0x1234)
    # textures end at the first 0xff (what follows is not read as an index)
    assert c.textures == (0,) and c.texture_slots[2] == 5


def test_the_record_tried_the_right_words():
    """What the record saw, rebuilt: read as (offset, count) the header's nine
    table pairs give "every second value divisible by 16 and increasing" —
    those are the tables' offsets in core_index; the "offsets" it read are
    the counts, small numbers "at the very start". Read as {count, offset}
    with 0x20 / 0x30-byte entries the tables chain: data offsets that
    increase and land in core_data. A moby table also holds classes with
    offset 0 (no data): a strict "offsets increase" test over all entries
    rejects a real table."""
    g = G.generated(ties=100, shrubs=100, mobys=30)
    classes = C.generated_classes(g["classes"])
    data, where = R.whole_level(g["gameplay"], classes, compress=R.stored)
    lvl = wadkit.rc2.from_bytes(data)
    idx = bytes(lvl.core_index)
    pairs = [struct.unpack_from("<ii", idx, 0x18 + 8 * k) for k in range(3)]
    pairs += [struct.unpack_from("<ii", idx, 0x38 + 8 * k) for k in range(3)]
    second = [p[1] for p in pairs]
    assert all(v % 16 == 0 for v in second) and second == sorted(second)
    assert all(p[0] < 100 for p in pairs)             # counts, not offsets
    moby = [c.offset for c in lvl.moby_classes]
    assert 0 in moby and moby != sorted(moby)          # the naive test fails
    nonzero = [o for o in moby if o]
    assert nonzero == sorted(nonzero) and all(o < len(lvl.core_data) for o in nonzero)


def patched(data: bytes, at: int, fmt: str, *values) -> bytes:
    b = bytearray(data)
    struct.pack_into(fmt, b, at, *values)
    return bytes(b)


def refused(data, match, offset=None):
    with pytest.raises(wadkit.FormatError, match=match) as e:
        lvl = wadkit.rc2.from_bytes(data)
        lvl.moby_classes, lvl.tie_classes, lvl.shrub_classes
    if offset is not None:
        assert e.value.offset == offset, str(e.value)
    assert e.value.context.startswith("RC2 core")
    return e.value


def test_offsets_must_increase(level):
    _, data, _, where = level
    lvl = wadkit.rc2.from_bytes(data)
    t = lvl.tie_classes
    at = index_at(where) + t[4].entry
    bad = patched(data, at, "<i", t[3].offset)          # same as the one before
    e = refused(bad, "class 4 .*not after class 3", at)
    assert "tie classes" in e.context
    refused(patched(data, at, "<i", lvl.core_header["decompressed_size"]),
            "outside the .* bytes of core_data", at)
    refused(patched(data, at, "<i", -64), "outside", at)


def test_table_must_lie_in_core_index(level):
    _, data, _, where = level
    base = index_at(where)
    size = where["sections"]["core_index"][1]
    refused(patched(data, base + 0x20, "<i", 0x7FFFFFFF), "entries of 0x20 bytes", base + 0x20)
    refused(patched(data, base + 0x20, "<i", -1), "entries", base + 0x20)
    refused(patched(data, base + 0x2C, "<i", size - 0x10), "0x30 bytes", base + 0x28)
    refused(patched(data, base + 0x1C, "<i", 0x40), "after its 0xbc-byte header", base + 0x18)


def test_texture_indices_inside_the_kinds_table(level):
    lvl, data, classes, where = level
    c = lvl.shrub_classes[2]
    n = lvl.core_header["shrub_textures"][0]
    at = index_at(where) + c.entry + 16
    refused(patched(data, at, "<B", n), f"texture {n} of the {n}-entry shrub", at)
    refused(patched(data, index_at(where) + 0x48, "<i", -1), "negative texture count")
    ok = wadkit.rc2.from_bytes(patched(data, at, "<B", n - 1))
    assert ok.shrub_classes[2].textures[0] == n - 1


def test_more_boundaries_end_a_class(level):
    """The moby sound remap and the ratchet sequences (256 offsets in
    core_index) are block boundaries too."""
    lvl, data, _, where = level
    c = lvl.tie_classes[5]
    base = index_at(where)
    lvl2 = wadkit.rc2.from_bytes(patched(data, base + 0xB4, "<i", c.offset + 0x20))
    assert lvl2.tie_classes[5].size == 0x20
    seqs = where["sections"]["core_index"][1] - 0x400     # 256 s32 at the end
    d3 = patched(data, base + 0x78, "<i", seqs)
    d3 = patched(d3, base + seqs, "<1024x")                 # all 256 zero: none
    d3 = patched(d3, base + seqs + 4 * 17, "<i", c.offset + 0x30)
    d3 = patched(d3, base + seqs + 4 * 18, "<i", -5)        # <= 0: not an offset
    assert wadkit.rc2.from_bytes(d3).tie_classes[5].size == 0x30
    refused(patched(data, base + 0x78, "<i", seqs + 4), "ratchet sequence offsets",
            base + 0x78)


def test_duplicate_class_numbers_are_kept():
    specs = {"moby": [C.ClassSpec(5, b"a" * 16), C.ClassSpec(5, b"b" * 16)]}
    data, _ = R.whole_level(G.layout({}), specs, compress=R.stored)
    t = wadkit.rc2.from_bytes(data).moby_classes
    assert [c.id for c in t] == [5, 5] and t.by_id(5) is t[0]


def test_info_counts(level):
    lvl, *_ = level
    counts = commands.level_counts(lvl)
    assert {k: counts[k] for k in ("ties", "shrubs", "mobys", "tie_classes",
                                   "shrub_classes", "moby_classes")} == {
        "ties": 300, "shrubs": 200, "mobys": 60, "tie_classes": 40,
        "shrub_classes": 30, "moby_classes": 25}
    # the fixture's tfrags, sky and collision regions are byte patterns:
    # only those parts fail
    assert all(any(k in e for k in ("tfrags", "sky", "collision"))
               for e in counts.get("errors", [])), counts["errors"]


def test_info_counts_name_a_broken_gameplay():
    data, _ = R.level()          # its gameplay is not a gameplay: named, not fatal
    counts = commands.level_counts(wadkit.rc2.from_bytes(data))
    assert counts["tie_classes"] == 0 and "ties" not in counts
    assert any("RC2 gameplay" in e for e in counts["errors"])


def test_empty_core_table_refuses_every_instance():
    """A core tie table of 0 entries: every tie names a missing class (the
    check over an empty id list read 4 bytes past it once; ASan found it)."""
    from wadkit import _core
    f = G.sample()
    gp = G.layout(f["blocks"])
    with pytest.raises(wadkit.FormatError, match="class 300 is not in the core's tie"):
        _core.rc2_gameplay_parse(gp, np.zeros(0, np.int32))
    # any integer array-like is converted (wk_array_arg); floats are refused
    with pytest.raises(wadkit.FormatError, match="class 300 is not in the core's tie"):
        _core.rc2_gameplay_parse(gp, np.zeros(2, np.int64))
    with pytest.raises(TypeError, match="^tie_ids: an array of float64 cannot be converted to int32"):
        _core.rc2_gameplay_parse(gp, np.zeros(2))
    assert _core.rc2_gameplay_parse(gp, None, None, None)["tie"]["class_id"].tolist() == [300, 200, 300]
