"""Time the ENG import against Blender's own OBJ importer on the same mesh.

    PYTHONPATH=. ~/.cache/wadkit/bpy-venv-*/bin/python tools/bench_blender_import.py

Builds the generated realistic level (tests/blender/levels.py), writes its
world mesh (Blender space, UVs, one object per tile) as OBJ, and times
bpy.ops.wm.obj_import of it and bpy.ops.import_scene.wadkit_eng of the WAD,
each in an empty scene, best of 3."""
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "blender")]

import bpy  # noqa: E402

import blender_addon  # noqa: E402
import levels  # noqa: E402
import wadkit  # noqa: E402


def write_obj(path, wm):
    pos = np.asarray(wm["positions"], np.float32)
    tri = wm["triangles"] + 1
    uv = wm["uv"].reshape(-1, 2).copy()
    uv[:, 1] = 1 - uv[:, 1]
    with open(path, "w") as f:
        f.write("".join(f"v {x:.6f} {y:.6f} {z:.6f}\n" for x, y, z in pos))
        f.write("".join(f"vt {u:.6f} {v:.6f}\n" for u, v in uv))
        order = np.argsort(wm["tile"], kind="stable")
        last = None
        for t in order:
            if wm["tile"][t] != last:
                last = wm["tile"][t]
                f.write(f"o tile{last}\nusemtl page{wm['texture'][t] % 8}\n")
            a, b, c = tri[t]
            k = 3 * t + 1
            f.write(f"f {a}/{k} {b}/{k + 1} {c}/{k + 2}\n")


def best(fn, n=3):
    times = []
    for _ in range(n):
        bpy.ops.wm.read_factory_settings(use_empty=True)
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    blender_addon.register()
    d = tempfile.mkdtemp()
    wad, _ = levels.realistic_level(pages=8)
    wad_path = os.path.join(d, "real.wad")
    open(wad_path, "wb").write(wad)
    wm = wadkit.eng.open(wad_path).world_mesh()
    obj_path = os.path.join(d, "real.obj")
    write_obj(obj_path, wm)
    n_tiles = len(np.unique(wm["tile"]))
    print(f"{len(wm['triangles'])} triangles, {n_tiles} tiles, Blender {bpy.app.version_string}")
    t_obj = best(lambda: bpy.ops.wm.obj_import(filepath=obj_path))
    print(f"wm.obj_import (geometry + UVs, no materials/images/colours): {t_obj:.2f} s")
    t_wk = best(lambda: bpy.ops.import_scene.wadkit_eng(filepath=wad_path,
                                                        import_collision=True))
    print(f"import_scene.wadkit_eng (+ materials, 8 images, 2 colour sets, "
          f"collision, objects): {t_wk:.2f} s")
    t_wk2 = best(lambda: bpy.ops.import_scene.wadkit_eng(
        filepath=wad_path, import_collision=False, import_objects=False))
    print(f"import_scene.wadkit_eng without collision/objects: {t_wk2:.2f} s")
    t_wk3 = best(lambda: bpy.ops.import_scene.wadkit_eng(
        filepath=wad_path, import_collision=False, import_objects=False, merge="ZONE"))
    print(f"import_scene.wadkit_eng merged per zone, without collision/objects: "
          f"{t_wk3:.2f} s")
    sys.stdout.flush()
    os._exit(0)        # bpy 4.5's exit handlers can deadlock (tests/blender/conftest.py)


if __name__ == "__main__":
    main()
