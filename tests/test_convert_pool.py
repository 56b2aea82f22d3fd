"""The batch pool (issue 18, docs/performance-batch-fresh.md): several
different levels (ENG and RC2) give the same output folder byte for byte
with the pool as with -j 1, in .glb and in .gltf + .bin; a level that
fails is one line and the others are written; what the pool sets up for
its workers (the glibc malloc settings, the frozen collector, the modules
loaded before the fork) is undone or harmless; write_glb writes the bytes
of glb_bytes piece by piece. No test here times anything
(test_cli_robust.py has the messages of -j 1 vs -j 2, a dead worker and
Ctrl-C)."""
import gc
import os
import sys

import pytest

import wadkit
from wadkit import _convert, export, samples
from builders import eng_level as L

if not hasattr(wadkit.eng.Level, "world_mesh"):
    pytest.skip("ENG geometry not in this build", allow_module_level=True)

from test_convert_e2e import run  # noqa: E402
from sanitizer import forks_the_pytest_worker  # noqa: E402


@pytest.fixture(scope="module")
def levels(tmp_path_factory):
    """Five inputs: two generated ENG levels, the ENG and RC2 samples, and
    a truncated copy of an ENG level in the middle (it fails)."""
    d = tmp_path_factory.mktemp("levels")
    paths = samples.write_samples(d / "samples", seed=1)
    files = []
    for seed in (3, 4):
        data, _ = L.realistic_level(seed=seed, n_tiles=300)
        files.append(d / f"gen{seed}.wad")
        files[-1].write_bytes(data)
    bad = d / "bad.wad"
    bad.write_bytes(files[0].read_bytes()[:5000])
    return [str(files[0]), paths["eng"], str(bad), paths["rc2"], str(files[1])]


def _folder(path) -> dict[str, bytes]:
    return {n: (path / n).read_bytes() for n in sorted(os.listdir(path))}


@pytest.mark.parametrize("fmt", ["glb", "gltf"])
def test_pool_and_serial_write_the_same_folder(levels, tmp_path, fmt):
    out = {}
    for j in ("1", "2"):
        r = run("convert", *levels, "-o", str(tmp_path / j), "--format", fmt,
                "--collision", "--objects", "--sky", "-j", j)
        assert r.returncode == 1, r.stderr
        failures = [x for x in r.stderr.splitlines()
                    if x.startswith("wadkit: ") and ": warning: " not in x
                    and ": note: " not in x]
        assert len(failures) == 2, r.stderr             # the bad level, the summary
        assert failures[0].startswith(f"wadkit: {levels[2]}: ") and "\n" not in failures[0]
        assert failures[1] == f"wadkit: converted 4 of 5 files to {tmp_path / j}"
        assert "Traceback" not in r.stderr
        out[j] = _folder(tmp_path / j)
    stems = ["gen3", "gen4", "sample_eng", "sample_rc2"]
    want = sorted(f"{s}.{fmt}" for s in stems)
    if fmt == "gltf":
        want = sorted(want + [f"{s}.bin" for s in stems])
    assert sorted(out["1"]) == want
    assert out["1"].keys() == out["2"].keys()
    for name in out["1"]:
        assert out["1"][name] == out["2"][name], name


def test_write_glb_writes_the_bytes_of_glb_bytes(tmp_path):
    """write_glb writes the buffer in pieces (views of the arrays): the
    same bytes as glb_bytes, for an ENG scene with objects, an RC2 scene
    with instances (nodes and GPU instancing) and a scene with no mesh."""
    lvl = samples.eng_level(2)
    rc2 = wadkit.rc2.from_bytes(samples.rc2_bytes(2))
    scenes = [export.eng_scene(lvl, collision=True, objects=True), export.Scene()]
    for mode in ("nodes", "gpu"):
        scenes.append(export.level_scene(rc2, collision=True, sky=True, instancing=mode))
    for k, sc in enumerate(scenes):
        path = tmp_path / f"s{k}.glb"
        export.write_glb(sc, path)
        assert path.read_bytes() == export.glb_bytes(sc), k


def test_keep_freed_memory_sets_glibc_malloc_or_nothing(monkeypatch):
    calls = []

    class FakeLibc:
        class mallopt:                       # noqa: N801 (a C function's name)
            argtypes = None

            def __new__(cls, param, value):
                calls.append((param, value))
                return 1

    monkeypatch.setattr(_convert.ctypes, "CDLL", lambda name: FakeLibc)
    monkeypatch.setattr(_convert.os, "confstr", lambda name: "glibc 2.36")
    _convert.keep_freed_memory()
    assert calls == [(_convert.M_TRIM_THRESHOLD, 1 << 30),
                     (_convert.M_MMAP_THRESHOLD, 32 << 20)]
    calls.clear()

    def not_glibc(name):
        raise ValueError("unrecognized configuration name")
    for confstr in (not_glibc, lambda name: None):
        monkeypatch.setattr(_convert.os, "confstr", confstr)
        _convert.keep_freed_memory()
    assert calls == []


_run_job = _convert.run_job


def _modules_new_in_worker(job):
    """run_job, reporting the modules it imported (in a forked worker)."""
    before = set(sys.modules)
    done = _run_job(job)
    return _convert.Done(job, done.ok, sorted(set(sys.modules) - before), None)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers: Linux")
@forks_the_pytest_worker
def test_workers_find_their_modules_loaded_and_gc_is_unfrozen(levels, tmp_path,
                                                              monkeypatch):
    """The modules a worker's first level would import (numpy.ma, Pillow's
    PNG plugin) are there before the fork; the collector is frozen only
    while the batch runs, also when reporting fails."""
    monkeypatch.setattr(_convert, "run_job", _modules_new_in_worker)
    jobs = [_convert.Job(src, str(tmp_path / f"{i}.glb"), "glb", True)
            for i, src in enumerate([levels[0], levels[1]])]
    got = _convert.run_batch(jobs, 2, lambda d: None)
    assert [d.ok for d in got] == [True, True]
    for d in got:
        assert not [m for m in d.lines if m.startswith(("numpy.ma", "PIL."))], d.lines
    assert gc.get_freeze_count() == 0

    def fail(done):
        assert gc.get_freeze_count() > 0     # frozen while the batch runs
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        _convert.run_batch(jobs, 2, fail)
    assert gc.get_freeze_count() == 0
