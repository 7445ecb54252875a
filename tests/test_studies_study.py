"""The study pipeline: row invariants, resume, backends, policies in the spec
(prefstats.studies.study)."""

from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from prefstats.game.bidding import ALL_PASS
from prefstats.game.deal import deal_many
from prefstats.game.rules import LADDER, MISERE_RANK, NINE_LEVEL, Contract, RuleSet
from prefstats.game.scoring import PlayedDeal, score_deal
from prefstats.solver import solve
from prefstats.studies.results import summarize
from prefstats.studies.runs import Chunk, chunk_path
from prefstats.studies.study import StudySpec, load_study, run_study, study_chunk

SPEC = StudySpec(deals=3000, seed=5, chunk_size=1000)


@pytest.fixture(scope="module")
def table():
    return study_chunk(SPEC.as_run_spec(), Chunk(0, 0, 3000))


def test_rows_are_consistent(table):
    declared = table[table.declarer != ALL_PASS]
    assert len(declared) > 500 and (table.declarer == ALL_PASS).sum() > 500
    hands = declared[["first", "second", "third"]].to_numpy()
    seat = declared.declarer.to_numpy()
    own = hands[np.arange(len(hands)), seat] | declared.talon.to_numpy()
    discard = declared.discard.to_numpy()
    assert ((own & discard) == discard).all() and (np.bitwise_count(discard) == 2).all()
    assert (declared.contract >= declared.bid).all()
    assert ((declared.bid == MISERE_RANK) == (declared.contract == MISERE_RANK)).all()
    passed = table[table.declarer == ALL_PASS]
    assert (passed.contract == -1).all() and (passed.tricks == -1).all() and not passed.made.any()


def test_tricks_are_the_solvers_and_made_and_score_follow(table):
    declared = table[table.declarer != ALL_PASS].head(40)
    for row in declared.itertuples():
        hands = [row.first, row.second, row.third]
        hands[row.declarer] = (hands[row.declarer] | row.talon) & ~row.discard
        contract = LADDER[row.contract]
        expected = solve(
            hands, trump=contract.trump, misere=contract.is_misere, declarer=row.declarer
        )
        assert row.tricks == expected
        made = row.tricks == 0 if contract.is_misere else row.tricks >= contract.level
        assert row.made == made
        rest = 10 - row.tricks
        tricks = [0, 0, 0]
        tricks[row.declarer] = row.tricks
        defenders = [(row.declarer + 1) % 3, (row.declarer + 2) % 3]
        tricks[defenders[0]], tricks[defenders[1]] = rest - rest // 2, rest // 2
        deal = PlayedDeal(tuple(tricks), contract, row.declarer)
        assert row.score == pytest.approx(score_deal(deal, RuleSet()).net()[row.declarer])


class Stop(Exception):
    pass


def test_resume_after_interruption_gives_the_same_summary(tmp_path, monkeypatch):
    import prefstats.studies.runs as runs

    real = runs.write_table  # type: ignore[attr-defined]
    calls: list[Path] = []

    def dying_write(table, path, provenance):
        if len(calls) == 1:
            raise Stop  # the process dies while writing its second chunk
        calls.append(path)
        real(table, path, provenance)

    monkeypatch.setattr(runs, "write_table", dying_write)
    with pytest.raises(Stop):
        run_study(SPEC, tmp_path / "run", progress=False)
    monkeypatch.setattr(runs, "write_table", real)
    assert chunk_path(tmp_path / "run", 0).exists()
    assert not chunk_path(tmp_path / "run", 1).exists()
    run_study(SPEC, tmp_path / "run", progress=False)
    run_study(SPEC, tmp_path / "fresh", progress=False)
    pd.testing.assert_frame_equal(summarize(tmp_path / "run"), summarize(tmp_path / "fresh"))
    pd.testing.assert_frame_equal(load_study(tmp_path / "run"), load_study(tmp_path / "fresh"))


def test_dask_equals_loky(tmp_path):
    spec = StudySpec(deals=1200, seed=9, chunk_size=400)
    run_study(spec, tmp_path / "loky", jobs=2, progress=False)
    run_study(spec, tmp_path / "dask", jobs=2, backend="dask", progress=False)
    pd.testing.assert_frame_equal(load_study(tmp_path / "loky"), load_study(tmp_path / "dask"))


def test_bad_spec():
    with pytest.raises(ValueError, match="unknown evaluator 'psychic'"):
        StudySpec(deals=10, seed=1, evaluator="psychic")
    with pytest.raises(ValueError, match="unknown rule set"):
        StudySpec(deals=10, seed=1, rules="moscow")
    with pytest.raises(ValueError, match="deals must be a positive integer"):
        StudySpec(deals=0, seed=1)


def test_potential_columns_and_summary(tmp_path):
    spec = StudySpec(deals=300, seed=3, chunk_size=300, potential=True)
    run_study(spec, tmp_path / "run", progress=False)
    table = load_study(tmp_path / "run")
    for s in range(3):
        assert {f"nine{s}", f"clean{s}", "game"} <= set(table.columns)
    # The potential (best discard, best strain) is never below what the heuristic discard
    # achieved in the played strain: Contract(tricks, strain) for a made game.
    made = table[(table.declarer >= 0) & table.made & (table.contract != MISERE_RANK)]
    assert len(made) > 20
    assert table.game[made.index].all()
    nines = 0
    for row in made[made.tricks >= NINE_LEVEL].itertuples():
        achieved = Contract(min(int(row.tricks), 10), LADDER[row.contract].strain)  # type: ignore[arg-type, index]
        assert getattr(row, f"nine{row.declarer}") >= achieved.rank
        nines += 1
    assert nines > 0
    misere = table[(table.contract == MISERE_RANK) & table.made]
    for row in misere.itertuples():
        assert getattr(row, f"clean{row.declarer}")
    summary = summarize(table)
    assert set(summary[summary.measure == "potential"].event) >= {"nine", "misère"}


def test_oracle_and_dd_discard():
    spec = StudySpec(deals=200, seed=4, evaluator="oracle", discard="dd").as_run_spec()
    table = study_chunk(spec, Chunk(0, 0, 200))
    # The oracle bids only what is makeable with the best discard; the played contract is named
    # by the heuristic and the dd discard is the best for it, so misères are never caught.
    misere = table[table.contract == MISERE_RANK]
    assert len(misere) > 10 and misere.made.all()
    assert (table.declarer != ALL_PASS).mean() > 0.8


def test_sampled_chunks_depend_on_their_seed_alone(tmp_path):
    # Chunks computed in reverse order, each from its own rows, equal the run: so the rows do
    # not depend on the workers (which only change the order and placement of chunks).
    spec = StudySpec(deals=80, seed=6, chunk_size=40, evaluator="sampled", discard="sampled")
    run_study(spec, tmp_path / "run", progress=False)
    chunks = [study_chunk(spec.as_run_spec(), Chunk(i, 40 * i, 40)) for i in (1, 0)]
    expected = pd.concat(chunks[::-1], ignore_index=True)
    pd.testing.assert_frame_equal(load_study(tmp_path / "run"), expected)
    assert (expected.declarer != ALL_PASS).sum() > 30


def test_sampling_settings_in_the_spec():
    plain = StudySpec(deals=10, seed=1).as_run_spec()
    assert not {"samples", "threshold", "discard_samples", "discard_candidates"} & set(plain)
    sampled = StudySpec(deals=10, seed=1, evaluator="sampled", discard="sampled").as_run_spec()
    assert sampled["samples"] == 16 and sampled["discard_candidates"] == 4
    with pytest.raises(ValueError, match="samples must be a positive int"):
        StudySpec(deals=10, seed=1, evaluator="sampled", samples=0)
    with pytest.raises(
        ValueError, match="samples of the sampled discard must be a positive integer"
    ):
        StudySpec(deals=10, seed=1, discard="sampled", discard_samples=0)


def test_misere_risk_limit_only_adds_misere_bids():
    """A higher limit turns some limits into misère and changes nothing else (same deals)."""
    limits = {}
    for limit in (None, 0.1, 0.3, 0.5):
        spec = StudySpec(deals=3000, seed=5, chunk_size=1000, misere_risk_limit=limit)
        chunk = study_chunk(spec.as_run_spec(), Chunk(0, 0, 3000))
        limits[limit] = chunk[["limit0", "limit1", "limit2"]].to_numpy()
    order = [None, 0.1, 0.3, 0.5]
    for low, high in pairwise(order):
        changed = limits[low] != limits[high]
        assert (limits[high][changed] == MISERE_RANK).all()
        assert ((limits[low] == MISERE_RANK) <= (limits[high] == MISERE_RANK)).all()
    counts = [int((limits[limit] == MISERE_RANK).sum()) for limit in order]
    assert counts[0] < counts[1] < counts[2] < counts[3], counts


def test_misere_risk_limit_is_recorded_and_checked():
    assert StudySpec(deals=10, seed=1).as_run_spec()["misere_risk_limit"] == 0.3
    assert "misere_risk_limit" not in StudySpec(deals=10, seed=1, evaluator="oracle").as_run_spec()
    with pytest.raises(ValueError, match="misere_risk_limit must be in"):
        StudySpec(deals=10, seed=1, misere_risk_limit=1.5)


def test_the_same_table_for_any_chunk_size(tmp_path):
    """Deal i of a seed is the same deal for chunks of 1,000, 7,000 or 20,000 deals, and so is
    every column computed from it: deal_many's deals, the limits, the play and the score."""
    tables = []
    for size in (1000, 7000, 20_000):
        spec = StudySpec(deals=20_000, seed=3, chunk_size=size)
        tables.append(load_study(run_study(spec, tmp_path / f"{size}", progress=False)))
    pd.testing.assert_frame_equal(tables[0], tables[1])
    pd.testing.assert_frame_equal(tables[0], tables[2])
    deals = tables[0][["first", "second", "third", "talon"]].to_numpy()
    assert (deals == deal_many(20_000, 3)).all()


def test_sampled_policies_do_not_depend_on_the_chunk_size(tmp_path):
    spec: dict[str, Any] = {"deals": 120, "seed": 4, "evaluator": "sampled", "discard": "sampled"}
    small = load_study(run_study(StudySpec(**spec, chunk_size=50), tmp_path / "a", progress=False))
    whole = load_study(run_study(StudySpec(**spec, chunk_size=120), tmp_path / "b", progress=False))
    pd.testing.assert_frame_equal(small, whole)
