"""Screenshots of Blender's window for docs/blender-workflow.md ("In
Blender's window"): the editing workflow done in a real Blender window.

    tools/ui-screenshots.sh [docs/images]          (make ui-screenshots)

which runs, under a virtual X server (xvfb-run, 1280x800) with Mesa's
software OpenGL (llvmpipe):

    blender --factory-startup --enable-event-simulate --python tools/ui_screenshots.py -- OUT

Not bpy as a module (the bpy wheels have no window): a Blender program,
Debian bookworm's 3.4.1 here, the add-on enabled the legacy way from a
scripts folder the wrapper makes (BLENDER_USER_SCRIPTS), wadkit imported
from this tree (its cp311 extension from `make build`; Debian's Blender
runs the system Python 3.11). Blender 3.4 has no ID.session_uid: the
add-on then tracks no edits (edit_track.HAS_UID) and reads every mesh
whole on export.

The steps run from bpy.app.timers so that the window draws between them.
What a user clicks is done so that it goes through Blender's event system
as a click would: the file browsers' Import/Export buttons (file.execute),
the sidebar's buttons as keys bound for the run to their operators
(Window.event_simulate, hence --enable-event-simulate), the sidebar's tab
by the mouse wheel over the tabs. A tile is raised by setting its location,
as G Z 0.6 would. Each shot is bpy.ops.screen.screenshot of the window,
written by tools/png_rgb.py; one over MAX_BYTES is written with 5 bits a
channel, then cropped (`shot`). The level is the from-spec terrain level
of tests/builders/eng_terrain.py (`terrain_level(grid=6)`) written to a
temp dir; no game data. The run prints each shot's size and bytes, the
operators' reports and the exported file's SHA-256 (the same steps in bpy
4.5 give the same file: docs/blender-workflow.md)."""
from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tools")]

import bpy  # noqa: E402
import numpy as np  # noqa: E402
from mathutils import Euler  # noqa: E402

from png_rgb import write_png  # noqa: E402

OUT = sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else os.path.join(ROOT, "docs", "images")
TMP = tempfile.mkdtemp(prefix="wadkit-ui-")
NAME = "terrain"
TILE = 8            # a tile of the zone made tile objects: raised, collision, floor test
MAX_BYTES = 150_000
VIEW_BOX = (160, 0, 1280, 800)      # if a whole window is too large: less of the viewport's left
T0 = time.perf_counter()
STATE: dict = {}


def log(*a):
    print(f"[ui {time.perf_counter() - T0:6.1f}s]", *a, flush=True)


# -- windows, areas, overrides --

def main_window():
    return bpy.context.window_manager.windows[0]


def area(kind, win=None):
    win = win or main_window()
    return next(a for a in win.screen.areas if a.type == kind)


def region(a, kind="WINDOW"):
    return next(r for r in a.regions if r.type == kind)


def override(kind="VIEW_3D", win=None):
    win = win or main_window()
    a = area(kind, win)
    return bpy.context.temp_override(window=win, screen=win.screen, area=a, region=region(a))


def _encode(out: str, rgb: np.ndarray) -> tuple[int, str]:
    n = write_png(out, rgb)
    if n <= MAX_BYTES:
        return n, "lossless"
    # the viewport's smooth shading is what costs: 5 bits a channel
    # (rounded, at most 4/255 off) is what brings a whole window under
    # MAX_BYTES
    q = np.minimum((rgb.astype(np.int16) + 4) >> 3 << 3, 255).astype(np.uint8)
    return write_png(out, q), "5 bits a channel"


def shot(name: str, box=None, crop=False):
    """Screenshot of the main window written to OUT/ui_<name>.png; cropped
    to box = (x0, y0, x1, y1), window pixels from the top left, if crop or
    if the whole window does not fit in MAX_BYTES."""
    win = main_window()
    raw = os.path.join(TMP, f"raw_{name}.png")
    with bpy.context.temp_override(window=win, screen=win.screen, area=win.screen.areas[0]):
        assert bpy.ops.screen.screenshot(filepath=raw) == {"FINISHED"}
    img = bpy.data.images.load(raw)
    w, h = img.size
    px = np.empty(w * h * 4, np.float32)
    img.pixels.foreach_get(px)
    bpy.data.images.remove(img)
    rgb = np.ascontiguousarray((px.reshape(h, w, 4)[::-1, :, :3] * 255 + 0.5).astype(np.uint8))
    out = os.path.join(OUT, f"ui_{name}.png")
    n, how = _encode(out, rgb) if not crop else (MAX_BYTES + 1, "")
    if n > MAX_BYTES and box is not None:
        x0, y0, x1, y1 = box
        rgb = np.ascontiguousarray(rgb[y0:y1, x0:x1])
        n, how = _encode(out, rgb)
        how += f", cropped to x {x0}..{x1}, y {y0}..{y1}"
    log(f"shot {name}: {rgb.shape[1]}x{rgb.shape[0]} of {w}x{h}, {n} bytes, {how}")
    assert n <= MAX_BYTES, f"{out}: {n} bytes"
    STATE.setdefault("shots", []).append((name, n))


# -- the steps: each returns the seconds to wait before the next --

def s_setup():
    import addon_utils
    from doc_pictures import write_level
    mod = addon_utils.enable("blender_addon", default_set=True, handle_error=None)
    assert mod is not None, "the add-on did not enable"
    log(f"Blender {bpy.app.version_string}, add-on enabled from {mod.__file__}")
    _bind_keys()
    for ob in list(bpy.data.objects):
        bpy.data.objects.remove(ob)
    # the file browser in the main window, not a window of its own
    bpy.context.preferences.view.filebrowser_display_type = "SCREEN"
    # the viewport's background one colour, not the radial gradient: Blender
    # draws that gradient with dither noise, which makes the PNGs far larger
    bpy.context.preferences.themes[0].view_3d.space.gradients.background_type = "SINGLE_COLOR"
    STATE["path"] = write_level(TMP)
    return 1.0


def s_import_dialog():
    with override():
        bpy.ops.import_scene.wadkit_eng("INVOKE_DEFAULT", filepath=STATE["path"])
    return 3.0


def s_refresh():
    """The file browser lists the folder in a job: list it again now that
    it is drawn, then wait for it to draw the list."""
    with override("FILE_BROWSER"):
        bpy.ops.file.refresh()
    return 2.0


def s_import_shot():
    shot("import_dialog")
    return 0.5


def s_file_execute():
    """The file browser's Import/Export button."""
    with override("FILE_BROWSER"):
        assert bpy.ops.file.execute() == {"FINISHED"}
    return 1.0


def s_back():
    """Blender 3.4 under event simulation leaves the maximized file browser
    up after its operator ran: its Back to Previous button."""
    if main_window().screen.areas[0].type == "FILE_BROWSER":
        with override("FILE_BROWSER"):
            assert bpy.ops.screen.back_to_previous() == {"FINISHED"}
        log("file browser closed by Back to Previous")
    return 0.5


def _reports_only():
    """The Info strip at the bottom shows reports only, not the operators'
    Python lines (which would be last)."""
    for a in main_window().screen.areas:
        if a.type == "INFO" and a.height < 200:
            a.spaces[0].show_report_operator = False


def s_view():
    with override():
        sp = bpy.context.space_data
        sp.show_region_ui = True
        sp.shading.color_type = "VERTEX"
        r3d = sp.region_3d
        r3d.view_perspective = "PERSP"
        r3d.view_rotation = Euler((math.radians(52), 0, math.radians(28))).to_quaternion()
        bpy.ops.view3d.view_all()
        r3d.view_distance *= 1.4     # a little farther: fewer viewport pixels, smaller PNGs
    # the timeline strip becomes an Info editor: the reports, newest last
    # (not the operators' Python lines, which would be last)
    area("DOPESHEET_EDITOR").type = "INFO"
    _reports_only()
    return 1.0


def s_tab():
    """The sidebar's wadkit tab, its last: the mouse wheel over the tabs
    (Blender has no Python API for the active tab in 3.4; the wheel stops
    at the last tab, it does not wrap)."""
    win = main_window()
    ui = region(area("VIEW_3D"), "UI")
    x, y = ui.x + ui.width - 6, ui.y + ui.height - 120
    win.event_simulate("MOUSEMOVE", "NOTHING", x=x, y=y)
    for _ in range(6):
        win.event_simulate("WHEELDOWNMOUSE", "PRESS", x=x, y=y)
    return 1.0


def s_zones_shot():
    shot("imported", box=VIEW_BOX)
    return 0.5


def _select(*obs):
    for o in bpy.context.view_layer.objects:
        o.select_set(o in obs)
    bpy.context.view_layer.objects.active = obs[0] if obs else None


# The sidebar's buttons, pressed as keys bound for the run to the same
# operators: Blender 3.4 cannot click a panel button from Python, and an
# operator called from Python does not show its report in the status bar;
# one run from an event (a button, a key) does, as for a user.
KEYS = {"wadkit.eng_make_tiles": "F20", "wadkit.eng_build_collision": "F21",
        "wadkit.floor_at_cursor": "F22"}


def _bind_keys():
    km = bpy.context.window_manager.keyconfigs.addon.keymaps.new("3D View", space_type="VIEW_3D")
    for op, key in KEYS.items():
        km.keymap_items.new(op, key, "PRESS")


def press(op: str):
    """The key bound to op, with the mouse over the 3D viewport."""
    win = main_window()
    r = region(area("VIEW_3D"))
    x, y = r.x + r.width // 4, r.y + r.height // 4
    win.event_simulate("MOUSEMOVE", "NOTHING", x=x, y=y)
    win.event_simulate(KEYS[op], "PRESS", x=x, y=y)
    win.event_simulate(KEYS[op], "RELEASE", x=x, y=y)


def s_make_tiles():
    """Make tile objects of the zone object with the most faces."""
    coll = bpy.data.collections[NAME]
    zone = max((o for o in coll.objects if "wadkit_zone" in o), key=lambda o: len(o.data.polygons))
    _select(zone)
    press("wadkit.eng_make_tiles")
    return 1.0


def s_raise():
    """One of the tiles made raised 0.6 (G Z 0.6)."""
    made = sorted(o.name for o in bpy.context.selected_objects)
    STATE["tile"] = f"{NAME} tile {TILE}"
    assert STATE["tile"] in made, made
    ob = bpy.data.objects[STATE["tile"]]
    _select(ob)
    ob.location.z += 0.6
    log("made", made, "raised", STATE["tile"])
    return 0.5


def s_make_tiles_shot():
    shot("make_tiles", box=VIEW_BOX)
    return 0.5


def s_collision():
    _select(bpy.data.objects[STATE["tile"]])
    press("wadkit.eng_build_collision")
    return 1.0


def s_collision_shot():
    children = [c.name for c in bpy.data.objects[STATE["tile"]].children]
    log("children", children)
    assert f"{STATE['tile']} collision" in children
    shot("build_collision", box=VIEW_BOX)
    return 0.5


def s_floor():
    """The 3D cursor above the raised tile, then Floor at 3D cursor."""
    from mathutils import Vector
    ob = bpy.data.objects[STATE["tile"]]
    corners = [ob.matrix_world @ Vector(c) for c in ob.bound_box]
    mid = sum(corners, Vector()) / 8
    bpy.context.scene.cursor.location = (mid.x, mid.y, max(c.z for c in corners) + 1.0)
    press("wadkit.floor_at_cursor")
    return 1.0


def s_redraw_sidebar():
    """The panel draws its new result label only when the sidebar redraws
    (the add-on does not ask for it, and the mouse moved over it does not
    here): as any later redraw would, tag it."""
    region(area("VIEW_3D"), "UI").tag_redraw()
    return 0.5


def s_floor_shot():
    result = bpy.context.window_manager.wadkit_floor_result
    log("floor:", result)
    assert f"{STATE['tile']}," in result, result
    shot("floor", box=VIEW_BOX)
    return 0.5


def s_export_dialog():
    STATE["out"] = os.path.join(TMP, "edited.wad")
    with override():
        bpy.ops.export_scene.wadkit_eng("INVOKE_DEFAULT", filepath=STATE["out"])
    return 2.5


def s_export_shot():
    shot("export_dialog")
    return 0.5


def s_info():
    """The Properties editor becomes an Info editor: the reports of the run."""
    area("PROPERTIES").type = "INFO"
    return 0.5


def s_info_shot():
    # the right part, sidebar and Info editor, above the Info strip: after
    # the file browser the strip shows the export's Python line whatever its
    # filter says (Blender 3.4.1 here; not found why)
    shot("export_report", box=(520, 0, 1280, 722), crop=True)
    import hashlib
    with open(STATE["out"], "rb") as f:
        log("exported", STATE["out"], "sha256", hashlib.sha256(f.read()).hexdigest())
    return 0.5


STEPS = [s_setup,
         s_import_dialog, s_refresh, s_import_shot, s_file_execute, s_back,
         s_view, s_tab, s_zones_shot,
         s_make_tiles, s_raise, s_make_tiles_shot,
         s_collision, s_collision_shot,
         s_floor, s_redraw_sidebar, s_floor_shot,
         s_export_dialog, s_refresh, s_export_shot, s_file_execute, s_back, s_info, s_info_shot]


def _run():
    if not STEPS:
        log("done:", STATE.get("shots"))
        shutil.rmtree(TMP, ignore_errors=True)
        os._exit(0)
    fn = STEPS.pop(0)
    log(fn.__name__)
    try:
        return fn()
    except Exception:           # noqa: BLE001 -- the run fails with the trace
        traceback.print_exc()
        sys.stdout.flush()
        os._exit(1)


if __name__ == "__main__":
    bpy.context.preferences.view.show_splash = False
    os.makedirs(OUT, exist_ok=True)
    bpy.app.timers.register(_run, first_interval=1.0)
