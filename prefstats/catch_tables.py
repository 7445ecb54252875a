"""Generate the catch-rate tables ``data/catch_rates.*`` and ``data/catch_pairs.*``.

Run ``python -m prefstats.catch_tables`` (resumable: rerun to continue; see :func:`main`).

The model (RULES.md "Misère suit structures"; the modelling choices are stated here)
---------------------------------------------------------------------------------
* **The declarer's ten cards** (after the talon and the discard): the measured holding in ♠ (for
  a pair, the second holding in ♣) and a **clean, non-void** holding in each other suit, every
  such ten-card hand equally likely: uniform over the tuples of clean holdings whose lengths make
  ten cards. Clean suits give him safe exits and cannot be caught (checked in the tests), so a
  catch is a catch in the measured suit(s); voids are excluded because discards on a void suit
  would make the rate depend on the filler.
* **Out of play**: the two discards are two cards drawn uniformly from the 22 cards he does not
  hold, as if his final ten had been dealt and the discards were a random talon. They may belong
  to the measured suit, as when he discarded from it.
* **The defenders**: the other 20 cards split uniformly, ten each.
* **Play**: the full double-dummy solver (misère, no trumps); declarer in seat 0, each layout
  solved three times: own lead (he leads to trick 1), left (the defender after him leads; he
  plays third) and right (the defender before him leads; he plays second). The same layouts
  serve the three leads (common random numbers), so differences between leads are sharp.

Note that "own lead" here lets him lead any card, usually a clean suit; the one-suit game of
:mod:`prefstats.misere` forces him to lead the measured suit, so its "own lead" is harsher.

Every (holding, lead) row reports n, the caught count, P(caught) with its Wilson 95% interval,
E[tricks] with its t interval, and the counts of layouts with 0..10 tricks. E[tricks] counts
every trick of the deal: once caught he is on lead and must keep leading, so a catch often costs
several tricks.

Sizes and cost (one core)
-------------------------
* Singles: every holding of 1 to 7 cards (254: 177 catchable, 52 conditionally clean, 25 clean;
  the eight-card holding leaves too few cards for three clean suits), 20,000 layouts each.
  About 80 CPU minutes, over half of them for the 107 catchable holdings of 3 or 4 cards
  (``--n-slow`` gives those fewer layouts for a quicker run, :func:`single_n`).
* Pairs: the 3,570 unordered pairs of catchable holdings of at most 3 cards, 200 layouts each.
  About 50 CPU minutes.

Runs live in ``data/runs/catch-*`` (one parquet file of per-layout tricks per holding, or per
first holding of a pair, written atomically with provenance); the shipped tables are
summaries of them with the run's provenance in the parquet metadata and a CSV header comment.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow.parquet as pq
from tqdm.auto import tqdm

from prefstats import __version__
from prefstats.cards import N_RANKS, N_SUITS
from prefstats.catch import DATA_DIR, LEADS, MAX_TRICKS, deal_rest, misere_tricks
from prefstats.deal import HAND_SIZE, TALON_SIZE
from prefstats.misere import N_HOLDINGS, SuitClass, class_codes, format_holding
from prefstats.runs import PROVENANCE_KEY, read_provenance, write_table
from prefstats.stats import mean_estimate, proportion

SEED = 20_240_611
N_SINGLE = 20_000  # layouts per holding...
N_SINGLE_SLOW = 20_000  # for catchable holdings of 3-4 cards, the slowest: --n-slow lowers it
SLOW_LENGTHS = (3, 4)
N_PAIR = 200  # layouts per pair of holdings
MAX_PAIR_LENGTH = 3
SPEC_FILE = "run.json"
MODEL = (
    "declarer (seat 0) holds the holding(s) in the first suit(s) and a clean non-void holding "
    "in each other suit, uniform over such ten-card hands; two cards out of play drawn "
    "uniformly from the 22 he does not hold; the other 20 split uniformly between the "
    "defenders; full double-dummy misère solver; leads own (0), left (1), right (2) on the "
    "same layouts"
)

Item = tuple[int, ...]  # the measured holdings, in ♠ (and ♣)


# --- the model -------------------------------------------------------------------------------


def single_holdings() -> list[int]:
    """Every holding measured alone: 1 to 7 cards (the 8-card one leaves 2 cards for 3 suits).

    >>> len(single_holdings())
    254
    """
    return [h for h in range(1, N_HOLDINGS) if h.bit_count() < N_RANKS]


def single_n(holding: int, n: int = N_SINGLE, n_slow: int = N_SINGLE_SLOW) -> int:
    """Layouts for one holding: ``n_slow`` for catchable holdings of 3-4 cards, else ``n``."""
    slow = class_codes()[holding] == SuitClass.CATCHABLE and holding.bit_count() in SLOW_LENGTHS
    return min(n, n_slow) if slow else n


def pair_items(max_length: int = MAX_PAIR_LENGTH) -> list[Item]:
    """Unordered pairs (a <= b) of catchable holdings of at most ``max_length`` cards.

    >>> len(pair_items())
    3570
    """
    codes = class_codes()
    catchable = [
        h for h in range(1, N_HOLDINGS)
        if codes[h] == SuitClass.CATCHABLE and h.bit_count() <= max_length
    ]  # fmt: skip
    return list(itertools.combinations_with_replacement(catchable, 2))


@functools.cache
def clean_fillers(n_cards: int, n_suits: int) -> npt.NDArray[np.uint32]:
    """Every tuple (k, n_suits) of clean non-void holdings with ``n_cards`` cards in all.

    >>> clean_fillers(3, 3).tolist()  # three singleton sevens
    [[1, 1, 1]]
    """
    clean = np.flatnonzero(class_codes() == SuitClass.CLEAN).astype(np.uint32)
    grids = np.meshgrid(*[clean] * n_suits, indexing="ij")
    tuples = np.stack([g.reshape(-1) for g in grids], axis=1)
    lengths = np.bitwise_count(tuples).sum(axis=1)
    fillers = tuples[lengths == n_cards]
    fillers.flags.writeable = False
    return fillers


def sample_hands(item: Item, n: int, rng: np.random.Generator) -> npt.NDArray[np.uint32]:
    """The declarer's ten cards: ``item`` in the first suits, clean fillers in the others.

    >>> from prefstats.cards import format_hand
    >>> format_hand(int(sample_hands((0b1111111,), 1, np.random.default_rng(1))[0]))
    '♠7 8 9 10 J Q K ♣7 ♦7 ♥7'
    """
    n_cards = HAND_SIZE - sum(h.bit_count() for h in item)
    fillers = clean_fillers(n_cards, N_SUITS - len(item))
    if not len(fillers):
        raise ValueError(f"no clean fillers of {n_cards} cards for {item}")
    hands = np.zeros(n, dtype=np.uint32)
    for suit, holding in enumerate(item):
        hands |= np.uint32(holding << (N_RANKS * suit))
    picked = fillers[rng.integers(0, len(fillers), size=n)]
    for j in range(picked.shape[1]):
        hands |= picked[:, j] << np.uint32(N_RANKS * (len(item) + j))
    return hands


def sample_layouts(item: Item, n: int, rng: np.random.Generator) -> npt.NDArray[np.uint32]:
    """(n, 4) uint32: the declarer's hand, left defender, right defender, out of play."""
    hands = sample_hands(item, n, rng)
    rest = deal_rest(hands, [TALON_SIZE, HAND_SIZE, HAND_SIZE], rng)
    return np.column_stack([hands, rest[:, 1], rest[:, 2], rest[:, 0]]).astype(np.uint32)


def solve_leads(layouts: np.ndarray) -> npt.NDArray[np.int8]:
    """(n, 3) the declarer's tricks with leader 0 (own), 1 (left) and 2 (right)."""
    hands = np.ascontiguousarray(layouts[:, :3])
    return np.stack([misere_tricks(hands, leader=lead) for lead in range(3)], axis=1)


def item_seed(seed: int, item: Item) -> np.random.SeedSequence:
    """The seed of one item: independent of the order and number of items computed."""
    return np.random.SeedSequence(seed, spawn_key=item)


def item_tricks(item: Item, n: int, seed: int) -> npt.NDArray[np.int8]:
    """(n, 3) tricks per lead over ``n`` layouts of one item, reproducibly from ``seed``.

    >>> item_tricks((0b1,), 5, seed=1).tolist()  # a singleton 7 is clean
    [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    """
    rng = np.random.default_rng(item_seed(seed, item))
    return solve_leads(sample_layouts(item, n, rng))


# --- resumable runs --------------------------------------------------------------------------


def run(
    folder: str | Path,
    groups: Sequence[Sequence[Item]],
    ns: Sequence[int],
    seed: int = SEED,
    *,
    jobs: int = 1,
    progress: bool = True,
) -> list[Path]:
    """Compute every missing group of items into ``folder`` (one parquet file per group), with
    ``ns[i]`` layouts for each item of group i, in ``jobs`` processes (loky).

    A group's file holds, per layout, its item (``holding_a``, ``holding_b``: 0 for a single)
    and the tricks under each lead; rerunning skips finished groups.
    """
    folder = Path(folder)
    spec = {"kind": "catch", "model": MODEL, "seed": seed, "groups": _plain(groups),
            "n": [int(n) for n in ns]}  # fmt: skip
    _claim(folder, spec)
    paths = [folder / f"group-{index:04d}.parquet" for index in range(len(groups))]
    todo = [i for i, path in enumerate(paths) if not path.exists()]
    bar = tqdm(total=len(groups), initial=len(groups) - len(todo), desc=folder.name,
               disable=not progress, unit="group")  # fmt: skip
    tasks = [(groups[i], ns[i], seed, paths[i], {**spec, "group": i}) for i in todo]
    with bar:
        if jobs == 1:
            for task in tasks:
                _write_group(*task)
                bar.update(1)
        else:
            from joblib import Parallel, delayed

            parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
            for _ in parallel(delayed(_write_group)(*task) for task in tasks):
                bar.update(1)
    return paths


def _write_group(
    group: Sequence[Item], n: int, seed: int, path: Path, provenance: dict[str, Any]
) -> None:
    """Compute one group's rows and write them atomically, with the CPU seconds they took."""
    start = time.process_time()
    table = pd.concat([_item_table(item, n, seed) for item in group])
    write_table(table, path, {**provenance, "cpu_seconds": time.process_time() - start})


def _item_table(item: Item, n: int, seed: int) -> pd.DataFrame:
    tricks = item_tricks(item, n, seed)
    return pd.DataFrame({
        "holding_a": np.full(n, item[0], dtype=np.uint8),
        "holding_b": np.full(n, item[1] if len(item) > 1 else 0, dtype=np.uint8),
        **{lead: tricks[:, i] for i, lead in enumerate(LEADS)},
    })  # fmt: skip


def _plain(groups: Sequence[Sequence[Item]]) -> list[list[list[int]]]:
    return [[[int(h) for h in item] for item in group] for group in groups]


def _claim(folder: Path, spec: dict[str, Any]) -> None:
    """Record the spec of a new run folder, or check that it is the same run."""
    path = folder / SPEC_FILE
    if path.exists():
        if json.loads(path.read_text()) != spec:
            raise ValueError(f"{folder} holds a different catch run; use another folder")
        return
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(spec))


def load(paths: Sequence[Path]) -> tuple[pd.DataFrame, float]:
    """All per-layout rows of a finished run, and its total CPU seconds."""
    missing = [p.name for p in paths if not p.exists()]
    if missing:
        raise ValueError(f"the run is incomplete ({len(missing)} groups missing); rerun it")
    seconds = sum(read_provenance(p)["cpu_seconds"] for p in paths)
    return pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True), seconds


# --- summaries -------------------------------------------------------------------------------


def summarise(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per item and lead: n, P(caught) with Wilson interval, E[tricks] with t interval,
    and the counts of layouts with 0..10 tricks."""
    records = []
    for (a, b), group in rows.groupby(["holding_a", "holding_b"], sort=True):
        item = {"holding_a": int(str(a)), "holding_b": int(str(b))}
        for leader, lead in enumerate(LEADS):
            stats = _lead_stats(group[lead].to_numpy())
            records.append({**item, **stats, "lead": lead, "leader": leader})
    return pd.DataFrame(records)


def _lead_stats(tricks: np.ndarray) -> dict[str, Any]:
    caught = proportion(int((tricks > 0).sum()), len(tricks))
    mean = mean_estimate(tricks)
    counts = np.bincount(tricks, minlength=MAX_TRICKS + 1)
    return {
        "n": len(tricks), "caught": int(caught.count), "p_caught": caught.estimate,
        "p_caught_low": caught.low, "p_caught_high": caught.high, "mean_tricks": mean.estimate,
        "mean_tricks_low": mean.low, "mean_tricks_high": mean.high,
        **{f"tricks_{k}": int(c) for k, c in enumerate(counts)},
    }  # fmt: skip


def single_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The shipped single-holding table: holding, text, n_cards, suit_class, lead, stats."""
    codes = class_codes()
    holding = summary["holding_a"].astype(int)
    front = pd.DataFrame({
        "holding": holding,
        "text": [format_holding(h) for h in holding],
        "n_cards": [h.bit_count() for h in holding],
        "suit_class": [SuitClass(codes[h]).label for h in holding],
    })  # fmt: skip
    stats = summary.drop(columns=["holding_a", "holding_b"])
    return _ordered(pd.concat([front, stats], axis=1))


def pair_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The shipped pairs table: holding_a (♠), holding_b (♣), their texts, lead, stats."""
    a, b = summary["holding_a"].astype(int), summary["holding_b"].astype(int)
    front = pd.DataFrame({
        "holding_a": a, "holding_b": b,
        "text_a": [format_holding(h) for h in a], "text_b": [format_holding(h) for h in b],
        "n_cards": [x.bit_count() + y.bit_count() for x, y in zip(a, b, strict=True)],
    })  # fmt: skip
    stats = summary.drop(columns=["holding_a", "holding_b"])
    return _ordered(pd.concat([front, stats], axis=1))


def _ordered(table: pd.DataFrame) -> pd.DataFrame:
    first = [c for c in table.columns if c not in ("lead", "leader")]
    at = first.index("n")
    return table[[*first[:at], "lead", "leader", *first[at:]]].reset_index(drop=True)


def write_outputs(table: pd.DataFrame, stem: Path, provenance: dict[str, Any]) -> None:
    """``stem``.parquet (provenance in the metadata) and ``stem``.csv (a ``#`` header)."""
    write_table(table, stem.with_suffix(".parquet"), provenance)
    stem.with_suffix(".parquet").chmod(0o644)  # mkstemp's private mode is not for shipped data
    header = "".join(f"# {line}\n" for line in _header_lines(provenance))
    body = table.to_csv(index=False, float_format="%.6g", lineterminator="\n")
    stem.with_suffix(".csv").write_text(header + body)


def _header_lines(provenance: dict[str, Any]) -> list[str]:
    return [
        "prefstats misère catch rates (read with pandas.read_csv(path, comment='#'))",
        *(f"{key}: {value}" for key, value in provenance.items() if key != "groups"),
    ]


def read_csv(path: str | Path) -> pd.DataFrame:
    """A shipped CSV table (skips the ``#`` provenance header)."""
    return pd.read_csv(path, comment="#")


# --- entry point -----------------------------------------------------------------------------


def build(
    kind: str,
    n: int,
    seed: int,
    runs: Path,
    out: Path,
    *,
    n_slow: int = N_SINGLE_SLOW,
    jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Run (or resume) one table's generator and write its shipped files; returns the table.

    ``n`` layouts per item (for singles, ``n_slow`` for the slow holdings, see :func:`single_n`).
    """
    if kind == "singles":
        groups: list[list[Item]] = [[(h,)] for h in single_holdings()]
        ns = [single_n(h, n, n_slow) for h in single_holdings()]
    elif kind == "pairs":
        items = pair_items()
        groups = [[it for it in items if it[0] == a] for a in sorted({it[0] for it in items})]
        ns = [n] * len(groups)
    else:
        raise ValueError(f"kind must be 'singles' or 'pairs', got {kind!r}")
    name = f"catch-{kind}-n{n}" + (f"-{n_slow}" if kind == "singles" else "") + f"-s{seed}"
    paths = run(runs / name, groups, ns, seed, jobs=jobs, progress=progress)
    rows, seconds = load(paths)
    summary = summarise(rows)
    table = single_table(summary) if kind == "singles" else pair_table(summary)
    provenance = {
        "table": f"catch_{kind}", "prefstats_version": __version__, "git_commit": _git_commit(),
        "model": MODEL, "seed": seed, "items": len(table) // len(LEADS),
        "n_per_item": "see column n" if kind == "singles" else n,
        "cpu_seconds": round(seconds, 1), "confidence": 0.95,
        "intervals": "Wilson for P(caught), t for E[tricks]",
    }  # fmt: skip
    stem = out / ("catch_rates" if kind == "singles" else "catch_pairs")
    write_outputs(table, stem, provenance)
    return table


def _git_commit() -> str:
    try:
        result = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True,
            cwd=Path(__file__).parent,
        )  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return result.stdout.strip()


def table_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance stored in a shipped parquet table."""
    meta = pq.read_schema(path).metadata or {}
    result: dict[str, Any] = json.loads(meta[PROVENANCE_KEY])
    return result


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m prefstats.catch_tables [--only singles|pairs] [--n N] [--pairs-n N] ...``"""
    parser = argparse.ArgumentParser(prog="python -m prefstats.catch_tables")
    parser.add_argument("--only", choices=["singles", "pairs"], default=None)
    parser.add_argument("--n", type=int, default=N_SINGLE, help="layouts per single holding")
    parser.add_argument("--n-slow", type=int, default=N_SINGLE_SLOW, help="for 3-4 card ones")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--pairs-n", type=int, default=N_PAIR, help="layouts per pair")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--runs", type=Path, default=DATA_DIR / "runs")
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    for kind in ("singles", "pairs"):
        if args.only in (None, kind):
            n = args.n if kind == "singles" else args.pairs_n
            table = build(kind, n, args.seed, args.runs, args.out, n_slow=args.n_slow,
                          jobs=args.jobs)  # fmt: skip
            print(f"{kind}: {len(table)} rows written to {args.out}")


if __name__ == "__main__":
    # Run the importable module's main, so worker processes can unpickle its functions.
    from prefstats import catch_tables

    catch_tables.main()
