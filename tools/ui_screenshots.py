"""Screenshots of Blender's window for docs/blender-workflow.md ("In
Blender's window"): the editing workflow done in a real Blender window.

    tools/ui-screenshots.sh [docs/images]          (make ui-screenshots)

which runs, under a virtual X server (xvfb-run) with Mesa's software OpenGL:

    blender --factory-startup --enable-event-simulate --python tools/ui_screenshots.py -- OUT

Not bpy as a module (the bpy wheels have no window): a Blender program,
Debian bookworm's 3.4.1 here, with the add-on enabled the legacy way from a
scripts folder the wrapper makes (BLENDER_USER_SCRIPTS) and wadkit imported
from this tree (its cp311 extension, built by `make build`, for the system
Python 3.11 Debian's Blender runs). Blender 3.4 has no ID.session_uid
(the add-on's bl_info asks for 3.6); `_compat_3_4` lends one, in this script
only, and says so.

The steps run from bpy.app.timers so that the window draws between them;
each shot is bpy.ops.screen.screenshot of a window, cropped and written as
an 8-bit RGB PNG by `write_png` (zlib + struct). The level is the from-spec
terrain level of tests/builders/eng_terrain.py (`terrain_level(grid=6)`),
written to a temp dir; no game data. The run prints each shot's name, size
and bytes and each operator report it shows."""
from __future__ import annotations

import math
import os
import struct
import sys
import tempfile
import time
import traceback
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tools")]

import bpy  # noqa: E402
import numpy as np  # noqa: E402
from mathutils import Euler  # noqa: E402

OUT = sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else os.path.join(ROOT, "docs", "images")
TMP = tempfile.mkdtemp(prefix="wadkit-ui-")
NAME = "terrain"
TILE = 8            # a tile of the zone made tile objects: raised, collision, floor test
MAX_BYTES = 150_000
T0 = time.perf_counter()
STATE: dict = {}


def log(*a):
    print(f"[ui {time.perf_counter() - T0:6.1f}s]", *a, flush=True)


# -- PNG out (8-bit RGB, each row's filter the one of least absolute sum) --

def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def write_png(path: str, rgb: np.ndarray) -> int:
    """rgb: (h, w, 3) uint8, top row first. Returns the file's bytes."""
    h, w, _ = rgb.shape
    x = rgb.reshape(h, w * 3).astype(np.int16)
    left = np.zeros_like(x)
    left[:, 3:] = x[:, :-3]
    up = np.zeros_like(x)
    up[1:] = x[:-1]
    upleft = np.zeros_like(x)
    upleft[1:, 3:] = x[:-1, :-3]
    cands = [x, x - left, x - up, x - ((left + up) >> 1), x - _paeth(left, up, upleft)]
    cands = [(c & 0xFF).astype(np.uint8) for c in cands]
    cost = np.stack([np.abs(c.astype(np.int8).astype(np.int16)).sum(axis=1) for c in cands])
    best = cost.argmin(axis=0)
    rows = np.empty((h, w * 3 + 1), np.uint8)
    rows[:, 0] = best
    rows[:, 1:] = np.choose(best[:, None], cands)
    data = zlib.compress(rows.tobytes(), 9)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + \
            struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", data) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
    return len(png)


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


def shot(name: str, win=None, box=None):
    """Screenshot of win (the main window), cropped to box = (x0, y0, x1, y1)
    in window pixels from the top left, written to OUT/ui_<name>.png."""
    win = win or main_window()
    raw = os.path.join(TMP, f"raw_{name}.png")
    a = win.screen.areas[0]
    with bpy.context.temp_override(window=win, screen=win.screen, area=a):
        assert bpy.ops.screen.screenshot(filepath=raw) == {"FINISHED"}
    img = bpy.data.images.load(raw)
    w, h = img.size
    px = np.empty(w * h * 4, np.float32)
    img.pixels.foreach_get(px)
    bpy.data.images.remove(img)
    rgb = (px.reshape(h, w, 4)[::-1, :, :3] * 255 + 0.5).astype(np.uint8)
    if box is not None:
        x0, y0, x1, y1 = box
        rgb = rgb[max(y0, 0):min(y1, h), max(x0, 0):min(x1, w)]
    out = os.path.join(OUT, f"ui_{name}.png")
    rgb = np.ascontiguousarray(rgb)
    n, how = write_png(out, rgb), "lossless"
    if n > MAX_BYTES:
        # the viewport's smooth shading is what costs: 5 bits a channel
        # (rounded; 4/255 at most off) is what keeps it under MAX_BYTES
        n, how = write_png(out, np.minimum((rgb.astype(np.int16) + 4) >> 3 << 3, 255)
                           .astype(np.uint8)), "5 bits a channel"
    log(f"shot {name}: {rgb.shape[1]}x{rgb.shape[0]} of {w}x{h}, {n} bytes, {how}")
    assert n <= MAX_BYTES, f"{out}: {n} bytes"
    STATE.setdefault("shots", []).append((name, n))


def _compat_3_4():
    """Blender < 3.6 has no ID.session_uid, which the add-on's edit tracking
    keys meshes by: lend one (the ID's address: unique among the IDs alive,
    and these IDs live through the run)."""
    if bpy.app.version < (3, 6, 0) and not hasattr(bpy.types.ID, "session_uid"):
        bpy.types.ID.session_uid = property(lambda self: self.as_pointer())
        log(f"Blender {bpy.app.version_string}: ID.session_uid lent (as_pointer)")


# -- the steps: each returns the seconds to wait before the next --

def s_setup():
    import addon_utils
    from doc_pictures import write_level
    _compat_3_4()
    mod = addon_utils.enable("blender_addon", default_set=True, handle_error=None)
    assert mod is not None, "the add-on did not enable"
    log(f"Blender {bpy.app.version_string}, add-on enabled from {mod.__file__}")
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


def s_view():
    with override():
        sp = bpy.context.space_data
        sp.show_region_ui = True
        sp.shading.color_type = "VERTEX"
        r3d = sp.region_3d
        r3d.view_perspective = "PERSP"
        r3d.view_rotation = Euler((math.radians(52), 0, math.radians(28))).to_quaternion()
        bpy.ops.view3d.view_all()
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
    shot("imported")
    return 0.5


def _select(*obs):
    for o in bpy.context.view_layer.objects:
        o.select_set(o in obs)
    bpy.context.view_layer.objects.active = obs[0] if obs else None


def s_make_tiles():
    """Make tile objects of the zone object with the most faces (as the
    sidebar's button does), then raise the first tile made (G Z 0.6)."""
    coll = bpy.data.collections[NAME]
    zone = max((o for o in coll.objects if "wadkit_zone" in o), key=lambda o: len(o.data.polygons))
    _select(zone)
    with override():
        assert bpy.ops.wadkit.eng_make_tiles("INVOKE_DEFAULT") == {"FINISHED"}
        made = sorted(bpy.context.selected_objects, key=lambda o: o.name)
        STATE["tile"] = f"{NAME} tile {TILE}"
        _select(bpy.data.objects[STATE["tile"]])
        assert bpy.ops.transform.translate(value=(0, 0, 0.6)) == {"FINISHED"}
    log("made", [o.name for o in made], "raised", STATE["tile"])
    return 1.0


def s_make_tiles_shot():
    shot("make_tiles")
    return 0.5


def s_collision():
    ob = bpy.data.objects[STATE["tile"]]
    _select(ob)
    with override():
        assert bpy.ops.wadkit.eng_build_collision("INVOKE_DEFAULT") == {"FINISHED"}
    log("children", [c.name for c in ob.children])
    return 1.0


def s_collision_shot():
    shot("build_collision")
    return 0.5


def s_floor():
    """The 3D cursor above the raised tile, then Floor at 3D cursor."""
    from mathutils import Vector
    ob = bpy.data.objects[STATE["tile"]]
    corners = [ob.matrix_world @ Vector(c) for c in ob.bound_box]
    mid = sum(corners, Vector()) / 8
    bpy.context.scene.cursor.location = (mid.x, mid.y, max(c.z for c in corners) + 1.0)
    with override():
        assert bpy.ops.wadkit.floor_at_cursor("INVOKE_DEFAULT") == {"FINISHED"}
    log("floor:", bpy.context.window_manager.wadkit_floor_result)
    return 1.0


def s_floor_shot():
    shot("floor")
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
    shot("export_report")
    import hashlib
    with open(STATE["out"], "rb") as f:
        log("exported", STATE["out"], "sha256", hashlib.sha256(f.read()).hexdigest())
    return 0.5


STEPS = [s_setup, s_import_dialog, s_refresh, s_import_shot, s_file_execute, s_back,
         s_view, s_tab,
         s_zones_shot, s_make_tiles, s_make_tiles_shot, s_collision, s_collision_shot, s_floor,
         s_floor_shot, s_export_dialog, s_refresh, s_export_shot, s_file_execute, s_back, s_info,
         s_info_shot]


def _run():
    if not STEPS:
        log("done:", STATE.get("shots"))
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
