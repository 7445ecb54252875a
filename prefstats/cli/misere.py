"""``prefstats classify``, ``misere`` and ``ev``: misère analysis on the command line.

>>> parser = argparse.ArgumentParser(prog="prefstats")
>>> add_parsers(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["classify", "7 8 9"])
>>> args.func(args)
holding 7 8 9: clean
one-suit game, 192 layouts (up to 2 cards out of play):
  caught on the defenders' lead in 0, when he must lead it in 0
"""

from __future__ import annotations

import argparse
from typing import Any

from prefstats.cli.options import finite_float, non_negative_float, positive_int
from prefstats.game.cards import (
    N_SUITS,
    SUIT_SYMBOLS,
    format_hand,
    format_holding,
    holding,
    parse_hand,
    parse_holding,
)
from prefstats.game.rules import RuleSet
from prefstats.misere.classes import SuitClass, analyse_holding, misere_hand_class, suit_class
from prefstats.misere.tables import LEADS, catch_rate_table, load_catch_rates
from prefstats.players.discards import DISCARDS
from prefstats.players.misere_risk import misere_risk
from prefstats.players.sharing import Utility, advice, misere_values


def add_parsers(subparsers: Any) -> None:
    """Add ``classify``, ``misere`` and ``ev`` to an argparse subparsers object."""
    classify = subparsers.add_parser(
        "classify", help="misère class of a suit holding (e.g. '7 9 J') or of a hand"
    )
    classify.add_argument("text", help="a holding without suit ('7 10 J') or a hand ('♠7 8 ♣9')")
    classify.set_defaults(func=cmd_classify)

    misere = subparsers.add_parser(
        "misere", help="P(caught), E[tricks] and the trick distribution of a misère hand"
    )
    misere.add_argument("hand", help="the declarer's ten cards, e.g. '♠7 8 A ♣7 9 ♦7 8 ♥8 9 10'")
    misere.add_argument("--talon", default=None, help="the two talon cards (default: unknown)")
    misere.add_argument("--seat", type=int, choices=[0, 1, 2], default=0,
                        help="declarer's seat: 0 first hand (leads), 1, 2")  # fmt: skip
    misere.add_argument("--discard", default="dd",
                        help=f"{' | '.join(DISCARDS)} | two cards (default dd)")  # fmt: skip
    misere.add_argument("--n", type=positive_int, default=2000, help="random layouts")
    misere.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    misere.add_argument("--exhaustive", action="store_true",
                        help="all 184,756 layouts (needs --talon and a fixed discard)")  # fmt: skip
    misere.add_argument("--choice-n", type=positive_int, default=16,
                        help="layouts sampled per 'sampled' discard choice")  # fmt: skip
    misere.set_defaults(func=cmd_misere)

    ev = subparsers.add_parser("ev", help="solo vs shared misère: EV with intervals and advice")
    ev.add_argument("hand", help='the misère hand, e.g. "♠7 8 9 ♣7 9 ♦7 8 ♥8 9 10"')
    ev.add_argument("--seat", type=int, choices=range(3), default=1, help="0 leads (default 1)")
    ev.add_argument("--discard", choices=list(DISCARDS), default="sampled")
    ev.add_argument("--n", type=positive_int, default=2000, help="outcomes sampled")
    ev.add_argument("--seed", type=int, default=1)
    ev.add_argument(
        "--risk-aversion",
        type=non_negative_float,
        default=0.0,
        help="CARA, per whist (0: risk-neutral)",
    )
    ev.add_argument("--baseline", type=finite_float, default=0.0,
                    help="whists of not bidding misère")  # fmt: skip
    ev.set_defaults(func=cmd_ev)


def cmd_classify(args: argparse.Namespace) -> None:
    """Print the class of a holding with its catch counts, or each suit's class of a hand."""
    print(classify_text(args.text))


def cmd_misere(args: argparse.Namespace) -> None:
    """Print P(caught), E[tricks] and the trick distribution of a misère hand."""
    risk = misere_risk(
        args.hand, seat=args.seat, talon=args.talon, discard=args.discard, n=args.n,
        seed=args.seed, exhaustive=args.exhaustive, choice_n=args.choice_n,
    )  # fmt: skip
    print(risk.format())


def cmd_ev(args: argparse.Namespace) -> None:
    """Solo and shared misère EV of a hand, with intervals, and the advice (Codex 3.6.9)."""
    rules = RuleSet(players=4)
    risk = misere_risk(args.hand, seat=args.seat, discard=args.discard, n=args.n, seed=args.seed)
    values = misere_values(risk.tricks, rules, baseline=args.baseline)
    print(f"hand {format_hand(risk.hand)}, seat {args.seat}, discard {args.discard}, "
          f"{risk.n:,} outcomes (talon and layout drawn); four players, Sochi")  # fmt: skip
    print(f"P(caught) {risk.p_caught}   E[tricks] {risk.mean_tricks}")
    print(values.round(2).to_string())
    print(advice(risk.tricks, rules, Utility(args.risk_aversion)))


def classify_text(text: str) -> str:
    """The report of ``prefstats classify``: a holding if ``text`` parses as one, else a hand.

    Both are read with the rank tokens of ``parse_hand``: ``т`` is clubs, ``Т`` the ace.

    >>> print(classify_text("♠7 8 ♣7 9"))
    ♠ 7 8          clean
    ♣ 7 9          conditionally clean
    ♦ -            void
    ♥ -            void
    misère: clean (cannot be caught)
    """
    try:
        mask = parse_holding(text)
    except ValueError as holding_error:
        try:
            hand = parse_hand(text)
        except ValueError as hand_error:
            raise ValueError(
                f"{text!r} is neither a holding ({holding_error}) nor a hand ({hand_error})"
            ) from None
        return _hand_report(hand)
    return _holding_report(mask)


def _holding_report(mask: int) -> str:
    analysis = analyse_holding(mask)
    lines = [
        f"holding {format_holding(mask)}: {_label(analysis.suit_class)}",
        f"one-suit game, {analysis.layouts:,} layouts (up to 2 cards out of play):",
        f"  caught on the defenders' lead in {analysis.caught_defenders_lead:,}, "
        f"when he must lead it in {analysis.caught_own_lead:,}",
    ]
    rates = _table_rows(mask)
    if rates:
        lines.append("full solver, clean suits elsewhere (data/catch_rates):")
        lines.extend(rates)
    return "\n".join(lines)


def _table_rows(mask: int) -> list[str]:
    """The shipped catch rates of a catchable holding, one line per lead (none if absent)."""
    if suit_class(mask) is not SuitClass.CATCHABLE:
        return []
    try:
        table = load_catch_rates()
    except ValueError:
        return []
    rows = table[table["holding"] == mask]
    return [
        f"  {row.lead:<5} lead: P(caught) {row.p_caught:.4f} [{row.p_caught_low:.4f}, "
        f"{row.p_caught_high:.4f}], E[tricks] {row.mean_tricks:.3f} "
        f"[{row.mean_tricks_low:.3f}, {row.mean_tricks_high:.3f}] (n={row.n:,})"
        for row in rows.sort_values("leader").itertuples()
    ]


def _hand_report(hand: int) -> str:
    lines = []
    for suit in range(N_SUITS):
        cards = holding(hand, suit)
        text = f"{SUIT_SYMBOLS[suit]} {format_holding(cards):<12}  {_label(suit_class(cards))}"
        lines.append(text + _rates_note(cards))
    verdict = misere_hand_class(hand).value if hand else "no cards"
    notes = {"clean": " (cannot be caught)", "conditionally_clean": " (safe unless he leads)"}
    lines.append(f"misère: {verdict.replace('_', ' ')}{notes.get(verdict, '')}")
    return "\n".join(lines)


def _rates_note(cards: int) -> str:
    """P(caught) by lead from the shipped table, for a catchable holding ('' if unavailable)."""
    if suit_class(cards) is not SuitClass.CATCHABLE:
        return ""
    try:
        rates = catch_rate_table()[cards]
    except ValueError:
        return ""
    parts = ", ".join(f"{lead} {rate:.3f}" for lead, rate in zip(LEADS, rates, strict=True))
    return f"   P(caught): {parts}"


def _label(cls: SuitClass) -> str:
    return cls.label.replace("_", " ")
