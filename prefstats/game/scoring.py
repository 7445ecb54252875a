"""Scoring and settlement (docs/rules.md, "Scoring" and "Shared misère"): pure functions, rules
as data.

A pulka sheet gives each player a pulya (пуля: points for games made), a mountain (гора: penalty
points) and the whists he writes on each other player (висты). :func:`score_deal` returns what one
deal writes, a :class:`Writing`; :func:`settle` turns writings into net whists per player.
Players are table seats ``0..n-1`` numbered clockwise, the direction of bidding and play; in a
four-player game the dealer's seat sits out and writes nothing (docs/rules.md, "Cards and deal"),
except as a partner in a shared misère (:func:`score_shared_misere`).

>>> w = score_deal(PlayedDeal(tricks=(5, 3, 2), contract="6♠", declarer=0))  # both whist
>>> w
Writing(pulya=[0, 0, 0], mountain=[2, 0, 0], whists=[[0, 0, 0], [8, 0, 0], [6, 0, 0]])
>>> w.net().round(2).tolist()
[-27.33, 14.67, 12.67]

The three conventions
---------------------
One frozen :class:`ScoringConvention` each, looked up from ``RuleSet.scoring``. Per-level numbers
are for contracts 6, 7, 8, 9, 10; "k" below is a trick count.

==========================  =====================  =====================  =====================
written                     Sochi (default)        Leningrad              Rostov
==========================  =====================  =====================  =====================
game made: pulya            2 4 6 8 10             2 4 6 8 10             2 4 6 8 10
whists per defence trick    2 4 6 8 10             4 8 12 16 20           2 4 6 8 10
failed: mountain per under  2 4 6 8 10             4 8 12 16 20           2 4 6 8 10
consolation per undertrick  2 4 6 8 10             4 8 12 16 20           2 4 6 8 10
whister short, per trick    2 4 6 8 10 (full)      2 4 6 8 10 (half)      1 2 3 4 5 (half)
lone whister, game failed   greedy                 gentleman              gentleman
misère made / failed        10 / 10 per trick      10 / 20 per trick      10 / 10 per trick
all-pass, per trick         mountain 1, 2, 3       mountain 2, 4, 6       whists 5 (see below)
all-pass, zero tricks       pulya 1, 2, 3          pulya 2, 4, 6          pulya 1
one pulya point settles as  10 whists              20 whists              10 whists
==========================  =====================  =====================  =====================

Common to all: whist obligations 6→4, 7→2, 8→1, 9→1, 10→1 tricks for the defenders together
(Codex 3.8.2), none on misère; a whister writes whists for every defence trick (Codex 3.8.1.1);
on a failed game each defender writes consolation per undertrick on the declarer, in addition to
the whists for tricks (3.8.1.2); a whister short of the obligation writes the shortfall into his
mountain (3.8.1.3); misère writes no whists (misère definitions §6, docs/rules.md, "Sources");
one mountain point settles as 10 whists.

* **Greedy whist** (жлобский): with one whister and one passer, the whister writes the whists for
  all defence tricks, the passer only consolation. **Gentleman's whist** (джентльменский): if the
  declarer fails, whister and passer split the defence-trick whists equally (an odd whist goes to
  the whister); if he makes it, the whister writes them all, as in greedy whist.
* **Responsibility.** A lone whister answers for the whole obligation, counting the passer's
  tricks too. Two whisters answer for it only when together they fall short; then each answers
  for half, the first to speak (the defender after the declarer, Codex 3.8.1) for the lower half
  and the second for the odd trick, so on 8, 9 and 10 the second whister alone is liable; tricks
  a whister takes above his half count for his partner. Example, six with 3 and 0 defence tricks:
  one trick short, written by the whister with 0. (``odd_obligation_to_second=False``: each
  answers for the rounded-up half, so on an 8 two whisters with no trick both write.)
* **All-pass** in Sochi and Leningrad: each player writes his tricks into the mountain at the
  price of the consecutive all-pass (1st, 2nd, 3rd and after), a player with no trick writes one
  trick's price into the pulya instead (Codex 3.7.2.1). Rostov (Codex 3.7.2.2): the player with
  fewest tricks writes 5 whists per trick on each other player for that player's tricks (two
  players tied for fewest write on the third); a player with no trick also writes 1 into the pulya.
* **Four players.** The dealer writes nothing (``consolation_from_dealer=False``) except in a
  shared misère.
* **Both defenders pass.** The game is then not played (it counts as made) and nobody writes
  whists: give the contract's level as the declarer's tricks. A ten played open without whist
  ("checked") is the same deal with the tricks actually taken.

Sources, and where they differ
------------------------------
* *Кодекс преферанса* (Общество любителей преферанса, Moscow 1996): 3.6.9 and notes 41–43 (shared
  misère), 3.7.2.1–3.7.2.2 (all-pass writing; Rostov's usual price of 5 whists per trick),
  3.8.1.1–3.8.1.3 (whists, consolation, a whister's shortfall), 3.8.2 (obligations).
* D. Lesnoy, *Русский преферанс* (1998), Sochi and Leningrad "основные характеристики":
  responsible vs half-responsible whist, consolation from both defenders in addition to the
  whists, greedy vs gentleman's whist, all-pass into the mountain with a 1-2-3 progression and a
  pulya trick for no trick; its Leningrad table (reproduced on the shram.kiev.ua page
  "Ленинградка") gives the doubled whists and mountain and 20 per trick on a failed misère.
* Wikipedia, "Преферанс" (ru) and "Preferans" (en): a pulya point is worth 10 whists, 20 in
  Leningrad ("Питер"), a mountain point 10; Rostov halves the whisters' mountain penalty.
* "Rules of Russian Preferans (2) Other Variants" (kzpn200 blog, 2013): Rostov has gentleman's
  and half-responsible whist (the Kazakhstan variant being its greedy, responsible mirror).
* D. Parlett, *The Penguin Book of Card Games*, "Preferans": with two whisters the one who took
  fewer answers for the shortfall; with a one-trick obligation, the second to whist.

The sources disagree on: (a) who writes consolation in a four-player game: Codex 3.8.1.2
"usually everyone, the dealer included", Lesnoy "both defenders"; we follow Lesnoy and the worked
examples of docs/rules.md (field ``consolation_from_dealer``). (b) The all-pass trick price:
Lesnoy's Sochi 1-2-3 is the most cited; some Sochi tables write 2 per trick. Leningrad is called
the dearest all-pass; we take 2-4-6 (doubled, like the rest of Leningrad), some tables play 1-2-3
or 2-4-6-6.
Rostov's progression is not documented: none. (c) Two whisters on 8-10: Codex/Parlett's second
whister; some Leningrad tables make both liable. Each is a field, so a variant is
``dataclasses.replace(SOCHI, ...)`` passed as ``convention=``. Not modelled: half-whist (полвиста),
whist return, dark games, scoring overflow ("американская помощь").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from prefstats.checks import choice, integer, positive
from prefstats.game.rules import MAX_LEVEL, MIN_LEVEL, Contract, Convention, RuleSet, Strain

TRICKS = 10  # tricks in a deal
LEVELS = tuple(range(MIN_LEVEL, MAX_LEVEL + 1))  # 6..10, the index of the per-level tuples
ROLES = ("declarer", "dealer", "defender_1", "defender_2")  # keys of misere_net


@dataclass(frozen=True)
class ScoringConvention:
    """One scoring convention as data; per-level tuples are for contracts 6, 7, 8, 9, 10.

    Units: pulya and mountain points, and whists.

    >>> SOCHI.game_value(7), LENINGRAD.whist_price[2], ROSTOV.whist_shortfall[0]
    (4, 12, 1)
    >>> CONVENTIONS[Convention.LENINGRAD] is LENINGRAD
    True
    """

    name: str
    game_values: tuple[int, ...]  # pulya for a made game
    whist_obligation: tuple[int, ...]  # defence tricks the whisters owe (Codex 3.8.2)
    whist_price: tuple[int, ...]  # whists per defence trick (Codex 3.8.1.1)
    undertrick_mountain: tuple[int, ...]  # declarer's mountain per undertrick
    consolation: tuple[int, ...]  # whists per undertrick, from each defender (3.8.1.2)
    whist_shortfall: tuple[int, ...]  # a whister's mountain per missing trick (3.8.1.3)
    greedy_whist: bool  # True: greedy (жлобский); False: gentleman's (джентльменский)
    misere_value: int = 10  # pulya for a made misère
    misere_mountain: int = 10  # mountain per trick on a failed misère
    allpass_in_mountain: bool = True  # False: Rostov, the fewest-tricks player writes whists
    allpass_prices: tuple[int, ...] = (1, 2, 3)  # per trick, by consecutive all-pass
    allpass_zero_pulya: tuple[int, ...] = (1, 2, 3)  # pulya for no trick, by consecutive all-pass
    pulya_worth: int = 10  # whists per pulya point at settlement
    mountain_worth: int = 10  # whists per mountain point at settlement
    consolation_from_dealer: bool = False  # four players: the dealer writes consolation too
    odd_obligation_to_second: bool = True  # two whisters: the second owes the odd trick

    def __post_init__(self) -> None:
        per_level = ("game_values", "whist_obligation", "whist_price", "undertrick_mountain")
        for name in (*per_level, "consolation", "whist_shortfall"):
            if len(getattr(self, name)) != len(LEVELS):
                raise ValueError(f"{name} needs one entry per level 6..10")
        if not self.allpass_prices or not self.allpass_zero_pulya:
            raise ValueError("all-pass prices need at least one entry")
        if self.pulya_worth <= 0 or self.mountain_worth <= 0:
            raise ValueError("pulya and mountain worth must be positive")

    def game_value(self, level: int) -> int:
        """Pulya points of a made game of ``level`` tricks."""
        return self.game_values[level - MIN_LEVEL]


_SOCHI_VALUES = (2, 4, 6, 8, 10)
_DOUBLED = tuple(2 * v for v in _SOCHI_VALUES)
_OBLIGATION = (4, 2, 1, 1, 1)  # Codex 3.8.2

SOCHI = ScoringConvention(
    name="sochi",
    game_values=_SOCHI_VALUES,
    whist_obligation=_OBLIGATION,
    whist_price=_SOCHI_VALUES,
    undertrick_mountain=_SOCHI_VALUES,
    consolation=_SOCHI_VALUES,
    whist_shortfall=_SOCHI_VALUES,  # responsible whist: the full game value
    greedy_whist=True,
)
LENINGRAD = ScoringConvention(
    name="leningrad",
    game_values=_SOCHI_VALUES,
    whist_obligation=_OBLIGATION,
    whist_price=_DOUBLED,
    undertrick_mountain=_DOUBLED,
    consolation=_DOUBLED,
    whist_shortfall=_SOCHI_VALUES,  # half-responsible: half the doubled value
    greedy_whist=False,
    misere_mountain=20,
    allpass_prices=(2, 4, 6),
    allpass_zero_pulya=(2, 4, 6),
    pulya_worth=20,
)
ROSTOV = ScoringConvention(
    name="rostov",
    game_values=_SOCHI_VALUES,
    whist_obligation=_OBLIGATION,
    whist_price=_SOCHI_VALUES,
    undertrick_mountain=_SOCHI_VALUES,
    consolation=_SOCHI_VALUES,
    whist_shortfall=tuple(v // 2 for v in _SOCHI_VALUES),  # half-responsible
    greedy_whist=False,
    allpass_in_mountain=False,
    allpass_prices=(5,),  # whists per trick (Codex 3.7.2.2)
    allpass_zero_pulya=(1,),
)
CONVENTIONS: Mapping[Convention, ScoringConvention] = MappingProxyType(
    {Convention.SOCHI: SOCHI, Convention.LENINGRAD: LENINGRAD, Convention.ROSTOV: ROSTOV}
)


def convention_of(scoring: RuleSet | Convention | ScoringConvention) -> ScoringConvention:
    """The convention's data for a rule set, a :class:`Convention` or the data itself.

    >>> convention_of(RuleSet(scoring="rostov")).name
    'rostov'
    """
    if isinstance(scoring, ScoringConvention):
        return scoring
    if isinstance(scoring, RuleSet):
        scoring = scoring.scoring
    return CONVENTIONS[Convention(scoring)]


def _check_players(players: int) -> None:
    choice("players", players, (3, 4))


def _check_tricks(tricks: object, who: str) -> int:
    return integer(f"tricks of {who}", tricks, 0, TRICKS)


@dataclass(frozen=True)
class PlayedDeal:
    """A played deal: each seat's tricks and, unless all-pass, the contract and its declarer.

    ``tricks`` has one count per seat (3 or 4 seats); in a four-player game ``dealer`` names the
    seat that sits out (it takes no trick) and must be left out in a three-player game. The
    active players' tricks sum to 10. ``whisters`` lists the defenders who whisted; ``None``
    (the default) means both whisted, as in a double-dummy study. A misère has no whist. With no
    contract the deal is an all-pass, the ``allpass_round``-th in a row (1, 2, 3, ...).

    >>> d = PlayedDeal(tricks=(7, 0, 2, 1), contract="7♥", declarer=0, whisters=(2,), dealer=1)
    >>> d.active, d.defenders, d.whisters
    ((2, 3, 0), (2, 3), (2,))
    >>> PlayedDeal(tricks=(3, 3, 5))
    Traceback (most recent call last):
    ...
    ValueError: the active players' tricks must sum to 10, got 11
    """

    tricks: tuple[int, ...]
    contract: Contract | None = None
    declarer: int | None = None
    whisters: tuple[int, ...] | None = None
    dealer: int | None = None
    allpass_round: int = 1

    def __post_init__(self) -> None:
        tricks = tuple(self.tricks)
        if len(tricks) not in (3, 4):
            raise ValueError(f"a deal has 3 or 4 players (one trick count each), got {len(tricks)}")
        tricks = tuple(_check_tricks(t, f"seat {i}") for i, t in enumerate(tricks))
        object.__setattr__(self, "tricks", tricks)
        if isinstance(self.contract, str):
            object.__setattr__(self, "contract", Contract.parse(self.contract))
        self._check_dealer()
        total = sum(tricks[seat] for seat in self.active)
        if total != TRICKS:
            raise ValueError(f"the active players' tricks must sum to 10, got {total}")
        if self.contract is None:
            self._check_all_pass()
        else:
            self._check_game()

    def _check_dealer(self) -> None:
        n, dealer = self.players, self.dealer
        if n == 3 and dealer is not None:
            raise ValueError(f"a 3-player game has no sitting-out dealer, got dealer={dealer}")
        if n == 4 and (dealer is None or dealer not in range(4)):
            raise ValueError(f"a 4-player game needs the dealer's seat 0..3, got {dealer!r}")
        if dealer is not None and self.tricks[dealer] != 0:
            raise ValueError(f"the dealer (seat {dealer}) sits out and takes no trick")

    def _check_all_pass(self) -> None:
        if self.declarer is not None or self.whisters is not None:
            raise ValueError("an all-pass has no declarer and no whist; give a contract")
        positive("allpass_round", self.allpass_round)

    def _check_game(self) -> None:
        if self.declarer not in self.active:
            active, declarer = self.active, self.declarer
            raise ValueError(f"the declarer must be an active seat {active}, got {declarer!r}")
        if self.allpass_round != 1:
            raise ValueError("allpass_round applies to an all-pass only")
        if self.whisters is None:
            if self.contract is not None and not self.contract.is_misere:
                object.__setattr__(self, "whisters", self.defenders)
            return
        if self.contract is not None and self.contract.is_misere:
            raise ValueError("nobody whists a misère (Codex 3.8.2): leave whisters out")
        whisters = set(self.whisters)
        if not whisters <= set(self.defenders):
            raise ValueError(f"whisters must be defenders {self.defenders}, got {self.whisters}")
        object.__setattr__(self, "whisters", tuple(s for s in self.defenders if s in whisters))

    @property
    def players(self) -> int:
        """3 or 4."""
        return len(self.tricks)

    @property
    def active(self) -> tuple[int, ...]:
        """The seats that hold cards, clockwise from the dealer's left."""
        if self.dealer is None:
            return tuple(range(self.players))
        return tuple((self.dealer + k) % self.players for k in range(1, self.players))

    @property
    def defenders(self) -> tuple[int, ...]:
        """The declarer's two opponents in speaking order (Codex 3.8.1: next after him first)."""
        if self.declarer is None:
            return ()
        k = self.active.index(self.declarer)
        return self.active[k + 1 :] + self.active[:k]


@dataclass(frozen=True, eq=False)
class Writing:
    """What is written on the sheet: pulya and mountain per player, and ``whists[i, j]``, the
    whists player ``i`` writes on player ``j``. Arrays are read-only int64; writings add up.

    >>> total = Writing.zeros(3) + Writing([2, 0, 0], [0, 0, 0], np.zeros((3, 3), int))
    >>> total.pulya.tolist(), total.players
    ([2, 0, 0], 3)
    """

    pulya: np.ndarray
    mountain: np.ndarray
    whists: np.ndarray

    def __post_init__(self) -> None:
        for name in ("pulya", "mountain", "whists"):
            array = np.array(getattr(self, name), dtype=np.int64)
            array.flags.writeable = False
            object.__setattr__(self, name, array)
        n = self.pulya.shape[0] if self.pulya.ndim == 1 else -1
        _check_players(n)
        if self.mountain.shape != (n,) or self.whists.shape != (n, n):
            raise ValueError(f"a writing needs pulya, mountain (n,) and whists (n, n), n={n}")

    @classmethod
    def zeros(cls, players: int) -> Writing:
        """An empty sheet."""
        _check_players(players)
        return cls(np.zeros(players), np.zeros(players), np.zeros((players, players)))

    @property
    def players(self) -> int:
        """3 or 4."""
        return int(self.pulya.shape[0])

    def net(self, convention: RuleSet | Convention | ScoringConvention = SOCHI) -> np.ndarray:
        """Net whists per player when this writing is settled (:func:`settle`)."""
        return settle(self.mountain, self.pulya, self.whists, self.players, convention)

    def __add__(self, other: Writing) -> Writing:
        if not isinstance(other, Writing):
            return NotImplemented
        return Writing(
            self.pulya + other.pulya, self.mountain + other.mountain, self.whists + other.whists
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Writing):
            return NotImplemented
        return all(
            np.array_equal(a, b) for a, b in zip(self._arrays(), other._arrays(), strict=True)
        )

    __hash__ = None  # type: ignore[assignment]

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.pulya, self.mountain, self.whists

    def __repr__(self) -> str:
        return (
            f"Writing(pulya={self.pulya.tolist()}, mountain={self.mountain.tolist()}, "
            f"whists={self.whists.tolist()})"
        )


class _Sheet:
    """Mutable scratch arrays that one scoring function fills in, then freezes."""

    def __init__(self, players: int) -> None:
        self.pulya = np.zeros(players, dtype=np.int64)
        self.mountain = np.zeros(players, dtype=np.int64)
        self.whists = np.zeros((players, players), dtype=np.int64)

    def freeze(self) -> Writing:
        return Writing(self.pulya, self.mountain, self.whists)


def score_deal(
    deal: PlayedDeal,
    rules: RuleSet | None = None,
    convention: ScoringConvention | None = None,
) -> Writing:
    """What one deal writes, under ``rules.scoring`` (or an explicit ``convention``).

    ``rules`` defaults to the Codex rules for the deal's number of players (Sochi scoring).

    >>> sochi = score_deal(PlayedDeal(tricks=(5, 3, 2), contract="7♦", declarer=0, whisters=(1,)))
    >>> sochi.mountain.tolist(), sochi.whists[:, 0].tolist()  # greedy: the passer only consoles
    ([8, 0, 0], [0, 28, 8])
    >>> rostov = score_deal(
    ...     PlayedDeal(tricks=(5, 3, 2), contract="7♦", declarer=0, whisters=(1,)),
    ...     RuleSet(scoring="rostov"),
    ... )
    >>> rostov.whists[:, 0].tolist()  # gentleman's whist: the trick whists are split
    [0, 18, 18]
    >>> misere = PlayedDeal(tricks=(2, 0, 3, 5), contract="misère", declarer=0, dealer=1)
    >>> w = score_deal(misere)
    >>> w.mountain.tolist(), int(w.whists.sum())
    ([20, 0, 0, 0], 0)
    """
    rules = RuleSet(players=deal.players) if rules is None else rules
    if rules.players != deal.players:
        raise ValueError(f"the deal has {deal.players} players, the rules {rules.players}")
    conv = convention_of(rules) if convention is None else convention
    sheet = _Sheet(deal.players)
    if deal.contract is None:
        _write_all_pass(sheet, deal, conv)
    elif deal.contract.is_misere:
        _write_misere(sheet, deal, conv)
    else:
        _write_game(sheet, deal, conv)
    return sheet.freeze()


def _write_misere(sheet: _Sheet, deal: PlayedDeal, conv: ScoringConvention) -> None:
    """Misère: its value into the pulya, or per trick taken into the mountain; no whists
    (misère definitions §6, docs/rules.md, "Sources")."""
    assert deal.declarer is not None
    taken = deal.tricks[deal.declarer]
    if taken == 0:
        sheet.pulya[deal.declarer] += conv.misere_value
    else:
        sheet.mountain[deal.declarer] += conv.misere_mountain * taken


def _write_game(sheet: _Sheet, deal: PlayedDeal, conv: ScoringConvention) -> None:
    """A trick contract: pulya or mountain and consolation, whists, whisters' shortfall."""
    assert deal.contract is not None and deal.declarer is not None
    level, declarer = deal.contract.level, deal.declarer
    k = level - MIN_LEVEL
    under = max(0, level - deal.tricks[declarer])
    if under == 0:
        sheet.pulya[declarer] += conv.game_values[k]
    else:
        sheet.mountain[declarer] += conv.undertrick_mountain[k] * under
        consolers = list(deal.defenders)
        if conv.consolation_from_dealer and deal.dealer is not None:
            consolers.append(deal.dealer)
        for seat in consolers:
            sheet.whists[seat, declarer] += conv.consolation[k] * under
    _write_trick_whists(sheet, deal, conv, under > 0)
    for seat, short in _shortfalls(deal, conv).items():
        sheet.mountain[seat] += conv.whist_shortfall[k] * short


def _write_trick_whists(
    sheet: _Sheet, deal: PlayedDeal, conv: ScoringConvention, failed: bool
) -> None:
    """Whists for defence tricks (Codex 3.8.1.1); greedy or gentleman's with a lone whister."""
    assert deal.contract is not None and deal.declarer is not None and deal.whisters is not None
    price = conv.whist_price[deal.contract.level - MIN_LEVEL]
    whisters, declarer = deal.whisters, deal.declarer
    if len(whisters) == 2:
        for seat in whisters:
            sheet.whists[seat, declarer] += price * deal.tricks[seat]
    elif len(whisters) == 1:
        (whister,) = whisters
        (passer,) = (s for s in deal.defenders if s != whister)
        amount = price * sum(deal.tricks[s] for s in deal.defenders)
        share = amount // 2 if failed and not conv.greedy_whist else 0
        sheet.whists[passer, declarer] += share
        sheet.whists[whister, declarer] += amount - share


def _shortfalls(deal: PlayedDeal, conv: ScoringConvention) -> dict[int, int]:
    """Tricks each whister is short of his obligation (Codex 3.8.1.3, 3.8.2)."""
    assert deal.contract is not None and deal.whisters is not None
    owed = conv.whist_obligation[deal.contract.level - MIN_LEVEL]
    defence = sum(deal.tricks[s] for s in deal.defenders)
    if not deal.whisters or defence >= owed:
        return {}
    if len(deal.whisters) == 1:
        return {deal.whisters[0]: owed - defence}
    first, second = deal.whisters
    low = owed // 2
    high = owed - low
    shares = {first: low if conv.odd_obligation_to_second else high, second: high}
    surplus = {s: max(0, deal.tricks[s] - shares[s]) for s in shares}
    partner = {first: second, second: first}
    short = {s: shares[s] - deal.tricks[s] - surplus[partner[s]] for s in shares}
    return {s: n for s, n in short.items() if n > 0}


def _write_all_pass(sheet: _Sheet, deal: PlayedDeal, conv: ScoringConvention) -> None:
    """All-pass (Codex 3.7.2): into the mountain (Sochi, Leningrad) or whists (Rostov)."""
    price = conv.allpass_prices[min(deal.allpass_round, len(conv.allpass_prices)) - 1]
    zero = conv.allpass_zero_pulya[min(deal.allpass_round, len(conv.allpass_zero_pulya)) - 1]
    tricks = {seat: deal.tricks[seat] for seat in deal.active}
    for seat, taken in tricks.items():
        if taken == 0:
            sheet.pulya[seat] += zero
        elif conv.allpass_in_mountain:
            sheet.mountain[seat] += price * taken
    if conv.allpass_in_mountain:
        return
    fewest = min(tricks.values())
    writers = [s for s, taken in tricks.items() if taken == fewest]
    for writer in writers:
        for seat, taken in tricks.items():
            if seat not in writers:
                sheet.whists[writer, seat] += price * taken


def settle(
    mountains: np.ndarray | list[float],
    pulyas: np.ndarray | list[float],
    whists: np.ndarray | list[list[float]],
    players: int = 3,
    convention: RuleSet | Convention | ScoringConvention = SOCHI,
) -> np.ndarray:
    """Net whists per player: ``net_i = W·(mean(m') − m'_i) + written_i − received_i``.

    Each player's mountain × W / n is paid in whists to each other player, W = the convention's
    ``mountain_worth`` (10); the pulya is folded in as negative mountain, ``m' = mountain −
    pulya·pulya_worth/mountain_worth`` (Sochi: one pulya point takes one mountain point away;
    Leningrad: two, a pulya point being worth 20 whists). So +P pulya nets P·pulya_worth·(n−1)/n
    whists, and the nets sum to zero. Leading axes are a batch: ``mountains`` and ``pulyas``
    (..., n), ``whists`` (..., n, n) with ``whists[..., i, j]`` written by i on j.

    >>> settle([0, 0, 0, 0], [10, 0, 0, 0], np.zeros((4, 4)), players=4).tolist()
    [75.0, -25.0, -25.0, -25.0]
    >>> settle([0, 0, 0], [10, 0, 0], np.zeros((3, 3)), convention=LENINGRAD).round(2).tolist()
    [133.33, -66.67, -66.67]
    """
    _check_players(players)
    conv = convention_of(convention)
    m = np.asarray(mountains, dtype=float)
    p = np.asarray(pulyas, dtype=float)
    w = np.asarray(whists, dtype=float)
    if m.ndim == 0 or m.shape[-1] != players or p.shape != m.shape:
        expected = f"(..., {players})"
        raise ValueError(f"mountains and pulyas need shape {expected}, got {m.shape}, {p.shape}")
    if w.shape != (*m.shape, players):
        raise ValueError(f"whists need shape {(*m.shape, players)}, got {w.shape}")
    folded = m - p * (conv.pulya_worth / conv.mountain_worth)
    net = conv.mountain_worth * (folded.mean(axis=-1, keepdims=True) - folded)
    return np.asarray(net + w.sum(axis=-1) - w.sum(axis=-2))


class SharingPayment(NamedTuple):
    """Whists between the shared-misère partners: ``made`` (dealer on inviter) when it is made,
    ``per_trick`` (inviter on dealer, per trick) when it is caught."""

    made: int
    per_trick: int


def shared_misere_payment(
    convention: RuleSet | Convention | ScoringConvention = SOCHI,
) -> SharingPayment:
    """The payment that gives each partner exactly half of the partners' joint result, i.e. one
    third of the solo result in a four-player game (Codex note 42): half the settled gap between
    inviter and dealer after a solo misère, from the convention's data.

    Sochi: 50 and 50 per trick (misère definitions §7, docs/rules.md, "Sources"). Leningrad,
    where a pulya point is worth 20 whists and a caught misère writes 20 per trick: 100 and 100
    per trick.

    >>> shared_misere_payment(SOCHI), shared_misere_payment(LENINGRAD)
    (SharingPayment(made=50, per_trick=50), SharingPayment(made=100, per_trick=100))
    """
    conv = convention_of(convention)
    zero = np.zeros(4)
    made = settle(zero, [conv.misere_value, 0, 0, 0], np.zeros((4, 4)), 4, conv)
    caught = settle([conv.misere_mountain, 0, 0, 0], zero, np.zeros((4, 4)), 4, conv)
    halves = ((made[0] - made[3]) / 2, (caught[3] - caught[0]) / 2)
    if not all(float(h).is_integer() for h in halves):
        raise ValueError(f"convention {conv.name!r} gives a fractional sharing payment {halves}")
    return SharingPayment(int(halves[0]), int(halves[1]))


def score_shared_misere(
    inviter: int,
    dealer: int,
    tricks: int,
    rules: RuleSet | None = None,
    convention: ScoringConvention | None = None,
) -> Writing:
    """A shared misère (мизер пополам, Codex 3.6.9, notes 41–43; misère definitions §3, §7).

    Four players only. The inviter, formally the declarer, writes as for a solo misère; the
    dealer writes :func:`shared_misere_payment` ``.made`` whists on him if it is made (Sochi 50),
    he writes ``.per_trick`` per trick taken on the dealer if it is caught (Sochi 50). Each partner
    then nets a third of the solo result, the defenders exactly as against a solo misère. The
    defenders' tricks do not matter; ``tricks`` are the inviter's. In Leningrad (a pulya point
    worth 20 whists, 20 per trick on a caught misère) the same thirds take 100 whists made and
    100 per trick caught: the payment is computed from the convention's data.

    >>> w = score_shared_misere(inviter=0, dealer=3, tricks=0, rules=RuleSet(players=4))
    >>> w.net().tolist(), score_shared_misere(0, 3, 2).net().tolist()
    ([25.0, -25.0, -25.0, 25.0], [-50.0, 50.0, 50.0, -50.0])
    >>> int(score_shared_misere(0, 3, 0, RuleSet(players=4, scoring="leningrad")).whists[3, 0])
    100
    """
    rules = RuleSet(players=4) if rules is None else rules
    _check_shared(rules)
    conv = convention_of(rules) if convention is None else convention
    taken = _check_tricks(tricks, "the inviter")
    if inviter not in range(4) or dealer not in range(4) or inviter == dealer:
        raise ValueError(f"inviter and dealer must be two seats 0..3, got {inviter!r}, {dealer!r}")
    defender = next(s for s in ((inviter + 1) % 4, (inviter + 2) % 4) if s != dealer)
    seats = [0, 0, 0, 0]
    seats[inviter], seats[defender] = taken, TRICKS - taken
    deal = PlayedDeal(tuple(seats), Contract.misere(), inviter, dealer=dealer)
    solo = score_deal(deal, rules, conv)
    pay = shared_misere_payment(conv)
    sheet = _Sheet(4)
    if taken == 0:
        sheet.whists[dealer, inviter] = pay.made
    else:
        sheet.whists[inviter, dealer] = pay.per_trick * taken
    return solo + sheet.freeze()


def _check_shared(rules: RuleSet) -> None:
    if rules.players != 4:
        raise ValueError(f"shared misère (Codex 3.6.9) needs 4 players, got {rules.players}")


@lru_cache(maxsize=64)
def _misere_table(players: int, conv: ScoringConvention, shared: bool) -> dict[str, np.ndarray]:
    declarer, defenders = 0, (1, 2)
    dealer = 3 if players == 4 else None
    columns: dict[str, list[float]] = {role: [] for role in ROLES}
    for taken in range(TRICKS + 1):
        rules = RuleSet(players=players)
        if shared:
            assert dealer is not None
            net = score_shared_misere(declarer, dealer, taken, rules, conv).net(conv)
        else:
            tricks = (taken, TRICKS - taken, 0, 0)[:players]
            deal = PlayedDeal(tricks, Contract.misere(), declarer, dealer=dealer)
            net = score_deal(deal, rules, conv).net(conv)
        seats = {"declarer": declarer, "defender_1": defenders[0], "defender_2": defenders[1]}
        if dealer is not None:
            seats["dealer"] = dealer
        for role, seat in seats.items():
            columns[role].append(float(net[seat]))
    table = {role: np.array(values) for role, values in columns.items() if values}
    for array in table.values():
        array.flags.writeable = False
    return table


def misere_table(
    rules: RuleSet | None = None,
    shared: bool = False,
    convention: ScoringConvention | None = None,
) -> dict[str, np.ndarray]:
    """Net whists by role for a misère with 0..10 tricks taken: ``table[role][tricks]``.

    Roles: ``declarer`` (the inviter when shared), ``dealer`` (four players only), ``defender_1``,
    ``defender_2``. Read-only arrays of 11 floats, computed once per rule set.

    >>> misere_table(RuleSet(players=4))["declarer"][:3].tolist()
    [75.0, -75.0, -150.0]
    """
    rules = RuleSet() if rules is None else rules
    if shared:
        _check_shared(rules)
    conv = convention_of(rules) if convention is None else convention
    return _misere_table(rules.players, conv, shared)


def misere_net(
    tricks: int | np.ndarray,
    rules: RuleSet | None = None,
    shared: bool = False,
    convention: ScoringConvention | None = None,
) -> dict[str, np.ndarray | float]:
    """Net whists by role (see :func:`misere_table`) for the declarer's trick counts, vectorised:
    ``tricks`` may be an int or an integer array of any shape (one table look-up per element).

    >>> misere_net(np.array([0, 1, 0]), RuleSet(players=4), shared=True)["dealer"].tolist()
    [25.0, -25.0, 25.0]
    >>> {role: round(net, 2) for role, net in misere_net(0).items()}
    {'declarer': 66.67, 'defender_1': -33.33, 'defender_2': -33.33}
    """
    t = np.asarray(tricks)
    if t.dtype == bool or not np.issubdtype(t.dtype, np.integer):
        raise ValueError(f"tricks must be integers 0..10, got dtype {t.dtype}")
    if t.size and (t.min() < 0 or t.max() > TRICKS):
        raise ValueError(f"tricks must be 0..10, got values in {t.min()}..{t.max()}")
    table = misere_table(rules, shared, convention)
    if t.ndim == 0:
        return {role: float(column[int(t)]) for role, column in table.items()}
    return {role: column[t] for role, column in table.items()}


def contract_net_table(
    rules: RuleSet | None = None, convention: ScoringConvention | None = None
) -> np.ndarray:
    """The declarer's net whists for a trick contract, ``table[level, tricks]`` (float, 11 × 11;
    rows below 6 are zero), for the study's vectorised scoring.

    Both defenders whist (a double-dummy study plays every contract out) and split their tricks
    as evenly as possible, the odd trick to the first defender; in a four-player game the dealer
    sits out. Only the declarer's column is tabulated: his net does not depend on the split
    unless the defenders fall short of their obligation (Codex 3.8.2).

    >>> [round(float(x), 2) for x in contract_net_table()[6, 5:8]]  # 7: a defender falls short
    [-27.33, 5.33, 14.0]
    """
    rules = RuleSet() if rules is None else rules
    conv = convention_of(rules) if convention is None else convention
    return _contract_net_table(rules.players, conv)


@lru_cache(maxsize=64)
def _contract_net_table(players: int, conv: ScoringConvention) -> np.ndarray:
    table = np.zeros((MAX_LEVEL + 1, TRICKS + 1))
    dealer = 3 if players == 4 else None
    for level in LEVELS:
        contract = Contract(level, Strain.SPADES)  # the strain does not change the score
        for taken in range(TRICKS + 1):
            rest = TRICKS - taken
            tricks = (taken, rest - rest // 2, rest // 2, 0)[:players]
            deal = PlayedDeal(tricks, contract, declarer=0, dealer=dealer)
            table[level, taken] = score_deal(deal, RuleSet(players=players), conv).net(conv)[0]
    table.flags.writeable = False
    return table
