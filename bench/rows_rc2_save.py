"""RC2 write-back rows: saving an edited 800-patch level against reading
it (Python, side by side), and the add-on's RC2 export against
wm.obj_export of the same scene (in Blender's Python:
bench/blender_child_rc2.py)."""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np

import wadkit

from . import inputs_rc2_level
from .harness import Row, median_times

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _level(workdir: str, quick: bool) -> str:
    path = os.path.join(workdir, "rc2_edit_quick.wad" if quick else "rc2_edit.wad")
    if not os.path.exists(path):
        os.makedirs(workdir, exist_ok=True)
        with open(path, "wb") as f:
            f.write(inputs_rc2_level.level(20 if quick else 800, quick))
    return path


def save_row(rounds: int, quick: bool, workdir: str) -> Row:
    data = open(_level(workdir, quick), "rb").read()

    def read():
        lvl = wadkit.rc2.from_bytes(data)
        lvl.terrain(0), lvl.patches, lvl.ties, lvl.shrubs, lvl.mobys
        lvl.collision(), lvl.settings
        return lvl

    lvl = read()
    t = lvl.terrain(0)
    pos = t["positions"].copy()
    rng = np.random.default_rng(1)
    for p in rng.choice(len(lvl.patches), min(10, len(lvl.patches)), replace=False):
        v = np.unique(t["triangles"][t["patch"] == p])[:4]
        pos[v, 2] += np.float32(0.5)
    n_ties = len(lvl.ties)

    def save():
        ed = lvl.edit()
        ed.set_terrain(positions=pos)
        for i in range(0, n_ties, max(1, n_ties // 20)):
            ed.move("tie", i, (float(i), 1.0, 2.0))
        return ed.apply().to_bytes()

    new = wadkit.rc2.from_bytes(save())
    if not np.array_equal(new.terrain(0)["positions"], pos):
        raise AssertionError("the saved level does not read back as edited")
    t_read, t_save = median_times([read, save], rounds)
    s = lvl.edit()
    s.set_terrain(positions=pos)
    rep = s.apply().edit_report
    st = rep["streams"]["core_data"]
    return Row("RC2 save of an edited level vs reading it",
               "edit (10 patches' vertices, 20 ties) + apply() + to_bytes()",
               "from_bytes + terrain(0) + instances + collision() + settings",
               t_save, t_read, ratio=t_save / t_read, target=2, kind="max",
               note=(f"{len(lvl.patches)} patches, {n_ties} ties, "
                     f"{len(lvl.collision()['tag'])} collision faces; core_data "
                     f"{len(lvl.core_data):,} B: {st['compressed']:,} B compressed "
                     f"again, {st['kept_before'] + st['kept_after']:,} stream bytes "
                     f"kept; patches in place: {len(rep['patches']['in_place'])}")).judge()


def _bpy_python() -> str | None:
    from .rows_blender import _bpy_python as find
    return find()


def blender_rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    names = ("Blender RC2 export unchanged vs obj_export",
             "Blender RC2 export modified vs obj_export")
    exe = _bpy_python()
    if exe is None:
        return [Row(n, "", "", target=1, kind="max", skipped="no bpy venv") for n in names]
    env = dict(os.environ, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS="1")
    try:
        out = subprocess.run([exe, os.path.join(ROOT, "bench", "blender_child_rc2.py"),
                              str(1 if quick else max(3, rounds // 2)),
                              _level(workdir, quick), os.path.join(workdir, "blender")],
                             capture_output=True, text=True, env=env, timeout=900)
        line = next(x for x in reversed(out.stdout.splitlines()) if x.startswith("{"))
        r = json.loads(line)
        if "error" in r:
            raise RuntimeError(r["error"].strip().splitlines()[-1])
    except (StopIteration, RuntimeError, subprocess.TimeoutExpired) as e:
        return [Row(n, "", "", target=1, kind="max", skipped=f"Blender run failed: {e}")
                for n in names]
    note = f"{r['faces']} terrain faces, {r['objects']} objects, bpy {r['blender']}"
    return [Row(names[0], "export_scene.wadkit_rc2 (nothing changed: the base file)",
                "wm.obj_export", r["export"], r["obj_export"],
                ratio=r["export"] / r["obj_export"], target=1, kind="max",
                note=note).judge(),
            Row(names[1], "export_scene.wadkit_rc2 after moving vertices of 10 patches and 20 ties",
                "wm.obj_export", r["modified"], r["obj_export"],
                ratio=r["modified"] / r["obj_export"], target=1, kind="max",
                note=note).judge()]
