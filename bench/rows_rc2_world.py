"""The whole RC2 level rows (issue 16): a generated level of 800 patches,
40 tie classes / 2,000 ties, 2,000 shrubs, 200 mobys and a ~20,000-face
collision (tests/builders/rc2_world.py, shaped class meshes) converted
to .glb, and imported into Blender against wm.obj_import of the same
geometry flattened (bench/blender_child_rc2_world.py)."""
from __future__ import annotations

import json
import os
import subprocess
import time

from . import inputs  # noqa: F401  (puts tests/ on sys.path)
from .harness import Row, median_times

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONVERT = "RC2 whole level → .glb (collision, sky)"
BLENDER = ("Blender RC2 whole-level import vs obj_import",
           "Blender RC2 import, linked duplicates vs obj_import",
           "Blender: one empty object per instance vs obj_import")
BUDGET = 1.0          # seconds: the "converts to .glb in < 1 s"


def level_path(workdir: str, quick: bool) -> tuple[str, dict]:
    from builders import rc2_world as W
    size = dict(patches=20, ties=60, shrubs=60, mobys=20, collision_side=20) if quick \
        else dict(patches=800, ties=2000, shrubs=2000, mobys=200, collision_side=142)
    path = os.path.join(workdir, "rc2_world_quick.wad" if quick else "rc2_world.wad")
    data, facts = W.world(**size)
    os.makedirs(workdir, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path, {k: facts[k] for k in ("patches", "terrain_triangles", "ties", "shrubs",
                                        "mobys", "collision_faces")}


def convert_row(rounds: int, quick: bool, workdir: str) -> Row:
    import wadkit
    from wadkit import export
    path, facts = level_path(workdir, quick)
    out = os.path.join(workdir, "rc2_world.glb")

    def convert():
        return export.export_level(wadkit.rc2.open(path), out, collision=True, sky=True)
    s = convert()
    (t,) = median_times([convert], max(3, rounds // 2))
    return Row(CONVERT, "wadkit.rc2.open + export.export_level(collision, sky)",
               "the issue's budget of 1 s", t, BUDGET, ratio=t / BUDGET, target=1,
               kind="max",
               note=(f"{facts['patches']} patches, {facts['ties']} ties, {facts['shrubs']} "
                     f"shrubs, {facts['mobys']} mobys, {facts['collision_faces']} collision "
                     f"faces: {s['triangles']:,} triangles drawn, "
                     f"{os.path.getsize(out) / 1e6:.1f} MB .glb"),
               extra={"input": facts}).judge()


def blender_rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    from .rows_blender import _bpy_python
    exe = _bpy_python()
    if exe is None:
        return skipped("no bpy venv (make test-blender makes it)")
    import wadkit
    from wadkit import export
    path, facts = level_path(workdir, quick)
    work = os.path.join(workdir, "blender_rc2")
    os.makedirs(work, exist_ok=True)
    obj = os.path.join(work, "flat.obj")
    t0 = time.perf_counter()
    scene = export.rc2_scene(wadkit.rc2.open(path), collision=True, sky=True)
    export.write_obj(one_mesh(scene), obj)
    env = dict(os.environ, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS="1")
    try:
        out = subprocess.run([exe, os.path.join(ROOT, "bench", "blender_child_rc2_world.py"),
                              str(1 if quick else max(3, rounds // 2)), path, obj],
                             capture_output=True, text=True, env=env, timeout=900)
        line = next(x for x in reversed(out.stdout.splitlines()) if x.startswith("{"))
        r = json.loads(line)
        if "error" in r:
            raise RuntimeError(r["error"].strip().splitlines()[-1])
    except (StopIteration, RuntimeError, subprocess.TimeoutExpired) as e:
        return skipped(f"Blender run failed: {e}")
    note = (f"{r['objects']} objects ({r['instances']} instances), bpy {r['blender']}; "
            f"the OBJ: the same {scene.triangle_count:,} triangles flattened into one object "
            f"(MTL + PNG textures written in {time.perf_counter() - t0:.1f} s)")
    return [
        Row(BLENDER[0], "import_scene.wadkit_rc2 (defaults: every part, collection "
            "instances)", "wm.obj_import", r["import"], r["obj_import"],
            ratio=r["import"] / r["obj_import"], target=1, kind="max", note=note).judge(),
        Row(BLENDER[1], "import_scene.wadkit_rc2(instancing='LINKED')", "wm.obj_import",
            r["import_linked"], r["obj_import"], ratio=r["import_linked"] / r["obj_import"],
            kind="report", note="instances as objects sharing the class mesh").judge(),
        Row(BLENDER[2], f"{r['instances']} empties made, linked and evaluated once",
            "wm.obj_import", r["empties"], r["obj_import"],
            ratio=r["empties"] / r["obj_import"], kind="report",
            note="Blender's own cost of one object per instance: the floor of the "
                 "first row").judge()]


def one_mesh(scene):
    """The scene as ONE mesh (instances flattened, every layer's triangles
    in one group, UVs and colours filled in where a layer has none), its
    materials kept: what wm.obj_import reads as one object."""
    import numpy as np
    from wadkit.export import Layer, Scene
    layers = scene.layers + [i.flattened() for i in scene.instanced]
    pos, tri, uv, col, mat, base = [], [], [], [], [], 0
    for layer in layers:
        m = layer.mesh
        t = np.asarray(m["triangles"], np.int64)
        if not len(t):
            continue
        pos.append(np.asarray(m["positions"], np.float32))
        tri.append(t + base)
        base += len(pos[-1])
        uv.append(np.asarray(m.get("uv", np.zeros((len(t), 3, 2))), np.float32))
        col.append(np.asarray(m.get("color", np.ones((len(t), 3, 4))), np.float32))
        mat.append(np.asarray(m["material"], np.int64))
    mesh = {"positions": np.concatenate(pos), "triangles": np.concatenate(tri),
            "uv": np.concatenate(uv), "color": np.concatenate(col),
            "material": np.concatenate(mat), "group": np.zeros(base and sum(map(len, tri)),
                                                               np.int64)}
    return Scene(layers=[Layer("level", "level", mesh)], materials=scene.materials,
                 images=scene.images)


def skipped(why: str) -> list[Row]:
    return [Row(n, "", "", target=1, kind="max" if i == 0 else "report", skipped=why)
            for i, n in enumerate(BLENDER)]
