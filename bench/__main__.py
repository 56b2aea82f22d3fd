"""`make bench` / `python -m bench`: the side-by-side benchmark table.

    python -m bench [--rounds N] [--json PATH] [--quick] [--no-blender]
                    [--only GROUP[,GROUP...]]

Prints one table and writes it as JSON (default build/bench/results.json).
--quick runs every row on tiny inputs (proves the harness works; its
numbers mean nothing). --only runs only the named groups of rows (GROUPS;
e.g. `--only blender_rc2` for the RC2 Blender export rows)."""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from . import (harness, rows_batch, rows_blender, rows_eng, rows_rc2, rows_rc2_save,
               rows_rc2_world)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the groups of rows, in the table's order: name -> rows(rounds, quick, workdir)
GROUPS = {
    "eng": rows_eng.rows,
    "rc2": rows_rc2.rows,
    "batch": rows_batch.rows,
    "rc2_world": lambda r, q, w: [rows_rc2_world.convert_row(r, q, w)],
    "blender": rows_blender.rows,
    "blender_rc2": rows_rc2_save.blender_rows,
    "blender_rc2_world": rows_rc2_world.blender_rows,
}
_SKIPPED = {"blender": rows_blender.skipped, "blender_rc2_world": rows_rc2_world.skipped}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--json", default=os.path.join(ROOT, "build", "bench", "results.json"))
    p.add_argument("--quick", action="store_true", help="tiny inputs, harness check")
    p.add_argument("--no-blender", action="store_true", help="list the Blender rows as skipped")
    p.add_argument("--only", default="", help="comma-separated groups of rows: "
                   + ", ".join(GROUPS))
    a = p.parse_args(argv)
    only = [g for g in a.only.split(",") if g]
    unknown = [g for g in only if g not in GROUPS]
    if unknown:
        p.error(f"unknown group {unknown[0]!r}; the groups: {', '.join(GROUPS)}")
    rounds = 3 if a.quick and a.rounds == 7 else a.rounds
    workdir = os.path.dirname(os.path.abspath(a.json))
    t0 = time.time()
    rows = []
    for name, make in GROUPS.items():
        if only and name not in only:
            continue
        if a.no_blender and name.startswith("blender"):
            if name in _SKIPPED:
                rows += _SKIPPED[name]("not run (--no-blender)")
            continue
        rows += make(rounds, a.quick, workdir)
    print(harness.table(rows))
    meta = {"rounds": rounds, "quick": a.quick, "python": sys.version.split()[0],
            "machine": platform.machine(), "cpus": os.cpu_count(),
            "seconds": round(time.time() - t0, 1),
            "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    harness.write_json(rows, a.json, meta)
    print(f"\nwritten {a.json} ({meta['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
