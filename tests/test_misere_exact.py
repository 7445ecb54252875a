"""Exact combinatorics: known values, brute-force twins and a Monte Carlo check."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from prefstats.game.cards import N_CARDS, N_RANKS, N_SUITS
from prefstats.game.deal import HAND_SIZE, TALON_SIZE, deal_many
from prefstats.misere import exact
from prefstats.misere.classes import (
    MAX_OUT_OF_PLAY,
    MisereHandClass,
    SuitClass,
    class_codes,
    misere_hand_class,
)
from prefstats.misere.exact import (
    hand_class_counts,
    hand_class_table,
    holding_probability,
    misere_class_counts,
    p_clean_misere,
    p_misere_class,
    p_only_clean_or_conditional,
    split_probabilities,
    suit_class_probabilities,
    talon_outs,
)
from tests.naive_misere import naive_hand_class_counts, naive_split_counts

SEED = 20_240_613
N_MONTE_CARLO = 200_000
MC_SEED = 20_240_601
# Each Monte Carlo comparison is an exact two-sided binomial test at this level, so a correct
# program fails one with probability below 1e-7; with < 100 comparisons the false-failure
# probability of the whole test is below 1e-5 for any seed.
MC_P_VALUE_FLOOR = 1e-7


# --- splits and talon ------------------------------------------------------------------------


def test_split_known_values() -> None:
    assert split_probabilities(2) == {
        (0, 2): Fraction(9, 38),
        (1, 1): Fraction(10, 19),
        (2, 0): Fraction(9, 38),
    }
    assert split_probabilities(0) == {(0, 0): Fraction(1)}
    assert split_probabilities(20) == {(10, 10): Fraction(1)}


@pytest.mark.parametrize("unseen", [20, 22])
def test_splits_sum_to_one_and_are_symmetric(unseen: int) -> None:
    for n_out in range(N_RANKS + 1):
        splits = split_probabilities(n_out, unseen=unseen)
        assert sum(splits.values()) == 1
        assert all(splits[(a, b)] == splits[(b, a)] for a, b in splits)
        if unseen == 2 * HAND_SIZE:
            assert all(a + b == n_out for a, b in splits)


@settings(max_examples=40, deadline=None)
@given(
    hand_size=st.integers(0, 3),
    extra=st.integers(0, 2),
    data=st.data(),
)
def test_splits_match_enumeration(hand_size: int, extra: int, data: st.DataObject) -> None:
    unseen = 2 * hand_size + extra
    n_out = data.draw(st.integers(0, unseen))
    counts = naive_split_counts(n_out, hand_size, unseen)
    total = sum(counts.values())
    expected = {split: Fraction(n, total) for split, n in counts.items()}
    assert split_probabilities(n_out, hand_size=hand_size, unseen=unseen) == expected


def test_talon_outs_match_enumeration() -> None:
    unseen = exact.UNSEEN_BEFORE_TALON
    talons = list(itertools.combinations(range(unseen), TALON_SIZE))
    for k in range(unseen + 1):
        hits = sum(any(card < k for card in talon) for talon in talons)
        assert talon_outs(k) == Fraction(hits, len(talons))


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: split_probabilities(-1), ValueError),
        (lambda: split_probabilities(21), ValueError),
        (lambda: split_probabilities(2, hand_size=11), ValueError),
        (lambda: split_probabilities(2.0), TypeError),  # type: ignore[arg-type]
        (lambda: talon_outs(23), ValueError),
        (lambda: talon_outs(1, talon_size=30), ValueError),
        (lambda: holding_probability(256), ValueError),
        (lambda: hand_class_counts(hand_size=33), ValueError),
    ],
)
def test_bad_arguments(call: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        call()  # type: ignore[operator]


# --- holdings --------------------------------------------------------------------------------


def test_holding_probabilities() -> None:
    assert sum(holding_probability(h) for h in range(256)) == 1
    for holding in range(256):
        hands_with_it = math.comb(N_CARDS - N_RANKS, HAND_SIZE - holding.bit_count())
        assert holding_probability(holding) * math.comb(N_CARDS, HAND_SIZE) == hands_with_it
    assert holding_probability(0b1111_1111, hand_size=8) == Fraction(1, math.comb(32, 8))


def test_suit_class_probabilities_sum_to_one() -> None:
    probabilities = suit_class_probabilities()
    assert sum(probabilities.values()) == 1
    assert probabilities[SuitClass.VOID] == holding_probability(0)


# --- hands by class composition --------------------------------------------------------------


@pytest.mark.parametrize("max_out", [0, MAX_OUT_OF_PLAY])
def test_hand_class_counts_match_enumeration(max_out: int) -> None:
    counts = hand_class_counts(max_out_of_play=max_out)
    assert sum(counts.values()) == math.comb(N_CARDS, HAND_SIZE)
    assert all(sum(composition) == N_SUITS for composition in counts)
    naive = naive_hand_class_counts(class_codes(max_out))
    assert counts == dict(naive)


def test_hand_class_summaries_agree() -> None:
    counts = misere_class_counts()
    assert counts == {
        MisereHandClass.CLEAN: 40_438,
        MisereHandClass.CONDITIONALLY_CLEAN: 6_426,
        MisereHandClass.CATCHABLE: 64_465_376,
    }
    assert sum(counts.values()) == math.comb(N_CARDS, HAND_SIZE)
    assert p_clean_misere() == Fraction(20_219, 32_256_120)
    assert p_only_clean_or_conditional() == p_clean_misere() + p_misere_class(
        MisereHandClass.CONDITIONALLY_CLEAN
    )
    table = hand_class_table()
    assert table["hands"].sum() == math.comb(N_CARDS, HAND_SIZE)
    assert table.groupby("misere_class")["hands"].sum().to_dict() == {
        cls.value: n for cls, n in counts.items()
    }


# --- Monte Carlo -----------------------------------------------------------------------------


def random_hands(n: int, rng: np.random.Generator, chunk: int = 50_000) -> npt.NDArray[np.uint32]:
    """Uniform random 10-card hands: the 10 smallest of 32 i.i.d. uniform keys, vectorised."""
    parts = []
    for start in range(0, n, chunk):
        keys = rng.random((min(chunk, n - start), N_CARDS))
        cards = np.argpartition(keys, HAND_SIZE, axis=1)[:, :HAND_SIZE].astype(np.uint32)
        parts.append(np.bitwise_or.reduce(np.uint32(1) << cards, axis=1))
    return np.concatenate(parts)


def classify_suits(hands: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint8]:
    """(n, 4) class codes, looked up in the 256-entry table by each suit's holding."""
    codes = class_codes()
    suits = [(hands >> np.uint32(N_RANKS * suit)) & np.uint32(0xFF) for suit in range(N_SUITS)]
    return np.stack([codes[holding] for holding in suits], axis=1)


def assert_binomial_agrees(hits: int, n: int, p: Fraction, what: str) -> None:
    p_value = scipy.stats.binomtest(int(hits), n, float(p)).pvalue
    assert p_value > MC_P_VALUE_FLOOR, f"{what}: {hits}/{n} vs exact {float(p):.6g}"


def test_monte_carlo_agrees_with_exact() -> None:
    rng = np.random.default_rng(MC_SEED)
    hands = random_hands(N_MONTE_CARLO, rng)
    assert all(int(h).bit_count() == HAND_SIZE for h in hands[:1000])
    classes = classify_suits(hands)
    per_class = np.stack([(classes == cls).sum(axis=1) for cls in SuitClass], axis=1)

    for suit in range(N_SUITS):
        for cls, p in suit_class_probabilities().items():
            hits = int((classes[:, suit] == cls).sum())
            assert_binomial_agrees(hits, N_MONTE_CARLO, p, f"suit {suit} {cls.label}")

    total = math.comb(N_CARDS, HAND_SIZE)
    no_catchable = per_class[:, SuitClass.CATCHABLE] == 0
    clean = no_catchable & (per_class[:, SuitClass.CLEAN] > 0)
    assert_binomial_agrees(int(clean.sum()), N_MONTE_CARLO, p_clean_misere(), "clean misère")
    assert_binomial_agrees(
        int(no_catchable.sum()), N_MONTE_CARLO, p_only_clean_or_conditional(), "no catchable"
    )
    for composition, count in hand_class_counts().items():
        hits = int((per_class == np.array(composition)).all(axis=1).sum())
        assert_binomial_agrees(hits, N_MONTE_CARLO, Fraction(count, total), str(composition))


def test_vectorised_classification_matches_misere_hand_class() -> None:
    hands = random_hands(2000, np.random.default_rng(1))
    classes = classify_suits(hands)
    for hand, suit_classes in zip(hands.tolist(), classes.tolist(), strict=True):
        n_clean = suit_classes.count(SuitClass.CLEAN)
        n_catchable = suit_classes.count(SuitClass.CATCHABLE)
        expected = (
            MisereHandClass.CATCHABLE
            if n_catchable
            else MisereHandClass.CLEAN
            if n_clean
            else MisereHandClass.CONDITIONALLY_CLEAN
        )
        assert misere_hand_class(hand) is expected


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_dealt_class_frequencies_match_exact(seat: int) -> None:
    """Each seat's hands from deal_many: suit classes, clean misère, compositions vs exact.py."""
    n = 200_000
    hands = deal_many(n, seed=SEED + seat)[:, seat]
    suits = np.stack([(hands >> np.uint32(8 * s)) & np.uint32(0xFF) for s in range(4)], axis=1)
    classes = class_codes()[suits]
    per_class = np.stack([(classes == c).sum(axis=1) for c in SuitClass], axis=1)
    for suit in range(N_SUITS):
        for cls, p in suit_class_probabilities().items():
            _agrees(int((classes[:, suit] == cls).sum()), n, p)
    no_catchable = per_class[:, SuitClass.CATCHABLE] == 0
    clean = no_catchable & (per_class[:, SuitClass.CLEAN] > 0)
    _agrees(int(clean.sum()), n, p_clean_misere())
    _agrees(int(no_catchable.sum()), n, p_only_clean_or_conditional())
    total = math.comb(N_CARDS, 10)
    for composition, count in hand_class_counts().items():
        hits = int((per_class == np.array(composition)).all(axis=1).sum())
        _agrees(hits, n, Fraction(count, total))


def _agrees(hits: int, n: int, p: Fraction) -> None:
    # An exact binomial test at p > 1e-7: the fewer than 100 comparisons of this test fail a
    # correct program with probability below 1e-5.
    assert scipy.stats.binomtest(hits, n, float(p)).pvalue > 1e-7, (hits, n, float(p))
