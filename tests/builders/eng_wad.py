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
