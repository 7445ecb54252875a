"""The benchmark printers quote the shipped tables (prefstats.benchmarks)."""

from prefstats.benchmarks.misere import headline_pair_rows, headline_rows
from prefstats.misere.tables import load_catch_pairs


def test_bench_headlines_quote_the_shipped_tables() -> None:
    singles, pairs = headline_rows(), headline_pair_rows()
    assert len(singles) == 5 * 3 and len(pairs) == 3 * 3
    row = load_catch_pairs().query("holding_a == 2 and holding_b == 9 and lead == 'left'")
    assert pairs[1].split()[:5] == ["8", "+", "7", "10", "left"]
    assert f"{row['p_caught'].iloc[0]:.3f}" in pairs[1]
