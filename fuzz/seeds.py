"""Write the seed corpora of the fuzz harnesses from the test fixtures'
from-spec builders (tests/builders): `python fuzz/seeds.py OUTDIR`.

One function per harness (named as fuzz/fuzz_<name>.c) returning a dict
{seed name: bytes}. A new harness adds a function and a SEEDS entry."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from builders import eng_wad as eng  # noqa: E402


def eng_wad_seeds() -> dict[str, bytes]:
    info = eng.info_payload()
    return {
        "sample": eng.sample_wad(),
        "minimal": eng.wad([]),
        "info_only": eng.wad([("INFO", info)]),
        "map_quirk": eng.wad([("INFO", info), ("MAP", b"\x11" * 20),
                              ("STPC", b"\x22" * 8)], map_quirk=True),
        "map_quirk_last": eng.wad([("INFO", info), ("MAP", b"\x11" * 8)], map_quirk=True),
        "unknown_chunk": eng.wad([("INFO", info), ("ZZZZ", b"opaque"), ("TRAK", b"\0" * 4)]),
        "trailing": eng.wad([("INFO", info)], trailing=b"junk!"),
        "wrong_length": eng.wad([("INFO", info)], length=12345),
        "no_end": eng.wad([("INFO", info)], end=False),
    }


SEEDS = {
    "eng_wad": eng_wad_seeds,
}


def main(out: str) -> None:
    for name, make in SEEDS.items():
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        for seed, data in make().items():
            with open(os.path.join(folder, "seed-" + seed), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
