"""Tests that run inside a real Blender (bpy). `make test-blender` runs them
(tools/blender-tests.sh sets WADKIT_BLENDER_TESTS=1); the plain pytest run
of tests/ leaves this folder to it."""
import os
import sys

import pytest

if not os.environ.get("WADKIT_BLENDER_TESTS"):
    collect_ignore_glob = ["test_*.py"]
else:
    import bpy  # noqa: F401 -- no skip: a missing bpy here is an error

    ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, ROOT)

    @pytest.fixture(scope="session")
    def addon():
        import blender_addon
        blender_addon.register()
        yield blender_addon
        blender_addon.unregister()

    @pytest.fixture(scope="session")
    def realistic(tmp_path_factory):
        """(path, bytes) of the generated ~110,000-triangle level with 8
        texture pages (levels.realistic_level), built once."""
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import levels
        wad, _ = levels.realistic_level(pages=8)
        p = tmp_path_factory.mktemp("real") / "real.wad"
        p.write_bytes(wad)
        return str(p), wad

    @pytest.fixture
    def small(tmp_path):
        """Path of the small hand-made level (levels.small_level)."""
        import levels
        p = tmp_path / "small.wad"
        p.write_bytes(levels.small_level())
        return str(p)

    @pytest.fixture(params=["import", "build"])
    def made(request, monkeypatch):
        """A test using it runs twice: on collision objects made by the
        import (import_collision=True), and on ones made by Build
        collision for every tile after the default import
        (editing.load)."""
        import editing
        monkeypatch.setattr(editing, "BUILD_COLLISION", request.param == "build")
        return request.param

    @pytest.fixture
    def scene(addon):
        """An empty scene, the add-on registered."""
        bpy.ops.wm.read_factory_settings(use_empty=True)
        return bpy.context.scene


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "every_blender: run in each Blender of make test-blender "
        "(4.5, 5.0, 5.3), not only in the one that runs the whole suite")


def datablock_counts():
    import bpy
    return {k: len(getattr(bpy.data, k)) for k in
            ("objects", "meshes", "materials", "images", "collections")}


# bpy 4.5 as a Python module can deadlock in its exit handlers (the
# "delayed close" thread's global state is destroyed while the thread waits
# on it; seen with gdb). Leave the process with os._exit once pytest has
# printed its summary, passing pytest's exit status on.
_status = {"code": 0}


def pytest_sessionfinish(session, exitstatus):
    _status["code"] = int(exitstatus)


def pytest_unconfigure(config):
    if os.environ.get("WADKIT_BLENDER_TESTS") and "bpy" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_status["code"])
