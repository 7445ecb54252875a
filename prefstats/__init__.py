"""prefstats: Monte Carlo and exact statistics of Preferans.

The top-level API; the layers below it are described in docs/design.md.

>>> from prefstats import parse_hand, format_hand
>>> format_hand(parse_hand("п 7 8 Т"), style="ru")
'♠7 8 Т'
"""

from prefstats.game.cards import Rank, Suit, format_hand, parse_hand
from prefstats.game.deal import Deal, deal_many
from prefstats.game.rules import Contract, RuleSet
from prefstats.players.analysis import Analysis, analyze
from prefstats.solver import solve, solve_many
from prefstats.version import __version__

__all__ = [
    "Analysis",
    "Contract",
    "Deal",
    "Rank",
    "RuleSet",
    "Suit",
    "__version__",
    "analyze",
    "deal_many",
    "format_hand",
    "parse_hand",
    "solve",
    "solve_many",
]
