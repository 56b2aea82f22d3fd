"""WAD-LZ: hand-assembled streams of every packet kind against outputs
derived by hand from the spec, the layout rules, hostile streams, round
trips, and size against a simple greedy encoder."""
import struct
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wadkit
from wadkit import lz
from builders import wadlz as W

PREFIX = bytes(range(65, 65 + 8))           # b"ABCDEFGH"


def dec(body: bytes) -> bytes:
    return lz.decompress(W.stream(body))


def tail(n=300):
    """A dummy and a long literal run: pushes the packets before it onto the
    decoder's fast path (>= 288 input bytes left)."""
    data = bytes((i * 7) & 0xFF for i in range(n))
    return W.dummy() + W.literals(data), data


def both_paths(body: bytes, want: bytes):
    """Decode body alone (careful path near the end) and followed by a long
    tail (fast path); both must give want."""
    assert dec(body) == want
    t, tdata = tail()
    assert dec(body + t) == want + tdata


# ---- literal runs --------------------------------------------------------

def test_header_bytes():
    s = W.stream(b"\x01ABCD")
    assert s[:3] == b"WAD" and struct.unpack_from("<i", s, 3)[0] == 21 == len(s)
    assert lz.decompress(s) == b"ABCD"


def test_literal_runs_4_18_273():
    assert dec(b"\x01ABCD") == b"ABCD"                    # f=1: 1+3 bytes
    eighteen = bytes(range(18))
    assert dec(b"\x0f" + eighteen) == eighteen             # f=15: 15+3
    assert dec(b"\x00\x00" + eighteen) == eighteen         # f=0, ext 0: 0+18
    big = bytes(i & 0xFF for i in range(273))
    assert dec(b"\x00\xff" + big) == big                   # ext 255: 255+18
    assert W.run(big) == b"\x00\xff" + big


def test_empty_stream_is_empty_output():
    assert lz.decompress(W.stream(b"")) == b""


# ---- little matches (flag >= 0x40) --------------------------------------

def test_little_match_min_and_max_length():
    # 0x40 = length (2)+1 = 3, distance 0+0+1 = 1: "HHH"
    both_paths(W.run(PREFIX) + b"\x40\x00", PREFIX + b"HHH")
    # 0xfc = length 7+1 = 8, distance (7)+1 = 8: copies the whole prefix
    both_paths(W.run(PREFIX) + b"\xfc\x00", PREFIX + PREFIX)
    assert W.little(8, 8) == b"\xfc\x00" and W.little(3, 1) == b"\x40\x00"


def test_little_match_max_distance_2048():
    base = bytes(i & 0xFF for i in range(2048))
    # 0x5c: length 3, low distance bits 7; b1 = 255: distance 255*8+7+1
    body = W.literals(base) + b"\x5c\xff"
    both_paths(body, base + base[:3])


# ---- medium matches (0x20..0x3f) ------------------------------------------

def test_medium_match_min_and_max_length():
    # 0x21: length 1+2 = 3; b1 = 0, b2 = 0: distance 1
    both_paths(W.run(PREFIX) + b"\x21\x00\x00", PREFIX + b"HHH")
    # 0x20, ext 255: length 255+31+2 = 288, distance 8 (b1 = 7<<2)
    both_paths(W.run(PREFIX) + b"\x20\xff\x1c\x00", PREFIX * 37)
    assert W.medium(288, 8) == b"\x20\xff\x1c\x00"


def test_medium_match_max_distance_0x4000():
    base = bytes((i * 13 + (i >> 8)) & 0xFF for i in range(0x4000))
    # b1 = 0x3f<<2, b2 = 0xff: distance 0xff*0x40 + 0x3f + 1 = 0x4000
    body = W.literals(base) + b"\x22\xfc\xff"
    both_paths(body, base + base[:4])


# ---- far matches (0x10..0x1f) ---------------------------------------------

def far_base():
    return bytes((i * 31 + (i >> 9)) & 0xFF for i in range(0x8004))


def test_far_match_min_and_max_distance():
    base = far_base()
    lits = W.literals(base)
    # 0x11: length 1+2 = 3; b0 = 1<<2: distance 0x4000 + 1
    both_paths(lits + b"\x11\x04\x00", base + base[-0x4001:][:3])
    # b0 = 0x3f<<2, b1 = 0xff: distance 0x4000 + 0x3fff = 0x7fff
    start = len(base) - 0x7FFF
    both_paths(lits + b"\x11\xfc\xff", base + base[start:start + 3])


def test_far_match_min_and_max_length():
    base = far_base()
    lits = W.literals(base)
    start = len(base) - 0x4001
    # 0x17: length 7+2 = 9 (the longest short form)
    both_paths(lits + b"\x17\x04\x00", base + base[start:start + 9])
    # 0x10, ext 255: length 255+7+2 = 264
    both_paths(lits + b"\x10\xff\x04\x00", base + base[start:start + 264])
    assert W.far(264, 0x4001) == b"\x10\xff\x04\x00"


def test_far_match_high_bit_adds_0x4000():
    """[assumed] the decoder's reading: bit 3 of the flag is distance bit 14
    (LZO1X's M4), so 0x19 04 00 reaches 0x8000 + 1 back."""
    base = far_base()
    body = W.literals(base) + b"\x19\x04\x00"
    start = len(base) - 0x8001
    assert dec(body) == base + base[start:start + 3]
    assert any("high distance bit" in v for v in lz.validate(W.stream(body)))


# ---- overlap, small literals, dummy and pad --------------------------------

def test_overlapping_copies():
    # distance 1 (memset path), 2 and 3 (byte path), 10 (8-byte chunks)
    both_paths(W.run(b"ABCD") + W.little(8, 1), b"ABCD" + b"D" * 8)
    both_paths(W.run(b"ABCD") + W.little(8, 2), b"ABCD" + b"CD" * 4)
    both_paths(W.run(b"ABCD") + W.medium(30, 3), b"ABCD" + (b"BCD" * 10))
    digits = b"0123456789"
    both_paths(W.run(digits) + W.medium(30, 10), digits * 4)


def test_small_literal_after_each_match_kind():
    base = far_base()
    # little: K in the flag; medium: K in b1; far: K in b0
    both_paths(W.run(PREFIX) + b"\x41\x00x", PREFIX + b"HHHx")
    both_paths(W.run(PREFIX) + b"\x21\x02\x00xy", PREFIX + b"HHHxy")
    start = len(base) - 0x4001
    both_paths(W.literals(base) + b"\x11\x07\x00xyz",
               base + base[start:start + 3] + b"xyz")


def test_dummy_packet_separates_runs_and_carries_literals():
    assert dec(W.run(b"ABCD") + b"\x11\x00\x00" + W.run(b"EFGH")) == b"ABCDEFGH"
    assert dec(W.run(b"ABCD") + b"\x11\x02\x00xy" + W.little(3, 2)) == b"ABCDxyxyx"
    assert dec(b"\x11\x03\x00abc") == b"abc"    # a stream may open with one


def filler(upto: int) -> tuple[bytes, bytes]:
    """Literal runs (separated by dummies) whose packets end exactly at
    `upto`, counted from 0x10; returns (body, output)."""
    body, out, i = b"", b"", 0
    while len(body) < upto:
        left = upto - len(body) - (3 if body else 0)
        n = min(273, left - 2 if left > 18 else left - 1)
        if left - (n + (2 if n > 18 else 1)) in (1, 2, 3, 4, 5):
            n -= 6                               # leave room for a full run
        data = bytes((i + j) & 0xFF for j in range(n))
        i += 1
        body += (W.dummy() if body else b"") + W.run(data)
        out += data
    assert len(body) == upto
    return body, out


def test_pad_skips_to_the_next_block():
    body, out = filler(0x1F00)
    padded = body + W.pad(len(body))
    assert len(padded) == W.BLOCK and padded[0x1F00:0x1F03] == b"\x12\x00\x00"
    s = W.stream(padded + W.little(3, 1))
    assert lz.decompress(s) == out + out[-1:] * 3
    assert lz.validate(s) == []


def test_pad_with_extension_byte():
    body, out = filler(0x1F00)
    # 0x10, ext, 00 00: distance field 0 with a length field != 1 = pad
    padded = body + b"\x10\x05\x00\x00"
    padded += b"\xee" * (W.BLOCK - len(padded))
    assert lz.decompress(W.stream(padded + W.little(3, 1))) == out + out[-1:] * 3


def test_pad_in_first_half_is_flagged():
    s = W.stream(W.run(b"ABCD") + W.pad(5) + W.little(3, 1))
    assert lz.decompress(s) == b"ABCDDDD"
    assert any("first half" in v for v in lz.validate(s))


def test_packet_ending_exactly_at_block_boundary():
    body, out = filler(W.BLOCK)
    s = W.stream(body + W.little(3, 1))
    assert lz.decompress(s) == out + out[-1:] * 3
    assert lz.validate(s) == []


def test_packet_crossing_block_boundary_is_flagged():
    body, out = filler(W.BLOCK - 1)
    s = W.stream(body + W.little(3, 1))          # 2 bytes at 0x1fff..0x2000
    assert lz.decompress(s) == out + out[-1:] * 3
    v = lz.validate(s)
    assert len(v) == 1 and "crosses the block boundary at 0x2010" in v[0]


def test_literal_run_after_small_literal_is_flagged():
    s = W.stream(W.run(PREFIX) + W.little(3, 1, b"x") + W.run(b"ABCD"))
    assert lz.decompress(s) == PREFIX + b"HHHxABCD"
    assert any("after a small literal" in v for v in lz.validate(s))


# ---- hostile streams -------------------------------------------------------

def raises_format(buf, match, **kw):
    with pytest.raises(wadkit.FormatError, match=match) as e:
        lz.decompress(buf, **kw)
    return e.value


def test_two_literal_runs_in_a_row():
    e = raises_format(W.stream(W.run(b"ABCD") + W.run(b"EFGH")), "two WAD-LZ literal")
    assert e.offset == 16 + 5
    assert any("two literal runs" in v for v in lz.validate(
        W.stream(W.run(b"ABCD") + W.run(b"EFGH"))))


def test_distance_before_output_start():
    e = raises_format(W.stream(W.run(b"ABCD") + W.little(3, 5)), "reaches 5 bytes back")
    assert e.offset == 16 + 5
    raises_format(W.stream(W.little(3, 1)), "only 0 written")
    t, _ = tail()
    raises_format(W.stream(W.run(b"ABCD") + W.medium(3, 5) + t), "reaches 5")
    assert any("reaches" in v for v in lz.validate(W.stream(W.little(3, 1))))


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_truncated_packet(cut):
    body = W.run(PREFIX) + W.medium(40, 8, b"xy")   # 0x20 07 1e 00 'x' 'y'
    s = W.stream(body[:len(body) - cut])
    e = raises_format(s, "runs past the end")
    assert e.offset == 16 + len(W.run(PREFIX))
    assert any("end" in v for v in lz.validate(s))


def test_truncated_literal_run():
    raises_format(W.stream(b"\x00\xff" + b"x" * 100), "runs past the end")
    raises_format(W.stream(b"\x00"), "runs past the end")


def test_size_field_lying():
    good = W.stream(W.run(PREFIX) + W.little(8, 8))
    raises_format(W.header(len(good) + 1) + good[16:], "size field says")
    raises_format(W.header(15) + good[16:], "size field says")
    raises_format(W.header(-5) + good[16:], "size field says")
    # too small: the stream ends inside a packet
    raises_format(W.header(len(good) - 1) + good[16:], "runs past the end")
    raises_format(b"WAD\x00", "16 bytes")
    raises_format(b"XAD" + good[3:], "magic")
    # bytes after the declared end are not part of the stream
    assert lz.decompress(good + b"junk") == PREFIX * 2


def bomb(packets: int) -> bytes:
    return W.stream(W.run(b"ABCD") + W.medium(288, 1) * packets)


def test_bomb_beyond_max_size_bounded_memory():
    b = bomb(40000)                                     # 160 KB -> 11.5 MB
    assert len(lz.decompress(b, max_size=1 << 24)) == 4 + 288 * 40000
    tracemalloc.start()
    try:
        raises_format(b, "more than the limit", max_size=1 << 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 << 20


def test_declared_output_size_is_enforced():
    s = W.stream(W.run(PREFIX) + W.little(8, 8))
    assert wadkit._core.lz_decompress(s, expected=16) == PREFIX * 2
    with pytest.raises(wadkit.FormatError, match="more than the declared"):
        wadkit._core.lz_decompress(s, expected=15)
    with pytest.raises(wadkit.FormatError, match="decodes to 16 bytes, 17"):
        wadkit._core.lz_decompress(s, expected=17)
    with pytest.raises(wadkit.FormatError, match="more than the limit"):
        wadkit._core.lz_decompress(s, max_size=10, expected=16)


def test_validate_never_raises_on_garbage():
    for buf in (b"", b"WAD", b"WAD\xff\xff\xff\x7f" + bytes(20), bytes(64),
                W.stream(bytes(range(256)))):
        assert isinstance(lz.validate(buf), list)


# ---- the encoder ------------------------------------------------------------

def check_round_trip(data: bytes) -> bytes:
    c = lz.compress(data)
    assert lz.validate(c) == []
    assert lz.decompress(c, max_size=max(len(data), 1)) == data
    return c


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 18, 19, 272, 273, 274, 276,
                               277, 546, 547, 0x2000, 0x2001])
def test_round_trip_edges(n):
    check_round_trip(bytes((i * 37 + i // 7) & 0xFF for i in range(n)))
    check_round_trip(b"z" * n)


def structured(seed: int, n: int) -> bytes:
    """Records with repeating fields and slow drifts, like level data."""
    out = bytearray()
    i = 0
    while len(out) < n:
        out += struct.pack("<fffHHI", i * 0.5, (i % 17) * 2.0, seed, i & 0xFF,
                           (i * 3) & 0x3F, 0x80808080)
        i += 1
    return bytes(out[:n])


def test_round_trip_few_megabytes():
    data = structured(7, 3 << 20)
    c = check_round_trip(data)
    assert len(c) < len(data) // 3
    noise = bytes((i * 2654435761 >> 13) & 0xFF for i in range(1 << 20))
    c = check_round_trip(noise)
    assert len(c) < len(noise) * 1.02      # incompressible: little overhead


runs = st.lists(st.tuples(st.integers(0, 255), st.integers(1, 600)),
                max_size=40).map(lambda rs: b"".join(bytes([b]) * n for b, n in rs))
chunks = st.lists(st.sampled_from([b"tfrag", b"\x00\x00\x80\x3f", b"WAD",
                                   b"\x12\x00\x00", b"\xee" * 9, b"ABCDEFGH"]),
                  max_size=300).map(b"".join)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=5000), runs, chunks,
                 st.tuples(st.binary(max_size=64), st.integers(1, 2000))
                 .map(lambda t: t[0] * t[1])))
def test_round_trip_hypothesis(data):
    check_round_trip(data)


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=400))
def test_decoder_never_crashes_on_random_packets(body):
    try:
        lz.decompress(W.stream(body), max_size=1 << 16)
    except wadkit.FormatError as e:
        assert e.offset is not None and e.offset >= 16
    assert isinstance(lz.validate(W.stream(body)), list)


def test_greedy_builder_stream_decodes():
    """The tests' own encoder (Python, from the spec) against our decoder."""
    for data in (structured(1, 30000), b"ab" * 5000 + bytes(range(256)) * 20):
        s = W.greedy_compress(data)
        assert lz.validate(s) == []
        assert lz.decompress(s) == data


@pytest.mark.parametrize("kind", ["structured", "text", "runs", "noise"])
def test_no_larger_than_simple_greedy(kind):
    data = {
        "structured": structured(3, 40000),
        "text": b" ".join(b"level%d tfrag%d" % (i % 97, i % 13)
                          for i in range(4000)),
        "runs": b"".join(bytes([i & 0xFF]) * (1 + i % 40) for i in range(2000)),
        "noise": bytes((i * 2654435761 >> 11) & 0xFF for i in range(30000)),
    }[kind]
    ours = lz.compress(data)
    assert len(ours) <= len(W.greedy_compress(data))
    assert len(ours) <= len(wadkit._core.lz_compress(data, level="greedy"))


def test_declared_size_beyond_what_the_stream_can_hold_allocates_nothing():
    """A medium match with a length byte (4 bytes → 288) is the best ratio: a
    declared size above 72 × the packet bytes is refused before the output
    is allocated."""
    assert len(W.medium(288, 1)) == 4
    big = W.stream(W.run(PREFIX) + W.medium(288, 1))
    assert len(wadkit._core.lz_decompress(big, expected=8 + 288)) == 296
    s = W.stream(W.run(PREFIX) + W.little(8, 8))      # 11 packet bytes
    assert len(s) == 16 + 11
    with pytest.raises(wadkit.FormatError, match="decodes to 16 bytes, 792"):
        wadkit._core.lz_decompress(s, expected=11 * 72)
    tracemalloc.start()
    try:
        with pytest.raises(wadkit.FormatError, match="more than it can decode to"):
            wadkit._core.lz_decompress(s, expected=11 * 72 + 1)
        with pytest.raises(wadkit.FormatError, match="more than it can decode to"):
            wadkit._core.lz_decompress(s, expected=200 << 20, max_size=1 << 30)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


@pytest.mark.parametrize("kind", ["random", "records", "text", "zeros"])
def test_decompress_without_a_size_is_exact(kind):
    """Without a size the output starts at 3x the stream and grows by a
    quarter; a small slack is kept instead of trimmed. Whatever the ratio
    (1x random, 2-4x records and text, 72x zeros) the result is exactly
    the input, a well-formed bytes object."""
    import random
    n = 300000
    data = {
        "random": random.Random(1).randbytes(n),
        "records": structured(5, n),
        "text": b" ".join(b"moby%d tie%d" % (i % 89, i % 7) for i in range(n // 10))[:n],
        "zeros": bytes(n),
    }[kind]
    c = lz.compress(data)
    out = lz.decompress(c)
    assert len(out) == len(data) and out == data
    assert out + b"!" == data + b"!" and hash(out) == hash(bytes(data))
    assert out == wadkit._core.lz_decompress(c, expected=len(data))
    with pytest.raises(wadkit.FormatError, match="more than the limit"):
        lz.decompress(c, max_size=len(data) - 1)
