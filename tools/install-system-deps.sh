#!/bin/sh
# Install the Debian packages a make target needs, if any is missing.
#   tools/install-system-deps.sh [build] [fuzz] [valgrind] [blender] [ui-screenshots]
# (no argument: build). Each target names only what it needs:
#   build     the extension: GLib (static archive), pkg-config, gcc (its
#             ASan/UBSan runtimes are what `make sanitize` preloads)
#   fuzz      libFuzzer harnesses: clang 14 and its sanitizer runtimes
#   valgrind  `make valgrind`
#   blender   the X11/GL libraries the bpy wheels link (make test-blender, demo)
#   ui-screenshots  Debian's Blender program and a virtual X server
#             (make ui-screenshots; not part of make test)
# A no-op when everything is there. As root it apt-get installs what is
# missing; otherwise it names the packages to install and fails.
set -eu
[ $# -gt 0 ] || set -- build
PKGS=""
for target in "$@"; do
    case $target in
        build) PKGS="$PKGS libglib2.0-dev pkg-config gcc" ;;
        fuzz) PKGS="$PKGS clang libclang-rt-14-dev" ;;
        valgrind) PKGS="$PKGS valgrind" ;;
        blender) PKGS="$PKGS libx11-6 libxrender1 libxfixes3 libxi6 libxkbcommon0 libsm6 libgl1 libxext6" ;;
        ui-screenshots) PKGS="$PKGS blender xvfb xauth python3-numpy" ;;
        *) echo "install-system-deps.sh: unknown target '$target'" >&2; exit 2 ;;
    esac
done
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
case " $* " in
    *" build "*)
        # the static GLib archive is what the extension links
        [ -f "$(pkg-config --variable=libdir glib-2.0 2>/dev/null)/libglib-2.0.a" ] \
            || case "$missing" in *libglib2.0-dev*) ;; *) missing="$missing libglib2.0-dev" ;; esac ;;
esac
[ -n "$missing" ] || exit 0
if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages for make ($*):$missing" >&2
    echo "install them (as root): apt-get install$missing" >&2
    exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing
