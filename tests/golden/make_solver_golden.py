"""Regenerate ``solver_deals.json``: full 10-card deals and their double-dummy values.

    .venv/bin/python tests/golden/make_solver_golden.py

Each value is computed twice and must agree: by the package's kernel (``prefstats.solver.solve``)
and by the independent reference below, a plain card-by-card alpha-beta in numba that shares no
code with the package: it tries every legal card in natural order (no equivalent-card pruning, no
move ordering, no quick-trick bounds) and memoises bounds in a dict keyed on the exact owner of
every card (no relative ranks, no suit symmetry). It takes seconds per solve, hence the file.
The deals are drawn here once; the file holds the deals and values, not the seed.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, types
from numba.typed import Dict

from prefstats.game.cards import format_hand
from prefstats.solver import solve

N_DEALS = 50
HAND_SIZE = 10
N_CARDS = 32
N_SEATS = 3
RANKS = 8
SUIT_MASK = (1 << RANKS) - 1
OUT = Path(__file__).with_name("solver_deals.json")
ABSENT = 3  # owner code of a card out of play


@njit(cache=False)
def _legal(hand: int, led: int, trump: int) -> int:
    if led < 0:
        return hand
    follow = hand & (SUIT_MASK << (RANKS * led))
    if follow:
        return follow
    if trump >= 0 and hand & (SUIT_MASK << (RANKS * trump)):
        return hand & (SUIT_MASK << (RANKS * trump))
    return hand


@njit(cache=False)
def _winner(cards: tuple[int, int, int], leader: int, trump: int) -> int:
    best, seat = cards[0], leader
    for step in range(1, 3):
        card = cards[step]
        same = card // RANKS == best // RANKS
        if (same and card > best) or (not same and card // RANKS == trump):
            best, seat = card, (leader + step) % 3
    return seat


@njit(cache=False)
def _owners(h0: int, h1: int, h2: int) -> int:
    key = 0
    for card in range(N_CARDS):
        if h0 >> card & 1:
            owner = 0
        elif h1 >> card & 1:
            owner = 1
        elif h2 >> card & 1:
            owner = 2
        else:
            owner = ABSENT
        key |= owner << (2 * card)
    return key


@njit(cache=False)
def _alpha_beta(hands, leader, played, alpha, beta, trump, misere, declarer, memo):
    """Declarer's tricks from here (fail-soft alpha-beta); ``played``: cards of this trick."""
    h0, h1, h2 = hands
    n_played = 0 if played[0] < 0 else (1 if played[1] < 0 else 2)
    if n_played == 0:
        if h0 == 0:
            return 0
        key = (_owners(h0, h1, h2), np.int64(leader))
        if key in memo:
            lower, upper = memo[key]
            if lower == upper:
                return lower
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
    alpha0, beta0 = alpha, beta
    seat = (leader + n_played) % 3
    hand = hands[seat]
    led = played[0] // RANKS if n_played else -1
    legal = _legal(hand, led, trump)
    maximises = (seat == declarer) != misere
    value = -1 if maximises else 99
    for card in range(N_CARDS):
        if not legal >> card & 1:
            continue
        after = (h0 & ~(1 << card), h1, h2)
        if seat == 1:
            after = (h0, h1 & ~(1 << card), h2)
        elif seat == 2:
            after = (h0, h1, h2 & ~(1 << card))
        if n_played < 2:
            trick = (played[0], card, -1) if n_played == 1 else (card, -1, -1)
            child = _alpha_beta(after, leader, trick, alpha, beta, trump, misere, declarer, memo)
        else:
            winner = _winner((played[0], played[1], card), leader, trump)
            won = 1 if winner == declarer else 0
            child = won + _alpha_beta(
                after, winner, (-1, -1, -1), alpha - won, beta - won, trump, misere, declarer, memo
            )
        if maximises:
            value = max(value, child)
            alpha = max(alpha, value)
        else:
            value = min(value, child)
            beta = min(beta, value)
        if alpha >= beta:
            break
    if n_played == 0:
        key = (_owners(h0, h1, h2), np.int64(leader))
        lower, upper = memo.get(key, (0, 99))
        if value <= alpha0:
            upper = min(upper, value)
        elif value >= beta0:
            lower = max(lower, value)
        else:
            lower, upper = value, value
        memo[key] = (lower, upper)
    return value


def reference_solve(
    hands: list[int], trump: int | None, misere: bool, declarer: int, leader: int
) -> int:
    """The independent reference value (slow)."""
    memo = Dict.empty(
        key_type=types.UniTuple(types.int64, 2), value_type=types.UniTuple(types.int64, 2)
    )
    trump_code = -1 if trump is None else trump
    hand_tuple = (int(hands[0]), int(hands[1]), int(hands[2]))
    return int(
        _alpha_beta(hand_tuple, leader, (-1, -1, -1), -1, 99, trump_code, misere, declarer, memo)
    )


def longest_suit(hand: int) -> int:
    lengths = [((hand >> (RANKS * suit)) & SUIT_MASK).bit_count() for suit in range(4)]
    return lengths.index(max(lengths))


def cases_for(index: int, hands: list[int]) -> list[dict[str, Any]]:
    """Four solves per deal, rotating the declarer and varying the leader."""
    declarer = index % N_SEATS
    other = (declarer + 1 + index // N_SEATS % 2) % N_SEATS
    return [
        {
            "trump": longest_suit(hands[declarer]),
            "misere": False,
            "declarer": declarer,
            "leader": 0,
        },
        {"trump": None, "misere": False, "declarer": declarer, "leader": other},
        {"trump": None, "misere": True, "declarer": declarer, "leader": declarer},
        {"trump": None, "misere": True, "declarer": declarer, "leader": other},
    ]


def main() -> None:
    rng = np.random.default_rng()
    deals = []
    for index in range(N_DEALS):
        cards = rng.permutation(N_CARDS)
        hands = [
            sum(1 << int(card) for card in cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
            for seat in range(N_SEATS)
        ]
        solves = []
        for case in cases_for(index, hands):
            start = time.perf_counter()
            expected = reference_solve(hands, **case)
            got = solve(hands, **case)
            if got != expected:
                sys.exit(f"MISMATCH on {hands} {case}: kernel {got}, reference {expected}")
            solves.append({**case, "tricks": got})
            print(index, case, got, f"{time.perf_counter() - start:.1f}s", flush=True)
        deals.append({"hands": hands, "text": [format_hand(h) for h in hands], "solves": solves})
    header = (
        "Full 10-card deals (seats 0, 1, 2; the talon left out) and the declarer's double-dummy "
        "tricks, each checked against the independent reference of make_solver_golden.py."
    )
    OUT.write_text(json.dumps({"about": header, "deals": deals}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
