"""analyze: a hand's contracts against exhaustive enumeration, sure and clean hands, the upper
bound of the open-cards best discard, reproducibility and the printed forms
(prefstats.players.analysis, ``prefstats analyze``)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from prefstats.cli import main
from prefstats.game.cards import parse_hand
from prefstats.game.deal import TALON, all_layouts
from prefstats.game.rules import LADDER, Contract
from prefstats.players.analysis import DEFAULT_N, MISERE, analyze, unseen_talons
from prefstats.solver import makes_many
from prefstats.stats import wilson_interval

SEED = 20_261_207
SIX = "♠A K 10 9 8 ♣A ♦K Q ♥7 8"  # the hand: a clear six in spades
CLEAN = "♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9"  # clean in every suit


def test_table_has_every_contract_in_ladder_order() -> None:
    a = analyze(SIX, seat=1, talon="♦A ♥9", discard="♥7 8", n=40, seed=SEED)
    table = a.table
    assert table["contract"].tolist() == [c.format() for c in LADDER]
    assert "misère" in table["contract"].tolist() and table["contract"].iloc[0] == "6♠"
    for column in ("p_make", "p_make_low", "p_make_high", "e_tricks", "ev_whists"):
        assert table[column].notna().all()
    assert (table["p_make_low"] <= table["p_make"]).all()
    assert (table["p_make"] <= table["p_make_high"]).all()
    assert table["best"].sum() == (a.recommended != "pass")
    # P(make) falls with the level in every strain: the same layouts for every contract
    for strain, rows in table[table["strain"] != "misère"].groupby("strain"):
        assert rows.sort_values("level")["p_make"].is_monotonic_decreasing, strain


def test_eight_spades_and_heart_ace_king_make_ten_spades() -> None:
    """Every talon (one layout each), the realistic discard: ten tricks in spades, always."""
    a = analyze("♠7 8 9 10 J Q K A ♥K A", seat=2, n=231, seed=SEED)
    assert a.n == 231 and len(np.unique(a.deals[:, TALON])) == 231
    row = a.row("10♠")
    assert row.p_make == 1.0 and row.made == 231 and row.e_tricks == 10
    assert a.recommended == "10♠"


def test_clean_misere_is_never_caught() -> None:
    """Whatever the talon (every one of the 231, the realistic discard) and on lead."""
    for seat, talon, n in ((1, "♠A ♥A", 300), (0, None, 231)):
        a = analyze(CLEAN, seat=seat, talon=talon, n=n, seed=SEED + seat)
        row = a.row("misère")
        assert row.p_make == 1.0 and row.e_tricks == 0.0 and row.n == n, seat
        assert (a.tricks[:, MISERE] == 0).all()


@pytest.mark.parametrize(
    ("hand", "seat", "talon", "discard", "contract"),
    [  # exact shares 0.767, 0.149 and 0.798 (seat 0), the last a suit break and a finesse
        ("♠A Q J 10 9 ♣A K ♦A Q ♥7", 0, "♥8 ♣7", "♥7 8", "8♠"),
        ("♠A K Q ♣A K Q ♦A Q 7 ♥7", 0, "♦8 ♥8", "♥7 8", "8NT"),
        ("♠A K 10 9 8 ♣A ♦K Q ♥7 8", 1, "♦A ♥9", "♥7 8", "9♠"),
    ],
)
def test_sampled_p_make_agrees_with_every_layout(
    hand: str, seat: int, talon: str, discard: str, contract: str
) -> None:
    """With the talon and the discard fixed, the sampled P(make) covers the exact share over
    all 184,756 splits of the defenders' cards (counted independently with makes_many).
    The check uses the 99.9% Wilson interval of the same count, so a correct analysis fails
    it with probability at most 0.1% per case (0.3% for the three) for a seed chosen blindly;
    the seed is fixed, so the outcome is too."""
    target = Contract.parse(contract)
    a = analyze(hand, seat=seat, talon=talon, discard=discard, n=1500, seed=SEED)
    row = a.row(contract)
    assert (a.discards == parse_hand(discard)).all()
    deals = all_layouts(parse_hand(hand), parse_hand(talon), seat)
    hands = np.ascontiguousarray(deals[:, :3])
    hands[:, seat] = (parse_hand(hand) | parse_hand(talon)) & ~parse_hand(discard)
    made = makes_many(hands, target.level, trump=target.trump, declarer=seat)
    exact = made.mean()
    assert len(made) == math.comb(20, 10) and 0.1 < exact < 0.9
    low, high = wilson_interval(int(row.made), int(row.n), confidence=0.999)
    assert low <= exact <= high, (contract, row.p_make, exact)
    assert row.p_make_high - row.p_make_low < 0.1


def test_realistic_discard_never_beats_the_open_cards_best_discard() -> None:
    """On the same layouts (same seed), the best discard per layout knowing every card takes at
    least as many tricks in every contract and at most as many on misère, so its P(make) is an
    upper bound row by row."""
    hand = "♠A K 10 9 ♣A 8 ♦K Q 7 ♥7"
    real = analyze(hand, seat=1, talon="♠7 ♥A", n=120, seed=SEED)
    bound = analyze(hand, seat=1, talon="♠7 ♥A", n=120, seed=SEED, discard="upper-bound")
    assert (real.deals == bound.deals).all()
    assert (real.tricks[:, :MISERE] <= bound.tricks[:, :MISERE]).all()
    assert (real.tricks[:, MISERE] >= bound.tricks[:, MISERE]).all()
    assert (real.table["p_make"] <= bound.table["p_make"]).all()
    assert (real.table["made"] < bound.table["made"]).any()


def test_every_talon_weighted_alike_and_threads_change_nothing() -> None:
    a = analyze(SIX, seat=0, n=462, seed=SEED, discard="heuristic", n_jobs=1)
    b = analyze(SIX, seat=0, n=462, seed=SEED, discard="heuristic", n_jobs=2)
    talons, counts = np.unique(a.deals[:, TALON], return_counts=True)
    assert (np.sort(talons) == np.sort(unseen_talons(parse_hand(SIX)))).all()
    assert (counts == 2).all()
    assert (a.tricks == b.tricks).all() and a.table.equals(b.table)
    assert str(a) == str(b)
    # the realistic discard, chosen once per talon, is the same in every thread's part
    c = analyze(SIX, seat=2, talon="♦A ♥9", n=120, seed=SEED, n_jobs=1)
    d = analyze(SIX, seat=2, talon="♦A ♥9", n=120, seed=SEED, n_jobs=3)
    assert (c.discards == d.discards).all() and (c.tricks == d.tricks).all()
    assert (c.discards == c.discards[0]).all()
    by_talon = a.by_talon("6♠")
    assert len(by_talon) == 231 and (by_talon["n"] == 2).all()
    assert by_talon["p_make"].is_monotonic_decreasing


def test_default_size_keeps_every_interval_within_two_points() -> None:
    half = wilson_interval(DEFAULT_N // 2, math.ceil(DEFAULT_N / 231) * 231)
    assert (half[1] - half[0]) / 2 <= 0.02


def test_bad_input_names_the_mistake() -> None:
    with pytest.raises(ValueError, match="hand must hold 10 cards"):
        analyze("♠A K")
    with pytest.raises(ValueError, match="overlaps"):
        analyze(SIX, talon="♠A ♥9")
    with pytest.raises(ValueError, match="upper-bound"):
        analyze(SIX, discard="dd")
    with pytest.raises(ValueError, match="not in the hand"):
        analyze(SIX, discard="♥9 10")
    with pytest.raises(ValueError, match="exhaustive"):
        analyze(SIX, exhaustive=True)


def test_cli_fixed_talon_and_discard_fix_all_but_the_layout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [
        "analyze",
        SIX,
        "--seat",
        "1",
        "--talon",
        "♦A ♥9",
        "--discard",
        "♥7 8",
        "--n",
        "60",
        "--seed",
        "5",
        "--json",
    ]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["discard"] == "♥7 8" and first["talon"] == "♦A ♥9" and first["n"] == 60
    rows = {row["contract"]: row for row in first["contracts"]}
    assert set(rows) == {c.format() for c in LADDER}
    assert 0 <= rows["6♠"]["p_make_low"] <= rows["6♠"]["p_make"] <= rows["6♠"]["p_make_high"]


def test_cli_prints_the_table_the_model_and_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "analyze",
                SIX,
                "--seat",
                "1",
                "--talon",
                "♦A ♥9",
                "--n",
                "40",
                "--discard",
                "heuristic",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "seed " in out and "model:" in out and "recommended bid:" in out
    assert "heuristic bidder:" in out and "10NT" in out and "misère" in out
    seed = int(out.split("seed ")[1].split(")")[0].split(";")[0].split()[0])
    assert 0 <= seed < 1_000_000
    assert (
        main(
            [
                "analyze",
                SIX,
                "--talon",
                "♦A ♥9",
                "--n",
                "40",
                "--discard",
                "heuristic",
                "--ru",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "мизер" in out and "БК" in out and "прикуп" in out and "лучшая заявка" in out


def test_cli_bad_hand_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "♠A K Z"]) == 2
    assert "prefstats analyze:" in capsys.readouterr().err
