"""Dealt potential against plain twins: every discard in every strain, and a golden file."""

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from prefstats.game.deal import deal_many
from prefstats.game.rules import LADDER, Contract, Strain
from prefstats.solver import POTENTIAL_STATS, best_discard, potential_many, solve, some_game_many

GOLDEN = Path(__file__).parent / "golden" / "potential_2000.npz"


def naive_potential(parts, seat, min_level=6):
    """Best contract from ``min_level`` and clean misère of one seat: every one of the 66
    discards solved exactly in every strain (``solve``), no bound and no early stop."""
    hands, talon = [int(x) for x in parts[:3]], int(parts[3])
    hand12 = hands[seat] | talon
    best, clean = -1, False
    for a, b in combinations([bit for bit in range(32) if hand12 >> bit & 1], 2):
        kept = list(hands)
        kept[seat] = hand12 & ~(1 << a) & ~(1 << b)
        for strain in Strain:
            trump = None if strain == Strain.NO_TRUMP else int(strain)
            level = min(solve(kept, trump=trump, declarer=seat, leader=0), 10)
            if level >= min_level:
                best = max(best, Contract(level, strain).rank)
        clean |= solve(kept, misere=True, declarer=seat, leader=0) == 0
    return best, clean


def per_strain_potential(parts, seat):
    """The same from exact best_discard per strain."""
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


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN) as data:
        return {name: data[name] for name in data.files}


def test_potential_equals_exhaustive_best_discards(deals):
    best, clean = potential_many(deals)
    for row, parts in enumerate(deals):
        for seat in range(3):
            assert (best[row, seat], clean[row, seat]) == per_strain_potential(parts, seat), (
                row,
                seat,
            )
    assert (best[20:, 0] >= Contract(9, Strain.SPADES).rank).all()
    assert str(LADDER[best[20:, 0].max()]) in ("10♠", "10NT")


@pytest.mark.parametrize("min_level", [6, 9])
def test_potential_equals_every_discard_in_every_strain(min_level):
    strong = deal_many(3, seed=5, fixed={1: 0xFF00 | 1 << 31})  # all clubs and the ♥A
    some = np.concatenate([deal_many(5, seed=3), strong])
    best, clean = potential_many(some, min_level=min_level)
    for row, parts in enumerate(some):
        for seat in range(3):
            expected = naive_potential(parts, seat, min_level)
            assert (best[row, seat], clean[row, seat]) == expected, (row, seat)
    assert (best[5:, 1] >= Contract(9, Strain.SPADES).rank).all()


def test_clean_misere_equals_best_of_every_discard():
    """The clean misère asks only the dominating discards; on hands near a clean misère (the
    first hand holds every seven and eight) it agrees with the best of all 66 discards."""
    lows = sum(1 << (8 * suit + rank) for suit in range(4) for rank in (0, 1))
    near = deal_many(30, seed=7, fixed={0: lows})
    _, clean = potential_many(near)
    for row, parts in enumerate(near):
        hands, talon = [int(x) for x in parts[:3]], int(parts[3])
        others = [hands[s] for s in range(3) if s != 0]
        best = best_discard(hands[0] | talon, others, misere=True, declarer=0, leader=0)[1]
        assert clean[row, 0] == (best == 0), row
    assert 0 < clean[:, 0].sum() < len(near)  # both answers occur


def test_golden_answers_follow_from_per_strain_tricks(golden):
    """The file's potentials are the highest contract its per-strain tricks make."""
    for min_level, name in ((6, "best6"), (9, "best9")):
        for (row, seat), got in np.ndenumerate(golden[name]):
            ranks = [
                Contract(min(int(tricks), 10), Strain(strain)).rank
                for strain, tricks in enumerate(golden["tricks"][row, seat])
                if tricks >= min_level
            ]
            assert got == max(ranks, default=-1), (min_level, row, seat)


@pytest.mark.parametrize("min_level", [6, 9])
def test_potential_equals_golden_on_2000_deals(golden, min_level):
    best, clean = potential_many(golden["deals"], min_level=min_level)
    expected = golden[f"best{min_level}"]
    assert (best == expected).all(), np.argwhere(best != expected)[:5].tolist()
    assert (clean == golden["clean"]).all(), np.argwhere(clean != golden["clean"])[:5].tolist()


def test_some_game_equals_golden_on_2000_deals(golden):
    """Some seat makes a six exactly when some seat's potential from six exists."""
    expected = (golden["best6"] >= 0).any(axis=1)
    assert (some_game_many(golden["deals"]) == expected).all()
    assert (some_game_many(golden["deals"][:300], n_jobs=2) == expected[:300]).all()
    assert 50 < (~expected).sum() < 200  # about 5% of random deals: both answers occur


def test_some_game_equals_every_discard_in_every_strain(golden):
    """The naive twin on two deals without a game and two with one."""
    expected = (golden["best6"] >= 0).any(axis=1)
    rows = [*np.flatnonzero(~expected)[:2], *np.flatnonzero(expected)[:2]]
    game = some_game_many(golden["deals"][rows])
    for got, row in zip(game, rows, strict=True):
        parts = golden["deals"][row]
        assert got == any(naive_potential(parts, seat)[0] >= 0 for seat in range(3)), row


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
    with pytest.raises(ValueError, match="min_level must be an int"):
        potential_many(deals, min_level=6.5)  # type: ignore[arg-type]


def test_stats_count_every_question(deals):
    stats = np.zeros(len(POTENTIAL_STATS), dtype=np.int64)
    potential_many(deals, stats=stats)
    counts = dict(zip(POTENTIAL_STATS, stats.tolist(), strict=True))
    n = len(deals)
    assert counts["deals"] == n
    assert counts["strain questions"] == 5 * 3 * n
    assert counts["misère questions"] == 3 * n
    settled = [
        counts["... by the level already found"],
        counts["... by the defence's sure tricks against every discard"],
    ]
    assert sum(settled) <= counts["strain questions settled without search"]
    assert counts["strain questions settled by one late-discard search"] > 0
    assert counts["misère questions settled without search"] <= counts["misère questions"]
    assert counts["positions searched"] >= n - counts["deals settled without search"] > 0
    twice = stats.copy()
    potential_many(deals, stats=twice, n_jobs=2)  # adds to the counters, chunks summed
    assert twice[0] == 2 * n
    with pytest.raises(ValueError, match="stats"):
        potential_many(deals, stats=np.zeros(3, dtype=np.int64))
