"""Summaries of a study run: contract frequencies with Wilson intervals, and the Codex claim.

Codex note 40: "a nine-trick game is, by statistics (and probability theory), a considerably
rarer event than misère." ``summarize`` measures both, three ways where the run allows:

* ``bid``: the auction's winning bid;
* ``played``: the contract named after the talon (what is written);
* ``potential``: dealt potential, any seat able to make it double-dummy (``--potential`` runs).

>>> import pandas as pd
>>> run = pd.DataFrame({"bid": [15, 16, -1, 15], "contract": [15, 16, -1, 15]})
>>> table = summarize(run)
>>> row = table.query("measure == 'played' and event == 'misère'").iloc[0]
>>> int(row["count"]), int(row.n), float(row.frequency)
(2, 4, 0.5)
>>> summarize(pd.DataFrame({"contract": [15, 16, 15, 15] * 1000})).attrs["verdict"][:45]
'The run supports Codex note 40: as played, mi'

"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from prefstats.data import shipped
from prefstats.game.bidding import ALL_PASS
from prefstats.game.deal import N_SEATS
from prefstats.game.rules import LADDER, LEVEL_OF_RANK, MISERE_RANK, NO_BID
from prefstats.stats import (
    Estimate,
    proportion,
    ratio_of_proportions,
    wilson_interval,
    z_value,
)
from prefstats.studies.study import load_study

CONTRACT_NAMES = [str(c) for c in LADDER]
COLUMNS = ["measure", "event", "count", "n", "frequency", "low", "high"]
RATIO_EVENT = "misère / nine"


def summarize(run: str | Path | pd.DataFrame) -> pd.DataFrame:
    """Frequencies of every contract and of nine, ten, misère and all-pass, per measure, with
    counts, n and Wilson 95% intervals; then the misère-to-nine ratio of each measure with its
    interval. ``summary.attrs["verdict"]`` states the verdict on Codex note 40."""
    table = run if isinstance(run, pd.DataFrame) else load_study(run)
    rows = []
    for measure, column in (("bid", "bid"), ("played", "contract")):
        if column in table:
            rows += _contract_rows(measure, table[column].to_numpy())
    if "potential0" in table:
        rows += _potential_rows(table)
    summary = pd.DataFrame(rows, columns=COLUMNS)
    summary = pd.concat([summary, _ratio_rows(table)], ignore_index=True)
    summary = summary.astype({"count": "int64", "n": "int64"})
    summary.attrs["verdict"] = verdict(summary)
    return summary


def _contract_rows(measure: str, ranks: np.ndarray) -> list[list[object]]:
    n = len(ranks)
    level = np.where(ranks >= 0, LEVEL_OF_RANK[np.clip(ranks, 0, None)], 0)
    events = {
        "nine": (level == 9) & (ranks != MISERE_RANK),
        "ten": level == 10,
        "nine or ten": level >= 9,
        "misère": ranks == MISERE_RANK,
        "all-pass": ranks == NO_BID,
        **{name: ranks == rank for rank, name in enumerate(CONTRACT_NAMES)},
    }
    return [_row(measure, event, int(mask.sum()), n) for event, mask in events.items()]


def _potential_masks(table: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per deal: some seat can make nine+ / ten / a clean misère double-dummy."""
    best = np.stack([table[f"potential{s}"].to_numpy() for s in range(N_SEATS)], axis=1)
    level = np.where(best >= 0, LEVEL_OF_RANK[np.clip(best, 0, None)], 0)
    clean = np.stack([table[f"clean{s}"].to_numpy() for s in range(N_SEATS)], axis=1)
    return {
        "nine or ten": (level >= 9).any(axis=1),
        "ten": (level == 10).any(axis=1),
        "misère": clean.any(axis=1),
        "any game": (best >= 0).any(axis=1),
    }


def _potential_rows(table: pd.DataFrame) -> list[list[object]]:
    n = len(table)
    return [_row("potential", e, int(m.sum()), n) for e, m in _potential_masks(table).items()]


def _row(measure: str, event: str, count: int, n: int) -> list[object]:
    low, high = wilson_interval(count, n)
    return [measure, event, count, n, count / n if n else np.nan, float(low), float(high)]


def _ratio_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Misère-to-nine ratios: level 9 for bid/played, nine-or-ten for potential."""
    rows = []
    for measure, column in (("bid", "bid"), ("played", "contract")):
        if column in table:
            ranks = table[column].to_numpy()
            level = np.where(ranks >= 0, LEVEL_OF_RANK[np.clip(ranks, 0, None)], 0)
            nine = (level == 9) & (ranks != MISERE_RANK)
            rows.append(_ratio_row(measure, ranks == MISERE_RANK, nine))
    if "potential0" in table:
        masks = _potential_masks(table)
        rows.append(_ratio_row("potential", masks["misère"], masks["nine or ten"]))
    return pd.DataFrame([r for r in rows if r is not None], columns=COLUMNS)


def _ratio_row(measure: str, misere: np.ndarray, nine: np.ndarray) -> list[object] | None:
    count_m, count_n = int(misere.sum()), int(nine.sum())
    if not count_m or not count_n:
        return None
    est = ratio_of_proportions(count_m, count_n, len(misere), int((misere & nine).sum()))
    return [measure, RATIO_EVENT, count_m, est.n, est.estimate, est.low, est.high]


def ratio_estimate(summary: pd.DataFrame, measure: str) -> Estimate | None:
    """The misère/nine ratio of ``measure`` from a summary, or None if it could not be formed."""
    rows = summary[(summary.measure == measure) & (summary.event == RATIO_EVENT)]
    if rows.empty:
        return None
    row = rows.iloc[0]
    return Estimate(row.frequency, row.low, row.high, int(row.n), row["count"])


def verdict(summary: pd.DataFrame) -> str:
    """One sentence on Codex note 40, generated from the summary's ratios and intervals."""
    parts = []
    for measure, label in (("played", "as played"), ("potential", "as dealt potential")):
        est = ratio_estimate(summary, measure)
        if est is None:
            continue
        if est.low > 1:
            judgement = "more frequent than"
        elif est.high < 1:
            judgement = "rarer than"
        else:
            judgement = "not distinguishable in frequency from"
        parts.append(
            f"{label}, misère is {judgement} a nine ({est.estimate:.2f} times as frequent, "
            f"95% CI {est.low:.2f}–{est.high:.2f}, n = {est.n:,} deals)"
        )
    if not parts:
        return "Too few nines or misères in this run to compare them."
    ratios = [ratio_estimate(summary, m) for m in ("played", "potential")]
    holds = all(r.low > 1 for r in ratios if r is not None)
    claim = "supports" if holds else "does not support"
    return f"The run {claim} Codex note 40: " + "; ".join(parts) + "."


def frequency(summary: pd.DataFrame, measure: str, event: str) -> Estimate:
    """One frequency of a summary as an Estimate."""
    row = summary[(summary.measure == measure) & (summary.event == event)].iloc[0]
    return proportion(int(row["count"]), int(row.n))


FINDINGS_EVENTS = ("nine", "nine or ten", "ten", "misère", "all-pass", RATIO_EVENT)


def findings_markdown(summary: pd.DataFrame) -> str:
    """The README's findings table (markdown) from a summary: the headline events with counts,
    n and 95% intervals, one row per measure and event.

    >>> table = summarize(pd.DataFrame({"contract": [15, 16, -1, 15] * 250}))
    >>> print(findings_markdown(table).splitlines()[2])
    | played | nine | 250 | 1,000 | 0.2500 | 0.2242–0.2778 |
    """
    rows = summary[summary.event.isin(FINDINGS_EVENTS) & (summary.measure != "bid")]
    lines = [
        "| measure | event | count | n | estimate | 95% CI |",
        "|---|---|---:|---:|---:|---|",
    ]
    for row in rows.itertuples():
        lines.append(
            f"| {row.measure} | {row.event} | {row.count:,} | {row.n:,} | "
            f"{row.frequency:.4f} | {row.low:.4f}–{row.high:.4f} |"
        )
    return "\n".join(lines)


def shipped_findings() -> pd.DataFrame:
    """The shipped summaries combined: bid and played from ``summary.parquet`` (the large run),
    potential from ``potential_summary.parquet``; ratio rows recomputed per measure as shipped."""
    big = pd.read_parquet(shipped("summary.parquet"))
    potential = pd.read_parquet(shipped("potential_summary.parquet"))
    combined = pd.concat(
        [big[big.measure != "potential"], potential[potential.measure == "potential"]],
        ignore_index=True,
    )
    combined.attrs["verdict"] = verdict(combined)
    return combined


def sensitivity(runs: Mapping[str, str | Path | pd.DataFrame]) -> pd.DataFrame:
    """How the played frequencies move with a policy setting: one row per run (label → run).

    Each row: n deals; the nines and misères played (count, rate, Wilson 95% interval); the
    misère/nine ratio (delta-method interval); and how often the played misères were caught
    (``caught`` of ``misere``). Runs of one seed and size deal the same hands, so the rows
    differ by the policy alone.

    >>> made = [True, True, False, False] * 50
    >>> a = pd.DataFrame({"contract": [15, 16, 15, -1] * 50, "made": made})
    >>> b = a.assign(contract=[15, 16, 16, -1] * 50)
    >>> table = sensitivity({"0.3": a, "0.1": b})
    >>> table[["label", "misere", "nine", "ratio", "caught", "caught_rate"]].to_dict("records")[0]
    {'label': '0.3', 'misere': 100, 'nine': 50, 'ratio': 2.0, 'caught': 50, 'caught_rate': 0.5}
    """
    rows = []
    for label, run in runs.items():
        table = run if isinstance(run, pd.DataFrame) else load_study(run)
        ranks = table["contract"].to_numpy()
        level = np.where(ranks >= 0, LEVEL_OF_RANK[np.clip(ranks, 0, None)], 0)
        misere = ranks == MISERE_RANK
        nine = (level == 9) & ~misere
        n, count_m, count_n = len(ranks), int(misere.sum()), int(nine.sum())
        caught = int((misere & ~table["made"].to_numpy(dtype=bool)).sum())
        ratio = ratio_of_proportions(count_m, count_n, n) if count_m and count_n else None
        catch = proportion(caught, count_m) if count_m else None
        rows.append({
            "label": label, "n": n,
            "nine": count_n, **_interval("nine", proportion(count_n, n)),
            "misere": count_m, **_interval("misere", proportion(count_m, n)),
            "ratio": ratio.estimate if ratio else np.nan, **_interval("ratio", ratio, rate=False),
            "caught": caught, **_interval("caught", catch),
        })  # fmt: skip
    return pd.DataFrame(rows)


def _interval(name: str, est: Estimate | None, rate: bool = True) -> dict[str, float]:
    """``name_rate`` (if ``rate``), ``name_low``, ``name_high`` of an estimate (NaN if None)."""
    values = (est.estimate, est.low, est.high) if est else (np.nan,) * 3
    parts = dict(zip(("rate", "low", "high"), values, strict=True))
    return {f"{name}_{key}": value for key, value in parts.items() if rate or key != "rate"}


def sensitivity_markdown(table: pd.DataFrame) -> str:
    """The README's table of ``sensitivity``: played nine, misère, their ratio and the misères
    caught, one row per setting, with 95% intervals.

    >>> made = [True, True, False, False] * 50
    >>> a = pd.DataFrame({"contract": [15, 16, 15, -1] * 50, "made": made})
    >>> print(sensitivity_markdown(sensitivity({"0.3": a})).splitlines()[2])
    | 0.3 | 200 | 50 | 100 | 2.00 (1.42–2.81) | 0.500 (0.404–0.596) |
    """
    lines = [
        "| risk limit | deals | nines | misères | misère / nine (95% CI) | caught (95% CI) |",
        "|---|---:|---:|---:|---|---|",
    ]
    for row in table.itertuples():
        lines.append(
            f"| {row.label} | {row.n:,} | {row.nine:,} | {row.misere:,} | {row.ratio:.2f} "
            f"({row.ratio_low:.2f}–{row.ratio_high:.2f}) | {row.caught_rate:.3f} "
            f"({row.caught_low:.3f}–{row.caught_high:.3f}) |"
        )
    return "\n".join(lines)


def discard_policy_effect(runs: Mapping[str, pd.DataFrame | str | Path]) -> pd.DataFrame:
    """How much the discard policy moves the make rate and the misère catch rate.

    ``runs`` maps a policy name to a study run (a table or a run folder) of the same deals,
    bids and contracts: the same ``--seed``, ``--deals`` and ``--evaluator``, different
    ``--discard``. For each policy and measure (``make rate``: trick contracts made; ``catch
    rate``: misères caught) it gives count, n, the rate with its Wilson 95% interval, and the
    change from the first policy with a paired (same deals) Wald interval.

    >>> base = pd.DataFrame({"first": [1, 2, 3], "second": 0, "third": 0, "talon": 0,
    ...                      "declarer": [0, 1, 1], "contract": [3, 15, 15],
    ...                      "made": [False, True, False]})
    >>> other = base.assign(made=[True, True, True])
    >>> table = discard_policy_effect({"heuristic": base, "dd": other})
    >>> table.set_index(["policy", "measure"])[["count", "n", "change"]].loc["dd"]
                count  n  change
    measure
    make rate       1  1     1.0
    catch rate      0  2    -0.5
    """
    tables = {
        name: run if isinstance(run, pd.DataFrame) else load_study(run)
        for name, run in runs.items()
    }
    if not tables:
        raise ValueError("no runs to compare")
    names = list(tables)
    reference = tables[names[0]]
    same = ["first", "second", "third", "talon", "declarer", "contract"]
    for name in names[1:]:
        table = tables[name]
        if len(table) != len(reference) or not table[same].equals(reference[same]):
            raise ValueError(
                f"runs {names[0]!r} and {name!r} differ in their deals or contracts: compare "
                "runs of the same --seed, --deals and --evaluator"
            )
    declared = reference.declarer.to_numpy() != ALL_PASS
    misere = reference.contract.to_numpy() == MISERE_RANK
    populations = {"make rate": declared & ~misere, "catch rate": misere}
    rows = []
    for name in names:
        made = tables[name].made.to_numpy(dtype=bool)
        base = reference.made.to_numpy(dtype=bool)
        for measure, rows_in in populations.items():
            event, before = (made, base) if measure == "make rate" else (~made, ~base)
            rows.append([name, measure, *_paired_rate(event[rows_in], before[rows_in])])
    columns = ["policy", "measure", "count", "n", "rate", "low", "high"]
    return pd.DataFrame(rows, columns=[*columns, "change", "change_low", "change_high"])


def _paired_rate(event: np.ndarray, before: np.ndarray) -> list[float]:
    """count, n, rate, Wilson interval, and the paired change from ``before`` with its Wald
    interval: var = (b + c - (b - c)²/n) / n², b and c the discordant pairs."""
    n, count = len(event), int(event.sum())
    if n == 0:
        return [0, 0, *[np.nan] * 6]
    low, high = wilson_interval(count, n)
    gained, lost = int((event & ~before).sum()), int((~event & before).sum())
    change = (gained - lost) / n
    half = z_value() * np.sqrt(max(gained + lost - (gained - lost) ** 2 / n, 0.0)) / n
    return [count, n, count / n, float(low), float(high), change, change - half, change + half]
