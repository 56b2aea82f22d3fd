"""Where the RC2 whole-level import spends its time in Blender, for a
by-hand look (docs/performance-rc2-import.md): File > Import of LEVEL.wad
(defaults) against wm.obj_import of FLAT.obj in the same run, each in
Blender's factory scene, medians of ROUNDS, wall and CPU time (the CPU
time of the process, all threads: less moved by other work on the
machine). Each step of the add-on is timed by wrapping its functions;
"bpy.ops: view-layer updates" is what bpy.ops does around the operator
(the scene evaluated). --cprofile: a cProfile of one import instead (the
25 largest own times). --against DIR: alternate the add-on with the copy
in DIR (a directory holding a `blender_addon` package, e.g. a worktree
of main) round by round, steps not timed.

    <bpy venv>/bin/python tools/profile_blender_rc2_import.py LEVEL.wad FLAT.obj [ROUNDS]
        [--cprofile | --against DIR]

LEVEL.wad and FLAT.obj: build/bench/rc2_world.wad and
build/bench/blender_rc2/flat.obj (`python -m bench --only
blender_rc2_world` writes both). Not a test and not part of make bench:
it prints milliseconds."""
from __future__ import annotations

import collections
import importlib.util
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools")]

import bpy  # noqa: E402

import blender_addon  # noqa: E402
from blender_addon import import_rc2 as I  # noqa: E402
from blender_steps import STEPS, wrap  # noqa: E402


def wrap_all() -> None:
    for owner, name, label in (
            (I._Importer, "_terrain", "terrain (and chunks)"),
            (I._Importer, "_class_meshes", "class meshes, their materials and images"),
            (I._Importer, "_class_collections", "class collections and objects"),
            (I._Importer, "_instance_objects", "instance objects made, linked, placed"),
            (I._Importer, "_sky", "sky"),
            (I._Importer, "_collision", "collision"),
            (I._Importer, "_world", "world"),
            (I, "import_rc2", "import_rc2 (the whole)"),
    ):
        wrap(owner, name, label)
    # what bpy.ops calls before and after an operator (a staticmethod)
    op = type(bpy.ops.import_scene.wadkit_rc2)
    f = op._view_layer_update

    def timed(context):
        t = time.perf_counter()
        f(context)
        STEPS["bpy.ops: view-layer updates"] += time.perf_counter() - t
    op._view_layer_update = staticmethod(timed)


def addon_from(parent: str):
    """The blender_addon package in parent, imported under another name."""
    spec = importlib.util.spec_from_file_location(
        "blender_addon_other", os.path.join(parent, "blender_addon", "__init__.py"),
        submodule_search_locations=[os.path.join(parent, "blender_addon")])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def main(wad: str, obj: str, rounds: int, against: str | None) -> None:
    addons = {"this add-on": blender_addon}
    if against:
        addons[f"add-on of {against}"] = addon_from(against)
    else:
        wrap_all()
    runs = collections.defaultdict(list)

    def timed(label: str, fn) -> None:
        STEPS.clear()
        w, c = time.perf_counter(), time.process_time()
        fn()
        runs[label].append((time.perf_counter() - w, time.process_time() - c))
        for k, v in STEPS.items():
            runs[f"  {label}: {k}"].append((v, float("nan")))

    jobs = [("wm.obj_import", None)] + list(addons.items())
    for r in range(rounds):
        for label, addon in jobs[r % len(jobs):] + jobs[:r % len(jobs)]:
            bpy.ops.wm.read_factory_settings(use_empty=True)
            if addon is None:
                timed(label, lambda: bpy.ops.wm.obj_import(filepath=obj))
                continue
            addon.register()
            timed(label, lambda: bpy.ops.import_scene.wadkit_rc2(filepath=wad))
            addon.unregister()
    base = statistics.median(w for w, _ in runs["wm.obj_import"])
    print(f"bpy {bpy.app.version_string}, {wad}, medians of {rounds}, "
          f"load {os.getloadavg()[0]:.2f} at the end")
    for k, v in runs.items():
        w = statistics.median(x for x, _ in v)
        cpu = [y for _, y in v if y == y]
        tail = f"  cpu {statistics.median(cpu) * 1e3:7.1f} ms" if cpu else ""
        print(f"  {w * 1e3:8.1f} ms ({w / base:.2f}x){tail}  {k}")


def profile(wad: str) -> None:
    import cProfile
    import pstats
    blender_addon.register()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    pr = cProfile.Profile()
    pr.enable()
    bpy.ops.import_scene.wadkit_rc2(filepath=wad)
    pr.disable()
    pstats.Stats(pr).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    try:
        args = [a for a in sys.argv[1:] if not a.startswith("--")]
        if "--cprofile" in sys.argv:
            profile(args[0])
        else:
            other = None
            if "--against" in sys.argv:
                other = sys.argv[sys.argv.index("--against") + 1]
                args.remove(other)
            main(args[0], args[1], int(args[2]) if len(args) > 2 else 5, other)
    finally:
        sys.stdout.flush()
        os._exit(0)      # bpy as a module can hang in its exit handlers
