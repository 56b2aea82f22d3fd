"""Rows whose parts have not landed on this branch yet: shown as skipped
with the reason (the table always lists every row of the issue)."""
from __future__ import annotations

import importlib.util

from .harness import Row


def _has(mod: str) -> bool:
    try:
        return importlib.util.find_spec(mod) is not None
    except ImportError:
        return False


def rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    out = []
    if not _has("wadkit.lz"):
        why = "wadkit.lz (WAD-LZ, branch rc2) has not landed on this branch"
        out += [Row("WAD-LZ decompress vs zlib", "", "", target=2.5, skipped=why),
                Row("WAD-LZ decompress vs numpy.copy", "", "", skipped=why, kind="report"),
                Row("WAD-LZ compress vs greedy", "", "", target=1, skipped=why)]
    if not _has("wadkit.rc2"):
        out.append(Row("RC2 tfrag decode, 800 patches", "", "", target=100,
                       skipped="wadkit.rc2 (branch rc2) has not landed on this branch"))
    if not _has("blender_addon"):
        why = "the Blender add-on (branch blender) has not landed on this branch"
        out += [Row("Blender import vs obj_import", "", "", target=1, skipped=why, kind="max"),
                Row("Blender export vs obj_export", "", "", target=1, skipped=why, kind="max")]
    return out
