"""RuleSet validation and the Contract ladder (docs/rules.md, "Bidding")."""

import itertools

import pytest

from prefstats.game.cards import Suit
from prefstats.game.rules import (
    LADDER,
    Contract,
    Convention,
    MisereOverbid,
    RuleSet,
    Strain,
)


def test_ladder_is_26_contracts_in_order():
    names = [str(c) for c in LADDER]
    assert names[:5] == ["6♠", "6♣", "6♦", "6♥", "6NT"]
    assert names[14:17] == ["8NT", "misère", "9♠"]
    assert names[-1] == "10NT"
    assert len(set(LADDER)) == 26
    assert sorted(LADDER, key=lambda c: c.rank) == list(LADDER)
    assert all(a < b for a, b in itertools.pairwise(LADDER))


def test_misere_between_8nt_and_9_spades():
    misere = Contract.misere()
    assert Contract.parse("8NT") < misere < Contract.parse("9♠")
    assert misere > Contract(8, Strain.NO_TRUMP)
    assert not misere < Contract(8, Strain.HEARTS)
    assert misere.rank == 15 and misere.is_misere and misere.trump is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9♠", Contract(9, Strain.SPADES)),
        ("9S", Contract(9, Strain.SPADES)),
        ("9s", Contract(9, Strain.SPADES)),
        ("7 ♥", Contract(7, Strain.HEARTS)),
        ("6т", Contract(6, Strain.CLUBS)),
        ("8б", Contract(8, Strain.DIAMONDS)),
        ("7ч", Contract(7, Strain.HEARTS)),
        ("10NT", Contract(10, Strain.NO_TRUMP)),
        ("10nt", Contract(10, Strain.NO_TRUMP)),
        ("10БК", Contract(10, Strain.NO_TRUMP)),
        ("misère", Contract.misere()),
        ("Misere", Contract.misere()),
        ("мизер", Contract.misere()),
    ],
)
def test_parse(text, expected):
    assert Contract.parse(text) == expected


@pytest.mark.parametrize("style", ["en", "ru"])
def test_every_contract_round_trips(style):
    for contract in LADDER:
        assert Contract.parse(contract.format(style)) == contract


def test_trump_of_a_contract():
    assert Contract.parse("7♦").trump is Suit.DIAMONDS
    assert Contract.parse("7NT").trump is None


@pytest.mark.parametrize("text", ["5♠", "11NT", "9X", "9", "", "мизерр", "6 NT NT", "♠9"])
def test_bad_contract_names_the_text(text):
    with pytest.raises(ValueError, match="bad contract"):
        Contract.parse(text)


def test_contract_validation():
    with pytest.raises(ValueError, match=r"level must be an integer in 6\.\.10, got 5"):
        Contract(5, Strain.SPADES)
    with pytest.raises(ValueError, match="only misère"):
        Contract(7, None)
    with pytest.raises(ValueError):
        Contract(7, 9)  # type: ignore[arg-type]


def test_ruleset_defaults_are_the_codex():
    rules = RuleSet()
    assert rules.players == 3
    assert rules.misere_overbid is MisereOverbid.TOURNAMENT_STOP
    assert rules.scoring is Convention.SOCHI
    assert RuleSet.named("codex4").players == 4


def test_ruleset_is_frozen_and_validated():
    rules = RuleSet()
    with pytest.raises(AttributeError):
        rules.players = 4  # type: ignore[misc]
    with pytest.raises(ValueError, match="players must be 3 or 4, got 2"):
        RuleSet(players=2)
    with pytest.raises(ValueError, match="unknown Convention 'moscow'"):
        RuleSet(scoring="moscow")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown MisereOverbid"):
        RuleSet(misere_overbid="dark")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown rule set 'pulya'"):
        RuleSet.named("pulya")
    assert RuleSet(scoring="leningrad").scoring is Convention.LENINGRAD  # type: ignore[arg-type]
