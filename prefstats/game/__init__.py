"""The game as this package models it (docs/rules.md): data and pure functions, no search.

``cards`` (the one bit layout, card bit = 8·suit + rank; parsing and printing in English and
Russian notation), ``deal`` (deals, seats and the one sampler of random layouts), ``rules``
(frozen rule sets and the bid ladder), ``bidding`` (the auction) and ``scoring`` (scoring
conventions and settlement, shared misère). The lowest layer of the game: of the package it
imports only the base modules ``prefstats.names`` and ``prefstats.kernels`` (docs/design.md,
"Layers").
"""
