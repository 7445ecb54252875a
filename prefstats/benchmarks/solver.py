"""``prefstats bench solver``: double-dummy solver speed on random full deals.

Deals are uniform (10/10/10 cards to seats 0, 1, 2 and 2 to the talon) from a fixed seed. Every
figure is per deal: each deal is solved by its own kernel call (a one-row slice), timed around the
call, so times include the call overhead. Nodes are trick-start positions searched (probes that
end in the transposition table or in a bound are not counted). The table is reused from deal to
deal, as in ``solve_many``; each row starts from an empty one.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from prefstats.solver import _search, solve_many

N_DEALS = 2000
SEED = 20240601
N_SEATS = 3
HAND_SIZE = 10
N_CARDS = 32
SUIT_BITS = 8
N_SUITS = 4
SUIT_MASK = (1 << SUIT_BITS) - 1

FRESH_IMPORT = """
import time
start = time.perf_counter()
from prefstats.solver import solve
solve([0b111, 0b111000, 0b111000000], trump=0)
print(time.perf_counter() - start)
"""


def random_deals(n: int, seed: int = SEED) -> np.ndarray:
    """(n, 3) uint32 seat hands of uniform random deals (the talon's 2 cards are left out)."""
    rng = np.random.default_rng(seed)
    order = rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.uint32), (n, 1)), axis=1)
    bits = np.left_shift(np.uint32(1), order, dtype=np.uint32)
    hands = np.empty((n, N_SEATS), dtype=np.uint32)
    for seat in range(N_SEATS):
        cards = bits[:, seat * HAND_SIZE : (seat + 1) * HAND_SIZE]
        hands[:, seat] = np.bitwise_or.reduce(cards, axis=1)
    return hands


def longest_suit(hands: np.ndarray, seat: int = 0) -> np.ndarray:
    """Each deal's longest suit of ``seat`` (the lowest such suit on ties)."""
    lengths = [
        np.bitwise_count((hands[:, seat] >> (SUIT_BITS * suit)) & SUIT_MASK)
        for suit in range(N_SUITS)
    ]
    return np.argmax(np.stack(lengths, axis=1), axis=1)


def _time_rows(call: Callable[[int], int], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Run ``call(deal) -> nodes`` for deals 0..n-1; return milliseconds and nodes per deal."""
    millis = np.empty(n)
    nodes = np.empty(n, dtype=np.int64)
    for deal in range(n):
        start = time.perf_counter_ns()
        nodes[deal] = call(deal)
        millis[deal] = (time.perf_counter_ns() - start) / 1e6
    return millis, nodes


def _exact(hands: np.ndarray, trumps: np.ndarray, misere: int, leader: int) -> Callable:
    table = _search.new_table()
    out = np.zeros(1, dtype=np.int8)
    nodes = np.zeros(1, dtype=np.int64)

    def call(deal: int) -> int:
        _search.solve_batch(
            hands[deal : deal + 1], int(trumps[deal]), misere, 0, leader, table, out, nodes
        )
        return int(nodes[0])

    return call


def _makes(hands: np.ndarray, trumps: np.ndarray, misere: int, target: int) -> Callable:
    table = _search.new_table()
    out = np.zeros(1, dtype=np.bool_)
    nodes = np.zeros(1, dtype=np.int64)

    def call(deal: int) -> int:
        _search.makes_batch(
            hands[deal : deal + 1], target, int(trumps[deal]), misere, 0, 0, table, out, nodes
        )
        return int(nodes[0])

    return call


def _row(name: str, call: Callable[[int], int], n: int) -> None:
    millis, nodes = _time_rows(call, n)
    print(
        f"  {name:<28} {millis.mean():8.3f} {np.median(millis):8.3f} "
        f"{np.percentile(millis, 99):8.3f} {nodes.mean():10.0f}"
    )


def fresh_import_seconds() -> float:
    """Seconds for ``import prefstats.solver`` plus a first solve in a new process."""
    result = subprocess.run(
        [sys.executable, "-c", FRESH_IMPORT], capture_output=True, text=True, check=True
    )
    return float(result.stdout.strip())


def parallel_speedup(hands: np.ndarray) -> tuple[float, float]:
    """Wall seconds of ``solve_many`` (no trump) with one and two jobs, fresh tables each."""
    seconds = []
    for n_jobs in (1, 2):
        from prefstats import solver

        solver._forget()  # a fresh table, as each job's thread gets
        start = time.perf_counter()
        solve_many(hands, n_jobs=n_jobs)
        seconds.append(time.perf_counter() - start)
    return seconds[0], seconds[1]


def main(n: int = N_DEALS) -> None:
    """Print per-deal times (ms) and nodes for exact solves and make/fail tests."""
    hands = random_deals(n)
    trumps = longest_suit(hands)
    no_trump = np.full(n, _search.NO_TRUMP)
    solve_many(hands[:1])  # load the compiled kernels before timing
    print(f"solver on {n:,} random deals, one core, declarer seat 0, per-deal figures")
    print(f"  {'':<28} {'mean ms':>8} {'median':>8} {'p99':>8} {'mean nodes':>10}")
    for leader in (0, 1):
        _row(f"exact trump, leader {leader}", _exact(hands, trumps, 0, leader), n)
        _row(f"exact no trump, leader {leader}", _exact(hands, no_trump, 0, leader), n)
        _row(f"exact misère, leader {leader}", _exact(hands, no_trump, 1, leader), n)
    _row("makes 6 (trump), leader 0", _makes(hands, trumps, 0, 6), n)
    _row("clean misère (<= 0), leader 0", _makes(hands, no_trump, 1, 0), n)
    fresh_import_seconds()  # warm the cache
    print(f"  fresh process import + first solve: {fresh_import_seconds():.3f} s (warm cache)")
    one, two = parallel_speedup(hands)
    print(f"  solve_many no trump: n_jobs=1 {one:.3f} s, n_jobs=2 {two:.3f} s, x{one / two:.2f}")


if __name__ == "__main__":
    main()
