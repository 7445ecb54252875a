"""The declarer's discard, double-dummy: his best two cards to drop, the late-discard bound that
answers for every discard at once, and the dealt potential of whole deals (docs/design.md,
"Dealt potential").

A full deal is a row (first, second, third hand, talon) of 32-bit masks; the first hand leads.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from prefstats.checks import integer
from prefstats.game.deal import N_SEATS
from prefstats.game.rules import LADDER
from prefstats.solver import _checks, _pool, _potential

__all__ = [
    "POTENTIAL_STATS",
    "best_discard",
    "best_discard_many",
    "late_discard_reaches",
    "potential_many",
    "some_game_many",
]

# Counters that potential_many(stats=...) adds to, in order (see _potential.STAT_*).
POTENTIAL_STATS = (
    "deals",
    "strain questions",
    "strain questions settled without search",
    "... by the level already found",
    "... by the defence's sure tricks against every discard",
    "strain questions settled by one late-discard search",
    "misère questions",
    "misère questions settled without search",
    "deals settled without search",
    "positions searched",
)
N_STATS = _potential.N_STATS


def best_discard(
    hand12: int,
    others: Sequence[int],
    *,
    trump: int | None = None,
    misere: bool = False,
    declarer: int = 0,
    leader: int = 0,
) -> tuple[int, int]:
    """The declarer's best two-card discard, double-dummy: ``(discard_mask, tricks)``.

    ``hand12`` holds two cards more than each of ``others`` (the other two hands in seat order);
    ``tricks`` is the value after the best discard (most tricks in a contract, fewest in misère).

    >>> from prefstats.game.cards import format_hand, parse_hand
    >>> hand = parse_hand("♠A K ♥7 8")
    >>> discard, tricks = best_discard(hand, [parse_hand("♠Q J"), parse_hand("♠10 9")])
    >>> format_hand(discard), tricks
    ('♥7 8', 2)
    """
    where = _checks.discard_position(
        hand12, others, trump=trump, misere=misere, declarer=declarer, leader=leader
    )
    discard, tricks = _potential.best_discard(
        *where.kernel_hands, where.kernel_leader, where.trump, where.misere, _pool.table()
    )
    return int(discard), int(tricks)


def late_discard_reaches(
    hand12: int,
    others: Sequence[int],
    target: int,
    *,
    trump: int | None = None,
    declarer: int = 0,
    leader: int = 0,
) -> bool:
    """The late-discard bound of a contract: may the declarer take ``target`` tricks if he
    keeps all his cards and drops his two spare ones only when he needs to (docs/design.md,
    "Dealt potential")? Committing to a discard first is one of his strategies there, so
    ``False`` proves that no discard takes ``target`` tricks; ``True`` promises nothing.

    >>> from prefstats.game.cards import parse_hand
    >>> others = [parse_hand("♠A ♥A"), parse_hand("♠K ♥K")]
    >>> late_discard_reaches(parse_hand("♦A K ♥7 8"), others, 2)  # keeps ♦A K: may make 2
    True
    >>> late_discard_reaches(parse_hand("♠7 8 ♥7 8"), others, 1)  # every card loses
    False
    """
    where = _checks.discard_position(hand12, others, trump=trump, declarer=declarer, leader=leader)
    goal = _checks.target(target, 1, where.n_tricks)
    reaches = _potential._late_reaches(
        *where.kernel_hands, where.kernel_leader, goal, where.trump, 0, _pool.table()
    )
    return bool(reaches)


def potential_many(
    deals: np.ndarray, *, min_level: int = 6, n_jobs: int = 1, stats: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Dealt potential of every seat: for each deal (first, second, third hand, talon) and seat,
    the highest contract it makes double-dummy with the talon, its best discard and best trump,
    the first hand leading, as a ladder rank of ``prefstats.game.rules.LADDER`` (-1: nothing from
    ``min_level`` up); and whether it takes no trick on misère likewise (a clean misère).

    Returns ``(best int8 (n, 3), clean bool (n, 3))``. ``stats``, an int64 array of
    ``len(POTENTIAL_STATS)`` counters, gets added what settled the questions (one per deal,
    seat and strain, or per deal and seat for misère), named by ``POTENTIAL_STATS``.

    >>> from prefstats.game.deal import Deal
    >>> deal = Deal.parse("♠7 8 9 10 J Q K A ♣A ♦A | ♣7 8 9 10 J Q K ♦7 8 9 | "
    ...                   "♦10 J Q K ♥7 8 9 10 J Q | ♥K A")
    >>> best, clean = potential_many(np.array([deal.parts], dtype=np.uint32))
    >>> str(LADDER[best[0, 0]]), bool(clean[0, 1])
    ('10NT', True)
    """
    full = _checks.deals(deals)
    min_level = integer("min_level", min_level, 6, 10)
    if stats is not None and (
        not isinstance(stats, np.ndarray) or stats.dtype != np.int64 or stats.shape != (N_STATS,)
    ):
        raise ValueError(f"stats must be an int64 array of shape ({N_STATS},)")
    code = np.full((len(full), N_SEATS), -1, dtype=np.int8)
    clean = np.zeros((len(full), N_SEATS), dtype=np.bool_)
    counts: list[np.ndarray] = []

    def run(chunk: slice) -> None:
        chunk_stats = np.zeros(N_STATS, dtype=np.int64)
        _potential.potential_batch(
            full[chunk], min_level, _pool.table(), code[chunk], clean[chunk], chunk_stats
        )
        counts.append(chunk_stats)

    _pool.run_chunks(run, len(full), _checks.jobs(n_jobs))
    if stats is not None:
        stats += np.sum(counts, axis=0, dtype=np.int64)
    # Kernel code level*5 + strain -> ladder rank (misère sits between 8NT and 9♠).
    to_rank = np.full(11 * 5, -1, dtype=np.int8)
    for rank, contract in enumerate(LADDER):
        if not contract.is_misere:
            to_rank[contract.level * 5 + int(contract.strain)] = rank  # type: ignore[arg-type]
    best = np.where(code >= 0, to_rank[np.clip(code, 0, None)], -1).astype(np.int8)
    return best, clean


def some_game_many(deals: np.ndarray, *, n_jobs: int = 1) -> np.ndarray:
    """Does some seat make a six or more? For each deal (first, second, third hand, talon):
    whether any seat, taking the talon and making its best discard, makes a contract of six
    tricks in some strain double-dummy, the first hand leading. The same answer as
    ``(potential_many(deals)[0] >= 0).any(axis=1)``, found faster: one seat and strain that
    makes it settles the deal.

    Returns bool (n,).

    >>> from prefstats.game.deal import Deal
    >>> deal = Deal.parse("♠7 8 9 10 J Q K A ♣A ♦A | ♣7 8 9 10 J Q K ♦7 8 9 | "
    ...                   "♦10 J Q K ♥7 8 9 10 J Q | ♥K A")
    >>> some_game_many(np.array([deal.parts], dtype=np.uint32)).tolist()
    [True]
    """
    full = _checks.deals(deals)
    game = np.zeros(len(full), dtype=np.bool_)

    def run(chunk: slice) -> None:
        _potential.some_game_batch(full[chunk], _pool.table(), game[chunk])

    _pool.run_chunks(run, len(full), _checks.jobs(n_jobs))
    return game


def best_discard_many(
    deals: np.ndarray,
    declarers: np.ndarray,
    *,
    trump: int | None = None,
    misere: bool = False,
    n_jobs: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """``best_discard`` for many deals at once, the first hand leading: each row of ``deals``
    is (first, second, third hand, talon) and ``declarers[i]`` takes the talon.

    Returns ``(discards uint32 (n,), tricks int8 (n,))``.

    >>> from prefstats.game.deal import deal_many
    >>> deals = deal_many(3, seed=1)
    >>> discards, tricks = best_discard_many(deals, np.array([0, 1, 2]), trump=0)
    >>> [best_discard(int(d[s] | d[3]), [int(d[o]) for o in range(3) if o != s], trump=0,
    ...               declarer=s)[1] for s, d in enumerate(deals)] == tricks.tolist()
    True
    """
    trump_code, misere_code = _checks.contract(trump, misere)
    full = _checks.deals(deals)
    seats = _checks.declarers(declarers, len(full))
    discards = np.zeros(len(full), dtype=np.uint32)
    tricks = np.zeros(len(full), dtype=np.int8)

    def run(chunk: slice) -> None:
        _potential.best_discard_batch(
            full[chunk],
            seats[chunk],
            trump_code,
            misere_code,
            _pool.table(),
            discards[chunk],
            tricks[chunk],
        )

    _pool.run_chunks(run, len(full), _checks.jobs(n_jobs))
    return discards, tricks
