"""Misère with the discard hidden against its naive twin (tests/naive_hidden.py), and the
invariants that tie it to open play."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from prefstats.solver import hidden_discard_many, hidden_discard_tricks, solve
from tests.naive_hidden import naive_hidden_tricks

N_CARDS = 32


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


def random_discards(rng: np.random.Generator, hand: int) -> list[int] | None:
    """None (every pair) a quarter of the time, else a random non-empty set of pairs."""
    pairs = pairs_of(hand)
    if rng.random() < 0.25:
        return None
    count = int(rng.integers(1, len(pairs) + 1))
    return [pairs[i] for i in sorted(rng.choice(len(pairs), count, replace=False))]


# 2,000 random endings a run: sizes 1-4 tricks, every leader, random W.
SIZES = {1: 200, 2: 200, 3: 180, 4: 87}


@pytest.mark.parametrize("leader", [0, 1, 2])
def test_hidden_discard_against_its_naive_twin(leader: int) -> None:
    rng = np.random.default_rng(4800 + leader)
    count = 0
    for size, n_endings in SIZES.items():
        for _ in range(n_endings):
            hand, left, right = random_ending(rng, size)
            discards = random_discards(rng, hand)
            naive = naive_hidden_tricks(hand, left, right, leader, discards)
            found = hidden_discard_tricks(hand, [left, right], leader=leader, discards=discards)
            assert found == naive, (hand, left, right, leader, discards)
            count += 1
    assert count == sum(SIZES.values())
