"""The ``prefstats`` command line: ``prefstats COMMAND ...`` (``prefstats --help`` lists them).

Each command is a small function of the parsed arguments in ``game``, ``misere`` or
``studies``; the work lives in the package. A user's mistake (a bad card, option, file or
folder) is one line on standard error and exit code 2, never a traceback (docs/design.md,
"Command line"). The top layer: it may import everything below.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import pyarrow as pa

from prefstats.benchmarks.runner import BENCHMARKS, run_benchmark
from prefstats.cli import analyze, game, misere, studies
from prefstats.studies.storage import one_line
from prefstats.version import __version__

USER_ERRORS = (ValueError, OSError, json.JSONDecodeError, pa.ArrowException)


def cmd_bench(args: argparse.Namespace) -> None:
    """Run one benchmark (``benchmarks.runner``), recording its figures if asked."""
    run_benchmark(args.name, args.record)


class Parser(argparse.ArgumentParser):
    """An argument parser whose error is one line on standard error, and exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Print the mistake in one line (with where to read more) and exit with code 2."""
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = Parser(
        prog="prefstats", description="Statistics of Preferans: deal, solve, simulate, report."
    )
    parser.add_argument("--version", action="version", version=f"prefstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    game.add_parsers(sub)
    analyze.add_parsers(sub)
    misere.add_parsers(sub)
    studies.add_parsers(sub)
    bench = sub.add_parser("bench", help="print benchmark figures")
    bench.add_argument("name", choices=sorted(BENCHMARKS), help="what to benchmark")
    bench.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="append the figures, the date, commit, CPU and load to FILE as a JSON line",
    )
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``prefstats`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], None] = args.func
    try:
        func(args)
    except USER_ERRORS as err:
        print(f"prefstats {args.command}: {one_line(err)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            f"prefstats {args.command}: stopped; rerun the same command to resume", file=sys.stderr
        )
        return 130
    return 0
