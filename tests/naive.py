"""Naive twins of the solver: plain memoised minimax over every legal card, in pure Python.

Deliberately straightforward: no equivalent-card pruning, no bounds, no relative ranks. It follows
docs/rules.md, "Play" literally: must follow suit; void in the led suit, must trump if holding a
trump; otherwise any card. Highest trump wins, else highest card of the led suit; the trick's winner
leads next. Card bit = 8·suit + rank.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

N_SEATS = 3
SUIT_BITS = 8


def cards_of(mask: int) -> list[int]:
    """Card bits of a mask, low to high."""
    return [bit for bit in range(4 * SUIT_BITS) if mask >> bit & 1]


def suit_of(card: int) -> int:
    return card // SUIT_BITS


def legal_cards(hand: int, led_suit: int | None, trump: int | None) -> list[int]:
    """Cards the holder of ``hand`` may play to a trick led in ``led_suit`` (None: leading)."""
    cards = cards_of(hand)
    if led_suit is None:
        return cards
    follow = [card for card in cards if suit_of(card) == led_suit]
    if follow:
        return follow
    trumps = [card for card in cards if trump is not None and suit_of(card) == trump]
    return trumps or cards


def trick_winner(cards: tuple[int, ...], seats: tuple[int, ...], trump: int | None) -> int:
    """Seat winning a complete trick: highest trump, else highest card of the led suit."""
    led_suit = suit_of(cards[0])
    trumps = [
        (card, seat) for card, seat in zip(cards, seats, strict=False) if suit_of(card) == trump
    ]
    if trumps:
        return max(trumps)[1]
    return max(
        (card, seat) for card, seat in zip(cards, seats, strict=False) if suit_of(card) == led_suit
    )[1]


def naive_value(
    hands: tuple[int, ...],
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
    trick: tuple[int, ...] = (),
) -> int:
    """Declarer's tricks from a position, with ``trick`` the cards already played to it."""
    return _value(tuple(hands), trump, misere, declarer, leader, tuple(trick))


@cache
def _value(
    hands: tuple[int, ...],
    trump: int | None,
    misere: bool,
    declarer: int,
    leader: int,
    trick: tuple[int, ...],
) -> int:
    seat = (leader + len(trick)) % N_SEATS
    if len(trick) == N_SEATS:
        seats = tuple((leader + step) % N_SEATS for step in range(N_SEATS))
        winner = trick_winner(trick, seats, trump)
        won = 1 if winner == declarer else 0
        if hands[0] == 0:
            return won
        return won + _value(hands, trump, misere, declarer, winner, ())
    led_suit = suit_of(trick[0]) if trick else None
    values = []
    for card in legal_cards(hands[seat], led_suit, trump):
        after = list(hands)
        after[seat] ^= 1 << card
        values.append(_value(tuple(after), trump, misere, declarer, leader, (*trick, card)))
    maximises = (seat == declarer) != misere
    return max(values) if maximises else min(values)


def naive_can_lose_trick(hands: tuple[int, ...], *, leader: int, declarer: int = 0) -> bool:
    """Misère, the one trick about to start, by plain minimax over every legal card: can the
    declarer make another seat win it, whatever the defenders play?"""
    return _loses_trick(tuple(hands), leader, declarer, ())


def _loses_trick(
    hands: tuple[int, ...], leader: int, declarer: int, trick: tuple[int, ...]
) -> bool:
    seats = tuple((leader + step) % N_SEATS for step in range(len(trick)))
    if len(trick) == N_SEATS:
        return trick_winner(trick, seats, None) != declarer
    seat = (leader + len(trick)) % N_SEATS
    led_suit = suit_of(trick[0]) if trick else None
    outcomes = (
        _loses_trick(hands, leader, declarer, (*trick, card))
        for card in legal_cards(hands[seat], led_suit, None)
    )
    return any(outcomes) if seat == declarer else all(outcomes)


def naive_best_discard(
    hand: int,
    others: tuple[int, int],
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> int:
    """Best value over all two-card discards from ``hand``, by brute force."""
    values = []
    for pair in combinations(cards_of(hand), 2):
        kept = hand & ~sum(1 << card for card in pair)
        seats = list(others)
        seats.insert(declarer, kept)
        value = naive_value(
            (seats[0], seats[1], seats[2]),
            trump=trump,
            misere=misere,
            declarer=declarer,
            leader=leader,
        )
        values.append(value)
    return min(values) if misere else max(values)


def clear_cache() -> None:
    """Forget memoised positions (call between unrelated deals to bound memory)."""
    _value.cache_clear()
    _late.cache_clear()


def naive_late_value(
    hand: int, others: tuple[int, int], *, trump: int | None = None, leader: int = 0
) -> int:
    """The declarer's (seat 0's) tricks in the late-discard game (docs/design.md, "Dealt
    potential"), by minimax over every option and legal card: he holds ``hand``, more cards than
    each defender, and when following may first drop all his cards of the led suit, or all his
    trumps once void in it, or both, as long as he drops no more than his spare cards in all."""
    spare = hand.bit_count() - others[0].bit_count()
    return _late((hand, *others), spare, trump, leader, ())


def _suit_mask(suit: int | None) -> int:
    return 0 if suit is None else ((1 << SUIT_BITS) - 1) << (SUIT_BITS * suit)


def _follow_options(hand: int, spare: int, led: int, trump: int | None) -> list[tuple[int, int]]:
    """The declarer's holdings to follow from, with the spare cards each leaves him."""
    follow = hand & _suit_mask(led)
    trumps = hand & _suit_mask(trump) if trump != led else 0
    n_follow, n_trumps = follow.bit_count(), trumps.bit_count()
    options = [(hand, spare)]
    if 1 <= n_follow <= spare:
        options.append((hand & ~follow, spare - n_follow))
    if n_follow >= 1 and n_trumps >= 1 and n_follow + n_trumps <= spare:
        options.append((hand & ~follow & ~trumps, spare - n_follow - n_trumps))
    if n_follow == 0 and 1 <= n_trumps <= spare:
        options.append((hand & ~trumps, spare - n_trumps))
    return options


@cache
def _late(
    hands: tuple[int, ...], spare: int, trump: int | None, leader: int, trick: tuple[int, ...]
) -> int:
    seat = (leader + len(trick)) % N_SEATS
    if len(trick) == N_SEATS:
        seats = tuple((leader + step) % N_SEATS for step in range(N_SEATS))
        winner = trick_winner(trick, seats, trump)
        won = 1 if winner == 0 else 0
        if hands[1] == 0:
            return won
        return won + _late(hands, spare, trump, winner, ())
    led_suit = suit_of(trick[0]) if trick else None
    options = [(hands[seat], spare)]
    if seat == 0 and led_suit is not None:
        options = _follow_options(hands[0], spare, led_suit, trump)
    values = []
    for holding, left in options:
        for card in legal_cards(holding, led_suit, trump):
            after = list(hands)
            after[seat] = holding & ~(1 << card)
            values.append(_late(tuple(after), left, trump, leader, (*trick, card)))
    return max(values) if seat == 0 else min(values)
