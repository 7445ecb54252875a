"""Brute-force twins of ``prefstats.misere.classes`` and ``.exact`` (slow, obviously correct).

The one-suit misère game is written here as a plain game tree: three explicit seats, one card
played at a time in seat order, every legal card tried, the defenders (maximising "declarer
takes a trick") choosing the leader of each new trick. It shares no code with the package's
solver: ranks are plain ints 0..7 in frozensets, a discard is ``None``.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import numpy as np
import numpy.typing as npt

DECLARER, LEFT, RIGHT = 0, 1, 2  # play goes round DECLARER -> LEFT -> RIGHT -> DECLARER
DEFENDERS = (LEFT, RIGHT)
ALL_RANKS = range(8)
Hands = tuple[frozenset[int], ...]
Trick = tuple[int | None, ...]  # cards played so far in the trick, in play order


def declarer_caught(hands: Hands, declarer_leads_first: bool, shed: bool = False) -> bool:
    """Can the defenders force the declarer to win a trick of the suit?

    With ``shed`` the defenders may also, between tricks, throw away cards of the suit (as
    discards on other suits' leads): a variant the package's model does not need.
    """
    if declarer_leads_first:
        return _play(hands, DECLARER, (), shed)
    return _defenders_choose_leader(hands, shed)


@functools.cache
def _defenders_choose_leader(hands: Hands, shed: bool) -> bool:
    if not hands[DECLARER]:
        return False  # a void declarer can never win a trick of the suit
    if shed and any(
        _defenders_choose_leader(_remove(hands, seat, card), shed)
        for seat in DEFENDERS
        for card in hands[seat]
    ):
        return True
    return any(_play(hands, leader, (), shed) for leader in DEFENDERS if hands[leader])


def _play(hands: Hands, leader: int, trick: Trick, shed: bool) -> bool:
    if len(trick) == 3:
        return _trick_done(hands, leader, trick, shed)
    seat = (leader + len(trick)) % 3
    moves: list[int | None] = [*sorted(hands[seat])] or [None]  # None: discard another suit
    outcomes = (_play(_remove(hands, seat, card), leader, (*trick, card), shed) for card in moves)
    return all(outcomes) if seat == DECLARER else any(outcomes)


def _trick_done(hands: Hands, leader: int, trick: Trick, shed: bool) -> bool:
    by_seat = {(leader + i) % 3: card for i, card in enumerate(trick)}
    declarer_card = by_seat[DECLARER]
    others = [card for seat, card in by_seat.items() if seat != DECLARER and card is not None]
    if declarer_card is not None and all(declarer_card > card for card in others):
        return True  # the declarer won the trick: caught
    return _defenders_choose_leader(hands, shed)


def _remove(hands: Hands, seat: int, card: int | None) -> Hands:
    if card is None:
        return hands
    new = list(hands)
    new[seat] = hands[seat] - {card}
    return new[0], new[1], new[2]


@functools.cache
def caught_when_winner_leads(hands: Hands, leader: int) -> bool:
    """The solver's one-suit catch: defender ``leader`` on lead leads the suit, and every
    trick's winner leads it next (the lead is not passed freely as in ``declarer_caught``).
    Can the defenders force the declarer to win a trick of the suit?"""
    if not hands[DECLARER] or not hands[leader]:
        return False
    return _play_winner_leads(hands, leader, ())


def _play_winner_leads(hands: Hands, leader: int, trick: Trick) -> bool:
    if len(trick) == 3:
        by_seat = {(leader + i) % 3: card for i, card in enumerate(trick)}
        winner = max((card, seat) for seat, card in by_seat.items() if card is not None)[1]
        return winner == DECLARER or caught_when_winner_leads(hands, winner)
    seat = (leader + len(trick)) % 3
    moves: list[int | None] = [*sorted(hands[seat])] or [None]  # None: discard another suit
    outcomes = (
        _play_winner_leads(_remove(hands, seat, card), leader, (*trick, card)) for card in moves
    )
    return all(outcomes) if seat == DECLARER else any(outcomes)


def all_layouts(declarer: frozenset[int], max_out: int) -> list[tuple[Hands, int]]:
    """Every deal of the other ranks to LEFT / RIGHT / out (at most ``max_out`` out): each
    deal with its number of cards out of play."""
    others = [rank for rank in ALL_RANKS if rank not in declarer]
    result: list[tuple[Hands, int]] = []
    for places in itertools.product(("left", "right", "out"), repeat=len(others)):
        if places.count("out") > max_out:
            continue
        left = frozenset(r for r, p in zip(others, places, strict=True) if p == "left")
        right = frozenset(r for r, p in zip(others, places, strict=True) if p == "right")
        result.append(((declarer, left, right), places.count("out")))
    return result


def naive_holding_summaries(
    holding: int, max_out: int, shed: bool = False
) -> dict[int, tuple[str, int, int, int]]:
    """For each limit 0..max_out on cards out of play: (class label, layouts, caught on the
    defenders' lead, caught on own lead). One pass over the layouts serves every limit."""
    declarer = frozenset(rank for rank in ALL_RANKS if holding >> rank & 1)
    solved = [
        (n_out, declarer_caught(hands, False, shed), declarer_caught(hands, True, shed))
        for hands, n_out in all_layouts(declarer, max_out)
    ]
    summaries = {}
    for limit in range(max_out + 1):
        kept = [(by_defenders, own) for n_out, by_defenders, own in solved if n_out <= limit]
        caught_defenders = sum(by_defenders for by_defenders, _ in kept)
        caught_own = sum(own for _, own in kept)
        summaries[limit] = (
            _label(declarer, caught_defenders, caught_own),
            len(kept),
            caught_defenders,
            caught_own,
        )
    return summaries


def _label(declarer: frozenset[int], caught_defenders: int, caught_own: int) -> str:
    if not declarer:
        return "void"
    if caught_defenders:
        return "catchable"
    if caught_own:
        return "conditionally_clean"
    return "clean"


# --- exact combinatorics by explicit enumeration ---------------------------------------------


def naive_hand_class_counts(
    class_codes: npt.NDArray[np.uint8], hand_size: int = 10
) -> Counter[tuple[int, ...]]:
    """Hands per (clean, conditional, catchable, void) suit count, by explicit enumeration.

    Every two-suit half hand (65,536 of them) is listed with its length and class counts; a hand
    is a pair of halves (♠♣, ♦♥) whose lengths sum to ``hand_size``. Pairs are counted by
    multiplying histograms of halves with the same length and composition.
    """
    halves = np.arange(1 << 16)
    low, high = halves & 0xFF, halves >> 8
    popcount = np.array([bin(h).count("1") for h in range(256)])
    length = popcount[low] + popcount[high]
    composition = np.zeros((halves.size, 4), dtype=np.int64)
    for suit_holding in (low, high):
        np.add.at(composition, (halves, class_codes[suit_holding]), 1)
    histograms: dict[int, Counter[tuple[int, ...]]] = {}
    for n in range(17):
        rows = composition[length == n]
        histograms[n] = Counter(map(tuple, rows.tolist()))
    counts: Counter[tuple[int, ...]] = Counter()
    for n_first in range(hand_size + 1):
        for first, n1 in histograms[n_first].items():
            for second, n2 in histograms[hand_size - n_first].items():
                key = tuple(a + b for a, b in zip(first, second, strict=True))
                counts[key] += n1 * n2
    return counts


def naive_split_counts(n_out: int, hand_size: int, unseen: int) -> Counter[tuple[int, int]]:
    """Deal ``unseen`` cards (the first ``n_out`` of the suit) to two hands in every way and
    count the suit's split."""
    cards = range(unseen)
    counts: Counter[tuple[int, int]] = Counter()
    for first in itertools.combinations(cards, hand_size):
        rest = [card for card in cards if card not in first]
        for second in itertools.combinations(rest, hand_size):
            counts[(sum(c < n_out for c in first), sum(c < n_out for c in second))] += 1
    return counts
