"""``prefstats analyze``: what a hand is worth in every contract of the ladder and misère."""

from __future__ import annotations

import argparse
import json
from typing import Any

from prefstats.cli.options import (
    add_ru,
    add_scoring,
    examples,
    fresh_seed,
    integer,
    positive_int,
    style_of,
    worker_count,
)
from prefstats.players.analysis import DEFAULT_N, POLICIES, analyze

HAND_EXAMPLE = "♠A K 10 9 8 ♣A ♦K Q ♥7 8"


def add_parsers(sub: Any) -> None:
    """Add ``analyze``."""
    parser = sub.add_parser(
        "analyze",
        help="P(make), E[tricks] and EV in whists of every contract and misère for a hand",
        description="Every contract of the ladder (6♠ … 10NT) and misère for a 10-card hand: "
        "P(make) with its 95%% interval, E[tricks], the EV in whists and the best bid, over "
        "layouts played double-dummy (the model is printed with the figures).",
        **examples(
            f'prefstats analyze "{HAND_EXAMPLE}" --seat 1',
            f'prefstats analyze "{HAND_EXAMPLE}" --seat 1 --talon "♦A ♥9" --discard "♥7 8"',
            f'prefstats analyze "{HAND_EXAMPLE}" --json --n 500 --seed 7',
        ),
    )
    parser.add_argument("hand", help="the ten cards before the talon")
    parser.add_argument(
        "--seat",
        type=integer,
        choices=range(3),
        default=0,
        help="0 first hand (leads to the first trick), 1 second, 2 third (default 0)",
    )
    parser.add_argument(
        "--talon",
        default=None,
        help="the two talon cards (default: unknown, every talon weighted exactly)",
    )
    parser.add_argument(
        "--discard",
        default="sampled",
        help=f"{', '.join(POLICIES)} or two cards (default sampled: the "
        "realistic policy, chosen before the layout is seen; upper-bound: "
        "the best per layout knowing every card). With --talon and two "
        "cards only the layout is random",
    )
    parser.add_argument(
        "--n",
        type=positive_int,
        default=DEFAULT_N,
        help=f"layouts (default {DEFAULT_N:,}: every interval within ±0.02)",
    )
    parser.add_argument(
        "--seed", type=integer, default=None, help="random seed (default: a fresh one, printed)"
    )
    parser.add_argument(
        "--players",
        type=integer,
        choices=(3, 4),
        default=3,
        help="3, or 4 with the dealer sitting out (default 3)",
    )
    parser.add_argument(
        "--exhaustive",
        action="store_true",
        help="all 184,756 layouts, every strain solved on each (minutes; "
        "needs --talon and a discard chosen before the layout)",
    )
    parser.add_argument("--jobs", type=worker_count, default=2, help="threads (default 2)")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    add_scoring(parser)
    add_ru(parser)
    parser.set_defaults(func=cmd_analyze)


def cmd_analyze(args: argparse.Namespace) -> None:
    """Print the analysis of a hand: one line per contract, the best bid and the model."""
    seed = fresh_seed() if args.seed is None and not args.exhaustive else args.seed
    analysis = analyze(
        args.hand,
        seat=args.seat,
        talon=args.talon,
        players=args.players,
        scoring=args.scoring,
        n=args.n,
        seed=seed,
        discard=args.discard,
        exhaustive=args.exhaustive,
        n_jobs=args.jobs,
    )
    if args.json:
        print(json.dumps(analysis.to_dict(), ensure_ascii=False, indent=1))
    else:
        print(analysis.format(style_of(args)))
