"""Solo and shared EV of a run's misères (prefstats.studies.misere_ev)."""

import pandas as pd

from prefstats.studies import misere_ev
from prefstats.studies.misere_ev import hand_misere_ev, run_misere_ev, shipped_ev
from prefstats.studies.runs import chunk_path
from prefstats.studies.study import StudySpec, load_study, run_study


def test_misere_ev_run_is_the_same_in_chunks_workers_and_after_resume(tmp_path, monkeypatch):
    study = run_study(
        StudySpec(deals=2000, seed=5, chunk_size=1000), tmp_path / "s", progress=False
    )
    monkeypatch.setattr(misere_ev, "MISERE_EV_CHUNK", 25)
    serial = run_misere_ev(study, tmp_path / "one", n=12, progress=False)
    parallel = run_misere_ev(study, tmp_path / "two", n=12, jobs=2, progress=False)
    whole = shipped_ev(hand_misere_ev(load_study(study), n=12, seed=1))
    assert len(serial) > 50 and len(list((tmp_path / "one").glob("chunk-*.parquet"))) >= 3
    pd.testing.assert_frame_equal(serial, parallel)
    pd.testing.assert_frame_equal(serial, whole.reset_index(drop=True))
    chunk_path(tmp_path / "one", 1).unlink()
    pd.testing.assert_frame_equal(
        run_misere_ev(study, tmp_path / "one", n=12, progress=False), serial
    )
    assert (serial["dealer_accepts"] == (serial["solo_ev"] > 0)).all()
    assert serial["p_caught"].between(0, 1).all() and (serial["n"] == 12).all()
