#!/bin/sh
# Make (once) a venv with a `bpy` wheel (Blender as a Python module) and the
# shared libraries bpy needs.
#   tools/bpy-venv.sh VENV [REQUIREMENTS]     (default requirements-blender.txt)
# The interpreter is the one the requirements file names in a line
# "# python: X.Y" (default 3.11): python3.X on PATH, else ~/.pyenv's X.Y.
# Exit 0 when "$VENV/bin/python" can import bpy, 1 when no bpy wheel could be
# installed here (callers then fall back to Debian's blender or fail).
# Used by tools/blender-tests.sh and `make demo`.
set -eu
VENV=$1
REQ=${2:-requirements-blender.txt}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# the shared libraries the bpy wheel links (ldd of bpy/__init__.so)
./tools/install-system-deps.sh blender || exit 1

# the interpreter the requirements file asks for
want=$(sed -n 's/^# python: *\([0-9.]*\).*/\1/p' "$REQ" | head -n 1)
want=${want:-3.11}
PY=$(./tools/find-python.sh "$want" || true)
if [ -z "$PY" ]; then
    echo "bpy venv: $REQ needs Python $want, which is not installed here" >&2
    exit 1
fi

if [ ! -f "$VENV/.complete" ]; then
    rm -rf "$VENV"
    echo "bpy venv: making $VENV ($(grep '^bpy' "$REQ") from PyPI for Python $want, ~400 MB download)"
    if "$PY" -m venv "$VENV" \
        && "$VENV/bin/python" -m pip install -q --upgrade pip \
        && "$VENV/bin/python" -m pip install -q -r "$REQ"; then
        touch "$VENV/.complete"
    else
        echo "bpy venv: no bpy wheel of $REQ for Python $want here" >&2
        rm -rf "$VENV"
    fi
fi
[ -f "$VENV/.complete" ]
