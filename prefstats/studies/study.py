"""The study: deal, bid, take the talon, discard, solve the played contract, score.

``run_study`` drives ``study_chunk`` through the run driver (``runs.run_chunks``: chunks,
seals, resume, loky or dask). Each row of a chunk is one deal:

=============================  ================================================================
first, second, third, talon    the deal (uint32 masks)
limit0..limit2                 each seat's highest bid from its evaluator (ladder rank, -1 pass)
declarer                       seat that won the auction, -1 for an all-pass deal
bid                            the winning bid (ladder rank), -1 for all-pass
contract                       the contract named after the talon (misère stays misère)
discard                        the declarer's two discarded cards
tricks                         the declarer's tricks, double-dummy, first hand leading
made                           tricks >= level (contract) or tricks == 0 (misère)
score                          the declarer's net whists (both defenders whist; the spec's scoring)
class0..class3                 suit classes of the declarer's ten cards (SuitClass, -1 if none)
=============================  ================================================================

Policies: ``--evaluator`` names an ``evaluators.EVALUATORS`` kind (heuristic, sampled, oracle),
``--discard`` a ``discards.DISCARDS`` policy (heuristic, dd, sampled); the spec keeps their
settings and rebuilds them in every chunk. ``results.discard_policy_effect`` compares runs that
differ only in ``--discard``.

Randomness (docs/design.md, "Random streams"): deal i of the study is ``deal_many``'s deal i of
the seed; the sampled evaluator draws deal i's layouts from sub-stream 1 (seat s: ``(1, s)``)
and the sampled discard from sub-stream 2, both at counter i. A row therefore depends on the
seed and its row number alone, never on the chunk size, the workers or the backend.

With ``potential`` it adds the dealt potential the findings count (docs/rules.md, "The
claim"), each seat taking the talon and making its best discard, double-dummy, the first hand
leading: for each seat s, ``nine{s}`` (the highest nine or ten it makes, a ladder rank; -1 if
none; ``solver.potential_many`` from nine) and ``clean{s}`` (it takes no trick on misère); and
``game`` (some seat makes a six or more, ``solver.some_game_many``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from prefstats.checks import integer, positive
from prefstats.game.bidding import auction_many
from prefstats.game.deal import N_SEATS, PART_SIZES, Stream, deal_many
from prefstats.game.rules import NINE_LEVEL, Convention, RuleSet
from prefstats.players.declarer import play_contracts
from prefstats.players.discards import SHORTLIST, DiscardPolicy, SampledDiscard, discard_policy
from prefstats.players.evaluators import (
    Evaluator,
    HeuristicEvaluator,
    SampledEvaluator,
    evaluator_kind,
)
from prefstats.solver import potential_many, some_game_many
from prefstats.studies.runs import Chunk, load_run, run_chunks
from prefstats.version import __version__

DEAL_COLUMNS = ("first", "second", "third", "talon")
EVALUATOR_STREAM, DISCARD_STREAM = 1, 2  # sub-streams of the seed (the deals use the seed's own)
# Deals per chunk by default: a few seconds of one core, so that progress ticks often. The chunk
# size never changes the rows (see the module docstring).
CHUNK_CHEAP, CHUNK_POTENTIAL, CHUNK_SAMPLED = 20_000, 1_000, 500
# The settings each policy reads from the spec (spec field -> the policy's own field).
EVALUATOR_SETTINGS = {
    "heuristic": {"misere_risk_limit": "misere_risk_limit"},
    "sampled": {"samples": "samples", "threshold": "threshold"},
    "oracle": {},
}
DISCARD_SETTINGS = {
    "heuristic": {},
    "dd": {},
    "sampled": {"discard_samples": "samples", "discard_candidates": "candidates"},
}


@dataclass(frozen=True)
class StudySpec:
    """What a study run is: its size, seed and policies (stored as the run's provenance)."""

    deals: int
    seed: int
    chunk_size: int | None = None  # None: by the cost of a deal (see ``default_chunk_size``)
    evaluator: str = HeuristicEvaluator.name
    discard: str = "heuristic"
    rules: str = "codex"
    scoring: str = "sochi"
    potential: bool = False
    samples: int = SampledEvaluator.samples
    threshold: float = SampledEvaluator.threshold
    discard_samples: int = SampledDiscard.samples
    discard_candidates: int = SHORTLIST
    misere_risk_limit: float | None = HeuristicEvaluator.misere_risk_limit

    def __post_init__(self) -> None:
        if self.chunk_size is None:
            object.__setattr__(self, "chunk_size", self.default_chunk_size())
        for name in ("deals", "chunk_size"):
            value = getattr(self, name)
            positive(name, value)
        integer("seed", self.seed, 0)
        self.rule_set()
        self.evaluator_policy()
        self.discard_policy()

    def rule_set(self) -> RuleSet:
        """The named rule set, written in the spec's scoring convention."""
        scoring = cast(Convention, self.scoring)  # RuleSet converts and checks the name
        return dataclasses.replace(RuleSet.named(self.rules), scoring=scoring)

    def default_chunk_size(self) -> int:
        """Deals per chunk when none is given: a few seconds of one core for these policies."""
        if "sampled" in (self.evaluator, self.discard):
            return CHUNK_SAMPLED
        if self.potential or self.evaluator == "oracle":
            return CHUNK_POTENTIAL
        return CHUNK_CHEAP

    def evaluator_policy(self) -> Evaluator:
        """The evaluator the spec names, with its settings."""
        kind = evaluator_kind(self.evaluator)
        settings = EVALUATOR_SETTINGS[self.evaluator]
        return kind(**{field: getattr(self, own) for own, field in settings.items()})

    def discard_policy(self) -> DiscardPolicy:
        """The discard policy the spec names, with its settings."""
        kind = discard_policy(self.discard)
        settings = DISCARD_SETTINGS[self.discard]
        return kind(**{field: getattr(self, own) for own, field in settings.items()})

    def as_run_spec(self) -> dict[str, Any]:
        """The spec of the run driver: ``kind``, ``version``, ``n`` (the deals), ``chunk_size``
        and the rest; settings of policies the run does not use are left out."""
        used = {*EVALUATOR_SETTINGS[self.evaluator], *DISCARD_SETTINGS[self.discard]}
        unused = {*_policy_settings()} - used
        spec = {k: v for k, v in asdict(self).items() if k not in unused}
        spec["n"] = spec.pop("deals")
        return {"kind": "study", "version": __version__, **spec}

    @classmethod
    def from_run_spec(cls, spec: dict[str, Any]) -> StudySpec:
        """The StudySpec of a stored run spec (``as_run_spec``'s inverse)."""
        if spec.get("kind") != "study":
            raise ValueError(f"not a study run: kind {spec.get('kind')!r}")
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in spec.items() if k in names}
        return cls(deals=spec["n"], **values)


def _policy_settings() -> set[str]:
    return {
        own
        for table in (EVALUATOR_SETTINGS, DISCARD_SETTINGS)
        for settings in table.values()
        for own in settings
    }


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
        study_chunk,
        spec.as_run_spec(),
        out,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        progress=progress,
        check=deal_rows_problem,
    )
    return Path(out)


def study_chunk(run_spec: dict[str, Any], chunk: Chunk) -> pd.DataFrame:
    """Rows ``chunk.start`` … of a study (see the module docstring)."""
    spec = StudySpec.from_run_spec(run_spec)
    stream = Stream.of(spec.seed)
    index = np.arange(chunk.start, chunk.start + chunk.rows)
    deals = deal_many(chunk.rows, stream, start=chunk.start)
    limits = spec.evaluator_policy().limits(deals, stream.child(EVALUATOR_STREAM), index)
    rules = spec.rule_set()
    auction = auction_many(limits, rules)
    table = pd.DataFrame(
        {
            **{name: deals[:, part] for part, name in enumerate(DEAL_COLUMNS)},
            **{f"limit{s}": limits[:, s] for s in range(N_SEATS)},
            "declarer": auction[:, 0],
            "bid": auction[:, 1],
        }
    )
    play = play_contracts(
        deals,
        auction[:, 0],
        auction[:, 1],
        rules,
        spec.discard_policy(),
        stream.child(DISCARD_STREAM),
        index,
    )
    parts = [table, play]
    if spec.potential:
        parts.append(potential_columns(deals))
    return pd.concat(parts, axis=1)


def potential_columns(deals: np.ndarray) -> pd.DataFrame:
    """The ``nine{s}``, ``clean{s}`` and ``game`` columns of the deals (module docstring)."""
    nine, clean = potential_many(deals, min_level=NINE_LEVEL)
    return pd.DataFrame(
        {
            **{f"nine{s}": nine[:, s] for s in range(N_SEATS)},
            **{f"clean{s}": clean[:, s] for s in range(N_SEATS)},
            "game": some_game_many(deals),
        }
    )


def load_study(run: str | Path) -> pd.DataFrame:
    """The rows of a study run, every chunk verified and every deal checked for sense."""
    return load_run(run, check=deal_rows_problem)


def deal_rows_problem(table: pd.DataFrame) -> str | None:
    """Why the deal columns of a run table make no sense (None if they do): every row must be
    four disjoint parts of 10, 10, 10 and 2 cards."""
    if not set(DEAL_COLUMNS) <= set(table.columns):
        return f"no deal columns ({', '.join(DEAL_COLUMNS)})"
    deals = table[list(DEAL_COLUMNS)].to_numpy()
    if deals.dtype.kind not in "iu" or (len(deals) and (deals.min() < 0 or deals.max() >> 32)):
        return "deal columns are not 32-bit card masks"
    deals = deals.astype(np.uint32)
    counts = np.bitwise_count(deals)
    union = np.bitwise_count(np.bitwise_or.reduce(deals, axis=1))
    bad = np.flatnonzero((counts != np.array(PART_SIZES)).any(axis=1) | (union != 32))
    if bad.size:
        return f"row {int(bad[0])} is not a deal of 10, 10, 10 and 2 disjoint cards"
    return None
