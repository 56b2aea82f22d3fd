"""Where the RC2 export spends its time in Blender, for a by-hand look
(docs/blender-rc2.md "Speed"): each step of the add-on timed by wrapping
its functions, with wm.obj_export of the same scene in the same run.
Medians of ROUNDS; the unchanged exports first (nothing edited), then
the modified ones (vertices of ten patches and twenty ties moved before
each and the scene evaluated,
as in bench/blender_child_rc2.py). --cprofile: a cProfile of one
unchanged export instead (the 25 largest cumulative entries; with
--modified: of one export after the first edit).

    <bpy venv>/bin/python tools/profile_blender_rc2.py LEVEL.wad [ROUNDS] [--cprofile [--modified]]

LEVEL.wad: e.g. build/bench/rc2_edit.wad (`python -m bench --only
blender_rc2` writes it). Not a test and not part of make bench: it prints
milliseconds, not ratios."""
from __future__ import annotations

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools")]

import bpy  # noqa: E402
import numpy as np  # noqa: E402

from blender_addon import (edit_track, export_rc2, export_rc2_collision,  # noqa: E402
                           export_rc2_instances, export_rc2_terrain)
from blender_steps import Runs, empty, wrap  # noqa: E402

import wadkit  # noqa: E402

def wrap_all(wad: str) -> None:
    for owner, name, label in (
            (export_rc2.wadkit.rc2, "open", "base level opened"),
            (export_rc2, "_Scan", "scan of the collection"),
            (export_rc2, "placements", "placements (matrix_basis)"),
            (export_rc2.Instances, "plan", "instance plan (all)"),
            (export_rc2_instances, "_still", "instance plan: still where imported"),
            (export_rc2.Instances, "_class", "instance plan: class of each object"),
            (export_rc2, "terrain_edit", "terrain (all)"),
            (export_rc2_terrain, "_read", "terrain: mesh read whole"),
            (edit_track, "unchanged", "tracked meshes checked"),
            (export_rc2, "collision_edit", "collision (all)"),
            (export_rc2_collision, "read", "collision: mesh read whole"),
            (export_rc2_collision, "collision_faces", "collision: base faces derived"),
            (export_rc2, "_settings", "settings and world"),
    ):
        if hasattr(owner, name):
            wrap(owner, name, label)
    lvl_type = type(wadkit.rc2.open(wad))
    wrap(lvl_type, "save", "written (save)")
    wrap(lvl_type, "edit", "LevelEdit made")
    for name, label in (("terrain", "lvl.terrain(0)"), ("collision", "lvl.collision()")):
        if hasattr(lvl_type, name):
            wrap(lvl_type, name, label)
    ed_type = type(wadkit.rc2.open(wad).edit())
    wrap(ed_type, "apply", "edits applied (wadkit, C)")


def level(wad: str):
    empty()
    bpy.ops.import_scene.wadkit_rc2(filepath=wad, lod=0)
    root = next(c for c in bpy.data.collections if c.get("wadkit_format") == "rc2")
    (ob,) = [o for o in root.all_objects if o.get("wadkit_kind") == "terrain"]
    ties = sorted((o for o in root.all_objects if o.get("wadkit_kind") == "tie"),
                  key=lambda o: o["wadkit_instance"])
    return ob, ties


def modify(ob, ties, r: int, rng) -> None:
    me = ob.data
    patch = np.empty(len(me.polygons), np.int32)
    me.attributes["wadkit_patch"].data.foreach_get("value", patch)
    for p in rng.choice(int(patch.max()) + 1, 10, replace=False):
        f = int(np.flatnonzero(patch == p)[0])
        me.vertices[me.polygons[f].vertices[0]].co.z += 0.25
    for t in ties[r::max(1, len(ties) // 20)][:20]:
        t.location.z += 0.5


def main(wad: str, rounds: int) -> None:
    work = tempfile.mkdtemp(prefix="wadkit-profile-")
    out_wad, out_obj = os.path.join(work, "o.wad"), os.path.join(work, "o.obj")
    ob, ties = level(wad)
    wrap_all(wad)
    runs = Runs()
    for _ in range(rounds):
        runs.timed("wm.obj_export", lambda: bpy.ops.wm.obj_export(
            filepath=out_obj, export_selected_objects=False, export_materials=False))
        runs.timed("export_scene.wadkit_rc2 (unchanged)",
                   lambda: bpy.ops.export_scene.wadkit_rc2(filepath=out_wad))
        runs.steps()
    rng = np.random.default_rng(1)
    for r in range(rounds):
        modify(ob, ties, r, rng)
        runs.timed("the edit evaluated (view_layer.update, not timed in the bench)",
                   bpy.context.view_layer.update)   # what the viewport does after an edit
        runs.timed("export_scene.wadkit_rc2 (modified)",
                   lambda: bpy.ops.export_scene.wadkit_rc2(filepath=out_wad))
        runs.steps("modified: ")
    runs.print(wad, rounds)

def profile(wad: str, modified: bool) -> None:
    import cProfile
    import pstats
    work = tempfile.mkdtemp(prefix="wadkit-profile-")
    ob, ties = level(wad)
    bpy.ops.export_scene.wadkit_rc2(filepath=os.path.join(work, "w.wad"))
    if modified:
        modify(ob, ties, 0, np.random.default_rng(1))
        bpy.context.view_layer.update()
    pr = cProfile.Profile()
    pr.enable()
    bpy.ops.export_scene.wadkit_rc2(filepath=os.path.join(work, "o.wad"))
    pr.disable()
    pstats.Stats(pr).sort_stats(os.environ.get("WK_SORT", "cumulative")).print_stats(30)


if __name__ == "__main__":
    try:
        args = [a for a in sys.argv[1:] if not a.startswith("--")]
        if "--cprofile" in sys.argv:
            profile(args[0], "--modified" in sys.argv)
        else:
            main(args[0], int(args[1]) if len(args) > 1 else 5)
    finally:
        sys.stdout.flush()
        os._exit(0)      # bpy as a module can hang in its exit handlers
