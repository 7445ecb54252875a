"""``prefstats bench deal``: deals per second of ``deal_many(10**6)`` on one core."""

from __future__ import annotations

import time

from prefstats.game.deal import deal_many

N_DEALS = 10**6
REPEATS = 5


def main(n: int = N_DEALS, repeats: int = REPEATS) -> dict[str, float]:
    """Print and return the best and median rate over ``repeats`` runs (the first call
    compiles/loads)."""
    deal_many(10, seed=0)
    seconds = []
    for seed in range(repeats):
        start = time.perf_counter()
        deal_many(n, seed=seed)
        seconds.append(time.perf_counter() - start)
    seconds.sort()
    print(f"deal_many({n:,}) on one core, {repeats} runs")
    print(f"  best   {n / seconds[0]:>14,.0f} deals/s  ({seconds[0] * 1e3:.1f} ms)")
    print(f"  median {n / seconds[len(seconds) // 2]:>14,.0f} deals/s")
    return {
        "best deals a second": n / seconds[0],
        "median deals a second": n / seconds[len(seconds) // 2],
        "best ms": seconds[0] * 1e3,
    }
