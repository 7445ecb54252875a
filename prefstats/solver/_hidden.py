"""Numba kernels of misère with the discard hidden (docs/rules.md, "Misère information models").

The declarer's candidate cards ``cand`` hold his hand and his two discards; the catchers (kernel
seats 1 and 2, ``hl`` and ``hr``) know them and a set S of possible discards, not which one he
made. A catcher card is one choice for every discard of S; the declarer, knowing his discard,
plays any card legal in his actual hand, and the card he plays leaves in S only the discards in
which it is legal (``_after_card``). The value is the number of tricks the catchers force
whichever discard of S he made:

- a catcher's turn: the best card for the catchers, S unchanged;
- the declarer's turn: the worst, over every card ``d`` legal for some discard of S, of the
  value with S cut to the discards in which ``d`` is legal.

(A catcher strategy's choices after different declarer cards are independent, so the catchers'
best over strategies of the worst over declarer cards is the worst of their bests.) With one
discard left in S the game is open misère and ``_search._reaches`` answers it.

S is a set of pairs of the root's candidate cards (at most 12, so 66 pairs), held in two words of
``PAIR_WORD`` bits each (``S_lo``, ``S_hi``); the ``pairs`` array, filled by ``fill_pairs`` for
each root, gives for each card the pairs holding it and for each pair index its two cards.
Positions are probed at trick starts in a table of their own (``new_hidden_table``), keyed as the
open solver's on relative ranks, with S re-indexed over the candidate cards still held
(``_keys``), so that positions of other layouts and other roots share entries. ``_reaches`` uses
the open solver's table. ``reaches(..., first)`` with ``first`` a card makes the declarer, on
lead, lead it (the blind lead's question). At a trick start a catcher on lead tries first the
card that last decided the open position of a discard of S, the declarer his lowest card where
it is highest (``_declarer_lead``, the open search's misère lead); the followers try their cards
in the open search's misère order (``_next_card``); the open bound reads every discard's table
entry before it searches any (one "no" settles it). The bound is not asked at the root when the
declarer leads (``cand == root``): each trick start after his first lead asks it, and at the
root it only repeated those searches (docs/design.md, "Hidden-discard search").
"""

from __future__ import annotations

import numpy as np
from numba import boolean, int8, int64, uint32, void

from prefstats.game.deal import N_SEATS
from prefstats.kernels import njit
from prefstats.solver._search import (
    ALL_SUITS,
    DECLARER,
    KERNEL,
    NO_CODES,
    NO_TRUMP,
    SUIT_SHIFT,
    UNDECIDED,
    _all_codes,
    _count,
    _high_card,
    _high_per_suit,
    _hint_card,
    _legal,
    _low_card,
    _low_per_suit,
    _probe,
    _reaches,
    _run_tops,
    _seat_hand,
    _suit_cards,
    exact_value,
)
from prefstats.solver._tables import N_SUIT_CODES

MAX_CANDIDATES = 12  # a misère declarer's ten cards and his two discards
MAX_PAIRS = MAX_CANDIDATES * (MAX_CANDIDATES - 1) // 2  # 66
PAIR_WORD = 33  # pairs held in each of S's two words
N_CARD_BITS = 32
PAIRS_SIZE = 2 * N_CARD_BITS + MAX_PAIRS  # per card its pairs (two words), then each pair's cards
PAIR_CARDS = 2 * N_CARD_BITS  # where the pairs' cards start in the ``pairs`` array
NO_CARD = -1

HIDDEN_TABLE_BITS = 18  # entries of the hidden-discard table: 2**18 of ENTRY_WORDS words (8 MB)
ENTRY_WORDS = 4  # three key words (``_keys``), then the bounds (lower | upper << BOUND_SHIFT)
BOUND_SHIFT = 8
BOUND_MASK = (1 << BOUND_SHIFT) - 1
EMPTY = -1
# Products are cut to 62 bits: the compiled kernel's wrapped product and Python's exact one then
# agree (the key words are below 2**63: the first is under 3 * N_SUIT_CODES**4 < 2**55).
MIX_MASK = (1 << 62) - 1
HASH_1 = 0x2545F4914F6CDD1D
HASH_2 = 0x1B873593A5A5A5A5
HASH_3 = 0x5BD1E9955BD1E995
HASH_4 = 0x27D4EB2F165667C5


def new_hidden_table(bits: int = HIDDEN_TABLE_BITS) -> np.ndarray:
    """An empty hidden-discard table of 2**bits entries, then one word counting the trick-start
    positions searched."""
    table = np.full((1 << bits) * ENTRY_WORDS + 1, EMPTY, dtype=np.int64)
    table[-1] = 0
    return table


# --- sets of discards -------------------------------------------------------------------------


@njit(void(int64, int64[::1]), cache=True, nogil=True)
def fill_pairs(root: int, pairs: np.ndarray) -> None:
    """Index the pairs of the root's candidate cards: pair (i, j), i < j the cards' places among
    them low to high, is ``j (j - 1) / 2 + i``; word ``index // PAIR_WORD``, bit
    ``index % PAIR_WORD``."""
    pairs[:] = 0
    high_cards = root
    j = 0
    while high_cards:
        high = _low_card(high_cards)
        high_cards ^= 1 << high
        low_cards = root & ((1 << high) - 1)
        i = 0
        while low_cards:
            low = _low_card(low_cards)
            low_cards ^= 1 << low
            index = j * (j - 1) // 2 + i
            word, bit = index // PAIR_WORD, index % PAIR_WORD
            pairs[2 * low + word] |= 1 << bit
            pairs[2 * high + word] |= 1 << bit
            pairs[PAIR_CARDS + index] = (1 << low) | (1 << high)
            i += 1
        j += 1


@njit(**KERNEL)
def _pair_set(discard: int, pairs: np.ndarray) -> tuple[int, int]:
    """S holding only the two-card ``discard`` (both cards among the root's)."""
    first = _low_card(discard)
    second = _high_card(discard)
    return (
        pairs[2 * first] & pairs[2 * second],
        pairs[2 * first + 1] & pairs[2 * second + 1],
    )


@njit(**KERNEL)
def _next_pair(s_lo: int, s_hi: int) -> tuple[int, int, int]:
    """The index of S's lowest pair, and S without it: S is walked by ``while s_lo or s_hi:
    index, s_lo, s_hi = _next_pair(s_lo, s_hi)``, the pair's cards ``pairs[PAIR_CARDS +
    index]``."""
    if s_lo:
        bit = _low_card(s_lo)
        return bit, s_lo ^ (1 << bit), s_hi
    bit = _low_card(s_hi)
    return PAIR_WORD + bit, s_lo, s_hi ^ (1 << bit)


@njit(**KERNEL)
def _with_pair(index: int, s_lo: int, s_hi: int) -> tuple[int, int]:
    """S with the pair of that index added."""
    if index < PAIR_WORD:
        return s_lo | (1 << index), s_hi
    return s_lo, s_hi | (1 << (index - PAIR_WORD))


@njit(**KERNEL)
def _only_pair(s_lo: int, s_hi: int, pairs: np.ndarray) -> int:
    """The two cards of S's one pair."""
    index, _, _ = _next_pair(s_lo, s_hi)
    cards: int = pairs[PAIR_CARDS + index]
    return cards


@njit(**KERNEL)
def _after_card(
    card: int, cand: int, led: int, s_lo: int, s_hi: int, pairs: np.ndarray
) -> tuple[int, int]:
    """The discards of S in which the declarer, holding ``cand`` less the discard, may play
    ``card`` to a trick led in suit ``led`` (-1: he leads): ``card`` is not discarded, and a
    card of another suit than the led one needs every card of the led suit discarded."""
    s_lo &= ~pairs[2 * card]
    s_hi &= ~pairs[2 * card + 1]
    if led >= 0 and card >> SUIT_SHIFT != led:
        follow = cand & _suit_cards(led)
        if _count(follow) > 2:
            return 0, 0
        while follow:
            other = _low_card(follow)
            follow ^= 1 << other
            s_lo &= pairs[2 * other]
            s_hi &= pairs[2 * other + 1]
    return s_lo, s_hi


# --- table ------------------------------------------------------------------------------------


@njit(**KERNEL)
def _entry(keys: tuple[int, int, int], htt: np.ndarray) -> int:
    """First word of the entry the position's keys map to."""
    mixed = (
        (keys[0] * HASH_1 & MIX_MASK)
        ^ (keys[1] * HASH_2 & MIX_MASK)
        ^ (keys[2] * HASH_3 & MIX_MASK)
    )
    mixed ^= mixed >> 29
    mixed = mixed * HASH_4 & MIX_MASK
    mixed ^= mixed >> 32
    n_entries = (htt.shape[0] - 1) // ENTRY_WORDS
    first: int = (mixed & (n_entries - 1)) * ENTRY_WORDS
    return first


@njit(**KERNEL)
def _keys(
    cand: int, hl: int, hr: int, leader: int, s_lo: int, s_hi: int, pairs: np.ndarray
) -> tuple[int, int, int]:
    """A trick start's key, the same for every position that plays alike: the leader and each
    suit's ownership code (``_search._suit_code``: relative ranks, played cards squeezed out),
    then S with each pair re-indexed by its cards' places among the candidate cards still held
    (pair (i, j), i < j, is ``j (j - 1) / 2 + i`` as in ``fill_pairs``). So positions of other
    layouts and other roots share entries, as they share the open table's."""
    c0, c1, c2, c3 = _all_codes(cand, hl, hr)
    key = leader
    for code in (c0, c1, c2, c3):
        key = key * N_SUIT_CODES + code
    relative_lo = 0
    relative_hi = 0
    while s_lo or s_hi:
        index, s_lo, s_hi = _next_pair(s_lo, s_hi)
        cards = pairs[PAIR_CARDS + index]
        i = _count(cand & ((1 << _low_card(cards)) - 1))
        j = _count(cand & ((1 << _high_card(cards)) - 1))
        relative_lo, relative_hi = _with_pair(j * (j - 1) // 2 + i, relative_lo, relative_hi)
    return key, relative_lo, relative_hi


@njit(**KERNEL)
def _table_bounds(keys: tuple[int, int, int], n_tricks: int, htt: np.ndarray) -> tuple[int, int]:
    at = _entry(keys, htt)
    if htt[at] == keys[0] and htt[at + 1] == keys[1] and htt[at + 2] == keys[2]:
        data = htt[at + 3]
        return data & BOUND_MASK, data >> BOUND_SHIFT
    return 0, n_tricks


@njit(**KERNEL)
def _table_store(keys: tuple[int, int, int], lower: int, upper: int, htt: np.ndarray) -> None:
    at = _entry(keys, htt)
    if htt[at] == keys[0] and htt[at + 1] == keys[1] and htt[at + 2] == keys[2]:
        data = htt[at + 3]
        lower = max(lower, data & BOUND_MASK)
        upper = min(upper, data >> BOUND_SHIFT)
    for word in range(3):
        htt[at + word] = keys[word]
    htt[at + 3] = lower | (upper << BOUND_SHIFT)


# --- search -----------------------------------------------------------------------------------


@njit(**KERNEL)
def _some_open_no(
    cand: int,
    hl: int,
    hr: int,
    leader: int,
    target: int,
    s_lo: int,
    s_hi: int,
    pairs: np.ndarray,
    tt: np.ndarray,
) -> tuple[bool, int]:
    """(Can the catchers, even seeing it, not force ``target`` tricks for some discard of S?
    Then they cannot with it hidden: the value is at most the least open value over S. The open
    table's probe answers first, else the open search; the card, as a one-card mask, that last
    decided the open position of some discard of S when a catcher leads, else 0: a catcher on
    lead tries it first.)"""
    n_tricks = _count(hl)
    hint_card = 0
    undecided_lo = 0
    undecided_hi = 0
    while s_lo or s_hi:  # the table's probes first: one "no" settles it without a search
        index, s_lo, s_hi = _next_pair(s_lo, s_hi)
        kept = cand & ~pairs[PAIR_CARDS + index]
        decided, _, hint, _ = _probe(
            kept, hl, hr, leader, target, NO_TRUMP, 1, n_tricks, NO_CODES, ALL_SUITS, tt
        )
        if decided == 0:
            return True, 0
        if decided == UNDECIDED:
            undecided_lo, undecided_hi = _with_pair(index, undecided_lo, undecided_hi)
        if hint_card == 0 and leader != DECLARER:
            present = kept | hl | hr
            hand = _seat_hand(leader, kept, hl, hr)
            hint_card = _hint_card(hint, _run_tops(hand, present), present)
    while undecided_lo or undecided_hi:
        index, undecided_lo, undecided_hi = _next_pair(undecided_lo, undecided_hi)
        kept = cand & ~pairs[PAIR_CARDS + index]
        if not _reaches(kept, hl, hr, leader, target, NO_TRUMP, 1, tt):
            return True, 0
    return False, hint_card


@njit(**KERNEL)
def _in_some_pair(s_lo: int, s_hi: int, pairs: np.ndarray) -> int:
    """The cards of the pairs of S."""
    cards = 0
    while s_lo or s_hi:
        index, s_lo, s_hi = _next_pair(s_lo, s_hi)
        cards |= pairs[PAIR_CARDS + index]
    return cards


@njit(**KERNEL)
def _moves(seat: int, cand: int, hl: int, hr: int, led: int, present: int, unsure: int) -> int:
    """The cards a seat tries: a catcher one of each run of equivalent legal cards (swapping
    two of his equivalent cards changes nothing, S included); the declarer every candidate
    card in some pair of S (``unsure``; which of them he may play depends on his discard:
    ``_after_card``) and one of each run of the others, which he holds whatever his discard
    (swapping two of them leaves S as it is)."""
    if seat == DECLARER:
        return _run_tops(cand & ~unsure, present) | (cand & unsure)
    return _run_tops(_legal(_seat_hand(seat, cand, hl, hr), led, NO_TRUMP), present)


@njit(**KERNEL)
def _declarer_lead(moves: int, cand: int, present: int) -> int:
    """The declarer's lead tried first: his lowest card where it is highest, among the suits
    where another seat holds a higher card (as the open search's misère order), as a one-card
    mask; 0 if none."""
    best = 0
    best_rank = -1
    lows = _low_per_suit(moves)
    while lows:
        card = _low_card(lows)
        lows ^= 1 << card
        above = present & _suit_cards(card >> SUIT_SHIFT) & ~((2 << card) - 1) & ~cand
        rank = card & ((1 << SUIT_SHIFT) - 1)
        if above and rank > best_rank:
            best, best_rank = 1 << card, rank
    return best


@njit(**KERNEL)
def _highest_rank(cards: int) -> int:
    """The card of ``cards`` of the highest rank (of equal ranks, the lowest suit)."""
    best = -1
    best_rank = -1
    highs = _high_per_suit(cards)
    while highs:
        card = _low_card(highs)
        highs ^= 1 << card
        rank = card & ((1 << SUIT_SHIFT) - 1)
        if rank > best_rank:
            best, best_rank = card, rank
    return best


@njit(**KERNEL)
def _next_card(seat: int, moves: int, best: int, winner: int, declarer_later: bool) -> int:
    """The next card a follower tries, as the open search's misère order: one who cannot
    follow sheds his highest card first; the declarer ducks with his highest card below the
    trick's best, then plays low; a catcher ahead of the declarer plays low, one after him
    lets a winning declarer keep the trick (his highest card below it first), else plays
    high."""
    led_cards = _suit_cards(best >> SUIT_SHIFT)
    if not moves & led_cards:
        return _highest_rank(moves)
    below = moves & led_cards & ((1 << best) - 1)
    if seat == DECLARER:
        return _high_card(below) if below else _low_card(moves)
    if declarer_later:
        return _low_card(moves)
    if winner == DECLARER:
        return _high_card(below) if below else _high_card(moves)
    return _high_card(moves)


@njit(
    boolean(
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64[::1],
        int64[::1],
        int64[::1],
    ),
    **KERNEL,
)
def reaches(
    cand: int,
    hl: int,
    hr: int,
    leader: int,
    target: int,
    s_lo: int,
    s_hi: int,
    first: int,
    root: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
) -> bool:
    """At a trick start: can the catchers force ``target`` more tricks whichever discard of S
    the declarer made? ``first``: a card the declarer (on lead) must lead, or ``NO_CARD``."""
    n_tricks = _count(hl)
    if target <= 0:
        return True
    if target > n_tricks:
        return False
    keys = (0, 0, 0)
    hint_card = 0
    if first == NO_CARD:
        if _count(s_lo) + _count(s_hi) == 1:
            kept = cand & ~_only_pair(s_lo, s_hi, pairs)
            return _reaches(kept, hl, hr, leader, target, NO_TRUMP, 1, tt)
        keys = _keys(cand, hl, hr, leader, s_lo, s_hi, pairs)
        lower, upper = _table_bounds(keys, n_tricks, htt)
        if lower >= target:
            return True
        if upper < target:
            return False
        proved_no = False
        if cand != root or leader != DECLARER:
            proved_no, hint_card = _some_open_no(
                cand, hl, hr, leader, target, s_lo, s_hi, pairs, tt
            )
        if proved_no:
            _table_store(keys, 0, target - 1, htt)
            return False
    htt[htt.shape[0] - 1] += 1
    # NO_CARD for the next tricks, typed as int64 (a literal argument to the recursive call
    # would make numba compile a second version, which its cache cannot reload)
    no_card = NO_CARD if n_tricks > 0 else first
    present = cand | hl | hr
    unsure = _in_some_pair(s_lo, s_hi, pairs)
    seat1 = leader
    seat2 = (leader + 1) % N_SEATS
    seat3 = (leader + 2) % N_SEATS
    want1 = seat1 != DECLARER
    want2 = seat2 != DECLARER
    want3 = seat3 != DECLARER
    moves1 = (1 << first) if first != NO_CARD else _moves(seat1, cand, hl, hr, -1, present, unsure)
    answer1 = not want1
    while moves1 and answer1 != want1:
        pick = hint_card & moves1
        if pick == 0 and seat1 == DECLARER:
            pick = _declarer_lead(moves1, cand, present)
        card1 = _low_card(pick if pick else moves1)
        moves1 ^= 1 << card1
        lo1, hi1 = s_lo, s_hi
        if seat1 == DECLARER:
            lo1, hi1 = _after_card(card1, cand, -1, s_lo, s_hi, pairs)
            if lo1 == 0 and hi1 == 0:
                continue
        led = card1 >> SUIT_SHIFT
        moves2 = _moves(seat2, cand, hl, hr, led, present, unsure)
        answer2 = not want2
        while moves2 and answer2 != want2:
            card2 = _next_card(seat2, moves2, card1, seat1, seat3 == DECLARER)
            moves2 ^= 1 << card2
            lo2, hi2 = lo1, hi1
            if seat2 == DECLARER:
                lo2, hi2 = _after_card(card2, cand, led, lo1, hi1, pairs)
                if lo2 == 0 and hi2 == 0:
                    continue
            best, winner = card1, seat1
            if card2 >> SUIT_SHIFT == led and card2 > best:
                best, winner = card2, seat2
            moves3 = _moves(seat3, cand, hl, hr, led, present, unsure)
            answer3 = not want3
            while moves3 and answer3 != want3:
                card3 = _next_card(seat3, moves3, best, winner, False)
                moves3 ^= 1 << card3
                lo3, hi3 = lo2, hi2
                if seat3 == DECLARER:
                    lo3, hi3 = _after_card(card3, cand, led, lo2, hi2, pairs)
                    if lo3 == 0 and hi3 == 0:
                        continue
                last = seat3 if card3 >> SUIT_SHIFT == led and card3 > best else winner
                kept = ~((1 << card1) | (1 << card2) | (1 << card3))
                answer3 = reaches(
                    cand & kept,
                    hl & kept,
                    hr & kept,
                    last,
                    target - (1 if last == DECLARER else 0),
                    lo3,
                    hi3,
                    no_card,
                    root,
                    pairs,
                    htt,
                    tt,
                )
            if answer3 == want2:
                answer2 = answer3
        if answer2 == want1:
            answer1 = answer2
    if first == NO_CARD:
        if answer1:
            _table_store(keys, target, n_tricks, htt)
        else:
            _table_store(keys, 0, target - 1, htt)
    return answer1


@njit(
    int64(
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64[::1],
        int64[::1],
        int64[::1],
    ),
    **KERNEL,
)
def hidden_value(
    cand: int,
    hl: int,
    hr: int,
    leader: int,
    at_least: int,
    s_lo: int,
    s_hi: int,
    first: int,
    root: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
) -> int:
    """The tricks the catchers force (``reaches`` stepped up from one more than ``at_least``,
    a number of tricks known to be forced)."""
    value = max(at_least, 0)
    while reaches(cand, hl, hr, leader, value + 1, s_lo, s_hi, first, root, pairs, htt, tt):
        value += 1
    return value


@njit(**KERNEL)
def _discard_set(row: np.ndarray, pairs: np.ndarray) -> tuple[int, int]:
    """S of a row of two-card discard masks (0: an unused slot); every pair if none is set."""
    s_lo = 0
    s_hi = 0
    for slot in range(row.shape[0]):
        if row[slot]:
            # numba's int64, which the type checker does not take for a Python int
            lo, hi = _pair_set(np.int64(row[slot]), pairs)  # type: ignore[arg-type]
            s_lo |= lo
            s_hi |= hi
    if s_lo == 0 and s_hi == 0:
        for index in range(MAX_PAIRS):
            if pairs[PAIR_CARDS + index]:
                s_lo, s_hi = _with_pair(index, s_lo, s_hi)
    return s_lo, s_hi


@njit(
    void(
        uint32[:, ::1],
        uint32[:, ::1],
        int64,
        int64,
        int64,
        int64[::1],
        int64[::1],
        int64[::1],
        int8[::1],
    ),
    cache=True,
    nogil=True,
)
def hidden_batch(
    hands: np.ndarray,
    discards: np.ndarray,
    declarer: int,
    leader: int,
    first: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
    out: np.ndarray,
) -> None:
    """Each row's tricks the catchers force: ``hands`` the seat hands, the declarer's holding
    his candidate cards; ``discards`` each row's possible discards (0-padded; none: every
    pair); ``first`` the card he must lead or ``NO_CARD``."""
    kernel_leader = (leader - declarer + N_SEATS) % N_SEATS
    for row in range(hands.shape[0]):
        cand = int(hands[row, declarer])
        hl = int(hands[row, (declarer + 1) % N_SEATS])
        hr = int(hands[row, (declarer + 2) % N_SEATS])
        fill_pairs(cand, pairs)
        s_lo, s_hi = _discard_set(discards[row], pairs)
        if first == NO_CARD and _count(s_lo) + _count(s_hi) == 1:
            kept = cand & ~_only_pair(s_lo, s_hi, pairs)
            out[row] = exact_value(kept, hl, hr, kernel_leader, NO_TRUMP, 1, 0, _count(hl), tt)
            continue
        out[row] = hidden_value(
            cand, hl, hr, kernel_leader, 0, s_lo, s_hi, first, cand, pairs, htt, tt
        )
