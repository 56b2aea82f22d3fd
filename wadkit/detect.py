"""Which format is a file? Decided from its first bytes."""
from __future__ import annotations

import builtins
import os

from . import eng
from . import rc2
from ._core import FormatError

# Chunk names an ENG WAD starts with (after the u32 length field).
_ENG_FIRST = {b"INFO", b"VERS", b"WFPC", b"TEXT"}
# An RC2 level header starts with its own size: 0x60, or 0x68 (variant).
_RC2_HEADER_SIZES = {b"\x60\0\0\0", b"\x68\0\0\0"}


def detect(head: bytes) -> str | None:
    """'eng' for a Croc-2 engine level WAD, 'rc2' for an R&C2 LEVEL<n>.WAD,
    or None when unknown."""
    if len(head) >= 8 and head[4:8][::-1] in _ENG_FIRST:
        return "eng"
    if len(head) >= 16 and head[:4] in _RC2_HEADER_SIZES:
        return "rc2"
    return None


def open(path: str | os.PathLike):
    """Open a level file of any supported format."""
    with builtins.open(path, "rb") as f:
        head = f.read(16)
    kind = detect(head)
    if kind == "eng":
        return eng.open(path)
    if kind == "rc2":
        return rc2.open(path)
    # the path is the caller's to name (the CLI prefixes it to every error)
    err = FormatError("not a level file wadkit knows "
                      f"(first bytes: {head[:8].hex(' ') or 'none, empty file'})")
    err.offset, err.context = 0, "file header"
    raise err
