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
    if not _has("blender_addon"):
        why = "the Blender add-on (branch blender) has not landed on this branch"
        out += [Row("Blender import vs obj_import", "", "", target=1, skipped=why, kind="max"),
                Row("Blender export vs obj_export", "", "", target=1, skipped=why, kind="max")]
    return out
