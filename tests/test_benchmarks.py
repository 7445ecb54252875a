"""The benchmark printers quote the shipped tables (prefstats.benchmarks)."""

from prefstats.benchmarks.misere import (
    HANDS,
    headline_pair_rows,
    headline_rows,
    layouts,
    time_hidden,
)
from prefstats.game.cards import parse_hand
from prefstats.misere.tables import load_catch_pairs, load_catch_rates


def test_bench_headlines_quote_the_shipped_tables() -> None:
    singles, pairs = headline_rows(), headline_pair_rows()
    assert len(singles) == 5 * 3 * 3 and len(pairs) == 3 * 3  # holdings x settings x leads
    table = load_catch_rates()
    rates = table.query("holding_mask == 2 and setting == 'lowest-sides' and lead == 'left'")
    line = next(s for s in singles if s.split()[:3] == ["8", "lowest-sides", "left"])
    assert f"{rates['p_caught'].iloc[0]:.4f}" in line and f"n={rates['n'].iloc[0]:,}" in line
    row = load_catch_pairs().query("holding_a_mask == 2 and holding_b_mask == 9 and lead == 'left'")
    assert pairs[1].split()[:5] == ["8", "+", "7", "10", "left"]
    assert f"{row['p_caught'].iloc[0]:.3f}" in pairs[1]


def test_the_hidden_discard_benchmark_pairs_its_models() -> None:
    """``time_hidden`` solves the same layouts open, hidden among the discards like his, and
    with every pair possible, and plays them out under the estimate: the rates are ordered on
    them (its own asserts check each layout)."""
    dealt, talon, discard = HANDS[0]
    hands = layouts(dealt, talon, discard, 1)[::4000]
    figures = time_hidden(hands, 1, parse_hand(dealt) | parse_hand(talon), parse_hand(discard))
    assert figures["p_hidden"] <= figures["p_open"] and figures["sound"] >= 1
    assert figures["p_floor"] <= figures["p_hidden_floor_sample"]
    assert figures["p_hidden"] <= figures["p_estimate"] <= figures["p_open"]
    assert figures["estimate_ms"] > 0
