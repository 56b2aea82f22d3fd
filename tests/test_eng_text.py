"""ENG TEXT: pages of each kind against hand-computed RGBA, the RLE16 codec,
re-encoding, byte-identical rebuild, the texture table and its UV rules, the
effect records, and every malformed-TEXT case."""
import struct

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wadkit
from wadkit import _core
from builders import eng_text as T
from builders import eng_wad as W

# In W.wad([INFO, TEXT]) the TEXT payload starts at 4 + (8 + 4) + 8 = 24.
BASE = 24


def level(payload: bytes):
    return wadkit.eng.from_bytes(W.wad([("INFO", W.info_payload()),
                                        ("TEXT", payload)]))


def rgba(px):
    return np.array(px, dtype=np.uint8)


# ---------------------------------------------------------------- decoding

def test_rgb16_page_hand_values():
    words = [0x0000, 0x001F, 0x03E0, 0x7C00,   # transparent, R, G, B
             0x7FFF, 0x8000, 0x83E0, 0x5145]   # white, bit 15 alone, G+bit 15, (5,10,20)
    lvl = level(T.text(pages=[T.page_rgb16(4, 2, words)]))
    (pg,) = lvl.pages
    assert (pg.kind, pg.flags, pg.width, pg.height, pg.palette) == ("rgb16", 1, 4, 2, None)
    assert pg.rgba.shape == (2, 4, 4) and pg.rgba.dtype == np.uint8
    # 5 -> 8 bits: (v << 3) | (v >> 2); 5 -> 41, 10 -> 82, 20 -> 165
    assert pg.rgba.tolist() == [
        [[0, 0, 0, 0], [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]],
        [[255, 255, 255, 255], [0, 0, 0, 255], [0, 255, 0, 255], [41, 82, 165, 255]],
    ]   # bit 15 does not make a texel transparent: only the value 0 does


def test_pal8_page_uses_the_palette_its_entries_name():
    pal0 = T.palette([0x7FFF, 0x7FFF], index=7)
    pal1 = T.palette([0x0000, 0x001F, 0x83E0], extra=b"\x01\x02\x03", index=9)
    payload = T.text(palettes=[pal0, pal1],
                     pages=[T.page_pal8(2, 2, bytes([0, 1, 2, 1]))],
                     entries=[T.entry(page=0, page2=1, u1=1, v1=1)])
    lvl = level(payload)
    (pg,) = lvl.pages
    assert (pg.kind, pg.flags, pg.palette) == ("pal8", 0, 1)
    assert pg.rgba.tolist() == [[[0, 0, 0, 0], [255, 0, 0, 255]],
                                [[0, 255, 0, 255], [255, 0, 0, 255]]]
    idx, colors, extra = lvl.palettes[1]
    assert idx == 9 and extra.tolist() == [1, 2, 3]
    assert colors.tolist() == [[0, 0, 0, 0], [255, 0, 0, 255], [0, 255, 0, 255]]
    assert lvl.palettes[0].index == 7


def test_pal8_page_without_naming_entry_uses_palette_0():
    payload = T.text(palettes=[T.palette([0x001F, 0x03E0])],
                     pages=[T.page_pal8(2, 1, bytes([1, 0]))])
    (pg,) = level(payload).pages
    assert pg.palette == 0
    assert pg.rgba.tolist() == [[[0, 255, 0, 255], [255, 0, 0, 255]]]


def test_rle16_runs_of_each_sign():
    stream = (T.literal([0x001F, 0x03E0]) + T.repeat(5, 0x7C00)
              + T.literal([0x8000]))
    (pg,) = level(T.text(pages=[T.page_rle16(4, 2, stream)])).pages
    assert (pg.kind, pg.flags) == ("rle16", 0x80)
    assert pg.rgba.reshape(-1, 4).tolist() == (
        [[255, 0, 0, 255], [0, 255, 0, 255]] + [[0, 0, 255, 255]] * 5
        + [[0, 0, 0, 255]])


def test_rle16_longest_runs():
    lit = [(i * 7) & 0x7FFF | 1 for i in range(32767)]
    stream = (T.literal(lit) + T.repeat(32767, 0x03E0)
              + T.literal([0x001F, 0x0000]))
    (pg,) = level(T.text(pages=[T.page_rle16(256, 256, stream)])).pages
    flat = pg.rgba.reshape(-1, 4)
    v = lit[12345]
    r, g, b = v & 31, (v >> 5) & 31, (v >> 10) & 31
    assert flat[12345].tolist() == [(r << 3) | (r >> 2), (g << 3) | (g >> 2),
                                    (b << 3) | (b >> 2), 255]
    assert (flat[32767:65534] == [0, 255, 0, 255]).all()
    assert flat[65534].tolist() == [255, 0, 0, 255]
    assert flat[65535].tolist() == [0, 0, 0, 0]


def test_rle16_one_pixel_short_leaves_last_pixel_transparent():
    # ArgonautReverse's decoder stops at w·h-1 pixels; such a stream is read
    stream = T.repeat(3, 0x7FFF)
    (pg,) = level(T.text(pages=[T.page_rle16(2, 2, stream)])).pages
    assert pg.rgba.reshape(-1, 4).tolist() == [[255] * 4] * 3 + [[0, 0, 0, 0]]


def test_every_abgr1555_value_round_trips_with_bit_15():
    words = list(range(65536))
    lvl = level(T.text(pages=[T.page_rgb16(256, 256, words, flags=3)]))
    lvl.set_page_rgba(0, lvl.pages[0].rgba)
    (pg,) = T.read_pages(bytes(lvl.chunk("TEXT")))
    assert pg["flags"] == 3 and pg["words"] == words


# ---------------------------------------------------------------- encoding

def test_encode_rules_transparent_and_opaque_black():
    lvl = level(T.text(pages=[T.page_rgb16(6, 1, [0] * 6)]))
    lvl.set_page_rgba(0, rgba([[
        [200, 100, 50, 0],    # alpha < 128 -> 0 whatever the colour
        [0, 0, 0, 255],       # opaque black would be 0: -> 0x8000
        [1, 3, 2, 255],       # quantises to 0 as well -> 0x8000
        [132, 0, 0, 127],     # alpha 127 -> transparent
        [132, 0, 0, 128],     # alpha 128 -> opaque; 132 -> 16, bit 15 clear
        [130, 124, 255, 255], # 130 -> 16 (132 nearer than 123), 124 -> 15
    ]]))
    (pg,) = T.read_pages(bytes(lvl.chunk("TEXT")))
    assert pg["words"] == [0x0000, 0x8000, 0x8000, 0x0000, 0x0010,
                           16 | 15 << 5 | 31 << 10]
    assert lvl.pages[0].rgba[0, 1].tolist() == [0, 0, 0, 255]


def test_bit_15_comes_from_the_pixel_it_replaces():
    # the page: bit 15 on pixels 0, 1, 3; pixel 2 transparent; 4 clear
    words = [0x801F, 0x83E0, 0x0000, 0xFC00, 0x03FF]
    lvl = level(T.text(pages=[T.page_rgb16(5, 1, words)]))
    px = lvl.pages[0].rgba.copy()
    px[0, 0] = [255, 0, 0, 255]     # the same colour: the word as it was
    px[0, 1] = [0, 0, 255, 255]     # another colour: keeps its pixel's bit 15
    px[0, 2] = [0, 255, 0, 255]     # was transparent: the page's majority (set)
    px[0, 4] = [255, 255, 255, 255] # another colour, its pixel had bit 15 clear
    lvl.set_page_rgba(0, px)
    (pg,) = T.read_pages(bytes(lvl.chunk("TEXT")))
    assert pg["words"] == [0x801F, 0xFC00, 0x83E0, 0xFC00, 0x7FFF]


def test_every_page_kind_decodes_alpha_0_exactly_for_the_value_0():
    words = list(range(65536))
    pal = T.palette([0x0000, 0x8000, 0x801F, 0x7FFF, 0x0001])
    stream = T.literal(words[:30000]) + T.repeat(5536, 0x8000) + T.literal(words[35536:])
    payload = T.text(palettes=[pal],
                     pages=[T.page_rgb16(256, 256, words),
                            T.page_rle16(256, 256, stream),
                            T.page_pal8(5, 1, bytes([0, 1, 2, 3, 4]))],
                     entries=[T.entry(page=2, page2=0)])
    lvl = level(payload)
    expect = [words, T.rle16_decode(stream, 65536), [0x0000, 0x8000, 0x801F, 0x7FFF, 0x0001]]
    for pg, values in zip(lvl.pages, expect):
        alpha = pg.rgba[..., 3].reshape(-1)
        values = np.array(values)
        assert set(alpha.tolist()) == {0, 255}
        np.testing.assert_array_equal(alpha == 0, values == 0)


def test_decode_encode_returns_every_page_kind_byte_for_byte():
    # the builder's own streams (not the ones our encoder would write), with
    # bit 15 on some pixels and not on others, and a pal8 page whose palette
    # holds one colour twice
    pal = T.palette([0x0000, 0x801F, 0x001F, 0x7FFF, 0x8000])
    stream = (T.literal([0x801F, 0x001F]) + T.repeat(2, 0x7FFF) + T.repeat(3, 0xFFFF)
              + T.literal([0x8000, 0x0000, 0x0421]) + T.repeat(6, 0x8421))
    payload = T.text(palettes=[pal],
                     pages=[T.page_pal8(4, 2, bytes([0, 1, 2, 3, 4, 2, 1, 0])),
                            T.page_rgb16(4, 2, [0x801F, 0x001F, 0, 0x8000,
                                                0xFFFF, 0x7FFF, 0x8421, 0x0421], flags=5),
                            T.page_rle16(4, 4, stream, flags=0x81)],
                     entries=[T.entry(page=0, page2=0)])
    lvl = level(payload)
    for i in range(3):
        lvl.set_page_rgba(i, lvl.pages[i].rgba.copy())
        assert not lvl.pages[i].replaced
    assert bytes(lvl.chunk("TEXT")) == payload


def test_rle16_reencode_round_trip_and_stream_shape():
    stream = (T.literal([0x001F, 0x03E0]) + T.repeat(5, 0x7C00)
              + T.literal([0x8000]) + T.repeat(8, 0x0421))
    lvl = level(T.text(pages=[T.page_rle16(4, 4, stream)]))
    before = lvl.pages[0].rgba.copy()
    lvl.set_page_rgba(0, before)
    (pg,) = T.read_pages(bytes(lvl.chunk("TEXT")))
    assert pg["flags"] == 0x80
    words = pg["words"]
    assert T.rle16_decode(words, 16) == T.rle16_decode(stream, 16)
    assert len(words) <= 16   # never larger than the raw 16-bit pixels
    assert (lvl.pages[0].rgba == before).all()
    # no run starts at the last pixel (a w·h-1 reader would drop it)
    assert all(start != 15 for start, _ in T.rle16_runs(words))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.sampled_from(
    [0x0000, 0x8000, 0x001F, 0x7FFF, 0x0421])), min_size=1, max_size=30))
def test_rle16_encoder_round_trip_property(runs):
    words = [w for n, w in runs for _ in range(n)]
    n = len(words)
    target = level(T.text(pages=[T.page_rgb16(n, 1, words)])).pages[0].rgba
    start = T.page_rle16(n, 1, T.repeat(n, 0x7FFF))
    lvl = level(T.text(pages=[start]))
    lvl.set_page_rgba(0, target)
    (pg,) = T.read_pages(bytes(lvl.chunk("TEXT")))
    if words == [0x7FFF] * n:                            # the pixels it holds:
        assert pg["record"] == start                     # kept byte for byte
    elif pg["flags"] & 0x80:
        assert T.rle16_decode(pg["words"], n) == words   # reference decoder
        assert len(pg["words"]) <= n                     # never past raw
        assert n == 1 or all(s != n - 1 for s, _ in T.rle16_runs(pg["words"]))
    else:                                                # stored raw instead
        assert pg["flags"] == 0x01 and pg["words"] == words


def test_rle16_last_pixel_folds_into_previous_run():
    # 9 equal pixels then one different: a repeat of 9 would leave a lone
    # run at pixel 9; the encoder writes repeat 8 + literal 2 instead
    lvl = level(T.text(pages=[T.page_rle16(10, 1, T.repeat(10, 0x7FFF))]))
    px = np.full((1, 10, 4), 255, np.uint8)
    px[0, 9] = [255, 0, 0, 255]
    lvl.set_page_rgba(0, px)
    words = T.read_pages(bytes(lvl.chunk("TEXT")))[0]["words"]
    assert words == T.repeat(8, 0x7FFF) + T.literal([0x7FFF, 0x001F])


def test_rle16_incompressible_page_is_stored_raw():
    rng = np.random.default_rng(1)
    noise = rng.integers(1, 256, size=(16, 16, 4), dtype=np.uint8)
    noise[..., 3] = 255
    lvl = level(T.text(pages=[T.page_rle16(16, 16, T.repeat(256, 1), flags=0x81)]))
    lvl.set_page_rgba(0, noise)
    (pg,) = T.read_pages(bytes(lvl.chunk("TEXT")))
    assert pg["flags"] == 0x01 and len(pg["record"]) == 12 + 2 * 256
    assert lvl.pages[0].kind == "rgb16"
    assert (lvl.pages[0].rgba[..., 3] == 255).all()
    # flags exactly 0x80: the raw page gets 0x01 so it stays 16-bit [assumed]
    lvl = level(T.text(pages=[T.page_rle16(16, 16, T.repeat(256, 1))]))
    lvl.set_page_rgba(0, noise)
    assert T.read_pages(bytes(lvl.chunk("TEXT")))[0]["flags"] == 0x01


def test_pal8_requantises_to_its_palette():
    pal = T.palette([0x0000, 0x001F, 0x03E0, 0x7C00])
    payload = T.text(palettes=[pal], pages=[T.page_pal8(4, 1, bytes(4))],
                     entries=[T.entry(page=0, page2=0)])
    lvl = level(payload)
    lvl.set_page_rgba(0, rgba([[[250, 10, 0, 255], [9, 9, 9, 0],
                                [0, 0, 200, 255], [20, 240, 30, 255]]]))
    (pg,) = T.read_pages(bytes(lvl.chunk("TEXT")))
    assert pg["flags"] == 0 and pg["words"] == [1, 0, 3, 2]
    assert lvl.palettes[0].rgba.tolist()[1] == [255, 0, 0, 255]   # palette kept


def test_pal8_with_two_palettes_refuses():
    pals = [T.palette([0x001F, 0x7C00]), T.palette([0x03E0, 0x7C00])]
    payload = T.text(palettes=pals, pages=[T.page_pal8(1, 1, b"\x00")],
                     entries=[T.entry(page=0, page2=0), T.entry(page=0, page2=1)])
    lvl = level(payload)
    assert lvl.pages[0].palette_shared
    lvl.set_page_rgba(0, lvl.pages[0].rgba.copy())    # unchanged: no refusal
    assert bytes(lvl.chunk("TEXT")) == payload
    with pytest.raises(wadkit.LimitError, match="more than one palette"):
        lvl.set_page_rgba(0, rgba([[[0, 0, 255, 255]]]))


def test_set_page_rgba_checks_shape_and_dtype():
    lvl = level(T.text(pages=[T.page_rgb16(2, 1, [1, 2])]))
    with pytest.raises(ValueError, match=r"shape \(1, 2, 4\)"):
        lvl.set_page_rgba(0, np.zeros((2, 1, 4), np.uint8))
    with pytest.raises(TypeError):
        lvl.set_page_rgba(0, np.zeros((1, 2, 4), np.float32))
    with pytest.raises(IndexError):
        lvl.set_page_rgba(5, np.zeros((1, 2, 4), np.uint8))


# ---------------------------------------------------------------- rebuild

def sample_payload():
    return T.text(
        palettes=[T.palette([0x0000, 0x001F, 0x03E0], extra=b"\x05\x06\x07")],
        pages=[T.page_pal8(2, 2, bytes([0, 1, 2, 1])),
               T.page_rgb16(2, 2, [0x7FFF, 0x8000, 0x0001, 0]),
               T.page_rle16(4, 4, T.literal([1, 2, 3]) + T.repeat(13, 0x7C00))],
        entries=[T.entry(0x0800, 0, 0, 0, 1, 0, 1),
                 T.entry(0x0001, -1, -1, 10, 20, 30, 255),
                 T.entry(0x3000, 2, -1, 0, 3, 0, 3)],
        tail=T.effects([T.effect(0, 7, bytes([1, 2, 3, 4, 5, 6]))]))


def test_unchanged_text_rebuilds_byte_identical(tmp_path):
    payload = sample_payload()
    wad = W.wad([("INFO", W.info_payload()), ("TEXT", payload)])
    lvl = wadkit.eng.from_bytes(wad)
    assert [p.kind for p in lvl.pages] == ["pal8", "rgb16", "rle16"]
    assert _core.EngText(payload).build() == payload
    assert lvl.to_bytes() == wad
    out = tmp_path / "a.wad"
    lvl.save(out)
    assert out.read_bytes() == wad


def test_changed_page_leaves_the_others_byte_identical(tmp_path):
    payload = sample_payload()
    lvl = level(payload)
    before = T.read_pages(payload)
    lvl.set_page_rgba(1, np.zeros((2, 2, 4), np.uint8))
    after_payload = bytes(lvl.chunk("TEXT"))
    after = T.read_pages(after_payload)
    assert after[0]["record"] == before[0]["record"]
    assert after[2]["record"] == before[2]["record"]
    assert after[1]["words"] == [0, 0, 0, 0]
    table_at = before[2]["start"] + len(before[2]["record"])
    assert after_payload[table_at:] == payload[table_at:]   # table + effects
    again = wadkit.eng.from_bytes(lvl.to_bytes())
    assert bytes(again.chunk("TEXT")) == after_payload
    out = tmp_path / "b.wad"
    lvl.save(out)
    assert (wadkit.eng.open(out).pages[1].rgba == 0).all()
    # every page decodes the same through a re-encode of its own RGBA
    for i in (0, 2):
        rgba_i = lvl.pages[i].rgba.copy()
        lvl.set_page_rgba(i, rgba_i)
        assert (lvl.pages[i].rgba == rgba_i).all()


# ---------------------------------------------------------------- table

def test_texture_table_rects_flat_colours_and_modes():
    entries = [T.entry(0x0000, 0, -1, 0, 63, 64, 127),
               T.entry(0x0001, 0, -1, 10, 20, 30, 40),
               T.entry(0x3500, 1, 2, 128, 255, 0, 255)]
    lvl = level(T.text(entries=entries))
    assert lvl.texture_table_raw == b"".join(entries)
    t = lvl.textures
    assert t["flags"].tolist() == [0, 1, 0x3500]
    assert t["page"].tolist() == [0, 0, 1] and t["palette"].tolist() == [-1, -1, 2]
    assert t["uv"].tolist()[0] == [0, 64, 63, 127]
    # U0 = u0/256, U1 = (u1+1)/256, V0 = v0/256, V1 = (v1+1)/256
    assert t["rect"].tolist()[0] == [0.0, 0.25, 0.25, 0.5]
    assert t["rect"].tolist()[2] == [0.5, 0.0, 1.0, 1.0]
    assert t["flat"].tolist() == [False, True, False]
    assert t["color"].tolist() == [[0, 0, 0], [10, 20, 30], [0, 0, 0]]
    assert t["blend"].tolist() == [0, 0, 3] and t["mode2"].tolist() == [0, 0, 5]


@pytest.mark.parametrize("flags, uvs", [
    # rect U0 0, V0 .25, U1 .25, V1 .5; a = U1, b = U0 (0x20 swaps them)
    (0x0000, [(0.25, 0.5), (0.0, 0.5), (0.25, 0.25)]),   # (a,V1) (b,V1) (a,V0)
    (0x0800, [(0.25, 0.5), (0.0, 0.5), (0.0, 0.25)]),    # (a,V1) (b,V1) (b,V0)
    (0x0810, [(0.0, 0.25), (0.25, 0.25), (0.25, 0.5)]),  # (b,V0) (a,V0) (a,V1)
    (0x0020, [(0.0, 0.5), (0.25, 0.5), (0.0, 0.25)]),    # mirrored
    (0x0830, [(0.25, 0.25), (0.0, 0.25), (0.0, 0.5)]),
])
def test_face_uv_corner_rules(flags, uvs):
    assert _core.eng_face_uvs((0.0, 0.25, 0.25, 0.5), flags).tolist() == [list(u) for u in uvs]


# ---------------------------------------------------------------- effects

def test_effect_records_decode():
    tail = T.effects([
        T.effect(3, 1, bytes([9, 4, 2])),                       # move down
        T.effect(4, 9, bytes([1, 2, 3, 4, 5, 6])),              # range cycle 256
        T.effect(5, 8, bytes([7, 2, 1]), [10, 11]),             # anim: 2 frames
        T.effect(6, 11, bytes([1, 0, 2, 3]), [20, 21, 22]),     # multi move: 3
    ])
    lvl = level(T.text(entries=[T.entry()], tail=tail))
    fx = lvl.texture_effects
    assert fx == [
        {"texture": 3, "type": 1, "params": (9, 4, 2), "frames": []},
        {"texture": 4, "type": 9, "params": (1, 2, 3, 4, 5, 6), "frames": []},
        {"texture": 5, "type": 8, "params": (7, 2, 1), "frames": [10, 11]},
        {"texture": 6, "type": 11, "params": (1, 0, 2, 3), "frames": [20, 21, 22]},
    ]


@pytest.mark.parametrize("tail", [
    T.effects([T.effect(0, 5, b"\x00\x00\x00")]),           # type without a layout
    T.effects([T.effect(0, 1, b"\x00\x00\x00")]) + b"\x01",  # bytes left over
    b"\x02\x00",                                             # no count
])
def test_undecodable_effects_are_kept_exact(tail):
    payload = T.text(entries=[T.entry()], tail=tail)
    lvl = level(payload)
    assert lvl.texture_effects is None
    t = _core.EngText(payload)
    assert t.effects_note and t.tail_raw == tail and t.build() == payload


# ---------------------------------------------------------------- malformed

def expect_format_error(payload, offset, context, match):
    with pytest.raises(wadkit.FormatError, match=match) as exc:
        level(payload).pages
    assert exc.value.offset == offset
    assert exc.value.context == context


# one page record starts at payload 8 (nPal, nPages); its RLE stream at 8 + 16
STREAM = BASE + 8 + 16


@pytest.mark.parametrize("w, h, stream, offset, match", [
    (2, 1, T.literal([1, 2, 3]), STREAM, "literal run of 3 pixels at pixel 0 overflows"),
    (2, 2, T.literal([1]) + T.repeat(5, 7), STREAM + 4, "repeat run of 5 pixels at pixel 1 overflows"),
    (4, 1, [3, 0x1234], STREAM, "needs 3 pixel words, the stream has 1 left"),
    (4, 1, [(-4) & 0xFFFF], STREAM, "needs 1 pixel words, the stream has 0 left"),
    (4, 1, T.literal([1]), STREAM + 4, "ends after 1 of 4 pixels"),
])
def test_rle16_overruns(w, h, stream, offset, match):
    expect_format_error(T.text(pages=[T.page_rle16(w, h, stream)]), offset,
                        "TEXT > page 0", match)


def test_rle16_odd_or_too_long_length():
    expect_format_error(T.text(pages=[T.page_rle16(1, 1, [0, 0], byte_length=3)]),
                        BASE + 8 + 12, "TEXT > page 0", "odd")
    expect_format_error(T.text(pages=[T.page_rle16(1, 1, [1, 5], byte_length=1000)]),
                        BASE + 8 + 16, "TEXT > page 0", "truncated RLE16 stream")


def test_page_size_past_the_chunk():
    page = T.page_rgb16(16, 16, [0] * 256)[:12 + 10]
    expect_format_error(T.text(pages=[page]), BASE + 8 + 12, "TEXT > page 0",
                        "16-bit page pixel count 256")
    # the chunk ends one pixel short (no texture count after it either)
    payload = T.text(pages=[T.page_pal8(8, 8, bytes(64))])[:-5]
    expect_format_error(payload, BASE + 8 + 12, "TEXT > page 0",
                        "8-bit page pixel count 64")


def test_page_side_beyond_limit():
    page = struct.pack("<III", 1, 5000, 1)
    expect_format_error(T.text(pages=[page]), BASE + 8 + 4, "TEXT > page 0",
                        "5000 × 1 is beyond 4096")


def test_pixel_palette_index_out_of_range():
    # nPal 4 + palette (8 + 2·2 + 2) = 18, nPages 4 -> page at 22, pixels at 34
    payload = T.text(palettes=[T.palette([0x001F, 0x03E0])],
                     pages=[T.page_pal8(2, 1, bytes([1, 5]))])
    expect_format_error(payload, BASE + 35, "TEXT > page 0",
                        "palette index 5, palette 0 has 2 colours")


def test_entry_palette_index_out_of_range():
    # ... page record 12 + 2 ends at 36, nTex at 36, table at 40, byte 3 at 43
    payload = T.text(palettes=[T.palette([0x001F, 0x03E0])],
                     pages=[T.page_pal8(2, 1, bytes([1, 0]))],
                     entries=[T.entry(page=0, page2=3)])
    expect_format_error(payload, BASE + 43, "TEXT > texture entry 0",
                        "palette index 3 out of range")


def test_pal8_page_without_any_palette():
    expect_format_error(T.text(pages=[T.page_pal8(1, 1, b"\x00")]),
                        BASE + 8, "TEXT > page 0", "no palette")


@pytest.mark.parametrize("payload, offset, context, match", [
    (T.text(page_count=0xFFFFFFFF), BASE + 8, "TEXT", "page count 4294967295"),
    (T.text(palette_count=0x10000000), BASE + 4, "TEXT", "palette count 268435456"),
    (struct.pack("<III", 1, 0, 0x7FFFFFFF), BASE + 12, "TEXT > palette 0",
     "palette colour count 2147483647"),
    (T.text(entry_count=1000), BASE + 12, "TEXT", "texture entry count 1000"),
    (b"\x01\x00", BASE, "TEXT", "truncated palette count"),
])
def test_absurd_counts(payload, offset, context, match):
    expect_format_error(payload, offset, context, match)


def test_no_text_chunk():
    lvl = wadkit.eng.from_bytes(W.wad([("INFO", W.info_payload())]))
    with pytest.raises(KeyError):
        lvl.pages


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_damaged_text_never_crashes(data):
    payload = bytearray(sample_payload())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(payload) - 1))
        payload[at] = data.draw(st.integers(0, 255))
    payload = bytes(payload[:data.draw(st.integers(0, len(payload)))])
    try:
        t = _core.EngText(payload, BASE)
    except wadkit.FormatError as exc:
        assert exc.offset is not None and exc.context.startswith("TEXT")
        return
    for i, (kind, flags, w, h, palette, shared, _) in enumerate(t.pages):
        px = t.page_rgba(i)
        assert px.shape == (h, w, 4)
        if not shared:
            t.set_page_rgba(i, px)
            if kind != "pal8":     # 16-bit pixels come back exactly
                assert (t.page_rgba(i) == px).all()
    assert len(t.textures()["rect"]) == len(t.table_raw) // 8


def test_text_payload_shared_when_immutable_copied_otherwise():
    """EngText keeps a bytes payload (or a view of one) instead of copying
    it — the reference it holds shows in the refcount — and copies a
    bytearray, so changing the bytearray later changes nothing."""
    import sys
    payload = T.text(pages=[T.page_rgb16(2, 2, [1, 2, 3, 4])],
                     entries=[T.entry(u1=1, v1=1)], tail=T.effects([]))
    before = sys.getrefcount(payload)
    t = _core.EngText(payload)
    assert sys.getrefcount(payload) == before + 1
    t2 = _core.EngText(memoryview(payload)[:])
    assert sys.getrefcount(payload) == before + 2
    del t, t2
    assert sys.getrefcount(payload) == before
    buf = bytearray(payload)
    t3 = _core.EngText(buf)
    buf[:] = bytes(len(buf))
    assert t3.build() == payload
    assert t3.page_rgba(0).shape == (2, 2, 4)


def test_set_page_rgba_races_with_readers_safely():
    """set_page_rgba replaces a page while other threads decode and rebuild
    it without the GIL: every read sees one whole version of the page (it
    used to read a freed record)."""
    import threading
    w = h = 256
    t = _core.EngText(T.text(pages=[T.page_rle16(w, h, T.repeat(w * h // 2, 0x7C00) * 2)]))
    rng = np.random.default_rng(5)
    images = [np.zeros((h, w, 4), np.uint8), rng.integers(0, 256, (h, w, 4), np.uint8)]
    for img in images:            # what each version decodes to
        t.set_page_rgba(0, img)
    decoded = []
    for img in images:
        t.set_page_rgba(0, img)
        decoded.append(t.page_rgba(0).copy())
    stop, bad = threading.Event(), []

    def writer():
        k = 0
        while not stop.is_set():
            t.set_page_rgba(0, images[k % 2])
            k += 1

    def reader():
        for _ in range(300):
            got = t.page_rgba(0)
            t.build()
            if not any((got == d).all() for d in decoded):
                bad.append(got)
    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads[1:]:
        th.join()
    stop.set()
    threads[0].join()
    assert not bad
