"""The shipped tables are what their documented commands make (prefstats/data/README.md): each
file's provenance equals the spec its command asks for, and its CSV repeats the parquet file's
rows and provenance."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from prefstats.cli import build_parser
from prefstats.cli.studies import sensitivity_specs, study_spec
from prefstats.data import folder, shipped
from prefstats.studies import catch_information, catch_tables
from prefstats.studies.storage import read_csv, read_provenance

README = folder() / "README.md"


def commands() -> dict[str, list[list[str]]]:
    """Each shipped file's commands (argument lists without ``prefstats``), from the README."""
    found: dict[str, list[list[str]]] = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        stem = re.findall(r"`([a-z_]+)\.", cells[0])[0]
        found[stem] = [shlex.split(cmd)[1:] for cmd in re.findall(r"`(prefstats [^`]*)`", cells[2])]
    return found


COMMANDS = commands()


def parsed(argv: list[str]):
    return build_parser().parse_args(argv)


def test_every_shipped_file_has_its_commands():
    files = {p.stem for p in folder().iterdir() if p.suffix in (".parquet", ".csv")}
    assert files == set(COMMANDS), "every shipped table and only those is documented"
    assert all(COMMANDS[stem] for stem in COMMANDS)


@pytest.mark.parametrize("stem", ["summary", "potential_summary"])
def test_summaries_come_from_their_study(stem):
    study, export = (parsed(argv) for argv in COMMANDS[stem])
    assert export.run == study.out and Path(export.out) == Path("prefstats/data")
    assert export.name == stem
    provenance = read_provenance(shipped(f"{stem}.parquet"))
    assert provenance["run"] == study_spec(study).as_run_spec()


def test_sensitivity_comes_from_its_command():
    (argv,) = COMMANDS["misere_limit_sensitivity"]
    args = parsed(argv)
    provenance = read_provenance(shipped("misere_limit_sensitivity.parquet"))
    expected = {label: spec.as_run_spec() for label, spec in sensitivity_specs(args).items()}
    assert provenance["runs"] == expected


def test_misere_ev_comes_from_the_potential_run():
    (argv,) = COMMANDS["misere_ev"]
    args = parsed(argv)
    provenance = read_provenance(shipped("misere_ev.parquet"))
    study = parsed(COMMANDS["potential_summary"][0])
    assert args.run == study.out
    assert provenance == {
        "kind": "misere_ev",
        "run": study_spec(study).as_run_spec(),
        "n": args.n,
        "seed": args.seed,
        "discard": args.discard,
        "scoring": args.scoring,
    }


def test_catch_tables_come_from_their_command():
    rates = parsed(COMMANDS["catch_rates"][0])
    provenance = read_provenance(shipped("catch_rates.parquet"))
    assert provenance["seed"] == rates.seed
    assert provenance["layouts"] == {
        "clean-sides": rates.n,
        "clean-sides 3-4 card catchable": rates.n_slow,
        "lowest-sides": rates.lowest_n,
    }
    assert provenance["as_dealt_deals"]["deals"] == rates.dealt
    assert provenance["as_dealt_deals"]["seed"] == rates.dealt_seed
    pairs = parsed(COMMANDS["catch_pairs"][0])
    pairs_provenance = read_provenance(shipped("catch_pairs.parquet"))
    assert (pairs_provenance["seed"], pairs_provenance["n_per_item"]) == (pairs.seed, pairs.pairs_n)
    assert (rates.only, pairs.only) == ("rates", "pairs")
    assert rates.seed == catch_tables.SEED
    assert (provenance["paired"]["hands"], provenance["paired"]["layouts_per_hand"]) == (
        rates.hands,
        rates.per_hand,
    )
    holdings = provenance["paired"]["holdings"]
    assert holdings.startswith(f"every holding of up to {catch_information.MAX_LENGTH} cards")
    assert provenance["paired"]["information"] == list(catch_information.INFORMATION)


@pytest.mark.parametrize("stem", sorted(s for s in COMMANDS if s != "misere_ev"))
def test_csv_repeats_the_parquet_file(stem):
    parquet = shipped(f"{stem}.parquet")
    csv = parquet.with_suffix(".csv")
    header = [
        line[2:] for line in csv.read_text(encoding="utf-8").splitlines() if line.startswith("# ")
    ]
    provenance = {
        key: json.loads(value) for key, value in (line.split(": ", 1) for line in header[1:])
    }
    assert provenance == read_provenance(parquet)
    pd.testing.assert_frame_equal(
        read_csv(csv), pd.read_parquet(parquet), check_dtype=False, atol=1e-5
    )
