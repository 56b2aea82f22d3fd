"""The two packagings, each in a child Blender with its own user folder (the
test machine's Blender setup is not touched): the 4.2+ extension zip from
`make blender-extension` installs, enables, loads wadkit from its bundled
wheel and its operators work; the legacy add-on zip installs with
preferences.addon_install and works the same."""
import glob
import os
import subprocess
import sys
import textwrap
import zipfile

import bpy
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = textwrap.dedent("""
    import filecmp, sys, bpy
    zip_path, good, bad, out, user = sys.argv[-5:]
    assert bpy.ops.extensions.package_install_files(
        filepath=zip_path, repo="user_default", enable_on_install=True) == {"FINISHED"}
    assert "bl_ext.user_default.wadkit" in bpy.context.preferences.addons
    import wadkit
    assert wadkit.__file__.startswith(user), wadkit.__file__
    # used: a level imported, exported unchanged, a malformed one reported
    assert bpy.ops.import_scene.wadkit_eng(filepath=good) == {"FINISHED"}
    assert len(bpy.data.collections["good"].objects) > 0
    assert bpy.ops.export_scene.wadkit_eng(filepath=out) == {"FINISHED"}
    assert filecmp.cmp(good, out, shallow=False), "export changed the level"
    try:
        bpy.ops.import_scene.wadkit_eng(filepath=bad)
    except RuntimeError as e:
        print("REPORT:", e)
    else:
        raise SystemExit("malformed file imported")
    print("WADKIT-EXTENSION-OK", flush=True)
    import os
    os._exit(0)   # bpy 4.5 can deadlock in its exit handlers (see conftest.py)
""")


@pytest.mark.every_blender
def test_extension_zip_installs_and_runs(tmp_path):
    if bpy.app.version < (4, 2, 0):
        pytest.skip("Blender < 4.2 (the Debian fallback) has no extensions; "
                    "the other tests load the legacy add-on")
    import levels
    zips = glob.glob(os.path.join(ROOT, "build", "blender", "wadkit-*.zip"))
    assert zips, "make blender-extension first (make test-blender does)"
    # the zip carries a wheel for each Python the supported Blenders run
    with zipfile.ZipFile(zips[0]) as z:
        tags = sorted(n.split("-")[2] for n in z.namelist() if n.endswith(".whl"))
    assert tags == ["cp311", "cp313"], tags
    good = tmp_path / "good.wad"
    good.write_bytes(levels.small_level())
    bad = tmp_path / "bad.wad"
    bad.write_bytes(b"\x10\x00\x00\x00OFNI")
    user = tmp_path / "user"
    user.mkdir()
    env = dict(os.environ, BLENDER_USER_RESOURCES=str(user))
    env.pop("PYTHONPATH", None)          # wadkit must come from the wheel
    if bpy.app.binary_path:
        cmd = [bpy.app.binary_path, "-b", "--factory-startup", "--python-exit-code", "1",
               "--python-expr", CHILD, "--"]
    else:
        cmd = [sys.executable, "-c", CHILD]
    cmd += [zips[0], str(good), str(bad), str(tmp_path / "out.wad"), str(user)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300,
                       cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "WADKIT-EXTENSION-OK" in r.stdout
    assert "REPORT:" in r.stdout and "ENG WAD" in r.stdout


LEGACY_CHILD = textwrap.dedent("""
    import sys, bpy, addon_utils
    zip_path, bad = sys.argv[-2:]
    assert bpy.ops.preferences.addon_install(filepath=zip_path) == {"FINISHED"}
    mod = addon_utils.enable("wadkit_blender", default_set=True)
    assert mod is not None and mod.bl_info["blender"] == (3, 6, 0)
    assert "wadkit_blender" in bpy.context.preferences.addons
    try:
        bpy.ops.import_scene.wadkit_eng(filepath=bad)
    except RuntimeError as e:
        print("REPORT:", e)
    else:
        raise SystemExit("malformed file imported")
    print("WADKIT-LEGACY-OK", flush=True)
    import os
    os._exit(0)
""")


def test_legacy_addon_zip_installs_and_runs(tmp_path):
    # the legacy path: the add-on folder zipped as a package, installed with
    # preferences.addon_install; wadkit itself comes from PYTHONPATH here
    # (a user pip-installs it into Blender's Python)
    z = tmp_path / "wadkit_blender.zip"
    with zipfile.ZipFile(z, "w") as f:
        for name in sorted(os.listdir(os.path.join(ROOT, "blender_addon"))):
            if name.endswith(".py"):
                f.write(os.path.join(ROOT, "blender_addon", name), f"wadkit_blender/{name}")
    bad = tmp_path / "bad.wad"
    bad.write_bytes(b"\x10\x00\x00\x00OFNI")
    user = tmp_path / "user"
    user.mkdir()
    env = dict(os.environ, BLENDER_USER_RESOURCES=str(user), PYTHONPATH=ROOT)
    if bpy.app.binary_path:
        cmd = [bpy.app.binary_path, "-b", "--factory-startup", "--python-exit-code", "1",
               "--python-expr", LEGACY_CHILD, "--"]
    else:
        cmd = [sys.executable, "-c", LEGACY_CHILD]
    cmd += [str(z), str(bad)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300,
                       cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "WADKIT-LEGACY-OK" in r.stdout
    assert "REPORT:" in r.stdout and "ENG WAD" in r.stdout
