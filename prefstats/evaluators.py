"""Hand evaluators: each turns a 10-card hand (and seat) into the highest bid it will make.

Kept apart from the auction (``bidding.py``), which only needs the resulting limits: evaluators
are where the game knowledge and the solver calls live.

The heuristic counts tricks per suit the way players do (documented in ``suit_trick_tables``),
adds the talon's expected help, and bids the level its total reaches. Its misère rule uses the
suit classes of ``misere.py``: a hand with no catchable suit is bid as misère when it is safe
from this seat (a conditionally clean misère is unsafe for the first hand, who leads).

>>> from prefstats.cards import parse_hand
>>> from prefstats.rules import LADDER
>>> ev = HeuristicEvaluator()
>>> texts = ["♠A K Q J 10 9 ♣A K ♦A ♥A", "♠7 8 9 ♣7 8 9 ♦7 8 ♥7 8"]
>>> hands = np.array([parse_hand(t) for t in texts], dtype=np.uint32)
>>> [str(LADDER[r]) if r >= 0 else "pass" for r in ev.limits(hands, seat=1)]
['10♠', 'misère']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prefstats.bidding import MISERE_RANK, NO_BID
from prefstats.cards import N_RANKS, N_SUITS, SUIT_MASK, Rank
from prefstats.misere import SuitClass, class_codes
from prefstats.rules import MAX_LEVEL, MIN_LEVEL, Contract, Strain

N_HOLDINGS = 1 << N_RANKS
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
    """Tricks a player counts in one suit of his hand (RULES.md "Play"; human counting rules).

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


def holdings(hands: np.ndarray) -> np.ndarray:
    """int (n, 4): the 8-bit holding of each hand in each suit."""
    hands = np.asarray(hands, dtype=np.uint32)
    shifts = np.arange(N_SUITS, dtype=np.uint32) * N_RANKS
    return ((hands[:, None] >> shifts) & SUIT_MASK).astype(np.intp)


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


def misere_safe(hands: np.ndarray, seat: int) -> np.ndarray:
    """bool (n,): no catchable suit, and safe from this seat (RULES.md "Misère suit structures").

    A clean misère (no catchable suit, at least one clean suit) cannot be caught; one of
    conditionally clean suits only is safe unless the declarer leads, i.e. unless he is the
    first hand (seat 0), who leads to the first trick.
    """
    classes = class_codes()[holdings(hands)]
    no_catchable = (classes != SuitClass.CATCHABLE).all(axis=1)
    has_clean = (classes == SuitClass.CLEAN).any(axis=1)
    return no_catchable & (has_clean | (seat != 0))


@dataclass(frozen=True)
class HeuristicEvaluator:
    """Human-like bidding: counted tricks + ``talon_bonus`` reach the level bid.

    ``talon_bonus`` is the help a player expects from the two talon cards before he sees them;
    ``strain`` ties go to the lower strain (the cheaper bid).
    """

    talon_bonus: float = 1.0

    def limits(self, hands: np.ndarray, seat: int) -> np.ndarray:
        """int8 (n,): the ladder rank of the highest bid of each hand (NO_BID: pass)."""
        tricks = strain_tricks(hands) + self.talon_bonus
        strain = tricks.argmax(axis=1)
        level = np.floor(tricks.max(axis=1)).astype(np.int64)
        rank = np.where(level >= MIN_LEVEL, _rank_table()[np.clip(level, 0, MAX_LEVEL), strain], -1)
        misere = misere_safe(hands, seat) & (rank < MISERE_RANK)
        return np.where(misere, MISERE_RANK, rank).astype(np.int8)


def _rank_table() -> np.ndarray:
    """int (11, 5): ladder rank of (level, strain), -1 below level 6."""
    table = np.full((MAX_LEVEL + 1, N_SUITS + 1), NO_BID, dtype=np.int64)
    for level in range(MIN_LEVEL, MAX_LEVEL + 1):
        for strain in Strain:
            table[level, strain] = Contract(level, strain).rank
    return table
