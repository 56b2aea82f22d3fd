"""Render docs/img/blender_eng_materials.png headless (Cycles, CPU): the ENG
sample level edited through materials and painting, exported, and the
exported WAD imported again — what the file now holds.

    PYTHONPATH=. ~/.cache/wadkit/bpy-venv-*/bin/python tools/render_material_screenshot.py docs/img

Edits (docs/blender.md "Materials, texture pages and painting"): the grass
faces (page 0) of a few tiles get the level's material of another page;
those of a few tiles beside them a new material on a loaded (generated)
checker image, which becomes a new page; a grid of yellow lines is painted
into the image of page 3 (the crates; an RLE page). Uses the render helpers of
tools/render_blender_screenshots.py."""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools")]

import bpy  # noqa: E402
import numpy as np  # noqa: E402

import blender_addon  # noqa: E402
from blender_addon import materials  # noqa: E402
from blender_addon.export_eng import export_eng  # noqa: E402
from render_blender_screenshots import camera, render, setup_render  # noqa: E402

# Blender x/y boxes of the tiles edited: the level's material of another
# page on the left, the new checker material on the right
REASSIGNED = ((7.0, 10.0), (-22.0, -19.0))
CHECKERED = ((11.0, 14.0), (-22.0, -19.0))


def tiles_in(name, box):
    (x0, x1), (y0, y1) = box
    return [o for o in bpy.data.collections[name].objects if "wadkit_tile" in o
            and x0 <= o.location.x <= x1 and y0 <= o.location.y <= y1]


def faces_on(ob, name):
    return [p.index for p in ob.data.polygons
            if ob.material_slots[p.material_index].material.name == name]


def assign(ob, mat, faces):
    me = ob.data
    if mat.name not in [m.name for m in me.materials]:
        me.materials.append(mat)
    k = [m.name for m in me.materials].index(mat.name)
    for f in faces:
        me.polygons[f].material_index = k


def checker_material(name):
    n = 64
    y, x = np.mgrid[0:n, 0:n]
    on = ((x // 8 + y // 8) % 2).astype(bool)
    rgba = np.where(on[..., None], [0.95, 0.85, 0.2, 1.0], [0.15, 0.35, 0.9, 1.0])
    img = bpy.data.images.new(name, n, n, alpha=True)
    img.pixels.foreach_set(rgba.astype(np.float32).reshape(-1))
    mat = bpy.data.materials.new(name)
    nodes = materials._node_tree(mat).nodes
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = img
    tex.interpolation = "Closest"
    bsdf = next(nd for nd in nodes if nd.type == "BSDF_PRINCIPLED")
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    return mat


def paint_grid(img, step=16, width=2):
    w, h = img.size
    px = np.empty(w * h * 4, np.float32)
    img.pixels.foreach_get(px)
    px = px.reshape(h, w, 4)
    lines = (np.arange(w) % step) < width
    px[lines, :] = [1.0, 0.9, 0.1, 1.0]
    px[:, lines] = [1.0, 0.9, 0.1, 1.0]
    img.pixels.foreach_set(px.reshape(-1))


def main(outdir):
    blender_addon.register()
    tmp = tempfile.mkdtemp()
    os.makedirs(outdir, exist_ok=True)
    import wadkit.samples
    src = wadkit.samples.write_samples(tmp, seed=0)["eng"]

    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=src, import_objects=False)
    name = "sample_eng"
    page0 = f"{name} page 00 b0"
    other = next(m for m in bpy.data.materials
                 if m.name.startswith(f"{name} page ") and m.name.endswith(" b0")
                 and m.name != page0 and m.name != f"{name} page 03 b0")
    for ob in tiles_in(name, REASSIGNED):
        assign(ob, other, faces_on(ob, page0))
    checker = checker_material("checker")
    for ob in tiles_in(name, CHECKERED):
        assign(ob, checker, faces_on(ob, page0))
    paint_grid(bpy.data.images[f"{name} page 03"])
    out = os.path.join(tmp, "edited.wad")
    bpy.context.view_layer.update()
    how, notes = export_eng(bpy.context, out)
    print("export:", how)
    for n in notes:
        print("  note:", n)

    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=out, import_objects=False)
    png = os.path.join(outdir, "blender_eng_materials.png")
    setup_render(png, 640, 360)
    camera((6.0, -29.0, 8.0), (10.5, -20.5, 2.0), lens=32)
    render(png)
    sys.stdout.flush()
    os._exit(0)   # bpy 4.5's exit handlers can deadlock (tests/blender/conftest.py)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
