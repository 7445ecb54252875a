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
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from prefstats.game.cards import N_RANKS, N_SUITS, SUIT_MASK
from prefstats.game.deal import N_SEATS, deal_many
from prefstats.solver import solve_many
from prefstats.solver.exact import one_by_one

N_DEALS = 2000
SEED = 20240601

FRESH_IMPORT = """
import time
start = time.perf_counter()
from prefstats.solver import solve
solve([0b111, 0b111000, 0b111000000], trump=0)
print(time.perf_counter() - start)
"""


def longest_suit(hands: np.ndarray, seat: int = 0) -> np.ndarray:
    """Each deal's longest suit of ``seat`` (the lowest such suit on ties)."""
    lengths = [
        np.bitwise_count((hands[:, seat] >> (N_RANKS * suit)) & SUIT_MASK)
        for suit in range(N_SUITS)
    ]
    longest: np.ndarray = np.argmax(np.stack(lengths, axis=1), axis=1)
    return longest


def timed_solves(
    hands: np.ndarray,
    *,
    trump: int | np.ndarray | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
    target: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Time each deal's solve alone: ``(milliseconds float64 (n,), nodes int64 (n,))``, nodes
    being the trick-start positions searched.

    Each row of ``hands`` goes through its own kernel call (``solver.exact.one_by_one``), timed
    around the call, with one fresh transposition table reused from row to row as in
    ``solve_many``. ``trump`` may give a suit for every row; with ``target`` each row is a
    ``makes_many`` question instead.

    >>> millis, nodes = timed_solves(np.array([[0b11, 0b1100, 0b110000]], dtype=np.uint32))
    >>> millis.shape, int(nodes[0]) >= 0
    ((1,), True)
    """
    solve_row = one_by_one(
        hands, trump=trump, misere=misere, declarer=declarer, leader=leader, target=target
    )
    millis = np.zeros(len(hands))
    nodes = np.zeros(len(hands), dtype=np.int64)
    for row in range(len(hands)):
        start = time.perf_counter_ns()
        nodes[row] = solve_row(row)
        millis[row] = (time.perf_counter_ns() - start) / 1e6
    return millis, nodes


def _row(name: str, timings: tuple[np.ndarray, np.ndarray]) -> dict[str, float]:
    """Print a row of per-deal figures; return them by name."""
    millis, nodes = timings
    figures = {
        f"{name}: mean ms": float(millis.mean()),
        f"{name}: median ms": float(np.median(millis)),
        f"{name}: p99 ms": float(np.percentile(millis, 99)),
        f"{name}: mean nodes": float(nodes.mean()),
    }
    times = " ".join(f"{value:8.3f}" for value in list(figures.values())[:3])
    print(f"  {name:<28} {times} {nodes.mean():10.0f}")
    return figures


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
        with ThreadPoolExecutor(max_workers=1) as pool:  # a new thread: fresh tables
            start = time.perf_counter()
            pool.submit(solve_many, hands, n_jobs=n_jobs).result()
            seconds.append(time.perf_counter() - start)
    return seconds[0], seconds[1]


def main(n: int = N_DEALS) -> dict[str, float]:
    """Print and return per-deal times (ms) and nodes for exact solves and make/fail tests."""
    hands = np.ascontiguousarray(deal_many(n, seed=SEED)[:, :N_SEATS])  # the talon left out
    trumps = longest_suit(hands)
    timed_solves(hands[:1], trump=trumps[:1])  # load the compiled kernels before timing
    timed_solves(hands[:1], target=0, misere=True)
    print(f"solver on {n:,} random deals, one core, declarer seat 0, per-deal figures")
    print(f"  {'':<28} {'mean ms':>8} {'median':>8} {'p99':>8} {'mean nodes':>10}")
    figures: dict[str, float] = {}
    for leader in (0, 1):
        figures |= _row(
            f"exact trump, leader {leader}", timed_solves(hands, trump=trumps, leader=leader)
        )
        figures |= _row(f"exact no trump, leader {leader}", timed_solves(hands, leader=leader))
        figures |= _row(
            f"exact misère, leader {leader}", timed_solves(hands, misere=True, leader=leader)
        )
    figures |= _row("makes 6 (trump), leader 0", timed_solves(hands, trump=trumps, target=6))
    figures |= _row("clean misère (<= 0), leader 0", timed_solves(hands, misere=True, target=0))
    fresh_import_seconds()  # warm the cache
    fresh = fresh_import_seconds()
    print(f"  fresh process import + first solve: {fresh:.3f} s (warm cache)")
    one, two = parallel_speedup(hands)
    print(f"  solve_many no trump: n_jobs=1 {one:.3f} s, n_jobs=2 {two:.3f} s, x{one / two:.2f}")
    return figures | {
        "fresh process import + first solve s": fresh,
        "solve_many no trump n_jobs=1 s": one,
        "solve_many no trump n_jobs=2 s": two,
    }


if __name__ == "__main__":
    main()
