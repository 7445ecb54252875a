"""Card play in Python over the kernels: the best card of a trick in progress (``best_card``)
and the winner of a trick (``play_line``).

The rules of play have one definition, the kernels' ``_legal`` and ``_beats`` (docs/rules.md,
"Play"); a numba kernel is callable from Python, so these helpers call them.
"""

from __future__ import annotations

import numpy as np

from prefstats.game.cards import N_CARDS
from prefstats.game.deal import N_SEATS
from prefstats.solver import _search
from prefstats.solver._checks import Position


def trick_winner(cards: list[int], leader: int, trump: int) -> int:
    """The seat that wins a complete trick led by ``leader`` (``trump`` a suit or
    ``NO_TRUMP``)."""
    best, winner = cards[0], leader
    for step, card in enumerate(cards[1:], start=1):
        if _search._beats(card, best, trump):
            best, winner = card, (leader + step) % N_SEATS
    return winner


def best_in_trick(where: Position, table: np.ndarray) -> tuple[int, int]:
    """(an optimal card for the seat to play, the declarer's tricks from the current trick on):
    minimax over the rest of the trick, each complete trick scored by the kernel."""
    held = list(where.hands)
    for step, card in enumerate(where.trick):
        held[(where.leader + step) % N_SEATS] ^= 1 << card
    return _best(held, list(where.trick), where, table)


def _best(held: list[int], trick: list[int], where: Position, table: np.ndarray) -> tuple[int, int]:
    seat = (where.leader + len(trick)) % N_SEATS
    led = trick[0] >> _search.SUIT_SHIFT if trick else -1
    legal = int(_search._legal(held[seat], led, where.trump))
    maximises = (seat == where.declarer) != bool(where.misere)
    best: tuple[int, int] | None = None
    for card in range(N_CARDS):
        if not legal >> card & 1:
            continue
        after = list(held)
        after[seat] ^= 1 << card
        played = [*trick, card]
        if len(played) < N_SEATS:
            value = _best(after, played, where, table)[1]
        else:
            value = _trick_value(after, played, where, table)
        if best is None or (value > best[1] if maximises else value < best[1]):
            best = (card, value)
    assert best is not None
    return best


def _trick_value(held: list[int], played: list[int], where: Position, table: np.ndarray) -> int:
    """The declarer's tricks from a complete trick on: this trick plus the kernel's value
    after."""
    winner = trick_winner(played, where.leader, where.trump)
    declarer = where.declarer
    hd, hl, hr = (held[(declarer + step) % N_SEATS] for step in range(N_SEATS))
    leader = (winner - declarer) % N_SEATS
    rest = _search.exact_value(
        hd, hl, hr, leader, where.trump, where.misere, 0, hd.bit_count(), table
    )
    return int(rest) + (1 if winner == declarer else 0)
