"""The double-dummy play line (prefstats.solver.line): every card legal, the winners by the
rules, the declarer's tricks equal to the solver's value and the naive minimax twin's, and every
card keeping the value, on random deals and exhaustively on small endings."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from prefstats.game.deal import deal_many
from prefstats.solver import solve
from prefstats.solver.line import play_line
from tests.naive import clear_cache, legal_cards, naive_value, suit_of, trick_winner


def check_line(hands, trump, misere, declarer, leader):
    line = play_line(hands, trump=trump, misere=misere, declarer=declarer, leader=leader)
    expected = naive_value(
        tuple(hands), trump=trump, misere=misere, declarer=declarer, leader=leader
    )
    assert line.declarer_tricks == expected
    remaining = list(hands)
    to_lead, won = leader, 0
    for trick in line.tricks:
        assert trick.leader == to_lead
        for step, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            led = None if step == 0 else suit_of(trick.cards[0])
            assert card in legal_cards(remaining[seat], led, trump)
            remaining[seat] &= ~(1 << card)
            # after this card, best play from here still gives the declarer the line's total
            so_far = trick.cards[: step + 1]
            if len(so_far) < 3:
                rest = naive_value(
                    tuple(remaining),
                    trump=trump,
                    misere=misere,
                    declarer=declarer,
                    leader=trick.leader,
                    trick=so_far,
                )
                assert won + rest == expected
        assert trick.winner == trick_winner(trick.cards, trick.seats, trump)
        won += trick.winner == declarer
        to_lead = trick.winner
    assert not any(remaining) and won == expected


@pytest.mark.parametrize("misere", [False, True])
def test_lines_of_random_endings_keep_the_value(misere):
    rng = np.random.default_rng(3)
    for _ in range(40):
        size = int(rng.integers(1, 5))
        cards = rng.permutation(32)[: 3 * size]
        hands = [sum(1 << int(c) for c in cards[s * size : (s + 1) * size]) for s in range(3)]
        trump = None if misere or rng.random() < 0.3 else int(rng.integers(0, 4))
        check_line(hands, trump, misere, int(rng.integers(0, 3)), int(rng.integers(0, 3)))
    clear_cache()


def test_every_two_card_ending_of_a_small_deck():
    """Every deal of two cards a seat from six cards of two suits, every contract."""
    deck = [0, 1, 2, 8, 9, 10]
    for cards in itertools.permutations(deck):
        hands = [
            (1 << cards[0]) | (1 << cards[1]),
            (1 << cards[2]) | (1 << cards[3]),
            (1 << cards[4]) | (1 << cards[5]),
        ]
        if hands[0] > hands[1]:  # symmetric enough: halve the work
            continue
        for trump, misere in ((None, False), (0, False), (1, False), (None, True)):
            check_line(hands, trump, misere, 0, 1)
    clear_cache()


def test_full_deals_reach_the_solvers_value():
    deals = deal_many(6, seed=5)
    for row, (declarer, trump) in zip(
        deals, [(0, 0), (1, None), (2, 3), (0, None)] * 2, strict=False
    ):
        hands = [int(h) for h in row[:3]]
        line = play_line(hands, trump=trump, declarer=declarer, leader=0)
        assert line.declarer_tricks == solve(hands, trump=trump, declarer=declarer)
        assert len(line.tricks) == 10 and line.tricks[0].leader == 0
        assert "won by" in line.format() and "<table>" in line._repr_html_()
