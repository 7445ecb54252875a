"""Solo and shared EV of every misère a study run played (docs/rules.md, "Shared misère").

Each misère hand of the run is judged as its declarer judges it before the talon: its misère
risk over random talons and layouts (``players.misere_risk``), then the values and decisions of
``players.sharing`` for a four-player game under Sochi scoring.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prefstats.game.deal import Stream
from prefstats.game.rules import MISERE_RANK, RuleSet
from prefstats.misere.classes import misere_hand_class
from prefstats.players.misere_risk import misere_risk
from prefstats.players.sharing import (
    RISK_AVERSIONS,
    Utility,
    dealer_should_accept,
    inviter_choice,
    option_values,
)
from prefstats.studies.runs import Chunk, load_run, read_spec, run_chunks
from prefstats.studies.study import load_study

MISERE_EV_CHUNK = 200  # misères per chunk of run_misere_ev


def run_misere_ev(
    run: str | Path,
    out: str | Path,
    *,
    n: int = 200,
    seed: int = 1,
    discard: str = "heuristic",
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
    table = load_study(run)
    count = int((table.contract == MISERE_RANK).sum())
    if count == 0:
        return hand_misere_ev(table, n=n, seed=seed, discard=discard)
    spec = {"kind": "misere_ev", "run": str(Path(run).resolve()), "study": read_spec(run),
            "n": count, "chunk_size": MISERE_EV_CHUNK, "seed": seed, "layouts": n,
            "discard": discard}  # fmt: skip
    run_chunks(misere_ev_chunk, spec, out, jobs=jobs, backend=backend, scheduler=scheduler,
               progress=progress, unit="hand")  # fmt: skip
    return load_run(out)


def misere_ev_chunk(spec: dict[str, Any], chunk: Chunk) -> pd.DataFrame:
    """The study's misères ``chunk.start`` … (in run order), ``chunk.rows`` of them."""
    bids = _misere_rows(spec["run"]).iloc[chunk.start : chunk.start + chunk.rows]
    return hand_misere_ev(bids, n=spec["layouts"], seed=spec["seed"], discard=spec["discard"])


@functools.lru_cache(maxsize=2)
def _misere_rows(run: str) -> pd.DataFrame:
    """The rows of a study run with a misère played (read once per worker process)."""
    table = load_study(run)
    return table[table.contract == MISERE_RANK]


def hand_misere_ev(
    table: pd.DataFrame, *, n: int = 200, seed: int = 0, discard: str = "heuristic"
) -> pd.DataFrame:
    """Solo and shared EV of every misère played in a study table (one row per misère).

    Each hand is judged before the talon from the declarer's seat (``misere_risk``), over ``n``
    layouts drawn from sub-stream (row,) of ``seed``, the row being its row number in the
    study. Columns: the hand, seat, its misère class, P(caught),
    E[tricks], the solo EV (4 players), whether a risk-neutral dealer accepts, and for each
    risk aversion in ``RISK_AVERSIONS`` the inviter's choice and the value of the sharing
    option (certainty equivalent gained by being able to invite).
    """
    rules = RuleSet(players=4)
    rows = []
    bids = table[table.contract == MISERE_RANK]
    seats = bids["declarer"].to_numpy().astype(int)
    hands = bids[["first", "second", "third"]].to_numpy()[np.arange(len(bids)), seats]
    for index, seat, hand in zip(bids.index.to_numpy(), seats, hands.astype(int), strict=True):
        result = misere_risk(int(hand), seat=int(seat), n=n, discard=discard,
                             seed=Stream(seed, (int(index),)))  # fmt: skip
        nets = option_values(result.tricks, rules)
        record = {
            "hand": int(hand), "seat": int(seat), "class": misere_hand_class(int(hand)).value,
            "p_caught": result.p_caught.estimate, "mean_tricks": result.mean_tricks.estimate,
            "solo_ev": float(nets["solo"].mean()),
            "dealer_accepts": dealer_should_accept(result.tricks, rules), "n": result.n,
        }  # fmt: skip
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
