"""Exact double-dummy solver: the declarer's tricks with every hand open.

Three hands of equal size in play order (seat 0 → 1 → 2 → 0) are played out under
docs/rules.md, "Play": must follow suit; void in the led suit, must trump if holding a trump;
otherwise any card; highest trump wins, else highest card of the led suit; the winner leads next.
In a contract the declarer maximises his tricks and the other two seats minimise them together;
in misère (no trumps, Codex 3.6.7) the declarer minimises and the others maximise. The value is
the number of tricks the declarer takes from the position.

Hands are 32-bit masks, card bit = 8·suit + rank (``prefstats.game.cards``). The public modules
check and convert (``_checks``) and run the numba kernels (``_search``, ``_potential``) through
``_pool``; this face gathers their names:

- ``exact``: ``solve``, ``solve_many``, ``makes_many``, ``best_card``;
- ``discard``: ``best_discard``, ``late_discard_reaches``, ``potential_many`` and the like;
- ``bounds``: the misère and contract bounds the search uses;
- ``hidden`` and ``estimate``: misère with the discard hidden, its blind lead and the estimate
  inside its bracket;
- ``contracts`` (the solver on the game's contracts) and ``line`` (a play line), imported by
  name.

Without trumps seat 0 cashes ♠A K and his ♦7 wins the third trick; with ♠ trumps and seat 1
on lead, seat 0 must ruff the ♥A, draws one round of trumps, and his ♦7 is ruffed:

>>> from prefstats.game.cards import parse_hand
>>> hands = [parse_hand("♠A K ♦7"), parse_hand("♠Q J ♥A"), parse_hand("♠10 ♥K Q")]
>>> solve(hands), solve(hands, trump=0, leader=1)
(3, 2)
"""

from __future__ import annotations

from prefstats.solver.bounds import (
    defence_quick_tricks,
    misere_one_suit_catch,
    misere_safe,
    misere_sure_duck,
    misere_unsafe_suits,
    sure_trump_tricks,
)
from prefstats.solver.discard import (
    POTENTIAL_STATS,
    best_discard,
    best_discard_many,
    late_discard_reaches,
    potential_many,
    some_game_many,
)
from prefstats.solver.estimate import estimate_tricks_many
from prefstats.solver.exact import (
    LAYOUT_ROWS,
    best_card,
    clear_tables,
    makes_many,
    solve,
    solve_many,
)
from prefstats.solver.hidden import (
    blind_lead,
    fewest_catches,
    first_lead_many,
    hidden_discard_many,
    hidden_discard_tricks,
)

__all__ = [
    "LAYOUT_ROWS",
    "POTENTIAL_STATS",
    "best_card",
    "best_discard",
    "best_discard_many",
    "blind_lead",
    "clear_tables",
    "defence_quick_tricks",
    "estimate_tricks_many",
    "fewest_catches",
    "first_lead_many",
    "hidden_discard_many",
    "hidden_discard_tricks",
    "late_discard_reaches",
    "makes_many",
    "misere_one_suit_catch",
    "misere_safe",
    "misere_sure_duck",
    "misere_unsafe_suits",
    "potential_many",
    "solve",
    "solve_many",
    "some_game_many",
    "sure_trump_tricks",
]
