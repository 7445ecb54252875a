"""Rules as data: the rule set and the contracts of the bid ladder (docs/rules.md, "Bidding").

Ladder (low to high): 6♠ 6♣ 6♦ 6♥ 6NT 7♠ … 8NT, misère, 9♠ … 10NT. Misère sits between 8NT and
9♠: only a nine beats it (Codex 3.6.4).

>>> Contract.parse("8NT") < Contract.parse("мизер") < Contract.parse("9S")
True
>>> str(Contract.parse("10БК")), Contract.parse("misere").format("ru")
('10NT', 'мизер')
>>> RuleSet(players=4).scoring
<Convention.SOCHI: 'sochi'>
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import total_ordering
from typing import TypeVar

import numpy as np

from prefstats.checks import choice, integer
from prefstats.game.cards import N_SUITS, SUIT_SYMBOLS, Style, Suit
from prefstats.names import lookup


class MisereOverbid(Enum):
    """What may follow when a nine beats misère (Codex 3.6.4, note 40)."""

    TOURNAMENT_STOP = "tournament-stop"  # Codex note 40: after the nine the auction stops
    THIRD_HAND_HIGHER_NINE = "third-hand-higher-nine"  # misère definitions §2


class Convention(Enum):
    """Scoring convention (docs/rules.md, "Scoring")."""

    SOCHI = "sochi"
    LENINGRAD = "leningrad"
    ROSTOV = "rostov"


E = TypeVar("E", bound=Enum)


def _as_enum(kind: type[E], value: E | str) -> E:
    if isinstance(value, kind):
        return value
    return lookup({str(member.value): member for member in kind}, value, kind.__name__)


@dataclass(frozen=True)
class RuleSet:
    """The rule variants a simulation runs under; the defaults are the Codex's.

    ``players`` is 3, or 4 with the dealer sitting out (docs/rules.md, "Cards and deal").

    >>> RuleSet(players=5)
    Traceback (most recent call last):
    ...
    ValueError: players must be 3 or 4, got 5
    >>> RuleSet(misere_overbid="third-hand-higher-nine").misere_overbid.name
    'THIRD_HAND_HIGHER_NINE'
    """

    players: int = 3
    misere_overbid: MisereOverbid = MisereOverbid.TOURNAMENT_STOP
    scoring: Convention = Convention.SOCHI

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", choice("players", self.players, (3, 4)))
        object.__setattr__(self, "misere_overbid", _as_enum(MisereOverbid, self.misere_overbid))
        object.__setattr__(self, "scoring", _as_enum(Convention, self.scoring))

    @classmethod
    def named(cls, name: str) -> RuleSet:
        """A named rule set: ``codex`` (3 players) or ``codex4`` (4 players, dealer sits out)."""
        return lookup(RULE_SETS, name, "rule set")


RULE_SETS = {"codex": RuleSet(), "codex4": RuleSet(players=4)}


class Strain(IntEnum):
    """What a trick contract is played in: a trump suit or no-trump."""

    SPADES = Suit.SPADES
    CLUBS = Suit.CLUBS
    DIAMONDS = Suit.DIAMONDS
    HEARTS = Suit.HEARTS
    NO_TRUMP = 4


MIN_LEVEL, MAX_LEVEL = 6, 10
NINE_LEVEL = 9  # a nine: a contract of nine or ten tricks (docs/rules.md, "The claim")
MISERE_LEVEL = 0  # misère promises no trick; its ladder place is fixed separately
_STRAIN_TOKENS = {
    **{s: Strain(i) for i, s in enumerate(SUIT_SYMBOLS)},
    **{s: Strain(i) for i, s in enumerate("SCDH")},
    **{s: Strain(i) for i, s in enumerate("птбч")},
    "NT": Strain.NO_TRUMP,
    "БК": Strain.NO_TRUMP,
}
_MISERE_WORDS = {"misère", "misere", "мизер", "mis"}
_CONTRACT_RE = re.compile(r"^\s*(10|[6-9])\s*(\S+?)\s*$")


@total_ordering
@dataclass(frozen=True)
class Contract:
    """A contract of the bid ladder: ``level`` 6..10 tricks in ``strain``, or misère.

    Contracts order by the ladder (docs/rules.md, "Bidding"): ``Contract.parse('8NT').rank == 14``,
    misère is 15, ``9♠`` is 16.

    >>> Contract(7, Strain.HEARTS)
    Contract(level=7, strain=<Strain.HEARTS: 3>)
    >>> Contract(11, Strain.HEARTS)
    Traceback (most recent call last):
    ...
    ValueError: a contract's level must be an integer in 6..10, got 11
    """

    level: int
    strain: Strain | None

    def __post_init__(self) -> None:
        if self.level == MISERE_LEVEL and self.strain is None:
            return
        if self.strain is None:
            raise ValueError("only misère (level 0) has no strain")
        level = integer("a contract's level", self.level, MIN_LEVEL, MAX_LEVEL)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "strain", Strain(self.strain))

    @classmethod
    def misere(cls) -> Contract:
        """The misère contract (Codex 3.6.1)."""
        return cls(MISERE_LEVEL, None)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``"9♠"``, ``"9S"``, ``"7б"``, ``"10NT"``, ``"10БК"``, ``"misère"``, ``"мизер"``.

        >>> Contract.parse("6 ♦"), Contract.parse("7т").trump
        (Contract(level=6, strain=<Strain.DIAMONDS: 2>), <Suit.CLUBS: 1>)
        """
        if text.strip().lower() in _MISERE_WORDS:
            return cls.misere()
        match = _CONTRACT_RE.match(text)
        token = match.group(2) if match else ""
        strain = _STRAIN_TOKENS.get(token, _STRAIN_TOKENS.get(token.upper()))
        if match is None or strain is None:
            raise ValueError(
                f"bad contract {text!r}: expected a level 6..10 and a strain "
                "(♠ ♣ ♦ ♥, S C D H, п т б ч, NT/БК), or misère/мизер"
            )
        return cls(int(match.group(1)), strain)

    @property
    def is_misere(self) -> bool:
        """True for misère."""
        return self.strain is None

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None for no-trump and misère (Codex 3.6.7: no trumps on misère)."""
        if self.strain is None or self.strain == Strain.NO_TRUMP:
            return None
        return Suit(int(self.strain))

    @property
    def rank(self) -> int:
        """Place on the bid ladder, 0 (6♠) … 25 (10NT); misère is 15."""
        return LADDER.index(self)

    def format(self, style: Style = "en") -> str:
        """``"6♠"``, ``"8NT"``/``"8БК"``, ``"misère"``/``"мизер"``."""
        if self.strain is None:
            return "мизер" if style == "ru" else "misère"
        if self.strain == Strain.NO_TRUMP:
            return f"{self.level}{'БК' if style == 'ru' else 'NT'}"
        return f"{self.level}{SUIT_SYMBOLS[self.strain]}"

    def __str__(self) -> str:
        return self.format()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Contract):
            return NotImplemented
        return self.rank < other.rank


def _ladder() -> tuple[Contract, ...]:
    below = [Contract(level, strain) for level in (6, 7, 8) for strain in Strain]
    above = [Contract(level, strain) for level in (9, 10) for strain in Strain]
    return (*below, Contract.misere(), *above)


LADDER: tuple[Contract, ...] = _ladder()


MISERE_RANK = Contract.misere().rank  # 15: between 8NT and 9♠
FIRST_NINE_RANK = MISERE_RANK + 1  # 9♠, the lowest bid that beats misère (Codex 3.6.4)
NO_BID = -1  # the ladder-rank code of no contract: a pass, an all-pass deal, nothing makeable


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


# Ladder rank -> level (0 for misère) and -> strain (-1 for misère), for arrays of ranks.
LEVEL_OF_RANK = _frozen(np.array([c.level for c in LADDER], dtype=np.int8))
STRAIN_OF_RANK = _frozen(
    np.array([-1 if c.strain is None else int(c.strain) for c in LADDER], dtype=np.int8)
)


def _rank_of_level_and_strain() -> np.ndarray:
    table = np.full((MAX_LEVEL + 1, N_SUITS + 1), NO_BID, dtype=np.int8)
    for contract in LADDER:
        if contract.strain is not None:
            table[contract.level, contract.strain] = contract.rank
    return _frozen(table)


# (level, strain) -> ladder rank, NO_BID below level 6: int8 (11, 5).
RANK_OF = _rank_of_level_and_strain()
