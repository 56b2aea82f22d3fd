"""RC2 gameplay: header blocks, level settings, class lists, tie / shrub /
moby instances, tie ambient records, checked against fixtures packed by the
spec builders (builders.rc2_gameplay, rc2_core), the invariants the data
declares, and the round trip: the parsed fields re-serialised by the
builder reproduce the gameplay byte for byte."""
import math
import struct

import numpy as np
import pytest

import wadkit
from builders import rc2_core as C
from builders import rc2_gameplay as G
from builders import rc2_level as R


small_fields = G.sample
SMALL_CLASSES = C.SAMPLE_CLASSES


def small_level(blocks=None, classes=None, order=G.WRENCH_ORDER, **kw):
    f = small_fields()
    gp = G.layout(f["blocks"] if blocks is None else blocks, order)
    data, where = R.whole_level(gp, SMALL_CLASSES if classes is None else classes,
                                compress=R.stored, **kw)
    return wadkit.rc2.from_bytes(data), f, where, gp


@pytest.fixture(scope="module")
def generated():
    g = G.generated()
    classes = C.generated_classes(g["classes"])
    data, where = R.whole_level(g["gameplay"], classes)
    return wadkit.rc2.from_bytes(data), g, classes, where


# ---- decoding ----------------------------------------------------------------

def test_blocks_and_settings():
    lvl, f, _, gp = small_level()
    assert lvl.gameplay == gp
    by = {b.name: b for b in lvl.gameplay_blocks}
    assert len(lvl.gameplay_blocks) == 39 and [b.slot for b in lvl.gameplay_blocks] == list(range(0, 0x9c, 4))
    # Wrench's order: settings first (no env sample points here), at 0xa0
    assert by["settings"].offset == 0xA0
    assert by["settings"].decoded == 0x5C + 2 * 0x20 + 4
    assert by["settings"].size == 0xA0 and len(by["settings"].tail) == 0
    # the next block (cameras) starts 16-aligned: 0x140; the moby classes'
    # 4 + 12 bytes are followed by their block's padding
    assert by["cameras"].offset == 0x140
    mc = by["moby_classes"]
    assert (mc.decoded, mc.size, bytes(mc.tail)) == (16, 16, b"")
    ti = by["tie_classes"]
    assert (ti.decoded, ti.size, bytes(ti.tail)) == (12, 16, bytes(4))
    assert not by["areas"].present and by["areas"].size == 0
    assert by["cameras"].decoded == 0 and bytes(by["cameras"].data) == bytes(16)
    s = lvl.settings
    for k, v in f["settings"].items():
        if k != "chunk_plane_records":
            assert s[k] == (tuple(v) if isinstance(v, list) else v), k
    assert s["chunk_plane_count"] == 2
    assert [p["point"] for p in s["chunk_plane_records"]] == [(1.0, 2.0, 3.0), (4.0, 5.0, 6.0)]
    assert [p["count"] for p in s["chunk_plane_records"]] == [2, 2]


def test_settings_without_chunk_planes_keeps_the_terminator():
    f = small_fields()
    f["settings"]["chunk_plane_records"] = [dict(point=(9.0, 0.0, 0.0), count=0,
                                                 normal=(0.0, 0.0, 0.0), pad=7)]
    blocks = dict(f["blocks"], settings=G.settings_block(f["settings"]))
    lvl, *_ = small_level(blocks)
    assert lvl.settings["chunk_plane_count"] == 0
    assert lvl.settings["chunk_plane_records"] == f["settings"]["chunk_plane_records"]
    assert lvl.settings["core_sounds_count"] == 9


def test_instances_small():
    lvl, f, _, _ = small_level()
    t = lvl.ties
    assert len(t) == 3 and t.header == (3, 0, 0, 0)
    assert t.class_id.tolist() == [300, 200, 300] and t.class_id.dtype == np.int32
    assert t.matrix.shape == (3, 4, 4) and t.matrix.dtype == np.float32
    for i, r in enumerate(f["ties"]):
        np.testing.assert_array_equal(t.matrix[i], np.array(r["matrix"], np.float32))
    assert t.matrix_w.tolist() == [np.float32(0.01), 1.0, 0.5]
    assert (t.matrix[:, 3, 3] == 1).all()
    assert t.uid.tolist() == [7, 8, 9] and t.draw_distance.tolist() == [50, 51, 52]
    # the ambient records: stored order kept; per tie the record or -1
    assert t.ambient_record.tolist() == [1, -1, 0]
    assert lvl.tie_ambient["instance"].tolist() == [2, 0]
    assert lvl.tie_ambient["count"].tolist() == [2, 3]
    assert lvl.tie_ambient_colours(2).tolist() == [0x8001, 0x8002]
    assert lvl.tie_ambient_colours(0).tolist() == [0x7FFF] * 3
    assert lvl.tie_ambient_colours(1) is None
    s = lvl.shrubs
    assert s.colour.tolist() == [[0, 128, 255], [1, 128, 255]]
    assert s.draw_distance.dtype == np.float32 and s.draw_distance.tolist() == [12.5, 12.5]
    m = lvl.mobys
    assert m.header == (2, 3, 0, 0) and m.size.tolist() == [0x88, 0x88]
    assert m.position.shape == (2, 3) and m.light_colour.tolist()[0] == [-1, 0, 0]
    assert {k: v.tolist() for k, v in lvl.class_lists.items()} == {
        "tie": [300, 200], "shrub": [40, 41], "moby": [8, 9, 10]}
    with pytest.raises(ValueError):
        t.class_id[0] = 1                       # read-only views of the parse


def test_moby_matrix_is_translate_scale_rz_ry_rx():
    lvl, f, _, _ = small_level()
    m = lvl.mobys.matrix
    # moby 0: a quarter turn about z, scale 1, at (1, 2, 3): x -> y
    np.testing.assert_allclose(m[0] @ [1, 0, 0, 1], [1, 3, 3, 1], atol=1e-6)
    # moby 1: the builder's rotation (rotate about x first, then y, then z)
    r = f["mobys"][1]
    rot = np.array(G.rotation(r["rotation"][2], r["rotation"][1], r["rotation"][0]))
    want = np.eye(4)
    want[:3, :3] = 2.0 * rot
    want[:3, 3] = r["position"]
    np.testing.assert_allclose(m[1], want, atol=1e-6)


def test_absent_blocks_give_empty_instances():
    f = small_fields()
    blocks = {k: v for k, v in f["blocks"].items()
              if k not in ("shrub_instances", "shrub_classes", "tie_ambient_rgbas")}
    lvl, *_ = small_level(blocks)
    assert len(lvl.shrubs) == 0 and lvl.shrubs.block is None and lvl.shrubs.header is None
    assert lvl.shrubs.matrix.shape == (0, 4, 4) and lvl.shrubs.colour.shape == (0, 3)
    assert lvl.class_lists["shrub"] is None and lvl.tie_ambient is None
    assert lvl.ties.ambient_record.tolist() == [-1, -1, -1]


def test_generated_level_fields(generated):
    lvl, g, classes, _ = generated
    assert (len(lvl.ties), len(lvl.shrubs), len(lvl.mobys)) == (2000, 2000, 200)
    # the numbers docs/formats/rc2-gameplay.md quotes for this level
    assert len(lvl.gameplay) == 783_416 and len(lvl.tie_ambient["count"]) == 1222
    sizes = {b.name: b.decoded for b in lvl.gameplay_blocks}
    assert (sizes["tie_instances"], sizes["shrub_instances"], sizes["moby_instances"]) == (
        16 + 2000 * 0x60, 16 + 2000 * 0x70, 16 + 200 * 0x88) == (192_016, 224_016, 27_216)
    assert len(lvl.shrub_classes) == 30 and len(lvl.moby_classes) == 25
    assert sum(c.offset == 0 for c in lvl.moby_classes) == 3
    assert len(lvl.tie_classes) == 40 and len(np.unique(lvl.ties.class_id)) == 40
    for kind, inst, recs in (("tie", lvl.ties, g["ties"]), ("shrub", lvl.shrubs, g["shrubs"]),
                             ("moby", lvl.mobys, g["mobys"])):
        for name, arr in inst.arrays.items():
            if name == "ambient_record" or (name == "matrix" and kind == "moby"):
                continue
            want = np.array([r[name] for r in recs], dtype=arr.dtype)
            np.testing.assert_array_equal(arr, want, err_msg=f"{kind}.{name}")
    assert lvl.class_lists["tie"].tolist() == g["class_lists"]["tie"]
    amb = lvl.tie_ambient
    assert amb["instance"].tolist() == [i for i, _ in g["ambient"]]
    for k, (i, data) in enumerate(g["ambient"][:50]):
        assert lvl.tie_ambient_colours(i).tobytes() == data


# ---- the round trip ---------------------------------------------------------

def records(inst) -> list[dict]:
    out = []
    for i in range(len(inst)):
        out.append({k: a[i].tolist() for k, a in inst.arrays.items()})
    return out


def reserialise(lvl) -> bytes:
    """The gameplay rebuilt by the spec builder from what wadkit parsed: the
    decoded blocks from their fields plus their tails, the others as kept."""
    gp = lvl.gameplay
    present = sorted((b for b in lvl.gameplay_blocks if b.present), key=lambda b: b.offset)
    out = []
    for b in present:
        kind = b.name.split("_")[0]
        if b.name == "settings":
            body = G.settings_block(lvl.settings)
        elif b.name in ("tie_classes", "shrub_classes", "moby_classes"):
            body = G.class_list(lvl.class_lists[kind].tolist())
        elif b.name in ("tie_instances", "shrub_instances", "moby_instances"):
            inst = getattr(lvl, kind + "s")
            body = G.instance_block(kind, records(inst), inst.header)
        elif b.name == "tie_ambient_rgbas":
            a = lvl.tie_ambient
            body = G.ambient_block([(int(i), gp[o:o + 2 * n]) for i, n, o in
                                    zip(a["instance"], a["count"], a["offset"])])
        else:
            assert b.decoded == 0, b.name
            body = b""
        assert len(body) == b.decoded, b.name
        out.append((b.name, body + bytes(b.tail)))
    return G.exact(gp[G.HEADER:present[0].offset], out)


def test_round_trip_generated(generated):
    lvl, g, _, _ = generated
    assert reserialise(lvl) == g["gameplay"]


def test_round_trip_keeps_gaps_tails_and_order():
    """Blocks out of Wrench's order, unaligned, with non-zero bytes after
    each decoded part and between the header and the first block."""
    f = small_fields()
    junk = [(n, f["blocks"][n] + bytes([0xA5, i, 0x5A])) for i, n in
            enumerate(("moby_instances", "tie_ambient_rgbas", "cameras", "settings",
                       "tie_instances", "shrub_classes", "tie_classes",
                       "shrub_instances", "moby_classes"))]
    gp = G.exact(b"\x11\x22\x33", junk)
    data, _ = R.whole_level(gp, SMALL_CLASSES, compress=R.stored)
    lvl = wadkit.rc2.from_bytes(data)
    assert lvl.gameplay == gp
    by = {b.name: b for b in lvl.gameplay_blocks}
    assert bytes(by["settings"].tail)[:2] == b"\xa5\x03"
    assert reserialise(lvl) == gp


# ---- invariants ---------------------------------------------------------------

def fails(blocks=None, classes=None, match=None, offset=None, **kw):
    lvl, *_ = small_level(blocks, classes, **kw)
    with pytest.raises(wadkit.FormatError, match=match) as e:
        lvl.ties, lvl.shrubs, lvl.mobys
    if offset is not None:
        assert e.value.offset == offset, str(e.value)
    assert e.value.context.startswith("RC2")
    return e.value


def test_moby_size_field_must_be_0x88():
    f = small_fields()
    f["mobys"][1]["size"] = 0x78
    blocks = dict(f["blocks"], moby_instances=G.instance_block("moby", f["mobys"]))
    gp = G.layout(blocks)
    at = struct.unpack_from("<i", gp, G.SLOT["moby_instances"])[0] + 16 + 0x88
    e = fails(blocks, match="moby 1: record size field 120, not 0x88", offset=at)
    assert "moby instances" in e.context


@pytest.mark.parametrize("ids, match", [
    ([200, 300], "entry 0 is another class"),           # not the order of first use
    ([300], "entry 1 is missing"),
    ([300, 200, 999], "has 3 classes, its instances use 2"),
])
def test_tie_class_list_is_the_instances_classes_in_first_use_order(ids, match):
    f = small_fields()
    fails(dict(f["blocks"], tie_classes=G.class_list(ids)), match=match)


def test_shrub_class_list_checked_too():
    f = small_fields()
    fails(dict(f["blocks"], shrub_classes=G.class_list([41, 40])), match="shrub class list")


def test_moby_class_list_is_data_of_its_own():
    f = small_fields()      # a class without instances, and another order: fine
    lvl, *_ = small_level(dict(f["blocks"], moby_classes=G.class_list([10, 9, 8, 11])))
    assert lvl.class_lists["moby"].tolist() == [10, 9, 8, 11]


@pytest.mark.parametrize("kind, drop", [("tie", 200), ("shrub", 41), ("moby", 8)])
def test_instance_class_must_be_in_the_core_table(kind, drop):
    classes = {k: [c for c in v if not (k == kind and c.id == drop)]
               for k, v in SMALL_CLASSES.items()}
    fails(classes=classes, match=f"class {drop} is not in the core's {kind} class table")


def test_counts_too_large():
    f = small_fields()
    big = bytearray(f["blocks"]["tie_instances"])
    struct.pack_into("<i", big, 0, 4)                 # 4 records, 3 stored
    e = fails(dict(f["blocks"], tie_instances=bytes(big)), match="4 records of 0x60")
    lst = bytearray(G.class_list([300, 200]))
    struct.pack_into("<i", lst, 0, 0x7FFFFFFF)
    fails(dict(f["blocks"], tie_classes=bytes(lst)), match="2147483647 class numbers")
    struct.pack_into("<i", lst, 0, -1)
    fails(dict(f["blocks"], tie_classes=bytes(lst)), match="-1 class numbers")
    s = bytearray(f["blocks"]["settings"])
    struct.pack_into("<i", s, 0x5C + 0xC, 1 << 20)
    fails(dict(f["blocks"], settings=bytes(s)), match="1048576 chunk planes")
    assert e.offset is not None


def test_ambient_records_checked():
    f = small_fields()
    for recs, match in (([(3, b"\0\0")], "names tie instance 3 of 3"),
                        ([(0, b"")], None)):
        blocks = dict(f["blocks"], tie_ambient_rgbas=G.ambient_block(recs))
        if match:
            fails(blocks, match=match)
        else:
            lvl, *_ = small_level(blocks)
            assert lvl.tie_ambient["count"].tolist() == [0]
    # a record running past the end of its block, and no -1 terminator
    bad = struct.pack("<hh", 0, 100) + b"\0" * 8
    blocks = dict(f["blocks"], tie_ambient_rgbas=bad)
    fails(blocks, order=[n for n in G.WRENCH_ORDER if n != "tie_ambient_rgbas"]
          + ["tie_ambient_rgbas"], match="tie 0")
    fails(dict(f["blocks"], tie_ambient_rgbas=struct.pack("<hh", 0, -2)),
          order=[n for n in G.WRENCH_ORDER if n != "tie_ambient_rgbas"]
          + ["tie_ambient_rgbas"], match="negative size")


def test_header_offsets_in_range():
    f = small_fields()
    gp = bytearray(G.layout(f["blocks"]))
    for value, match in ((len(gp), "block cameras at"), (0x9B, "block cameras at"),
                         (-4, "block cameras at")):
        g2 = bytearray(gp)
        struct.pack_into("<i", g2, G.SLOT["cameras"], value)
        data, _ = R.whole_level(bytes(g2), SMALL_CLASSES, compress=R.stored)
        lvl = wadkit.rc2.from_bytes(data)
        with pytest.raises(wadkit.FormatError, match=match) as e:
            lvl.gameplay_blocks
        assert e.value.offset == G.SLOT["cameras"] and "header" in e.value.context
    data, _ = R.whole_level(bytes(gp[:0x9B]), SMALL_CLASSES, compress=R.stored)
    with pytest.raises(wadkit.FormatError, match="cannot hold the 0x9c-byte header"):
        wadkit.rc2.from_bytes(data).ties


@pytest.mark.parametrize("cut", [0x9C, 0xA0, 0x100, 0x150, -1])
def test_truncated_gameplay(cut):
    """Cutting the gameplay short: the offsets past the cut are refused, a
    block cut inside its records is refused; never partial instances."""
    lvl, *_ , gp = small_level()
    gp2 = gp[:cut] if cut > 0 else gp[:-1]
    data, _ = R.whole_level(gp2, SMALL_CLASSES, compress=R.stored)
    lvl2 = wadkit.rc2.from_bytes(data)
    with pytest.raises(wadkit.FormatError):
        lvl2.ties, lvl2.shrubs, lvl2.mobys, lvl2.settings


def test_stored_fields_tile_each_record():
    """Every byte of every record belongs to exactly one stored field (the
    moby matrix is computed, not stored): a writer of these fields loses
    nothing."""
    from wadkit import _core
    layouts = _core.rc2_gameplay_layouts()
    assert {k: v[0] for k, v in layouts.items()} == {
        "tie": 0x60, "shrub": 0x70, "moby": 0x88, "settings": 0x5C, "chunk_plane": 0x20}
    for kind, (size, fields) in layouts.items():
        cover = np.zeros(size, int)
        for name, off, typ, n in fields:
            if typ == "computed":
                continue
            width = 4 * (15 if typ == "mat4" else n)    # mat4: w is its own field
            cover[off:off + width] += 1
        assert (cover == 1).all(), (kind, np.nonzero(cover != 1))
