"""python -m wadkit.samples OUTDIR [--seed N]: write the sample levels."""
from __future__ import annotations

import argparse
import sys

from . import write_samples


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m wadkit.samples",
                                 description="Write wadkit's sample levels "
                                 "(ENG and RC2), built by its own writers.")
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for kind, path in write_samples(args.outdir, args.seed).items():
        print(f"{kind}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
