"""The ``prefstats`` command line: ``prefstats COMMAND ...`` (``prefstats --help`` lists them).

Each command is a small function of the parsed arguments in ``game``, ``misere`` or
``studies``; the work lives in the package. A user's mistake (a bad card, option, file or
folder) is one line on standard error and exit code 2, never a traceback (docs/design.md,
"Command line"). The top layer: it may import everything below.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

import pyarrow as pa

from prefstats.cli import analyze, game, misere, studies
from prefstats.cli.speed import speed_line
from prefstats.studies.runs import one_line
from prefstats.version import __version__

BENCHMARKS = {
    "deal": "prefstats.benchmarks.deal",
    "solver": "prefstats.benchmarks.solver",
    "calibration": "prefstats.benchmarks.calibration",
    "misere": "prefstats.benchmarks.misere",
    "study": "prefstats.benchmarks.study",
    "potential": "prefstats.benchmarks.potential",
    "analyze": "prefstats.benchmarks.analyze",
}
USER_ERRORS = (ValueError, OSError, json.JSONDecodeError, pa.ArrowException)


def machine_line(when: str) -> str:
    """The machine a benchmark ran on, in one line: ``when`` (before or after), the time in
    UTC, the cores and the load average over the last 1, 5 and 15 minutes (docs/design.md,
    "Benchmarks"), or that the system does not report its load (Windows)."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    try:
        one, five, fifteen = os.getloadavg()
    except (AttributeError, OSError):
        load = "load average not reported by this system"
    else:
        load = f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"
    return f"machine {when}: {now}, {os.cpu_count()} cores, {load}"


def cmd_bench(args: argparse.Namespace) -> None:
    """Run one benchmark and print its figures, between the machine's load and speed before
    and after (``cli.speed``)."""
    print(machine_line("before"), flush=True)
    print(speed_line("before"), flush=True)
    importlib.import_module(BENCHMARKS[args.name]).main()
    print(machine_line("after"))
    print(speed_line("after"))


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
        print(f"prefstats {args.command}: stopped; rerun the same command to resume",
              file=sys.stderr)  # fmt: skip
        return 130
    return 0
