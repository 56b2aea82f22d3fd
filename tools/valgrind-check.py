"""`make valgrind`: run pytest under valgrind memcheck and fail on every
error or definite leak that involves wadkit's extension (a frame in
wadkit/_core*.so, which also holds the static GLib).

CPython 3.11 built without --with-valgrind reports uninitialised reads in its
own small-int and GC code, and numpy/CPython keep a few objects alive at exit;
those records have no wadkit frame and are counted, not failed. The run uses
PYTHONMALLOC=malloc so valgrind sees every Python allocation.

usage: python tools/valgrind-check.py XMLFILE -- PYTEST-ARGS..."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def ours(error) -> bool:
    for frame in error.iter("frame"):
        obj = frame.findtext("obj") or ""
        if "/wadkit/_core" in obj or "csrc/" in (frame.findtext("dir") or ""):
            return True
    return False


def main() -> int:
    xml_path = sys.argv[1]
    pytest_args = sys.argv[sys.argv.index("--") + 1:]
    cmd = ["valgrind", "--tool=memcheck", "--xml=yes", f"--xml-file={xml_path}",
           "--leak-check=full", "--show-leak-kinds=definite", "--num-callers=40",
           sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args]
    env = dict(os.environ, PYTHONMALLOC="malloc")
    rc = subprocess.call(cmd, env=env)
    if rc != 0:
        print(f"valgrind: pytest failed (exit {rc})", file=sys.stderr)
        return 1
    errors = ET.parse(xml_path).getroot().findall("error")
    bad = [e for e in errors if ours(e)]
    print(f"valgrind: {len(errors)} records, {len(errors) - len(bad)} in the interpreter "
          f"or numpy only (ignored), {len(bad)} involving wadkit")
    for e in bad:
        what = e.findtext("what") or e.findtext("xwhat/text")
        print(f"\n{e.findtext('kind')}: {what}", file=sys.stderr)
        for frame in list(e.iter("frame"))[:15]:
            print("   ", frame.findtext("fn"), frame.findtext("file") or frame.findtext("obj"),
                  frame.findtext("line") or "", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
