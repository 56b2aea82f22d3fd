"""Batch conversion row: `wadkit convert` of 8 generated ENG levels on a
pool of worker processes (one per core, the default) against the same
command with -j 1 (serial, in the wadkit process), both run as a user runs
them: `python -m wadkit convert … -o DIR`, wall time of the whole command."""
from __future__ import annotations

import filecmp
import os
import subprocess
import sys

from wadkit._convert import usable_cpus

from . import inputs
from .harness import Row, median_times

N_LEVELS = 8


def _cmd(files: list[str], out: str, jobs: int) -> list[str]:
    return [sys.executable, "-m", "wadkit", "convert", *files, "-o", out,
            "--collision", "-j", str(jobs)]


def _convert(files: list[str], out: str, jobs: int):
    def run():
        subprocess.run(_cmd(files, out, jobs), check=True, capture_output=True)
    return run


def _independent(files: list[str], out: str, parts: int):
    """The machine's own ceiling for the row: `parts` separate `-j 1`
    commands, each on its share of the levels, started together (no pool,
    no coordination: what a perfect split would cost)."""
    def run():
        procs = [subprocess.Popen(_cmd(files[k::parts], out, 1), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL) for k in range(parts)]
        if any(p.wait() for p in procs):
            raise RuntimeError("a convert command failed")
    return run


def rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    levels = [inputs.tiny_eng_level_wad() if quick else inputs.eng_level_wad(1, seed=20 + s)
              for s in range(N_LEVELS)]
    folder = os.path.join(workdir, "batch")
    os.makedirs(folder, exist_ok=True)
    files = []
    for i, (wad, _) in enumerate(levels):
        files.append(os.path.join(folder, f"level{i}.wad"))
        with open(files[-1], "wb") as f:
            f.write(wad)
    cpus = usable_cpus()
    serial, pool, split = (os.path.join(folder, d) for d in ("serial", "pool", "split"))
    t_pool, t_serial, t_split = median_times(
        [_convert(files, pool, 0), _convert(files, serial, 1),
         _independent(files, split, max(cpus, 1))], min(rounds, 3), min_round=0)
    same = all(filecmp.cmp(os.path.join(serial, n), os.path.join(pool, n), shallow=False)
               for n in sorted(os.listdir(serial)))
    if not same:
        raise AssertionError("the pool wrote other files than the serial run")
    tris = sum(f["world_triangles"] for _, f in levels)
    return [Row(f"batch convert {N_LEVELS} levels, pool vs -j 1",
                f"wadkit convert 8 levels -o DIR --collision ({cpus} workers)",
                "the same with -j 1 (serial)", t_pool, t_serial,
                ratio=t_serial / t_pool, target=1.7 if cpus == 2 else 0.85 * cpus,
                kind="min" if cpus >= 2 else "report",
                note=(f"{tris} world triangles in all; whole commands, wall time "
                      f"(process start and worker start included; wadkit's .pyc "
                      f"compiled first, as installed); outputs identical; "
                      f"target 1.7× on 2 cores (0.85× the core count elsewhere)"),
                extra={"cpus": cpus, "levels": N_LEVELS}).judge(),
            Row(f"batch convert {N_LEVELS} levels, {cpus} independent -j 1 commands vs one",
                f"{cpus} separate commands on {N_LEVELS // max(cpus, 1)} levels each, "
                "started together", "one -j 1 command on all", t_split, t_serial,
                ratio=t_serial / t_split, kind="report",
                note=("the machine's own ceiling for the row above: a perfect split "
                      "with no pool; on a VM whose cores slow each other down "
                      "(shared caches, memory bandwidth, other guests) it is well "
                      "under the core count"),
                extra={"cpus": cpus}).judge()]
