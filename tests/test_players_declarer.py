"""The declarer's phase: the contract named, the discard policies on the same deals, play and
score (prefstats.players.declarer)."""

import numpy as np
from conftest import FORCED_STREAM  # type: ignore[import-not-found]

from prefstats.game.rules import MISERE_RANK
from prefstats.players.declarer import name_contracts
from prefstats.players.discards import DiscardTask, SampledDiscard


def test_sampled_discards_are_legal_reproducible_and_bounded_by_dd(forced_play):
    deals, seats, bids, tables = forced_play
    sampled, dd = tables["sampled"], tables["dd"]
    own = deals[np.arange(len(deals)), sampled.declarer] | deals[:, 3]
    discard = sampled.discard.to_numpy()
    assert ((own & discard) == discard).all() and (np.bitwise_count(discard) == 2).all()
    assert (sampled.contract == tables["heuristic"].contract).all()
    heuristic, contracts = name_contracts(own, bids)
    assert (contracts == sampled.contract).all()
    task = DiscardTask(deals, seats, contracts, heuristic, FORCED_STREAM, np.arange(len(deals)))
    again = SampledDiscard().choose(task)
    assert (again == discard).all()
    # The double-dummy best discard bounds every policy, deal by deal.
    misere = (sampled.contract == MISERE_RANK).to_numpy()
    assert misere.sum() == 20
    assert (dd.tricks[~misere] >= sampled.tricks[~misere]).all()
    assert (dd.tricks[misere] <= sampled.tricks[misere]).all()
    assert (dd.tricks[~misere] >= tables["heuristic"].tricks[~misere]).all()


def test_the_heuristic_policy_keeps_the_named_discard(forced_play):
    deals, seats, bids, tables = forced_play
    own = deals[np.arange(len(deals)), seats] | deals[:, 3]
    heuristic, _ = name_contracts(own, bids)
    assert (tables["heuristic"].discard.to_numpy() == heuristic).all()
