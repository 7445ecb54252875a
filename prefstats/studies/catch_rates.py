"""The shipped table ``catch_rates``: open play on a large sample and every misère information
model on a paired one, in one tidy table (prefstats/data/README.md).

Its ``design`` column (``misere.tables.DESIGNS``) tells the two samples apart:

* ``independent``: open play (``information`` is ``open``), each layout a hand of its own,
  20,000 a holding in clean-sides (``studies.catch_tables``): the precise rates the players
  read. ``hands`` equals ``n``, and ``open_caught`` equals ``caught`` (``saved`` and ``added``
  are 0), as each row is paired with itself.
* ``paired``: every model of docs/rules.md, "Misère information models", on the same 40 hands
  of 10 layouts a holding (``studies.catch_information``), with ``open`` again on those
  layouts; ``open_caught``, ``saved`` and ``added`` compare each row with open play on the same
  layouts, and the intervals are taken over hands. A blind lead is one card for all the
  layouts of a hand, so it needs several layouts of each hand; and every model costs about a
  hundred open solves a layout, so they are measured on this smaller sample.

The paired design's discard reads the independent design's clean-sides rates, so
:func:`build_rates` runs the independent one first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from prefstats.data import folder as data_folder
from prefstats.game.deal import HAND_SIZE
from prefstats.misere.tables import CATCH_RATES, rate_table
from prefstats.players.discards import defender_rates
from prefstats.studies import catch_information, catch_tables
from prefstats.studies.storage import write_shipped
from prefstats.version import __version__

TITLE = "prefstats misère catch rates by holding, lead and information model, in three settings"
COLUMNS = [
    "setting",
    "holding",
    "holding_mask",
    "n_cards",
    "suit_class",
    "pooled",
    "design",
    "information",
    "lead",
    "hands",
    "n",
    "caught",
    "open_caught",
    "saved",
    "added",
    "p_caught",
    "p_caught_low",
    "p_caught_high",
    "mean_tricks",
    "mean_tricks_low",
    "mean_tricks_high",
    *(f"tricks_{k}" for k in range(HAND_SIZE + 1)),
]
DESIGN_TEXT = {
    "independent": "open play, each layout a hand of its own (his ten and his two cards out of "
    "play drawn anew, or a hand dealt once)",
    "paired": "every information model on the same layouts: hands of layouts_per_hand splits "
    "of the defenders' twenty cards each",
}


def rates_table(independent: pd.DataFrame, paired: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``catch_rates``: the ``independent`` open-play rows
    (``catch_tables.independent_rates``), then the ``paired`` rows of every information model
    (``catch_information.paired_rates``), in the columns ``COLUMNS``."""
    independent = independent.assign(
        design="independent",
        information="open",
        hands=independent["n"],
        open_caught=independent["caught"],
        saved=0,
        added=0,
    )
    paired = paired.assign(design="paired", pooled=False)
    return pd.concat([independent[COLUMNS], paired[COLUMNS]], ignore_index=True)


def rates_provenance(independent: dict[str, Any], paired: dict[str, Any]) -> dict[str, Any]:
    """The provenance of ``catch_rates`` from those of its two designs: the independent one's
    keys at the top, the paired one's under ``paired`` (less what they share), and the CPU
    seconds of both under ``cpu_seconds``."""
    shared = ("model", "seed", "confidence")
    for key in shared:
        if independent[key] != paired[key]:
            raise ValueError(f"the two designs of catch_rates differ in {key!r}")
    return {
        "table": "catch_rates",
        "prefstats_version": __version__,
        "designs": DESIGN_TEXT,
        **{k: v for k, v in independent.items() if k != "cpu_seconds"},
        "paired": {k: v for k, v in paired.items() if k not in (*shared, "cpu_seconds")},
        "cpu_seconds": {
            "independent": independent["cpu_seconds"],
            "paired": paired["cpu_seconds"],
            "total": round(independent["cpu_seconds"] + paired["cpu_seconds"], 1),
        },
    }


def build_rates(
    runs: Path,
    out: Path | None = None,
    *,
    n: int = catch_tables.N_SINGLE,
    n_slow: int = catch_tables.N_SINGLE_SLOW,
    n_lowest: int = catch_tables.N_LOWEST,
    dealt: int = catch_tables.DEALT_DEALS,
    dealt_seed: int = catch_tables.DEALT_SEED,
    hands: int = catch_information.N_HANDS,
    per_hand: int = catch_information.PER_HAND,
    max_length: int = catch_information.MAX_LENGTH,
    seed: int = catch_tables.SEED,
    jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Run (or resume) both designs and write ``catch_rates`` into ``out`` (the package's data
    folder by default); returns the table."""
    independent, independent_provenance = catch_tables.independent_rates(
        runs,
        n=n,
        n_slow=n_slow,
        n_lowest=n_lowest,
        dealt=dealt,
        dealt_seed=dealt_seed,
        seed=seed,
        jobs=jobs,
        progress=progress,
    )
    clean = independent[independent.setting == "clean-sides"]
    paired, paired_provenance = catch_information.paired_rates(
        runs,
        defender_rates(rate_table(clean)),
        hands=hands,
        per_hand=per_hand,
        max_length=max_length,
        seed=seed,
        jobs=jobs,
        progress=progress,
    )
    table = rates_table(independent, paired)
    provenance = rates_provenance(independent_provenance, paired_provenance)
    stem = Path(out or data_folder()) / Path(CATCH_RATES).stem
    write_shipped(table, stem, provenance, TITLE)
    return table
