"""The information models on shared layouts (prefstats.studies.catch_information) and the
``paired`` rows of the shipped table ``catch_rates``: their layouts, the order of the models on
every layout, the blind lead chosen per hand, the paired counts, and the shipped rows
recomputed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prefstats.data import shipped
from prefstats.game.cards import SUIT_MASK, holdings, parse_holding
from prefstats.game.deal import TALON, deal_many
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.tables import (
    CATCH_RATES,
    COMMON_HOLDINGS,
    LEADS,
    catch_rate_table,
    load_catch_rates,
)
from prefstats.players.discards import defender_rates, misere_discards, sound_misere_discards
from prefstats.players.sharing import misere_values
from prefstats.solver import first_lead_many
from prefstats.stats import clustered_proportion, mean_estimate, proportion
from prefstats.studies.catch_information import (
    INFORMATION,
    INFORMATION_SETTINGS,
    dealt_layouts,
    dealt_picks,
    information_ev,
    information_holdings,
    information_layouts,
    information_table,
    information_tricks,
)
from prefstats.studies.catch_tables import DEALT_SEED, SEED, lowest_sides_hand, solve_leads
from prefstats.studies.misere_ev import EV_RULES
from prefstats.studies.storage import read_provenance

OWN = LEADS.index("own")


def test_a_hands_layouts_share_his_cards_and_split_the_rest() -> None:
    """Each hand's rows hold the same ten and the same two cards out of play; the four parts
    are disjoint, of 10, 10, 10 and 2 cards; the holding is his spade suit; the same seed gives
    the same rows."""
    holding = parse_holding("7 10")
    for setting in INFORMATION_SETTINGS[:2]:
        rows = information_layouts(holding, setting, hands=5, per_hand=4, seed=3)
        assert rows.shape == (20, 4)
        assert np.bitwise_count(rows).tolist() == [[10, 10, 10, 2]] * 20
        assert ((rows[:, 0] | rows[:, 1] | rows[:, 2] | rows[:, 3]) == (1 << 32) - 1).all()
        assert (rows[:, 0] & SUIT_MASK == holding).all()
        by_hand = rows.reshape(5, 4, 4)
        assert (by_hand[:, :, [0, TALON]] == by_hand[:, :1, [0, TALON]]).all()
        assert len({tuple(r) for r in by_hand[:, :, 1].tolist()}) == 5  # the splits differ
        assert (rows == information_layouts(holding, setting, hands=5, per_hand=4, seed=3)).all()
    lowest = information_layouts(holding, "lowest-sides", hands=3, per_hand=2, seed=3)
    assert (lowest[:, 0] == lowest_sides_hand(holding)).all()


def test_as_dealt_hands_are_dealt_seats_after_their_discard() -> None:
    """As dealt: each pick is a dealt seat holding the holding as its one catchable suit after
    the heuristic discard; the rows hold his ten after that discard, the discard in the
    talon's place, the other twenty split anew; the discard made is among the sound ones."""
    rates = defender_rates(catch_rate_table("clean-sides"))
    holding = parse_holding("7 10")
    picks = dealt_picks([holding], rates, hands=3)[holding]
    assert len(picks) == 3 and picks == sorted(picks)
    layouts, sound = dealt_layouts(picks, holding, rates, per_hand=4, seed=2)
    assert layouts.shape == (12, 4) and sound.shape[0] == 12
    for i, (deal, seat) in enumerate(picks):
        dealt = deal_many(1, DEALT_SEED, start=deal)[0]
        twelve = int(dealt[seat] | dealt[TALON])
        rows = layouts[4 * i : 4 * i + 4]
        assert ((rows[:, 0] | rows[:, TALON]) == twelve).all()
        assert (rows[:, TALON] == misere_discards(np.array([twelve], np.uint32), rates)[0]).all()
        codes = class_codes()[holdings(rows[:1, 0])][0]
        assert sorted(codes.tolist()).count(SuitClass.CATCHABLE) == 1
        assert holding in holdings(rows[:1, 0])[0][codes == SuitClass.CATCHABLE]
        assert (sound[4 * i : 4 * i + 4, 0] == rows[:, TALON]).all()
    assert np.bitwise_count(layouts).tolist() == [[10, 10, 10, 2]] * 12


def test_information_models_are_ordered_on_every_layout() -> None:
    """On the same layouts: the floor <= hidden sound <= open on every layout and lead; the
    blind lead >= open on his own lead and equal to it on the defenders' leads; as played low
    caught no more often than as played high, hand by hand; the estimate between hidden sound
    and open on the defenders' leads, layout by layout, and between the bracket's ends on his
    own lead, hand by hand."""
    for text, setting in (("7 10", "lowest-sides"), ("8", "clean-sides"), ("7 J", "clean-sides")):
        layouts = information_layouts(parse_holding(text), setting, hands=4, per_hand=6, seed=5)
        tricks = information_tricks(layouts)
        assert list(tricks) == list(INFORMATION)
        assert (tricks["open"] == solve_leads(layouts)).all()
        assert (tricks["hidden floor"] <= tricks["hidden sound"]).all()
        assert (tricks["hidden sound"] <= tricks["open"]).all()
        assert (tricks["blind lead"][:, OWN] >= tricks["open"][:, OWN]).all()
        assert (tricks["blind lead"][:, 1:] == tricks["open"][:, 1:]).all()
        assert (tricks["as played low"][:, 1:] == tricks["hidden sound"][:, 1:]).all()
        assert (tricks["as played high"] == tricks["blind lead"]).all()
        low = (tricks["as played low"][:, OWN] > 0).reshape(4, 6).sum(axis=1)
        high = (tricks["as played high"][:, OWN] > 0).reshape(4, 6).sum(axis=1)
        assert (low <= high).all(), text
        assert (tricks["estimate"][:, 1:] <= tricks["open"][:, 1:]).all()
        assert (tricks["estimate"][:, 1:] >= tricks["hidden sound"][:, 1:]).all()
        estimate = (tricks["estimate"][:, OWN] > 0).reshape(4, 6).sum(axis=1)
        assert (low <= estimate).all() and (estimate <= high).all(), text


def test_the_blind_lead_is_one_card_for_a_hand_caught_on_fewest_of_its_layouts() -> None:
    """For each hand, the blind lead's catches are the fewest over every first card of his ten,
    each tried on all the hand's layouts; and its tricks are those of one such card."""
    layouts = information_layouts(parse_holding("7 J"), "lowest-sides", hands=3, per_hand=8, seed=7)
    tricks = information_tricks(layouts)
    candidates = layouts[:, :3].copy()
    candidates[:, 0] |= layouts[:, TALON]
    seen = np.ascontiguousarray(layouts[:, TALON : TALON + 1])
    sound = np.column_stack(
        [layouts[:, TALON], sound_misere_discards(candidates[:, 0], seen[:, 0])]
    )
    for hand in range(3):
        rows = slice(8 * hand, 8 * hand + 8)
        ten = int(layouts[8 * hand, 0])
        for model, possible in (("blind lead", seen), ("as played low", sound)):
            by_card = [
                first_lead_many(candidates[rows], card, discards=possible[rows])
                for card in range(32)
                if ten >> card & 1
            ]
            chosen = tricks[model][rows, OWN]
            assert int((chosen > 0).sum()) == min(int((t > 0).sum()) for t in by_card)
            assert any((chosen == t).all() for t in by_card), (hand, model)


def test_the_table_pairs_each_model_with_open_play() -> None:
    """``open_caught`` is open play's catches on the same layouts; ``saved`` and ``added``
    count the layouts where a model and open play disagree; the hidden models add no catch
    and the blind lead saves none."""
    rows = pd.DataFrame(
        {
            "setting": np.zeros(4, np.uint8),
            "holding": np.full(4, 9, np.uint8),
            "hand": np.array([0, 0, 1, 1], np.int16),
            **{
                f"{m}|{lead}": np.array([1, 0, 2, 0], np.int8)
                for m in INFORMATION
                for lead in LEADS
            },
        }
    )
    rows["hidden sound|left"] = np.array([0, 0, 1, 0], np.int8)
    rows["blind lead|own"] = np.array([1, 1, 2, 0], np.int8)
    table = information_table(rows)

    def counts(model: str, lead: str) -> list[int]:
        row = table[(table.information == model) & (table.lead == lead)]
        return [int(v) for v in row[["caught", "open_caught", "saved", "added"]].to_numpy()[0]]

    assert counts("open", "left") == [2, 2, 0, 0]
    assert counts("hidden sound", "left") == [1, 2, 1, 0]
    assert counts("blind lead", "own") == [3, 2, 0, 1]
    assert set(table["hands"]) == {2} and set(table["holding"]) == {"7 10"}


def test_the_tables_intervals_are_taken_over_hands() -> None:
    """A hand's layouts are alike: where each of 8 hands is caught on all its 5 layouts or on
    none, P(caught)'s interval is that of about 8 trials, not 40, and E[tricks]'s is wider than
    over independent layouts; with one layout a hand both are the independent ones."""
    caught_hands = np.array([1, 0, 1, 1, 0, 0, 1, 0])

    def table_of(per_hand: int) -> pd.DataFrame:
        hand = np.repeat(np.arange(8, dtype=np.int16), per_hand)
        tricks = np.repeat(caught_hands, per_hand).astype(np.int8)
        columns = {f"{m}|{lead}": tricks for m in INFORMATION for lead in LEADS}
        rows = pd.DataFrame({"setting": 0, "holding": 9, "hand": hand, **columns})
        return information_table(rows.astype({"setting": np.uint8, "holding": np.uint8}))

    row = table_of(5).iloc[0]
    clustered = clustered_proportion(caught_hands * 5, np.full(8, 5))
    plain = proportion(20, 40)
    assert (row.p_caught_low, row.p_caught_high) == (clustered.low, clustered.high)
    assert row.p_caught_high - row.p_caught_low > 1.8 * (plain.high - plain.low)
    layouts = mean_estimate(np.repeat(caught_hands, 5).astype(float))
    assert row.mean_tricks_high - row.mean_tricks_low > 1.8 * (layouts.high - layouts.low)
    single = table_of(1).iloc[0]
    eight = proportion(4, 8)
    assert np.isclose(single.p_caught_low, eight.low) and np.isclose(
        single.p_caught_high, eight.high
    )


def test_the_solo_ev_interval_is_widened_as_the_tricks_interval_is() -> None:
    """``information_ev``: with the E[tricks] interval of independent layouts the solo EV's is
    ``misere_values``' own; with one twice as wide (taken over hands) it is twice as wide."""
    counts = {f"tricks_{k}": 0 for k in range(11)} | {"tricks_0": 30, "tricks_1": 6, "tricks_3": 4}
    tricks = np.repeat(np.arange(11), [counts[f"tricks_{k}"] for k in range(11)])
    layouts = mean_estimate(tricks.astype(float))
    row = {"mean_tricks": layouts.estimate, "p_caught": 0.25, **counts}
    solo = misere_values(tricks, EV_RULES).loc["solo"]
    for factor in (1.0, 2.0):
        half = factor * (layouts.high - layouts.low) / 2
        bounds = {
            "mean_tricks_low": layouts.estimate - half,
            "mean_tricks_high": layouts.estimate + half,
        }
        table = pd.DataFrame([row | bounds])
        ev = information_ev(table).iloc[0]
        assert np.isclose(ev.solo_ev, solo.ev)
        assert np.isclose(ev.solo_ev_high - ev.solo_ev_low, factor * (solo.high - solo.low))


@pytest.fixture(scope="module")
def shipped_table() -> pd.DataFrame:
    return load_catch_rates(design="paired")


def test_the_shipped_table_holds_every_model_setting_holding_and_lead(
    shipped_table: pd.DataFrame,
) -> None:
    """One row per setting, holding, model and lead, for every catchable holding of up to
    three cards, every row of a holding on the same number of layouts."""
    provenance = read_provenance(shipped(CATCH_RATES))
    holdings = information_holdings()
    per_setting = shipped_table.groupby("setting").holding_mask.nunique()
    assert per_setting.to_dict() == {"clean-sides": 88, "lowest-sides": 88, "as-dealt": 82}
    assert len(shipped_table) == per_setting.sum() * len(INFORMATION) * len(LEADS)
    assert set(shipped_table["information"]) == set(INFORMATION)
    assert set(shipped_table["holding_mask"]) == set(holdings)
    per_hand = provenance["paired"]["layouts_per_hand"]
    assert (shipped_table["n"] == shipped_table["hands"] * per_hand).all()
    dealt = shipped_table.setting == "as-dealt"
    assert (shipped_table.loc[~dealt, "hands"] == provenance["paired"]["hands"]).all()
    assert shipped_table.loc[dealt, "hands"].between(1, provenance["paired"]["hands"]).all()


def test_the_shipped_table_keeps_the_models_order_on_every_row(shipped_table: pd.DataFrame) -> None:
    """Paired on the same layouts, exactly: hidden models save open catches and add none, the
    floor catches no more than hidden sound, the blind lead adds catches and saves none, the
    defenders' leads are open play for the blind lead, and the estimate catches no less than
    the bracket's low end and no more than its high end."""
    key = ["setting", "holding", "lead"]
    by_model = {
        name: part.sort_values(key).reset_index(drop=True)
        for name, part in shipped_table.groupby("information")
    }

    def column(model: str, name: str) -> np.ndarray:
        return by_model[model][name].to_numpy()

    defenders = column("open", "lead") != "own"
    assert (column("open", "caught") == column("open", "open_caught")).all()
    for model in ("hidden floor", "hidden sound"):
        assert (column(model, "added") == 0).all()
    assert (column("blind lead", "saved") == 0).all()
    blind = column("blind lead", "caught")
    assert (blind == column("blind lead", "open_caught") + column("blind lead", "added")).all()
    assert (column("hidden floor", "caught") <= column("hidden sound", "caught")).all()
    assert (column("hidden sound", "caught") <= column("open", "caught")).all()
    assert (column("open", "caught") <= blind).all()
    assert (column("as played low", "caught") <= column("as played high", "caught")).all()
    assert (column("as played low", "caught") <= column("estimate", "caught")).all()
    assert (column("estimate", "caught") <= column("as played high", "caught")).all()
    assert (column("estimate", "added")[defenders] == 0).all()
    assert (blind[defenders] == column("open", "caught")[defenders]).all()


def test_shipped_rows_are_reproduced_exactly(shipped_table: pd.DataFrame) -> None:
    """A holding's rows, recomputed from the table's own seed and sizes: the same counts, and
    the same intervals from them."""
    provenance = read_provenance(shipped(CATCH_RATES))
    holding = parse_holding("8")
    layouts = information_layouts(
        holding,
        "lowest-sides",
        provenance["paired"]["hands"],
        provenance["paired"]["layouts_per_hand"],
        SEED,
    )
    assert provenance["seed"] == SEED
    tricks = information_tricks(layouts)
    mine = shipped_table[
        (shipped_table.setting == "lowest-sides") & (shipped_table.holding_mask == holding)
    ]
    for row in mine.itertuples():
        counts = np.bincount(
            tricks[str(row.information)][:, LEADS.index(str(row.lead))], minlength=11
        )
        assert counts.tolist() == [getattr(row, f"tricks_{k}") for k in range(11)]
    hands, per_hand = provenance["paired"]["hands"], provenance["paired"]["layouts_per_hand"]
    rows = pd.DataFrame(
        {
            "setting": np.full(len(layouts), INFORMATION_SETTINGS.index("lowest-sides"), np.uint8),
            "holding": np.full(len(layouts), holding, np.uint8),
            "hand": np.repeat(np.arange(hands, dtype=np.int16), per_hand),
            **{f"{m}|{lead}": tricks[m][:, i] for m in INFORMATION for i, lead in enumerate(LEADS)},
        }
    )
    again = information_table(rows)
    columns = ["p_caught_low", "p_caught_high", "mean_tricks_low", "mean_tricks_high"]
    assert np.allclose(again[columns].to_numpy(float), mine[columns].to_numpy(float), atol=1e-12)


def test_the_rules_text_states_the_shipped_figures(shipped_table: pd.DataFrame) -> None:
    """docs/rules.md's figures of what the information changes are the shipped table's."""
    rules = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    rules = " ".join(rules.split())
    ten = shipped_table[shipped_table.holding.isin(COMMON_HOLDINGS)]

    def total(setting: str, model: str, lead: str, column: str) -> int:
        rows = ten[(ten.setting == setting) & (ten.information == model) & (ten.lead == lead)]
        return int(rows[column].sum())

    lowest_saved = total("lowest-sides", "as played low", "left", "saved")
    lowest_open = total("lowest-sides", "open", "left", "caught")
    dealt_saved = total("as-dealt", "as played low", "left", "saved")
    dealt_open = total("as-dealt", "open", "left", "caught")
    assert (
        f"lose {lowest_saved / lowest_open:.0%} of the open catches on the defenders' lead "
        f"({lowest_saved:,} of {lowest_open:,}) and the floor catches "
        f"{total('lowest-sides', 'hidden floor', 'left', 'caught'):,}"
    ) in rules
    estimate = total("lowest-sides", "estimate", "left", "caught")
    assert f"make {estimate:,} of them ({estimate / lowest_open:.0%})" in rules
    assert f"loses {dealt_saved / dealt_open:.0%} ({dealt_saved:,} of {dealt_open:,})" in rules
    for setting, text in (("lowest-sides", "lowest-sides"), ("as-dealt", "as dealt")):
        added = total(setting, "blind lead", "own", "added")
        own = total(setting, "open", "own", "caught")
        assert f"{added:,} of {own:,} {text}" in rules
