"""The JSON of a bench run as the Markdown table docs/performance.md
shows: python -m bench.markdown [build/bench/results.json]"""
from __future__ import annotations

import json
import sys

from .harness import Row, _value


def main(path: str = "build/bench/results.json") -> None:
    with open(path) as f:
        data = json.load(f)
    print("| row | ours | compared with | ratio | target | result |")
    print("|---|---|---|---|---|---|")
    for d in data["rows"]:
        r = Row(**d)
        result = ("skipped" if r.skipped else "report" if r.passed is None
                  else "pass" if r.passed else "**not met**")
        ratio = "-" if r.ratio is None else f"{r.ratio:.3g}×"
        print(f"| {r.name} | {_value(r.ours_value, r.unit)} | {_value(r.ref_value, r.unit)} "
              f"| {ratio} | {r.target_text()} | {result} |")
    m = data["meta"]
    print(f"\n{m['date']}, {m['cpus']} CPUs ({m['machine']}), Python {m['python']}, "
          f"{m['rounds']} rounds, {m['seconds']} s.")


if __name__ == "__main__":
    main(*sys.argv[1:])
