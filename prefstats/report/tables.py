"""Tables for reading: the studies' results with numbers formatted (thousands separators,
percentages with their intervals, ratios in their own column) and one sentence of assumptions
each; the report prints them and the notebooks show them.

>>> share_text(0.0421, 0.0417, 0.0425)
'4.21% (4.17–4.25%)'
>>> ratio_text(2.1712, 2.14, 2.21)
'2.17× (2.14–2.21)'
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from prefstats.report.plots import MEASURE_LABELS

EVENT_LABELS = {
    "nine": "nine (9 or 10 tricks)",
    "nine only": "nine only (exactly 9)",
    "ten": "ten",
    "misère": "misère",
    "all-pass": "all-pass",
    "any game": "any game (6 or more tricks)",
}
MEASURE_TEXT = {
    "bid": "the auction's winning bid, heuristic bidders",
    "played": "the contract named after the talon, heuristic bidders",
    "potential": "some seat makes it double-dummy with the talon and its best discard, the "
    "first hand leading (misère: takes no trick)",
}


def share_text(share: float, low: float, high: float) -> str:
    """A share with its interval, as percentages to three significant figures (of the share,
    or of the upper bound when the share is 0), at most four decimals.

    >>> share_text(0.0, 0.0, 0.0094)
    '0% (0–0.940%)'
    """
    if not np.isfinite(share):
        return "—"
    scale = share if share > 0 else high
    digits = min(4, max(0, 2 - int(np.floor(np.log10(max(scale * 100, 1e-9))))))
    if share == 0:
        return f"0% (0–{high:.{digits}%})"
    return f"{share:.{digits}%} ({low * 100:.{digits}f}–{high:.{digits}%})"


def percent_text(p: float, significant: int = 3) -> str:
    """A probability as a percentage to ``significant`` figures, never in e-notation.

    >>> percent_text(6.268e-04), percent_text(0.25), percent_text(0.0), percent_text(1.2e-7)
    ('0.0627%', '25.0%', '0%', '0.0000120%')
    """
    if p == 0 or not np.isfinite(p):
        return "0%" if p == 0 else "—"
    digits = max(0, significant - 1 - int(np.floor(np.log10(abs(p) * 100))))
    return f"{p * 100:.{digits}f}%"


def ratio_text(ratio: float, low: float, high: float) -> str:
    """A ratio with its interval."""
    return f"{ratio:.2f}× ({low:.2f}–{high:.2f})" if np.isfinite(ratio) else "—"


def headline(summary: pd.DataFrame, events: tuple[str, ...] = tuple(EVENT_LABELS)) -> pd.DataFrame:
    """The shares of deals with a nine, misère and the other headline events, per measure."""
    rows = summary[(summary.kind == "share") & summary.event.isin(events)]
    return pd.DataFrame(
        {
            "measure": [MEASURE_LABELS.get(m, m) for m in rows.measure],
            "event": [EVENT_LABELS[e] for e in rows.event],
            "deals": [f"{c:,}" for c in rows["count"]],
            "of": [f"{n:,}" for n in rows.n],
            "share of deals (95% CI)": [
                share_text(*v) for v in rows[["estimate", "low", "high"]].itertuples(index=False)
            ],
        }
    )


def ratios(summary: pd.DataFrame) -> pd.DataFrame:
    """The misère-to-nine ratio per measure, a nine being 9 or 10 tricks."""
    rows = summary[summary.kind == "ratio"]
    nines = summary[(summary.kind == "share") & (summary.event == "nine")].set_index("measure")
    return pd.DataFrame(
        {
            "measure": [MEASURE_LABELS.get(m, m) for m in rows.measure],
            "misères": [f"{c:,}" for c in rows["count"]],
            "nines": [f"{int(nines.loc[m, 'count']):,}" for m in rows.measure],
            "deals": [f"{n:,}" for n in rows.n],
            "misère / nine (95% CI)": [
                ratio_text(*v) for v in rows[["estimate", "low", "high"]].itertuples(index=False)
            ],
        }
    )


def sensitivity(table: pd.DataFrame) -> pd.DataFrame:
    """``results.sensitivity`` for a reader: per misère risk limit, the played nines (9 or 10
    tricks) and misères, their ratio and the share of misères caught, with 95% intervals."""
    return pd.DataFrame(
        {
            "risk limit": table.label,
            "deals": [f"{n:,}" for n in table.n],
            "nines (9 or 10)": [f"{n:,}" for n in table.nine],
            "misères": [f"{n:,}" for n in table.misere],
            "misère / nine (95% CI)": [
                ratio_text(r, lo, hi)
                for r, lo, hi in zip(table.ratio, table.ratio_low, table.ratio_high, strict=True)
            ],
            "misères caught (95% CI)": [
                share_text(r, lo, hi)
                for r, lo, hi in zip(
                    table.caught_rate, table.caught_low, table.caught_high, strict=True
                )
            ],
        }
    )


def calibration(table: pd.DataFrame) -> pd.DataFrame:
    """``results.bidder_calibration`` for reading."""
    return pd.DataFrame(
        {
            "contracts": table.what,
            "played": [f"{n:,}" for n in table.n],
            "bidders' mean estimate of P(caught)": [
                "—" if not np.isfinite(e) else f"{e:.3f}" for e in table.mean_estimate
            ],
            "outcome, double-dummy (95% CI)": [
                f"{o} {share_text(s, lo, hi)}"
                for o, s, lo, hi in zip(
                    table.outcome, table.share, table.low, table.high, strict=True
                )
            ],
        }
    )


def clean_misere(check: pd.DataFrame) -> pd.DataFrame:
    """``results.clean_misere_check`` for reading: each definition, its exact probability and
    the share of the run's dealt hands."""
    return pd.DataFrame(
        {
            "a clean misère, defined as": [
                f"{n}: {d}" for n, d in zip(check.name, check.definition, strict=True)
            ],
            "exact probability": [
                f"{f} ≈ {percent_text(p)}"
                for f, p in zip(check.fraction, check.probability, strict=True)
            ],
            "dealt hands of the run (95% CI)": [
                f"{c:,} of {n:,}: {percent_text(s)} ({percent_text(lo)}–{percent_text(hi)})"
                for c, n, s, lo, hi in zip(
                    check["count"], check.hands, check.share, check.low, check.high, strict=True
                )
            ],
        }
    )


def catch_comparison(table: pd.DataFrame) -> pd.DataFrame:
    """``misere.tables.published_comparison`` for reading: P(caught) of each setting with its
    interval (as-dealt marked when pooled by length), then the published figure."""
    out = pd.DataFrame({"holding": table.holding, "lead": table.lead})
    for setting in ("clean-sides", "lowest-sides", "as-dealt"):
        if setting not in table:
            continue
        cells = []
        for p, interval, pooled in zip(
            table[setting],
            table[f"{setting} 95% CI"],
            table.get(f"{setting} pooled", [False] * len(table)),
            strict=True,
        ):
            mark = " pooled" if pooled is True else ""
            cells.append("—" if pd.isna(p) else f"{p:.3f} ({interval}){mark}")
        out[setting] = cells
    out["published"] = [
        f"{p} ({lead})" if p else "—"
        for p, lead in zip(table.published, table["published lead"], strict=True)
    ]
    return out


def misere_ev_summary(ev_table: pd.DataFrame) -> pd.DataFrame:
    """The misères of an EV table by hand class: how many, their mean P(caught), mean solo and
    shared EV (whists, four players, Sochi) and how often a risk-neutral dealer accepts."""
    groups = ev_table.groupby("class")
    out = pd.DataFrame(
        {
            "hands": groups.size().map("{:,}".format),
            "mean P(caught)": groups.p_caught.mean().map("{:.3f}".format),
            "mean solo EV": groups.solo_ev.mean().map("{:+.1f}".format),
            "mean shared EV (each partner)": groups.shared_ev.mean().map("{:+.1f}".format),
            "dealer accepts": groups.dealer_accepts.mean().map("{:.1%}".format),
        }
    )
    out.index = out.index.str.replace("_", " ")
    return out.rename_axis("hand class").reset_index()


PLAYED_LEADS = ("own", "left")  # the declarer's lead, and a defender's (right is alike)


def played_comparison(
    info: pd.DataFrame,
    holdings: tuple[str, ...],
    setting: str = "lowest-sides",
    published: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The ``paired`` rows of ``catch_rates`` with their EV columns (``studies.catch_information
    .information_ev``) for reading: for each holding and lead, P(caught) in open play with
    its interval, the as-played bracket [low, high] with the low end's interval, the estimate
    inside it with its interval, the floor, the
    open catches the low end saves (of how many), the solo EV in whists under open play and at
    the bracket's ends, and the published figure if ``published`` (``misere.tables
    .published_comparison``) is given."""
    rows = []
    for text in holdings:
        for lead in PLAYED_LEADS:
            part = info[(info.setting == setting) & (info.holding == text) & (info.lead == lead)]
            if part.empty:
                continue
            by = part.set_index("information")
            low, high, open_ = by.loc["as played low"], by.loc["as played high"], by.loc["open"]
            estimate = by.loc["estimate"]
            rows.append(
                {
                    "holding": text,
                    "lead": lead,
                    "open": f"{open_.p_caught:.3f} ({open_.p_caught_low:.3f}–"
                    f"{open_.p_caught_high:.3f})",
                    "as played": f"{low.p_caught:.3f}–{high.p_caught:.3f}",
                    "low end 95% CI": f"{low.p_caught_low:.3f}–{low.p_caught_high:.3f}",
                    "estimate": f"{estimate.p_caught:.3f} ({estimate.p_caught_low:.3f}–"
                    f"{estimate.p_caught_high:.3f})",
                    "floor": f"{by.loc['hidden floor'].p_caught:.3f}",
                    "open catches saved": f"{_count(by, 'as played low', 'saved'):,} of "
                    f"{_count(by, 'open', 'caught'):,}",
                    "solo EV open": f"{open_.solo_ev:+.0f}",
                    "solo EV as played": f"{min(low.solo_ev, high.solo_ev):+.0f} … "
                    f"{max(low.solo_ev, high.solo_ev):+.0f}",
                }
            )
    shown = pd.DataFrame(rows)
    if published is not None:
        figures = published.set_index(["holding", "lead"])
        shown["published"] = [
            f"{text} ({figures.at[key, 'published lead']!s})" if text else "—"
            for key in zip(shown.holding, shown.lead, strict=True)
            for text in [str(figures.at[key, "published"])]
        ]
    return shown


def played_by_setting(info: pd.DataFrame, holdings: tuple[str, ...]) -> pd.DataFrame:
    """The ``holdings`` of the ``paired`` rows of ``catch_rates`` pooled, for each setting and
    lead (own, left): the layouts, the catches in open play, at the two ends of the as-played
    bracket, by the estimate and at the floor (count, and share with its 95% interval:
    ``pooled_share``), the open catches the low end saves and the catches the blind lead adds."""
    rows = []
    part = info[info.holding.isin(holdings)]
    for setting in part.setting.unique():
        for lead in PLAYED_LEADS:
            mine = part[(part.setting == setting) & (part.lead == lead)]
            row = {
                "setting": setting,
                "lead": lead,
                "layouts": f"{int(mine[mine.information == 'open'].n.sum()):,}",
            }
            for label, model in PLAYED_MODELS.items():
                held = mine[mine.information == model]
                row[label] = f"{int(held.caught.sum()):,}: {pooled_share(held)}"
            saved = mine[mine.information == "as played low"].saved.sum()
            added = mine[mine.information == "blind lead"].added.sum()
            row["open catches saved"] = f"{int(saved):,}"
            row["added by the blind lead"] = f"{int(added):,}"
            rows.append(row)
    return pd.DataFrame(rows)


PLAYED_MODELS = {  # column label: information model, for the pooled as-played tables
    "open": "open",
    "as played low": "as played low",
    "as played high": "as played high",
    "estimate": "estimate",
    "floor": "hidden floor",
}


def pooled_share(held: pd.DataFrame) -> str:
    """P(caught) of some ``paired`` rows of ``catch_rates`` pooled, each weighing its
    layouts, with its 95% interval: the variance is the sum of the rows' own (their layouts are
    disjoint), read off their intervals, which are taken over hands; normal ends, within [0, 1].

    >>> rows = pd.DataFrame({"n": [100, 300], "p_caught": [0.2, 0.6],
    ...                      "p_caught_low": [0.1, 0.56], "p_caught_high": [0.3, 0.64]})
    >>> pooled_share(rows)
    '0.500 (0.461–0.539)'
    """
    weight = held.n / held.n.sum()
    share = float((weight * held.p_caught).sum())
    half_widths = (held.p_caught_high - held.p_caught_low) / 2
    half = float(np.sqrt(((weight * half_widths) ** 2).sum()))
    return f"{share:.3f} ({max(share - half, 0):.3f}–{min(share + half, 1):.3f})"


def played_by_length(info: pd.DataFrame, setting: str = "lowest-sides") -> pd.DataFrame:
    """The catchable holdings of the ``paired`` rows of ``catch_rates`` pooled by length, for
    each lead (own, left), in ``setting``: how many holdings and layouts, and P(caught) under
    each model with its 95% interval (``pooled_share``)."""
    part = info[(info.setting == setting) & (info.suit_class == "catchable")]
    rows = []
    for length, lead in itertools.product(sorted(part.n_cards.unique()), PLAYED_LEADS):
        mine = part[(part.n_cards == length) & (part.lead == lead)]
        if mine.empty:
            continue
        row = {
            "cards": int(length),
            "lead": lead,
            "holdings": f"{mine.holding.nunique()}",
            "layouts": f"{int(mine[mine.information == 'open'].n.sum()):,}",
        }
        for label, model in PLAYED_MODELS.items():
            row[label] = pooled_share(mine[mine.information == model])
        rows.append(row)
    return pd.DataFrame(rows)


def _count(by_model: pd.DataFrame, model: str, column: str) -> int:
    return int(str(by_model.at[model, column]))
