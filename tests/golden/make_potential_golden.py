"""Regenerate ``potential_2000.npz``: random full deals and every seat's dealt potential.

    .venv/bin/python tests/golden/make_potential_golden.py

The potential is computed twice and must agree: by ``potential_many`` (bounds, discard ordering,
early stops) and by the plain route, which solves every one of the 66 discards of the
declarer's 12 cards exactly in each of the 5 strains (``solve_many``) and asks of every discard
whether it keeps a clean misère (``makes_many``), then takes the best. The file holds the deals
(first, second, third hand, talon as uint32) and the answers, never a seed:

- ``tricks`` int8 (n, 3, 5): each seat's most tricks after its best discard, strains ♠ ♣ ♦ ♥ NT;
- ``clean`` bool (n, 3): some discard takes no trick on misère;
- ``best6``, ``best9`` int8 (n, 3): ``potential_many(min_level=6 / 9)``'s ladder ranks.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

from prefstats.solver import makes_many, potential_many, solve_many

N_DEALS = 2000
N_SEATS = 3
N_STRAINS = 5  # ♠ ♣ ♦ ♥ and no trump (strain 4)
HAND_SIZE = 10
N_CARDS = 32
N_JOBS = 2
OUT = Path(__file__).with_name("potential_2000.npz")


def random_deals(n: int) -> np.ndarray:
    """(n, 4) uint32 uniform random full deals: first, second, third hand, talon."""
    rng = np.random.default_rng()
    deals = np.zeros((n, N_SEATS + 1), dtype=np.uint32)
    for row in range(n):
        cards = rng.permutation(N_CARDS)
        for part in range(N_SEATS + 1):
            for card in cards[part * HAND_SIZE : (part + 1) * HAND_SIZE]:
                deals[row, part] |= np.uint32(1 << int(card))
    return deals


def discard_rows(deals: np.ndarray, seat: int) -> np.ndarray:
    """(n * 66, 3) seat hands: every two-card discard of the seat's hand and the talon."""
    rows = []
    for deal in deals:
        hand = int(deal[seat]) | int(deal[3])
        cards = [bit for bit in range(N_CARDS) if hand >> bit & 1]
        for a, b in combinations(cards, 2):
            row = [int(deal[s]) for s in range(N_SEATS)]
            row[seat] = hand & ~(1 << a) & ~(1 << b)
            rows.append(row)
    return np.array(rows, dtype=np.uint32)


def plain_potential(deals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-strain best tricks (n, 3, 5) and clean misère (n, 3) over all 66 discards."""
    n = len(deals)
    tricks = np.zeros((n, N_SEATS, N_STRAINS), dtype=np.int8)
    clean = np.zeros((n, N_SEATS), dtype=np.bool_)
    for seat in range(N_SEATS):
        rows = discard_rows(deals, seat)
        for strain in range(N_STRAINS):
            trump = None if strain == 4 else strain
            values = solve_many(rows, trump=trump, declarer=seat, n_jobs=N_JOBS)
            tricks[:, seat, strain] = values.reshape(n, -1).max(axis=1)
        made = makes_many(rows, 0, misere=True, declarer=seat)
        clean[:, seat] = made.reshape(n, -1).any(axis=1)
        print(f"seat {seat} done", flush=True)
    return tricks, clean


def ladder_rank(level: int, strain: int) -> int:
    """Rank on the bid ladder (prefstats.game.rules.LADDER): misère sits between 8NT and 9♠."""
    return (level - 6) * N_STRAINS + strain + (1 if level >= 9 else 0)


def best_from_tricks(tricks: np.ndarray, min_level: int) -> np.ndarray:
    """The highest contract from ``min_level`` each seat makes, as a ladder rank (-1: none)."""
    best = np.full(tricks.shape[:2], -1, dtype=np.int8)
    for index in np.ndindex(*tricks.shape[:2]):
        for strain in range(N_STRAINS):
            level = min(int(tricks[index][strain]), 10)
            if level >= min_level:
                best[index] = max(int(best[index]), ladder_rank(level, strain))
    return best


def main(n: int = N_DEALS) -> None:
    deals = random_deals(n)
    start = time.perf_counter()
    best6, clean6 = potential_many(deals, min_level=6)
    best9, clean9 = potential_many(deals, min_level=9)
    print(f"potential_many: {time.perf_counter() - start:.1f} s", flush=True)
    tricks, clean = plain_potential(deals)
    print(f"plain: {time.perf_counter() - start:.1f} s", flush=True)
    for name, got, expected in (
        ("best6", best6, best_from_tricks(tricks, 6)),
        ("best9", best9, best_from_tricks(tricks, 9)),
        ("clean6", clean6, clean),
        ("clean9", clean9, clean),
    ):
        bad = np.argwhere(got != expected)
        if len(bad):
            sys.exit(f"MISMATCH {name} at (deal, seat) {bad[:5].tolist()}")
    np.savez_compressed(OUT, deals=deals, tricks=tricks, clean=clean, best6=best6, best9=best9)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else N_DEALS)
