"""Notation of hands and holdings: parse/format round trips (hypothesis) and every error path
(prefstats.game.cards)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefstats.game import cards
from prefstats.game.cards import (
    FULL_DECK,
    N_CARDS,
    N_RANKS,
    RANK_NAMES,
    Rank,
    Suit,
    card_mask,
    format_card,
    format_hand,
    format_holding,
    holding,
    parse_hand,
    parse_holding,
)

masks = st.integers(min_value=0, max_value=FULL_DECK)


@given(masks, st.sampled_from(["en", "ru"]))
def test_round_trip(mask, style):
    assert parse_hand(format_hand(mask, style), max_cards=N_CARDS) == mask


# Russian and English suit letters, rank tokens, and separators, mixed at random.
SUIT_WRITINGS = [
    ("♠", "S", "s", "п"),
    ("♣", "C", "c", "т"),
    ("♦", "D", "d", "б"),
    ("♥", "H", "h", "ч"),
]
RANK_WRITINGS = [
    ("7",),
    ("8",),
    ("9",),
    ("10", "T", "t"),
    ("J", "j", "В"),
    ("Q", "q", "Д"),
    ("K", "k", "К"),
    ("A", "a", "Т"),
]


@given(masks, st.randoms(use_true_random=False))
def test_any_mixed_notation_parses_to_the_same_hand(mask, rnd: random.Random):
    parts = []
    suits = list(Suit)
    rnd.shuffle(suits)
    for suit in suits:
        ranks = [r for r in range(N_RANKS) if holding(mask, suit) >> r & 1]
        if not ranks:
            continue
        rnd.shuffle(ranks)
        parts.append(rnd.choice(SUIT_WRITINGS[suit]) + rnd.choice(["", " ", ":"]))
        parts.append(rnd.choice([" ", ",", ", "]).join(rnd.choice(RANK_WRITINGS[r]) for r in ranks))
    text = " ".join(parts) or "-"  # no cards: the empty hand is written "-"
    assert parse_hand(text, max_cards=N_CARDS) == mask, text


def test_examples_from_the_issue():
    expected = (
        card_mask(Suit.SPADES, Rank.SEVEN)
        | card_mask(Suit.SPADES, Rank.EIGHT)
        | card_mask(Suit.SPADES, Rank.TEN)
        | card_mask(Suit.CLUBS, Rank.ACE)
        | card_mask(Suit.CLUBS, Rank.KING)
    )
    assert parse_hand("♠7 8 10 ♣A K") == expected
    assert parse_hand("S:7,8,T C:AK") == expected
    assert parse_hand("п7 8 10 тТК") == expected
    assert format_hand(expected) == "♠7 8 10 ♣K A"
    assert format_hand(expected, "ru") == "♠7 8 10 ♣К Т"


def test_card_bit_layout_is_eight_times_suit_plus_rank():
    assert card_mask(Suit.HEARTS, Rank.ACE) == 1 << 31
    assert card_mask(Suit.DIAMONDS, Rank.SEVEN) == 1 << 16
    assert format_card(8) == "♣7"
    assert [RANK_NAMES["en"][r] for r in Rank] == ["7", "8", "9", "10", "J", "Q", "K", "A"]


def test_empty_hand():
    assert format_hand(0) == "-"
    assert parse_hand("-") == parse_hand(" - ") == 0
    for blank in ("", "  "):
        with pytest.raises(ValueError, match="empty hand"):
            parse_hand(blank)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("♠7 8 X", "bad token 'X' at position 5"),
        ("♠7 1 8", "bad token '1' at position 3"),
        ("♠7 6", "bad token '6' at position 3"),
        ("7 8 ♠9", "rank '7' at position 0 has no suit"),
        ("♠7 8 7", "duplicate card ♠7 at position 5"),
        ("♠7 ♣8 ♠7", "duplicate card ♠7 at position 7"),
        ("♠7 B", "bad token 'B' at position 3"),  # Latin B is not the Cyrillic В (jack)
    ],
)
def test_parse_errors_name_token_and_position(text, message):
    with pytest.raises(ValueError, match=message):
        parse_hand(text)


def test_format_errors():
    with pytest.raises(ValueError, match="style must be 'en' or 'ru'"):
        format_hand(1, style="de")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="32-bit"):
        format_hand(1 << 32)
    with pytest.raises(ValueError, match="32-bit"):
        format_hand(-1)


def test_suit_symbol():
    assert [s.symbol for s in Suit] == ["♠", "♣", "♦", "♥"]


@pytest.mark.parametrize("style", ["en", "ru"])
def test_parse_format_round_trip(style: cards.Style) -> None:
    for mask in range(256):
        assert parse_holding(format_holding(mask, style=style)) == mask


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7 10 J", "7 10 J"),
        ("789JQKA", "7 8 9 J Q K A"),
        ("7,t,j", "7 10 J"),
        ("ВДКТ", "J Q K A"),
        ("-", "-"),
        ("", "-"),
        ("ТКДВ10987", "7 8 9 10 J Q K A"),
        ("7,8;9", "7 8 9"),
    ],
)
def test_parse_holding_accepts_notations(text: str, expected: str) -> None:
    assert format_holding(parse_holding(text)) == expected


# One parser for hands and holdings: lower-case т is clubs (a suit), never the ace.
@pytest.mark.parametrize("text", ["1", "7 1", "7 X", "♠7", "7 8 8", "10 T", "т 7 8", "вдкт"])
def test_parse_holding_rejects_bad_text(text: str) -> None:
    with pytest.raises(ValueError, match="rank"):
        parse_holding(text)


@pytest.mark.parametrize("text", ["7-9", "7 - A", "8—10", "7 | 8"])
def test_parse_holding_rejects_ranges_and_parts(text: str) -> None:
    with pytest.raises(ValueError, match=r"ranges are not read|one hand expected"):
        parse_holding(text)
