#!/bin/sh
# Run tests/blender inside a real, headless Blender (make test-blender).
#   tools/blender-tests.sh VENV [pytest args...]
# 1. bpy from PyPI in VENV (a venv outside the clone, keyed by
#    requirements-blender.txt, made once and reused);
# 2. else Debian's `blender` package, running pytest via `blender -b --python`;
# 3. else a loud skip -- which is a failure in CI (CI=true, as CI sets it)
#    or with WADKIT_REQUIRE_BLENDER=1.
# The in-place built extension (make build) is made importable with PYTHONPATH:
# the same CPython ABI as the venv's interpreter.
set -eu
VENV=$1; shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PYTHONPATH="$ROOT" WADKIT_BLENDER_TESTS=1
PYTEST_ARGS="tests/blender -q -p no:cacheprovider"

"$ROOT/tools/bpy-venv.sh" "$VENV" || true
if [ -f "$VENV/.complete" ]; then
    exec "$VENV/bin/python" -m pytest $PYTEST_ARGS "$@"
fi

if ! command -v blender >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        blender python3-pytest python3-numpy || true
fi
if command -v blender >/dev/null 2>&1; then
    exec blender -b --factory-startup -noaudio --python-exit-code 1 \
        --python tests/blender/run_in_blender.py -- $PYTEST_ARGS "$@"
fi

cat >&2 <<MSG
################################################################
# BLENDER TESTS NOT RUN: neither the bpy wheel (requirements-blender.txt)
# nor Debian's blender package could be installed on this machine.
################################################################
MSG
[ "${WADKIT_REQUIRE_BLENDER:-0}" = 1 ] && exit 1
[ "${CI:-}" = true ] && exit 1
exit 0
