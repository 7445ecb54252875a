"""Counting a hand as players do: tricks per suit and strain, stoppers, misère filters.

The trick counting of the heuristic bidders and of the heuristic discard (docs/rules.md, "Play"):
human rules of thumb, vectorised over hands by table lookup on the 256 holdings of a suit.
Their calibration against the solver is ``prefstats bench calibration``.

>>> from prefstats.game.cards import parse_hand
>>> strain_tricks(np.array([parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7")], np.uint32)).tolist()
[[7.0, 5.0, 5.0, 5.0, 0.0]]
"""

from __future__ import annotations

import numpy as np

from prefstats.game.cards import N_HOLDINGS, N_RANKS, N_SUITS, Rank, holdings
from prefstats.game.deal import FIRST_HAND
from prefstats.misere.classes import SuitClass, class_codes

ACE, KING, QUEEN = 1 << Rank.ACE, 1 << Rank.KING, 1 << Rank.QUEEN
TOP_HONOURS = (ACE, KING, QUEEN)
TRUMP, SIDE, NO_TRUMP = 0, 1, 2  # the role a suit plays in a contract


def top_sequence(holding: int) -> int:
    """How many cards the holding has in an unbroken run from the ace down: AKQ 9 → 3.

    >>> top_sequence(0b1110_0001)
    3
    """
    count = 0
    for rank in range(N_RANKS - 1, -1, -1):
        if not holding >> rank & 1:
            break
        count += 1
    return count


def suit_tricks(holding: int, role: int) -> float:
    """Tricks a player counts in one suit of his hand (docs/rules.md, "Play"; human counting rules).

    * Trump suit of length L: L minus the losers among the top min(L, 3) places (a missing
      ace, king or queen there costs a trick), but never more losers than the defenders' trumps.
    * Side suit in a trump contract: the top run, at most 3 (later rounds get ruffed), plus half
      a trick for a guarded king without the ace (K x).
    * No-trump: the whole suit if the top run is as long as the defenders' cards in it; one
      trick less if it reaches the longer half of them (it runs on an even split); else the top
      run plus half for a guarded king.
      A no-trump hand also needs every suit stopped (see ``stopped``), else it counts nothing.

    >>> suit_tricks(0b1110_0011, TRUMP), suit_tricks(0b1000_0001, TRUMP)
    (5.0, 1.0)
    >>> suit_tricks(0b1100_0000, SIDE), suit_tricks(0b0100_0001, SIDE)
    (2.0, 0.5)
    >>> suit_tricks(0b1100_0011, NO_TRUMP), suit_tricks(0b1111_1000, NO_TRUMP)
    (3.0, 5.0)
    """
    length = holding.bit_count()
    top = top_sequence(holding)
    guarded_king = 0.5 if (holding & KING and not holding & ACE and length >= 2) else 0.0
    if role == TRUMP:
        places = TOP_HONOURS[: min(length, 3)]
        losers = min(sum(1 for h in places if not holding & h), N_RANKS - length)
        return float(length - losers)
    if role == SIDE:
        return min(top, 3) + guarded_king
    outstanding = N_RANKS - length
    if length and top >= outstanding:
        return float(length)  # the top cards drop every outstanding card: the suit runs
    if length and top >= -(-outstanding // 2):
        return length - 1.0  # runs on an even split: count one trick short
    return top + guarded_king


def stopped(holding: int) -> bool:
    """A no-trump stopper: A, K x, Q x x or J x x x.

    >>> stopped(0b0100_0001), stopped(0b0010_0001)
    (True, False)
    """
    length = holding.bit_count()
    return any(holding >> rank & 1 and length >= N_RANKS - rank for rank in range(4, N_RANKS))


def suit_trick_tables() -> np.ndarray:
    """float (3, 256): ``suit_tricks`` for every holding in each role (trump, side, no-trump)."""
    return np.array(
        [[suit_tricks(h, role) for h in range(N_HOLDINGS)] for role in (TRUMP, SIDE, NO_TRUMP)]
    )


_TABLES = suit_trick_tables()
_STOPPED = np.array([stopped(h) for h in range(N_HOLDINGS)])


def strain_tricks(hands: np.ndarray) -> np.ndarray:
    """float (n, 5): counted tricks of each hand in ♠ ♣ ♦ ♥ trumps and in no-trump."""
    suits = holdings(hands)
    side = _TABLES[SIDE][suits]
    trump = _TABLES[TRUMP][suits]
    out = np.empty((len(suits), N_SUITS + 1))
    out[:, :N_SUITS] = side.sum(axis=1, keepdims=True) - side + trump
    all_stopped = _STOPPED[suits].all(axis=1)
    out[:, N_SUITS] = np.where(all_stopped, _TABLES[NO_TRUMP][suits].sum(axis=1), 0.0)
    return out


# Added to the counted tricks before choosing a strain: breaks exact ties only (counts are
# halves), for no-trump over the suits; then argmax takes the lower suit.
STRAIN_PREFERENCE = np.array([0.0] * N_SUITS + [1e-6])


def best_strain(tricks: np.ndarray) -> np.ndarray:
    """int (n,): the strain a player names from his counted tricks (n, 5): the one that counts
    most; no-trump when it counts as much as the best suit (it needs every suit stopped, see
    ``strain_tricks``), else the lower suit.

    >>> best_strain(np.array([[6.0, 5.0, 5.0, 6.0, 6.0], [6.0, 5.0, 5.0, 6.0, 5.5]])).tolist()
    [4, 0]
    """
    strains: np.ndarray = np.argmax(np.asarray(tricks) + STRAIN_PREFERENCE, axis=-1)
    return strains


def uncatchable_misere(hands: np.ndarray, seat: int) -> np.ndarray:
    """bool (n,): no catchable suit, and safe from this seat (docs/rules.md, "Misère suit
    classes").

    A clean misère (no catchable suit, at least one clean suit) cannot be caught; one of
    conditionally clean suits only is safe unless the declarer leads, i.e. unless he is the
    first hand (seat 0), who leads to the first trick.
    """
    classes = class_codes()[holdings(hands)]
    no_catchable = (classes != SuitClass.CATCHABLE).all(axis=1)
    has_clean = (classes == SuitClass.CLEAN).any(axis=1)
    clean: np.ndarray = no_catchable & (has_clean | (seat != 0))
    return clean


def filter_counts(hands: np.ndarray) -> np.ndarray:
    """float (n, 5): ``strain_tricks``, but no-trump counted without the stopper rule (the
    first hand leads and may run a suit before the defenders find the unstopped one); the
    contract filter of ``SampledEvaluator``.

    >>> from prefstats.game.cards import parse_hand
    >>> filter_counts(np.array([parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7")], np.uint32)).tolist()
    [[7.0, 5.0, 5.0, 5.0, 7.0]]
    """
    counts = strain_tricks(hands)
    counts[:, N_SUITS] = _TABLES[NO_TRUMP][holdings(hands)].sum(axis=1)
    return counts


def catchable_suits(hands: np.ndarray, seat: int) -> np.ndarray:
    """float (n,): catchable suits of each hand, plus half a conditionally clean suit in the
    first hand, who leads (docs/rules.md, "Misère suit classes"); the misère filter of
    ``SampledEvaluator``.

    >>> from prefstats.game.cards import parse_hand
    >>> catchable_suits(np.array([parse_hand("♠7 9 ♣7 8 ♦7 8 9 ♥7 8 A")], np.uint32), 0).tolist()
    [1.5]
    """
    classes = class_codes()[holdings(hands)]
    catchable = (classes == SuitClass.CATCHABLE).sum(axis=1)
    conditional = (classes == SuitClass.CONDITIONALLY_CLEAN).sum(axis=1)
    count: np.ndarray = catchable + (0.5 * conditional if seat == FIRST_HAND else 0.0)
    return count
