"""The defence's quick tricks (docs/design.md, "Contract bounds") against the naive twin: never
more than the defence takes with best play, and each way of counting them shown to count."""

from __future__ import annotations

import numpy as np
import pytest

from prefstats.game.cards import parse_hand
from prefstats.solver import defence_quick_tricks
from tests.naive import clear_cache, naive_value

N_CARDS = 32
STRAINS = [None, 0, 1, 2, 3]
# Hand size -> random endgames per (strain, leader): 2 leaders x 5 strains x 46 = 460 endgames.
SIZES = {2: 10, 3: 16, 4: 14, 5: 6}


def random_hands(rng: np.random.Generator, size: int) -> tuple[int, int, int]:
    cards = rng.permutation(N_CARDS)[: 3 * size]
    hands = [sum(1 << int(card) for card in cards[seat * size : (seat + 1) * size]) for seat in range(3)]
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
        ({"leader": 3}, "leader must be a seat"),
        ({"leader": 1, "trump": 4}, "trump must be a suit"),
        ({"leader": 2, "declarer": 2}, "leader must be a defender"),
    ],
)
def test_rejects_bad_input(options: dict, message: str) -> None:
    hands = [parse_hand("♠7 8"), parse_hand("♠9 10"), parse_hand("♠J Q")]
    with pytest.raises(ValueError, match=message):
        defence_quick_tricks(hands, **options)
    with pytest.raises(ValueError, match="hand of seat 1"):
        defence_quick_tricks([hands[0], -1, hands[2]], leader=1)
