#!/bin/sh
# Print the path of a working CPython X.Y: python3.X on PATH, else pyenv's
# (~/.pyenv/versions/X.Y*). Exit 1, printing nothing, when there is none.
#   tools/find-python.sh 3.13
set -eu
want=$1
for c in "$(command -v "python$want" 2>/dev/null || true)" \
         "$HOME"/.pyenv/versions/"$want"*/bin/"python$want"; do
    # (a pyenv shim on PATH may name a version it will not run)
    if [ -x "$c" ] && "$c" -c "import sys; assert '%d.%d' % sys.version_info[:2] == '$want'" 2>/dev/null; then
        echo "$c"
        exit 0
    fi
done
exit 1
