"""The Blender half of `make demo` (run with the bpy venv's python, see the
Makefile): import both sample levels through the add-on's operators, save
demo.blend, render a preview of each (Cycles, CPU, few samples; Cycles'
progress goes to OUTDIR/render.log) and export both levels back to WADs
(an unchanged scene must give the imported file's bytes).

    python tools/demo_blender.py build/demo
"""
import filecmp
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools")]

import bpy  # noqa: E402

import blender_addon  # noqa: E402
from render_blender_screenshots import camera, render, setup_render  # noqa: E402


def main(outdir):
    blender_addon.register()
    log = os.path.join(outdir, "render.log")
    open(log, "w").close()
    eng = os.path.join(outdir, "sample_eng.wad")
    rc2 = os.path.join(outdir, "sample_rc2.wad")

    # ENG: import, preview, export back (unchanged scene -> identical bytes)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_eng(filepath=eng)
    print(f"{eng}: imported into Blender {bpy.app.version_string}: "
          f"{len(bpy.data.objects)} objects, {len(bpy.data.materials)} materials")
    out = os.path.join(outdir, "sample_eng_export.wad")
    bpy.ops.export_scene.wadkit_eng(filepath=out)
    same = filecmp.cmp(eng, out, shallow=False)
    print(f"{out}: exported from Blender, "
          f"{'byte-identical to' if same else 'DIFFERENT from'} {eng}")
    setup_render(os.path.join(outdir, "preview_eng.png"), 480, 270)
    bpy.context.scene.cycles.samples = 8
    camera((-6, -34, 22), (14, -14, 0), lens=30)
    render(os.path.join(outdir, "preview_eng.png"), log)
    blend = os.path.join(outdir, "demo.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend)
    print(f"{blend}: the ENG sample level in Blender")

    # RC2: import, export back (unchanged -> identical bytes), preview
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.wadkit_rc2(filepath=rc2)
    print(f"{rc2}: imported: {len(bpy.data.objects)} objects")
    out = os.path.join(outdir, "sample_rc2_export.wad")
    bpy.ops.export_scene.wadkit_rc2(filepath=out)
    same_rc2 = filecmp.cmp(rc2, out, shallow=False)
    print(f"{out}: exported from Blender, "
          f"{'byte-identical to' if same_rc2 else 'DIFFERENT from'} {rc2}")
    setup_render(os.path.join(outdir, "preview_rc2.png"), 480, 270)
    bpy.context.scene.cycles.samples = 8
    name = os.path.splitext(os.path.basename(rc2))[0]
    for ob in bpy.data.collections[f"{name} Sky"].objects:
        ob.visible_shadow = False         # the dome must not shade the sun
    camera((6, -4, 22), (60, 58, -2), lens=24)   # inside the sky dome
    render(os.path.join(outdir, "preview_rc2.png"), log)
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(outdir, "demo_rc2.blend"))
    print(f"{os.path.join(outdir, 'demo_rc2.blend')}: the RC2 sample level in Blender")
    sys.stdout.flush()
    os._exit(0 if same and same_rc2 else 1)   # bpy 4.5's exit handlers can deadlock


if __name__ == "__main__":
    try:
        main(sys.argv[1] if len(sys.argv) > 1 else "build/demo")
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)        # never hang in bpy's exit handlers on a failure
