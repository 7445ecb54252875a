"""Generate the shipped catch-rate tables ``catch_rates.*`` and ``catch_pairs.*``.

Run ``prefstats catch-tables`` (resumable: rerun to continue; see :func:`build`).

The model (docs/rules.md, "Misère suit classes"; the modelling choices are stated here)
------------------------------------------------------------------------------------
* **The declarer's ten cards** (after the talon and the discard): the measured holding in ♠ (for
  a pair, the second holding in ♣) and a **clean, non-void** holding in each other suit, every
  such ten-card hand equally likely: uniform over the tuples of clean holdings whose lengths make
  ten cards. Clean suits give him safe exits and cannot be caught (checked in the tests), so a
  catch is a catch in the measured suit(s); voids are excluded because discards on a void suit
  would make the rate depend on the filler.
* **Out of play**: the two discards are two cards drawn uniformly from the 22 cards he does not
  hold, as if his final ten had been dealt and the discards were a random talon. They may belong
  to the measured suit, as when he discarded from it.
* **The defenders**: the other 20 cards split uniformly, ten each (``game.deal.deal_many`` with
  his ten cards fixed: the talon's place is the out-of-play pair).
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

Sizes
-----
* Singles: every holding of 1 to 7 cards (254: 177 catchable, 52 conditionally clean, 25 clean;
  the eight-card holding leaves too few cards for three clean suits), 20,000 layouts each; the
  catchable holdings of 3 or 4 cards cost most (``--n-slow`` gives those fewer layouts for a
  quicker run, :func:`single_n`).
* Pairs: the 3,570 unordered pairs of catchable holdings of at most 3 cards, 200 layouts each.

Each table's provenance records the CPU seconds its run took.

Randomness: item ``(a,)`` or ``(a, b)`` draws its fillers from sub-stream ``(a, [b,] 256)`` of
the seed and its layouts from ``(a, [b,] 257)``, so each item's rows depend on the seed, the item
and its number of layouts alone. Runs live in ``runs/catch-*`` (one chunk per holding, or per
first holding of a pair, through the run driver ``studies.runs``); the shipped tables are
summaries of them with the run's provenance in the parquet metadata and a CSV header comment.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prefstats.data import folder as data_folder
from prefstats.game.cards import N_HOLDINGS, N_RANKS, N_SUITS, format_holding
from prefstats.game.deal import HAND_SIZE, N_PARTS, N_SEATS, Stream, deal_many, uniform_integers
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.tables import LEADS
from prefstats.solver.contracts import misere_tricks
from prefstats.stats import mean_estimate, proportion
from prefstats.studies.runs import Chunk, load_run, read_provenance, run_chunks, write_shipped
from prefstats.version import __version__

SEED = 20_240_611
N_SINGLE = 20_000  # layouts per holding...
N_SINGLE_SLOW = 20_000  # for catchable holdings of 3-4 cards, the slowest: --n-slow lowers it
SLOW_LENGTHS = (3, 4)
N_PAIR = 200  # layouts per pair of holdings
MAX_PAIR_LENGTH = 3
FILLER_STREAM, LAYOUT_STREAM = N_HOLDINGS, N_HOLDINGS + 1  # last keys of an item's sub-streams
MODEL = (
    "declarer (seat 0) holds the holding(s) in the first suit(s) and a clean non-void holding "
    "in each other suit, uniform over such ten-card hands; two cards out of play drawn "
    "uniformly from the 22 he does not hold; the other 20 split uniformly between the "
    "defenders; full double-dummy misère solver; leads own (0), left (1), right (2) on the "
    "same layouts"
)
TITLES = {"singles": "prefstats misère catch rates", "pairs": "prefstats misère catch rates"}

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


def clean_fillers(n_cards: int, n_suits: int) -> np.ndarray:
    """Every tuple (k, n_suits) of clean non-void holdings with ``n_cards`` cards in all.

    >>> clean_fillers(3, 3).tolist()  # three singleton sevens
    [[1, 1, 1]]
    """
    return _clean_fillers(n_cards, n_suits)


def sample_hands(item: Item, n: int, seed: int) -> np.ndarray:
    """uint32 (n,): the declarer's ten cards, ``item`` in the first suits and clean fillers in
    the others, each tuple of fillers equally likely.

    >>> from prefstats.game.cards import format_hand
    >>> format_hand(int(sample_hands((0b1111111,), 1, seed=1)[0]))
    '♠7 8 9 10 J Q K ♣7 ♦7 ♥7'
    """
    n_cards = HAND_SIZE - sum(h.bit_count() for h in item)
    fillers = clean_fillers(n_cards, N_SUITS - len(item))
    if not len(fillers):
        raise ValueError(f"no clean fillers of {n_cards} cards for {item}")
    hands = np.zeros(n, dtype=np.uint32)
    for suit, holding in enumerate(item):
        hands |= np.uint32(holding << (N_RANKS * suit))
    picked = fillers[uniform_integers(n, len(fillers), Stream(seed, (*item, FILLER_STREAM)))]
    for j in range(picked.shape[1]):
        hands |= picked[:, j] << np.uint32(N_RANKS * (len(item) + j))
    return hands


def sample_layouts(item: Item, n: int, seed: int) -> np.ndarray:
    """uint32 (n, 4): the declarer's hand, left defender, right defender, out of play."""
    fixed = np.zeros((n, N_PARTS), dtype=np.uint32)
    fixed[:, 0] = sample_hands(item, n, seed)
    return deal_many(n, Stream(seed, (*item, LAYOUT_STREAM)), fixed=fixed)


def solve_leads(layouts: np.ndarray) -> np.ndarray:
    """int8 (n, 3): the declarer's tricks with leader 0 (own), 1 (left) and 2 (right)."""
    hands = np.ascontiguousarray(layouts[:, :N_SEATS])
    return np.stack([misere_tricks(hands, leader=lead) for lead in range(N_SEATS)], axis=1)


def item_tricks(item: Item, n: int, seed: int) -> np.ndarray:
    """int8 (n, 3): tricks per lead over ``n`` layouts of one item, reproducibly from ``seed``.

    >>> item_tricks((0b1,), 5, seed=1).tolist()  # a singleton 7 is clean
    [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    """
    return solve_leads(sample_layouts(item, n, seed))


# --- runs --------------------------------------------------------------------------------------


def run_spec(
    kind: str, groups: Sequence[Sequence[Item]], ns: Sequence[int], seed: int
) -> dict[str, Any]:
    """The run driver's spec of a catch run: one chunk per group of items, ``ns[i]`` layouts
    for each item of group i."""
    plain = [[[int(h) for h in item] for item in group] for group in groups]
    rows = [len(group) * int(n) for group, n in zip(groups, ns, strict=True)]
    return {"kind": "catch", "table": kind, "model": MODEL, "seed": seed, "groups": plain,
            "layouts": [int(n) for n in ns], "chunk_rows": rows, "n": sum(rows)}  # fmt: skip


def run(
    folder: str | Path,
    groups: Sequence[Sequence[Item]],
    ns: Sequence[int],
    seed: int = SEED,
    *,
    kind: str = "singles",
    jobs: int = 1,
    progress: bool = True,
) -> list[Path]:
    """Compute every missing group of items into ``folder`` (the run driver, ``jobs`` loky
    processes): per layout, its item (``holding_a``, ``holding_b``: 0 for a single) and the
    tricks under each lead."""
    spec = run_spec(kind, groups, ns, seed)
    return run_chunks(catch_chunk, spec, folder, jobs=jobs, progress=progress, unit="layout")


def catch_chunk(spec: dict[str, Any], chunk: Chunk) -> pd.DataFrame:
    """The rows of group ``chunk.index``."""
    n = spec["layouts"][chunk.index]
    items = [tuple(item) for item in spec["groups"][chunk.index]]
    return pd.concat([_item_table(item, n, spec["seed"]) for item in items], ignore_index=True)


def _item_table(item: Item, n: int, seed: int) -> pd.DataFrame:
    tricks = item_tricks(item, n, seed)
    return pd.DataFrame({
        "holding_a": np.full(n, item[0], dtype=np.uint8),
        "holding_b": np.full(n, item[1] if len(item) > 1 else 0, dtype=np.uint8),
        **{lead: tricks[:, i] for i, lead in enumerate(LEADS)},
    })  # fmt: skip


def cpu_seconds(paths: Sequence[Path]) -> float:
    """The CPU seconds the chunks of a run took, from their provenance."""
    return float(sum(read_provenance(path).get("cpu_seconds", 0.0) for path in paths))


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
    counts = np.bincount(tricks, minlength=HAND_SIZE + 1)
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


# --- entry point -----------------------------------------------------------------------------


def build(
    kind: str,
    n: int,
    seed: int,
    runs: Path,
    out: Path | None = None,
    *,
    n_slow: int = N_SINGLE_SLOW,
    jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Run (or resume) one table's generator and write its shipped files into ``out`` (the
    package's data folder by default); returns the table.

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
    paths = run(Path(runs) / name, groups, ns, seed, kind=kind, jobs=jobs, progress=progress)
    summary = summarise(load_run(Path(runs) / name))
    table = single_table(summary) if kind == "singles" else pair_table(summary)
    provenance = {
        "table": f"catch_{kind}", "prefstats_version": __version__, "model": MODEL,
        "seed": seed, "items": len(table) // len(LEADS),
        "n_per_item": "see column n" if kind == "singles" else n,
        "cpu_seconds": round(cpu_seconds(paths), 1), "confidence": 0.95,
        "intervals": "Wilson for P(caught), t for E[tricks]",
    }  # fmt: skip
    stem = Path(out or data_folder()) / ("catch_rates" if kind == "singles" else "catch_pairs")
    write_shipped(table, stem, provenance, TITLES[kind])
    return table


@functools.cache
def _clean_fillers(n_cards: int, n_suits: int) -> np.ndarray:
    clean = np.flatnonzero(class_codes() == SuitClass.CLEAN).astype(np.uint32)
    grids = np.meshgrid(*[clean] * n_suits, indexing="ij")
    tuples = np.stack([g.reshape(-1) for g in grids], axis=1)
    lengths = np.bitwise_count(tuples).sum(axis=1)
    fillers = tuples[lengths == n_cards]
    fillers.flags.writeable = False
    return fillers
