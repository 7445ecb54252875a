"""Figures, each drawn on an Axes (or a Figure) it is given: the report draws on its own
``Figure`` objects and the notebooks on theirs, so nothing here touches matplotlib's global
state or backend.

>>> from matplotlib.figure import Figure
>>> import pandas as pd
>>> summary = pd.DataFrame({"measure": ["played", "played"], "event": ["nine", "misère"],
...     "kind": "share", "count": [10, 5], "n": [1000, 1000], "estimate": [0.01, 0.005],
...     "low": [0.005, 0.002], "high": [0.018, 0.012]})
>>> ax = Figure().subplots()
>>> nine_vs_misere(summary, ax)
>>> len(ax.patches)
2
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text

from prefstats.game.rules import LADDER

MEASURE_LABELS = {"bid": "as bid", "played": "as played", "potential": "dealt potential"}
SETTING_STYLE = {  # marker and colour of each catch-rate setting
    "clean-sides": ("o", "tab:blue"),
    "lowest-sides": ("^", "tab:orange"),
    "as-dealt": ("s", "tab:green"),
}


def nine_vs_misere(summary: pd.DataFrame, ax: Axes) -> None:
    """Bars: the share of deals with a nine (9 or 10 tricks) and with misère per measure, with
    95% intervals."""
    rows = summary[summary.event.isin(["nine", "misère"]) & (summary.kind == "share")]
    measures = [m for m in MEASURE_LABELS if m in set(rows.measure)]
    width = 0.38
    for offset, (event, label) in enumerate(
        (("nine", "nine (9 or 10 tricks)"), ("misère", "misère"))
    ):
        part = rows[rows.event == event].set_index("measure").reindex(measures)
        x = np.arange(len(measures)) + (offset - 0.5) * width
        err = [part.estimate - part.low, part.high - part.estimate]
        ax.bar(x, part.estimate, width, yerr=err, capsize=3, label=label)
    ax.set_xticks(np.arange(len(measures)), [MEASURE_LABELS[m] for m in measures])
    ax.set_ylabel("share of deals")
    ax.set_yscale("log")
    ax.legend()
    ax.set_title("Nine-trick games and misère (95% intervals)")


def contract_frequencies(summary: pd.DataFrame, ax: Axes, measure: str = "played") -> None:
    """Bars: every contract's share of deals (log scale), with 95% intervals."""
    names = [str(c) for c in LADDER]
    part = summary[(summary.measure == measure) & summary.event.isin(names)]
    part = part.set_index("event").reindex(names)
    err = [part.estimate - part.low, part.high - part.estimate]
    ax.bar(range(len(names)), part.estimate.fillna(0), yerr=err, capsize=2, color="tab:blue")
    ax.set_xticks(range(len(names)), names, rotation=90)
    ax.set_yscale("log")
    ax.set_ylabel("share of deals")
    ax.set_title(f"Contracts {MEASURE_LABELS.get(measure, measure)}")


def class_probabilities(exact: pd.Series, simulated: pd.DataFrame, ax: Axes) -> None:
    """Suit-class probabilities: exact (bars) against simulated (points, 95% intervals)."""
    x = np.arange(len(exact))
    ax.bar(x, exact.to_numpy(), color="lightgray", label="exact")
    sim = simulated.reindex(exact.index)
    err = [sim.share - sim.low, sim.high - sim.share]
    ax.errorbar(x, sim.share, yerr=err, fmt="o", color="tab:red", label="simulated")
    ax.set_xticks(x, [label.replace("_", " ") for label in exact.index])
    ax.set_ylabel("probability for one suit of a hand")
    ax.legend()
    ax.set_title("Misère suit classes: exact and simulated")


def catch_settings(
    rates: pd.DataFrame, fig: Figure, label: tuple[str, ...] = (), columns: int = 4
) -> None:
    """Small multiples, one panel per holding length (1 to 4 cards, in rows of ``columns``):
    each catchable holding's P(caught) on the defenders' lead (the mean of left and right) in
    ``lowest-sides`` and ``as-dealt`` against ``clean-sides``; the holdings in ``label`` are
    named."""
    lead = rates[rates.lead != "own"].groupby(["setting", "holding_mask", "holding", "n_cards"])
    mean = lead.p_caught.mean().unstack("setting").reset_index()
    axes = fig.subplots(4 // columns, columns, sharex=True, sharey=True).ravel()
    for length, ax in enumerate(axes, start=1):
        part = mean[(mean.n_cards == length) & mean["clean-sides"].notna()]
        for setting in ("lowest-sides", "as-dealt"):
            if setting in part:
                marker, colour = SETTING_STYLE[setting]
                ax.scatter(
                    part["clean-sides"],
                    part[setting],
                    s=14,
                    marker=marker,
                    color=colour,
                    alpha=0.75,
                    label=setting,
                )
        named = part[part.holding.isin(label)]
        other = named["as-dealt"] if "as-dealt" in named else named["lowest-sides"]
        for text, x, y in zip(named.holding, named["clean-sides"], other, strict=True):
            ax.annotate(text, (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
        ax.plot([0, 1], [0, 1], color="gray", lw=0.8)
        ax.set_title(f"{length} card{'s' if length > 1 else ''}")
        if length > 4 - columns:
            ax.set_xlabel("clean-sides")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    for ax in axes[::columns]:
        ax.set_ylabel("P(caught), defenders' lead")
    axes[0].legend(fontsize=7, loc="upper left")


def pair_independence(table: pd.DataFrame, ax: Axes, lead: str = "left") -> None:
    """Measured P(caught) of two catchable suits against the product of their single-suit rates
    (``misere.tables.pair_independence``), one point per pair, for one lead."""
    part = table[table.lead == lead]
    inside = part.inside.to_numpy(dtype=bool)
    for mask, label, color in (
        (inside, "prediction inside the 95% interval", "tab:blue"),
        (~inside, "outside", "tab:red"),
    ):
        ax.scatter(
            part.p_independent[mask],
            part.p_caught[mask],
            s=6,
            alpha=0.5,
            color=color,
            label=f"{label} ({mask.sum():,})",
        )
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
                f"{rate:.0%} caught",
                (xi, top),
                xytext=(0, 3),
                textcoords="offset points",
                fontsize=7,
                ha="center",
                va="bottom",
            )
    ax.axhline(1, color="gray", ls="--", lw=0.8)
    ax.margins(y=0.15)
    ax.set_xticks(x, table.label)
    ax.set_xlabel("misère risk limit of the bidders ('none': only safe hands)")
    ax.set_ylabel("misère / nine, as played")
    ax.set_title("How the played ratio depends on the bidders' misère risk")


def calibration(table: pd.DataFrame, ax: Axes) -> None:
    """The misère rows of ``results.bidder_calibration``: the share caught (95% intervals)
    against the bidders' mean estimate, with the diagonal a calibrated estimate would follow."""
    part = table[table.outcome == "caught"]
    err = [part.share - part.low, part.high - part.share]
    ax.errorbar(part.mean_estimate, part.share, yerr=err, fmt="o", capsize=3, color="tab:red")
    top = float(max(part.high.max(), part.mean_estimate.max(), 0.1)) * 1.1
    ax.plot([0, top], [0, top], color="gray", lw=0.8, ls="--")
    ax.set_xlabel("bidders' estimated P(caught), band mean")
    ax.set_ylabel("caught, double-dummy")
    ax.set_title("Misères as bid: estimate against outcome")


def misere_ev(ev_table: pd.DataFrame, ax: Axes, break_even: tuple[float, float, float]) -> None:
    """Each misère of an EV table: the solo EV of the declarer and the dealer's EV if he shares
    (4 players, Sochi) against its P(caught); clean and conditionally clean hands drawn last, so
    on top; the break-even catch probability (with its interval) as a vertical band."""
    catchable = ev_table["class"] == "catchable"
    for mask, name, alpha in (
        (catchable, "catchable", 0.35),
        (~catchable, "no catchable suit", 0.9),
    ):
        part = ev_table[mask]
        for column, colour, label in (
            ("solo_ev", "tab:blue", f"solo EV, {name} ({mask.sum():,})"),
            ("shared_ev", "tab:orange", f"shared EV, each partner, {name}"),
        ):
            marker = "o" if name == "catchable" else "D"
            ax.scatter(
                part.p_caught,
                part[column],
                s=8,
                alpha=alpha,
                color=colour,
                marker=marker,
                label=label,
            )
    point, low, high = break_even
    ax.axvspan(low, high, color="gray", alpha=0.3)
    ax.axvline(point, color="black", lw=1, label=f"break-even P(caught) {point:.2f}")
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xlabel("P(caught) of the hand")
    ax.set_ylabel("EV, whists")
    ax.legend(fontsize=7)
    ax.set_title("Misères played: solo or shared")


RED = "#c00"  # ♦ and ♥, as the tables print them


def _red_labels(labels: list[Text]) -> None:
    """Colour the tick labels that name a ♦ or ♥ card or contract red."""
    for label in labels:
        if any(symbol in label.get_text() for symbol in ("♦", "♥")):
            label.set_color(RED)


def contract_chances(tables: dict[str, pd.DataFrame], ax: Axes) -> None:
    """P(make) of every contract of the ladder with its 95% interval, one series per analysed
    hand (``players.analysis.Analysis.table`` by label); misère's P(make) is P(not caught).
    The best bid of each hand is ringed."""
    names = [str(c) for c in LADDER]
    width = 0.8 / max(len(tables), 1)
    for i, (label, table) in enumerate(tables.items()):
        part = table.set_index("contract").reindex(names)
        x = np.arange(len(names)) + (i - (len(tables) - 1) / 2) * width
        err = [part.p_make - part.p_make_low, part.p_make_high - part.p_make]
        line = ax.errorbar(x, part.p_make, yerr=err, fmt="o", ms=4, capsize=2, label=label)
        best = part["best"].to_numpy(dtype=bool)
        ax.scatter(
            x[best],
            part.p_make[best],
            s=140,
            facecolors="none",
            edgecolors=line[0].get_color(),
            linewidths=1.5,
        )
    ax.set_xticks(range(len(names)), names, rotation=90)
    _red_labels(ax.get_xticklabels())
    ax.set_ylim(-0.03, 1.03)
    ax.set_ylabel("P(make), 95% interval")
    ax.legend(fontsize=8)
    ax.set_title("Each contract over the layouts (misère: not caught; ringed: best bid)")


def talon_heat_map(by_talon: pd.DataFrame, cards: list[str], ax: Axes) -> None:
    """P(make) of one contract given each talon (``Analysis.by_talon``) as a triangle of the
    unseen cards: cell (i, j) is the talon of cards i and j (``cards``: their names in card
    order, as the talon texts print them)."""
    index = {card: i for i, card in enumerate(cards)}
    grid = np.full((len(cards), len(cards)), np.nan)
    for talon, p in zip(by_talon.talon, by_talon.p_make, strict=True):
        first, second = _talon_cards(talon)
        i, j = sorted((index[first], index[second]))
        grid[j, i] = p
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis")
    ax.set_xticks(range(len(cards)), cards, rotation=90, fontsize=7)
    ax.set_yticks(range(len(cards)), cards, fontsize=7)
    _red_labels(ax.get_xticklabels())
    _red_labels(ax.get_yticklabels())
    ax.figure.colorbar(image, ax=ax, label="P(make) given the talon", shrink=0.8)


def _talon_cards(talon: str) -> tuple[str, str]:
    """The two cards of a talon text ("♠7 A" or "♠7 ♥A"), each with its suit symbol."""
    cards, suit = [], ""
    for token in talon.split():
        if token[0] in "♠♣♦♥":
            suit, token = token[0], token[1:]
        cards.append(suit + token)
    return cards[0], cards[1]


PLAYED_STYLE = {  # marker and colour of each information model in the as-played figure
    "open": ("o", "tab:blue"),
    "as played low": ("v", "tab:red"),
    "as played high": ("^", "tab:purple"),
    "estimate": ("D", "tab:green"),
    "hidden floor": ("x", "gray"),
}


def played(
    info: pd.DataFrame,
    fig: Figure,
    holdings: tuple[str, ...],
    setting: str,
    stacked: bool = False,
) -> None:
    """One panel per lead (own, left; side by side, or one above the other if ``stacked``):
    each holding's P(caught) in open play, at the two ends of the as-played bracket (joined by
    a band) and by the estimate inside it, each with its 95% interval, and the floor; one
    setting of the ``paired`` rows of ``catch_rates``."""
    leads = ("own", "left")
    shape = (len(leads), 1) if stacked else (1, len(leads))
    axes = fig.subplots(*shape, sharey=True)
    x = np.arange(len(holdings))
    for ax, lead in zip(np.ravel(axes), leads, strict=True):
        part = info[(info.setting == setting) & (info.lead == lead)].set_index(
            ["holding", "information"]
        )
        for shift, (name, (marker, colour)) in zip(
            (-0.2, 0.2, 0.0, 0.1, 0.0), PLAYED_STYLE.items(), strict=True
        ):
            rows = part.xs(name, level="information").reindex(list(holdings))
            errors = None
            if name != "hidden floor":
                errors = [rows.p_caught - rows.p_caught_low, rows.p_caught_high - rows.p_caught]
            ax.errorbar(
                x + shift,
                rows.p_caught,
                yerr=errors,
                fmt=marker,
                color=colour,
                ms=4,
                lw=0.8,
                capsize=2,
                label=name,
            )
        low = part.xs("as played low", level="information").reindex(list(holdings))
        high = part.xs("as played high", level="information").reindex(list(holdings))
        ax.vlines(x, low.p_caught, high.p_caught, color="tab:red", lw=2, alpha=0.35)
        ax.set_xticks(x, list(holdings), rotation=45, fontsize=8)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{lead} lead, {setting}")
    for ax in np.ravel(axes)[:: 1 if stacked else len(leads)]:
        ax.set_ylabel("P(caught)")
    handles, labels = np.ravel(axes)[0].get_legend_handles_labels()
    columns = 3 if stacked else len(labels)
    fig.legend(handles, labels, loc="outside lower center", ncols=columns, fontsize=7)
