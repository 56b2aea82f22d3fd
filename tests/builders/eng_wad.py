"""ENG WAD container, built from the spec (docs/formats/eng.md):
u32 total length including the field, chunks {tag spelled backwards, u32
payload size, payload}, ending with an 'END ' chunk."""
from __future__ import annotations

import struct


def chunk(tag: str, payload: bytes, size_field: int | None = None) -> bytes:
    name = tag.ljust(4).encode("ascii")
    assert len(name) == 4
    size = len(payload) if size_field is None else size_field
    return name[::-1] + struct.pack("<I", size) + payload


def wad(chunks: list[tuple[str, bytes]], *, length: int | None = None,
        trailing: bytes = b"", end: bool = True, map_quirk: bool = False) -> bytes:
    """chunks: (tag, payload) in order; END is appended unless end=False.
    map_quirk stores the MAP size field 4 bytes too large."""
    body = b""
    for tag, payload in chunks:
        field = len(payload) + 4 if (map_quirk and tag.strip() == "MAP") else None
        body += chunk(tag, payload, field)
    if end:
        body += chunk("END", b"")
    total = 4 + len(body) + len(trailing) if length is None else length
    return struct.pack("<I", total) + body + trailing


def info_payload() -> bytes:
    return struct.pack("<I", 1)


def sample_wad() -> bytes:
    """A small WAD with the PC chunk order and payloads of various sizes."""
    return wad([
        ("INFO", info_payload()),
        ("WFPC", struct.pack("<I", 0x10000)),
        ("TEXT", bytes(range(256)) * 3),
        ("TRAK", struct.pack("<I", 0)),
        ("STPC", b"\x00" * 12),
        ("MAP", b"\x01\x02\x03\x04" * 10),
        ("LGHT", b""),
    ])


KNOWN_TAGS = {"INFO", "VERS", "WFPC", "TEXT", "TRAK", "STPC", "MAP ", "LGHT", "LNFO",
              "LGPC", "SMPC", "AMPC", "SRPC", "NAME", "FONT", "LANG", "SPRT", "RIMG",
              "END "}


class BadWad(Exception):
    """The reference reader's refusal; .offset is where, as the spec says."""

    def __init__(self, offset: int, why: str):
        super().__init__(f"{why} at {offset:#x}")
        self.offset = offset


def read(data: bytes) -> list[tuple[str, int, int, int]]:
    """Reference reader of the container, from the spec (docs/formats/eng.md),
    for differential tests: [(name, header offset, payload size, size field)]
    or BadWad(offset). Names are the stored u32 spelled backwards."""
    def name_at(off: int) -> str | None:
        if off < 0 or off + 4 > len(data):
            return None
        return data[off:off + 4][::-1].decode("latin-1")

    if len(data) < 4:
        raise BadWad(0, "length field")
    pos, out, seen = 4, [], {}
    while True:
        if pos == len(data):
            raise BadWad(pos, "no END chunk")
        if pos + 8 > len(data):
            raise BadWad(pos + (4 if pos + 4 <= len(data) else 0), "chunk header")
        name = name_at(pos)
        field = struct.unpack_from("<I", data, pos + 4)[0]
        if not all(0x20 <= ord(ch) <= 0x7e for ch in name):
            raise BadWad(pos, "tag")
        if field > len(data) - pos - 8:
            raise BadWad(pos, "size past the end")
        size, nxt = field, pos + 8 + field
        if (name == "MAP " and field >= 4 and name_at(nxt) not in KNOWN_TAGS
                and name_at(nxt - 4) in KNOWN_TAGS):
            size -= 4
        if name in seen:
            raise BadWad(pos, "duplicate")
        seen[name] = pos
        out.append((name, pos, size, field))
        pos += 8 + size
        if name == "END ":
            return out
