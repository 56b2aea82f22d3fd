"""The RC2 whole-level Blender rows, run inside Blender's Python: File >
Import > R&C2 of the generated level (defaults; and linked duplicates)
against bpy.ops.wm.obj_import of the same geometry flattened, and the
cost of as many empty objects as the level has instances. Prints one
JSON line.

    python bench/blender_child_rc2_world.py ROUNDS LEVEL.wad FLAT.obj"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import bpy  # noqa: E402


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def empties(n: int) -> None:
    coll = bpy.data.collections.new("floor")
    for i in range(n):
        coll.objects.link(bpy.data.objects.new(f"e{i:05d}", None))
    bpy.context.scene.collection.children.link(coll)
    bpy.context.view_layer.update()


def main() -> None:
    rounds, wad, obj = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    import blender_addon
    blender_addon.register()
    res = {"import": [], "import_linked": [], "obj_import": [], "empties": []}
    n_obj = n_inst = 0
    for _ in range(rounds):
        bpy.ops.wm.read_factory_settings(use_empty=True)
        res["obj_import"].append(timed(lambda: bpy.ops.wm.obj_import(filepath=obj)))
        bpy.ops.wm.read_factory_settings(use_empty=True)
        res["import"].append(timed(lambda: bpy.ops.import_scene.wadkit_rc2(filepath=wad)))
        n_obj = len(bpy.data.objects)
        n_inst = sum(1 for o in bpy.data.objects if "wadkit_instance" in o)
        bpy.ops.wm.read_factory_settings(use_empty=True)
        res["import_linked"].append(timed(lambda: bpy.ops.import_scene.wadkit_rc2(
            filepath=wad, instancing="LINKED")))
        bpy.ops.wm.read_factory_settings(use_empty=True)
        res["empties"].append(timed(lambda: empties(n_inst)))
    out = {k: statistics.median(v) for k, v in res.items()}
    out.update(blender=bpy.app.version_string, objects=n_obj, instances=n_inst)
    print(json.dumps(out))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # reported to the parent, which skips the rows
        import traceback
        print(json.dumps({"error": traceback.format_exc() or str(e)}))
    sys.stdout.flush()
    os._exit(0)
