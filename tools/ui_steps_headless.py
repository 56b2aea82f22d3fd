"""The steps tools/ui_screenshots.py does in Blender's window, done
headless in bpy as a module, printing the exported file's SHA-256: the
check that the screenshots' Blender (3.4.1, with ID.session_uid lent)
writes what a Blender the add-on targets writes (docs/blender-workflow.md,
"In Blender's window").

    PYTHONPATH=. ~/.cache/wadkit/bpy-venv-<hash>/bin/python tools/ui_steps_headless.py

The steps: the default (per-zone) import of the from-spec terrain level,
Make tile objects on the zone object with the most faces, tile 8 raised
0.6, Build collision on it, the export."""
import hashlib
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tools")]

import bpy  # noqa: E402

import blender_steps  # noqa: E402
from doc_pictures import NAME, _select, write_level  # noqa: E402

TILE = 8        # ui_screenshots.TILE (that module starts a run when imported)


def main() -> str:
    blender_steps.empty()
    tmp = tempfile.mkdtemp()
    assert bpy.ops.import_scene.wadkit_eng(filepath=write_level(tmp)) == {"FINISHED"}
    coll = bpy.data.collections[NAME]
    zone = max((o for o in coll.objects if "wadkit_zone" in o), key=lambda o: len(o.data.polygons))
    _select(zone)
    assert bpy.ops.wadkit.eng_make_tiles() == {"FINISHED"}
    ob = bpy.data.objects[f"{NAME} tile {TILE}"]
    _select(ob)
    ob.location.z += 0.6
    assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}
    out = os.path.join(tmp, "edited.wad")
    assert bpy.ops.export_scene.wadkit_eng(filepath=out) == {"FINISHED"}
    with open(out, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


if __name__ == "__main__":
    print(f"bpy {bpy.app.version_string}: exported sha256 {main()}", flush=True)
    os._exit(0)
