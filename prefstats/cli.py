"""The ``prefstats`` command line: ``prefstats deal | bench ...``.

Each subcommand is a small function taking the parsed arguments; the work lives in the package.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from prefstats.cards import Style
from prefstats.deal import Deal, deal_many

BENCHMARKS = {
    "deal": "prefstats.benchmarks.deal",
}


def cmd_deal(args: argparse.Namespace) -> None:
    """Print ``--n`` random deals: first hand | second hand | third hand | talon."""
    deals = deal_many(args.n, seed=args.seed)
    style: Style = "ru" if args.ru else "en"
    for row in deals:
        print(Deal.from_row(row).format(style))


def cmd_bench(args: argparse.Namespace) -> None:
    """Run one benchmark and print its figures."""
    module = importlib.import_module(BENCHMARKS[args.name])
    module.main()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="prefstats", description="Statistics of Preferans: deal, solve, simulate, report."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    deal = sub.add_parser("deal", help="print random deals (first | second | third | talon)")
    deal.add_argument("--n", type=_positive_int, default=5, help="number of deals (default 5)")
    deal.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    deal.add_argument("--ru", action="store_true", help="Russian rank letters (В Д К Т)")
    deal.set_defaults(func=cmd_deal)

    bench = sub.add_parser("bench", help="print benchmark figures")
    bench.add_argument("name", choices=sorted(BENCHMARKS), help="what to benchmark")
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``prefstats`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], None] = args.func
    try:
        func(args)
    except ValueError as err:
        print(f"prefstats {args.command}: {err}", file=sys.stderr)
        return 2
    return 0


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


if __name__ == "__main__":
    sys.exit(main())
