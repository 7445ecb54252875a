"""Chunked runs: reproducible per chunk, resumable after a crash, identical across backends."""

import json

import numpy as np
import pandas as pd
import pytest

from prefstats.runs import (
    chunk_path,
    chunk_seed,
    load_run,
    read_provenance,
    read_spec,
    run_chunks,
)

SPEC = {"kind": "test", "n": 25, "chunk_size": 7, "seed": 11}


def draws(spec, rows, seed):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"chunk": seed.spawn_key[0], "x": rng.integers(0, 1 << 30, rows)})


class Crash(RuntimeError):
    pass


def crashing_at_chunk_2(spec, rows, seed):
    if seed.spawn_key == (2,):
        raise Crash
    return draws(spec, rows, seed)


def test_rows_and_provenance(tmp_path):
    paths = run_chunks(draws, SPEC, tmp_path / "run", progress=False)
    assert len(paths) == 4
    table = load_run(tmp_path / "run")
    assert len(table) == 25 and list(table["chunk"].unique()) == [0, 1, 2, 3]
    assert read_provenance(paths[1]) == {**SPEC, "chunk": 1}
    assert read_spec(tmp_path / "run") == SPEC
    assert not list((tmp_path / "run").glob(".tmp-*"))


def test_chunk_seed_does_not_depend_on_run_size():
    a = np.random.default_rng(chunk_seed(11, 3)).integers(0, 1 << 30, 5)
    b = np.random.default_rng(chunk_seed(11, 3)).integers(0, 1 << 30, 5)
    c = np.random.default_rng(chunk_seed(11, 4)).integers(0, 1 << 30, 5)
    assert (a == b).all() and not (a == c).all()


def test_resume_after_a_crash_gives_the_same_table(tmp_path):
    folder = tmp_path / "run"
    with pytest.raises(Crash):
        run_chunks(crashing_at_chunk_2, SPEC, folder, progress=False)
    assert chunk_path(folder, 1).exists() and not chunk_path(folder, 2).exists()
    with pytest.raises(ValueError, match="incomplete: 2 chunk"):
        load_run(folder)
    assert len(load_run(folder, complete=False)) == 14
    before = chunk_path(folder, 0).stat().st_mtime_ns
    run_chunks(draws, SPEC, folder, progress=False)  # resumes: chunk 0 is not recomputed
    assert chunk_path(folder, 0).stat().st_mtime_ns == before
    fresh = tmp_path / "fresh"
    run_chunks(draws, SPEC, fresh, progress=False)
    pd.testing.assert_frame_equal(load_run(folder), load_run(fresh))


def test_two_workers_equal_one(tmp_path):
    run_chunks(draws, SPEC, tmp_path / "one", progress=False)
    run_chunks(draws, SPEC, tmp_path / "two", jobs=2, progress=False)
    pd.testing.assert_frame_equal(load_run(tmp_path / "one"), load_run(tmp_path / "two"))


def test_a_different_spec_is_refused(tmp_path):
    run_chunks(draws, SPEC, tmp_path / "run", progress=False)
    with pytest.raises(ValueError, match="differs in seed"):
        run_chunks(draws, {**SPEC, "seed": 12}, tmp_path / "run", progress=False)
    assert json.loads((tmp_path / "run" / "run.json").read_text()) == SPEC


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"n": 5, "chunk_size": 0, "seed": 1}, "chunk_size > 0"),
        ({"n": 5, "chunk_size": 2}, "integer 'seed'"),
        ({"n": "5", "chunk_size": 2, "seed": 1}, "integer 'n'"),
    ],
)
def test_bad_specs(tmp_path, spec, message):
    with pytest.raises(ValueError, match=message):
        run_chunks(draws, spec, tmp_path / "run", progress=False)


def test_bad_backend_and_missing_run(tmp_path):
    with pytest.raises(ValueError, match="backend must be"):
        run_chunks(draws, SPEC, tmp_path / "run", backend="spark", progress=False)
    with pytest.raises(ValueError, match="not a prefstats run"):
        load_run(tmp_path / "nothing")
