"""misere_risk: brute-force twins per layout, exhaustive enumeration, reproducibility, clean
hands, validation (prefstats.players.misere_risk); the sampled discard's choice against brute
force, and the equivalence of discards (prefstats.players.discards)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from prefstats.game.cards import N_CARDS, format_hand, parse_hand
from prefstats.players.discards import misere_discards
from prefstats.players.misere_risk import MisereRisk, misere_risk
from prefstats.solver import best_discard, solve

HAND = "♠7 8 A ♣7 9 ♦7 8 ♥8 9 10"  # catchable: ♠7 8 A, ♥8 9 10
CLEAN_HAND = "♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9"
QUICK = "♠7 10 ♣7 8 9 ♦7 8 ♥7 8 9"  # one catchable suit, fast to enumerate
SEED = 20_240_613
EXHAUSTIVE_LAYOUTS = math.comb(20, 10)  # the defenders' 20 cards split ten each
# Statistical check: |z| <= 5.4 (p < 7e-8), made once in this file.
Z_BOUND = 5.4


def others_of(deals: np.ndarray, seat: int) -> list[int]:
    return [int(deals[s]) for s in range(3) if s != seat]


# --- brute-force twins per layout ------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_dd_matches_best_discard_in_every_layout(seat: int) -> None:
    risk = misere_risk(HAND, seat=seat, n=12, seed=SEED + seat, discard="upper-bound")
    assert risk.policy == "dd" and risk.n == 12
    for row, tricks in zip(risk.deals, risk.tricks, strict=True):
        hand12 = parse_hand(HAND) | int(row[3])
        assert int(row[seat]) | int(row[4]) == hand12 and int(row[seat]) & int(row[4]) == 0
        _, best = best_discard(hand12, others_of(row, seat), misere=True, declarer=seat)
        assert best == tricks
        assert solve([int(h) for h in row[:3]], misere=True, declarer=seat) == tricks


def test_heuristic_and_fixed_discards_match_solve() -> None:
    for discard in ("heuristic", "♠A ♥10"):
        risk = misere_risk(HAND, seat=1, n=15, seed=SEED, discard=discard)
        hands12 = (parse_hand(HAND) | risk.deals[:, 3]).astype(np.uint32)
        expected = misere_discards(hands12) if discard == "heuristic" else parse_hand(discard)
        assert (risk.deals[:, 4] == expected).all()
        for row, tricks in zip(risk.deals, risk.tricks, strict=True):
            assert solve([int(h) for h in row[:3]], misere=True, declarer=1) == tricks


def _cards(mask: int) -> list[int]:
    return [1 << bit for bit in range(N_CARDS) if mask >> bit & 1]


# --- exhaustive enumeration ------------------------------------------------------------------


def test_exhaustive_covers_every_layout_once() -> None:
    talon, discard = parse_hand("♠A K"), parse_hand("♠A K")
    risk = misere_risk(QUICK, seat=1, talon=talon, discard=discard, exhaustive=True)
    assert risk.exhaustive and risk.n == EXHAUSTIVE_LAYOUTS == math.comb(20, 10) == 184_756
    assert sum(risk.counts) == 184_756
    deals = risk.deals
    assert len(np.unique(deals[:, 0])) == 184_756
    assert (deals[:, 1] == parse_hand(QUICK)).all() and (deals[:, 3] == talon).all()
    assert (np.bitwise_xor.reduce(deals[:, :4], axis=1) == np.uint32(0xFFFFFFFF)).all()
    assert risk.p_caught.low == risk.p_caught.estimate == risk.p_caught.high
    rows = np.random.default_rng(SEED).choice(184_756, size=25, replace=False)
    for row in rows:
        hands = [int(h) for h in deals[row, :3]]
        assert solve(hands, misere=True, declarer=1) == risk.tricks[row]
    sampled = misere_risk(QUICK, seat=1, talon=talon, discard=discard, n=4000, seed=SEED)
    p = risk.p_caught.estimate
    assert abs(sampled.p_caught.estimate - p) <= Z_BOUND * math.sqrt(p * (1 - p) / 4000)


def test_exhaustive_with_a_policy_chosen_before_the_layout() -> None:
    risk = misere_risk(QUICK, seat=0, talon="♥10 J", discard="heuristic", exhaustive=True)
    assert risk.n == 184_756 and risk.policy == "heuristic"
    assert (risk.deals[:, 4] == risk.deals[0, 4]).all()


# --- reproducibility and clean hands ---------------------------------------------------------


def test_reproducible_for_a_seed() -> None:
    first = misere_risk(HAND, seat=2, n=40, seed=SEED, discard="heuristic")
    again = misere_risk(HAND, seat=2, n=40, seed=SEED, discard="heuristic")
    other = misere_risk(HAND, seat=2, n=40, seed=SEED + 1, discard="heuristic")
    assert first == again and first.seed == SEED
    assert (first.deals == again.deals).all() and (first.tricks == again.tricks).all()
    assert not (first.deals == other.deals).all()
    sampled = [misere_risk(HAND, talon="♠K ♦J", n=30, seed=5, discard="sampled") for _ in "ab"]
    assert sampled[0] == sampled[1]


@pytest.mark.parametrize("policy", ["upper-bound", "sampled", "heuristic"])
def test_clean_hand_is_never_caught(policy: str) -> None:
    for seat in range(3):
        risk = misere_risk(CLEAN_HAND, seat=seat, n=25, seed=SEED, discard=policy, choice_n=4)
        assert risk.p_caught.estimate == 0.0 and risk.counts[0] == 25
        assert risk.mean_tricks.estimate == 0.0


def test_result_helpers() -> None:
    risk = misere_risk(HAND, n=60, seed=SEED, discard="heuristic")
    assert isinstance(risk, MisereRisk) and len(risk.counts) == 11
    shares = risk.distribution()
    assert sum(s.count for s in shares) == 60
    assert math.isclose(sum(s.estimate for s in shares), 1.0)
    assert 1 - shares[0].estimate == pytest.approx(risk.p_caught.estimate)
    text = risk.format()
    assert "P(caught)" in text and "E[tricks]" in text and format_hand(risk.hand) in text
    with pytest.raises(ValueError):
        risk.tricks[0] = 3  # read-only


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hand": "♠7 8 9"}, "hand must hold 10 cards, got 3"),
        ({"hand": "♠7 8 X"}, "hand: bad token"),
        ({"hand": 1 << 40}, "32-bit"),
        ({"talon": "♠7 ♣K"}, "overlaps the hand"),
        ({"talon": "♠K"}, "talon must hold 2 cards"),
        ({"seat": 3}, "seat must be 0, 1 or 2"),
        ({"seat": True}, "seat must be"),
        ({"discard": "best"}, "discard must be one of sampled, heuristic, upper-bound"),
        ({"discard": "♠K Q"}, "not in the hand"),
        ({"discard": "♠7 8 A"}, "discard must be one of"),
        ({"n": 1}, "n must be an integer >= 2"),
        ({"choice_n": 0}, "choice_n"),
        ({"seed": "x"}, "seed must be"),
        ({"exhaustive": True}, "give the talon"),
        ({"exhaustive": True, "talon": "♠K Q", "discard": "upper-bound"}, "'upper-bound' would"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs: dict[str, Any], message: str) -> None:
    arguments = {"hand": HAND, "n": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        misere_risk(**arguments)


def test_information_models_order_the_same_layouts() -> None:
    """Every information model plays the same layouts and discards for a seed. Second hand
    (a defender leads): floor <= hidden <= open and estimate <= open on every layout, and
    played = hidden there (no blind lead). First hand with the talon known: the blind lead >=
    open on every layout, and the estimate's blind lead is caught no more often than the blind
    lead followed by open play."""
    kwargs: dict[str, Any] = {"talon": "♠K ♦J", "discard": "heuristic", "n": 40, "seed": SEED}
    second = {
        name: misere_risk(HAND, seat=1, information=name, **kwargs)
        for name in ("open", "hidden", "floor", "played", "estimate")
    }
    deals = second["open"].deals
    assert all((risk.deals == deals).all() for risk in second.values())
    tricks = {name: risk.tricks for name, risk in second.items()}
    assert (tricks["floor"] <= tricks["hidden"]).all()
    assert (tricks["hidden"] <= tricks["open"]).all()
    assert (tricks["estimate"] <= tricks["open"]).all()
    assert (tricks["played"] == tricks["hidden"]).all()
    assert (tricks["floor"] < tricks["open"]).any()  # hiding his discard matters here
    first = {
        name: misere_risk(HAND, seat=0, information=name, **kwargs)
        for name in ("open", "blind", "estimate")
    }
    assert (first["blind"].tricks >= first["open"].tricks).all()
    assert first["estimate"].p_caught.count <= first["blind"].p_caught.count
