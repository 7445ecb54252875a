"""The package as a user installs it: the wheel, installed elsewhere (not editable), runs a study,
the misère EV and the report from another folder, with the shipped tables inside it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from prefstats.report.html import SECTIONS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The wheel built from this checkout, installed (without its dependencies, which this
    environment has) into a folder of its own; the environment that imports it from there."""
    base = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(base / "dist"),
            str(ROOT),
        ],
        check=True,
    )
    wheel = next((base / "dist").glob("prefstats-*.whl"))
    target = base / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    return target, env


def run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "prefstats", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_wheel_holds_the_package_and_its_tables(installed):
    target, env = installed
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import prefstats, prefstats.data as d; print(prefstats.__file__);"
            "print(d.shipped('catch_rates.parquet')); print(prefstats.__version__)",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=target.parent,
    ).stdout.split()
    assert all(line.startswith(str(target)) for line in where[:2]), where
    assert (target / "prefstats" / "py.typed").exists()
    assert where[2] == run(["--version"], target.parent, env).split()[1]


def test_a_study_ev_and_report_from_another_folder(installed, tmp_path):
    _, env = installed
    run(
        ["study", "--deals", "600", "--seed", "3", "--chunk-size", "300", "--out", "run"],
        tmp_path,
        env,
    )
    assert "misères" in run(["misere-ev", "run", "--n", "8"], tmp_path, env)
    out = run(
        ["ev", "♠7 8 9 ♣7 9 ♦7 8 ♥8 9 10", "--n", "40", "--discard", "heuristic"], tmp_path, env
    )
    assert "Dealer:" in out and "P(caught)" in out
    run(["report", "run", "--ev", "run/misere_ev.parquet", "--out", "r.html"], tmp_path, env)
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert set(re.findall(r"<h2 id='(\w+)'", text)) == set(SECTIONS)
    assert "shipped catch-rate table" in run(["classify", "7 10"], tmp_path, env)


def test_analyze_from_another_folder(installed, tmp_path):
    _, env = installed
    out = run(
        [
            "analyze",
            "♠A K 10 9 8 ♣A ♦K Q ♥7 8",
            "--seat",
            "1",
            "--talon",
            "♦A ♥9",
            "--discard",
            "♥7 8",
            "--n",
            "30",
            "--seed",
            "1",
        ],
        tmp_path,
        env,
    )
    assert "recommended bid:" in out and "model:" in out and "misère" in out
    code = (
        "import prefstats; a = prefstats.analyze('♠A K 10 9 8 ♣A ♦K Q ♥7 8', seat=1, "
        "talon='♦A ♥9', discard='♥7 8', n=30, seed=1); print(a.row('6♠').p_make)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert 0.0 <= float(done.stdout) <= 1.0
