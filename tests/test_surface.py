"""What a new user sees first: the top level's names and the guide ``help(prefstats)`` opens
with."""

from __future__ import annotations

import pydoc

import prefstats

REACHED_FOR = ("analyze", "misere_risk", "catch_rate", "dd_table", "play_line", "shipped")


def test_the_top_level_exports_what_a_user_reaches_for() -> None:
    for name in REACHED_FOR:
        assert name in prefstats.__all__ and callable(getattr(prefstats, name)), name
    assert prefstats.shipped("summary").name == "summary.parquet"
    assert 0.0 <= prefstats.catch_rate("7 10", "left") <= 1.0


def test_help_opens_with_a_short_guide_to_them() -> None:
    text = pydoc.render_doc(prefstats, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    guide = text.split("DESCRIPTION")[1].split("PACKAGE CONTENTS")[0]
    assert guide.strip().startswith("A short guide")
    assert all(f"{name}(" in guide for name in REACHED_FOR)
