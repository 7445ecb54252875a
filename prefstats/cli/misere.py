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

from prefstats.cli.options import (
    add_ru,
    add_scoring,
    examples,
    finite_float,
    fresh_seed,
    integer,
    non_negative_float,
    positive_int,
    style_of,
)
from prefstats.game.cards import (
    HAND_CARDS,
    N_SUITS,
    SUIT_SYMBOLS,
    Style,
    format_hand,
    format_holding,
    holding,
    parse_hand,
    parse_holding,
)
from prefstats.game.deal import FIRST_HAND
from prefstats.game.rules import RuleSet
from prefstats.misere.classes import SuitClass, analyse_holding, misere_hand_class, suit_class
from prefstats.misere.tables import (
    LEADS,
    PLAYERS,
    catch_rate_table,
    lead_index,
    load_catch_rates,
)
from prefstats.players.discards import REALISTIC, USER_NAMES, SampledDiscard
from prefstats.players.misere_risk import MisereRisk, misere_risk
from prefstats.players.sharing import Utility, advice, misere_values

HAND_EXAMPLE = "♠7 8 A ♣7 9 ♦7 8 ♥8 9 10"
DISCARD_HELP = (
    "sampled (default, the realistic policy): chosen before the layout is seen, on layouts he "
    "samples; heuristic: the rule of thumb; upper-bound: the best discard knowing every card, "
    "which no declarer can do; or two cards"
)


def add_parsers(subparsers: Any) -> None:
    """Add ``classify``, ``misere`` and ``ev`` to an argparse subparsers object."""
    classify = subparsers.add_parser(
        "classify",
        help="misère class of a suit holding (e.g. '7 9 J') or of a hand",
        **examples('prefstats classify "7 10"', 'prefstats classify "п 7 8 т 7 9 б 8"'),
    )
    classify.add_argument(
        "text",
        help="a holding without suit ('7 10 J') or a hand ('♠7 8 ♣9'), "
        "in English or Russian notation (т is clubs, Т the ace)",
    )
    add_ru(classify)
    classify.set_defaults(func=cmd_classify)

    misere = subparsers.add_parser(
        "misere",
        help="P(caught), E[tricks] and the trick distribution of a misère hand",
        **examples(
            f'prefstats misere "{HAND_EXAMPLE}" --seat 1 --discard upper-bound',
            f'prefstats misere "{HAND_EXAMPLE}" --talon "♠K ♦J" --discard "♠K A" --exhaustive',
        ),
    )
    misere.add_argument("hand", help="the declarer's ten cards before the talon")
    misere.add_argument(
        "--talon",
        default=None,
        help="the two talon cards (default: unknown, drawn for each layout)",
    )
    misere.add_argument(
        "--seat",
        type=integer,
        choices=[0, 1, 2],
        default=0,
        help="the declarer's seat: 0 first hand (he leads), 1, 2 (default 0)",
    )
    misere.add_argument("--discard", default=REALISTIC, help=DISCARD_HELP)
    misere.add_argument("--n", type=positive_int, default=2000, help="random layouts")
    misere.add_argument(
        "--seed", type=integer, default=None, help="random seed (default: a fresh one, printed)"
    )
    misere.add_argument(
        "--exhaustive",
        action="store_true",
        help="all 184,756 layouts (needs --talon and a fixed discard)",
    )
    misere.add_argument(
        "--choice-n",
        type=positive_int,
        default=SampledDiscard.samples,
        help="layouts sampled for each 'sampled' discard choice (default %(default)s)",
    )
    misere.add_argument(
        "--information",
        choices=["open", "hidden", "blind", "played", "estimate"],
        default="played",
        help="what each side sees (docs/rules.md, 'Misère information models'): open "
        "(double-dummy), hidden (the catchers do not know which sound discard he made), blind "
        "(he leads to trick 1 before they open), played (blind lead and hidden discard: the "
        "bracket between them and blind lead with open play, the estimate inside it and the "
        "floor beside it; default), estimate (the catchers keeping what they can force and "
        "judging each other card over his sound discards)",
    )
    add_ru(misere)
    misere.set_defaults(func=cmd_misere)

    ev = subparsers.add_parser(
        "ev",
        help="solo or shared misère (four players): EV with intervals, and the advice",
        **examples(
            f'prefstats ev "{HAND_EXAMPLE}" --seat 1',
            f'prefstats ev "{HAND_EXAMPLE}" --risk-aversion 0.01 --scoring leningrad',
        ),
    )
    ev.add_argument("hand", help="the misère hand, ten cards before the talon")
    ev.add_argument(
        "--seat",
        type=integer,
        choices=range(3),
        default=1,
        help="the declarer's seat: 0 leads to the first trick (default 1)",
    )
    ev.add_argument(
        "--discard",
        choices=list(USER_NAMES),
        default=REALISTIC,
        help=DISCARD_HELP.replace(" or two cards", ""),
    )
    ev.add_argument("--n", type=positive_int, default=2000, help="outcomes sampled")
    ev.add_argument("--seed", type=integer, default=1)
    ev.add_argument(
        "--risk-aversion",
        type=non_negative_float,
        default=0.0,
        help="CARA coefficient per whist of both partners (0: risk-neutral)",
    )
    ev.add_argument(
        "--baseline",
        type=finite_float,
        default=0.0,
        help="what not bidding misère is worth to him, in whists (default 0)",
    )
    add_scoring(ev)
    add_ru(ev)
    ev.set_defaults(func=cmd_ev)


def cmd_classify(args: argparse.Namespace) -> None:
    """Print the class of a holding with its catch counts, or each suit's class of a hand."""
    print(classify_text(args.text, style_of(args)))


_PLAYED_WORDS: dict[Style, dict[str, str]] = {
    "en": {
        "no blind": "(no blind lead: it needs --talon, the layouts he cannot tell apart share it)",
        "bracket": "as played, on the same layouts (the bracket: the discard hidden among his "
        "sound discards .. seen):",
        "low": "low (hidden)",
        "high": "high (seen)",
        "floor": "floor (every pair)",
        "estimate": "estimate (inside)",
        "caught": "P(caught)",
        "tricks": "E[tricks]",
    },
    "ru": {
        "no blind": "(без слепого первого хода: для него нужен известный прикуп)",
        "bracket": "как играют, на тех же раскладах (вилка: снос скрыт среди разумных .. виден):",
        "low": "нижний (скрыт)",
        "high": "верхний (виден)",
        "floor": "дно (любая пара)",
        "estimate": "оценка (внутри)",
        "caught": "P(поймали)",
        "tricks": "E[взяток]",
    },
}


def cmd_misere(args: argparse.Namespace) -> None:
    """Print P(caught), E[tricks] and the trick distribution of a misère hand; as played, the
    bracket, the estimate inside it (with the talon known, as its blind lead needs) and the floor
    beside it (docs/rules.md, "Misère information models")."""
    seed = fresh_seed() if args.seed is None else args.seed  # one seed: paired models
    blind_needs_talon = args.seat == FIRST_HAND and args.talon is None

    def risk_of(information: str) -> MisereRisk:
        return misere_risk(
            args.hand,
            seat=args.seat,
            talon=args.talon,
            discard=args.discard,
            n=args.n,
            seed=seed,
            exhaustive=args.exhaustive,
            choice_n=args.choice_n,
            progress=True,
            information=information,
        )

    if args.information != "played":
        print(risk_of(args.information).format(style_of(args)))
        return
    low, high, floor = ("played", "blind", "played-floor")
    if blind_needs_talon:
        low, high, floor = ("hidden", "open", "floor")
    low_risk = risk_of(low)
    print(low_risk.format(style_of(args)))
    high_risk, floor_risk = risk_of(high), risk_of(floor)
    words = _PLAYED_WORDS[style_of(args)]
    shown = [(words["low"], low_risk), (words["high"], high_risk)]
    if blind_needs_talon:
        print(words["no blind"])
    else:
        shown.append((words["estimate"], risk_of("estimate")))
    print(words["bracket"])
    for name, risk in (*shown, (words["floor"], floor_risk)):
        print(
            f"  {name:<19} {words['caught']} {risk.p_caught}  {words['tricks']} {risk.mean_tricks}"
        )


def cmd_ev(args: argparse.Namespace) -> None:
    """Solo and shared misère EV of a hand, with intervals, and the advice (Codex 3.6.9)."""
    rules = RuleSet(players=4, scoring=args.scoring)
    risk = misere_risk(
        args.hand, seat=args.seat, discard=args.discard, n=args.n, seed=args.seed, progress=True
    )
    values = misere_values(risk.tricks, rules, baseline=args.baseline)
    print(
        f"hand {format_hand(risk.hand, style_of(args))}, seat {args.seat}, discard "
        f"{args.discard}, {risk.n:,} outcomes (talon and layout drawn); four players, "
        f"{args.scoring.capitalize()} scoring"
    )
    print(f"P(caught) {risk.p_caught}   E[tricks] {risk.mean_tricks}")
    print(values.round(2).to_string())
    print(advice(risk.tricks, rules, Utility(args.risk_aversion)))


def classify_text(text: str, style: Style = "en") -> str:
    """The report of ``prefstats classify``: a holding if ``text`` parses as one, else a hand.

    Both are read with the rank tokens of ``parse_hand``: ``т`` is clubs, ``Т`` the ace.

    >>> print(classify_text("♠7 8 ♣7 9"))
    ♠ 7 8          clean
    ♣ 7 9          conditionally clean
    ♦ -            void
    ♥ -            void
    misère: clean (cannot be caught)
    """
    if not text.strip():
        raise ValueError("empty text: give a holding ('7 10 J') or a hand ('♠7 8 ♣9')")
    try:
        mask = parse_holding(text)
    except ValueError as holding_error:
        try:
            hand = parse_hand(text, max_cards=HAND_CARDS)
        except ValueError as hand_error:
            raise ValueError(
                f"{text!r} is neither a holding ({holding_error}) nor a hand ({hand_error})"
            ) from None
        return _hand_report(hand, style)
    return _holding_report(mask, style)


def _holding_report(mask: int, style: Style) -> str:
    analysis = analyse_holding(mask)
    lines = [
        f"holding {format_holding(mask, style)}: {_label(analysis.suit_class)}",
        f"one-suit game, {analysis.layouts:,} layouts (up to 2 cards out of play):",
        f"  caught on the defenders' lead in {analysis.caught_defenders_lead:,}, "
        f"when he must lead it in {analysis.caught_own_lead:,}",
    ]
    if suit_class(mask) is SuitClass.CATCHABLE:
        lines.append(
            "full solver over random layouts, shipped catch-rate table (settings: "
            "what else he holds; see prefstats.studies.catch_tables):"
        )
        lines.extend(_table_rows(mask))
    return "\n".join(lines)


def _table_rows(mask: int) -> list[str]:
    """The shipped catch rates of a holding, one line per setting and lead."""
    table = load_catch_rates()
    rows = table[table["holding_mask"] == mask]
    rows = rows.assign(leader=lead_index(rows)).sort_values(["setting", "leader"])
    return [
        f"  {row.setting:<12} {row.lead:<5} lead: P(caught) {row.p_caught:.4f} "
        f"[{row.p_caught_low:.4f}, {row.p_caught_high:.4f}], E[tricks] {row.mean_tricks:.3f} "
        f"(n={row.n:,}{', pooled by length' if row.pooled else ''})"
        for row in rows.itertuples()
    ]


def _hand_report(hand: int, style: Style) -> str:
    lines = []
    for suit in range(N_SUITS):
        cards = holding(hand, suit)
        text = (
            f"{SUIT_SYMBOLS[suit]} {format_holding(cards, style):<12}  {_label(suit_class(cards))}"
        )
        lines.append(text + _rates_note(cards))
    verdict = misere_hand_class(hand).value if hand else "no cards"
    notes = {"clean": " (cannot be caught)", "conditionally_clean": " (safe unless he leads)"}
    lines.append(f"misère: {verdict.replace('_', ' ')}{notes.get(verdict, '')}")
    if any(suit_class(holding(hand, suit)) is SuitClass.CATCHABLE for suit in range(N_SUITS)):
        lines.append(
            "(P(caught) by lead: the players' rates, as-dealt where measured, else clean-sides)"
        )
    return "\n".join(lines)


def _rates_note(cards: int) -> str:
    """The players' P(caught) by lead (as-dealt where measured, else clean-sides), for a
    catchable holding."""
    if suit_class(cards) is not SuitClass.CATCHABLE:
        return ""
    rates = catch_rate_table(PLAYERS)[cards]
    parts = ", ".join(f"{lead} {rate:.3f}" for lead, rate in zip(LEADS, rates, strict=True))
    return f"   P(caught): {parts}"


def _label(cls: SuitClass) -> str:
    return cls.label.replace("_", " ")
