"""The solver's one-suit misère bounds against their naive twins on every suit layout: the
catch by one suit (``solver.misere_one_suit_catch``) and the safe declarer
(``solver.misere_safe``), both read from the ``DEFENCE_CATCH`` table; and the misère solve that
uses them against the naive minimax."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from prefstats.game.deal import deal_many
from prefstats.solver import (
    misere_one_suit_catch,
    misere_safe,
    misere_sure_duck,
    misere_unsafe_suits,
    solve_many,
)
from tests.naive import clear_cache, naive_can_lose_trick, naive_value
from tests.naive_misere import DECLARER, LEFT, RIGHT, caught_when_winner_leads, declarer_caught

SUIT_BITS = 8
N_RANKS = 8
# The suit under test is spades (bits 0..7). Shorter hands are filled up with cards of suits in
# which no catch is possible: the declarer's with clubs, where the defenders hold none, the
# defenders' with diamonds (left) and hearts (right), where the declarer holds none.
FILLER_SUIT = {DECLARER: 1, LEFT: 2, RIGHT: 3}


def filled_hands(spades: tuple[frozenset[int], ...]) -> list[int]:
    """Seat hands holding these spade ranks, filled up to equal length with filler suits."""
    size = max(len(ranks) for ranks in spades)
    hands = []
    for seat, ranks in enumerate(spades):
        filler = range(size - len(ranks))
        hands.append(
            sum(1 << rank for rank in ranks)
            + sum(1 << (SUIT_BITS * FILLER_SUIT[seat] + rank) for rank in filler)
        )
    return hands


def suit_layouts(length: int) -> list[tuple[frozenset[int], ...]]:
    """Every way of holding ``length`` adjacent spades among the three seats: the table's every
    entry, since it reads relative ranks."""
    return [
        tuple(
            frozenset(rank for rank, owner in enumerate(owners) if owner == seat)
            for seat in (DECLARER, LEFT, RIGHT)
        )
        for owners in itertools.product((DECLARER, LEFT, RIGHT), repeat=length)
    ]


@pytest.mark.parametrize("length", range(N_RANKS + 1))
def test_every_layout_of_a_suit_matches_the_naive_twin(length: int) -> None:
    """With each defender on lead, the catch by one suit; and the safe declarer, whose twin is
    the one-suit game where the defenders choose the leader and may throw cards away."""
    caught = safe = 0
    layouts = suit_layouts(length)
    for spades in layouts:
        hands = filled_hands(spades)
        for leader in (LEFT, RIGHT):
            expected = caught_when_winner_leads(spades, leader)
            assert misere_one_suit_catch(hands, leader=leader) == expected, (spades, leader)
            caught += expected
        expected_safe = not declarer_caught(spades, declarer_leads_first=False, shed=True)
        assert misere_safe(hands) == expected_safe, spades
        safe += expected_safe
    if length >= 2:
        assert caught > 0 and 0 < safe < len(layouts)  # both answers are seen


def naive_safe_exit(spades: tuple[frozenset[int], ...]) -> bool:
    """The declarer leads his lowest spade: do the defenders win the trick whatever they play,
    and is he safe in spades afterwards whatever they played?"""
    declarer, left, right = spades
    if not declarer:
        return False
    low = min(declarer)
    lefts: list[int | None] = [*sorted(left)] or [None]
    rights: list[int | None] = [*sorted(right)] or [None]
    for a in lefts:
        for b in rights:
            if max((c for c in (a, b) if c is not None), default=-1) < low:
                return False  # he wins the trick
            rest = (declarer - {low}, left - {a}, right - {b})
            if declarer_caught(rest, declarer_leads_first=False, shed=True):
                return False
    return True


@pytest.mark.parametrize("length", range(N_RANKS + 1))
def test_every_layout_of_a_suit_gives_the_safe_exit_of_the_naive_twin(length: int) -> None:
    """The declarer on lead is proved safe when spades, the only suit where he might not be
    (his filler clubs are safe, but give no exit), have a safe exit."""
    exits = 0
    for spades in suit_layouts(length):
        expected = naive_safe_exit(spades)
        assert misere_safe(filled_hands(spades), on_lead=True) == expected, spades
        exits += expected
    if length >= 2:
        assert exits > 0


@pytest.mark.parametrize("length", range(1, N_RANKS + 1))
def test_dropping_the_top_card_keeps_a_safe_declarer_safe(length: int) -> None:
    """The safe bound's proof needs this: a declarer who cannot follow drops his top card of
    some suit, and stays safe in it."""
    for spades in suit_layouts(length):
        if spades[DECLARER] and misere_safe(filled_hands(spades)):
            dropped = (spades[DECLARER] - {max(spades[DECLARER])}, spades[LEFT], spades[RIGHT])
            assert misere_safe(filled_hands(dropped)), spades


def test_layouts_with_cards_out_of_play_read_relative_ranks() -> None:
    """Cards out of play (played or discarded) are squeezed out: random layouts of the eight
    ranks to the declarer, a defender or out of play, every seat as the declarer."""
    rng = np.random.default_rng(77)
    caught = 0
    for _ in range(1500):
        places = rng.integers(0, 4, size=N_RANKS)  # 3: out of play
        spades = tuple(
            frozenset(int(r) for r in np.flatnonzero(places == seat)) for seat in range(3)
        )
        hands = filled_hands(spades)
        for declarer in range(3):
            rotated = [hands[(seat - declarer) % 3] for seat in range(3)]
            for leader in (LEFT, RIGHT):
                expected = caught_when_winner_leads(spades, leader)
                got = misere_one_suit_catch(
                    rotated, leader=(declarer + leader) % 3, declarer=declarer
                )
                assert got == expected, (spades, declarer, leader)
                caught += expected
    assert caught > 100


@pytest.mark.parametrize("declarer", range(3))
def test_unsafe_suits_of_whole_deals_match_the_naive_twin(declarer: int) -> None:
    """``misere_unsafe_suits`` on random full deals, every seat as the declarer: a suit is
    unsafe where he holds cards and the naive one-suit game, the defence leading from either
    hand and throwing cards away at will, catches him."""
    hands = np.ascontiguousarray(deal_many(200, seed=13)[:, :3])
    got = misere_unsafe_suits(hands, declarer=declarer)
    unsafe_seen = 0
    for row, bits in zip(hands, got, strict=True):
        for suit in range(4):
            spades = tuple(
                frozenset(
                    r
                    for r in range(N_RANKS)
                    if int(row[(declarer + seat) % 3]) >> (SUIT_BITS * suit + r) & 1
                )
                for seat in (DECLARER, LEFT, RIGHT)
            )
            expected = bool(spades[DECLARER]) and declarer_caught(
                spades, declarer_leads_first=False, shed=True
            )
            assert bool(bits >> suit & 1) == expected, (row, suit)
            unsafe_seen += expected
        assert (bits == 0) == misere_safe([int(h) for h in row], declarer=declarer)
    assert 100 < unsafe_seen < 750  # both answers are common (654 of 800 for seat 0)


def test_catch_is_a_proof_in_the_whole_game() -> None:
    """Misère endgames from two suits, a defender on lead: whenever the one-suit catch says
    caught, the naive minimax has the declarer take a trick, and whenever he is safe, none; and
    the solver, which uses both as bounds (and, with the declarer on lead, his safe exit),
    agrees with the minimax on every deal, whoever leads."""
    rng = np.random.default_rng(78)
    deck = list(range(2 * SUIT_BITS))  # spades and clubs only: long suits, many catches
    proofs = safe = 0
    for _, leader, row, exact in solved_endgames(rng, deck, {3: 25, 4: 15, 5: 4}):
        if leader == DECLARER:
            continue
        if misere_one_suit_catch(row, leader=leader):
            assert exact >= 1, (row, leader)
            proofs += 1
        if misere_safe(row):
            assert exact == 0, (row, leader)
            safe += 1
    assert proofs >= 10 and safe >= 5


def random_hands(rng: np.random.Generator, deck: list[int], size: int) -> list[int]:
    """Three hands of ``size`` cards drawn from ``deck``."""
    cards = [int(card) for card in rng.permutation(deck)[: 3 * size]]
    return [sum(1 << card for card in cards[s * size : (s + 1) * size]) for s in range(3)]


def solved_endgames(
    rng: np.random.Generator, deck: list[int], counts: dict[int, int]
) -> Iterator[tuple[int, int, list[int], int]]:
    """(size, leader, hands, value) of random misère endgames, ``counts[size]`` of each size for
    each leader, after checking that the solver's value is the naive minimax's."""
    for size, count in counts.items():
        for leader in (DECLARER, LEFT, RIGHT):
            rows = [random_hands(rng, deck, size) for _ in range(count)]
            got = solve_many(np.array(rows, dtype=np.uint32), misere=True, leader=leader)
            for row, value in zip(rows, got.tolist(), strict=True):
                clear_cache()
                exact = naive_value(tuple(row), misere=True, leader=leader)
                assert value == exact, (row, leader)
                yield size, leader, row, exact


@pytest.mark.parametrize(
    ("hands", "options", "message"),
    [
        ([1, 2], {"leader": 1}, "expected 3 hands"),
        ([1, 2, 4], {"leader": 0}, "leader must be a defender"),
        ([1, 2, 4], {"leader": 3}, "leader must be 0, 1 or 2"),
        ([1, 1, 4], {"leader": 1}, "in seats 0 and 1"),
        ([1, 6, 8], {"leader": 1}, "equal numbers of cards"),
    ],
)
def test_bad_input_is_named(hands: list[int], options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        misere_one_suit_catch(hands, **options)


def _splits(deck: list[int], size: int) -> list[list[int]]:
    """Every deal of ``deck`` (3 * size cards) into three hands of ``size`` cards."""
    deals = []
    for first in itertools.combinations(deck, size):
        rest = [card for card in deck if card not in first]
        for second in itertools.combinations(rest, size):
            third = [card for card in rest if card not in second]
            deals.append([sum(1 << card for card in cards) for cards in (first, second, third)])
    return deals


def test_sure_duck_matches_the_one_trick_minimax_on_every_small_deal() -> None:
    """Every deal of six spades (7..Q) and three clubs into hands of three, each seat on lead,
    and 3,000 random deals of the whole pack (sizes 1..8): ``misere_sure_duck`` says whether the
    declarer can lose the trick about to start exactly when the one-trick minimax does."""
    deck = [*range(6), SUIT_BITS, SUIT_BITS + 1, SUIT_BITS + 2]
    rng = np.random.default_rng(2026)
    whole_pack = list(range(4 * SUIT_BITS))
    random_deals = [random_hands(rng, whole_pack, int(rng.integers(1, 9))) for _ in range(3000)]
    outcomes = {True: 0, False: 0}
    for hands in _splits(deck, 3) + random_deals:
        for leader in (DECLARER, LEFT, RIGHT):
            expected = naive_can_lose_trick(tuple(hands), leader=leader)
            assert misere_sure_duck(hands, leader=leader) == expected, (hands, leader)
            outcomes[expected] += 1
    assert min(outcomes.values()) > 500, outcomes


def test_sure_duck_bounds_the_whole_game() -> None:
    """Random misère endgames, each seat on lead: a sure duck leaves the declarer short of every
    trick, and without one he takes at least one (naive minimax), as the solver, which uses
    both, agrees on every deal."""
    rng = np.random.default_rng(79)
    deck = list(range(3 * SUIT_BITS))  # three suits: voids and forced wins both occur
    seen = {True: 0, False: 0}
    for size, leader, row, exact in solved_endgames(rng, deck, {3: 30, 4: 20, 5: 6}):
        duck = misere_sure_duck(row, leader=leader)
        assert (exact <= size - 1) if duck else (exact >= 1), (row, leader, duck)
        seen[duck] += 1
    assert min(seen.values()) >= 30, seen
