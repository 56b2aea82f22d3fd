#!/bin/sh
# Screenshots of Blender's window for docs/blender-workflow.md ("In
# Blender's window"): tools/ui_screenshots.py in a Blender program (not the
# headless bpy wheels) under a virtual X server, Mesa's software OpenGL.
#   tools/ui-screenshots.sh [OUT]          (default docs/images; make ui-screenshots)
# Needs Debian's blender, xvfb, xauth and python3-numpy (installed as root
# by tools/install-system-deps.sh ui-screenshots) and `make build` (the
# cp311 extension in wadkit/, for the system Python 3.11 Debian's Blender
# runs). Not part of make test.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath -m "${1:-$ROOT/docs/images}")
"$ROOT/tools/install-system-deps.sh" ui-screenshots
ls "$ROOT"/wadkit/_core.cpython-311-*.so >/dev/null 2>&1 \
    || { echo "ui-screenshots: no cp311 wadkit/_core: run make build first" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# the add-on the legacy way: an addons folder of Blender's user scripts;
# Blender's own config (recent folders, bookmarks) kept out of $HOME
mkdir -p "$TMP/scripts/addons" "$TMP/config"
ln -s "$ROOT/blender_addon" "$TMP/scripts/addons/blender_addon"
BLENDER_USER_SCRIPTS="$TMP/scripts" BLENDER_USER_CONFIG="$TMP/config" \
    timeout 600 xvfb-run -a -s "-screen 0 1280x800x24" \
    blender --factory-startup --enable-event-simulate \
    --python "$ROOT/tools/ui_screenshots.py" -- "$OUT"
