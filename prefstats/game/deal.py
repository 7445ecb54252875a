"""Deals, seats and the one sampler of card layouts (docs/rules.md, "Cards and deal").

A deal is three 10-card hands in seat order and the 2-card talon. Seats are named from the
dealer: the first hand (left of the dealer) bids first and leads to the first trick, whoever
declares; then the second and the third hand.

The sampler
-----------
Every random layout of the package comes from :func:`deal_many` (and its view
:func:`sample_layouts`): cards given in ``fixed`` stay where they are, the others are dealt
uniformly into the places left. Each deal is one uniform rank among all possible layouts,
unranked exactly by the combinatorial number system in a numba kernel. The rank of deal ``i``
comes from a counter-based generator, Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel
random numbers: as easy as 1, 2, 3", SC 2011), at the counter ``(i, lane, attempt)`` under the
key of the stream (docs/design.md, "Random streams"): deal ``i`` of a seed is the same deal
however many deals are drawn before or with it, so a run's deals do not depend on its chunk
size, its workers or its backend. A 64-bit word is accepted when it lies below the largest
multiple of the number of layouts that fits in 2^64 (rejection sampling, so every layout is
exactly equally likely) and the next word is tried otherwise.

>>> deals = deal_many(3, seed=1)
>>> deals.shape, deals.dtype
((3, 4), dtype('uint32'))
>>> bool((deal_many(2, seed=1, start=1) == deals[1:]).all())   # deal i is deal i
True
>>> d = Deal.from_row(deals[0])
>>> Deal.parse(str(d)) == d
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb

import numba as nb
import numpy as np

from prefstats.checks import integer, is_int, positive
from prefstats.game.cards import (
    FULL_DECK,
    N_CARDS,
    RED_SUITS,
    SUIT_SYMBOLS,
    Style,
    display_style,
    format_card,
    format_hand,
    format_holding,
    holding,
    parse_hand,
)
from prefstats.kernels import leading_zeros, njit

SEAT_NAMES = ("first hand", "second hand", "third hand")
PART_NAMES = (*SEAT_NAMES, "talon")
PART_SIZES = (10, 10, 10, 2)
HAND_SIZE = 10
TALON_SIZE = 2
N_SEATS = len(SEAT_NAMES)
N_PARTS = len(PART_SIZES)
TALON = N_SEATS  # the talon's part index in a deal row
FIRST_HAND = 0  # bids first and leads to the first trick, whoever declares
DEFENDER_CARDS = N_CARDS - HAND_SIZE - TALON_SIZE  # 20: the cards a declarer does not see

SeedLike = int | tuple[int, ...] | np.random.SeedSequence | None


def parse_parts(text: str, names: Sequence[str]) -> list[int]:
    """Hands separated by ``|``, one for each of ``names``, each in any notation of
    ``parse_hand``; an error names the part. Whether they overlap is not checked here.

    >>> [format_hand(m) for m in parse_parts("♠A K | ♥7", ("first hand", "second hand"))]
    ['♠K A', '♥7']
    """
    fields = text.split("|")
    if len(fields) != len(names):
        raise ValueError(f"expected {len(names)} parts separated by '|', got {len(fields)}")
    masks = []
    for name, field in zip(names, fields, strict=True):
        try:
            masks.append(parse_hand(field))
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
    return masks


@dataclass(frozen=True)
class Deal:
    """One deal: the three hands in seat order and the talon, as card masks.

    >>> d = Deal.parse("♠7 8 9 10 J Q K A ♣7 8 | ♣9 10 J Q K A ♦7 8 9 10 | "
    ...                "♦J Q K A ♥7 8 9 10 J Q | ♥K A")
    >>> d.first == (1 << 10) - 1, format_hand(d.talon)
    (True, '♥K A')
    """

    first: int
    second: int
    third: int
    talon: int

    def __post_init__(self) -> None:
        check_parts(self.parts)

    @property
    def parts(self) -> tuple[int, int, int, int]:
        """(first, second, third, talon)."""
        return (self.first, self.second, self.third, self.talon)

    @property
    def hands(self) -> tuple[int, int, int]:
        """The three hands in seat order."""
        return (self.first, self.second, self.third)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Parse ``"first | second | third | talon"`` (each in any notation of ``parse_hand``)."""
        if text.count("|") != N_PARTS - 1:
            parts = text.count("|") + 1
            raise ValueError(f"a deal needs 4 parts separated by '|', got {parts}: {text!r}")
        return cls(*parse_parts(text, PART_NAMES))

    @classmethod
    def from_row(cls, row: Sequence[int] | np.ndarray) -> Deal:
        """A Deal from one row of ``deal_many``."""
        return cls(*(int(x) for x in row))

    def format(self, style: Style | None = None) -> str:
        """The deal as ``"first | second | third | talon"`` (default notation:
        ``cards.display_style``)."""
        return " | ".join(format_hand(part, style or display_style()) for part in self.parts)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Deal.parse({self.format()!r})"

    def _repr_html_(self) -> str:
        """The three hands around the table, the talon in the middle, ♦ ♥ in red."""
        style = display_style()
        cell = "style='padding:0.3em 1em;vertical-align:top;text-align:left;border:none'"

        def hand(name: str, mask: int) -> str:
            lines = [f"<b>{name}</b>"]
            for suit, symbol in enumerate(SUIT_SYMBOLS):
                colour = "#c00" if suit in RED_SUITS else "#000"
                ranks = format_holding(holding(mask, suit), style)
                lines.append(f"<span style='color:{colour}'>{symbol}</span> {ranks}")
            return f"<td {cell}>{'<br>'.join(lines)}</td>"

        empty = f"<td {cell}></td>"
        top = f"<tr>{empty}{hand(SEAT_NAMES[1], self.second)}{empty}</tr>"
        middle = (
            f"<tr>{hand(SEAT_NAMES[0], self.first)}{hand('talon', self.talon)}"
            f"{hand(SEAT_NAMES[2], self.third)}</tr>"
        )
        return f"<table style='border:none'>{top}{middle}</table>"


def check_parts(parts: Sequence[int], sizes: Sequence[int] = PART_SIZES) -> None:
    """Raise ValueError unless the parts are disjoint 32-bit masks of the given sizes."""
    seen = 0
    for name, part, size in zip(PART_NAMES, parts, sizes, strict=True):
        part = int(part)
        if not 0 <= part <= FULL_DECK:
            raise ValueError(f"{name}: not a 32-bit card mask: {part}")
        if part.bit_count() != size:
            raise ValueError(
                f"{name} has {part.bit_count()} cards, needs {size}: {format_hand(part)}"
            )
        if part & seen:
            cards = " ".join(_card_names(part & seen))
            raise ValueError(f"{name} repeats card(s) dealt elsewhere: {cards}")
        seen |= part


# --- random streams ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Stream:
    """A counter-based random stream: a seed (``entropy``) and the ``path`` of a sub-stream.

    Its key is the first two 32-bit words of ``SeedSequence(entropy, spawn_key=path)``; draws
    are addressed by counter, never consumed, so a stream can be read in any order.

    >>> Stream.of(7).child(2, 0)
    Stream(entropy=7, path=(2, 0))
    >>> Stream.of((7, 2)) == Stream.of(7).child(2)
    True
    """

    entropy: int
    path: tuple[int, ...] = ()

    @classmethod
    def of(cls, seed: SeedLike | Stream) -> Stream:
        """The stream of a seed: an int, a tuple ``(seed, k1, k2, ...)`` naming a sub-stream,
        a ``SeedSequence``, a Stream, or None (fresh entropy from the operating system)."""
        if isinstance(seed, Stream):
            return seed
        if seed is None:
            return cls(int(np.random.SeedSequence().entropy))  # type: ignore[arg-type]
        if isinstance(seed, np.random.SeedSequence) and isinstance(seed.entropy, int):
            return cls(seed.entropy, tuple(int(k) for k in seed.spawn_key))
        parts: tuple[object, ...] = seed if isinstance(seed, tuple) else (seed,)
        values = [int(p) for p in parts if is_int(p) and p >= 0]
        if not values or len(values) != len(parts):
            raise ValueError(
                f"seed must be a non-negative int, a tuple of them, a SeedSequence or None, "
                f"got {seed!r}"
            )
        return cls(values[0], tuple(values[1:]))

    def child(self, *keys: int) -> Stream:
        """The sub-stream ``keys`` of this stream."""
        return Stream(self.entropy, (*self.path, *(int(k) for k in keys)))

    @property
    def key(self) -> np.ndarray:
        """The Philox key: uint32 (2,)."""
        sequence = np.random.SeedSequence(self.entropy, spawn_key=self.path)
        return sequence.generate_state(2, np.uint32)


def philox4x32(counter: Sequence[int], key: Sequence[int]) -> tuple[int, int, int, int]:
    """One block of Philox4x32-10: four 32-bit words from a 4-word counter and a 2-word key.

    >>> [f"{w:08x}" for w in philox4x32((0, 0, 0, 0), (0, 0))]   # Random123's known answer
    ['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
    """
    words = [*counter, *key]
    if len(counter) != 4 or len(key) != 2 or not all(0 <= int(w) < 1 << 32 for w in words):
        raise ValueError("philox4x32 takes four 32-bit counter words and two 32-bit key words")
    block = _philox4x32(*(np.uint64(int(w)) for w in words))
    return (int(block[0]), int(block[1]), int(block[2]), int(block[3]))


# --- dealing ------------------------------------------------------------------------------------


def deal_many(
    n: int,
    seed: SeedLike | Stream = None,
    fixed: Mapping[int, int] | np.ndarray | None = None,
    *,
    start: int = 0,
) -> np.ndarray:
    """Deals ``start`` … ``start + n − 1`` of a stream: uint32 (n, 4) of first, second, third
    hand and talon, each uniform among the deals that keep the ``fixed`` cards in place.

    ``fixed`` maps a part (0..3) to cards known to be in it (a whole hand, or some of its
    cards), or is an array (n, 4) of such masks per row (every row fixing the same number of
    cards in each part). Identical output for the same seed on any machine.

    >>> hand = parse_hand("♠7 8 9 10 J Q K A ♣7 8")
    >>> deals = deal_many(1000, seed=2, fixed={0: hand})
    >>> bool((deals[:, 0] == hand).all())
    True
    """
    n, start = integer("n", n, 0), integer("start", start, 0)
    counters = np.arange(start, start + n, dtype=np.uint64)
    rows = _fixed_rows(fixed, n)
    return _deal(rows, Stream.of(seed), counters, np.zeros(n, dtype=np.uint32))


def sample_layouts(
    known: np.ndarray,
    samples: int,
    seed: SeedLike | Stream = None,
    index: np.ndarray | None = None,
) -> np.ndarray:
    """uint32 (m, samples, 4): ``samples`` uniform deals around each row of ``known`` (m, 4)
    masks of cards known per part, as :func:`deal_many` deals them. Sample j of row r is drawn
    from the counter ``(index[r], j)`` (``index`` defaults to the row numbers), so a row's
    samples do not depend on the other rows.

    >>> hand = parse_hand("♠7 8 9 10 J Q K A ♣7 8")
    >>> rows = sample_layouts(np.array([[0, hand, 0, 0]], np.uint32), 100, seed=1)[0]
    >>> bool((rows[:, 1] == hand).all()), np.bitwise_count(rows[0]).tolist()
    (True, [10, 10, 10, 2])
    """
    known = np.asarray(known)
    if known.ndim != 2 or known.shape[1] != N_PARTS:
        raise ValueError(f"known must have shape (m, 4), got {known.shape}")
    samples = positive("samples", samples)
    m = len(known)
    index = np.arange(m) if index is None else np.asarray(index)
    if index.shape != (m,) or (m and index.min() < 0):
        raise ValueError(f"index must hold one non-negative number per row, got {index.shape}")
    counters = np.repeat(index.astype(np.uint64), samples)
    lanes = np.tile(np.arange(samples, dtype=np.uint32), m)
    rows = _fixed_rows(np.repeat(known, samples, axis=0), m * samples)
    return _deal(rows, Stream.of(seed), counters, lanes).reshape(m, samples, N_PARTS)


def uniform_integers(
    n: int, bound: int, seed: SeedLike | Stream = None, *, start: int = 0
) -> np.ndarray:
    """int64 (n,): draws ``start`` … ``start + n − 1`` of a stream, each uniform in
    [0, ``bound``), by the same counter-based generator and rejection as the deals.

    >>> draws = uniform_integers(1000, 6, seed=1)
    >>> later = uniform_integers(3, 6, seed=1, start=2)
    >>> sorted(set(draws.tolist())), bool((later == draws[2:5]).all())
    ([0, 1, 2, 3, 4, 5], True)
    """
    n, start = integer("n", n, 0), integer("start", start, 0)
    if not is_int(bound) or not 0 < bound < 1 << 63:
        raise ValueError(f"bound must be a positive integer below 2**63, got {bound!r}")
    counters = np.arange(start, start + n, dtype=np.uint64)
    out = np.empty(n, dtype=np.int64)
    _draw_ranks(
        Stream.of(seed).key,
        counters,
        np.zeros(n, dtype=np.uint32),
        np.uint64(bound),
        np.uint64((1 << 64) - bound),
        out,
    )
    return out


def all_layouts(hand: int, talon: int, seat: int) -> np.ndarray:
    """Every split of the 20 other cards between the defenders: (184,756, 4) seat hands and
    the talon; the lower defender seat gets each 10-card subset in turn.

    >>> deals = all_layouts(parse_hand("♠7 8 9 10 J Q K A ♣7 8"), parse_hand("♣9 10"), seat=1)
    >>> deals.shape, len(np.unique(deals[:, 0])), format_hand(int(deals[0, 0]))
    ((184756, 4), 184756, '♣J Q K A ♦7 8 9 10 J Q')
    """
    if int(hand).bit_count() != HAND_SIZE or int(talon).bit_count() != TALON_SIZE or hand & talon:
        raise ValueError(
            f"need a 10-card hand and a 2-card talon apart from it, got "
            f"{format_hand(hand)} and {format_hand(talon)}"
        )
    if seat not in range(N_SEATS):
        raise ValueError(f"seat must be 0, 1 or 2, got {seat!r}")
    subsets = _ten_of_twenty()
    free = [bit for bit in range(N_CARDS) if not (hand | talon) >> bit & 1]
    first = np.zeros(len(subsets), dtype=np.uint32)
    for j, bit in enumerate(free):
        first |= ((subsets >> np.uint32(j)) & np.uint32(1)) << np.uint32(bit)
    deals = np.empty((len(subsets), N_PARTS), dtype=np.uint32)
    defenders = [s for s in range(N_SEATS) if s != seat]
    deals[:, seat], deals[:, TALON] = hand, talon
    deals[:, defenders[0]] = first
    deals[:, defenders[1]] = np.uint32(sum(1 << bit for bit in free)) & ~first
    return deals


def seat_rows(declarer_cards: np.ndarray, others: np.ndarray, seat: int) -> np.ndarray:
    """uint32 (n, 3) seat hands: ``declarer_cards`` (n,) in ``seat`` and ``others`` (n, 2) in
    the other two seats in seat order.

    >>> seat_rows(np.array([1]), np.array([[2, 4]]), seat=1).tolist()
    [[2, 1, 4]]
    """
    rows = np.empty((len(declarer_cards), N_SEATS), dtype=np.uint32)
    rows[:, seat] = declarer_cards
    rows[:, [s for s in range(N_SEATS) if s != seat]] = others
    return rows


@functools.cache
def _ten_of_twenty() -> np.ndarray:
    masks = np.arange(1 << DEFENDER_CARDS, dtype=np.uint32)
    subsets: np.ndarray = masks[np.bitwise_count(masks) == HAND_SIZE]
    subsets.flags.writeable = False
    return subsets


def _deal(rows: np.ndarray, stream: Stream, counters: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """One deal per counter around the fixed ``rows`` (1 or n rows of 4 masks)."""
    need = np.array(
        [size - int(m).bit_count() for size, m in zip(PART_SIZES, rows[0], strict=True)],
        dtype=np.int64,
    )
    n_free = N_CARDS - int(np.bitwise_count(rows[0]).sum())
    n_layouts = _count_layouts(n_free, need)
    ranks = np.empty(len(counters), dtype=np.int64)
    _draw_ranks(
        stream.key, counters, lanes, np.uint64(n_layouts), np.uint64((1 << 64) - n_layouts), ranks
    )
    # Every layout count is below 2**52 (at most C(32,10)·C(22,10)·C(12,10)), so ranks fit int64.
    out = np.empty((len(counters), N_PARTS), dtype=np.uint32)
    _unrank_deals(ranks, rows, need, n_free, _BINOMIALS, out)
    return out


def _fixed_rows(fixed: Mapping[int, int] | np.ndarray | None, n: int) -> np.ndarray:
    """The fixed cards as a checked uint32 array of 1 row (a mapping) or n rows."""
    if fixed is None or isinstance(fixed, Mapping):
        return _fixed_masks(fixed or {})[None, :]
    rows = np.asarray(fixed)
    if rows.shape != (n, N_PARTS) or not np.issubdtype(rows.dtype, np.integer):
        raise ValueError(f"fixed cards per row must be an integer array of shape ({n}, 4)")
    if n == 0:
        return np.zeros((1, N_PARTS), dtype=np.uint32)
    if rows.min() < 0 or rows.max() > FULL_DECK:
        raise ValueError("fixed cards per row must be 32-bit card masks")
    rows = np.ascontiguousarray(rows, dtype=np.uint32)
    counts = np.bitwise_count(rows)
    if (counts != counts[0]).any():
        raise ValueError("every row of fixed cards must fix the same number of cards per part")
    _fixed_masks(dict(enumerate(int(m) for m in rows[0])))  # sizes and names of row 0
    overlap = np.zeros(n, dtype=np.uint32)
    seen = np.zeros(n, dtype=np.uint32)
    for part in range(N_PARTS):
        overlap |= seen & rows[:, part]
        seen |= rows[:, part]
    if overlap.any():
        row = int(np.flatnonzero(overlap)[0])
        cards = " ".join(_card_names(int(overlap[row])))
        raise ValueError(f"row {row} of the fixed cards holds card(s) in two parts: {cards}")
    return rows


def _fixed_masks(fixed: Mapping[int, int]) -> np.ndarray:
    masks = np.zeros(N_PARTS, dtype=np.uint32)
    seen = 0
    for part, mask in fixed.items():
        if part not in range(N_PARTS):
            raise ValueError(f"fixed part must be 0..3 (first, second, third, talon), got {part!r}")
        mask = int(mask)
        if not 0 <= mask <= FULL_DECK:
            raise ValueError(f"fixed {PART_NAMES[part]}: not a 32-bit card mask: {mask}")
        if mask.bit_count() > PART_SIZES[part]:
            raise ValueError(
                f"fixed {PART_NAMES[part]} has {mask.bit_count()} cards, "
                f"more than {PART_SIZES[part]}: {format_hand(mask)}"
            )
        if mask & seen:
            cards = " ".join(_card_names(mask & seen))
            raise ValueError(f"fixed {PART_NAMES[part]} repeats card(s) fixed elsewhere: {cards}")
        seen |= mask
        masks[part] = mask
    return masks


def _count_layouts(n_free: int, need: np.ndarray) -> int:
    total = 1
    for k in need:
        total *= comb(n_free, int(k))
        n_free -= int(k)
    return total


def _card_names(mask: int) -> list[str]:
    return [format_card(bit) for bit in range(N_CARDS) if mask >> bit & 1]


# binom[n, k] = C(n, k); C(n, k) = 0 for k > n, and k < 0 never occurs.
_BINOMIALS = np.array(
    [[comb(n, k) for k in range(N_CARDS + 2)] for n in range(N_CARDS + 1)], dtype=np.int64
)

# Philox4x32-10 constants (Salmon et al. 2011; Random123's philox.h).
PHILOX_ROUNDS = 10
_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
_LOW32, _WORD = np.uint64(0xFFFFFFFF), np.uint64(32)
_U64 = nb.uint64


@njit(nb.types.UniTuple(_U64, 4)(_U64, _U64, _U64, _U64, _U64, _U64), cache=True, nogil=True)
def _philox4x32(
    c0: np.uint64, c1: np.uint64, c2: np.uint64, c3: np.uint64, k0: np.uint64, k1: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """Philox4x32-10 on 32-bit words held in uint64: ten rounds of two 32×32→64 products."""
    for _ in range(PHILOX_ROUNDS):
        p0 = _M0 * c0
        p1 = _M1 * c2
        c0, c1, c2, c3 = (p1 >> _WORD) ^ c1 ^ k0, p1 & _LOW32, (p0 >> _WORD) ^ c3 ^ k1, p0 & _LOW32
        k0 = (k0 + _W0) & _LOW32
        k1 = (k1 + _W1) & _LOW32
    return c0, c1, c2, c3


@njit(
    nb.void(nb.uint32[:], nb.uint64[:], nb.uint32[:], nb.uint64, nb.uint64, nb.int64[:]),
    cache=True,
    nogil=True,
)
def _draw_ranks(
    key: np.ndarray,
    counters: np.ndarray,
    lanes: np.ndarray,
    n_layouts: np.uint64,
    cap: np.uint64,
    out: np.ndarray,
) -> None:
    """out[r]: a uniform integer in [0, n_layouts) from the counter (counters[r], lanes[r],
    attempt): the first 64-bit word w with w − (w mod n_layouts) <= cap = 2^64 − n_layouts
    (rejection sampling: exact), reduced modulo n_layouts."""
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    for r in range(counters.shape[0]):
        low, high = counters[r] & _LOW32, counters[r] >> _WORD
        attempt = np.uint64(0)
        while True:
            x0, x1, x2, x3 = _philox4x32(low, high, np.uint64(lanes[r]), attempt, k0, k1)
            word = (x0 << _WORD) | x1
            rank = word % n_layouts
            if word - rank > cap:
                word = (x2 << _WORD) | x3
                rank = word % n_layouts
            if word - rank <= cap:
                out[r] = np.int64(rank)
                break
            attempt += np.uint64(1)


LANES = 8  # deals unranked in lockstep: independent dependency chains keep the CPU busy
TOP_BIT = 63


@njit(
    nb.void(nb.int64[:], nb.uint32[:, :], nb.int64[:], nb.int64, nb.int64[:, :], nb.uint32[:, :]),
    cache=True,
    nogil=True,
)
def _unrank_deals(
    ranks: np.ndarray,
    fixed: np.ndarray,
    need: np.ndarray,
    n_initial: int,
    binom: np.ndarray,
    out: np.ndarray,
) -> None:
    """Turn each rank in [0, Π C(r_k, need_k)) into a deal: part k takes ``need[k]`` of the free
    cards still unassigned, chosen by unranking a combination (combinatorial number system).
    ``fixed`` holds the known cards of every row, or one row for all, leaving ``n_initial`` free
    cards in every row. The free cards are walked
    from the top as a mask (highest set bit first), LANES deals at a time, which all walk the
    same loop since ``need`` is shared."""
    n = ranks.shape[0]
    per_row = fixed.shape[0] > 1
    small_binom = binom.astype(np.int32)  # one part's combination rank is < C(32, 10) < 2**31
    rank = np.zeros(LANES, dtype=np.int64)
    combo = np.zeros(LANES, dtype=np.int32)
    k = np.zeros(LANES, dtype=np.int32)
    source = np.zeros(LANES, dtype=np.int64)  # the row of ``fixed`` each lane reads
    mask = np.zeros(LANES, dtype=np.uint64)
    left = np.zeros(LANES, dtype=np.uint64)  # free cards not yet walked in this part
    rest = np.zeros(LANES, dtype=np.uint64)  # free cards not chosen: the next part's free cards
    for start in range(0, n, LANES):
        lanes = min(LANES, n - start)
        for lane in range(LANES):
            row = start + min(lane, lanes - 1)
            source[lane] = row if per_row else 0
            rank[lane] = ranks[row]
            taken = np.uint64(0)
            for part in range(fixed.shape[1]):
                taken |= np.uint64(fixed[source[lane], part])
            rest[lane] = np.uint64(FULL_DECK) & ~taken
        n_free = n_initial
        for part in range(need.shape[0]):
            n_ways = binom[n_free, need[part]]
            for lane in range(LANES):
                combo[lane] = rank[lane] % n_ways
                rank[lane] //= n_ways
                k[lane] = need[part]
                mask[lane] = fixed[source[lane], part]
                left[lane] = rest[lane]
            # The j-th free card (from 0) is chosen iff combo >= C(j, k). Branch-free, since the
            # choices are random.
            for j in range(n_free - 1, -1, -1):
                for lane in range(LANES):
                    card = np.uint64(1) << np.uint64(TOP_BIT - leading_zeros(left[lane]))
                    left[lane] ^= card
                    threshold = small_binom[j, k[lane]]
                    take = np.int32(combo[lane] >= threshold)
                    combo[lane] -= take * threshold
                    k[lane] -= take
                    mask[lane] |= card * np.uint64(take)
            for lane in range(LANES):
                chosen = mask[lane] & ~np.uint64(fixed[source[lane], part])
                rest[lane] &= ~chosen
            for lane in range(lanes):
                out[start + lane, part] = np.uint32(mask[lane])
            n_free -= need[part]
