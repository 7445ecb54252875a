"""The answers to the package's three questions, written from the tables: every number in a
sentence comes from the data it is given, with the model behind it said alongside. The report
and the notebooks end with them.
"""

from __future__ import annotations

import pandas as pd

from prefstats.data import SENSITIVITY_TABLE, shipped
from prefstats.game.cards import parse_holding
from prefstats.misere.tables import LEADS, load_catch_rates, published_comparison
from prefstats.report import tables
from prefstats.report.tables import share_text
from prefstats.studies.misere_ev import break_even, tricks_when_caught
from prefstats.studies.results import findings_markdown, sensitivity_markdown, shipped_findings

ANSWER_HOLDINGS = ("8", "9", "7 10", "8 9")
SENSITIVITY, MISERE_EV = f"{SENSITIVITY_TABLE}.parquet", "misere_ev.parquet"
README_BLOCKS = ("findings", "sensitivity", "catch", "sharing")  # the README's generated blocks


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


def catch_markdown(comparison: pd.DataFrame) -> str:
    """A markdown table of ``misere.tables.published_comparison`` on the left lead: each
    setting's P(caught) with its interval, and the published figure."""
    shown = tables.catch_comparison(comparison[comparison.lead == "left"])
    header = "| " + " | ".join(shown.columns) + " |"
    rule = "|" + "---|" * len(shown.columns)
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in shown.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def readme_blocks() -> dict[str, str]:
    """The README's generated blocks, from the shipped tables (tests/test_readme.py holds the
    README to them)."""
    findings = shipped_findings()
    rates = load_catch_rates()
    blocks = {
        "findings": findings_markdown(findings) + "\n\n" + claim_answer(findings),
        "sensitivity": sensitivity_markdown(pd.read_parquet(shipped(SENSITIVITY))),
        "catch": catch_markdown(published_comparison(table=rates)) + "\n\n" + catch_answer(rates),
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
