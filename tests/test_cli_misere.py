"""``prefstats classify``, ``misere`` and ``ev`` (prefstats.cli.misere)."""

from __future__ import annotations

import argparse

import pytest

from prefstats.cli.misere import add_parsers, classify_text

HAND = "♠7 8 A ♣7 9 ♦7 8 ♥8 9 10"  # catchable: ♠7 8 A, ♥8 9 10
QUICK = "♠7 10 ♣7 8 9 ♦7 8 ♥7 8 9"  # one catchable suit, fast to enumerate


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="prefstats")
    add_parsers(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def test_classify_holding_and_hand(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["classify", "7 9 J"])
    args.func(args)
    out = capsys.readouterr().out
    assert "7 9 J: conditionally clean" in out and "when he must lead it in 28" in out
    args = parse(["classify", "♠7 8 ♣7 9 ♦8 ♥9 10 J Q"])
    args.func(args)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("♠ 7 8") and lines[0].endswith("clean")
    assert "catchable" in lines[2] and lines[-2] == "misère: catchable"
    assert lines[-1].startswith("(P(caught) by lead: the players' rates")
    assert classify_text("S 7 8 D 7").endswith("misère: clean (cannot be caught)")
    assert classify_text("7 10").startswith("holding 7 10: catchable")
    with pytest.raises(ValueError, match=r"neither a holding .* nor a hand"):
        classify_text("7 X")


def test_misere_command(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(
        ["misere", HAND, "--seat", "1", "--n", "40", "--seed", "3", "--discard", "heuristic"]
    )
    args.func(args)
    out = capsys.readouterr().out
    assert "seat 1" in out and "40 random layouts, seed 3" in out and "P(caught)" in out
    args = parse(
        [
            "misere",
            QUICK,
            "--talon",
            "♠A K",
            "--discard",
            "♠A K",
            "--exhaustive",
            "--information",
            "open",
        ]
    )
    args.func(args)
    assert "184,756 all layouts" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        parse(["misere", HAND, "--n", "0"])
    args = parse(["misere", HAND, "--discard", "worst"])
    with pytest.raises(ValueError, match="discard must be one of"):
        args.func(args)
    args = parse(["misere", HAND, "--information", "blind", "--n", "10"])
    with pytest.raises(ValueError, match="needs the talon"):
        args.func(args)


def _bracket(out: str) -> dict[str, float]:
    """P(caught) of each line of the bracket printed as played."""
    lines = out.split("as played, on the same layouts")[1].splitlines()[1:]
    return {
        line.split("P(caught)")[0].strip(): float(line.split("P(caught) ")[1].split()[0])
        for line in lines
    }


def test_misere_command_as_played(capsys: pytest.CaptureFixture[str]) -> None:
    """The default prints the low end in full, then the bracket, the estimate and the floor, on
    the same layouts: floor <= low <= high, estimate <= high; without the talon the first hand
    gets no blind lead, and no estimate."""
    args = parse(
        ["misere", HAND, "--talon", "♠K ♦J", "--discard", "♠K A", "--n", "60", "--seed", "5"]
    )
    args.func(args)
    out = capsys.readouterr().out
    assert "information: as played, low end" in out
    rates = _bracket(out)
    assert rates["floor (every pair)"] <= rates["low (hidden)"] <= rates["high (seen)"]
    # the estimate's blind lead is caught on no more layouts than the high end's (each card's
    # estimate is at most its open value), so it sits at or below the high end
    assert rates["estimate (inside)"] <= rates["high (seen)"]
    args = parse(["misere", HAND, "--n", "30", "--seed", "5"])
    args.func(args)
    out = capsys.readouterr().out
    assert "(no blind lead: it needs --talon" in out and "estimate (inside)" not in out
