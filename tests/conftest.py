"""Fixtures shared by test modules."""

import sys

import numpy as np
import pandas as pd
import pytest

from prefstats.game.deal import Stream, deal_many
from prefstats.game.rules import MISERE_RANK, RuleSet
from prefstats.players.counting import catchable_suits, strain_tricks
from prefstats.players.declarer import play_contracts
from prefstats.players.discards import DISCARDS

FORCED_STREAM = Stream(8, (2,))


@pytest.fixture(autouse=True)
def forget_naive_positions():
    """After each test, drop the positions the naive twins memoised (``functools.cache``):
    kept for the whole run they grow to gigabytes, and freeing them held the interpreter for
    minutes at exit."""
    yield
    for name, module in list(sys.modules.items()):
        if name.startswith("tests.naive"):
            for value in vars(module).values():
                if hasattr(value, "cache_clear"):
                    value.cache_clear()


@pytest.fixture(scope="session")
def forced_play():
    """Every discard policy on the same 120 deals, with forced declarers and bids: 20 misères
    (hands with at most one catchable suit) and 100 contracts in the declarer's best counted
    strain at the 6 level. Returns (deals, seats, bids, {policy name: table})."""
    deals = deal_many(4000, seed=21)
    seat = np.arange(len(deals)) % 3
    hand = deals[np.arange(len(deals)), seat]
    misere = np.flatnonzero(catchable_suits(hand, 1) <= 1)[:20]
    games = np.setdiff1d(np.arange(len(deals)), misere)[:100]
    rows = np.concatenate([misere, games])
    deals, seat = deals[rows], seat[rows]
    strain = strain_tricks(deals[np.arange(len(rows)), seat]).argmax(axis=1)
    bids = np.where(np.arange(len(rows)) < 20, MISERE_RANK, strain).astype(np.int8)
    frame = pd.DataFrame(
        {
            "first": deals[:, 0],
            "second": deals[:, 1],
            "third": deals[:, 2],
            "talon": deals[:, 3],
            "declarer": seat,
        }
    )
    index = np.arange(len(rows))
    tables = {
        name: pd.concat(
            [frame, play_contracts(deals, seat, bids, RuleSet(), kind(), FORCED_STREAM, index)],
            axis=1,
        )
        for name, kind in DISCARDS.items()
    }
    return deals, seat, bids, tables


# tests/soak.py kills runs for many minutes (python tests/soak.py): never collected.
collect_ignore = ["soak.py"]
