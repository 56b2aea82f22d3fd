"""One conversion the way a one-shot tool meets it: a fresh interpreter
opens a level and asks for its world mesh once. Run by bench/rows_eng.py,
one child per timing (the medians are taken over children):

    python bench/fresh_process.py ours FILE
    python bench/fresh_process.py ref FILE
    python bench/fresh_process.py limit FILE SHAPES_JSON

ours: wadkit.eng.open(FILE).world_mesh(), timed after the imports (which
are reported apart), with its page faults. ref: the pure-Python parser
(bench/pyref_eng.py) on the file's bytes, read inside the timing. limit:
the machine's floor for this output: NumPy arrays of the world mesh's
shapes and dtypes, allocated and written once (fresh memory, as the
conversion gets it). Prints one JSON line."""
from __future__ import annotations

import json
import os
import resource
import sys
import time

t_start = time.perf_counter()
import numpy as np  # noqa: E402

t_numpy = time.perf_counter()


def faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def main(mode: str, path: str, shapes: str | None) -> dict:
    out = {"import_numpy": t_numpy - t_start}
    if mode == "ours":
        t0 = time.perf_counter()
        import wadkit.eng
        t1 = time.perf_counter()
        f0 = faults()
        t2 = time.perf_counter()
        lvl = wadkit.eng.open(path)
        mesh = lvl.world_mesh()
        t3 = time.perf_counter()
        out.update(import_wadkit=t1 - t0, seconds=t3 - t2, faults=faults() - f0,
                   bytes=sum(a.nbytes for a in mesh.values()),
                   shapes={k: [list(a.shape), a.dtype.str] for k, a in mesh.items()})
    elif mode == "ref":
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from bench import pyref_eng
        t2 = time.perf_counter()
        with open(path, "rb") as f:
            pyref_eng.world_mesh(f.read())
        out["seconds"] = time.perf_counter() - t2
    else:
        want = json.loads(shapes)
        f0 = faults()
        t2 = time.perf_counter()
        arrays = [np.empty(shape, dtype) for shape, dtype in want.values()]
        for a in arrays:
            a.fill(1)
        out.update(seconds=time.perf_counter() - t2, faults=faults() - f0,
                   bytes=sum(a.nbytes for a in arrays))
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)))
