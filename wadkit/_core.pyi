# Typed stubs for the C extension wadkit._core (csrc/module/).
# Keep in sync with the binding: tests/test_stubs.py compares both ways.
import os
import sys
from collections.abc import Mapping
from typing import Final, final

from typing_extensions import Buffer

glib_version: Final[tuple[int, int, int]]

class WadError(Exception):
    """Base class of every wadkit error."""

class FormatError(WadError, ValueError):
    """The input breaks its format."""
    offset: int | None   # absolute byte offset in the file, or None
    context: str         # where, e.g. "ENG WAD chunk TRAK > model 12"

class LimitError(WadError, ValueError):
    """A write the game could not load; nothing was written."""
    offset: int | None
    context: str

class WadWarning(UserWarning):
    """A tolerated oddity in a file (kept as it is)."""

@final
class EngWad:
    """An ENG level WAD's chunk table; the whole file via the buffer protocol
    (memoryview(wad) is the file's bytes)."""
    def __new__(cls, source: str | os.PathLike[str] | Buffer) -> EngWad: ...
    @property
    def chunks(self) -> list[tuple[str, int, int, int]]:
        """(name, header offset, payload size, stored size field), file order."""
    @property
    def warnings(self) -> list[str]: ...
    @property
    def declared_length(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def size(self) -> int: ...
    def build(self, replacements: Mapping[int, Buffer] | None = None) -> bytes: ...
    def save(self, path: str | os.PathLike[str],
             replacements: Mapping[int, Buffer] | None = None) -> None: ...
    if sys.version_info >= (3, 12):
        def __buffer__(self, flags: int, /) -> memoryview: ...
