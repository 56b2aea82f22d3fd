#!/bin/sh
# Install the Debian packages wadkit builds and tests with, if any is missing.
# Run as root on a fresh machine (CI); a no-op when everything is there.
set -eu
PKGS="libglib2.0-dev pkg-config gcc"
# fuzz/ (libFuzzer + ASan/UBSan runtimes) and `make valgrind`
PKGS="$PKGS clang libclang-rt-14-dev valgrind"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
# the static GLib archive is what the extension links
[ -f "$(pkg-config --variable=libdir glib-2.0 2>/dev/null)/libglib-2.0.a" ] || missing="$missing libglib2.0-dev"
if [ -n "$missing" ]; then
    echo "installing:$missing"
    if [ "$(id -u)" != 0 ]; then
        echo "need root to apt-get install:$missing" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $missing
fi
