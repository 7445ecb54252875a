"""The benchmark printers quote the shipped tables (prefstats.benchmarks)."""

from prefstats.benchmarks.misere import headline_pair_rows, headline_rows
from prefstats.misere.tables import load_catch_pairs, load_catch_rates


def test_bench_headlines_quote_the_shipped_tables() -> None:
    singles, pairs = headline_rows(), headline_pair_rows()
    assert len(singles) == 5 * 3 * 3 and len(pairs) == 3 * 3  # holdings x settings x leads
    table = load_catch_rates()
    rates = table.query("holding == 2 and setting == 'lowest-sides' and lead == 'left'")
    line = next(s for s in singles if s.split()[:3] == ["8", "lowest-sides", "left"])
    assert f"{rates['p_caught'].iloc[0]:.4f}" in line and f"n={rates['n'].iloc[0]:,}" in line
    row = load_catch_pairs().query("holding_a == 2 and holding_b == 9 and lead == 'left'")
    assert pairs[1].split()[:5] == ["8", "+", "7", "10", "left"]
    assert f"{row['p_caught'].iloc[0]:.3f}" in pairs[1]
