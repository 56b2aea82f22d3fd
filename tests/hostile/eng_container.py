"""Hostile rows for the ENG WAD container. Generated rows take their expected
outcome from the from-spec reference reader (builders.eng_wad.read), so each
row is a differential check of the C parser against the spec."""
from __future__ import annotations

import itertools
import string
import struct

import wadkit
from builders import eng_wad as B

from . import PARSERS, U32_EXTREMES, Error, Ok, add, with_bytes, with_u32

PARSERS["eng"] = (wadkit.eng.from_bytes, wadkit.eng.open)


def same_chunks_as(ref):
    def check(lvl):
        assert [tuple(c) for c in lvl._raw] == ref
    return check


def expect_from_reference(data: bytes):
    try:
        ref = B.read(data)
    except B.BadWad as bad:
        return Error(bad.offset)
    return Ok(check=same_chunks_as(ref))


def generated(label: str, good: bytes) -> None:
    """Every structural boundary and every field of one valid WAD."""
    chunks = B.read(good)
    cuts = {0, 1, 2, 3}
    for name, off, size, field in chunks:
        cuts |= {off, off + 1, off + 4, off + 7, off + 8, off + 8 + max(size - 1, 0)}
    for n in sorted(c for c in cuts if c < len(good)):
        add("eng", f"{label}: cut at {n}", good[:n], expect_from_reference(good[:n]))
    for value in (0, 1, len(good) - 1, len(good) + 1) + U32_EXTREMES[2:]:
        add("eng", f"{label}: length field {value:#x}", with_u32(good, 0, value),
            Ok(warn="length field says"))
    for name, off, size, field in chunks:
        left = len(good) - off - 8
        for value in sorted({0, 1, 3, 4, 5, size - 1, size + 1, size - 4, size + 4,
                             left, left + 1, *U32_EXTREMES}):
            if value < 0 or value == field:
                continue
            data = with_u32(good, off + 4, value)
            add("eng", f"{label}: {name.strip()} size {value:#x}", data,
                expect_from_reference(data))
        for tag, why in ((b"\0\0\0\0", "zero tag"), (b"\xff\xfe\x01\x7f", "binary tag"),
                         (b"ZZZZ", "unknown tag"), (b" DNE", "early END"),
                         (good[4:8], "repeats the first tag")):
            if good[off:off + 4] == tag:
                continue
            data = with_bytes(good, off, tag)
            add("eng", f"{label}: {name.strip()} tag -> {why}", data,
                expect_from_reference(data))


generated("sample", B.sample_wad())
generated("map quirk", B.wad([("INFO", B.info_payload()), ("MAP", b"\x11" * 20),
                              ("STPC", b"\x22" * 8)], map_quirk=True))
generated("trailing", B.wad([("INFO", B.info_payload()), ("TRAK", b"\0" * 4)],
                            trailing=b"junk!"))

# ---- hand-written: the sizes and places a hostile file would pick ----
INFO = B.info_payload()
add("eng", "empty", b"", Error(0, "length field"))
add("eng", "only a length field", struct.pack("<I", 4), Error(4, "without an END"))
add("eng", "END only", B.wad([]), Ok())
add("eng", "size wraps to point 8 bytes back",
    with_u32(B.wad([("INFO", INFO)]), 8, 0xFFFFFFF8), Error(4, "runs past the end"))
add("eng", "MAP quirk on a MAP smaller than 4 bytes",
    B.wad([("INFO", INFO), ("MAP", b"\1\2")]), Ok())
add("eng", "MAP quirk at the very end of the file",
    B.wad([("INFO", INFO), ("MAP", b"\1" * 8)], map_quirk=True), Ok(warn="4 bytes too large"))
add("eng", "END with a payload", B.wad([("INFO", INFO), ("END", b"xyz")], end=False),
    Ok(check=lambda lvl: bytes(lvl.chunk("END")) == b"xyz"))
add("eng", "text after END", B.wad([("INFO", INFO)], trailing=b"\xff" * 3),
    Ok(warn="3 bytes after the END"))
add("eng", "all 0xff", b"\xff" * 64, Error(4, "not a chunk name"))


def many_chunks(n: int, dup_last: bool = False) -> bytes:
    names = ("".join(t) for t in itertools.product(string.ascii_letters, repeat=4))
    body = [B.chunk(next(names), b"") for _ in range(n)]
    if dup_last:
        body.append(body[0])
    body.append(B.chunk("END", b""))
    data = b"".join(body)
    return struct.pack("<I", 4 + len(data)) + data


# big rows: time and memory stay linear and small
add("eng", "250k empty unknown chunks", lambda: many_chunks(250_000),
    Ok(warn="more unknown chunks"), max_mb=120)
add("eng", "250k chunks, the last a duplicate", lambda: many_chunks(250_000, True),
    Error(4 + 250_000 * 8, "appears twice"), max_mb=64)
add("eng", "16 MiB of zeros", lambda: bytes(16 << 20), Error(4, "not a chunk name"), max_mb=8)
add("eng", "size 0xffffffff in a 16 MiB file",
    lambda: with_u32(B.wad([("TEXT", bytes(16 << 20))]), 8, 0xFFFFFFFF),
    Error(4, "runs past the end"), max_mb=8)
add("eng", "16 MiB after END", lambda: B.wad([("INFO", INFO)], trailing=bytes(16 << 20)),
    Ok(warn="bytes after the END"), max_mb=8)
