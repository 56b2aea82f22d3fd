"""RC2 rows: WAD-LZ decompress (vs zlib, vs a plain copy, without a known
size vs with it), WAD-LZ compress (vs the spec builder's greedy encoder;
the levels against the first encoder on ten inputs), and tfrag decode (vs
the pure-Python walk)."""
from __future__ import annotations

import os
import time
import zlib

import numpy as np

from wadkit import _core, lz

from . import inputs_rc2, pyref_tfrag
from .harness import Row, median_times


def lz_rows(rounds: int, quick: bool) -> list[Row]:
    data = inputs_rc2.core(0.25, patches=20) if quick else inputs_rc2.core(12)
    packed = lz.compress(data)
    z6 = zlib.compress(data, 6)
    if lz.decompress(packed) != data or zlib.decompress(z6) != data:
        raise AssertionError("round trip failed")
    src = np.frombuffer(data, np.uint8)
    t_lz, t_zlib, t_copy = median_times(
        [lambda: lz.decompress(packed), lambda: zlib.decompress(z6), lambda: np.copy(src)],
        rounds)
    mb = len(data) / 1e6
    rows = [
        Row("WAD-LZ decompress vs zlib", "wadkit.lz.decompress",
            "zlib.decompress of the same data at level 6", t_lz, t_zlib,
            ratio=t_zlib / t_lz, target=2.5, kind="min",
            note=(f"{mb:.1f} MB core stand-in: {mb / t_lz:.0f} MB/s vs zlib "
                  f"{mb / t_zlib:.0f} MB/s; stream {len(packed) / len(data):.1%} of the "
                  f"input, zlib-6 {len(z6) / len(data):.1%}")).judge(),
        Row("WAD-LZ decompress vs numpy.copy", "wadkit.lz.decompress",
            "numpy.copy of the output size", t_lz, t_copy, ratio=t_copy / t_lz,
            kind="report",
            note=f"the decoder runs at {t_copy / t_lz:.0%} of a plain copy "
                 f"({mb / t_copy:.0f} MB/s)"),
    ]
    # against the spec builder's greedy encoder (pure Python, slow: a sample
    # of each kind of content, the same bytes for both sides)
    k = 16 << 10 if quick else 64 << 10
    n = len(data)
    sample = data[:k] + data[n // 3:n // 3 + k] + data[2 * n // 3:2 * n // 3 + k]
    from builders import wadlz
    t0 = time.perf_counter()
    py = wadlz.greedy_compress(sample)
    t_py = time.perf_counter() - t0
    if lz.decompress(py) != sample:
        raise AssertionError("the builder's greedy stream does not decode")
    (t_ours,) = median_times([lambda: lz.compress(sample)], rounds)
    ours = lz.compress(sample)
    row = Row("WAD-LZ compress vs greedy", "wadkit.lz.compress",
              "greedy encoder of the same format (tests/builders/wadlz.py, Python)",
              t_ours, t_py, ratio=t_py / t_ours, target=1, kind="min",
              note=(f"{len(sample) // 1024} KiB sample (tfrag, pixels, records): "
                    f"ours {len(ours)} bytes vs greedy {len(py)} "
                    f"({len(ours) / len(py):.1%}); pass needs ≥ 1× speed and a "
                    f"smaller output; the Python side timed once (slow)"),
              extra={"size_ours": len(ours), "size_ref": len(py)}).judge()
    row.passed = bool(row.passed and len(ours) < len(py))
    rows.append(row)
    return rows


def _sizes(inputs: dict, **kw) -> dict:
    out = {}
    for name, data in inputs.items():
        c = _core.lz_compress(data, **kw)
        if lz.decompress(c, max_size=max(len(data), 1)) != data or lz.validate(c):
            raise AssertionError(f"WAD-LZ {kw} failed its round trip on {name}")
        out[name] = len(c)
    return out


def level_rows(rounds: int, quick: bool) -> list[Row]:
    """The compression levels on the ten inputs (bench/inputs_rc2.lz_inputs):
    the new default against the first encoder's greedy (speed) and best
    (size), max against best (size), threads, and decompression without a
    known size."""
    inputs = inputs_rc2.lz_inputs(quick)
    total_in = sum(len(d) for d in inputs.values())
    mb = total_in / 1e6
    t_def = t_greedy = t_fast = 0.0
    for data in inputs.values():
        a, b, c = median_times([lambda d=data: _core.lz_compress(d),
                                lambda d=data: _core.lz_compress(d, level="greedy"),
                                lambda d=data: _core.lz_compress(d, level="fast")],
                               max(3, rounds // 2))
        t_def += a
        t_greedy += b
        t_fast += c
    sizes = {lv: _sizes(inputs, level=lv, threads=0)
             for lv in ("default", "fast", "best", "max")}
    tot = {lv: sum(v.values()) for lv, v in sizes.items()}
    per = ", ".join(f"{k} {sizes['default'][k] / sizes['best'][k]:.3f}" for k in inputs)
    per_max = ", ".join(f"{k} {sizes['max'][k] / sizes['best'][k]:.3f}" for k in inputs)
    rows = [
        Row("WAD-LZ default compress vs the first encoder's greedy (speed)",
            "lz.compress(level='default'), 1 thread, ten inputs",
            "level='greedy' (the first encoder), same inputs", t_def, t_greedy,
            ratio=t_greedy / t_def, target=1.5, kind="min",
            note=(f"{mb:.1f} MB in ten inputs: {mb / t_def:.0f} MB/s vs "
                  f"{mb / t_greedy:.0f} MB/s (sum of per-input medians)"),
            extra={"inputs": {k: len(v) for k, v in inputs.items()}}).judge(),
        Row("WAD-LZ default compress vs the first encoder's best (size)",
            "total bytes of level='default'", "total of level='best' (the first default)",
            tot["default"], tot["best"], unit="bytes", ratio=tot["default"] / tot["best"],
            target=1.0, kind="max", note="per input: " + per,
            extra={"sizes": sizes}).judge(),
        Row("WAD-LZ fast compress vs the first encoder's greedy (speed)",
            "lz.compress(level='fast'), 1 thread, ten inputs",
            "level='greedy' (the first encoder), same inputs", t_fast, t_greedy,
            ratio=t_greedy / t_fast, kind="report",
            note=(f"{mb / t_fast:.0f} MB/s; its total is "
                  f"{tot['fast'] / tot['best']:.3f}x best's (what RC2 saves use)")),
        Row("WAD-LZ max compress vs the first encoder's best (size)",
            "total bytes of level='max'", "total of level='best'", tot["max"], tot["best"],
            unit="bytes", ratio=tot["max"] / tot["best"], target=0.92, kind="max",
            note="per input: " + per_max).judge(),
    ]
    core = inputs["core 12 MiB"]
    t1, t0 = median_times([lambda: _core.lz_compress(core, threads=1),
                           lambda: _core.lz_compress(core, threads=0)], max(3, rounds // 2))
    rows.append(Row("WAD-LZ default compress, every core vs 1 thread",
                    f"threads=0 ({os.cpu_count()} cores), 12 MiB core",
                    "threads=1", t0, t1, ratio=t1 / t0, kind="report",
                    note="1 MiB blocks; the same bytes for any thread count"))
    packed = lz.compress(core)
    n = len(core)
    t_none, t_size = median_times([lambda: _core.lz_decompress(packed),
                                   lambda: _core.lz_decompress(packed, expected=n)], rounds)
    rows.append(Row("WAD-LZ decompress without a size vs with it",
                    "lz.decompress(stream)", "_core.lz_decompress(stream, expected=size)",
                    t_none, t_size, ratio=t_none / t_size, target=1.1, kind="max",
                    note=f"12 MiB core; {n / t_none / 1e6:.0f} MB/s vs "
                         f"{n / t_size / 1e6:.0f} MB/s").judge())
    return rows


def tfrag_row(rounds: int, quick: bool) -> Row:
    block, facts = inputs_rc2.tfrag_block(20 if quick else 800)
    ours = _core.tfrag_parse(block, 0, texture_count=facts["textures"])
    ref = pyref_tfrag.terrain(block)
    for key in ref:
        if not np.array_equal(ours[key], ref[key]):
            raise AssertionError(f"tfrag '{key}' differs from the pure-Python walk")
    t_ours, t_ref = median_times(
        [lambda: _core.tfrag_parse(block, 0, texture_count=facts["textures"]),
         lambda: pyref_tfrag.terrain(block)], rounds)
    return Row(f"RC2 tfrag decode, {facts['patches']} patches",
               "_core.tfrag_parse (what Level.terrain() calls)",
               "pure-Python walk (bench/pyref_tfrag.py)", t_ours, t_ref,
               ratio=t_ref / t_ours, target=100, kind="min",
               note=(f"{facts['triangles']} triangles; "
                     f"{facts['patches'] / t_ours:,.0f} patches/s vs "
                     f"{facts['patches'] / t_ref:,.0f}; outputs identical"),
               extra={"input": facts}).judge()


def rows(rounds: int, quick: bool, workdir: str) -> list[Row]:
    from . import rows_rc2_save
    return (lz_rows(rounds, quick) + level_rows(rounds, quick)
            + [tfrag_row(rounds, quick), rows_rc2_save.save_row(rounds, quick, workdir)])
