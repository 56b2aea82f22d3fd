"""Which format is a file? Decided from its first bytes, by the signatures
each format's parser knows (C: wk_eng_wad_sniff, wk_rc2_level_sniff)."""
from __future__ import annotations

import builtins
import os
from typing import Literal, overload

from . import _core, eng, rc2
from ._core import FormatError

Format = Literal["eng", "rc2"]


def detect(head: bytes) -> Format | None:
    """'eng' for a Croc-2 engine level WAD, 'rc2' for an R&C2 LEVEL<n>.WAD,
    or None when unknown (head: the file's first bytes; 16 are enough)."""
    return _core.detect(head)


@overload
def open(path: str | os.PathLike, format: Literal["eng"]) -> eng.Level: ...
@overload
def open(path: str | os.PathLike, format: Literal["rc2"]) -> rc2.Level: ...
@overload
def open(path: str | os.PathLike, format: None = None) -> eng.Level | rc2.Level: ...


def open(path: str | os.PathLike, format: Format | None = None):
    """Open a level file: format 'eng' or 'rc2', or found from its first
    bytes (FormatError when they are neither). Use it in a with block: the
    level holds the file mapped until it is closed."""
    if format is None:
        with builtins.open(path, "rb") as f:
            head = f.read(_core.detect_size)
        format = detect(head)
        if format is None:
            # the path is the caller's to name (the CLI prefixes it to every error)
            err = FormatError("not a level file wadkit knows "
                              f"(first bytes: {head[:8].hex(' ') or 'none, empty file'})")
            err.offset, err.context = 0, "file header"
            raise err
    if format == "eng":
        return eng.open(path)
    if format == "rc2":
        return rc2.open(path)
    raise ValueError(f"format must be 'eng' or 'rc2', not {format!r}")
