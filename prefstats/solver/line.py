"""The double-dummy play of a deal, card by card: every seat plays a card that keeps the
solver's value (``solver.best_card``), so the line shows one way the value is reached.

>>> from prefstats.game.cards import parse_hand
>>> hands = [parse_hand("♠A K ♦7"), parse_hand("♠Q J ♥A"), parse_hand("♠10 ♥K Q")]
>>> line = play_line(hands, trump=0, leader=1)
>>> line.declarer_tricks, [trick.winner for trick in line.tricks]
(2, [0, 0, 1])
>>> print(line.format().splitlines()[1])
  1  second hand leads  ♥A   ♥Q   ♠K   won by first hand    2
>>> play_line(hands, "6♠", leader=1) == line
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prefstats.game.cards import N_RANKS, RED_SUITS, SUIT_SYMBOLS, Style, format_card
from prefstats.game.deal import N_SEATS, SEAT_NAMES, Deal
from prefstats.game.rules import Contract
from prefstats.solver import _checks
from prefstats.solver._play import trick_winner
from prefstats.solver._search import NO_TRUMP
from prefstats.solver.exact import best_card


@dataclass(frozen=True)
class LineTrick:
    """One trick of a play line: the leader, the cards in play order, the winner, and after
    each card the tricks the declarer takes from this trick on with best play by all."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    to_come: tuple[int, ...]

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat of each card, in play order."""
        return tuple((self.leader + step) % N_SEATS for step in range(len(self.cards)))


@dataclass(frozen=True)
class PlayLine:
    """A double-dummy play line of a deal: its contract, the tricks, the declarer's total."""

    hands: tuple[int, ...]
    trump: int | None
    misere: bool
    declarer: int
    leader: int
    tricks: tuple[LineTrick, ...]

    @property
    def declarer_tricks(self) -> int:
        """The tricks the declarer takes along the line (the solver's value)."""
        return sum(trick.winner == self.declarer for trick in self.tricks)

    def contract_text(self) -> str:
        """``misère``, ``no trump`` or the trump suit."""
        if self.misere:
            return "misère"
        return "no trump" if self.trump is None else f"{SUIT_SYMBOLS[self.trump]} trumps"

    def format(self, style: Style = "en") -> str:
        """The line as text: a heading, then one line per trick."""
        lines = [
            f"{self.contract_text()}, declarer {SEAT_NAMES[self.declarer]}: "
            f"{self.declarer_tricks} tricks, double-dummy; the declarer's tricks from each "
            "trick on in the last column"
        ]
        for number, trick in enumerate(self.tricks, start=1):
            cards = "".join(f"{format_card(c, style):<5}" for c in trick.cards)
            leads, winner = SEAT_NAMES[trick.leader] + " leads", SEAT_NAMES[trick.winner]
            lines.append(
                f"{number:>3}  {leads:<18} {cards}won by {winner:<12} {trick.to_come[0]:>2}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(
            f"<th>{name}</th>"
            for name in ("trick", *SEAT_NAMES, "won by", "declarer's tricks from here")
        )
        rows = []
        for number, trick in enumerate(self.tricks, start=1):
            by_seat = dict(zip(trick.seats, trick.cards, strict=True))
            cells = [_card_html(by_seat[s], s == trick.leader) for s in range(N_SEATS)]
            rows.append(
                f"<tr><td>{number}</td>{''.join(cells)}<td>{SEAT_NAMES[trick.winner]}"
                f"</td><td>{trick.to_come[0]}</td></tr>"
            )
        title = f"{self.contract_text()}, declarer {SEAT_NAMES[self.declarer]}"
        return (
            f"<table><caption>{title}: {self.declarer_tricks} tricks (underlined: the "
            f"lead)</caption><tr>{head}</tr>{''.join(rows)}</table>"
        )

    def __str__(self) -> str:
        return self.format()


def _card_html(card: int, lead: bool) -> str:
    colour = "#c00" if card // N_RANKS in RED_SUITS else "#000"
    text = format_card(card)
    return f"<td style='color:{colour}'>{'<u>' + text + '</u>' if lead else text}</td>"


def play_line(
    hands: Deal | Sequence[int],
    contract: Contract | str | None = None,
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> PlayLine:
    """The double-dummy play of three equal hands (seats 0, 1, 2): at every turn the card
    ``best_card`` picks, so the declarer takes exactly the value of the first card's search
    (``solve``'s value of the deal). ``hands`` and ``contract`` as for ``solve``: a ``Deal`` or
    masks, a ``Contract`` (or its text) or the ``trump=``/``misere=`` keywords.

    >>> deal = Deal.parse("♠7 J ♣7 A ♦8 10 J A ♥7 8 | ♠8 Q K ♣8 10 ♦7 K ♥10 J Q | "
    ...                   "♠9 10 A ♣9 J ♦9 Q ♥9 K A | ♣Q K")
    >>> print(play_line(deal, Contract.parse("мизер"), declarer=1).format().splitlines()[0][:38])
    misère, declarer second hand: 5 tricks
    """
    where = _checks.position(
        hands, contract, trump=trump, misere=misere, declarer=declarer, leader=leader
    )
    trump = None if where.trump == NO_TRUMP else where.trump
    misere, declarer, leader = bool(where.misere), where.declarer, where.leader
    remaining = list(where.hands)
    tricks, won, value = [], 0, None
    to_lead = leader
    while remaining[to_lead]:
        played: list[int] = []
        to_come = []
        for _ in range(N_SEATS):
            card, tricks_on = best_card(
                remaining, played, trump=trump, misere=misere, declarer=declarer, leader=to_lead
            )
            remaining[(to_lead + len(played)) % N_SEATS] &= ~(1 << card)
            played.append(card)
            to_come.append(tricks_on)
            value = tricks_on if value is None else value  # the solver's value of the deal
        winner = trick_winner(played, to_lead, NO_TRUMP if trump is None else trump)
        tricks.append(LineTrick(to_lead, tuple(played), winner, tuple(to_come)))
        won += winner == declarer
        to_lead = winner
    assert won == value, "a play line keeps the solver's value"
    return PlayLine(where.hands, trump, misere, declarer, leader, tuple(tricks))
