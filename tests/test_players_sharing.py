"""Solo vs shared misère: the decision rules against their closed forms."""

import numpy as np
import pytest

from prefstats.game.rules import RuleSet
from prefstats.players.sharing import (
    Utility,
    break_even_catch_probability,
    dealer_should_accept,
    inviter_choice,
    misere_values,
    option_values,
    sharing_region,
)

FOUR = RuleSet(players=4)


def outcomes(made: int, one: int, two: int) -> np.ndarray:
    return np.array([0] * made + [1] * one + [2] * two)


def test_shared_is_a_third_of_solo_for_each_partner():
    tricks = outcomes(70, 20, 10)
    values = misere_values(tricks, FOUR)
    solo = values.loc["solo", "ev"]
    assert values.loc["inviter_if_shared", "ev"] == pytest.approx(solo / 3)
    assert values.loc["dealer_if_shared", "ev"] == pytest.approx(solo / 3)
    assert values.loc["dealer_if_refused", "ev"] == pytest.approx(-solo / 3)
    assert values.loc["solo", "variance"] == pytest.approx(
        9 * values.loc["inviter_if_shared", "variance"]
    )
    assert values.loc["solo", "low"] < solo < values.loc["solo", "high"]


@pytest.mark.parametrize("made", range(0, 101, 5))
def test_risk_neutral_dealer_accepts_exactly_when_solo_ev_is_positive(made):
    tricks = outcomes(made, (100 - made) // 2, 100 - made - (100 - made) // 2)
    solo = option_values(tricks, FOUR)["solo"].mean()
    if abs(solo) > 1e-9:
        assert dealer_should_accept(tricks, FOUR) == (solo > 0)


def test_break_even_probability_matches_zero_ev():
    p = break_even_catch_probability(1.0, FOUR)
    assert p == pytest.approx(0.5)
    tricks = outcomes(50, 50, 0)  # caught half the time with one trick: EV exactly 0
    assert option_values(tricks, FOUR)["solo"].mean() == pytest.approx(0)
    assert break_even_catch_probability(1.5, FOUR) == pytest.approx(75 / (75 + 112.5))
    with pytest.raises(ValueError, match="at least 1 trick"):
        break_even_catch_probability(0.5)


def test_inviter_choices():
    safe = outcomes(100, 0, 0)
    assert inviter_choice(safe, FOUR) == "solo"  # sharing a sure win gives two thirds away
    hopeless = outcomes(10, 40, 50)
    assert inviter_choice(hopeless, FOUR) == "no_misere"
    risky = outcomes(70, 25, 5)  # positive EV, big spread: a risk-averse inviter shares
    assert inviter_choice(risky, FOUR) == "solo"
    assert inviter_choice(risky, FOUR, Utility(0.02)) == "invite"


def test_sharing_region_grows_with_risk_aversion():
    region = sharing_region(outcomes(70, 25, 5), np.array([0.0, 0.005, 0.02, 0.05]), FOUR)
    assert not region.both_gain.iloc[0] and region.both_gain.iloc[-1]
    assert (np.diff(region.both_gain.astype(int)) >= 0).all()


def test_three_players_have_only_solo():
    values = misere_values(outcomes(90, 10, 0), RuleSet(players=3))
    assert set(values.index) == {"solo", "no_misere"}
    assert values.loc["solo", "ev"] == pytest.approx(0.9 * 200 / 3 - 0.1 * 200 / 3)


def test_utility():
    assert Utility(0.0).certainty_equivalent(np.array([1.0, 3.0])) == 2.0
    ce = Utility(0.05).certainty_equivalent(np.array([-100.0, 100.0]))
    assert -100 < ce < 0
    with pytest.raises(ValueError, match="risk_aversion"):
        Utility(-1)
    with pytest.raises(ValueError, match="kind"):
        Utility(0.1, "log")


def test_bad_tricks():
    with pytest.raises(ValueError, match="non-empty"):
        misere_values(np.array([], dtype=int))
    with pytest.raises(ValueError, match=r"0\.\.10"):
        misere_values(np.array([11]))
