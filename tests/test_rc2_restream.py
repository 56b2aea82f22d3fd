"""The RC2 save's splice of an edited WAD-LZ stream (csrc/core/rc2/rc2_restream.c,
docs/formats/rc2-writing.md "Saving a level"): old blocks and the leading
packets of a recompressed block are reused, the rest compressed onto them.
Whatever the edit, the stream decodes to the new bytes with the spec
builder's own decoder and is clean for the validator; nothing before the
edit is compressed again but the packet it lands in. Streams from our
encoder and from the spec builder's (another packet layout)."""
import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from wadkit import _core, lz

from builders import wadlz

LONGEST_PACKET = 291           # output of the longest packet, small literal included


def records(n: int, seed: int) -> bytes:
    """Level-like bytes: 0x40-byte records of floats, ids and flags, with
    runs of zeros and repeats of earlier records."""
    rnd = random.Random(seed)
    out = bytearray()
    while len(out) < n:
        r = rnd.random()
        if r < 0.15 and len(out) > 0x400:
            at = rnd.randrange(0, len(out) - 0x40) & ~0xf
            out += out[at:at + 0x40]
        elif r < 0.2:
            out += bytes(rnd.randrange(1, 300))
        else:
            out += struct.pack("<4f4I", *(rnd.uniform(-50, 50) for _ in range(4)),
                               rnd.randrange(8), rnd.randrange(1 << 16), 0, 0x80808080)
            out += struct.pack("<8f", *(round(rnd.uniform(-1, 1), 2) for _ in range(8)))
    return bytes(out[:n])


ENCODERS = {
    "fast": lambda d: lz.compress(d, level="fast"),
    "spec greedy": lambda d: wadlz.greedy_compress(d, candidates=8),
}
_OLD: dict = {}


def old_stream(encoder: str, seed: int) -> tuple[bytes, bytes]:
    key = (encoder, seed)
    if key not in _OLD:
        plain = records(120_000, seed)
        _OLD[key] = plain, ENCODERS[encoder](plain)
    return _OLD[key]


def check(stream: bytes, new: bytes) -> None:
    assert lz.validate(stream) == []
    assert wadlz.decompress(stream) == new


@pytest.mark.parametrize("encoder", list(ENCODERS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2), edits=st.lists(
    st.tuples(st.floats(0, 1), st.integers(1, 3000)), min_size=1, max_size=4),
    data=st.data())
def test_same_size_edits_decode_right_and_are_game_safe(encoder, seed, edits, data):
    plain, stream = old_stream(encoder, seed)
    new = bytearray(plain)
    for where, length in edits:
        at = int(where * (len(new) - length))
        fill = data.draw(st.sampled_from(["random", "shifted copy", "zeros"]))
        if fill == "random":
            new[at:at + length] = random.Random(at).randbytes(length)
        elif fill == "zeros":
            new[at:at + length] = bytes(length)
        else:                                   # bytes that match elsewhere
            src = max(0, at - 0x100)
            new[at:at + length] = plain[src:src + length]
    out, info = _core.rc2_restream(stream, bytes(new))
    check(out, bytes(new))
    first = min(int(w * (len(plain) - n)) for w, n in edits)
    if not info["whole"] and bytes(new) != plain:
        # the old stream's bytes before the edit's packet are kept verbatim
        assert out[16:16 + info["kept_before"]] == stream[16:16 + info["kept_before"]]
        assert info["compressed"] <= len(new) - first + LONGEST_PACKET


@pytest.mark.parametrize("encoder", list(ENCODERS))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2), where=st.floats(0, 1), cut=st.integers(0, 2000),
       grow=st.integers(0, 2000))
def test_edits_that_change_the_size_decode_right(encoder, seed, where, cut, grow):
    plain, stream = old_stream(encoder, seed)
    at = int(where * (len(plain) - cut))
    new = plain[:at] + random.Random(at).randbytes(grow) + plain[at + cut:]
    out, info = _core.rc2_restream(stream, new)
    check(out, new)
    if not info["whole"] and new != plain:
        assert info["compressed"] <= len(new) - at + LONGEST_PACKET


@pytest.mark.parametrize("encoder", list(ENCODERS))
def test_a_small_edit_recompresses_only_the_packets_it_touches(encoder):
    """Neither the block the edit lands in nor the ones after are
    compressed from their start: the packets before the edit stay as they
    were (the stream's bytes up to there are the old ones), those after it
    that still give the new bytes are copied, and only the bytes of the
    packets in between (and of any match that copies changed bytes) are
    compressed; the stream stays within a block of its old size."""
    plain, stream = old_stream(encoder, 0)
    at = 90_000
    new = bytearray(plain)
    new[at:at + 8] = b"\xff" * 8
    out, info = _core.rc2_restream(stream, bytes(new))
    check(out, bytes(new))
    assert not info["whole"]
    assert info["kept_before"] % 0x2000 != 0             # packets, not only blocks
    assert out[16:16 + info["kept_before"]] == stream[16:16 + info["kept_before"]]
    assert info["compressed"] < 2048
    assert info["kept_before"] + info["kept_after"] > len(stream) - 16 - 2048
    assert len(out) <= len(stream) + 0x2000


def test_edits_in_many_blocks_keep_the_stream_size():
    """An edit in every block, each longer as literals than the packets it
    replaces: the shifted packets after each are still copied (walking on
    into the next blocks until a pad's filler takes up the shift)."""
    plain, stream = old_stream("fast", 2)
    new = bytearray(plain)
    for at in range(3000, len(new) - 200, 9000):
        new[at:at + 100] = random.Random(at).randbytes(100)
    out, info = _core.rc2_restream(stream, bytes(new))
    check(out, bytes(new))
    assert not info["whole"]
    assert info["compressed"] < len(new) // 8
    assert len(out) <= len(stream) * 1.1


def test_an_edit_at_the_start_and_an_unchanged_stream():
    plain, stream = old_stream("spec greedy", 1)
    out, info = _core.rc2_restream(stream, plain)
    assert out == stream and info["kept_before"] == len(stream)
    new = b"\x01" + plain[1:]
    out, info = _core.rc2_restream(stream, new)
    check(out, new)
    out, info = _core.rc2_restream(stream, b"")
    check(out, b"")
