"""The solver on the contracts of the game: many deals, each with its declarer and its contract
(a ladder rank of ``prefstats.game.rules``), the first hand leading (docs/rules.md, "Play").

Each function groups the rows by declarer and strain and makes one batched call per group.

>>> from prefstats.game.cards import parse_hand
>>> hands = np.array([[parse_hand("♠8"), parse_hand("♠7"), parse_hand("♠9")],
...                   [parse_hand("♠8"), parse_hand("♠7"), parse_hand("♣9")]], np.uint32)
>>> misere_tricks(hands, leader=1).tolist()
[0, 1]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prefstats.game.cards import N_SUITS, Style
from prefstats.game.deal import FIRST_HAND, N_SEATS, SEAT_NAMES, Deal
from prefstats.game.rules import STRAIN_OF_RANK, Contract, Strain
from prefstats.solver.discard import best_discard_many
from prefstats.solver.exact import makes_many, solve, solve_many

MISERE_STRAIN = -1  # STRAIN_OF_RANK of misère
STRAINS = (MISERE_STRAIN, *Strain)


def misere_tricks(hands: np.ndarray, *, declarer: int = 0, leader: int = 0) -> np.ndarray:
    """int8 (n,): the misère declarer's tricks in each row of an (n, 3) array of seat hands.

    A null-window search (``makes_many`` with target 0) settles the clean layouts cheaply; only
    the caught ones are solved exactly.
    """
    hands = np.asarray(hands, dtype=np.uint32)
    made = makes_many(hands, 0, misere=True, declarer=declarer, leader=leader)
    tricks = np.zeros(len(hands), dtype=np.int8)
    if not made.all():
        tricks[~made] = solve_many(hands[~made], misere=True, declarer=declarer, leader=leader)
    return tricks


def contract_tricks(hands: np.ndarray, declarers: np.ndarray, contracts: np.ndarray) -> np.ndarray:
    """int8 (n,): the double-dummy tricks of each row's declarer in its contract, the first
    hand leading; one ``solve_many`` per (declarer, strain) group."""
    hands = np.asarray(hands, dtype=np.uint32)
    declarers, strains = np.asarray(declarers), STRAIN_OF_RANK[np.asarray(contracts)]
    tricks = np.zeros(len(hands), np.int8)
    for seat in range(N_SEATS):
        for strain in STRAINS:
            rows = np.flatnonzero((declarers == seat) & (strains == strain))
            if rows.size:
                tricks[rows] = solve_many(
                    hands[rows],
                    trump=_trump(strain),
                    misere=strain == MISERE_STRAIN,
                    declarer=seat,
                    leader=FIRST_HAND,
                )
    return tricks


def best_discards(
    deals: np.ndarray, declarers: np.ndarray, contracts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The double-dummy best discard of each deal's declarer for its contract, knowing the
    layout, and the tricks it leaves him: (uint32 (n,), int8 (n,)); one ``best_discard_many``
    per strain."""
    deals = np.asarray(deals, dtype=np.uint32)
    strains = STRAIN_OF_RANK[np.asarray(contracts)]
    discards, tricks = np.zeros(len(deals), np.uint32), np.zeros(len(deals), np.int8)
    for strain in STRAINS:
        rows = np.flatnonzero(strains == strain)
        if rows.size:
            discards[rows], tricks[rows] = best_discard_many(
                deals[rows],
                np.asarray(declarers)[rows],
                trump=_trump(strain),
                misere=strain == MISERE_STRAIN,
            )
    return discards, tricks


def _trump(strain: int) -> int | None:
    return int(strain) if 0 <= strain < N_SUITS else None


def dd_table(hands: Deal | Sequence[int], style: Style = "en") -> pd.DataFrame:
    """Every contract of a deal double-dummy: the declarer's tricks for each strain (rows ♠ ♣ ♦
    ♥ NT and misère) and each declarer and leader (columns: a MultiIndex of seat names).
    ``hands``: a ``Deal`` (its talon does not take part in play) or three masks.

    >>> from prefstats.game.cards import parse_hand
    >>> table = dd_table([parse_hand("♠A K"), parse_hand("♠Q J"), parse_hand("♥7 8")])
    >>> int(table.loc["♠", ("first hand", "first hand")]), table.shape
    (2, (6, 9))
    >>> deal = Deal.parse("♠7 J ♣7 A ♦8 10 J A ♥7 8 | ♠8 Q K ♣8 10 ♦7 K ♥10 J Q | "
    ...                   "♠9 10 A ♣9 J ♦9 Q ♥9 K A | ♣Q K")
    >>> int(dd_table(deal).loc["♥", ("first hand", "first hand")])
    2
    """
    contracts = [Contract(6, strain) for strain in Strain] + [Contract.misere()]
    rows = {}
    for contract in contracts:
        name = contract.format(style) if contract.is_misere else contract.format(style)[1:]
        rows[name] = [
            solve(hands, contract, declarer=d, leader=lead)
            for d in range(N_SEATS)
            for lead in range(N_SEATS)
        ]
    columns = pd.MultiIndex.from_tuples(
        [(SEAT_NAMES[d], SEAT_NAMES[lead]) for d in range(N_SEATS) for lead in range(N_SEATS)],
        names=["declarer", "leader"],
    )
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns).rename_axis("strain")
