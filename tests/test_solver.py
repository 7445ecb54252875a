"""The double-dummy solver against its naive twin, golden deals, invariants and its errors."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prefstats.benchmarks.solver import timed_solves
from prefstats.game.cards import Suit, parse_hand
from prefstats.game.deal import all_layouts
from prefstats.solver import (
    LAYOUT_ROWS,
    best_card,
    best_discard,
    clear_tables,
    makes_many,
    solve,
    solve_many,
)
from tests.naive import clear_cache, naive_best_discard, naive_value

N_SEATS = 3
N_CARDS = 32
SUIT_BITS = 8
SUIT_MASK = (1 << SUIT_BITS) - 1
GOLDEN = Path(__file__).parent / "golden" / "solver_deals.json"

# (trump, misère) of every contract kind: four trump suits, no trump, misère.
CONTRACTS = [(0, False), (1, False), (2, False), (3, False), (None, False), (None, True)]
SEAT_PAIRS = [(declarer, leader) for declarer in range(N_SEATS) for leader in range(N_SEATS)]


def deal_from(cards: list[int], size: int) -> tuple[int, int, int]:
    """Seat hands from a card sequence: the first ``size`` cards to seat 0, and so on."""
    hands = [sum(1 << card for card in cards[seat * size : (seat + 1) * size]) for seat in range(3)]
    return hands[0], hands[1], hands[2]


def random_deals(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    return np.array(
        [deal_from(list(rng.permutation(N_CARDS)[: 3 * size]), size) for _ in range(n)],
        dtype=np.uint32,
    )


def naive_many(hands: np.ndarray, **options: Any) -> list[int]:
    values = []
    for row in hands:
        clear_cache()
        values.append(naive_value((int(row[0]), int(row[1]), int(row[2])), **options))
    return values


# --- against the naive twin -------------------------------------------------------------------

# Random endgames: hand size -> deals per (contract, declarer, leader). 6 contracts × 9 seat pairs
# × 38 = 2,052 endgames; few of 5 and 6 cards, since the naive twin needs ~0.1 s / ~0.5 s each.
ENDGAME_SIZES = {2: 12, 3: 12, 4: 10, 5: 3, 6: 1}


@pytest.mark.parametrize(("trump", "misere"), CONTRACTS)
def test_matches_naive_on_random_endgames(trump: int | None, misere: bool) -> None:
    rng = np.random.default_rng(1000 + (4 if trump is None else trump) + 10 * misere)
    for declarer, leader in SEAT_PAIRS:
        for size, count in ENDGAME_SIZES.items():
            hands = random_deals(rng, count, size)
            options: dict[str, Any] = {
                "trump": trump,
                "misere": misere,
                "declarer": declarer,
                "leader": leader,
            }
            got = solve_many(hands, **options).tolist()
            assert got == naive_many(hands, **options), (size, options)


def all_deals(deck: list[int], size: int) -> np.ndarray:
    """Every deal of ``size`` cards to each seat from ``deck`` (the rest stays out of play)."""
    rows = []
    for seat0 in combinations(deck, size):
        rest = [card for card in deck if card not in seat0]
        for seat1 in combinations(rest, size):
            rest1 = [card for card in rest if card not in seat1]
            for seat2 in combinations(rest1, size):
                rows.append(deal_from([*seat0, *seat1, *seat2], size))
    return np.array(rows, dtype=np.uint32)


def test_exhaustive_one_card_deals() -> None:
    """Exhaustive: all one-card deals from 8 cards spanning all suits (♠7 ♠A ♣8 ♣K ♦9 ♦Q ♥10 ♥J),
    every contract, declarer and leader."""
    deck = [0, 7, 9, 14, 18, 21, 27, 28]
    hands = all_deals(deck, 1)
    for trump, misere in CONTRACTS:
        for declarer, leader in SEAT_PAIRS:
            options: dict[str, Any] = {
                "trump": trump,
                "misere": misere,
                "declarer": declarer,
                "leader": leader,
            }
            got = solve_many(hands, **options).tolist()
            assert got == naive_many(hands, **options)


def test_exhaustive_two_card_deals() -> None:
    """Exhaustive: all 2,520 two-card deals from the 8 cards ♠7 9 Q A ♥8 10 J K, with ♠ or ♥
    trumps, no trump and misère, every declarer and leader (♣/♦ trumps equal no trump here)."""
    deck = [0, 2, 5, 7, 25, 27, 28, 30]
    hands = all_deals(deck, 2)
    clear_cache()  # positions repeat across deals: keep the naive memo for the whole sweep
    for trump, misere in [(0, False), (3, False), (None, False), (None, True)]:
        for declarer, leader in SEAT_PAIRS:
            options: dict[str, Any] = {
                "trump": trump,
                "misere": misere,
                "declarer": declarer,
                "leader": leader,
            }
            got = solve_many(hands, **options).tolist()
            expected = [naive_value((int(a), int(b), int(c)), **options) for a, b, c in hands]
            assert got == expected


def test_exhaustive_three_card_deals() -> None:
    """Exhaustive: all 1,680 three-card deals from the 9 cards ♠8 10 K ♦7 J A ♥9 Q A, with ♠
    trumps, no trump and misère, declarer seat 0 and every leader (other declarers follow by
    the rotation invariance tested below)."""
    deck = [1, 3, 6, 16, 20, 23, 26, 29, 31]
    hands = all_deals(deck, 3)
    clear_cache()
    for trump, misere in [(0, False), (None, False), (None, True)]:
        for leader in range(N_SEATS):
            options: dict[str, Any] = {
                "trump": trump,
                "misere": misere,
                "declarer": 0,
                "leader": leader,
            }
            got = solve_many(hands, **options).tolist()
            expected = [naive_value((int(a), int(b), int(c)), **options) for a, b, c in hands]
            assert got == expected
    clear_cache()


# --- golden full deals ------------------------------------------------------------------------


def test_golden_full_deals() -> None:
    """Full 10-card deals with values cross-checked by an independent solver (see the script
    ``tests/golden/make_solver_golden.py``)."""
    golden = json.loads(GOLDEN.read_text())
    assert len(golden["deals"]) >= 50
    for record in golden["deals"]:
        hands = [int(hand) for hand in record["hands"]]
        assert [parse_hand(text) for text in record["text"]] == hands
        for case in record["solves"]:
            options: dict[str, Any] = {
                key: case[key] for key in ("trump", "misere", "declarer", "leader")
            }
            assert solve(hands, **options) == case["tricks"], (record["text"], options)


# --- invariants -------------------------------------------------------------------------------


def permute_suits(hand: int, order: tuple[int, ...]) -> int:
    """Move suit s of ``hand`` to suit ``order[s]``."""
    return sum(((hand >> (SUIT_BITS * s)) & SUIT_MASK) << (SUIT_BITS * order[s]) for s in range(4))


deal_strategy = st.tuples(
    st.permutations(range(N_CARDS)), st.integers(1, 10), st.sampled_from(CONTRACTS)
)


@settings(max_examples=150, deadline=None)
@given(deal_strategy, st.permutations(range(4)), st.integers(0, 2), st.integers(0, 2))
def test_suit_permutation_keeps_value(
    deal: tuple[Any, ...], order: list[int], declarer: int, leader: int
) -> None:
    cards, size, (trump, misere) = deal
    hands = deal_from(list(cards), size)
    options: dict[str, Any] = {"misere": misere, "declarer": declarer, "leader": leader}
    value = solve(hands, trump=trump, **options)
    permuted = [permute_suits(hand, tuple(order)) for hand in hands]
    new_trump = None if trump is None else order[trump]
    clear_tables()  # the table's keys ignore suit order: solve the permuted deal from scratch
    assert solve(permuted, trump=new_trump, **options) == value


@settings(max_examples=150, deadline=None)
@given(deal_strategy, st.integers(1, 2), st.integers(0, 2), st.integers(0, 2))
def test_seat_rotation_keeps_value(
    deal: tuple[Any, ...], shift: int, declarer: int, leader: int
) -> None:
    cards, size, (trump, misere) = deal
    hands = deal_from(list(cards), size)
    value = solve(hands, trump=trump, misere=misere, declarer=declarer, leader=leader)
    rotated = [hands[(seat - shift) % N_SEATS] for seat in range(N_SEATS)]
    moved = {"declarer": (declarer + shift) % N_SEATS, "leader": (leader + shift) % N_SEATS}
    clear_tables()  # the table's keys count seats from the declarer: solve from scratch
    assert solve(rotated, trump=trump, misere=misere, **moved) == value  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(deal_strategy, st.integers(0, 2), st.integers(0, 2))
def test_playing_best_cards_keeps_value(deal: tuple[Any, ...], declarer: int, leader: int) -> None:
    """Play the whole deal out with the solver's cards: the declarer ends with its value, and
    at every trick start the remaining value plus tricks taken stays the same."""
    cards, size, (trump, misere) = deal
    size = min(size, 5)  # best_card solves each trick's card combinations: keep it quick
    hands = list(deal_from(list(cards), size))
    options: dict[str, Any] = {"trump": trump, "misere": misere, "declarer": declarer}
    clear_tables()
    value = solve(hands, leader=leader, **options)
    taken = 0
    while hands[0]:
        assert taken + solve(hands, leader=leader, **options) == value
        trick: list[int] = []
        for _ in range(N_SEATS):
            card, tricks = best_card(hands, trick, leader=leader, **options)
            assert taken + tricks == value
            hands[(leader + len(trick)) % N_SEATS] ^= 1 << card
            trick.append(card)
        leader = trick_winner(trick, leader, trump)
        taken += leader == declarer
    assert taken == value


def trick_winner(trick: list[int], leader: int, trump: int | None) -> int:
    best, winner = trick[0], leader
    for step, card in enumerate(trick[1:], start=1):
        same_suit = card >> 3 == best >> 3
        if (same_suit and card > best) or (not same_suit and card >> 3 == trump):
            best, winner = card, (leader + step) % N_SEATS
    return winner


def test_best_card_keeps_naive_value() -> None:
    """Through a whole first trick, the solver's card keeps the naive value of the position."""
    rng = np.random.default_rng(7)
    for trump, misere in CONTRACTS:
        for _ in range(6):
            hands = [int(hand) for hand in random_deals(rng, 1, 4)[0]]
            leader = int(rng.integers(3))
            options: dict[str, Any] = {
                "trump": trump,
                "misere": misere,
                "declarer": int(rng.integers(3)),
            }
            clear_cache()
            trick: list[int] = []
            for _ in range(N_SEATS):
                value = naive_value(tuple(hands), leader=leader, trick=tuple(trick), **options)
                card, tricks = best_card(hands, trick, leader=leader, **options)
                assert tricks == value
                hands[(leader + len(trick)) % N_SEATS] ^= 1 << card
                trick.append(card)
                if len(trick) < N_SEATS:
                    after = naive_value(tuple(hands), leader=leader, trick=tuple(trick), **options)
                    assert after == value


# --- makes_many, best_discard, n_jobs ---------------------------------------------------------


@pytest.mark.parametrize(("trump", "misere"), [(2, False), (None, False), (None, True)])
def test_makes_many_agrees_with_solve_many(trump: int | None, misere: bool) -> None:
    hands = random_deals(np.random.default_rng(3), 60, 10)
    for leader in range(N_SEATS):
        options: dict[str, Any] = {
            "trump": trump,
            "misere": misere,
            "declarer": 1,
            "leader": leader,
        }
        values = solve_many(hands, **options)
        for target in range(11):
            made = makes_many(hands, target, **options)
            expected = values <= target if misere else values >= target
            assert made.tolist() == expected.tolist()


@pytest.mark.parametrize(("trump", "misere"), CONTRACTS)
def test_best_discard_matches_brute_force_small(trump: int | None, misere: bool) -> None:
    """Six cards keep four against two hands of four: all 15 discards by the naive twin."""
    rng = np.random.default_rng(11 + (4 if trump is None else trump) + 10 * misere)
    for _ in range(4):
        cards = [int(card) for card in rng.permutation(N_CARDS)[:14]]
        hand = sum(1 << card for card in cards[:6])
        others = (sum(1 << c for c in cards[6:10]), sum(1 << c for c in cards[10:14]))
        declarer, leader = int(rng.integers(3)), int(rng.integers(3))
        options: dict[str, Any] = {
            "trump": trump,
            "misere": misere,
            "declarer": declarer,
            "leader": leader,
        }
        discard, tricks = best_discard(hand, others, **options)
        clear_cache()
        assert tricks == naive_best_discard(hand, others, **options)
        assert discard.bit_count() == 2 and discard & hand == discard
        seats = [*others]
        seats.insert(declarer, hand & ~discard)
        assert solve(seats, **options) == tricks


@pytest.mark.parametrize(("trump", "misere"), [(1, False), (None, False), (None, True)])
def test_best_discard_matches_all_66_discards_full_deal(trump: int | None, misere: bool) -> None:
    rng = np.random.default_rng(5)
    for _ in range(3):
        cards = [int(card) for card in rng.permutation(N_CARDS)]
        hand = sum(1 << card for card in cards[:12])
        others = (sum(1 << c for c in cards[12:22]), sum(1 << c for c in cards[22:32]))
        values = [
            solve([hand & ~(1 << a) & ~(1 << b), *others], trump=trump, misere=misere)
            for a, b in combinations(cards[:12], 2)
        ]
        discard, tricks = best_discard(hand, others, trump=trump, misere=misere)
        assert tricks == (min(values) if misere else max(values))
        assert solve([hand & ~discard, *others], trump=trump, misere=misere) == tricks


def test_n_jobs_gives_identical_results() -> None:
    hands = random_deals(np.random.default_rng(9), 200, 10)
    one = solve_many(hands, trump=Suit.HEARTS, leader=2)
    assert solve_many(hands, trump=Suit.HEARTS, leader=2, n_jobs=2).tolist() == one.tolist()
    assert solve_many(hands[:0], n_jobs=2).shape == (0,)


def test_trump_accepts_suit_enum_and_int() -> None:
    hands = [parse_hand("♠A ♥7"), parse_hand("♠K ♥8"), parse_hand("♠Q ♦7")]
    assert solve(hands, trump=Suit.HEARTS) == solve(hands, trump=3) == 1
    assert solve(hands) == 1


# --- validation -------------------------------------------------------------------------------

GOOD = [parse_hand("♠A K"), parse_hand("♠Q J"), parse_hand("♥7 8")]


@pytest.mark.parametrize(
    ("hands", "options", "message"),
    [
        ([GOOD[0], parse_hand("♠K ♦7"), GOOD[2]], {}, "card ♠K is in seats 0 and 1"),
        ([GOOD[0], GOOD[1], parse_hand("♥7 ♠A")], {}, "card ♠A is in seats 0 and 2"),
        ([GOOD[0], GOOD[1], parse_hand("♥7")], {}, "equal numbers of cards"),
        ([GOOD[0], GOOD[1]], {}, "expected 3 hands"),
        ([GOOD[0], GOOD[1], -1], {}, "32-bit mask"),
        ([GOOD[0], GOOD[1], 1 << 32], {}, "32-bit mask"),
        ([GOOD[0], GOOD[1], "♥7 8"], {}, "int mask"),
        (GOOD, {"declarer": 3}, "declarer must be 0, 1 or 2"),
        (GOOD, {"leader": -1}, "leader must be 0, 1 or 2"),
        (GOOD, {"trump": 4}, "trump must be a suit"),
        (GOOD, {"trump": "hearts"}, "trump must be a suit"),
        (GOOD, {"trump": 1, "misere": True}, "misère is played without trumps"),
        (GOOD, {"misere": 0.5}, "misere must be True or False"),
        (GOOD, {"misere": "yes"}, "misere must be True or False"),
    ],
)
def test_solve_rejects_bad_input(hands: list[int], options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solve(hands, **options)


def test_many_rejects_bad_arrays() -> None:
    good = np.array([GOOD], dtype=np.uint32)
    with pytest.raises(ValueError, match="shape"):
        solve_many(good[0])
    with pytest.raises(ValueError, match="dtype"):
        solve_many(good.astype(float))
    with pytest.raises(ValueError, match="32-bit"):
        solve_many(np.array([[-1, 0, 0]]))
    overlapping = np.array([GOOD, [GOOD[0], GOOD[0], GOOD[2]]], dtype=np.uint32)
    with pytest.raises(ValueError, match="deal 1: cards ♠K A are in seats 0 and 1"):
        solve_many(overlapping)
    with pytest.raises(ValueError, match="deal 0: hands must hold equal"):
        solve_many(np.array([[GOOD[0], GOOD[1], 1]], dtype=np.uint32))
    with pytest.raises(ValueError, match="n_jobs"):
        solve_many(good, n_jobs=0)
    with pytest.raises(ValueError, match=r"target must be an integer in 0\.\.2, got 3"):
        makes_many(good, 3)
    with pytest.raises(ValueError, match=r"target must be an integer in 0\.\.2, got -1"):
        makes_many(good, -1, misere=True)
    assert solve_many(good.astype(np.int64)).tolist() == solve_many(good).tolist()


def test_best_discard_and_best_card_reject_bad_input() -> None:
    hand = parse_hand("♠A K ♥7 8")
    with pytest.raises(ValueError, match="2 cards more"):
        best_discard(hand, [parse_hand("♠Q J ♦7"), parse_hand("♠10 9 ♦8")])
    with pytest.raises(ValueError, match="card ♠A is in seats 0 and 1"):
        best_discard(hand, [parse_hand("♠A J"), parse_hand("♠10 9")])
    with pytest.raises(ValueError, match="equal numbers"):
        best_discard(hand, [parse_hand("♠Q J"), parse_hand("♠10")])
    with pytest.raises(ValueError, match="2 other hands"):
        best_discard(hand, [parse_hand("♠Q J")])
    with pytest.raises(ValueError, match="both played and held"):
        best_card(GOOD, [6])  # ♠K, still in seat 0's hand
    with pytest.raises(ValueError, match="at most 2 cards"):
        best_card(GOOD, [20, 21, 22])


@pytest.mark.parametrize(("trump", "misere"), [(None, True), (1, False), (None, False)])
def test_large_table_for_layouts_of_one_hand_gives_the_same_answers(trump, misere):
    """A batch of LAYOUT_ROWS or more layouts of one declarer's hand uses the large table (and
    in misère is solved in another order of its rows), chunks under LAYOUT_ROWS the default
    one in the given order: both agree row by row, for exact values and for make/fail tests."""
    hand, talon = parse_hand("♠7 9 J ♣8 ♣A ♦7 8 9 ♥7 9"), parse_hand("♣K ♥10")
    rows = np.random.default_rng(3).choice(184_756, size=2 * LAYOUT_ROWS, replace=False)
    deals = np.ascontiguousarray(all_layouts(hand, talon, seat=1)[np.sort(rows), :3])
    assert (deals[:, 1] == deals[0, 1]).all()  # the declarer's hand is the same in every row
    clear_tables()
    whole = solve_many(deals, trump=trump, misere=misere, declarer=1)
    clear_tables()
    parts = np.concatenate(
        [
            solve_many(deals[i : i + LAYOUT_ROWS // 2], trump=trump, misere=misere, declarer=1)
            for i in range(0, len(deals), LAYOUT_ROWS // 2)
        ]
    )
    np.testing.assert_array_equal(whole, parts)
    target = 0 if misere else 5
    made = makes_many(deals, target, trump=trump, misere=misere, declarer=1)
    np.testing.assert_array_equal(made, whole <= target if misere else whole >= target)


@pytest.mark.parametrize(("trump", "misere"), [(0, False), (None, False), (None, True)])
def test_values_do_not_depend_on_what_the_tables_hold(trump, misere):
    """The tables carry bounds, hints and killer moves from deal to deal. Those change only
    the order of the search, so a deal's value is the same solved first, solved after others
    in either order, or alone from empty tables."""
    deals = random_deals(np.random.default_rng(31), 40, 10)
    options: dict[str, Any] = {"trump": trump, "misere": misere, "leader": 1}
    clear_tables()
    forward = solve_many(deals, **options)
    backward = solve_many(deals[::-1].copy(), **options)[::-1]
    alone = []
    for row in deals:
        clear_tables()
        alone.append(solve([int(hand) for hand in row], **options))
    np.testing.assert_array_equal(forward, backward)
    np.testing.assert_array_equal(forward, alone)


def test_timed_solves_counts_nodes_with_one_table_for_all_rows() -> None:
    hands = random_deals(np.random.default_rng(21), 3, 10)
    twice = np.concatenate([hands, hands])
    millis, nodes = timed_solves(twice, trump=np.array([0, 1, 2, 0, 1, 2]))
    assert millis.shape == (6,) and (millis >= 0).all()
    assert (nodes[:3] > 0).all() and (nodes[3:] == 0).all()  # the repeats come from the table
    _, made_nodes = timed_solves(hands, misere=True, target=0)
    assert made_nodes.shape == (3,)
    with pytest.raises(ValueError, match="misère"):
        timed_solves(hands, trump=np.array([0, 1, 2]), misere=True)
    with pytest.raises(ValueError, match="one suit per row"):
        timed_solves(hands, trump=np.array([0, 1]))


def test_a_trump_contract_without_trumps_shares_the_no_trump_positions() -> None:
    """Nobody holds a trump: the contract plays as no trump, and its positions take the
    no-trump keys, so the same deals in another empty trump suit search nothing more."""
    rng = np.random.default_rng(41)
    spades_and_hearts = [card for card in range(N_CARDS) if card // SUIT_BITS in (0, 3)]
    hands = np.array(
        [deal_from(list(rng.permutation(spades_and_hearts)[:15]), 5) for _ in range(6)],
        dtype=np.uint32,
    )
    _, nodes = timed_solves(np.concatenate([hands, hands]), trump=np.array([1] * 6 + [2] * 6))
    assert (nodes[:6] > 0).all() and (nodes[6:] == 0).all()
    clear_tables()
    assert solve_many(hands, trump=1).tolist() == naive_many(hands, trump=None)


def test_trumps_running_out_in_play_keep_the_naive_value() -> None:
    """Deals with one to three trumps, solved after the same deals in no trump with the tables
    kept: the positions after the last trump falls are read from no-trump entries."""
    rng = np.random.default_rng(43)
    trumps = [card for card in range(N_CARDS) if card // SUIT_BITS == 2]
    others = [card for card in range(N_CARDS) if card // SUIT_BITS != 2]
    deals = []
    for n_trumps in (1, 2, 3) * 20:
        cards = list(rng.choice(trumps, n_trumps, replace=False))
        cards += list(rng.choice(others, 12 - n_trumps, replace=False))
        deals.append(deal_from(list(rng.permutation(cards)), 4))
    hands = np.array(deals, dtype=np.uint32)
    clear_tables()
    no_trump = solve_many(hands, trump=None, leader=1)
    with_trumps = solve_many(hands, trump=2, leader=1)
    assert with_trumps.tolist() == naive_many(hands, trump=2, leader=1)
    assert (with_trumps != no_trump).sum() >= 10  # the trumps matter in many of them
