"""The wadkit command line."""
from __future__ import annotations

import argparse
import json
import os
import sys
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
    counts = info.get("counts") or {}
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
        _print_info(info)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wadkit", description=__doc__)
    p.add_argument("--debug", action="store_true",
                   help="show tracebacks for format and limit errors")
    sub = p.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="format and chunk table of a level file")
    info.add_argument("file")
    info.add_argument("--json", action="store_true", help="print JSON")
    info.set_defaults(func=cmd_info)
    commands.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:      # the reader went away (`| head`): quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except commands.EXPECTED as exc:
        if args.debug:
            raise
        print(f"wadkit: {getattr(args, 'file', '')}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
