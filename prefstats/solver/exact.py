"""The exact double-dummy value of a deal and of many deals, the null-window question "does he
make it?", and the best card of a trick in progress.

Hands are three 32-bit masks of equal size for seats 0, 1, 2 in play order (``solver``'s
docstring); ``trump`` a suit 0..3 (or ``Suit``) or None for no trumps; ``misere``: the declarer
tries to lose every trick (no trumps, Codex 3.6.7). ``solve`` also takes the game's objects, a
``Deal`` and a ``Contract``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from prefstats.game.cards import N_SUITS
from prefstats.game.deal import HAND_SIZE, Deal
from prefstats.game.rules import Contract
from prefstats.solver import _checks, _play, _pool, _search
from prefstats.solver._pool import LAYOUT_ROWS, clear_tables

__all__ = [
    "LAYOUT_ROWS",
    "best_card",
    "clear_tables",
    "makes_many",
    "one_by_one",
    "solve",
    "solve_many",
]


def solve(
    hands: Deal | Sequence[int],
    contract: Contract | str | None = None,
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> int:
    """Tricks the declarer takes with best play by all, every hand open.

    ``hands``: a ``Deal`` (its three hands; the talon does not take part in play) or three
    masks. ``contract``: a ``Contract`` or its text (``"6♥"``, ``"8NT"``, ``"мизер"``; the
    level is not played), or else the ``trump=``/``misere=`` keywords, never both. A misère
    with a trump cannot be written as a ``Contract`` (``Contract.misere()`` has no strain), so
    that form leaves nothing to check at run time; ``trump=0, misere=True`` is a ``ValueError``.

    >>> from prefstats.game.cards import parse_hand
    >>> solve([parse_hand("♠A ♥7"), parse_hand("♠K ♥8"), parse_hand("♠Q ♦7")], trump=3)
    1
    >>> deal = Deal.parse("♠7 J ♣7 A ♦8 10 J A ♥7 8 | ♠8 Q K ♣8 10 ♦7 K ♥10 J Q | "
    ...                   "♠9 10 A ♣9 J ♦9 Q ♥9 K A | ♣Q K")
    >>> solve(deal, Contract.parse("6♥")), solve(deal, "misère", declarer=1)
    (2, 5)
    """
    where = _checks.position(
        hands, contract, trump=trump, misere=misere, declarer=declarer, leader=leader
    )
    value = _search.exact_value(
        *where.kernel_hands,
        where.kernel_leader,
        where.trump,
        where.misere,
        0,
        where.n_tricks,
        _pool.table(),
    )
    return int(value)


def solve_many(
    hands: np.ndarray,
    contract: Contract | str | None = None,
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
    n_jobs: int = 1,
) -> np.ndarray:
    """Declarer's tricks for each row of an (n, 3) array of seat hands, as int8.

    ``n_jobs`` worker threads (-1: one a core) each solve chunks with their own table; the
    result does not depend on it. ``contract``: as for ``solve``, a ``Contract`` or its text in
    place of ``trump``/``misere``.

    >>> from prefstats.game.cards import parse_hand
    >>> row = [parse_hand("♠A K"), parse_hand("♠Q J"), parse_hand("♥7 8")]
    >>> solve_many(np.array([row, row], dtype=np.uint32), trump=3).tolist()
    [0, 0]
    >>> solve_many(np.array([row], dtype=np.uint32), Contract.parse("6♥")).tolist()
    [0]
    """
    rows = _checks.rows(
        hands, contract, trump=trump, misere=misere, declarer=declarer, leader=leader
    )
    jobs = _checks.jobs(n_jobs)

    def solve_rows(array: np.ndarray) -> np.ndarray:
        out = np.zeros(len(array), dtype=np.int8)
        nodes = np.zeros(len(array), dtype=np.int64)

        def run(chunk: slice) -> None:
            _search.solve_batch(
                array[chunk],
                rows.trump,
                rows.misere,
                rows.declarer,
                rows.leader,
                _pool.table_for(array[chunk], rows.declarer),
                out[chunk],
                nodes[chunk],
            )

        _pool.run_chunks(run, len(array), jobs)
        return out

    return _pool.in_layout_order(rows.hands, rows.declarer, rows.misere, solve_rows)


def makes_many(
    hands: np.ndarray,
    target: int,
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> np.ndarray:
    """Whether each deal makes: contract, declarer takes >= ``target``; misère, <= ``target``.

    One null-window search per deal, cheaper than ``solve_many``. ``target=0`` with misère asks
    for a clean misère.

    >>> from prefstats.game.cards import parse_hand
    >>> row = [parse_hand("♠7 8"), parse_hand("♠9 10"), parse_hand("♠J Q")]
    >>> makes_many(np.array([row], dtype=np.uint32), 0, misere=True).tolist()
    [True]
    """
    rows = _checks.rows(hands, trump=trump, misere=misere, declarer=declarer, leader=leader)
    n_tricks = int(np.bitwise_count(rows.hands[:, 0]).max()) if len(rows.hands) else 0
    goal = _checks.target(target, 0, n_tricks)

    def makes_rows(array: np.ndarray) -> np.ndarray:
        out = np.zeros(len(array), dtype=np.bool_)
        nodes = np.zeros(len(array), dtype=np.int64)
        _search.makes_batch(
            array,
            goal,
            rows.trump,
            rows.misere,
            rows.declarer,
            rows.leader,
            _pool.table_for(array, rows.declarer),
            out,
            nodes,
        )
        return out

    return _pool.in_layout_order(rows.hands, rows.declarer, rows.misere, makes_rows)


def best_card(
    hands: Sequence[int],
    trick: Sequence[int] = (),
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> tuple[int, int]:
    """An optimal card for the seat to play, and the position's value: ``(card_bit, tricks)``.

    ``trick`` holds the bits of the cards already played to the current trick (led by
    ``leader``); ``hands`` are the cards still held. ``tricks`` counts the declarer's tricks from
    the start of the current trick on. Playing the returned card keeps that value.

    >>> from prefstats.game.cards import format_card, parse_hand
    >>> hands = [parse_hand("♠A K"), parse_hand("♠Q ♥A"), parse_hand("♠10 9")]
    >>> card, tricks = best_card(hands, trump=0)
    >>> format_card(card), tricks
    ('♠K', 2)
    """
    where = _checks.position(
        hands, trump=trump, misere=misere, declarer=declarer, leader=leader, trick=trick
    )
    if where.n_tricks == 0:
        raise ValueError("no cards left to play")
    return _play.best_in_trick(where, _pool.table())


def one_by_one(
    hands: np.ndarray,
    *,
    trump: int | np.ndarray | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
    target: int | None = None,
) -> Callable[[int], int]:
    """For benchmarks: the arguments checked once, a function that solves row ``i`` of
    ``hands`` alone by one kernel call and returns the positions it searched (trick starts
    that no probe settled). It finds the exact value, or with ``target`` asks ``makes_many``'s
    question; ``trump`` may give a suit for every row. Its calls share one table of their own,
    empty at the first, reused as in ``solve_many``.

    >>> solve_row = one_by_one(np.array([[0b11, 0b1100, 0b110000]], dtype=np.uint32))
    >>> solve_row(0) >= 0
    True
    """
    rows = _checks.rows(hands, misere=misere, declarer=declarer, leader=leader)
    trumps = _row_trumps(trump, rows.misere, len(rows.hands))
    if target is not None:
        target = _checks.target(target, 0, HAND_SIZE)
    table = _search.new_table()
    values = np.zeros(1, dtype=np.int8)
    made = np.zeros(1, dtype=np.bool_)
    nodes = np.zeros(1, dtype=np.int64)

    def solve_row(row: int) -> int:
        one, trump_code = rows.hands[row : row + 1], int(trumps[row])
        if target is None:
            _search.solve_batch(
                one, trump_code, rows.misere, rows.declarer, rows.leader, table, values, nodes
            )
        else:
            _search.makes_batch(
                one,
                target,
                trump_code,
                rows.misere,
                rows.declarer,
                rows.leader,
                table,
                made,
                nodes,
            )
        return int(nodes[0])

    return solve_row


def _row_trumps(trump: int | np.ndarray | None, misere: int, n_rows: int) -> np.ndarray:
    """The kernel's trump code for every row: one contract for all, or a suit per row."""
    if not isinstance(trump, np.ndarray):
        return np.full(n_rows, _checks.contract(trump, bool(misere))[0], dtype=np.int64)
    if misere:
        raise ValueError("misère is played without trumps (Codex 3.6.7)")
    if trump.shape != (n_rows,) or not np.issubdtype(trump.dtype, np.integer):
        raise ValueError(f"trump as an array must hold one suit per row, got {trump.shape}")
    if n_rows and (trump.min() < 0 or trump.max() >= N_SUITS):
        raise ValueError("trump as an array must hold suits 0..3")
    return trump.astype(np.int64)
