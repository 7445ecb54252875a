"""Counting a hand: tricks per strain, stoppers, the misère filters, and the counting's
calibration against the solver (prefstats.players.counting)."""

import numpy as np

from prefstats.benchmarks.calibration import counted_vs_dd
from prefstats.game.cards import parse_hand
from prefstats.misere.classes import misere_hand_class
from prefstats.players.counting import stopped, strain_tricks, uncatchable_misere


def hands(*texts):
    return np.array([parse_hand(t) for t in texts], dtype=np.uint32)


def test_conditionally_clean_misere_unsafe_for_the_first_hand_only():
    h = hands("♠7 9 ♣7 9 ♦7 9 J ♥7 9 J")
    assert misere_hand_class(int(h[0])).value == "conditionally_clean"
    assert not uncatchable_misere(h, seat=0)[0] and uncatchable_misere(h, seat=1)[0]


def test_strain_counting():
    tricks = strain_tricks(hands("♠A K Q J 10 ♣A K ♦7 8 ♥7"))[0]
    assert tricks[0] == 7  # five trumps from the top and two side tricks
    assert tricks[4] == 0  # no stopper in ♥ or ♦: no-trump counts nothing
    assert stopped(parse_hand("♠Q 8 7")) and not stopped(parse_hand("♠Q 8"))


def test_calibration_a_count_of_five_makes_six_most_of_the_time():
    # From ~5,000 hands, about 600 count 5 to 6 tricks; the observed share making 6 is ~0.75.
    # The bound 0.6 is more than 6 standard deviations (0.018) below: a correct program fails
    # it with probability < 1e-9; a heuristic off by a trick would fall far below it.
    counted, tricks = counted_vs_dd(5000, seed=7)
    five = (counted >= 5) & (counted < 6)
    assert five.sum() > 300
    assert (tricks[five] >= 6).mean() > 0.6
    assert (tricks[counted < 4.5] >= 7).mean() < 0.35
