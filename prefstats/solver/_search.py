"""Numba kernels of the double-dummy solver: null-window search, exact driver, batch loops.

Kernel conventions (the public modules ``exact``, ``discard`` and ``bounds`` convert to them):

- Seats are renumbered so that kernel seat 0 is the declarer, 1 the next player in play order
  (his left), 2 the one after; ``hd, hl, hr`` are their hands as int64 masks, card bit =
  8·suit + rank. ``leader`` is a kernel seat.
- ``trump`` is a suit 0..3 or ``NO_TRUMP``; ``misere`` is 0 or 1 (misère is always no-trump).
- A position's value is the number of the remaining tricks the declarer takes. In a contract the
  declarer maximises it and the two others minimise it together; in misère the sides swap.
- ``_reaches(..., target)`` answers the null-window question "is the value >= target?". The
  exact value is found by a driver stepping the target by one from a guess (MTD-f on integers).

Play follows docs/rules.md, "Play": must follow suit; void in the led suit, must trump if holding a
trump; otherwise any card. Highest trump wins, else highest card of the led suit; the trick's
winner leads next.

Speed comes from: a transposition table probed at trick starts and keyed on relative ranks (who
holds each remaining card of each suit, played cards squeezed out, seats relative to the declarer,
non-trump suits sorted), holding lower and upper bounds; trying one card per run of equivalent
cards; move ordering per side and contract, the leader trying first the card that last
decided the position (kept in the table) or else the killer move, the card that last decided a
search with the same leader, tricks left and target (docs/design.md, "Search order");
sure-trick bounds in contracts (docs/design.md, "Contract bounds") and "stuck" / "safe" /
"caught by one suit" / "sure duck" bounds in misère (docs/design.md, "Misère bounds"); plain
minimax for the last two tricks. The discard questions and the dealt potential build on it in
``_potential``. The table is 512 KB for random deals (it stays in cache) and 32 MB for many
layouts of one hand, whose rows share positions (``_pool.table_for``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import boolean, int8, int64, types, uint8, uint32, void
from numba.core.typing.templates import Signature

from prefstats.game.cards import N_SUITS, SUIT_MASK
from prefstats.game.deal import HAND_SIZE, N_SEATS
from prefstats.kernels import ctpop, leading_zeros, njit, trailing_zeros
from prefstats.solver._tables import (
    DEFENCE_CATCH,
    EXIT,
    FREE,
    HIGH_BIT,
    HOLDS,
    LENGTH_OFFSET,
    LOW_BIT,
    N_SUIT_CODES,
    OPEN,
    OUTRANKED,
    RUN_TOPS,
    SELECT,
    SQUEEZE,
    SUIT_BITS,
    TERNARY,
    TOP_RUN,
    _must_overtake,
)

# Options of the kernels below: compiled once and cached, run without the GIL, and without
# numba's reference counting (``_nrt=False``, an option numba keeps without documenting it).
# Counting the references of the table argument cost an atomic increment and decrement at
# every probe, 6% of the dealt potential's time; no kernel given these options allocates an
# array or keeps one (docs/design.md, "Compilation and its cache"). The batch loops called from
# Python keep numba's defaults.
KERNEL: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}

NO_TRUMP = -1
INT64_TOP_BIT = 63
SUIT_SHIFT = 3  # card >> SUIT_SHIFT is the card's suit (8 ranks a suit)
RANK_MASK = SUIT_BITS - 1  # card & RANK_MASK is the card's rank
DECLARER = 0  # kernel seat of the declarer

MODE_NO_TRUMP = 0
MODE_TRUMP = 1
MODE_MISERE = 2

# Transposition table: buckets of two entries of one word each. An entry packs the position's
# hashed key (``_hashed``, less the bits its bucket's index already fixes) above its data: the
# bounds, the depth and the hint. Before, an entry took a word for the key and one for the data,
# in 2**16 buckets (2 MB). Packed, in 2**15 buckets (512 KB), 2,000 random deals were solved 10%
# to 19% faster in every contract and lead, though 1% to 3% more positions were searched: the
# search waits on the table's reads, and a smaller table is more often in cache. (2026-12-03,
# the two versions run in turn in one process; 2**16 packed buckets gained less, and 2**14
# searched 1% to 5% more positions again and was slower in misère.)
TT_BUCKET_BITS = 15
TT_BUCKET_WORDS = 2
MIN_BUCKET_BITS = 14  # a table has at least 2**14 buckets, so an entry need not keep those bits
TT_EMPTY = -1
TT_MIN_TRICKS = 3  # positions with fewer tricks left are solved in closed form
BOUND_BITS = 4
BOUND_MASK = (1 << BOUND_BITS) - 1
# The leader's card that last decided a search from the position, as (suit, relative rank): tried
# first next time. Bits: valid flag, 2 suit bits, 3 relative-rank bits.
HINT_SHIFT = 3 * BOUND_BITS
RANK_BITS = 3
HINT_VALID = 1 << (RANK_BITS + 2)
HINT_MASK = (1 << (RANK_BITS + 3)) - 1
NO_HINT = 0
DATA_BITS = HINT_SHIFT + RANK_BITS + 3
DATA_MASK = (1 << DATA_BITS) - 1
N_MODES = 3  # no trump, trump, misère (``MODE_*``)
KEY_BITS = (N_MODES * N_SEATS * N_SUIT_CODES**4 - 1).bit_length()  # ``_position_key``: 57
KEY_MASK = (1 << KEY_BITS) - 1
# Odd multipliers and shift-xors: each step permutes the numbers below 2**KEY_BITS.
HASH_MULTIPLIER = 0x2545F4914F6CDD1D
HASH_SHIFT = 29
HASH_MULTIPLIER_2 = 0x3C79AC492BA7B653
HASH_SHIFT_2 = 31
assert KEY_BITS - MIN_BUCKET_BITS + DATA_BITS < 63, "an entry's tag and data fill one int64"

# Per-suit bit smears (one byte a suit): a shift by k may not cross into the next suit's byte.
SMEAR_UP_1 = 0xFEFEFEFE
SMEAR_UP_2 = 0xFCFCFCFC
SMEAR_UP_4 = 0xF0F0F0F0
SMEAR_DOWN_1 = 0x7F7F7F7F
SMEAR_DOWN_2 = 0x3F3F3F3F
SMEAR_DOWN_4 = 0x0F0F0F0F

# Buckets of ordered moves: hint, first, second, rest; each scanned low or high card first.
N_BUCKETS = 4
FIRST_HIGH = 1 << 1
SECOND_HIGH = 1 << 2
REST_HIGH = 1 << 3

# The larger table for many layouts of one hand (2**21 buckets, 32 MB): solved in
# ``solver._layout_order``, all C(20, 10) layouts of the bench's first misère hand took 2.36 /
# 2.32 s with it against 2.47 / 2.63 s with 2**20 buckets (declarer on lead; 2.93 / 2.83 s against
# 3.22 / 3.06 s with a defender on lead), the two sizes run in turn; 2**22 gained 2-4% more for
# twice the memory. All layouts of a no-trump hand (♠A K J 9 ♣A Q 10 ♦A K ♥8, the declarer second)
# took 1.71 / 1.74 s against 1.98 / 1.95 s. Those runs had two words an entry (64 MB); packed into
# one (32 MB), the bench's three slow layout settings took 4% to 11% less time, and 2**20 or
# 2**22 packed buckets did no better (2026-12-03).
LAYOUT_TABLE_BITS = 21

# Killer moves: after the buckets, one word per (leader seat, tricks left, target) holds the
# leader's card that last decided a search of that kind (TT_EMPTY if none). Tried first where
# the table has no hint for the position: a card that settled one position often settles its
# neighbours.
KILLER_SIZES = HAND_SIZE + 1  # tricks left and targets both run 0..HAND_SIZE
KILLER_WORDS = N_SEATS * KILLER_SIZES * KILLER_SIZES


def new_table(bucket_bits: int = TT_BUCKET_BITS) -> np.ndarray:
    """A fresh, empty transposition table of 2**bucket_bits buckets (512 KB by default), the
    killer moves (``_killer_slot``), then one word counting trick-start positions searched
    (``_node_counter``)."""
    if bucket_bits < MIN_BUCKET_BITS:
        raise ValueError(f"a table needs at least {MIN_BUCKET_BITS} bucket bits, got {bucket_bits}")
    buckets = (1 << bucket_bits) * TT_BUCKET_WORDS
    table = np.full(buckets + KILLER_WORDS + 1, TT_EMPTY, dtype=np.int64)
    table[-1] = 0
    return table


@njit(**KERNEL)
def _node_counter(tt: np.ndarray) -> int:
    """Index of the table's last word, the node counter."""
    last: int = tt.shape[0] - 1
    return last


# --- bit helpers ------------------------------------------------------------------------------


@njit(**KERNEL)
def _suit_of(hand: int, suit: int) -> int:
    return (hand >> (SUIT_BITS * suit)) & SUIT_MASK


@njit(**KERNEL)
def _suit_cards(suit: int) -> int:
    return SUIT_MASK << (SUIT_BITS * suit)


@njit(**KERNEL)
def _count(cards: int) -> int:
    """How many cards a mask holds."""
    return ctpop(np.int64(cards))


@njit(**KERNEL)
def _low_card(cards: int) -> int:
    """Bit index of the lowest card of a non-empty mask."""
    return trailing_zeros(cards)


@njit(**KERNEL)
def _high_card(cards: int) -> int:
    """Bit index of the highest card of a non-empty mask."""
    return INT64_TOP_BIT - leading_zeros(cards)


@njit(**KERNEL)
def _low_per_suit(cards: int) -> int:
    """The lowest card of each suit of ``cards`` (each suit's bits smeared upwards within its
    byte, then the bottom of each smear)."""
    up = cards | ((cards << 1) & SMEAR_UP_1)
    up |= (up << 2) & SMEAR_UP_2
    up |= (up << 4) & SMEAR_UP_4
    return up & ~((up << 1) & SMEAR_UP_1)


@njit(**KERNEL)
def _high_per_suit(cards: int) -> int:
    """The highest card of each suit of ``cards`` (smeared downwards within each suit's byte,
    then the top of each smear)."""
    down = cards | ((cards >> 1) & SMEAR_DOWN_1)
    down |= (down >> 2) & SMEAR_DOWN_2
    down |= (down >> 4) & SMEAR_DOWN_4
    return down & ~((down >> 1) & SMEAR_DOWN_1)


@njit(**KERNEL)
def _seat_hand(seat: int, hd: int, hl: int, hr: int) -> int:
    if seat == 0:
        return hd
    if seat == 1:
        return hl
    return hr


@njit(**KERNEL)
def _is_max(seat: int, misere: int) -> bool:
    """Does this seat want the declarer's trick count high?"""
    return (seat == DECLARER) != (misere != 0)


# --- rules ------------------------------------------------------------------------------------


@njit(**KERNEL)
def _legal(hand: int, led: int, trump: int) -> int:
    """Legal cards (docs/rules.md, "Play"): follow suit, else trump, else anything."""
    if led < 0:
        return hand
    follow = hand & _suit_cards(led)
    if follow:
        return follow
    if trump >= 0:
        trumps = hand & _suit_cards(trump)
        if trumps:
            return trumps
    return hand


@njit(**KERNEL)
def _beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat the trick's best card so far (docs/rules.md, "Play")?"""
    card_suit = card >> SUIT_SHIFT
    best_suit = best >> SUIT_SHIFT
    if card_suit == best_suit:
        return card > best
    return card_suit == trump


@njit(**KERNEL)
def _run_tops(cards: int, present: int) -> int:
    """One card (the highest) of each run of equivalent cards among ``cards``."""
    out = 0
    for suit in range(N_SUITS):
        held = _suit_of(cards, suit)
        if held:
            index = (_suit_of(present, suit) << SUIT_BITS) | held
            out |= int(RUN_TOPS[index]) << (SUIT_BITS * suit)
    return out


@njit(**KERNEL)
def _can_beat(hand: int, led: int, best: int, trump: int) -> bool:
    """Can a player holding ``hand`` beat ``best`` in a trick led in suit ``led``?"""
    legal = _legal(hand, led, trump)
    best_suit = best >> SUIT_SHIFT
    held = _suit_of(legal, best_suit)
    if held and HIGH_BIT[held] > (best & RANK_MASK):
        return True
    if trump >= 0 and best_suit != trump:
        return (legal & _suit_cards(trump)) != 0
    return False


@njit(**KERNEL)
def _last_trick(hd: int, hl: int, hr: int, leader: int, trump: int) -> int:
    """Declarer's tricks (0 or 1) from a one-card ending: play is forced."""
    winner = leader
    best = _low_card(_seat_hand(leader, hd, hl, hr))
    for step in range(1, N_SEATS):
        seat = (leader + step) % N_SEATS
        card = _low_card(_seat_hand(seat, hd, hl, hr))
        if _beats(card, best, trump):
            winner = seat
            best = card
    return 1 if winner == DECLARER else 0


@njit(**KERNEL)
def _two_tricks_reach(
    hd: int, hl: int, hr: int, leader: int, target: int, trump: int, misere: int
) -> bool:
    """Null-window test on a two-card ending by plain minimax (the last trick is forced)."""
    seat2 = (leader + 1) % N_SEATS
    seat3 = (leader + 2) % N_SEATS
    hand2 = _seat_hand(seat2, hd, hl, hr)
    hand3 = _seat_hand(seat3, hd, hl, hr)
    max1 = _is_max(leader, misere)
    max2 = _is_max(seat2, misere)
    max3 = _is_max(seat3, misere)
    answer1 = not max1
    cards1 = _seat_hand(leader, hd, hl, hr)
    while cards1 and answer1 != max1:
        card1 = _low_card(cards1)
        cards1 ^= 1 << card1
        led = card1 >> SUIT_SHIFT
        answer2 = not max2
        cards2 = _legal(hand2, led, trump)
        while cards2 and answer2 != max2:
            card2 = _low_card(cards2)
            cards2 ^= 1 << card2
            best, winner = card1, leader
            if _beats(card2, best, trump):
                best, winner = card2, seat2
            answer3 = not max3
            cards3 = _legal(hand3, led, trump)
            while cards3 and answer3 != max3:
                card3 = _low_card(cards3)
                cards3 ^= 1 << card3
                last = seat3 if _beats(card3, best, trump) else winner
                kept = ~((1 << card1) | (1 << card2) | (1 << card3))
                value = (1 if last == DECLARER else 0) + _last_trick(
                    hd & kept, hl & kept, hr & kept, last, trump
                )
                answer3 = value >= target
            answer2 = answer3
        answer1 = answer2
    return answer1


# --- transposition table ----------------------------------------------------------------------


@njit(**KERNEL)
def _suit_code(hl: int, hr: int, present: int, suit: int) -> int:
    """Number the ownership of the suit's remaining cards (relative ranks, seats from declarer)."""
    here = _suit_of(present, suit)
    base = here << SUIT_BITS
    left = SQUEEZE[base | _suit_of(hl, suit)]
    right = SQUEEZE[base | _suit_of(hr, suit)]
    code: int = LENGTH_OFFSET[_count(here)] + TERNARY[left] + 2 * TERNARY[right]
    return code


@njit(**KERNEL)
def _sorted4(a: int, b: int, c: int, d: int) -> tuple[int, int, int, int]:
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return a, b, c, d


@njit(**KERNEL)
def _sorted3(a: int, b: int, c: int) -> tuple[int, int, int]:
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


@njit(**KERNEL, inline="always")
def _updated_codes(
    codes: tuple[int, int, int, int], touched: int, hl: int, hr: int, present: int
) -> tuple[int, int, int, int]:
    """Suit codes after a trick: only the suits in the ``touched`` mask (bit per suit) change."""
    c0, c1, c2, c3 = codes
    if touched & 1:
        c0 = _suit_code(hl, hr, present, 0)
    if touched & 2:
        c1 = _suit_code(hl, hr, present, 1)
    if touched & 4:
        c2 = _suit_code(hl, hr, present, 2)
    if touched & 8:
        c3 = _suit_code(hl, hr, present, 3)
    return c0, c1, c2, c3


CODES = types.UniTuple(int64, N_SUITS)  # numba's type of the four suit codes
EMPTY_SUIT = 0  # the code of a suit with no card left (``LENGTH_OFFSET[0]``)
ALL_SUITS = (1 << N_SUITS) - 1  # a ``touched`` mask forcing every suit code to be computed
NO_CODES = (0, 0, 0, 0)


@njit(**KERNEL)
def _all_codes(hd: int, hl: int, hr: int) -> tuple[int, int, int, int]:
    """Every suit's ownership code (``_suit_code``)."""
    return _updated_codes(NO_CODES, ALL_SUITS, hl, hr, hd | hl | hr)


@njit(**KERNEL, inline="always")
def _position_key(codes: tuple[int, int, int, int], leader: int, trump: int, misere: int) -> int:
    """A position's exact key: contract kind, leader and the suits' ownership codes.

    Suits are interchangeable except the trump suit, so the codes of the plain suits are sorted.
    Once nobody holds a trump, a trump contract plays on as no trump, so its position takes the
    no-trump key (the dealt potential then shares those positions between strains).
    """
    c0, c1, c2, c3 = codes
    if misere:
        mode = MODE_MISERE
    elif trump < 0 or codes[trump] == EMPTY_SUIT:
        mode = MODE_NO_TRUMP
    else:
        mode = MODE_TRUMP
    if mode == MODE_TRUMP:
        if trump == 0:
            a = c0
            b, c, d = _sorted3(c1, c2, c3)
        elif trump == 1:
            a = c1
            b, c, d = _sorted3(c0, c2, c3)
        elif trump == 2:
            a = c2
            b, c, d = _sorted3(c0, c1, c3)
        else:
            a = c3
            b, c, d = _sorted3(c0, c1, c2)
    else:
        a, b, c, d = _sorted4(c0, c1, c2, c3)
    key: int = mode * N_SEATS + leader
    key = key * N_SUIT_CODES + a
    key = key * N_SUIT_CODES + b
    key = key * N_SUIT_CODES + c
    key = key * N_SUIT_CODES + d
    return key


@njit(**KERNEL)
def _hashed(key: int) -> int:
    """The key mixed by a one-to-one map of the keys below 2**KEY_BITS (an odd multiplier and a
    shift-xor, twice), so that its low bits, the bucket's index, depend on all of its bits."""
    mixed: int = (key * HASH_MULTIPLIER) & KEY_MASK
    mixed ^= mixed >> HASH_SHIFT
    mixed = (mixed * HASH_MULTIPLIER_2) & KEY_MASK
    return mixed ^ (mixed >> HASH_SHIFT_2)


@njit(**KERNEL)
def _bucket_of(mixed: int, tt: np.ndarray) -> int:
    """First word of the bucket of a hashed key; the number of buckets is a power of two."""
    buckets = (tt.shape[0] - KILLER_WORDS - 1) // TT_BUCKET_WORDS
    first: int = (mixed & (buckets - 1)) * TT_BUCKET_WORDS
    return first


@njit(**KERNEL)
def _tag(mixed: int) -> int:
    """The entry word's key part: the hashed key less its lowest MIN_BUCKET_BITS bits, which
    its bucket's index holds, so two keys of one bucket have the same tag only if they are the
    same key. Its data bits are 0; an empty word (TT_EMPTY) matches no tag."""
    return (mixed >> MIN_BUCKET_BITS) << DATA_BITS


@njit(**KERNEL)
def _find_entry(tt: np.ndarray, key: int) -> tuple[int, int, int]:
    """(first word of the key's bucket, the key's tag, its entry's slot in the bucket or -1)."""
    mixed = _hashed(key)
    at = _bucket_of(mixed, tt)
    tag = _tag(mixed)
    for entry in range(TT_BUCKET_WORDS):
        if tt[at + entry] & ~DATA_MASK == tag:
            return at, tag, entry
    return at, tag, -1


@njit(**KERNEL)
def _tt_bounds(tt: np.ndarray, key: int, n_tricks: int) -> tuple[int, int, int]:
    """Stored (lower, upper, hint) of a position, or (0, n_tricks, NO_HINT) if absent."""
    at, _, slot = _find_entry(tt, key)
    if slot < 0:
        return 0, n_tricks, NO_HINT
    word = tt[at + slot]
    return word & BOUND_MASK, (word >> BOUND_BITS) & BOUND_MASK, (word >> HINT_SHIFT) & HINT_MASK


@njit(**KERNEL)
def _tt_store(tt: np.ndarray, key: int, n_tricks: int, lower: int, upper: int, hint: int) -> None:
    """Record bounds, merging with a stored entry; the entry with fewer tricks to play keeps
    the first slot, and a new deeper one replaces the second (docs/design.md, "Transposition
    table")."""
    at, tag, slot = _find_entry(tt, key)
    if slot >= 0:
        word = tt[at + slot]
        lower = max(lower, word & BOUND_MASK)
        upper = min(upper, (word >> BOUND_BITS) & BOUND_MASK)
        if hint == NO_HINT:
            hint = (word >> HINT_SHIFT) & HINT_MASK
        tt[at + slot] = tag | _tt_data(lower, upper, n_tricks, hint)
        return
    first_depth = (tt[at] >> (2 * BOUND_BITS)) & BOUND_MASK
    if tt[at] == TT_EMPTY or n_tricks <= first_depth:
        tt[at + 1] = tt[at]
        tt[at] = tag | _tt_data(lower, upper, n_tricks, hint)
    else:
        tt[at + 1] = tag | _tt_data(lower, upper, n_tricks, hint)


@njit(**KERNEL)
def _tt_data(lower: int, upper: int, n_tricks: int, hint: int) -> int:
    return lower | (upper << BOUND_BITS) | (n_tricks << (2 * BOUND_BITS)) | (hint << HINT_SHIFT)


@njit(**KERNEL)
def _hint_of(card: int, present: int) -> int:
    """A card as a hint: its suit and its rank among the suit's present cards."""
    suit = card >> SUIT_SHIFT
    below = _count(_suit_of(present, suit) & ((1 << (card & RANK_MASK)) - 1))
    return HINT_VALID | (suit << RANK_BITS) | below


@njit(**KERNEL)
def _hint_card(hint: int, moves: int, present: int) -> int:
    """The move (as a one-card mask) of the leader's run holding the hinted card, or 0."""
    if hint == NO_HINT:
        return 0
    suit = (hint >> RANK_BITS) & (N_SUITS - 1)
    rank = SELECT[(_suit_of(present, suit) << RANK_BITS) | (hint & ((1 << RANK_BITS) - 1))]
    if rank < 0:
        return 0
    return _run_move(SUIT_BITS * suit + rank, moves)


@njit(**KERNEL)
def _run_move(card: int, moves: int) -> int:
    """The move (as a one-card mask) that stands for ``card``'s run of equivalent cards: the
    lowest of ``moves`` (one card a run) at or above it in its suit."""
    return _low_card_of(moves & _suit_cards(card >> SUIT_SHIFT) & ~((1 << card) - 1))


@njit(**KERNEL)
def _killer_slot(tt: np.ndarray, leader: int, n_tricks: int, target: int) -> int:
    """Index of the killer move of searches with this leader, tricks left and target (a search
    has 1 <= target <= n_tricks: ``_probe`` answers the others)."""
    slot: int = (
        tt.shape[0] - KILLER_WORDS - 1 + (leader * KILLER_SIZES + n_tricks) * KILLER_SIZES + target
    )
    return slot


@njit(**KERNEL)
def _killer_card(killer: int, hand: int, moves: int) -> int:
    """The move (as a one-card mask) of the leader's run holding the killer card, or 0 if
    he does not hold it."""
    if killer < 0 or not (hand >> killer) & 1:
        return 0
    return _run_move(killer, moves)


# --- bounds -----------------------------------------------------------------------------------


@njit(**KERNEL)
def _cashable_in_suit(held: int, others_a: int, others_b: int, present: int, suit: int) -> int:
    """Tricks the leader cashes in one suit before anyone ruffs: his top cards in a row, or all
    his cards of the suit once those tops outlast both others' cards of it."""
    tops = int(TOP_RUN[(_suit_of(present, suit) << SUIT_BITS) | held])
    longest = max(_count(_suit_of(others_a, suit)), _count(_suit_of(others_b, suit)))
    return _count(held) if tops >= longest else tops


@njit(**KERNEL)
def _cashable(
    hand: int, others_a: int, others_b: int, present: int, trump: int, spare_a: int
) -> int:
    """Tricks the leader can cash at once with top cards (and long cards once the others are
    out of the suit), keeping the lead throughout.

    In a side suit the count is capped by the length of any other player who holds a trump,
    since a void player with trumps must ruff; ``others_a`` may drop up to ``spare_a`` cards
    first (the late-discard game of ``_potential``; 0 elsewhere).
    """
    total = 0
    for suit in range(N_SUITS):
        held = _suit_of(hand, suit)
        if held == 0:
            continue
        tops = _cashable_in_suit(held, others_a, others_b, present, suit)
        if tops and trump >= 0 and suit != trump:
            if _suit_of(others_a, trump):
                tops = min(tops, max(0, _count(_suit_of(others_a, suit)) - spare_a))
            if _suit_of(others_b, trump):
                tops = min(tops, _count(_suit_of(others_b, suit)))
        total += tops
    return total


@njit(**KERNEL)
def _defence_cashable(
    leader_hand: int, partner: int, declarer: int, present: int, trump: int, spare: int
) -> int:
    """Tricks the defence cashes at once with a defender on lead (``_cashable``, the declarer
    dropping up to ``spare`` cards): the leader's own, or, if he can give his partner the lead,
    the partner's, or in no trump both in turn (``_cash_both``).

    The leader gives the lead in a suit he holds whose top card the partner holds and the
    declarer cannot ruff: the partner's top card wins that trick as if he had led it himself.
    """
    own = _cashable(leader_hand, declarer, partner, present, trump, spare)
    for suit in range(N_SUITS):
        held = _suit_of(partner, suit)
        if _suit_of(leader_hand, suit) == 0 or held == 0:
            continue
        if HIGH_BIT[held] != HIGH_BIT[_suit_of(present, suit)]:
            continue
        if (
            0 <= trump != suit
            and _suit_of(declarer, trump)
            and _count(_suit_of(declarer, suit)) <= spare
        ):
            continue  # the declarer is, or can make himself, void in it and ruff
        best = max(own, _cashable(partner, declarer, leader_hand, present, trump, spare))
        if trump < 0:
            best = max(best, _cash_both(leader_hand, partner, declarer, present))
        return best
    return own


@njit(**KERNEL)
def _cash_both(leader_hand: int, partner: int, declarer: int, present: int) -> int:
    """No trump, the partner reachable (``_defence_cashable``): the leader cashes his suits,
    then gives his partner the lead, who cashes the other suits. Counted only if the partner,
    while the leader cashes, can throw away cards he does not need (else 0). In no trump
    nothing is ruffed, and the declarer's throws only shorten his suits."""
    total = 0
    cashed_suits = 0
    throws = 0
    for suit in range(N_SUITS):
        held = _suit_of(leader_hand, suit)
        tops = _cashable_in_suit(held, declarer, partner, present, suit) if held else 0
        if tops:
            total += tops
            cashed_suits |= 1 << suit
            throws += max(0, tops - _count(_suit_of(partner, suit)))
    spare_cards = 0
    for suit in range(N_SUITS):
        held = _suit_of(partner, suit)
        if held == 0 or (cashed_suits >> suit) & 1:
            continue
        tops = _cashable_in_suit(held, declarer, leader_hand, present, suit)
        total += tops
        spare_cards += _count(held) - tops
    return total if throws <= spare_cards else 0


@njit(**KERNEL)
def _declarer_sure_trumps(hand: int, present: int, trump: int) -> int:
    """The declarer's sure trump tricks: each of his trumps falls in its own trick and wins it
    unless a defender's higher trump falls there too, and each of those beats one of his."""
    if trump < 0:
        return 0
    held = _suit_of(hand, trump)
    return _count(held) - int(OUTRANKED[(_suit_of(present, trump) << SUIT_BITS) | held])


@njit(**KERNEL)
def _defender_sure_trumps(hand: int, declarer: int, trump: int) -> int:
    """A defender's sure trump tricks: each of his trumps falls in its own trick, which the
    defence wins unless the declarer's higher trump falls there too, each of those beating one
    of his."""
    if trump < 0:
        return 0
    held = _suit_of(hand, trump)
    both = held | _suit_of(declarer, trump)
    return _count(held) - int(OUTRANKED[(both << SUIT_BITS) | held])


@njit(**KERNEL)
def _outranked_suit(hd: int, present: int, spare: int) -> int:
    """1 if the declarer, on lead, holds more than ``spare`` cards of a suit whose top card a
    defender holds: then the defence takes a trick. (Winning every trick, he would lead every
    trick, so lead that suit at last, and its top card, kept for that, would win or be ruffed
    by the other defender. Spare cards of the late-discard game may stay unplayed, and he
    drops cards only when following.)"""
    for suit in range(N_SUITS):
        held = _suit_of(hd, suit)
        if _count(held) > spare and HIGH_BIT[_suit_of(present, suit)] > HIGH_BIT[held]:
            return 1
    return 0


@njit(**KERNEL)
def _declarer_sure_tricks(hd: int, hl: int, hr: int, leader: int, trump: int) -> int:
    """The lower bound in a contract: the declarer's sure trump tricks, or on lead
    the tricks he cashes at once."""
    present = hd | hl | hr
    lower = _declarer_sure_trumps(hd, present, trump)
    if leader == DECLARER:
        lower = max(lower, _cashable(hd, hl, hr, present, trump, 0))
    return lower


@njit(**KERNEL)
def _defence_sure_tricks(hd: int, hl: int, hr: int, leader: int, trump: int, spare: int) -> int:
    """The upper bound's count in a contract: tricks the defence takes for sure, a defender's
    sure trump tricks, what a defender on lead cashes at once (``_defence_cashable``), or the
    trick a declarer on lead loses in a suit whose top card a defender holds. ``spare``: the
    declarer's cards beyond one a trick in the late-discard game (0 in a plain contract)."""
    present = hd | hl | hr
    defence = max(_defender_sure_trumps(hl, hd, trump), _defender_sure_trumps(hr, hd, trump))
    if leader == DECLARER:
        return max(defence, _outranked_suit(hd, present, spare))
    if leader == 1:
        return max(defence, _defence_cashable(hl, hr, hd, present, trump, spare))
    return max(defence, _defence_cashable(hr, hl, hd, present, trump, spare))


@njit(**KERNEL)
def _misere_bounds(leader: int, n_tricks: int, codes: tuple[int, int, int, int]) -> tuple[int, int]:
    """Bounds on the declarer's tricks in misère, from states that last to the end; ``codes``
    are the suits' ownership codes (``_suit_code``).

    Stuck: every card of the declarer's is above all the defenders' cards of its suit. Then he
    wins every trick he follows suit to, and on lead he wins and leads again: he takes every
    trick once he is on lead, or once a defender on lead plays a suit he holds.
    Safe: no suit of his could catch him even if the defence led it from either hand and threw
    its cards away at will (``_unsafe_cards``). Then he never wins a trick and never leads: he
    takes none (dropping his top card of a suit when he cannot follow keeps him safe in it). On
    lead he is safe too if he can lead his lowest card of a suit where a defender must overtake
    it, and stays safe once that trick is gone (``DEFENCE_CATCH``'s ``EXIT`` bit).
    Caught: a defender on lead takes him at least one trick by leading one suit
    (``_defence_catch``).
    """
    flags = _suit_flags(codes)
    unsafe = (flags >> FREE) & ONE_PER_SUIT
    stuck = (flags >> OPEN) & ONE_PER_SUIT == 0
    if leader != DECLARER:
        if unsafe == 0:
            return 0, 0
        led = (flags >> (HOLDS + leader)) & ONE_PER_SUIT  # the suits the leader can lead
        if stuck and (flags >> (HOLDS + DECLARER)) & led:
            return n_tricks, n_tricks
        return (1 if _defence_catch(leader, unsafe, flags) else 0), n_tricks
    if stuck:
        return n_tricks, n_tricks
    if _has_safe_exit(unsafe, flags):
        return 0, 0
    return 0, n_tricks


@njit(**KERNEL)
def _sure_duck(hd: int, hl: int, hr: int, leader: int) -> bool:
    """Misère: can the declarer lose the trick about to start whatever the defence plays?

    On lead: yes if a defender holds only higher cards of a suit of his; he leads his lowest
    card of it and that defender must overtake. A defender on lead makes him win the trick only
    by leading a suit where the declarer's lowest card is above the leader's lowest card and
    above the partner's lowest card (or the partner is void in it): the declarer then has no
    card to play under the trick's best card and no void to throw a card in (misère has no
    trumps). Without such a suit: yes.
    """
    if leader == DECLARER:
        for suit in range(N_SUITS):
            held = _suit_of(hd, suit)
            if held and (
                _must_overtake(_suit_of(hl, suit), held) or _must_overtake(_suit_of(hr, suit), held)
            ):
                return True
        return False
    leader_hand = hl if leader == 1 else hr
    partner = hr if leader == 1 else hl
    for suit in range(N_SUITS):
        held = _suit_of(hd, suit)
        led = _suit_of(leader_hand, suit)
        if held == 0 or led == 0 or LOW_BIT[led] > LOW_BIT[held]:
            continue
        if not _must_overtake(_suit_of(partner, suit), held):
            return False
    return True


ONE_PER_SUIT = 0x01010101  # bit 0 of each suit's byte in a ``_suit_flags`` word


@njit(**KERNEL)
def _suit_flags(codes: tuple[int, int, int, int]) -> int:
    """The four suits' ``DEFENCE_CATCH`` bytes in one word, suit s in byte s as in a hand; so
    ``(flags >> bit) & ONE_PER_SUIT`` has bit 0 of byte s set where suit s has ``bit``."""
    c0, c1, c2, c3 = codes
    return (
        int(DEFENCE_CATCH[c0])
        | int(DEFENCE_CATCH[c1]) << SUIT_BITS
        | int(DEFENCE_CATCH[c2]) << (2 * SUIT_BITS)
        | int(DEFENCE_CATCH[c3]) << (3 * SUIT_BITS)
    )


@njit(**KERNEL)
def _has_safe_exit(unsafe: int, flags: int) -> bool:
    """Misère, the declarer on lead and safe in every suit but ``unsafe`` (``ONE_PER_SUIT``
    bits): has he a safe exit (``DEFENCE_CATCH``'s ``EXIT`` bit) in the one suit, if any, where
    he is not safe? Then he takes no trick."""
    exits = (flags >> EXIT) & ONE_PER_SUIT
    if unsafe == 0:
        return exits != 0
    return unsafe & (unsafe - 1) == 0 and exits & unsafe != 0


@njit(**KERNEL)
def _safe_on_lead(codes: tuple[int, int, int, int]) -> bool:
    """Misère, the declarer on lead: is he safe in every suit but one, where he has a safe
    exit?"""
    flags = _suit_flags(codes)
    return _has_safe_exit((flags >> FREE) & ONE_PER_SUIT, flags)


@njit(**KERNEL)
def _unsafe_cards(codes: tuple[int, int, int, int]) -> int:
    """Every card of the suits where the declarer is not safe in misère: he holds cards, and a
    defence leading the suit from either hand and throwing its cards away at will could catch
    him in it (``DEFENCE_CATCH``'s ``FREE`` bit, set only where he holds cards)."""
    return ((_suit_flags(codes) >> FREE) & ONE_PER_SUIT) * SUIT_MASK


@njit(**KERNEL)
def _unsafe_suits(codes: tuple[int, int, int, int]) -> int:
    """The suits (a bit each) of ``_unsafe_cards``."""
    unsafe = _unsafe_cards(codes)
    suits = 0
    for suit in range(N_SUITS):
        if _suit_of(unsafe, suit):
            suits |= 1 << suit
    return suits


@njit(**KERNEL)
def _defence_catch(leader: int, suits: int, flags: int) -> bool:
    """Misère, a defender on lead: does one of ``suits`` (``ONE_PER_SUIT`` bits) catch the
    declarer, the defence leading it again and again, each trick's winner leading next
    (``DEFENCE_CATCH``)? Whatever the other suits hold, everyone must follow while he can, so
    the trick goes as in the one-suit game."""
    led = (flags >> (HOLDS + leader)) & ONE_PER_SUIT
    return (flags >> leader) & led & suits != 0


# --- move ordering ----------------------------------------------------------------------------


@njit(**KERNEL, inline="always")
def _lead_order(
    seat: int, moves: int, hd: int, hl: int, hr: int, present: int, trump: int
) -> tuple[int, int, int]:
    """Leader's buckets among ``moves`` in a contract: (first, second, directions); the rest
    come last. First the top cards of suits he can cash. Then the declarer's highest card of
    each suit; a defender's low card to his partner's top card, or without one his lowest card
    of each suit."""
    hand = _seat_hand(seat, hd, hl, hr)
    partner = 0 if seat == DECLARER else N_SEATS - seat
    first = 0
    second = 0
    for suit in range(N_SUITS):
        held = _suit_of(hand, suit)
        if held == 0:
            continue
        here = _suit_of(present, suit)
        top = SUIT_BITS * suit + HIGH_BIT[held]
        ruffed = False
        if trump >= 0 and suit != trump:
            for other in range(N_SEATS):
                if other == seat or (seat != DECLARER and other != DECLARER):
                    continue
                other_hand = _seat_hand(other, hd, hl, hr)
                if _suit_of(other_hand, suit) == 0 and _suit_of(other_hand, trump) != 0:
                    ruffed = True
        if HIGH_BIT[held] == HIGH_BIT[here] and not ruffed:
            first |= 1 << top
        elif seat != DECLARER:
            partner_held = _suit_of(_seat_hand(partner, hd, hl, hr), suit)
            if partner_held and HIGH_BIT[partner_held] == HIGH_BIT[here]:
                second |= 1 << (SUIT_BITS * suit + LOW_BIT[held])
    first &= moves
    second &= moves & ~first
    if second == 0:  # the declarer, or a defender with no way to his partner's top card
        if seat == DECLARER:
            second = _high_per_suit(moves) & ~first  # drive out the defence's top cards
        else:
            second = _low_per_suit(moves) & ~first
    return first, second, FIRST_HIGH


@njit(**KERNEL)
def _misere_lead_order(
    seat: int, hand: int, hd: int, moves: int, present: int, target: int, unsafe: int
) -> tuple[int, int, int]:
    """Misère leads (docs/design.md, "Search order"), ``target`` the declarer's tricks asked.

    The declarer leads low, first where his lowest card is highest, among suits where another
    seat holds a higher card. If he may take a trick (``target`` 2 or more), he tries too his
    top card of each suit where he is not safe (``unsafe``, ``_unsafe_cards``): first where no
    one holds a higher card (a sure winner), else after the low lead. A defender out to give
    him one trick leads first where the declarer's lowest card is highest above his own: the
    declarer may have to win it. Out to give him more, he leads first where the declarer holds
    a lower card: the declarer ducks with it and keeps his higher cards, to be caught later.
    """
    first = 0
    second = 0
    top_low = -1
    for suit in range(N_SUITS):
        held = _suit_of(hand, suit)
        if held == 0:
            continue
        low = SUIT_BITS * suit + LOW_BIT[held]
        declarer_held = _suit_of(hd, suit)
        if seat == DECLARER:
            others = _suit_of(present, suit) & ~held
            if others and HIGH_BIT[others] > LOW_BIT[held]:
                if LOW_BIT[held] > top_low:
                    second |= first
                    first = 1 << low
                    top_low = LOW_BIT[held]
                else:
                    second |= 1 << low
            else:
                second |= 1 << low
        elif declarer_held:
            if target > 1 and LOW_BIT[declarer_held] < LOW_BIT[held]:
                first |= 1 << low  # a suit where he can duck: draw his low cards
            elif target == 1 and LOW_BIT[declarer_held] > LOW_BIT[held]:
                if LOW_BIT[declarer_held] > top_low:
                    second |= first
                    first = 1 << low
                    top_low = LOW_BIT[declarer_held]
                else:
                    second |= 1 << low
            else:
                second |= 1 << low
    if seat == DECLARER and target > 1:
        tops, winners = _unsafe_tops(hand, present, unsafe)
        if winners:
            return winners & moves, first & moves, FIRST_HIGH
        if tops:
            return first & moves, tops & moves, SECOND_HIGH
    return first & moves, second & moves, 0


@njit(**KERNEL)
def _unsafe_tops(hand: int, present: int, unsafe: int) -> tuple[int, int]:
    """Misère, the declarer's ``hand``: (his top card of each suit where he is not safe, those
    of them that no one beats)."""
    tops = 0
    winners = 0
    unsafe_held = hand & unsafe
    for suit in range(N_SUITS):
        held = _suit_of(unsafe_held, suit)
        if held:
            top = 1 << (SUIT_BITS * suit + HIGH_BIT[held])
            tops |= top
            if HIGH_BIT[held] > HIGH_BIT[_suit_of(present, suit) & ~held]:
                winners |= top
    return tops, winners


@njit(**KERNEL)
def _follow_moves(hand: int, led: int, present: int, trump: int) -> int:
    """A follower's distinct legal cards: one of each run of equivalent cards."""
    follow = _suit_of(hand, led)
    if follow:  # following suit, the usual case: one suit to look up
        tops = np.int64(RUN_TOPS[(_suit_of(present, led) << SUIT_BITS) | follow])
        return int(tops) << (SUIT_BITS * led)  # int64 (numba's int() of a uint8 is unsigned)
    return _run_tops(_legal(hand, led, trump), present)


@njit(**KERNEL, inline="always")
def _follow_order(
    seat: int,
    moves: int,
    led: int,
    best: int,
    winner: int,
    later: int,
    later_hand: int,
    trump: int,
    misere: int,
    shed_first: int,
) -> tuple[int, int, int]:
    """Follower's buckets among ``moves``: (first, second, directions).

    ``best``/``winner``: the trick's best card so far and its seat; ``later``: the seat still to
    play after this one (-1 if this seat plays last), with its hand ``later_hand``; in misère
    ``shed_first`` the cards the declarer sheds first when he cannot follow (0 elsewhere).
    """
    if misere:
        following = (moves & _suit_cards(led)) != 0
        return _misere_follow_order(seat, moves, best, winner, later, following, shed_first)
    beating = _beating(moves, best, trump)
    same_side = (seat == DECLARER) == (winner == DECLARER)
    if later < 0:
        if same_side:
            return _low_per_suit(moves), 0, 0
        return _low_card_of(beating), _low_per_suit(moves & ~beating), 0
    if (later == DECLARER) == (seat == DECLARER):
        return _low_per_suit(moves & ~beating), _low_card_of(beating), REST_HIGH
    safe = 0
    rest = beating
    while rest:
        card = _low_card(rest)
        rest ^= 1 << card
        if not _can_beat(later_hand, led, card, trump):
            safe |= 1 << card
            break
    return safe, _low_per_suit(moves & ~beating), 0


@njit(**KERNEL)
def _beating(cards: int, best: int, trump: int) -> int:
    """The cards that would beat the trick's best card so far."""
    best_suit = best >> SUIT_SHIFT
    out = cards & _suit_cards(best_suit) & ~((1 << (best + 1)) - 1)
    if trump >= 0 and best_suit != trump:
        out |= cards & _suit_cards(trump)
    return out


@njit(**KERNEL)
def _low_card_of(cards: int) -> int:
    if cards == 0:
        return 0
    return 1 << _low_card(cards)


@njit(**KERNEL)
def _misere_follow_order(
    seat: int,
    moves: int,
    best: int,
    winner: int,
    later: int,
    following: bool,
    shed_first: int,
) -> tuple[int, int, int]:
    """Misère follows: the declarer ducks with his highest card that loses, else sheds high,
    from ``shed_first`` (the suits where he is not safe) first; a defender lets a winning
    declarer keep the trick, and plays low ahead of him."""
    if not following:
        high = _high_per_suit(moves)
        first = high & shed_first if seat == DECLARER else high
        return first, high, FIRST_HIGH | SECOND_HIGH | REST_HIGH
    below = moves & ((1 << best) - 1)
    if seat == DECLARER:
        return below, 0, FIRST_HIGH | REST_HIGH
    if later == DECLARER:
        return moves, 0, 0
    if winner == DECLARER:
        return below, 0, FIRST_HIGH | REST_HIGH
    return moves, 0, FIRST_HIGH


@njit(**KERNEL)
def _pick(cards: int, high_first: int) -> int:
    return _high_card(cards) if high_first else _low_card(cards)


@njit(**KERNEL)
def _bucket(index: int, hint: int, first: int, second: int, moves: int) -> int:
    if index == 0:
        return hint & moves
    moves &= ~hint
    if index == 1:
        return first & moves
    if index == 2:
        return second & moves & ~first
    return moves & ~first & ~second


# --- search -----------------------------------------------------------------------------------


UNDECIDED = -1


@njit(**KERNEL)
def _asks_this_trick(target: int, n_tricks: int, leader: int) -> bool:
    """Misère: does the null-window question turn on the trick about to start (``_sure_duck``)?
    "Every trick?" fails if he can lose this one; "one trick?", on lead, holds if he cannot."""
    return target == n_tricks or (target == 1 and leader == DECLARER)


@njit(**KERNEL, inline="always")
def _contract_probe(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    target: int,
    trump: int,
    n_tricks: int,
    codes: tuple[int, int, int, int],
    touched: int,
    tt: np.ndarray,
) -> tuple[int, int, int, tuple[int, int, int, int]]:
    """``_probe`` in a contract: the table's bounds first, then the declarer's sure tricks (they
    settle more questions than the defence's), then the defence's (docs/design.md, "Search
    order")."""
    key, hint, lower, upper = -1, NO_HINT, 0, n_tricks
    if n_tricks >= TT_MIN_TRICKS:
        codes = _updated_codes(codes, touched, hl, hr, hd | hl | hr)
        key = _position_key(codes, leader, trump, 0)
        lower, upper, hint = _tt_bounds(tt, key, n_tricks)
    if lower >= target:
        return 1, key, hint, codes
    if upper < target:
        return 0, key, hint, codes
    if _declarer_sure_tricks(hd, hl, hr, leader, trump) >= target:
        return 1, key, hint, codes
    if n_tricks - _defence_sure_tricks(hd, hl, hr, leader, trump, 0) < target:
        return 0, key, hint, codes
    return UNDECIDED, key, hint, codes


@njit(**KERNEL, inline="always")
def _probe(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    target: int,
    trump: int,
    misere: int,
    n_tricks: int,
    codes: tuple[int, int, int, int],
    touched: int,
    tt: np.ndarray,
) -> tuple[int, int, int, tuple[int, int, int, int]]:
    """Answer a null-window question without search if possible: (1, 0 or UNDECIDED; key; hint;
    the suit codes, which ``_search`` goes on from: up to date whenever the answer is
    UNDECIDED, possibly stale otherwise).

    ``n_tricks`` is the number of cards in each hand; ``codes`` the suit codes before the last
    trick, which changed the suits in ``touched``. The key is -1 for positions too small to
    store.
    """
    if target <= 0:
        return 1, -1, NO_HINT, codes
    if target > n_tricks:
        return 0, -1, NO_HINT, codes
    if n_tricks == 1:
        return (1 if _last_trick(hd, hl, hr, leader, trump) >= target else 0), -1, NO_HINT, codes
    if n_tricks == 2:
        reached = _two_tricks_reach(hd, hl, hr, leader, target, trump, misere)
        return (1 if reached else 0), -1, NO_HINT, codes
    if not misere:
        return _contract_probe(hd, hl, hr, leader, target, trump, n_tricks, codes, touched, tt)
    codes = _updated_codes(codes, touched, hl, hr, hd | hl | hr)
    lower, upper = _misere_bounds(leader, n_tricks, codes)
    if lower < target <= upper and _asks_this_trick(target, n_tricks, leader):
        if _sure_duck(hd, hl, hr, leader):
            upper = n_tricks - 1
        else:
            lower = 1
    if lower >= target:
        return 1, -1, NO_HINT, codes
    if upper < target:
        return 0, -1, NO_HINT, codes
    if n_tricks < TT_MIN_TRICKS:
        return UNDECIDED, -1, NO_HINT, codes
    key = _position_key(codes, leader, trump, misere)
    lower, upper, hint = _tt_bounds(tt, key, n_tricks)
    if lower >= target:
        return 1, key, hint, codes
    if upper < target:
        return 0, key, hint, codes
    return UNDECIDED, key, hint, codes


@njit(**KERNEL, inline="always")
def _trick_seats(
    leader: int, hd: int, hl: int, hr: int, misere: int
) -> tuple[int, int, int, int, int, int, bool, bool, bool]:
    """The seats of a trick led by ``leader`` in play order, their hands, and whether each
    maximises (``_search`` and ``_potential._late_search`` start a trick with it)."""
    seat2 = (leader + 1) % N_SEATS
    seat3 = (leader + 2) % N_SEATS
    hand1 = _seat_hand(leader, hd, hl, hr)
    hand2 = _seat_hand(seat2, hd, hl, hr)
    hand3 = _seat_hand(seat3, hd, hl, hr)
    max1, max2, max3 = _is_max(leader, misere), _is_max(seat2, misere), _is_max(seat3, misere)
    return leader, seat2, seat3, hand1, hand2, hand3, max1, max2, max3


@njit(**KERNEL, inline="always")
def _store_answer(
    tt: np.ndarray, key: int, n_tricks: int, target: int, answer: bool, hint: int
) -> None:
    """Store a searched null-window answer (``key`` -1: a position too small to store): a
    lower bound ``target`` if it is yes, an upper bound ``target - 1`` if no."""
    if key >= 0:
        if answer:
            _tt_store(tt, key, n_tricks, target, n_tricks, hint)
        else:
            _tt_store(tt, key, n_tricks, 0, target - 1, hint)


def _search_signature(misere: int) -> Signature:
    """``_search``'s signature with ``misere`` a constant (a numba literal): it is compiled once
    for contracts and once for misère, so neither carries the other's branches (docs/design.md,
    "Kernels and wrappers")."""
    hands_to_trump = (int64,) * 6  # hd, hl, hr, leader, target, trump
    return boolean(*hands_to_trump, types.literal(misere), int64, int64, int64, CODES, int64[::1])


@njit([_search_signature(0), _search_signature(1)], **KERNEL)
def _search(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    target: int,
    trump: int,
    misere: int,
    n_tricks: int,
    key: int,
    hint: int,
    codes: tuple[int, int, int, int],
    tt: np.ndarray,
) -> bool:
    """Null-window search of a trick start that ``_probe`` left undecided (with its ``key``,
    ``hint`` and suit ``codes``).

    Plays every distinct card of the trick; each seat wants the answer True if it maximises,
    False otherwise, and stops at the first card giving it. Each next trick start is probed
    here and searched only if the probe cannot answer.
    """
    tt[_node_counter(tt)] += 1
    present = hd | hl | hr
    seat1, seat2, seat3, hand1, hand2, hand3, max1, max2, max3 = _trick_seats(
        leader, hd, hl, hr, misere
    )
    moves1 = _run_tops(hand1, present)
    shed_first = _unsafe_cards(codes) if misere else 0
    if misere:
        first1, second1, dirs1 = _misere_lead_order(
            seat1, hand1, hd, moves1, present, target, shed_first
        )
    else:
        first1, second1, dirs1 = _lead_order(seat1, moves1, hd, hl, hr, present, trump)
    hint1 = _hint_card(hint, moves1, present)
    killer = _killer_slot(tt, leader, n_tricks, target)
    if hint1 == 0:
        hint1 = _killer_card(tt[killer], hand1, moves1)
    decisive = NO_HINT
    answer1 = not max1
    for bucket1 in range(N_BUCKETS):
        cards1 = _bucket(bucket1, hint1, first1, second1, moves1)
        while cards1 and answer1 != max1:
            card1 = _pick(cards1, (dirs1 >> bucket1) & 1)
            cards1 ^= 1 << card1
            led = card1 >> SUIT_SHIFT
            moves2 = _follow_moves(hand2, led, present, trump)
            moves3 = _follow_moves(hand3, led, present, trump)
            first2, second2, dirs2 = _follow_order(
                seat2, moves2, led, card1, seat1, seat3, hand3, trump, misere, shed_first
            )
            answer2 = not max2
            for bucket2 in range(N_BUCKETS):
                cards2 = _bucket(bucket2, 0, first2, second2, moves2)
                while cards2 and answer2 != max2:
                    card2 = _pick(cards2, (dirs2 >> bucket2) & 1)
                    cards2 ^= 1 << card2
                    best, winner = card1, seat1
                    if _beats(card2, best, trump):
                        best, winner = card2, seat2
                    first3, second3, dirs3 = _follow_order(
                        seat3, moves3, led, best, winner, -1, 0, trump, misere, shed_first
                    )
                    answer3 = not max3
                    for bucket3 in range(N_BUCKETS):
                        cards3 = _bucket(bucket3, 0, first3, second3, moves3)
                        while cards3 and answer3 != max3:
                            card3 = _pick(cards3, (dirs3 >> bucket3) & 1)
                            cards3 ^= 1 << card3
                            last = seat3 if _beats(card3, best, trump) else winner
                            kept = ~((1 << card1) | (1 << card2) | (1 << card3))
                            next_target = target - (1 if last == DECLARER else 0)
                            touched = (
                                (1 << led)
                                | (1 << (card2 >> SUIT_SHIFT))
                                | (1 << (card3 >> SUIT_SHIFT))
                            )
                            decided, next_key, next_hint, next_codes = _probe(
                                hd & kept,
                                hl & kept,
                                hr & kept,
                                last,
                                next_target,
                                trump,
                                misere,
                                n_tricks - 1,
                                codes,
                                touched,
                                tt,
                            )
                            if decided != UNDECIDED:
                                answer3 = decided == 1
                            else:
                                answer3 = _search(
                                    hd & kept,
                                    hl & kept,
                                    hr & kept,
                                    last,
                                    next_target,
                                    trump,
                                    misere,
                                    n_tricks - 1,
                                    next_key,
                                    next_hint,
                                    next_codes,
                                    tt,
                                )
                    if answer3 == max2:
                        answer2 = answer3
            if answer2 == max1:
                answer1 = answer2
                decisive = _hint_of(card1, present)
                tt[killer] = card1
    _store_answer(tt, key, n_tricks, target, answer1, decisive)
    return answer1


@njit(
    boolean(int64, int64, int64, int64, int64, int64, int64, int64[::1]),
    **KERNEL,
)
def _reaches(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    target: int,
    trump: int,
    misere: int,
    tt: np.ndarray,
) -> bool:
    """Null-window test at a trick start: does the declarer take >= ``target`` more tricks?"""
    n_tricks = _count(hd)
    decided, key, hint, codes = _probe(
        hd, hl, hr, leader, target, trump, misere, n_tricks, NO_CODES, ALL_SUITS, tt
    )
    if decided != UNDECIDED:
        return decided == 1
    if misere:  # a constant 1 or 0 picks the compiled version (``_search_signature``)
        return _search(hd, hl, hr, leader, target, trump, 1, n_tricks, key, hint, codes, tt)
    return _search(hd, hl, hr, leader, target, trump, 0, n_tricks, key, hint, codes, tt)


# --- drivers ----------------------------------------------------------------------------------


# First guess of a trump contract's value, in hundredths: a least-squares fit on random deals of
# the value on the declarer's top cards, trumps, aces, kings and cards outranking most of the
# defenders' cards of their suit, shifted up by half a trick.
GUESS_TOPS = 28
GUESS_TRUMPS = 122
GUESS_ACES = 74
GUESS_KINGS = 27
GUESS_HIGH = 16
GUESS_OFFSET = -190
GUESS_SCALE = 100
ACE = SUIT_BITS - 1
KING = SUIT_BITS - 2


@njit(**KERNEL)
def _top_runs(hd: int, present: int) -> int:
    """The declarer's top cards in a row (``TOP_RUN``), summed over the suits."""
    tops = 0
    for suit in range(N_SUITS):
        tops += int(TOP_RUN[(_suit_of(present, suit) << SUIT_BITS) | _suit_of(hd, suit)])
    return tops


@njit(**KERNEL)
def _guess(hd: int, hl: int, hr: int, trump: int, misere: int) -> int:
    """A first target for the null-window steps (each measured best on random deals).

    Misère starts at 1 and steps up: the tests below the value are cheap. No trump starts one
    above the declarer's top cards in a row (with a defender on lead a fifth fewer positions
    than from 1, the same with the declarer on lead); trump contracts from a fitted estimate.
    """
    if misere:
        return 1
    present = hd | hl | hr
    if trump < 0:
        return _top_runs(hd, present) + 1
    defence = hl | hr
    score = GUESS_OFFSET + GUESS_TRUMPS * _count(_suit_of(hd, trump))
    score += GUESS_TOPS * _top_runs(hd, present)
    for suit in range(N_SUITS):
        held = _suit_of(hd, suit)
        others = _suit_of(defence, suit)
        score += GUESS_ACES * ((held >> ACE) & 1) + GUESS_KINGS * ((held >> KING) & 1)
        for rank in range(SUIT_BITS):
            if (held >> rank) & 1:
                below = _count(others & ((1 << rank) - 1))
                score += GUESS_HIGH * (below > _count(others >> (rank + 1)))
    return score // GUESS_SCALE


@njit(
    int64(int64, int64, int64, int64, int64, int64, int64, int64, int64[::1]),
    **KERNEL,
)
def exact_value(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    trump: int,
    misere: int,
    lower: int,
    upper: int,
    tt: np.ndarray,
) -> int:
    """The value, known to lie in [lower, upper], by null-window steps from a guess."""
    target = _guess(hd, hl, hr, trump, misere)
    while lower < upper:
        target = min(max(target, lower + 1), upper)
        if _reaches(hd, hl, hr, leader, target, trump, misere, tt):
            lower = target
            target += 1
        else:
            upper = target - 1
    return lower


@njit(**KERNEL)
def _kernel_hands(row: np.ndarray, declarer: int) -> tuple[int, int, int]:
    """A row of seat hands, renumbered from the declarer."""
    hd = int(row[declarer])
    hl = int(row[(declarer + 1) % N_SEATS])
    hr = int(row[(declarer + 2) % N_SEATS])
    return hd, hl, hr


@njit(
    void(uint32[:, ::1], int64, int64, int64, int64, int64[::1], int8[::1], int64[::1]),
    cache=True,
    nogil=True,
)
def solve_batch(
    hands: np.ndarray,
    trump: int,
    misere: int,
    declarer: int,
    leader: int,
    tt: np.ndarray,
    out: np.ndarray,
    nodes: np.ndarray,
) -> None:
    """Exact values of many deals into ``out`` and each deal's node count into ``nodes``."""
    kernel_leader = (leader - declarer + N_SEATS) % N_SEATS
    for deal in range(hands.shape[0]):
        hd, hl, hr = _kernel_hands(hands[deal], declarer)
        before = tt[_node_counter(tt)]
        out[deal] = exact_value(hd, hl, hr, kernel_leader, trump, misere, 0, _count(hd), tt)
        nodes[deal] = tt[_node_counter(tt)] - before


@njit(
    void(uint32[:, ::1], int64, int64, int64, int64, int64, int64[::1], boolean[::1], int64[::1]),
    cache=True,
    nogil=True,
)
def makes_batch(
    hands: np.ndarray,
    target: int,
    trump: int,
    misere: int,
    declarer: int,
    leader: int,
    tt: np.ndarray,
    out: np.ndarray,
    nodes: np.ndarray,
) -> None:
    """Contract: does the declarer take >= target? Misère: does he keep to <= target?"""
    kernel_leader = (leader - declarer + N_SEATS) % N_SEATS
    for deal in range(hands.shape[0]):
        hd, hl, hr = _kernel_hands(hands[deal], declarer)
        before = tt[_node_counter(tt)]
        if misere:
            out[deal] = not _reaches(hd, hl, hr, kernel_leader, target + 1, trump, misere, tt)
        else:
            out[deal] = _reaches(hd, hl, hr, kernel_leader, target, trump, misere, tt)
        nodes[deal] = tt[_node_counter(tt)] - before


@njit(void(uint32[:, ::1], int64, uint8[::1]), cache=True, nogil=True)
def unsafe_suits_batch(hands: np.ndarray, declarer: int, out: np.ndarray) -> None:
    """Misère: each deal's suits (a bit each) where the declarer is not safe
    (``_unsafe_suits``) into ``out``."""
    for deal in range(hands.shape[0]):
        hd, hl, hr = _kernel_hands(hands[deal], declarer)
        out[deal] = _unsafe_suits(_all_codes(hd, hl, hr))
