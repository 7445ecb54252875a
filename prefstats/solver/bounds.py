"""Bounds the search uses, each a question of its own: the misère declarer's safety (safe in
every suit, a sure duck, caught by one suit led again and again) and the tricks a side takes
at once in a contract (docs/design.md, "Misère bounds" and "Contract bounds").

Each answer proves a bound of the double-dummy value (``solve``), which the tests check.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from prefstats.checks import flag
from prefstats.solver import _checks, _pool, _search

__all__ = [
    "defence_quick_tricks",
    "misere_one_suit_catch",
    "misere_safe",
    "misere_sure_duck",
    "misere_unsafe_suits",
    "sure_trump_tricks",
]


def misere_one_suit_catch(hands: Sequence[int], *, leader: int, declarer: int = 0) -> bool:
    """Misère, a defender on lead: can the defence make the declarer win a trick by leading
    one suit again and again, each trick's winner leading the next (docs/design.md, "Misère
    bounds")? Everyone must follow suit, so the other suits do not matter; a ``True`` proves
    that the declarer takes at least one trick, and the solver uses it so.

    >>> from prefstats.game.cards import parse_hand
    >>> hands = [parse_hand("♠7 J ♥A"), parse_hand("♠8 9 ♣7"), parse_hand("♣8 9 10")]
    >>> misere_one_suit_catch(hands, leader=1)  # ♠8 under the 7, then ♠9 forces the jack
    True
    >>> misere_one_suit_catch(hands, leader=2)  # ♣ only: the declarer has none
    False
    """
    where = _checks.position(
        hands, misere=True, declarer=declarer, leader=leader, defender_leads=True
    )
    flags = _search._suit_flags(_search._all_codes(*where.kernel_hands))
    return bool(_search._defence_catch(where.kernel_leader, _search.ONE_PER_SUIT, flags))


def misere_safe(hands: Sequence[int], *, declarer: int = 0, on_lead: bool = False) -> bool:
    """Misère: is the declarer safe in every suit he holds, against a defence that leads any
    suit from either hand and throws cards away whenever it likes (docs/design.md, "Misère
    bounds")? No real defence can do more, so ``True`` proves that with a defender on lead he
    takes no trick, and the solver uses it so.

    With ``on_lead`` the declarer is on lead: ``True`` if he is safe in every suit but one,
    where he has a safe exit (his lowest card, which a defender must overtake, after which he
    is safe in the suit whatever the defenders play to it), which proves he takes no trick.

    >>> from prefstats.game.cards import parse_hand
    >>> misere_safe([parse_hand("♠7 10"), parse_hand("♠8 ♥A"), parse_hand("♠9 ♥K")])
    True
    >>> misere_safe([parse_hand("♠8 10"), parse_hand("♠7 ♥A"), parse_hand("♠9 ♥K")])  # no proof
    False
    >>> misere_safe([parse_hand("♠7 8"), parse_hand("♠9 10"), parse_hand("♥A K")], on_lead=True)
    True
    >>> misere_safe([parse_hand("♠7 10"), parse_hand("♠8 J"), parse_hand("♠9 Q")], on_lead=True)
    False
    """
    where = _checks.position(hands, misere=True, declarer=declarer)
    codes = _search._all_codes(*where.kernel_hands)
    if flag("on_lead", on_lead):
        return _search._safe_on_lead(codes)
    return _search._unsafe_cards(codes) == 0


def misere_unsafe_suits(hands: np.ndarray, *, declarer: int = 0) -> np.ndarray:
    """Misère: for each row of an (n, 3) array of seat hands, the suits where the declarer is
    not safe, as uint8 bits (♠ 1, ♣ 2, ♦ 4, ♥ 8): he holds cards of the suit, and a defence
    leading it from either hand whenever it likes and throwing its cards away at will could
    catch him in it (docs/design.md, "Misère bounds"). ``misere_safe`` is true where it is 0.

    >>> from prefstats.game.cards import parse_hand
    >>> row = [parse_hand("♠8 10 ♥7"), parse_hand("♠7 ♥A K"), parse_hand("♠9 J Q")]
    >>> misere_unsafe_suits(np.array([row], dtype=np.uint32)).tolist()
    [1]
    """
    rows = _checks.rows(hands, misere=True, declarer=declarer)
    return _pool.unsafe_suits(rows.hands, rows.declarer)


def misere_sure_duck(hands: Sequence[int], *, leader: int, declarer: int = 0) -> bool:
    """Misère: can the declarer lose the trick about to start, ``leader`` on lead, whatever the
    defence plays (docs/design.md, "Misère bounds")? ``True`` proves he does not take every
    remaining trick, ``False`` that he takes at least one (this one); the solver uses it so when
    the question is "every trick?", or "one trick?" with him on lead.

    >>> from prefstats.game.cards import parse_hand
    >>> hands = [parse_hand("♠7 J"), parse_hand("♠8 9"), parse_hand("♥7 8")]
    >>> misere_sure_duck(hands, leader=0)  # the ♠7: the left defender must overtake
    True
    >>> misere_sure_duck(hands, leader=2)  # a heart: the declarer throws a card
    True
    >>> misere_sure_duck([parse_hand("♠9 J"), parse_hand("♠7 8"), parse_hand("♥7 8")], leader=1)
    False
    """
    where = _checks.position(hands, misere=True, declarer=declarer, leader=leader)
    return bool(_search._sure_duck(*where.kernel_hands, where.kernel_leader))


def defence_quick_tricks(
    hands: Sequence[int], *, leader: int, trump: int | None = None, declarer: int = 0
) -> int:
    """In a contract with a defender on lead: the tricks the defence cashes at once, the
    leader's own top cards or, if he can give his partner the lead in a suit whose top card
    the partner holds (and the declarer cannot ruff), the partner's; in no trump also the
    leader's and then the partner's, when the partner has cards to spare while the leader
    cashes (docs/design.md, "Contract bounds"). The defence takes at least this many tricks,
    and the solver uses it so.

    >>> from prefstats.game.cards import parse_hand
    >>> declarer = parse_hand("♠7 8 ♥7")
    >>> defence_quick_tricks([declarer, parse_hand("♠9 ♣7 8"), parse_hand("♠A ♦A K")], leader=1)
    3
    >>> defence_quick_tricks([declarer, parse_hand("♥A ♠9 ♦7"), parse_hand("♠A ♦A ♥8")], leader=1)
    3
    >>> defence_quick_tricks([declarer, parse_hand("♥A ♠9 ♦7"), parse_hand("♠A ♦A ♥8")], leader=1,
    ...                      trump=3)  # hearts trumps: he would ruff ♦A, and no both-in-turn
    1
    """
    where = _checks.position(
        hands, trump=trump, declarer=declarer, leader=leader, defender_leads=True
    )
    hd, hl, hr = where.kernel_hands
    hand, partner = (hl, hr) if where.kernel_leader == 1 else (hr, hl)
    return int(_search._defence_cashable(hand, partner, hd, hd | hl | hr, where.trump, 0))


def sure_trump_tricks(hands: Sequence[int], *, trump: int, declarer: int = 0) -> list[int]:
    """Sure trump tricks of each seat (0, 1, 2) in a trump contract (docs/design.md, "Contract
    bounds"): each of a player's trumps falls in a trick of its own and is beaten only by a
    higher trump in the same trick, and each higher trump beats at most one. The declarer's
    can be beaten by either defender's; a defender's only by the declarer's, since his
    partner's trick is the defence's too (his count is tricks for the defence). The solver
    uses these as bounds.

    >>> from prefstats.game.cards import parse_hand
    >>> hands = [parse_hand("♠A 9 8 7"), parse_hand("♠K Q J 10"), parse_hand("♥7 8 9 10")]
    >>> sure_trump_tricks(hands, trump=0)  # his ♠A wins; of the ♠K Q J 10 the ace beats one
    [1, 3, 0]
    """
    where = _checks.position(hands, trump=trump, declarer=declarer, needs_trump=True)
    hd, hl, hr = where.kernel_hands
    present = hd | hl | hr
    return [
        int(_search._declarer_sure_trumps(hd, present, where.trump))
        if seat == where.declarer
        else int(_search._defender_sure_trumps(hand, hd, where.trump))
        for seat, hand in enumerate(where.hands)
    ]
