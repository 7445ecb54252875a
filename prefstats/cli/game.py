"""``prefstats deal`` and ``prefstats solve``: deals and their double-dummy values."""

from __future__ import annotations

import argparse
from typing import Any

from prefstats.cli.options import positive_int, style_of
from prefstats.game.cards import parse_hand
from prefstats.game.deal import N_PARTS, N_SEATS, SEAT_NAMES, Deal, deal_many
from prefstats.game.rules import Contract, Strain
from prefstats.solver import solve


def add_parsers(sub: Any) -> None:
    """Add ``deal`` and ``solve``."""
    deal = sub.add_parser("deal", help="print random deals (first | second | third | talon)")
    deal.add_argument("--n", type=positive_int, default=5, help="number of deals (default 5)")
    deal.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    deal.add_argument("--ru", action="store_true", help="Russian rank letters (В Д К Т)")
    deal.set_defaults(func=cmd_deal)

    solve_ = sub.add_parser("solve", help="double-dummy tricks of a deal")
    solve_.add_argument("deal", help='"first | second | third" hands (a talon part is ignored)')
    solve_.add_argument("--contract", default="6NT", help="e.g. 8♠, 7NT, misère (default 6NT)")
    solve_.add_argument("--declarer", type=int, choices=range(3), default=0)
    solve_.add_argument("--leader", type=int, choices=range(3), default=0)
    solve_.add_argument("--table", action="store_true", help="every strain, declarer and leader")
    solve_.set_defaults(func=cmd_solve)


def cmd_deal(args: argparse.Namespace) -> None:
    """Print ``--n`` random deals: first hand | second hand | third hand | talon."""
    for row in deal_many(args.n, seed=args.seed):
        print(Deal.from_row(row).format(style_of(args)))


def parse_hands(text: str) -> list[int]:
    """Three hands ``"first | second | third"``, or a whole deal with the talon (checked, then
    set aside: the talon does not take part in play)."""
    fields = text.split("|")
    if len(fields) == N_PARTS:
        return list(Deal.parse(text).hands)
    if len(fields) != N_SEATS:
        raise ValueError(f"give 3 hands (or a deal of 4 parts) separated by '|', got {text!r}")
    hands = []
    for name, field in zip(SEAT_NAMES, fields, strict=True):
        try:
            hands.append(parse_hand(field))
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
    return hands


def cmd_solve(args: argparse.Namespace) -> None:
    """Print the declarer's double-dummy tricks, or with ``--table`` every contract's."""
    hands = parse_hands(args.deal)
    if not args.table:
        contract = Contract.parse(args.contract)
        tricks = solve(
            hands, trump=contract.trump, misere=contract.is_misere, declarer=args.declarer,
            leader=args.leader,
        )  # fmt: skip
        print(tricks)
        return
    strains = [*(Contract(6, s) for s in Strain), Contract.misere()]
    header = "".join(f" D{d}L{lead}" for d in range(3) for lead in range(3))
    print(f"{'':7}{header}    (declarer's tricks; D = declarer seat, L = leader seat)")
    for c in strains:
        name = "misère" if c.is_misere else str(c)[1:]
        cells = [
            solve(hands, trump=c.trump, misere=c.is_misere, declarer=d, leader=lead)
            for d in range(3)
            for lead in range(3)
        ]
        print(f"{name:7}" + "".join(f"{t:5d}" for t in cells))
