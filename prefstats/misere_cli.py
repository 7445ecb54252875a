"""``prefstats classify`` and ``prefstats misere``: misère analysis on the command line.

``prefstats.cli`` wires these in with :func:`add_parsers`.

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

from prefstats.cards import N_SUITS, SUIT_SYMBOLS, holding, parse_hand
from prefstats.catch import LEADS, POLICIES, catch_rate_table, load_catch_rates, misere_risk
from prefstats.misere import (
    SuitClass,
    analyse_holding,
    format_holding,
    misere_hand_class,
    parse_holding,
    suit_class,
)


def add_parsers(subparsers: Any) -> None:
    """Add the ``classify`` and ``misere`` subcommands to an argparse subparsers object."""
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
                        help=f"{' | '.join(POLICIES)} | two cards (default dd)")  # fmt: skip
    misere.add_argument("--n", type=_positive_int, default=2000, help="random layouts")
    misere.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    misere.add_argument("--exhaustive", action="store_true",
                        help="all 184,756 layouts (needs --talon and a fixed discard)")  # fmt: skip
    misere.add_argument("--choice-n", type=_positive_int, default=16,
                        help="layouts sampled per 'sampled' discard choice")  # fmt: skip
    misere.set_defaults(func=cmd_misere)


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


def classify_text(text: str) -> str:
    """The report of ``prefstats classify``: a holding if ``text`` parses as one, else a hand.

    A lone lower-case ``т`` reads as an ace (a holding); write clubs as ``♣`` or ``C``.

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


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


__all__ = ["add_parsers", "classify_text", "cmd_classify", "cmd_misere"]
