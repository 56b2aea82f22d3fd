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


def _child(script: str, args: list[str], env: dict | None = None) -> dict:
    env = dict(os.environ, **(env or {}), PYTHONPATH=os.pathsep.join(
        [p for p in (os.environ.get("PYTHONPATH"), os.path.dirname(HERE)) if p]))
    out = subprocess.run([sys.executable, os.path.join(HERE, script), *args],
                         check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def memory_row(path: str, facts: dict) -> Row:
    m = _child("memory.py", [path])
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


def _scaling(times: dict, levels: dict, label: str) -> list[Row]:
    scales = sorted(times)
    base_t, base_n = times[scales[0]], levels[scales[0]][1]["world_triangles"]
    rows = []
    for s in scales[1:]:
        n = levels[s][1]["world_triangles"]
        grow = n / base_n
        rows.append(Row(f"scaling ×{s} (time vs ×1), {label} memory",
                        f"world mesh of the ×{s} level", "world mesh of the ×1 level",
                        times[s], base_t, ratio=times[s] / base_t,
                        target=round(1.1 * grow, 2), kind="max",
                        note=(f"{n} triangles = {grow:.2f}× the ×1 level; target "
                              f"1.1 × that (≤ linear, 10 % slack); per triangle "
                              f"{times[s] / n * 1e9:.0f} ns vs {base_t / base_n * 1e9:.0f} ns"),
                        extra={"growth": grow}).judge())
    return rows


def fresh_rows(paths: dict, levels: dict, rounds: int) -> list[Row]:
    """The world-mesh row again and the scaling rows, timed in children
    with a fixed malloc policy (bench/fresh.py): fresh and warm memory."""
    from .fresh import FRESH, WARM
    scales = sorted(paths)
    files = [paths[s] for s in scales]
    fresh = _child("fresh.py", [str(rounds)] + files, FRESH)
    warm = _child("fresh.py", [str(rounds)] + files, WARM)
    rows = [Row("ENG level → world-mesh arrays, fresh memory",
                "as above, every large block fresh from the kernel",
                "the pure-Python parser, same process", fresh["world_mesh_first"],
                fresh["reference"], ratio=fresh["reference"] / fresh["world_mesh_first"],
                target=100, kind="min",
                note=("child with MALLOC_MMAP_THRESHOLD_=131072: every output "
                      "array is zeroed pages, as in a one-shot conversion"),
                extra={"env": FRESH}).judge()]
    rows += _scaling(dict(zip(scales, warm["world_mesh"])), levels, "warm")
    rows += _scaling(dict(zip(scales, fresh["world_mesh"])), levels, "fresh")
    rows += _copy_scaling(dict(zip(scales, warm["copy"])), levels)
    return rows


def _copy_scaling(times: dict, levels: dict) -> list[Row]:
    """The machine's limit for the scaling rows: how a plain copy of the
    same bytes (input + output arrays) grows from ×1 to ×s, warm memory."""
    scales = sorted(times)
    base = times[scales[0]]
    rows = []
    for s in scales[1:]:
        grow = levels[s][1]["world_triangles"] / levels[scales[0]][1]["world_triangles"]
        rows.append(Row(f"scaling ×{s} of a plain copy of the same bytes, warm memory",
                        "copy of the ×1 level's bytes (input + output size)",
                        f"the same for the ×{s} level", base, times[s],
                        ratio=times[s] / base, kind="report",
                        note=(f"numpy.copyto of the input and of the world-mesh "
                              f"arrays' size; {grow:.2f}× the triangles: what the "
                              f"memory alone costs, no work"),
                        extra={"growth": grow}).judge())
    return rows


def fresh_process_rows(path: str, facts: dict, rounds: int) -> list[Row]:
    """open + world_mesh() in a fresh interpreter (bench/fresh_process.py),
    against the pure-Python parser in one, and against writing the same
    output bytes into fresh memory; medians over child processes taking
    turns."""
    import statistics
    ours, ref, limit = [], [], []
    for r in range(rounds):
        o = _child("fresh_process.py", ["ours", path])
        ours.append(o)
        limit.append(_child("fresh_process.py", ["limit", path, json.dumps(o["shapes"])]))
        if r < max(3, rounds // 2):
            ref.append(_child("fresh_process.py", ["ref", path]))
    med = lambda xs, k="seconds": statistics.median(x[k] for x in xs)  # noqa: E731
    t_ours, t_ref, t_lim = med(ours), med(ref), med(limit)
    mb = ours[0]["bytes"] / 1e6
    tris = facts["world_triangles"]
    return [
        Row(f"ENG open + world_mesh, fresh process, {tris // 1000}k triangles",
            "wadkit.eng.open(path).world_mesh() in a new interpreter (after imports)",
            "the pure-Python parser in a new interpreter (file read included)",
            t_ours, t_ref, ratio=t_ref / t_ours, target=100, kind="min",
            note=(f"×{facts['scale']} level, {facts['tiles']} tiles, {mb:.1f} MB of arrays; "
                  f"imports apart: numpy {med(ours, 'import_numpy') * 1e3:.0f} ms, "
                  f"wadkit {med(ours, 'import_wadkit') * 1e3:.0f} ms; "
                  f"{med(ours, 'faults'):.0f} page faults in the call"),
            extra={"input": facts}).judge(),
        Row(f"ENG open + world_mesh, fresh process, vs writing its output bytes",
            "as above", "numpy.empty + fill of the same shapes in a new interpreter",
            t_ours, t_lim, ratio=t_ours / t_lim, target=2, kind="max",
            note=(f"the floor: {mb:.1f} MB into fresh pages takes {t_lim * 1e3:.1f} ms "
                  f"({med(limit, 'faults'):.0f} page faults); what ours adds is the "
                  f"parse and the fill")).judge(),
    ]


def rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    if quick:
        levels = {1: inputs.tiny_eng_level_wad(), 2: inputs.tiny_eng_level_wad(2)}
    else:
        levels = {s: inputs.eng_level_wad(s) for s in (1, 4, 10)}
    os.makedirs(workdir, exist_ok=True)
    paths = {}
    for s, (wad, _) in levels.items():
        paths[s] = os.path.join(workdir, f"eng_x{s}.wad")
        with open(paths[s], "wb") as f:
            f.write(wad)
    wad1, facts1 = levels[1]
    out = [world_mesh_row(wad1, facts1, rounds)]
    out += fresh_rows(paths, levels, rounds)
    out += [memory_row(paths[s], levels[s][1]) for s in sorted(levels) if s in (1, 10)]
    big, big_facts = inputs.tiny_eng_level_wad(3) if quick else inputs.eng_level_wad(6)
    big_path = os.path.join(workdir, "eng_fresh.wad")
    with open(big_path, "wb") as f:
        f.write(big)
    out += fresh_process_rows(big_path, big_facts, rounds)
    from . import rows_eng_edit
    out += rows_eng_edit.rows(rounds, quick)
    return out
