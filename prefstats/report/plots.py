"""Figures, each drawn into a given matplotlib Axes (the report and the notebooks share them).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> import pandas as pd
>>> summary = pd.DataFrame({"measure": ["played", "played"], "event": ["nine", "misère"],
...     "count": [10, 5], "n": [1000, 1000], "frequency": [0.01, 0.005],
...     "low": [0.005, 0.002], "high": [0.018, 0.012]})
>>> fig, ax = plt.subplots()
>>> nine_vs_misere(summary, ax)
>>> len(ax.patches)
2
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from prefstats.game.rules import LADDER

MEASURE_LABELS = {"bid": "as bid", "played": "as played", "potential": "dealt potential"}
NINE_EVENTS = ("nine", "nine or ten")


def nine_vs_misere(summary: pd.DataFrame, ax: Axes) -> None:
    """Bars of the frequency of a nine and of misère per measure, with 95% intervals."""
    rows = summary[summary.event.isin(["misère", *NINE_EVENTS])]
    rows = rows[~((rows.measure != "potential") & (rows.event == "nine or ten"))]
    measures = [m for m in MEASURE_LABELS if m in set(rows.measure)]
    width = 0.38
    for offset, (label, events) in enumerate((("nine", NINE_EVENTS), ("misère", ("misère",)))):
        part = rows[rows.event.isin(events)].set_index("measure").reindex(measures)
        x = np.arange(len(measures)) + (offset - 0.5) * width
        err = [part.frequency - part.low, part.high - part.frequency]
        ax.bar(x, part.frequency, width, yerr=err, capsize=3, label=label)
    ax.set_xticks(np.arange(len(measures)), [MEASURE_LABELS[m] for m in measures])
    ax.set_ylabel("share of deals")
    ax.set_yscale("log")
    ax.legend()
    ax.set_title("Nine-trick games and misère (95% intervals)")


def contract_frequencies(summary: pd.DataFrame, ax: Axes, measure: str = "played") -> None:
    """Bars of every contract's frequency (log scale), with 95% intervals."""
    names = [str(c) for c in LADDER]
    part = summary[(summary.measure == measure) & summary.event.isin(names)]
    part = part.set_index("event").reindex(names)
    err = [part.frequency - part.low, part.high - part.frequency]
    ax.bar(range(len(names)), part.frequency.fillna(0), yerr=err, capsize=2, color="tab:blue")
    ax.set_xticks(range(len(names)), names, rotation=90)
    ax.set_yscale("log")
    ax.set_ylabel("share of deals")
    ax.set_title(f"Contracts {MEASURE_LABELS.get(measure, measure)}")


def catch_heatmap(rates: pd.DataFrame, ax: Axes, max_cards: int = 4) -> None:
    """P(caught) of each catchable holding (rows) under each lead (columns)."""
    part = rates[rates.n_cards <= max_cards]
    table = part.pivot_table(index="text", columns="lead", values="p_caught")
    order = part.drop_duplicates("text").sort_values(["n_cards", "holding"])
    table = table.reindex(order.text)[[c for c in ("own", "left", "right") if c in table]]
    image = ax.imshow(table.to_numpy(), aspect="auto", cmap="Reds", vmin=0, vmax=1)
    ax.set_yticks(range(len(table)), table.index, fontsize=6)
    ax.set_xticks(range(table.shape[1]), [f"{c} lead" for c in table.columns])
    ax.figure.colorbar(image, ax=ax, label="P(caught)")
    ax.set_title(f"Catch rate by holding (up to {max_cards} cards)")


def class_probabilities(exact: pd.Series, simulated: pd.DataFrame, ax: Axes) -> None:
    """Suit-class probabilities: exact (bars) against simulated (points with 95% intervals)."""
    x = np.arange(len(exact))
    ax.bar(x, exact.to_numpy(), color="lightgray", label="exact")
    sim = simulated.reindex(exact.index)
    err = [sim.frequency - sim.low, sim.high - sim.frequency]
    ax.errorbar(x, sim.frequency, yerr=err, fmt="o", color="tab:red", label="simulated")
    ax.set_xticks(x, exact.index)
    ax.set_ylabel("probability for one suit of a hand")
    ax.legend()
    ax.set_title("Misère suit classes: exact vs simulated")


def ev_scatter(ev_table: pd.DataFrame, ax: Axes) -> None:
    """Solo EV of each bid misère against its catch probability, by hand class."""
    for name, part in ev_table.groupby("class"):
        ax.scatter(part.p_caught, part.solo_ev, s=10, label=str(name), alpha=0.7)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("P(caught)")
    ax.set_ylabel("solo EV, whists (4 players, Sochi)")
    ax.legend(title="hand class")
    ax.set_title("Bid misères: solo EV (dealer accepts above the line)")


def pair_independence(table: pd.DataFrame, ax: Axes, lead: str = "left") -> None:
    """Measured P(caught) of two catchable suits against the product of their single-suit rates
    (``catch.pair_independence``), one point per pair, for one lead."""
    part = table[table.lead == lead]
    inside = part.inside.to_numpy(dtype=bool)
    for mask, label, color in ((inside, "prediction inside the 95% interval", "tab:blue"),
                               (~inside, "outside", "tab:red")):  # fmt: skip
        ax.scatter(part.p_independent[mask], part.p_caught[mask], s=6, alpha=0.5, color=color,
                   label=f"{label} ({mask.sum():,})")  # fmt: skip
    ax.plot([0, 1], [0, 1], color="black", lw=0.8)
    ax.set_xlabel("1 − (1 − p_a)(1 − p_b): independent suits")
    ax.set_ylabel("P(caught), measured")
    ax.legend(fontsize=8)
    ax.set_title(f"Two catchable suits, {lead} lead ({len(part):,} pairs)")


def sensitivity(table: pd.DataFrame, ax: Axes) -> None:
    """The played misère/nine ratio (95% intervals) for each setting of ``results.sensitivity``,
    with the share of played misères caught written above each point."""
    x = np.arange(len(table))
    err = [table.ratio - table.ratio_low, table.ratio_high - table.ratio]
    ax.errorbar(x, table.ratio, yerr=err, fmt="o", capsize=3, color="tab:purple")
    rates, tops = table.caught_rate.to_numpy(float), table.ratio_high.to_numpy(float)
    for xi, rate, top in zip(x, rates, tops, strict=True):
        if np.isfinite(rate) and np.isfinite(top):
            ax.annotate(
                f"{rate:.0%} caught", (xi, top), xytext=(0, 3), textcoords="offset points",
                fontsize=7, ha="center", va="bottom",
            )  # fmt: skip
    ax.axhline(1, color="gray", ls="--", lw=0.8)
    ax.margins(y=0.15)
    ax.set_xticks(x, table.label)
    ax.set_xlabel("misère risk limit of the bidders ('none': only safe hands)")
    ax.set_ylabel("misère / nine, as played")
    ax.set_title("How the played ratio depends on the bidders' misère risk")
