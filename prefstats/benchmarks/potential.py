"""``prefstats bench potential``: the study's dealt potential, per deal on one core.

Deals are uniform full deals (10/10/10 cards and a 2-card talon) from a fixed seed. Each figure
is one ``potential_many`` call over all of them, in a fresh thread (so with an empty
transposition table), after a warm-up call on other deals that loads the compiled kernels:
``min_level=6`` (the highest contract from six up and the clean misère of every seat, as the
oracle bidders ask) and ``min_level=9`` (nine or better, ten, clean misère). Then the share of
questions (a deal, seat and strain; or a deal and seat for misère) that each exact bound settled
without a search, and the trick-start positions searched a deal (a count that, unlike the time,
does not vary with the machine's load), from ``potential_many(stats=...)``. Last, what a study
with ``--potential`` asks (``studies.study.potential_columns``): ``min_level=9`` and
``some_game_many``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np

from prefstats.game.deal import deal_many
from prefstats.solver import POTENTIAL_STATS, potential_many, some_game_many

N_DEALS = 2000
SEED = 20240613
WARM_UP_DEALS = 4
LEVELS = (6, 9)


def _cold(call: Callable[[], Any]) -> tuple[Any, float]:
    """Run ``call`` in a new thread (a new transposition table); its result and seconds."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        start = time.perf_counter()
        result = pool.submit(call).result()
        return result, time.perf_counter() - start


def _shares(stats: np.ndarray) -> dict[str, float]:
    """The positions searched a deal, then each other counter as a share of the questions it
    counts among."""
    names = dict(zip(POTENTIAL_STATS, stats.tolist(), strict=True))
    strains, miseres, deals = (names["strain questions"], names["misère questions"], names["deals"])
    shares = {"positions searched a deal": names["positions searched"] / max(deals, 1)}
    for name, count in names.items():
        if name in ("deals", "strain questions", "misère questions", "positions searched"):
            continue
        whole = deals if name.startswith("deals") else miseres if "misère" in name else strains
        shares[name] = count / max(whole, 1)
    return shares


def _share_lines(shares: dict[str, float]) -> list[str]:
    """``_shares`` as printed: the positions a deal, then the shares in percent."""
    first, *rest = shares.items()
    return [f"    positions searched: {first[1]:,.1f} a deal"] + [
        f"    {name}: {share:.1%}" for name, share in rest
    ]


def main(n: int = N_DEALS) -> dict[str, float]:
    """Print and return milliseconds per deal of the potential from six and from nine, what
    settled its questions, and the cost of a study's potential columns."""
    deals = deal_many(n, seed=SEED)
    warm_up = deal_many(WARM_UP_DEALS, seed=SEED + 1)
    _cold(lambda: (potential_many(warm_up), some_game_many(warm_up)))
    print(f"dealt potential on {n:,} random deals, one core, all three seats, per deal")
    seconds_of = {}
    figures: dict[str, float] = {}
    for min_level in LEVELS:
        stats = np.zeros(len(POTENTIAL_STATS), dtype=np.int64)
        (best, clean), seconds = _cold(
            partial(potential_many, deals, min_level=min_level, stats=stats)
        )
        seconds_of[min_level] = seconds
        made = (best >= 0).mean()
        print(
            f"  min_level={min_level}: {seconds * 1e3 / n:7.3f} ms a deal "
            f"({seconds:.2f} s; a contract from {min_level} in {made:.1%} of seats, "
            f"clean misère in {clean.mean():.1%})"
        )
        shares = _shares(stats)
        print("\n".join(_share_lines(shares)))
        figures[f"min_level={min_level}: ms a deal"] = seconds * 1e3 / n
        figures[f"min_level={min_level}: contract share of seats"] = float(made)
        figures[f"min_level={min_level}: clean misère share of seats"] = float(clean.mean())
        figures |= {f"min_level={min_level}: {name}": share for name, share in shares.items()}
    game, game_seconds = _cold(partial(some_game_many, deals))
    print(
        f"  some seat's six or more (some_game_many): {game_seconds * 1e3 / n:7.3f} ms a deal "
        f"({game_seconds:.2f} s; in {game.mean():.1%} of deals)\n"
        f"  a study with --potential (min_level=9, then some_game_many): "
        f"{(seconds_of[9] + game_seconds) * 1e3 / n:7.3f} ms a deal"
    )
    figures["some_game_many: ms a deal"] = game_seconds * 1e3 / n
    figures["some_game_many: share of deals"] = float(game.mean())
    figures["a study with --potential: ms a deal"] = (seconds_of[9] + game_seconds) * 1e3 / n
    return figures


if __name__ == "__main__":
    main()
