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
>>> int(row["count"]), int(row.n), float(row.estimate)
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
from prefstats.game.cards import Style, format_hand, holdings
from prefstats.game.deal import N_SEATS, SEAT_NAMES
from prefstats.game.rules import (
    LADDER,
    LEVEL_OF_RANK,
    MAX_LEVEL,
    MIN_LEVEL,
    MISERE_RANK,
    NINE_LEVEL,
    NO_BID,
)
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.exact import clean_misere_masks, clean_misere_probabilities
from prefstats.players.evaluators import misere_catch_estimate
from prefstats.stats import (
    Estimate,
    proportion,
    ratio_of_proportions,
    wilson_interval,
    z_value,
)
from prefstats.studies.study import DEAL_COLUMNS, load_study

CONTRACT_NAMES = [str(c) for c in LADDER]
HAND_COLUMNS = DEAL_COLUMNS[:N_SEATS]
COLUMNS = ["measure", "event", "kind", "count", "n", "estimate", "low", "high"]
RATIO_EVENT = "misère / nine"
MEASURES = {"bid": "bid", "played": "contract"}  # measure -> the run's column of ladder ranks
# One definition per word (docs/rules.md, "The claim"): a nine is a contract of nine or more
# tricks, nine or ten; "nine only" and "ten" are its two parts.


def summarize(run: str | Path | pd.DataFrame) -> pd.DataFrame:
    """Per measure (``bid``, ``played``, ``potential``): the share of deals with a nine (9 or
    10 tricks), nine only, ten, misère, all-pass and every contract, with counts, n and Wilson
    95% intervals (``kind`` "share"); then the misère-to-nine ratio of each measure with its
    delta-method interval (``kind`` "ratio"). ``summary.attrs["verdict"]`` states the verdict
    on Codex note 40."""
    table = run if isinstance(run, pd.DataFrame) else load_study(run)
    if "potential0" in table:
        raise ValueError(
            "this run has the potential columns of an earlier prefstats "
            "(potential0..2, not nine0..2 and game); run the study again"
        )
    rows = []
    for measure, column in MEASURES.items():
        if column in table:
            rows += _share_rows(measure, _played_events(table[column].to_numpy()), len(table))
    if "nine0" in table:
        rows += _share_rows("potential", _potential_events(table), len(table))
    summary = pd.DataFrame(rows, columns=COLUMNS)
    summary = pd.concat([summary, _ratio_rows(table)], ignore_index=True)
    summary = summary.astype({"count": "int64", "n": "int64"})
    summary.attrs["verdict"] = verdict(summary)
    return summary


def _played_events(ranks: np.ndarray) -> dict[str, np.ndarray]:
    """Per deal, for a column of ladder ranks: which events it is."""
    return {
        **_nine_events(_level(ranks)),
        "misère": ranks == MISERE_RANK,
        "all-pass": ranks == NO_BID,
        **{name: ranks == rank for rank, name in enumerate(CONTRACT_NAMES)},
    }


def _potential_events(table: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per deal: some seat makes a nine (9 or 10 tricks) / exactly nine at best / ten / a clean
    misère / any game, double-dummy with the talon and its best discard (the study's
    ``nine{s}``, ``clean{s}`` and ``game`` columns)."""
    nine = np.stack([table[f"nine{s}"].to_numpy() for s in range(N_SEATS)], axis=1)
    clean = np.stack([table[f"clean{s}"].to_numpy() for s in range(N_SEATS)], axis=1)
    return {
        **_nine_events(_level(nine).max(axis=1)),
        "misère": np.asarray(clean.any(axis=1)),
        "any game": table["game"].to_numpy(dtype=bool),
    }


def _level(ranks: np.ndarray) -> np.ndarray:
    """The level (tricks) of ladder ranks; 0 for no contract and for misère."""
    return np.where(ranks >= 0, LEVEL_OF_RANK[np.clip(ranks, 0, None)], 0)


def _nine_events(level: np.ndarray) -> dict[str, np.ndarray]:
    """A nine (nine or ten tricks), exactly nine, ten: per deal, from its highest level."""
    return {
        "nine": level >= NINE_LEVEL,
        "nine only": level == NINE_LEVEL,
        "ten": level == MAX_LEVEL,
    }


def _share_rows(measure: str, events: dict[str, np.ndarray], n: int) -> list[list[object]]:
    return [_row(measure, event, int(mask.sum()), n) for event, mask in events.items()]


def _row(measure: str, event: str, count: int, n: int) -> list[object]:
    low, high = wilson_interval(count, n)
    share = count / n if n else np.nan
    return [measure, event, "share", count, n, share, float(low), float(high)]


def _ratio_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Misère-to-nine ratios of every measure, a nine being 9 or 10 tricks."""
    events = {m: _played_events(table[c].to_numpy()) for m, c in MEASURES.items() if c in table}
    if "nine0" in table:
        events["potential"] = _potential_events(table)
    rows = [_ratio_row(m, e["misère"], e["nine"]) for m, e in events.items()]
    return pd.DataFrame([r for r in rows if r is not None], columns=COLUMNS)


def _ratio_row(measure: str, misere: np.ndarray, nine: np.ndarray) -> list[object] | None:
    count_m, count_n = int(misere.sum()), int(nine.sum())
    if not count_m or not count_n:
        return None
    est = ratio_of_proportions(count_m, count_n, len(misere), int((misere & nine).sum()))
    return [measure, RATIO_EVENT, "ratio", count_m, est.n, est.estimate, est.low, est.high]


def ratio_estimate(summary: pd.DataFrame, measure: str) -> Estimate | None:
    """The misère/nine ratio of ``measure`` from a summary, or None if it could not be formed."""
    rows = summary[(summary.measure == measure) & (summary.event == RATIO_EVENT)]
    if rows.empty:
        return None
    row = rows.iloc[0]
    return Estimate(row.estimate, row.low, row.high, int(row.n), row["count"])


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


FINDINGS_EVENTS = ("nine", "nine only", "ten", "misère", "all-pass", RATIO_EVENT)


def findings_markdown(summary: pd.DataFrame) -> str:
    """The README's findings table (markdown) from a summary: the headline events with counts,
    n and 95% intervals, one row per measure and event.

    >>> table = summarize(pd.DataFrame({"contract": [15, 16, -1, 15] * 250}))
    >>> print(findings_markdown(table).splitlines()[2])
    | played | nine (9 or 10 tricks) | 250 | 1,000 | 25.00% | 22.42–27.78% |
    """
    rows = summary[summary.event.isin(FINDINGS_EVENTS) & (summary.measure != "bid")]
    lines = [
        "| measure | event | count | n | share of deals, or ratio | 95% CI |",
        "|---|---|---:|---:|---:|---|",
    ]
    labels = {"nine": "nine (9 or 10 tricks)", "nine only": "nine only (exactly 9)"}
    for row in rows.itertuples():
        if row.kind == "ratio":
            value, interval = f"{row.estimate:.2f}×", f"{row.low:.2f}–{row.high:.2f}×"
        else:
            value, interval = f"{row.estimate:.2%}", f"{row.low:.2%}–{row.high:.2%}"
            interval = interval.replace("%–", "–", 1)
        event = labels.get(str(row.event), str(row.event))
        lines.append(
            f"| {row.measure} | {event} | {row.count:,} | {row.n:,} | {value} | {interval} |"
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

    Each row: n deals; the nines (9 or 10 tricks) and misères played (count, rate, Wilson 95%
    interval); the misère/nine ratio (delta-method interval); and how often the played misères
    were caught (``caught`` of ``misere``). Runs of one seed and size deal the same hands, so the
    rows differ by the policy alone.

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
        misere = ranks == MISERE_RANK
        nine = _level(ranks) >= NINE_LEVEL
        n, count_m, count_n = len(ranks), int(misere.sum()), int(nine.sum())
        caught = int((misere & ~table["made"].to_numpy(dtype=bool)).sum())
        ratio = ratio_of_proportions(count_m, count_n, n) if count_m and count_n else None
        catch = proportion(caught, count_m) if count_m else None
        rows.append(
            {
                "label": label,
                "n": n,
                "nine": count_n,
                **_interval("nine", proportion(count_n, n)),
                "misere": count_m,
                **_interval("misere", proportion(count_m, n)),
                "ratio": ratio.estimate if ratio else np.nan,
                **_interval("ratio", ratio, rate=False),
                "caught": caught,
                **_interval("caught", catch),
            }
        )
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
        "| risk limit | deals | nines (9 or 10) | misères | misère / nine (95% CI) | "
        "caught (95% CI) |",
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


RISK_BANDS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 1.0)  # of the misère estimate


def bidder_calibration(run: str | Path | pd.DataFrame) -> pd.DataFrame:
    """How the bidders' decisions fare when played double-dummy. Contracts: per level named
    (6..10), the contracts played and the share made. Misère: per band of the bidders'
    estimated catch probability (``evaluators.misere_catch_estimate`` of the declarer's dealt
    hand from his seat), the misères played, their mean estimate and the share caught. Every
    share with its Wilson 95% interval.

    >>> run = pd.DataFrame({"first": [1] * 4, "second": 0, "third": 0, "talon": 0,
    ...                     "declarer": [0, 0, 1, -1], "contract": [0, 4, 7, -1],
    ...                     "made": [True, False, True, False]})
    >>> bidder_calibration(run)[["what", "n", "count"]].to_dict("records")
    [{'what': 'level 6', 'n': 2, 'count': 1}, {'what': 'level 7', 'n': 1, 'count': 1}]
    """
    table = run if isinstance(run, pd.DataFrame) else load_study(run)
    contract, made = table["contract"].to_numpy(), table["made"].to_numpy(dtype=bool)
    level = _level(contract)
    rows = []
    for lv in range(MIN_LEVEL, MAX_LEVEL + 1):
        played = (level == lv) & (contract != MISERE_RANK)
        if played.any():
            rows.append(_calibration_row(f"level {lv}", "made", made[played], np.nan))
    misere = np.flatnonzero(contract == MISERE_RANK)
    if misere.size:
        seats = table["declarer"].to_numpy()[misere].astype(int)
        dealt = table[["first", "second", "third"]].to_numpy()[misere, seats]
        estimate = np.zeros(len(misere))
        for seat in range(N_SEATS):
            mine = seats == seat
            estimate[mine] = misere_catch_estimate(dealt[mine].astype(np.uint32), seat)
        caught = ~made[misere]
        band = np.digitize(estimate, RISK_BANDS[1:-1])
        for b in np.unique(band):
            low, high = RISK_BANDS[b], RISK_BANDS[b + 1]
            inside = band == b
            what = f"misère, estimate {low:g}–{high:g}"
            mean = float(estimate[inside].mean())
            rows.append(_calibration_row(what, "caught", caught[inside], mean))
    columns = ["what", "outcome", "n", "count", "share", "low", "high", "mean_estimate"]
    return pd.DataFrame(rows, columns=columns)


def _calibration_row(what: str, outcome: str, events: np.ndarray, estimate: float) -> list[object]:
    est = proportion(int(events.sum()), len(events))
    return [what, outcome, est.n, int(est.count), est.estimate, est.low, est.high, estimate]


def suit_class_shares(run: str | Path | pd.DataFrame) -> pd.DataFrame:
    """How often one suit of a dealt hand is of each misère class, over every suit of every
    hand of the run (index: the class labels), with Wilson 95% intervals."""
    table = run if isinstance(run, pd.DataFrame) else load_study(run)
    hands = table[list(HAND_COLUMNS)].to_numpy().ravel()
    codes = class_codes()[holdings(hands)].ravel()
    counts = np.bincount(codes, minlength=len(SuitClass))
    low, high = wilson_interval(counts, codes.size)
    return pd.DataFrame(
        {"count": counts, "n": codes.size, "share": counts / codes.size, "low": low, "high": high},
        index=[c.label for c in SuitClass],
    )


def clean_misere_check(run: str | Path | pd.DataFrame) -> pd.DataFrame:
    """``exact.clean_misere_probabilities`` beside the share of the run's dealt hands (every
    seat's ten cards before the talon) that each definition counts, with Wilson intervals."""
    table = run if isinstance(run, pd.DataFrame) else load_study(run)
    hands = table[list(HAND_COLUMNS)].to_numpy().ravel().astype(np.uint32)
    exact = clean_misere_probabilities()
    shares = [
        proportion(int(mask.sum()), len(hands)) for mask in clean_misere_masks(hands).values()
    ]
    return exact.assign(
        hands=len(hands),
        count=[int(e.count) for e in shares],
        share=[e.estimate for e in shares],
        low=[e.low for e in shares],
        high=[e.high for e in shares],
    )


def readable(table: pd.DataFrame, style: Style = "en") -> pd.DataFrame:
    """A run table (or an EV table) for reading in pandas: hands and discards as text, ladder
    ranks as contract names, seats as names; the other columns as they are.

    >>> readable(pd.DataFrame({"first": [1023], "bid": [15], "declarer": [2]})).iloc[0].tolist()
    ['♠7 8 9 10 J Q K A ♣7 8', 'misère', 'third hand']
    """
    out = table.copy()
    for column in (*DEAL_COLUMNS, "discard", "hand"):
        if column in out:
            out[column] = [format_hand(int(mask), style) for mask in out[column]]
    for column in (
        "bid",
        "contract",
        "limit0",
        "limit1",
        "limit2",
        *(f"nine{s}" for s in range(N_SEATS)),
    ):
        if column in out:
            out[column] = [LADDER[r].format(style) if r >= 0 else "—" for r in out[column]]
    for column in ("declarer", "seat"):
        if column in out:
            out[column] = [SEAT_NAMES[s] if s >= 0 else "all-pass" for s in out[column]]
    return out
