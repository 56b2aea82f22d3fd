#!/bin/sh
# Make (once) the venv with the `bpy` wheel (requirements-blender.txt) and the
# shared libraries bpy needs. Exit 0 when "$1/bin/python" can import bpy,
# 1 when no bpy wheel could be installed here (callers then fall back to
# Debian's blender or skip). Used by tools/blender-tests.sh and `make demo`.
set -eu
VENV=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# the shared libraries the bpy wheel links (ldd of bpy/__init__.so)
LIBS="libx11-6 libxrender1 libxfixes3 libxi6 libxkbcommon0 libsm6 libgl1 libxext6"
missing=""
for p in $LIBS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ] && [ "$(id -u)" = 0 ]; then
    echo "bpy venv: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing || true
fi

if [ ! -f "$VENV/.complete" ]; then
    rm -rf "$VENV"
    echo "bpy venv: making $VENV (bpy from PyPI, ~400 MB download)"
    if python3 -m venv "$VENV" \
        && "$VENV/bin/python" -m pip install -q --upgrade pip \
        && "$VENV/bin/python" -m pip install -q -r requirements-blender.txt; then
        touch "$VENV/.complete"
    else
        echo "bpy venv: no bpy wheel for $(python3 --version 2>&1); trying Debian's blender" >&2
        rm -rf "$VENV"
    fi
fi
[ -f "$VENV/.complete" ]
