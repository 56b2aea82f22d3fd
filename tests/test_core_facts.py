"""Format facts that used to be written in Python are in the C core now;
each checked against a from-spec builder (tests/builders), which does not
call our C code."""
import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import eng_text as T


def _text(entries, tail=b"", pages=()):
    return T.text([T.palette([0x7fff, 0x001f])], list(pages), entries, tail=tail)


def test_text_with_entries_appends_to_the_table():
    """TEXT = palettes, pages, u32 count, count × 8 bytes, effect list
    (docs/formats/eng.md "TEXT"): new entries go after the old ones, the
    count grows, the effect list after the table stays as it was."""
    old = [T.entry(0, 0, -1, 0, 63, 0, 63), T.entry(1, 0, -1, 1, 2, 3, 255)]
    new = [T.entry(0x10, 0, -1, 64, 127, 0, 63)]
    fx = T.effects([T.effect(1, 1, b"\x01\x02\x03\x04", [0, 1])])
    pages = [T.page_pal8(2, 2, b"\0\1\1\0")]
    text = _core.EngText(_text(old, fx, pages))
    assert text.with_entries(b"".join(new)) == _text(old + new, fx, pages)
    assert text.with_entries(b"") == _text(old, fx, pages)
    again = _core.EngText(text.with_entries(b"".join(new)))
    assert again.tail_raw == fx and again.effects == text.effects
    assert again.table_raw == b"".join(old + new)


def test_text_with_entries_after_a_page_edit():
    old = [T.entry(0, 0, -1, 0, 3, 0, 3)]
    text = _core.EngText(_text(old, pages=[T.page_rgb16(2, 2, [0, 0, 0, 0])]))
    text.set_page_rgba(0, np.full((2, 2, 4), 255, np.uint8))
    out = _core.EngText(text.with_entries(T.entry(0, 0, -1, 0, 1, 0, 1)))
    assert out.page_rgba(0).min() == 255 and len(out.table_raw) == 16


def test_text_with_entries_limits():
    text = _core.EngText(_text([T.entry()] * 3))
    with pytest.raises(wadkit.LimitError, match="not whole 8-byte entries"):
        text.with_entries(b"1234567")
    with pytest.raises(wadkit.LimitError, match="more than the 65536"):
        text.with_entries(bytes(8 * 65534))
    assert len(_core.EngText(text.with_entries(bytes(8 * 65533))).table_raw) == 8 * 65536


def test_rc2_texture_entry_errors_name_the_entry(write):
    """The 16-byte entries {s32 data, s16 w, h, type, palette, mip, pad} are
    read in C (rc2_texture.c); a bad one is a FormatError at its offset."""
    from test_rc2_tfrag import level_with_terrain
    data = level_with_terrain(palette=1)
    lvl = wadkit.rc2.from_bytes(data)
    with pytest.raises(wadkit.FormatError, match=r"tfrag texture 1: 4x2 pixels") as e:
        lvl.tfrag_textures
    index_at = lvl.sections["core_index"][0]
    assert e.value.offset == index_at + 0xC0 + 16
    assert e.value.context == "RC2 tfrag textures"
    assert data[e.value.offset + 10] == 1          # the palette field


def test_rc2_tfrag_block_and_count_checked_in_c():
    """The tfrags block ends at the first of occlusion/sky/collision after
    it; a negative texture count is a FormatError at its core-header field
    (docs/formats/rc2.md)."""
    from builders import rc2_level as R
    data, _ = R.level()
    lvl = wadkit.rc2.from_bytes(data)
    h = lvl.core_header
    start, end, count = lvl._lvl.tfrag_block(len(lvl.core_data))
    assert start == h["tfrags"] and count == h["tfrag_textures"][0]
    assert end == min(h[k] for k in ("occlusion", "sky", "collision") if h[k] > start)
    assert lvl._lvl.tfrag_block(start + 1)[1] == start + 1     # cut by core_data
    header_at = lvl.sections["core_index"][0]
    with pytest.raises(ValueError, match="core_size"):
        lvl._lvl.tfrag_block(-1)
    for field, value, match in ((0x30, -1, "count -1 is negative"),):
        bad = bytearray(data)
        bad[header_at + field:header_at + field + 4] = value.to_bytes(4, "little", signed=True)
        lvl = wadkit.rc2.from_bytes(bytes(bad))
        with pytest.raises(wadkit.FormatError, match=match) as e:
            lvl.terrain()
        assert e.value.offset == header_at + field
        assert e.value.context == "RC2 core header"
        # the count alone (chunk terrain, the edit) is the same check
        with pytest.raises(wadkit.FormatError, match=match) as e:
            lvl._lvl.tfrag_texture_count()
        assert e.value.offset == header_at + field


def test_rc2_empty_gameplay_is_the_builders_header():
    """The gameplay of no blocks (the sample's) is written in C: the
    builder's header of zero offsets, then the tail; it parses as absent."""
    from builders import rc2_gameplay as G
    gp = wadkit.rc2.empty_gameplay(b"tail")
    assert gp == G.layout({}) + b"tail"
    parsed = _core.rc2_gameplay_parse(gp)
    assert parsed["settings"] is None and parsed["tie"] is None
    assert all(b[2] == 0 for b in parsed["blocks"])


def test_rc2_sky_and_collision_blocks_are_found_in_c():
    """The sky runs from its offset to the collision offset, the collision
    to textures_base (docs/formats/rc2.md); an end outside core_data is a
    FormatError at that core-header field. The sky's textures come decoded
    from C as tfrag_texture decodes the entry's pixels and palette."""
    from builders import rc2_full as F
    from builders import rc2_sky as S
    sky = S.block([(True, [([(1024, 0, 0, 0x80), (0, 2048, 0, 0x40), (0, 0, -1024, 0x80)],
                            [(0, 0), (4096, 0), (2048, -8192)], [(0, 1, 2, 0)])])],
                  textures=[(2, 2, bytes([0, 1, 2, 3]), bytes(range(256)) * 4)])
    data, _ = F.level()
    lvl = wadkit.rc2.from_bytes(data)
    h, n = lvl.core_header, len(lvl.core_data)
    assert lvl._lvl.core_block("sky", n) == (h["sky"], h["collision"])
    assert lvl._lvl.core_block("collision", n) == (h["collision"], h["textures_base"])
    with pytest.raises(ValueError, match="no core data block 'texels'"):
        lvl._lvl.core_block("texels", n)
    # (offsets out of order are refused when the level is opened; a core
    # size that cuts a block is refused here)
    with pytest.raises(wadkit.FormatError, match="textures_base offset .*the end of the "
                       "collision block") as e:
        lvl._lvl.core_block("collision", h["textures_base"] - 1)
    assert e.value.offset == lvl.sections["core_index"][0] + 0x60
    parsed = _core.sky_parse(sky)
    t = parsed["texture_entries"][0]
    want = _core.tfrag_texture(sky[t["pixels"]:t["pixels"] + 4], 2, 2,
                               sky[t["palette"]:t["palette"] + 1024])
    assert np.array_equal(parsed["textures"][0], want)
