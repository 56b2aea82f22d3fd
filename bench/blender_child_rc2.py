"""The RC2 Blender export rows, run inside Blender's Python: the generated
800-patch level imported through the add-on, then File > Export > R&C2
level (unchanged, and after moving vertices of ten patches and twenty
ties) against bpy.ops.wm.obj_export of the same scene. Prints one JSON
line.

    python bench/blender_child_rc2.py ROUNDS LEVEL.wad WORKDIR"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import bpy  # noqa: E402
import numpy as np  # noqa: E402


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    rounds, wad, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    import blender_addon
    blender_addon.register()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_rc2(filepath=wad, lod=0)
    root = next(c for c in bpy.data.collections if c.get("wadkit_format") == "rc2")
    (ob,) = [o for o in root.all_objects if o.get("wadkit_kind") == "terrain"]
    ties = sorted((o for o in root.all_objects if o.get("wadkit_kind") == "tie"),
                  key=lambda o: o["wadkit_instance"])
    out_wad, out_obj = os.path.join(work, "rc2_out.wad"), os.path.join(work, "rc2.obj")
    res = {"export": [], "modified": [], "obj_export": []}
    me = ob.data
    patch = np.empty(len(me.polygons), np.int32)
    me.attributes["wadkit_patch"].data.foreach_get("value", patch)
    rng = np.random.default_rng(1)
    for r in range(rounds):
        bpy.context.view_layer.objects.active = ob
        res["obj_export"].append(timed(lambda: bpy.ops.wm.obj_export(
            filepath=out_obj, export_selected_objects=False, export_materials=False)))
        res["export"].append(timed(lambda: bpy.ops.export_scene.wadkit_rc2(filepath=out_wad)))
        for p in rng.choice(int(patch.max()) + 1, 10, replace=False):
            f = int(np.flatnonzero(patch == p)[0])
            v = me.polygons[f].vertices[0]
            me.vertices[v].co.z += 0.25
        for t in ties[r::max(1, len(ties) // 20)][:20]:
            t.location.z += 0.5
        res["modified"].append(timed(lambda: bpy.ops.export_scene.wadkit_rc2(filepath=out_wad)))
    out = {k: statistics.median(v) for k, v in res.items()}
    out.update(blender=bpy.app.version_string, faces=len(me.polygons), ties=len(ties),
               objects=len(root.all_objects))
    print(json.dumps(out))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # reported to the parent, which skips the rows
        import traceback
        print(json.dumps({"error": traceback.format_exc() or str(e)}))
    sys.stdout.flush()
    os._exit(0)
