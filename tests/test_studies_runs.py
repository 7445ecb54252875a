"""The run driver: rows independent of the chunking, resumable after a crash, identical across
backends (prefstats.studies.runs)."""

import json

import pandas as pd
import pytest

from prefstats.game.deal import uniform_integers
from prefstats.studies.runs import chunk_path, load_run, read_spec, run_chunks
from prefstats.studies.storage import read_provenance

SPEC = {"kind": "test", "n": 25, "chunk_size": 7, "seed": 11}


def draws(spec, chunk):
    x = uniform_integers(chunk.rows, 1 << 30, spec["seed"], start=chunk.start)
    return pd.DataFrame({"chunk": chunk.index, "x": x})


class Crash(RuntimeError):
    pass


def crashing_at_chunk_2(spec, chunk):
    if chunk.index == 2:
        raise Crash
    return draws(spec, chunk)


def test_rows_and_provenance(tmp_path):
    paths = run_chunks(draws, SPEC, tmp_path / "run", progress=False)
    assert len(paths) == 4
    table = load_run(tmp_path / "run")
    assert len(table) == 25 and list(table["chunk"].unique()) == [0, 1, 2, 3]
    provenance = read_provenance(paths[1])
    assert provenance.items() >= {**SPEC, "chunk": 1, "start": 7, "rows": 7}.items()
    assert read_spec(tmp_path / "run") == SPEC
    assert not list((tmp_path / "run").glob(".tmp-*"))


def test_rows_do_not_depend_on_the_chunk_size(tmp_path):
    tables = [
        load_run(
            run_chunks(draws, {**SPEC, "chunk_size": size}, tmp_path / f"c{size}", progress=False)[
                0
            ].parent
        )["x"]
        for size in (1, 7, 25)
    ]
    assert (tables[0] == tables[1]).all() and (tables[1] == tables[2]).all()
    other = run_chunks(draws, {**SPEC, "seed": 12}, tmp_path / "other", progress=False)
    assert not (load_run(other[0].parent)["x"] == tables[0]).all()


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


def draws_renamed(spec, chunk):
    return draws(spec, chunk).rename(columns={"x": "y"})


def test_a_chunk_with_other_columns_is_refused(tmp_path):
    """A run resumed by a version of the code whose chunks have other columns does not load."""
    folder = tmp_path / "run"
    with pytest.raises(Crash):
        run_chunks(crashing_at_chunk_2, SPEC, folder, progress=False)
    run_chunks(draws_renamed, SPEC, folder, progress=False)
    with pytest.raises(ValueError, match=r"chunk-00002\.parquet has other columns"):
        load_run(folder)


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
        ({"n": 5, "chunk_size": 0, "seed": 1}, "positive integer 'chunk_size'"),
        ({"n": 5, "chunk_rows": [2, 2], "seed": 1}, "add up to 4, not n = 5"),
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
