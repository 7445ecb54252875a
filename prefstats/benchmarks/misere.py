"""``prefstats bench misere``: every layout of a misère hand, and headline catch rates.

The declarer holds a fixed misère with a known talon and discard, first as the first hand (own
lead), then as the second hand (the first hand, a defender, leads). All C(20, 10) = 184,756
layouts of the defenders' cards are decided on one core: ``makes_many`` (caught or not: the
benchmark figure) and ``solve_many`` (the full trick distribution). Each call runs in a fresh
thread, so with a cold transposition table, after a warm-up that loads the compiled kernels.
Two hands: one with two catchable suits, one with a single catchable suit. Then, on a fixed
sample of the same layouts, the hidden-discard search (``solver.hidden_discard_many``: the
catchers know his twelve cards and his sound discards, not which one he made; and the floor,
every pair) and the estimate inside the bracket (``solver.estimate_tricks_many``: catchers
who keep their sure line and otherwise play perfect-information Monte Carlo over the same sound
discards, against a double-dummy declarer) beside the open solve of the same layouts,
milliseconds a layout, cold tables.
Then the shipped tables' catch rates of a few classic holdings and pairs of holdings.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from prefstats.game.cards import format_hand, parse_hand, parse_holding
from prefstats.game.deal import all_layouts
from prefstats.misere.tables import (
    LEADS,
    SETTINGS,
    lead_index,
    load_catch_pairs,
    load_catch_rates,
)
from prefstats.players.discards import sound_misere_discards
from prefstats.solver import estimate_tricks_many, hidden_discard_many, makes_many, solve_many

HANDS = (  # dealt hand, talon, discard
    ("♠7 8 A ♣7 9 ♦7 8 ♥8 9 10", "♠K ♦J", "♠K A"),  # keeps ♠7 8 and ♥8 9 10: two holes
    ("♠7 9 J ♣8 ♦7 8 9 ♥7 9 10", "♣A K", "♣A K"),  # keeps ♣8 alone: one hole
)
SEATS = (0, 1)  # first hand (own lead) and second hand (the first hand, a defender, leads)
HIDDEN_SAMPLE = 2_000  # layouts (a fixed sample) timed with the discard hidden
FLOOR_SAMPLE = 200  # ... with every pair possible (the floor), slower
HIDDEN_SEED = 48
HIDDEN_ROUNDS = 5  # the open solve and the hidden search timed in turn, five times each
HEADLINE = ("7 10", "7 J", "8", "9", "8 9")
HEADLINE_PAIRS = (("8", "7 10"), ("9", "7 J"), ("8", "8"))


def layouts(dealt: str, talon: str, discard: str, seat: int) -> np.ndarray:
    """The 184,756 (3-seat) deals of a hand with the declarer in ``seat``."""
    hand, talon_mask, discard_mask = parse_hand(dealt), parse_hand(talon), parse_hand(discard)
    deals = all_layouts(hand, talon_mask, seat)
    deals[:, seat] = (hand | talon_mask) & ~discard_mask
    return np.ascontiguousarray(deals[:, :3])


def _cold(call: Callable[[], Any]) -> tuple[Any, float]:
    """Run ``call`` in a new thread (a new transposition table); its result and seconds."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        start = time.perf_counter()
        result = pool.submit(call).result()
        return result, time.perf_counter() - start


def time_layouts(hands: np.ndarray, seat: int) -> dict[str, float]:
    """Seconds and results of makes_many and solve_many over every layout."""
    makes_many(hands[:8], 0, misere=True, declarer=seat)  # load the kernels
    solve_many(hands[:8], misere=True, declarer=seat)
    made, makes_seconds = _cold(lambda: makes_many(hands, 0, misere=True, declarer=seat))
    tricks, solve_seconds = _cold(lambda: solve_many(hands, misere=True, declarer=seat))
    assert ((tricks == 0) == made).all()
    return {
        "layouts": len(hands),
        "makes_seconds": makes_seconds,
        "solve_seconds": solve_seconds,
        "p_caught": float(1 - made.mean()),
        "mean_tricks": float(tricks.mean()),
    }


def time_hidden(hands: np.ndarray, seat: int, hand12: int, discard: int) -> dict[str, float]:
    """Milliseconds a layout of the open solve, the hidden-discard search over the sound
    discards (and the one made), the estimate over the same discards and the floor, on the
    same sample of the layouts, and their P(caught); the open solve and the hidden search are
    timed in turn ``HIDDEN_ROUNDS`` times (their medians, and the median, least and greatest
    of the rounds' ratios hidden ÷ open); on every layout the estimate lies between
    the hidden value and the open solve (asserted)."""
    size = min(HIDDEN_SAMPLE, len(hands))
    floor_size = min(FLOOR_SAMPLE, size)
    sample = np.random.default_rng(HIDDEN_SEED).choice(len(hands), size, replace=False)
    seen = np.ascontiguousarray(hands[np.sort(sample)])
    hidden = seen.copy()
    hidden[:, seat] = hand12
    sound = sound_misere_discards(np.array([hand12], dtype=np.uint32), np.array([discard]))[0]
    possible = np.unique(np.r_[sound[sound > 0], discard]).astype(np.uint32)
    rows = np.broadcast_to(possible, (len(seen), len(possible))).copy()
    made = np.full(len(seen), discard, dtype=np.uint32)
    hidden_discard_many(hidden[:4], declarer=seat, discards=rows[:4])  # load the kernels
    estimate_tricks_many(hidden[:4], made=made[:4], declarer=seat, discards=rows[:4])
    solve_many(seen[:4], misere=True, declarer=seat)
    open_times, hidden_times = [], []
    for _ in range(HIDDEN_ROUNDS):  # in turn: the machine's speed drifts (docs/design.md)
        tricks, seconds = _cold(lambda: solve_many(seen, misere=True, declarer=seat))
        open_times.append(seconds)
        found, seconds = _cold(lambda: hidden_discard_many(hidden, declarer=seat, discards=rows))
        hidden_times.append(seconds)
    open_seconds, hidden_seconds = float(np.median(open_times)), float(np.median(hidden_times))
    ratios = np.array(hidden_times) / np.array(open_times)
    estimate, estimate_seconds = _cold(
        lambda: estimate_tricks_many(hidden, made=made, declarer=seat, discards=rows)
    )
    floor, floor_seconds = _cold(lambda: hidden_discard_many(hidden[:floor_size], declarer=seat))
    assert (found <= tricks).all() and (floor <= found[:floor_size]).all()
    assert (found <= estimate).all() and (estimate <= tricks).all()
    return {
        "sound": len(possible),
        "open_ms": 1e3 * open_seconds / len(seen),
        "hidden_ms": 1e3 * hidden_seconds / len(seen),
        "hidden_ratio": float(np.median(ratios)),
        "hidden_ratio_low": float(ratios.min()),
        "hidden_ratio_high": float(ratios.max()),
        "estimate_ms": 1e3 * estimate_seconds / len(seen),
        "floor_ms": 1e3 * floor_seconds / floor_size,
        "p_open": float((tricks > 0).mean()),
        "p_hidden": float((found > 0).mean()),
        "p_estimate": float((estimate > 0).mean()),
        "p_floor": float((floor > 0).mean()),
        "p_hidden_floor_sample": float((found[:floor_size] > 0).mean()),
    }


def headline_rows() -> list[str]:
    """P(caught) and E[tricks] of the headline holdings in each setting under each lead, from
    the table."""
    try:
        table = load_catch_rates()
    except ValueError as err:
        return [f"  (no table: {err})"]
    lines = []
    for text, setting in itertools.product(HEADLINE, SETTINGS):
        rows = table[(table["holding_mask"] == parse_holding(text)) & (table["setting"] == setting)]
        for row in rows.assign(leader=lead_index(rows)).sort_values("leader").itertuples():
            lines.append(
                f"  {text:<5} {setting:<12} {row.lead:<5}  P(caught) {row.p_caught:.4f} "
                f"[{row.p_caught_low:.4f}, {row.p_caught_high:.4f}]  E[tricks] "
                f"{row.mean_tricks:.3f} [{row.mean_tricks_low:.3f}, {row.mean_tricks_high:.3f}]"
                f"  n={row.n:,}"
            )
    return lines


def headline_pair_rows() -> list[str]:
    """P(caught) of a few pairs of catchable suits under each lead, from the pairs table."""
    try:
        table = load_catch_pairs()
    except ValueError as err:
        return [f"  (no table: {err})"]
    lines = []
    for texts in HEADLINE_PAIRS:
        a, b = sorted(parse_holding(t) for t in texts)
        rows = table[(table["holding_a_mask"] == a) & (table["holding_b_mask"] == b)]
        for row in rows.assign(leader=lead_index(rows)).sort_values("leader").itertuples():
            lines.append(
                f"  {' + '.join(texts):<9} {row.lead:<5}  P(caught) {row.p_caught:.3f} "
                f"[{row.p_caught_low:.3f}, {row.p_caught_high:.3f}]  n={row.n:,}"
            )
    return lines


def main() -> dict[str, float]:
    """Print the benchmark figures; return those of the layouts and of the discard hidden (the
    catch rates quoted are the shipped tables')."""
    figures_of: dict[str, float] = {}
    for dealt, talon, discard in HANDS:
        kept = (parse_hand(dealt) | parse_hand(talon)) & ~parse_hand(discard)
        print(f"misère {format_hand(kept)} (dealt {dealt}, talon {talon}, discard {discard})")
        for seat in SEATS:
            figures = time_layouts(layouts(dealt, talon, discard, seat), seat)
            print(
                f"  seat {seat} ({LEADS[(0 - seat) % 3]} lead), {figures['layouts']:,} layouts, "
                f"one core: makes_many {figures['makes_seconds']:.2f} s "
                f"(P(caught) {figures['p_caught']:.4f}), solve_many "
                f"{figures['solve_seconds']:.2f} s (E[tricks] {figures['mean_tricks']:.3f})"
            )
            for name, value in figures.items():
                figures_of[f"{format_hand(kept)}, seat {seat}: {name}"] = value
    print(
        f"the discard hidden, on {HIDDEN_SAMPLE:,} of those layouts (floor: {FLOOR_SAMPLE}), "
        "one core, ms a layout:"
    )
    for dealt, talon, discard in HANDS:
        hand12 = parse_hand(dealt) | parse_hand(talon)
        for seat in SEATS:
            hands = layouts(dealt, talon, discard, seat)
            f = time_hidden(hands, seat, hand12, parse_hand(discard))
            hidden_ratio = f["hidden_ratio"]
            floor_ratio = f["floor_ms"] / f["open_ms"]
            print(
                f"  {format_hand(hand12)} seat {seat} ({LEADS[(0 - seat) % 3]} lead): open "
                f"{f['open_ms']:.3f} (P(caught) {f['p_open']:.3f}); hidden among "
                f"{f['sound']:.0f} {f['hidden_ms']:.3f} ({hidden_ratio:.2f}x, rounds "
                f"{f['hidden_ratio_low']:.2f}-{f['hidden_ratio_high']:.2f}, P "
                f"{f['p_hidden']:.3f}); floor {f['floor_ms']:.3f} ({floor_ratio:.1f}x, P "
                f"{f['p_floor']:.3f} where hidden {f['p_hidden_floor_sample']:.3f})"
            )
            print(
                f"    estimate inside the bracket {f['estimate_ms']:.3f} "
                f"({f['estimate_ms'] / f['open_ms']:.1f}x, P {f['p_estimate']:.3f})"
            )
            for name, value in f.items():
                figures_of[f"{format_hand(hand12)} hidden, seat {seat}: {name}"] = value
    print("catch rates (prefstats/data/catch_rates.parquet; three settings, 95% CI):")
    for line in headline_rows():
        print(line)
    print(
        "pairs of catchable suits (prefstats/data/catch_pairs.parquet; clean suits "
        "elsewhere, 95% CI):"
    )
    for line in headline_pair_rows():
        print(line)
    return figures_of


if __name__ == "__main__":
    main()
