"""The declarer's phase after the auction: talon, discard, contract, play and score.

The declarer takes the talon, discards two cards and names a contract not lower than his bid
(docs/rules.md, "Talon and discard"); on misère he discards two and plays misère (Codex 3.6.6).
The contract is always named by the heuristic (``discards.contract_discards``); the discard
follows a ``DiscardPolicy``. The contract is then played double-dummy, the first hand leading,
and scored for the declarer (three players, both defenders whisting).

>>> from prefstats.game.deal import Deal, Stream
>>> from prefstats.game.rules import MISERE_RANK, RuleSet
>>> from prefstats.players.discards import HeuristicDiscard
>>> deal = Deal.parse("♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9 | ♠10 J Q K ♣9 10 J ♦9 10 J | "
...                   "♠A ♣Q K A ♦Q K A ♥10 J Q | ♥K A")
>>> row = np.array([deal.parts], np.uint32)
>>> played = play_contracts(row, np.array([0]), np.array([MISERE_RANK]), RuleSet(),
...                         HeuristicDiscard(), Stream.of(1), np.array([0]))
>>> played[["contract", "tricks", "made"]].to_dict("records")
[{'contract': 15, 'tricks': 0, 'made': True}]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prefstats.game.bidding import ALL_PASS
from prefstats.game.cards import N_SUITS, holdings
from prefstats.game.deal import N_SEATS, TALON, Stream
from prefstats.game.rules import LEVEL_OF_RANK, MISERE_RANK, NO_BID, RuleSet
from prefstats.game.scoring import contract_net_table, misere_net
from prefstats.misere.classes import class_codes
from prefstats.players.discards import (
    DiscardPolicy,
    DiscardTask,
    contract_discards,
    misere_discards,
)
from prefstats.solver.contracts import contract_tricks


def name_contracts(hands12: np.ndarray, bids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic discard and the contract each declarer names after the talon, for his
    winning bid (a ladder rank; misère stays misère): (uint32 (n,), int8 (n,))."""
    hands12, bids = np.asarray(hands12, dtype=np.uint32), np.asarray(bids)
    discard = np.zeros(len(bids), np.uint32)
    contract = np.full(len(bids), MISERE_RANK, np.int8)
    misere = bids == MISERE_RANK
    discard[misere] = misere_discards(hands12[misere])
    discard[~misere], contract[~misere] = contract_discards(hands12[~misere], bids[~misere])
    return discard, contract


def play_contracts(
    deals: np.ndarray,
    declarers: np.ndarray,
    bids: np.ndarray,
    rules: RuleSet,
    policy: DiscardPolicy,
    stream: Stream,
    index: np.ndarray,
) -> pd.DataFrame:
    """Talon, discard and final contract, double-dummy play and score, one row per deal:
    ``contract``, ``discard``, ``tricks``, ``made``, ``score`` and ``class0..class3`` (all-pass
    rows: contract -1, tricks -1). ``index`` numbers the deals for the policy's draws."""
    n = len(deals)
    contract = np.full(n, NO_BID, np.int8)
    discard = np.zeros(n, np.uint32)
    tricks = np.full(n, -1, np.int8)
    declared = np.flatnonzero(np.asarray(declarers) != ALL_PASS)
    seats = np.asarray(declarers)[declared].astype(np.intp)
    hands12 = deals[declared, seats] | deals[declared, TALON]
    heuristic, contract[declared] = name_contracts(hands12, np.asarray(bids)[declared])
    discard[declared] = policy.choose(
        DiscardTask(
            deals[declared],
            seats,
            contract[declared],
            heuristic,
            stream,
            np.asarray(index)[declared],
        )
    )
    hands = deals[:, :N_SEATS].copy()
    hands[declared, seats] = hands12 & ~discard[declared]
    tricks[declared] = contract_tricks(hands[declared], seats, contract[declared])
    return pd.DataFrame(
        {
            "contract": contract,
            "discard": discard,
            "tricks": tricks,
            "made": made_mask(contract, tricks),
            "score": declarer_score(contract, tricks, rules),
            **declarer_classes(hands, declarers),
        }
    )


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
