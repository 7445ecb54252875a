"""The shipped catch-rate tables' lookups and the product rule (prefstats.misere.tables)."""

from __future__ import annotations

import numpy as np
import pytest

from prefstats.game.cards import parse_holding
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.tables import (
    LEADS,
    PLAYERS,
    SETTINGS,
    catch_rate,
    catch_rate_table,
    lead_index,
    load_catch_pairs,
    load_catch_rates,
    pair_independence,
    relative_lead,
)

CODES = class_codes()
CLEAN = [h for h in range(256) if CODES[h] == SuitClass.CLEAN]
CONDITIONAL = [h for h in range(256) if CODES[h] == SuitClass.CONDITIONALLY_CLEAN]
CATCHABLE = [h for h in range(256) if CODES[h] == SuitClass.CATCHABLE]


def test_pair_independence_arithmetic() -> None:
    table = pair_independence()
    assert len(table) == len(load_catch_pairs())
    rates = catch_rate_table()
    row = table[
        (table["holding_a"] == "8") & (table["holding_b"] == "7 10") & (table["lead"] == "left")
    ]
    p_a, p_b = rates[parse_holding("8"), 1], rates[parse_holding("7 10"), 1]
    assert row["p_independent"].iloc[0] == pytest.approx(1 - (1 - p_a) * (1 - p_b))
    assert np.allclose(table["difference"], table["p_caught"] - table["p_independent"])
    predicted, low, high = table["p_independent"], table["p_caught_low"], table["p_caught_high"]
    assert (table["inside"] == ((low <= predicted) & (predicted <= high))).all()


# --- lookups ---------------------------------------------------------------------------------


def test_catch_rate_table_shape_and_zeros() -> None:
    rates = catch_rate_table()
    assert rates.shape == (256, 3) and not rates.flags.writeable
    assert (rates[CLEAN] == 0).all() and (rates[0] == 0).all()
    assert (rates[CONDITIONAL, 1:] == 0).all()
    assert np.isnan(rates[255, 0])  # the eight-card holding on own lead: not measured
    assert not np.isnan(rates[CATCHABLE]).any()
    assert (rates[CATCHABLE] >= 0).all() and (rates[CATCHABLE] <= 1).all()


@pytest.mark.parametrize("setting", SETTINGS)
def test_catch_rate_lookups_agree_with_the_table(setting: str) -> None:
    table = load_catch_rates()
    table = table[table.setting == setting].set_index(["holding_mask", "lead"])
    for text in ("7 10", "8", "9 J Q"):
        holding = parse_holding(text)
        for lead in LEADS:
            expected = table.loc[(holding, lead), "p_caught"]
            looked_up = catch_rate(text, lead, setting)
            assert looked_up == catch_rate(holding, LEADS.index(lead), setting) == expected
        both = (catch_rate(text, "left", setting) + catch_rate(text, "right", setting)) / 2
        assert catch_rate(text, "defenders", setting) == pytest.approx(both)
    assert catch_rate("7 8 9", "own", setting) == 0.0


def test_players_rates_are_as_dealt_where_measured_on_their_own() -> None:
    table = load_catch_rates()
    players, clean = catch_rate_table(PLAYERS), catch_rate_table("clean-sides")
    dealt = table[table.setting == "as-dealt"]
    own = dealt[~dealt.pooled]
    assert len(own) > 0 and dealt.pooled.any()
    assert (players[own.holding_mask, lead_index(own)] == own.p_caught).all()
    pooled = dealt[dealt.pooled & ~dealt.holding_mask.isin(own.holding_mask)]
    at = pooled.holding_mask, lead_index(pooled)
    assert (players[at] == clean[at]).all()
    with pytest.raises(ValueError, match="unknown catch-rate setting 'dealt'"):
        catch_rate_table("dealt")


@pytest.mark.parametrize(
    ("holding", "lead", "message"),
    [
        ("7 10", "middle", "lead must be"),
        ("7 10", 3, "lead must be"),
        (256, "own", "8-bit"),
        ("7 X", "own", "bad rank"),
    ],
)
def test_catch_rate_rejects_bad_input(holding: int | str, lead: str | int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        catch_rate(holding, lead)


def test_relative_lead() -> None:
    assert [relative_lead(seat) for seat in range(3)] == [0, 2, 1]
    with pytest.raises(ValueError, match="seat"):
        relative_lead(3)


def test_an_unknown_design_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="design must be one of independent, paired, got 'open'"):
        load_catch_rates(design="open")
