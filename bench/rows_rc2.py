"""RC2 rows: WAD-LZ decompress (vs zlib, vs a plain copy), WAD-LZ
compress (vs the spec builder's greedy encoder, and our own greedy mode),
and tfrag decode (vs the pure-Python walk)."""
from __future__ import annotations

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
    # and our own greedy mode in C on the whole core (what "best" adds)
    t_best, t_greedy = median_times(
        [lambda: lz.compress(data), lambda: _core.lz_compress(data, mode="greedy")],
        max(3, rounds // 2))
    greedy = _core.lz_compress(data, mode="greedy")
    rows.append(Row("WAD-LZ compress vs our C greedy mode", "wadkit.lz.compress (best)",
                    "_core.lz_compress(mode='greedy'), whole core", t_best, t_greedy,
                    ratio=t_greedy / t_best, kind="report",
                    note=(f"size {len(packed)} vs {len(greedy)} "
                          f"({len(packed) / len(greedy):.1%}); 'best' runs the lazy "
                          f"parse and the greedy one and keeps the smaller, so it "
                          f"cannot be faster than greedy alone; "
                          f"{mb / t_best:.1f} MB/s"),
                    extra={"size_ours": len(packed), "size_ref": len(greedy)}))
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
    return lz_rows(rounds, quick) + [tfrag_row(rounds, quick),
                                     rows_rc2_save.save_row(rounds, quick, workdir)]
