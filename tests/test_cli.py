"""The command line: ``prefstats deal`` output and errors."""

import pytest

from prefstats.cli import main
from prefstats.game.deal import Deal, deal_many


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
    assert capsys.readouterr().out.strip() == "5"


def test_solve_table_has_every_strain_declarer_and_leader(capsys):
    from prefstats.game.cards import parse_hand
    from prefstats.solver import solve

    main(["solve", DEAL, "--table"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["♠", "♣", "♦", "♥", "NT", "misère"]
    misere = [int(x) for x in lines[-1].split()[1:]]
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
    import pandas as pd

    out = tmp_path / "sens"
    args = ["sensitivity", "--deals", "2000", "--chunk-size", "1000", "--limits", "none", "0.3",
            "--runs", str(tmp_path / "runs"), "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    table = pd.read_parquet(out.with_suffix(".parquet"))
    assert list(table["label"]) == ["none", "0.3"] and (table["n"] == 2000).all()
    assert table["misere"].iloc[0] < table["misere"].iloc[1]
    assert (table["misere_low"] <= table["misere_rate"]).all()
    assert (table["nine"] + table["misere"] <= 2000).all()
    csv = pd.read_csv(out.with_suffix(".csv"), comment="#")
    pd.testing.assert_frame_equal(csv, table, check_dtype=False)
    assert "wrote" in capsys.readouterr().out


def test_bad_risk_limit_exits_with_usage(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["study", "--deals", "10", "--out", "x", "--misere-risk-limit", "2"])
    assert exc.value.code == 2
    assert "must be in [0, 1]" in capsys.readouterr().err
