"""How fast the machine runs the solver's kind of work at the moment a benchmark runs.

On a shared virtual machine the same code's times change by a factor of 1.5 to 2 from one hour
to the next while the load average stays the same (docs/design.md, "Benchmarks"). So
``prefstats bench`` (``runner``) also times a fixed loop before and after its figures: random
reads and writes in a table the size of the solver's, the memory pattern of its transposition
table.
Figures taken at different times compare through it; node counts do not depend on it at all.
"""

from __future__ import annotations

import time

import numpy as np
from numba import int64

from prefstats.kernels import njit

REFERENCE_STEPS = 1 << 22
# 2 MB of int64: the solver's default table was that size until 2026-12-03, and the loop keeps
# it so that its figures stay comparable with those of before.
TABLE_WORDS = 1 << 18
RUNS = 3
XORSHIFT_SEED = 0x2545F4914F6CDD1D
LOW_BITS = 0xFFFF


@njit(int64(int64[::1], int64), cache=True, nogil=True)
def reference_loop(table: np.ndarray, steps: int) -> int:
    """``steps`` reads and writes at the places of a xorshift walk over ``table`` (its size a
    power of two), each place mixed with the sum of the values read so far, so that every read
    waits for the one before, as the search's reads do; returns that sum."""
    state = np.int64(XORSHIFT_SEED)  # int64 arithmetic, wrapping, with the JIT off too
    mask = table.shape[0] - 1
    total = np.int64(0)
    for _ in range(steps):
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        at = (state ^ total) & mask  # each place waits for the value read before it
        total += table[at]
        table[at] = total & LOW_BITS
    return int(total)


def reference_nanos() -> float:
    """Nanoseconds a step of ``reference_loop``: the fastest of ``RUNS`` runs."""
    table = np.zeros(TABLE_WORDS, dtype=np.int64)
    reference_loop(table, 1)  # load the compiled loop
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter_ns()
        reference_loop(table, REFERENCE_STEPS)
        best = min(best, (time.perf_counter_ns() - start) / REFERENCE_STEPS)
    return best
