"""`make bench` / `python -m bench`: the side-by-side benchmark table.

    python -m bench [--rounds N] [--json PATH] [--quick] [--no-blender]

Prints one table and writes it as JSON (default build/bench/results.json).
--quick runs every row on tiny inputs (proves the harness works; its
numbers mean nothing)."""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from . import (harness, rows_batch, rows_blender, rows_eng, rows_rc2, rows_rc2_save,
               rows_rc2_world)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--json", default=os.path.join(ROOT, "build", "bench", "results.json"))
    p.add_argument("--quick", action="store_true", help="tiny inputs, harness check")
    p.add_argument("--no-blender", action="store_true", help="list the Blender rows as skipped")
    a = p.parse_args(argv)
    rounds = 3 if a.quick and a.rounds == 7 else a.rounds
    workdir = os.path.dirname(os.path.abspath(a.json))
    t0 = time.time()
    rows = rows_eng.rows(rounds, a.quick, workdir)
    rows += rows_rc2.rows(rounds, a.quick, workdir)
    rows += rows_batch.rows(rounds, a.quick, workdir)
    rows.append(rows_rc2_world.convert_row(rounds, a.quick, workdir))
    if a.no_blender:
        rows += rows_blender.skipped("not run (--no-blender)")
        rows += rows_rc2_world.skipped("not run (--no-blender)")
    else:
        rows += rows_blender.rows(rounds, a.quick, workdir,
                                  os.path.join(workdir, "eng_x1.wad"))
        rows += rows_rc2_save.blender_rows(rounds, a.quick, workdir)
        rows += rows_rc2_world.blender_rows(rounds, a.quick, workdir)
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
