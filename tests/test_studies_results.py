"""Summaries of runs and policy comparisons (prefstats.studies.results)."""

import pytest

from prefstats.game.rules import LADDER
from prefstats.studies.results import discard_policy_effect, summarize
from prefstats.studies.runs import Chunk
from prefstats.studies.study import StudySpec, run_study, study_chunk


@pytest.fixture(scope="module")
def table():
    return study_chunk(StudySpec(deals=3000, seed=5).as_run_spec(), Chunk(0, 0, 3000))


def test_summary_counts_add_up(table):
    summary = summarize(table)
    for measure in ("bid", "played"):
        rows = summary[summary.measure == measure].set_index("event")
        contracts = rows.loc[[str(c) for c in LADDER], "count"].sum()
        assert contracts + rows.loc["all-pass", "count"] == len(table)
        nine, nine_only, ten = rows.loc[["nine", "nine only", "ten"], "count"]
        assert nine == nine_only + ten
        assert (rows["n"] == len(table)).all()
        assert ((rows.low <= rows.estimate) & (rows.estimate <= rows.high)).all()


def test_discard_policy_effect(forced_play):
    *_, tables = forced_play
    tables = {name: tables[name] for name in ("heuristic", "sampled", "dd")}
    effect = discard_policy_effect(tables).set_index(["policy", "measure"])
    assert effect.loc[("heuristic", "make rate"), "n"] == 100
    assert (effect.xs("catch rate", level="measure")["n"] == 20).all()
    assert (effect.loc["heuristic", "change"] == 0).all()
    assert effect.loc[("dd", "make rate"), "change"] >= 0
    assert effect.loc[("dd", "catch rate"), "change"] <= 0
    assert ((effect.low <= effect.rate) & (effect.rate <= effect.high)).all()
    assert ((effect.change_low <= effect.change) & (effect.change <= effect.change_high)).all()
    shifted = tables["dd"].assign(contract=tables["dd"].contract.shift(fill_value=0))
    with pytest.raises(ValueError, match="differ in their deals or contracts"):
        discard_policy_effect({"heuristic": tables["heuristic"], "dd": shifted})


def test_discard_policy_effect_of_run_folders(tmp_path):
    for policy in ("heuristic", "dd"):
        run_study(
            StudySpec(deals=300, seed=2, chunk_size=300, discard=policy),
            tmp_path / policy,
            progress=False,
        )
    effect = discard_policy_effect({p: tmp_path / p for p in ("heuristic", "dd")})
    assert list(effect.policy) == ["heuristic", "heuristic", "dd", "dd"]
    assert effect.n.iloc[0] == effect.n.iloc[2] > 100
