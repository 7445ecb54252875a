"""The shipped catch-rate tables and their lookup (docs/rules.md, "Misère suit classes").

``catch_rates.parquet`` gives, for every holding of one suit, P(caught), E[tricks] and the trick
distribution of a misère declarer holding it, measured with the exact solver over random
layouts, in three settings that differ in what he holds in the other suits: ``clean-sides``
(random clean suits), ``lowest-sides`` (the lowest cards, the textbook setting) and ``as-dealt``
(misère hands as they occur); :mod:`prefstats.studies.catch_tables` writes it and documents
each setting. Its ``design`` column tells two samples apart: ``independent`` rows are open
play, each layout a hand of its own (20,000 a holding: the precise rates), and ``paired`` rows
measure every misère information model (the ``information`` column) on the same 40 hands of 10
layouts a holding (:mod:`prefstats.studies.catch_information`). ``catch_pairs.parquet`` gives
two catchable suits at once (``clean-sides``, open play).

The players of the package (the bidders' misère estimate and the misère discard) read the
``players`` rates: ``as-dealt`` where a holding was measured on its own (seen at least 200
times), else ``clean-sides``. A lead is named relative to the declarer: ``"own"``
(he leads to trick 1), ``"left"`` (the defender after him leads; he plays third), ``"right"``
(the defender before him leads; he plays second), or ``"defenders"`` (the mean of left and
right). A declarer in seat s faces the lead ``relative_lead(s)``, since the first hand leads.

>>> round(catch_rate("7 8 9"), 3), 0 < catch_rate("7 10", "defenders") < 1
(0.0, True)
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd

from prefstats.checks import is_int
from prefstats.checks import seat as seat_index
from prefstats.data import shipped
from prefstats.game.cards import N_HOLDINGS, parse_holding
from prefstats.game.deal import FIRST_HAND, N_SEATS
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.published import PUBLISHED, SOURCES

LEADS = ("own", "left", "right")  # the leader's seat relative to the declarer: 0, 1, 2
SETTINGS = ("clean-sides", "lowest-sides", "as-dealt")  # the shipped table's settings
PLAYERS = "players"  # as-dealt where measured on its own, else clean-sides
CATCH_RATES = "catch_rates.parquet"
CATCH_PAIRS = "catch_pairs.parquet"
DESIGNS = ("independent", "paired")  # the samples of ``catch_rates`` (its ``design`` column)


def relative_lead(declarer_seat: int) -> int:
    """Who leads to trick 1, relative to a declarer in ``declarer_seat``: 0 own, 1 left, 2 right.

    >>> [LEADS[relative_lead(seat)] for seat in (0, 1, 2)]
    ['own', 'right', 'left']
    """
    return (FIRST_HAND - seat_index("seat", declarer_seat)) % N_SEATS


def load_catch_rates(
    path: str | Path | None = None, design: str | None = "independent"
) -> pd.DataFrame:
    """The shipped catch-rate table (one row per setting, holding, information model and lead
    in each design), see ``studies.catch_rates``: the rows of ``design`` (one of ``DESIGNS``; the
    default, ``independent``, is open play on the large sample; None: every row).

    >>> table = load_catch_rates()
    >>> sorted(set(table["lead"])), sorted(set(table["information"]))
    (['left', 'own', 'right'], ['open'])
    """
    table = _read_table(Path(path) if path is not None else shipped(CATCH_RATES))
    return table if design is None else design_rows(table, design)


def design_rows(table: pd.DataFrame, design: str) -> pd.DataFrame:
    """The rows of a ``catch_rates`` table in ``design`` (one of ``DESIGNS``)."""
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {', '.join(DESIGNS)}, got {design!r}")
    return table[table["design"] == design].reset_index(drop=True)


def load_catch_pairs(path: str | Path | None = None) -> pd.DataFrame:
    """The shipped table for pairs of catchable suits of at most three cards each."""
    return _read_table(Path(path) if path is not None else shipped(CATCH_PAIRS))


@functools.cache
def _read_table(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise ValueError(f"{path} not found: generate it with `prefstats catch-tables`")
    return pd.read_parquet(path)


def catch_rate_table(
    setting: str = "clean-sides", path: str | Path | None = None
) -> npt.NDArray[np.float64]:
    """P(caught) by holding (256 rows) and lead (columns own, left, right) in a setting (one of
    ``SETTINGS``, or ``players``), read-only.

    Void and clean holdings are exactly 0, conditionally clean holdings 0 on the defenders'
    lead (the one-suit theorem, checked with the solver in the tests); NaN where nothing was
    measured (the eight-card holding on own lead; holdings a setting leaves out).

    >>> rates = catch_rate_table()
    >>> rates.shape, float(rates[parse_holding("7 8"), 0])
    ((256, 3), 0.0)
    """
    if setting not in (*SETTINGS, PLAYERS):
        known = ", ".join((*SETTINGS, PLAYERS))
        raise ValueError(f"unknown catch-rate setting {setting!r}; known: {known}")
    return _rate_table(setting, Path(path) if path is not None else shipped(CATCH_RATES))


@functools.cache
def _rate_table(setting: str, path: Path) -> npt.NDArray[np.float64]:
    table = load_catch_rates(path)
    if setting == PLAYERS:
        table = pd.concat(
            [
                table[table.setting == "clean-sides"],
                table[(table.setting == "as-dealt") & ~table.pooled],
            ]
        )
    else:
        table = table[table.setting == setting]
    return rate_table(table)


def rate_table(table: pd.DataFrame) -> npt.NDArray[np.float64]:
    """P(caught) by holding and lead (256, 3) of rows of a catch-rate table (later rows of a
    holding and lead win), with the suit-class zeros; read-only."""
    rates = np.full((N_HOLDINGS, len(LEADS)), np.nan)
    rates[table["holding_mask"].to_numpy(), lead_index(table)] = table["p_caught"].to_numpy()
    codes = class_codes()
    rates[(codes == SuitClass.CLEAN) | (codes == SuitClass.VOID)] = 0.0
    rates[codes == SuitClass.CONDITIONALLY_CLEAN, 1:] = 0.0
    rates.flags.writeable = False
    return rates


def lead_index(table: pd.DataFrame) -> npt.NDArray[np.int64]:
    """The ``lead`` column of a catch table as 0, 1, 2 (own, left, right: ``LEADS``)."""
    index = table["lead"].map({lead: i for i, lead in enumerate(LEADS)})
    return np.asarray(index, dtype=np.int64)


def catch_pair_table(path: str | Path | None = None) -> npt.NDArray[np.float64]:
    """P(caught) of two catchable suits of at most three cards each, by holdings (256, 256,
    symmetric) and lead (own, left, right); NaN for pairs not in the shipped table. Read-only.

    >>> rates = catch_pair_table()
    >>> a, b = parse_holding("8"), parse_holding("7 10")
    >>> bool(rates[a, b, 1] == rates[b, a, 1] > catch_rate(b, "left"))  # left defender leads
    True
    """
    return _pair_table(Path(path) if path is not None else shipped(CATCH_PAIRS))


@functools.cache
def _pair_table(path: Path) -> npt.NDArray[np.float64]:
    table = _read_table(path)
    rates = np.full((N_HOLDINGS, N_HOLDINGS, len(LEADS)), np.nan)
    a, b = table["holding_a_mask"].to_numpy(), table["holding_b_mask"].to_numpy()
    leader, p = lead_index(table), table["p_caught"].to_numpy()
    rates[a, b, leader] = p
    rates[b, a, leader] = p
    rates.flags.writeable = False
    return rates


def pair_independence(
    path: str | Path | None = None, rates_path: str | Path | None = None
) -> pd.DataFrame:
    """The pairs table beside what independent suits would give: one row per pair and lead with
    the measured P(caught) and its Wilson interval, each holding's single-suit rate (``p_a``,
    ``p_b``, from the single-holding table), the independence prediction ``p_independent`` =
    1 − (1 − p_a)(1 − p_b), ``difference`` = measured − predicted, and ``inside``: the
    prediction lies in the interval.

    The bidders' estimate of a whole hand multiplies the same way, so this table measures that
    approximation on two catchable suits.

    >>> table = pair_independence()
    >>> bool(table["inside"].mean() > 0.8), bool(table["difference"].abs().mean() < 0.05)
    (True, True)
    """
    pairs = load_catch_pairs(path)
    rates = catch_rate_table("clean-sides", rates_path)
    leader = lead_index(pairs)
    p_a = rates[pairs["holding_a_mask"].to_numpy(), leader]
    p_b = rates[pairs["holding_b_mask"].to_numpy(), leader]
    predicted = 1.0 - (1.0 - p_a) * (1.0 - p_b)
    columns = [
        "holding_a",
        "holding_b",
        "n_cards",
        "lead",
        "n",
        "caught",
        "p_caught",
        "p_caught_low",
        "p_caught_high",
    ]
    table = pairs[columns].assign(p_a=p_a, p_b=p_b, p_independent=predicted)
    return table.assign(
        difference=table["p_caught"] - predicted,
        inside=(table["p_caught_low"] <= predicted) & (predicted <= table["p_caught_high"]),
    )


def catch_rate(holding: int | str, lead: str | int = "own", setting: str = "clean-sides") -> float:
    """P(caught) of a holding (mask or text like ``"7 10"``) from the shipped table.

    ``lead``: ``"own"``, ``"left"``, ``"right"`` (or 0, 1, 2: the leader relative to the
    declarer), or ``"defenders"`` (mean of left and right); ``setting`` as in
    :func:`catch_rate_table`.

    >>> catch_rate("7 8 9"), 0 < catch_rate("7 10", "defenders") < 1
    (0.0, True)
    """
    mask = parse_holding(holding) if isinstance(holding, str) else int(holding)
    if not 0 <= mask < N_HOLDINGS:
        raise ValueError(f"a suit holding must be an 8-bit mask in 0..255, got {mask}")
    rates = catch_rate_table(setting)[mask]
    if lead == "defenders":
        return float(rates[1:].mean())
    if isinstance(lead, str) and lead in LEADS:
        return float(rates[LEADS.index(lead)])
    if is_int(lead) and 0 <= lead < 3:
        return float(rates[int(lead)])
    raise ValueError(f"lead must be 'own', 'left', 'right', 'defenders' or 0..2, got {lead!r}")


COMMON_HOLDINGS = ("8", "9", "7 9", "7 10", "7 J", "7 Q", "8 9", "7 8 A", "7 9 Q", "7 10 J")


def published_comparison(
    holdings: tuple[str, ...] = COMMON_HOLDINGS, table: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The three settings side by side, and the published figure, for each holding: one row
    per holding and lead (own, left, right) with each setting's P(caught), its interval and n,
    ``as-dealt`` marked when pooled, then the published figure that matches the lead (own, or
    the defenders' for left and right, or one with the lead unstated) and its source.
    ``table``: the ``independent`` rows of a catch-rate table (default: the shipped one's)."""
    table = load_catch_rates() if table is None else table
    rows = []
    for text in holdings:
        mask = parse_holding(text)
        for lead in LEADS:
            row: dict[str, object] = {"holding": text, "lead": lead}
            for setting in SETTINGS:
                hit = table[
                    (table.setting == setting) & (table.holding_mask == mask) & (table.lead == lead)
                ]
                if hit.empty:
                    continue
                found = hit.iloc[0]
                row[setting] = found.p_caught
                row[f"{setting} 95% CI"] = f"{found.p_caught_low:.3f}–{found.p_caught_high:.3f}"
                row[f"{setting} n"] = int(found.n)
                if setting == "as-dealt":
                    row["as-dealt pooled"] = bool(found.pooled)
            row.update(_published(text, lead))
            rows.append(row)
    return pd.DataFrame(rows)


def _published(text: str, lead: str) -> dict[str, object]:
    wanted = {"own"} if lead == "own" else {"defenders"}
    for record in PUBLISHED:
        if record.holding == text and (record.lead in wanted or record.lead == "unstated"):
            return {
                "published": record.text,
                "published lead": record.lead,
                "source": SOURCES[record.source],
            }
    return {"published": "", "published lead": "", "source": ""}
