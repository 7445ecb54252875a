"""Naive twin of ``prefstats.solver.estimate``: the estimate inside the bracket of misère with
the discard hidden (docs/rules.md, "Misère information models").

One layout is played out card by card. The declarer holds his candidate cards C less the discard
he made; S, the discards of W still consistent with the play, loses every discard in which the
card he plays would not be legal (the card discarded, or a card of the led suit kept while he
plays another suit). Every card choice looks at open values: plain memoised minimax over the rest
of the hand from a position in the middle of a trick (the declarer minimising his tricks, the
catchers maximising them), every legal card tried, no pruning.

- The declarer: the legal card of the fewest open tricks from here on; ties, the lowest card.
- The catchers (seats 1 and 2, as one): at each trick start, H = the tricks they can force
  from there whichever discard of S he made (``naive_hidden``'s game over S); they consider only
  the legal cards c after which they can still force H tricks from that trick start (the same
  game, from the middle of the trick). For each such c, over the discards w of S, the open value
  of the position after c with the declarer holding C less w less the cards he has played;
  score = the number of w where it is at least one (while he has taken no trick), else the sum
  of the values; the highest score wins, ties to the highest sum, then the lowest card.

Shares no code with the package: cards are plain ints, suits ``card // 8``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

from tests.naive_hidden import _cards, _legal, _value

DECLARER = 0
N_SEATS = 3

Hands = tuple[frozenset[int], frozenset[int], frozenset[int]]


def _without(hands: Hands, seat: int, card: int) -> Hands:
    left = hands[1] - {card} if seat == 1 else hands[1]
    right = hands[2] - {card} if seat == 2 else hands[2]
    return (hands[0] - {card} if seat == 0 else hands[0], left, right)


def _winner(leader: int, trick: tuple[int, ...]) -> int:
    return max(
        (card, (leader + step) % N_SEATS)
        for step, card in enumerate(trick)
        if card // 8 == trick[0] // 8
    )[1]


@cache
def open_value(hands: Hands, leader: int, trick: tuple[int, ...]) -> int:
    """The declarer's tricks from here on (the current trick included), every card seen."""
    if len(trick) == N_SEATS:
        winner = _winner(leader, trick)
        won = 1 if winner == DECLARER else 0
        return won + (open_value(hands, winner, ()) if hands[1] else 0)
    seat = (leader + len(trick)) % N_SEATS
    led = trick[0] // 8 if trick else None
    values = [
        open_value(_without(hands, seat, card), leader, (*trick, card))
        for card in _legal(hands[seat], led)
    ]
    return min(values) if seat == DECLARER else max(values)


def naive_estimate_tricks(
    hand12: int,
    left: int,
    right: int,
    leader: int,
    made: int,
    discards: Iterable[int] | None = None,
    first: int | None = None,
    sure_line: bool = True,
) -> int:
    """The declarer's tricks (seat 0, candidate cards ``hand12``, discard ``made``) in the
    estimate's play against ``left`` and ``right`` (seats 1, 2), ``leader`` a seat;
    ``discards`` the possible discards W as two-card masks (None: every pair); ``first`` a card
    he, on lead, must lead. ``sure_line=False``: catchers who score every legal card (plain
    perfect-information Monte Carlo, without the sure line)."""
    cand = _cards(hand12)
    if discards is None:
        possible = {frozenset(pair) for pair in combinations(sorted(cand), 2)}
    else:
        possible = {_cards(mask) for mask in discards}
    assert _cards(made) in possible
    hands: Hands = (cand - _cards(made), _cards(left), _cards(right))
    taken = 0
    while hands[1]:
        sure = _sure_tricks(cand, hands, leader, frozenset(possible), first) if sure_line else 0
        trick: tuple[int, ...] = ()
        for step in range(N_SEATS):
            seat = (leader + step) % N_SEATS
            led = trick[0] // 8 if trick else None
            if seat == DECLARER:
                if first is not None:
                    card, first = first, None
                else:
                    card = min(
                        _legal(hands[0], led),
                        key=lambda c: (open_value(_without(hands, 0, c), leader, (*trick, c)), c),
                    )
                possible = {w for w in possible if card in _legal(cand - w, led)}
                cand = cand - {card}
            else:
                card = _catchers_card(hands, seat, leader, trick, cand, possible, taken, sure)
            hands = _without(hands, seat, card)
            trick = (*trick, card)
        leader = _winner(leader, trick)
        taken += 1 if leader == DECLARER else 0
    return taken


def _catchers_card(
    hands: Hands,
    seat: int,
    leader: int,
    trick: tuple[int, ...],
    cand: frozenset[int],
    possible: set[frozenset[int]],
    taken: int,
    sure: int,
) -> int:
    led = trick[0] // 8 if trick else None
    best: tuple[int, int, int] | None = None
    for card in sorted(_legal(hands[seat], led)):
        after = _without(hands, seat, card)
        if _value((cand, after[1], after[2]), leader, (*trick, card), frozenset(possible)) < sure:
            continue
        values = [
            open_value((cand - w, after[1], after[2]), leader, (*trick, card)) for w in possible
        ]
        caught = sum(value > 0 for value in values)
        total = sum(values)
        key = (caught if taken == 0 else total, total, -card)
        if best is None or key > best:
            best = key
    assert best is not None
    return -best[2]


def _sure_tricks(
    cand: frozenset[int],
    hands: Hands,
    leader: int,
    possible: frozenset[frozenset[int]],
    first: int | None,
) -> int:
    """At a trick start: the tricks the catchers force whichever discard of ``possible`` he
    made (``first``: the card he must lead)."""
    if first is None:
        return _value((cand, hands[1], hands[2]), leader, (), possible)
    after = frozenset(w for w in possible if first not in w)
    return _value((cand - {first}, hands[1], hands[2]), leader, (first,), after)
