"""The command line: ``prefstats deal`` output and errors."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prefstats.benchmarks.runner import load_average, machine_line
from prefstats.benchmarks.speed import XORSHIFT_SEED, reference_loop
from prefstats.cli import main
from prefstats.cli.game import parse_hands
from prefstats.cli.misere import classify_text
from prefstats.game.cards import format_hand, parse_hand
from prefstats.game.deal import Deal, deal_many
from prefstats.players.misere_risk import misere_risk
from prefstats.solver import solve
from prefstats.studies.results import summarize
from prefstats.studies.study import StudySpec, run_study
from prefstats.version import __version__


def test_deal_prints_parseable_deals(capsys):
    assert main(["deal", "--n", "5", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5
    expected = deal_many(5, seed=1)
    assert [Deal.parse(line).parts for line in lines] == [tuple(map(int, r)) for r in expected]


def test_deal_russian(capsys):
    main(["deal", "--n", "2", "--seed", "1", "--ru"])
    out = capsys.readouterr().out
    assert any(letter in out for letter in "ВДКТ") and "J" not in out
    assert [Deal.parse(line) for line in out.splitlines()] == [
        Deal.from_row(r) for r in deal_many(2, seed=1)
    ]


def test_bad_arguments_exit_with_usage(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["deal", "--n", "0"])
    assert exc.value.code == 2
    assert "must be a positive integer" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "nothing"])


DEAL = "♠7 10 J ♣10 ♦7 9 10 K A ♥9 | ♠9 ♣7 8 9 Q K A ♥7 K A | ♠8 Q K A ♣J ♦8 Q ♥8 10 J"


def test_solve_prints_the_golden_value(capsys):
    # tests/golden/solver_deals.json: this deal, ♦ trumps, declarer 0, leader 0 → 5 tricks.
    assert main(["solve", DEAL, "--contract", "6♦"]) == 0
    assert capsys.readouterr().out.strip() == "6♦, first hand leads: the declarer takes 5 tricks"
    assert main(["solve", DEAL, "--contract", "6♦", "--declarer", "1", "--leader", "2"]) == 0
    hands = parse_hands(DEAL)
    tricks = solve(hands, trump=2, declarer=1, leader=2)
    assert capsys.readouterr().out.strip() == (
        f"6♦, third hand leads: the declarer (second hand) takes {tricks} "
        f"trick{'' if tricks == 1 else 's'}"
    )
    assert main(["solve", DEAL, "--contract", "6♦", "--ru"]) == 0
    assert capsys.readouterr().out.strip() == "6♦, ходит первая рука: разыгрывающий берёт 5 взяток"


def test_deal_without_a_seed_prints_a_short_seed_that_repeats_it(capsys):
    assert main(["deal", "--n", "2"]) == 0
    *deals, last = capsys.readouterr().out.splitlines()
    seed = int(last.split()[1])
    assert last == f"seed {seed} (--seed {seed} deals these again)" and 0 <= seed < 1_000_000
    assert [Deal.parse(line) for line in deals] == [Deal.from_row(r) for r in deal_many(2, seed)]


def test_solve_table_has_every_strain_declarer_and_leader(capsys):
    main(["solve", DEAL, "--table"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "declarer" and lines[1].split()[0] == "leader"
    assert [line.split()[0] for line in lines[3:-1]] == ["♠", "♣", "♦", "♥", "NT", "misère"]
    assert lines[-1] == "(the declarer's tricks, double-dummy)"
    misere = [int(x) for x in lines[-2].split()[1:]]
    hands = [parse_hand(h) for h in DEAL.split("|")]
    assert misere[5] == solve(hands, misere=True, declarer=1, leader=2)


def test_solve_errors(capsys):
    assert main(["solve", "♠7 | ♠8", "--contract", "6♠"]) == 2
    assert "give 3 hands" in capsys.readouterr().err
    assert main(["solve", DEAL, "--contract", "6X"]) == 2
    assert "bad contract '6X'" in capsys.readouterr().err
    assert main(["solve", DEAL.replace("♥9", "♥9 A"), "--contract", "6♠"]) == 2
    assert "card ♥A is in seats 0 and 1" in capsys.readouterr().err


def test_sensitivity_writes_one_row_per_limit(tmp_path, capsys):
    out = tmp_path / "sens"
    args = [
        "sensitivity",
        "--deals",
        "2000",
        "--chunk-size",
        "1000",
        "--limits",
        "none",
        "0.3",
        "--runs",
        str(tmp_path / "runs"),
        "--out",
        str(out),
    ]
    assert main(args) == 0
    table = pd.read_parquet(out.with_suffix(".parquet"))
    assert list(table["label"]) == ["none", "0.3"] and (table["n"] == 2000).all()
    assert table["misere"].iloc[0] < table["misere"].iloc[1]
    assert (table["misere_low"] <= table["misere_rate"]).all()
    # The row of a limit is the played count of a plain study with that limit on the same deals.
    assert (
        main(
            [
                "study",
                "--deals",
                "2000",
                "--chunk-size",
                "1000",
                "--misere-risk-limit",
                "0.3",
                "--out",
                str(tmp_path / "plain"),
            ]
        )
        == 0
    )
    played = summarize(tmp_path / "plain").query("measure == 'played'").set_index("event")
    row = table.set_index("label").loc["0.3"]
    assert (row["nine"], row["misere"]) == tuple(played.loc[["nine", "misère"], "count"])
    csv = pd.read_csv(out.with_suffix(".csv"), comment="#")
    pd.testing.assert_frame_equal(csv, table, check_dtype=False)
    assert "wrote" in capsys.readouterr().out


def test_bad_risk_limit_exits_with_usage(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["study", "--deals", "10", "--out", "x", "--misere-risk-limit", "2"])
    assert exc.value.code == 2
    assert "must be in [0, 1]" in capsys.readouterr().err


HAND = "♠7 8 A ♣7 9 ♦7 8 ♥8 9 10"


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    """A file, a broken run and a small real run to point commands at."""
    base = tmp_path_factory.mktemp("places")
    (base / "a-file").write_text("not a folder")
    (base / "broken").mkdir()
    (base / "broken" / "run.json").write_text('{"kind": "study", "n": ')
    run_study(StudySpec(deals=400, seed=1, chunk_size=200), base / "run", progress=False)
    return base


BAD = [
    ["deal", "--n", "0"],
    ["deal", "--n", "x"],
    ["deal", "--seed", "-1"],
    ["solve", "garbage"],
    ["solve", DEAL + " | garbage"],
    ["solve", DEAL + " | ♠7 8"],
    ["solve", DEAL, "--declarer", "5"],
    ["solve", DEAL, "--contract", "6X"],
    ["ev", "♠7 8"],
    ["ev", HAND, "--risk-aversion", "-1"],
    ["ev", HAND, "--risk-aversion", "nan"],
    ["ev", HAND, "--seat", "3"],
    ["ev", HAND, "--discard", "worst"],
    ["ev", HAND, "--n", "0"],
    ["misere", HAND, "--n", "1"],
    ["misere", HAND, "--discard", "♠K Q"],
    ["misere", HAND, "--exhaustive"],
    ["classify", "7 X"],
    ["classify", "♠7 ♠7"],
    ["study", "--deals", "0", "--out", "{base}/new"],
    ["study", "--out", "{base}/a-file"],
    ["study", "--deals", "10", "--out", "/proc/prefstats-run"],  # unwritable even for root
    ["study", "--deals", "10", "--scheduler", "tcp://127.0.0.1:9", "--out", "{base}/x"],
    ["study", "--deals", "10", "--evaluator", "psychic", "--out", "{base}/x"],
    ["study", "--deals", "10", "--misere-risk-limit", "nan", "--out", "{base}/x"],
    ["study", "--deals", "500", "--seed", "2", "--out", "{base}/run"],
    ["report", "{base}/nothing"],
    ["report", "{base}/broken"],
    ["report", "{base}/run", "--out", "{base}"],
    ["report", "{base}/run", "--ev", "{base}/a-file"],
    ["export", "{base}/a-file"],
    ["misere-ev", "{base}/broken"],
    ["sensitivity", "--limits", "2"],
    ["bench", "nothing"],
    ["catch-tables", "--only", "triples"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a)[:60] for a in BAD])
def test_a_users_mistake_is_one_line_and_exit_code_2(argv, places, capsys):
    argv = [arg.format(base=places) for arg in argv]
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code  # type: ignore[assignment]
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("prefstats")


def test_no_half_made_run_after_a_failed_start(places, capsys):
    assert (
        main(
            [
                "study",
                "--deals",
                "10",
                "--backend",
                "dask",
                "--scheduler",
                "tcp://127.0.0.1:9",
                "--out",
                str(places / "never"),
            ]
        )
        == 2
    )
    assert "cannot reach the dask scheduler" in capsys.readouterr().err
    assert not (places / "never").exists()


def test_too_many_jobs_are_capped_with_a_warning(places, capsys):
    assert (
        main(
            [
                "study",
                "--deals",
                "400",
                "--seed",
                "1",
                "--chunk-size",
                "200",
                "--jobs",
                "999",
                "--out",
                str(places / "run"),
            ]
        )
        == 0
    )
    assert "--jobs 999 is more than the" in capsys.readouterr().err


SUIT_LETTERS = {"symbols": "♠♣♦♥", "letters": "SCDH", "russian": "птбч"}
RANK_LETTERS = {
    "symbols": ["7", "8", "9", "10", "J", "Q", "K", "A"],
    "letters": ["7", "8", "9", "T", "J", "Q", "K", "A"],
    "russian": ["7", "8", "9", "10", "В", "Д", "К", "Т"],
}


def written(mask: int, notation: str, separator: str) -> str:
    """A hand written by a player in one notation."""
    parts = []
    for suit in range(4):
        ranks = [RANK_LETTERS[notation][r] for r in range(8) if mask >> (8 * suit + r) & 1]
        if ranks:
            parts.append(SUIT_LETTERS[notation][suit] + separator.join(ranks))
    return " ".join(parts)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True),
    st.sampled_from(sorted(SUIT_LETTERS)),
    st.sampled_from([" ", "", ","]),
)
def test_every_command_reads_a_hand_the_same_way(cards, notation, separator):
    mask = sum(1 << c for c in cards)
    text = written(mask, notation, separator)
    assert parse_hand(text) == mask
    assert (
        classify_text(text)
        == classify_text(format_hand(mask))
        == classify_text(format_hand(mask, style="ru"))
    )
    assert misere_risk(text, n=2, seed=1, discard="heuristic").hand == mask  # what `ev` reads
    rest = [c for c in range(32) if not mask >> c & 1]
    others = [sum(1 << c for c in rest[:10]), sum(1 << c for c in rest[10:20])]
    hands = parse_hands(" | ".join([text, *(format_hand(h, style="ru") for h in others)]))
    assert hands == [mask, *others]  # what `solve` reads


def test_bench_prints_the_machine_load_before_and_after_and_records(capsys, monkeypatch, tmp_path):
    loads = iter([(0.5, 0.25, 1.0), (1.75, 0.5, 1.0)])
    monkeypatch.setattr("os.getloadavg", lambda: next(loads))
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    readings = tmp_path / "readings.jsonl"
    readings.write_text('{"benchmark": "an earlier reading"}\n', encoding="utf-8")
    assert main(["bench", "deal", "--record", str(readings)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("machine before: ") and lines[-2].startswith("machine after: ")
    assert lines[0].endswith(", 2 cores, load average 0.50 / 0.25 / 1.00 (1 / 5 / 15 min)")
    assert lines[-2].endswith(", 2 cores, load average 1.75 / 0.50 / 1.00 (1 / 5 / 15 min)")
    for line, when in ((lines[1], "before"), (lines[-1], "after")):
        nanos = re.fullmatch(rf"speed {when}: (\d+\.\d\d) ns a step of a fixed loop .*", line)
        assert nanos and float(nanos.group(1)) > 0, line
    assert lines[2] == "deal_many(1,000,000) on one core, 5 runs"
    earlier, line = readings.read_text(encoding="utf-8").splitlines()  # appended
    assert json.loads(earlier) == {"benchmark": "an earlier reading"}
    reading = json.loads(line)
    machine = {"cpu", "cores", "load_before", "load_after", "speed_ns_before", "speed_ns_after"}
    assert set(reading) == {"utc", "benchmark", "commit", "version", "figures"} | machine
    assert reading["benchmark"] == "deal" and reading["version"] == __version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", reading["utc"])
    assert reading["commit"] is None or re.fullmatch(r"[0-9a-f]{40}(-dirty)?", reading["commit"])
    assert reading["cores"] == 2 and reading["cpu"]
    assert reading["load_before"] == [0.5, 0.25, 1.0] and reading["load_after"] == [1.75, 0.5, 1.0]
    assert reading["speed_ns_before"] > 0 and reading["speed_ns_after"] > 0
    assert set(reading["figures"]) == {"best deals a second", "median deals a second", "best ms"}
    assert all(isinstance(value, float) and value > 0 for value in reading["figures"].values())


def test_bench_record_into_a_missing_folder_is_a_one_line_error(capsys, tmp_path):
    assert main(["bench", "deal", "--record", str(tmp_path / "nowhere" / "r.jsonl")]) == 2
    assert "no folder" in capsys.readouterr().err


def naive_reference_loop(table: list[int], steps: int) -> int:
    """``benchmarks.speed.reference_loop`` in plain Python, its int64 arithmetic wrapped by hand."""

    def wrapped(value: int) -> int:
        value &= (1 << 64) - 1
        return value - (1 << 64) if value >> 63 else value

    state, total, mask = XORSHIFT_SEED, 0, len(table) - 1
    for _ in range(steps):
        state = wrapped(state ^ (state << 13))
        state = wrapped(state ^ (state >> 7))
        state = wrapped(state ^ (state << 17))
        at = (state ^ total) & mask
        total += table[at]
        table[at] = total & 0xFFFF
    return total


def test_the_speed_loop_matches_its_naive_twin():
    """The same sum and the same table after 3,000 steps over 1,024 words, from a table of
    distinct values so that every read counts."""
    start = np.arange(1024, dtype=np.int64) * 7919 % 65_536
    table = start.copy()
    naive = [int(value) for value in start]
    assert reference_loop(table, 3000) == naive_reference_loop(naive, 3000)
    assert table.tolist() == naive
    assert table.tolist() != start.tolist()


def test_the_machine_line_says_when_the_system_reports_no_load(monkeypatch):
    monkeypatch.delattr("os.getloadavg")
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    line = machine_line("before", load_average())
    assert line.startswith("machine before: ")
    assert line.endswith(" UTC, 4 cores, load average not reported by this system")


def test_study_help_shows_defaults_and_examples(capsys):
    with pytest.raises(SystemExit):
        main(["study", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: 100000)" in out and "(default: heuristic)" in out
    assert "examples: prefstats study --deals 100000 --out runs/small" in out


def test_misere_without_a_seed_prints_a_short_one(capsys):
    assert main(["misere", "♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9", "--n", "20", "--discard", "heuristic"]) == 0
    out = capsys.readouterr().out
    seed = int(out.split("seed ")[1].split()[0].rstrip(";,)"))
    assert 0 <= seed < 1_000_000


def test_ru_translates_the_labels_too(capsys):
    assert (
        main(
            [
                "misere",
                "♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9",
                "--n",
                "10",
                "--discard",
                "heuristic",
                "--seed",
                "1",
                "--ru",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "прикуп" in out and "P(поймали)" in out and "зерно 1" in out and "talon" not in out
    assert main(["solve", DEAL, "--table", "--ru"]) == 0
    out = capsys.readouterr().out
    assert "разыгрывающий" in out and "мизер" in out and "first hand" not in out
