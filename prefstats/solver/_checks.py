"""The solver's argument checks: each public wrapper turns its arguments into one checked record
in the kernels' terms (``_search``'s conventions) with one call here, or raises a one-line
``ValueError`` naming the bad card, hand or option.

A ``Position`` is one deal as the kernels see it (seat hands, declarer, leader, contract and the
cards of the current trick); ``Rows`` is many deals sharing a contract, as the batch kernels see
them; ``deals`` checks full deals with their talon.

The game's own objects enter here and only here: a ``Deal`` gives its three hands (the talon
does not take part in play), a ``Contract`` (or its text, ``"6♥"``, ``"мизер"``) gives the
strain or misère; its level is not played. A misère with a trump cannot be written as a
``Contract`` (``Contract.misere()`` has no strain, and a contract with a strain is a trick
contract), so on that path the runtime check of ``trump=``/``misere=`` has nothing to catch.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from prefstats.checks import flag, integer, is_int
from prefstats.checks import seat as seat_index
from prefstats.game.cards import N_CARDS, N_SUITS, format_hand
from prefstats.game.deal import HAND_SIZE, N_SEATS, TALON_SIZE, Deal
from prefstats.game.rules import Contract
from prefstats.solver._search import NO_TRUMP

ALL_SEATS = tuple(range(N_SEATS))


@dataclass(frozen=True)
class Position:
    """A checked position: the seat hands at the start of the current trick (the declarer's
    holding ``TALON_SIZE`` more when he has yet to discard), the cards played to that trick so
    far, and the contract as the kernels take it (``trump`` a suit or ``NO_TRUMP``, ``misere``
    0 or 1)."""

    hands: tuple[int, int, int]
    declarer: int
    leader: int
    trump: int
    misere: int
    trick: tuple[int, ...] = ()

    @property
    def kernel_hands(self) -> tuple[int, int, int]:
        """The hands renumbered for the kernels: the declarer's, his left's, his right's."""
        hands, declarer = self.hands, self.declarer
        return hands[declarer], hands[(declarer + 1) % N_SEATS], hands[(declarer + 2) % N_SEATS]

    @property
    def kernel_leader(self) -> int:
        """The leader as a kernel seat (0 the declarer, 1 his left, 2 his right)."""
        return (self.leader - self.declarer) % N_SEATS

    @property
    def n_tricks(self) -> int:
        """The tricks left to play, the current one included."""
        return self.hands[(self.declarer + 1) % N_SEATS].bit_count()


@dataclass(frozen=True)
class Rows:
    """Many checked deals sharing a contract: an (n, 3) C-contiguous uint32 array of seat
    hands, and the declarer, leader (seats) and contract as the batch kernels take them."""

    hands: np.ndarray
    declarer: int
    leader: int
    trump: int
    misere: int


def contract(trump: object, misere: object, game: object = None) -> tuple[int, int]:
    """(the kernels' trump code, misère 0 or 1), after checking the contract options: the
    ``trump=``/``misere=`` keywords, or ``game``, a ``Contract`` or its text, alone."""
    if game is not None:
        if trump is not None or flag("misere", misere):
            raise ValueError(
                f"give the contract {game!s} or trump=/misere=, not both "
                f"(got trump={trump!r}, misere={misere!r})"
            )
        played = game_contract(game)
        suit = played.trump
        return (NO_TRUMP if suit is None else int(suit)), int(played.is_misere)
    misere = flag("misere", misere)
    if trump is None:
        return NO_TRUMP, int(misere)
    if misere:
        raise ValueError(f"misère is played without trumps (Codex 3.6.7), got trump={trump!r}")
    if not is_int(trump) or not 0 <= trump < N_SUITS:
        raise ValueError(f"trump must be a suit 0..3 or None, got {trump!r}")
    return int(trump), 0


def game_contract(game: object) -> Contract:
    """``game`` as a ``Contract``: a ``Contract``, or its text for ``Contract.parse``."""
    if isinstance(game, Contract):
        return game
    if isinstance(game, str):
        return Contract.parse(game)
    raise ValueError(f"contract must be a Contract or its text (e.g. '6NT'), got {game!r}")


def seat_hands(hands: Deal | Sequence[int]) -> Sequence[int]:
    """The seat hands of ``hands``: a ``Deal``'s three hands (its talon set aside), or
    ``hands`` itself."""
    return hands.hands if isinstance(hands, Deal) else hands


def position(
    hands: Deal | Sequence[int],
    game: object = None,
    *,
    trump: object = None,
    misere: object = False,
    declarer: object = 0,
    leader: object = 0,
    trick: Sequence[int] = (),
    needs_trump: bool = False,
    defender_leads: bool = False,
) -> Position:
    """A ``Position`` of three equal hands, or of the hands still held after the cards of
    ``trick`` (led by ``leader``). ``needs_trump``: the question is asked of a trump contract;
    ``defender_leads``: of a defender on lead. ``hands`` may be a ``Deal`` and ``game`` a
    ``Contract`` (or its text) in place of ``trump``/``misere`` (the module's docstring)."""
    trump_code, misere_code = contract(trump, misere, game)
    hands = seat_hands(hands)
    if needs_trump and trump_code == NO_TRUMP:
        raise ValueError("trump must be a suit 0..3, got None")
    seats = _seats(declarer, leader, defender_leads)
    if len(hands) != N_SEATS:
        raise ValueError(f"expected {N_SEATS} hands (seats 0, 1, 2), got {len(hands)}")
    masks = [mask(f"hand of seat {seat}", hand) for seat, hand in enumerate(hands)]
    played = _trick(trick, masks, seats[1])
    _disjoint(masks)
    _equal(masks)
    return Position((masks[0], masks[1], masks[2]), *seats, trump_code, misere_code, played)


def discard_position(
    hand12: object,
    others: Sequence[int],
    *,
    trump: object = None,
    misere: object = False,
    declarer: object = 0,
    leader: object = 0,
) -> Position:
    """A ``Position`` before the discard: ``hand12``, the declarer's, holds ``TALON_SIZE`` cards
    more than each of ``others`` (the other two hands in seat order)."""
    trump_code, misere_code = contract(trump, misere)
    seats = _seats(declarer, leader, False)
    if len(others) != N_SEATS - 1:
        raise ValueError(f"others must be the {N_SEATS - 1} other hands, got {len(others)}")
    hand = mask("the declarer's hand", hand12)
    other_seats = [seat for seat in ALL_SEATS if seat != seats[0]]
    by_seat = {seats[0]: hand} | {
        seat: mask(f"hand of seat {seat}", other)
        for seat, other in zip(other_seats, others, strict=True)
    }
    masks = [by_seat[seat] for seat in ALL_SEATS]
    _disjoint(masks)
    kept = _equal([by_seat[seat] for seat in other_seats], "the other hands")
    if hand.bit_count() != kept + TALON_SIZE:
        raise ValueError(
            f"the declarer's hand must hold {TALON_SIZE} cards more than the others "
            f"({kept + TALON_SIZE}), got {hand.bit_count()}"
        )
    return Position((masks[0], masks[1], masks[2]), *seats, trump_code, misere_code)


def rows(
    hands: np.ndarray,
    game: object = None,
    *,
    trump: object = None,
    misere: object = False,
    declarer: object = 0,
    leader: object = 0,
) -> Rows:
    """``Rows`` of an (n, 3) array of seat hands, checked row by row; ``game`` a ``Contract``
    (or its text) in place of ``trump``/``misere``."""
    trump_code, misere_code = contract(trump, misere, game)
    seats = _seats(declarer, leader, False)
    return Rows(hands_array(hands), *seats, trump_code, misere_code)


def hands_array(hands: np.ndarray) -> np.ndarray:
    """An (n, 3) uint32 C-contiguous copy-or-view of ``hands``, checked row by row."""
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] != N_SEATS:
        raise ValueError(f"hands must have shape (n, {N_SEATS}), got {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must be an integer (uint32) array, got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() >= 1 << N_CARDS):
        raise ValueError("hands must be 32-bit masks (values 0 .. 2**32-1)")
    array = np.ascontiguousarray(array, dtype=np.uint32)
    h0, h1, h2 = array[:, 0], array[:, 1], array[:, 2]
    bad = np.flatnonzero((h0 & h1) | (h0 & h2) | (h1 & h2))
    counts = np.bitwise_count(array)
    unequal = np.flatnonzero((counts != counts[:, :1]).any(axis=1))
    for row in sorted({*bad[:1].tolist(), *unequal[:1].tolist()}):
        try:
            masks = [int(h) for h in array[row]]
            _disjoint(masks)
            _equal(masks)
        except ValueError as error:
            raise ValueError(f"deal {row}: {error}") from None
    return array


def deals(deals: np.ndarray) -> np.ndarray:
    """A C-contiguous uint32 (n, 4) copy of full deals: three 10-card hands and a 2-card talon."""
    array = np.asarray(deals)
    if array.ndim != 2 or array.shape[1] != N_SEATS + 1:
        raise ValueError(f"deals must have shape (n, 4): 3 hands and the talon, got {array.shape}")
    hands = hands_array(np.ascontiguousarray(array[:, :N_SEATS]))
    if len(array) and not (np.bitwise_count(hands[:, 0]) == HAND_SIZE).all():
        raise ValueError("full deals needed: three 10-card hands and a 2-card talon")
    talon = np.ascontiguousarray(array[:, N_SEATS], dtype=np.uint32)
    if len(array) and not (np.bitwise_count(talon) == TALON_SIZE).all():
        raise ValueError("the talon (column 3) must hold 2 cards")
    if ((hands[:, 0] | hands[:, 1] | hands[:, 2]) & talon).any():
        raise ValueError("the talon shares cards with a hand")
    return np.ascontiguousarray(np.column_stack([hands, talon]), dtype=np.uint32)


def declarers(seats: np.ndarray, n_rows: int) -> np.ndarray:
    """One declarer seat per deal, as a C-contiguous int64 array."""
    array = np.asarray(seats)
    if array.shape != (n_rows,) or (n_rows and (array.min() < 0 or array.max() >= N_SEATS)):
        raise ValueError("declarers must be one seat 0..2 per deal")
    return np.ascontiguousarray(array, dtype=np.int64)


def hidden_hands(hand12: object, others: Sequence[object]) -> tuple[int, int, int]:
    """(candidate cards, left, right) of a hidden-discard position: disjoint masks, the
    catchers 1..10 cards each and the declarer two more (his hand and his two discards)."""
    cand = mask("the declarer's hand", hand12)
    if len(others) != N_SEATS - 1:
        raise ValueError(f"others must be the {N_SEATS - 1} other hands, got {len(others)}")
    left, right = (mask(f"other hand {i}", other) for i, other in enumerate(others))
    _disjoint([cand, left, right])
    size = _equal([left, right], "the other hands")
    if not 1 <= size <= HAND_SIZE:
        raise ValueError(f"the other hands must hold 1..{HAND_SIZE} cards each, got {size}")
    if cand.bit_count() != size + TALON_SIZE:
        raise ValueError(
            f"the declarer's hand must hold {TALON_SIZE} cards more than the others "
            f"({size + TALON_SIZE}), got {cand.bit_count()}"
        )
    return cand, left, right


def hidden_discards(cand: int, discards: Sequence[object] | None) -> list[int]:
    """The possible discards, each two cards of the candidate cards ([] for None: every
    pair)."""
    if discards is None:
        return []
    checked = [mask("a discard", discard) for discard in discards]
    for discard in checked:
        if discard.bit_count() != TALON_SIZE or discard & ~cand:
            raise ValueError(
                f"a discard must be {TALON_SIZE} of the declarer's cards, "
                f"got {format_hand(discard)}"
            )
    if not checked:
        raise ValueError("discards must hold at least one discard (None: every pair)")
    return checked


def hidden_rows(
    hands: np.ndarray,
    declarer: int,
    discards: np.ndarray | None = None,
    made: np.ndarray | None = None,
) -> None:
    """Each row of seat hands (n, 3) a hidden-discard position (``hidden_hands``), each of its
    possible ``discards`` (n, m, 0-padded; None: every pair) two of its candidate cards, and
    its discard ``made`` (n,) two of them and among its possible ones: checked at once, then
    the first bad row named by the one-row checks' message."""
    cand = hands[:, declarer]
    left, right = hands[:, (declarer + 1) % N_SEATS], hands[:, (declarer + 2) % N_SEATS]
    size = np.bitwise_count(left)
    ok = ((cand & left) | (cand & right) | (left & right)) == 0
    ok &= (size == np.bitwise_count(right)) & (size >= 1) & (size <= HAND_SIZE)
    ok &= np.bitwise_count(cand) == size + TALON_SIZE
    if discards is not None:
        used = discards != 0
        two_of_his = (np.bitwise_count(discards) == TALON_SIZE) & (discards & ~cand[:, None] == 0)
        ok &= used.any(axis=1) & (two_of_his | ~used).all(axis=1)
    if made is not None:
        ok &= (np.bitwise_count(made) == TALON_SIZE) & (made & ~cand == 0)
        if discards is not None:
            ok &= (discards == made[:, None]).any(axis=1)
    bad = np.flatnonzero(~ok)
    if bad.size:
        row = bad[0]
        cand_row, _, _ = hidden_hands(int(cand[row]), [int(left[row]), int(right[row])])
        if made is not None:
            hidden_discards(cand_row, [int(made[row])])
        if discards is not None:
            hidden_discards(cand_row, [int(d) for d in discards[row] if d])
        raise ValueError("discards must hold the declarer's actual discard (made)")


def card(name: str, value: object) -> int:
    """A card's bit, 0..31."""
    return integer(name, value, 0, N_CARDS - 1)


def target(value: object, low: int, high: int) -> int:
    """A target number of tricks, ``low..high``."""
    return integer("target", value, low, high)


def jobs(n_jobs: object) -> int:
    """The number of worker threads: a positive int, or -1 for every core."""
    if n_jobs == -1 and is_int(n_jobs):
        return os.cpu_count() or 1
    if not is_int(n_jobs) or n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive int or -1 (all cores), got {n_jobs!r}")
    return int(n_jobs)


def _seats(declarer: object, leader: object, defender_leads: bool) -> tuple[int, int]:
    """(declarer, leader), checked to be seats, and the leader a defender if he must be."""
    declarer = seat_index("declarer", declarer)
    leader = seat_index("leader", leader)
    if defender_leads and leader == declarer:
        raise ValueError(f"leader must be a defender, not the declarer's seat {declarer}")
    return declarer, leader


def mask(name: str, hand: object) -> int:
    if not is_int(hand):
        raise ValueError(f"{name} must be an int mask, got {hand!r}")
    if not 0 <= hand < 1 << N_CARDS:
        raise ValueError(f"{name} must be a 32-bit mask, got {int(hand)}")
    return int(hand)


def _trick(trick: Sequence[int], masks: list[int], leader: int) -> tuple[int, ...]:
    """The cards played to the current trick, checked; ``masks`` (the hands still held) get
    them back, becoming the hands at the trick's start."""
    cards = [int(card) for card in trick]
    if len(cards) >= N_SEATS:
        raise ValueError(f"a trick in progress has at most {N_SEATS - 1} cards, got {len(cards)}")
    if any(not 0 <= card < N_CARDS for card in cards) or len(set(cards)) != len(cards):
        raise ValueError(f"trick cards must be distinct bits 0..{N_CARDS - 1}, got {cards}")
    for step, card in enumerate(cards):
        if any(mask >> card & 1 for mask in masks):
            raise ValueError(f"card {format_hand(1 << card)} is both played and held")
        masks[(leader + step) % N_SEATS] |= 1 << card
    return tuple(cards)


def _disjoint(masks: Sequence[int]) -> None:
    for (i, first), (j, second) in combinations(enumerate(masks), 2):
        shared = first & second
        if shared:
            many = shared.bit_count() > 1
            raise ValueError(
                f"card{'s' if many else ''} {format_hand(shared)} {'are' if many else 'is'} "
                f"in seats {i} and {j}"
            )


def _equal(masks: Sequence[int], what: str = "hands") -> int:
    """The common number of cards of the hands, checked to be equal (three disjoint hands of
    equal size hold at most 10 cards each)."""
    counts = [mask.bit_count() for mask in masks]
    if len(set(counts)) != 1:
        seats = " for seats 0, 1, 2" if len(masks) == N_SEATS else ""
        raise ValueError(f"{what} must hold equal numbers of cards, got {counts}{seats}")
    return counts[0]
