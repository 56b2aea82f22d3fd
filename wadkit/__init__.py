"""wadkit: read, convert and write level files of The Emperor's New Groove
(PC, Croc-2 engine, "ENG") and Ratchet & Clank: Going Commando (PS2, "RC2").

The parsing, conversion and writing is done by the C extension wadkit._core;
this package is glue: a Python API over it and the command line.
"""
from ._core import FormatError, LimitError, MissingChunkError, WadError, WadWarning
from . import eng
from . import lz, rc2
from .detect import detect, open

__all__ = ["FormatError", "LimitError", "MissingChunkError", "WadError", "WadWarning", "eng",
           "detect", "open", "lz", "rc2"]
__version__ = "0.1.0"
