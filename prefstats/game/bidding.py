"""The auction (docs/rules.md, "Bidding"), as immutable records and as a vectorised kernel.

From the first hand, each player in turn bids higher or passes; a pass is final (Codex 3.3).
Misère may only be a player's first bid (Codex 3.3.9, 3.6.3) and only a nine beats it (3.6.4);
under the Codex tournament rule the auction stops once a nine beats misère (note 40), in the
variant of misère definitions §2 (docs/rules.md, "Sources") the third player may still bid a
higher nine.

Actions follow verify / can / do: ``verify_bid`` raises with the rule number, ``can_bid``
answers, ``bid`` returns the next immutable ``Auction``.

>>> a = Auction.start()
>>> a = bid(bid(a, 0, Contract.parse("6♠")), 1, Contract.misere())
>>> can_bid(a, 2, Contract.parse("8NT")), can_bid(a, 2, Contract.parse("9♠"))
(False, True)
>>> bid(a, 2, Contract.parse("9♠")).result   # Codex note 40: the nine ends the auction
(2, Contract(level=9, strain=<Strain.SPADES: 0>))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numba as nb
import numpy as np

from prefstats.game.deal import N_SEATS
from prefstats.game.rules import (
    FIRST_NINE_RANK,
    LADDER,
    MISERE_RANK,
    NO_BID,
    Contract,
    MisereOverbid,
    RuleSet,
)
from prefstats.kernels import njit

PASS = None  # a pass, in place of a Contract
ALL_PASS = -1  # declarer code of an all-pass deal (распасы)

Bid = Contract | None


class AuctionError(ValueError):
    """An illegal action in the auction; the message names the Codex rule."""


@dataclass(frozen=True)
class Auction:
    """The auction so far: the rule set and the (seat, bid) history; everything else derives."""

    rules: RuleSet = field(default_factory=RuleSet)
    history: tuple[tuple[int, Bid], ...] = ()

    @classmethod
    def start(cls, rules: RuleSet | None = None) -> Auction:
        """An auction before the first hand speaks."""
        return cls(rules or RuleSet())

    @cached_property
    def highest(self) -> Contract | None:
        """The highest contract bid so far."""
        bids = [b for _, b in self.history if b is not None]
        return max(bids, key=lambda c: c.rank) if bids else None

    @cached_property
    def passed(self) -> frozenset[int]:
        """Seats that have passed (a pass is final)."""
        return frozenset(seat for seat, b in self.history if b is None)

    def has_bid(self, seat: int) -> bool:
        """Whether ``seat`` has named a contract."""
        return any(s == seat and b is not None for s, b in self.history)

    @cached_property
    def misere_seat(self) -> int | None:
        """The seat that bid misère, if any."""
        return next((s for s, b in self.history if b is not None and b.is_misere), None)

    @cached_property
    def nine_over_misere(self) -> bool:
        """Whether a nine (or higher) has been bid over a misère."""
        return (
            self.misere_seat is not None
            and self.highest is not None
            and (self.highest.rank > MISERE_RANK)
        )

    @cached_property
    def finished(self) -> bool:
        """True when the contract is settled or all three passed."""
        if len(self.passed) == N_SEATS:
            return True
        if self.nine_over_misere and self.rules.misere_overbid is MisereOverbid.TOURNAMENT_STOP:
            return True
        out = self._out()
        return len(out) == N_SEATS - 1 and self.highest is not None and self._leader() not in out

    @cached_property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None when finished."""
        if self.finished:
            return None
        seat = 0 if not self.history else (self.history[-1][0] + 1) % N_SEATS
        while seat in self._out():
            seat = (seat + 1) % N_SEATS
        return seat

    @property
    def result(self) -> tuple[int, Contract] | None:
        """(declarer, winning bid) once finished; None while open or for an all-pass."""
        if not self.finished or self.highest is None:
            return None
        return self._leader(), self.highest

    def _leader(self) -> int:
        return next(s for s, b in reversed(self.history) if b is not None)

    def _out(self) -> frozenset[int]:
        """Seats that can no longer act: passed, or the misère bidder once a nine beat him."""
        out = set(self.passed)
        if self.nine_over_misere and self.misere_seat is not None:
            out.add(self.misere_seat)
        return frozenset(out)


def verify_bid(auction: Auction, seat: int, action: Bid) -> None:
    """Raise AuctionError, naming the rule, unless ``seat`` may make ``action`` now."""
    if auction.finished:
        raise AuctionError("the auction is over")
    if seat != auction.to_act:
        raise AuctionError(f"seat {seat} may not speak now: it is seat {auction.to_act}'s turn")
    if action is None:
        return
    highest = auction.highest
    if highest is not None and action.rank <= highest.rank:
        raise AuctionError(f"{action} does not beat {highest}: each bid must be higher (Codex 3.3)")
    if action.is_misere and auction.has_bid(seat):
        raise AuctionError("misère may only be a player's first bid (Codex 3.3.9, 3.6.3)")
    if auction.misere_seat == seat:
        raise AuctionError("the misère bidder may not bid a contract after misère (Codex 3.6.3)")


def can_bid(auction: Auction, seat: int, action: Bid) -> bool:
    """Whether ``seat`` may make ``action`` now."""
    try:
        verify_bid(auction, seat, action)
    except AuctionError:
        return False
    return True


def bid(auction: Auction, seat: int, action: Bid) -> Auction:
    """The auction after ``seat`` makes ``action`` (a Contract, or PASS)."""
    verify_bid(auction, seat, action)
    return Auction(auction.rules, (*auction.history, (seat, action)))


def next_bid(auction: Auction, seat: int, limit: Bid) -> Bid:
    """The bidding policy of the simulation: the cheapest legal bid not above ``limit``, else pass.

    A player whose limit is misère bids it as his first bid when it is still legal. Players
    raise by one step of the ladder (no jumps); with no seniority, equal limits are decided by
    who runs out first.
    """
    if limit is None:
        return PASS
    if limit.is_misere:
        return limit if can_bid(auction, seat, limit) else PASS
    highest = auction.highest
    floor = 0 if highest is None else highest.rank + 1
    if highest is not None and highest.is_misere:
        floor = FIRST_NINE_RANK
    for contract in LADDER[floor : limit.rank + 1]:
        if not contract.is_misere and can_bid(auction, seat, contract):
            return contract
    return PASS


def run_auction(limits: tuple[Bid, Bid, Bid], rules: RuleSet | None = None) -> Auction:
    """Play the auction where seat i bids up to ``limits[i]`` by ``next_bid``."""
    auction = Auction.start(rules)
    while (seat := auction.to_act) is not None:
        auction = bid(auction, seat, next_bid(auction, seat, limits[seat]))
    return auction


def auction_many(limits: np.ndarray, rules: RuleSet | None = None) -> np.ndarray:
    """Vectorised ``run_auction``: ``limits`` int8 (n, 3) of ladder ranks (NO_BID: pass).

    Returns int8 (n, 2): declarer seat (ALL_PASS for an all-pass deal) and contract rank.

    >>> auction_many(np.array([[0, 15, 16], [-1, -1, -1]]))
    array([[ 2, 16],
           [-1, -1]], dtype=int8)
    """
    limits = np.asarray(limits)
    if limits.ndim != 2 or limits.shape[1] != N_SEATS:
        raise ValueError(f"limits must have shape (n, 3), got {limits.shape}")
    if limits.size and (limits.min() < NO_BID or limits.max() >= len(LADDER)):
        raise ValueError(f"limits must be ladder ranks -1..{len(LADDER) - 1}")
    rules = rules or RuleSet()
    stop = rules.misere_overbid is MisereOverbid.TOURNAMENT_STOP
    out = np.empty((limits.shape[0], 2), dtype=np.int8)
    _auction_kernel(limits.astype(np.int8), stop, out)
    return out


@njit(nb.void(nb.int8[:, :], nb.boolean, nb.int8[:, :]), cache=True, nogil=True)
def _auction_kernel(limits: np.ndarray, tournament_stop: bool, out: np.ndarray) -> None:
    """``run_auction`` on ladder ranks, one deal per row; the twin of the Auction records."""
    for i in range(limits.shape[0]):
        out_seat = np.zeros(N_SEATS, dtype=np.bool_)  # passed, or beaten misère bidder
        has_bid = np.zeros(N_SEATS, dtype=np.bool_)
        highest = NO_BID
        leader = ALL_PASS
        misere_seat = -1
        seat = 0
        while True:
            limit = limits[i, seat]
            choice = NO_BID
            if limit == MISERE_RANK:
                if not has_bid[seat] and highest < MISERE_RANK:
                    choice = MISERE_RANK
            elif seat != misere_seat:
                floor = highest + 1
                if highest == MISERE_RANK or floor == MISERE_RANK:
                    floor = FIRST_NINE_RANK
                if floor <= limit:
                    choice = floor
            if choice == NO_BID:
                out_seat[seat] = True
            else:
                has_bid[seat] = True
                if choice == MISERE_RANK:
                    misere_seat = seat
                elif misere_seat >= 0:
                    out_seat[misere_seat] = True  # a nine beat the misère
                highest = choice
                leader = seat
            n_out = int(out_seat[0]) + int(out_seat[1]) + int(out_seat[2])  # a count, in Python too
            if n_out == N_SEATS:
                break
            if choice > MISERE_RANK and misere_seat >= 0 and tournament_stop:
                break
            if n_out == N_SEATS - 1 and highest != NO_BID and not out_seat[leader]:
                break
            seat = (seat + 1) % N_SEATS
            while out_seat[seat]:
                seat = (seat + 1) % N_SEATS
        if highest == NO_BID:
            out[i, 0] = ALL_PASS
            out[i, 1] = NO_BID
        else:
            out[i, 0] = leader
            out[i, 1] = highest
