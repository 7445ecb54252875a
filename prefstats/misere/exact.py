"""Exact combinatorics of Preferans deals (``math.comb`` and ``fractions.Fraction``).

Three families of results, all exact:

* suit splits between the two unseen hands (:func:`split_probabilities`) and the chance that the
  talon brings a wanted card (:func:`talon_outs`);
* the chance that a random 10-card hand holds a given suit holding (:func:`holding_probability`)
  or a suit of a given misère class (:func:`suit_class_probabilities`);
* 10-card hands counted by misère suit-class composition (:func:`hand_class_counts`), by
  generating functions: for one suit, the 256 holdings grouped by class give a polynomial in x
  (x counts cards) per class; the product over the four suits, with the classes kept apart, has as
  coefficient of x^10 the number of hands with each composition. From it come the number of hands
  per misère hand class (:func:`misere_class_counts`), :func:`p_clean_misere` and
  :func:`p_only_clean_or_conditional`.

Misère classes come from :mod:`prefstats.misere` (default: up to two cards of a suit out of play,
the declarer's discards). A 10-card hand here is any 10 of the 32 cards, each equally likely:
the hand as dealt, or the hand after the discard seen as a random 10-card set.

>>> split_probabilities(2)[(1, 1)]
Fraction(10, 19)
>>> p_clean_misere()
Fraction(20219, 32256120)
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import pandas as pd

from prefstats.checks import integer
from prefstats.game.cards import N_CARDS, N_HOLDINGS, N_RANKS, N_SUITS, holdings
from prefstats.game.deal import DEFENDER_CARDS, HAND_SIZE, TALON_SIZE
from prefstats.misere.classes import (
    MAX_OUT_OF_PLAY,
    MisereHandClass,
    SuitClass,
    class_codes,
    misere_class_from_composition,
    suit_class,
)

UNSEEN_BEFORE_TALON = N_CARDS - HAND_SIZE  # 22: two hands and the talon

Composition = tuple[int, int, int, int]  # numbers of clean, conditional, catchable, void suits
# A polynomial in x with the class composition kept apart: (composition, cards) -> count.
_Polynomial = Mapping[tuple[Composition, int], int]


# --- suit splits and the talon ---------------------------------------------------------------


def split_probabilities(
    n_out: int, hand_size: int = HAND_SIZE, unseen: int = DEFENDER_CARDS
) -> dict[tuple[int, int], Fraction]:
    """Probability that ``n_out`` cards of a suit split (a, b) between two unseen hands.

    The two hands of ``hand_size`` cards are drawn from ``unseen`` cards, of which ``n_out`` are
    the suit's; the rest of the unseen cards (``unseen - 2·hand_size``, e.g. the talon) is out of
    play. Default: the declarer has seen his 10 cards and the talon, the other 20 cards form the
    defenders' hands. Only possible splits are listed; the values sum to 1.

    >>> split_probabilities(2)[(1, 1)]
    Fraction(10, 19)
    >>> split_probabilities(3)[(3, 0)]
    Fraction(2, 19)
    >>> sum(split_probabilities(4, unseen=22).values())
    Fraction(1, 1)
    """
    integer("n_out", n_out, 0, unseen)
    integer("hand_size", hand_size, 0, None)
    integer("unseen", unseen, 2 * hand_size, None)
    total = math.comb(unseen, hand_size) * math.comb(unseen - hand_size, hand_size)
    others = unseen - n_out
    result = {}
    for a in range(min(n_out, hand_size) + 1):
        for b in range(min(n_out - a, hand_size) + 1):
            ways = (
                _comb(n_out, a)
                * _comb(n_out - a, b)
                * _comb(others, hand_size - a)  # the first hand's other cards
                * _comb(others - (hand_size - a), hand_size - b)  # the second hand's
            )
            if ways:
                result[(a, b)] = Fraction(ways, total)
    return result


def talon_outs(k: int, unseen: int = UNSEEN_BEFORE_TALON, talon_size: int = TALON_SIZE) -> Fraction:
    """Probability that the talon, drawn from ``unseen`` cards, holds at least one of ``k`` cards.

    >>> talon_outs(1)
    Fraction(1, 11)
    >>> talon_outs(2)
    Fraction(41, 231)
    """
    integer("unseen", unseen, 0, None)
    integer("talon_size", talon_size, 0, unseen)
    integer("k", k, 0, unseen)
    return 1 - Fraction(math.comb(unseen - k, talon_size), math.comb(unseen, talon_size))


# --- holdings in a random hand ---------------------------------------------------------------


def holding_probability(holding: int, hand_size: int = HAND_SIZE) -> Fraction:
    """Probability that a random hand holds exactly ``holding`` in a given suit.

    >>> holding_probability(0b1)  # the singleton 7
    Fraction(3553, 175305)
    >>> sum(holding_probability(h) for h in range(256))
    Fraction(1, 1)
    """
    suit_class(holding)  # validates the holding with a clear error
    integer("hand_size", hand_size, 0, N_CARDS)
    length = int(holding).bit_count()
    rest = N_CARDS - N_RANKS
    return Fraction(math.comb(rest, hand_size - length), math.comb(N_CARDS, hand_size))


def suit_class_probabilities(
    hand_size: int = HAND_SIZE, max_out_of_play: int = MAX_OUT_OF_PLAY
) -> dict[SuitClass, Fraction]:
    """Probability that one given suit of a random hand is of each misère class.

    >>> probabilities = suit_class_probabilities()
    >>> probabilities[SuitClass.VOID]
    Fraction(3553, 116870)
    >>> sum(probabilities.values())
    Fraction(1, 1)
    """
    result = dict.fromkeys(SuitClass, Fraction(0))
    for holding in range(N_HOLDINGS):
        cls = suit_class(holding, max_out_of_play)
        result[cls] += holding_probability(holding, hand_size)
    return result


# --- hands by misère class composition -------------------------------------------------------


def hand_class_counts(
    hand_size: int = HAND_SIZE, max_out_of_play: int = MAX_OUT_OF_PLAY
) -> dict[Composition, int]:
    """Number of hands per composition (clean, conditionally clean, catchable, void suits).

    >>> counts = hand_class_counts()
    >>> sum(counts.values()) == math.comb(32, 10)
    True
    >>> counts[(4, 0, 0, 0)]  # four clean suits
    1042
    """
    integer("hand_size", hand_size, 0, N_CARDS)
    return dict(_hand_class_counts(hand_size, max_out_of_play))


@functools.cache
def _hand_class_counts(hand_size: int, max_out_of_play: int) -> tuple[tuple[Composition, int], ...]:
    suit = _suit_polynomial(max_out_of_play)
    product: _Polynomial = {((0, 0, 0, 0), 0): 1}
    for _ in range(N_SUITS):
        product = _multiply(product, suit, max_cards=hand_size)
    return tuple(
        sorted(
            (composition, count) for (composition, n), count in product.items() if n == hand_size
        )
    )


def _suit_polynomial(max_out_of_play: int) -> _Polynomial:
    """One suit: (the unit composition of its class, its length) -> number of holdings."""
    terms: Counter[tuple[Composition, int]] = Counter()
    for holding in range(N_HOLDINGS):
        cls = suit_class(holding, max_out_of_play)
        unit = tuple(int(index == cls) for index in range(len(SuitClass)))
        terms[(_composition(unit), holding.bit_count())] += 1
    return terms


def _multiply(p: _Polynomial, q: _Polynomial, max_cards: int) -> _Polynomial:
    """Product of two polynomials, dropping terms with more than ``max_cards`` cards."""
    product: Counter[tuple[Composition, int]] = Counter()
    for (comp_p, cards_p), count_p in p.items():
        for (comp_q, cards_q), count_q in q.items():
            if cards_p + cards_q <= max_cards:
                comp = _composition(tuple(a + b for a, b in zip(comp_p, comp_q, strict=True)))
                product[(comp, cards_p + cards_q)] += count_p * count_q
    return product


def _composition(values: tuple[int, ...]) -> Composition:
    clean, conditional, catchable, void = values
    return clean, conditional, catchable, void


def hand_class_table(
    hand_size: int = HAND_SIZE, max_out_of_play: int = MAX_OUT_OF_PLAY
) -> pd.DataFrame:
    """:func:`hand_class_counts` as a table with probabilities and the misère hand class.

    >>> table = hand_class_table()
    >>> int(table["hands"].sum()) == math.comb(32, 10)
    True
    """
    total = math.comb(N_CARDS, hand_size)
    rows = [
        {
            "clean": clean,
            "conditionally_clean": conditional,
            "catchable": catchable,
            "void": void,
            "hands": count,
            "probability": count / total,
            "misere_class": misere_class_from_composition(clean, conditional, catchable).value,
        }
        for (clean, conditional, catchable, void), count in hand_class_counts(
            hand_size, max_out_of_play
        ).items()
    ]
    return pd.DataFrame(rows)


def misere_class_counts(
    hand_size: int = HAND_SIZE, max_out_of_play: int = MAX_OUT_OF_PLAY
) -> dict[MisereHandClass, int]:
    """Number of hands in each misère hand class.

    >>> {cls.value: n for cls, n in misere_class_counts().items()}
    {'clean': 40438, 'conditionally_clean': 6426, 'catchable': 64465376}
    """
    result = dict.fromkeys(MisereHandClass, 0)
    for (clean, conditional, catchable, _), count in hand_class_counts(
        hand_size, max_out_of_play
    ).items():
        result[misere_class_from_composition(clean, conditional, catchable)] += count
    return result


def p_misere_class(
    cls: MisereHandClass, hand_size: int = HAND_SIZE, max_out_of_play: int = MAX_OUT_OF_PLAY
) -> Fraction:
    """Probability that a random hand is a misère of class ``cls``."""
    counts = misere_class_counts(hand_size, max_out_of_play)
    return Fraction(counts[cls], sum(counts.values()))


def p_clean_misere(hand_size: int = HAND_SIZE, max_out_of_play: int = MAX_OUT_OF_PLAY) -> Fraction:
    """Probability that a random 10-card hand is a clean misère (cannot be caught).

    >>> float(p_clean_misere())  # doctest: +ELLIPSIS
    0.000626...
    """
    return p_misere_class(MisereHandClass.CLEAN, hand_size, max_out_of_play)


def p_only_clean_or_conditional(
    hand_size: int = HAND_SIZE, max_out_of_play: int = MAX_OUT_OF_PLAY
) -> Fraction:
    """Probability that every suit of a random hand is clean, conditionally clean or void.

    >>> p_only_clean_or_conditional() == p_clean_misere() + p_misere_class(
    ...     MisereHandClass.CONDITIONALLY_CLEAN)
    True
    """
    counts = hand_class_counts(hand_size, max_out_of_play)
    no_catchable = sum(n for (_, _, catchable, _), n in counts.items() if catchable == 0)
    return Fraction(no_catchable, sum(counts.values()))


# The named chances that a random 10-card hand is a misère that cannot be caught, each under
# its own definition (docs/rules.md, "Misère suit classes").
CLEAN_MISERE_DEFINITIONS = {
    "clean misère (this package's classes)": (
        "no catchable suit and at least one clean suit, classes with up to two cards out of "
        "play (the declarer's discards)",
        MAX_OUT_OF_PLAY,
        True,
    ),
    "clean misère (no card out of play)": (
        "no catchable suit and at least one clean suit, classes with every other card held by "
        "the defenders",
        0,
        True,
    ),
    "no catchable suit": (
        "every suit clean, conditionally clean or void: safe unless the declarer leads to the "
        "first trick",
        MAX_OUT_OF_PLAY,
        False,
    ),
}


def clean_misere_probabilities() -> pd.DataFrame:
    """Each named chance of ``CLEAN_MISERE_DEFINITIONS`` for one random 10-card hand: its
    definition, the exact fraction and its value.

    >>> table = clean_misere_probabilities().set_index("name")
    >>> table.loc["clean misère (this package's classes)", "fraction"]
    '20219/32256120'
    """
    rows = []
    for name, (meaning, max_out, needs_clean) in CLEAN_MISERE_DEFINITIONS.items():
        p = (
            p_clean_misere(max_out_of_play=max_out)
            if needs_clean
            else p_only_clean_or_conditional(max_out_of_play=max_out)
        )
        rows.append(
            {"name": name, "definition": meaning, "fraction": str(p), "probability": float(p)}
        )
    return pd.DataFrame(rows)


def clean_misere_masks(hands: np.ndarray) -> dict[str, np.ndarray]:
    """bool (n,) per name of ``CLEAN_MISERE_DEFINITIONS``: which hands (10-card masks) it counts,
    for a simulated check of :func:`clean_misere_probabilities`."""
    out = {}
    for name, (_, max_out, needs_clean) in CLEAN_MISERE_DEFINITIONS.items():
        classes = class_codes(max_out)[holdings(np.asarray(hands, dtype=np.uint32))]
        safe = (classes != SuitClass.CATCHABLE).all(axis=1)
        out[name] = safe & (classes == SuitClass.CLEAN).any(axis=1) if needs_clean else safe
    return out


def _comb(n: int, k: int) -> int:
    """Binomial coefficient, 0 when ``k`` cards cannot be chosen from ``n``."""
    return math.comb(n, k) if 0 <= k <= n else 0


# --- validation ------------------------------------------------------------------------------
