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

import functools
from itertools import combinations

import numpy as np

from prefstats.cards import N_CARDS, N_RANKS, N_SUITS
from prefstats.deal import HAND_SIZE, SeedLike, deal_many
from prefstats.evaluators import _rank_table, holdings, strain_tricks
from prefstats.misere import SuitClass, class_codes
from prefstats.rules import LADDER, MAX_LEVEL

HAND12 = 12
RELABEL_BLOCK = 1 << 15  # layouts renamed at once by sample_layouts (~0.5 KB of scratch each)
PAIRS = np.array(list(combinations(range(HAND12), 2)), dtype=np.intp)  # (66, 2)
TIE_BREAK = 1e-3  # small enough never to outweigh half a counted trick
MISERE_TIE_BREAK = 1e-6  # ...and never a difference in the log chance of escaping a catch
MAX_CATCH_RATE = 0.999  # keeps log(1 - p) finite, so a hopeless hand still orders its discards
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


def discard_rank_sums(discards: np.ndarray) -> np.ndarray:
    """int: the sum of the ranks (0..7) of the two cards of each two-card discard mask.

    >>> from prefstats.cards import parse_hand
    >>> discard_rank_sums(np.array([parse_hand("♠8 ♥A")], np.uint32)).tolist()
    [8]
    """
    discards = np.asarray(discards, dtype=np.uint32)
    low = discards & (~discards + np.uint32(1))
    bits = np.log2(np.stack([low, discards ^ low]).astype(np.float64)).astype(np.intp)
    return (bits % N_RANKS).sum(axis=0)


def _kept_tens(
    hands12: np.ndarray, candidates: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The discards (every one if ``candidates`` is None), uint32 (n, k); the ten cards kept
    after each, uint32 (n, k); and the rank sum of each discard, int (n, k)."""
    hands12 = np.asarray(hands12, dtype=np.uint32)
    if candidates is None:
        candidates = discard_candidates(hands12)[0]
    return candidates, hands12[:, None] & ~candidates, discard_rank_sums(candidates)


def contract_discard_scores(
    hands12: np.ndarray, candidates: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every discard of each 12-card hand (or the given two-card ``candidates``), uint32
    (n, k); the counted tricks of the kept ten in each strain, float (n, k, 5)
    (``strain_tricks``); and a tie break to subtract from them, float (n, k, 1), under a
    thousandth of a trick: keep fewer suits (voids ruff), then discard lower cards."""
    candidates, kept, rank_sum = _kept_tens(hands12, candidates)
    n, k = candidates.shape
    kept = kept.reshape(-1)
    tricks = strain_tricks(kept).reshape(n, k, N_SUITS + 1)
    suits_kept = (holdings(kept) > 0).sum(axis=1).reshape(n, k, 1)
    tie_break = TIE_BREAK * (suits_kept + rank_sum[..., None] / (2 * N_RANKS + 1)) / (N_SUITS + 1)
    return candidates, tricks, tie_break


def contract_discards(
    hands12: np.ndarray, bids: np.ndarray, naming_bonus: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Heuristic discard and final contract for trick-contract declarers.

    Every discard is scored by the counted tricks of the kept ten in every strain; the declarer
    keeps the discard and strain that count most (ties: ``contract_discard_scores``). He names
    the level his count plus ``naming_bonus`` reaches in that strain, but never below his bid
    (RULES.md "Bidding": not lower than the winning bid): in a strain below the bid's strain
    that means one level more.
    """
    bids = np.asarray(bids, dtype=np.intp)
    candidates, tricks, tie_break = contract_discard_scores(hands12)
    n = len(candidates)
    flat = (n, len(PAIRS) * (N_SUITS + 1))  # explicit: n may be 0
    best = (tricks - tie_break).reshape(flat).argmax(axis=1)
    choice, strain = np.divmod(best, N_SUITS + 1)
    counted = tricks.reshape(flat)[np.arange(n), best]
    bid_level, bid_strain = LEVEL_OF_RANK[bids], STRAIN_OF_RANK[bids]
    least = bid_level + (strain < bid_strain)
    level = np.maximum(np.floor(counted + naming_bonus).astype(np.intp), least)
    final = np.where(level <= MAX_LEVEL, _rank_table()[np.minimum(level, MAX_LEVEL), strain], bids)
    return candidates[np.arange(n), choice], final.astype(np.int8)


def strain_discards(hands12: np.ndarray) -> np.ndarray:
    """uint32 (n, 5): the heuristic discard of each 12-card hand for a contract in each strain
    (♠ ♣ ♦ ♥ trumps, no-trump): the discard whose kept ten count most in that strain.

    >>> from prefstats.cards import format_hand, parse_hand
    >>> hand12 = np.array([parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7 8 9")], np.uint32)
    >>> format_hand(int(strain_discards(hand12)[0, 0]))  # in spades
    '♦7 8'
    """
    candidates, tricks, tie_break = contract_discard_scores(hands12)
    choice = (tricks - tie_break).argmax(axis=1)  # (n, 5)
    return np.take_along_axis(candidates, choice, axis=1)


def misere_discard_scores(
    hands12: np.ndarray, candidates: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every discard of each 12-card hand (or the given ``candidates``), uint32 (n, k), and
    its misère score, float (n, k), higher better (Codex 3.6.6; RULES.md "Misère suit
    structures"): the log of the chance that no kept suit is caught, then, to break ties, more
    clean suits, then higher cards away.

    The chance is the product over the kept suits of 1 − P(caught) from the shipped catch-rate
    table on the defenders' lead (``catch.catch_rate``: after trick 1 the defenders lead in every
    seat), as if the suits were caught independently; ``catch.pair_independence`` measures that
    product on two catchable suits.
    """
    candidates, kept, rank_sum = _kept_tens(hands12, candidates)
    kept_holdings = holdings(kept.reshape(-1)).reshape(*candidates.shape, N_SUITS)
    escape = np.log1p(-_defender_catch_rates()[kept_holdings]).sum(axis=2)
    clean = (class_codes()[kept_holdings] == SuitClass.CLEAN).sum(axis=2)
    tie_break = MISERE_TIE_BREAK * (clean + rank_sum / (2 * N_RANKS + 1)) / (N_SUITS + 1)
    return candidates, escape + tie_break


@functools.cache
def _defender_catch_rates() -> np.ndarray:
    """P(caught) by holding on the defenders' lead (mean of left and right), capped below 1."""
    from prefstats.catch import catch_rate_table  # catch imports this module

    rates = catch_rate_table()[:, 1:].mean(axis=1)
    return np.minimum(np.nan_to_num(rates, nan=1.0), MAX_CATCH_RATE)


def misere_discards(hands12: np.ndarray) -> np.ndarray:
    """Heuristic misère discard: the best by ``misere_discard_scores`` (Codex 3.6.6)."""
    candidates, score = misere_discard_scores(hands12)
    return candidates[np.arange(len(candidates)), score.argmax(axis=1)]


def run_ends(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int (n, 32): for each card of each hand, the lowest and the highest card bit of its run,
    the unbroken sequence of the hand's cards in one suit it belongs to (other bits: junk).

    >>> from prefstats.cards import parse_hand
    >>> low, high = run_ends(np.array([parse_hand("♠7 8 9 J")], np.uint32))
    >>> low[0, :5].tolist(), high[0, :5].tolist()
    ([0, 0, 0, 3, 4], [2, 2, 2, 3, 4])
    """
    hands = np.asarray(hands, dtype=np.uint32)
    held = ((hands[:, None] >> np.arange(N_CARDS, dtype=np.uint32)) & 1).astype(bool)
    held = held.reshape(-1, N_SUITS, N_RANKS)
    bits = np.arange(N_CARDS).reshape(N_SUITS, N_RANKS)
    low = np.broadcast_to(bits, held.shape).copy()
    high = low.copy()
    for rank in range(1, N_RANKS):
        joined = held[:, :, rank] & held[:, :, rank - 1]
        low[:, :, rank] = np.where(joined, low[:, :, rank - 1], low[:, :, rank])
    for rank in range(N_RANKS - 2, -1, -1):
        joined = held[:, :, rank] & held[:, :, rank + 1]
        high[:, :, rank] = np.where(joined, high[:, :, rank + 1], high[:, :, rank])
    return low.reshape(-1, N_CARDS), high.reshape(-1, N_CARDS)


def equivalent_discards(hands12: np.ndarray, misere: np.ndarray | bool) -> np.ndarray:
    """uint32 (n, 66): each discard of ``discard_candidates`` replaced by the representative of
    its class of equivalent discards.

    The declarer sees only his 12 cards, so cards of one run of his hand are equivalent for him
    (every card between them is his own): discarding any k cards of a run is the same as
    discarding its lowest k, the representative in a contract, or its highest k, the one in
    misère, where the kept low cards are what the suit classes judge.

    >>> from prefstats.cards import format_hand, parse_hand
    >>> reps = equivalent_discards(np.array([parse_hand("♠7 8 9 10 J Q K A ♣7 8 9 10")]), False)
    >>> sorted({format_hand(int(m)) for m in reps[0]})
    ['♠7 8', '♠7 ♣7', '♣7 8']
    """
    hands12 = np.asarray(hands12, dtype=np.uint32)
    pairs = card_positions(hands12)[:, PAIRS]  # (n, 66, 2), ascending within a pair
    low, high = run_ends(hands12)
    rows = np.arange(len(hands12))[:, None, None]
    misere = np.broadcast_to(np.asarray(misere, dtype=bool), (len(hands12),))[:, None, None]
    ends = np.where(misere, high[rows, pairs], low[rows, pairs])  # (n, 66, 2)
    same = ends[..., 0] == ends[..., 1]
    step = np.where(misere[..., 0], -1, 1)
    second = np.where(same, ends[..., 0] + step, ends[..., 1])
    one = np.uint32(1)
    return (one << ends[..., 0].astype(np.uint32)) | (one << second.astype(np.uint32))


def discard_shortlist(hands12: np.ndarray, contracts: np.ndarray, size: int) -> np.ndarray:
    """uint32 (n, size): the ``size`` best discards of each 12-card hand for its contract (a
    ladder rank; misère included) by the heuristic score (``contract_discard_scores`` in the
    contract's strain, ``misere_discard_scores``), one per class of equivalent discards
    (``equivalent_discards``), best first; 0 pads a hand with fewer classes.

    >>> from prefstats.cards import format_hand, parse_hand
    >>> from prefstats.rules import Contract
    >>> hand12 = np.array([parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7 8 9")], np.uint32)
    >>> six = np.array([Contract.parse("6♠").rank])
    >>> [format_hand(int(m)) for m in discard_shortlist(hand12, six, 3)[0]]
    ['♦7 8', '♦7 ♥7', '♥7 8']
    """
    hands12 = np.asarray(hands12, dtype=np.uint32)
    contracts = np.asarray(contracts, dtype=np.intp)
    n = len(hands12)
    misere = STRAIN_OF_RANK[contracts] < 0
    reps = equivalent_discards(hands12, misere)
    score = np.empty(reps.shape)
    games = np.flatnonzero(~misere)
    _, tricks, tie_break = contract_discard_scores(hands12[games], reps[games])
    strain = STRAIN_OF_RANK[contracts[games]]
    score[games] = (tricks - tie_break)[np.arange(len(games)), :, strain]
    score[misere] = misere_discard_scores(hands12[misere], reps[misere])[1]
    order = np.lexsort((reps, -score), axis=1)
    ranked = np.take_along_axis(reps, order, axis=1)
    first = np.ones(ranked.shape, dtype=bool)
    first[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    place = np.cumsum(first, axis=1) - 1
    out = np.zeros((n, size), dtype=np.uint32)
    rows, cols = np.nonzero(first & (place < size))
    out[rows, place[rows, cols]] = ranked[rows, cols]
    return out


def sample_layouts(known: np.ndarray, samples: int, seed: SeedLike = None) -> np.ndarray:
    """uint32 (n, samples, 3): for each hand of ``known`` (all of 10 cards, or all of 12: a
    hand with the talon), ``samples`` uniform random placements of the other cards, as a player
    sees them: two 10-card hands, then the 2-card talon (0 for 12 known cards).

    In distribution this is ``deal_many(samples, fixed={part: hand})`` per hand, in one call:
    ``deal_many`` deals every row around a canonical hand (card bits 0..9, and 10, 11), then
    each row's canonical free cards are renamed to the hand's unknown cards in order, a
    bijection between the layouts, so uniform stays uniform.

    >>> from prefstats.cards import parse_hand
    >>> hand = parse_hand("♠7 8 9 10 J Q K A ♣7 8")
    >>> rows = sample_layouts(np.array([hand], np.uint32), 100, seed=1)[0]
    >>> bool((rows[:, 0] | rows[:, 1] | rows[:, 2] | hand == 2**32 - 1).all())
    True
    >>> np.bitwise_count(rows[0]).tolist()
    [10, 10, 2]
    """
    known = np.asarray(known, dtype=np.uint32)
    sizes = np.unique(np.bitwise_count(known))
    if len(known) and (len(sizes) != 1 or int(sizes[0]) not in (HAND_SIZE, HAND12)):
        raise ValueError(f"known hands must all hold 10 or all 12 cards, got sizes {sizes}")
    size = int(sizes[0]) if len(known) else HAND_SIZE
    fixed = {0: (1 << HAND_SIZE) - 1}
    if size == HAND12:
        fixed[3] = ((1 << HAND12) - 1) ^ fixed[0]
    n = len(known)
    canonical = deal_many(n * samples, seed, fixed=fixed)[:, 1:].reshape(n, samples, 3)
    unknown = card_positions(~known, N_CARDS - size).astype(np.uint32)  # (n, 32 - size)
    free_bits = np.arange(size, N_CARDS, dtype=np.uint32)
    out = np.empty(canonical.shape, dtype=np.uint32)
    step = max(1, RELABEL_BLOCK // samples)
    for start in range(0, n, step):
        bits = (canonical[start : start + step, ..., None] >> free_bits) & np.uint32(1)
        cards = np.uint32(1) << unknown[start : start + step, None, None, :]
        out[start : start + step] = np.bitwise_or.reduce(bits * cards, axis=-1)
    return out
