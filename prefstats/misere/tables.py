"""The shipped catch-rate tables and their lookup (docs/rules.md, "Misère suit classes").

``catch_rates.parquet`` gives, for every holding of one suit, P(caught), E[tricks] and the trick
distribution of a misère declarer holding it, measured with the exact solver over random
layouts (:mod:`prefstats.studies.catch_tables` writes it and documents the model: the cards the
declarer holds in the other suits, the cards out of play, who leads); ``catch_pairs.parquet``
the same for two catchable suits at once. A lead is named relative to the declarer: ``"own"``
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

from prefstats.data import shipped
from prefstats.game.cards import N_HOLDINGS, parse_holding
from prefstats.game.deal import FIRST_HAND, N_SEATS
from prefstats.misere.classes import SuitClass, class_codes

LEADS = ("own", "left", "right")  # the leader's seat relative to the declarer: 0, 1, 2
CATCH_RATES = "catch_rates.parquet"
CATCH_PAIRS = "catch_pairs.parquet"


def relative_lead(declarer_seat: int) -> int:
    """Who leads to trick 1, relative to a declarer in ``declarer_seat``: 0 own, 1 left, 2 right.

    >>> [LEADS[relative_lead(seat)] for seat in (0, 1, 2)]
    ['own', 'right', 'left']
    """
    if declarer_seat not in range(N_SEATS) or isinstance(declarer_seat, bool):
        raise ValueError(
            f"seat must be 0, 1 or 2 (first, second, third hand), got {declarer_seat!r}"
        )
    return (FIRST_HAND - int(declarer_seat)) % N_SEATS


def load_catch_rates(path: str | Path | None = None) -> pd.DataFrame:
    """The shipped catch-rate table (one row per holding and lead), see ``catch_tables``.

    >>> table = load_catch_rates()
    >>> sorted(set(table["lead"]))
    ['left', 'own', 'right']
    """
    return _read_table(Path(path) if path is not None else shipped(CATCH_RATES))


def load_catch_pairs(path: str | Path | None = None) -> pd.DataFrame:
    """The shipped table for pairs of catchable suits of at most three cards each."""
    return _read_table(Path(path) if path is not None else shipped(CATCH_PAIRS))


@functools.cache
def _read_table(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise ValueError(f"{path} not found: generate it with `prefstats catch-tables`")
    return pd.read_parquet(path)


def catch_rate_table(path: str | Path | None = None) -> npt.NDArray[np.float64]:
    """P(caught) by holding (256 rows) and lead (columns own, left, right), read-only.

    Void and clean holdings are exactly 0, conditionally clean holdings 0 on the defenders'
    lead (the one-suit theorem, checked with the solver in the tests); NaN where nothing was
    measured (the eight-card holding on own lead).

    >>> rates = catch_rate_table()
    >>> rates.shape, float(rates[parse_holding("7 8"), 0])
    ((256, 3), 0.0)
    """
    return _rate_table(Path(path) if path is not None else shipped(CATCH_RATES))


@functools.cache
def _rate_table(path: Path) -> npt.NDArray[np.float64]:
    table = _read_table(path)
    rates = np.full((N_HOLDINGS, len(LEADS)), np.nan)
    rates[table["holding"].to_numpy(), table["leader"].to_numpy()] = table["p_caught"].to_numpy()
    codes = class_codes()
    rates[(codes == SuitClass.CLEAN) | (codes == SuitClass.VOID)] = 0.0
    rates[codes == SuitClass.CONDITIONALLY_CLEAN, 1:] = 0.0
    rates.flags.writeable = False
    return rates


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
    a, b = table["holding_a"].to_numpy(), table["holding_b"].to_numpy()
    leader, p = table["leader"].to_numpy(), table["p_caught"].to_numpy()
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
    rates = catch_rate_table(rates_path)
    leader = pairs["leader"].to_numpy()
    p_a = rates[pairs["holding_a"].to_numpy(), leader]
    p_b = rates[pairs["holding_b"].to_numpy(), leader]
    predicted = 1.0 - (1.0 - p_a) * (1.0 - p_b)
    columns = ["text_a", "text_b", "n_cards", "lead", "n", "caught", "p_caught", "p_caught_low",
               "p_caught_high"]  # fmt: skip
    table = pairs[columns].assign(p_a=p_a, p_b=p_b, p_independent=predicted)
    return table.assign(
        difference=table["p_caught"] - predicted,
        inside=(table["p_caught_low"] <= predicted) & (predicted <= table["p_caught_high"]),
    )


def catch_rate(holding: int | str, lead: str | int = "own") -> float:
    """P(caught) of a holding (mask or text like ``"7 10"``) from the shipped table.

    ``lead``: ``"own"``, ``"left"``, ``"right"`` (or 0, 1, 2: the leader relative to the
    declarer), or ``"defenders"`` (mean of left and right).

    >>> catch_rate("7 8 9"), 0 < catch_rate("7 10", "defenders") < 1
    (0.0, True)
    """
    mask = parse_holding(holding) if isinstance(holding, str) else int(holding)
    if not 0 <= mask < N_HOLDINGS:
        raise ValueError(f"a suit holding must be an 8-bit mask in 0..255, got {mask}")
    rates = catch_rate_table()[mask]
    if lead == "defenders":
        return float(rates[1:].mean())
    if isinstance(lead, str) and lead in LEADS:
        return float(rates[LEADS.index(lead)])
    if isinstance(lead, int | np.integer) and not isinstance(lead, bool) and 0 <= lead < 3:
        return float(rates[int(lead)])
    raise ValueError(f"lead must be 'own', 'left', 'right', 'defenders' or 0..2, got {lead!r}")
