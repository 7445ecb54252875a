"""Cards, suits, ranks, hands and suit holdings as bit masks (docs/rules.md, "Cards and deal").

The one bit layout of the package: card bit = 8·suit + rank, with suits ♠ ♣ ♦ ♥ = 0..3 (also the
bidding order, low to high) and ranks 7 8 9 10 J Q K A = 0..7. A hand is a 32-bit mask (a Python
int or ``np.uint32``); a suit holding is an 8-bit mask.

>>> hand = parse_hand("♠7 8 10 ♣A K")
>>> format_hand(hand)
'♠7 8 10 ♣K A'
>>> format_hand(hand, style="ru")
'♠7 8 10 ♣К Т'
>>> parse_hand("S:7,8,T C:AK") == parse_hand("п 7 8 10 т Т К") == hand
True
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from typing import Literal

import numpy as np

from prefstats.checks import WrongType, is_int

N_SUITS = 4
N_RANKS = 8
N_CARDS = N_SUITS * N_RANKS
N_HOLDINGS = 1 << N_RANKS  # 256 possible holdings in one suit
SUIT_MASK = (1 << N_RANKS) - 1  # the 8 bits of one suit holding
FULL_DECK = (1 << N_CARDS) - 1

Style = Literal["en", "ru"]


class Suit(IntEnum):
    """Suits in bidding order, low to high (docs/rules.md, "Cards and deal")."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``Suit.HEARTS.symbol == '♥'``."""
        return SUIT_SYMBOLS[self]


class Rank(IntEnum):
    """Ranks low to high: 7 8 9 10 J Q K A."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7


SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")
RED_SUITS = (2, 3)  # ♦ ♥, printed in red
RANK_NAMES: dict[Style, tuple[str, ...]] = {
    "en": ("7", "8", "9", "10", "J", "Q", "K", "A"),
    "ru": ("7", "8", "9", "10", "В", "Д", "К", "Т"),
}

# Tokens accepted when parsing. English letters are case-insensitive; in Russian notation the
# suits are lowercase (п т б ч) and the ranks uppercase (В Д К Т), since "т" is clubs and "Т" ace.
_SUIT_TOKENS = {
    **{symbol: Suit(i) for i, symbol in enumerate(SUIT_SYMBOLS)},
    **{symbol: Suit(i) for i, symbol in enumerate("♤♧♢♡")},
    **{letter: Suit(i) for i, letter in enumerate("SCDH")},
    **{letter: Suit(i) for i, letter in enumerate("scdh")},
    **{letter: Suit(i) for i, letter in enumerate("птбч")},
}
_RANK_TOKENS = {
    "7": Rank.SEVEN,
    "8": Rank.EIGHT,
    "9": Rank.NINE,
    "10": Rank.TEN,
    **{letter: Rank(i + Rank.TEN) for i, letter in enumerate("TJQKA")},
    **{letter: Rank(i + Rank.TEN) for i, letter in enumerate("tjqka")},
    **{letter: Rank(i + Rank.JACK) for i, letter in enumerate("ВДКТ")},
}
_SEPARATORS = frozenset(" \t\n,;:")
VOID_TEXT = "-"  # a void suit or an empty hand, written alone
_DASHES = frozenset("-—–")  # only as VOID_TEXT alone: never a range such as ♠7-A
HAND_CARDS = 10  # the cards a player is dealt
MOST_HELD = HAND_CARDS + 2  # a hand with the talon: the most cards a player ever holds


def card_bit(suit: int, rank: int) -> int:
    """The bit index of a card: 8·suit + rank.

    >>> card_bit(Suit.CLUBS, Rank.ACE)
    15
    """
    return N_RANKS * int(suit) + int(rank)


def card_mask(suit: int, rank: int) -> int:
    """A one-card mask.

    >>> card_mask(Suit.SPADES, Rank.EIGHT)
    2
    """
    return 1 << card_bit(suit, rank)


def holding(hand: int, suit: int) -> int:
    """The 8-bit holding of ``hand`` in ``suit``.

    >>> holding(parse_hand("♣7 A"), Suit.CLUBS)
    129
    """
    return (int(hand) >> (N_RANKS * int(suit))) & SUIT_MASK


def n_cards(hand: int) -> int:
    """Number of cards in a mask.

    >>> n_cards(parse_hand("♠7 8 ♥A"))
    3
    """
    return int(hand).bit_count()


def format_card(bit: int, style: Style = "en") -> str:
    """One card by its bit index.

    >>> format_card(15), format_card(31, style="ru")
    ('♣A', '♥Т')
    """
    suit, rank = divmod(bit, N_RANKS)
    return SUIT_SYMBOLS[suit] + _rank_names(style)[rank]


def format_hand(mask: int, style: Style = "en") -> str:
    """A hand as text, suits ♠ ♣ ♦ ♥ and ranks low to high; ``"-"`` for no cards.

    >>> format_hand(parse_hand("♥A ♠10 7"))
    '♠7 10 ♥A'
    """
    names = _rank_names(style)
    mask = _checked_mask(mask)
    parts = []
    for suit in Suit:
        cards = holding(mask, suit)
        if cards:
            ranks = " ".join(names[r] for r in range(N_RANKS) if cards >> r & 1)
            parts.append(suit.symbol + ranks)
    return " ".join(parts) if parts else VOID_TEXT


def parse_hand(text: str, max_cards: int = MOST_HELD) -> int:
    """Parse a hand in English or Russian notation into a mask.

    A suit token (♠♣♦♥, S C D H, п т б ч) applies to the ranks after it; ranks are 7 8 9 10
    (or T) J Q K A, or Russian 7 8 9 10 В Д К Т. Spaces, commas and colons are optional; ``-``
    alone is a hand with no cards. Raises ValueError in one line naming the problem: a bad
    token and its position, a duplicate card, an empty text, a ``|`` (several hands), a range
    (``♠7-A``) or more than ``max_cards`` cards (default 12: ten dealt and the talon).

    >>> format_hand(parse_hand("♦ 7 9 В Д ♥Т"))
    '♦7 9 J Q ♥A'
    >>> parse_hand("-")
    0
    >>> parse_hand("♠7-A")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: '-' at position 2 in '♠7-A': ranges are not read, list the cards ...
    """
    if text.strip() in _DASHES:
        return 0
    if not text.strip():
        raise ValueError(f"empty hand {text!r}: give its cards ('-' for a hand with no cards)")
    mask = 0
    suit: Suit | None = None
    for token, pos in _tokens(text):
        if token in _SUIT_TOKENS:
            suit = _SUIT_TOKENS[token]
        elif token in _RANK_TOKENS:
            if suit is None:
                raise ValueError(f"rank {token!r} at position {pos} has no suit before it")
            bit = card_mask(suit, _RANK_TOKENS[token])
            if mask & bit:
                raise ValueError(
                    f"duplicate card {format_card(bit.bit_length() - 1)} at position {pos}"
                )
            mask |= bit
        else:
            raise ValueError(_bad_token(token, pos, text))
    if n_cards(mask) > max_cards:
        raise ValueError(f"{n_cards(mask)} cards in {text!r}: a hand holds at most {max_cards}")
    return mask


def _bad_token(token: str, pos: int, text: str) -> str:
    """Why ``token`` has no place in a hand, in one line."""
    if token == "|":
        return f"'|' at position {pos} in {text!r}: one hand expected, not several parts"
    if token in _DASHES:
        return (
            f"{token!r} at position {pos} in {text!r}: ranges are not read, list the cards "
            f"('{VOID_TEXT}' alone is a hand with no cards)"
        )
    return f"bad token {token!r} at position {pos} in {text!r}"


def parse_holding(text: str) -> int:
    """Parse one suit's ranks (no suit symbol) into an 8-bit holding, with the rank tokens of
    :func:`parse_hand` (so Russian ``Т`` is the ace, ``т`` is clubs and no rank, Latin ``T`` the
    ten); ``""`` or ``"-"`` is the void holding.

    >>> parse_holding("7 10 J") == parse_holding("7TJ") == parse_holding("710В")
    True
    >>> format_holding(parse_holding("79ВДКТ"))
    '7 9 J Q K A'
    >>> parse_holding("7 7")
    Traceback (most recent call last):
    ...
    ValueError: duplicate rank '7' at position 2 in '7 7'
    """
    if text.strip() in _DASHES:
        return 0
    mask = 0
    for token, pos in _tokens(text):
        if token in _DASHES or token == "|":
            raise ValueError(_bad_token(token, pos, text))
        if token not in _RANK_TOKENS:
            raise ValueError(
                f"bad rank {token!r} at position {pos} in {text!r} (a holding is ranks only)"
            )
        bit = 1 << _RANK_TOKENS[token]
        if mask & bit:
            raise ValueError(f"duplicate rank {token!r} at position {pos} in {text!r}")
        mask |= bit
    return mask


def format_holding(holding: int, style: Style = "en") -> str:
    """A holding as text, ranks low to high; ``"-"`` for a void.

    >>> format_holding(0b1101), format_holding(0b11110000, style="ru"), format_holding(0)
    ('7 9 10', 'В Д К Т', '-')
    """
    names = _rank_names(style)
    holding = check_holding(holding)
    return " ".join(names[r] for r in range(N_RANKS) if holding >> r & 1) or VOID_TEXT


def check_holding(holding: int) -> int:
    """``holding`` as an int, or TypeError/ValueError unless it is an 8-bit mask."""
    if not is_int(holding):
        raise WrongType(f"a suit holding must be an int mask, got {type(holding).__name__}")
    holding = int(holding)
    if not 0 <= holding < N_HOLDINGS:
        raise ValueError(
            f"a suit holding must be an 8-bit mask in 0..{N_HOLDINGS - 1}, got {holding}"
        )
    return holding


def _tokens(text: str) -> Iterator[tuple[str, int]]:
    """The tokens of a hand or holding and their positions: ``10`` or one character, with
    separators skipped."""
    pos = 0
    while pos < len(text):
        if text[pos] in _SEPARATORS:
            pos += 1
            continue
        token = text[pos : pos + 2] if text.startswith("10", pos) else text[pos]
        yield token, pos
        pos += len(token)


_DISPLAY: dict[str, Style] = {"style": "en"}


def set_display_style(style: Style) -> None:
    """Show cards in English (``en``) or Russian (``ru``) notation wherever the package
    displays them by default (``Deal`` in Jupyter, its ``repr``).

    >>> set_display_style("ru"); display_style()
    'ru'
    >>> set_display_style("en")
    """
    _rank_names(style)
    _DISPLAY["style"] = style


def display_style() -> Style:
    """The notation set by :func:`set_display_style` (default ``en``)."""
    return _DISPLAY["style"]


def _rank_names(style: str) -> tuple[str, ...]:
    if style not in RANK_NAMES:
        raise ValueError(f"style must be 'en' or 'ru', got {style!r}")
    return RANK_NAMES[style]


def _checked_mask(mask: int) -> int:
    mask = int(mask)
    if not 0 <= mask <= FULL_DECK:
        raise ValueError(f"a hand mask must be a 32-bit value, got {mask}")
    return mask


def holdings(hands: np.ndarray) -> np.ndarray:
    """int (n, 4): the 8-bit holding of each hand in each suit ♠ ♣ ♦ ♥.

    >>> holdings(np.array([parse_hand("♠7 8 ♥A")], np.uint32)).tolist()
    [[3, 0, 0, 128]]
    """
    hands = np.asarray(hands, dtype=np.uint32)
    shifts = np.arange(N_SUITS, dtype=np.uint32) * N_RANKS
    return ((hands[:, None] >> shifts) & SUIT_MASK).astype(np.intp)


def card_positions(hands: np.ndarray, size: int) -> np.ndarray:
    """int (n, size): the card bits of each hand, ascending (every hand must hold ``size``).

    >>> card_positions(np.array([parse_hand("♠8 ♥A ♣7")], np.uint32), 3).tolist()
    [[1, 8, 31]]
    """
    hands = np.asarray(hands, dtype=np.uint32)
    bits = (hands[:, None] >> np.arange(N_CARDS, dtype=np.uint32)) & 1
    order = np.argsort(-bits.astype(np.int8), axis=1, kind="stable")
    return order[:, :size]  # a stable sort keeps the held cards in ascending order
