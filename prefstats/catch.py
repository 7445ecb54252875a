"""How often a misère is caught: the full double-dummy solver over layouts.

:mod:`prefstats.misere` classifies holdings in the one-suit game; this module measures with the
solver of :mod:`prefstats.solver` over whole deals. It has two parts.

**Catch rates by holding** (:func:`catch_rate`, :func:`catch_rate_table`) are read from the
shipped table ``data/catch_rates.parquet``, written by :mod:`prefstats.catch_tables` (which
documents how the other suits and the discards are drawn). A lead is named relative to the
declarer: ``"own"`` (he leads to trick 1), ``"left"`` (the defender after him leads; he plays
third), ``"right"`` (the defender before him leads; he plays second), or ``"defenders"`` (the mean
of left and right). A declarer in seat s faces the lead ``relative_lead(s)``, since the first hand
leads (RULES.md "Cards and deal").

**Any misère hand** (:func:`misere_risk`): P(caught), the distribution of the declarer's tricks
and E[tricks] over the unknown talon (unless given) and the unknown layout of the defenders'
hands, for a declarer in any seat, with one of three discard policies:

* ``"dd"``: the best discard knowing the layout (an upper bound for the declarer);
* ``"sampled"``: the discard is chosen once per talon, before the defenders' cards are seen, as
  the one with the least expected loss (P(caught) + E[tricks], see :func:`sampled_discards`)
  over ``choice_n`` sampled layouts; then it is evaluated on fresh layouts (the realistic rule:
  the defenders open after the discard, Codex 3.6.6);
* ``"heuristic"``: :func:`prefstats.declarer.misere_discards`;

or a fixed two-card discard. Play is double-dummy: the defenders see everything, as they nearly
do (they open their hands and know the 12 cards the declarer holds after the talon, Codex 3.6.6,
3.6.8); the declarer also plays knowing the layout, which flatters him a little.

Two cards of the declarer's 12 that are adjacent in rank in one suit are equivalent (every other
card is with the defenders), so discards are compared once per class of equivalent discards.

>>> from prefstats.cards import parse_hand
>>> risk = misere_risk("♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9", seat=1, n=50, seed=1)
>>> risk.p_caught.estimate, risk.counts[0]
(0.0, 50)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from prefstats.cards import N_CARDS, N_RANKS, format_hand, parse_hand
from prefstats.deal import HAND_SIZE, TALON_SIZE, deal_many
from prefstats.declarer import misere_discards
from prefstats.misere import N_HOLDINGS, SuitClass, class_codes, parse_holding
from prefstats.solver import makes_many, solve_many
from prefstats.stats import Estimate, mean_estimate, proportion

Policy = Literal["dd", "sampled", "heuristic"]
POLICIES: tuple[Policy, ...] = ("dd", "sampled", "heuristic")
LEADS = ("own", "left", "right")  # the leader's seat relative to the declarer: 0, 1, 2
N_SEATS = 3
FIRST_HAND = 0  # leads to trick 1, whoever declares
MAX_TRICKS = HAND_SIZE
DEFENDER_CARDS = N_CARDS - HAND_SIZE - TALON_SIZE  # 20
EXHAUSTIVE_LAYOUTS = math.comb(DEFENDER_CARDS, HAND_SIZE)  # 184,756
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
CATCH_RATES = DATA_DIR / "catch_rates.parquet"
CATCH_PAIRS = DATA_DIR / "catch_pairs.parquet"
PAIRS = np.array(list(combinations(range(HAND_SIZE + TALON_SIZE), 2)), dtype=np.intp)  # (66, 2)

UInt32Array = npt.NDArray[np.uint32]
SeedLike = int | np.random.SeedSequence | None


# --- solving ---------------------------------------------------------------------------------


def misere_tricks(hands: np.ndarray, *, declarer: int = 0, leader: int = 0) -> npt.NDArray[np.int8]:
    """The misère declarer's tricks in each row of an (n, 3) array of seat hands.

    A null-window search (``makes_many`` with target 0) settles the clean layouts cheaply; only
    the caught ones are solved exactly.

    >>> hands = np.array([[parse_hand("♠8"), parse_hand("♠7"), parse_hand("♠9")],
    ...                   [parse_hand("♠8"), parse_hand("♠7"), parse_hand("♣9")]], np.uint32)
    >>> misere_tricks(hands, leader=1).tolist()
    [0, 1]
    """
    hands = np.asarray(hands, dtype=np.uint32)
    made = makes_many(hands, 0, misere=True, declarer=declarer, leader=leader)
    tricks = np.zeros(len(hands), dtype=np.int8)
    if not made.all():
        tricks[~made] = solve_many(hands[~made], misere=True, declarer=declarer, leader=leader)
    return tricks


def deal_rest(taken: np.ndarray, sizes: Sequence[int], rng: np.random.Generator) -> UInt32Array:
    """Deal the cards outside each ``taken[i]`` uniformly into parts of ``sizes`` cards.

    Returns uint32 (n, len(sizes)); every split of the free cards is equally likely.

    >>> parts = deal_rest(np.array([(1 << 12) - 1], np.uint32), [10, 10], np.random.default_rng(1))
    >>> [int(p).bit_count() for p in parts[0]], int(parts[0, 0] & parts[0, 1])
    ([10, 10], 0)
    """
    taken = np.asarray(taken, dtype=np.uint32)
    bits = (taken[:, None] >> np.arange(N_CARDS, dtype=np.uint32)) & np.uint32(1)
    keys = rng.random((len(taken), N_CARDS)) + bits  # taken cards sort after every free card
    order = np.argsort(keys, axis=1, kind="stable")[:, : sum(sizes)].astype(np.uint32)
    cards = np.uint32(1) << order
    edges = np.cumsum([0, *sizes])
    parts = [np.bitwise_or.reduce(cards[:, a:b], axis=1) for a, b in pairwise(edges)]
    return np.stack(parts, axis=1).astype(np.uint32)


def seat_rows(kept: np.ndarray, others: np.ndarray, seat: int) -> UInt32Array:
    """(n, 3) seat hands: the declarer's ``kept`` in ``seat``, ``others`` (n, 2) in the other
    seats in seat order."""
    rows = np.empty((len(kept), N_SEATS), dtype=np.uint32)
    rows[:, seat] = kept
    rows[:, [s for s in range(N_SEATS) if s != seat]] = others
    return rows


# --- discards --------------------------------------------------------------------------------


def discard_classes(hands12: np.ndarray) -> tuple[UInt32Array, npt.NDArray[np.bool_]]:
    """Every two-card discard of each 12-card hand, uint32 (n, 66), and a mask (n, 66) keeping
    one discard per class of equivalent discards.

    The declarer's cards in a run (adjacent ranks, one suit) are equivalent, since every card he
    does not hold is with a defender; so only how many cards leave each run matters.

    >>> discards, distinct = discard_classes(np.array([parse_hand(
    ...     "♠7 8 9 10 J Q K A ♣7 8 9 10")], np.uint32))
    >>> int(distinct.sum())  # two runs: 2 from the first, 2 from the second, or 1 from each
    3
    """
    discards, canonical = _discard_table(hands12)
    equal_earlier = canonical[:, :, None] == canonical[:, None, :]
    return discards, ~np.tril(equal_earlier, k=-1).any(axis=2)


def _discard_table(hands12: np.ndarray) -> tuple[UInt32Array, UInt32Array]:
    """All 66 discards of each hand, and each one's canonical twin: the same number of cards
    taken from the top of each run."""
    hands12 = np.asarray(hands12, dtype=np.uint32)
    bits = (hands12[:, None] >> np.arange(N_CARDS, dtype=np.uint32)) & np.uint32(1)
    order = np.argsort(-bits.astype(np.int8), axis=1, kind="stable")
    positions = np.sort(order[:, : HAND_SIZE + TALON_SIZE], axis=1)  # card bits, ascending
    top = positions.copy()  # the highest card of each card's run
    for j in range(positions.shape[1] - 2, -1, -1):
        joined = (positions[:, j + 1] == positions[:, j] + 1) & (positions[:, j + 1] % N_RANKS > 0)
        top[:, j] = np.where(joined, top[:, j + 1], positions[:, j])
    low, high = PAIRS[:, 0], PAIRS[:, 1]
    cards = np.uint32(1) << positions.astype(np.uint32)
    top_low, top_high = top[:, low], top[:, high]
    second = np.where(top_low == top_high, top_high - 1, top_low)  # one run: its top two cards
    canonical = (np.uint32(1) << top_high.astype(np.uint32)) | (
        np.uint32(1) << second.astype(np.uint32)
    )
    return cards[:, low] | cards[:, high], canonical


def dd_discards(
    hands12: np.ndarray, others: np.ndarray, seat: int
) -> tuple[UInt32Array, npt.NDArray[np.int8]]:
    """The best discard of each 12-card hand knowing the layout: (discards, tricks).

    Starts from the heuristic discard; then for targets t = 0, 1, ... asks (null-window, all
    distinct discards of the layouts still open at once) whether any discard keeps the declarer
    to t tricks. Ties keep the heuristic's discard, else the first in card order.

    >>> hand = parse_hand("♠7 9 ♣7 8 9 ♦7 8 9 ♥7 10 K A")
    >>> others = np.array([[parse_hand("♠8 10 J Q K A ♣10 J Q K"), parse_hand(
    ...     "♣A ♦10 J Q K A ♥8 9 J Q")]], np.uint32)
    >>> discard, tricks = dd_discards(np.array([hand], np.uint32), others, seat=2)
    >>> format_hand(int(discard[0])), int(tricks[0])
    ('♥K A', 1)
    """
    hands12 = np.asarray(hands12, dtype=np.uint32)
    best = misere_discards(hands12).astype(np.uint32)
    tricks = misere_tricks(seat_rows(hands12 & ~best, others, seat), declarer=seat)
    discards, distinct = discard_classes(hands12)
    target = 0
    open_rows = np.flatnonzero(tricks > target)
    while open_rows.size:
        row_of, choice = np.nonzero(distinct[open_rows])
        rows = open_rows[row_of]
        kept = hands12[rows] & ~discards[rows, choice]
        made = makes_many(seat_rows(kept, others[rows], seat), target, misere=True, declarer=seat)
        hit = np.zeros(distinct[open_rows].shape, dtype=bool)
        hit[row_of, choice] = made
        found = hit.any(axis=1)
        first = hit.argmax(axis=1)
        won = open_rows[found]
        tricks[won] = target
        best[won] = discards[won, first[found]]
        target += 1
        open_rows = open_rows[~found]
        open_rows = open_rows[tricks[open_rows] > target]
    return best, tricks


def sampled_discards(
    hands12: np.ndarray, seat: int, choice_n: int, rng: np.random.Generator
) -> UInt32Array:
    """For each 12-card hand, the discard with the least expected loss over ``choice_n`` random
    layouts of the other 20 cards (one sample per hand, shared by its candidate discards).

    The loss of a layout is tricks + 1 if caught, else 0: a made misère scores +10 and a caught
    one -10 per trick (RULES.md "Scoring"), so minimising P(caught) + E[tricks] maximises the
    expected score. Ties keep the heuristic's discard, then the one caught least often, then the
    first in card order. Solved by branch and bound (see :func:`_branch_and_bound`).
    """
    hands12 = np.asarray(hands12, dtype=np.uint32)
    n_hands = len(hands12)
    others = deal_rest(np.repeat(hands12, choice_n), [HAND_SIZE, HAND_SIZE], rng)
    others = others.reshape(n_hands, choice_n, 2)
    discards, canonical = _discard_table(hands12)
    distinct = ~np.tril(canonical[:, :, None] == canonical[:, None, :], k=-1).any(axis=2)
    heuristic = misere_discards(hands12).astype(np.uint32)
    heuristic_class = canonical[np.arange(n_hands), (discards == heuristic[:, None]).argmax(axis=1)]
    hand_of, choice = np.nonzero(distinct)
    kept = hands12[hand_of] & ~discards[hand_of, choice]
    rows = seat_rows(np.repeat(kept, choice_n), others[hand_of].reshape(-1, 2), seat)
    made = makes_many(rows, 0, misere=True, declarer=seat).reshape(-1, choice_n)
    caught = (~made).sum(axis=1)
    prefer = canonical[hand_of, choice] == heuristic_class[hand_of]
    loss, exact = _branch_and_bound(rows, made, hand_of, prefer, choice, seat)
    solved = np.flatnonzero(exact)
    keys = (hand_of[solved], loss[solved], ~prefer[solved], caught[solved], choice[solved])
    chosen = solved[_first_by(*keys)]
    result = np.empty(n_hands, dtype=np.uint32)
    result[hand_of[chosen]] = discards[hand_of[chosen], choice[chosen]]
    return result


def _branch_and_bound(
    rows: np.ndarray,
    made: np.ndarray,
    hand_of: np.ndarray,
    prefer: np.ndarray,
    choice: np.ndarray,
    seat: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate's loss over its sample (a lower bound where not ``exact``).

    ``rows`` holds each candidate's ``made.shape[1]`` layouts in turn; ``made`` says which keep
    him to 0 tricks. A caught layout's tricks are known to be >= its level; raising a
    candidate's level asks ``makes_many(level)`` of its unresolved layouts (null-window, cheaper
    than solving). Each round raises, per hand, the open candidate with the lowest bound; a
    candidate is open while its bound is below the best exact loss of its hand (or equal, for
    the heuristic's discard, which wins ties), so the chosen discard is optimal.
    """
    per = made.shape[1]
    lower = (~made).astype(np.int64)  # tricks >= lower; exact where not pending
    pending = ~made
    best = np.full(int(hand_of.max()) + 1 if len(hand_of) else 0, np.iinfo(np.int64).max)
    while True:
        loss = (lower + (lower > 0)).sum(axis=1)
        exact = np.asarray(~pending.any(axis=1))
        np.minimum.at(best, hand_of[exact], loss[exact])
        bound = best[hand_of]
        index = np.flatnonzero(~exact & ((loss < bound) | (prefer & (loss <= bound))))
        if not index.size:
            return loss, exact
        picked = index[_first_by(hand_of[index], loss[index], ~prefer[index], choice[index])]
        level = lower[picked].max(axis=1)  # every pending layout of a candidate is at its level
        for target in np.unique(level):
            group = picked[level == target]
            candidate, layout = np.nonzero(pending[group])
            done = makes_many(
                rows[group[candidate] * per + layout], int(target), misere=True, declarer=seat
            )
            pending[group[candidate[done]], layout[done]] = False
            lower[group[candidate[~done]], layout[~done]] += 1


def _first_by(group: np.ndarray, *keys: np.ndarray) -> np.ndarray:
    """Index of the row with the smallest keys (lexicographic) in each group."""
    order = np.lexsort((*reversed(keys), group))  # the last key passed is the primary one
    firsts = np.flatnonzero(np.r_[True, group[order][1:] != group[order][:-1]])
    return order[firsts]


# --- misère risk of a hand -------------------------------------------------------------------


@dataclass(frozen=True)
class MisereRisk:
    """The misère declarer's result over layouts: counts of layouts by tricks taken, P(caught)
    and E[tricks] with 95% intervals (exact values, zero-width, when ``exhaustive``).

    ``deals`` (n, 5) uint32 holds each layout: seats 0, 1, 2 as played (the declarer's kept ten),
    the talon, and the discard; ``tricks`` the declarer's tricks in it.
    """

    hand: int
    seat: int
    talon: int | None
    policy: str  # "dd", "sampled", "heuristic" or "fixed"
    exhaustive: bool
    seed: int | None  # the entropy behind the layouts, to reproduce them
    counts: tuple[int, ...]  # layouts with 0, 1, ..., 10 tricks
    p_caught: Estimate
    mean_tricks: Estimate
    deals: UInt32Array = field(repr=False, compare=False)
    tricks: npt.NDArray[np.int8] = field(repr=False, compare=False)

    @property
    def n(self) -> int:
        """Number of layouts."""
        return sum(self.counts)

    def distribution(self) -> tuple[Estimate, ...]:
        """P(tricks = k) for k = 0..10, each with its Wilson interval (exact if exhaustive)."""
        return tuple(self._share(count) for count in self.counts)

    def _share(self, count: int) -> Estimate:
        if self.exhaustive:
            p = count / self.n
            return Estimate(p, p, p, self.n, count)
        return proportion(count, self.n)

    def format(self) -> str:
        """A short report: hand, policy, P(caught), E[tricks] and the distribution."""
        talon = format_hand(self.talon) if self.talon is not None else "unknown (drawn per layout)"
        kind = "all layouts" if self.exhaustive else f"random layouts, seed {self.seed}"
        lines = [
            f"hand {format_hand(self.hand)}, seat {self.seat} ({_SEAT_NAMES[self.seat]}), "
            f"talon {talon}",
            f"discard: {_POLICY_TEXT.get(self.policy, self.policy)}; {self.n:,} {kind}",
            f"P(caught)  {self.p_caught}",
            f"E[tricks]  {self.mean_tricks}",
            "tricks  layouts  share [95% CI]",
        ]
        for k, estimate in enumerate(self.distribution()):
            if estimate.count:
                lines.append(
                    f"{k:>6}  {int(estimate.count):>7,}  {estimate.estimate:.4f} "
                    f"[{estimate.low:.4f}, {estimate.high:.4f}]"
                )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


_SEAT_NAMES = ("first hand, leads", "second hand", "third hand")
_POLICY_TEXT = {
    "dd": "best per layout, double-dummy (an upper bound for the declarer)",
    "sampled": "chosen before the layout is seen, from sampled layouts",
    "heuristic": "heuristic rule (prefstats.declarer.misere_discards)",
}


def misere_risk(
    hand: int | str,
    *,
    seat: int = FIRST_HAND,
    talon: int | str | None = None,
    discard: Policy | int | str = "dd",
    n: int = 2000,
    seed: SeedLike = None,
    exhaustive: bool = False,
    choice_n: int = 16,
) -> MisereRisk:
    """P(caught), the trick distribution and E[tricks] of a misère on ``hand`` (10 cards).

    ``seat``: the declarer's seat (0 = first hand, who leads to trick 1). ``talon``: the two
    talon cards if known, else drawn uniformly per layout. ``discard``: a policy (see the module
    docstring) or two cards (a mask or text) from the hand and talon. ``n`` random layouts from
    ``seed``; or ``exhaustive=True``: all 184,756 layouts of the defenders' 20 cards, which needs
    the talon and a discard fixed before the layout ("dd" is not). ``choice_n``: layouts sampled
    to choose each "sampled" discard.

    >>> risk = misere_risk("♠7 8 A ♣7 9 ♦7 8 ♥8 9 10", talon="♠K ♦J", discard="♠K A", n=200,
    ...                    seed=7)
    >>> risk.n, risk.p_caught.low < risk.p_caught.estimate < risk.p_caught.high
    (200, True)
    """
    hand_mask = _checked_cards("hand", hand, HAND_SIZE)
    seat = _checked_seat(seat)
    talon_mask = None if talon is None else _checked_cards("talon", talon, TALON_SIZE)
    if talon_mask is not None and talon_mask & hand_mask:
        raise ValueError(f"talon {format_hand(talon_mask)} overlaps the hand: "
                         f"{format_hand(talon_mask & hand_mask)}")  # fmt: skip
    policy, fixed = _checked_discard(discard, hand_mask, talon_mask)
    _checked_count("choice_n", choice_n, 1)
    if exhaustive:
        _check_exhaustive(talon_mask, policy)
    else:
        _checked_count("n", n, 2)
    entropy, (layout_rng, choice_rng) = _streams(seed)
    fixed_parts = {seat: hand_mask} | ({3: talon_mask} if talon_mask is not None else {})
    if exhaustive:
        assert talon_mask is not None
        deals = all_layouts(hand_mask, talon_mask, seat)
    else:
        deals = deal_many(n, seed=layout_rng, fixed=fixed_parts)
    hands12 = (np.uint32(hand_mask) | deals[:, 3]).astype(np.uint32)
    others = deals[:, [s for s in range(N_SEATS) if s != seat]]
    tricks, discards = _play(hands12, others, seat, policy, fixed, choice_n, choice_rng)
    played = deals.copy()
    played[:, seat] = hands12 & ~discards
    return _result(hand_mask, seat, talon_mask, policy, exhaustive, entropy,
                   np.column_stack([played, discards]), tricks)  # fmt: skip


def _play(
    hands12: UInt32Array,
    others: UInt32Array,
    seat: int,
    policy: str,
    fixed: int,
    choice_n: int,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.int8], UInt32Array]:
    """The declarer's tricks and discard in each layout under the policy."""
    if policy == "dd":
        discards, tricks = dd_discards(hands12, others, seat)
        return tricks, discards
    if policy == "fixed":
        discards = np.full(len(hands12), fixed, dtype=np.uint32)
    elif policy == "heuristic":
        discards = misere_discards(hands12).astype(np.uint32)
    else:  # sampled: one choice per distinct talon, made before the layouts are seen
        distinct, inverse = np.unique(hands12, return_inverse=True)
        discards = sampled_discards(distinct, seat, choice_n, rng)[inverse.reshape(-1)]
    kept = hands12 & ~discards
    return misere_tricks(seat_rows(kept, others, seat), declarer=seat), discards


def _result(
    hand: int,
    seat: int,
    talon: int | None,
    policy: str,
    exhaustive: bool,
    entropy: int | None,
    deals: UInt32Array,
    tricks: npt.NDArray[np.int8],
) -> MisereRisk:
    counts = np.bincount(tricks, minlength=MAX_TRICKS + 1)
    caught = int((tricks > 0).sum())
    if exhaustive:
        p, mean = caught / len(tricks), float(tricks.mean())
        p_caught = Estimate(p, p, p, len(tricks), caught)
        mean_tricks = Estimate(mean, mean, mean, len(tricks), float(tricks.sum()))
    else:
        p_caught, mean_tricks = proportion(caught, len(tricks)), mean_estimate(tricks)
    deals.flags.writeable = False
    tricks.flags.writeable = False
    return MisereRisk(
        hand=hand, seat=seat, talon=talon, policy=policy, exhaustive=exhaustive, seed=entropy,
        counts=tuple(int(c) for c in counts), p_caught=p_caught, mean_tricks=mean_tricks,
        deals=deals, tricks=tricks,
    )  # fmt: skip


def all_layouts(hand: int, talon: int, seat: int) -> UInt32Array:
    """Every split of the 20 other cards between the defenders: (184,756, 4) seat hands + talon;
    the lower defender seat gets each 10-card subset in turn.

    >>> deals = all_layouts(parse_hand("♠7 8 9 10 J Q K A ♣7 8"), parse_hand("♣9 10"), seat=1)
    >>> deals.shape, len(np.unique(deals[:, 0])), format_hand(int(deals[0, 0]))
    ((184756, 4), 184756, '♣J Q K A ♦7 8 9 10 J Q')
    """
    subsets = _ten_of_twenty()
    free = [bit for bit in range(N_CARDS) if not (hand | talon) >> bit & 1]
    first = np.zeros(len(subsets), dtype=np.uint32)
    for j, bit in enumerate(free):
        first |= ((subsets >> np.uint32(j)) & np.uint32(1)) << np.uint32(bit)
    deals = np.empty((len(subsets), 4), dtype=np.uint32)
    defenders = [s for s in range(N_SEATS) if s != seat]
    deals[:, seat], deals[:, 3] = hand, talon
    deals[:, defenders[0]] = first
    deals[:, defenders[1]] = np.uint32(sum(1 << bit for bit in free)) & ~first
    return deals


@functools.cache
def _ten_of_twenty() -> UInt32Array:
    masks = np.arange(1 << DEFENDER_CARDS, dtype=np.uint32)
    subsets = masks[np.bitwise_count(masks) == HAND_SIZE]
    subsets.flags.writeable = False
    return subsets


def _streams(seed: SeedLike) -> tuple[int | None, tuple[np.random.Generator, ...]]:
    """Independent generators for the layouts and for the sampled discard choice, and the
    entropy that reproduces them."""
    if isinstance(seed, np.random.SeedSequence):
        sequence = seed
    elif seed is None or (isinstance(seed, int | np.integer) and not isinstance(seed, bool)):
        sequence = np.random.SeedSequence(None if seed is None else int(seed))
    else:
        raise ValueError(f"seed must be an int, a SeedSequence or None, got {seed!r}")
    entropy = sequence.entropy if isinstance(sequence.entropy, int) else None
    return entropy, tuple(np.random.default_rng(s) for s in sequence.spawn(2))


# --- validation ------------------------------------------------------------------------------


def _checked_cards(name: str, cards: int | np.integer | str, size: int) -> int:
    if isinstance(cards, str):
        try:
            mask = parse_hand(cards)
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
    elif isinstance(cards, bool) or not isinstance(cards, int | np.integer):
        raise ValueError(f"{name} must be a card mask or text, got {cards!r}")
    else:
        mask = int(cards)
        if not 0 <= mask < 1 << N_CARDS:
            raise ValueError(f"{name} must be a 32-bit card mask, got {mask}")
    if mask.bit_count() != size:
        raise ValueError(
            f"{name} must hold {size} cards, got {mask.bit_count()}: {format_hand(mask)}"
        )
    return mask


def _checked_seat(seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < 3:
        raise ValueError(f"seat must be 0, 1 or 2 (first, second, third hand), got {seat!r}")
    return int(seat)


def _checked_discard(discard: object, hand: int, talon: int | None) -> tuple[str, int]:
    """(policy, 0) for a policy name, or ("fixed", mask) for two cards held after the talon."""
    if isinstance(discard, str) and discard in POLICIES:
        return discard, 0
    if not isinstance(discard, str | int | np.integer) or isinstance(discard, bool):
        raise ValueError(f"discard must be a policy name or two cards, got {discard!r}")
    try:
        mask = _checked_cards("discard", discard, TALON_SIZE)
    except ValueError as err:
        if isinstance(discard, str):
            raise ValueError(
                f"discard must be one of {', '.join(POLICIES)} or two cards, got {discard!r}"
            ) from None
        raise err
    held = hand | (talon or 0)
    if mask & ~held:
        where = "hand and talon" if talon is not None else "hand (the talon is unknown)"
        raise ValueError(f"discard {format_hand(mask & ~held)} is not in the {where}")
    return "fixed", mask


def _check_exhaustive(talon: int | None, policy: str) -> None:
    if talon is None:
        raise ValueError("exhaustive=True enumerates the defenders' cards: give the talon")
    if policy == "dd":
        raise ValueError(
            "exhaustive=True needs a discard fixed before the layout (cards, 'heuristic' or "
            "'sampled'); 'dd' would solve every discard of all 184,756 layouts"
        )


def _checked_count(name: str, value: int, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < least:
        raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
    return int(value)


# --- catch-rate tables -----------------------------------------------------------------------


def relative_lead(declarer_seat: int) -> int:
    """Who leads to trick 1, relative to a declarer in ``declarer_seat``: 0 own, 1 left, 2 right.

    >>> [LEADS[relative_lead(seat)] for seat in (0, 1, 2)]
    ['own', 'right', 'left']
    """
    return (FIRST_HAND - _checked_seat(declarer_seat)) % N_SEATS


def load_catch_rates(path: str | Path | None = None) -> pd.DataFrame:
    """The shipped catch-rate table (one row per holding and lead), see ``catch_tables``.

    >>> table = load_catch_rates()
    >>> sorted(set(table["lead"]))
    ['left', 'own', 'right']
    """
    return _read_table(Path(path) if path is not None else CATCH_RATES)


def load_catch_pairs(path: str | Path | None = None) -> pd.DataFrame:
    """The shipped table for pairs of catchable suits of at most three cards each."""
    return _read_table(Path(path) if path is not None else CATCH_PAIRS)


@functools.cache
def _read_table(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise ValueError(f"{path} not found: generate it with `python -m prefstats.catch_tables`")
    return pd.read_parquet(path)


def catch_rate_table(path: str | Path | None = None) -> npt.NDArray[np.float64]:
    """P(caught) by holding (256 rows) and lead (columns own, left, right), read-only.

    Void and clean holdings are exactly 0, conditionally clean holdings 0 on the defenders'
    lead (the one-suit theorem, checked with the solver in the tests); NaN where nothing was
    measured (the eight-card holding on own lead).

    >>> rates = catch_rate_table()
    >>> rates.shape, float(rates[parse_holding("7 8"), 0])
    ((256, 3), 0.0)
    """
    return _rate_table(Path(path) if path is not None else CATCH_RATES)


@functools.cache
def _rate_table(path: Path) -> npt.NDArray[np.float64]:
    table = _read_table(path)
    rates = np.full((N_HOLDINGS, len(LEADS)), np.nan)
    rates[table["holding"].to_numpy(), table["leader"].to_numpy()] = table["p_caught"].to_numpy()
    codes = class_codes()
    rates[(codes == SuitClass.CLEAN) | (codes == SuitClass.VOID)] = 0.0
    rates[codes == SuitClass.CONDITIONALLY_CLEAN, 1:] = 0.0
    rates.flags.writeable = False
    return rates


def catch_pair_table(path: str | Path | None = None) -> npt.NDArray[np.float64]:
    """P(caught) of two catchable suits of at most three cards each, by holdings (256, 256,
    symmetric) and lead (own, left, right); NaN for pairs not in the shipped table. Read-only.

    >>> rates = catch_pair_table()
    >>> a, b = parse_holding("8"), parse_holding("7 10")
    >>> bool(rates[a, b, 1] == rates[b, a, 1] > catch_rate(b, "left"))  # left defender leads
    True
    """
    return _pair_table(Path(path) if path is not None else CATCH_PAIRS)


@functools.cache
def _pair_table(path: Path) -> npt.NDArray[np.float64]:
    table = _read_table(path)
    rates = np.full((N_HOLDINGS, N_HOLDINGS, len(LEADS)), np.nan)
    a, b = table["holding_a"].to_numpy(), table["holding_b"].to_numpy()
    leader, p = table["leader"].to_numpy(), table["p_caught"].to_numpy()
    rates[a, b, leader] = p
    rates[b, a, leader] = p
    rates.flags.writeable = False
    return rates


def pair_independence(
    path: str | Path | None = None, rates_path: str | Path | None = None
) -> pd.DataFrame:
    """The pairs table beside what independent suits would give: one row per pair and lead with
    the measured P(caught) and its Wilson interval, each holding's single-suit rate (``p_a``,
    ``p_b``, from the single-holding table), the independence prediction ``p_independent`` =
    1 − (1 − p_a)(1 − p_b), ``difference`` = measured − predicted, and ``inside``: the
    prediction lies in the interval.

    The same product is what :mod:`prefstats.evaluators` uses for a whole hand, so this table
    measures that approximation on two catchable suits.

    >>> table = pair_independence()
    >>> bool(table["inside"].mean() > 0.8), bool(table["difference"].abs().mean() < 0.05)
    (True, True)
    """
    pairs = load_catch_pairs(path)
    rates = catch_rate_table(rates_path)
    leader = pairs["leader"].to_numpy()
    p_a = rates[pairs["holding_a"].to_numpy(), leader]
    p_b = rates[pairs["holding_b"].to_numpy(), leader]
    predicted = 1.0 - (1.0 - p_a) * (1.0 - p_b)
    columns = ["text_a", "text_b", "n_cards", "lead", "n", "caught", "p_caught", "p_caught_low",
               "p_caught_high"]  # fmt: skip
    table = pairs[columns].assign(p_a=p_a, p_b=p_b, p_independent=predicted)
    return table.assign(
        difference=table["p_caught"] - predicted,
        inside=(table["p_caught_low"] <= predicted) & (predicted <= table["p_caught_high"]),
    )


def catch_rate(holding: int | str, lead: str | int = "own") -> float:
    """P(caught) of a holding (mask or text like ``"7 10"``) from the shipped table.

    ``lead``: ``"own"``, ``"left"``, ``"right"`` (or 0, 1, 2: the leader relative to the
    declarer), or ``"defenders"`` (mean of left and right).

    >>> catch_rate("7 8 9"), 0 < catch_rate("7 10", "defenders") < 1
    (0.0, True)
    """
    mask = parse_holding(holding) if isinstance(holding, str) else int(holding)
    if not 0 <= mask < N_HOLDINGS:
        raise ValueError(f"a suit holding must be an 8-bit mask in 0..255, got {mask}")
    rates = catch_rate_table()[mask]
    if lead == "defenders":
        return float(rates[1:].mean())
    if isinstance(lead, str) and lead in LEADS:
        return float(rates[LEADS.index(lead)])
    if isinstance(lead, int | np.integer) and not isinstance(lead, bool) and 0 <= lead < 3:
        return float(rates[int(lead)])
    raise ValueError(f"lead must be 'own', 'left', 'right', 'defenders' or 0..2, got {lead!r}")


__all__ = [
    "LEADS",
    "POLICIES",
    "MisereRisk",
    "all_layouts",
    "catch_pair_table",
    "catch_rate",
    "catch_rate_table",
    "dd_discards",
    "deal_rest",
    "discard_classes",
    "load_catch_pairs",
    "load_catch_rates",
    "misere_risk",
    "misere_tricks",
    "pair_independence",
    "relative_lead",
    "sampled_discards",
    "seat_rows",
]
