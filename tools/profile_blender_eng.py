"""Where the ENG import and export spend their time in Blender, for a
by-hand look (docs/blender.md "Speed"): each step of the add-on timed by
wrapping its functions, with Blender's own operators of the same size
(wm.obj_import / wm.obj_export) in the same run. Medians of ROUNDS.

    <bpy venv>/bin/python tools/profile_blender_eng.py LEVEL.wad [ROUNDS]

LEVEL.wad: e.g. build/bench/eng_x1.wad (make bench writes it). Not a test
and not part of make bench: it prints milliseconds, not ratios."""
from __future__ import annotations

import collections
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import bpy  # noqa: E402

import blender_addon  # noqa: E402
from blender_addon import (edit_track, export_compare, export_eng, export_plan,  # noqa: E402
                           import_eng)
from bench.blender_child import write_obj  # noqa: E402

import wadkit  # noqa: E402

T: dict[str, float] = collections.defaultdict(float)


def wrap(mod, name: str, label: str) -> None:
    f = getattr(mod, name)

    def timed(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            T[label] += time.perf_counter() - t
    setattr(mod, name, timed)


for mod, name, label in (
        (import_eng, "tile_mesh_arrays", "import: tile arrays (NumPy)"),
        (import_eng, "build_meshes", "import: tile meshes (bpy)"),
        (import_eng, "collision_meshes", "import: collision meshes (bpy)"),
        (import_eng, "new_ids", "import: objects made"),
        (import_eng, "place_objects", "import: objects placed"),
        (import_eng, "setup_children", "import: collision children set up"),
        (import_eng, "import_objects", "import: STPC objects"),
        (edit_track, "remember", "import: first evaluation (view layer update)"),
        (export_eng, "Base", "export: base level arrays"),
        (export_eng, "_Scan", "export: scan of the collection"),
        (export_eng, "world_matrices", "export: world matrices"),
        (export_compare.edit_track, "unchanged", "export: tracked meshes checked"),
        (export_compare, "_read_changes", "export: tile meshes read whole"),
        (export_compare, "_read_collision", "export: collision meshes read whole"),
        (export_plan.TilePlan, "_edits", "export: edits"),
        (export_plan.TilePlan, "claims", "export: tile objects claimed"),
        (export_plan, "placements", "export: placements"),
        (export_eng.TextEdits, "prepare", "export: materials and pages"),
        (export_eng.TextEdits, "__init__", "export: materials and pages"),
        (export_eng.wadkit.eng, "open", "export: base level opened"),
):
    wrap(mod, name, label)
_Level = type(wadkit.eng.from_bytes(open(sys.argv[1], "rb").read()))
wrap(_Level, "save", "export: written (atomic: temp file, fsync, rename)")
wrap(_Level, "edit", "export: LevelEdit made")
from wadkit._eng_edit import LevelEdit  # noqa: E402
wrap(LevelEdit, "apply", "export: edits applied (wadkit, C)")


def empty():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        blender_addon.register()
    except ValueError:
        pass


def main(wad: str, rounds: int) -> None:
    work = tempfile.mkdtemp(prefix="wadkit-profile-")
    empty()
    obj = write_obj(wadkit.eng.open(wad), work)
    runs = collections.defaultdict(list)
    for _ in range(rounds):
        empty()
        t = time.perf_counter()
        bpy.ops.wm.obj_import(filepath=obj)
        runs["wm.obj_import"].append(time.perf_counter() - t)
        empty()
        T.clear()
        t = time.perf_counter()
        bpy.ops.import_scene.wadkit_eng(filepath=wad)
        runs["import_scene.wadkit_eng (defaults)"].append(time.perf_counter() - t)
        t = time.perf_counter()
        bpy.ops.wm.obj_export(filepath=os.path.join(work, "o.obj"))
        runs["wm.obj_export"].append(time.perf_counter() - t)
        t = time.perf_counter()
        bpy.ops.export_scene.wadkit_eng(filepath=os.path.join(work, "o.wad"))
        runs["export_scene.wadkit_eng (unchanged)"].append(time.perf_counter() - t)
        for k, v in T.items():
            runs[k].append(v)
        T.clear()
        tile = next(o for o in bpy.data.objects if "wadkit_tile" in o and len(o.data.vertices))
        tile.data.vertices[0].co.z += 0.25
        t = time.perf_counter()
        bpy.ops.export_scene.wadkit_eng(filepath=os.path.join(work, "m.wad"))
        runs["export_scene.wadkit_eng (one vertex moved)"].append(time.perf_counter() - t)
        for k, v in T.items():
            runs["modified " + k].append(v)
    print(f"bpy {bpy.app.version_string}, {wad}, medians of {rounds}")
    for k, v in runs.items():
        print(f"  {statistics.median(v) * 1e3:8.1f} ms  {k}")


if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    finally:
        sys.stdout.flush()
        os._exit(0)      # bpy as a module can hang in its exit handlers
