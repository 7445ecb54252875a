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

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from prefstats.bidding import MISERE_RANK, NO_BID
from prefstats.cards import N_RANKS, N_SUITS, SUIT_MASK, Rank
from prefstats.deal import SeedLike
from prefstats.misere import SuitClass, class_codes
from prefstats.rules import MAX_LEVEL, MIN_LEVEL, Contract, Strain

N_HOLDINGS = 1 << N_RANKS
ACE, KING, QUEEN = 1 << Rank.ACE, 1 << Rank.KING, 1 << Rank.QUEEN
TOP_HONOURS = (ACE, KING, QUEEN)
TRUMP, SIDE, NO_TRUMP = 0, 1, 2  # the role a suit plays in a contract
N_SEATS = 3
FIRST_HAND = 0  # leads to the first trick, whoever declares (RULES.md "Cards and deal")


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

    Misère: a hand with no catchable suit that is safe from its seat is always bid
    (``misere_safe``). Other hands are bid when their estimated catch probability
    (``misere_catch_estimate``: the shipped catch rates of its holdings over sampled talons) is
    at most ``misere_risk_limit``; ``None`` bids only the safe ones. The default 0.3 is a
    prudent two thirds of the break-even 1/(1 + m) ≈ 0.43 for m ≈ 1.3 tricks when caught
    (``ev.break_even_catch_probability``). Measured on the 41,968 misères of the 10⁶-deal study
    (seed 1; heuristic discard, the dealt layout solved): hands estimated 0.15-0.2 were caught
    in 22.6% [21.6, 23.6], those estimated 0.25-0.3 in 29.9% [28.6, 31.2].
    """

    talon_bonus: float = 1.0
    misere_risk_limit: float | None = 0.3

    def limits(self, hands: np.ndarray, seat: int) -> np.ndarray:
        """int8 (n,): the ladder rank of the highest bid of each hand (NO_BID: pass)."""
        tricks = strain_tricks(hands) + self.talon_bonus
        strain = tricks.argmax(axis=1)
        level = np.floor(tricks.max(axis=1)).astype(np.int64)
        rank = np.where(level >= MIN_LEVEL, _rank_table()[np.clip(level, 0, MAX_LEVEL), strain], -1)
        misere = misere_safe(hands, seat)
        if self.misere_risk_limit is not None:
            misere |= misere_catch_estimate(hands, seat) <= self.misere_risk_limit
        return np.where(misere & (rank < MISERE_RANK), MISERE_RANK, rank).astype(np.int8)


KEPT_PAIRS = np.array(list(itertools.combinations(range(10), 2)), dtype=np.intp)  # (45, 2)


TALON_SAMPLES = 16  # talons drawn per hand for the misère estimate


def misere_catch_estimate(hands: np.ndarray, seat: int) -> np.ndarray:
    """float (n,): a player's estimate of P(caught) on misère before the talon.

    A hand's suits are looked up in the shipped catch-rate table (``catch.catch_rate_table``:
    each holding with clean suits elsewhere) for the first lead as seen from ``seat`` (the first
    hand leads), as independent suits: P = 1 − Π(1 − p_suit). The talon is unknown: over
    ``TALON_SAMPLES`` sampled talons the player takes it, makes the heuristic misère discard and
    looks his ten cards up; the estimate is the mean. Hands that could not reach a low estimate
    even after throwing away their two worst cards are given that optimistic bound instead.
    """
    from prefstats.declarer import misere_discards, sample_layouts

    hands = np.asarray(hands, dtype=np.uint32)
    rates = _catch_rates(seat)
    estimate = _best_two_dropped(hands, rates)
    todo = np.flatnonzero(estimate <= 0.5)
    if todo.size:
        talons = sample_layouts(hands[todo], TALON_SAMPLES, seed=0)[..., 2]  # (m, samples)
        hands12 = (hands[todo, None] | talons).ravel()
        kept = hands12 & ~misere_discards(hands12)
        risk = _risk(kept, rates).reshape(len(todo), TALON_SAMPLES)
        estimate[todo] = risk.mean(axis=1)
    return estimate


def _catch_rates(seat: int) -> np.ndarray:
    """P(caught) by holding for the first lead as seen from ``seat`` (unmeasured: 1)."""
    from prefstats.catch import catch_rate_table

    return np.nan_to_num(catch_rate_table()[:, (FIRST_HAND - seat) % N_SEATS], nan=1.0)


def _risk(hands: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """1 − Π over suits (1 − p_holding), for each hand."""
    return 1.0 - (1.0 - rates[holdings(hands)]).prod(axis=1)


def _best_two_dropped(hands: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """The least ``_risk`` over the 45 ways to drop two of each hand's ten cards: a bound below
    the estimate with a talon, since the talon's cards can only add risk or be thrown away."""
    bits = (hands[:, None] >> np.arange(32, dtype=np.uint32)) & 1
    positions = np.argsort(-bits.astype(np.int8), axis=1, kind="stable")[:, :10]
    pairs = np.uint32(1) << positions[:, KEPT_PAIRS].astype(np.uint32)
    kept = hands[:, None] & ~(pairs[..., 0] | pairs[..., 1])  # (n, 45)
    return _risk(kept.ravel(), rates).reshape(kept.shape).min(axis=1)


def _rank_table() -> np.ndarray:
    """int (11, 5): ladder rank of (level, strain), -1 below level 6."""
    table = np.full((MAX_LEVEL + 1, N_SUITS + 1), NO_BID, dtype=np.int64)
    for level in range(MIN_LEVEL, MAX_LEVEL + 1):
        for strain in Strain:
            table[level, strain] = Contract(level, strain).rank
    return table


LEVELS = np.arange(MIN_LEVEL, MAX_LEVEL + 1)
SAMPLE_BLOCK = 4096  # sampled rows whose heuristic discards are scored at once (memory)
SAMPLE_BATCHES = 4  # batches of a hand's samples, to drop it once it cannot reach the threshold


@dataclass(frozen=True)
class SampledEvaluator:
    """Single-dummy bidding: the bid a hand makes with probability ``threshold`` on layouts.

    For a hand in a seat, ``samples`` layouts of the other 22 cards (two hands and the talon)
    are drawn uniformly (``declarer.sample_layouts``). On each, for every strain, the hand takes
    the talon, makes the heuristic discard for that strain (``declarer.strain_discards``: the
    declarer's rule, not the double-dummy best discard, which would see the layout) and is
    played double-dummy, the first hand leading (RULES.md "Cards and deal"): the share of
    layouts where it takes at least L tricks estimates P(make L in that strain). Misère
    likewise: the heuristic misère discard (``declarer.misere_discards``), then no trick.

    The hand bids the highest contract of the ladder whose estimate reaches ``threshold``;
    misère instead when its estimate does and that contract is below misère (only a nine
    outranks it, Codex 3.6.4); else it passes. With 16 samples, 0.6 means 10 layouts of 16.
    The default 0.6 is a round figure near the single-contract break-even of Sochi scoring,
    both defenders whisting, where making L exactly is set against going one down (misère: 0.5):

    >>> from prefstats.scoring import contract_net_table
    >>> t = contract_net_table()
    >>> [round(float(-t[L, L - 1] / (t[L, L] - t[L, L - 1])), 2) for L in range(6, 11)]
    [0.84, 0.78, 0.71, 0.65, 0.49]

    It is below the six's because passing is worth less than zero (all-pass, the others'
    contracts) and double-dummy defence is harsher than real defence, and near the ~0.7 make
    rate the ``HeuristicEvaluator``'s talon bonus is calibrated to (``prefstats bench
    calibration``).

    Filters keep the solver off hands that cannot bid. They are heuristic, not proven bounds:
    a strain is estimated only if the hand counts at least ``min_count`` tricks in it before
    the talon (``filter_counts``), misère only if the hand has at most ``max_misere_risk``
    catchable suits (``misere_risk``). On 3,000 random hands a seat, against the unfiltered
    estimate on the same samples, they changed 2 of 9,000 limits while sparing half the strain
    estimates (``tests/test_evaluators.py`` checks 200 hands). Two further cuts are exact: a
    sample is solved at level L only if it took L - 1, and a hand is dropped at L as soon as
    its unsolved samples cannot lift it to the threshold.

    ``limits(hands, seat, seed)``: the same ``seed`` gives the same limits.
    """

    samples: int = 16
    threshold: float = 0.6
    min_count: float = 2.5
    max_misere_risk: float = 3.0

    def __post_init__(self) -> None:
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise ValueError(f"samples must be a positive int, got {self.samples!r}")
        if not 0 < self.threshold <= 1:
            raise ValueError(f"threshold must be in (0, 1], got {self.threshold!r}")

    def limits(self, hands: np.ndarray, seat: int, seed: SeedLike = None) -> np.ndarray:
        """int8 (n,): the ladder rank of the highest bid of each hand (NO_BID: pass)."""
        games, misere = self.probabilities(hands, seat, seed)
        with np.errstate(invalid="ignore"):
            bids = np.where(games >= self.threshold, _rank_table()[LEVELS][None], NO_BID)
            rank = bids.max(axis=(1, 2), initial=NO_BID)
            plays_misere = (misere >= self.threshold) & (rank < MISERE_RANK)
        return np.where(plays_misere, MISERE_RANK, rank).astype(np.int8)

    def probabilities(
        self, hands: np.ndarray, seat: int, seed: SeedLike = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The estimates behind ``limits``: P(make) float (n, 5, 5) by level 6..10 and strain
        (♠ ♣ ♦ ♥ NT), and P(no trick on misère) float (n,). NaN where not estimated: filtered
        out, or known to be below ``threshold`` from a lower level or part of the samples.
        """
        from prefstats.declarer import sample_layouts  # declarer imports this module

        hands = np.asarray(hands, dtype=np.uint32)
        strains = filter_counts(hands) >= self.min_count
        games_todo = np.asarray(strains.any(axis=1))
        misere_todo = misere_risk(hands, seat) <= self.max_misere_risk
        todo = np.flatnonzero(games_todo | misere_todo)
        layouts = sample_layouts(hands[todo], self.samples, seed)  # (m, samples, 3)
        deals = np.empty((*layouts.shape[:2], N_SEATS + 1), dtype=np.uint32)
        deals[..., seat] = hands[todo, None]
        deals[..., (seat + 1) % N_SEATS] = layouts[..., 0]
        deals[..., (seat + 2) % N_SEATS] = layouts[..., 1]
        deals[..., N_SEATS] = layouts[..., 2]
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
        from prefstats.declarer import strain_discards

        flat = deals.reshape(-1, N_SEATS + 1)
        hands12 = flat[:, seat] | flat[:, N_SEATS]
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
        from prefstats.solver import makes_many

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
        from prefstats.declarer import misere_discards
        from prefstats.solver import makes_many

        if not len(deals):
            return np.zeros(0)
        flat = deals.reshape(-1, N_SEATS + 1)
        hands12 = flat[:, seat] | flat[:, N_SEATS]
        hands = np.ascontiguousarray(flat[:, :N_SEATS])
        hands[:, seat] = hands12 & ~_blocked(misere_discards, hands12)
        clean = makes_many(hands, 0, misere=True, declarer=seat, leader=FIRST_HAND)
        return clean.reshape(len(deals), self.samples).mean(axis=1)


def filter_counts(hands: np.ndarray) -> np.ndarray:
    """float (n, 5): ``strain_tricks``, but no-trump counted without the stopper rule (the
    first hand leads and may run a suit before the defenders find the unstopped one); the
    contract filter of ``SampledEvaluator``.

    >>> from prefstats.cards import parse_hand
    >>> filter_counts(np.array([parse_hand("♠A K Q J 10 ♣A K ♦7 8 ♥7")], np.uint32)).tolist()
    [[7.0, 5.0, 5.0, 5.0, 7.0]]
    """
    counts = strain_tricks(hands)
    counts[:, N_SUITS] = _TABLES[NO_TRUMP][holdings(hands)].sum(axis=1)
    return counts


def misere_risk(hands: np.ndarray, seat: int) -> np.ndarray:
    """float (n,): catchable suits of each hand, plus half a conditionally clean suit in the
    first hand, who leads (RULES.md "Misère suit structures"); the misère filter of
    ``SampledEvaluator``.

    >>> from prefstats.cards import parse_hand
    >>> misere_risk(np.array([parse_hand("♠7 9 ♣7 8 ♦7 8 9 ♥7 8 A")], np.uint32), 0).tolist()
    [1.5]
    """
    classes = class_codes()[holdings(hands)]
    catchable = (classes == SuitClass.CATCHABLE).sum(axis=1)
    conditional = (classes == SuitClass.CONDITIONALLY_CLEAN).sum(axis=1)
    return catchable + (0.5 * conditional if seat == FIRST_HAND else 0.0)


def _blocked(function: Callable[[np.ndarray], np.ndarray], rows: np.ndarray) -> np.ndarray:
    """``function(rows)`` computed ``SAMPLE_BLOCK`` rows at a time (bounded memory)."""
    parts = [function(rows[i : i + SAMPLE_BLOCK]) for i in range(0, len(rows), SAMPLE_BLOCK)]
    return np.concatenate(parts) if parts else function(rows[:0])
