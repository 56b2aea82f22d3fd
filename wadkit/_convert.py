"""`wadkit convert`: where each output goes, one level converted (in this
process or in a worker), and a batch over a pool of worker processes with a
progress bar and one line per failure (docs/cli.md)."""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
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


# Errors shown as one line without a traceback (unless --debug).
EXPECTED = (FormatError, LimitError, OSError, NotImplementedError, MeshError,
            UsageError)
_EXPECTED = EXPECTED + (ValueError,)


def error_line(path: str, exc: BaseException) -> str:
    where = f"wadkit: {path}: " if path else "wadkit: "
    if isinstance(exc, _EXPECTED):
        return f"{where}{exc}"
    return (f"{where}internal error ({type(exc).__name__}: {exc}); "
            "run with --debug for the traceback")


def warning_line(path: str, message) -> str:
    return f"wadkit: {path}: warning: {message}" if path else f"wadkit: warning: {message}"


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
            if export._has(lvl, "terrain") and (job.collision or job.objects):
                lines.append(f"wadkit: {job.src}: note: --collision/--objects "
                             "are ENG only (ignored)")
            summary = export.export_level(lvl, job.dst, job.fmt,
                                          collision=job.collision,
                                          objects=job.objects, lod=job.lod)
        except Exception as exc:       # one bad file must not stop a batch
            failure = error_line(job.src, exc)
            if job.debug:
                failure += "\n" + traceback.format_exc().rstrip()
    seen = set()
    for w in caught:
        text = str(w.message)
        if text not in seen:
            seen.add(text)
            lines.append(warning_line(job.src, text))
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
    """Run the jobs, in this process (workers <= 1) or on a pool of worker
    processes; report(done) is called for each in input order. Workers are
    started by a fork server (a clean single-threaded process: forking this
    one, whose NumPy may run threads, could deadlock a child)."""
    results = []
    if workers <= 1 or len(jobs) <= 1 or not _workers_can_start():
        for job in jobs:
            results.append(run_job(job))
            report(results[-1])
        return results
    ctx = multiprocessing.get_context("forkserver")
    # the server imports the converter once; each worker is a fork of it
    ctx.set_forkserver_preload(["wadkit._convert", "wadkit.export"])
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        futures = [pool.submit(run_job, job) for job in jobs]
        try:
            for job, fut in zip(jobs, futures):
                try:
                    done = fut.result()
                except BrokenProcessPool:
                    # a worker died (a crash): every job still pending
                    # failed with it; each gets a process of its own, so
                    # only the one that dies again is a failure
                    done = _isolated(job, ctx)
                results.append(done)
                report(done)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
    return results


def _workers_can_start() -> bool:
    """A worker imports the main module again (as multiprocessing does): a
    program read from stdin or a notebook cell has none to import, so
    there the batch runs in this process."""
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


def _isolated(job: Job, ctx) -> Done:
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        try:
            return pool.submit(run_job, job).result()
        except BrokenProcessPool as exc:
            return Done(job, False, [error_line(job.src, RuntimeError(
                f"the worker process converting it died ({exc})"))], None)


def cmd_convert(args) -> int:
    fmt, folder = plan_output(args.output, args.format, len(args.files))
    dsts = output_paths(args.files, args.output, fmt, folder)
    if folder:
        os.makedirs(args.output, exist_ok=True)
    debug = bool(getattr(args, "debug", False))
    jobs = [Job(src, dst, fmt, args.collision, args.objects, args.lod, debug)
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
