"""``prefstats bench study``: deals per second of the study, against its targets.

* The study with the heuristic evaluator and discard, the played contract solved double-dummy:
  ``run_study`` of 40,000 deals in chunks of 10,000 into a temporary folder, with 1 and 2 jobs
  (loky, the workers started by a warm-up run first). Target: 10^6 deals in 10 minutes on 2
  cores.
* The oracle's dealt potentials (``solver.potential_many``) on 2,000 deals, one job,
  extrapolated to 2·10^5 deals on 2 cores as twice the one-core rate (chunks are independent).
  Target: 10 minutes.
* The sampling policies, one job, 1,000 deals each: ``--evaluator sampled`` (with the
  heuristic discard) and ``--discard sampled`` (with the heuristic evaluator).

Deals come from fixed seeds; figures are wall-clock and vary with the machine's load.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from prefstats.game.deal import deal_many
from prefstats.solver import potential_many
from prefstats.studies.runs import Chunk
from prefstats.studies.study import StudySpec, run_study, study_chunk

SEED = 20240601
STUDY_DEALS = 40_000
CHUNK_SIZE = 10_000
ORACLE_DEALS = 2_000
SAMPLED_DEALS = 1_000
STUDY_TARGET = (10**6, 600.0)  # deals, seconds on 2 cores
ORACLE_TARGET = (2 * 10**5, 600.0)
CORES = 2


def study_rate(jobs: int, deals: int = STUDY_DEALS, chunk_size: int = CHUNK_SIZE) -> float:
    """Deals per second of a fresh heuristic study run with ``jobs`` workers."""
    spec = StudySpec(deals=deals, seed=SEED, chunk_size=chunk_size)
    with tempfile.TemporaryDirectory() as folder:
        warm = StudySpec(deals=2 * jobs, seed=SEED, chunk_size=1)
        run_study(warm, Path(folder) / "warm", jobs=jobs, progress=False)
        start = time.perf_counter()
        run_study(spec, Path(folder) / "run", jobs=jobs, progress=False)
        return deals / (time.perf_counter() - start)


def oracle_rate(deals: int = ORACLE_DEALS) -> float:
    """Deals per second of ``potential_many`` on one core."""
    rows = deal_many(deals, seed=SEED)
    potential_many(rows[:2])  # load the compiled kernel
    start = time.perf_counter()
    potential_many(rows)
    return deals / (time.perf_counter() - start)


def chunk_rate(
    evaluator: str = "heuristic", discard: str = "heuristic", deals: int = SAMPLED_DEALS
) -> float:
    """Deals per second of one study chunk with the given policies, on one core."""
    spec = StudySpec(
        deals=deals, seed=SEED, chunk_size=deals, evaluator=evaluator, discard=discard
    ).as_run_spec()
    study_chunk(spec, Chunk(1, deals, 20))  # load the kernels
    start = time.perf_counter()
    study_chunk(spec, Chunk(0, 0, deals))
    return deals / (time.perf_counter() - start)


def _verdict(rate: float, target: tuple[int, float]) -> str:
    deals, limit = target
    seconds = deals / rate
    met = "meets" if seconds <= limit else "misses"
    return f"{deals:,} deals in {seconds / 60:.1f} min ({met} the {limit / 60:.0f}-minute target)"


def main() -> dict[str, float]:
    """Print and return the rates, and print the extrapolations to the targets."""
    print(
        f"study: heuristic evaluator and discard, DD of the played contract, {STUDY_DEALS:,} "
        f"deals in chunks of {CHUNK_SIZE:,}"
    )
    rates = {jobs: study_rate(jobs) for jobs in (1, CORES)}
    figures = {f"study, {jobs} jobs: deals a second": rate for jobs, rate in rates.items()}
    for jobs, rate in rates.items():
        print(f"  {jobs} job{'s' if jobs > 1 else ''}: {rate:10,.0f} deals/s")
    speedup = rates[CORES] / rates[1]
    print(f"  x{speedup:.2f} with {CORES} jobs; {_verdict(rates[CORES], STUDY_TARGET)}")
    oracle = oracle_rate()
    figures["oracle potentials, 1 job: deals a second"] = oracle
    print(
        f"oracle potentials (potential_many), {ORACLE_DEALS:,} deals, 1 job: {oracle:,.0f} deals/s"
    )
    print(f"  on {CORES} cores (x{CORES}): {_verdict(CORES * oracle, ORACLE_TARGET)}")
    for name, evaluator, discard in (
        ("--evaluator sampled", "sampled", "heuristic"),
        ("--discard sampled", "heuristic", "sampled"),
    ):
        rate = chunk_rate(evaluator, discard)
        figures[f"{name}, 1 job: deals a second"] = rate
        print(
            f"{name}: {SAMPLED_DEALS:,} deals, 1 job: {rate:,.0f} deals/s "
            f"(10^4 deals in {10**4 / rate / 60:.1f} min)"
        )
    return figures


if __name__ == "__main__":
    main()
