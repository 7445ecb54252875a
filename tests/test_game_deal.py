"""Deal validation and dealing: validity, uniformity, exact suit-length law, constraints, the
counter-based streams (prefstats.game.deal)."""

from math import comb

import numpy as np
import pytest
from scipy import stats

from prefstats.game.cards import FULL_DECK, N_CARDS, N_RANKS, SUIT_MASK, parse_hand
from prefstats.game.deal import (
    PART_SIZES,
    Deal,
    Stream,
    all_layouts,
    deal_many,
    philox4x32,
    sample_layouts,
    uniform_integers,
)

N = 100_000
# Each chi-square test below fails a correct dealer with probability 1e-6 (p-value threshold);
# the seeds are fixed, so a pass is reproducible, and a biased dealer would show p ~ 0.
P_MIN = 1e-6

HAND = parse_hand("♠7 8 9 10 J Q K A ♣7 8")
EXAMPLE = "♠7 8 9 10 J Q K A ♣7 8 | ♣9 10 J Q K A ♦7 8 9 10 | ♦J Q K A ♥7 8 9 10 J Q | ♥K A"


@pytest.fixture(scope="module")
def deals():
    return deal_many(N, seed=20261129)


def test_shape_dtype_and_determinism(deals):
    assert deals.shape == (N, 4) and deals.dtype == np.uint32
    assert np.array_equal(deal_many(1000, seed=20261129), deals[:1000])
    assert not np.array_equal(deal_many(1000, seed=1), deals[:1000])


def test_every_deal_is_valid(deals):
    counts = np.bitwise_count(deals)
    assert (counts == np.array(PART_SIZES)).all()
    union = np.bitwise_or.reduce(deals, axis=1)
    assert (union == FULL_DECK).all()  # 32 cards in 32 places, so the parts are disjoint too


def card_part_counts(deals, cards=range(N_CARDS)):
    return np.array([[((deals[:, p] >> c) & 1).sum() for p in range(4)] for c in cards])


def test_card_to_seat_counts_are_uniform(deals):
    # A 32 × 4 table with both margins fixed by construction: Pearson's statistic is
    # chi-square with (32 − 1)(4 − 1) degrees of freedom under uniform dealing.
    table = card_part_counts(deals)
    assert (table.sum(axis=1) == N).all()
    expected = np.outer(np.full(N_CARDS, N), np.array(PART_SIZES) / N_CARDS)
    chi2 = ((table - expected) ** 2 / expected).sum()
    assert stats.chi2.sf(chi2, df=31 * 3) > P_MIN


@pytest.mark.parametrize("part", [0, 1, 2])
@pytest.mark.parametrize("suit", [0, 3])
def test_suit_length_matches_hypergeometric(deals, part, suit):
    lengths = np.bitwise_count((deals[:, part] >> (N_RANKS * suit)) & SUIT_MASK)
    observed = np.bincount(lengths, minlength=N_RANKS + 1)
    exact = np.array([comb(8, k) * comb(24, 10 - k) for k in range(N_RANKS + 1)]) / comb(32, 10)
    expected = exact * N
    big = expected >= 20  # pool the tail (lengths 7 and 8 are rare) into one bin
    obs = np.append(observed[big], observed[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    result = stats.chisquare(obs, exp)
    assert result.pvalue > P_MIN


def test_fixed_hand_never_moves_and_the_rest_is_uniform():
    deals = deal_many(N, seed=7, fixed={0: HAND})
    assert (deals[:, 0] == HAND).all()
    assert (np.bitwise_count(deals) == np.array(PART_SIZES)).all()
    assert (np.bitwise_or.reduce(deals, axis=1) == FULL_DECK).all()
    free = [c for c in range(N_CARDS) if not HAND >> c & 1]
    table = card_part_counts(deals, free)[:, 1:]
    expected = np.outer(np.full(len(free), N), np.array(PART_SIZES[1:]) / 22)
    chi2 = ((table - expected) ** 2 / expected).sum()
    assert stats.chi2.sf(chi2, df=(22 - 1) * 2) > P_MIN


def test_partly_fixed_parts():
    known_talon = parse_hand("♥A")
    known_third = parse_hand("♦7 8 ♣A")
    deals = deal_many(20_000, seed=3, fixed={3: known_talon, 2: known_third})
    assert ((deals[:, 3] & known_talon) == known_talon).all()
    assert ((deals[:, 2] & known_third) == known_third).all()
    assert (np.bitwise_count(deals) == np.array(PART_SIZES)).all()
    assert (np.bitwise_or.reduce(deals, axis=1) == FULL_DECK).all()
    # The talon's other card is uniform over the 32 − 1 − 3 = 28 free cards.
    other = deals[:, 3] & ~np.uint32(known_talon)
    counts = np.bincount(np.log2(other).astype(int), minlength=N_CARDS)
    assert (counts[[31, 16, 17, 15]] == 0).all()
    free_counts = np.delete(counts, [15, 16, 17, 31])
    assert stats.chisquare(free_counts).pvalue > P_MIN


def test_all_parts_fixed_gives_that_deal():
    d = Deal.parse(EXAMPLE)
    deals = deal_many(3, seed=0, fixed=dict(enumerate(d.parts)))
    assert (deals == np.array(d.parts, dtype=np.uint32)).all()


def test_zero_deals():
    assert deal_many(0, seed=1).shape == (0, 4)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": -1}, "n must be a non-negative integer"),
        ({"n": 2.5}, "n must be a non-negative integer"),
        ({"n": 1, "fixed": {4: 1}}, "fixed part must be 0..3"),
        ({"n": 1, "fixed": {3: parse_hand("♠7 8 9")}}, "fixed talon has 3 cards, more than 2"),
        ({"n": 1, "fixed": {0: 1, 1: 1}}, "fixed second hand repeats card.* ♠7"),
        ({"n": 1, "fixed": {0: 1 << 32}}, "not a 32-bit card mask"),
    ],
)
def test_deal_many_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        deal_many(**kwargs)


def test_deal_parse_and_str_round_trip():
    d = Deal.parse(EXAMPLE)
    assert d.first == HAND and d.hands == d.parts[:3]
    assert Deal.parse(str(d)) == d
    assert Deal.parse(d.format("ru")) == d
    row = deal_many(1, seed=5)[0]
    assert Deal.parse(str(Deal.from_row(row))).parts == tuple(int(x) for x in row)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("♠7 | ♠8 | ♠9", "needs 4 parts"),
        (EXAMPLE.replace("♥K A", "♥K"), "talon has 1 cards, needs 2"),
        (EXAMPLE.replace("| ♥K A", "| ♥K ♠7"), "talon repeats card.* ♠7"),
        (EXAMPLE.replace("♦J Q", "♦J X"), "third hand: bad token 'X'"),
    ],
)
def test_deal_parse_errors(text, message):
    with pytest.raises(ValueError, match=message):
        Deal.parse(text)


def test_deal_validation():
    d = Deal.parse(EXAMPLE)
    with pytest.raises(ValueError, match="second hand repeats"):
        Deal(d.first, d.first, d.third, d.talon)
    with pytest.raises(ValueError, match="not a 32-bit card mask"):
        Deal(-1, d.second, d.third, d.talon)
    with pytest.raises(AttributeError):
        d.first = 0  # type: ignore[misc]


@pytest.mark.parametrize("known_size", [10, 12])
def test_sampled_layouts_hold_the_other_cards(known_size):
    deals = deal_many(20, seed=14)
    known = np.zeros((20, 4), np.uint32)
    known[:, 0] = deals[:, 0]
    if known_size == 12:
        known[:, 3] = deals[:, 3]
    layouts = sample_layouts(known, 50, seed=2)
    assert layouts.shape == (20, 50, 4)
    assert (np.bitwise_count(layouts) == np.array(PART_SIZES)).all()
    assert (layouts[..., 0] == known[:, None, 0]).all()
    if known_size == 12:
        assert (layouts[..., 3] == known[:, None, 3]).all()
    assert (np.bitwise_or.reduce(layouts, axis=2) == 0xFFFFFFFF).all()
    assert not (layouts[..., 1] & layouts[..., 2]).any()
    assert len(np.unique(layouts[..., 1])) > 900  # they vary
    with pytest.raises(ValueError, match="same number of cards per part"):
        sample_layouts(np.array([[1, 0, 0, 0], [3, 0, 0, 0]]), 2)


# Random123's published known-answer vectors for Philox4x32-10 (its tests/kat_vectors).
PHILOX_KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    (
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]


@pytest.mark.parametrize(("counter", "key", "expected"), PHILOX_KAT)
def test_philox_known_answers(counter, key, expected):
    assert philox4x32(counter, key) == expected


def test_deal_i_is_the_same_whatever_else_is_drawn():
    whole = deal_many(5000, seed=21)
    for start, n in ((0, 1), (1, 999), (4321, 679), (4999, 1)):
        assert (deal_many(n, seed=21, start=start) == whole[start : start + n]).all()
    assert not (deal_many(10, seed=(21, 1)) == whole[:10]).all()  # a sub-stream differs


def test_streams():
    assert Stream.of(3) == Stream(3) and Stream.of((3, 1, 2)) == Stream(3, (1, 2))
    assert Stream.of(np.random.SeedSequence(3, spawn_key=(4,))) == Stream(3, (4,))
    assert not (Stream.of(3).key == Stream.of(3).child(0).key).all()
    assert Stream.of(None).entropy != Stream.of(None).entropy  # fresh entropy each time
    for bad in ("x", -1, True, (), (1, -2), 2.5):
        with pytest.raises(ValueError, match="seed must be"):
            Stream.of(bad)  # type: ignore[arg-type]


def test_per_row_fixed_cards_stay_and_each_row_is_uniform():
    n = 30_000
    fixed = np.zeros((n, 4), np.uint32)
    fixed[:, 0] = np.where(np.arange(n) % 2, HAND, parse_hand("♦7 8 9 10 J Q K A ♥7 8"))
    deals = deal_many(n, seed=9, fixed=fixed)
    assert (deals[:, 0] == fixed[:, 0]).all()
    assert (np.bitwise_count(deals) == np.array(PART_SIZES)).all()
    assert (np.bitwise_or.reduce(deals, axis=1) == FULL_DECK).all()
    odd = deals[1::2]
    free = [c for c in range(N_CARDS) if not HAND >> c & 1]
    table = card_part_counts(odd, free)[:, 1:]
    expected = np.outer(np.full(len(free), len(odd)), np.array(PART_SIZES[1:]) / 22)
    chi2 = ((table - expected) ** 2 / expected).sum()
    assert stats.chi2.sf(chi2, df=(22 - 1) * 2) > P_MIN


@pytest.mark.parametrize(
    ("fixed", "message"),
    [
        (np.zeros((3, 4)), "integer array of shape"),
        (np.array([[1, 2, 0, 0], [4, 4, 0, 0]]), "row 1 .* two parts: ♠9"),
        (np.array([[1, 0, 0, 0], [3, 0, 0, 0]]), "same number of cards per part"),
        (np.array([[0, 0, 0, 7], [0, 0, 0, 7]]), "talon has 3 cards"),
    ],
)
def test_per_row_fixed_errors(fixed, message):
    with pytest.raises(ValueError, match=message):
        deal_many(len(fixed), seed=1, fixed=np.asarray(fixed))


def test_uniform_integers():
    draws = uniform_integers(60_000, 6, seed=4)
    assert stats.chisquare(np.bincount(draws, minlength=6)).pvalue > P_MIN
    assert (uniform_integers(100, 1, seed=4) == 0).all()
    assert (uniform_integers(50, 6, seed=4, start=10) == draws[10:60]).all()
    with pytest.raises(ValueError, match="bound"):
        uniform_integers(3, 0, seed=1)


def test_all_layouts_enumerates_each_split_once():
    hand, talon = parse_hand("♠7 8 9 10 J Q K A ♣7 8"), parse_hand("♣9 10")
    deals = all_layouts(hand, talon, seat=2)
    assert (deals[:, 2] == hand).all() and (deals[:, 3] == talon).all()
    assert len(np.unique(deals[:, 0])) == comb(20, 10)
    assert (np.bitwise_or.reduce(deals, axis=1) == FULL_DECK).all()
    with pytest.raises(ValueError, match="10-card hand"):
        all_layouts(hand, hand & 3, seat=0)
