"""Misère suit classes: the source's examples, the brute-force twin, the models, the API."""

from __future__ import annotations

import pytest

from prefstats.game import cards
from prefstats.game.cards import format_holding, parse_holding
from prefstats.misere.classes import (
    MAX_OUT_OF_PLAY,
    MisereHandClass,
    SuitClass,
    analyse_holding,
    caught_on_defenders_lead,
    caught_on_own_lead,
    class_codes,
    hand_suit_classes,
    layouts,
    misere_hand_class,
    suit_class,
    suit_class_table,
)
from tests.naive_misere import naive_holding_summaries

# Every example of the misère definitions (docs/rules.md, "Sources"), written as there (Russian
# ranks: В Д К Т).
SOURCE_CLEAN = ["7", "78", "789", "78910", "789В", "789Д", "78910В", "7810Д"]
SOURCE_CONDITIONALLY_CLEAN = ["79", "78В", "79В", "78ВД", "79ВД", "79ВК", "79ВДКТ"]
SOURCE_CATCHABLE = [
    "710",
    "7В",
    "710В",
    "710Д",
    "710К",
    "710Т",
    "79Д",
    "79К",
    "710ДТ",
    "79ДК",
    "789Т",
    "79КТ",
    "710ДКТ",
    "8",
    "9",
    "10",
    "89",
    "810",
]
SOURCE_EXAMPLES = (
    [(text, SuitClass.CLEAN) for text in SOURCE_CLEAN]
    + [(text, SuitClass.CONDITIONALLY_CLEAN) for text in SOURCE_CONDITIONALLY_CLEAN]
    + [(text, SuitClass.CATCHABLE) for text in SOURCE_CATCHABLE]
)
# The source ends its clean list "and so on up to 78910ВДКТ"; docs/rules.md: holding all eight
# cards, a declarer who must lead the suit wins that trick, so the rules make it conditionally
# clean.
DISAGREEMENT_ALL_EIGHT = "78910ВДКТ"
MODELS = [0, MAX_OUT_OF_PLAY]  # no card out of play / the declarer's two discards out of play
UNLIMITED_OUT = 8


def test_source_lists_all_examples() -> None:
    assert len(SOURCE_EXAMPLES) == 8 + 7 + 18
    assert len({parse_holding(text) for text, _ in SOURCE_EXAMPLES}) == len(SOURCE_EXAMPLES)


@pytest.mark.parametrize("max_out", MODELS)
@pytest.mark.parametrize(("text", "expected"), SOURCE_EXAMPLES)
def test_source_example(text: str, expected: SuitClass, max_out: int) -> None:
    assert suit_class(parse_holding(text), max_out_of_play=max_out) is expected


@pytest.mark.parametrize("max_out", MODELS)
def test_documented_disagreement_all_eight_cards(max_out: int) -> None:
    """Source: clean ("up to 78910ВДКТ"). Rules: nobody can follow his lead, so he wins it."""
    holding = parse_holding(DISAGREEMENT_ALL_EIGHT)
    assert suit_class(holding, max_out_of_play=max_out) is SuitClass.CONDITIONALLY_CLEAN
    assert caught_on_own_lead(holding, 0, 0)
    assert not caught_on_defenders_lead(holding, 0, 0)


def test_class_counts_default_model() -> None:
    counts = suit_class_table()["suit_class"].value_counts().to_dict()
    assert counts == {"clean": 25, "conditionally_clean": 53, "catchable": 177, "void": 1}


def test_class_counts_without_out_of_play_cards() -> None:
    counts = suit_class_table(max_out_of_play=0)["suit_class"].value_counts().to_dict()
    assert counts == {"clean": 47, "conditionally_clean": 31, "catchable": 177, "void": 1}


def test_models_differ_only_for_long_holdings_clean_without_discards() -> None:
    changed = [h for h in range(256) if suit_class(h, max_out_of_play=0) != suit_class(h)]
    assert len(changed) == 22
    for holding in changed:
        assert suit_class(holding, max_out_of_play=0) is SuitClass.CLEAN
        assert suit_class(holding) is SuitClass.CONDITIONALLY_CLEAN
        assert holding.bit_count() >= 6  # all other cards can then be out of play


def test_unlimited_out_of_play_leaves_no_clean_holding() -> None:
    """With every other card possibly out, leading the suit can win: the source's clean
    examples would all fail, so that reading of "layout" cannot be the source's."""
    classes = {suit_class(h, max_out_of_play=UNLIMITED_OUT) for h in range(256)}
    assert SuitClass.CLEAN not in classes
    assert suit_class(parse_holding("7"), max_out_of_play=UNLIMITED_OUT) is (
        SuitClass.CONDITIONALLY_CLEAN
    )


def test_catchable_holdings_are_the_same_in_every_model() -> None:
    def catchable(max_out: int) -> set[int]:
        return {h for h in range(256) if suit_class(h, max_out) is SuitClass.CATCHABLE}

    assert catchable(0) == catchable(MAX_OUT_OF_PLAY) == catchable(UNLIMITED_OUT)
    assert len(catchable(0)) == 177


def test_all_holdings_match_brute_force_twin() -> None:
    tables = {max_out: suit_class_table(max_out_of_play=max_out) for max_out in MODELS}
    for holding in range(256):
        naive = naive_holding_summaries(holding, max(MODELS))
        for max_out, table in tables.items():
            row = table.loc[holding]
            got = (row.suit_class, row.layouts, row.caught_defenders_lead, row.caught_own_lead)
            assert got == naive[max_out], f"holding {row.text}, max_out_of_play={max_out}"


def test_defenders_discarding_the_suit_changes_no_class() -> None:
    """Defenders who also throw cards of the suit away during play (on other suits' leads)
    catch more layouts, but no holding changes class: the static layouts suffice."""
    for holding in range(256):
        naive = naive_holding_summaries(holding, max(MODELS), shed=True)
        for max_out in MODELS:
            assert naive[max_out][0] == suit_class(holding, max_out).label, format_holding(holding)


def test_discarding_top_card_never_hurts_on_defenders_lead() -> None:
    """Why a void suit is harmless: when it is led the declarer may discard his highest card of
    any suit, and no position of that suit becomes catchable by it."""
    for holding in range(1, 256):
        lower = holding & ~(1 << (holding.bit_length() - 1))
        for left, right in layouts(holding, max_out_of_play=UNLIMITED_OUT):
            if caught_on_defenders_lead(lower, left, right):
                assert caught_on_defenders_lead(holding, left, right)


def test_clean_holdings_are_clean_because_no_layout_catches() -> None:
    for holding in range(256):
        analysis = analyse_holding(holding)
        if analysis.suit_class is SuitClass.CLEAN:
            assert analysis.caught_defenders_lead == analysis.caught_own_lead == 0
        assert analysis.layouts == len(list(layouts(holding)))


def test_hand_examples() -> None:
    hand = cards.parse_hand("♠7 8 9 ♣7 9 ♦7 8 J")
    assert hand_suit_classes(hand) == (
        SuitClass.CLEAN,
        SuitClass.CONDITIONALLY_CLEAN,
        SuitClass.CONDITIONALLY_CLEAN,
        SuitClass.VOID,
    )
    assert misere_hand_class(hand) is MisereHandClass.CLEAN
    only_conditional = cards.parse_hand("♣7 9 ♦7 8 J")  # the void ♠ and ♥ are no exit
    assert misere_hand_class(only_conditional) is MisereHandClass.CONDITIONALLY_CLEAN
    with_catchable = cards.parse_hand("♠7 8 9 ♣7 9 ♥8")
    assert misere_hand_class(with_catchable) is MisereHandClass.CATCHABLE


def test_hand_classes_read_every_suit() -> None:
    for suit in cards.Suit:
        hand = parse_holding("8") << (cards.N_RANKS * suit)
        expected = [SuitClass.VOID] * 4
        expected[suit] = SuitClass.CATCHABLE
        assert list(hand_suit_classes(hand)) == expected


def test_class_codes_array_matches_suit_class() -> None:
    codes = class_codes()
    assert codes.shape == (256,)
    assert all(SuitClass(int(codes[h])) is suit_class(h) for h in range(256))
    with pytest.raises(ValueError):
        codes[0] = 1


def test_table_columns() -> None:
    table = suit_class_table()
    assert list(table.columns) == [
        "holding",
        "text",
        "n_cards",
        "suit_class",
        "layouts",
        "caught_defenders_lead",
        "caught_own_lead",
    ]
    assert table["holding"].tolist() == list(range(256))
    assert table.loc[parse_holding("7 10"), "text"] == "7 10"


@pytest.mark.parametrize("bad", [-1, 256, 1 << 40])
def test_bad_holding_is_a_clear_error(bad: int) -> None:
    with pytest.raises(ValueError, match="8-bit mask"):
        suit_class(bad)


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        suit_class("7")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        suit_class(True)
    with pytest.raises(ValueError, match="max_out_of_play"):
        suit_class(1, max_out_of_play=9)
    with pytest.raises(ValueError, match="overlap"):
        caught_on_defenders_lead(parse_holding("7 8"), parse_holding("8"), 0)
    with pytest.raises(ValueError, match="style"):
        format_holding(1, style="de")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="32-bit"):
        hand_suit_classes(1 << 32)
    with pytest.raises(ValueError, match="no cards"):
        misere_hand_class(0)
