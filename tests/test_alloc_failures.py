"""Allocation failures through every binding entry point: each call of
tests/alloc_fail_calls.py runs with the n-th Python allocation failing
(n = 0, 1, …; _testcapi.set_nomemory), in a child process. It must raise
MemoryError or succeed, never crash, raise anything else or leak; under
`make sanitize` the child runs with ASan (use after free, double free)."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

_testcapi = pytest.importorskip(
    "_testcapi", reason="this Python has no _testcapi (set_nomemory)")


def test_every_entry_point_has_a_call():
    """A binding name without a call here would not be tested: adding one
    to the binding means adding its call to alloc_fail_calls.CALLS."""
    sys.path.insert(0, HERE)
    import alloc_fail_calls as A
    missing = A.entry_points() - A.covered()
    assert not missing, f"no allocation-failure call for {sorted(missing)}"
    assert not A.covered() - A.entry_points(), "calls for names _core lacks"


def test_allocation_failures_are_clean():
    r = subprocess.run([sys.executable, os.path.join(HERE, "alloc_fail_calls.py")],
                       capture_output=True, text=True, cwd=HERE, timeout=1200)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-6000:]
    lines = r.stdout.splitlines()
    assert len(lines) >= 40, r.stdout
    # the injection reached the calls: most fail at least once
    assert sum(" 0 failed" not in ln for ln in lines) == len(lines), r.stdout
