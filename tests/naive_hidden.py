"""Naive twins of ``prefstats.solver.hidden``: misère with the discard hidden, and the blind lead.

The hidden-discard game (docs/rules.md, "Misère information models"): the declarer's candidate
cards C hold his hand and his two discards; the catchers know C and a set W of possible discards,
not which one he made. Each catcher card is chosen once for every discard still consistent with
the play; the declarer, knowing his discard, may play any card legal in his actual hand, and a
card he plays tells the catchers that his discard is one in which that card is legal.

Written here as plain memoised minimax over explicit sets of possible discards (frozensets of
frozensets of card bits), every legal card tried, no pruning. The value is the number of tricks
the catchers force the declarer to take whichever discard of W he made:

- a catcher's turn: the best card for the catchers, the same set of discards after it;
- the declarer's turn: the worst for the catchers over every discard ``w`` still possible and
  every card ``d`` legal in ``C - w``, the set after it being the discards in which ``d`` is legal.

This recursion is the game's value because a catcher strategy's choices after different
declarer cards are independent (so max over strategies of a min over cards is the min of the
maxima), and a catcher card is one choice for every discard in the set. Shares no code with the
package: cards are plain ints, suits ``card // 8``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

import numpy as np

DECLARER, LEFT, RIGHT = 0, 1, 2
N_SEATS = 3
N_CARDS = 32

Pair = frozenset[int]


def _cards(mask: int) -> frozenset[int]:
    return frozenset(bit for bit in range(32) if mask >> bit & 1)


def _legal(hand: frozenset[int], led: int | None) -> frozenset[int]:
    """Misère has no trumps: follow suit, else any card."""
    if led is None:
        return hand
    follow = frozenset(card for card in hand if card // 8 == led)
    return follow or hand


def every_pair(hand12: int) -> frozenset[Pair]:
    return frozenset(frozenset(pair) for pair in combinations(sorted(_cards(hand12)), 2))


def naive_hidden_tricks(
    hand12: int,
    left: int,
    right: int,
    leader: int,
    discards: Iterable[int] | None = None,
    first: int | None = None,
) -> int:
    """Tricks the catchers force, declarer at seat 0 with candidate cards ``hand12``, ``left``
    and ``right`` the catchers at seats 1 and 2, ``leader`` a seat 0..2, ``discards`` two-card
    masks (None: every pair). With ``first`` the declarer (on lead) must lead that card."""
    if discards is None:
        possible = every_pair(hand12)
    else:
        possible = frozenset(_cards(mask) for mask in discards)
    hands = (_cards(hand12), _cards(left), _cards(right))
    if first is not None:
        assert leader == DECLARER
        after = frozenset(w for w in possible if first not in w)
        assert after, "the forced first card is a discard of every w"
        return _value(_without(hands, DECLARER, first), leader, (first,), after)
    return _value(hands, leader, (), possible)


def _without(hands: tuple[frozenset[int], ...], seat: int, card: int) -> tuple[frozenset[int], ...]:
    return tuple(hand - {card} if index == seat else hand for index, hand in enumerate(hands))


@cache
def _value(
    hands: tuple[frozenset[int], ...],
    leader: int,
    trick: tuple[int, ...],
    possible: frozenset[frozenset[int]],
) -> int:
    if len(trick) == N_SEATS:
        winner = max(
            (card, (leader + step) % N_SEATS)
            for step, card in enumerate(trick)
            if card // 8 == trick[0] // 8
        )[1]
        won = 1 if winner == DECLARER else 0
        if not hands[LEFT]:
            return won
        return won + _value(hands, winner, (), possible)
    seat = (leader + len(trick)) % N_SEATS
    led = trick[0] // 8 if trick else None
    if seat != DECLARER:
        return max(
            _value(_without(hands, seat, card), leader, (*trick, card), possible)
            for card in _legal(hands[seat], led)
        )
    best = None
    for w in possible:
        for card in _legal(hands[DECLARER] - w, led):
            after = frozenset(v for v in possible if card in _legal(hands[DECLARER] - v, led))
            value = _value(_without(hands, DECLARER, card), leader, (*trick, card), after)
            best = value if best is None else min(best, value)
    assert best is not None
    return best


def naive_open_tricks(hand: int, left: int, right: int, leader: int) -> int:
    """Open misère: the declarer's tricks with every card seen (one possible discard, none)."""
    return _value((_cards(hand), _cards(left), _cards(right)), leader, (), frozenset([frozenset()]))


def naive_blind_lead(
    hand: int, discard: int, layouts: list[tuple[int, int]], possible: Iterable[int] | None
) -> tuple[int, list[int]]:
    """The blind first lead over ``layouts`` (the catchers' hands, seats 1 and 2) of a declarer
    holding ``hand`` (after his ``discard``): the card minimising the number of layouts on which
    he is caught, ties to the fewest tricks in all, then the lowest card; and each layout's
    tricks after it. ``possible``: the catchers' set of discards (None: open, they see it)."""
    candidates = hand | discard
    options = [] if possible is None else list(possible)
    best: tuple[int, int, int] | None = None
    values: list[int] = []
    for card in sorted(_cards(hand)):
        tricks = [
            naive_hidden_tricks(candidates, left, right, DECLARER, options or [discard], card)
            for left, right in layouts
        ]
        score = (sum(value > 0 for value in tricks), sum(tricks), card)
        if best is None or score < best:
            best, values = score, tricks
    assert best is not None
    return best[2], values


def random_ending(rng: np.random.Generator, size: int) -> tuple[int, int, int]:
    """The declarer's ``size`` + 2 candidate cards and each catcher's ``size``."""
    cards = [int(card) for card in rng.permutation(N_CARDS)[: 3 * size + 2]]
    hand = sum(1 << card for card in cards[: size + 2])
    left = sum(1 << card for card in cards[size + 2 : 2 * size + 2])
    right = sum(1 << card for card in cards[2 * size + 2 :])
    return hand, left, right


def pairs_of(hand: int) -> list[int]:
    cards = [bit for bit in range(N_CARDS) if hand >> bit & 1]
    return [(1 << a) | (1 << b) for a, b in combinations(cards, 2)]
