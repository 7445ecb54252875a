"""Hand evaluators: each gives every seat's highest bid, the limit it bids up to.

Kept apart from the auction (``game.bidding``), which only needs the resulting limits:
evaluators are where the game knowledge and the solver calls live. One protocol,
``Evaluator.limits(deals, stream, index) -> int8 (n, 3)``: the ladder rank of each seat's
highest bid (``NO_BID``: pass); a sampling evaluator draws row r's layouts from ``stream`` at
counter ``index[r]``. ``EVALUATORS`` maps the names to the three kinds:

* ``heuristic`` (:class:`HeuristicEvaluator`): counts tricks as players do
  (:mod:`prefstats.players.counting`), adds the talon's expected help, bids the level its
  total reaches, and bids misère by the shipped catch rates;
* ``sampled`` (:class:`SampledEvaluator`): single-dummy, the bid made on enough sampled
  layouts;
* ``oracle`` (:class:`OracleEvaluator`): the dealt potential, what each seat makes
  double-dummy.

>>> from prefstats.game.cards import parse_hand
>>> from prefstats.game.rules import LADDER
>>> ev = HeuristicEvaluator()
>>> texts = ["♠A K Q J 10 9 ♣A K ♦A ♥A", "♠7 8 9 ♣7 8 9 ♦7 8 ♥7 8"]
>>> hands = np.array([parse_hand(t) for t in texts], dtype=np.uint32)
>>> [str(LADDER[r]) if r >= 0 else "pass" for r in ev.seat_limits(hands, seat=1)]
['10NT', 'misère']
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np

from prefstats.checks import positive
from prefstats.game.cards import N_SUITS, card_positions, holdings
from prefstats.game.deal import (
    FIRST_HAND,
    HAND_SIZE,
    N_PARTS,
    N_SEATS,
    TALON,
    Stream,
    sample_layouts,
)
from prefstats.game.rules import MAX_LEVEL, MIN_LEVEL, MISERE_RANK, NO_BID, RANK_OF, Strain
from prefstats.misere.tables import PLAYERS, catch_rate_table, relative_lead
from prefstats.names import lookup
from prefstats.players.counting import (
    best_strain,
    catchable_suits,
    filter_counts,
    strain_tricks,
    uncatchable_misere,
)
from prefstats.players.discards import misere_discards, strain_discards
from prefstats.solver import makes_many, potential_many

LEVELS = np.arange(MIN_LEVEL, MAX_LEVEL + 1)
TALON_SAMPLES = 16  # talons drawn per hand for the misère estimate
TALON_STREAM = Stream(0)  # their stream: the estimate is a function of the hand and the seat
KEPT_PAIRS = np.array(list(itertools.combinations(range(HAND_SIZE), 2)), dtype=np.intp)  # (45, 2)
SAMPLE_BLOCK = 4096  # sampled rows whose heuristic discards are scored at once (memory)
SAMPLE_BATCHES = 4  # batches of a hand's samples, to drop it once it cannot reach the threshold


class Evaluator(Protocol):
    """Gives every seat's highest bid: int8 (n, 3) ladder ranks (``NO_BID``: pass)."""

    name: ClassVar[str]

    def limits(self, deals: np.ndarray, stream: Stream, index: np.ndarray) -> np.ndarray: ...


class SeatByEvaluator:
    """An evaluator that judges each seat's hand on its own: ``limits`` calls ``seat_limits``
    for each seat, seat s drawing from ``stream.child(s)``."""

    def seat_limits(
        self, hands: np.ndarray, seat: int, stream: Stream | None, index: np.ndarray | None
    ) -> np.ndarray:
        """int8 (n,): the ladder rank of the highest bid of each hand in ``seat``."""
        raise NotImplementedError

    def limits(self, deals: np.ndarray, stream: Stream, index: np.ndarray) -> np.ndarray:
        """int8 (n, 3): each seat's highest bid."""
        deals = np.asarray(deals, dtype=np.uint32)
        columns = [self.seat_limits(deals[:, s], s, stream.child(s), index) for s in range(N_SEATS)]
        return np.stack(columns, axis=1).astype(np.int8)


@dataclass(frozen=True)
class HeuristicEvaluator(SeatByEvaluator):
    """Human-like bidding: counted tricks + ``talon_bonus`` reach the level bid.

    ``talon_bonus`` is the help a player expects from the two talon cards before he sees them
    (its calibration: ``prefstats bench calibration``); the strain is ``counting.best_strain``
    (no-trump when it counts as much as the best suit).

    Misère: a hand with no catchable suit that is safe from its seat is always bid
    (``counting.uncatchable_misere``). Other hands are bid when their estimated catch probability
    (:func:`misere_catch_estimate`: the shipped catch rates of its holdings over sampled
    talons) is at most ``misere_risk_limit``; ``None`` bids only the safe ones. The default 0.3
    is a prudent fraction of the risk-neutral break-even (``players.sharing``); how the
    estimate is calibrated against the catches of a run is in the report.
    """

    name: ClassVar[str] = "heuristic"
    talon_bonus: float = 1.0
    misere_risk_limit: float | None = 0.3

    def __post_init__(self) -> None:
        limit = self.misere_risk_limit
        if limit is not None and not 0.0 <= limit <= 1.0:
            raise ValueError(f"misere_risk_limit must be in [0, 1] or None, got {limit!r}")

    def seat_limits(
        self,
        hands: np.ndarray,
        seat: int,
        stream: Stream | None = None,
        index: np.ndarray | None = None,
    ) -> np.ndarray:
        """int8 (n,): the ladder rank of the highest bid of each hand in ``seat`` (no randomness:
        ``stream`` is not read)."""
        hands = np.asarray(hands, dtype=np.uint32)
        tricks = strain_tricks(hands) + self.talon_bonus
        strain = best_strain(tricks)
        level = np.floor(tricks.max(axis=1)).astype(np.int64)
        rank = np.where(level >= MIN_LEVEL, RANK_OF[np.clip(level, 0, MAX_LEVEL), strain], NO_BID)
        misere = uncatchable_misere(hands, seat)
        if self.misere_risk_limit is not None:
            misere |= misere_catch_estimate(hands, seat) <= self.misere_risk_limit
        return np.where(misere & (rank < MISERE_RANK), MISERE_RANK, rank).astype(np.int8)


def misere_catch_estimate(hands: np.ndarray, seat: int) -> np.ndarray:
    """float (n,): a player's estimate of P(caught) on misère before the talon.

    A hand's suits are looked up in the players' catch rates (``misere.tables``: as-dealt where
    measured, else clean-sides) for the first lead as seen from ``seat`` (the first hand leads),
    as independent suits: P = 1 − Π(1 − p_suit). The talon is unknown: over
    ``TALON_SAMPLES`` sampled talons the player takes it, makes the heuristic misère discard and
    looks his ten cards up; the estimate is the mean. Hands that could not reach a low estimate
    even after throwing away their two worst cards are given that optimistic bound instead.
    """
    hands = np.asarray(hands, dtype=np.uint32)
    rates = _catch_rates(seat)
    estimate = _best_two_dropped(hands, rates)
    todo = np.flatnonzero(estimate <= 0.5)
    if todo.size:
        known = np.zeros((len(todo), N_PARTS), dtype=np.uint32)
        known[:, 0] = hands[todo]
        talons = sample_layouts(known, TALON_SAMPLES, TALON_STREAM, index=hands[todo])[..., TALON]
        hands12 = (hands[todo, None] | talons).ravel()
        kept = hands12 & ~misere_discards(hands12)
        risk = _risk(kept, rates).reshape(len(todo), TALON_SAMPLES)
        estimate[todo] = risk.mean(axis=1)
    return estimate


def _catch_rates(seat: int) -> np.ndarray:
    """The players' P(caught) by holding for the first lead as seen from ``seat`` (as-dealt
    where measured, else clean-sides; unmeasured: 1)."""
    return np.nan_to_num(catch_rate_table(PLAYERS)[:, relative_lead(seat)], nan=1.0)


def _risk(hands: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """1 − Π over suits (1 − p_holding), for each hand."""
    risk: np.ndarray = 1.0 - (1.0 - rates[holdings(hands)]).prod(axis=1)
    return risk


def _best_two_dropped(hands: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """The least ``_risk`` over the 45 ways to drop two of each hand's ten cards: a bound below
    the estimate with a talon, since the talon's cards can only add risk or be thrown away."""
    positions = card_positions(hands, HAND_SIZE)
    pairs = np.uint32(1) << positions[:, KEPT_PAIRS].astype(np.uint32)
    kept = hands[:, None] & ~(pairs[..., 0] | pairs[..., 1])  # (n, 45)
    risk: np.ndarray = _risk(kept.ravel(), rates).reshape(kept.shape).min(axis=1)
    return risk


@dataclass(frozen=True)
class SampledEvaluator(SeatByEvaluator):
    """Single-dummy bidding: the bid a hand makes with probability ``threshold`` on layouts.

    For a hand in a seat, ``samples`` layouts of the other 22 cards (two hands and the talon)
    are drawn uniformly (``game.deal.sample_layouts``). On each, for every strain, the hand
    takes the talon, makes the heuristic discard for that strain (``discards.strain_discards``:
    the declarer's rule, not the double-dummy best discard, which would see the layout) and is
    played double-dummy, the first hand leading (docs/rules.md, "Cards and deal"): the share of
    layouts where it takes at least L tricks estimates P(make L in that strain). Misère
    likewise: the heuristic misère discard (``discards.misere_discards``), then no trick.

    The hand bids the highest contract of the ladder whose estimate reaches ``threshold``;
    misère instead when its estimate does and that contract is below misère (only a nine
    outranks it, Codex 3.6.4); else it passes. With 16 samples, 0.6 means 10 layouts of 16.
    The default 0.6 is a round figure near the single-contract break-even of Sochi scoring,
    both defenders whisting, where making L exactly is set against going one down (misère: 0.5):

    >>> from prefstats.game.scoring import contract_net_table
    >>> t = contract_net_table()
    >>> [round(float(-t[L, L - 1] / (t[L, L] - t[L, L - 1])), 2) for L in range(6, 11)]
    [0.84, 0.78, 0.71, 0.65, 0.49]

    It is below the six's because passing is worth less than zero (all-pass, the others'
    contracts) and double-dummy defence is harsher than real defence, and near the ~0.7 make
    rate the ``HeuristicEvaluator``'s talon bonus is calibrated to (``prefstats bench
    calibration``).

    Filters keep the solver off hands that cannot bid. They are heuristic, not proven bounds:
    a strain is estimated only if the hand counts at least ``min_count`` tricks in it before
    the talon (``counting.filter_counts``), misère only if the hand has at most
    ``max_misere_risk`` catchable suits (``counting.catchable_suits``); the tests check, on 200
    hands, that they change at most 1% of the limits against the unfiltered estimate on the same
    samples while sparing over 40% of the strain estimates. Two further cuts are exact: a
    sample is solved at level L only if it took L - 1, and a hand is dropped at L as soon as
    its unsolved samples cannot lift it to the threshold.

    Row r's samples come from ``stream`` at counter ``index[r]``: the same stream and index give
    the same limits, whatever the other rows.
    """

    name: ClassVar[str] = "sampled"
    samples: int = 16
    threshold: float = 0.6
    min_count: float = 2.5
    max_misere_risk: float = 3.0

    def __post_init__(self) -> None:
        positive("samples", self.samples)
        if not 0 < self.threshold <= 1:
            raise ValueError(f"threshold must be in (0, 1], got {self.threshold!r}")

    def seat_limits(
        self,
        hands: np.ndarray,
        seat: int,
        stream: Stream | None = None,
        index: np.ndarray | None = None,
    ) -> np.ndarray:
        """int8 (n,): the ladder rank of the highest bid of each hand in ``seat``."""
        games, misere = self.probabilities(hands, seat, stream, index)
        with np.errstate(invalid="ignore"):
            bids = np.where(games >= self.threshold, RANK_OF[LEVELS][None], NO_BID)
            rank = bids.max(axis=(1, 2), initial=NO_BID)
            plays_misere = (misere >= self.threshold) & (rank < MISERE_RANK)
        return np.where(plays_misere, MISERE_RANK, rank).astype(np.int8)

    def probabilities(
        self,
        hands: np.ndarray,
        seat: int,
        stream: Stream | None = None,
        index: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The estimates behind ``limits``: P(make) float (n, 5, 5) by level 6..10 and strain
        (♠ ♣ ♦ ♥ NT), and P(no trick on misère) float (n,). NaN where not estimated: filtered
        out, or known to be below ``threshold`` from a lower level or part of the samples.
        ``stream`` defaults to fresh entropy, ``index`` to the row numbers.
        """
        hands = np.asarray(hands, dtype=np.uint32)
        index = np.arange(len(hands)) if index is None else np.asarray(index)
        strains = filter_counts(hands) >= self.min_count
        games_todo = np.asarray(strains.any(axis=1))
        misere_todo = catchable_suits(hands, seat) <= self.max_misere_risk
        todo = np.flatnonzero(games_todo | misere_todo)
        known = np.zeros((len(todo), N_PARTS), dtype=np.uint32)
        known[:, seat] = hands[todo]
        deals = sample_layouts(known, self.samples, Stream.of(stream), index[todo])
        games = np.full((len(hands), len(LEVELS), N_SUITS + 1), np.nan)
        misere = np.full(len(hands), np.nan)
        pick = games_todo[todo]
        games[todo[pick]] = self._contract_rates(deals[pick], seat, strains[todo[pick]])
        pick = misere_todo[todo]
        misere[todo[pick]] = self._misere_rates(deals[pick], seat)
        return games, misere

    def _contract_rates(self, deals: np.ndarray, seat: int, strains: np.ndarray) -> np.ndarray:
        """P(make) (m, 5, 5) of the hand in ``seat`` over its sampled deals (m, samples, 4), for
        the strains marked in ``strains`` bool (m, 5); NaN elsewhere and where it is below
        ``threshold`` at a lower level."""
        flat = deals.reshape(-1, N_PARTS)
        hands12 = flat[:, seat] | flat[:, TALON]
        discards = _blocked(strain_discards, hands12)  # (m * samples, 5)
        rates = np.full((len(deals), len(LEVELS), N_SUITS + 1), np.nan)
        for strain in Strain:
            hands = np.ascontiguousarray(flat[:, :N_SEATS])
            hands[:, seat] = hands12 & ~discards[:, strain]
            rates[:, :, strain] = self._level_rates(hands, seat, strain, strains[:, strain])
        return rates

    def _level_rates(
        self, hands: np.ndarray, seat: int, strain: Strain, live: np.ndarray
    ) -> np.ndarray:
        """P(take >= L) (m, 5) for L = 6..10 over each hand's samples (rows of ``hands``,
        samples consecutive) for the ``live`` hands, solved ``SAMPLE_BATCHES`` batches of
        samples at a time; NaN where a hand is known to be below ``threshold`` (the exact cuts
        of the class docstring) before all its samples are solved."""
        trump = int(strain) if strain < N_SUITS else None
        need = self.threshold * self.samples
        edges = np.unique(np.linspace(0, self.samples, SAMPLE_BATCHES + 1).astype(int))
        rates = np.full((len(live), len(LEVELS)), np.nan)
        made = np.ones((len(live), self.samples), dtype=bool)  # took L - 1
        live = live.copy()
        for i, level in enumerate(LEVELS):
            makes = np.zeros_like(made)
            for start, stop in itertools.pairwise(edges):
                rows = np.zeros_like(made)
                rows[:, start:stop] = made[:, start:stop] & live[:, None]
                index = np.flatnonzero(rows)
                if index.size:
                    makes.flat[index] = makes_many(
                        hands[index], int(level), trump=trump, declarer=seat, leader=FIRST_HAND
                    )
                if stop < self.samples:  # the rest can make at most what took L - 1
                    live &= makes.sum(axis=1) + made[:, stop:].sum(axis=1) >= need
            rates[live, i] = makes[live].mean(axis=1)
            live &= makes.sum(axis=1) >= need
            made = makes
        return rates

    def _misere_rates(self, deals: np.ndarray, seat: int) -> np.ndarray:
        """P(no trick on misère) (m,) of the hand in ``seat`` over its sampled deals."""
        if not len(deals):
            return np.zeros(0)
        flat = deals.reshape(-1, N_PARTS)
        hands12 = flat[:, seat] | flat[:, TALON]
        hands = np.ascontiguousarray(flat[:, :N_SEATS])
        hands[:, seat] = hands12 & ~_blocked(misere_discards, hands12)
        clean = makes_many(hands, 0, misere=True, declarer=seat, leader=FIRST_HAND)
        rates: np.ndarray = clean.reshape(len(deals), self.samples).mean(axis=1)
        return rates


@dataclass(frozen=True)
class OracleEvaluator:
    """Bids the dealt potential (``solver.potential_many``): the highest contract each seat makes
    double-dummy with the talon and its best discard, or misère when it takes no trick that way
    and no nine is makeable (only a nine outranks misère, Codex 3.6.4). An upper bound on what
    any bidder can know."""

    name: ClassVar[str] = "oracle"

    def limits(self, deals: np.ndarray, stream: Stream, index: np.ndarray) -> np.ndarray:
        """int8 (n, 3): each seat's potential, or misère (no randomness)."""
        best, clean = potential_many(np.ascontiguousarray(deals, dtype=np.uint32))
        return np.where(clean & (best < MISERE_RANK), MISERE_RANK, best).astype(np.int8)


EVALUATORS: dict[str, type[Evaluator]] = {
    kind.name: kind for kind in (HeuristicEvaluator, SampledEvaluator, OracleEvaluator)
}


def evaluator_kind(name: str) -> type[Evaluator]:
    """The evaluator class of a name; ValueError listing the known ones."""
    return lookup(EVALUATORS, name, "evaluator")


def _blocked(function: Callable[[np.ndarray], np.ndarray], rows: np.ndarray) -> np.ndarray:
    """``function(rows)`` computed ``SAMPLE_BLOCK`` rows at a time (bounded memory)."""
    parts = [function(rows[i : i + SAMPLE_BLOCK]) for i in range(0, len(rows), SAMPLE_BLOCK)]
    return np.concatenate(parts) if parts else function(rows[:0])
