"""The command line: ``prefstats deal`` output and errors."""

import pytest

from prefstats.cli import main
from prefstats.deal import Deal, deal_many


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
