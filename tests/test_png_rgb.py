"""tools/png_rgb.py, the screenshots' PNG writer: decoded here by a
reader of its own (chunks, CRCs, zlib, the five row filters undone one
byte at a time as the PNG specification says), the pixels must come back."""
import struct
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import png_rgb  # noqa: E402


def decode(data: bytes) -> np.ndarray:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        chunks.append((kind, body))
        pos += 12 + n
    assert [k for k, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    w, h, depth, colour, comp, filt, lace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, colour, comp, filt, lace) == (8, 2, 0, 0, 0)
    raw = zlib.decompress(chunks[1][1])
    stride = w * 3
    assert len(raw) == h * (stride + 1)
    out = bytearray()
    prev = bytearray(stride)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            if ft == 1:
                line[i] = (line[i] + a) & 0xFF
            elif ft == 2:
                line[i] = (line[i] + b) & 0xFF
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
            else:
                assert ft == 0, ft
        out += line
        prev = line
    return np.frombuffer(bytes(out), np.uint8).reshape(h, w, 3)


def images():
    rnd = np.random.default_rng(7)
    noise = rnd.integers(0, 256, (13, 17, 3), dtype=np.uint8)
    yy, xx = np.mgrid[0:40, 0:50]
    ramp = np.stack([xx * 5, yy * 6, (xx + yy) * 2], axis=2).astype(np.uint8)
    flat = np.full((9, 11, 3), (43, 43, 43), np.uint8)
    flat[3:6, 2:9] = (255, 255, 255)          # a "button" on a flat panel
    return {"noise": noise, "ramp": ramp, "flat": flat, "one": noise[:1, :1]}


@pytest.mark.parametrize("name", ["noise", "ramp", "flat", "one"])
def test_round_trip(name, tmp_path):
    img = images()[name]
    p = tmp_path / "x.png"
    n = png_rgb.write_png(str(p), img)
    assert n == p.stat().st_size
    assert np.array_equal(decode(p.read_bytes()), img)


def test_filters_used():
    """A ramp makes the writer pick filters other than none, so the
    unfiltering above is exercised."""
    data = png_rgb.png_bytes(images()["ramp"])
    (n,) = struct.unpack(">I", data[33:37])        # the IDAT chunk after the 25-byte IHDR
    assert data[37:41] == b"IDAT"
    raw = zlib.decompress(data[41:41 + n])
    kinds = {raw[y * (50 * 3 + 1)] for y in range(40)}
    assert kinds - {0}, kinds


@pytest.mark.parametrize("bad", [np.zeros((2, 2, 4), np.uint8), np.zeros((2, 2, 3), np.float32),
                                 np.zeros((0, 2, 3), np.uint8), np.zeros((2, 3), np.uint8)])
def test_bad_input(bad):
    with pytest.raises(ValueError):
        png_rgb.png_bytes(bad)


def test_ui_screenshots_on_the_page():
    """docs/images/ui_*.png (make ui-screenshots): each a PNG under 150 KB
    of a window's size at most, and shown by docs/blender-workflow.md."""
    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "blender-workflow.md").read_text(encoding="utf-8")
    shots = sorted((root / "docs" / "images").glob("ui_*.png"))
    assert len(shots) >= 5
    for p in shots:
        data = p.read_bytes()
        assert len(data) < 150_000, p.name
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", p.name
        w, h = struct.unpack(">II", data[16:24])
        assert 0 < w <= 1280 and 0 < h <= 800, (p.name, w, h)
        assert f"(images/{p.name})" in page, p.name
