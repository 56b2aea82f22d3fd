"""Run pytest inside a Blender binary: blender -b --python run_in_blender.py -- ARGS
(the fallback of tools/blender-tests.sh where no bpy wheel fits)."""
import sys

import pytest

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
sys.exit(pytest.main(args))
