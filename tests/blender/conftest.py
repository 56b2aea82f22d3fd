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

    @pytest.fixture
    def scene(addon):
        """An empty scene, the add-on registered."""
        bpy.ops.wm.read_factory_settings(use_empty=True)
        return bpy.context.scene


def datablock_counts():
    import bpy
    return {k: len(getattr(bpy.data, k)) for k in
            ("objects", "meshes", "materials", "images", "collections")}
