"""The declarer's discard (docs/rules.md, "Talon and discard"): which two cards he puts away
after taking the talon, by rule of thumb or by search.

* **Equivalent discards.** The declarer sees only his 12 cards, so the cards of one run of his
  hand (adjacent ranks of one suit) are equivalent for him: every card between them is his own.
  :func:`equivalent_discards` is the one routine that maps each of the 66 discards to its class;
  the solver's kernel lists the same classes (tested against it).
* **Heuristics**, vectorised over deals: every discard is scored by the trick counting of
  :mod:`prefstats.players.counting` (:func:`contract_discards`, which also names the final
  contract, and :func:`strain_discards`) or, on misère, by the shipped catch rates of the kept
  holdings (:func:`misere_discards`).
* **Policies**, one ``DiscardPolicy`` protocol: ``choose(task)`` returns each declarer's
  discard for the contract he named (a :class:`DiscardTask` holds the rows).
  :class:`HeuristicDiscard` keeps the heuristic's discard; :class:`DoubleDummyDiscard` the best
  one knowing the layout (an optimistic bound); :class:`SampledDiscard` the one with the least
  expected loss over layouts he samples before seeing the defenders' cards. ``DISCARDS`` maps
  their names to them.

>>> from prefstats.game.cards import format_hand, parse_hand
>>> from prefstats.game.rules import LADDER, Contract
>>> hand12 = parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7 8 9")
>>> bid = np.array([Contract.parse("6♠").rank])
>>> discard, final = contract_discards(np.array([hand12], np.uint32), bid)
>>> format_hand(int(discard[0])), str(LADDER[final[0]])
('♦7 8', '7♠')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar, Protocol

import numpy as np

from prefstats.checks import positive
from prefstats.game.cards import N_CARDS, N_RANKS, N_SUITS, card_positions, holdings
from prefstats.game.deal import HAND_SIZE, N_PARTS, TALON, TALON_SIZE, Stream, sample_layouts
from prefstats.game.rules import LEVEL_OF_RANK, MAX_LEVEL, RANK_OF, STRAIN_OF_RANK
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.tables import PLAYERS, catch_rate_table
from prefstats.names import lookup
from prefstats.players.counting import STRAIN_PREFERENCE, strain_tricks
from prefstats.solver import makes_many
from prefstats.solver.contracts import best_discards, contract_tricks

HAND12 = HAND_SIZE + TALON_SIZE  # the declarer's cards after taking the talon
PAIRS = np.array(list(combinations(range(HAND12), 2)), dtype=np.intp)  # (66, 2)
TIE_BREAK = 1e-3  # small enough never to outweigh half a counted trick
MISERE_TIE_BREAK = 1e-6  # ...and never a difference in the log chance of escaping a catch
MAX_CATCH_RATE = 0.999  # keeps log(1 - p) finite, so a hopeless hand still orders its discards
MISERE_STRAIN = -1  # STRAIN_OF_RANK of misère
SHORTLIST = 4  # the sampled discard's candidates: the heuristic's best, one per class


def discard_candidates(hands12: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every two-card discard of each 12-card hand: masks uint32 (n, 66), and the sum of the
    two discarded cards' ranks (0..7 each), int (n, 66)."""
    pairs = card_positions(hands12, HAND12)[:, PAIRS]  # (n, 66, 2) card bits
    cards = np.uint32(1) << pairs.astype(np.uint32)
    return cards[..., 0] | cards[..., 1], (pairs % N_RANKS).sum(axis=-1)


def discard_rank_sums(discards: np.ndarray) -> np.ndarray:
    """int: the sum of the ranks (0..7) of the two cards of each two-card discard mask.

    >>> from prefstats.game.cards import parse_hand
    >>> discard_rank_sums(np.array([parse_hand("♠8 ♥A")], np.uint32)).tolist()
    [8]
    """
    discards = np.asarray(discards, dtype=np.uint32)
    low = discards & (~discards + np.uint32(1))
    bits = np.log2(np.stack([low, discards ^ low]).astype(np.float64)).astype(np.intp)
    counts: np.ndarray = (bits % N_RANKS).sum(axis=0)
    return counts


def _kept_tens(
    hands12: np.ndarray, candidates: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The discards (every one if ``candidates`` is None), uint32 (n, k); the ten cards kept
    after each, uint32 (n, k); and the rank sum of each discard, int (n, k)."""
    hands12 = np.asarray(hands12, dtype=np.uint32)
    if candidates is None:
        candidates, rank_sum = discard_candidates(hands12)
    else:
        rank_sum = discard_rank_sums(candidates)
    return candidates, hands12[:, None] & ~candidates, rank_sum


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
    keeps the discard and strain that count most (ties: ``contract_discard_scores``, then
    no-trump over a suit as in ``counting.best_strain``). He names
    the level his count plus ``naming_bonus`` reaches in that strain, but never below his bid
    (docs/rules.md, "Talon and discard": not lower than the winning bid): in a strain below the
    bid's strain
    that means one level more.
    """
    bids = np.asarray(bids, dtype=np.intp)
    candidates, tricks, tie_break = contract_discard_scores(hands12)
    n = len(candidates)
    flat = (n, len(PAIRS) * (N_SUITS + 1))  # explicit: n may be 0
    best = (tricks - tie_break + STRAIN_PREFERENCE).reshape(flat).argmax(axis=1)
    choice, strain = np.divmod(best, N_SUITS + 1)
    counted = tricks.reshape(flat)[np.arange(n), best]
    bid_level, bid_strain = LEVEL_OF_RANK[bids], STRAIN_OF_RANK[bids]
    least = bid_level + (strain < bid_strain)
    level = np.maximum(np.floor(counted + naming_bonus).astype(np.intp), least)
    final = np.where(level <= MAX_LEVEL, RANK_OF[np.minimum(level, MAX_LEVEL), strain], bids)
    return candidates[np.arange(n), choice], final.astype(np.int8)


def strain_discards(hands12: np.ndarray) -> np.ndarray:
    """uint32 (n, 5): the heuristic discard of each 12-card hand for a contract in each strain
    (♠ ♣ ♦ ♥ trumps, no-trump): the discard whose kept ten count most in that strain.

    >>> from prefstats.game.cards import format_hand, parse_hand
    >>> hand12 = np.array([parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7 8 9")], np.uint32)
    >>> format_hand(int(strain_discards(hand12)[0, 0]))  # in spades
    '♦7 8'
    """
    candidates, tricks, tie_break = contract_discard_scores(hands12)
    choice = (tricks - tie_break).argmax(axis=1)  # (n, 5)
    return np.take_along_axis(candidates, choice, axis=1)


def misere_discard_scores(
    hands12: np.ndarray, candidates: np.ndarray | None = None, rates: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every discard of each 12-card hand (or the given ``candidates``), uint32 (n, k), and
    its misère score, float (n, k), higher better (Codex 3.6.6; docs/rules.md, "Misère suit
    classes"): the log of the chance that no kept suit is caught, then, to break ties, more
    clean suits, then higher cards away.

    The chance is the product over the kept suits of 1 − P(caught) from the shipped catch-rate
    table on the defenders' lead (after trick 1 the defenders lead in every seat): ``rates``
    (256,) from :func:`defender_rates`, by default of the players' rates (as-dealt where
    measured, else clean-sides), as if the suits were caught independently;
    ``misere.tables.pair_independence`` measures that product on two catchable suits.
    """
    candidates, kept, rank_sum = _kept_tens(hands12, candidates)
    kept_holdings = holdings(kept.reshape(-1)).reshape(*candidates.shape, N_SUITS)
    rates = _players_defender_rates() if rates is None else np.asarray(rates)
    escape = np.log1p(-rates[kept_holdings]).sum(axis=2)
    clean = (class_codes()[kept_holdings] == SuitClass.CLEAN).sum(axis=2)
    tie_break = MISERE_TIE_BREAK * (clean + rank_sum / (2 * N_RANKS + 1)) / (N_SUITS + 1)
    return candidates, escape + tie_break


# The catchers' possible misère discards (docs/rules.md, "Misère information models"): those
# whose estimated chance that no kept suit is caught (``misere_discard_scores``) is within this
# of the discard he made; for the policy's own (best) discard, the sound discards.
SOUND_TOLERANCE = 0.05


def sound_misere_discards(
    hands12: np.ndarray,
    made: np.ndarray | None = None,
    rates: np.ndarray | None = None,
    tolerance: float = SOUND_TOLERANCE,
) -> np.ndarray:
    """uint32 (n, 66): each 12-card hand's discards that the policy's rating, judging the
    twelve cards before the layout is seen, cannot tell from the one he ``made`` (within
    ``tolerance`` of its estimated chance of no catch, either way), 0 in the other slots; the
    discard made is always among them. With ``made`` None he made the rating's best discard,
    and these are the **sound** discards: within ``tolerance`` of the best.

    >>> from prefstats.game.cards import format_hand, parse_hand
    >>> sound = sound_misere_discards(np.array([parse_hand("♠7 9 J ♣8 A K ♦7 8 9 ♥7 9 10")]))
    >>> [format_hand(int(d)) for d in sound[0] if d]  # keeping ♣A or ♣K is far worse
    ['♣K A']
    >>> clean = sound_misere_discards(np.array([parse_hand("♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9 K A")]))
    >>> int((clean[0] > 0).sum())  # every discard keeping clean suits is as good
    13
    """
    candidates, score = misere_discard_scores(hands12, rates=rates)
    escape = np.exp(score)
    if made is None:
        reference = escape.max(axis=1, keepdims=True)
    else:
        chosen = candidates == np.asarray(made, dtype=np.uint32)[:, None]
        if not chosen.any(axis=1).all():
            raise ValueError("each discard made must be two cards of its hand")
        reference = (escape * chosen).sum(axis=1, keepdims=True)
        escape = np.where(chosen, reference, escape)
    sound = np.abs(escape - reference) <= tolerance
    return np.where(sound, candidates, 0).astype(np.uint32)


def defender_rates(rates: np.ndarray) -> np.ndarray:
    """float (256,): P(caught) by holding on the defenders' lead (the mean of left and right)
    of a table of rates by holding and lead (256, 3), unmeasured as 1, capped below 1."""
    mean = np.asarray(rates)[:, 1:].mean(axis=1)
    capped: np.ndarray = np.minimum(np.nan_to_num(mean, nan=1.0), MAX_CATCH_RATE)
    return capped


@functools.cache
def _players_defender_rates() -> np.ndarray:
    return defender_rates(catch_rate_table(PLAYERS))


def misere_discards(hands12: np.ndarray, rates: np.ndarray | None = None) -> np.ndarray:
    """Heuristic misère discard: the best by ``misere_discard_scores`` (Codex 3.6.6)."""
    candidates, score = misere_discard_scores(hands12, rates=rates)
    best: np.ndarray = candidates[np.arange(len(candidates)), score.argmax(axis=1)]
    return best


def run_ends(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int (n, 32): for each card of each hand, the lowest and the highest card bit of its run,
    the unbroken sequence of the hand's cards in one suit it belongs to (other bits: junk).

    >>> from prefstats.game.cards import parse_hand
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

    >>> from prefstats.game.cards import format_hand, parse_hand
    >>> reps = equivalent_discards(np.array([parse_hand("♠7 8 9 10 J Q K A ♣7 8 9 10")]), False)
    >>> sorted({format_hand(int(m)) for m in reps[0]})
    ['♠7 8', '♠7 ♣7', '♣7 8']
    """
    hands12 = np.asarray(hands12, dtype=np.uint32)
    pairs = card_positions(hands12, HAND12)[:, PAIRS]  # (n, 66, 2), ascending within a pair
    low, high = run_ends(hands12)
    rows = np.arange(len(hands12))[:, None, None]
    misere = np.broadcast_to(np.asarray(misere, dtype=bool), (len(hands12),))[:, None, None]
    ends = np.where(misere, high[rows, pairs], low[rows, pairs])  # (n, 66, 2)
    same = ends[..., 0] == ends[..., 1]
    step = np.where(misere[..., 0], -1, 1)
    second = np.where(same, ends[..., 0] + step, ends[..., 1])
    one = np.uint32(1)
    masks: np.ndarray = (one << ends[..., 0].astype(np.uint32)) | (one << second.astype(np.uint32))
    return masks


def discard_shortlist(hands12: np.ndarray, contracts: np.ndarray, size: int) -> np.ndarray:
    """uint32 (n, size): the ``size`` best discards of each 12-card hand for its contract (a
    ladder rank; misère included) by the heuristic score (``contract_discard_scores`` in the
    contract's strain, ``misere_discard_scores``), one per class of equivalent discards
    (``equivalent_discards``), best first; 0 pads a hand with fewer classes.

    >>> from prefstats.game.cards import format_hand, parse_hand
    >>> from prefstats.game.rules import Contract
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


# --- policies ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiscardTask:
    """What a discard policy decides on, row by row: the deal (``deals`` (n, 4), the hands as
    dealt and the talon), the declarer's seat, the contract he names (a ladder rank), the
    heuristic's discard for it, and where the row's random draws come from: ``stream`` at
    counter ``index[r]``, so a row's choice does not depend on the other rows."""

    deals: np.ndarray
    declarers: np.ndarray
    contracts: np.ndarray
    heuristic: np.ndarray
    stream: Stream
    index: np.ndarray

    @property
    def hands12(self) -> np.ndarray:
        """uint32 (n,): each declarer's twelve cards, his hand and the talon."""
        rows = np.arange(len(self.deals))
        hands: np.ndarray = self.deals[rows, self.declarers] | self.deals[:, TALON]
        return hands


class DiscardPolicy(Protocol):
    """How a declarer chooses his discard: uint32 (n,), two of each row's twelve cards."""

    name: ClassVar[str]

    def choose(self, task: DiscardTask) -> np.ndarray: ...


@dataclass(frozen=True)
class HeuristicDiscard:
    """The rule of thumb: :func:`contract_discards` for a contract, :func:`misere_discards` on
    misère (computed with the contract, and given as ``task.heuristic``)."""

    name: ClassVar[str] = "heuristic"

    def choose(self, task: DiscardTask) -> np.ndarray:
        """The heuristic's discard."""
        return np.asarray(task.heuristic, dtype=np.uint32)


@dataclass(frozen=True)
class DoubleDummyDiscard:
    """The best discard knowing the layout (``solver.best_discard_many``): an upper bound on
    what any discard gives the declarer, since he does not see the defenders' cards."""

    name: ClassVar[str] = "dd"

    def choose(self, task: DiscardTask) -> np.ndarray:
        """The double-dummy best discard of each row."""
        return best_discards(task.deals, task.declarers, task.contracts)[0]


@dataclass(frozen=True)
class SampledDiscard:
    """The discard a declarer chooses before he sees the defenders' cards.

    He knows his 12 cards and ignores what the bidding told him. He draws ``samples`` layouts of
    the other 20 cards and scores his ``candidates`` best discards by the heuristic (one per
    class of equivalent discards, best first; ``None``: every class) by their mean loss on
    them, played double-dummy with the first hand leading; he keeps the least, ties to the
    heuristic's order. Loss: minus the tricks in a contract; on misère the tricks plus one if
    caught, since a made misère scores +10 and a caught one −10 a trick (docs/rules.md,
    "Scoring"), so the least loss is the best expected score. Every candidate meets the same
    layouts (common random numbers). Misère candidates are compared by branch and bound
    (:func:`_misere_losses`), which solves exactly only what can change the choice.
    """

    name: ClassVar[str] = "sampled"
    samples: int = 8
    candidates: int | None = SHORTLIST

    def __post_init__(self) -> None:
        for name in ("samples", "candidates"):
            value = getattr(self, name)
            if value is None and name == "candidates":
                continue
            positive(f"{name} of the sampled discard", value)

    def layouts(self, task: DiscardTask) -> np.ndarray:
        """uint32 (n, samples, 4): the deals the declarer samples, his hand and the talon kept
        (row r's from ``task.stream`` at counter ``task.index[r]``)."""
        deals, declarers = task.deals, np.asarray(task.declarers)
        out = np.empty((len(deals), self.samples, N_PARTS), dtype=np.uint32)
        for seat in np.unique(declarers):
            rows = np.flatnonzero(declarers == seat)
            known = np.zeros((len(rows), N_PARTS), dtype=np.uint32)
            known[:, seat] = deals[rows, seat]
            known[:, TALON] = deals[rows, TALON]
            out[rows] = sample_layouts(known, self.samples, task.stream, task.index[rows])
        return out

    def choose(self, task: DiscardTask) -> np.ndarray:
        """The discard with the least mean loss on the sampled layouts, per row."""
        declarers, contracts = np.asarray(task.declarers, np.intp), np.asarray(task.contracts)
        hands12 = task.hands12
        shortlist = discard_shortlist(hands12, contracts, self.candidates or len(PAIRS))
        layouts = self.layouts(task)
        loss = np.full(shortlist.shape, np.inf)
        misere = STRAIN_OF_RANK[contracts] == MISERE_STRAIN
        for seat in np.unique(declarers[misere]):
            group = np.flatnonzero(misere & (declarers == seat))
            loss[group] = _misere_losses(hands12[group], shortlist[group], layouts[group], seat)
        for c in range(shortlist.shape[1]):
            group = np.flatnonzero(~misere & (shortlist[:, c] != 0))
            trial = layouts[group, :, :TALON].copy()
            kept = hands12[group] & ~shortlist[group, c]
            trial[np.arange(len(group)), :, declarers[group]] = kept[:, None]
            tricks = contract_tricks(
                trial.reshape(-1, TALON),
                np.repeat(declarers[group], self.samples),
                np.repeat(contracts[group], self.samples),
            )
            loss[group, c] = -tricks.reshape(len(group), self.samples).mean(axis=1)
        best: np.ndarray = shortlist[np.arange(len(hands12)), loss.argmin(axis=1)]
        return best


DISCARDS: dict[str, type[DiscardPolicy]] = {
    policy.name: policy for policy in (DoubleDummyDiscard, SampledDiscard, HeuristicDiscard)
}
# The package's realistic policy, the default wherever a user asks about a hand (``misere``,
# ``ev``, ``analyze``): chosen before the layout is seen, with ``SampledDiscard``'s settings.
REALISTIC = SampledDiscard.name
# What users call the policies: the double-dummy best discard by what it is, an upper bound.
UPPER_BOUND = "upper-bound"
USER_NAMES = {
    REALISTIC: REALISTIC,
    HeuristicDiscard.name: HeuristicDiscard.name,
    UPPER_BOUND: DoubleDummyDiscard.name,
}


def discard_policy(name: str) -> type[DiscardPolicy]:
    """The policy class of a name (``upper-bound`` names ``dd``); ValueError listing the known
    ones."""
    return lookup(DISCARDS, USER_NAMES.get(name, name), "discard policy")


def _misere_losses(
    hands12: np.ndarray, shortlist: np.ndarray, layouts: np.ndarray, seat: int
) -> np.ndarray:
    """float (n, k): each candidate's total loss (tricks + 1 if caught) over its hand's layouts,
    exact for the chosen candidate (the least loss, ties to the earliest) and a lower bound
    (or inf) for the others; padding (discard 0) is inf.

    Branch and bound: a caught layout's tricks are known to be >= its level; raising a
    candidate's level asks ``makes_many(level)`` of its unresolved layouts (null-window, cheaper
    than solving). Each round raises, per hand, the open candidate with the lowest (bound,
    order); a candidate is open while that key is below the best exact key of its hand.
    """
    n, k = shortlist.shape
    samples = layouts.shape[1]
    hand_of, choice = np.nonzero(shortlist)
    kept = hands12[hand_of] & ~shortlist[hand_of, choice]
    rows = layouts[hand_of, :, :TALON].copy()
    rows[:, :, seat] = kept[:, None]
    rows = rows.reshape(-1, TALON)
    made = makes_many(rows, 0, misere=True, declarer=seat).reshape(-1, samples)
    lower = (~made).astype(np.int64)  # tricks >= lower; exact where not pending
    pending = ~made
    scale = k + 1  # key = loss * scale + choice: the least loss, ties to the earliest candidate
    while True:
        loss = (lower + (lower > 0)).sum(axis=1)
        exact = ~pending.any(axis=1)
        best = np.full(n, np.iinfo(np.int64).max)
        np.minimum.at(best, hand_of[exact], (loss * scale + choice)[exact])
        index = np.flatnonzero(~exact & (loss * scale + choice < best[hand_of]))
        if not index.size:
            break
        picked = index[_first_by(hand_of[index], loss[index] * scale + choice[index])]
        level = lower[picked].max(axis=1)  # every pending layout of a candidate is at its level
        for target in np.unique(level):
            group = picked[level == target]
            candidate, layout = np.nonzero(pending[group])
            done = makes_many(
                rows[group[candidate] * samples + layout], int(target), misere=True, declarer=seat
            )
            pending[group[candidate[done]], layout[done]] = False
            lower[group[candidate[~done]], layout[~done]] += 1
    out = np.full((n, k), np.inf)
    out[hand_of, choice] = np.where(exact, loss, np.inf)
    return out


def _first_by(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Index of the row with the smallest key in each group."""
    order = np.lexsort((key, group))
    firsts = np.flatnonzero(np.r_[True, group[order][1:] != group[order][:-1]])
    return order[firsts]
