"""The contract bounds (docs/design.md, "Contract bounds") against naive twins: the defence's
quick tricks and every seat's sure trump tricks never exceed what best play gives (naive
minimax), each way of counting shown to count, and the trump count equal to a brute-force
matching on every ownership of the trump suit."""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np
import pytest

from prefstats.game.cards import parse_hand
from prefstats.solver import defence_quick_tricks, sure_trump_tricks
from tests.naive import clear_cache, naive_value

N_CARDS = 32
STRAINS = [None, 0, 1, 2, 3]
# Hand size -> random endgames per (strain, leader): 2 leaders x 5 strains x 46 = 460 endgames.
SIZES = {2: 10, 3: 16, 4: 14, 5: 6}


def random_hands(rng: np.random.Generator, size: int) -> tuple[int, int, int]:
    cards = rng.permutation(N_CARDS)[: 3 * size]
    hands = [
        sum(1 << int(card) for card in cards[seat * size : (seat + 1) * size]) for seat in range(3)
    ]
    return hands[0], hands[1], hands[2]


@pytest.mark.parametrize("trump", STRAINS)
def test_never_more_than_the_defence_takes(trump: int | None) -> None:
    """Sound on every random endgame; and not idle: it is at least one trick on most of them
    and reaches the defence's true tricks on many (the fixed seed makes the counts fixed)."""
    rng = np.random.default_rng(4100 + (4 if trump is None else trump))
    counted = exact = total = 0
    for leader in (1, 2):
        for size, count in SIZES.items():
            for _ in range(count):
                hands = random_hands(rng, size)
                clear_cache()
                defence = size - naive_value(hands, trump=trump, leader=leader)
                quick = defence_quick_tricks(hands, leader=leader, trump=trump)
                assert 0 <= quick <= defence, (hands, leader, trump)
                counted += quick > 0
                exact += quick == defence
                total += 1
    assert counted > total // 2
    assert exact > total // 5


def test_partner_reached_through_his_top_card() -> None:
    """The leader has no trick of his own; he leads ♠9 to his partner's ♠A, who cashes ♦A K.
    Without a spade the leader cannot reach him, and nothing is counted."""
    declarer, partner = parse_hand("♠K ♥A ♣A"), parse_hand("♠A ♦A K")
    hands = [declarer, parse_hand("♠9 ♥8 ♣8"), partner]
    assert defence_quick_tricks(hands, leader=1) == 3
    assert naive_value(tuple(hands), leader=1) == 0
    assert defence_quick_tricks([declarer, parse_hand("♥8 ♣8 9"), partner], leader=1) == 0


def test_no_entry_where_the_declarer_ruffs() -> None:
    """Spades trumps: the declarer, void in diamonds, would ruff the lead meant for the partner's
    ♦A, so the partner's tricks do not count."""
    hands = [parse_hand("♠7 ♣7 8"), parse_hand("♦7 ♥7 8"), parse_hand("♦A K ♥A")]
    assert defence_quick_tricks(hands, leader=1, trump=0) == 0
    assert defence_quick_tricks(hands, leader=1, trump=None) == 3


def test_both_in_turn_only_with_cards_to_spare() -> None:
    """No trump: the leader cashes ♥A K, then leads ♠9 to the partner's ♠A, who cashes ♦A. The
    partner follows to both hearts here; with one heart fewer he must throw a card he needs
    (he holds nothing else), and the count falls back to one hand's tricks."""
    declarer = parse_hand("♠7 8 ♥7 ♣8")
    leader = parse_hand("♥A K ♠9 ♦7")
    follows = [declarer, leader, parse_hand("♠A ♦A ♥8 9")]
    assert defence_quick_tricks(follows, leader=1) == 4
    must_throw = [declarer, leader, parse_hand("♠A ♦A K ♥8")]
    assert defence_quick_tricks(must_throw, leader=1) == 3  # the partner's ♠A ♦A K alone
    assert naive_value(tuple(must_throw), leader=1) == 0  # a bound, not the value


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"leader": 0}, "leader must be a defender"),
        ({"leader": 3}, "leader must be 0, 1 or 2"),
        ({"leader": 1, "trump": 4}, "trump must be a suit"),
        ({"leader": 2, "declarer": 2}, "leader must be a defender"),
    ],
)
def test_rejects_bad_input(options: dict[str, Any], message: str) -> None:
    hands = [parse_hand("♠7 8"), parse_hand("♠9 10"), parse_hand("♠J Q")]
    with pytest.raises(ValueError, match=message):
        defence_quick_tricks(hands, **options)
    with pytest.raises(ValueError, match="hand of seat 1"):
        defence_quick_tricks([hands[0], -1, hands[2]], leader=1)


# --- sure trump tricks -----------------------------------------------------------------------


def beaten_naive(held: list[int], beaters: list[int]) -> int:
    """How many ``held`` cards the ``beaters`` can beat, each beater one held card of lower
    rank: a largest matching found by augmenting paths (Kuhn's algorithm)."""
    match: dict[int, int] = {}  # held card -> its beater

    def augment(beater: int, seen: set[int]) -> bool:
        for card in held:
            if beater > card and card not in seen:
                seen.add(card)
                if card not in match or augment(match[card], seen):
                    match[card] = beater
                    return True
        return False

    return sum(augment(beater, set()) for beater in beaters)


def test_sure_trump_tricks_on_every_trump_ownership() -> None:
    """Every way the three seats can hold the eight trumps (♥, 3**8 = 6,561), each hand filled
    to eight cards with side cards, every seat as the declarer."""
    trump = 3
    side = [card for card in range(N_CARDS) if card // 8 != trump]
    for owners in product(range(3), repeat=8):
        trumps = [[rank for rank in range(8) if owners[rank] == seat] for seat in range(3)]
        hands, used = [], 0
        for seat in range(3):
            filler = side[used : used + 8 - len(trumps[seat])]
            used += len(filler)
            hands.append(
                sum(1 << (8 * trump + rank) for rank in trumps[seat]) + sum(1 << c for c in filler)
            )
        for declarer in range(3):
            defence = [rank for seat in range(3) if seat != declarer for rank in trumps[seat]]
            expected = [
                len(trumps[seat])
                - beaten_naive(trumps[seat], defence if seat == declarer else trumps[declarer])
                for seat in range(3)
            ]
            assert sure_trump_tricks(hands, trump=trump, declarer=declarer) == expected, (
                owners,
                declarer,
            )


@pytest.mark.parametrize("trump", [0, 1, 2, 3])
def test_sure_trump_tricks_never_more_than_best_play(trump: int) -> None:
    """On random endgames the declarer takes at least his count and the defence at least each
    defender's; the counts beat the top trumps in a row on some of them (fixed seed)."""
    rng = np.random.default_rng(4200 + trump)
    beyond_top = 0
    for leader in range(3):
        for size, count in SIZES.items():
            for _ in range(count):
                hands = random_hands(rng, size)
                clear_cache()
                value = naive_value(hands, trump=trump, leader=leader)
                mine, left, right = sure_trump_tricks(list(hands), trump=trump)
                assert mine <= value and max(left, right) <= size - value, (hands, leader)
                held = (hands[0] >> (8 * trump)) & 0xFF
                present = ((hands[0] | hands[1] | hands[2]) >> (8 * trump)) & 0xFF
                run = 0  # his top trumps in a row, the count before this bound
                while present and held & (top := 1 << (present.bit_length() - 1)):
                    present ^= top
                    run += 1
                beyond_top += mine > run
    assert beyond_top > 0


def test_sure_trump_tricks_rejects_no_trump_and_bad_seats() -> None:
    hands = [parse_hand("♠7 8"), parse_hand("♠9 10"), parse_hand("♠J Q")]
    with pytest.raises(ValueError, match="trump must be a suit"):
        sure_trump_tricks(hands, trump=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="declarer must be 0, 1 or 2"):
        sure_trump_tricks(hands, trump=0, declarer=5)
