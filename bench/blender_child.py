"""The Blender rows, run by bench inside Blender's Python (the bpy module
from requirements-blender.txt): import of a generated ENG level through the
add-on's operator against bpy.ops.wm.obj_import of the same mesh written as
OBJ + MTL + PNG pages, and export (unchanged and modified) against
bpy.ops.wm.obj_export of the same scene. Prints one JSON line.

    python bench/blender_child.py ROUNDS LEVEL.wad WORKDIR [modified]

"modified" times the export after moving a vertex of one tile (run on its
own, so the parent can put a time limit on it)."""
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

import wadkit.eng  # noqa: E402


def write_obj(lvl, folder: str) -> str:
    """The level's world mesh as OBJ (per-corner UVs, one material per
    texture page) with its pages as PNG files, file space as-is."""
    m = lvl.world_mesh()
    pages = lvl.pages
    for i, pg in enumerate(pages):
        h, w = pg.rgba.shape[:2]
        img = bpy.data.images.new(f"page_{i:02d}", w, h, alpha=True)
        img.pixels.foreach_set((pg.rgba[::-1].astype(np.float32) / 255).ravel())
        img.filepath_raw = os.path.join(folder, f"page_{i:02d}.png")
        img.file_format = "PNG"
        img.save()
        bpy.data.images.remove(img)
    with open(os.path.join(folder, "level.mtl"), "w") as f:
        f.write("newmtl flat\nKd 1 1 1\n")
        for i in range(len(pages)):
            f.write(f"newmtl page_{i:02d}\nKd 1 1 1\nmap_Kd page_{i:02d}.png\n")
    path = os.path.join(folder, "level.obj")
    pos, tri, uv, page = m["positions"], m["triangles"], m["uv"], m["page"]
    t = len(tri)
    corner_vt = np.arange(1, 3 * t + 1).reshape(t, 3)
    with open(path, "w") as f:
        f.write("mtllib level.mtl\no level\n")
        f.write("".join(f"v {x:.6f} {y:.6f} {z:.6f}\n" for x, y, z in pos))
        f.write("".join(f"vt {u:.6f} {1 - v:.6f}\n" for u, v in uv.reshape(-1, 2)))
        order = np.argsort(page, kind="stable")
        current = None
        for k in order:
            if page[k] != current:
                current = page[k]
                f.write("usemtl " + ("flat" if current < 0 else f"page_{current:02d}") + "\n")
            a, b, c = tri[k] + 1
            va, vb, vc = corner_vt[k]
            f.write(f"f {a}/{va} {b}/{vb} {c}/{vc}\n")
    return path


def empty():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    import blender_addon
    try:
        blender_addon.register()
    except ValueError:
        pass                                  # already registered


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def empty_objects(n: int) -> None:
    """What n objects cost Blender itself, whatever the add-on does: n
    empty meshes and objects made (in the order Blender inserts fastest,
    blender_addon.build.new_ids, as the import makes them), linked, and the
    scene evaluated once (the view-layer update bpy.ops runs after every
    operator)."""
    from blender_addon.build import new_ids
    meshes = new_ids(bpy.data.meshes, [f"m{i}" for i in range(n)])
    obs = new_ids(bpy.data.objects, [f"o{i}" for i in range(n)], meshes)
    coll = bpy.data.collections.new("floor")
    for ob in obs:
        coll.objects.link(ob)
    bpy.context.scene.collection.children.link(coll)
    bpy.context.view_layer.update()


def modified(wad_path: str, workdir: str, merge: str = "TILE", rounds: int = 9) -> None:
    """Export after moving one vertex of one tile (merge "TILE": of a tile
    object; "ZONE": of a zone mesh, the default import's; median of rounds,
    each after a new move of the same vertex)."""
    from blender_addon.export_eng import export_eng
    empty()
    bpy.ops.import_scene.wadkit_eng(filepath=wad_path, merge=merge)
    key = "wadkit_tile" if merge == "TILE" else "wadkit_zone"
    tile = next(o for o in bpy.data.objects if o.type == "MESH" and len(o.data.vertices)
                and key in o)
    out_wad = os.path.join(workdir, "modified.wad")
    out_obj = os.path.join(workdir, "modified.obj")
    # as for the unchanged row (which follows obj_export): the scene has
    # been evaluated once before the timed exports
    bpy.context.view_layer.update()
    times, obj_times = [], []
    for k in range(rounds):
        tile.data.vertices[0].co.z += 0.25
        tile.data.update()
        # Blender evaluates an edit right after it in the UI, before one can
        # click Export (and the RC2 row does the same): not the export's time
        bpy.context.view_layer.update()
        times.append(timed(lambda: bpy.ops.export_scene.wadkit_eng(filepath=out_wad)))
        # obj_export of the same edited scene, side by side in this process
        obj_times.append(timed(lambda: bpy.ops.wm.obj_export(filepath=out_obj)))
    how, _ = export_eng(bpy.context, out_wad)
    with open(wad_path, "rb") as f, open(out_wad, "rb") as g:
        a, b = f.read(), g.read()
    print(json.dumps({"export_modified": statistics.median(times),
                      "obj_export": statistics.median(obj_times), "changed": a != b,
                      "how": how, "growth": len(b) / len(a) - 1, "rounds": rounds}))
    sys.stdout.flush()
    os._exit(0)


def main(rounds: int, wad_path: str, workdir: str) -> None:
    os.makedirs(workdir, exist_ok=True)
    empty()
    obj = write_obj(wadkit.eng.open(wad_path), workdir)
    out_wad = os.path.join(workdir, "out.wad")
    out_obj = os.path.join(workdir, "out.obj")
    res = {k: [] for k in ("import", "import_tile", "import_zone", "export_zone",
                           "import_coll", "obj_import", "export", "obj_export",
                           "empty_objects")}
    n_tiles = 0
    for _ in range(rounds):
        empty()
        res["obj_import"].append(timed(lambda: bpy.ops.wm.obj_import(filepath=obj)))
        empty()
        res["import_zone"].append(timed(lambda: bpy.ops.import_scene.wadkit_eng(
            filepath=wad_path, merge="ZONE", import_collision=False,
            import_objects=False)))
        res["export_zone"].append(timed(lambda: bpy.ops.export_scene.wadkit_eng(
            filepath=out_wad)))
        empty()
        res["import_coll"].append(timed(lambda: bpy.ops.import_scene.wadkit_eng(
            filepath=wad_path, merge="TILE", import_collision=True)))
        empty()
        res["import"].append(timed(lambda: bpy.ops.import_scene.wadkit_eng(filepath=wad_path)))
        n_default = len(bpy.data.objects)
        empty()
        res["import_tile"].append(timed(lambda: bpy.ops.import_scene.wadkit_eng(
            filepath=wad_path, merge="TILE")))
        n_obj = len(bpy.data.objects)
        n_mesh = len(bpy.data.meshes)
        n_tiles = sum(1 for o in bpy.data.objects if "wadkit_tile" in o)
        res["obj_export"].append(timed(lambda: bpy.ops.wm.obj_export(filepath=out_obj)))
        res["export"].append(timed(lambda: bpy.ops.export_scene.wadkit_eng(filepath=out_wad)))
        empty()
        res["empty_objects"].append(timed(lambda: empty_objects(n_tiles)))
    out = {k: statistics.median(v) for k, v in res.items()}
    out["objects"] = n_obj
    out["objects_default"] = n_default
    out["meshes"] = n_mesh
    out["tiles"] = n_tiles
    out["blender"] = bpy.app.version_string
    print(json.dumps(out))
    sys.stdout.flush()
    os._exit(0)        # bpy as a module can hang in its exit handlers


if __name__ == "__main__":
    try:
        if sys.argv[4:5] == ["modified"]:
            modified(sys.argv[2], sys.argv[3], sys.argv[5] if len(sys.argv) > 5 else "TILE")
        main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
    except Exception as e:                # report it; never hang in bpy's exit
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        sys.stdout.flush()
        os._exit(1)
