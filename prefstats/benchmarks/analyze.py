"""``prefstats bench analyze``: the full analysis of a hand, every contract and misère.

Random 10-card hands from a fixed seed, each in a random seat, analysed as ``prefstats analyze``
does by default (``players.analysis.analyze``: every one of the 231 talons weighted alike,
``DEFAULT_N`` layouts shared by all contracts, the realistic discard chosen per talon and strain,
two threads). A warm-up analysis first loads the compiled kernels. Each line: the wall time, the
CPU time of the process (both threads), the widest half-width of a P(make) interval, and the
recommended bid. Goal (issue 49): at most 15 s on two cores, every half-width at most 0.02.
"""

from __future__ import annotations

import time

import numpy as np

from prefstats.game.cards import format_hand
from prefstats.game.deal import deal_many, uniform_integers
from prefstats.players.analysis import DEFAULT_N, analyze

SEED = 20_261_207
HANDS = 3
JOBS = 2


def main(n: int = DEFAULT_N, hands: int = HANDS) -> dict[str, float]:
    """Print the time and the widest interval of the analysis of ``hands`` random hands; return
    the median wall seconds a hand and the widest half-interval."""
    deals = deal_many(hands + 1, seed=SEED)
    seats = uniform_integers(hands + 1, 3, seed=SEED)
    analyze(int(deals[0, 0]), seat=0, n=231, seed=SEED, n_jobs=JOBS)  # warm-up
    print(
        f"bench analyze: {hands} random hands, {n:,} layouts each (all 231 talons), {JOBS} threads"
    )
    walls = []
    widest = 0.0
    for row, seat in zip(deals[1:], seats[1:], strict=True):
        hand = int(row[seat])
        wall, cpu = time.perf_counter(), time.process_time()
        result = analyze(hand, seat=int(seat), n=n, seed=SEED, n_jobs=JOBS)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        walls.append(wall)
        table = result.table
        half = float(((table["p_make_high"] - table["p_make_low"]) / 2).max())
        widest = max(widest, half)
        print(
            f"  {format_hand(hand)}, seat {seat}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"{result.n:,} layouts, widest P(make) interval ±{half:.4f}, best "
            f"{result.recommended}"
        )
    print(
        f"  median {float(np.median(walls)):.1f} s wall a hand (goal: at most 15 s, "
        "every interval within ±0.02)"
    )
    return {"median wall s a hand": float(np.median(walls)), "widest half-interval": widest}
