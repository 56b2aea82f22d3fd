"""Timings with fresh output memory, run by bench in a child process whose
malloc hands every block ≥ 128 KiB straight from the kernel
(MALLOC_MMAP_THRESHOLD_=131072 fixes glibc's threshold, which otherwise
rises after the first large free and lets small levels reuse warm memory
while large ones cannot). So every call pays for zeroed pages for its
output, as a one-shot conversion does, at every size alike.

    python bench/fresh.py ROUNDS FILE...   → one JSON line:
    {"world_mesh": [s per file...], "reference": s for the first file}
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import pyref_eng  # noqa: E402
from bench.harness import median_times  # noqa: E402
from bench.rows_eng import ours  # noqa: E402

ENV = {"MALLOC_MMAP_THRESHOLD_": "131072"}


def main(rounds: int, paths: list[str]) -> None:
    wads = []
    for p in paths:
        with open(p, "rb") as f:
            wads.append(f.read())
    first = wads[0]
    t_ours1, t_ref = median_times([lambda: ours(first),
                                   lambda: pyref_eng.world_mesh(first)], rounds)
    times = median_times([(lambda w=w: ours(w)) for w in wads], rounds)
    print(json.dumps({"world_mesh": times, "world_mesh_first": t_ours1,
                      "reference": t_ref}))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
