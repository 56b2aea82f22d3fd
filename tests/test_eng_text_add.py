"""ENG TEXT grows: Level.add_page and Level.add_texture_entry, checked
against the from-spec builder's walk of the payload (tests/builders/eng_text.py)
and the limits a texture entry and a face can name."""
import struct

import numpy as np
import pytest

import wadkit
from builders import eng_text as T
from builders import eng_wad as W


def level(payload: bytes):
    return wadkit.eng.from_bytes(W.wad([("INFO", W.info_payload()),
                                        ("TEXT", payload)]))


def base_payload(n_rle=1, n_rgb=0):
    pal = T.palette([0x0000, 0x001F])
    pages = [T.page_pal8(2, 1, bytes([0, 1]))]
    pages += [T.page_rle16(2, 2, T.repeat(4, 0x7C00))] * n_rle
    pages += [T.page_rgb16(2, 2, [1, 2, 3, 4])] * n_rgb
    return T.text(palettes=[pal], pages=pages,
                  entries=[T.entry(0x0800, 1, -1, 0, 1, 0, 1), T.entry(1, -1, -1, 9, 8, 7, 0)],
                  tail=T.effects([T.effect(1, 7, bytes(range(6)))]))


def table_and_tail(payload: bytes, pages: list[dict]):
    end = pages[-1]["start"] + len(pages[-1]["record"])
    (n,) = struct.unpack_from("<I", payload, end)
    return n, payload[end + 4:end + 4 + 8 * n], payload[end + 4 + 8 * n:]


@pytest.mark.parametrize("kind, flags", [("rgb16", 0x01), ("rle16", 0x80)])
def test_add_page_appends_a_page_of_that_kind(kind, flags):
    payload = base_payload()
    lvl = level(payload)
    img = np.zeros((256, 256, 4), np.uint8)
    img[..., 0] = 255
    img[..., 3] = 255
    img[:16, :16] = [0, 0, 0, 0]            # a transparent corner
    img[16:32, :16] = [0, 0, 0, 255]        # opaque black
    assert lvl.add_page(img, kind) == 2
    after = bytes(lvl.chunk("TEXT"))
    before_pages, pages = T.read_pages(payload), T.read_pages(after)
    assert len(pages) == 3
    assert [p["record"] for p in pages[:2]] == [p["record"] for p in before_pages]
    new = pages[2]
    assert (new["flags"], new["w"], new["h"]) == (flags, 256, 256)
    words = new["words"] if kind == "rgb16" else T.rle16_decode(new["words"], 65536)
    words = np.array(words).reshape(256, 256)
    assert (words[:16, :16] == 0).all() and (words[16:32, :16] == 0x8000).all()
    assert (words[32:] == 0x001F).all()
    # the table and the effect records after the pages are unchanged
    assert table_and_tail(after, pages) == table_and_tail(payload, before_pages)
    again = wadkit.eng.from_bytes(lvl.to_bytes())
    assert again.pages[2].kind == kind
    np.testing.assert_array_equal(again.pages[2].rgba[..., 3] == 0, words == 0)
    assert again.texture_effects == level(payload).texture_effects


def test_add_page_kind_follows_the_levels_16_bit_pages():
    assert level(base_payload(n_rle=1, n_rgb=2)).add_page(
        np.zeros((4, 4, 4), np.uint8)) == 4        # pal8, rle16, rgb16, rgb16
    lvl = level(base_payload(n_rle=1, n_rgb=2))
    lvl.add_page(np.zeros((4, 4, 4), np.uint8))
    assert lvl.pages[-1].kind == "rgb16"
    lvl = level(base_payload(n_rle=2, n_rgb=1))
    lvl.add_page(np.zeros((4, 4, 4), np.uint8))
    assert lvl.pages[-1].kind == "rle16"


def test_a_full_text_refuses_a_page_and_keeps_its_bytes():
    pages = [T.page_rgb16(1, 1, [k + 1]) for k in range(128)]
    payload = T.text(pages=pages)
    lvl = level(payload)
    with pytest.raises(wadkit.LimitError, match="TEXT is full: it has 128 pages"):
        lvl.add_page(np.zeros((256, 256, 4), np.uint8))
    assert bytes(lvl.chunk("TEXT")) == payload
    # 127 pages: one more fits
    lvl = level(T.text(pages=pages[:127]))
    assert lvl.add_page(np.zeros((2, 2, 4), np.uint8), "rgb16") == 127


def test_add_page_refuses_bad_pixels():
    lvl = level(base_payload())
    with pytest.raises(ValueError, match="'rgb16' or 'rle16'"):
        lvl.add_page(np.zeros((2, 2, 4), np.uint8), "pal8")
    with pytest.raises(ValueError, match=r"^rgba: shape \(n, n, 4\) expected, got \(2, 2, 3\)"):
        lvl.add_page(np.zeros((2, 2, 3), np.uint8), "rgb16")
    with pytest.raises(ValueError, match="sides 1..4096"):
        lvl.add_page(np.zeros((0, 2, 4), np.uint8), "rgb16")
    with pytest.raises(TypeError):
        lvl.add_page(np.zeros((2, 2, 4), np.float32), "rgb16")
    assert bytes(lvl.chunk("TEXT")) == base_payload()


def test_add_texture_entry_appends_after_the_table():
    payload = base_payload()
    lvl = level(payload)
    k = lvl.add_texture_entry(1, (16, 32, 47, 63), flags=0x2800)
    assert k == 2
    after = bytes(lvl.chunk("TEXT"))
    n, table, tail = table_and_tail(after, T.read_pages(after))
    n0, table0, tail0 = table_and_tail(payload, T.read_pages(payload))
    assert (n, table[:8 * n0], tail) == (n0 + 1, table0, tail0)
    assert table[8 * n0:] == T.entry(0x2800, 1, -1, 16, 47, 32, 63)
    t = lvl.textures
    assert t["uv"][2].tolist() == [16, 32, 47, 63] and t["blend"][2] == 2
    # a page added first can be named at once
    p = lvl.add_page(np.zeros((256, 256, 4), np.uint8), "rle16")
    assert lvl.add_texture_entry(p, (0, 0, 255, 255)) == 3
    assert wadkit.eng.from_bytes(lvl.to_bytes()).textures["page"].tolist() == [1, -1, 1, p]


def test_add_texture_entry_refuses_what_cannot_be_named():
    lvl = level(base_payload())
    with pytest.raises(ValueError, match="names page 5, the TEXT has 2"):
        lvl.add_texture_entry(5, (0, 0, 1, 1))
    with pytest.raises(ValueError, match="bytes"):
        lvl.add_texture_entry(0, (0, 0, 256, 1))
    full = T.text(pages=[T.page_rgb16(1, 1, [1])], entries=[T.entry(page=0)] * 65536)
    lvl = level(full)
    with pytest.raises(wadkit.LimitError, match="65536 entries"):
        lvl.add_texture_entry(0, (0, 0, 1, 1))
    assert bytes(lvl.chunk("TEXT")) == full


def test_add_flat_entry_writes_the_colour_where_the_table_keeps_it():
    payload = base_payload()
    lvl = level(payload)
    k = lvl.add_flat_entry((0x12, 0x34, 0x56), flags=0x1000)
    after = bytes(lvl.chunk("TEXT"))
    _, table, _ = table_and_tail(after, T.read_pages(after))
    # u16 flags (bit 0 flat), page 0, page2 -1, u0 u1 v0 = R G B, v1 255
    assert table[8 * k:] == T.entry(0x1001, 0, -1, 0x12, 0x34, 0x56, 255)
    t = lvl.textures
    assert t["flat"][k] and t["color"][k].tolist() == [0x12, 0x34, 0x56] and t["blend"][k] == 1
