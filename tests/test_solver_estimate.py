"""The estimate inside the bracket of misère with the discard hidden against its naive twin
(tests/naive_estimate.py), and the invariants that tie it to open play."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from prefstats.solver import (
    estimate_tricks_many,
    first_lead_many,
    hidden_discard_many,
    solve_many,
)
from tests.naive_estimate import naive_estimate_tricks, open_value
from tests.naive_hidden import naive_hidden_tricks, naive_open_tricks, pairs_of, random_ending

N_CARDS = 32


def random_case(rng: np.random.Generator, hand: int) -> tuple[int, list[int] | None]:
    """A discard made and W holding it: every pair a quarter of the time, else the discard
    made and a random set of the other pairs (none to all)."""
    pairs = pairs_of(hand)
    made = pairs[int(rng.integers(len(pairs)))]
    if rng.random() < 0.25:
        return made, None
    others = [pair for pair in pairs if pair != made]
    count = int(rng.integers(0, len(others) + 1))
    chosen = [others[i] for i in sorted(rng.choice(len(others), count, replace=False))]
    return made, sorted([made, *chosen])


Case = tuple[int, int, int, int, list[int] | None]  # hand12, left, right, made, W (None: all)


def estimate_rows(cases: Sequence[Case], leader: int, declarer: int = 0) -> np.ndarray:
    """``estimate_tricks_many`` over (hand12, left, right, made, W) cases, W padded with 0 (a
    None W written out as every pair)."""
    cases = [(h, lf, r, m, pairs_of(h) if w is None else w) for h, lf, r, m, w in cases]
    width = max(len(w) if w else 1 for *_, w in cases)
    rows = np.zeros((len(cases), 3), dtype=np.uint32)
    made = np.zeros(len(cases), dtype=np.uint32)
    discards = np.zeros((len(cases), width), dtype=np.uint32)
    for index, (hand, left, right, discard, possible) in enumerate(cases):
        rows[index, declarer] = hand
        rows[index, (declarer + 1) % 3] = left
        rows[index, (declarer + 2) % 3] = right
        made[index] = discard
        discards[index, : len(possible or [])] = possible or []
    return estimate_tricks_many(
        rows, made=made, declarer=declarer, leader=(leader + declarer) % 3, discards=discards
    )


# 1,200 random endings: sizes 1-4 tricks, random W holding the discard made, every leader.
SIZES = {1: 120, 2: 120, 3: 100, 4: 60}


@pytest.mark.parametrize("leader", [0, 1, 2])
def test_estimate_against_its_naive_twin(leader: int) -> None:
    rng = np.random.default_rng(5500 + leader)
    cases = []
    for size, n_endings in SIZES.items():
        for _ in range(n_endings):
            hand, left, right = random_ending(rng, size)
            cases.append((hand, left, right, *random_case(rng, hand)))
    naive = [naive_estimate_tricks(h, left, right, leader, m, w) for h, left, right, m, w in cases]
    assert estimate_rows(cases, leader).tolist() == naive
    assert len(cases) == sum(SIZES.values())


SPADES_AND_HEARTS = [0, 1, 2, 3, 24, 25, 26, 27]  # ♠7 8 9 10 and ♥7 8 9 10


def test_estimate_exhaustively_on_two_trick_endings_of_two_suits() -> None:
    """Every two-trick ending of ♠7-10 ♥7-10 (420), every leader, every discard made, W every
    pair: the kernel equals the naive twin."""
    cases = []
    for hand in combinations(SPADES_AND_HEARTS, 4):
        rest = [card for card in SPADES_AND_HEARTS if card not in hand]
        for left in combinations(rest, 2):
            right = [card for card in rest if card not in left]
            mask = sum(1 << c for c in hand)
            for made in pairs_of(mask):
                cases.append(
                    (mask, sum(1 << c for c in left), sum(1 << c for c in right), made, None)
                )
    assert len(cases) == 420 * 6
    for leader in range(3):
        naive = [naive_estimate_tricks(h, lf, r, leader, m, w) for h, lf, r, m, w in cases]
        assert estimate_rows(cases, leader).tolist() == naive


def test_estimate_with_a_first_card_against_its_naive_twin() -> None:
    """The declarer on lead made to lead a given card of his kept hand (each row one call)."""
    rng = np.random.default_rng(5510)
    for size in (2, 3, 4):
        for _ in range(30):
            hand, left, right = random_ending(rng, size)
            made, possible = random_case(rng, hand)
            kept = [bit for bit in range(N_CARDS) if (hand & ~made) >> bit & 1]
            first = kept[int(rng.integers(len(kept)))]
            naive = naive_estimate_tricks(hand, left, right, 0, made, possible, first)
            discards = None if possible is None else np.array([possible], dtype=np.uint32)
            found = estimate_tricks_many(
                np.array([[hand, left, right]], dtype=np.uint32),
                made=np.array([made]),
                discards=discards,
                first=first,
            )
            assert int(found[0]) == naive, (hand, left, right, made, possible, first)
            w = pairs_of(hand) if possible is None else possible
            forced = first_lead_many(
                np.array([[hand, left, right]], dtype=np.uint32),
                first,
                discards=np.array([[made, *(p for p in w if p != made)]], dtype=np.uint32),
            )
            assert naive >= int(forced[0])


SURE_LINE = Path(__file__).parent / "golden" / "estimate_sure_line.json"


def test_estimate_keeps_the_sure_line_where_plain_pimc_gives_it_up() -> None:
    """The golden endings (inputs and expected values; the file says how they were found):
    plain PIMC catchers fall below the tricks they can force whichever discard of W he made;
    the estimate's catchers keep their sure line, so it is at least that, and the kernel equals
    the naive twin."""
    endings = json.loads(SURE_LINE.read_text(encoding="utf-8"))["endings"]
    assert len(endings) == 48
    for e in endings:
        args = (e["hand12"], e["left"], e["right"], e["leader"], e["made"], e["discards"])
        plain = naive_estimate_tricks(*args, e["first"], sure_line=False)
        hidden = naive_hidden_tricks(*args[:4], e["discards"], e["first"])
        assert (plain, hidden) == (e["plain_pimc"], e["hidden"]) and plain < hidden, e["text"]
        assert naive_estimate_tricks(*args, e["first"]) == e["estimate"] >= hidden, e["text"]
        possible = pairs_of(e["hand12"]) if e["discards"] is None else e["discards"]
        possible = [e["made"], *(w for w in possible if w != e["made"])]
        found = estimate_tricks_many(
            np.array([[e["hand12"], e["left"], e["right"]]], dtype=np.uint32),
            made=np.array([e["made"]]),
            leader=e["leader"],
            discards=np.array([possible], dtype=np.uint32),
            first=e["first"],
        )
        assert int(found[0]) == e["estimate"], e["text"]


def test_the_naive_twin_is_open_play_with_one_discard() -> None:
    """W = {made}: the twin's play is the open solve (its open values agree with the hidden
    twin's open play, an independent minimax)."""
    rng = np.random.default_rng(5520)
    for size in (1, 2, 3):
        for _ in range(30):
            hand, left, right = random_ending(rng, size)
            made = pairs_of(hand)[0]
            leader = int(rng.integers(3))
            seen = naive_open_tricks(hand & ~made, left, right, leader)
            assert naive_estimate_tricks(hand, left, right, leader, made, [made]) == seen
            bits = [frozenset(b for b in range(N_CARDS) if m >> b & 1) for m in (left, right)]
            kept = frozenset(b for b in range(N_CARDS) if (hand & ~made) >> b & 1)
            assert open_value((kept, bits[0], bits[1]), leader, ()) == seen


@pytest.mark.parametrize("size", [5, 7, 10])
def test_estimate_lies_in_the_bracket_and_is_open_play_with_one_discard(size: int) -> None:
    """On every layout: the estimate is at most the open solve (the declarer's rule keeps his
    tricks so far plus the open value from rising, whatever the catchers play) and at least the
    hidden-discard value over W (the catchers keep their sure line), and with W his discard
    alone it is the open solve. Declarer in each seat, each leader."""
    rng = np.random.default_rng(5530 + size)
    n_rows = 30 if size < 10 else 10
    for declarer in range(3):
        for leader in range(3):
            cases = []
            for _ in range(n_rows):
                hand, left, right = random_ending(rng, size)
                cases.append((hand, left, right, *random_case(rng, hand)))
            kernel_leader = leader
            found = estimate_rows(cases, kernel_leader, declarer)
            seen_rows = np.zeros((n_rows, 3), dtype=np.uint32)
            for index, (hand, left, right, made, _) in enumerate(cases):
                seen_rows[index, declarer] = hand & ~made
                seen_rows[index, (declarer + 1) % 3] = left
                seen_rows[index, (declarer + 2) % 3] = right
            seen = solve_many(
                seen_rows, misere=True, declarer=declarer, leader=(leader + declarer) % 3
            )
            assert (found <= seen).all()
            hidden_rows = seen_rows.copy()
            hidden_rows[:, declarer] = [hand for hand, *_ in cases]
            width = max(len(w or pairs_of(h)) for h, _, _, _, w in cases)
            possible = np.zeros((n_rows, width), dtype=np.uint32)
            for index, (hand, _, _, _, w) in enumerate(cases):
                possible[index, : len(w or pairs_of(hand))] = w or pairs_of(hand)
            forced = hidden_discard_many(
                hidden_rows,
                declarer=declarer,
                leader=(leader + declarer) % 3,
                discards=possible,
            )
            assert (found >= forced).all()
            alone = [(h, lf, r, m, [m]) for h, lf, r, m, _ in cases]
            assert (estimate_rows(alone, kernel_leader, declarer) == seen).all()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"leader": 3}, "leader must be 0, 1 or 2"),
        ({"made": np.array([0b11, 0b11])}, r"made must be an \(n,\) array"),
        ({"made": np.array([0b11 << 8])}, "2 of the declarer's cards, got ♣7 8"),
        ({"discards": np.array([[0b1100]])}, "must hold the declarer's actual discard"),
        ({"discards": np.array([[0b11], [0b11]])}, r"discards must be an \(n, m\) array"),
        ({"first": 0}, r"first \(card 0\) is not in every declarer's kept hand"),
        ({"first": 2, "leader": 1}, "first needs the declarer on lead"),
        ({"first": 40}, "first must be"),
        ({"hands": np.array([[0b11111, 0b1 << 8, 0b1 << 16]])}, "2 cards more"),
    ],
)
def test_estimate_rejects_bad_input(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {
        "hands": np.array([[0b1111, 0b11 << 8, 0b11 << 16]]),
        "made": np.array([0b11]),
    } | kwargs
    with pytest.raises(ValueError, match=message):
        estimate_tricks_many(args.pop("hands"), made=args.pop("made"), **args)
