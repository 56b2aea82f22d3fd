"""The built extension: GLib linked in statically and kept private, so the
module imports where GLib is not installed and never clashes with a host's
GLib (Blender); NumPy's API imported; warnings raised as WadWarning."""
import os
import subprocess
import sys

import numpy
import pytest

import wadkit
from wadkit import _core

ELF = _core.__file__


def _elf_dynamic(path):
    """NEEDED entries and exported symbols, read with binutils."""
    needed = subprocess.run(["readelf", "-d", path], capture_output=True,
                            text=True, check=True).stdout
    syms = subprocess.run(["nm", "-D", "--defined-only", path],
                          capture_output=True, text=True, check=True).stdout
    return needed, syms


def test_glib_is_not_a_runtime_dependency():
    needed, syms = _elf_dynamic(ELF)
    libs = [l.split("[")[1].rstrip("]") for l in needed.splitlines() if "NEEDED" in l]
    assert not [l for l in libs if "glib" in l or "pcre" in l], libs
    exported = [l.split()[-1] for l in syms.splitlines() if l.strip()]
    assert exported == ["PyInit__core"], exported


def test_imports_without_any_glib_on_the_library_path(tmp_path):
    # An empty library path and a copy of the package in a fresh folder: the
    # dynamic loader can only satisfy libc (and libasan under `make sanitize`).
    code = ("import wadkit, sys; "
            "maps = open('/proc/self/maps').read(); "
            "sys.exit(1 if 'libglib' in maps else 0)")
    env = dict(os.environ, LD_LIBRARY_PATH=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_glib_version_and_numpy():
    assert _core.glib_version >= (2, 68, 0)   # extended GError domains
    assert numpy.__version__


def test_exception_hierarchy():
    assert issubclass(wadkit.FormatError, wadkit.WadError)
    assert issubclass(wadkit.FormatError, ValueError)
    assert issubclass(wadkit.LimitError, wadkit.WadError)
    assert issubclass(wadkit.LimitError, ValueError)
    assert issubclass(wadkit.WadWarning, UserWarning)
    assert wadkit.FormatError.__module__ == "wadkit"


def test_each_module_object_has_its_own_state():
    # multi-phase init: a second module object gets its own exceptions
    import importlib.util
    spec = importlib.util.find_spec("wadkit._core")
    mod2 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod2)
    assert mod2.FormatError is not _core.FormatError
    with pytest.raises(mod2.FormatError):
        mod2.EngWad(b"")
