"""The late-discard game (one search bounding every discard) against the naive twin."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from prefstats.solver import late_discard_reaches
from tests.naive import clear_cache, naive_best_discard, naive_late_value

N_CARDS = 32
TRUMPS = [0, 1, 2, 3, None]
SIZES = {2: 10, 3: 10, 4: 6, 5: 2}  # cards each defender holds -> random endgames per leader


def late_value(hand: int, left: int, right: int, leader: int, trump: int | None) -> int:
    """Most tricks the late-discard search says the declarer (seat 0) may reach."""
    value = 0
    while value < left.bit_count() and late_discard_reaches(
        hand, [left, right], value + 1, trump=trump, leader=leader
    ):
        value += 1
    return value


def random_endgame(rng: np.random.Generator, size: int) -> tuple[int, int, int]:
    """A random ending: the declarer's ``size`` + 2 cards and each defender's ``size``."""
    cards = [int(card) for card in rng.permutation(N_CARDS)[: 3 * size + 2]]
    hand = sum(1 << card for card in cards[: size + 2])
    left = sum(1 << card for card in cards[size + 2 : 2 * size + 2])
    right = sum(1 << card for card in cards[2 * size + 2 :])
    return hand, left, right


@pytest.mark.parametrize("trump", TRUMPS)
def test_late_discard_bounds_every_discard(trump: int | None) -> None:
    """Its value is never below the best discard's (so its "cannot make" is exact), and most
    often equal."""
    rng = np.random.default_rng(40 + (4 if trump is None else trump))
    equal = total = 0
    for size, count in SIZES.items():
        for leader in range(3):
            for _ in range(count):
                hand, left, right = random_endgame(rng, size)
                clear_cache()
                best = naive_best_discard(hand, (left, right), trump=trump, leader=leader)
                late = late_value(hand, left, right, leader, trump)
                assert late >= best, (hand, left, right, leader)
                equal += late == best
                total += 1
    assert equal >= 0.8 * total


@pytest.mark.parametrize("trump", TRUMPS)
def test_late_discard_against_its_naive_twin(trump: int | None) -> None:
    """The search's value equals the late-discard game's, played naively with every follow
    option, the dominated drops the search skips included (so skipping them changes nothing)."""
    rng = np.random.default_rng(90 + (4 if trump is None else trump))
    for size in (2, 3, 4):
        for leader in range(3):
            for _ in range(8):
                hand, left, right = random_endgame(rng, size)
                clear_cache()
                naive = naive_late_value(hand, (left, right), trump=trump, leader=leader)
                assert late_value(hand, left, right, leader, trump) == naive, (hand, left, right)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": 0}, "target must be an integer in 1..2, got 0"),
        ({"target": 3}, "target must be an integer in 1..2, got 3"),
        ({"target": 1.5}, "target must be an int"),
        ({"trump": 4}, "trump must be a suit"),
        ({"leader": 3}, "leader must be 0, 1 or 2"),
        ({"hand12": 0b111}, "2 cards more"),
    ],
)
def test_late_discard_reaches_rejects_bad_input(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {
        "hand12": 0b111100,
        "others": [0b11 << 8, 0b11 << 16],
        "target": 1,
    } | kwargs
    with pytest.raises(ValueError, match=message):
        late_discard_reaches(args.pop("hand12"), args.pop("others"), args.pop("target"), **args)
