"""Build of wadkit._core: the C core (csrc/core, C11 + GLib) and the CPython
binding (csrc/module). GLib is linked statically so the module imports where
GLib is not installed; its symbols stay private (--exclude-libs).

Environment:
  WADKIT_WERROR=1     warnings are errors (CI)
  WADKIT_SANITIZE=1   build with AddressSanitizer + UndefinedBehaviorSanitizer
"""
import glob
import os
import shlex
import subprocess

import numpy
from setuptools import Extension, setup

# Libraries that stay dynamic: they are part of every Linux system.
SYSTEM_LIBS = {"m", "pthread", "dl", "rt", "c"}


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(
            "wadkit needs GLib's development files and pkg-config "
            "(Debian: apt-get install libglib2.0-dev pkg-config): %s" % exc)
    return shlex.split(out)


def glib_link_args():
    """Link GLib and what it needs statically, the system libraries not."""
    flags = pkg_config("--static", "--libs", "glib-2.0")
    args = ["-Wl,--exclude-libs,ALL"]
    static = [f for f in flags if f.startswith("-l") and f[2:] not in SYSTEM_LIBS]
    args += [f for f in flags if f.startswith("-L")]
    args += ["-Wl,-Bstatic", *static, "-Wl,-Bdynamic"]
    args += [f for f in flags if f not in static and not f.startswith("-L")]
    return args


def sources():
    found = sorted(glob.glob("csrc/core/**/*.c", recursive=True))
    found += sorted(glob.glob("csrc/module/*.c"))
    return found


compile_args = ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
                "-Wno-missing-field-initializers", "-Wshadow", "-Wvla",
                "-fvisibility=hidden", "-O2"]
link_args = glib_link_args()
if os.environ.get("WADKIT_WERROR") == "1":
    compile_args.append("-Werror")
if os.environ.get("WADKIT_SANITIZE") == "1":
    san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
           "-fno-omit-frame-pointer", "-g", "-O1"]
    compile_args += san
    link_args += san

setup(
    ext_modules=[
        Extension(
            "wadkit._core",
            sources=sources(),
            include_dirs=[numpy.get_include(), "csrc"],
            extra_compile_args=compile_args + pkg_config("--cflags", "glib-2.0"),
            extra_link_args=link_args,
            depends=sorted(glob.glob("csrc/**/*.h", recursive=True)),
        )
    ],
)
