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

Policies: ``--evaluator`` heuristic (``evaluators.HeuristicEvaluator``), oracle (the dealt
potential below) or sampled (``evaluators.SampledEvaluator``, single-dummy); ``--discard``
heuristic, dd (the double-dummy best discard, knowing the layout) or sampled (chosen on sampled
layouts before the defenders' cards are seen, ``sampled_discards``). ``discard_policy_effect``
compares runs that differ only in ``--discard``.

Seeds: a chunk's deals come from its ``SeedSequence``; the sampling policies draw from its
children ``(*spawn_key, k)``: k = 0, 1, 2 the sampled evaluator of seat k, k = 3 the sampled
discard. A chunk's rows therefore depend on its seed alone, not on the workers.

With ``potential`` it adds, for each seat s, ``potential{s}`` (the highest contract the seat makes
double-dummy with the talon, its best discard and best trump, the first hand leading) and
``clean{s}`` (it takes no trick on misère likewise), see ``solver.potential_many``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prefstats import __version__
from prefstats.bidding import ALL_PASS, MISERE_RANK, auction_many
from prefstats.cards import N_SUITS
from prefstats.catch import misere_risk
from prefstats.deal import SeedLike, deal_many
from prefstats.declarer import (
    contract_discards,
    discard_shortlist,
    misere_discards,
    sample_layouts,
)
from prefstats.ev import hand_misere_ev
from prefstats.evaluators import HeuristicEvaluator, SampledEvaluator, holdings
from prefstats.misere import class_codes
from prefstats.rules import LADDER, RuleSet, Strain
from prefstats.runs import load_run, read_spec, run_chunks
from prefstats.scoring import contract_net_table, misere_net
from prefstats.solver import best_discard_many, potential_many, solve_many
from prefstats.stats import wilson_interval, z_value

EVALUATORS = ("heuristic", "oracle", "sampled")
DISCARDS = ("heuristic", "dd", "sampled")
DISCARD_SAMPLES = 8  # layouts a sampled discard is judged on
DISCARD_CANDIDATES = 4  # discards it compares: the heuristic's best, one per equivalence class
DISCARD_STREAM = 3  # child seed of the sampled discard (0..2: the sampled evaluator by seat)
SAMPLED_EVALUATOR_KEYS = ("samples", "threshold")
SAMPLED_DISCARD_KEYS = ("discard_samples", "discard_candidates")
HEURISTIC_EVALUATOR_KEYS = ("misere_risk_limit",)
MISERE_RISK_LIMIT = HeuristicEvaluator.misere_risk_limit
MISERE_EV_CHUNK = 200  # bid misères per chunk of run_misere_ev (about 10 s of one core)
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
    samples: int = 16
    threshold: float = 0.6
    discard_samples: int = DISCARD_SAMPLES
    discard_candidates: int = DISCARD_CANDIDATES
    misere_risk_limit: float | None = MISERE_RISK_LIMIT

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError(f"--deals must be positive, got {self.deals}")
        if self.evaluator not in EVALUATORS:
            raise ValueError(f"unknown evaluator {self.evaluator!r}; known: {EVALUATORS}")
        if self.discard not in DISCARDS:
            raise ValueError(f"unknown discard policy {self.discard!r}; known: {DISCARDS}")
        RuleSet.named(self.rules)
        SampledEvaluator(self.samples, self.threshold)
        for name in SAMPLED_DISCARD_KEYS:
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        limit = self.misere_risk_limit
        if limit is not None and not 0.0 <= limit <= 1.0:
            raise ValueError(f"--misere-risk-limit must be in [0, 1] or none, got {limit}")

    def as_run_spec(self) -> dict[str, Any]:
        """The spec dict of ``runs.run_chunks``: n, chunk_size, seed and the rest. The settings
        of a sampling policy the run does not use are left out (older runs resume unchanged)."""
        spec = asdict(self)
        spec["n"] = spec.pop("deals")
        unused = (
            (SAMPLED_EVALUATOR_KEYS if self.evaluator != "sampled" else ())
            + (SAMPLED_DISCARD_KEYS if self.discard != "sampled" else ())
            + (HEURISTIC_EVALUATOR_KEYS if self.evaluator != "heuristic" else ())
        )
        for key in unused:
            del spec[key]
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
    elif spec["evaluator"] == "sampled":
        sampled = SampledEvaluator(spec["samples"], spec["threshold"])
        limits = np.stack(
            [sampled.limits(deals[:, s], s, child_seed(seed, s)) for s in range(N_SEATS)], axis=1
        )
    else:
        evaluator = HeuristicEvaluator(
            misere_risk_limit=spec.get("misere_risk_limit", MISERE_RISK_LIMIT)
        )
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
    play = play_contracts(
        deals, auction[:, 0], auction[:, 1], rules, spec["discard"],
        seed=child_seed(seed, DISCARD_STREAM),
        samples=spec.get("discard_samples", DISCARD_SAMPLES),
        candidates=spec.get("discard_candidates", DISCARD_CANDIDATES),
    )  # fmt: skip
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
    """Solo and shared EV of every misère bid in a study run (``ev.hand_misere_ev`` with
    ``catch.misere_risk``, ``n`` layouts a hand), as a resumable chunked run in the folder
    ``out``; returns the table, one row per bid misère in run order.

    Each hand draws from its own seed (``seed`` and its row in the study), so the table is the
    same whatever the chunks, the workers or the backend; rerunning resumes.
    """
    table = load_run(run)
    count = int((table.contract == MISERE_RANK).sum())
    if count == 0:
        return hand_misere_ev(table, misere_risk, n=n, seed=seed, discard=discard)
    spec = {"kind": "misere_ev", "run": str(Path(run).resolve()), "study": read_spec(run),
            "n": count, "chunk_size": MISERE_EV_CHUNK, "seed": seed, "layouts": n,
            "discard": discard}  # fmt: skip
    run_chunks(misere_ev_chunk, spec, out, jobs=jobs, backend=backend, scheduler=scheduler,
               progress=progress, unit="hand")  # fmt: skip
    return load_run(out)


def misere_ev_chunk(spec: dict[str, Any], rows: int, seed: np.random.SeedSequence) -> pd.DataFrame:
    """Chunk i of ``run_misere_ev`` (i is the last key of ``seed``): the study's bid misères
    i·chunk_size onwards, ``rows`` of them; each hand's own seed comes from the run's seed."""
    index = int(seed.spawn_key[-1])
    start = index * spec["chunk_size"]
    bids = _bid_misere_rows(spec["run"]).iloc[start : start + rows]
    return hand_misere_ev(bids, misere_risk, n=spec["layouts"], seed=spec["seed"],
                          discard=spec["discard"])  # fmt: skip


@functools.lru_cache(maxsize=2)
def _bid_misere_rows(run: str) -> pd.DataFrame:
    """The rows of a study run with a misère played (read once per worker process)."""
    table = load_run(run)
    return table[table.contract == MISERE_RANK]


def child_seed(seed: np.random.SeedSequence, key: int) -> np.random.SeedSequence:
    """The ``key``-th child of a chunk's seed, as ``seed.spawn`` would make it, but without
    changing ``seed`` (so a chunk computed twice from one object gives the same rows).

    >>> child_seed(np.random.SeedSequence(7, spawn_key=(2,)), 3).spawn_key
    (2, 3)
    """
    return np.random.SeedSequence(
        seed.entropy, spawn_key=(*seed.spawn_key, key), pool_size=seed.pool_size
    )


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
    *,
    seed: SeedLike = None,
    samples: int = DISCARD_SAMPLES,
    candidates: int = DISCARD_CANDIDATES,
) -> pd.DataFrame:
    """Talon, discard and final contract, double-dummy play and score, per deal.

    The final contract is always named by the heuristic (``declarer.contract_discards``); the
    discard follows ``discard_policy``: ``heuristic``; ``dd``, the best discard for that
    contract knowing the layout (``solver.best_discard_many``), an optimistic bound; or
    ``sampled``, ``sampled_discards`` with ``seed``, ``samples`` and ``candidates``.
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
    elif discard_policy == "sampled":
        discard[declared] = sampled_discards(
            deals[declared], seats, contract[declared], seed, samples, candidates
        )
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


def sampled_discards(
    deals: np.ndarray,
    declarers: np.ndarray,
    contracts: np.ndarray,
    seed: SeedLike = None,
    samples: int = DISCARD_SAMPLES,
    candidates: int = DISCARD_CANDIDATES,
) -> np.ndarray:
    """The discard a declarer chooses before he sees the defenders' cards, per deal.

    He knows his 12 cards (hand and talon) and ignores what the bidding told him. He draws
    ``samples`` layouts of the other 20 cards (``declarer.sample_layouts``) and scores each of
    his ``candidates`` best discards by the heuristic (``declarer.discard_shortlist``: one per
    class of equivalent discards, best first) by its mean double-dummy tricks on them, the first
    hand leading; he keeps the most (a contract) or the fewest (misère), ties to the heuristic's
    order. Every candidate meets the same layouts (common random numbers: the comparison is
    paired). Cost: ``samples`` × ``candidates`` exact solves per deal; the shortlist keeps it
    affordable and holds, by construction, the heuristic's own choice.
    """
    declarers = np.asarray(declarers, dtype=np.intp)
    contracts = np.asarray(contracts, dtype=np.intp)
    rows = np.arange(len(deals))
    hands12 = deals[rows, declarers] | deals[:, N_SEATS]
    shortlist = discard_shortlist(hands12, contracts, candidates)
    hands = np.zeros((len(deals), samples, N_SEATS), dtype=np.uint32)
    layouts = sample_layouts(hands12, samples, seed)
    hands[rows, :, (declarers + 1) % N_SEATS] = layouts[..., 0]
    hands[rows, :, (declarers + 2) % N_SEATS] = layouts[..., 1]
    mean = np.full(shortlist.shape, np.nan)
    for c in range(candidates):
        ok = np.flatnonzero(shortlist[:, c])
        trial = hands[ok]
        trial[np.arange(len(ok)), :, declarers[ok]] = (hands12[ok] & ~shortlist[ok, c])[:, None]
        tricks = solve_by_group(
            trial.reshape(-1, N_SEATS),
            np.repeat(declarers[ok], samples),
            np.repeat(contracts[ok], samples).astype(np.int8),
        )
        mean[ok, c] = tricks.reshape(len(ok), samples).mean(axis=1)
    loss = np.where(contracts == MISERE_RANK, 1, -1)[:, None] * mean
    choice = np.where(np.isnan(loss), np.inf, loss).argmin(axis=1)
    return shortlist[rows, choice]


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
        name: run if isinstance(run, pd.DataFrame) else load_run(run) for name, run in runs.items()
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
