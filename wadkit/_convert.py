"""`wadkit convert`: where each output goes, one level converted (in this
process or in a worker), and a batch over a pool of worker processes with a
progress bar and one line per failure (docs/cli.md)."""
from __future__ import annotations

import concurrent.futures
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import time
import traceback
import warnings
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from . import FormatError, LimitError, WadWarning
from .detect import open as open_level
from .meshio import MeshError


class UsageError(Exception):
    """A command line that cannot work (shown as one line, exit 1)."""


# Errors shown as one line without a traceback (unless --debug): the
# input's or the command line's fault. A ValueError is an argument the API
# refused (`lz d --max-size -1`); anything else is "internal error".
USER_ERRORS = (FormatError, LimitError, OSError, NotImplementedError, MeshError,
               UsageError, ValueError)


def error_line(path: str, exc: BaseException) -> str:
    where = f"wadkit: {path}: " if path else "wadkit: "
    if isinstance(exc, USER_ERRORS):
        return f"{where}{exc}"
    return (f"{where}internal error ({type(exc).__name__}: {exc}); "
            "run with --debug for the traceback")


def warning_line(path: str, message, category=WadWarning) -> str:
    """`wadkit: FILE: warning: …`; a warning that is not wadkit's names its
    category (RuntimeWarning …)."""
    text = str(message) if issubclass(category, WadWarning) else \
        f"{message} ({category.__name__})"
    return f"wadkit: {path}: warning: {text}" if path else f"wadkit: warning: {text}"


class Progress:
    """A progress bar on stderr: redrawn in place on a terminal, one line
    per file otherwise (logs, CI). Messages go above the bar."""

    def __init__(self, total: int, stream=None, width: int = 30):
        self.total, self.done, self.width = total, 0, width
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.t0 = time.monotonic()

    def _bar(self, label: str) -> str:
        filled = self.width * self.done // max(self.total, 1)
        return (f"[{'#' * filled}{'.' * (self.width - filled)}] "
                f"{self.done}/{self.total} {label}")

    def message(self, text: str) -> None:
        if self.tty:
            self.stream.write("\r\033[K")
        self.stream.write(text + "\n")
        self.stream.flush()

    def step(self, label: str) -> None:
        self.done += 1
        if self.tty:
            self.stream.write("\r\033[K" + self._bar(os.path.basename(label)))
            if self.done == self.total:
                self.stream.write(f"  {time.monotonic() - self.t0:.1f}s\n")
        else:
            self.stream.write(self._bar(label) + "\n")
        self.stream.flush()


# ------------------------------------------------------------------ outputs

def plan_output(output: str, fmt: str | None, n_inputs: int) -> tuple[str, bool]:
    """(format, whether -o is a folder). -o is a file when it has one of
    the formats' extensions, a folder when it has none, ends in a slash or
    is one; any other extension, an extension that contradicts --format,
    or several inputs into one file is refused (nothing is written)."""
    from .export import FORMATS
    folder = output.endswith(("/", os.sep)) or os.path.isdir(output)
    ext = "" if folder else os.path.splitext(output)[1].lstrip(".").lower()
    if ext and ext not in FORMATS:
        raise UsageError(
            f"-o {output}: wadkit does not write .{ext} files (it writes "
            f"{', '.join('.' + f for f in FORMATS)}); for a folder of that "
            f"name write -o {output}{os.sep}")
    if ext and fmt and fmt != ext:
        raise UsageError(f"-o {output} is a .{ext} file but --format says {fmt}")
    if ext and n_inputs > 1:
        raise UsageError(f"{n_inputs} input files need -o to be a folder, "
                         f"not a .{ext} file")
    return (ext, False) if ext else (fmt or "glb", True)


def output_paths(files: list[str], output: str, fmt: str, folder: bool) -> list[str]:
    """The output of each input: -o itself, or <folder>/<stem>.<fmt> with
    _2, _3 … where two inputs share a stem (decided before any runs, so a
    pool writes the same files as a serial run)."""
    if not folder:
        return [output]
    taken: set[str] = set()
    out = []
    for src in files:
        stem = os.path.splitext(os.path.basename(src))[0]
        path, n = os.path.join(output, f"{stem}.{fmt}"), 2
        while path in taken:
            path, n = os.path.join(output, f"{stem}_{n}.{fmt}"), n + 1
        taken.add(path)
        out.append(path)
    return out


# ------------------------------------------------------------------ one level

@dataclass(frozen=True)
class Job:
    src: str
    dst: str
    fmt: str
    collision: bool = False
    objects: bool = False
    lod: int = 0
    debug: bool = False
    sky: bool = False                 # RC2
    instancing: str = "auto"          # RC2


@dataclass
class Done:
    job: Job
    ok: bool
    lines: list[str]          # warnings, notes and the failure line, in order
    summary: dict | None      # export.summary() of what was written


def run_job(job: Job) -> Done:
    """Convert one level; never raises (a worker's result must come back).
    Warnings raised while converting become lines `wadkit: SRC: warning: …`
    (those of opening the file are `wadkit info`'s to list)."""
    from . import export
    lines: list[str] = []
    summary, failure = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore", WadWarning)
        try:
            lvl = open_level(job.src)
            warnings.simplefilter("always")
            rc2 = export._has(lvl, "terrain")
            if rc2 and job.objects:
                lines.append(f"wadkit: {job.src}: note: --objects is ENG only (ignored)")
            if not rc2 and job.sky:
                lines.append(f"wadkit: {job.src}: note: --sky is RC2 only (ignored)")
            notes: list[str] = []
            summary = export.export_level(lvl, job.dst, job.fmt,
                                          collision=job.collision,
                                          objects=job.objects, lod=job.lod,
                                          sky=job.sky, instancing=job.instancing,
                                          notes=notes)
            lines += [f"wadkit: {job.src}: note: {n}" for n in notes]
        except Exception as exc:       # one bad file must not stop a batch
            failure = error_line(job.src, exc)
            if job.debug:
                failure += "\n" + traceback.format_exc().rstrip()
    for text in dict.fromkeys(warning_line(job.src, w.message, w.category)
                              for w in caught):   # each once, in order
        lines.append(text)
    if failure is not None:
        lines.append(failure)
    return Done(job, failure is None, lines, summary)


def describe(dst: str, summary: dict) -> str:
    """What a single conversion wrote, for stdout."""
    layers = ", ".join(f"{name} {v['triangles']} triangles"
                       for name, v in summary["layers"].items())
    return f"wrote {dst}: {layers or 'no triangles'}"


# ------------------------------------------------------------------ batch

def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_batch(jobs: list[Job], workers: int, report) -> list[Done]:
    """Run the jobs on `workers` worker processes (in this process, one
    after the other, for workers <= 1); report(done) is called for each in
    input order. The pool hands each worker its next level as it finishes
    one (measured here: 8 levels on 2 cores take 1.09 s this way, 1.37 s
    with this process converting from the back beside one worker: the
    pool queues a level ahead for each worker, which the back could not
    take)."""
    ctx = _context()
    if workers <= 1 or len(jobs) <= 1 or ctx is None:
        results = []
        for job in jobs:
            results.append(run_job(job))
            report(results[-1])
        return results
    if ctx.get_start_method() == "fork":
        # what each worker would load on its first level, loaded once here
        # for all forks: the PNG encoder of Pillow (found on first save),
        # numpy.ma (which np.unique imports on its first call)
        import numpy.ma  # noqa: F401
        from PIL import Image
        Image.preinit()
    # Ctrl-C is this process's to handle: workers ignore it (no traceback
    # from each); what has not started is cancelled, what has is waited
    # for (no worker writes on after the command has returned)
    pool = concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=signal.signal,
        initargs=(signal.SIGINT, signal.SIG_IGN))
    results = []
    # the forks are made at the first submit: what this process holds then
    # is left out of the collections (theirs and its own) until the batch
    # is done, so no collector writes to, and copies, those shared pages
    gc.freeze()
    try:
        with warnings.catch_warnings():
            # Python 3.12+ warns of forking with threads: NumPy's idle BLAS
            # pool is the only other thread here (see _context)
            warnings.filterwarnings("ignore", r".*multi-threaded.*fork",
                                    DeprecationWarning)
            futures = [pool.submit(run_job, job) for job in jobs]
        for job, fut in zip(jobs, futures):
            try:
                done = fut.result()
            except BrokenProcessPool:
                # a worker died (a crash): every job still queued failed
                # with it; each gets a process of its own, so only the one
                # that dies again is a failure
                done = _isolated(job, ctx)
            results.append(done)
            report(done)
    except BaseException:
        # one shutdown call: a second one would reset cancel_futures
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        gc.unfreeze()
    pool.shutdown(wait=True)
    return results


# glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3


def keep_freed_memory() -> None:
    """Where the C library is glibc: blocks up to 32 MiB (its maximum) come
    from the heap and freed memory stays in the process (no trim below
    1 GiB), so each level after the first reuses the pages the one before
    it freed instead of faulting in fresh zeroed ones (8 levels: 38k page
    faults → 24k, docs/performance-batch-fresh.md). Elsewhere nothing."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError, TypeError, ValueError):
        return
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt(M_TRIM_THRESHOLD, 1 << 30)
    mallopt(M_MMAP_THRESHOLD, 32 << 20)


def _context():
    """How workers start, or None where they cannot. On Linux they are
    forks of this process, all made when the pool starts, before this
    process opens a level: its only other thread then is NumPy's idle
    OpenBLAS pool, which OpenBLAS shuts down around a fork. A fork server
    (clean, but it imports the converter again: 8 levels on 2 cores took
    1.22 s instead of 1.09 s here) is used elsewhere; it re-imports the
    main module, which a program read from stdin or a notebook cell does
    not have."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if getattr(getattr(main, "__spec__", None), "name", None) or path is None \
            or os.path.isfile(path):
        ctx = multiprocessing.get_context("forkserver" if hasattr(os, "fork") else "spawn")
        if ctx.get_start_method() == "forkserver":
            ctx.set_forkserver_preload(["wadkit._convert", "wadkit.export"])
        return ctx
    return None


def _isolated(job: Job, ctx) -> Done:
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        try:
            return pool.submit(run_job, job).result()
        except BrokenProcessPool as exc:
            return Done(job, False, [error_line(job.src, RuntimeError(
                f"the worker process converting it died ({exc})"))], None)


def cmd_convert(args) -> int:
    if args.jobs < 0:
        raise UsageError(f"-j {args.jobs}: the number of levels converted at once "
                         "is 1 or more (0: one per CPU core)")
    fmt, folder = plan_output(args.output, args.format, len(args.files))
    dsts = output_paths(args.files, args.output, fmt, folder)
    if folder:
        os.makedirs(args.output, exist_ok=True)
    debug = bool(getattr(args, "debug", False))
    keep_freed_memory()      # this process and its forks, serial or pool alike
    jobs = [Job(src, dst, fmt, args.collision, args.objects, args.lod, debug,
                args.sky, args.instancing)
            for src, dst in zip(args.files, dsts)]
    if len(jobs) == 1:
        done = run_job(jobs[0])
        for line in done.lines:
            print(line, file=sys.stderr)
        if done.ok:
            print(describe(done.job.dst, done.summary))
        return 0 if done.ok else 1
    progress = Progress(len(jobs))

    def report(done: Done) -> None:
        for line in done.lines:
            progress.message(line)
        progress.step(done.job.src)
    workers = min(args.jobs or usable_cpus(), len(jobs))
    results = run_batch(jobs, workers, report)
    failed = sum(not d.ok for d in results)
    print(f"wadkit: converted {len(jobs) - failed} of {len(jobs)} files to "
          f"{args.output}", file=sys.stderr)
    return 1 if failed else 0
