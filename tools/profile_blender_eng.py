"""Where the ENG import and export spend their time in Blender, for a
by-hand look (docs/blender.md "Speed"): each step of the add-on timed by
wrapping its functions, with Blender's own operators of the same size
(wm.obj_import / wm.obj_export) in the same run. Medians of ROUNDS.

    <bpy venv>/bin/python tools/profile_blender_eng.py LEVEL.wad [ROUNDS]

LEVEL.wad: e.g. build/bench/eng_x1.wad (make bench writes it). Not a test
and not part of make bench: it prints milliseconds, not ratios."""
from __future__ import annotations

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools")]

import bpy  # noqa: E402

from blender_addon import (collision_build, edit_track, export_compare, export_eng,  # noqa: E402
                           export_plan, import_eng)
from bench.blender_child import write_obj  # noqa: E402
from blender_steps import Runs, empty, wrap  # noqa: E402

import wadkit  # noqa: E402

for mod, name, label in (
        (import_eng, "tile_mesh_arrays", "import: tile arrays (NumPy)"),
        (import_eng, "build_meshes", "import: tile meshes (bpy)"),
        (import_eng, "collision_meshes", "import: collision meshes (bpy)"),
        (import_eng, "new_ids", "import: objects made"),
        (import_eng, "place_objects", "import: objects placed"),
        (import_eng, "setup_children", "import: collision children set up"),
        (import_eng, "import_objects", "import: STPC objects"),
        (collision_build, "collision_meshes", "build: collision meshes (bpy)"),
        (collision_build, "new_ids", "build: objects made"),
        (collision_build, "setup_children", "build: collision children set up"),
        (collision_build, "_Scan", "build: level collection sorted"),
        (collision_build.edit_track, "adopt",
         "build: evaluation of the shown children (edit tracking)"),
        (edit_track, "remember", "import: first evaluation (view layer update)"),
        (export_eng, "Base", "export: base level arrays"),
        (export_eng, "_Scan", "export: scan of the collection, world matrices"),
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



def main(wad: str, rounds: int) -> None:
    work = tempfile.mkdtemp(prefix="wadkit-profile-")
    empty()
    obj = write_obj(wadkit.eng.open(wad), work)
    runs = Runs()
    for _ in range(rounds):
        empty()
        runs.timed("wm.obj_import", lambda: bpy.ops.wm.obj_import(filepath=obj))
        empty()
        runs.timed("import_scene.wadkit_eng (merge='TILE')",
                   lambda: bpy.ops.import_scene.wadkit_eng(filepath=wad, merge="TILE"))
        runs.steps()
        runs.timed("wm.obj_export", lambda: bpy.ops.wm.obj_export(
            filepath=os.path.join(work, "o.obj")))
        runs.timed("export_scene.wadkit_eng (unchanged)", lambda: bpy.ops.export_scene.wadkit_eng(
            filepath=os.path.join(work, "o.wad")))
        runs.steps()
        tile = next(o for o in bpy.data.objects if "wadkit_tile" in o and len(o.data.vertices))
        tile.data.vertices[0].co.z += 0.25
        runs.timed("export_scene.wadkit_eng (one vertex moved)",
                   lambda: bpy.ops.export_scene.wadkit_eng(filepath=os.path.join(work, "m.wad")))
        runs.steps("modified ")
        for o in bpy.context.view_layer.objects:
            o.select_set(False)
        runs.timed("wadkit.eng_build_collision (every tile)",
                   lambda: (bpy.ops.wadkit.eng_build_collision(),
                            bpy.context.view_layer.update()))
        runs.steps()
    runs.print(wad, rounds)

if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    finally:
        sys.stdout.flush()
        os._exit(0)      # bpy as a module can hang in its exit handlers
