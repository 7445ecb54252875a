"""Solo and shared EV of every misère a study run played (docs/rules.md, "Shared misère").

Each misère hand of the run is judged as its declarer judges it before the talon: its misère
risk over random talons and layouts (``players.misere_risk``), then the values and decisions of
``players.sharing`` for a four-player game under Sochi scoring.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from prefstats.game.cards import format_hand
from prefstats.game.deal import Stream
from prefstats.game.rules import MISERE_RANK, Convention, RuleSet
from prefstats.misere.classes import misere_hand_class
from prefstats.players.misere_risk import misere_risk
from prefstats.players.sharing import (
    RISK_AVERSIONS,
    Utility,
    break_even_catch_probability,
    dealer_should_accept,
    inviter_choice,
    option_values,
)
from prefstats.stats import Estimate, ratio_of_means
from prefstats.studies.runs import Chunk, load_run, read_spec, run_chunks
from prefstats.studies.study import load_study

MISERE_EV_CHUNK = 200  # misères per chunk of run_misere_ev
EV_RULES = RuleSet(players=4)  # four players (the game where sharing exists), Sochi


def run_misere_ev(
    run: str | Path,
    out: str | Path,
    *,
    n: int = 200,
    seed: int = 1,
    discard: str = "heuristic",
    scoring: str = "sochi",
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Solo and shared EV of every misère played in a study run (:func:`hand_misere_ev`, ``n``
    layouts a hand), as a resumable chunked run in the folder ``out``; returns the table, one
    row per misère in run order.

    Each hand draws from its own sub-stream (``seed`` and its row in the study), so the table is
    the same whatever the chunks, the workers or the backend; rerunning resumes.
    """
    misere = _misere_rows(str(Path(run).resolve()))  # the chunks below read the same rows
    count = len(misere)
    if count == 0:
        return shipped_ev(hand_misere_ev(misere, n=n, seed=seed, discard=discard, scoring=scoring))
    spec = {
        "kind": "misere_ev",
        "run": str(Path(run).resolve()),
        "study": read_spec(run),
        "n": count,
        "chunk_size": MISERE_EV_CHUNK,
        "seed": seed,
        "layouts": n,
        "discard": discard,
        "scoring": scoring,
    }
    run_chunks(
        misere_ev_chunk,
        spec,
        out,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        progress=progress,
        unit="hand",
    )
    return shipped_ev(load_run(out))


def shipped_ev(table: pd.DataFrame) -> pd.DataFrame:
    """The EV table's columns as written (``misere_ev``, prefstats/data/README.md), from the
    per-hand rows of :func:`hand_misere_ev` (``hand`` the 32-bit mask, ``cards`` as printed):
    ``hand`` the hand as printed, ``hand_mask`` its mask right after it."""
    table = table.rename(columns={"hand": "hand_mask"}).rename(columns={"cards": "hand"})
    rest = [c for c in table.columns if c != "hand_mask"]
    at = rest.index("hand") + 1
    return table[[*rest[:at], "hand_mask", *rest[at:]]]


def misere_ev_chunk(spec: dict[str, Any], chunk: Chunk) -> pd.DataFrame:
    """The study's misères ``chunk.start`` … (in run order), ``chunk.rows`` of them."""
    bids = _misere_rows(spec["run"]).iloc[chunk.start : chunk.start + chunk.rows]
    return hand_misere_ev(
        bids, n=spec["layouts"], seed=spec["seed"], discard=spec["discard"], scoring=spec["scoring"]
    )


@functools.lru_cache(maxsize=2)
def _misere_rows(run: str) -> pd.DataFrame:
    """The rows of a study run with a misère played (read once per worker process)."""
    table = load_study(run)
    return table[table.contract == MISERE_RANK]


def hand_misere_ev(
    table: pd.DataFrame,
    *,
    n: int = 200,
    seed: int = 0,
    discard: str = "heuristic",
    scoring: str = "sochi",
) -> pd.DataFrame:
    """Solo and shared EV of every misère played in a study table (one row per misère).

    Each hand is judged before the talon from the declarer's seat (``misere_risk``), over ``n``
    layouts drawn from sub-stream (row,) of ``seed``, the row being its row number in the
    study. Columns: the hand, seat, its misère class, P(caught),
    E[tricks], the solo and shared EV (4 players, ``scoring`` convention), whether a
    risk-neutral dealer accepts, and for each
    risk aversion in ``RISK_AVERSIONS`` the inviter's choice and the value of the sharing
    option (certainty equivalent gained by being able to invite).
    """
    rules = RuleSet(players=4, scoring=cast(Convention, scoring))  # RuleSet checks the name
    rows = []
    bids = table[table.contract == MISERE_RANK]
    seats = bids["declarer"].to_numpy().astype(int)
    hands = bids[["first", "second", "third"]].to_numpy()[np.arange(len(bids)), seats]
    for index, seat, hand in zip(bids.index.to_numpy(), seats, hands.astype(int), strict=True):
        result = misere_risk(
            int(hand), seat=int(seat), n=n, discard=discard, seed=Stream(seed, (int(index),))
        )
        nets = option_values(result.tricks, rules)
        record = {
            "hand": int(hand),
            "cards": format_hand(int(hand)),
            "seat": int(seat),
            "class": misere_hand_class(int(hand)).value,
            "p_caught": result.p_caught.estimate,
            "mean_tricks": result.mean_tricks.estimate,
            "solo_ev": float(nets["solo"].mean()),
            "shared_ev": float(nets["inviter_if_shared"].mean()),
            "dealer_accepts": dealer_should_accept(result.tricks, rules),
            "n": result.n,
        }
        for a in RISK_AVERSIONS:
            u = Utility(a)
            choice = inviter_choice(result.tricks, rules, u)
            solo_ce = u.certainty_equivalent(nets["solo"])
            best = (
                u.certainty_equivalent(nets["inviter_if_shared"])
                if choice == "invite"
                else (solo_ce if choice == "solo" else 0.0)
            )
            record[f"choice_{a}"] = choice
            record[f"option_value_{a}"] = best - max(solo_ce, 0.0)
        rows.append(record)
    return pd.DataFrame(rows)


def tricks_when_caught(ev_table: pd.DataFrame) -> Estimate:
    """m, the mean tricks a caught misère takes, over the misères of an EV table: Σ E[tricks]
    / Σ P(caught) of its hands (each judged on its own layouts), with a delta-method interval
    over hands."""
    return ratio_of_means(ev_table["mean_tricks"].to_numpy(), ev_table["p_caught"].to_numpy())


def break_even(ev_table: pd.DataFrame, rules: RuleSet = EV_RULES) -> Estimate:
    """The catch probability at which a solo misère is worth nothing, p* = W / (W + L·m)
    (``sharing.break_even_catch_probability``), at the m of :func:`tricks_when_caught`, with
    the interval that m's interval gives (p* falls as m grows)."""
    m = tricks_when_caught(ev_table)
    p, low, high = (
        break_even_catch_probability(max(v, 1.0), rules) for v in (m.estimate, m.high, m.low)
    )
    return Estimate(p, low, high, m.n, m.count)
