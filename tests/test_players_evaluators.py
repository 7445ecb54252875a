"""The evaluators: each seat's highest bid, against the solver where the answer is certain
(prefstats.players.evaluators)."""

import numpy as np
import pytest

from prefstats.game.cards import parse_hand
from prefstats.game.deal import Stream, deal_many, sample_layouts
from prefstats.game.rules import MISERE_RANK, NO_BID, Contract
from prefstats.misere.classes import misere_hand_class
from prefstats.players.counting import catchable_suits, filter_counts
from prefstats.players.discards import misere_discards, strain_discards
from prefstats.players.evaluators import (
    EVALUATORS,
    HeuristicEvaluator,
    OracleEvaluator,
    SampledEvaluator,
    evaluator_kind,
)
from prefstats.solver import potential_many, solve

C = Contract.parse
SAMPLED = SampledEvaluator()


def hands(*texts):
    return np.array([parse_hand(t) for t in texts], dtype=np.uint32)


def test_certain_ten_is_bid_and_made_double_dummy():
    # Eight trumps from the top and two aces: ten tricks whatever the layout and the talon.
    hand = parse_hand("♠7 8 9 10 J Q K A ♣A ♦A")
    limit = HeuristicEvaluator().seat_limits(hands("♠7 8 9 10 J Q K A ♣A ♦A"), seat=1)[0]
    assert limit == C("10♠").rank
    deal = deal_many(50, seed=3, fixed={1: hand})
    for row in deal:
        others = [int(row[0]), int(row[2])]
        assert solve([others[0], int(row[1]), others[1]], trump=0, declarer=1) == 10


def test_hopeless_hand_passes():
    limit = HeuristicEvaluator().seat_limits(hands("♠7 9 ♣8 10 ♦7 9 J ♥8 10 Q"), seat=0)[0]
    assert limit == NO_BID


def test_clean_misere_is_bid_and_never_caught():
    text = "♠7 8 9 ♣7 8 ♦7 8 9 ♥7 8"
    assert misere_hand_class(parse_hand(text)).value == "clean"
    for seat in range(3):
        assert HeuristicEvaluator().seat_limits(hands(text), seat=seat)[0] == MISERE_RANK
    for row in deal_many(30, seed=4, fixed={0: parse_hand(text)}):
        for leader in range(3):
            assert solve([int(x) for x in row[:3]], misere=True, leader=leader) == 0


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_limits_are_ladder_ranks(seat):
    limits = HeuristicEvaluator().seat_limits(deal_many(5000, seed=seat)[:, seat], seat)
    assert limits.dtype == np.int8 and limits.min() >= NO_BID and limits.max() < 26


def test_sampled_bids_ten_with_eight_top_trumps_and_two_aces():
    # Ten tricks on every layout and talon: every sample makes 10♠, so P = 1.
    hand = hands("♠7 8 9 10 J Q K A ♣A ♦A")
    for seat in range(3):
        assert SAMPLED.seat_limits(hand, seat, Stream.of(seat))[0] == C("10♠").rank
    games, _ = SAMPLED.probabilities(hand, 1, Stream.of(1))
    assert games[0, :, 0].tolist() == [1.0] * 5  # 6♠ .. 10♠


def test_sampled_passes_a_hopeless_hand():
    hand = hands("♠7 9 ♣8 10 ♦7 9 J ♥8 10 Q")
    for seat in range(3):
        assert SAMPLED.seat_limits(hand, seat, Stream.of(seat))[0] == NO_BID


def test_sampled_bids_a_clean_misere_in_every_seat():
    hand = hands("♠7 8 9 ♣7 8 ♦7 8 9 ♥7 8")
    for seat in range(3):
        assert SAMPLED.seat_limits(hand, seat, Stream.of(seat))[0] == MISERE_RANK
        assert SAMPLED.probabilities(hand, seat, Stream.of(seat))[1][0] == 1.0


def test_sampled_estimates_are_the_solvers_on_the_samples():
    # The vectorised estimates against a row-by-row twin on the same samples: the heuristic
    # discard for the strain (or misère), one solve per layout, the first hand leading.
    seat, seed = 2, 11
    ten = deal_many(60, seed=8)[:, seat]
    games_hands = ten[filter_counts(ten).max(axis=1) >= 4][:2]
    misere_hands = ten[catchable_suits(ten, seat) <= 2][:2]
    ten = np.concatenate([games_hands, misere_hands])
    games, misere = SAMPLED.probabilities(ten, seat, Stream.of(seed))
    assert (~np.isnan(games[:2, 0])).any() and not np.isnan(misere[2:]).any()
    known = np.zeros((len(ten), 4), np.uint32)
    known[:, seat] = ten
    layouts = sample_layouts(known, SAMPLED.samples, Stream.of(seed))
    for h, hand in enumerate(ten):
        tricks = np.zeros((SAMPLED.samples, 6), int)  # five strains, then misère
        for k, deal in enumerate(layouts[h]):
            left, right, talon = deal[(seat + 1) % 3], deal[(seat + 2) % 3], deal[3]
            hand12 = np.array([hand | talon], np.uint32)
            discards = [*strain_discards(hand12)[0], misere_discards(hand12)[0]]
            for strain, discard in enumerate(discards):
                seats = [0, 0, 0]
                seats[seat] = int(hand12[0] & ~discard)
                seats[(seat + 1) % 3], seats[(seat + 2) % 3] = int(left), int(right)
                trump = strain if strain < 4 else None
                tricks[k, strain] = solve(seats, trump=trump, misere=strain == 5, declarer=seat)
        for level in range(6, 11):
            known = ~np.isnan(games[h, level - 6])
            expected = (tricks[:, :5] >= level).mean(axis=0)
            assert np.allclose(games[h, level - 6][known], expected[known])
            assert (expected[~known] < SAMPLED.threshold).all()
        if not np.isnan(misere[h]):
            assert misere[h] == (tricks[:, 5] == 0).mean()


def test_sampled_filters_change_almost_no_bid():
    # The filters are heuristic: against the unfiltered estimate on the same samples they
    # changed 2 of 9,000 limits (3,000 hands a seat); here at most 1% of 200 hands.
    seat = 0
    ten = deal_many(200, seed=12)[:, seat]
    everything = SampledEvaluator(min_count=-np.inf, max_misere_risk=np.inf)
    games, misere = everything.probabilities(ten, seat, Stream.of(3))
    kept_strains = filter_counts(ten) >= SAMPLED.min_count
    kept_misere = catchable_suits(ten, seat) <= SAMPLED.max_misere_risk
    filtered = limits_of(
        np.where(kept_strains[:, None], games, np.nan), np.where(kept_misere, misere, np.nan)
    )
    assert (filtered != limits_of(games, misere)).sum() <= 2
    assert kept_strains.sum() < 0.6 * kept_strains.size  # the filters do save work


def limits_of(games, misere):
    rank = np.array(
        [[C(f"{level}{s}").rank for s in "♠♣♦♥"] + [C(f"{level}NT").rank] for level in range(6, 11)]
    )
    with np.errstate(invalid="ignore"):
        best = np.where(games >= SAMPLED.threshold, rank, NO_BID).max(axis=(1, 2))
        return np.where((misere >= SAMPLED.threshold) & (best < MISERE_RANK), MISERE_RANK, best)


def test_sampled_limits_depend_on_the_seed_alone():
    ten = deal_many(60, seed=13)[:, 1]
    first = SAMPLED.seat_limits(ten, 1, Stream.of(5))
    assert (first == SAMPLED.seat_limits(ten, 1, Stream.of(5))).all()
    # Each row draws at its own counter: a row's limit does not depend on the other rows.
    alone = SAMPLED.seat_limits(ten[7:9], 1, Stream.of(5), np.arange(7, 9))
    assert (alone == first[7:9]).all()
    with pytest.raises(ValueError, match="samples must be a positive int"):
        SampledEvaluator(samples=0)


def test_every_evaluator_gives_three_seats_of_ladder_ranks():
    deals = deal_many(40, seed=17)
    for kind in EVALUATORS.values():
        limits = kind().limits(deals, Stream.of(2), np.arange(40))
        assert limits.shape == (40, 3) and limits.dtype == np.int8
        assert limits.min() >= NO_BID and limits.max() < 26


def test_oracle_bids_the_potential():
    deals = deal_many(30, seed=18)
    best, clean = potential_many(deals)
    limits = OracleEvaluator().limits(deals, Stream.of(1), np.arange(30))
    assert (limits == np.where(clean & (best < MISERE_RANK), MISERE_RANK, best)).all()


def test_unknown_evaluator_lists_the_known():
    with pytest.raises(ValueError, match="unknown evaluator 'clever'; known: heuristic"):
        evaluator_kind("clever")
