"""One self-contained HTML report of a study run: figures embedded, every number from the data.

``build_report(run, out)`` reads the run (``study.load_study``), its summary
(``results.summarize``), the shipped catch-rate table and, if given, the EV table of the bid
misères, and writes one HTML file with PNG figures inlined as base64.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from prefstats.game.cards import holdings
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.exact import p_clean_misere, suit_class_probabilities
from prefstats.report import plots
from prefstats.stats import wilson_interval
from prefstats.studies.results import summarize
from prefstats.studies.runs import read_spec
from prefstats.studies.study import load_study
from prefstats.version import __version__

HEADLINE_EVENTS = ["nine", "ten", "nine or ten", "misère", "all-pass", "misère / nine"]
STYLE = """
body { font-family: Georgia, serif; max-width: 60em; margin: 2em auto; line-height: 1.45; }
table { border-collapse: collapse; font-size: 0.85em; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
.verdict { font-size: 1.15em; background: #f5f2e8; padding: 0.8em; border-left: 4px solid #a60; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #444; }
"""


def build_report(
    run: str | Path,
    out: str | Path,
    *,
    catch_rates: pd.DataFrame | None = None,
    catch_pairs: pd.DataFrame | None = None,
    ev_table: pd.DataFrame | None = None,
    sensitivity: pd.DataFrame | None = None,
) -> Path:
    """Write the report of ``run`` to ``out`` (one HTML file); returns its path.

    ``catch_pairs`` is the table of ``catch.pair_independence``, ``sensitivity`` that of
    ``results.sensitivity`` over the bidders' misère risk limit."""
    table = load_study(run)
    spec = read_spec(run)
    summary = summarize(table)
    sections = [
        _header(spec, len(table)),
        _claim(summary),
        *([_sensitivity(sensitivity)] if sensitivity is not None else []),
        _contracts(summary),
        _suit_classes(table),
    ]
    if catch_rates is not None:
        sections.append(_catch(catch_rates))
    if catch_pairs is not None:
        sections.append(_pairs(catch_pairs))
    if ev_table is not None and len(ev_table):
        sections.append(_ev(ev_table))
    sections.append(_method(spec))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    body = "\n".join(sections)
    out.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>prefstats report</title>"
        f"<style>{STYLE}</style></head><body>{body}</body></html>",
        encoding="utf-8",
    )
    return out


def headline(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows of the summary the report opens with (nine, ten, misère, all-pass, ratio)."""
    return summary[summary.event.isin(HEADLINE_EVENTS)].reset_index(drop=True)


def _figure(draw: Callable[[Any], None], caption: str, size: tuple[float, float] = (7, 3.6)) -> str:
    fig, ax = plt.subplots(figsize=size)
    draw(ax)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (f"<figure><img alt='{html.escape(caption)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")  # fmt: skip


def _table(frame: pd.DataFrame, digits: int = 5) -> str:
    return frame.to_html(index=False, float_format=lambda x: f"{x:.{digits}g}", border=0)


def _header(spec: dict[str, Any], n: int) -> str:
    rules, evaluator, discard, seed = (
        html.escape(str(spec.get(key))) for key in ("rules", "evaluator", "discard", "seed")
    )
    return (
        "<h1>Preferans statistics: nine-trick games, misère, and sharing it</h1>"
        f"<p>{n:,} deals; rule set <b>{rules}</b>, evaluator <b>{evaluator}</b>, discard "
        f"<b>{discard}</b>, seed {seed}; prefstats {__version__}; written {dt.date.today()}.</p>"
    )


def _claim(summary: pd.DataFrame) -> str:
    per_hand = float(p_clean_misere())
    per_deal = 1 - (1 - per_hand) ** 3  # three hands; dependence between hands is negligible
    return (
        "<h2>The Codex claim</h2><p>Codex note 40: a nine-trick game is, by statistics and "
        "probability theory, a considerably rarer event than misère. Three ways to count: the "
        "auction's winning bid, the contract played after the talon, and the dealt potential "
        "(some seat makes it double-dummy with the talon and its best discard).</p>"
        f"<p class='verdict'>{html.escape(summary.attrs['verdict'])}</p>"
        + _table(headline(summary))
        + _figure(
            lambda ax: plots.nine_vs_misere(summary, ax),
            "Share of deals with a nine (a nine or ten, for potential) and with misère, "
            "by how they are counted; bars are 95% Wilson intervals.",
        )
        + f"<p>Exact combinatorics: a ten-card hand is a structurally clean misère (no "
        f"catchable suit, at least one clean suit) with probability {per_hand:.3e}; some hand "
        f"of a deal, about {per_deal:.3e}.</p>"
    )


def _contracts(summary: pd.DataFrame) -> str:
    return "<h2>Contract frequencies</h2>" + _figure(
        lambda ax: plots.contract_frequencies(summary, ax),
        "Every contract as played after the talon, share of deals (log scale), 95% intervals.",
        (8, 3.8),
    )


def simulated_class_frequencies(table: pd.DataFrame) -> pd.DataFrame:
    """Suit-class frequencies over all suits of all dealt hands of the run, with intervals."""
    hands = table[["first", "second", "third"]].to_numpy().ravel()
    codes = class_codes()[holdings(hands)].ravel()
    counts = np.bincount(codes, minlength=len(SuitClass))
    low, high = wilson_interval(counts, codes.size)
    index = [c.label for c in SuitClass]
    return pd.DataFrame(
        {"count": counts, "frequency": counts / codes.size, "low": low, "high": high}, index=index
    )


def _suit_classes(table: pd.DataFrame) -> str:
    exact = pd.Series({c.label: float(p) for c, p in suit_class_probabilities().items()})
    simulated = simulated_class_frequencies(table)
    both = simulated.assign(exact=exact.reindex(simulated.index)).reset_index(names="class")
    return (
        "<h2>Misère suit classes</h2>"
        + _table(both)
        + _figure(
            lambda ax: plots.class_probabilities(exact, simulated, ax),
            "Probability that one suit of a dealt hand is clean, conditionally clean, catchable or "
            "void: exact (bars) and from this run's deals (points, 95% intervals).",
        )
    )


def _catch(rates: pd.DataFrame) -> str:
    heads = rates[rates.text.isin(["7 10", "7 J", "8", "9", "8 9"])]
    columns = [c for c in ("text", "lead", "n", "p_caught", "p_caught_low", "p_caught_high",
                           "mean_tricks") if c in heads]  # fmt: skip
    return (
        "<h2>How often a misère is caught</h2>"
        + _table(heads[columns])
        + _figure(
            lambda ax: plots.catch_heatmap(rates, ax),
            "P(caught) of each catchable holding with clean suits elsewhere, by who leads first.",
            (6, 9),
        )
    )


def _sensitivity(table: pd.DataFrame) -> str:
    columns = ["label", "n", "nine", "misere", "ratio", "ratio_low", "ratio_high", "caught",
               "caught_rate", "caught_low", "caught_high"]  # fmt: skip
    return (
        "<h3>How much the bidders decide it</h3><p>Dealt potential does not depend on how "
        "players bid; what is played does. The heuristic bidders bid misère when their estimated "
        "catch probability is at most a risk limit; the same deals are played for each limit "
        "('none': only hands with no catchable suit). Columns: nines and misères played, their "
        "ratio with its 95% interval, and how many of the played misères were caught.</p>"
        + _table(table[columns], 4)
        + _figure(lambda ax: plots.sensitivity(table, ax),
                  "Misère / nine as played, by the bidders' misère risk limit (95% intervals).")
    )  # fmt: skip


def _pairs(table: pd.DataFrame) -> str:
    by_lead = table.groupby("lead", sort=False).agg(
        pairs=("n", "size"), layouts_each=("n", "min"), mean_measured=("p_caught", "mean"),
        mean_independent=("p_independent", "mean"),
        mean_abs_difference=("difference", lambda d: d.abs().mean()),
        share_inside_95=("inside", "mean"),
    ).reset_index()  # fmt: skip
    worst = table.reindex(table.difference.abs().sort_values(ascending=False).index).head(6)
    columns = ["text_a", "text_b", "lead", "n", "p_caught", "p_caught_low", "p_caught_high",
               "p_independent"]  # fmt: skip
    return (
        "<h3>Two catchable suits</h3><p>Every pair of catchable holdings of up to three cards "
        "(clean suits elsewhere), measured with the solver, against the product rule "
        "1 − (1 − p<sub>a</sub>)(1 − p<sub>b</sub>) of the single-suit rates that the bidders "
        "use for a whole hand.</p>"
        + _table(by_lead, 4)
        + "<p>The pairs furthest from the product rule:</p>"
        + _table(worst[columns], 4)
        + _figure(lambda ax: plots.pair_independence(table, ax),
                  "Two catchable suits, left defender leading: measured P(caught) against "
                  "the product of the single-suit rates.", (6, 5))
    )  # fmt: skip


def _ev(ev_table: pd.DataFrame) -> str:
    accept = float(ev_table.dealer_accepts.mean())
    return (
        "<h2>Solo or shared misère</h2>"
        f"<p>{len(ev_table):,} misères bid in this run, judged before the talon. A "
        f"risk-neutral dealer accepts an invitation exactly when the solo EV is positive: "
        f"{accept:.1%} of them. Mean solo EV {ev_table.solo_ev.mean():+.1f} whists.</p>"
        + _figure(lambda ax: plots.ev_scatter(ev_table, ax),
                  "Each bid misère: solo EV (4 players, Sochi) against its catch probability.")
    )  # fmt: skip


def _method(spec: dict[str, Any]) -> str:
    return (
        "<h2>Method</h2><p>Deals are uniform (one unbiased draw per deal, unranked exactly). "
        "Each seat's evaluator gives its highest bid; the auction follows the Codex (misère "
        "only as a first bid, beaten only by a nine, note 40's tournament stop). The declarer "
        "takes the talon, discards and names his contract; the played contract is solved "
        "double-dummy with the first hand leading. Intervals are Wilson 95% for shares and "
        "delta-method for ratios.</p>"
        f"<pre>{html.escape(str(spec))}</pre>"
    )
