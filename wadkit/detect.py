"""Which format is a file? Decided from its first bytes."""
from __future__ import annotations

import builtins
import os

from . import eng
from ._core import FormatError

# Chunk names an ENG WAD starts with (after the u32 length field).
_ENG_FIRST = {b"INFO", b"VERS", b"WFPC", b"TEXT"}


def detect(head: bytes) -> str | None:
    """'eng' for a Croc-2 engine level WAD, or None when unknown."""
    if len(head) >= 8 and head[4:8][::-1] in _ENG_FIRST:
        return "eng"
    return None


def open(path: str | os.PathLike):
    """Open a level file of any supported format."""
    with builtins.open(path, "rb") as f:
        head = f.read(16)
    kind = detect(head)
    if kind == "eng":
        return eng.open(path)
    err = FormatError(f"{os.fspath(path)}: not a level file wadkit knows "
                      f"(first bytes: {head[:8].hex(' ') or 'none, empty file'})")
    err.offset, err.context = 0, "file header"
    raise err
