"""Numba kernels of the solver's discard questions: the declarer's best two-card discard, the
late-discard search that bounds every discard at once, and the dealt potential of whole deals.

They build on ``_search`` (its conventions: kernel seat 0 is the declarer, ``trump`` a suit or
``NO_TRUMP``, ``_reaches`` the null-window test). The dealt potential (``potential_batch``)
proves "no discard makes it" with one late-discard search (the declarer drops his two cards only
when he needs to) instead of one search per discard; docs/design.md, "Dealt potential".
"""

from __future__ import annotations

import numpy as np
from numba import boolean, int8, int64, types, uint32, void

from prefstats.game.cards import N_SUITS
from prefstats.game.deal import N_SEATS
from prefstats.game.rules import MIN_LEVEL
from prefstats.kernels import njit
from prefstats.solver._search import (
    DECLARER,
    KERNEL,
    N_BUCKETS,
    NO_HINT,
    NO_TRUMP,
    RANK_MASK,
    SUIT_SHIFT,
    UNDECIDED,
    _all_codes,
    _beating,
    _beats,
    _bucket,
    _count,
    _declarer_sure_tricks,
    _defence_sure_tricks,
    _follow_order,
    _guess,
    _high_card,
    _hint_card,
    _killer_card,
    _killer_slot,
    _lead_order,
    _legal,
    _low_card,
    _node_counter,
    _pick,
    _position_key,
    _reaches,
    _run_tops,
    _store_answer,
    _suit_cards,
    _suit_of,
    _top_runs,
    _trick_seats,
    _tt_bounds,
    exact_value,
)
from prefstats.solver._tables import SUIT_BITS

# --- best discard -----------------------------------------------------------------------------

MAX_DISCARDS = 66  # C(12, 2)
TRUMP_COST = 4 * SUIT_BITS  # keep trumps: try discarding them last
LENGTH_COST = 3  # a card costs this much more for each card the hand holds in its suit
VOID_BONUS = 6  # taken off a trump contract's discard of a whole side doubleton (a void)
# LENGTH_COST 3 and VOID_BONUS 6 (before: 2 and none) put the best discard first more often:
# 3.8% fewer positions for the dealt potential from six (docs/design.md, "Dealt potential").


@njit(**KERNEL)
def _discard_cost(card: int, hand: int, present: int, trump: int, misere: int) -> int:
    """Heuristic rank of a discarded card, lower first: in a contract low cards of short side
    suits, in misère high cards (counted by the cards above them)."""
    suit = card >> SUIT_SHIFT
    here = _suit_of(present, suit)
    above = _count(here >> ((card & RANK_MASK) + 1))
    if misere:
        return above
    below = _count(here & ((1 << (card & RANK_MASK)) - 1))
    cost = below + LENGTH_COST * _count(_suit_of(hand, suit))
    if above == 0:
        cost += SUIT_BITS
    if suit == trump:
        cost += TRUMP_COST
    return cost


@njit(**KERNEL)
def _pair_cost(a: int, b: int, hand: int, present: int, trump: int, misere: int) -> int:
    """Heuristic rank of discarding cards ``a`` and ``b``: their costs, less ``VOID_BONUS`` in a
    trump contract when they are the hand's only two cards of a side suit (a void to ruff)."""
    cost = _discard_cost(a, hand, present, trump, misere)
    cost += _discard_cost(b, hand, present, trump, misere)
    suit = a >> SUIT_SHIFT
    if (
        not misere
        and 0 <= trump != suit
        and b >> SUIT_SHIFT == suit
        and _count(_suit_of(hand, suit)) == 2
    ):
        cost -= VOID_BONUS
    return cost


@njit(cache=True, nogil=True)
def _stable_order(costs: np.ndarray, count: int) -> np.ndarray:
    """Indices of ``costs[:count]`` from the lowest cost up, equal costs in index order (an
    insertion sort: at most 66 items, and much less to compile than ``np.argsort``)."""
    order = np.arange(count)
    for index in range(1, count):
        item = order[index]
        at = index
        while at > 0 and costs[order[at - 1]] > costs[item]:
            order[at] = order[at - 1]
            at -= 1
        order[at] = item
    return order


@njit(cache=True, nogil=True)
def _discard_candidates(hand: int, present: int, trump: int, misere: int) -> tuple[np.ndarray, int]:
    """Distinct two-card discards, best-looking first; discarding any k cards of a run of
    equivalent cards is the same as discarding its top k, so only those are listed."""
    masks = np.zeros(MAX_DISCARDS, dtype=np.int64)
    costs = np.zeros(MAX_DISCARDS, dtype=np.int64)
    tops = _run_tops(hand, present)
    count = 0
    for a in range(N_SUITS * SUIT_BITS):
        if not (tops >> a) & 1:
            continue
        below_a = present & ((1 << a) - 1) & _suit_cards(a >> SUIT_SHIFT)
        same_run = 0
        if below_a:
            next_below = _high_card(below_a)
            if (hand >> next_below) & 1:
                same_run = 1 << next_below
        partners = (tops & ~((1 << (a + 1)) - 1)) | same_run
        while partners:
            b = _low_card(partners)
            partners ^= 1 << b
            masks[count] = (1 << a) | (1 << b)
            costs[count] = _pair_cost(a, b, hand, present, trump, misere)
            count += 1
    order = _stable_order(costs, count)
    return masks[:count][order], count


@njit(
    types.UniTuple(int64, 2)(int64, int64, int64, int64, int64, int64, int64[::1]),
    cache=True,
    nogil=True,
)
def best_discard(
    hand: int,
    hl: int,
    hr: int,
    leader: int,
    trump: int,
    misere: int,
    tt: np.ndarray,
) -> tuple[int, int]:
    """Declarer's best two-card discard from ``hand`` (kernel seats): (discard mask, value).

    The first candidate is solved exactly; each later one is only asked whether it beats the
    best value so far (a null-window test), and solved exactly only if it does.
    """
    present = hand | hl | hr
    n_tricks = _count(hl)
    candidates, count = _discard_candidates(hand, present, trump, misere)
    best_mask = candidates[0]
    value = exact_value(hand & ~best_mask, hl, hr, leader, trump, misere, 0, n_tricks, tt)
    for index in range(1, count):
        kept: int = hand & ~candidates[index]
        if misere:
            if value == 0:
                break
            if not _reaches(kept, hl, hr, leader, value, trump, misere, tt):
                value = exact_value(kept, hl, hr, leader, trump, misere, 0, value - 1, tt)
                best_mask = candidates[index]
        else:
            if value == n_tricks:
                break
            if _reaches(kept, hl, hr, leader, value + 1, trump, misere, tt):
                value = exact_value(kept, hl, hr, leader, trump, misere, value + 1, n_tricks, tt)
                best_mask = candidates[index]
    return best_mask, value


MAX_CLEAN_DISCARDS = N_SUITS + N_SUITS * (N_SUITS - 1) // 2  # two of one suit, or one of two


@njit(cache=True, nogil=True)
def _clean_misere_discards(hand: int, present: int) -> tuple[np.ndarray, int]:
    """The discards a clean misère needs asking, best-looking first: the top two cards of one
    suit, or the top card of each of two suits.

    They dominate the others: a declarer who keeps the lower of two cards of a suit instead of
    the higher can play it wherever he would have played the higher one, and it loses every
    trick the higher one loses, to the same winner, with the defenders' choices unchanged. So a
    discard that takes no trick stays clean when it drops a higher card of the same suit.
    """
    masks = np.zeros(MAX_CLEAN_DISCARDS, dtype=np.int64)
    costs = np.zeros(MAX_CLEAN_DISCARDS, dtype=np.int64)
    count = 0
    for suit_a in range(N_SUITS):
        held_a = hand & _suit_cards(suit_a)
        if held_a == 0:
            continue
        top_a = _high_card(held_a)
        rest_a = held_a & ~(1 << top_a)
        for suit_b in range(suit_a, N_SUITS):
            held_b = rest_a if suit_b == suit_a else hand & _suit_cards(suit_b)
            if held_b == 0:
                continue
            top_b = _high_card(held_b)
            masks[count] = (1 << top_a) | (1 << top_b)
            costs[count] = _discard_cost(top_a, hand, present, NO_TRUMP, 1) + _discard_cost(
                top_b, hand, present, NO_TRUMP, 1
            )
            count += 1
    order = _stable_order(costs, count)
    return masks[:count][order], count


@njit(
    boolean(int64, int64, int64, int64, int64[::1]),
    cache=True,
    nogil=True,
)
def _clean_misere(hand: int, hl: int, hr: int, leader: int, tt: np.ndarray) -> bool:
    """Is there a two-card discard from ``hand`` (kernel seats) after which the declarer takes
    no trick on misère? Asks only the dominating discards (``_clean_misere_discards``)."""
    candidates, count = _clean_misere_discards(hand, hand | hl | hr)
    for index in range(count):
        if not _reaches(hand & ~candidates[index], hl, hr, leader, 1, NO_TRUMP, 1, tt):
            return True
    return False


# --- late discards: one search bounding every discard --------------------------------------
#
# In the "late discard" game the declarer holds his 12 cards and puts off choosing his discard:
# at any turn he may drop his remaining cards of the led suit, or his trumps, or both, as long as
# he drops at most ``spare`` (2) cards in all, then play as if he had never held them. Committing
# to a discard before the first trick is one of his strategies there, against the same defence,
# so the game's value is at least the best discard's: when he cannot reach ``target`` in it, no
# discard does (one search instead of one per discard). Only its "no" answers are used, so every
# cut in it that answers "no" is a proved upper bound; a wrong "yes" would only cost time.

N_FOLLOW_OPTIONS = 4  # keep all; drop the led suit; drop it and the trumps; drop the trumps


@njit(**KERNEL)
def _follow_option(hand: int, led: int, trump: int, spare: int, option: int) -> tuple[int, int]:
    """The declarer's ``option`` when following in the late-discard game: (dropped cards, legal
    cards), or (-1, 0) when it needs more than ``spare`` cards or changes nothing."""
    if option == 0:
        return 0, _legal(hand, led, trump)
    follow = hand & _suit_cards(led)
    trumps = hand & _suit_cards(trump) if 0 <= trump != led else 0
    n_follow = _count(follow)
    n_trumps = _count(trumps)
    if option == 1 and 1 <= n_follow <= spare:
        return follow, _legal(hand & ~follow, led, trump)
    if option == 2 and n_follow >= 1 and n_trumps >= 1 and n_follow + n_trumps <= spare:
        return follow | trumps, hand & ~follow & ~trumps
    if option == 3 and n_follow == 0 and 1 <= n_trumps <= spare:
        return trumps, hand & ~trumps
    return -1, 0


@njit(**KERNEL)
def _worth_dropping(hand: int, led: int, best: int, trump: int, last: bool, legal: int) -> int:
    """Of the declarer's ``legal`` cards after a drop, those that can end the trick otherwise
    than a card he could play keeping all his cards (``last``: he plays the trick's last card).

    A card that cannot beat ``best`` ends it as a kept card that cannot; played last, a card
    that beats ``best`` wins it as a kept card that does. Playing the kept card instead, he
    still holds the cards he would have dropped and played, with one spare card more for each,
    and drops each when its suit is led, so he can play on as after the drop: the drop is never
    better (docs/design.md, "Dealt potential")."""
    kept_legal = _legal(hand, led, trump)
    kept_beating = _beating(kept_legal, best, trump)
    beating = _beating(legal, best, trump)
    if kept_legal & ~kept_beating:
        legal = beating
    if last and kept_beating:
        legal &= ~beating
    return legal


@njit(**KERNEL)
def _options_of(seat: int) -> int:
    return N_FOLLOW_OPTIONS if seat == DECLARER else 1


@njit(**KERNEL, inline="always")
def _late_probe(
    hd: int, hl: int, hr: int, leader: int, target: int, trump: int, tt: np.ndarray
) -> tuple[int, int]:
    """``_probe`` for the late-discard game, declarer holding spare cards: (1, 0 or
    UNDECIDED; key)."""
    n_tricks = _count(hl)
    if target <= 0:
        return 1, -1
    if target > n_tricks:
        return 0, -1
    if n_tricks - _defence_sure_tricks(hd, hl, hr, leader, trump, _count(hd) - n_tricks) < target:
        return 0, -1
    if _declarer_sure_tricks(hd, hl, hr, leader, trump) >= target:
        return 1, -1  # the declarer's quick tricks: may be generous here, which is safe
    key = _position_key(_all_codes(hd, hl, hr), leader, trump, 0)
    lower, upper, _ = _tt_bounds(tt, key, n_tricks)
    if lower >= target:
        return 1, key
    if upper < target:
        return 0, key
    return UNDECIDED, key


@njit(**KERNEL, inline="always")
def _late_next(
    hd: int, hl: int, hr: int, leader: int, target: int, trump: int, tt: np.ndarray
) -> tuple[int, int]:
    """How a trick start is answered: (1 or 0, -1) settled, or (UNDECIDED, key) to search;
    with no spare card left it is an ordinary position (``_reaches``)."""
    if _count(hd) == _count(hl):
        return (1 if _reaches(hd, hl, hr, leader, target, trump, 0, tt) else 0), -1
    return _late_probe(hd, hl, hr, leader, target, trump, tt)


@njit(**KERNEL)
def _plain_counterpart(
    hd: int, hl: int, hr: int, leader: int, trump: int, drop: int, moves1: int, tt: np.ndarray
) -> tuple[int, int]:
    """What the table knows of the plain position in which the declarer made the discard
    ``drop`` before the first trick, if the cards played so far fit it (he still holds both
    spare cards of it, or the one he has not dropped): (its stored lower bound, else 0; the
    leader's move among ``moves1`` that decided it, else 0).

    Its value is a lower bound of the late-discard position's, and the card that refuted that
    discard there is the likeliest refutation here (docs/design.md, "Dealt potential")."""
    n_tricks = _count(hl)
    kept = hd & ~drop
    if _count(kept) != n_tricks:
        return 0, 0
    key = _position_key(_all_codes(kept, hl, hr), leader, trump, 0)
    lower, _, hint = _tt_bounds(tt, key, n_tricks)
    return lower, _hint_card(hint, moves1, kept | hl | hr)


@njit(
    boolean(int64, int64, int64, int64, int64, int64, int64, int64, int64[::1]),
    **KERNEL,
)
def _late_search(
    hd: int,
    hl: int,
    hr: int,
    leader: int,
    target: int,
    trump: int,
    drop: int,
    key: int,
    tt: np.ndarray,
) -> bool:
    """Can the declarer, holding spare cards, take ``target`` tricks in the late-discard game (a
    contract)? ``_search``'s loops, with the declarer's follow options. The leader tries first
    the card that decided the plain position of the discard ``drop`` (the one asked before, 0
    if none; ``_plain_counterpart``), else the killer move (sharing ``_search``'s). "No" is
    exact; "yes" may be too generous."""
    tt[_node_counter(tt)] += 1
    n_tricks = _count(hl)
    spare = _count(hd) - n_tricks
    present = hd | hl | hr
    seat1, seat2, seat3, hand1, hand2, hand3, max1, max2, max3 = _trick_seats(leader, hd, hl, hr, 0)
    moves1 = _run_tops(hand1, present)
    first1, second1, dirs1 = _lead_order(seat1, moves1, hd, hl, hr, present, trump)
    killer = _killer_slot(tt, leader, n_tricks, target)
    lower, killer1 = _plain_counterpart(hd, hl, hr, leader, trump, drop, moves1, tt)
    if lower >= target:
        return True
    if killer1 == 0:
        killer1 = _killer_card(tt[killer], hand1, moves1)
    answer1 = not max1
    for bucket1 in range(N_BUCKETS):
        cards1 = _bucket(bucket1, killer1, first1, second1, moves1)
        while cards1 and answer1 != max1:
            card1 = _pick(cards1, (dirs1 >> bucket1) & 1)
            cards1 ^= 1 << card1
            led = card1 >> SUIT_SHIFT
            answer2 = not max2
            for option2 in range(_options_of(seat2)):
                if answer2 == max2:
                    break
                dropped2, legal2 = _follow_option(hand2, led, trump, spare, option2)
                if dropped2 < 0:
                    continue
                if option2:
                    legal2 = _worth_dropping(hand2, led, card1, trump, False, legal2)
                    if legal2 == 0:
                        continue
                moves2 = _run_tops(legal2, present)
                left2 = spare - _count(dropped2)
                first2, second2, dirs2 = _follow_order(
                    seat2, moves2, led, card1, seat1, seat3, hand3, trump, 0, 0
                )
                for bucket2 in range(N_BUCKETS):
                    cards2 = _bucket(bucket2, 0, first2, second2, moves2)
                    while cards2 and answer2 != max2:
                        card2 = _pick(cards2, (dirs2 >> bucket2) & 1)
                        cards2 ^= 1 << card2
                        best, winner = card1, seat1
                        if _beats(card2, best, trump):
                            best, winner = card2, seat2
                        answer3 = not max3
                        for option3 in range(_options_of(seat3)):
                            if answer3 == max3:
                                break
                            dropped3, legal3 = _follow_option(hand3, led, trump, left2, option3)
                            if dropped3 < 0:
                                continue
                            if option3:
                                legal3 = _worth_dropping(hand3, led, best, trump, True, legal3)
                                if legal3 == 0:
                                    continue
                            moves3 = _run_tops(legal3, present)
                            first3, second3, dirs3 = _follow_order(
                                seat3, moves3, led, best, winner, -1, 0, trump, 0, 0
                            )
                            for bucket3 in range(N_BUCKETS):
                                cards3 = _bucket(bucket3, 0, first3, second3, moves3)
                                while cards3 and answer3 != max3:
                                    card3 = _pick(cards3, (dirs3 >> bucket3) & 1)
                                    cards3 ^= 1 << card3
                                    last = seat3 if _beats(card3, best, trump) else winner
                                    kept = ~(
                                        (1 << card1)
                                        | (1 << card2)
                                        | (1 << card3)
                                        | dropped2
                                        | dropped3
                                    )
                                    next_target = target - (1 if last == DECLARER else 0)
                                    decided, next_key = _late_next(
                                        hd & kept,
                                        hl & kept,
                                        hr & kept,
                                        last,
                                        next_target,
                                        trump,
                                        tt,
                                    )
                                    if decided != UNDECIDED:
                                        answer3 = decided == 1
                                    else:
                                        answer3 = _late_search(
                                            hd & kept,
                                            hl & kept,
                                            hr & kept,
                                            last,
                                            next_target,
                                            trump,
                                            drop,
                                            next_key,
                                            tt,
                                        )
                        if answer3 == max2:
                            answer2 = answer3
            if answer2 == max1:
                answer1 = answer2
                tt[killer] = card1
    _store_answer(tt, key, n_tricks, target, answer1, NO_HINT)
    return answer1


@njit(
    boolean(int64, int64, int64, int64, int64, int64, int64, int64[::1]),
    **KERNEL,
)
def _late_reaches(
    hd: int, hl: int, hr: int, leader: int, target: int, trump: int, drop: int, tt: np.ndarray
) -> bool:
    """Late-discard null-window test at a trick start (``_late_search``, ``drop`` the discard
    asked before or 0): "no" is exact."""
    decided, key = _late_next(hd, hl, hr, leader, target, trump, tt)
    if decided != UNDECIDED:
        return decided == 1
    return _late_search(hd, hl, hr, leader, target, trump, drop, key, tt)


# --- dealt potential --------------------------------------------------------------------------


@njit(
    int64(int64, int64, int64, int64, int64, int64, int64[::1]),
    cache=True,
    nogil=True,
)
def _find_discard(
    hand: int, hl: int, hr: int, leader: int, trump: int, target: int, tt: np.ndarray
) -> int:
    """The kept ten cards of the first discard (in ``_discard_candidates`` order) taking at
    least ``target`` tricks in a contract, or -1 if none does."""
    candidates, count = _discard_candidates(hand, hand | hl | hr, trump, 0)
    for index in range(count):
        kept: int = hand & ~candidates[index]
        if _reaches(kept, hl, hr, leader, target, trump, 0, tt):
            return kept
    return -1


@njit(cache=True, nogil=True)
def _first_kept(hand: int, hl: int, hr: int, trump: int) -> int:
    """The ten cards kept by the best-looking discard."""
    candidates, _ = _discard_candidates(hand, hand | hl | hr, trump, 0)
    kept: int = hand & ~candidates[0]
    return kept


@njit(**KERNEL)
def _game_estimate(kept: int, hl: int, hr: int, trump: int) -> int:
    """How promising a contract with the ``kept`` cards looks (``_some_game`` asks the likeliest
    first; ``_strain_value`` skips the search of a discard that looks far short): in a trump
    contract ``_guess``'s fitted tricks, in no trump the top cards held in a row."""
    if trump >= 0:
        return _guess(kept, hl, hr, trump, 0)
    return _top_runs(kept, kept | hl | hr)


MAX_TRICKS = 10
# From this many tricks up the late-discard search comes before the best-looking discard's own
# search: so many tricks are seldom made, and the late-discard "no" then settles the question
# alone. Below it the discard's search comes first: it is often "yes", and when it is "no" it
# fills the table the late-discard search reads (prefstats bench potential measures both).
LATE_FIRST_NEED = 9
# The late-discard search also comes first when the best-looking discard's estimate
# (``_game_estimate``) falls this many tricks or more short of the need: its own search would
# then seldom say "yes" (docs/design.md, "Dealt potential").
LATE_FIRST_SHORT = 2

# Counters of ``potential_batch``'s ``stats``; a question is one deal, seat and strain.
STAT_DEALS = 0
STAT_STRAINS = 1  # strain questions asked
STAT_STRAINS_NO_SEARCH = 2  # ... settled without any search
STAT_STRAINS_CAPPED = 3  # ... by the level already found (no higher contract to make)
STAT_STRAINS_SURE_TRICKS = 4  # ... by the defence's sure tricks against every discard
STAT_STRAINS_LATE = 5  # ... "cannot make" by one late-discard search for every discard
STAT_MISERES = 6  # clean misère questions
STAT_MISERES_NO_SEARCH = 7  # ... settled by the misère bounds of every discard, no search
STAT_DEALS_NO_SEARCH = 8  # deals whose every question was settled without search
STAT_POSITIONS = 9  # trick-start positions searched (the node count: it does not vary with load)
N_STATS = 10

SETTLED_CAPPED = 0
SETTLED_SURE_TRICKS = 1
SETTLED_LATE = 2
SETTLED_BY_DISCARDS = 3


N_STRAINS = 5  # strains 0..3 the suits, 4 no trump


@njit(**KERNEL)
def _seat_of(row: np.ndarray, seat: int) -> tuple[int, int, int, int]:
    """A seat of a deal as a declarer with the talon: (hand of 12, left, right, kernel leader),
    the first hand leading."""
    hand = int(row[seat]) | int(row[N_SEATS])
    hl = int(row[(seat + 1) % N_SEATS])
    hr = int(row[(seat + 2) % N_SEATS])
    return hand, hl, hr, (N_SEATS - seat) % N_SEATS


@njit(**KERNEL)
def _trump_of(strain: int) -> int:
    return NO_TRUMP if strain == N_STRAINS - 1 else strain


@njit(**KERNEL)
def _sure_to_fail(hand: int, hl: int, hr: int, leader: int, trump: int, need: int) -> bool:
    """Do the defence's sure tricks (``_defence_sure_tricks``) leave every discard from ``hand``
    short of ``need`` tricks?"""
    n_tricks = _count(hl)
    spare = _count(hand) - n_tricks
    return n_tricks - _defence_sure_tricks(hand, hl, hr, leader, trump, spare) < need


@njit(cache=True, nogil=True)
def _strain_value(
    hand: int, hl: int, hr: int, leader: int, trump: int, need: int, tt: np.ndarray
) -> tuple[int, int]:
    """Most tricks (at most ``MAX_TRICKS``) the declarer takes in a contract with his best
    discard from ``hand`` if that is at least ``need``, else -1; and what settled it.

    The best-looking discard is asked first (after one late-discard search from
    ``LATE_FIRST_NEED`` up, or where its estimate falls ``LATE_FIRST_SHORT`` short) and then
    solved exactly; above the value found, one late-discard search proves that no discard does
    better, or else the discards are asked in turn.
    """
    if need > MAX_TRICKS:
        return -1, SETTLED_CAPPED
    if _sure_to_fail(hand, hl, hr, leader, trump, need):
        return -1, SETTLED_SURE_TRICKS
    kept = _first_kept(hand, hl, hr, trump)
    late_first = (
        need >= LATE_FIRST_NEED or _game_estimate(kept, hl, hr, trump) <= need - LATE_FIRST_SHORT
    )
    if late_first or not _reaches(kept, hl, hr, leader, need, trump, 0, tt):
        asked = 0 if late_first else hand & ~kept  # the discard the table holds answers for
        if not _late_reaches(hand, hl, hr, leader, need, trump, asked, tt):
            return -1, SETTLED_LATE
        kept = _find_discard(hand, hl, hr, leader, trump, need, tt)
        if kept < 0:
            return -1, SETTLED_BY_DISCARDS
    value = exact_value(kept, hl, hr, leader, trump, 0, need, MAX_TRICKS, tt)
    while value < MAX_TRICKS and _late_reaches(
        hand, hl, hr, leader, value + 1, trump, hand & ~kept, tt
    ):
        kept = _find_discard(hand, hl, hr, leader, trump, value + 1, tt)
        if kept < 0:
            break
        value = exact_value(kept, hl, hr, leader, trump, 0, value + 1, MAX_TRICKS, tt)
    return value, SETTLED_BY_DISCARDS


@njit(
    int64(int64, int64, int64, int64, int64, int64, int64[::1], int64[::1]),
    cache=True,
    nogil=True,
)
def _strain_best(
    hand: int,
    hl: int,
    hr: int,
    leader: int,
    trump: int,
    need: int,
    tt: np.ndarray,
    stats: np.ndarray,
) -> int:
    """``_strain_value``'s tricks, counting into ``stats`` what settled the question."""
    before = tt[_node_counter(tt)]
    value, settled = _strain_value(hand, hl, hr, leader, trump, need, tt)
    stats[STAT_STRAINS] += 1
    if settled == SETTLED_CAPPED:
        stats[STAT_STRAINS_CAPPED] += 1
    elif settled == SETTLED_SURE_TRICKS:
        stats[STAT_STRAINS_SURE_TRICKS] += 1
    elif settled == SETTLED_LATE:
        stats[STAT_STRAINS_LATE] += 1
    if tt[_node_counter(tt)] == before:
        stats[STAT_STRAINS_NO_SEARCH] += 1
    return value


@njit(
    void(uint32[:, ::1], int64, int64[::1], int8[:, ::1], boolean[:, ::1], int64[::1]),
    cache=True,
    nogil=True,
)
def potential_batch(
    deals: np.ndarray,
    min_level: int,
    tt: np.ndarray,
    best: np.ndarray,
    clean: np.ndarray,
    stats: np.ndarray,
) -> None:
    """Dealt potential of every seat of each deal (first, second, third hand, talon): the
    highest (level, strain) it makes double-dummy with the talon and its best discard, the
    first hand leading, as ``level * 5 + strain`` (strain 0..3 suits, 4 no-trump; -1 below
    ``min_level``), and whether it takes no trick on misère likewise. Adds to ``stats``
    (``STAT_*``) what settled the questions.

    Strains are tried from no-trump down, so a later strain only needs one level more than the
    best so far (``_strain_value``); a clean misère asks only the discards that dominate the
    rest (``_clean_misere_discards``).
    """
    for row in range(deals.shape[0]):
        deal_before = tt[_node_counter(tt)]
        for seat in range(N_SEATS):
            hand, hl, hr, leader = _seat_of(deals[row], seat)
            best_level, best_strain = min_level - 1, -1
            for strain in range(N_STRAINS - 1, -1, -1):
                trump = _trump_of(strain)
                value = _strain_best(hand, hl, hr, leader, trump, best_level + 1, tt, stats)
                if value > best_level:
                    best_level, best_strain = value, strain
            best[row, seat] = best_level * N_STRAINS + best_strain if best_strain >= 0 else -1
            misere_before = tt[_node_counter(tt)]
            clean[row, seat] = _clean_misere(hand, hl, hr, leader, tt)
            stats[STAT_MISERES] += 1
            stats[STAT_MISERES_NO_SEARCH] += tt[_node_counter(tt)] == misere_before
        stats[STAT_DEALS] += 1
        stats[STAT_DEALS_NO_SEARCH] += tt[_node_counter(tt)] == deal_before
        stats[STAT_POSITIONS] += tt[_node_counter(tt)] - deal_before


@njit(
    void(uint32[:, ::1], int64[::1], int64, int64, int64[::1], uint32[::1], int8[::1]),
    cache=True,
    nogil=True,
)
def best_discard_batch(
    deals: np.ndarray,
    declarers: np.ndarray,
    trump: int,
    misere: int,
    tt: np.ndarray,
    discards: np.ndarray,
    tricks: np.ndarray,
) -> None:
    """``best_discard`` for each deal (first, second, third hand, talon) and its declarer seat,
    the first hand leading: the declarer holds his hand and the talon."""
    for row in range(deals.shape[0]):
        hand, hl, hr, leader = _seat_of(deals[row], declarers[row])
        mask, value = best_discard(hand, hl, hr, leader, trump, misere, tt)
        discards[row] = mask
        tricks[row] = value


# --- some seat's game -------------------------------------------------------------------------

NOT_ASKED = -(1 << 20)  # the estimate of a seat and strain that its sure losers rule out


@njit(cache=True, nogil=True)
def _game_order(row: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """The seats and strains (``seat * N_STRAINS + strain``) that might make a six, likeliest
    first by ``_game_estimate`` of the best-looking discard; the others are ruled out by the
    defence's sure tricks against every discard. Returns (order, how many to ask, the ten cards
    the best-looking discard keeps, by seat and strain)."""
    estimates = np.full(N_SEATS * N_STRAINS, NOT_ASKED, dtype=np.int64)
    kept = np.zeros(N_SEATS * N_STRAINS, dtype=np.int64)
    for seat in range(N_SEATS):
        hand, hl, hr, leader = _seat_of(row, seat)
        for strain in range(N_STRAINS):
            trump = _trump_of(strain)
            if not _sure_to_fail(hand, hl, hr, leader, trump, MIN_LEVEL):
                at = seat * N_STRAINS + strain
                kept[at] = _first_kept(hand, hl, hr, trump)
                estimates[at] = _game_estimate(kept[at], hl, hr, trump)
    order = _stable_order(-estimates, estimates.shape[0])
    count = 0
    while count < order.shape[0] and estimates[order[count]] != NOT_ASKED:
        count += 1
    return order, count, kept


@njit(cache=True, nogil=True)
def _some_game(row: np.ndarray, tt: np.ndarray) -> bool:
    """Does some seat of the deal make a six (in some strain, with the talon and some discard,
    the first hand leading)?

    A "yes" needs one seat and strain only, so the best-looking discard of each is asked first,
    likeliest first (``_game_order``); only when none makes it are the other discards bounded by
    one late-discard search per seat and strain, and asked in turn where it cannot rule them out.
    """
    order, count, kept = _game_order(row)
    for index in range(count):
        seat, strain = divmod(order[index], N_STRAINS)
        _, hl, hr, leader = _seat_of(row, seat)
        if _reaches(kept[order[index]], hl, hr, leader, MIN_LEVEL, _trump_of(strain), 0, tt):
            return True
    for index in range(count):
        seat, strain = divmod(order[index], N_STRAINS)
        hand, hl, hr, leader = _seat_of(row, seat)
        trump = _trump_of(strain)
        if not _late_reaches(
            hand, hl, hr, leader, MIN_LEVEL, trump, hand & ~kept[order[index]], tt
        ):
            continue
        if _find_discard(hand, hl, hr, leader, trump, MIN_LEVEL, tt) >= 0:
            return True
    return False


@njit(void(uint32[:, ::1], int64[::1], boolean[::1]), cache=True, nogil=True)
def some_game_batch(deals: np.ndarray, tt: np.ndarray, game: np.ndarray) -> None:
    """For each deal (first, second, third hand, talon): does some seat make a six or more
    double-dummy with the talon and its best discard, the first hand leading?"""
    for row in range(deals.shape[0]):
        game[row] = _some_game(deals[row], tt)
