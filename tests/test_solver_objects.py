"""The solver's public functions on the game's own objects: ``solve``, ``play_line`` and
``dd_table`` take a ``Deal`` and a ``Contract`` (or its text) and answer as the mask forms do."""

from __future__ import annotations

import numpy as np
import pytest

from prefstats.game.deal import Deal, deal_many
from prefstats.game.rules import LADDER, MISERE_LEVEL, Contract, Strain
from prefstats.solver import solve, solve_many
from prefstats.solver.contracts import dd_table
from prefstats.solver.line import play_line

# One contract a strain and misère; the level is not played.
CONTRACTS = [Contract(6 + strain % 5, strain) for strain in Strain] + [Contract.misere()]


def mask_options(contract: Contract) -> dict[str, object]:
    """The keyword form of ``contract``, written by hand from its strain."""
    if contract.strain is None:
        return {"misere": True}
    return {"trump": None if contract.strain == Strain.NO_TRUMP else int(contract.strain)}


def test_solve_on_objects_matches_the_mask_form_on_random_deals() -> None:
    deals = deal_many(4, seed=49)
    seats = np.random.default_rng(49).integers(0, 3, size=(len(deals), len(CONTRACTS), 2))
    for row, seat_row in zip(deals, seats, strict=True):
        deal, hands = Deal.from_row(row), [int(h) for h in row[:3]]
        for contract, (declarer, leader) in zip(CONTRACTS, seat_row, strict=True):
            where = {"declarer": int(declarer), "leader": int(leader)}
            expected = solve(hands, **mask_options(contract), **where)  # type: ignore[arg-type]
            assert solve(deal, contract, **where) == expected, (deal, contract)  # type: ignore[arg-type]
            assert solve(hands, str(contract), **where) == expected, (deal, contract)  # type: ignore[arg-type]


def test_solve_many_takes_a_contract() -> None:
    hands = deal_many(6, seed=11)[:, :3]
    for contract in (Contract.parse("8♣"), Contract.misere()):
        expected = solve_many(hands, declarer=2, leader=1, **mask_options(contract))  # type: ignore[arg-type]
        assert (solve_many(hands, contract, declarer=2, leader=1) == expected).all()
    with pytest.raises(ValueError, match="not both"):
        solve_many(hands, "6NT", misere=True)


def test_solve_ignores_the_talon_of_a_deal() -> None:
    row = deal_many(1, seed=7)[0]
    deal = Deal.from_row(row)
    # The same three hands; the talon cards handed to nobody change nothing.
    assert solve(deal, "8NT", declarer=2) == solve(deal.hands, "6NT", declarer=2)


def test_play_line_on_objects_matches_the_mask_form() -> None:
    deal = Deal.from_row(deal_many(1, seed=3)[0])
    hands = list(deal.hands)
    for contract in (Contract.parse("7♦"), Contract.misere()):
        line = play_line(deal, contract, declarer=1, leader=2)
        by_masks = play_line(hands, declarer=1, leader=2, **mask_options(contract))  # type: ignore[arg-type]
        assert line == by_masks
        assert line.declarer_tricks == solve(deal, contract, declarer=1, leader=2)


def test_dd_table_of_a_deal_matches_the_table_of_its_hands() -> None:
    deal = Deal.from_row(deal_many(1, seed=5)[0])
    table = dd_table(deal)
    assert table.equals(dd_table(list(deal.hands)))
    assert int(table.loc["♥", ("second hand", "third hand")]) == solve(  # type: ignore[arg-type]
        deal, "6♥", declarer=1, leader=2
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda d: solve(d, "6♥", trump=3), "not both"),
        (lambda d: solve(d, Contract.misere(), misere=True), "not both"),
        (lambda d: solve(d, "6NT", trump=0, misere=True), "not both"),
        (lambda d: play_line(d, "misère", trump=1), "not both"),
        (lambda d: solve(d, 6), "contract must be a Contract or its text"),  # type: ignore[arg-type]
        (lambda d: solve(d, "6X"), "bad contract '6X'"),
        (lambda d: solve(d, trump=0, misere=True), "misère is played without trumps"),
    ],
)
def test_bad_combinations_raise_one_clear_error(call: object, message: str) -> None:
    deal = Deal.from_row(deal_many(1, seed=1)[0])
    with pytest.raises(ValueError, match=message) as error:
        call(deal)  # type: ignore[operator]
    assert "\n" not in str(error.value)


def test_a_misere_with_a_trump_cannot_be_written() -> None:
    # The only contract without a strain is misère, and no misère carries one.
    assert [c for c in LADDER if c.is_misere] == [Contract.misere()]
    assert all(c.trump is None for c in LADDER if c.is_misere)
    for strain in Strain:
        with pytest.raises(ValueError, match=r"level must be an integer in 6\.\.10"):
            Contract(MISERE_LEVEL, strain)
