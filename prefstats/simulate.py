"""The study: deal, bid, take the talon, discard, solve the played contract, score.

``run_study`` drives ``study_chunk`` through ``runs.run_chunks`` (chunks, seeds, resume, loky or
dask). Each row of a chunk is one deal:

=============================  ================================================================
first, second, third, talon    the deal (uint32 masks)
limit0..limit2                 each seat's highest bid from its evaluator (ladder rank, -1 pass)
declarer                       seat that won the auction, -1 for an all-pass deal
bid                            the winning bid (ladder rank), -1 for all-pass
contract                       the contract named after the talon (misère stays misère)
discard                        the declarer's two discarded cards
tricks                         the declarer's tricks, double-dummy, first hand leading
made                           tricks >= level (contract) or tricks == 0 (misère)
score                          the declarer's net whists (3 players, both defenders whist)
class0..class3                 suit classes of the declarer's ten cards (SuitClass, -1 if none)
=============================  ================================================================

With ``potential`` it adds, for each seat s, ``potential{s}`` (the highest contract the seat makes
double-dummy with the talon, its best discard and best trump, the first hand leading) and
``clean{s}`` (it takes no trick on misère likewise), see ``solver.potential_many``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prefstats import __version__
from prefstats.bidding import ALL_PASS, MISERE_RANK, auction_many
from prefstats.cards import N_SUITS
from prefstats.deal import deal_many
from prefstats.declarer import contract_discards, misere_discards
from prefstats.evaluators import HeuristicEvaluator, holdings
from prefstats.misere import class_codes
from prefstats.rules import LADDER, RuleSet, Strain
from prefstats.runs import run_chunks
from prefstats.scoring import contract_net_table, misere_net
from prefstats.solver import best_discard_many, potential_many, solve_many

EVALUATORS = ("heuristic", "oracle")
DISCARDS = ("heuristic", "dd")
N_SEATS = 3
FIRST_HAND = 0  # leads to the first trick, whoever declares (RULES.md "Cards and deal")
LEVEL_OF_RANK = np.array([c.level for c in LADDER], dtype=np.int8)
STRAIN_OF_RANK = np.array([-1 if c.strain is None else c.strain for c in LADDER], dtype=np.int8)


@dataclass(frozen=True)
class StudySpec:
    """What a study run is: its size, seed and policies (stored as the run's provenance)."""

    deals: int
    seed: int
    chunk_size: int = 20_000
    evaluator: str = "heuristic"
    discard: str = "heuristic"
    rules: str = "codex"
    potential: bool = False

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError(f"--deals must be positive, got {self.deals}")
        if self.evaluator not in EVALUATORS:
            raise ValueError(f"unknown evaluator {self.evaluator!r}; known: {EVALUATORS}")
        if self.discard not in DISCARDS:
            raise ValueError(f"unknown discard policy {self.discard!r}; known: {DISCARDS}")
        RuleSet.named(self.rules)

    def as_run_spec(self) -> dict[str, Any]:
        """The spec dict of ``runs.run_chunks``: n, chunk_size, seed and the rest."""
        spec = asdict(self)
        spec["n"] = spec.pop("deals")
        return {"kind": "study", "version": __version__, **spec}


def run_study(
    spec: StudySpec,
    out: str | Path,
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = True,
) -> Path:
    """Run (or resume) a study into the folder ``out``; returns the folder."""
    run_chunks(
        study_chunk, spec.as_run_spec(), out, jobs=jobs, backend=backend, scheduler=scheduler,
        progress=progress,
    )  # fmt: skip
    return Path(out)


def study_chunk(spec: dict[str, Any], rows: int, seed: np.random.SeedSequence) -> pd.DataFrame:
    """One chunk of a study: ``rows`` deals from ``seed`` (see the module docstring)."""
    rules = RuleSet.named(spec["rules"])
    deals = deal_many(rows, seed)
    potential = (
        potential_many(deals) if spec["potential"] or spec["evaluator"] == "oracle" else None
    )
    if spec["evaluator"] == "oracle":
        assert potential is not None
        limits = oracle_limits(*potential)
    else:
        evaluator = HeuristicEvaluator()
        limits = np.stack([evaluator.limits(deals[:, s], s) for s in range(N_SEATS)], axis=1)
    auction = auction_many(limits, rules)
    table = pd.DataFrame(
        {
            "first": deals[:, 0], "second": deals[:, 1], "third": deals[:, 2],
            "talon": deals[:, 3],
            **{f"limit{s}": limits[:, s] for s in range(N_SEATS)},
            "declarer": auction[:, 0], "bid": auction[:, 1],
        }
    )  # fmt: skip
    play = play_contracts(deals, auction[:, 0], auction[:, 1], rules, spec["discard"])
    parts = [table, play]
    if spec["potential"]:
        assert potential is not None
        best, clean = potential
        parts.append(
            pd.DataFrame(
                {
                    **{f"potential{s}": best[:, s] for s in range(N_SEATS)},
                    **{f"clean{s}": clean[:, s] for s in range(N_SEATS)},
                }
            )
        )
    return pd.concat(parts, axis=1)


def oracle_limits(best: np.ndarray, clean: np.ndarray) -> np.ndarray:
    """The oracle's limits: each seat's potential, or misère when it is clean double-dummy and
    no nine is makeable (a nine outranks misère)."""
    return np.where(clean & (best < MISERE_RANK), MISERE_RANK, best).astype(np.int8)


def play_contracts(
    deals: np.ndarray,
    declarers: np.ndarray,
    bids: np.ndarray,
    rules: RuleSet,
    discard_policy: str = "heuristic",
) -> pd.DataFrame:
    """Talon, discard and final contract, double-dummy play and score, per deal.

    The final contract is always named by the heuristic (``declarer.contract_discards``); the
    discard follows ``discard_policy``: ``heuristic``, or ``dd``, the best discard for that
    contract knowing the layout (``solver.best_discard_many``), an optimistic bound.
    """
    n = len(deals)
    contract = np.full(n, -1, np.int8)
    discard = np.zeros(n, np.uint32)
    tricks = np.full(n, -1, np.int8)
    declared = np.flatnonzero(declarers != ALL_PASS)
    seats = declarers[declared].astype(np.intp)
    hands12 = deals[declared, seats] | deals[declared, 3]
    misere = bids[declared] == MISERE_RANK
    discard[declared[misere]] = misere_discards(hands12[misere])
    contract[declared[misere]] = MISERE_RANK
    trick_discard, final = contract_discards(hands12[~misere], bids[declared[~misere]])
    discard[declared[~misere]] = trick_discard
    contract[declared[~misere]] = final
    if discard_policy == "dd":
        discard[declared] = dd_discards(deals[declared], seats, contract[declared])
    hands = deals[:, :N_SEATS].copy()
    hands[declared, seats] = hands12 & ~discard[declared]
    tricks[declared] = solve_by_group(hands[declared], seats, contract[declared])
    made = made_mask(contract, tricks)
    return pd.DataFrame(
        {
            "contract": contract, "discard": discard, "tricks": tricks, "made": made,
            "score": declarer_score(contract, tricks, rules),
            **declarer_classes(hands, declarers),
        }
    )  # fmt: skip


def dd_discards(deals: np.ndarray, declarers: np.ndarray, contracts: np.ndarray) -> np.ndarray:
    """The double-dummy best discard for each deal's contract, one batch per strain."""
    discards = np.zeros(len(deals), np.uint32)
    strains = STRAIN_OF_RANK[contracts]
    for strain in (-1, *Strain):
        rows = np.flatnonzero(strains == strain)
        if rows.size:
            trump = int(strain) if 0 <= strain < N_SUITS else None
            discards[rows] = best_discard_many(
                deals[rows], declarers[rows], trump=trump, misere=strain == -1
            )[0]
    return discards


def solve_by_group(hands: np.ndarray, declarers: np.ndarray, contracts: np.ndarray) -> np.ndarray:
    """Double-dummy tricks of each deal's declarer, the first hand leading; one vectorised
    ``solve_many`` per (declarer, strain) group."""
    tricks = np.zeros(len(hands), np.int8)
    strains = STRAIN_OF_RANK[contracts]
    for seat in range(N_SEATS):
        for strain in (-1, *Strain):
            rows = np.flatnonzero((declarers == seat) & (strains == strain))
            if not rows.size:
                continue
            trump = int(strain) if 0 <= strain < N_SUITS else None
            tricks[rows] = solve_many(
                hands[rows], trump=trump, misere=strain == -1, declarer=seat, leader=FIRST_HAND
            )
    return tricks


def made_mask(contracts: np.ndarray, tricks: np.ndarray) -> np.ndarray:
    """Contract made: tricks >= level; misère: no trick; all-pass rows: False."""
    played = contracts >= 0
    level = LEVEL_OF_RANK[np.where(played, contracts, 0)]
    return played & np.where(contracts == MISERE_RANK, tricks == 0, tricks >= level)


def declarer_score(contracts: np.ndarray, tricks: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The declarer's net whists, by table look-up (``scoring.contract_net_table``)."""
    score = np.zeros(len(contracts), np.float64)
    misere = contracts == MISERE_RANK
    score[misere] = misere_net(tricks[misere], rules, shared=False)["declarer"]
    games = (contracts >= 0) & ~misere
    table = contract_net_table(rules)
    score[games] = table[LEVEL_OF_RANK[contracts[games]], tricks[games]]
    return score


def declarer_classes(hands: np.ndarray, declarers: np.ndarray) -> dict[str, np.ndarray]:
    """class0..class3: misère suit classes of each declarer's ten cards (-1 for all-pass)."""
    declared = declarers != ALL_PASS
    seat = np.where(declared, declarers, 0).astype(np.intp)
    classes = class_codes()[holdings(hands[np.arange(len(hands)), seat])].astype(np.int8)
    classes[~declared] = -1
    return {f"class{s}": classes[:, s] for s in range(N_SUITS)}
