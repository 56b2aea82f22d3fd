"""The hostile-input table (docs/testing.md). Each format module here adds
rows to CASES; tests/test_hostile.py runs every row: the parse must raise
FormatError (with an offset inside the input and a context) or succeed as
the row says, never crash or hang, and — for rows with max_mb —
within a memory bound measured in a fresh process.

A new parser adds a module with its PARSERS entry and rows; nothing else."""
from __future__ import annotations

import importlib
import pkgutil
import struct
from dataclasses import dataclass, field
from typing import Callable

import wadkit


@dataclass(frozen=True)
class Error:
    """Expect FormatError, at `offset` if given, with `match` in the message."""
    offset: int | None = None
    match: str | None = None


@dataclass(frozen=True)
class Ok:
    """Expect success; `warn`: a substring one WadWarning must contain;
    `check(result)`: more assertions on what was parsed."""
    warn: str | None = None
    check: Callable[[object], None] | None = None


@dataclass(frozen=True)
class Either:
    """FormatError or success: for rows whose outcome depends on what the
    shifted bytes happen to say. Still no crash, hang or memory blow-up."""


@dataclass
class Case:
    fmt: str                      # key into PARSERS
    name: str
    make: Callable[[], bytes]     # builds the input (lazily: big rows)
    expect: Error | Ok | Either
    max_mb: float | None = None   # peak RSS growth bound, checked in a subprocess
    tags: tuple = field(default=())

    @property
    def id(self) -> str:
        return f"{self.fmt}:{self.name}"


# fmt -> (parse bytes, parse a file path); both raise FormatError on bad input
PARSERS: dict[str, tuple[Callable[[bytes], object], Callable[[str], object]]] = {}
CASES: list[Case] = []


def add(fmt, name, data_or_make, expect, max_mb=None):
    make = data_or_make if callable(data_or_make) else (lambda d=bytes(data_or_make): d)
    CASES.append(Case(fmt, name, make, expect, max_mb))


def with_u32(data: bytes, off: int, value: int) -> bytes:
    b = bytearray(data)
    struct.pack_into("<I", b, off, value & 0xFFFFFFFF)
    return bytes(b)


def with_bytes(data: bytes, off: int, new: bytes) -> bytes:
    return data[:off] + new + data[off + len(new):]


U32_EXTREMES = (0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF8, 0xFFFFFFFC, 0xFFFFFFFF)


def load_all() -> list[Case]:
    if not CASES:
        for mod in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{mod.name}")
    return CASES


__all__ = ["Case", "Either", "Error", "Ok", "PARSERS", "CASES", "add", "with_u32", "with_bytes",
           "U32_EXTREMES", "load_all", "wadkit"]
