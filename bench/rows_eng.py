"""ENG rows: level → world-mesh arrays against the pure-Python parser,
peak memory, and scaling ×1/×4/×10."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

import wadkit.eng

from . import inputs, pyref_eng
from .harness import Row, median_times

HERE = os.path.dirname(os.path.abspath(__file__))


def ours(wad: bytes) -> dict:
    """What a user does: parse the level held in memory, get the mesh."""
    return wadkit.eng.from_bytes(wad).world_mesh()


def check_same(wad: bytes) -> None:
    """The two sides must produce the same arrays, or the timing means
    nothing."""
    a, b = ours(wad), pyref_eng.world_mesh(wad)
    for k in a:
        if not np.array_equal(a[k], b[k]):
            raise AssertionError(f"world mesh '{k}' differs from the pure-Python parser")


def world_mesh_row(wad: bytes, facts: dict, rounds: int) -> Row:
    check_same(wad)
    t_ours, t_ref = median_times([lambda: ours(wad), lambda: pyref_eng.world_mesh(wad)],
                                 rounds)
    return Row("ENG level → world-mesh arrays",
               "wadkit.eng.from_bytes(wad).world_mesh()",
               "pure-Python struct parser (bench/pyref_eng.py)",
               t_ours, t_ref, ratio=t_ref / t_ours, target=100, kind="min",
               note=(f"{facts['models']} models, {facts['tiles']} tiles, "
                     f"{facts['world_triangles']} triangles, {facts['pages']} pages, "
                     f"{facts['bytes'] / 1e6:.1f} MB; outputs identical"),
               extra={"input": facts}).judge()


def memory_row(wad: bytes, facts: dict, workdir: str) -> Row:
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, f"eng_x{facts['scale']}.wad")
    with open(path, "wb") as f:
        f.write(wad)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [p for p in (os.environ.get("PYTHONPATH"), os.path.dirname(HERE)) if p]))
    out = subprocess.run([sys.executable, os.path.join(HERE, "memory.py"), path],
                         check=True, capture_output=True, text=True, env=env).stdout
    m = json.loads(out.strip().splitlines()[-1])
    floor = m["input"] + m["output"]
    note = (f"×{facts['scale']}: peak +{m['extra'] / 1e6:.1f} MB over the RSS before "
            f"opening; input {m['input'] / 1e6:.1f} MB + arrays {m['output'] / 1e6:.1f} MB")
    if not m["peak_reset"]:
        note += " (peak could not be reset: includes import peaks)"
    return Row(f"peak memory converting a level ×{facts['scale']}",
               "peak RSS growth of open()+world_mesh() (child process)",
               "input size + output arrays", m["extra"], floor, unit="B",
               ratio=m["extra"] / floor, target=3, kind="max", note=note,
               extra=m).judge()


def scaling_rows(levels: dict, rounds: int) -> list[Row]:
    """levels: scale → (wad, facts). Time per level against ×1, judged
    against the growth of the input (world triangles)."""
    scales = sorted(levels)
    fns = [(lambda w=levels[s][0]: ours(w)) for s in scales]
    times = dict(zip(scales, median_times(fns, rounds)))
    base_t, base_n = times[scales[0]], levels[scales[0]][1]["world_triangles"]
    rows = []
    for s in scales[1:]:
        grow = levels[s][1]["world_triangles"] / base_n
        ratio = times[s] / base_t
        rows.append(Row(f"scaling ×{s} (time vs ×1)", f"world mesh of the ×{s} level",
                        "world mesh of the ×1 level", times[s], base_t,
                        ratio=ratio, target=round(1.1 * grow, 2), kind="max",
                        note=(f"{levels[s][1]['world_triangles']} triangles = "
                              f"{grow:.2f}× the ×1 level; target 1.1 × that "
                              f"(≤ linear with 10 % slack); per triangle "
                              f"{times[s] / levels[s][1]['world_triangles'] * 1e9:.0f} ns "
                              f"vs {base_t / base_n * 1e9:.0f} ns"),
                        extra={"growth": grow}).judge())
    return rows


def rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    if quick:
        levels = {1: inputs.tiny_eng_level_wad()}
    else:
        levels = {s: inputs.eng_level_wad(s) for s in (1, 4, 10)}
    wad1, facts1 = levels[1]
    out = [world_mesh_row(wad1, facts1, rounds)]
    out += [memory_row(*levels[s], workdir) for s in sorted(levels) if s in (1, 10)]
    if len(levels) > 1:
        out += scaling_rows(levels, rounds)
    return out
