"""How the solver's wrappers run the kernels: each thread's transposition tables, the worker
threads of the batch calls, and the order in which the layouts of one hand are solved.

The tables are kept per thread and reused across calls: an entry is keyed on the whole position,
so it never goes stale, and answers never depend on what a table holds. The kernels release the
GIL, so threads run them in parallel.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import numpy as np

from prefstats.game.cards import N_SUITS, SUIT_MASK
from prefstats.game.deal import N_SEATS
from prefstats.solver import _hidden, _search
from prefstats.solver._tables import SUIT_BITS

CHUNKS_PER_JOB = 4  # chunks per worker thread, for load balance
LAYOUT_ROWS = 1000  # rows of one hand from which solve_many and makes_many use the large table

_local = threading.local()


def table(bucket_bits: int = _search.TT_BUCKET_BITS) -> np.ndarray:
    """This thread's transposition table of that size, reused across calls (entries never go
    stale)."""
    tables = getattr(_local, "tables", None)
    if tables is None:
        tables = _local.tables = {}
    if bucket_bits not in tables:
        tables[bucket_bits] = _search.new_table(bucket_bits)
    found: np.ndarray = tables[bucket_bits]
    return found


def hidden_tables() -> tuple[np.ndarray, np.ndarray]:
    """This thread's (pair index, hidden-discard table), reused across calls (keys hold the
    cards, so entries never go stale); the open solver's table is ``table()``."""
    tables = getattr(_local, "hidden", None)
    if tables is None:
        tables = _local.hidden = (
            np.zeros(_hidden.PAIRS_SIZE, dtype=np.int64),
            _hidden.new_hidden_table(),
        )
    found: tuple[np.ndarray, np.ndarray] = tables
    return found


def clear_tables() -> None:
    """Drop this thread's transposition tables: the next solve starts with no stored bounds
    (what a benchmark of a cold solve or a test of a position from scratch needs). Answers
    never depend on it."""
    _local.tables = None
    _local.hidden = None


def same_hand(array: np.ndarray, declarer: int) -> bool:
    """Are these many layouts of one hand: ``LAYOUT_ROWS`` rows or more, every one giving the
    declarer the same cards?"""
    return len(array) >= LAYOUT_ROWS and bool((array[:, declarer] == array[0, declarer]).all())


def table_for(array: np.ndarray, declarer: int) -> np.ndarray:
    """The larger table for layouts of one hand (``same_hand``: they share many positions
    across rows; ``prefstats bench misere`` measures it), the default one otherwise (random
    deals share few, and a small table stays in cache)."""
    return table(
        _search.LAYOUT_TABLE_BITS if same_hand(array, declarer) else _search.TT_BUCKET_BITS
    )


def run_chunks(run: Callable[[slice], None], n_rows: int, n_jobs: int) -> None:
    """Call ``run(slice)`` over the rows, in ``n_jobs`` threads (the kernels release the GIL)."""
    if n_jobs == 1 or n_rows < 2 * n_jobs:
        run(slice(0, n_rows))
        return
    n_chunks = min(n_rows, CHUNKS_PER_JOB * n_jobs)
    edges = np.linspace(0, n_rows, n_chunks + 1).astype(int)
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        for future in [pool.submit(run, slice(a, b)) for a, b in pairwise(edges)]:
            future.result()


# Each suit's 8 bits in reverse order: the lowest card becomes the most significant bit.
_REVERSED_SUIT = np.array([int(f"{bits:08b}"[::-1], 2) for bits in range(1 << 8)], dtype=np.uint32)


def unsafe_suits(array: np.ndarray, declarer: int) -> np.ndarray:
    """Misère: each row's suits where the declarer is not safe, as uint8 bits
    (``misere_unsafe_suits``)."""
    out = np.zeros(len(array), dtype=np.uint8)
    _search.unsafe_suits_batch(array, declarer, out)
    return out


def layout_order(array: np.ndarray, declarer: int, misere: int) -> np.ndarray | None:
    """For layouts of one misère hand (``same_hand``), the order to solve them in, else None.

    Neighbours in it share positions, which the table then holds: the rows are sorted by the
    first defender's cards, read suit by suit from the suit where the declarer is most often
    unsafe (``misere_unsafe_suits``) to the safest, and in each suit from its lowest card up;
    so the cards that settle whether he is caught change seldom from row to row. It changes no
    answer, only the time (docs/design.md, "Search order"). In contracts no order tried was
    faster on every hand, so they keep theirs.
    """
    if not misere or not same_hand(array, declarer):
        return None
    suits = unsafe_suits(array, declarer)
    unsafe = [np.count_nonzero(suits & (1 << suit)) for suit in range(N_SUITS)]
    defender = array[:, (declarer + 1) % N_SEATS]
    key = np.zeros(len(array), dtype=np.uint32)
    for place, suit in enumerate(np.argsort(-np.array(unsafe), kind="stable")):
        cards = (defender >> np.uint32(SUIT_BITS * suit)) & np.uint32(SUIT_MASK)
        key |= _REVERSED_SUIT[cards] << np.uint32(SUIT_BITS * (N_SUITS - 1 - place))
    return np.argsort(key, kind="stable")


def in_layout_order(
    array: np.ndarray, declarer: int, misere: int, solve: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """``solve(array)`` (one answer a row), the rows taken in ``layout_order``."""
    order = layout_order(array, declarer, misere)
    if order is None:
        return solve(array)
    answers = solve(np.ascontiguousarray(array[order]))
    unsorted = np.empty_like(answers)
    unsorted[order] = answers
    return unsorted
