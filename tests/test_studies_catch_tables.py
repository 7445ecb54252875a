"""The catch-rate tables' generator: the model's sampling, the clean-suit theorem in the full
solver, the resumable run, and the shipped tables it wrote (prefstats.studies.catch_tables)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from prefstats.data import shipped
from prefstats.game.cards import (
    N_CARDS,
    N_RANKS,
    SUIT_MASK,
    format_hand,
    format_holding,
    parse_holding,
)
from prefstats.game.deal import deal_many
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.tables import (
    CATCH_PAIRS,
    DESIGNS,
    LEADS,
    SETTINGS,
    catch_pair_table,
    catch_rate_table,
    load_catch_pairs,
    load_catch_rates,
)
from prefstats.players.discards import defender_rates, misere_discards
from prefstats.solver import makes_many
from prefstats.studies import catch_information
from prefstats.studies.catch_information import INFORMATION, information_holdings
from prefstats.studies.catch_rates import COLUMNS, build_rates
from prefstats.studies.catch_tables import (
    N_SINGLE,
    N_SINGLE_SLOW,
    catch_summary,
    clean_fillers,
    dealt_misere_hands,
    item_tricks,
    lowest_holdings,
    lowest_sides_hand,
    pair_items,
    pooled_summary,
    run,
    sample_hands,
    sample_layouts,
    single_holdings,
    single_n,
)
from prefstats.studies.storage import read_csv, read_provenance

SEED = 20_240_612
CODES = class_codes()
CLEAN = [h for h in range(256) if CODES[h] == SuitClass.CLEAN]
CONDITIONAL = [h for h in range(256) if CODES[h] == SuitClass.CONDITIONALLY_CLEAN]
CATCHABLE = [h for h in range(256) if CODES[h] == SuitClass.CATCHABLE]
LAYOUTS_PER_HOLDING = 300
# Statistical checks below use |z| <= Z_BOUND: a correct program fails one with probability
# below 6e-8 (two-sided normal tail at 5.4 sigma), and the file makes fewer than 40 of them.
Z_BOUND = 5.4


def suits_of(hands: np.ndarray) -> np.ndarray:
    """(n, 4) holdings of each hand."""
    return np.stack([(hands >> np.uint32(N_RANKS * s)) & np.uint32(SUIT_MASK) for s in range(4)], 1)


# --- the model's sampling --------------------------------------------------------------------


def test_fillers_are_clean_non_void_and_fill_the_hand() -> None:
    for n_cards, n_suits in [(9, 3), (4, 3), (3, 3), (5, 2), (8, 2)]:
        fillers = clean_fillers(n_cards, n_suits)
        assert len(fillers) > 0
        assert (CODES[fillers] == SuitClass.CLEAN).all()
        assert (np.bitwise_count(fillers).sum(axis=1) == n_cards).all()
    assert len(clean_fillers(2, 3)) == 0  # the 8-card holding leaves too few cards


def test_sampled_hands_have_the_pattern_uniformly() -> None:
    holding = parse_holding("7 10 J")
    hands = sample_hands((holding,), 30_000, SEED)
    suits = suits_of(hands)
    assert (suits[:, 0] == holding).all()
    assert (np.bitwise_count(hands) == 10).all()
    assert (CODES[suits[:, 1:]] == SuitClass.CLEAN).all()
    fillers = clean_fillers(7, 3)
    index = {tuple(row): i for i, row in enumerate(fillers.tolist())}
    counts = np.bincount([index[tuple(row)] for row in suits[:, 1:].tolist()], minlength=len(index))
    assert scipy.stats.chisquare(counts).pvalue > 1e-7  # uniform over the filler tuples


def test_layouts_partition_the_deck_with_uniform_out_of_play_cards() -> None:
    n = 40_000
    layouts = sample_layouts((parse_holding("8 9"),), n, SEED)
    sizes = np.bitwise_count(layouts)
    assert (sizes == [10, 10, 10, 2]).all()
    assert (np.bitwise_or.reduce(layouts, axis=1) == np.uint32(0xFFFFFFFF)).all()
    assert (np.bitwise_xor.reduce(layouts, axis=1) == np.uint32(0xFFFFFFFF)).all()
    bits = (layouts[:, 3, None] >> np.arange(N_CARDS, dtype=np.uint32)) & 1
    free = ((layouts[:, 0, None] >> np.arange(N_CARDS, dtype=np.uint32)) & 1) == 0
    per_card, chances = bits.sum(axis=0), free.sum(axis=0)
    seen = chances > 0
    p = 2 / 22  # each of the 22 cards he does not hold is out of play with probability 2/22
    z = (per_card[seen] - chances[seen] * p) / np.sqrt(chances[seen] * p * (1 - p))
    assert np.abs(z).max() < Z_BOUND


# --- the clean-suit theorem in the full solver -----------------------------------------------


def test_every_clean_holding_is_never_caught() -> None:
    """Clean holdings with clean suits elsewhere: zero tricks on every lead, every layout."""
    for holding in CLEAN:
        hands = sample_layouts((holding,), LAYOUTS_PER_HOLDING, SEED)[:, :3]
        for leader in range(3):
            assert makes_many(hands, 0, misere=True, leader=leader).all(), (holding, leader)


def test_conditionally_clean_holdings_are_never_caught_on_the_defenders_lead() -> None:
    for holding in CONDITIONAL:
        if holding.bit_count() == N_RANKS:  # all eight cards: two singleton sevens elsewhere
            declarer = holding | 1 << 8 | 1 << 16
            hands = deal_many(LAYOUTS_PER_HOLDING, SEED + 1, fixed={0: declarer})[:, :3]
        else:
            hands = sample_layouts((holding,), LAYOUTS_PER_HOLDING, SEED + 1)[:, :3]
        for leader in (1, 2):
            assert makes_many(hands, 0, misere=True, leader=leader).all(), (holding, leader)


def test_catchable_holdings_are_caught_somewhere() -> None:
    """The converse, on a few classic holdings: a defender's lead catches them in some layout."""
    for text in ["8", "9", "10", "7 10", "7 J", "8 9", "7 9 Q", "7 8 9 A"]:
        hands = sample_layouts((parse_holding(text),), LAYOUTS_PER_HOLDING, SEED + 2)[:, :3]
        assert not makes_many(hands, 0, misere=True, leader=1).all(), text


# --- the generator ---------------------------------------------------------------------------


def test_items_and_budget() -> None:
    singles = single_holdings()
    assert len(singles) == 254 and set(CATCHABLE) <= set(singles)
    assert len([h for h in CATCHABLE if h.bit_count() <= 6]) == 176
    assert len(pair_items()) == 84 * 85 // 2
    assert single_n(parse_holding("7 10")) == N_SINGLE
    assert single_n(parse_holding("7 10 Q")) == N_SINGLE_SLOW
    assert single_n(parse_holding("7 8 9")) == N_SINGLE  # clean: cheap


def test_item_tricks_reproducible_and_plausible() -> None:
    holding = (parse_holding("9 J"),)
    first, again = item_tricks(holding, 60, SEED), item_tricks(holding, 60, SEED)
    assert first.shape == (60, 3) and first.dtype == np.int8
    assert (first == again).all()
    assert not (first == item_tricks(holding, 60, SEED + 1)).all()
    assert first.min() >= 0 and first.max() <= 10


def test_run_resumes_and_refuses_another_spec(tmp_path: Path) -> None:
    groups = [[(parse_holding("8"),)], [(parse_holding("7 10"),), (parse_holding("9"),)]]
    paths = run(tmp_path / "r", groups, [5, 4], SEED, progress=False)
    stamps = [p.stat().st_mtime_ns for p in paths]
    paths[1].unlink()
    again = run(tmp_path / "r", groups, [5, 4], SEED, progress=False)
    assert again[0].stat().st_mtime_ns == stamps[0]  # finished groups are kept
    rows = pd.read_parquet(again[1])
    assert len(rows) == 8 and set(rows["holding_a"]) == {parse_holding("7 10"), parse_holding("9")}
    with pytest.raises(ValueError, match="different run"):
        run(tmp_path / "r", groups, [6, 4], SEED, progress=False)


def test_run_in_two_processes_writes_the_same_groups(tmp_path: Path) -> None:
    groups = [[(parse_holding("8"),)], [(parse_holding("7 10"),)], [(parse_holding("9 J"),)]]
    one = run(tmp_path / "one", groups, [6, 5, 4], SEED, progress=False)
    two = run(tmp_path / "two", groups, [6, 5, 4], SEED, jobs=2, progress=False)
    for a, b in zip(one, two, strict=True):
        pd.testing.assert_frame_equal(pd.read_parquet(a), pd.read_parquet(b))


def test_catch_summary_counts_and_intervals() -> None:
    tricks = item_tricks((parse_holding("7 J"),), 200, SEED)
    rows = pd.DataFrame(
        {"holding_a": 0x11, "holding_b": 0, **dict(zip(LEADS, tricks.T, strict=True))}
    )
    summary = catch_summary(rows)
    assert len(summary) == 3 and list(summary["lead"]) == list(LEADS)
    counts = summary[[f"tricks_{k}" for k in range(11)]].sum(axis=1)
    assert (counts == 200).all() and (summary["n"] == 200).all()
    assert np.allclose(summary["p_caught"], summary["caught"] / 200)
    assert (summary["p_caught_low"] <= summary["p_caught"]).all()
    assert (summary["p_caught"] <= summary["p_caught_high"]).all()
    assert np.allclose(summary["mean_tricks"], tricks.mean(axis=0))


def test_build_rates_writes_both_designs_with_provenance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both designs in one table: open play on independent layouts in three settings, and
    every information model of the paired design on shared layouts (a short as-dealt scan);
    the CSV repeats the parquet file and the provenance names both."""
    monkeypatch.setattr(catch_information, "DEALT_SCAN", 3000)
    table = build_rates(
        tmp_path / "runs",
        tmp_path,
        n=3,
        n_slow=3,
        n_lowest=3,
        dealt=1500,
        hands=2,
        per_hand=2,
        max_length=1,
        seed=SEED,
        progress=False,
    )
    independent = table[table.design == "independent"]
    sizes = independent.groupby("setting").size()
    assert sizes["clean-sides"] == 254 * 3 and sizes["lowest-sides"] == len(lowest_holdings()) * 3
    assert (independent.information == "open").all()
    assert (independent.hands == independent.n).all()
    assert independent[independent.setting == "as-dealt"].pooled.all()  # every holding sparse
    paired = table[table.design == "paired"]
    holdings = information_holdings(1)
    clean = paired[paired.setting == "clean-sides"]
    assert len(clean) == len(holdings) * len(INFORMATION) * len(LEADS)
    assert (clean.n == 4).all() and (clean.hands == 2).all() and not paired.pooled.any()
    assert list(table.columns) == COLUMNS
    parquet = pd.read_parquet(tmp_path / "catch_rates.parquet")
    csv = read_csv(tmp_path / "catch_rates.csv")
    pd.testing.assert_frame_equal(parquet, csv, check_dtype=False, atol=1e-5)
    provenance = read_provenance(tmp_path / "catch_rates.parquet")
    assert provenance["seed"] == SEED and set(provenance["settings"]) == set(SETTINGS)
    assert set(provenance["designs"]) == set(DESIGNS)
    assert (provenance["paired"]["hands"], provenance["paired"]["layouts_per_hand"]) == (2, 2)
    cpu = provenance["cpu_seconds"]
    assert cpu["total"] == pytest.approx(cpu["independent"] + cpu["paired"], abs=0.1)
    header = (tmp_path / "catch_rates.csv").read_text().splitlines()[:3]
    assert all(line.startswith("# ") for line in header)


def test_lowest_sides_hands_spread_the_lowest_cards() -> None:
    expected = {
        "8": "♠8 ♣7 8 9 ♦7 8 9 ♥7 8 9",
        "7 10": "♠7 10 ♣7 8 9 ♦7 8 9 ♥7 8",
        "7 10 J": "♠7 10 J ♣7 8 9 ♦7 8 ♥7 8",
        "7 8 9 A": "♠7 8 9 A ♣7 8 ♦7 8 ♥7 8",
        "7 9 J Q K": "♠7 9 J Q K ♣7 8 ♦7 8 ♥7",
    }
    for text, hand in expected.items():
        assert format_hand(lowest_sides_hand(parse_holding(text))) == hand
    layouts = sample_layouts((parse_holding("7 10"),), 2000, SEED, "lowest-sides")
    assert (layouts[:, 0] == lowest_sides_hand(parse_holding("7 10"))).all()
    assert (np.bitwise_count(layouts) == [10, 10, 10, 2]).all()
    assert len(np.unique(layouts[:, 1])) > 1900


def test_as_dealt_hands_have_exactly_one_catchable_suit() -> None:
    deals = deal_many(3000, seed=SEED)
    rates = defender_rates(catch_rate_table("clean-sides"))
    hands = dealt_misere_hands(deals, rates)
    assert 100 < len(hands) < 3 * 3000
    for row in hands.head(300).itertuples():
        hand12 = int(deals[row.row, row.seat]) | int(deals[row.row, 3])  # type: ignore[index]
        ten = int(getattr(row, ("first", "second", "third")[row.seat]))  # type: ignore[index]
        assert ten & ~hand12 == 0 and ten.bit_count() == 10
        assert ten == hand12 & ~int(misere_discards(np.array([hand12], np.uint32), rates)[0])
        classes = [CODES[(ten >> (8 * s)) & 0xFF] for s in range(4)]
        assert classes.count(SuitClass.CATCHABLE) == 1
        assert row.holding == (ten >> (8 * classes.index(SuitClass.CATCHABLE))) & 0xFF
        others = [
            int(getattr(row, name))
            for s, name in enumerate(("first", "second", "third"))
            if s != row.seat
        ]
        assert others == [int(deals[row.row, s]) for s in range(3) if s != row.seat]  # type: ignore[index]


def test_pooling_by_length() -> None:
    a, b, c = parse_holding("8"), parse_holding("9"), parse_holding("7 10")
    rows = pd.DataFrame(
        {
            "holding_a": [a] * 5 + [b] * 2 + [c] * 3,
            "holding_b": 0,
            "own": [0, 1, 0, 0, 0, 1, 1, 0, 2, 0],
            "left": 0,
            "right": 0,
        }
    )
    summary = pooled_summary(rows, least=4).set_index(["holding_a", "lead"])
    assert not summary.loc[(a, "own"), "pooled"] and summary.loc[(a, "own"), "n"] == 5
    # 9 (2 hands) is pooled with the other sparse one-card holdings: only itself here
    assert summary.loc[(b, "own"), "pooled"] and summary.loc[(b, "own"), "caught"] == 2
    assert summary.loc[(parse_holding("10"), "own"), "n"] == 2  # every catchable one gets a row
    assert summary.loc[(c, "own"), "pooled"] and summary.loc[(c, "own"), "n"] == 3


def test_shipped_table_covers_every_holding_with_n_and_intervals() -> None:
    table = load_catch_rates()
    clean = table[table.setting == "clean-sides"]
    assert len(clean) == 254 * 3 and set(CATCHABLE) <= set(clean["holding_mask"])
    assert (clean["n"] == [single_n(int(h)) for h in clean["holding_mask"]]).all()
    assert (clean["n"] >= 20_000).all()  # at least 20,000 layouts a holding
    lowest = table[table.setting == "lowest-sides"]
    assert set(lowest.holding_mask) == set(lowest_holdings()) and (lowest["n"] >= 5_000).all()
    dealt = table[table.setting == "as-dealt"]
    assert set(lowest_holdings()) <= set(dealt.holding_mask)  # every catchable one up to 4 cards
    assert (dealt[~dealt.pooled]["n"] >= 200).all()
    assert (table["p_caught_low"] <= table["p_caught"]).all()
    assert (table["p_caught"] <= table["p_caught_high"]).all()
    assert (table["mean_tricks_low"] <= table["mean_tricks"]).all()
    assert (table["mean_tricks"] <= table["mean_tricks_high"]).all()
    counts = table[[f"tricks_{k}" for k in range(11)]].to_numpy()
    assert (counts.sum(axis=1) == table["n"]).all()
    assert (table["caught"] == table["n"] - counts[:, 0]).all()
    assert (table["suit_class"] == [SuitClass(CODES[h]).label for h in table["holding_mask"]]).all()


def test_shipped_table_holds_both_designs_one_row_per_key() -> None:
    """Every row of ``catch_rates``: one per setting, holding, design, model and lead; the
    independent rows are open play paired with themselves (a hand each layout), the paired rows
    hold every information model, each compared with open play on its own layouts; counts and
    intervals are consistent on every row of both designs."""
    table = load_catch_rates(design=None)
    key = ["setting", "holding_mask", "design", "information", "lead"]
    assert not table.duplicated(key).any() and list(table.columns) == COLUMNS
    assert set(table.design) == set(DESIGNS)
    independent = table[table.design == "independent"]
    assert len(independent) == len(load_catch_rates())
    assert (independent.information == "open").all() and (independent.hands == independent.n).all()
    assert (independent.open_caught == independent.caught).all()
    assert (independent[["saved", "added"]] == 0).all().all()
    paired = table[table.design == "paired"]
    assert set(paired.information) == set(INFORMATION) and not paired.pooled.any()
    caught = paired.caught.to_numpy()
    assert (caught == paired.open_caught + paired.added - paired.saved).all()
    counts = table[[f"tricks_{k}" for k in range(11)]].to_numpy()
    assert (counts.sum(axis=1) == table["n"]).all()
    assert (table["caught"] == table["n"] - counts[:, 0]).all()
    assert (table["p_caught_low"] <= table["p_caught"]).all()
    assert (table["p_caught"] <= table["p_caught_high"]).all()


def test_shipped_tables_give_each_holding_as_printed_and_as_a_mask() -> None:
    rates, pairs = load_catch_rates(), load_catch_pairs()
    assert list(rates.columns[:3]) == ["setting", "holding", "holding_mask"]
    assert (rates["holding"] == [format_holding(h) for h in rates["holding_mask"]]).all()
    masks = ["holding_a", "holding_b", "holding_a_mask", "holding_b_mask"]
    assert list(pairs.columns[:4]) == masks and "leader" not in {*rates, *pairs}
    for side in ("holding_a", "holding_b"):
        assert (pairs[side] == [format_holding(h) for h in pairs[f"{side}_mask"]]).all()


def test_shipped_table_clean_rows_are_zero() -> None:
    table = load_catch_rates()
    table = table[table.setting == "clean-sides"]
    clean = table[table["suit_class"] == "clean"]
    assert len(clean) == 25 * 3 and (clean["caught"] == 0).all()
    conditional = table[(table["suit_class"] == "conditionally_clean") & (table["lead"] != "own")]
    assert (conditional["caught"] == 0).all()


def test_shipped_table_agrees_with_a_fresh_sample() -> None:
    """Fresh layouts (another seed) of 7 10 and 8 9: each lead's P(caught) within Z_BOUND."""
    table = load_catch_rates()
    table = table[table.setting == "clean-sides"]
    for text in ("7 10", "8 9"):
        holding = parse_holding(text)
        fresh = item_tricks((holding,), 3000, seed=SEED + 7)
        for leader, lead in enumerate(LEADS):
            row = table[(table["holding_mask"] == holding) & (table["lead"] == lead)]
            caught, n = int(row["caught"].iloc[0]), int(row["n"].iloc[0])
            fresh_caught = int((fresh[:, leader] > 0).sum())
            pooled = (caught + fresh_caught) / (n + 3000)
            se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / 3000))
            assert abs(caught / n - fresh_caught / 3000) <= Z_BOUND * se, (text, lead)


def test_shipped_pairs_table() -> None:
    pairs = load_catch_pairs()
    assert len(pairs) == len(pair_items()) * 3
    assert (pairs["holding_a_mask"] <= pairs["holding_b_mask"]).all()
    assert (pairs["n"] > 0).all() and (pairs["n_cards"] <= 6).all()
    assert (CODES[pairs["holding_a_mask"]] == SuitClass.CATCHABLE).all()
    assert (pairs["p_caught_low"] <= pairs["p_caught_high"]).all()
    rates = catch_pair_table()
    a, b = parse_holding("8"), parse_holding("7 10")
    row = pairs[(pairs["holding_a_mask"] == min(a, b)) & (pairs["holding_b_mask"] == max(a, b))]
    assert (
        list(rates[a, b])
        == list(rates[b, a])
        == list(row.set_index("lead").loc[list(LEADS), "p_caught"])
    )
    assert np.isnan(rates[parse_holding("7 8"), a]).all()  # clean: not in the pairs table


def test_shipped_pairs_rows_are_reproduced_exactly() -> None:
    """The shipped rows of two pairs, recomputed from the table's own seed: the same counts."""
    pairs = load_catch_pairs()
    seed = read_provenance(shipped(CATCH_PAIRS))["seed"]
    for texts in (("8", "7 10"), ("7 J", "9 J Q")):
        item = tuple(sorted(parse_holding(t) for t in texts))
        rows = pairs[(pairs["holding_a_mask"] == item[0]) & (pairs["holding_b_mask"] == item[1])]
        tricks = item_tricks(item, int(rows["n"].iloc[0]), seed, "pairs")
        for row in rows.itertuples():
            counts = np.bincount(tricks[:, LEADS.index(row.lead)], minlength=11)
            assert counts.tolist() == [getattr(row, f"tricks_{k}") for k in range(11)], texts
