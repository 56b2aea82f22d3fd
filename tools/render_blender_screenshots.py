"""Render the screenshots of docs/blender.md headless (Cycles, CPU).

    PYTHONPATH=. ~/.cache/wadkit/bpy-venv-*/bin/python tools/render_blender_screenshots.py docs/img
    ... render_blender_screenshots.py docs/img rc2_level   # only that one

Imports through the operators and renders: the ENG sample level of
wadkit.samples (textured, vertex colours), the small test level of
tests/blender/levels.py with its collision collection (ground materials),
the RC2 sample terrain, the whole RC2 sample level (ties, shrubs, mobys,
sky, collision), and the editing workflow of docs/blender.md on the
from-spec terrain level (tests/builders/eng_terrain.py): import, tile
edits, a collision edit, a new object, and the exported level imported
again."""
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
    bpy.ops.import_scene.wadkit_eng(filepath=sp, show_collision=True)
    coll = bpy.data.collections["small Collision"]
    coll.hide_render = False
    for ob in coll.objects:
        ob.hide_render = False
        ob.location.z += 0.02           # just above the render faces
    setup_render(os.path.join(outdir, "blender_eng_collision.png"), 640, 360)
    camera((3.2, -3.4, 2.6), (1.0, -1.0, 0.3), lens=30)
    render(os.path.join(outdir, "blender_eng_collision.png"))

    bpy.ops.wm.read_factory_settings(use_empty=True)
    # the terrain alone (the sample's sky dome would hide it from out here)
    bpy.ops.import_scene.wadkit_rc2(filepath=samples["rc2"], import_ties=False,
                                    import_shrubs=False, import_mobys=False,
                                    import_sky=False, import_collision=False)
    setup_render(os.path.join(outdir, "blender_rc2_terrain.png"))
    camera((-30, -30, 60), (64, 64, 0), lens=30)
    render(os.path.join(outdir, "blender_rc2_terrain.png"))
    rc2_level(outdir, samples["rc2"])
    editing(outdir, tmp)
    sys.stdout.flush()
    os._exit(0)   # bpy 4.5's exit handlers can deadlock (tests/blender/conftest.py)


def rc2_level(outdir, path):
    """The whole RC2 sample level (wadkit.samples, docs/samples.md):
    terrain, ties, shrubs, mobys (empties), the sky around it and the
    collision as wire."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_rc2(filepath=path)
    name = os.path.splitext(os.path.basename(path))[0]
    out = os.path.join(outdir, "blender_rc2_level.png")
    setup_render(out, 800, 450)
    for ob in bpy.data.collections[f"{name} Sky"].objects:
        ob.visible_shadow = False         # the dome must not shade the sun
    _show_collision(name)
    for ob in bpy.data.collections[f"{name} Collision"].objects:
        ob.location.z += 0.03             # just above the terrain
    camera((6, -4, 22), (60, 58, -2), lens=24)   # inside the dome
    render(out)


def _show_collision(name):
    """Collision children drawn in renders: a thin wire in a bright colour
    (only for the pictures; the import makes them wire, not rendered)."""
    mat = bpy.data.materials.get("shot wire") or bpy.data.materials.new("shot wire")
    red = (0.7, 0.02, 0.01, 1)
    mat.diffuse_color = red
    if mat.node_tree is None:
        mat.use_nodes = True
    bsdf = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    bsdf.inputs["Base Color"].default_value = red
    bsdf.inputs["Emission Color"].default_value = red
    bsdf.inputs["Emission Strength"].default_value = 1.0
    coll = bpy.data.collections[f"{name} Collision"]
    coll.hide_render = False
    for ob in coll.objects:
        ob.hide_render = False
        if not ob.modifiers:
            w = ob.modifiers.new("wire", "WIREFRAME")
            w.thickness = 0.006
            w.material_offset = len(ob.data.materials)
            if mat.name not in ob.data.materials:
                ob.data.materials.append(mat)


def editing(outdir, tmp):
    """The editing workflow of docs/blender.md, step by step."""
    import numpy as np
    from builders import eng_terrain
    import wadkit
    from blender_addon import convert
    wad, _ = eng_terrain.terrain_level(grid=6)
    src_path = os.path.join(tmp, "terrain.wad")
    open(src_path, "wb").write(wad)
    src = wadkit.eng.open(src_path)

    def shot(name, loc=(7.0, -7.5, 4.5), target=(3.0, -3.0, 0.2)):
        setup_render(os.path.join(outdir, name), 640, 360)
        camera(loc, target, lens=30)
        render(os.path.join(outdir, name))

    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=src_path, show_collision=True)
    _show_collision("terrain")
    shot("blender_edit_1_import.png")

    # tiles: one raised and turned a quarter, one crate copied (Alt+D) onto
    # the water, one tile deleted with its collision
    obs = bpy.data.objects
    t_turn, t_del = 8, 15
    obs[f"terrain tile {t_turn}"].location.z += 0.6
    obs[f"terrain tile {t_turn}"].rotation_euler.z += math.pi / 2
    gone = obs[f"terrain tile {t_del}"]
    for ch in list(gone.children):
        obs.remove(ch)
    obs.remove(gone)
    crate = next(o for o in obs if "wadkit_tile" in o and o.data.name.startswith(
        "terrain model 17"))
    copy = crate.copy()                          # a linked duplicate (shared mesh)
    bpy.data.collections["terrain"].objects.link(copy)
    for ch in crate.children:
        c2 = ch.copy()
        c2.parent = copy
        bpy.data.collections["terrain Collision"].objects.link(c2)
    copy.location = (0.5, -2.5, 0.3)
    # a collision face of a tile raised 0.2 (its render mesh left as it was)
    ch = obs["terrain tile 9 collision"]
    for i in ch.data.polygons[12].vertices:
        ch.data.vertices[i].co.z += 0.2
    shot("blender_edit_2_tiles.png")

    # a new object: a deck with a level material and a child named "... collision"
    me = bpy.data.meshes.new("deck")
    me.from_pydata([(-0.4, -0.4, 0), (0.4, -0.4, 0), (0.4, 0.4, 0), (-0.4, 0.4, 0)], [],
                   [(0, 1, 2, 3)])
    me.uv_layers.new().data.foreach_set("uv", [0, 0, 1, 0, 1, 1, 0, 1])
    me.color_attributes.new("Col", "FLOAT_COLOR", "POINT").data.foreach_set(
        "color", [0.8] * 16)                 # the level's materials multiply it in
    me.materials.append(crate.material_slots[0].material)   # a level material
    deck = bpy.data.objects.new("deck", me)
    deck.location = (5.5, -0.5, 1.2)
    bpy.data.collections["terrain"].objects.link(deck)
    dc = bpy.data.objects.new("deck collision", me.copy())
    dc.parent = deck
    bpy.data.collections["terrain"].objects.link(dc)
    dc.display_type = "WIRE"
    dc.hide_render = True
    shot("blender_edit_3_new.png", loc=(8.5, -4.5, 4.0), target=(4.5, -1.5, 0.6))

    out = os.path.join(tmp, "edited.wad")
    bpy.ops.export_scene.wadkit_eng(filepath=out)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=out, show_collision=True)
    _show_collision("edited")
    shot("blender_edit_4_reimport.png")
    new = wadkit.eng.open(out)
    print(f"edited level: {len(src.tiles.model)} -> {len(new.tiles.model)} tiles, "
          f"{len(src.models)} -> {len(new.models)} models; {len(wad)} -> "
          f"{os.path.getsize(out)} bytes")
    del np, convert


if __name__ == "__main__":
    if sys.argv[2:3] == ["rc2_level"]:        # that picture alone
        blender_addon.register()
        import wadkit.samples
        rc2_level(sys.argv[1], wadkit.samples.write_samples(tempfile.mkdtemp())["rc2"])
        sys.stdout.flush()
        os._exit(0)
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
