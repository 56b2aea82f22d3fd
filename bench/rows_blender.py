"""Blender rows: run bench/blender_child.py in Blender's Python (the bpy
venv `make test-blender` makes: ~/.cache/wadkit/bpy-venv-<hash of
requirements-blender.txt>, or WADKIT_BPY_PYTHON). The add-on is the one in
the tree, or the one in the folder WADKIT_BLENDER_ADDON names (a folder
holding blender_addon/). Skipped with the reason when either is missing."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess

from . import inputs
from .harness import Row

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODIFIED_LIMIT = 120      # seconds


def _bpy_python() -> str | None:
    exe = os.environ.get("WADKIT_BPY_PYTHON")
    if exe:
        return exe
    req = os.path.join(ROOT, "requirements-blender.txt")
    if not os.path.exists(req):
        return None
    with open(req, "rb") as f:
        h = hashlib.sha256(f.read()).hexdigest()[:12]
    venv = os.path.expanduser(f"~/.cache/wadkit/bpy-venv-{h}")
    ok = os.path.exists(os.path.join(venv, ".complete"))
    return os.path.join(venv, "bin", "python") if ok else None


def _addon_dir() -> str | None:
    for d in (ROOT, os.environ.get("WADKIT_BLENDER_ADDON")):
        if d and os.path.isdir(os.path.join(d, "blender_addon")):
            return d
    return None


def _run(exe: str, args: list[str], timeout: float) -> dict:
    path = os.pathsep.join(p for p in (ROOT, _addon_dir()) if p)
    env = dict(os.environ, PYTHONPATH=path, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([exe, os.path.join(ROOT, "bench", "blender_child.py"), *args],
                         capture_output=True, text=True, env=env, timeout=timeout)
    for line in reversed(out.stdout.splitlines()):
        if line.startswith("{"):
            d = json.loads(line)
            if "error" in d:
                raise RuntimeError(d["error"].strip().splitlines()[-1])
            return d
    raise RuntimeError("no result from Blender: " + (out.stderr or out.stdout)[-300:])


def skipped(why: str) -> list[Row]:
    return [Row(name, "", "", target=1, kind="max", skipped=why) for name in (
        "Blender import vs obj_import", "Blender import with collision objects vs obj_import",
        "Blender: one empty object per tile vs obj_import",
        "Blender import by zone vs obj_import", "Blender export by zone unchanged vs obj_export",
        "Blender export unchanged vs obj_export", "Blender export modified vs obj_export")]


def _level(quick: bool, workdir: str) -> str:
    """The ENG level of the eng rows' ×1 input (tiny with quick), written
    here so that `--only blender` needs no other group's files."""
    wad, _ = inputs.tiny_eng_level_wad() if quick else inputs.eng_level_wad(1)
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "eng_blender.wad")
    with open(path, "wb") as f:
        f.write(wad)
    return path


def rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    if _addon_dir() is None:
        return skipped("the Blender add-on (branch blender) has not landed on this branch")
    exe = _bpy_python()
    if exe is None:
        return skipped("no bpy venv (make test-blender makes it) and no WADKIT_BPY_PYTHON")
    work = os.path.join(workdir, "blender")
    wad_path = _level(quick, workdir)
    try:
        r = _run(exe, [str(1 if quick else rounds), wad_path, work], 900)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        return skipped(f"Blender run failed: {e}")
    obj_note = (f"the same world mesh as OBJ + MTL + {'PNG pages'} "
                f"(bpy {r['blender']})")
    out = [
        Row("Blender import vs obj_import", "import_scene.wadkit_eng (defaults: "
            "an object per zone, collision objects on demand, objects)",
            "wm.obj_import", r["import"], r["obj_import"], ratio=r["import"] / r["obj_import"],
            target=2, kind="max",
            note=f"{r['objects_default']} objects (tile objects made on demand: Make tile "
                 f"objects); {obj_note}").judge(),
        Row("Blender import per tile vs obj_import", "import_scene.wadkit_eng(merge='TILE')",
            "wm.obj_import", r["import_tile"], r["obj_import"],
            ratio=r["import_tile"] / r["obj_import"], kind="report",
            note=f"{r['objects']} objects, {r['meshes']} meshes made (no collision "
                 "objects: Build collision makes them); the default before "
                 "2026-12-04; the export rows below run on this scene").judge(),
        Row("Blender import with collision objects vs obj_import",
            "import_scene.wadkit_eng(merge='TILE', import_collision=True)", "wm.obj_import",
            r["import_coll"], r["obj_import"], ratio=r["import_coll"] / r["obj_import"],
            kind="report", note="an object and a collision child per tile made at once (the "
                                "Collision "
                                "collection left out of the view layer), as before "
                                "collision on demand").judge(),
        Row("Blender: one empty object per tile vs obj_import",
            f"{r['tiles']} empty mesh objects made, linked and evaluated once",
            "wm.obj_import", r["empty_objects"], r["obj_import"],
            ratio=r["empty_objects"] / r["obj_import"], kind="report",
            note="Blender's own cost of the objects a per-tile import must make "
                 "(made in the order Blender inserts fastest, as the import does): "
                 "the floor of the per-tile row").judge(),
        Row("Blender import by zone vs obj_import", "import_scene.wadkit_eng(merge='ZONE', "
            "no collision, no objects)", "wm.obj_import", r["import_zone"],
            r["obj_import"], ratio=r["import_zone"] / r["obj_import"], target=1,
            kind="max", note="the add-on's closest shape to one OBJ mesh").judge(),
        Row("Blender export by zone unchanged vs obj_export",
            "export_scene.wadkit_eng after import_scene.wadkit_eng(merge='ZONE')",
            "wm.obj_export of the per-tile scene", r["export_zone"], r["obj_export"],
            ratio=r["export_zone"] / r["obj_export"], kind="report",
            note="zone meshes Blender reported no change of are not read "
                 "(blender_addon/export_zones.py trusted_zones)").judge(),
        Row("Blender export unchanged vs obj_export", "export_scene.wadkit_eng of the "
            "per-tile import",
            "wm.obj_export of the same scene", r["export"], r["obj_export"],
            ratio=r["export"] / r["obj_export"], target=0.5, kind="max",
            note="nothing edited: the meshes Blender reported no change of since the "
                 "import are checked by their counts, corners and attribute names "
                 "(blender_addon/edit_track.py); the level written as it was"
            ).judge(),
    ]
    out.append(_modified(exe, wad_path, work, r, "TILE", "Blender export modified vs obj_export",
                         "export_scene.wadkit_eng after moving one vertex of one tile "
                         "(per-tile import)"))
    out.append(_modified(exe, wad_path, work, r, "ZONE",
                         "Blender export by zone modified vs obj_export",
                         "export_scene.wadkit_eng after moving one vertex of a zone mesh "
                         "(the default import)"))
    return out


def _modified(exe, wad_path, work, r, merge, name, what, target=1, kind="max") -> Row:
    """The export after moving one vertex (bench/blender_child.py modified)."""
    try:
        m = _run(exe, ["1", wad_path, work, "modified", merge], MODIFIED_LIMIT)
    except RuntimeError as e:
        return Row(name, what, "", target=target, kind=kind, skipped=f"export failed: {e}")
    except subprocess.TimeoutExpired:
        row = Row(name, what, "wm.obj_export of the same scene", float(MODIFIED_LIMIT),
                  r["obj_export"], ratio=MODIFIED_LIMIT / r["obj_export"], target=target,
                  kind=kind, note=f"did not finish within {MODIFIED_LIMIT} s; "
                  "the ratio is a lower bound")
        row.passed = False
        return row
    note = (f"{m['how']}; file {m['growth']:+.3%}" if m["changed"]
            else "NOT patched (output equals input)")
    return Row(name, what, "wm.obj_export of the same scene, alternating in one process",
               m["export_modified"], m["obj_export"],
               ratio=m["export_modified"] / m["obj_export"], target=target, kind=kind,
               note=note + f"; median of {m['rounds']}; each edit evaluated before "
               "the timed export, as the UI does after an edit").judge()
