"""Damaged runs (prefstats.studies.runs with the study): a chunk copied in from another run, flipped
bytes, truncated, deleted, an extra file, the wrong rows, a potential chunk in a plain run, a
broken seal or run.json. Never a silently different table: every reader refuses the run with one
line naming the file, and rerunning the same study repairs it to the undamaged result."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prefstats.cli import main
from prefstats.studies.results import summarize
from prefstats.studies.runs import QUARANTINE, chunk_path, seal_path
from prefstats.studies.storage import RunError, file_digest, write_table
from prefstats.studies.study import StudySpec, load_study, run_study

SPEC = StudySpec(deals=3000, seed=5, chunk_size=1000)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    folder = tmp_path_factory.mktemp("reference") / "run"
    run_study(SPEC, folder, progress=False)
    return folder, load_study(folder)


@pytest.fixture(scope="module")
def others(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Runs that differ from the reference: another seed, another chunk size, potentials."""
    base = tmp_path_factory.mktemp("others")
    specs = {
        "seed": StudySpec(deals=3000, seed=6, chunk_size=1000),
        "chunk size": StudySpec(deals=3000, seed=5, chunk_size=1500),
        "potential": StudySpec(deals=3000, seed=5, chunk_size=1000, potential=True),
    }
    return {name: run_study(spec, base / name.replace(" ", "-"), progress=False)
            for name, spec in specs.items()}  # fmt: skip


def copy_in(source: Path, target: Path, index: int = 1) -> None:
    for path in (chunk_path(source, index), seal_path(source, index)):
        shutil.copy(path, target / path.name)


def flip_bytes(path: Path) -> None:
    data = bytearray(path.read_bytes())
    rng = np.random.default_rng(3)
    for at in rng.integers(100, len(data) - 200, size=8):  # the footer stays intact
        data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def fewer_rows_resealed(folder: Path) -> None:
    """A chunk rewritten with 10 rows missing, and a seal forged to match its bytes."""
    path = chunk_path(folder, 1)
    write_table(pd.read_parquet(path).iloc[10:], path, {"forged": True})
    seal = json.loads(seal_path(folder, 1).read_text())
    seal_path(folder, 1).write_text(json.dumps({**seal, "sha256": file_digest(path)}))


def nonsense_rows_resealed(folder: Path) -> None:
    """A chunk whose first hand got a card of the second hand, with a forged seal."""
    path = chunk_path(folder, 2)
    table = pd.read_parquet(path)
    table.loc[5, "first"] = int(table.loc[5, "first"]) | (int(table.loc[5, "second"]) & -int(
        table.loc[5, "second"]))  # fmt: skip
    write_table(table, path, {"forged": True})
    seal = json.loads(seal_path(folder, 2).read_text())
    seal_path(folder, 2).write_text(json.dumps({**seal, "sha256": file_digest(path)}))


FAULTS: dict[str, Callable[[Path, dict[str, Path]], None]] = {
    "foreign chunk (another seed)": lambda f, o: copy_in(o["seed"], f),
    "foreign chunk (another chunk size)": lambda f, o: copy_in(o["chunk size"], f),
    "potential chunk in a plain run": lambda f, o: copy_in(o["potential"], f),
    "flipped bytes": lambda f, o: flip_bytes(chunk_path(f, 1)),
    "truncated": lambda f, o: chunk_path(f, 0).write_bytes(chunk_path(f, 0).read_bytes()[:5000]),
    "deleted": lambda f, o: chunk_path(f, 2).unlink(),
    "no seal": lambda f, o: seal_path(f, 1).unlink(),
    "broken seal": lambda f, o: seal_path(f, 0).write_text("{not json"),
    "wrong row count": lambda f, o: fewer_rows_resealed(f),
    "nonsense rows": lambda f, o: nonsense_rows_resealed(f),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_damaged_run_is_refused_then_repaired(fault, reference, others, tmp_path, capsys):
    folder = tmp_path / "run"
    shutil.copytree(reference[0], folder)
    FAULTS[fault](folder, others)
    with pytest.raises(RunError, match=r"chunk-0000\d\.parquet") as refused:
        load_study(folder)
    assert "\n" not in str(refused.value)
    with pytest.raises(RunError):
        summarize(folder)
    assert main(["export", str(folder), "--out", str(tmp_path)]) == 2
    assert main(["report", str(folder), "--out", str(tmp_path / "r.html")]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2 and all("chunk-0000" in line for line in errors)
    assert not (tmp_path / "summary.parquet").exists() and not (tmp_path / "r.html").exists()
    assert main(["study", "--deals", "3000", "--seed", "5", "--chunk-size", "1000",
                 "--out", str(folder)]) == 0  # fmt: skip
    said = capsys.readouterr().err
    if fault != "deleted":  # nothing to move aside: the chunk is simply computed
        assert f"moved to {QUARANTINE}/, recomputing it" in said
        assert len([line for line in said.splitlines() if "moved to" in line]) == 1
    pd.testing.assert_frame_equal(load_study(folder), reference[1])


def test_an_extra_file_changes_nothing(reference, others, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(reference[0], folder)
    shutil.copy(chunk_path(others["seed"], 1), chunk_path(folder, 99))
    (folder / "notes.txt").write_text("mine")
    pd.testing.assert_frame_equal(load_study(folder), reference[1])
    run_study(SPEC, folder, progress=False)
    assert (folder / "notes.txt").exists()


def test_broken_run_json_is_one_line(reference, tmp_path, capsys):
    folder = tmp_path / "run"
    shutil.copytree(reference[0], folder)
    (folder / "run.json").write_text('{"kind": "study", "n": ')
    assert main(["report", str(folder), "--out", str(tmp_path / "r.html")]) == 2
    error = capsys.readouterr().err.strip()
    assert "run.json" in error and len(error.splitlines()) == 1 and "Traceback" not in error


def test_nonsense_rows_are_named(reference, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(reference[0], folder)
    nonsense_rows_resealed(folder)
    with pytest.raises(RunError, match=r"chunk-00002\.parquet: rows make no sense: row 5"):
        load_study(folder)
