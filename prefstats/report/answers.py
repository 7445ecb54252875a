"""The answers to the package's three questions, written from the tables: every number in a
sentence comes from the data it is given, with the model behind it said alongside. The report
and the notebooks end with them.
"""

from __future__ import annotations

import pandas as pd

from prefstats.data import SENSITIVITY_TABLE, shipped
from prefstats.game.cards import parse_holding
from prefstats.misere.tables import (
    COMMON_HOLDINGS,
    LEADS,
    load_catch_rates,
    published_comparison,
)
from prefstats.players.sharing import break_even_catch_probability
from prefstats.report import tables
from prefstats.report.tables import share_text
from prefstats.studies.catch_information import information_ev
from prefstats.studies.misere_ev import break_even, tricks_when_caught
from prefstats.studies.results import findings_markdown, sensitivity_markdown, shipped_findings

ANSWER_HOLDINGS = ("8", "9", "7 10", "8 9")
SENSITIVITY, MISERE_EV = f"{SENSITIVITY_TABLE}.parquet", "misere_ev.parquet"
README_BLOCKS = ("findings", "sensitivity", "catch", "played", "sharing")  # generated blocks
PLAYED_SETTING = "lowest-sides"  # the setting of the as-played comparison (the textbook hand)


def claim_answer(summary: pd.DataFrame) -> str:
    """How often nines and misères occur, and whether the Codex claim holds (note 40)."""
    verdict: str = summary.attrs["verdict"]
    return (
        verdict + " A nine is a contract of nine or ten tricks. The dealt "
        "potential (what some seat can make double-dummy with the talon and its best discard, "
        "the first hand leading) does not depend on how anyone bids; what is played does, on "
        "the heuristic bidders' misère risk limit above all."
    )


def catch_answer(rates: pd.DataFrame, holdings: tuple[str, ...] = ANSWER_HOLDINGS) -> str:
    """How often some classic holdings are caught on the defenders' lead, in each setting."""
    sentences = []
    for text in holdings:
        mask = parse_holding(text)
        cells = []
        for setting in ("lowest-sides", "clean-sides", "as-dealt"):
            rows = rates[
                (rates.setting == setting) & (rates.holding_mask == mask) & (rates.lead == LEADS[1])
            ]
            if len(rows):
                row = rows.iloc[0]
                pooled = ", pooled by length" if bool(row.pooled) else ""
                cells.append(
                    f"{share_text(row.p_caught, row.p_caught_low, row.p_caught_high)}"
                    f" {setting}{pooled}"
                )
        if cells:
            sentences.append(f"{text}: " + "; ".join(cells))
    return (
        "Caught when the defender after the declarer leads (the left lead), by what else the "
        "declarer holds (lowest-sides: the lowest cards elsewhere; clean-sides: random clean "
        "suits; as-dealt: misère hands as dealt, after the heuristic discard): "
        + ". ".join(sentences)
        + ". What else he holds moves the rate well beyond sampling "
        "error, so a catch rate means little without its setting."
    )


def sharing_answer(ev_table: pd.DataFrame) -> str:
    """What solo and shared misère are worth, and when the dealer should accept."""
    m, p = tricks_when_caught(ev_table), break_even(ev_table)
    accept = float(ev_table.dealer_accepts.mean())
    return (
        f"Over {len(ev_table):,} misères played by the heuristic bidders (four players, Sochi "
        "scoring), each judged before the talon over its own random talons and layouts with the "
        f"heuristic discard, a caught misère took m = {m.estimate:.2f} tricks on average (95% CI "
        f"{m.low:.2f}–{m.high:.2f}), so a solo misère breaks even at P(caught) = "
        f"{p.estimate:.3f} ({p.low:.3f}–{p.high:.3f}) and is worth playing below it. Shared, "
        "each partner gets a third of the result: a risk-neutral dealer should accept exactly "
        f"when the solo EV is positive (here {accept:.1%} of the invitations), and a "
        "risk-neutral inviter never gains by sharing; only a risk-averse one does."
    )


def played_model(info: pd.DataFrame, setting: str = PLAYED_SETTING) -> str:
    """The sentence of assumptions behind the as-played figures of the ``paired`` rows of
    ``catch_rates``."""
    part = info[info.setting == setting]
    n, hands = int(part.n.iloc[0]), int(part.hands.iloc[0])
    return (
        f"The {setting} hand of each holding (the holding in ♠, the lowest cards of the other "
        f"suits), {n:,} layouts a holding: {hands} random pairs of cards out of play as his "
        f"discard, {n // hands} random splits of the other twenty cards each. Open: every card "
        "seen (the model of every other catch rate here). As played: on his own lead he leads "
        "blind, one card for all the layouts of his hand; then the catchers, who know his "
        "twelve cards but not his discard, must catch him whichever discard the misère discard "
        "rating cannot tell from his (the low end), or are granted his discard (the high end). "
        "Estimate: catchers who keep what they can force whichever of those discards he made "
        "and play each other card by the share of those discards, still consistent with the "
        "play, on which it keeps a double-dummy catch, against a double-dummy declarer (his "
        "blind lead chosen for it). Floor: the catchers must catch him whichever pair of his "
        "twelve cards he dropped. Play is otherwise exact (docs/rules.md, "
        '"Misère information models").'
    )


def played_answer(info: pd.DataFrame, setting: str = PLAYED_SETTING) -> str:
    """How much the rules' hidden discard and blind lead change the catch rates, the break-even
    P(caught) and the dealer's decision, against open play, from the ``paired`` rows of
    ``catch_rates`` with their EV columns (``information_ev``)."""
    part = info[info.setting == setting]
    holdings = part.holding.nunique()
    left = part[(part.lead == "left") & part.holding.isin(COMMON_HOLDINGS)]
    saved = int(left[left.information == "as played low"].saved.sum())
    caught = int(left[left.information == "open"].caught.sum())
    estimate = int(left[left.information == "estimate"].caught.sum())
    sentences = [
        f"In {setting}, on the left lead, catchers who must cover every discard he could have "
        f"made lose {saved:,} of the {caught:,} open catches of the ten published holdings "
        f"({saved / caught:.0%}), but catchers who keep what they can force and judge each "
        f"other card over those discards (the estimate) make {estimate:,} catches "
        f"({estimate / caught:.0%} of open play's): the hidden discard costs real catchers "
        "little."
    ]
    for lead in ("left", "own"):
        rows = part[part.lead == lead]
        cells = {}
        for name in ("open", "as played low", "as played high"):
            model = rows[rows.information == name]
            m = model.mean_tricks.sum() / model.p_caught.sum()
            cells[name] = (break_even_catch_probability(m), int(model.dealer_accepts.sum()))
        sentences.append(
            f"On the {lead} lead, over the {holdings} holdings measured in {setting}, a caught "
            "misère's tricks "
            f"put the break-even P(caught) at {cells['open'][0]:.3f} in open play and "
            f"{cells['as played high'][0]:.3f}–{cells['as played low'][0]:.3f} as played, and "
            f"a risk-neutral dealer accepts an invitation (solo EV above 0; four players, Sochi) "
            f"for {cells['open'][1]} of them in open play and {cells['as played high'][1]}–"
            f"{cells['as played low'][1]} as played."
        )
    return " ".join(sentences)


def played_markdown(info: pd.DataFrame, rates: pd.DataFrame, setting: str = PLAYED_SETTING) -> str:
    """Markdown tables of ``tables.played_comparison`` for the ten published holdings, with
    the published figures (``rates``: the catch-rate table), its model, and
    ``tables.played_by_setting`` with what differs between the settings, and
    ``tables.played_by_length`` with its model."""
    published = published_comparison(table=rates)
    return "\n\n".join(
        [
            _markdown(tables.played_comparison(info, COMMON_HOLDINGS, setting, published)),
            played_model(info, setting),
            _markdown(tables.played_by_setting(info, COMMON_HOLDINGS)),
            PLAYED_SETTINGS_TEXT,
            _markdown(tables.played_by_length(info, setting)),
            played_length_text(setting),
        ]
    )


def played_length_text(setting: str = PLAYED_SETTING) -> str:
    """The sentence of assumptions behind ``tables.played_by_length``."""
    return (
        f"Every catchable holding measured, pooled by its length, in {setting}: each holding "
        "weighs its layouts (the same number for each), so this is the rate of a holding of "
        "that length picked at random, not weighted by how often each is dealt. P(caught) with "
        "95% intervals, taken over hands."
    )


PLAYED_SETTINGS_TEXT = (
    "The ten published holdings pooled, in each setting (as-dealt has no 7 9: it is never the "
    "one catchable suit of a dealt misère hand). In lowest-sides and clean-sides his two cards "
    "out of play are random, so the discards his rating cannot tell from them are many and the "
    "catchers must cover them all; as dealt he made his rating's choice, and the discards it "
    "puts within 0.05 of its best are often his alone, so the catchers all but know his discard "
    "and the hidden discard saves few catches."
)


def _markdown(shown: pd.DataFrame) -> str:
    header = "| " + " | ".join(shown.columns) + " |"
    rule = "|" + "---|" * len(shown.columns)
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in shown.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def catch_markdown(comparison: pd.DataFrame) -> str:
    """A markdown table of ``misere.tables.published_comparison`` on the left lead: each
    setting's P(caught) with its interval, and the published figure."""
    return _markdown(tables.catch_comparison(comparison[comparison.lead == "left"]))


def readme_blocks() -> dict[str, str]:
    """The README's generated blocks, from the shipped tables (tests/test_readme.py holds the
    README to them)."""
    findings = shipped_findings()
    rates = load_catch_rates()
    info = information_ev(load_catch_rates(design="paired"))
    blocks = {
        "findings": findings_markdown(findings) + "\n\n" + claim_answer(findings),
        "sensitivity": sensitivity_markdown(pd.read_parquet(shipped(SENSITIVITY))),
        "catch": catch_markdown(published_comparison(table=rates)) + "\n\n" + catch_answer(rates),
        "played": played_markdown(info, rates) + "\n\n" + played_answer(info),
        "sharing": sharing_answer(pd.read_parquet(shipped(MISERE_EV))),
    }
    return {name: blocks[name] for name in README_BLOCKS}


def fill_readme_blocks(text: str, blocks: dict[str, str]) -> str:
    """``text`` with each ``<!-- name:start -->`` … ``<!-- name:end -->`` block replaced by
    ``blocks[name]`` (``make readme`` writes the README's blocks after a regeneration).

    >>> fill_readme_blocks("a <!-- x:start -->old<!-- x:end --> b", {"x": "new"})
    'a <!-- x:start -->\\nnew\\n<!-- x:end --> b'
    """
    for name, block in blocks.items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        if start not in text or end not in text:
            raise ValueError(f"the text has no block {name!r} ({start} … {end})")
        head, rest = text.split(start, 1)
        text = f"{head}{start}\n{block}\n{end}{rest.split(end, 1)[1]}"
    return text
