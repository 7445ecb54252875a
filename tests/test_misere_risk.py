"""misere_risk: brute-force twins per layout, exhaustive enumeration, reproducibility, clean
hands, validation; the CLI; and dealt class frequencies against exact.py."""

from __future__ import annotations

import argparse
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats

from prefstats.cards import N_CARDS, N_RANKS, N_SUITS, format_hand, parse_hand
from prefstats.catch import (
    EXHAUSTIVE_LAYOUTS,
    MisereRisk,
    deal_rest,
    discard_classes,
    misere_risk,
    sampled_discards,
    seat_rows,
)
from prefstats.deal import deal_many
from prefstats.declarer import misere_discards
from prefstats.exact import (
    hand_class_counts,
    p_clean_misere,
    p_only_clean_or_conditional,
    suit_class_probabilities,
)
from prefstats.misere import SuitClass, class_codes
from prefstats.misere_cli import add_parsers, classify_text
from prefstats.solver import best_discard, solve, solve_many

HAND = "♠7 8 A ♣7 9 ♦7 8 ♥8 9 10"  # catchable: ♠7 8 A, ♥8 9 10
CLEAN_HAND = "♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9"
QUICK = "♠7 10 ♣7 8 9 ♦7 8 ♥7 8 9"  # one catchable suit, fast to enumerate
SEED = 20_240_613
# Statistical checks: an exact binomial test at p > 1e-7 per comparison, or |z| <= 5.4
# (p < 7e-8); with fewer than 200 comparisons in this file a correct program fails with
# probability below 2e-5.
P_FLOOR = 1e-7
Z_BOUND = 5.4


def others_of(deals: np.ndarray, seat: int) -> list[int]:
    return [int(deals[s]) for s in range(3) if s != seat]


# --- brute-force twins per layout ------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_dd_matches_best_discard_in_every_layout(seat: int) -> None:
    risk = misere_risk(HAND, seat=seat, n=12, seed=SEED + seat)
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


def test_sampled_choice_matches_brute_force() -> None:
    """The branch and bound picks what scoring every discard on the sample picks."""
    hand, seat, per = parse_hand(HAND), 2, 8
    talons = deal_many(4, seed=SEED, fixed={seat: hand})[:, 3]
    hands12 = (hand | talons).astype(np.uint32)
    chosen = sampled_discards(hands12, seat, per, np.random.default_rng(SEED))
    sample = deal_rest(np.repeat(hands12, per), [10, 10], np.random.default_rng(SEED))
    heuristic = misere_discards(hands12)
    for i, hand12 in enumerate(hands12.tolist()):
        others = sample[i * per : (i + 1) * per]

        def loss(discard: int, others: np.ndarray = others, hand12: int = hand12) -> int:
            kept = np.full(per, hand12 & ~discard, dtype=np.uint32)
            tricks = solve_many(seat_rows(kept, others, seat), misere=True, declarer=seat)
            return int(tricks.sum() + (tricks > 0).sum())

        pairs = [a | b for a, b in itertools.combinations(_cards(hand12), 2)]
        best = min(loss(d) for d in pairs)
        assert loss(int(chosen[i])) == best
        if loss(int(heuristic[i])) == best:  # ties keep the heuristic's discard (its class)
            assert loss(int(chosen[i])) == loss(int(heuristic[i]))


def _cards(mask: int) -> list[int]:
    return [1 << bit for bit in range(N_CARDS) if mask >> bit & 1]


def test_equivalent_discards_are_the_runs() -> None:
    """Distinct discard classes = distinct counts taken from each run; equal values in play."""
    hands12 = deal_many(30, seed=SEED)[:, 0] | deal_many(30, seed=SEED)[:, 3]
    discards, distinct = discard_classes(hands12.astype(np.uint32))
    for hand, row, keep in zip(hands12.tolist(), discards.tolist(), distinct, strict=True):
        runs = _runs(hand)
        signature = [tuple(sorted((run & d).bit_count() for run in runs)) for d in row]
        keyed = [tuple((run & d).bit_count() for run in runs) for d in row]
        assert int(keep.sum()) == len(set(keyed))
        assert len({keyed[j] for j in np.flatnonzero(keep)}) == int(keep.sum())
        assert all(sum(s) == 2 for s in signature)
    hand = parse_hand(HAND) | parse_hand("♠K ♦J")
    left, right = (int(x) for x in deal_rest(np.array([hand], np.uint32), [10, 10],
                                              np.random.default_rng(1))[0])  # fmt: skip
    discards, distinct = discard_classes(np.array([hand], np.uint32))
    values: dict[tuple[int, ...], int] = {}
    for d in discards[0].tolist():
        key = tuple((run & d).bit_count() for run in _runs(hand))
        value = solve([hand & ~d, left, right], misere=True)
        assert values.setdefault(key, value) == value


def _runs(hand: int) -> list[int]:
    """Maximal runs of adjacent ranks in one suit, as masks (a plain-Python twin)."""
    runs: list[int] = []
    for bit in range(N_CARDS):
        if hand >> bit & 1:
            if bit % N_RANKS and hand >> (bit - 1) & 1:
                runs[-1] |= 1 << bit
            else:
                runs.append(1 << bit)
    return runs


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


@pytest.mark.parametrize("policy", ["dd", "sampled", "heuristic"])
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
        ({"discard": "best"}, "discard must be one of dd, sampled, heuristic"),
        ({"discard": "♠K Q"}, "not in the hand"),
        ({"discard": "♠7 8 A"}, "discard must be one of"),
        ({"n": 1}, "n must be an integer >= 2"),
        ({"choice_n": 0}, "choice_n"),
        ({"seed": "x"}, "seed must be"),
        ({"exhaustive": True}, "give the talon"),
        ({"exhaustive": True, "talon": "♠K Q"}, "'dd' would solve"),
    ],
)  # fmt: skip
def test_bad_input_is_a_clear_error(kwargs: dict, message: str) -> None:
    arguments = {"hand": HAND, "n": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        misere_risk(**arguments)


# --- CLI -------------------------------------------------------------------------------------


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
    assert "catchable" in lines[2] and lines[-1] == "misère: catchable"
    assert classify_text("S 7 8 D 7").endswith("misère: clean (cannot be caught)")
    assert classify_text("7 10").startswith("holding 7 10: catchable")
    with pytest.raises(ValueError, match=r"neither a holding .* nor a hand"):
        classify_text("7 X")


def test_misere_command(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["misere", HAND, "--seat", "1", "--n", "40", "--seed", "3",
                  "--discard", "heuristic"])  # fmt: skip
    args.func(args)
    out = capsys.readouterr().out
    assert "seat 1" in out and "40 random layouts, seed 3" in out and "P(caught)" in out
    args = parse(["misere", QUICK, "--talon", "♠A K", "--discard", "♠A K", "--exhaustive"])
    args.func(args)
    assert "184,756 all layouts" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        parse(["misere", HAND, "--n", "0"])
    args = parse(["misere", HAND, "--discard", "worst"])
    with pytest.raises(ValueError, match="discard must be one of"):
        args.func(args)


# --- dealt hands against exact.py ------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_dealt_class_frequencies_match_exact(seat: int) -> None:
    """Each seat's hands from deal_many: suit classes, clean misère, compositions vs exact.py."""
    n = 200_000
    hands = deal_many(n, seed=SEED + seat)[:, seat]
    suits = np.stack([(hands >> np.uint32(8 * s)) & np.uint32(0xFF) for s in range(4)], axis=1)
    classes = class_codes()[suits]
    per_class = np.stack([(classes == c).sum(axis=1) for c in SuitClass], axis=1)
    for suit in range(N_SUITS):
        for cls, p in suit_class_probabilities().items():
            _agrees(int((classes[:, suit] == cls).sum()), n, p)
    no_catchable = per_class[:, SuitClass.CATCHABLE] == 0
    clean = no_catchable & (per_class[:, SuitClass.CLEAN] > 0)
    _agrees(int(clean.sum()), n, p_clean_misere())
    _agrees(int(no_catchable.sum()), n, p_only_clean_or_conditional())
    total = math.comb(N_CARDS, 10)
    for composition, count in hand_class_counts().items():
        hits = int((per_class == np.array(composition)).all(axis=1).sum())
        _agrees(hits, n, Fraction(count, total))


def _agrees(hits: int, n: int, p: Fraction) -> None:
    assert scipy.stats.binomtest(hits, n, float(p)).pvalue > P_FLOOR, (hits, n, float(p))
