"""Numba kernels of the estimate inside the bracket (docs/rules.md, "Misère information models"):
misère with the discard hidden, played out card by card by catchers who play perfect-information
Monte Carlo (PIMC) against a double-dummy declarer.

One layout is played: the declarer holds his candidate cards C less the discard he made. S is the
set of discards of W still consistent with the public play (``_hidden._after_card``: a card he
plays removes the discards holding it, failing to follow suit removes those leaving him a card of
the led suit). Every position is valued open (double-dummy, every card seen, the declarer
minimising his tricks and the catchers maximising them), the current trick finished by minimax
over its remaining cards (``_after_play``) and each trick start by ``_search.exact_value`` on the
open solver's table.

- The declarer (who sees everything) plays the legal card of his actual hand that minimises his
  open tricks from here on; ties: the lowest card.
- The catchers (kernel seats 1 and 2, playing as one) first keep their sure line: at each
  trick start H is the number of tricks they can force from there whichever discard of S he
  made (``_hidden.hidden_value``), and while H is at least one they score
  only the cards after which they still can (``_keeps_sure``: the rest of the trick played as
  in ``_hidden``, then ``_hidden.reaches``). They score each such card c by the discards w of S
  (a uniform prior over S): with the declarer holding C less w (less the cards he has played),
  the number of w for which the open value after c is at least one trick (they can still catch
  him), or, once he has taken a trick, the sum over w of the open values. They play the card of
  the highest score; ties: the highest sum of open values over S, then the lowest card. One
  card of each run of equivalent cards is scored, the lowest: the cards of a run (with C, the
  catchers' cards and the trick's cards present) have the same open values for every w and
  keep the same sure tricks, so this is the lowest card of the best.

The result is the number of tricks the declarer takes. Against any catchers the declarer's rule
keeps his tricks taken plus the open value of the position from rising, so it is at most the
open solve; the catchers' sure line keeps his tricks taken plus H from falling, so it is at
least the hidden-discard value over W. With one discard left in S the catchers' rule orders
their cards as the open value does (the number of discards where he is still caught, then the
sum, is the open value's order for one discard, and H is the open value), so both sides keep
that sum constant: the play is not simulated further, his tricks are his tricks so far plus the
open value at that trick start. With one discard in W the result is the open solve.
"""

from __future__ import annotations

import numpy as np
from numba import boolean, int8, int64, uint32, void

from prefstats.game.deal import HAND_SIZE, N_SEATS
from prefstats.kernels import njit
from prefstats.solver._hidden import (
    NO_CARD,
    PAIR_CARDS,
    _after_card,
    _discard_set,
    _in_some_pair,
    _moves,
    _next_pair,
    fill_pairs,
    hidden_value,
    reaches,
)
from prefstats.solver._search import (
    DECLARER,
    KERNEL,
    NO_TRUMP,
    SUIT_SHIFT,
    _count,
    _high_card,
    _legal,
    _low_card,
    _run_tops,
    _seat_hand,
    _suit_cards,
    exact_value,
)

WIDE = HAND_SIZE + 1  # a window wider than any number of tricks: the value comes out exact


# --- open values in the middle of a trick -------------------------------------------------------


@njit(**KERNEL)
def _clamp(value: int, alpha: int, beta: int) -> int:
    return min(max(value, alpha), beta)


@njit(**KERNEL)
def _without(seat: int, card: int, hd: int, hl: int, hr: int) -> tuple[int, int, int]:
    """The three hands with ``card`` taken from ``seat``."""
    gone = ~(1 << card)
    if seat == DECLARER:
        return hd & gone, hl, hr
    if seat == 1:
        return hd, hl & gone, hr
    return hd, hl, hr & gone


@njit(**KERNEL)
def _winner(leader: int, card1: int, card2: int, card3: int) -> int:
    """The seat winning a complete trick (no trumps: the highest card of the led suit)."""
    winner, best = leader, card1
    if card2 >> SUIT_SHIFT == card1 >> SUIT_SHIFT and card2 > best:
        winner, best = (leader + 1) % N_SEATS, card2
    if card3 >> SUIT_SHIFT == card1 >> SUIT_SHIFT and card3 > best:
        winner = (leader + 2) % N_SEATS
    return winner


@njit(**KERNEL)
def _trick_end(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    card1: int,
    card2: int,
    card3: int,
    alpha: int,
    beta: int,
    tt: np.ndarray,
) -> int:
    """The open value (the declarer's tricks, this one included) after the trick's three cards,
    clamped to [alpha, beta]: the trick, then ``exact_value`` from the next trick start."""
    winner = _winner(leader, card1, card2, card3)
    won = 1 if winner == DECLARER else 0
    n_tricks = _count(hl)
    if n_tricks == 0:
        return _clamp(won, alpha, beta)
    if alpha - won >= n_tricks:  # the value is at most won + n_tricks <= alpha
        return alpha
    if beta - won <= 0:  # the value is at least won >= beta
        return beta
    rest = exact_value(
        hd, hl, hr, winner, NO_TRUMP, 1, max(alpha - won, 0), min(beta - won, n_tricks), tt
    )
    return _clamp(won + rest, alpha, beta)


@njit(**KERNEL)
def _third(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    card1: int,
    card2: int,
    alpha: int,
    beta: int,
    tt: np.ndarray,
) -> int:
    """The open value with two cards of the trick played, clamped to [alpha, beta] (minimax over
    the third seat's cards, one of each run, alpha-beta)."""
    seat = (leader + 2) % N_SEATS
    present = hd | hl | hr | (1 << card1) | (1 << card2)
    moves = _run_tops(_legal(_seat_hand(seat, hd, hl, hr), card1 >> SUIT_SHIFT, NO_TRUMP), present)
    catcher = seat != DECLARER
    value = alpha if catcher else beta
    while moves:
        card = _low_card(moves)
        moves ^= 1 << card
        d, left, right = _without(seat, card, hd, hl, hr)
        if catcher:
            value = max(
                value, _trick_end(d, left, right, leader, card1, card2, card, value, beta, tt)
            )
            if value >= beta:
                break
        else:
            value = min(
                value, _trick_end(d, left, right, leader, card1, card2, card, alpha, value, tt)
            )
            if value <= alpha:
                break
    return value


@njit(**KERNEL)
def _second(
    hd: int, hl: int, hr: int, leader: int, card1: int, alpha: int, beta: int, tt: np.ndarray
) -> int:
    """The open value with the trick's first card played, clamped to [alpha, beta]."""
    seat = (leader + 1) % N_SEATS
    present = hd | hl | hr | (1 << card1)
    moves = _run_tops(_legal(_seat_hand(seat, hd, hl, hr), card1 >> SUIT_SHIFT, NO_TRUMP), present)
    catcher = seat != DECLARER
    value = alpha if catcher else beta
    while moves:
        card = _low_card(moves)
        moves ^= 1 << card
        d, left, right = _without(seat, card, hd, hl, hr)
        if catcher:
            value = max(value, _third(d, left, right, leader, card1, card, value, beta, tt))
            if value >= beta:
                break
        else:
            value = min(value, _third(d, left, right, leader, card1, card, alpha, value, tt))
            if value <= alpha:
                break
    return value


@njit(**KERNEL)
def _after_play(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    step: int,
    card1: int,
    card2: int,
    card: int,
    beta: int,
    tt: np.ndarray,
) -> int:
    """The open value, clamped to [0, beta], once ``card`` is played as the trick's card number
    ``step`` (0, 1, 2) after ``card1`` and ``card2``; the hands are without ``card``."""
    if step == 0:
        return _second(hd, hl, hr, leader, card, 0, beta, tt)
    if step == 1:
        return _third(hd, hl, hr, leader, card1, card, 0, beta, tt)
    return _trick_end(hd, hl, hr, leader, card1, card2, card, 0, beta, tt)


# --- the catchers' sure line: what they can force whichever discard of S he made ----------------


@njit(**KERNEL)
def _sure_end(
    cand: int,
    hl: int,
    hr: int,
    leader: int,
    card1: int,
    card2: int,
    card3: int,
    target: int,
    s_lo: int,
    s_hi: int,
    root: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
) -> bool:
    """After the trick's three cards: can the catchers force ``target`` tricks (this one
    included) whichever discard of S he made? The trick, then ``_hidden.reaches``."""
    winner = _winner(leader, card1, card2, card3)
    won = 1 if winner == DECLARER else 0
    return reaches(cand, hl, hr, winner, target - won, s_lo, s_hi, NO_CARD, root, pairs, htt, tt)


@njit(
    boolean(
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64,
        int64[::1],
        int64[::1],
        int64[::1],
    ),
    **KERNEL,
)
def _sure_rest(
    cand: int,
    hl: int,
    hr: int,
    leader: int,
    card1: int,
    card2: int,
    played: int,
    target: int,
    s_lo: int,
    s_hi: int,
    root: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
) -> bool:
    """``_sure_end`` with ``played`` cards of the trick down (1: ``card1``; 2: ``card1`` and
    ``card2``): some catcher card, or every declarer card legal for some discard of S (S cut to
    the discards where it is legal), then the trick's next card or its end."""
    seat = (leader + played) % N_SEATS
    led = card1 >> SUIT_SHIFT
    present = cand | hl | hr | (1 << card1)
    if played == 2:
        present |= 1 << card2
    moves = _moves(seat, cand, hl, hr, led, present, _in_some_pair(s_lo, s_hi, pairs))
    while moves:
        card = _low_card(moves)
        moves ^= 1 << card
        d, left, right = _without(seat, card, cand, hl, hr)
        lo, hi = s_lo, s_hi
        if seat == DECLARER:
            lo, hi = _after_card(card, cand, led, s_lo, s_hi, pairs)
            if lo == 0 and hi == 0:
                continue
        if played == 1:
            kept = _sure_rest(
                d,
                left,
                right,
                leader,
                card1,
                card,
                played + 1,
                target,
                lo,
                hi,
                root,
                pairs,
                htt,
                tt,
            )
        else:
            kept = _sure_end(
                d, left, right, leader, card1, card2, card, target, lo, hi, root, pairs, htt, tt
            )
        if kept != (seat == DECLARER):  # a catcher card that keeps it, or one of his that breaks it
            return kept
    return seat == DECLARER


@njit(**KERNEL)
def _keeps_sure(
    cand: int,
    hl: int,
    hr: int,
    leader: int,
    step: int,
    card1: int,
    card2: int,
    card: int,
    target: int,
    s_lo: int,
    s_hi: int,
    root: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
) -> bool:
    """Once a catcher plays ``card`` as the trick's card number ``step`` (the hands without
    it): can they still force ``target`` tricks from this trick's start whichever discard of S
    he made?"""
    if step == 0:
        return _sure_rest(
            cand, hl, hr, leader, card, NO_CARD, 1, target, s_lo, s_hi, root, pairs, htt, tt
        )
    if step == 1:
        return _sure_rest(
            cand, hl, hr, leader, card1, card, 2, target, s_lo, s_hi, root, pairs, htt, tt
        )
    return _sure_end(
        cand, hl, hr, leader, card1, card2, card, target, s_lo, s_hi, root, pairs, htt, tt
    )


# --- the two sides' rules ---------------------------------------------------------------------


@njit(**KERNEL)
def _declarer_card(
    kept: int, hl: int, hr: int, leader: int, step: int, card1: int, card2: int, tt: np.ndarray
) -> int:
    """The declarer's card: the legal card of his actual hand ``kept`` of the fewest open tricks,
    the lowest of them (each card tried; a better one needs a value below the best so far)."""
    led = -1 if step == 0 else card1 >> SUIT_SHIFT
    moves = _legal(kept, led, NO_TRUMP)
    best_card, best = NO_CARD, WIDE
    while moves:
        card = _low_card(moves)
        moves ^= 1 << card
        value = _after_play(kept & ~(1 << card), hl, hr, leader, step, card1, card2, card, best, tt)
        if value < best:
            best_card, best = card, value
    return best_card


@njit(**KERNEL)
def _run_lows(cards: int, present: int) -> int:
    """The lowest card of each run of equivalent cards among ``cards`` (legal cards of one hand): a
    card is one unless the next lower present card of its suit is also among ``cards``."""
    out = 0
    rest = cards
    while rest:
        card = _low_card(rest)
        rest ^= 1 << card
        below = present & _suit_cards(card >> SUIT_SHIFT) & ((1 << card) - 1)
        if below == 0 or not ((cards >> _high_card(below)) & 1):
            out |= 1 << card
    return out


@njit(**KERNEL)
def _catcher_card(
    seat: int,
    cand: int,
    hl: int,
    hr: int,
    leader: int,
    step: int,
    card1: int,
    card2: int,
    s_lo: int,
    s_hi: int,
    taken: int,
    sure: int,
    root: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
) -> int:
    """The catchers' card (the module's rule): ``cand`` the declarer's candidate cards less
    those he has played, S (``s_lo``, ``s_hi``) the discards still possible, ``taken`` his
    tricks so far, ``sure`` the tricks they can force from this trick's start whichever
    discard of S he made (only cards that keep them are scored)."""
    led = -1 if step == 0 else card1 >> SUIT_SHIFT
    present = cand | hl | hr
    if step >= 1:
        present |= 1 << card1
    if step == 2:
        present |= 1 << card2
    legal = _legal(_seat_hand(seat, cand, hl, hr), led, NO_TRUMP)
    moves = _run_lows(legal, present)
    best_card, best_score, best_total = NO_CARD, -1, -1
    while moves:
        card = _low_card(moves)
        moves ^= 1 << card
        d, left, right = _without(seat, card, cand, hl, hr)
        if sure > 0 and not _keeps_sure(
            d, left, right, leader, step, card1, card2, card, sure, s_lo, s_hi, root, pairs, htt, tt
        ):
            continue
        caught = 0
        total = 0
        rest_lo, rest_hi = s_lo, s_hi
        while rest_lo or rest_hi:
            index, rest_lo, rest_hi = _next_pair(rest_lo, rest_hi)
            hd = cand & ~pairs[PAIR_CARDS + index]
            value = _after_play(hd, left, right, leader, step, card1, card2, card, WIDE, tt)
            caught += 1 if value > 0 else 0
            total += value
        score = caught if taken == 0 else total
        if score > best_score or (score == best_score and total > best_total):
            best_card, best_score, best_total = card, score, total
    return best_card


# --- the play ---------------------------------------------------------------------------------


@njit(
    int64(
        int64, int64, int64, int64, int64, int64, int64, int64, int64[::1], int64[::1], int64[::1]
    ),
    **KERNEL,
)
def _played_tricks(
    cand: int,
    made: int,
    hl: int,
    hr: int,
    leader: int,
    first: int,
    s_lo: int,
    s_hi: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
) -> int:
    """The declarer's tricks when the layout is played out under the two rules, from a trick
    start; ``first`` a card he (on lead) must lead, or ``NO_CARD``."""
    root = cand
    taken = 0
    sure = 0
    while hl:
        if first == NO_CARD and _count(s_lo) + _count(s_hi) == 1:
            # one discard left: both sides play open (the module's note), so he takes the open
            # value from here
            kept = cand & ~made
            return taken + exact_value(kept, hl, hr, leader, NO_TRUMP, 1, 0, _count(hl), tt)
        sure = hidden_value(cand, hl, hr, leader, sure, s_lo, s_hi, first, root, pairs, htt, tt)
        card1 = card2 = NO_CARD
        for step in range(N_SEATS):
            seat = (leader + step) % N_SEATS
            led = -1 if step == 0 else card1 >> SUIT_SHIFT
            if seat == DECLARER:
                kept = cand & ~made
                if first != NO_CARD:
                    card = first
                    first = NO_CARD
                else:
                    card = _declarer_card(kept, hl, hr, leader, step, card1, card2, tt)
                s_lo, s_hi = _after_card(card, cand, led, s_lo, s_hi, pairs)
                cand &= ~(1 << card)
            else:
                card = _catcher_card(
                    seat,
                    cand,
                    hl,
                    hr,
                    leader,
                    step,
                    card1,
                    card2,
                    s_lo,
                    s_hi,
                    taken,
                    sure,
                    root,
                    pairs,
                    htt,
                    tt,
                )
                if seat == 1:
                    hl &= ~(1 << card)
                else:
                    hr &= ~(1 << card)
            if step == 0:
                card1 = card
            elif step == 1:
                card2 = card
            else:
                leader = _winner(leader, card1, card2, card)
                won = 1 if leader == DECLARER else 0
                taken += won
                sure -= won
    return taken


@njit(
    void(
        uint32[:, ::1],
        uint32[::1],
        uint32[:, ::1],
        int64,
        int64,
        int64,
        int64[::1],
        int64[::1],
        int64[::1],
        int8[::1],
    ),
    cache=True,
    nogil=True,
)
def estimate_batch(
    hands: np.ndarray,
    made: np.ndarray,
    discards: np.ndarray,
    declarer: int,
    leader: int,
    first: int,
    pairs: np.ndarray,
    htt: np.ndarray,
    tt: np.ndarray,
    out: np.ndarray,
) -> None:
    """Each row's tricks in the estimate's play: ``hands`` the seat hands, the declarer's holding
    his candidate cards; ``made`` his actual discards; ``discards`` each row's possible discards
    W (0-padded; none: every pair); ``first`` the card he must lead or ``NO_CARD``."""
    kernel_leader = (leader - declarer + N_SEATS) % N_SEATS
    for row in range(hands.shape[0]):
        cand = int(hands[row, declarer])
        hl = int(hands[row, (declarer + 1) % N_SEATS])
        hr = int(hands[row, (declarer + 2) % N_SEATS])
        fill_pairs(cand, pairs)
        s_lo, s_hi = _discard_set(discards[row], pairs)
        out[row] = _played_tricks(
            cand, int(made[row]), hl, hr, kernel_leader, first, s_lo, s_hi, pairs, htt, tt
        )
