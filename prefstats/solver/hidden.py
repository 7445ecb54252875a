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

import threading
from collections.abc import Sequence

import numpy as np

from prefstats.game.cards import N_CARDS
from prefstats.game.deal import N_SEATS, TALON_SIZE
from prefstats.solver._hidden import (
    MAX_CANDIDATES,
    NO_CARD,
    PAIRS_SIZE,
    hidden_batch,
    new_hidden_table,
)
from prefstats.solver._search import new_table

__all__ = ["blind_lead", "first_lead_many", "hidden_discard_many", "hidden_discard_tricks"]

_local = threading.local()


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's (pair index, hidden-discard table, open solver's table), reused across
    calls (their entries never go stale: keys hold the cards)."""
    tables = getattr(_local, "tables", None)
    if tables is None:
        tables = _local.tables = (
            np.zeros(PAIRS_SIZE, dtype=np.int64),
            new_hidden_table(),
            new_table(),
        )
    return tables


def _check_mask(name: str, mask: object) -> int:
    if isinstance(mask, bool) or not isinstance(mask, int | np.integer):
        raise ValueError(f"{name} must be an int mask, got {mask!r}")
    if not 0 <= int(mask) < 1 << N_CARDS:
        raise ValueError(f"{name} must be a 32-bit mask, got {int(mask)}")
    return int(mask)


def _check_seat(name: str, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < N_SEATS:
        raise ValueError(f"{name} must be a seat 0..{N_SEATS - 1}, got {seat!r}")
    return int(seat)


def _check_position(hand12: object, others: Sequence[object]) -> tuple[int, int, int]:
    """(candidate cards, left, right): disjoint masks, the catchers 1..10 cards each and the
    declarer two more."""
    cand = _check_mask("the declarer's hand", hand12)
    if len(others) != N_SEATS - 1:
        raise ValueError(f"others must be the {N_SEATS - 1} other hands, got {len(others)}")
    left, right = (_check_mask(f"other hand {i}", other) for i, other in enumerate(others))
    if cand & left or cand & right or left & right:
        raise ValueError("the hands must not share a card")
    size = left.bit_count()
    if right.bit_count() != size or not 1 <= size <= MAX_CANDIDATES - TALON_SIZE:
        counts = [left.bit_count(), right.bit_count()]
        raise ValueError(f"the other hands must hold 1..10 cards each, equally, got {counts}")
    if cand.bit_count() != size + TALON_SIZE:
        raise ValueError(
            f"the declarer's hand must hold {TALON_SIZE} cards more than the others "
            f"({size + TALON_SIZE}), got {cand.bit_count()}"
        )
    return cand, left, right


def _check_discards(cand: int, discards: Sequence[int] | None) -> list[int]:
    """The possible discards, each two cards of the declarer's hand ([] for every pair)."""
    if discards is None:
        return []
    checked = []
    for discard in discards:
        mask = _check_mask("a discard", discard)
        if mask.bit_count() != TALON_SIZE or mask & ~cand:
            raise ValueError(f"a discard must be {TALON_SIZE} cards of the hand, got {mask:#x}")
        checked.append(mask)
    if not checked:
        raise ValueError("discards must hold at least one discard (None: every pair)")
    return checked


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
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    cand, left, right = _check_position(hand12, others)
    possible = _check_discards(cand, discards)
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
    discards, 0 in unused slots (None: every pair)."""
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    array = np.ascontiguousarray(hands, dtype=np.uint32)
    if array.ndim != 2 or array.shape[1] != N_SEATS:
        raise ValueError(f"hands must be an (n, {N_SEATS}) array, got shape {array.shape}")
    if discards is None:
        padded = np.zeros((len(array), 1), dtype=np.uint32)
    else:
        padded = np.ascontiguousarray(discards, dtype=np.uint32)
        if padded.ndim != 2 or len(padded) != len(array):
            raise ValueError(f"discards must be an (n, m) array, n = {len(array)}")
    for row, discard_row in zip(array, padded, strict=True):
        others = [row[(declarer + 1) % N_SEATS], row[(declarer + 2) % N_SEATS]]
        cand, _, _ = _check_position(int(row[declarer]), [int(o) for o in others])
        used = [int(d) for d in discard_row if d]
        if discards is not None:
            _check_discards(cand, used)
    return _run(array, padded, declarer, leader, NO_CARD)


def first_lead_many(
    hands: np.ndarray, first: int, *, declarer: int = 0, discards: np.ndarray | None = None
) -> np.ndarray:
    """``hidden_discard_many`` with the declarer on lead leading the card ``first`` to the
    first trick (each row's candidate cards less its possible discards must hold it: with
    ``discards`` the possible discards, (n, m), the first one the discard he made; None: every
    pair, of which he made none holding ``first``). The blind lead's question over layouts of
    different candidate cards (``blind_lead`` is the one-hand form)."""
    declarer = _check_seat("declarer", declarer)
    if (
        isinstance(first, bool)
        or not isinstance(first, int | np.integer)
        or not 0 <= first < N_CARDS
    ):
        raise ValueError(f"first must be a card bit 0..31, got {first!r}")
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
    pairs, htt, tt = _tables()
    out = np.zeros(len(hands), dtype=np.int8)
    hidden_batch(hands, discards, declarer, leader, first, pairs, htt, tt, out)
    return out


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
    declarer = _check_seat("declarer", declarer)
    array = np.ascontiguousarray(others, dtype=np.uint32)
    if array.ndim != 2 or array.shape[1] != N_SEATS - 1 or len(array) == 0:
        raise ValueError(f"others must be a non-empty (n, 2) array, got shape {array.shape}")
    hand = _check_mask("the declarer's hand", hand)
    discard = _check_mask("the discard", discard)
    if discard.bit_count() != TALON_SIZE or discard & hand:
        raise ValueError(
            f"the discard must be {TALON_SIZE} cards outside the hand, got {discard:#x}"
        )
    for left, right in array[:: max(1, len(array) // 64)]:
        _check_position(hand | discard, [int(left), int(right)])
    possible = [discard] if discards is None else _check_discards(hand | discard, discards)
    if discard not in possible:
        raise ValueError("discards must hold the declarer's actual discard")
    rows = np.zeros((len(array), N_SEATS), dtype=np.uint32)
    rows[:, declarer] = hand | discard
    rows[:, (declarer + 1) % N_SEATS] = array[:, 0]
    rows[:, (declarer + 2) % N_SEATS] = array[:, 1]
    padded = np.zeros((len(array), len(possible)), dtype=np.uint32)
    padded[:] = possible
    best: tuple[int, int, int] | None = None
    values = np.zeros(0, dtype=np.int8)
    for card in _lead_options(hand, discard, discards is None):
        tricks = _run(rows, padded, declarer, declarer, card)
        score = (int((tricks > 0).sum()), int(tricks.sum()), card)
        if best is None or score < best:
            best, values = score, tricks
    assert best is not None
    return best[2], values
