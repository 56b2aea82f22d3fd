"""The pictures and export summaries of docs/blender-workflow.md.

    PYTHONPATH=. ~/.cache/wadkit/bpy-venv-<hash>/bin/python tools/doc_pictures.py [docs/images]

(the venv with bpy 4.5: `ls ~/.cache/wadkit/bpy-venv-*/lib/python*/site-packages
| grep bpy`; tools/bpy-venv.sh makes one). The level is the from-spec terrain
level of tests/builders/eng_terrain.py (`terrain_level(grid=6)`, the editing
tests' level), written to a temp dir; no game data. Each step is a function
taking the scene and the state of the run; it edits the scene through bpy,
exports the level and returns the export's summary line. Rendering
(Cycles, CPU) is separate: tests/blender/test_doc_workflow.py runs the steps
without it and compares the summaries with those the page quotes. The run
prints one `Export summary (<step>): `...`` line per step, the form the page
quotes them in."""
from __future__ import annotations

import math
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402

NAME = "terrain"
TILE_MOVED, TILE_COPIED, TILE_COLLISION, TILE_PAINTED = 8, 14, 9, 20


def write_level(tmp) -> str:
    from builders import eng_terrain
    wad, _ = eng_terrain.terrain_level(grid=6)
    path = os.path.join(tmp, f"{NAME}.wad")
    with open(path, "wb") as f:
        f.write(wad)
    return path


def _count(coll) -> int:
    return sum(len(c.objects) for c in (coll, *coll.children_recursive))


def _select(*obs):
    for o in bpy.context.view_layer.objects:
        o.select_set(o in obs)
    if obs:
        bpy.context.view_layer.objects.active = obs[0]


def export(state, step) -> str:
    """Export the scene to a file of its own; the summary line the
    operator reports ("wrote <file> (<summary>)")."""
    from blender_addon.export_eng import export_eng
    out = os.path.join(state["tmp"], f"{step}.wad")
    bpy.context.view_layer.update()
    how, notes = export_eng(bpy.context, out)
    state["out"] = out
    state.setdefault("notes", {})[step] = notes
    return how


def tile(n):
    return bpy.data.objects[f"{NAME} tile {n}"]


# -- the steps (each: the scene, the run's state -> the export's summary) --

def step_import(scene, state) -> str:
    """1. File > Import > Croc-engine level, per-tile objects."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    assert bpy.ops.import_scene.wadkit_eng(filepath=state["path"], merge="TILE") == {"FINISHED"}
    state["objects"] = _count(bpy.data.collections[NAME])
    return export(state, "import")


def step_move(scene, state) -> str:
    """2. Move a tile up and turn it a quarter about Z (G, R Z 90)."""
    ob = tile(TILE_MOVED)
    ob.location.z += 0.6
    ob.rotation_euler.z += math.pi / 2
    return export(state, "move")


def step_copy(scene, state) -> str:
    """3. Copy a tile (Shift+D) and move the copy onto the water."""
    _select(tile(TILE_COPIED))
    assert bpy.ops.object.duplicate() == {"FINISHED"}
    copy = bpy.context.view_layer.objects.active
    copy.location = (0.5, -2.5, copy.location.z + 0.8)
    return export(state, "copy")


def step_collision(scene, state) -> str:
    """4. Build collision for one tile, raise one of its collision vertices."""
    ob = tile(TILE_COLLISION)
    _select(ob)
    assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}
    (ch,) = [c for c in ob.children if "wadkit_collision" in c]
    v = ch.data.vertices[12]
    v.co.z += 0.4
    state["collision"] = ch.name
    return export(state, "collision")


def step_paint(scene, state) -> str:
    """5. Recolour a tile: its colour attribute set to warm red."""
    ob = tile(TILE_PAINTED)
    ob.data = ob.data.copy()          # Make Single User: this tile alone
    col = ob.data.color_attributes.active_color
    n = len(col.data)
    col.data.foreach_set("color", [1.0, 0.25, 0.1, 1.0] * n)
    return export(state, "paint")


def step_cube(scene, state) -> str:
    """6. A new cube with a level material, in the level collection."""
    coll = bpy.data.collections[NAME]
    mat = tile(TILE_MOVED).material_slots[0].material
    bpy.ops.mesh.primitive_cube_add(size=0.6, location=(4.5, -1.5, 1.0))
    cube = bpy.context.view_layer.objects.active
    for c in list(cube.users_collection):
        c.objects.unlink(cube)
    coll.objects.link(cube)
    cube.data.materials.append(mat)
    # the level's materials multiply the colour attribute in: without one
    # the cube renders black in Blender
    cube.data.color_attributes.new("Col", "FLOAT_COLOR", "POINT").data.foreach_set(
        "color", [0.8] * 4 * len(cube.data.vertices))
    state["material"] = mat.name
    return export(state, "cube")


def step_reimport(scene, state) -> str:
    """7. The written file imported again (the edits are in it); its
    export unchanged."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    path = os.path.join(state["tmp"], "edited.wad")
    os.replace(state["out"], path)
    assert bpy.ops.import_scene.wadkit_eng(filepath=path, merge="TILE") == {"FINISHED"}
    state["reimported"] = os.path.splitext(os.path.basename(path))[0]
    state["out_objects"] = _count(bpy.data.collections[state["reimported"]])
    return export(state, "reimport")


def step_zones(scene, state) -> str:
    """A per-zone import: one object per zone."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    assert bpy.ops.import_scene.wadkit_eng(filepath=state["path"], merge="ZONE") == {"FINISHED"}
    coll = bpy.data.collections[NAME]
    state["zones"] = len([o for o in coll.objects if "wadkit_zone" in o])
    return export(state, "zones")


def step_make_tiles(scene, state) -> str:
    """Make tile objects of one zone object's tiles; move one of them."""
    coll = bpy.data.collections[NAME]
    zone = max((o for o in coll.objects if "wadkit_zone" in o),
               key=lambda o: len(o.data.polygons))
    _select(zone)
    assert bpy.ops.wadkit.eng_make_tiles() == {"FINISHED"}
    made = list(bpy.context.selected_objects)
    state["made"] = len(made)
    made[0].location.z += 0.6
    state["made_moved"] = made[0].name
    return export(state, "make_tiles")


WORKFLOW = [step_import, step_move, step_copy, step_collision, step_paint, step_cube,
            step_reimport]
ZONES = [step_zones, step_make_tiles]


def run(tmp, after=None) -> tuple[dict, dict]:
    """Run every step on a level written to tmp; after(name, state): called
    after each step (the renders). The add-on must be registered. Returns
    (summaries by step name, state)."""
    state = {"tmp": tmp, "path": write_level(tmp)}
    out = {}
    for fn in WORKFLOW + ZONES:
        name = fn.__name__[5:]
        out[name] = fn(bpy.context.scene, state)
        if after is not None:
            after(name, state)
    return out, state


def facts_quoted(state) -> dict:
    """The counts of the run the page quotes besides the summaries."""
    return {"import": f"imported {NAME}: {state['objects']} objects",
            "reimport": f"imported edited: {state['out_objects']} objects",
            "zones": f"{state['zones']} zone objects",
            "make_tiles": f"{NAME}: {state['made']} tile object(s) made",
            "cube_notes": str(len(state["notes"]["cube"])),
            "notes_elsewhere": str(sum(len(v) for k, v in state["notes"].items()
                                       if k != "cube"))}


# -- rendering (not run by the test) --

def _look(loc, target, lens=30):
    sc = bpy.context.scene
    cam = bpy.data.objects.new("doc cam", bpy.data.cameras.new("doc cam"))
    cam.data.lens = lens
    cam.location = loc
    cam.rotation_euler = (Vector(target) - Vector(loc)).to_track_quat("-Z", "Y").to_euler()
    sc.collection.objects.link(cam)
    sc.camera = cam
    sun = bpy.data.objects.new("doc sun", bpy.data.lights.new("doc sun", "SUN"))
    sun.data.energy = 3.0
    sun.rotation_euler = (math.radians(40), math.radians(20), math.radians(30))
    sc.collection.objects.link(sun)
    world = bpy.data.worlds.new("doc world")
    if world.node_tree is None:           # Blender < 5.0 makes it on use_nodes
        world.use_nodes = True
    bg = next(n for n in world.node_tree.nodes if n.type == "BACKGROUND")
    bg.inputs["Color"].default_value = (0.6, 0.7, 0.8, 1)
    sc.world = world


def _show_collision():
    """Collision children in the render: a thin red wire (for the picture
    only; the import draws them as wire in the viewport, not rendered)."""
    mat = bpy.data.materials.get("doc wire") or bpy.data.materials.new("doc wire")
    if mat.node_tree is None:
        mat.use_nodes = True
    bsdf = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    bsdf.inputs["Base Color"].default_value = (0.8, 0.02, 0.01, 1)
    bsdf.inputs["Emission Color"].default_value = (0.8, 0.02, 0.01, 1)
    bsdf.inputs["Emission Strength"].default_value = 1.0
    for ob in bpy.data.objects:
        if "wadkit_collision" in ob and ob.type == "MESH":
            for c in ob.users_collection:
                c.hide_render = False
            ob.hide_render = False
            if not ob.modifiers:
                w = ob.modifiers.new("wire", "WIREFRAME")
                w.thickness = 0.012
                w.material_offset = len(ob.data.materials)
                ob.data.materials.append(mat)


def render(path):
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = 12
    sc.cycles.use_denoising = True
    sc.render.resolution_x, sc.render.resolution_y = 640, 400
    sc.render.resolution_percentage = 100
    sc.render.image_settings.file_format = "PNG"
    sc.render.image_settings.color_mode = "RGB"
    sc.render.image_settings.compression = 100
    sc.render.dither_intensity = 0.0      # dither noise would double the PNG sizes
    sc.render.filepath = path
    t0 = time.perf_counter()
    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)                      # Cycles' progress lines
    try:
        bpy.ops.render.render(write_still=True)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    print(f"{path}: {os.path.getsize(path)} bytes, {time.perf_counter() - t0:.1f} s")


VIEW = ((7.0, -7.5, 5.5), (3.0, -3.2, 0.0))        # ~45° down onto the 6x6 cells


def pictures(outdir):
    def after(name, state):
        for o in [o for o in bpy.data.objects if o.name.startswith("doc ")]:
            bpy.data.objects.remove(o)
        _show_collision()
        _look(*VIEW, lens=36)
        render(os.path.join(outdir, f"workflow_{name}.png"))
    return after


def main(outdir):
    import blender_addon
    blender_addon.register()
    os.makedirs(outdir, exist_ok=True)
    t0 = time.perf_counter()
    summaries, state = run(tempfile.mkdtemp(), pictures(outdir))
    for name, how in summaries.items():
        print(f"Export summary ({name}): `{how}`")
    for name, fact in facts_quoted(state).items():
        print(f"Run fact ({name}): `{fact}`")
    facts = {k: v for k, v in state.items() if k not in ("tmp", "path", "out")}
    print("facts:", facts)
    print(f"total {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "images"))
    sys.stdout.flush()
    os._exit(0)      # bpy 4.5's exit handlers can deadlock (tests/blender/conftest.py)
