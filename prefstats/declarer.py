"""The declarer after the auction: talon, discard and final contract (RULES.md "Bidding").

The declarer takes the talon, discards two cards and names a contract not lower than his bid;
on misère he discards two (Codex 3.6.6). The heuristic rules here are vectorised over deals:
every one of the C(12, 2) = 66 discards is scored with the trick counting of ``evaluators``.

>>> from prefstats.cards import format_hand, parse_hand
>>> from prefstats.rules import Contract
>>> hand12 = parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7 8 9")
>>> bid = np.array([Contract.parse("6♠").rank])
>>> discard, final = contract_discards(np.array([hand12], np.uint32), bid)
>>> format_hand(int(discard[0])), str(LADDER[final[0]])
('♦7 8', '7♠')
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from prefstats.cards import N_CARDS, N_RANKS, N_SUITS
from prefstats.evaluators import _rank_table, holdings, strain_tricks
from prefstats.misere import SuitClass, class_codes
from prefstats.rules import LADDER, MAX_LEVEL

HAND12 = 12
PAIRS = np.array(list(combinations(range(HAND12), 2)), dtype=np.intp)  # (66, 2)
TIE_BREAK = 1e-3  # small enough never to outweigh half a counted trick
LEVEL_OF_RANK = np.array([c.level for c in LADDER], dtype=np.intp)
STRAIN_OF_RANK = np.array([-1 if c.strain is None else c.strain for c in LADDER], dtype=np.intp)


def card_positions(hands: np.ndarray, size: int = HAND12) -> np.ndarray:
    """int (n, size): the card bits of each hand, ascending (every hand must hold ``size``)."""
    hands = np.asarray(hands, dtype=np.uint32)
    bits = (hands[:, None] >> np.arange(N_CARDS, dtype=np.uint32)) & 1
    order = np.argsort(-bits.astype(np.int8), axis=1, kind="stable")
    return order[:, :size]


def discard_candidates(hands12: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every two-card discard of each 12-card hand: masks uint32 (n, 66), and the sum of the
    two discarded cards' ranks (0..7 each), int (n, 66)."""
    pairs = card_positions(hands12)[:, PAIRS]  # (n, 66, 2) card bits
    cards = np.uint32(1) << pairs.astype(np.uint32)
    return cards[..., 0] | cards[..., 1], (pairs % N_RANKS).sum(axis=-1)


def contract_discards(
    hands12: np.ndarray, bids: np.ndarray, naming_bonus: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Heuristic discard and final contract for trick-contract declarers.

    Every discard is scored by the counted tricks of the kept ten in every strain; the declarer
    keeps the discard and strain that count most (ties: keep fewer suits, since voids ruff, then
    discard lower cards). He names the level his count plus ``naming_bonus`` reaches in that
    strain, but never below his bid (RULES.md "Bidding": not lower than the winning bid): in a
    strain below the bid's strain that means one level more.
    """
    hands12 = np.asarray(hands12, dtype=np.uint32)
    bids = np.asarray(bids, dtype=np.intp)
    n = len(hands12)
    candidates, rank_sum = discard_candidates(hands12)
    kept = (hands12[:, None] & ~candidates).reshape(-1)
    tricks = strain_tricks(kept).reshape(n, len(PAIRS), N_SUITS + 1)
    suits_kept = (holdings(kept) > 0).sum(axis=1).reshape(n, len(PAIRS), 1)
    tie_break = TIE_BREAK * (suits_kept + rank_sum[..., None] / (2 * N_RANKS + 1)) / (N_SUITS + 1)
    best = (tricks - tie_break).reshape(n, -1).argmax(axis=1)
    choice, strain = np.divmod(best, N_SUITS + 1)
    counted = tricks.reshape(n, -1)[np.arange(n), best]
    bid_level, bid_strain = LEVEL_OF_RANK[bids], STRAIN_OF_RANK[bids]
    least = bid_level + (strain < bid_strain)
    level = np.maximum(np.floor(counted + naming_bonus).astype(np.intp), least)
    final = np.where(level <= MAX_LEVEL, _rank_table()[np.minimum(level, MAX_LEVEL), strain], bids)
    return candidates[np.arange(n), choice], final.astype(np.int8)


def misere_discards(hands12: np.ndarray) -> np.ndarray:
    """Heuristic misère discard: fewest catchable suits, then most clean suits, then the highest
    cards away (RULES.md "Misère suit structures")."""
    hands12 = np.asarray(hands12, dtype=np.uint32)
    n = len(hands12)
    candidates, rank_sum = discard_candidates(hands12)
    kept = (hands12[:, None] & ~candidates).reshape(-1)
    classes = class_codes()[holdings(kept)].reshape(n, len(PAIRS), N_SUITS)
    score = (
        -4.0 * (classes == SuitClass.CATCHABLE).sum(axis=2)
        + 1.0 * (classes == SuitClass.CLEAN).sum(axis=2)
        + rank_sum / (4 * N_RANKS)
    )
    return candidates[np.arange(n), score.argmax(axis=1)]
