"""Per-suit lookup tables for the solver kernels, built once at import with numpy (and, for
``DEFENCE_CATCH``, by a small numba kernel before the first kernel compiles or loads).

The kernels in ``_search`` read these as global constants, frozen into their compiled (and
cached) code; a change to this file starts a fresh kernel cache (``prefstats.kernels``).

A suit holding is an 8-bit mask (bit = rank, 7..A = 0..7). Two-argument tables are indexed by
``(present << SUIT_BITS) | holding``, where ``present`` is the set of the suit's cards still in
play and ``holding`` a subset of it.

- ``SQUEEZE``: the holding with the cards not in ``present`` squeezed out (bit i = the i-th lowest
  present card), so that only relative ranks remain.
- ``RUN_TOPS``: the highest card of each run of the holding, a run being cards adjacent among the
  present cards. Cards of one run are interchangeable, so the search tries one of them.
- ``TOP_RUN``: how many of the present cards, counted from the top, the holding has in a row.
- ``TERNARY``: a squeezed holding read as base-3 digits (bit i → 3**i), to number ownerships.
- ``LENGTH_OFFSET``: where the ownership codes of suits with l present cards start; a suit's
  code is ``LENGTH_OFFSET[l] + sum(owner_i * 3**i)`` with owners 0, 1, 2 for its cards low to high.
- ``LOW_BIT`` / ``HIGH_BIT``: index of the lowest / highest set bit of an 8-bit mask (-1 if none).
- ``DEFENCE_CATCH``: indexed by a suit's ownership code (above, owner 0 the declarer, 1 the
  defender on his left, 2 the other). In misère, bit ``1 << leader`` is set if the defender
  ``leader``, on lead, makes the declarer win a trick by leading this suit only, each trick's
  winner leading it again; bit ``1 << FREE`` if the defence could make him win one leading the
  suit from either hand at will and throwing its cards away at will (``_fill_defence_catch``).
  Without that bit the declarer is safe in the suit. Bit ``1 << EXIT`` if the declarer, on
  lead, has a safe exit in the suit: his lowest card, which a defender must overtake, after
  which he stays safe in it (without the ``FREE`` bit) whatever the defenders play to it.
  Bit ``1 << (HOLDS + owner)`` if that owner holds cards of the suit; bit ``1 << OPEN`` if a
  defender holds a card above the declarer's lowest (else he is stuck in it: every card of his
  is above all of theirs). In the search one word holds the four suits' bytes, suit s in byte
  s as in a hand (``_search._suit_flags``).
- ``SELECT``: indexed by ``(present << 3) | i``, the rank of the i-th lowest present card (-1 if
  there are not that many), turning a relative rank back into a card.
- ``OUTRANKED``: how many cards of the holding the other present cards can beat, each beating
  at most one (a largest matching of higher cards to lower held ones). In the trump suit, each
  of a player's trumps falls in a trick of its own and is beaten only by a higher trump in the
  same trick, so the holding's length minus this is his sure trump tricks.
"""

from __future__ import annotations

import numpy as np

from prefstats.game.cards import N_HOLDINGS, N_RANKS
from prefstats.game.deal import N_SEATS
from prefstats.kernels import before_compiling, njit

SUIT_BITS = N_RANKS  # one suit's bits in a hand mask
SUIT_SIZE = N_HOLDINGS  # number of 8-bit holdings
N_OWNERS = N_SEATS
N_SUIT_CODES = sum(N_OWNERS**length for length in range(SUIT_BITS + 1))  # 9841


def _bits(values: np.ndarray, bit: int) -> np.ndarray:
    return (values >> bit) & 1


def _pair_grid() -> tuple[np.ndarray, np.ndarray]:
    index = np.arange(SUIT_SIZE * SUIT_SIZE, dtype=np.int64)
    return index >> SUIT_BITS, index & (SUIT_SIZE - 1)


def _squeeze_table() -> np.ndarray:
    present, held = _pair_grid()
    out = np.zeros_like(present)
    position = np.zeros_like(present)
    for bit in range(SUIT_BITS):
        is_present = _bits(present, bit)
        out |= (_bits(held, bit) & is_present) << position
        position += is_present
    return out.astype(np.uint8)


def _run_tops_table() -> np.ndarray:
    """Highest card of each run: held, and the next present card above it is not held."""
    present, held = _pair_grid()
    out = np.zeros_like(present)
    next_above_held = np.zeros_like(present)  # scanning down: is the next present card held?
    for bit in reversed(range(SUIT_BITS)):
        is_held = _bits(held, bit) & _bits(present, bit)
        out |= (is_held & (1 - next_above_held)) << bit
        is_present = _bits(present, bit).astype(bool)
        next_above_held = np.where(is_present, is_held, next_above_held)
    return out.astype(np.uint8)


def _top_run_table() -> np.ndarray:
    present, held = _pair_grid()
    count = np.zeros_like(present)
    running = np.ones_like(present)  # still in the unbroken top run
    for bit in reversed(range(SUIT_BITS)):
        is_present = _bits(present, bit)
        is_held = _bits(held, bit) & is_present
        running &= 1 - (is_present & (1 - is_held))
        count += running & is_held
    return count.astype(np.uint8)


def _ternary_table() -> np.ndarray:
    masks = np.arange(SUIT_SIZE, dtype=np.int64)
    ternary: np.ndarray = sum(_bits(masks, bit) * N_OWNERS**bit for bit in range(SUIT_BITS)).astype(
        np.int64
    )
    return ternary


def _length_offsets() -> np.ndarray:
    sizes = [N_OWNERS**length for length in range(SUIT_BITS + 1)]
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)


def _bit_index_tables() -> tuple[np.ndarray, np.ndarray]:
    low = np.full(SUIT_SIZE, -1, dtype=np.int64)
    high = np.full(SUIT_SIZE, -1, dtype=np.int64)
    for mask in range(1, SUIT_SIZE):
        bits = [bit for bit in range(SUIT_BITS) if mask >> bit & 1]
        low[mask], high[mask] = bits[0], bits[-1]
    return low, high


SQUEEZE = _squeeze_table()
RUN_TOPS = _run_tops_table()
TOP_RUN = _top_run_table()
TERNARY = _ternary_table()
LENGTH_OFFSET = _length_offsets()
LOW_BIT, HIGH_BIT = _bit_index_tables()


def _select_table() -> np.ndarray:
    table = np.full(SUIT_SIZE * SUIT_BITS, -1, dtype=np.int64)
    for present in range(SUIT_SIZE):
        ranks = [bit for bit in range(SUIT_BITS) if present >> bit & 1]
        for index, rank in enumerate(ranks):
            table[present * SUIT_BITS + index] = rank
    return table


SELECT = _select_table()


def _outranked_table() -> np.ndarray:
    """How many of the holding's cards the other present cards can each beat once: a maximum
    matching of higher cards to lower held ones (scan from the top, a free higher card taking
    the next held one)."""
    present, held = _pair_grid()
    free = np.zeros_like(present)
    matched = np.zeros_like(present)
    for bit in reversed(range(SUIT_BITS)):
        is_present = _bits(present, bit)
        is_held = _bits(held, bit) & is_present
        takes = is_held & (free > 0)
        matched += takes
        free += (is_present & (1 - is_held)) - takes
    return matched.astype(np.uint8)


OUTRANKED = _outranked_table()


DECLARER_OWNER, LEFT, RIGHT = 0, 1, 2  # owner digits of a suit code
NOBODY = -1  # a defender out of the suit plays another suit's card, which cannot win
FREE = 0  # the bit of DEFENCE_CATCH for the defence leading and throwing cards at will
EXIT = 3  # the bit of DEFENCE_CATCH for the declarer's safe exit (after LEFT = 1 and RIGHT = 2)
HOLDS = 4  # bit HOLDS + owner of DEFENCE_CATCH: that owner holds cards of the suit (bits 4-6)
OPEN = 7  # the bit of DEFENCE_CATCH for a defender's card above the declarer's lowest card


@njit(cache=True)
def _owner_mask(owners: np.ndarray, length: int, seat: int) -> int:
    """The cards (a bit each, lowest first) that ``seat`` holds of a suit given by ``owners``."""
    mask = 0
    for at in range(length):
        if owners[at] == seat:
            mask |= 1 << at
    return mask


@njit(cache=True)
def _holds(owners: np.ndarray, length: int, seat: int) -> bool:
    return _owner_mask(owners, length, seat) != 0


@njit(cache=True)
def _option(owners: np.ndarray, length: int, at: int, seat: int) -> bool:
    """May ``seat`` play the card at ``at``, the top of a run of his adjacent cards (the others
    of a run are interchangeable with it)? ``at == NOBODY``: is he a defender out of the suit?"""
    if at == NOBODY:
        return seat != DECLARER_OWNER and not _holds(owners, length, seat)
    return owners[at] == seat and (at + 1 == length or owners[at + 1] != seat)


@njit(cache=True)
def _code_without(owners: np.ndarray, length: int, first: int, second: int, third: int) -> int:
    """The suit code of the cards left when those at ``first``, ``second``, ``third`` go."""
    code = 0
    power = 1
    rest = 0
    for at in range(length):
        if at != first and at != second and at != third:
            code += owners[at] * power
            power *= N_OWNERS
            rest += 1
    suit_code: int = LENGTH_OFFSET[rest] + code
    return suit_code


@njit(cache=True)
def _after_trick(
    owners: np.ndarray,
    length: int,
    first: int,
    second: int,
    third: int,
    table: np.ndarray,
    free: bool,
) -> bool:
    """A complete trick (positions played): caught if the declarer's card is the highest, else
    the defence goes on with the rest of the suit (already in ``table``: fewer cards), the
    winner leading unless ``free``."""
    winner = owners[max(first, second, third)]
    if winner == DECLARER_OWNER:
        return True
    bit = FREE if free else winner
    caught: bool = (table[_code_without(owners, length, first, second, third)] >> bit) & 1 == 1
    return caught


@njit(cache=True)
def _declarer_escapes(
    owners: np.ndarray, length: int, first: int, second: int, table: np.ndarray, free: bool
) -> bool:
    """Left led, right played: has the declarer, third, a card that escapes?"""
    for third in range(length):
        escapes = _option(owners, length, third, DECLARER_OWNER) and not _after_trick(
            owners, length, first, second, third, table, free
        )
        if escapes:
            return True
    return False


@njit(cache=True)
def _left_catches(
    owners: np.ndarray, length: int, first: int, second: int, table: np.ndarray, free: bool
) -> bool:
    """Right led, the declarer played: has the left defender, third, a card that catches?"""
    for third in range(NOBODY, length):
        if _option(owners, length, third, LEFT) and _after_trick(
            owners, length, first, second, third, table, free
        ):
            return True
    return False


@njit(cache=True)
def _defence_catches(
    owners: np.ndarray, length: int, leader: int, table: np.ndarray, free: bool
) -> bool:
    """Misère, one suit (``owners`` of its cards, low to high), defender ``leader`` on lead: can
    the defence, leading this suit, make the declarer win a trick in it?

    Everyone must follow suit (docs/rules.md, "Play"); a defender out of the suit plays another
    suit's card. Play goes declarer, left, right: the left defender's lead puts the declarer
    third, the right defender's puts him second. A declarer out of the suit can no longer be
    caught in it. The winner of a trick leads the next, or with ``free`` the defence goes on as
    in ``_free_catches``.
    """
    if not _holds(owners, length, DECLARER_OWNER):
        return False
    for first in range(length):
        if not _option(owners, length, first, leader):
            continue
        if leader == LEFT:
            for second in range(NOBODY, length):
                if _option(owners, length, second, RIGHT) and not _declarer_escapes(
                    owners, length, first, second, table, free
                ):
                    return True
        else:
            escapes = False
            for second in range(length):
                if _option(owners, length, second, DECLARER_OWNER) and not _left_catches(
                    owners, length, first, second, table, free
                ):
                    escapes = True
                    break
            if not escapes:
                return True
    return False


@njit(cache=True)
def _free_catches(owners: np.ndarray, length: int, table: np.ndarray) -> bool:
    """Can the defence catch the declarer in this suit if, whenever it is on lead, it leads
    the suit from either hand and, at any time, throws cards of it away (as discards on other
    suits)? More than a real defence can do, so "no" proves the declarer safe in the suit."""
    if not _holds(owners, length, DECLARER_OWNER):
        return False
    for at in range(length):
        if owners[at] == DECLARER_OWNER or not _option(owners, length, at, owners[at]):
            continue
        if (table[_code_without(owners, length, at, NOBODY, NOBODY)] >> FREE) & 1:
            return True
    return _defence_catches(owners, length, LEFT, table, True) or _defence_catches(
        owners, length, RIGHT, table, True
    )


@njit(cache=True)
def _must_overtake(cards: int, held: int) -> bool:
    """Misère: must a defender holding ``cards`` of a suit overtake the declarer's lowest card
    of it (of ``held``)? Yes if he holds some and all are above it. Holdings are 8-bit masks of
    the suit, in ranks or in relative ranks alike."""
    return cards != 0 and LOW_BIT[cards] > LOW_BIT[held]


@njit(cache=True)
def _safe_exit(owners: np.ndarray, length: int, table: np.ndarray) -> bool:
    """Misère, the declarer on lead: can he lead his lowest card of the suit, lose the trick
    for sure (a defender holds only higher cards and must overtake), and stay safe in the suit
    (``_free_catches`` says no) whatever the defenders play to it?"""
    held = _owner_mask(owners, length, DECLARER_OWNER)
    if held == 0:
        return False
    left_cards = _owner_mask(owners, length, LEFT)
    right_cards = _owner_mask(owners, length, RIGHT)
    if not (_must_overtake(left_cards, held) or _must_overtake(right_cards, held)):
        return False
    low = LOW_BIT[held]
    for left in range(NOBODY, length):
        if not _option(owners, length, left, LEFT):
            continue
        for right in range(NOBODY, length):
            if not _option(owners, length, right, RIGHT):
                continue
            if (table[_code_without(owners, length, low, left, right)] >> FREE) & 1:
                return False
    return True


@njit(cache=True)
def _holdings_bits(owners: np.ndarray, length: int) -> int:
    """``DEFENCE_CATCH``'s ``HOLDS`` bits (who holds cards of the suit) and its ``OPEN`` bit."""
    bits = 0
    for seat in (DECLARER_OWNER, LEFT, RIGHT):
        if _holds(owners, length, seat):
            bits |= 1 << (HOLDS + seat)
    held = _owner_mask(owners, length, DECLARER_OWNER)
    if held and held != (1 << length) - (1 << LOW_BIT[held]):
        bits |= 1 << OPEN  # not all the cards from his lowest up are his
    return bits


@njit(cache=True)
def _fill_defence_catch(table: np.ndarray) -> None:
    """``DEFENCE_CATCH`` for every suit code, shortest suits first (a trick leaves fewer cards).
    Code ``LENGTH_OFFSET[length] + index``: the i-th lowest card's owner is digit i of index."""
    owners = np.zeros(SUIT_BITS, dtype=np.int64)
    code = 0
    for length in range(SUIT_BITS + 1):
        for index in range(N_OWNERS**length):
            rest = index
            for at in range(length):
                owners[at] = rest % N_OWNERS
                rest //= N_OWNERS
            for leader in (LEFT, RIGHT):
                if _defence_catches(owners, length, leader, table, False):
                    table[code] |= 1 << leader
            if _free_catches(owners, length, table):
                table[code] |= 1 << FREE
            if _safe_exit(owners, length, table):
                table[code] |= 1 << EXIT
            table[code] |= _holdings_bits(owners, length)
            code += 1


# Filled by a kernel before the first kernel compiles or loads (``kernels.before_compiling``),
# so that importing compiles nothing: the kernels that read it freeze it then.
DEFENCE_CATCH = np.zeros(N_SUIT_CODES, dtype=np.uint8)
before_compiling(lambda: _fill_defence_catch(DEFENCE_CATCH))
