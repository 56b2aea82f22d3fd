"""Render the screenshots of docs/blender.md headless (Cycles, CPU).

    PYTHONPATH=. ~/.cache/wadkit/bpy-venv-*/bin/python tools/render_blender_screenshots.py docs/img

Imports through the operators and renders: the ENG sample level of
wadkit.samples (textured, vertex colours), the small test level of
tests/blender/levels.py with its collision collection (ground materials),
and the RC2 sample terrain."""
import math
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "blender")]

import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402

import blender_addon  # noqa: E402
import levels  # noqa: E402


def setup_render(path, w=640, h=360):
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = 16
    sc.cycles.use_denoising = True       # OpenImageDenoise: smaller, cleaner PNGs
    sc.render.resolution_x, sc.render.resolution_y = w, h
    sc.render.resolution_percentage = 100
    sc.render.filepath = path
    sc.render.image_settings.file_format = "PNG"
    world = bpy.data.worlds.new("w")
    if world.node_tree is None:        # Blender < 5.0 makes it on use_nodes
        world.use_nodes = True
    bg = next(n for n in world.node_tree.nodes if n.type == "BACKGROUND")
    bg.inputs["Strength"].default_value = 1.0
    bg.inputs["Color"].default_value = (0.6, 0.7, 0.8, 1)
    sc.world = world
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 3.0
    sun.rotation_euler = (math.radians(40), math.radians(20), math.radians(30))
    sc.collection.objects.link(sun)


def camera(loc, target, lens=35):
    cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
    cam.data.lens = lens
    cam.location = loc
    d = Vector(target) - Vector(loc)
    cam.rotation_euler = d.to_track_quat("-Z", "Y").to_euler()
    bpy.context.scene.collection.objects.link(cam)
    bpy.context.scene.camera = cam


def render(out, log=None):
    """Render the scene to out. log: a file that takes Cycles' progress
    lines (hundreds per image) instead of stdout; one summary line is
    printed either way."""
    sc = bpy.context.scene
    sc.render.filepath = out
    t0 = time.perf_counter()
    saved = None
    if log is not None:
        sys.stdout.flush()
        saved = os.dup(1)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(fd, 1)
        os.close(fd)
    try:
        bpy.ops.render.render(write_still=True)
    finally:
        if saved is not None:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
    print(f"{out}: rendered {sc.render.resolution_x}x{sc.render.resolution_y}, "
          f"Cycles CPU, {sc.cycles.samples} samples, {time.perf_counter() - t0:.1f} s"
          + (f" (progress in {log})" if log else ""))


def main(outdir):
    blender_addon.register()
    tmp = tempfile.mkdtemp()
    os.makedirs(outdir, exist_ok=True)

    import wadkit.samples
    samples = wadkit.samples.write_samples(tmp, seed=0)

    # the ENG sample level (wadkit.samples: an island, textured, lit)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=samples["eng"], import_objects=False)
    lc = bpy.context.view_layer.layer_collection.children["sample_eng"]
    lc.children["sample_eng Collision"].exclude = True
    setup_render(os.path.join(outdir, "blender_eng_level.png"))
    camera((-6, -34, 22), (14, -14, 0), lens=30)
    render(os.path.join(outdir, "blender_eng_level.png"))

    # the small level with its collision collection shown in the render
    sp = os.path.join(tmp, "small.wad")
    open(sp, "wb").write(levels.small_level())
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=sp)
    coll = bpy.data.collections["small Collision"]
    coll.hide_render = False
    for ob in coll.objects:
        ob.hide_render = False
        ob.location.z += 0.02           # just above the render faces
    setup_render(os.path.join(outdir, "blender_eng_collision.png"), 640, 360)
    camera((3.2, -3.4, 2.6), (1.0, -1.0, 0.3), lens=30)
    render(os.path.join(outdir, "blender_eng_collision.png"))

    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_rc2(filepath=samples["rc2"])
    setup_render(os.path.join(outdir, "blender_rc2_terrain.png"))
    camera((-30, -30, 60), (64, 64, 0), lens=30)
    render(os.path.join(outdir, "blender_rc2_terrain.png"))
    sys.stdout.flush()
    os._exit(0)   # bpy 4.5's exit handlers can deadlock (tests/blender/conftest.py)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
