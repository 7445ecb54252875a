"""``prefstats deal`` and ``prefstats solve``: deals and their double-dummy play."""

from __future__ import annotations

import argparse
from typing import Any

from prefstats.cli.options import add_ru, deal_count, examples, fresh_seed, integer, style_of
from prefstats.game.cards import Style
from prefstats.game.deal import N_PARTS, N_SEATS, SEAT_NAMES, Deal, deal_many, parse_parts
from prefstats.game.rules import Contract
from prefstats.solver import solve
from prefstats.solver.contracts import dd_table
from prefstats.solver.line import play_line

DEAL_EXAMPLE = "♠7 10 J ♣10 ♦7 9 10 K A ♥9 | ♠9 ♣7 8 9 Q K A ♥7 K A | ♠8 Q K A ♣J ♦8 Q ♥8 10 J"


def add_parsers(sub: Any) -> None:
    """Add ``deal`` and ``solve``."""
    deal = sub.add_parser(
        "deal",
        help="print random deals (first | second | third | talon)",
        **examples("prefstats deal --n 3 --seed 1", "prefstats deal --seed 1 --ru"),
    )
    deal.add_argument("--n", type=deal_count, default=5, help="number of deals (default 5)")
    deal.add_argument(
        "--seed",
        type=integer,
        default=None,
        help="seed of the deals: deal i of a seed is always the same (default: "
        "a fresh one, printed after the deals)",
    )
    add_ru(deal)
    deal.set_defaults(func=cmd_deal)

    solve_ = sub.add_parser(
        "solve",
        help="double-dummy tricks of a deal, every contract, or the play card by card",
        **examples(
            f'prefstats solve "{DEAL_EXAMPLE}" --contract 6♦',
            f'prefstats solve "{DEAL_EXAMPLE}" --table',
            f'prefstats solve "{DEAL_EXAMPLE}" --contract misère --declarer 1 --line',
        ),
    )
    solve_.add_argument(
        "deal",
        help='"first | second | third" hands of equal size, or a whole '
        "deal with its talon (checked, then set aside)",
    )
    solve_.add_argument(
        "--contract",
        default="6NT",
        help="the strain played: 6♠ … 6NT (the level does not matter), or misère (default 6NT)",
    )
    solve_.add_argument(
        "--declarer",
        type=integer,
        choices=range(3),
        default=0,
        help="seat 0 first hand, 1 second, 2 third (default 0)",
    )
    solve_.add_argument(
        "--leader",
        type=integer,
        choices=range(3),
        default=0,
        help="who leads to the first trick (default 0, the first hand)",
    )
    what = solve_.add_mutually_exclusive_group()
    what.add_argument(
        "--table", action="store_true", help="every strain for every declarer and leader"
    )
    what.add_argument("--line", action="store_true", help="the double-dummy play, trick by trick")
    add_ru(solve_)
    solve_.set_defaults(func=cmd_solve)


def cmd_deal(args: argparse.Namespace) -> None:
    """Print ``--n`` random deals: first hand | second hand | third hand | talon; without
    ``--seed``, then the fresh seed they came from (short, to retype)."""
    seed = fresh_seed() if args.seed is None else args.seed
    for row in deal_many(args.n, seed=seed):
        print(Deal.from_row(row).format(style_of(args)))
    if args.seed is None:
        print(f"seed {seed} (--seed {seed} deals these again)")


def parse_hands(text: str) -> list[int]:
    """Three hands ``"first | second | third"``, or a whole deal with the talon (checked, then
    set aside: the talon does not take part in play)."""
    parts = text.count("|") + 1
    if parts == N_PARTS:
        return list(Deal.parse(text).hands)
    if parts != N_SEATS:
        raise ValueError(f"give 3 hands (or a deal of 4 parts) separated by '|', got {text!r}")
    return parse_parts(text, SEAT_NAMES)


def cmd_solve(args: argparse.Namespace) -> None:
    """Print the declarer's double-dummy tricks, every contract's (``--table``) or the play
    line (``--line``)."""
    hands = parse_hands(args.deal)
    if args.table:
        style = style_of(args)
        table = dd_table(hands, style)
        if style == "ru":
            names = dict(zip(SEAT_NAMES, SEATS_TEXT["ru"], strict=True))
            table = table.rename(columns=names).rename_axis(
                index="масть", columns=["разыгрывающий", "ходит"]
            )
        print(table.to_string())
        print(TABLE_NOTE[style])
        return
    contract = Contract.parse(args.contract)
    if args.line:
        line = play_line(hands, contract, declarer=args.declarer, leader=args.leader)
        print(line.format(style_of(args)))
        return
    tricks = solve(hands, contract, declarer=args.declarer, leader=args.leader)
    print(solve_sentence(contract, args.declarer, args.leader, tricks, style_of(args)))


TABLE_NOTE: dict[Style, str] = {
    "en": "(the declarer's tricks, double-dummy)",
    "ru": "(взятки разыгрывающего, в открытую)",
}
LEADS_TEXT: dict[Style, str] = {"en": "{leader} leads", "ru": "ходит {leader}"}
SEATS_TEXT: dict[Style, tuple[str, ...]] = {
    "en": SEAT_NAMES,
    "ru": ("первая рука", "вторая рука", "третья рука"),
}


def solve_sentence(
    contract: Contract, declarer: int, leader: int, tricks: int, style: Style = "en"
) -> str:
    """``solve``'s answer as a sentence: "6NT, first hand leads: the declarer takes 5 tricks"
    (the declarer's seat named when it is not the first hand; the level is not played).

    >>> solve_sentence(Contract.parse("6NT"), 0, 0, 5)
    '6NT, first hand leads: the declarer takes 5 tricks'
    >>> solve_sentence(Contract.parse("мизер"), 1, 0, 1, "ru")
    'мизер, ходит первая рука: разыгрывающий (вторая рука) берёт 1 взятку'
    """
    seats = SEATS_TEXT[style]
    who = "" if declarer == 0 else f" ({seats[declarer]})"
    lead = LEADS_TEXT[style].format(leader=seats[leader])
    if style == "ru":
        return f"{contract.format(style)}, {lead}: разыгрывающий{who} берёт {_ru_tricks(tricks)}"
    noun = "trick" if tricks == 1 else "tricks"
    return f"{contract.format(style)}, {lead}: the declarer{who} takes {tricks} {noun}"


def _ru_tricks(n: int) -> str:
    """The Russian count of tricks: 1 взятку, 2 взятки, 5 взяток."""
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} взятку"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} взятки"
    return f"{n} взяток"
