"""wadkit/_core.pyi matches the binding (mypy's stubtest compares names,
signatures, properties and classes) and ships with py.typed: every public
name of the binding is in the stub, and what the stub declares is right."""
import os
import subprocess
import sys

import pytest

import wadkit

PKG = os.path.dirname(wadkit.__file__)


def test_typed_package_files():
    assert os.path.isfile(os.path.join(PKG, "py.typed"))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "pyproject.toml")) as f:
        assert 'wadkit = ["py.typed", "*.pyi"]' in f.read()


@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="mypy (compiled) is not run under the sanitizer build")
def test_core_stub_matches_binding():
    stub = os.path.join(PKG, "_core.pyi")
    assert os.path.isfile(stub)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(PKG))
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "wadkit._core"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, (
        "wadkit/_core.pyi is out of step with the binding; update the stub:\n"
        + r.stdout + r.stderr)
