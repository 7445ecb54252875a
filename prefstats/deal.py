"""Deals: three 10-card hands and the 2-card talon (RULES.md "Cards and deal").

Seats are named from the dealer: first hand (left of the dealer, bids and leads first), second
hand, third hand. ``deal_many`` deals uniformly and exactly: one unbiased 64-bit draw per deal is
unranked into the deal by the combinatorial number system, inside a numba kernel.

>>> deals = deal_many(3, seed=1)
>>> deals.shape, deals.dtype
((3, 4), dtype('uint32'))
>>> d = Deal.from_row(deals[0])
>>> Deal.parse(str(d)) == d
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros

from prefstats.cards import FULL_DECK, N_CARDS, Style, format_card, format_hand, parse_hand

PART_NAMES = ("first hand", "second hand", "third hand", "talon")
PART_SIZES = (10, 10, 10, 2)
HAND_SIZE = 10
TALON_SIZE = 2
N_PARTS = len(PART_SIZES)

SeedLike = int | np.random.SeedSequence | np.random.Generator | None


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
        fields = text.split("|")
        if len(fields) != N_PARTS:
            raise ValueError(f"a deal needs 4 parts separated by '|', got {len(fields)}: {text!r}")
        masks = []
        for name, field in zip(PART_NAMES, fields, strict=True):
            try:
                masks.append(parse_hand(field))
            except ValueError as err:
                raise ValueError(f"{name}: {err}") from None
        return cls(*masks)

    @classmethod
    def from_row(cls, row: Sequence[int] | np.ndarray) -> Deal:
        """A Deal from one row of ``deal_many``."""
        return cls(*(int(x) for x in row))

    def format(self, style: Style = "en") -> str:
        """The deal as ``"first | second | third | talon"``."""
        return " | ".join(format_hand(part, style) for part in self.parts)

    def __str__(self) -> str:
        return self.format()


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


def deal_many(n: int, seed: SeedLike = None, fixed: Mapping[int, int] | None = None) -> np.ndarray:
    """Deal ``n`` deals uniformly at random: uint32 array (n, 4) of first, second, third, talon.

    ``fixed`` maps a part (0..3) to cards known to be in it (a whole hand, or some of its cards);
    the remaining cards are dealt uniformly into the remaining places. Identical output for the
    same seed on any machine.

    >>> hand = parse_hand("♠7 8 9 10 J Q K A ♣7 8")
    >>> deals = deal_many(1000, seed=2, fixed={0: hand})
    >>> bool((deals[:, 0] == hand).all())
    True
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    fixed_masks = _fixed_masks(fixed or {})
    need = np.array(
        [size - int(m).bit_count() for size, m in zip(PART_SIZES, fixed_masks, strict=True)],
        dtype=np.int64,
    )
    free = FULL_DECK & ~int(np.bitwise_or.reduce(fixed_masks))
    n_layouts = _count_layouts(free.bit_count(), need)
    rng = np.random.default_rng(seed)
    ranks = rng.integers(0, n_layouts, size=int(n), dtype=np.int64)
    out = np.empty((int(n), N_PARTS), dtype=np.uint32)
    _unrank_deals(ranks, fixed_masks, need, np.uint32(free), _BINOMIALS, out)
    return out


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


LANES = 8  # deals unranked in lockstep: independent dependency chains keep the CPU busy
TOP_BIT = 63


@nb.njit(
    nb.void(nb.int64[:], nb.uint32[:], nb.int64[:], nb.uint32, nb.int64[:, :], nb.uint32[:, :]),
    cache=True,
    nogil=True,
)
def _unrank_deals(ranks, fixed, need, free, binom, out):  # type: ignore[no-untyped-def]
    """Turn each rank in [0, Π C(r_k, need_k)) into a deal: part k takes ``need[k]`` of the free
    cards still unassigned, chosen by unranking a combination (combinatorial number system).
    The free cards are walked from the top as a mask (highest set bit first), LANES deals at a
    time, which all walk the same loop since ``need`` is shared."""
    n = ranks.shape[0]
    small_binom = binom.astype(np.int32)  # one part's combination rank is < C(32, 10) < 2**31
    rank = np.zeros(LANES, dtype=np.int64)
    combo = np.zeros(LANES, dtype=np.int32)
    k = np.zeros(LANES, dtype=np.int32)
    mask = np.zeros(LANES, dtype=np.uint64)
    left = np.zeros(LANES, dtype=np.uint64)  # free cards not yet walked in this part
    rest = np.zeros(LANES, dtype=np.uint64)  # free cards not chosen: the next part's free cards
    n_initial = 0
    for bit in range(N_CARDS):
        n_initial += free >> bit & 1
    for start in range(0, n, LANES):
        lanes = min(LANES, n - start)
        for lane in range(LANES):
            rank[lane] = ranks[start + min(lane, lanes - 1)]
            rest[lane] = free
        n_free = n_initial
        for part in range(need.shape[0]):
            n_ways = binom[n_free, need[part]]
            for lane in range(LANES):
                combo[lane] = rank[lane] % n_ways
                rank[lane] //= n_ways
                k[lane] = need[part]
                mask[lane] = fixed[part]
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
                chosen = mask[lane] & ~np.uint64(fixed[part])
                rest[lane] &= ~chosen
            for lane in range(lanes):
                out[start + lane, part] = np.uint32(mask[lane])
            n_free -= need[part]
