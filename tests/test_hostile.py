"""The hostile-input table (tests/hostile/): every row raises FormatError
(offset inside the input, a context) or succeeds as the row says; none
crashes or hangs (a stuck C call is killed by the faulthandler watchdog
instead of hanging CI); big rows stay within a memory bound measured in a
fresh process, and the chunk-count row's time grows linearly (a ratio of
two sizes measured side by side, not a time limit)."""
import faulthandler
import gc
import json
import os
import subprocess
import sys
import time
import warnings

import pytest

import wadkit
from hostile import PARSERS, Either, Error, Ok, load_all
from sanitizer import SANITIZED

CASES = load_all()
# ASan/UBSan (make sanitize) make everything slower and bigger
# The hang guard (wall time, the whole pytest process is stopped with every
# thread's traceback): the slowest row, 250k chunks, takes ~0.3 s of CPU
# here (~1.5 s under ASan), so this is > 40x what any row needs.
HANG_GUARD = 300 if SANITIZED else 60


def run_case(case, data):
    parse = PARSERS[case.fmt][0]
    faulthandler.dump_traceback_later(HANG_GUARD, exit=True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = parse(data)
            except wadkit.FormatError as e:
                result = e
    finally:
        faulthandler.cancel_dump_traceback_later()
    return result, [w for w in caught]


def check_outcome(case, data, result, caught):
    others = [w for w in caught if not issubclass(w.category, wadkit.WadWarning)]
    assert not others, [str(w.message) for w in others]
    messages = [str(w.message) for w in caught]
    if isinstance(case.expect, Error):
        assert isinstance(result, wadkit.FormatError), f"parsed; expected FormatError ({messages})"
        assert result.offset is None or 0 <= result.offset <= len(data), result
        assert result.context, result
        if case.expect.offset is not None:
            assert result.offset == case.expect.offset, str(result)
        if case.expect.match:
            assert case.expect.match in str(result)
        return
    if isinstance(case.expect, Either):
        if isinstance(result, wadkit.FormatError):
            assert result.offset is None or 0 <= result.offset <= len(data), result
            assert result.context, result
        return
    assert not isinstance(result, Exception), f"expected success, got {result!r}"
    if case.expect.warn:
        assert any(case.expect.warn in m for m in messages), messages
    if case.expect.check:
        assert case.expect.check(result) is not False


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c.max_mb else c
                                  for c in CASES], ids=[c.id for c in CASES])
def test_hostile_input(case):
    data = case.make()
    result, caught = run_case(case, data)
    check_outcome(case, data, result, caught)


def test_chunk_count_is_linear():
    """250k chunks cost at most 30x the CPU time of 25k: linear, with the
    cache and allocator effects of a 10x larger working set, measured 8-10x
    here and 17x under ASan (PYTHONMALLOC=malloc: every object through
    ASan's allocator); the quadratic duplicate check this guards against
    is 100x. Min of 5 runs each, the two sizes interleaved so a busy
    machine slows both alike; the collector is off while timing (its full
    passes over 250k fresh tuples are the interpreter's, not the parser's)."""
    from hostile.eng_container import many_chunks
    parse = PARSERS["eng"][0]
    inputs = {n: many_chunks(n) for n in (25_000, 250_000)}
    best = dict.fromkeys(inputs, float("inf"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(5):
            for n, data in inputs.items():
                gc.disable()
                try:
                    t0 = time.process_time()
                    parse(data)
                    best[n] = min(best[n], time.process_time() - t0)
                finally:
                    gc.enable()
    ratio = best[250_000] / max(best[25_000], 1e-6)
    assert ratio <= 30, f"{ratio:.1f}x ({best})"


MEASURE = """
import json, sys, warnings
sys.path[:0] = json.loads(sys.argv[3])
from hostile import PARSERS, load_all
load_all()
warnings.simplefilter("ignore")
def peak():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")   # reset the peak (VmHWM) to the current RSS
before = peak()
try:
    result = PARSERS[sys.argv[1]][1](sys.argv[2])
    ok = True
except Exception as e:
    ok = type(e).__name__ + ": " + str(e)
print(json.dumps({"ok": ok, "grew_mb": peak() - before}))
"""


@pytest.mark.skipif(SANITIZED, reason="memory bounds are measured in the plain build "
                    "(ASan's quarantine and redzones inflate RSS)")
@pytest.mark.parametrize("case", [c for c in CASES if c.max_mb],
                         ids=[c.id for c in CASES if c.max_mb])
def test_hostile_memory_bound(case, tmp_path):
    """Peak RSS growth of parsing the file (memory-mapped, so its own pages
    count as they are read) stays under the row's bound plus the file."""
    data = case.make()
    path = tmp_path / "input.bin"
    path.write_bytes(data)
    here = os.path.dirname(__file__)
    r = subprocess.run([sys.executable, "-c", MEASURE, case.fmt, str(path),
                        json.dumps([here] + sys.path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] is True or out["ok"].startswith("FormatError"), out
    limit = case.max_mb + len(data) / 2**20
    assert out["grew_mb"] <= limit, f"{out['grew_mb']:.1f} MiB > {limit:.1f} MiB"


def test_table_size():
    """The issue asks for at least 200 rows once every parser exists; the
    ENG container alone already gives more than that."""
    assert len(CASES) >= 200, len(CASES)
    assert len({c.id for c in CASES}) == len(CASES), "duplicate row names"
