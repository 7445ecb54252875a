"""Misère with the discard hidden against its naive twin (tests/naive_hidden.py), and the
invariants that tie it to open play."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import pytest

from prefstats.solver import (
    _hidden,
    _pool,
    blind_lead,
    clear_tables,
    fewest_catches,
    first_lead_many,
    hidden_discard_many,
    hidden_discard_tricks,
    solve,
)
from tests.naive_hidden import (
    naive_blind_lead,
    naive_hidden_tricks,
    naive_open_tricks,
    pairs_of,
    random_ending,
)

N_CARDS = 32


def random_discards(rng: np.random.Generator, hand: int) -> list[int] | None:
    """None (every pair) a quarter of the time, else a random non-empty set of pairs."""
    pairs = pairs_of(hand)
    if rng.random() < 0.25:
        return None
    count = int(rng.integers(1, len(pairs) + 1))
    return [pairs[i] for i in sorted(rng.choice(len(pairs), count, replace=False))]


# 2,000 random endings a run: sizes 1-4 tricks, every leader, random W.
SIZES = {1: 200, 2: 200, 3: 180, 4: 87}


@pytest.mark.parametrize("leader", [0, 1, 2])
def test_hidden_discard_against_its_naive_twin(leader: int) -> None:
    rng = np.random.default_rng(4800 + leader)
    count = 0
    for size, n_endings in SIZES.items():
        for _ in range(n_endings):
            hand, left, right = random_ending(rng, size)
            discards = random_discards(rng, hand)
            naive = naive_hidden_tricks(hand, left, right, leader, discards)
            found = hidden_discard_tricks(hand, [left, right], leader=leader, discards=discards)
            assert found == naive, (hand, left, right, leader, discards)
            count += 1
    assert count == sum(SIZES.values())


def _family(pool: list[int], size: int) -> list[tuple[int, int, int]]:
    """Every ending dealing the ``pool`` cards: ``size`` + 2 to the declarer, ``size`` to each
    catcher (the pool holds 3 ``size`` + 2 cards)."""
    endings = []
    for hand in combinations(pool, size + 2):
        rest = [card for card in pool if card not in hand]
        for left in combinations(rest, size):
            right = [card for card in rest if card not in left]
            endings.append(
                (sum(1 << c for c in hand), sum(1 << c for c in left), sum(1 << c for c in right))
            )
    return endings


SPADES_AND_HEARTS = [0, 1, 2, 3, 24, 25, 26, 27]  # ♠7 8 9 10 and ♥7 8 9 10


def test_hidden_discard_exhaustively_on_two_trick_endings_of_two_suits() -> None:
    """Every two-trick ending of ♠7-10 ♥7-10 (420), every leader, W every pair and each one
    pair: the search equals the naive twin."""
    count = 0
    for hand, left, right in _family(SPADES_AND_HEARTS, 2):
        for leader in range(3):
            for discards in [None, *([pair] for pair in pairs_of(hand))]:
                naive = naive_hidden_tricks(hand, left, right, leader, discards)
                found = hidden_discard_tricks(hand, [left, right], leader=leader, discards=discards)
                assert found == naive, (hand, left, right, leader, discards)
                count += 1
    assert count == 420 * 3 * 7


@pytest.mark.parametrize("size", [3, 5, 10])
def test_one_discard_is_open_misere(size: int) -> None:
    """W of one discard: the catchers see it, so the value is the open misère solve."""
    rng = np.random.default_rng(4810 + size)
    for _ in range(40 if size < 10 else 12):
        hand, left, right = random_ending(rng, size)
        discard = pairs_of(hand)[int(rng.integers(len(pairs_of(hand))))]
        for leader in range(3):
            found = hidden_discard_tricks(hand, [left, right], leader=leader, discards=[discard])
            assert found == solve([hand & ~discard, left, right], misere=True, leader=leader)


@pytest.mark.parametrize("size", [2, 4, 6])
def test_more_possible_discards_never_give_more_tricks(size: int) -> None:
    """W inside W' gives the catchers at least as much, and never more than open play against
    any discard of W: caught with it hidden implies caught in the open."""
    rng = np.random.default_rng(4820 + size)
    for _ in range(30):
        hand, left, right = random_ending(rng, size)
        pairs = pairs_of(hand)
        order = [pairs[i] for i in rng.permutation(len(pairs))]
        leader = int(rng.integers(3))
        cut = int(rng.integers(1, len(pairs)))
        small = hidden_discard_tricks(hand, [left, right], leader=leader, discards=order[:cut])
        large = hidden_discard_tricks(hand, [left, right], leader=leader, discards=order)
        floor = hidden_discard_tricks(hand, [left, right], leader=leader)
        opens = [solve([hand & ~w, left, right], misere=True, leader=leader) for w in order[:cut]]
        assert floor == large <= small <= min(opens), (hand, left, right, leader)


def test_the_naive_twin_holds_the_invariants() -> None:
    """The invariants on the twin itself, against its own open play (one possible discard)."""
    rng = np.random.default_rng(4830)
    for size in (1, 2, 3):
        for _ in range(40):
            hand, left, right = random_ending(rng, size)
            pairs = pairs_of(hand)
            leader = int(rng.integers(3))
            cut = int(rng.integers(1, len(pairs) + 1))
            chosen = [pairs[i] for i in rng.permutation(len(pairs))[:cut]]
            opens = [naive_open_tricks(hand & ~w, left, right, leader) for w in chosen]
            assert [naive_hidden_tricks(hand, left, right, leader, [w]) for w in chosen] == opens
            small = naive_hidden_tricks(hand, left, right, leader, chosen)
            floor = naive_hidden_tricks(hand, left, right, leader)
            assert floor <= small <= min(opens)


def test_the_batch_form_matches_one_at_a_time() -> None:
    rng = np.random.default_rng(4840)
    for declarer in range(3):
        rows, discards, expected = [], [], []
        for _ in range(30):
            hand, left, right = random_ending(rng, 4)
            chosen = random_discards(rng, hand) or pairs_of(hand)
            seats = [0, 0, 0]
            seats[declarer], seats[(declarer + 1) % 3], seats[(declarer + 2) % 3] = (
                hand,
                left,
                right,
            )
            rows.append(seats)
            discards.append(chosen + [0] * (15 - len(chosen)))
            expected.append(
                hidden_discard_tricks(
                    hand, [left, right], declarer=declarer, leader=1, discards=chosen
                )
            )
        found = hidden_discard_many(
            np.array(rows, dtype=np.uint32),
            declarer=declarer,
            leader=1,
            discards=np.array(discards, dtype=np.uint32),
        )
        assert found.tolist() == expected


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"leader": 3}, "leader must be 0, 1 or 2"),
        ({"declarer": -1}, "declarer must be 0, 1 or 2"),
        ({"hand12": 0b111}, "2 cards more"),
        ({"discards": []}, "at least one discard"),
        ({"discards": [0b11 << 8]}, "2 of the declarer's cards, got ♣7 8"),
        ({"discards": [0b111]}, "2 of the declarer's cards"),
        ({"others": [0b1 << 8, 0b1 << 9, 0]}, "the 2 other hands"),
        ({"others": [0b1, 0b1 << 9]}, "♠7 is in seats 0 and 1"),
    ],
)
def test_hidden_discard_rejects_bad_input(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"hand12": 0b1111, "others": [0b11 << 8, 0b11 << 16]} | kwargs
    with pytest.raises(ValueError, match=message):
        hidden_discard_tricks(args.pop("hand12"), args.pop("others"), **args)


def _blind_case(rng: np.random.Generator, size: int) -> tuple[int, int, list[tuple[int, int]]]:
    """A declarer's ``size`` cards and discard, and every layout of ``2 size`` other cards."""
    cards = [int(card) for card in rng.permutation(N_CARDS)[: 3 * size + 2]]
    hand = sum(1 << card for card in cards[:size])
    discard = sum(1 << card for card in cards[size : size + 2])
    pool = cards[size + 2 :]
    layouts = []
    for left in combinations(pool, size):
        right = [card for card in pool if card not in left]
        layouts.append((sum(1 << c for c in left), sum(1 << c for c in right)))
    return hand, discard, layouts


@pytest.mark.parametrize("hidden", [False, True])
def test_blind_lead_against_its_naive_twin(hidden: bool) -> None:
    """Every first card tried on every layout of small endings (2-3 tricks): the same card and
    the same tricks on each layout, open or with the discard hidden among random discards."""
    rng = np.random.default_rng(4850 + hidden)
    for size in (2, 3):
        for _ in range(25 if size == 2 else 12):
            hand, discard, layouts = _blind_case(rng, size)
            possible = None
            if hidden:
                others = [p for p in pairs_of(hand | discard) if p != discard]
                chosen = rng.choice(len(others), int(rng.integers(1, 5)), replace=False)
                possible = [discard, *(others[i] for i in chosen)]
            card, values = naive_blind_lead(hand, discard, layouts, possible)
            found_card, found = blind_lead(
                hand, discard, np.array(layouts, dtype=np.uint32), discards=possible
            )
            assert (found_card, found.tolist()) == (card, values), (hand, discard, possible)


def test_blind_lead_is_never_better_for_him_than_open_play() -> None:
    """Leading blind he cannot do better than seeing every card first, on each layout; with
    the discard hidden after his lead he is caught on no more layouts than with it seen (its
    best card does at least as well hidden as the open best card does)."""
    rng = np.random.default_rng(4860)
    for _ in range(10):
        hand, discard, layouts = _blind_case(rng, 4)
        array = np.array(layouts, dtype=np.uint32)
        rows = np.column_stack([np.full(len(array), hand, dtype=np.uint32), array])
        seen = np.array([solve(list(map(int, row)), misere=True) for row in rows])
        _, blind = blind_lead(hand, discard, array)
        _, blind_hidden = blind_lead(hand, discard, array, discards=pairs_of(hand | discard))
        assert (blind >= seen).all()
        assert (blind_hidden > 0).sum() <= (blind > 0).sum()


def test_first_lead_many_is_the_blind_leads_question() -> None:
    """Rows of one hand: the tricks after the blind lead's card are first_lead_many's, open
    (the discard made the only possible one) and with every pair possible."""
    rng = np.random.default_rng(4870)
    hand, discard, layouts = _blind_case(rng, 4)
    array = np.array(layouts, dtype=np.uint32)
    rows = np.column_stack([np.full(len(array), hand | discard, dtype=np.uint32), array])
    card, values = blind_lead(hand, discard, array)
    seen = np.full((len(rows), 1), discard, dtype=np.uint32)
    assert (first_lead_many(rows, card, discards=seen) == values).all()
    card, values = blind_lead(hand, discard, array, discards=pairs_of(hand | discard))
    assert (first_lead_many(rows, card) == values).all()
    with pytest.raises(ValueError, match="not in every declarer's kept hand"):
        first_lead_many(rows, _low_bit(discard), discards=seen)


def _low_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def test_a_batch_names_its_first_bad_row_as_one_position_would() -> None:
    """The rows are checked at once; a bad row among good ones gets the one-row message."""
    good = [0b1111, 0b11 << 8, 0b11 << 16]
    overlapping = [0b1111, 0b1, 0b11 << 16]
    rows = np.array([good, good, overlapping, good], dtype=np.uint32)
    with pytest.raises(ValueError, match="♠7 is in seats 0 and 1"):
        hidden_discard_many(rows)
    discards = np.array([[0b11], [0b11], [0b11], [0b11 << 8]], dtype=np.uint32)
    with pytest.raises(ValueError, match="2 of the declarer's cards, got ♣7 8"):
        hidden_discard_many(np.array([good] * 4, dtype=np.uint32), discards=discards)


def test_layouts_of_one_hand_solved_in_layout_order_keep_their_own_discards() -> None:
    """1,200 three-trick layouts of one five-card hand (``LAYOUT_ROWS`` or more: the batch solves
    them in the open solver's layout order), each row with its own possible discards: the answers
    are each row's, as when the rows are solved in batches too small to be reordered."""
    rng = np.random.default_rng(4850)
    deck = rng.permutation(N_CARDS)[:11]
    hand = sum(1 << int(card) for card in deck[:5])
    rest = deck[5:]
    pairs = pairs_of(hand)
    n_rows = 1_200
    rows = np.zeros((n_rows, 3), dtype=np.uint32)
    discards = np.zeros((n_rows, 4), dtype=np.uint32)
    for index in range(n_rows):
        left = rng.choice(rest, 3, replace=False)
        rows[index, 0] = hand
        rows[index, 1] = sum(1 << int(c) for c in left)
        rows[index, 2] = sum(1 << int(c) for c in rest) & ~int(rows[index, 1])
        chosen = rng.choice(len(pairs), int(rng.integers(1, 5)), replace=False)
        discards[index, : len(chosen)] = [pairs[i] for i in chosen]
    for leader in (0, 1):
        whole = hidden_discard_many(rows, leader=leader, discards=discards)
        parts = np.concatenate(
            [
                hidden_discard_many(
                    rows[a : a + 100], leader=leader, discards=discards[a : a + 100]
                )
                for a in range(0, n_rows, 100)
            ]
        )
        assert whole.tolist() == parts.tolist()
        assert len(set(whole.tolist())) > 1  # the rows differ, so an order mix-up would show


def test_fewest_catches_with_bounds_chooses_as_without_and_skips_what_cannot_win() -> None:
    """``least`` (each card's catches at the least) changes no choice: on random tricks with
    random bounds at or below each card's catches the card and its tricks are the same, and a
    card whose bound is above the fewest catches is never played."""
    rng = np.random.default_rng(4860)
    for _ in range(200):
        cards = sorted(rng.choice(N_CARDS, int(rng.integers(1, 9)), replace=False).tolist())
        tricks = {card: rng.integers(0, 3, 6).astype(np.int8) for card in cards}
        least = {card: int(rng.integers(0, int((tricks[card] > 0).sum()) + 1)) for card in cards}
        played: list[int] = []

        def play(
            card: int, tricks: dict[int, np.ndarray] = tricks, played: list[int] = played
        ) -> np.ndarray:
            played.append(card)
            return tricks[card]

        plain = fewest_catches(cards, tricks.__getitem__)
        bounded = fewest_catches(cards, play, least)
        assert bounded[0] == plain[0] and bounded[1].tolist() == plain[1].tolist()
        fewest = int((plain[1] > 0).sum())
        assert all(least[card] <= fewest for card in played)


def _relabelled(
    rng: np.random.Generator, hands: tuple[int, int, int], discards: list[int]
) -> tuple[tuple[int, int, int], list[int]]:
    """The same ending with each suit's cards moved to other ranks, their order kept, and the
    discards moved with them."""
    present = hands[0] | hands[1] | hands[2]
    to: dict[int, int] = {}
    for suit in range(4):
        cards = [card for card in range(8 * suit, 8 * suit + 8) if present >> card & 1]
        ranks = sorted(int(rank) for rank in rng.choice(8, len(cards), replace=False))
        to |= {card: 8 * suit + rank for card, rank in zip(cards, ranks, strict=True)}

    def move(mask: int) -> int:
        return sum(1 << to[card] for card in to if mask >> card & 1)

    moved = (move(hands[0]), move(hands[1]), move(hands[2]))
    return moved, [move(discard) for discard in discards]


def _table_key(hands: tuple[int, int, int], leader: int, discards: list[int]) -> tuple[int, ...]:
    pairs = np.zeros(_hidden.PAIRS_SIZE, dtype=np.int64)
    _hidden.fill_pairs(hands[0], pairs)
    s_lo, s_hi = _hidden._discard_set(np.array(discards, dtype=np.uint32), pairs)
    return tuple(_hidden._keys(*hands, leader, s_lo, s_hi, pairs))


def test_relabelled_endings_share_the_hidden_tables_entries() -> None:
    """The hidden table keys a trick start on relative ranks and on S re-indexed over the
    candidate cards held (``_hidden._keys``): an ending with each suit's cards moved to other
    ranks, its discards moved with them, has the first one's key and value and is answered
    from its entries without a search; another S has another key."""
    rng = np.random.default_rng(4850)
    moved_cards = searches = 0
    for _ in range(150):
        size = int(rng.integers(2, 5))
        hands = random_ending(rng, size)
        every = pairs_of(hands[0])
        picked = rng.choice(len(every), int(rng.integers(2, len(every))), replace=False)
        chosen = [every[i] for i in sorted(picked)]
        other = [pair for pair in every if pair not in chosen]
        leader = int(rng.integers(3))
        moved, moved_discards = _relabelled(rng, hands, chosen)
        moved_cards += (moved[0] | moved[1] | moved[2]) != (hands[0] | hands[1] | hands[2])
        assert _table_key(moved, leader, moved_discards) == _table_key(hands, leader, chosen)
        assert _table_key(hands, leader, other) != _table_key(hands, leader, chosen)
        clear_tables()
        value = hidden_discard_tricks(hands[0], hands[1:], leader=leader, discards=chosen)
        searched = int(_pool.hidden_tables()[1][-1])
        searches += searched > 0
        found = hidden_discard_tricks(moved[0], moved[1:], leader=leader, discards=moved_discards)
        assert found == value == naive_hidden_tricks(*hands, leader, chosen)
        assert int(_pool.hidden_tables()[1][-1]) == searched
    assert moved_cards > 140  # nearly every relabelling moves some card
    assert searches > 50  # the first ending needed a search (else the open bound settled it)
