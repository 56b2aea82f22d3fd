#!/bin/sh
# Run tests/blender inside a real, headless Blender (make test-blender).
#   tools/blender-tests.sh VENV REQUIREMENTS [pytest args...]
# 1. bpy from PyPI in VENV (a venv outside the clone, keyed by the hash of
#    REQUIREMENTS, made once and reused; tools/bpy-venv.sh);
# 2. else, for the default requirements-blender.txt only, Debian's
#    `blender` package, running pytest via `blender -b --python`;
# 3. else a loud skip -- which is a failure in CI (CI=true, as CI sets it)
#    or with WADKIT_REQUIRE_BLENDER=1.
# The in-place built extension (make build; the cp313 one from make
# blender-extension) is made importable with PYTHONPATH.
set -eu
VENV=$1; REQ=$2; shift 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PYTHONPATH="$ROOT" WADKIT_BLENDER_TESTS=1
PYTEST_ARGS="tests/blender -q -p no:cacheprovider"
WHICH=$(grep '^bpy' "$REQ" || echo "$REQ")

"$ROOT/tools/bpy-venv.sh" "$VENV" "$REQ" || true
if [ -f "$VENV/.complete" ]; then
    echo "blender tests: $WHICH ($VENV)"
    exec "$VENV/bin/python" -m pytest $PYTEST_ARGS "$@"
fi

if [ "$REQ" = requirements-blender.txt ]; then
    if ! command -v blender >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            blender python3-pytest python3-numpy || true
    fi
    if command -v blender >/dev/null 2>&1; then
        exec blender -b --factory-startup -noaudio --python-exit-code 1 \
            --python tests/blender/run_in_blender.py -- $PYTEST_ARGS "$@"
    fi
fi

cat >&2 <<MSG
################################################################
# BLENDER TESTS NOT RUN for $WHICH: its bpy wheel could not be
# installed on this machine (tools/bpy-venv.sh $VENV $REQ says why).
################################################################
MSG
[ "${WADKIT_REQUIRE_BLENDER:-0}" = 1 ] && exit 1
[ "${CI:-}" = true ] && exit 1
exit 0
