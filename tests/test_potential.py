"""Dealt potential against exhaustive best discards per strain (public best_discard)."""

import numpy as np
import pytest

from prefstats.game.deal import deal_many
from prefstats.game.rules import LADDER, Contract, Strain
from prefstats.solver import best_discard, potential_many


def naive_potential(parts, seat):
    """Best contract and clean misère of one seat by exact best_discard in every strain."""
    hands, talon = [int(x) for x in parts[:3]], int(parts[3])
    others = [hands[s] for s in range(3) if s != seat]
    hand12 = hands[seat] | talon
    best = -1
    for strain in Strain:
        trump = None if strain == Strain.NO_TRUMP else int(strain)
        tricks = best_discard(hand12, others, trump=trump, declarer=seat, leader=0)[1]
        if tricks >= 6:
            best = max(best, Contract(min(tricks, 10), strain).rank)
    misere = best_discard(hand12, others, misere=True, declarer=seat, leader=0)[1]
    return best, misere == 0


@pytest.fixture(scope="module")
def deals():
    # Half random deals, half with a strong first hand, so that high contracts occur.
    strong = deal_many(10, seed=2, fixed={0: 0xFF | 1 << 15})  # all spades and the ♣A
    return np.concatenate([deal_many(20, seed=1), strong])


def test_potential_equals_exhaustive_best_discards(deals):
    best, clean = potential_many(deals)
    for row, parts in enumerate(deals):
        for seat in range(3):
            assert (best[row, seat], clean[row, seat]) == naive_potential(parts, seat), (row, seat)
    assert (best[20:, 0] >= Contract(9, Strain.SPADES).rank).all()
    assert str(LADDER[best[20:, 0].max()]) in ("10♠", "10NT")


def test_two_jobs_equal_one(deals):
    one = potential_many(deals)
    two = potential_many(deals, n_jobs=2)
    assert all((a == b).all() for a, b in zip(one, two, strict=True))


def test_potential_errors(deals):
    with pytest.raises(ValueError, match="shape"):
        potential_many(deals[:, :3])
    bad = deals.copy()
    bad[0, 3] = bad[0, 0] & 3
    with pytest.raises(ValueError, match="talon"):
        potential_many(bad)
    with pytest.raises(ValueError, match="min_level"):
        potential_many(deals, min_level=5)
