"""WAD-LZ streams assembled from the spec (docs/formats/rc2-wadlz.md), plain
Python + struct: one function per packet kind, a stream header, and a
simple greedy encoder that keeps the game's layout rules. Independent of
wadkit's C encoder."""
from __future__ import annotations

import struct

HEADER = 16
BLOCK = 0x2000


def header(total: int) -> bytes:
    """'WAD', the unaligned little-endian s32 total size, 9 bytes padding."""
    return b"WAD" + struct.pack("<i", total) + bytes(9)


def stream(body: bytes, total: int | None = None) -> bytes:
    return header(HEADER + len(body) if total is None else total) + body


def run(data: bytes) -> bytes:
    """Literal run of 4..273 bytes: flag n-3 (4..18), or 0 + (n-18)."""
    n = len(data)
    assert 4 <= n <= 273, n
    return (bytes([n - 3]) if n <= 18 else bytes([0, n - 18])) + data


def run18_long(data: bytes) -> bytes:
    """The other encoding of an 18-byte run: flag 0, extension 0."""
    assert len(data) == 18
    return b"\x00\x00" + data


def little(length: int, dist: int, lit: bytes = b"") -> bytes:
    """Flag LLLDDDKK (L = length-1, 3..8; D = (dist-1) & 7), then (dist-1) >> 3."""
    assert 3 <= length <= 8 and 1 <= dist <= 2048 and len(lit) <= 3
    d = dist - 1
    return bytes([((length - 1) << 5) | ((d & 7) << 2) | len(lit), d >> 3]) + lit


def medium(length: int, dist: int, lit: bytes = b"") -> bytes:
    """Flag 001MMMMM (M = length-2 if 3..33, else 0 + (length-33)),
    then ((dist-1) & 0x3f) << 2 | K, then (dist-1) >> 6."""
    assert 3 <= length <= 288 and 1 <= dist <= 0x4000 and len(lit) <= 3
    d = dist - 1
    head = bytes([0x20 | (length - 2)]) if length <= 33 else bytes([0x20, length - 33])
    return head + bytes([((d & 0x3F) << 2) | len(lit), d >> 6]) + lit


def far(length: int, dist: int, lit: bytes = b"", high: bool = False) -> bytes:
    """Flag 0001HMMM (M = length-2 if 3..9, else 0 + (length-9)), then
    (field & 0x3f) << 2 | K, then field >> 6, where the distance is
    0x4000 + field, plus 0x4000 more when H is set (the decoder's reading)."""
    field = dist - 0x4000 - (0x4000 if high else 0)
    assert 3 <= length <= 264 and 1 <= field <= 0x3FFF and len(lit) <= 3
    h = 8 if high else 0
    head = bytes([0x10 | h | (length - 2)]) if length <= 9 else bytes([0x10 | h, length - 9])
    return head + bytes([((field & 0x3F) << 2) | len(lit), field >> 6]) + lit


def dummy(lit: bytes = b"") -> bytes:
    """`11 0K 00`: a far packet with distance field 0 and length field 1;
    copies nothing, carries up to 3 literals."""
    assert len(lit) <= 3
    return bytes([0x11, len(lit), 0]) + lit


def pad(pos: int) -> bytes:
    """`12 00 00` then 0xEE up to the next block boundary; pos is where the
    pad starts, counted from offset 0x10 of the stream."""
    end = (pos + 3 + BLOCK - 1) // BLOCK * BLOCK
    return b"\x12\x00\x00" + b"\xee" * (end - pos - 3)


def literals(data: bytes) -> bytes:
    """Any number of literal bytes (>= 4) as runs separated by dummies."""
    out = b""
    while data:
        if out:
            out += dummy()
        take = min(len(data), 273)
        if 0 < len(data) - take < 4:
            take -= 4
        out += run(data[:take])
        data = data[take:]
    return out


# ---- a simple greedy encoder -------------------------------------------

def _cost(length: int, dist: int) -> int:
    if length <= 8 and dist <= 2048:
        return 2
    if dist <= 0x4000:
        return 3 if length <= 33 else 4
    return 3 if length <= 9 else 4


def _match_packet(length: int, dist: int, lit: bytes) -> bytes:
    if length <= 8 and dist <= 2048:
        return little(length, dist, lit)
    if dist <= 0x4000:
        return medium(length, dist, lit)
    return far(length, dist, lit)


def greedy_compress(data: bytes, candidates: int = 32) -> bytes:
    """Longest match among the `candidates` most recent 3-byte hash hits
    (within 0x7fff), taken when it is shorter than the literals it replaces.
    Literals of 1..3 ride on the match before them; a packet that would
    cross a block boundary (or leave < 3 bytes) is preceded by a pad."""
    n = len(data)
    head: dict[bytes, int] = {}
    prev = [-1] * n
    packets: list[bytes] = []
    pending = None            # (length, dist) waiting for its small literal
    after_run = False

    def insert(i):
        if i + 3 <= n:
            key = data[i:i + 3]
            prev[i] = head.get(key, -1)
            head[key] = i

    def emit_literals(lits: bytes):
        nonlocal pending, after_run
        if not lits:
            return
        if pending and len(lits) <= 3:
            packets.append(_match_packet(*pending, lits))
            pending = None
            after_run = False
            return
        if pending:
            packets.append(_match_packet(*pending, b""))
            pending = None
        while lits:
            if after_run or len(lits) <= 3:
                k = lits[:3] if len(lits) <= 3 else b""
                packets.append(dummy(k))
                lits = lits[len(k):]
                after_run = False
                continue
            take = min(len(lits), 273)
            packets.append(run(lits[:take]))
            lits = lits[take:]
            after_run = True

    i = lit = 0
    while i < n:
        best_len = best_dist = 0
        if i + 3 <= n:
            c, tries = head.get(data[i:i + 3], -1), 0
            while c >= 0 and tries < candidates and i - c <= 0x7FFF:
                dist = i - c
                maxl = min(n - i, 288 if dist <= 0x4000 else 264)
                length = 0
                while length < maxl and data[c + length] == data[i + length]:
                    length += 1
                if length > best_len:
                    best_len, best_dist = length, dist
                c, tries = prev[c], tries + 1
        if best_len >= 3 and _cost(best_len, best_dist) < best_len:
            emit_literals(data[lit:i])
            if pending:
                packets.append(_match_packet(*pending, b""))
            pending = (best_len, best_dist)
            after_run = False
            for j in range(i, i + best_len):
                insert(j)
            i += best_len
            lit = i
        else:
            insert(i)
            i += 1
    emit_literals(data[lit:])
    if pending:
        packets.append(_match_packet(*pending, b""))
    return layout(packets)


def layout(packets: list[bytes]) -> bytes:
    """Header + packets, padding before any packet that would cross a block
    boundary or end less than 3 bytes before one."""
    body = bytearray()
    for p in packets:
        at = len(body) % BLOCK
        if at + len(p) > BLOCK - 3:
            body += pad(len(body))
        body += p
    return stream(bytes(body))


# ---- an independent decoder -------------------------------------------------

def decompress(stream: bytes) -> bytes:
    """Decode a whole stream by the packet table of docs/formats/rc2-wadlz.md
    (plain Python; far distances read with the +0x4000 high bit)."""
    size = struct.unpack_from("<i", stream, 3)[0]
    assert stream[:3] == b"WAD" and HEADER <= size <= len(stream), size
    out = bytearray()
    pos = HEADER
    while pos < size:
        f = stream[pos]
        if f < 0x10:                                    # literal runs
            n, pos = (f + 3, pos + 1) if f else (stream[pos + 1] + 18, pos + 2)
            assert pos + n <= size
            out += stream[pos:pos + n]
            pos += n
            continue
        p = pos + 1
        if f < 0x20:                                    # far, dummy, pad
            m = f & 7
            if m == 0:
                m, p = stream[p] + 7, p + 1
            b0, b1 = stream[p], stream[p + 1]
            p += 2
            field = ((f & 8) << 11) | (b1 << 6) | (b0 >> 2)
            if field == 0 and m != 1:                   # pad: to the next block
                pos = HEADER + -(-(p - HEADER) // BLOCK) * BLOCK
                continue
            length, dist, k = (m + 2, field + 0x4000, b0 & 3) if field else (0, 0, b0 & 3)
        elif f < 0x40:                                  # medium
            m = f & 0x1F
            if m == 0:
                m, p = stream[p] + 31, p + 1
            b1, b2 = stream[p], stream[p + 1]
            p += 2
            length, dist, k = m + 2, (b2 << 6) + (b1 >> 2) + 1, b1 & 3
        else:                                           # little
            length, dist, k = (f >> 5) + 1, (stream[p] << 3) + ((f >> 2) & 7) + 1, f & 3
            p += 1
        assert dist <= len(out), (pos, dist, len(out))
        if dist >= length:
            start = len(out) - dist
            out += out[start:start + length]
        else:
            for _ in range(length):
                out.append(out[-dist])
        out += stream[p:p + k]
        pos = p + k
    return bytes(out)
