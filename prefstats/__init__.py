"""prefstats: Monte Carlo and exact statistics of Preferans.

>>> from prefstats import parse_hand, format_hand
>>> format_hand(parse_hand("п 7 8 Т"), style="ru")
'♠7 8 Т'
"""

from prefstats.cards import Rank, Suit, format_hand, parse_hand
from prefstats.deal import Deal, deal_many
from prefstats.rules import Contract, RuleSet

__version__ = "0.2.0"

__all__ = [
    "Contract",
    "Deal",
    "Rank",
    "RuleSet",
    "Suit",
    "__version__",
    "deal_many",
    "format_hand",
    "parse_hand",
]
