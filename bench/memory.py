"""Peak memory of converting a level, measured in a fresh child process:
resident set size before opening the file (after the imports), the peak
while opening and building the world mesh (VmHWM, reset just before via
/proc/self/clear_refs), compared with the input size plus the bytes of
the output arrays. Run as a script by bench; prints one JSON line."""
from __future__ import annotations

import json
import os
import sys


def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(key)


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def main(path: str) -> None:
    import numpy  # noqa: F401
    import wadkit.eng
    base = _status("VmRSS")
    reset = _reset_peak()
    lvl = wadkit.eng.open(path)
    mesh = lvl.world_mesh()
    peak = _status("VmHWM")
    out = sum(a.nbytes for a in mesh.values())
    print(json.dumps({"base": base, "peak": peak, "extra": peak - base,
                      "input": os.path.getsize(path), "output": out,
                      "peak_reset": reset}))


if __name__ == "__main__":
    main(sys.argv[1])
