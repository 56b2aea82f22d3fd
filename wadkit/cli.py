"""The wadkit command line."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import warnings

from . import FormatError, LimitError, WadWarning
from . import commands
from .detect import open as open_level


def _print_info(info: dict) -> None:
    print(f"{info['path']}: {info['format'].upper()} level WAD, "
          f"{info['size']} bytes")
    if info["declared_length"] != info["size"]:
        print(f"  length field: {info['declared_length']} (file: {info['size']})")
    print(f"  {'tag':<6}{'offset':>10}{'size':>10}")
    for c in info["chunks"]:
        print(f"  {c['tag']:<6}{c['offset']:>#10x}{c['size']:>10}")
    for w in info["warnings"]:
        print(f"  warning: {w}")


def _print_rc2_info(info: dict) -> None:
    h = info["header"]
    print(f"{info['path']}: RC2 level WAD, {info['size']} bytes, "
          f"header 0x{h['header_size']:x}, level id {h['id']}, "
          f"reverb {h['reverb']}")
    print(f"  {'extent':<20}{'offset':>12}{'size':>12}{'sectors':>14}")
    for name, x in info["extents"].items():
        print(f"  {name:<20}{x['offset']:>#12x}{x['size']:>12}"
              f"{x['sector']:>7}+{x['sectors']}")
    print(f"  {'data section':<20}{'offset':>12}{'size':>12}")
    for name, x in info["sections"].items():
        print(f"  {name:<20}{x['offset']:>#12x}{x['size']:>12}")
    c = info["core_header"]
    print(f"  core_data: {c['compressed_size']} bytes compressed, "
          f"{c['decompressed_size']} decompressed; tfrags 0x{c['tfrags']:x}, "
          f"occlusion 0x{c['occlusion']:x}, sky 0x{c['sky']:x}, "
          f"collision 0x{c['collision']:x}, textures 0x{c['textures_base']:x}")


def _write_atomic(path: str, data: bytes) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".wadkit-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def cmd_lz(args) -> int:
    from . import lz
    with open(args.file, "rb") as f:
        data = f.read()
    if args.mode == "v":
        problems = lz.validate(data)
        for p in problems:
            print(p)
        return 1 if problems else 0
    if args.output is None:
        raise SystemExit("wadkit lz: OUT is needed for c and d")
    out = lz.compress(data, args.level, args.threads) if args.mode == "c" \
        else lz.decompress(data, args.max_size)
    _write_atomic(args.output, out)
    return 0


def _print_counts(info: dict) -> None:
    counts = dict(info.get("counts") or {})
    if "tiles_with_faces" in counts:          # "tiles 916 (627 with faces)"
        counts["tiles"] = f"{counts['tiles']} ({counts.pop('tiles_with_faces')} with faces)"
    shown = [f"{k.replace('_', ' ')} "
             f"{'x'.join(map(str, v)) if isinstance(v, list) else v}"
             for k, v in counts.items() if k != "errors"]
    if shown:
        print("  counts: " + ", ".join(shown))
    for e in counts.get("errors", []):
        print(f"  unreadable: {e}")


def cmd_info(args) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WadWarning)  # listed in the output
        lvl = open_level(args.file)
        info = lvl.info()
    info["counts"] = commands.level_counts(lvl)
    if args.json:
        json.dump(info, sys.stdout, indent=2)
        print()
    else:
        (_print_rc2_info if info["format"] == "rc2" else _print_info)(info)
        _print_counts(info)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
    p = argparse.ArgumentParser(prog="wadkit", description=__doc__)
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument("--debug", action="store_true",
                   help="show tracebacks for format and limit errors")
    sub = p.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="format and chunk table of a level file")
    info.add_argument("file")
    info.add_argument("--json", action="store_true", help="print JSON")
    info.set_defaults(func=cmd_info)
    lzp = sub.add_parser("lz", help="WAD-LZ: c compress, d decompress, "
                         "v validate (list rule violations)")
    lzp.add_argument("mode", choices=["c", "d", "v"])
    lzp.add_argument("file", metavar="IN")
    lzp.add_argument("output", metavar="OUT", nargs="?")
    lzp.add_argument("--max-size", type=int, default=1 << 28,
                     help="refuse to decompress more bytes (default 256 MiB)")
    lzp.add_argument("--level", choices=["default", "fast", "max", "best", "lazy", "greedy"],
                     default="default", help="compression level (c)")
    lzp.add_argument("--threads", type=int, default=1,
                     help="threads for c (0: one per processor)")
    lzp.set_defaults(func=cmd_lz)
    commands.register(sub)
    return p


# Commands whose positionals are numbers that may be negative ("-1e9",
# "-inf"): argparse takes those for options.
_NUMERIC_POSITIONALS = {"floor"}


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _negative_numbers_as_positionals(argv: list[str]) -> list[str]:
    """`floor FILE -5 3 -1e3 --json` → `floor --json -- FILE -5 3 -1e3`: the
    command's options (flags without values) first, then `--`, so every
    number is a positional."""
    for i, token in enumerate(argv):
        if token in _NUMERIC_POSITIONALS:
            rest = argv[i + 1:]
            if "--" in rest or not any(t.startswith("-") and _is_number(t) for t in rest):
                return argv
            opts = [t for t in rest if t.startswith("-") and not _is_number(t)]
            pos = [t for t in rest if not (t.startswith("-") and not _is_number(t))]
            return argv[:i + 1] + opts + ["--"] + pos
        if not token.startswith("-"):
            return argv          # another command
    return argv


# 128 + SIGPIPE: what a shell reports for a Unix tool whose reader went away
EXIT_PIPE = 141


def _quiet_closed_pipe() -> int:
    """The reader went away (`wadkit … | head`): no message, no flush at
    exit into the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError):
            pass
    return EXIT_PIPE


def main(argv: list[str] | None = None) -> int:
    argv = _negative_numbers_as_positionals(list(sys.argv[1:] if argv is None else argv))
    args = build_parser().parse_args(argv)

    def where() -> str:        # a command may set args.file to what it reads
        return getattr(args, "file", "")
    try:
        with warnings.catch_warnings():
            # a wadkit warning is one line naming the file, as errors are
            def show(message, category, filename, lineno, file=None, line=None):
                print(commands.warning_line(where(), message, category), file=sys.stderr)
            warnings.showwarning = show
            rc = args.func(args)
        sys.stdout.flush()
        return rc
    except BrokenPipeError:
        return _quiet_closed_pipe()
    except KeyboardInterrupt:    # Ctrl-C: 128 + SIGINT, as a shell reports it
        print(file=sys.stderr)
        return 130
    except commands.USER_ERRORS as exc:
        if args.debug:
            raise
        print(commands.error_line(where(), exc), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
