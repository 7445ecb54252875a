"""Misère suit structures: the single-suit misère game and the suit classes.

docs/rules.md, "Misère suit classes", sorts the misère declarer's holding in one suit into
classes: **clean** (the declarer cannot be forced to win a trick in the suit, whatever the
layout and whoever leads), **conditionally clean** (safe only when the opponents lead the suit)
and **catchable** (caught in some layout even on the opponents' lead). This module decides the
class of each of the 256 holdings by solving the one-suit game exactly over every layout, and
does not copy the source's examples: they are the tests. The whole-deal measurements with the
double-dummy solver are the catch-rate tables (:mod:`prefstats.misere.tables`) and the risk of a
misère hand (:mod:`prefstats.players.misere_risk`).

The one-suit game (the abstraction)
-----------------------------------
Misère is played without trumps (Codex 3.6.7); the declarer must win no trick. Only one suit is
modelled, and the defenders get every advantage the other suits could give them:

* The defenders see all cards (they play open, Codex 3.6.6, 3.6.8) and cooperate.
* Whenever a defender is on lead, the defenders may lead this suit from **either** defender's
  hand: they pass the lead between them freely through the other suits. Seats go round
  declarer → left defender → right defender; when the left defender leads the declarer plays
  third, when the right defender leads he plays second, so the defenders also choose his seat.
* Everyone must follow suit; a defender void in the suit discards another suit, which loses to
  any card of the suit. The declarer wins the trick iff he follows and his card is the highest of
  the suit in the trick. He can never discard a card of this suit (he is assumed to have no
  voids elsewhere: that would only help him), and once void in the suit he is safe in it.
* Winning one trick is failure: after it the declarer is assumed caught anyway, so the question
  per layout is only "can the defenders force him to take a trick in this suit?".
* Two lead conditions. **Defenders' lead**: the declarer never leads the suit (he has safe exits
  elsewhere). **Own lead**: the declarer must lead the suit once, at the start, choosing the card;
  both defenders follow; afterwards the defenders lead. He never has to lead it again, because he
  regains the lead only by winning a trick, which is already failure.

Layouts and cards out of play
-----------------------------
The cards the declarer does not hold are dealt to the left defender, the right defender or "out of
play" in every way, with at most ``max_out_of_play`` cards out. The default is
:data:`MAX_OUT_OF_PLAY` = 2: in a misère deal the only cards out of play are the declarer's two
discards (Codex 3.6.6; docs/rules.md states the modelling choice), so these
layouts are exactly those possible in a real deal, whichever cards he discarded. With this choice
"a clean misère cannot be caught" holds (within this one-suit abstraction) in every real deal.
Without out-of-play cards (``max_out_of_play=0``, every other card with the defenders) the classes
of the source's examples are the same; the only change is that 22 holdings of six or seven cards
are clean rather than conditionally clean (e.g. 7 8 9 10 J Q: if K and A were both discarded,
nobody can follow when the declarer leads it). With no limit (``max_out_of_play=8``) no holding is
clean, since with all other cards out of play the declarer who leads the suit wins the trick: that
reading contradicts the source's clean examples 7, 7 8, ..., so it cannot be the source's. The
catchable holdings (177 of 256) are the same under all three choices. Dynamic defender discards of
the suit (on other suits' leads) change no class either (checked against a brute-force twin in the
tests).

Results and the source's examples
---------------------------------
Of the 256 holdings, 25 are clean, 53 conditionally clean, 177 catchable and 1 void (default).
Every example of the source comes out as the source says (``tests/test_misere_classes.py`` lists
them all), with one documented disagreement: the source's "and so on up to 7 8 9 10 J Q K A" for
clean suits. Holding all eight cards, the declarer wins any trick he leads in the suit (nobody
can follow), so under own lead he is caught: 7 8 9 10 J Q K A is conditionally clean (docs/rules.md
says the lists are loose at that end). Some findings are not monotone: 7 8 9 K is conditionally
clean while 7 8 9 K A is clean (the defenders' ace is a free card with which they can win the
declarer's lead of 7 and keep 10 J Q for three later leads); 7 9 10, not among the source's
examples, is conditionally clean like 7 9.

Hand classes and void suits
---------------------------
A **clean misère** has no catchable suit and at least one clean suit; a **conditionally clean**
misère has no catchable and no clean suit; otherwise the misère is **catchable**. A void suit is
harmless but is no exit: the declarer cannot lead a suit he does not hold, so it does not replace
the clean suit he needs when he is on lead at the first trick. When a void suit is led he
discards, and discarding the highest card of a suit never makes any position of that suit worse
for him on the defenders' lead (checked over every position in the tests), so voids never hurt.
He leads at most once: the first trick, if he is the first hand; afterwards he regains the lead
only by winning a trick.

>>> suit_class(parse_holding("7 9"))
<SuitClass.CONDITIONALLY_CLEAN: 1>
>>> [suit_class(parse_holding(text)).label for text in ("789В", "7 10", "")]
['clean', 'catchable', 'void']
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from prefstats.checks import WrongType, integer, is_int
from prefstats.game import cards
from prefstats.game.cards import (
    FULL_DECK,
    N_HOLDINGS,
    N_RANKS,
    N_SUITS,
    SUIT_MASK,
    check_holding,
    format_holding,
    parse_hand,  # noqa: F401 - the doctests use it
    parse_holding,  # noqa: F401 - the doctests use it
)

MAX_OUT_OF_PLAY = 2  # the declarer's two discards are the only cards out of play in misère
_NO_CARD = -1  # "rank" of a discard: lower than every card of the suit


class SuitClass(enum.IntEnum):
    """Misère class of a one-suit holding; the value indexes arrays (see :func:`class_codes`)."""

    CLEAN = 0
    CONDITIONALLY_CLEAN = 1
    CATCHABLE = 2
    VOID = 3

    @property
    def label(self) -> str:
        """Lower-case name: ``'conditionally_clean'``."""
        return self.name.lower()


class MisereHandClass(enum.Enum):
    """Misère class of a whole hand (docs/rules.md, "Misère suit classes")."""

    CLEAN = "clean"
    CONDITIONALLY_CLEAN = "conditionally_clean"
    CATCHABLE = "catchable"


@dataclass(frozen=True)
class HoldingAnalysis:
    """One holding solved over all its layouts."""

    holding: int
    layouts: int
    caught_defenders_lead: int  # layouts where the defenders catch him on their lead
    caught_own_lead: int  # layouts where he is caught when he must lead the suit first
    suit_class: SuitClass


# --- the one-suit game -----------------------------------------------------------------------


def caught_on_defenders_lead(holding: int, left: int, right: int) -> bool:
    """Can the defenders force a trick on the declarer when only they lead the suit?

    ``left`` plays after the declarer, ``right`` before him; the three masks must be disjoint.

    >>> caught_on_defenders_lead(parse_holding("7 10"), parse_holding("8 9"), 0)
    True
    >>> caught_on_defenders_lead(parse_holding("7 10"), parse_holding("8"), parse_holding("9"))
    False
    """
    return _caught_defenders_lead(*_checked_layout(holding, left, right))


def caught_on_own_lead(holding: int, left: int, right: int) -> bool:
    """Is the declarer caught when he must lead the suit once first (then the defenders lead)?

    >>> caught_on_own_lead(parse_holding("7 9"), parse_holding("8 10"), 0)
    True
    >>> caught_on_own_lead(parse_holding("7 9"), parse_holding("8"), parse_holding("10"))
    False
    """
    return _caught_own_lead(*_checked_layout(holding, left, right))


@functools.cache
def _caught_defenders_lead(declarer: int, left: int, right: int) -> bool:
    if not declarer:
        return False
    return _caught_when_left_leads(declarer, left, right) or _caught_when_right_leads(
        declarer, left, right
    )


def _caught_when_left_leads(declarer: int, left: int, right: int) -> bool:
    """Order left, right, declarer: the declarer plays third, seeing both defenders' cards."""
    for lead in _ranks(left):
        for follow in _follow_options(right):
            top = max(lead, follow)
            after = (_without(left, lead), _without(right, follow))
            if all(
                _loses_or_caught_later(declarer, card, top, *after) for card in _ranks(declarer)
            ):
                return True
    return False


def _caught_when_right_leads(declarer: int, left: int, right: int) -> bool:
    """Order right, declarer, left: the declarer plays second, the left defender answers."""
    for lead in _ranks(right):
        rest_right = _without(right, lead)
        if all(
            any(
                _loses_or_caught_later(
                    declarer, card, max(lead, follow), _without(left, follow), rest_right
                )
                for follow in _follow_options(left)
            )
            for card in _ranks(declarer)
        ):
            return True
    return False


def _caught_own_lead(declarer: int, left: int, right: int) -> bool:
    """The declarer leads a card of his choice; left, then right follow; then defenders lead."""
    if not declarer:
        return False  # he cannot lead a suit he does not hold
    return all(
        any(
            _loses_or_caught_later(
                declarer,
                card,
                max(left_card, right_card),
                _without(left, left_card),
                _without(right, right_card),
            )
            for left_card in _follow_options(left)
            for right_card in _follow_options(right)
        )
        for card in _ranks(declarer)
    )


def _loses_or_caught_later(
    declarer: int, card: int, top_defender_card: int, left: int, right: int
) -> bool:
    """True if playing ``card`` wins this trick or leaves a position where he is caught."""
    return card > top_defender_card or _caught_defenders_lead(_without(declarer, card), left, right)


# --- holdings over all layouts ---------------------------------------------------------------


def layouts(holding: int, max_out_of_play: int = MAX_OUT_OF_PLAY) -> Iterator[tuple[int, int]]:
    """Every (left, right) split of the other cards, at most ``max_out_of_play`` of them out.

    >>> len(list(layouts(parse_holding("7 8 9 10 J Q"), max_out_of_play=0)))
    4
    >>> len(list(layouts(parse_holding("7 8 9 10 J Q"))))
    9
    """
    outstanding = SUIT_MASK & ~check_holding(holding)
    max_out_of_play = _checked_max_out(max_out_of_play)
    for left in _submasks(outstanding):
        for right in _submasks(outstanding & ~left):
            if (outstanding & ~left & ~right).bit_count() <= max_out_of_play:
                yield left, right


def analyse_holding(holding: int, max_out_of_play: int = MAX_OUT_OF_PLAY) -> HoldingAnalysis:
    """Solve ``holding`` in every layout and classify it.

    7 9 is caught on its own lead only when one defender holds all six other cards:

    >>> a = analyse_holding(parse_holding("7 9"), max_out_of_play=0)
    >>> a.layouts, a.caught_defenders_lead, a.caught_own_lead, a.suit_class.label
    (64, 0, 2, 'conditionally_clean')
    """
    holding = check_holding(holding)
    n_layouts = caught_defenders = caught_own = 0
    for left, right in layouts(holding, max_out_of_play):
        n_layouts += 1
        caught_defenders += _caught_defenders_lead(holding, left, right)
        caught_own += _caught_own_lead(holding, left, right)
    return HoldingAnalysis(
        holding=holding,
        layouts=n_layouts,
        caught_defenders_lead=caught_defenders,
        caught_own_lead=caught_own,
        suit_class=_class_from_catches(holding, caught_defenders, caught_own),
    )


def _class_from_catches(holding: int, caught_defenders: int, caught_own: int) -> SuitClass:
    if not holding:
        return SuitClass.VOID
    if caught_defenders:
        return SuitClass.CATCHABLE
    if caught_own:
        return SuitClass.CONDITIONALLY_CLEAN
    return SuitClass.CLEAN


@functools.cache
def _analyses(max_out_of_play: int) -> tuple[HoldingAnalysis, ...]:
    return tuple(analyse_holding(holding, max_out_of_play) for holding in range(N_HOLDINGS))


def suit_class(holding: int, max_out_of_play: int = MAX_OUT_OF_PLAY) -> SuitClass:
    """The misère class of an 8-bit holding (cached table over all 256).

    >>> suit_class(parse_holding("7 8 9 10 J Q K A"))  # documented disagreement with the source
    <SuitClass.CONDITIONALLY_CLEAN: 1>
    >>> suit_class(256)
    Traceback (most recent call last):
    ...
    ValueError: a suit holding must be an 8-bit mask in 0..255, got 256
    """
    return _analyses(_checked_max_out(max_out_of_play))[check_holding(holding)].suit_class


def class_codes(max_out_of_play: int = MAX_OUT_OF_PLAY) -> npt.NDArray[np.uint8]:
    """The 256 classes as a read-only uint8 array, for vectorised lookup by holding.

    >>> codes = class_codes()
    >>> SuitClass(codes[parse_holding("7 8")]).label
    'clean'
    """
    return _class_codes(_checked_max_out(max_out_of_play))


@functools.cache
def _class_codes(max_out_of_play: int) -> npt.NDArray[np.uint8]:
    codes = np.array([a.suit_class for a in _analyses(max_out_of_play)], dtype=np.uint8)
    codes.flags.writeable = False
    return codes


def suit_class_table(max_out_of_play: int = MAX_OUT_OF_PLAY) -> pd.DataFrame:
    """All 256 holdings: mask, text, length, class and caught-layout counts under each lead.

    >>> table = suit_class_table()
    >>> table["suit_class"].value_counts().to_dict()
    {'catchable': 177, 'conditionally_clean': 53, 'clean': 25, 'void': 1}
    """
    rows = [
        {
            "holding": a.holding,
            "text": format_holding(a.holding),
            "n_cards": a.holding.bit_count(),
            "suit_class": a.suit_class.label,
            "layouts": a.layouts,
            "caught_defenders_lead": a.caught_defenders_lead,
            "caught_own_lead": a.caught_own_lead,
        }
        for a in _analyses(_checked_max_out(max_out_of_play))
    ]
    return pd.DataFrame(rows)


# --- whole hands -----------------------------------------------------------------------------


def hand_suit_classes(
    hand: int, max_out_of_play: int = MAX_OUT_OF_PLAY
) -> tuple[SuitClass, SuitClass, SuitClass, SuitClass]:
    """The class of each suit ♠ ♣ ♦ ♥ of a hand mask.

    >>> [c.label for c in hand_suit_classes(parse_hand("♠7 8 ♣7 9 ♦8"))]
    ['clean', 'conditionally_clean', 'catchable', 'void']
    """
    hand = _checked_hand(hand)
    spades, clubs, diamonds, hearts = (
        suit_class(cards.holding(hand, suit), max_out_of_play) for suit in range(N_SUITS)
    )
    return spades, clubs, diamonds, hearts


def misere_hand_class(hand: int, max_out_of_play: int = MAX_OUT_OF_PLAY) -> MisereHandClass:
    """Clean, conditionally clean or catchable misère (see the module docstring).

    >>> misere_hand_class(parse_hand("♠7 8 ♣7 9")).value
    'clean'
    >>> misere_hand_class(parse_hand("♣7 9 ♥7 8 J")).value
    'conditionally_clean'
    >>> misere_hand_class(parse_hand("♠7 8 ♦9")).value
    'catchable'
    """
    classes = hand_suit_classes(hand, max_out_of_play)
    return misere_class_from_composition(
        n_clean=classes.count(SuitClass.CLEAN),
        n_conditional=classes.count(SuitClass.CONDITIONALLY_CLEAN),
        n_catchable=classes.count(SuitClass.CATCHABLE),
    )


def misere_class_from_composition(
    n_clean: int, n_conditional: int, n_catchable: int
) -> MisereHandClass:
    """Hand class from the numbers of clean, conditionally clean and catchable suits.

    >>> misere_class_from_composition(n_clean=1, n_conditional=2, n_catchable=0).value
    'clean'
    """
    if n_catchable:
        return MisereHandClass.CATCHABLE
    if n_clean:
        return MisereHandClass.CLEAN
    if n_conditional:
        return MisereHandClass.CONDITIONALLY_CLEAN
    raise ValueError("a hand with no cards has no misère class")


# --- small helpers ---------------------------------------------------------------------------


def _ranks(mask: int) -> Sequence[int]:
    return _RANKS_OF[mask]


def _follow_options(mask: int) -> Sequence[int]:
    """The cards a player may play to the suit's lead: any of his, or a discard if void."""
    return _RANKS_OF[mask] or (_NO_CARD,)


def _without(mask: int, rank: int) -> int:
    return mask & ~(1 << rank) if rank != _NO_CARD else mask


def _submasks(mask: int) -> Iterator[int]:
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


_RANKS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(rank for rank in range(N_RANKS) if mask >> rank & 1) for mask in range(N_HOLDINGS)
)


def _checked_layout(holding: int, left: int, right: int) -> tuple[int, int, int]:
    holding, left, right = (check_holding(mask) for mask in (holding, left, right))
    if holding & left or holding & right or left & right:
        raise ValueError(
            "declarer, left and right holdings overlap: "
            f"{format_holding(holding)} / {format_holding(left)} / {format_holding(right)}"
        )
    return holding, left, right


def _checked_max_out(max_out_of_play: int) -> int:
    return integer("max_out_of_play", max_out_of_play, 0, N_RANKS)


def _checked_hand(hand: int) -> int:
    if not is_int(hand):
        raise WrongType(f"a hand must be an int mask, got {type(hand).__name__}")
    hand = int(hand)
    if not 0 <= hand <= FULL_DECK:
        raise ValueError(f"a hand mask must be a 32-bit value, got {hand}")
    return hand
