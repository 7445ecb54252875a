"""prefstats: Monte Carlo and exact statistics of Preferans.

A short guide to what a user reaches for first:

* ``analyze("♠A K 10 9 8 ♣A ♦K Q ♥7 8", seat=1)``: what a hand is worth, every contract of
  the ladder and misère: P(make) with its 95% interval, E[tricks], the EV in whists and the
  best bid (an ``Analysis``; its ``table`` is a DataFrame, and it shows as a table in Jupyter).
* ``misere_risk(hand, seat=1)``: P(caught), E[tricks] and the trick distribution of a misère;
  ``catch_rate("7 10", "left")``: a suit holding's P(caught) from the shipped tables.
* ``Deal``, ``deal_many(n, seed=1)``: deals (deal i of a seed is always the same deal);
  ``parse_hand`` / ``format_hand`` read and print cards in English or Russian notation.
* ``solve(deal, "6♥")``, ``solve_many``: double-dummy tricks; ``dd_table(deal)``: every
  contract of a deal; ``play_line(deal, "misère", declarer=1)``: the double-dummy play card by
  card (a ``Deal`` and a ``Contract`` or its text, or masks with ``trump=`` / ``misere=``).
* ``shipped("summary")``: the path of a shipped table (read it with ``pandas.read_parquet``);
  ``prefstats/data/README.md`` says how each was made.
* The command line: ``prefstats --help`` (``analyze``, ``misere``, ``ev``, ``solve``, ``deal``,
  ``study``, ``report``, ``bench``).

The layers below this facade are described in docs/design.md; the rules as modelled in
docs/rules.md.

>>> from prefstats import parse_hand, format_hand
>>> format_hand(parse_hand("п 7 8 Т"), style="ru")
'♠7 8 Т'
"""

from prefstats.data import shipped
from prefstats.game.cards import Rank, Suit, format_hand, parse_hand
from prefstats.game.deal import Deal, deal_many
from prefstats.game.rules import Contract, RuleSet
from prefstats.misere.tables import catch_rate
from prefstats.players.analysis import Analysis, analyze
from prefstats.players.misere_risk import MisereRisk, misere_risk
from prefstats.solver import solve, solve_many
from prefstats.solver.contracts import dd_table
from prefstats.solver.line import play_line
from prefstats.version import __version__

__all__ = [
    "Analysis",
    "Contract",
    "Deal",
    "MisereRisk",
    "Rank",
    "RuleSet",
    "Suit",
    "__version__",
    "analyze",
    "catch_rate",
    "dd_table",
    "deal_many",
    "format_hand",
    "misere_risk",
    "parse_hand",
    "play_line",
    "shipped",
    "solve",
    "solve_many",
]
