"""Exact double-dummy solver: the declarer's tricks with every hand open.

Three hands of equal size in play order (seat 0 → 1 → 2 → 0) are played out under
docs/rules.md, "Play": must follow suit; void in the led suit, must trump if holding a trump;
otherwise any card; highest trump wins, else highest card of the led suit; the winner leads next.
In a contract the declarer maximises his tricks and the other two seats minimise them together;
in misère (no trumps, Codex 3.6.7) the declarer minimises and the others maximise. The value is
the number of tricks the declarer takes from the position.

Hands are 32-bit masks, card bit = 8·suit + rank (``prefstats.game.cards``). The wrappers here
validate and convert; the numba kernels in ``_search`` take arrays and ints only.

Without trumps seat 0 cashes ♠A K and his ♦7 wins the third trick; with ♠ trumps and seat 1
on lead, seat 0 must ruff the ♥A, draws one round of trumps, and his ♦7 is ruffed:

>>> from prefstats.game.cards import parse_hand
>>> hands = [parse_hand("♠A K ♦7"), parse_hand("♠Q J ♥A"), parse_hand("♠10 ♥K Q")]
>>> solve(hands), solve(hands, trump=0, leader=1)
(3, 2)
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations, pairwise

import numpy as np

from prefstats.game.cards import N_CARDS, N_SUITS, format_hand
from prefstats.game.deal import HAND_SIZE, N_SEATS, TALON_SIZE
from prefstats.game.rules import LADDER
from prefstats.solver import _potential, _search
from prefstats.solver.hidden import (
    blind_lead,
    first_lead_many,
    hidden_discard_many,
    hidden_discard_tricks,
)

__all__ = [
    "POTENTIAL_STATS",
    "best_card",
    "best_discard",
    "best_discard_many",
    "blind_lead",
    "clear_tables",
    "defence_quick_tricks",
    "first_lead_many",
    "hidden_discard_many",
    "hidden_discard_tricks",
    "late_discard_reaches",
    "makes_many",
    "misere_one_suit_catch",
    "misere_safe",
    "misere_sure_duck",
    "misere_unsafe_suits",
    "potential_many",
    "solve",
    "solve_many",
    "some_game_many",
    "sure_trump_tricks",
    "timed_solves",
]

MAX_HAND = HAND_SIZE  # cards a seat holds in play
TALON = TALON_SIZE  # cards the declarer discards after taking the talon
SUIT_CARDS = _search.SUIT_MASK  # the 8 bits of one suit
CHUNKS_PER_JOB = 4  # chunks per worker thread in solve_many, for load balance
LAYOUT_ROWS = 1000  # rows of one hand from which solve_many and makes_many use the large table
# Counters that potential_many(stats=...) adds to, in order (see _potential.STAT_*).
POTENTIAL_STATS = (
    "deals",
    "strain questions",
    "strain questions settled without search",
    "... by the level already found",
    "... by the defence's sure tricks against every discard",
    "strain questions settled by one late-discard search",
    "misère questions",
    "misère questions settled without search",
    "deals settled without search",
    "positions searched",
)
N_STATS = _potential.N_STATS

_local = threading.local()


def _table(bucket_bits: int = _search.TT_BUCKET_BITS) -> np.ndarray:
    """This thread's transposition table of that size, reused across calls (entries never go
    stale)."""
    tables = getattr(_local, "tables", None)
    if tables is None:
        tables = _local.tables = {}
    if bucket_bits not in tables:
        tables[bucket_bits] = _search.new_table(bucket_bits)
    table: np.ndarray = tables[bucket_bits]
    return table


def _same_hand(array: np.ndarray, declarer: int) -> bool:
    """Are these many layouts of one hand: ``LAYOUT_ROWS`` rows or more, every one giving the
    declarer the same cards?"""
    return len(array) >= LAYOUT_ROWS and bool((array[:, declarer] == array[0, declarer]).all())


def _table_for(array: np.ndarray, declarer: int) -> np.ndarray:
    """The larger table for layouts of one hand (``_same_hand``: they share many positions
    across rows; ``prefstats bench misere`` measures it), the default one otherwise (random
    deals share few, and a small table stays in cache)."""
    return _table(
        _search.LAYOUT_TABLE_BITS if _same_hand(array, declarer) else _search.TT_BUCKET_BITS
    )


# Each suit's 8 bits in reverse order: the lowest card becomes the most significant bit.
_REVERSED_SUIT = np.array([int(f"{bits:08b}"[::-1], 2) for bits in range(1 << 8)], dtype=np.uint32)


def _layout_order(array: np.ndarray, declarer: int, misere: bool) -> np.ndarray | None:
    """For layouts of one misère hand (``_same_hand``), the order to solve them in, else None.

    Neighbours in it share positions, which the table then holds: the rows are sorted by the
    first defender's cards, read suit by suit from the suit where the declarer is most often
    unsafe (``misere_unsafe_suits``) to the safest, and in each suit from its lowest card up;
    so the cards that settle whether he is caught change seldom from row to row. It changes no
    answer, only the time (docs/design.md, "Search order"). In contracts no order tried was
    faster on every hand, so they keep theirs.
    """
    if not misere or not _same_hand(array, declarer):
        return None
    suits = misere_unsafe_suits(array, declarer=declarer)
    unsafe = [np.count_nonzero(suits & (1 << suit)) for suit in range(N_SUITS)]
    defender = array[:, (declarer + 1) % N_SEATS]
    key = np.zeros(len(array), dtype=np.uint32)
    for place, suit in enumerate(np.argsort(-np.array(unsafe), kind="stable")):
        cards = (defender >> np.uint32(_search.SUIT_BITS * suit)) & np.uint32(SUIT_CARDS)
        key |= _REVERSED_SUIT[cards] << np.uint32(_search.SUIT_BITS * (N_SUITS - 1 - place))
    return np.argsort(key, kind="stable")


def _in_layout_order(
    array: np.ndarray, declarer: int, misere: bool, solve: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """``solve(array)`` (one answer a row), the rows taken in ``_layout_order``."""
    order = _layout_order(array, declarer, misere)
    if order is None:
        return solve(array)
    answers = solve(np.ascontiguousarray(array[order]))
    unsorted = np.empty_like(answers)
    unsorted[order] = answers
    return unsorted


def clear_tables() -> None:
    """Drop this thread's transposition tables: the next solve starts with no stored bounds
    (what a benchmark of a cold solve or a test of a position from scratch needs). Answers
    never depend on it."""
    _local.tables = None


# --- validation -------------------------------------------------------------------------------


def _check_seat(name: str, seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < N_SEATS:
        raise ValueError(f"{name} must be a seat 0, 1 or 2, got {seat!r}")
    return int(seat)


def _check_misere(misere: bool) -> bool:
    if not isinstance(misere, bool | np.bool_):
        raise ValueError(f"misere must be True or False, got {misere!r}")
    return bool(misere)


def _check_contract(trump: int | None, misere: bool) -> int:
    """The kernel's trump code (-1 for no trump), after checking the contract options."""
    _check_misere(misere)
    if trump is None:
        return _search.NO_TRUMP
    if misere:
        raise ValueError(f"misère is played without trumps (Codex 3.6.7), got trump={trump!r}")
    if isinstance(trump, bool) or not isinstance(trump, int | np.integer):
        raise ValueError(f"trump must be a suit 0..3 or None, got {trump!r}")
    if not 0 <= trump < N_SUITS:
        raise ValueError(f"trump must be a suit 0..3 or None, got {trump!r}")
    return int(trump)


def _check_hands(hands: Sequence[int], max_cards: int = MAX_HAND) -> list[int]:
    """Three disjoint 32-bit masks of equal size, at most ``max_cards`` each."""
    if len(hands) != N_SEATS:
        raise ValueError(f"expected {N_SEATS} hands (seats 0, 1, 2), got {len(hands)}")
    masks = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, bool) or not isinstance(hand, int | np.integer):
            raise ValueError(f"hand of seat {seat} must be an int mask, got {hand!r}")
        if not 0 <= int(hand) < 1 << N_CARDS:
            raise ValueError(f"hand of seat {seat} must be a 32-bit mask, got {int(hand)}")
        masks.append(int(hand))
    _check_disjoint(masks)
    counts = [mask.bit_count() for mask in masks]
    if len(set(counts)) != 1:
        raise ValueError(f"hands must hold equal numbers of cards, got {counts} for seats 0, 1, 2")
    if counts[0] > max_cards:
        raise ValueError(f"a hand holds at most {max_cards} cards, got {counts[0]}")
    return masks


def _check_disjoint(masks: Sequence[int], seats: Sequence[int] = (0, 1, 2)) -> None:
    for (i, first), (j, second) in combinations(zip(seats, masks, strict=True), 2):
        shared = first & second
        if shared:
            many = shared.bit_count() > 1
            raise ValueError(
                f"card{'s' if many else ''} {format_hand(shared)} {'are' if many else 'is'} "
                f"in seats {i} and {j}"
            )


def _check_array(hands: np.ndarray) -> np.ndarray:
    """An (n, 3) uint32 C-contiguous copy-or-view of ``hands``, checked row by row."""
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] != N_SEATS:
        raise ValueError(f"hands must have shape (n, {N_SEATS}), got {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must be an integer (uint32) array, got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() >= 1 << N_CARDS):
        raise ValueError("hands must be 32-bit masks (values 0 .. 2**32-1)")
    array = np.ascontiguousarray(array, dtype=np.uint32)
    h0, h1, h2 = array[:, 0], array[:, 1], array[:, 2]
    bad = np.flatnonzero((h0 & h1) | (h0 & h2) | (h1 & h2))
    if bad.size:
        row = int(bad[0])
        try:
            _check_disjoint([int(h) for h in array[row]])
        except ValueError as error:
            raise ValueError(f"deal {row}: {error}") from None
    counts = np.bitwise_count(array)
    unequal = np.flatnonzero((counts != counts[:, :1]).any(axis=1))
    if unequal.size:
        row = int(unequal[0])
        raise ValueError(
            f"deal {row}: hands must hold equal numbers of cards, got {counts[row].tolist()}"
        )
    if array.size and counts.max() > MAX_HAND:
        row = int(np.flatnonzero(counts[:, 0] > MAX_HAND)[0])
        raise ValueError(f"deal {row}: a hand holds at most {MAX_HAND} cards, got {counts[row, 0]}")
    return array


def _check_jobs(n_jobs: int) -> int:
    if n_jobs == -1:
        return os.cpu_count() or 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive int or -1 (all cores), got {n_jobs!r}")
    return n_jobs


# --- public API -------------------------------------------------------------------------------


def solve(
    hands: Sequence[int],
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> int:
    """Tricks the declarer takes with best play by all, every hand open.

    ``hands``: three masks of equal size for seats 0, 1, 2; ``trump``: a suit 0..3 (or ``Suit``)
    or None for no trumps; ``misere``: the declarer tries to lose every trick.

    >>> from prefstats.game.cards import parse_hand
    >>> solve([parse_hand("♠A ♥7"), parse_hand("♠K ♥8"), parse_hand("♠Q ♦7")], trump=3)
    1
    """
    trump_code = _check_contract(trump, misere)
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    masks = _check_hands(hands)
    hd, hl, hr = _from_declarer(masks, declarer)
    kernel_leader = (leader - declarer) % N_SEATS
    n_tricks = hd.bit_count()
    return int(
        _search.exact_value(
            hd, hl, hr, kernel_leader, trump_code, int(misere), 0, n_tricks, _table()
        )
    )


def solve_many(
    hands: np.ndarray,
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
    n_jobs: int = 1,
) -> np.ndarray:
    """Declarer's tricks for each row of an (n, 3) array of seat hands, as int8.

    ``n_jobs`` worker threads each solve chunks with their own table; the result does not
    depend on it.

    >>> from prefstats.game.cards import parse_hand
    >>> row = [parse_hand("♠A K"), parse_hand("♠Q J"), parse_hand("♥7 8")]
    >>> solve_many(np.array([row, row], dtype=np.uint32), trump=3).tolist()
    [0, 0]
    """
    trump_code = _check_contract(trump, misere)
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    n_jobs = _check_jobs(n_jobs)

    def solve_rows(array: np.ndarray) -> np.ndarray:
        out = np.zeros(len(array), dtype=np.int8)
        nodes = np.zeros(len(array), dtype=np.int64)

        def run(chunk: slice) -> None:
            _search.solve_batch(
                array[chunk], trump_code, int(misere), declarer, leader,
                _table_for(array[chunk], declarer), out[chunk], nodes[chunk],
            )  # fmt: skip

        _run_chunks(run, len(array), n_jobs)
        return out

    return _in_layout_order(_check_array(hands), declarer, misere, solve_rows)


def _run_chunks(run: object, n_rows: int, n_jobs: int) -> None:
    """Call ``run(slice)`` over the rows, in ``n_jobs`` threads (the kernels release the GIL)."""
    assert callable(run)
    if n_jobs == 1 or n_rows < 2 * n_jobs:
        run(slice(0, n_rows))
        return
    n_chunks = min(n_rows, CHUNKS_PER_JOB * n_jobs)
    edges = np.linspace(0, n_rows, n_chunks + 1).astype(int)
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        for future in [pool.submit(run, slice(a, b)) for a, b in pairwise(edges)]:
            future.result()


def timed_solves(
    hands: np.ndarray,
    *,
    trump: int | np.ndarray | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
    target: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Time each deal's solve alone, for benchmarks: ``(milliseconds float64 (n,), nodes int64
    (n,))``, nodes being the trick-start positions searched.

    Each row of ``hands`` goes through its own kernel call, timed around the call, with one
    fresh transposition table reused from row to row as in ``solve_many``. ``trump`` may give a
    suit for every row; with ``target`` each row is a ``makes_many`` question instead.

    >>> millis, nodes = timed_solves(np.array([[0b11, 0b1100, 0b110000]], dtype=np.uint32))
    >>> millis.shape, int(nodes[0]) >= 0
    ((1,), True)
    """
    array = _check_array(hands)
    trumps = _row_trumps(trump, misere, len(array))
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    if target is not None and (isinstance(target, bool) or not 0 <= target <= MAX_HAND):
        raise ValueError(f"target must be None or 0..{MAX_HAND}, got {target!r}")
    table = _search.new_table()
    millis = np.zeros(len(array))
    nodes = np.zeros(len(array), dtype=np.int64)
    values = np.zeros(1, dtype=np.int8)
    made = np.zeros(1, dtype=np.bool_)
    for row in range(len(array)):
        one, trump_code = array[row : row + 1], int(trumps[row])
        start = time.perf_counter_ns()
        if target is None:
            _search.solve_batch(
                one, trump_code, int(misere), declarer, leader, table, values, nodes[row : row + 1]
            )
        else:
            _search.makes_batch(
                one, target, trump_code, int(misere), declarer, leader, table, made,
                nodes[row : row + 1],
            )  # fmt: skip
        millis[row] = (time.perf_counter_ns() - start) / 1e6
    return millis, nodes


def _row_trumps(trump: int | np.ndarray | None, misere: bool, n_rows: int) -> np.ndarray:
    """The kernel's trump code for every row: one contract for all, or a suit per row."""
    if not isinstance(trump, np.ndarray):
        return np.full(n_rows, _check_contract(trump, misere), dtype=np.int64)
    if _check_misere(misere):
        raise ValueError("misère is played without trumps (Codex 3.6.7)")
    if trump.shape != (n_rows,) or not np.issubdtype(trump.dtype, np.integer):
        raise ValueError(f"trump as an array must hold one suit per row, got {trump.shape}")
    if n_rows and (trump.min() < 0 or trump.max() >= N_SUITS):
        raise ValueError("trump as an array must hold suits 0..3")
    return trump.astype(np.int64)


def makes_many(
    hands: np.ndarray,
    target: int,
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> np.ndarray:
    """Whether each deal makes: contract, declarer takes >= ``target``; misère, <= ``target``.

    One null-window search per deal, cheaper than ``solve_many``. ``target=0`` with misère asks
    for a clean misère.

    >>> from prefstats.game.cards import parse_hand
    >>> row = [parse_hand("♠7 8"), parse_hand("♠9 10"), parse_hand("♠J Q")]
    >>> makes_many(np.array([row], dtype=np.uint32), 0, misere=True).tolist()
    [True]
    """
    trump_code = _check_contract(trump, misere)
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    array = _check_array(hands)
    n_tricks = int(np.bitwise_count(array[:, 0]).max()) if len(array) else 0
    if isinstance(target, bool) or not isinstance(target, int | np.integer):
        raise ValueError(f"target must be an int, got {target!r}")
    if not 0 <= target <= n_tricks:
        raise ValueError(f"target must be in 0..{n_tricks} (most tricks in play), got {target}")

    def makes_rows(rows: np.ndarray) -> np.ndarray:
        out = np.zeros(len(rows), dtype=np.bool_)
        nodes = np.zeros(len(rows), dtype=np.int64)
        _search.makes_batch(
            rows, int(target), trump_code, int(misere), declarer, leader,
            _table_for(rows, declarer), out, nodes,
        )  # fmt: skip
        return out

    return _in_layout_order(array, declarer, misere, makes_rows)


def best_discard(
    hand12: int,
    others: Sequence[int],
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> tuple[int, int]:
    """The declarer's best two-card discard, double-dummy: ``(discard_mask, tricks)``.

    ``hand12`` holds two cards more than each of ``others`` (the other two hands in seat order);
    ``tricks`` is the value after the best discard (most tricks in a contract, fewest in misère).

    >>> from prefstats.game.cards import format_hand, parse_hand
    >>> hand = parse_hand("♠A K ♥7 8")
    >>> discard, tricks = best_discard(hand, [parse_hand("♠Q J"), parse_hand("♠10 9")])
    >>> format_hand(discard), tricks
    ('♥7 8', 2)
    """
    trump_code = _check_contract(trump, misere)
    left, right, relative = _check_discard_position(hand12, others, declarer, leader)
    discard, tricks = _potential.best_discard(
        int(hand12), left, right, relative, trump_code, int(misere), _table()
    )
    return int(discard), int(tricks)


def late_discard_reaches(
    hand12: int,
    others: Sequence[int],
    target: int,
    *,
    trump: int | None = None,
    declarer: int = 0,
    leader: int = 0,
) -> bool:
    """The late-discard bound of a contract: may the declarer take ``target`` tricks if he
    keeps all his cards and drops his two spare ones only when he needs to (docs/design.md,
    "Dealt potential")? Committing to a discard first is one of his strategies there, so
    ``False`` proves that no discard takes ``target`` tricks; ``True`` promises nothing.

    >>> from prefstats.game.cards import parse_hand
    >>> others = [parse_hand("♠A ♥A"), parse_hand("♠K ♥K")]
    >>> late_discard_reaches(parse_hand("♦A K ♥7 8"), others, 2)  # keeps ♦A K: may make 2
    True
    >>> late_discard_reaches(parse_hand("♠7 8 ♥7 8"), others, 1)  # every card loses
    False
    """
    trump_code = _check_contract(trump, False)
    left, right, relative = _check_discard_position(hand12, others, declarer, leader)
    if isinstance(target, bool) or not isinstance(target, int | np.integer):
        raise ValueError(f"target must be an int, got {target!r}")
    if not 1 <= target <= left.bit_count():
        raise ValueError(f"target must be 1..{left.bit_count()} tricks, got {target}")
    reaches = _potential._late_reaches(
        int(hand12), left, right, relative, int(target), trump_code, 0, _table()
    )
    return bool(reaches)


def misere_one_suit_catch(hands: Sequence[int], *, leader: int, declarer: int = 0) -> bool:
    """Misère, a defender on lead: can the defence make the declarer win a trick by leading
    one suit again and again, each trick's winner leading the next (docs/design.md, "Misère
    bounds")? Everyone must follow suit, so the other suits do not matter; a ``True`` proves
    that the declarer takes at least one trick, and the solver uses it so.

    >>> from prefstats.game.cards import parse_hand
    >>> hands = [parse_hand("♠7 J ♥A"), parse_hand("♠8 9 ♣7"), parse_hand("♣8 9 10")]
    >>> misere_one_suit_catch(hands, leader=1)  # ♠8 under the 7, then ♠9 forces the jack
    True
    >>> misere_one_suit_catch(hands, leader=2)  # ♣ only: the declarer has none
    False
    """
    masks = _check_hands(hands)
    declarer, kernel_leader = _check_defender_lead(declarer, leader)
    hd, hl, hr = _from_declarer(masks, declarer)
    flags = _search._suit_flags(_search._all_codes(hd, hl, hr))
    return bool(_search._defence_catch(kernel_leader, _search.ONE_PER_SUIT, flags))


def misere_safe(hands: Sequence[int], *, declarer: int = 0, on_lead: bool = False) -> bool:
    """Misère: is the declarer safe in every suit he holds, against a defence that leads any
    suit from either hand and throws cards away whenever it likes (docs/design.md, "Misère
    bounds")? No real defence can do more, so ``True`` proves that with a defender on lead he
    takes no trick, and the solver uses it so.

    With ``on_lead`` the declarer is on lead: ``True`` if he is safe in every suit but one,
    where he has a safe exit (his lowest card, which a defender must overtake, after which he
    is safe in the suit whatever the defenders play to it), which proves he takes no trick.

    >>> from prefstats.game.cards import parse_hand
    >>> misere_safe([parse_hand("♠7 10"), parse_hand("♠8 ♥A"), parse_hand("♠9 ♥K")])
    True
    >>> misere_safe([parse_hand("♠8 10"), parse_hand("♠7 ♥A"), parse_hand("♠9 ♥K")])  # no proof
    False
    >>> misere_safe([parse_hand("♠7 8"), parse_hand("♠9 10"), parse_hand("♥A K")], on_lead=True)
    True
    >>> misere_safe([parse_hand("♠7 10"), parse_hand("♠8 J"), parse_hand("♠9 Q")], on_lead=True)
    False
    """
    masks = _check_hands(hands)
    declarer = _check_seat("declarer", declarer)
    hd, hl, hr = _from_declarer(masks, declarer)
    codes = _search._all_codes(hd, hl, hr)
    if on_lead:
        return _search._safe_on_lead(codes)
    return _search._unsafe_cards(codes) == 0


def misere_unsafe_suits(hands: np.ndarray, *, declarer: int = 0) -> np.ndarray:
    """Misère: for each row of an (n, 3) array of seat hands, the suits where the declarer is
    not safe, as uint8 bits (♠ 1, ♣ 2, ♦ 4, ♥ 8): he holds cards of the suit, and a defence
    leading it from either hand whenever it likes and throwing its cards away at will could
    catch him in it (docs/design.md, "Misère bounds"). ``misere_safe`` is true where it is 0.

    >>> from prefstats.game.cards import parse_hand
    >>> row = [parse_hand("♠8 10 ♥7"), parse_hand("♠7 ♥A K"), parse_hand("♠9 J Q")]
    >>> misere_unsafe_suits(np.array([row], dtype=np.uint32)).tolist()
    [1]
    """
    declarer = _check_seat("declarer", declarer)
    array = _check_array(hands)
    out = np.zeros(len(array), dtype=np.uint8)
    _search.unsafe_suits_batch(array, declarer, out)
    return out


def misere_sure_duck(hands: Sequence[int], *, leader: int, declarer: int = 0) -> bool:
    """Misère: can the declarer lose the trick about to start, ``leader`` on lead, whatever the
    defence plays (docs/design.md, "Misère bounds")? ``True`` proves he does not take every
    remaining trick, ``False`` that he takes at least one (this one); the solver uses it so when
    the question is "every trick?", or "one trick?" with him on lead.

    >>> from prefstats.game.cards import parse_hand
    >>> hands = [parse_hand("♠7 J"), parse_hand("♠8 9"), parse_hand("♥7 8")]
    >>> misere_sure_duck(hands, leader=0)  # the ♠7: the left defender must overtake
    True
    >>> misere_sure_duck(hands, leader=2)  # a heart: the declarer throws a card
    True
    >>> misere_sure_duck([parse_hand("♠9 J"), parse_hand("♠7 8"), parse_hand("♥7 8")], leader=1)
    False
    """
    masks = _check_hands(hands)
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    hd, hl, hr = _from_declarer(masks, declarer)
    return bool(_search._sure_duck(hd, hl, hr, (leader - declarer) % N_SEATS))


def defence_quick_tricks(
    hands: Sequence[int], *, leader: int, trump: int | None = None, declarer: int = 0
) -> int:
    """In a contract with a defender on lead: the tricks the defence cashes at once, the
    leader's own top cards or, if he can give his partner the lead in a suit whose top card
    the partner holds (and the declarer cannot ruff), the partner's; in no trump also the
    leader's and then the partner's, when the partner has cards to spare while the leader
    cashes (docs/design.md, "Contract bounds"). The defence takes at least this many tricks,
    and the solver uses it so.

    >>> from prefstats.game.cards import parse_hand
    >>> declarer = parse_hand("♠7 8 ♥7")
    >>> defence_quick_tricks([declarer, parse_hand("♠9 ♣7 8"), parse_hand("♠A ♦A K")], leader=1)
    3
    >>> defence_quick_tricks([declarer, parse_hand("♥A ♠9 ♦7"), parse_hand("♠A ♦A ♥8")], leader=1)
    3
    >>> defence_quick_tricks([declarer, parse_hand("♥A ♠9 ♦7"), parse_hand("♠A ♦A ♥8")], leader=1,
    ...                      trump=3)  # hearts trumps: he would ruff ♦A, and no both-in-turn
    1
    """
    masks = _check_hands(hands)
    trump_code = _check_contract(trump, False)
    declarer, kernel_leader = _check_defender_lead(declarer, leader)
    hd, hl, hr = _from_declarer(masks, declarer)
    hand, partner = (hl, hr) if kernel_leader == 1 else (hr, hl)
    return int(_search._defence_cashable(hand, partner, hd, hd | hl | hr, trump_code, 0))


def sure_trump_tricks(hands: Sequence[int], *, trump: int, declarer: int = 0) -> list[int]:
    """Sure trump tricks of each seat (0, 1, 2) in a trump contract (docs/design.md, "Contract
    bounds"): each of a player's trumps falls in a trick of its own and is beaten only by a
    higher trump in the same trick, and each higher trump beats at most one. The declarer's
    can be beaten by either defender's; a defender's only by the declarer's, since his
    partner's trick is the defence's too (his count is tricks for the defence). The solver
    uses these as bounds.

    >>> from prefstats.game.cards import parse_hand
    >>> hands = [parse_hand("♠A 9 8 7"), parse_hand("♠K Q J 10"), parse_hand("♥7 8 9 10")]
    >>> sure_trump_tricks(hands, trump=0)  # his ♠A wins; of the ♠K Q J 10 the ace beats one
    [1, 3, 0]
    """
    masks = _check_hands(hands)
    trump_code = _check_contract(trump, False)
    if trump_code < 0:
        raise ValueError("trump must be a suit 0..3, got None")
    declarer = _check_seat("declarer", declarer)
    hd = masks[declarer]
    present = masks[0] | masks[1] | masks[2]
    return [
        int(_search._declarer_sure_trumps(hd, present, trump_code))
        if seat == declarer
        else int(_search._defender_sure_trumps(hand, hd, trump_code))
        for seat, hand in enumerate(masks)
    ]


def _check_defender_lead(declarer: int, leader: int) -> tuple[int, int]:
    """(declarer, the leader as a kernel seat, 1 or 2), checked to be a defender's lead."""
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    if leader == declarer:
        raise ValueError(f"leader must be a defender, not the declarer's seat {declarer}")
    return declarer, (leader - declarer) % N_SEATS


def _from_declarer(masks: Sequence[int], declarer: int) -> tuple[int, int, int]:
    """Seat hands renumbered for the kernels: the declarer's, his left's, his right's."""
    return masks[declarer], masks[(declarer + 1) % N_SEATS], masks[(declarer + 2) % N_SEATS]


def _check_discard_position(
    hand12: int, others: Sequence[int], declarer: int, leader: int
) -> tuple[int, int, int]:
    """(left, right, leader relative to the declarer) of a declarer holding his two spare cards,
    checked."""
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    if len(others) != N_SEATS - 1:
        raise ValueError(f"others must be the {N_SEATS - 1} other hands, got {len(others)}")
    left, right = _check_others(hand12, others, declarer)
    kept_size = left.bit_count()
    if int(hand12).bit_count() != kept_size + TALON:
        raise ValueError(
            f"the declarer's hand must hold {TALON} cards more than the others "
            f"({kept_size + TALON}), got {int(hand12).bit_count()}"
        )
    return left, right, (leader - declarer) % N_SEATS


def _check_others(hand: int, others: Sequence[int], declarer: int) -> tuple[int, int]:
    """The other two hands as (declarer's left, declarer's right), checked."""
    if isinstance(hand, bool) or not isinstance(hand, int | np.integer):
        raise ValueError(f"the declarer's hand must be an int mask, got {hand!r}")
    if not 0 <= int(hand) < 1 << N_CARDS:
        raise ValueError(f"the declarer's hand must be a 32-bit mask, got {int(hand)}")
    seats = [seat for seat in range(N_SEATS) if seat != declarer]
    masks = []
    for seat, other in zip(seats, others, strict=True):
        if isinstance(other, bool) or not isinstance(other, int | np.integer):
            raise ValueError(f"hand of seat {seat} must be an int mask, got {other!r}")
        if not 0 <= int(other) < 1 << N_CARDS:
            raise ValueError(f"hand of seat {seat} must be a 32-bit mask, got {int(other)}")
        masks.append(int(other))
    _check_disjoint([int(hand), *masks], [declarer, *seats])
    if masks[0].bit_count() != masks[1].bit_count():
        counts = [mask.bit_count() for mask in masks]
        raise ValueError(f"the other hands must hold equal numbers of cards, got {counts}")
    if masks[0].bit_count() > MAX_HAND:
        raise ValueError(f"a hand holds at most {MAX_HAND} cards, got {masks[0].bit_count()}")
    by_seat = dict(zip(seats, masks, strict=True))
    return by_seat[(declarer + 1) % N_SEATS], by_seat[(declarer + 2) % N_SEATS]


def best_card(
    hands: Sequence[int],
    trick: Sequence[int] = (),
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> tuple[int, int]:
    """An optimal card for the seat to play, and the position's value: ``(card_bit, tricks)``.

    ``trick`` holds the bits of the cards already played to the current trick (led by
    ``leader``); ``hands`` are the cards still held. ``tricks`` counts the declarer's tricks from
    the start of the current trick on. Playing the returned card keeps that value.

    >>> from prefstats.game.cards import format_card, parse_hand
    >>> hands = [parse_hand("♠A K"), parse_hand("♠Q ♥A"), parse_hand("♠10 9")]
    >>> card, tricks = best_card(hands, trump=0)
    >>> format_card(card), tricks
    ('♠K', 2)
    """
    trump_code = _check_contract(trump, misere)
    declarer = _check_seat("declarer", declarer)
    leader = _check_seat("leader", leader)
    trick = [int(card) for card in trick]
    masks = _check_trick_position(hands, trick, leader)
    if masks[(leader + len(trick)) % N_SEATS] == 0:
        raise ValueError("no cards left to play")
    context = (trump_code, int(misere), declarer, _table())
    return _best_in_trick(masks, trick, leader, context)


def _check_trick_position(hands: Sequence[int], trick: list[int], leader: int) -> list[int]:
    """Hands before the current trick must be equal; return the hands as they are now."""
    if len(trick) >= N_SEATS:
        raise ValueError(f"a trick in progress has at most {N_SEATS - 1} cards, got {len(trick)}")
    if any(not 0 <= card < N_CARDS for card in trick) or len(set(trick)) != len(trick):
        raise ValueError(f"trick cards must be distinct bits 0..{N_CARDS - 1}, got {trick}")
    before = [int(hand) for hand in hands] if len(hands) == N_SEATS else list(hands)
    for step, card in enumerate(trick):
        seat = (leader + step) % N_SEATS
        if any(int(hand) >> card & 1 for hand in hands):
            raise ValueError(f"card {format_hand(1 << card)} is both played and held")
        before[seat] |= 1 << card
    _check_hands(before)
    return [int(hand) for hand in hands]


def _best_in_trick(
    masks: list[int], trick: list[int], leader: int, context: tuple
) -> tuple[int, int]:
    """Minimax over the rest of the trick, each complete trick scored by the kernel."""
    trump, misere, declarer, _ = context
    seat = (leader + len(trick)) % N_SEATS
    hand = masks[seat]
    led = trick[0] >> _search.SUIT_SHIFT if trick else -1
    legal = _legal(hand, led, trump)
    maximises = (seat == declarer) != bool(misere)
    best: tuple[int, int] | None = None
    for card in range(N_CARDS):
        if not legal >> card & 1:
            continue
        after = list(masks)
        after[seat] ^= 1 << card
        played = [*trick, card]
        if len(played) < N_SEATS:
            value = _best_in_trick(after, played, leader, context)[1]
        else:
            value = _trick_value(after, played, leader, context)
        better = best is None or (value > best[1] if maximises else value < best[1])
        if better:
            best = (card, value)
    assert best is not None
    return best


def _trick_value(masks: list[int], played: list[int], leader: int, context: tuple) -> int:
    """Declarer's tricks from a complete trick on: this trick plus the kernel's value after."""
    trump, misere, declarer, table = context
    winner, best = leader, played[0]
    for step in range(1, N_SEATS):
        if _beats(played[step], best, trump):
            winner, best = (leader + step) % N_SEATS, played[step]
    hd, hl, hr = _from_declarer(masks, declarer)
    rest = _search.exact_value(
        hd, hl, hr, (winner - declarer) % N_SEATS, trump, misere, 0, hd.bit_count(), table
    )
    return int(rest) + (1 if winner == declarer else 0)


def _legal(hand: int, led: int, trump: int) -> int:
    """Legal cards (docs/rules.md, "Play"): any card to lead; follow suit, else trump, else any."""
    if led < 0:
        return hand
    for suit in (led, trump):
        cards = hand & (SUIT_CARDS << (_search.SUIT_BITS * suit)) if suit >= 0 else 0
        if cards:
            return cards
    return hand


def _beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat the trick's best card so far (docs/rules.md, "Play")?"""
    card_suit, best_suit = card >> _search.SUIT_SHIFT, best >> _search.SUIT_SHIFT
    return card > best if card_suit == best_suit else card_suit == trump


def potential_many(
    deals: np.ndarray, *, min_level: int = 6, n_jobs: int = 1, stats: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Dealt potential of every seat: for each deal (first, second, third hand, talon) and seat,
    the highest contract it makes double-dummy with the talon, its best discard and best trump,
    the first hand leading, as a ladder rank of ``prefstats.game.rules.LADDER`` (-1: nothing from
    ``min_level`` up); and whether it takes no trick on misère likewise (a clean misère).

    Returns ``(best int8 (n, 3), clean bool (n, 3))``. ``stats``, an int64 array of
    ``len(POTENTIAL_STATS)`` counters, gets added what settled the questions (one per deal,
    seat and strain, or per deal and seat for misère), named by ``POTENTIAL_STATS``.

    >>> from prefstats.game.deal import Deal
    >>> deal = Deal.parse("♠7 8 9 10 J Q K A ♣A ♦A | ♣7 8 9 10 J Q K ♦7 8 9 | "
    ...                   "♦10 J Q K ♥7 8 9 10 J Q | ♥K A")
    >>> best, clean = potential_many(np.array([deal.parts], dtype=np.uint32))
    >>> from prefstats.game.rules import LADDER
    >>> str(LADDER[best[0, 0]]), bool(clean[0, 1])
    ('10NT', True)
    """
    full = _check_deals(deals)
    if isinstance(min_level, bool) or not isinstance(min_level, int | np.integer):
        raise ValueError(f"min_level must be an int 6..10, got {min_level!r}")
    if not 6 <= min_level <= 10:
        raise ValueError(f"min_level must be 6..10, got {min_level}")
    if stats is not None and (
        not isinstance(stats, np.ndarray) or stats.dtype != np.int64 or stats.shape != (N_STATS,)
    ):
        raise ValueError(f"stats must be an int64 array of shape ({N_STATS},)")
    code = np.full((len(full), N_SEATS), -1, dtype=np.int8)
    clean = np.zeros((len(full), N_SEATS), dtype=np.bool_)
    counts: list[np.ndarray] = []

    def run(chunk: slice) -> None:
        chunk_stats = np.zeros(N_STATS, dtype=np.int64)
        _potential.potential_batch(
            full[chunk], min_level, _table(), code[chunk], clean[chunk], chunk_stats
        )
        counts.append(chunk_stats)

    _run_chunks(run, len(full), _check_jobs(n_jobs))
    if stats is not None:
        stats += np.sum(counts, axis=0, dtype=np.int64)
    # Kernel code level*5 + strain -> ladder rank (misère sits between 8NT and 9♠).
    to_rank = np.full(11 * 5, -1, dtype=np.int8)
    for rank, contract in enumerate(LADDER):
        if not contract.is_misere:
            to_rank[contract.level * 5 + int(contract.strain)] = rank  # type: ignore[arg-type]
    best = np.where(code >= 0, to_rank[np.clip(code, 0, None)], -1).astype(np.int8)
    return best, clean


def some_game_many(deals: np.ndarray, *, n_jobs: int = 1) -> np.ndarray:
    """Does some seat make a six or more? For each deal (first, second, third hand, talon):
    whether any seat, taking the talon and making its best discard, makes a contract of six
    tricks in some strain double-dummy, the first hand leading. The same answer as
    ``(potential_many(deals)[0] >= 0).any(axis=1)``, found faster: one seat and strain that
    makes it settles the deal.

    Returns bool (n,).

    >>> from prefstats.game.deal import Deal
    >>> deal = Deal.parse("♠7 8 9 10 J Q K A ♣A ♦A | ♣7 8 9 10 J Q K ♦7 8 9 | "
    ...                   "♦10 J Q K ♥7 8 9 10 J Q | ♥K A")
    >>> some_game_many(np.array([deal.parts], dtype=np.uint32)).tolist()
    [True]
    """
    full = _check_deals(deals)
    game = np.zeros(len(full), dtype=np.bool_)

    def run(chunk: slice) -> None:
        _potential.some_game_batch(full[chunk], _table(), game[chunk])

    _run_chunks(run, len(full), _check_jobs(n_jobs))
    return game


def best_discard_many(
    deals: np.ndarray,
    declarers: np.ndarray,
    *,
    trump: int | None = None,
    misere: bool = False,
    n_jobs: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """``best_discard`` for many deals at once, the first hand leading: each row of ``deals``
    is (first, second, third hand, talon) and ``declarers[i]`` takes the talon.

    Returns ``(discards uint32 (n,), tricks int8 (n,))``.

    >>> from prefstats.game.deal import deal_many
    >>> deals = deal_many(3, seed=1)
    >>> discards, tricks = best_discard_many(deals, np.array([0, 1, 2]), trump=0)
    >>> [best_discard(int(d[s] | d[3]), [int(d[o]) for o in range(3) if o != s], trump=0,
    ...               declarer=s)[1] for s, d in enumerate(deals)] == tricks.tolist()
    True
    """
    trump_code = _check_contract(trump, misere)
    full = _check_deals(deals)
    seats = np.asarray(declarers)
    if seats.shape != (len(full),) or (len(seats) and (seats.min() < 0 or seats.max() > 2)):
        raise ValueError("declarers must be one seat 0..2 per deal")
    seats = np.ascontiguousarray(seats, dtype=np.int64)
    discards = np.zeros(len(full), dtype=np.uint32)
    tricks = np.zeros(len(full), dtype=np.int8)

    def run(chunk: slice) -> None:
        _potential.best_discard_batch(
            full[chunk], seats[chunk], trump_code, int(misere), _table(), discards[chunk],
            tricks[chunk],
        )  # fmt: skip

    _run_chunks(run, len(full), _check_jobs(n_jobs))
    return discards, tricks


def _check_deals(deals: np.ndarray) -> np.ndarray:
    """A C-contiguous uint32 (n, 4) copy of full deals: three 10-card hands and a 2-card talon."""
    array = np.asarray(deals)
    if array.ndim != 2 or array.shape[1] != N_SEATS + 1:
        raise ValueError(f"deals must have shape (n, 4): 3 hands and the talon, got {array.shape}")
    hands = _check_array(np.ascontiguousarray(array[:, :N_SEATS]))
    if len(array) and not (np.bitwise_count(hands[:, 0]) == MAX_HAND).all():
        raise ValueError("full deals needed: three 10-card hands and a 2-card talon")
    talon = np.ascontiguousarray(array[:, N_SEATS], dtype=np.uint32)
    if len(array) and not (np.bitwise_count(talon) == TALON).all():
        raise ValueError("the talon (column 3) must hold 2 cards")
    if ((hands[:, 0] | hands[:, 1] | hands[:, 2]) & talon).any():
        raise ValueError("the talon shares cards with a hand")
    return np.ascontiguousarray(np.column_stack([hands, talon]), dtype=np.uint32)
