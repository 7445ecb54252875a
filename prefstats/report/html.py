"""One self-contained HTML report of a study run: figures embedded, every number from the data.

``build_report(run, out)`` reads the run (``study.load_study``) and its summary, the shipped
tables (catch rates, pairs, the bidders' misère-limit sensitivity) unless others are given, and
the EV table of the run's misères if given, and writes one HTML file: text escaped, PNG figures
inlined, no script, a layout that fits a phone. A section whose table is missing is left out
with a warning naming it (``ReportWarning``). Figures are drawn on ``Figure`` objects of their
own, so building a report changes no matplotlib state.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from prefstats.data import SENSITIVITY_TABLE, shipped
from prefstats.misere.exact import suit_class_probabilities
from prefstats.misere.published import SOURCES
from prefstats.misere.tables import (
    COMMON_HOLDINGS,
    design_rows,
    pair_independence,
    published_comparison,
)
from prefstats.report import plots, tables
from prefstats.report.answers import (
    PLAYED_SETTING,
    PLAYED_SETTINGS_TEXT,
    played_answer,
    played_length_text,
    played_model,
    sharing_answer,
)
from prefstats.studies.catch_information import information_ev
from prefstats.studies.misere_ev import break_even
from prefstats.studies.results import (
    bidder_calibration,
    clean_misere_check,
    suit_class_shares,
    summarize,
)
from prefstats.studies.runs import read_spec
from prefstats.studies.storage import write_atomic
from prefstats.studies.study import load_study
from prefstats.version import __version__

SECTIONS = (
    "claim",
    "exact",
    "bidders",
    "classes",
    "catch",
    "played",
    "pairs",
    "sharing",
    "method",
)
STYLE = """
body { font-family: Georgia, serif; max-width: 52em; margin: 1.5em auto; padding: 0 1em;
       line-height: 1.45; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
.scroll { overflow-x: auto; max-width: 100%;
  /* a shadow at an edge where the table goes on: it shows only while there is more to see */
  background: linear-gradient(to right, #fff 30%, rgba(255,255,255,0)),
              linear-gradient(to left, #fff 30%, rgba(255,255,255,0)) 100% 0,
              radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.25), rgba(0,0,0,0)),
              radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.25), rgba(0,0,0,0)) 100% 0;
  background-repeat: no-repeat; background-size: 2.5em 100%, 2.5em 100%, 1em 100%, 1em 100%;
  background-attachment: local, local, scroll, scroll; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.55em; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; }
th { background: #f3f3f3; }
.verdict { font-size: 1.1em; background: #f5f2e8; padding: 0.8em; border-left: 4px solid #a60; }
.note { color: #555; font-size: 0.92em; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; }
figcaption { font-size: 0.9em; color: #444; }
dl.spec { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em;
          font-size: 0.9em; } dl.spec dd { margin: 0; overflow-wrap: anywhere; }
"""


DPI = 110
PHONE_MEDIA = "(max-width: 40em)"  # the phone layout: a 390-pixel screen is 24 em wide
PHONE_WIDTH, PHONE_HEIGHT = 4.0, 3.2  # inches: 440 pixels, shown at about 360 on a phone
PHONE_TITLE_CHARS = 40  # a title's line on the phone's figure


class ReportWarning(UserWarning):
    """A section of the report was left out, for want of the table it needs."""


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

    ``catch_rates`` (every design: ``misere.tables.load_catch_rates(design=None)``; its
    ``independent`` rows make the catch-rate section, its ``paired`` ones "Misère as played"),
    ``catch_pairs`` (the table of ``misere.tables.pair_independence``) and ``sensitivity``
    (``results.sensitivity``) default to the shipped tables; ``ev_table``
    (``studies.misere_ev``) to none."""
    table = load_study(run)
    spec = read_spec(run)
    summary = summarize(table)
    rates = catch_rates if catch_rates is not None else _shipped("catch_rates")
    if rates is not None and rates.empty:
        rates = None
    inputs = {
        "catch_rates": None if rates is None else design_rows(rates, "independent"),
        "paired catch_rates": None if rates is None else design_rows(rates, "paired"),
        "catch_pairs": catch_pairs if catch_pairs is not None else _shipped_pairs(),
        "sensitivity": sensitivity if sensitivity is not None else _shipped(SENSITIVITY_TABLE),
        "ev_table": ev_table,
    }
    body = "\n".join(_sections(table, spec, summary, inputs))
    out = Path(out)
    write_atomic(  # a full disk leaves no half report behind
        out,
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>prefstats report</title><style>{STYLE}</style></head><body>{body}</body></html>",
    )
    return out


def _sections(
    table: pd.DataFrame, spec: dict[str, Any], summary: pd.DataFrame, inputs: dict[str, Any]
) -> list[str]:
    parts = [
        _header(spec, len(table)),
        _claim(summary),
        _exact(table),
        _bidders(table, summary, inputs["sensitivity"]),
        _classes(table),
    ]
    needs = (
        ("catch", _catch, "catch_rates"),
        ("played", lambda info: _played(info, inputs["catch_rates"]), "paired catch_rates"),
        ("pairs", _pairs, "catch_pairs"),
        ("sharing", _sharing, "ev_table"),
    )
    for name, section, key in needs:
        if inputs[key] is None or not len(inputs[key]):
            warnings.warn(
                f"report: section '{name}' left out: no {key} table", ReportWarning, stacklevel=3
            )
            continue
        parts.append(section(inputs[key]))
    parts.append(_method(spec))
    return parts


def _shipped(name: str) -> pd.DataFrame | None:
    try:
        return pd.read_parquet(shipped(f"{name}.parquet"))
    except ValueError:
        return None


def _shipped_pairs() -> pd.DataFrame | None:
    try:
        return pair_independence()
    except ValueError:
        return None


# --- pieces --------------------------------------------------------------------------------


def _figure(
    draw: Callable[[Figure], None],
    caption: str,
    size: tuple[float, float],
    phone: Callable[[Figure], None] | None = None,
    phone_height: float | None = None,
) -> str:
    """A figure drawn twice: at ``size`` for a wide page, and ``PHONE_WIDTH`` inches wide for a
    phone (``phone`` draws that one, stacking panels; default ``draw``), so that its text
    stays about as large as the page's on a 390-pixel screen (``phone_height`` inches tall,
    default about the page's)."""
    wide = _png(draw, size)
    height = phone_height or max(PHONE_HEIGHT, size[1] * 0.9)
    narrow = _png(phone or draw, (PHONE_WIDTH, height))
    return (
        f"<figure><picture><source media='{PHONE_MEDIA}' srcset='data:image/png;base64,"
        f"{narrow}'><img alt='{_e(caption)}' src='data:image/png;base64,{wide}'></picture>"
        f"<figcaption>{_e(caption)}</figcaption></figure>"
    )


def _png(draw: Callable[[Figure], None], size: tuple[float, float]) -> str:
    fig = Figure(figsize=size, layout="constrained")
    draw(fig)
    if size[0] <= PHONE_WIDTH:  # a long title would run off a phone's narrow figure
        for ax in fig.axes:
            ax.set_title(textwrap.fill(ax.get_title(), PHONE_TITLE_CHARS))
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _on_axes(draw: Callable[[Any], None]) -> Callable[[Figure], None]:
    return lambda fig: draw(fig.subplots())


def _table(frame: pd.DataFrame) -> str:
    """An HTML table, every cell escaped; columns of numbers (digits, %, ×) aligned right."""
    right = [bool(len(frame)) and all(_numeric(v) for v in frame[c]) for c in frame.columns]
    head = "".join(
        f"<th{_align(r)}>{_e(c)}</th>" for c, r in zip(frame.columns, right, strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(f"<td{_align(r)}>{_e(v)}</td>" for v, r in zip(row, right, strict=True))
        + "</tr>"
        for row in frame.itertuples(index=False)
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f"<div class='scroll'>{table}</div>"


def _numeric(value: object) -> bool:
    text = str(value).split(" (")[0].replace(",", "").rstrip("%×").lstrip("+−-")
    return text.replace(".", "", 1).isdigit() or text in ("—", "")


def _align(right: bool) -> str:
    return " class='num'" if right else ""


def _value_text(key: str, value: object) -> str:
    """A run setting for reading: yes/no, none, counts with thousands separators (not seeds)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, int) and "seed" not in key:
        return f"{value:,}"
    return str(value)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _p(text: str, css: str = "") -> str:
    return f"<p class='{css}'>{_e(text)}</p>" if css else f"<p>{_e(text)}</p>"


# --- sections ------------------------------------------------------------------------------


def _header(spec: dict[str, Any], n: int) -> str:
    what = (
        f"{n:,} deals of seed {spec.get('seed')}; rule set {spec.get('rules')}, evaluator "
        f"{spec.get('evaluator')}, discard {spec.get('discard')}; prefstats {__version__}; "
        f"written {dt.date.today()}."
    )
    size = (
        f"This report is of a run of {n:,} deals; its figures carry that run's sampling "
        "error. The README's figures come from the tables shipped with the package "
        "(prefstats/data: 10^6-deal runs), so they differ from these by sampling error and "
        "by any setting that differs."
    )
    return (
        "<h1>Preferans statistics: nine-trick games, misère, and sharing it</h1>"
        + _p(what)
        + _p(size, "note")
    )


def _claim(summary: pd.DataFrame) -> str:
    text = [
        "<h2 id='claim'>The Codex claim</h2>",
        _p(
            "Codex note 40: a nine-trick game is, by statistics and probability theory, a "
            "considerably rarer event than misère. A nine here is a contract of nine or ten "
            "tricks, in every measure. Three measures: "
            + "; ".join(
                f"{plots.MEASURE_LABELS[m]}: {tables.MEASURE_TEXT[m]}"
                for m in plots.MEASURE_LABELS
                if m in set(summary.measure)
            )
            + "."
        ),
        _p(summary.attrs["verdict"], "verdict"),
        _table(tables.ratios(summary)),
        _table(tables.headline(summary)),
        _figure(
            _on_axes(lambda ax: plots.nine_vs_misere(summary, ax)),
            "Share of deals with a nine (9 or 10 tricks) and with misère, by measure; "
            "bars are 95% Wilson intervals.",
            (7, 3.6),
        ),
    ]
    return "\n".join(text)


def _exact(table: pd.DataFrame) -> str:
    return "\n".join(
        [
            "<h2 id='exact'>Clean misère, exactly</h2>",
            _p(
                "The chance that a random ten-card hand is a misère that cannot be caught "
                "depends on what is called clean. Each definition with its exact probability "
                "(generating functions over the 256 holdings of a suit) and, beside it, the share "
                "of this run's dealt hands it counts (every seat's ten cards before the talon)."
            ),
            _table(tables.clean_misere(clean_misere_check(table))),
        ]
    )


def _bidders(table: pd.DataFrame, summary: pd.DataFrame, sensitivity: pd.DataFrame | None) -> str:
    passed = summary[(summary.measure == "played") & (summary.event == "all-pass")].iloc[0]
    text = ["<h2 id='bidders'>What the bidders decide</h2>"]
    all_pass = tables.share_text(float(passed.estimate), float(passed.low), float(passed.high))
    line = f"All three players passed in {all_pass} of the deals. "
    game = summary[(summary.measure == "potential") & (summary.event == "any game")]
    if len(game):
        row = game.iloc[0]
        line += (
            f"Yet in {tables.share_text(row.estimate, row.low, row.high)} some seat could "
            "make a six or more double-dummy. "
        )
    line += (
        "The heuristic bidders bid only what they count (tricks counted as players count "
        "them, plus one expected from the talon) and misère only below a risk limit, so "
        "what is played measures the bidders as much as the cards; the dealt potential "
        "does not depend on them."
    )
    text += [
        _p(line),
        _figure(
            _on_axes(lambda ax: plots.contract_frequencies(summary, ax)),
            "Every contract as played after the talon, share of deals (log scale), 95% intervals.",
            (8, 3.8),
        ),
    ]
    calibration = bidder_calibration(table)
    text += [
        "<h3>Calibration</h3>",
        _p(
            "Each contract the bidders played, solved double-dummy with the first hand leading: "
            "how often it was made, by level; misères by the bidders' own estimate of the catch "
            "probability, against how often they were caught."
        ),
        _table(tables.calibration(calibration)),
    ]
    if (calibration.outcome == "caught").any():
        text.append(
            _figure(
                _on_axes(lambda ax: plots.calibration(calibration, ax)),
                "Misères as bid: the share caught (95% intervals) against the "
                "bidders' estimate; a calibrated estimate lies on the diagonal.",
                (5.5, 4),
            )
        )
    if sensitivity is not None and len(sensitivity):
        text += [
            "<h3>How much the misère risk limit decides</h3>",
            _p(
                "The same deals played with the bidders' misère risk limit set from 'none' "
                "(only hands with no catchable suit) to 0.5; from the shipped sensitivity "
                "table, a run of its own."
            ),
            _table(tables.sensitivity(sensitivity)),
            _figure(
                _on_axes(lambda ax: plots.sensitivity(sensitivity, ax)),
                "Misère / nine as played, by the bidders' misère risk limit (95% intervals).",
                (7, 3.6),
            ),
        ]
    else:
        warnings.warn(
            "report: the sensitivity part left out: no sensitivity table",
            ReportWarning,
            stacklevel=3,
        )
    return "\n".join(text)


def _classes(table: pd.DataFrame) -> str:
    exact = pd.Series({c.label: float(p) for c, p in suit_class_probabilities().items()})
    simulated = suit_class_shares(table)
    shown = pd.DataFrame(
        {
            "class": [label.replace("_", " ") for label in simulated.index],
            "exact": [f"{p:.4f}" for p in exact.reindex(simulated.index)],
            "this run's suits (95% CI)": [
                tables.share_text(s, lo, hi)
                for s, lo, hi in zip(simulated.share, simulated.low, simulated.high, strict=True)
            ],
        }
    )
    return "\n".join(
        [
            "<h2 id='classes'>Misère suit classes</h2>",
            _p(
                "How often one suit of a dealt ten-card hand is clean, conditionally clean, "
                "catchable or void: exactly, and over every suit of every hand of this run."
            ),
            _table(shown),
            _figure(
                _on_axes(lambda ax: plots.class_probabilities(exact, simulated, ax)),
                "One suit of a dealt hand by misère class: exact (bars) and this run's "
                "(points, 95% intervals).",
                (6.5, 3.6),
            ),
        ]
    )


def _catch(rates: pd.DataFrame) -> str:
    comparison = published_comparison(table=rates) if "setting" in rates else None
    text = [
        "<h2 id='catch'>How often a misère is caught</h2>",
        _p(
            "A holding's catch rate depends on what else the declarer holds, so it is measured in "
            "three settings, each with the exact solver on random layouts, two cards out of play "
            "and the other twenty split at random: clean-sides (random clean suits elsewhere), "
            "lowest-sides (the lowest cards elsewhere, the textbook setting) and as-dealt "
            "(misère hands as the deals of a study give them, after the heuristic discard, with "
            "exactly one catchable suit). Own lead: the declarer leads to the first trick; left "
            "or right: the defender after or before him does."
        ),
    ]
    if comparison is not None:
        text += [
            _table(tables.catch_comparison(comparison)),
            _p(
                "Published figures are from " + "; ".join(SOURCES.values()) + ": round "
                "percentages with no derivation, the lead named for three holdings only, no "
                "talon or discard; they sit closest to the lowest-sides setting's defenders' lead "
                "for one-card holdings and fall between the settings elsewhere.",
                "note",
            ),
            _figure(
                lambda fig: plots.catch_settings(rates, fig, COMMON_HOLDINGS),
                "Each catchable holding of one to four cards: P(caught) on the defenders' "
                "lead in the lowest-sides and as-dealt settings against clean-sides.",
                (9, 3.2),
                lambda fig: plots.catch_settings(rates, fig, COMMON_HOLDINGS, 2),
            ),
        ]
    return "\n".join(text)


def _played(info: pd.DataFrame, rates: pd.DataFrame | None) -> str:
    info = information_ev(info)
    published = published_comparison(table=rates) if rates is not None and len(rates) else None
    return "\n".join(
        [
            "<h2 id='played'>Misère as played</h2>",
            _p(
                "Every catch rate above is open play: the catchers see the declarer's two "
                "discards, and a declarer on lead sees every card before he leads. By the rules "
                "nobody sees the discards, and a declarer on lead leads blind (Codex 3.6.6). "
                + played_model(info)
            ),
            _table(tables.played_comparison(info, COMMON_HOLDINGS, PLAYED_SETTING, published)),
            _p(
                "Solo EV: whists a deal to the declarer, four players, Sochi scoring; “saved”: "
                "open catches that the low end of the bracket does not make, on the same "
                "layouts.",
                "note",
            ),
            _table(tables.played_by_setting(info, COMMON_HOLDINGS)),
            _p(PLAYED_SETTINGS_TEXT),
            _table(tables.played_by_length(info, PLAYED_SETTING)),
            _p(played_length_text(PLAYED_SETTING)),
            _p(played_answer(info)),
            _figure(
                lambda fig: plots.played(info, fig, COMMON_HOLDINGS, PLAYED_SETTING),
                "The ten published holdings: P(caught) in open play, at the two ends of the "
                "as-played bracket (the band) and by the estimate, with 95% intervals, and the "
                "floor.",
                (9, 3.6),
                lambda fig: plots.played(info, fig, COMMON_HOLDINGS, PLAYED_SETTING, True),
                phone_height=5.4,
            ),
        ]
    )


def _pairs(table: pd.DataFrame) -> str:
    by_lead = (
        table.groupby("lead", sort=False)
        .agg(
            pairs=("n", "size"),
            layouts_each=("n", "min"),
            mean_measured=("p_caught", "mean"),
            mean_product=("p_independent", "mean"),
            mean_abs_difference=("difference", lambda d: d.abs().mean()),
            product_inside_95=("inside", "mean"),
        )
        .reset_index()
    )
    for column in ("mean_measured", "mean_product", "mean_abs_difference"):
        by_lead[column] = by_lead[column].map("{:.3f}".format)
    by_lead["product_inside_95"] = by_lead["product_inside_95"].map("{:.1%}".format)
    for column in ("pairs", "layouts_each"):
        by_lead[column] = by_lead[column].map("{:,}".format)
    by_lead.columns = [
        "lead",
        "pairs",
        "layouts a pair",
        "mean measured",
        "mean product rule",
        "mean |difference|",
        "product inside the 95% CI",
    ]
    worst = table.reindex(table.difference.abs().sort_values(ascending=False).index).head(6)
    shown = pd.DataFrame(
        {
            "pair": [f"{a} + {b}" for a, b in zip(worst.holding_a, worst.holding_b, strict=True)],
            "lead": worst.lead,
            "measured (95% CI)": [
                tables.share_text(p, lo, hi)
                for p, lo, hi in zip(
                    worst.p_caught, worst.p_caught_low, worst.p_caught_high, strict=True
                )
            ],
            "product rule": worst.p_independent.map("{:.3f}".format),
        }
    )
    return "\n".join(
        [
            "<h2 id='pairs'>Two catchable suits</h2>",
            _p(
                "Every pair of catchable holdings of up to three cards (clean-sides setting), "
                "against the product rule 1 − (1 − p_a)(1 − p_b) of the single-suit rates that the "
                "bidders use for a whole hand."
            ),
            _table(by_lead),
            _p("The pairs furthest from the product rule:"),
            _table(shown),
            _figure(
                _on_axes(lambda ax: plots.pair_independence(table, ax)),
                "Two catchable suits, left defender leading: measured P(caught) against the "
                "product of the single-suit rates.",
                (6, 5),
            ),
        ]
    )


def _sharing(ev_table: pd.DataFrame) -> str:
    p = break_even(ev_table)
    return "\n".join(
        [
            "<h2 id='sharing'>Solo or shared misère</h2>",
            _p(sharing_answer(ev_table)),
            _table(tables.misere_ev_summary(ev_table)),
            _figure(
                _on_axes(lambda ax: plots.misere_ev(ev_table, ax, (p.estimate, p.low, p.high))),
                "Each misère: the declarer's solo EV and each partner's EV when shared, against "
                "its catch probability; the band is the break-even with its interval.",
                (7, 4.2),
            ),
        ]
    )


def _method(spec: dict[str, Any]) -> str:
    items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(_value_text(k, v))}</dd>" for k, v in spec.items())
    return "\n".join(
        [
            "<h2 id='method'>Method</h2>",
            _p(
                "Deals are uniform (a counter-based random stream; deal i of a seed is always the "
                "same deal). Each seat's evaluator gives its highest bid; the auction follows the "
                "Codex (misère only as a first bid, beaten only by a nine, note 40's tournament "
                "stop). The declarer takes the talon, discards and names his contract; the played "
                "contract is solved double-dummy with the first hand leading. Intervals are Wilson "
                "95% for shares and delta-method for ratios. The rules as modelled are in "
                "docs/rules.md of the package's source."
            ),
            f"<dl class='spec'>{items}</dl>",
        ]
    )
