"""Misère with the discard hidden and the blind first lead (docs/rules.md, "Misère information
models"): validating wrappers over the kernels of ``_hidden``.

The declarer's candidate cards are his hand and his two discards (``hand12``, two cards more
than each catcher holds). The catchers know them and a set W of possible discards, not which one
he made; they play as one, each card one choice for every discard still consistent with the
play, and the declarer, who sees everything, plays his actual hand. ``hidden_discard_tricks`` is
the number of tricks they force whichever discard of W he made: with one discard in W it is the
open misère solve, with every pair (the floor) it is a declarer dropping two cards unseen
whenever it suits him.

Seats and masks as in ``prefstats.solver``: ``others`` are the other two hands in seat order
from the declarer's left, card bit = 8·suit + rank.

>>> from prefstats.game.cards import parse_hand
>>> hand = parse_hand("♠9 ♥7 8")  # one card kept; the catchers lead
>>> others = [parse_hand("♠7"), parse_hand("♠8")]
>>> hidden_discard_tricks(hand, others, leader=1, discards=[parse_hand("♥7 8")])  # ♠9 kept: open
1
>>> hidden_discard_tricks(hand, others, leader=1)  # he may have kept a heart instead
0
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from prefstats.checks import seat
from prefstats.game.cards import N_CARDS
from prefstats.game.deal import N_SEATS
from prefstats.solver import _checks, _pool
from prefstats.solver._hidden import NO_CARD, hidden_batch

__all__ = [
    "blind_lead",
    "fewest_catches",
    "first_lead_many",
    "hidden_discard_many",
    "hidden_discard_tricks",
]


def hidden_discard_tricks(
    hand12: int,
    others: Sequence[int],
    *,
    declarer: int = 0,
    leader: int = 0,
    discards: Sequence[int] | None = None,
) -> int:
    """The tricks the catchers can force on a misère declarer whose candidate cards are
    ``hand12``, whichever discard of ``discards`` (two-card masks inside ``hand12``; None:
    every pair, the floor) he made, knowing which discards are possible but not which one he
    made (docs/rules.md, "Misère information models")."""
    declarer = seat("declarer", declarer)
    leader = seat("leader", leader)
    cand, left, right = _checks.hidden_hands(hand12, others)
    possible = _checks.hidden_discards(cand, discards)
    hands = [0, 0, 0]
    hands[declarer] = cand
    hands[(declarer + 1) % N_SEATS] = left
    hands[(declarer + 2) % N_SEATS] = right
    rows = np.array([hands], dtype=np.uint32)
    width = max(len(possible), 1)
    padded = np.zeros((1, width), dtype=np.uint32)
    padded[0, : len(possible)] = possible
    return int(_run(rows, padded, declarer, leader, NO_CARD)[0])


def hidden_discard_many(
    hands: np.ndarray,
    *,
    declarer: int = 0,
    leader: int = 0,
    discards: np.ndarray | None = None,
) -> np.ndarray:
    """``hidden_discard_tricks`` for each row of an (n, 3) array of seat hands (the declarer's
    column his candidate cards), as int8; ``discards`` an (n, m) array of each row's possible
    discards, 0 in unused slots (None: every pair). Many layouts of one hand are solved in the
    open solver's layout order (``solve_many``), each row with its own discards."""
    declarer = seat("declarer", declarer)
    leader = seat("leader", leader)
    array = np.ascontiguousarray(hands, dtype=np.uint32)
    if array.ndim != 2 or array.shape[1] != N_SEATS:
        raise ValueError(f"hands must be an (n, {N_SEATS}) array, got shape {array.shape}")
    if discards is None:
        padded = np.zeros((len(array), 1), dtype=np.uint32)
    else:
        padded = np.ascontiguousarray(discards, dtype=np.uint32)
        if padded.ndim != 2 or len(padded) != len(array):
            raise ValueError(f"discards must be an (n, m) array, n = {len(array)}")
    _checks.hidden_rows(array, declarer, padded if discards is not None else None)
    return _run(array, padded, declarer, leader, NO_CARD)


def first_lead_many(
    hands: np.ndarray, first: int, *, declarer: int = 0, discards: np.ndarray | None = None
) -> np.ndarray:
    """``hidden_discard_many`` with the declarer on lead leading the card ``first`` to the
    first trick (each row's candidate cards less its possible discards must hold it: with
    ``discards`` the possible discards, (n, m), the first one the discard he made; None: every
    pair, of which he made none holding ``first``). The blind lead's question over layouts of
    different candidate cards (``blind_lead`` is the one-hand form)."""
    declarer = seat("declarer", declarer)
    first = _checks.card("first", first)
    array = np.ascontiguousarray(hands, dtype=np.uint32)
    if array.ndim != 2 or array.shape[1] != N_SEATS:
        raise ValueError(f"hands must be an (n, {N_SEATS}) array, got shape {array.shape}")
    held = array[:, declarer] >> np.uint32(first) & 1
    if discards is None:
        padded = np.zeros((len(array), 1), dtype=np.uint32)
    else:
        padded = np.ascontiguousarray(discards, dtype=np.uint32)
        held &= (padded[:, 0] >> np.uint32(first) & 1) ^ 1
    if not held.all():
        raise ValueError(f"first (card {first}) is not in every declarer's kept hand")
    return _run(array, padded, declarer, declarer, int(first))


def _run(
    hands: np.ndarray, discards: np.ndarray, declarer: int, leader: int, first: int
) -> np.ndarray:
    pairs, htt = _pool.hidden_tables()
    tt = _pool.table_for(hands, declarer)

    def solve(rows: np.ndarray) -> np.ndarray:  # the seat hands, then the row's discards
        out = np.zeros(len(rows), dtype=np.int8)
        seats = np.ascontiguousarray(rows[:, :N_SEATS])
        possible = np.ascontiguousarray(rows[:, N_SEATS:])
        hidden_batch(seats, possible, declarer, leader, first, pairs, htt, tt, out)
        return out

    return _pool.in_layout_order(np.hstack([hands, discards]), declarer, 1, solve)


def _lead_options(hand: int, discard: int, open_play: bool) -> list[int]:
    """The first cards worth trying, low to high: with the discard seen (open play) the lowest
    card of each run of the declarer's hand, counting his discards as his (he knows them: every
    card between two cards of a run is his, so they do the same on every layout); hidden, every
    card (the catchers' set of discards may tell cards of one run apart)."""
    cards = [bit for bit in range(N_CARDS) if hand >> bit & 1]
    if not open_play:
        return cards
    known = hand | discard
    return [card for card in cards if not _run_below_is_held(card, hand, known)]


def _run_below_is_held(card: int, hand: int, known: int) -> bool:
    """Is there a card of ``hand`` below ``card`` in its suit with every card between them
    known to the declarer (his hand or his discard)?"""
    below = card - 1
    while below >= card - card % 8 and known >> below & 1:
        if hand >> below & 1:
            return True
        below -= 1
    return False


def blind_lead(
    hand: int,
    discard: int,
    others: np.ndarray,
    *,
    declarer: int = 0,
    discards: Sequence[int] | None = None,
) -> tuple[int, np.ndarray]:
    """The blind first lead of a misère declarer on lead (Codex 3.6.6; docs/rules.md, "Misère
    information models"): the card of ``hand`` (his cards after his ``discard``) that minimises
    the number of the layouts ``others`` ((n, 2): his left's and his right's hand) on which
    the catchers then catch him, ties to the fewest tricks in all, then the lowest card; every
    card is tried on the same layouts. Returns it and each layout's tricks after it, as int8.

    After the lead the play goes on open (``discards`` None: the catchers see his discard) or
    with the discard hidden among ``discards`` (which must hold his actual ``discard``).
    """
    declarer = seat("declarer", declarer)
    array = np.ascontiguousarray(others, dtype=np.uint32)
    if array.ndim != 2 or array.shape[1] != N_SEATS - 1 or len(array) == 0:
        raise ValueError(f"others must be a non-empty (n, 2) array, got shape {array.shape}")
    hand = _checks.mask("the declarer's hand", hand)
    discard = _checks.mask("the discard", discard)
    cand, _, _ = _checks.hidden_hands(hand | discard, [int(array[0, 0]), int(array[0, 1])])
    if hand & discard or _checks.hidden_discards(cand, [discard]) != [discard]:
        raise ValueError("the discard must be two cards outside the hand")
    for left, right in array[:: max(1, len(array) // 64)]:
        _checks.hidden_hands(cand, [int(left), int(right)])
    possible = [discard] if discards is None else _checks.hidden_discards(hand | discard, discards)
    if discard not in possible:
        raise ValueError("discards must hold the declarer's actual discard")
    rows = np.zeros((len(array), N_SEATS), dtype=np.uint32)
    rows[:, declarer] = hand | discard
    rows[:, (declarer + 1) % N_SEATS] = array[:, 0]
    rows[:, (declarer + 2) % N_SEATS] = array[:, 1]
    padded = np.zeros((len(array), len(possible)), dtype=np.uint32)
    padded[:] = possible
    return fewest_catches(
        _lead_options(hand, discard, discards is None),
        lambda card: _run(rows, padded, declarer, declarer, card),
    )


def fewest_catches(
    cards: Iterable[int],
    play: Callable[[int], np.ndarray],
    least: Mapping[int, int] | None = None,
) -> tuple[int, np.ndarray]:
    """The blind lead's choice (docs/rules.md, "Misère information models"): of ``cards``, the
    one whose ``play(card)`` (each layout's tricks after he leads it) catches him on the fewest
    layouts, ties to the fewest tricks in all, then the lowest card; it and its tricks.

    ``least``, if given, holds for each card a number of layouts on which he is caught at the
    least after leading it (the hidden-discard search's catches bound the estimate's): cards are
    then tried from the lowest bound, and one whose bound is above the fewest catches found so
    far is not played (it cannot be the choice)."""
    order = list(cards)
    if least is not None:
        order.sort(key=lambda card: (least[card], card))
    best: tuple[int, int, int] | None = None
    values = np.zeros(0, dtype=np.int8)
    for card in order:
        if least is not None and best is not None and least[card] > best[0]:
            continue
        tricks = play(card)
        score = (int((tricks > 0).sum()), int(tricks.sum()), card)
        if best is None or score < best:
            best, values = score, tricks
    if best is None:
        raise ValueError("the blind lead needs at least one card to try")
    return best[2], values
