"""Timing and the result table. Machines here are shared and noisy, so a
row is always a ratio of two things measured in the same run: the two sides
alternate round by round, each round repeats a call until it has run for
at least `min_round` seconds, and the median round is reported."""
from __future__ import annotations

import json
import os
import statistics
import time
from dataclasses import asdict, dataclass, field


def _per_call(fn, min_round: float) -> float:
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        t = time.perf_counter() - t0
        if t >= min_round:
            return t / n


def median_times(fns, rounds: int, min_round: float = 0.05) -> list[float]:
    """Median seconds per call of each function; the functions take turns
    in every round (after one untimed warm-up call each)."""
    for fn in fns:
        fn()
    samples = [[] for _ in fns]
    for _ in range(rounds):
        for k, fn in enumerate(fns):
            samples[k].append(_per_call(fn, min_round))
    return [statistics.median(s) for s in samples]


@dataclass
class Row:
    """One line of the table. ratio compares `ours` with `ref` as the
    target states it: 'min' targets want ratio ≥ target, 'max' ≤ target,
    'report' only shows it."""
    name: str
    ours: str                 # what was timed/measured on our side
    ref: str                  # what it was compared with
    ours_value: float | None = None
    ref_value: float | None = None
    unit: str = "s"
    ratio: float | None = None
    target: float | None = None
    kind: str = "min"         # min | max | report
    passed: bool | None = None
    skipped: str | None = None
    note: str = ""
    extra: dict = field(default_factory=dict)

    def judge(self) -> "Row":
        if self.skipped is None and self.ratio is not None and self.kind != "report":
            self.passed = (self.ratio >= self.target if self.kind == "min"
                           else self.ratio <= self.target)
        return self

    def target_text(self) -> str:
        if self.kind == "report" or self.target is None:
            return "report"
        return ("≥ " if self.kind == "min" else "≤ ") + f"{self.target:g}×"


def _value(v: float | None, unit: str) -> str:
    if v is None:
        return "-"
    if unit == "s":
        return f"{v * 1e3:.2f} ms" if v < 10 else f"{v:.1f} s"
    if unit == "B":
        return f"{v / 1e6:.1f} MB"
    if unit == "bytes":
        return f"{v:,.0f} B"
    return f"{v:g} {unit}"


def table(rows: list[Row]) -> str:
    head = ("row", "ours", "compared with", "ratio", "target", "result")
    lines = []
    for r in rows:
        result = ("skipped" if r.skipped else "report" if r.passed is None
                  else "pass" if r.passed else "FAIL")
        ratio = "-" if r.ratio is None else f"{r.ratio:.3g}×"
        lines.append((r.name, _value(r.ours_value, r.unit), _value(r.ref_value, r.unit),
                      ratio, r.target_text(), result))
    widths = [max(len(x[k]) for x in [head, *lines]) for k in range(len(head))]
    fmt = "  ".join("{:<%d}" % w for w in widths)
    out = [fmt.format(*head), fmt.format(*["-" * w for w in widths])]
    out += [fmt.format(*x) for x in lines]
    for r in rows:
        if r.skipped:
            out.append(f"  {r.name}: skipped: {r.skipped}")
        elif r.note:
            out.append(f"  {r.name}: {r.note}")
    return "\n".join(out)


def write_json(rows: list[Row], path: str, meta: dict) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"meta": meta, "rows": [asdict(r) for r in rows]}, f, indent=1)
        f.write("\n")
