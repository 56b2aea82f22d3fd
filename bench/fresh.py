"""Timings in a child process with a fixed malloc policy, so that levels
of every size are treated alike (glibc's default threshold rises after the
first large free, which lets a small level reuse warm memory while a large
one cannot):

FRESH: every block ≥ 128 KiB comes straight from the kernel and goes back
  (MALLOC_MMAP_THRESHOLD_=131072): each call pays for zeroed pages for its
  output, as a one-shot conversion does.
WARM: nothing is mmapped or given back (thresholds 32 MiB / 1 GB): each
  call reuses memory, so only the work itself is timed.

    python bench/fresh.py ROUNDS FILE...   → one JSON line:
    {"world_mesh": [s per file...], "reference": s for the first file,
     "copy": [s per file...]}

"copy" is the machine's own scaling for the same bytes: per file, a plain
copy (numpy.copyto) of the level's input bytes and of as many bytes as its
world-mesh arrays hold — the memory a conversion must read and write, with
no work on it.
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import pyref_eng  # noqa: E402
from bench.harness import median_times  # noqa: E402
from bench.rows_eng import ours  # noqa: E402

ENV = FRESH = {"MALLOC_MMAP_THRESHOLD_": "131072"}
WARM = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(1 << 30)}


def main(rounds: int, paths: list[str]) -> None:
    wads = []
    for p in paths:
        with open(p, "rb") as f:
            wads.append(f.read())
    first = wads[0]
    t_ours1, t_ref = median_times([lambda: ours(first),
                                   lambda: pyref_eng.world_mesh(first)], rounds)
    times = median_times([(lambda w=w: ours(w)) for w in wads], rounds)
    copies = median_times([_copy_same_bytes(w) for w in wads], rounds)
    print(json.dumps({"world_mesh": times, "world_mesh_first": t_ours1,
                      "reference": t_ref, "copy": copies}))


def _copy_same_bytes(wad: bytes):
    """A call that copies the input and writes as many bytes as the world
    mesh holds (sources and destinations allocated once, reused)."""
    n_out = sum(a.nbytes for a in ours(wad).values())
    src_in = np.frombuffer(wad, np.uint8)
    dst_in = np.empty_like(src_in)
    src_out, dst_out = np.ones(n_out, np.uint8), np.empty(n_out, np.uint8)

    def run():
        np.copyto(dst_in, src_in)
        np.copyto(dst_out, src_out)
    return run


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
