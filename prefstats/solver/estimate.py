"""The estimate inside the bracket of misère with the discard hidden (docs/rules.md, "Misère
information models"): a validating wrapper over the kernel of ``_estimate``.

The bracket's low end is ``hidden_discard_tricks`` (what the catchers can force whichever
discard of W the declarer made), its high end open play (they know it). The estimate plays each
layout out card by card with catchers who keep their sure line and otherwise play
perfect-information Monte Carlo:

- S is the set of discards of W still consistent with the public play: a card the declarer
  plays removes the discards holding it, and his failing to follow suit removes those that leave
  him a card of the led suit.
- The catchers (playing as one) never give up what they can force: at each trick start, H is
  the number of tricks they can force from there whichever discard of S he made (the search of
  ``hidden_discard_tricks``), and while H is at least one they consider only the cards that
  keep it.
- Among those they score each legal card c by the discards w of S, a uniform prior
  over S: with the declarer holding his candidate cards C less w (less the cards he has played),
  the number of w for which, after c, they can still force at least one trick from here on
  double-dummy; once he has taken a trick, the sum over w of his double-dummy tricks from here
  on instead. They play the card of the highest score; ties: the higher sum of double-dummy
  tricks over S, then the lowest card.
- The declarer sees everything: he plays the legal card that minimises his double-dummy
  tricks from here on (every card seen, perfect catchers); ties: the lowest card.
- A position in the middle of a trick is valued by finishing the trick by minimax (the
  catchers maximising his tricks, he minimising), each end being the trick (one if he wins it)
  plus the double-dummy value of the next trick start.

The value is the number of tricks he takes in that play. On every layout it lies between
``hidden_discard_tricks`` over W (their sure line keeps what they can force) and the open solve
(his rule keeps his tricks so far plus the double-dummy value of the position from rising,
whatever the catchers play), and equals the open solve when W is his discard alone.

Seats and masks as in ``prefstats.solver``, card bit = 8·suit + rank.

>>> from prefstats.game.cards import parse_hand
>>> import numpy as np
>>> hands = np.array([[parse_hand("♠9 ♥7 8"), parse_hand("♠7"), parse_hand("♠8")]])
>>> made = np.array([parse_hand("♥7 8")])  # ♠9 kept; the catchers lead
>>> int(estimate_tricks_many(hands, made=made, leader=1, discards=made[:, None])[0])  # open
1
"""

from __future__ import annotations

import numpy as np

from prefstats.checks import seat
from prefstats.game.deal import N_SEATS
from prefstats.solver import _checks, _pool
from prefstats.solver._estimate import estimate_batch
from prefstats.solver._hidden import NO_CARD

__all__ = ["estimate_tricks_many"]


def estimate_tricks_many(
    hands: np.ndarray,
    *,
    made: np.ndarray,
    declarer: int = 0,
    leader: int = 0,
    discards: np.ndarray | None = None,
    first: int | None = None,
) -> np.ndarray:
    """The declarer's tricks in the estimate's play (the module's definition) for each row of an
    (n, 3) array of seat hands (the declarer's column his candidate cards), as int8. ``made``:
    each row's actual discard (two of his candidate cards); ``discards``: an (n, m) array of each
    row's possible discards W, 0 in unused slots, holding ``made`` (None: every pair); ``first``:
    a card the declarer, on lead (``leader`` his seat), must lead to the first trick."""
    declarer = seat("declarer", declarer)
    leader = seat("leader", leader)
    array = np.ascontiguousarray(hands, dtype=np.uint32)
    if array.ndim != 2 or array.shape[1] != N_SEATS:
        raise ValueError(f"hands must be an (n, {N_SEATS}) array, got shape {array.shape}")
    made_array = np.ascontiguousarray(made, dtype=np.uint32)
    if made_array.shape != (len(array),):
        raise ValueError(f"made must be an (n,) array, n = {len(array)}")
    if discards is None:
        padded = np.zeros((len(array), 1), dtype=np.uint32)
    else:
        padded = np.ascontiguousarray(discards, dtype=np.uint32)
        if padded.ndim != 2 or len(padded) != len(array):
            raise ValueError(f"discards must be an (n, m) array, n = {len(array)}")
    first_card = NO_CARD
    if first is not None:
        first_card = _checks.card("first", first)
        if leader != declarer:
            raise ValueError("first needs the declarer on lead (leader = declarer)")
    _checks.hidden_rows(array, declarer, padded if discards is not None else None, made_array)
    if first_card != NO_CARD and not ((array[:, declarer] & ~made_array) >> first_card & 1).all():
        raise ValueError(f"first (card {first_card}) is not in every declarer's kept hand")
    pairs, htt = _pool.hidden_tables()
    out = np.zeros(len(array), dtype=np.int8)
    tt = _pool.table_for(array, declarer)
    estimate_batch(array, made_array, padded, declarer, leader, first_card, pairs, htt, tt, out)
    return out
