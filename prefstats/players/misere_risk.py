"""The risk of a misère hand: P(caught), the trick distribution and E[tricks] over the layouts
the declarer cannot see, with the exact double-dummy solver (docs/rules.md, "Misère suit
classes").

:func:`misere_risk` plays a 10-card misère hand for a declarer in any seat over the unknown
talon (unless given) and the unknown split of the defenders' cards, with a discard policy of
:mod:`prefstats.players.discards`:

* ``"sampled"`` (the default, the package's realistic policy ``discards.REALISTIC``): the
  discard is chosen once per talon, before the defenders' cards are seen, as the one with the
  least expected loss over ``choice_n`` sampled layouts among the heuristic's best classes of
  equivalent discards (``discards.SampledDiscard``); then it is evaluated on fresh layouts
  (the defenders open after the discard, Codex 3.6.6);
* ``"heuristic"``: ``discards.misere_discards``;
* ``"upper-bound"`` (also ``"dd"``): the best discard knowing the layout, an upper bound for
  the declarer, never a real player's;

or a fixed two-card discard. ``information`` is the model of what each side sees
(docs/rules.md, "Misère information models"):

* ``"open"`` (the default, the players' estimate): double-dummy, every card seen, the discard
  included;
* ``"hidden"``: the catchers know his twelve cards and the discards the policy's rating
  cannot tell from the one he made (``discards.sound_misere_discards``: for the heuristic
  discard, the sound discards), not which one he made;
* ``"floor"``: the same with every pair of his twelve cards possible;
* ``"blind"``: the first hand leads to trick 1 blind (``solver.blind_lead``: one card for all
  the layouts, the talon given), then open play; the other seats as ``"open"``;
* ``"played"``: the blind lead, then the discard hidden among the sound ones: the low end of the
  bracket of the game as played, whose high end is ``"blind"``;
* ``"played-floor"``: the blind lead, then every pair possible;
* ``"estimate"``: the point estimate inside the bracket: the blind lead (chosen for this
  model), then catchers who keep what they can force whichever sound discard he made and play
  each other card by the share of his sound discards, still consistent with the play, on which
  it keeps a double-dummy catch, against a declarer who plays double-dummy
  (``solver.estimate_tricks_many``).

>>> risk = misere_risk("♠7 8 9 ♣7 8 ♦7 8 ♥7 8 9", seat=1, n=50, seed=1)
>>> risk.p_caught.estimate, risk.counts[0]
(0.0, 50)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
from tqdm.auto import tqdm

from prefstats.checks import integer, is_int
from prefstats.checks import seat as seat_index
from prefstats.game.cards import N_CARDS, Style, format_hand, parse_hand
from prefstats.game.deal import (
    FIRST_HAND,
    HAND_SIZE,
    N_SEATS,
    SEAT_NAMES,
    TALON,
    TALON_SIZE,
    SeedLike,
    Stream,
    all_layouts,
    deal_many,
)
from prefstats.game.rules import MISERE_RANK
from prefstats.players.discards import (
    DISCARDS,
    REALISTIC,
    USER_NAMES,
    DiscardTask,
    SampledDiscard,
    discard_policy,
    misere_discards,
    sound_misere_discards,
)
from prefstats.solver import (
    blind_lead,
    estimate_tricks_many,
    fewest_catches,
    hidden_discard_many,
)
from prefstats.solver.contracts import misere_tricks
from prefstats.stats import Estimate, mean_estimate, proportion

INFORMATION = ("open", "hidden", "floor", "blind", "played", "played-floor", "estimate")
HIDDEN_MODELS = ("hidden", "floor", "played", "played-floor")  # the catchers do not see it
EVERY_PAIR_MODELS = ("floor", "played-floor")  # W: every pair of his twelve cards
BLIND_MODELS = ("blind", "played", "played-floor", "estimate")  # the first hand leads blind
LAYOUT_STREAM, CHOICE_STREAM = 0, 1  # sub-streams of a risk's seed: the layouts, the choices
BLOCK, EXHAUSTIVE_BLOCK = 100, 20_000  # layouts played at once (a tick of the progress bar)


@dataclass(frozen=True)
class MisereRisk:
    """The misère declarer's result over layouts: counts of layouts by tricks taken, P(caught)
    and E[tricks] with 95% intervals (exact values, zero-width, when ``exhaustive``).

    ``deals`` (n, 5) uint32 holds each layout: seats 0, 1, 2 as played (the declarer's kept ten),
    the talon, and the discard; ``tricks`` the declarer's tricks in it.
    """

    hand: int
    seat: int
    talon: int | None
    policy: str  # "sampled", "heuristic", "dd" (the upper bound) or "fixed"
    information: str  # one of INFORMATION
    exhaustive: bool
    stream: Stream  # the random stream behind the layouts, to reproduce them
    counts: tuple[int, ...]  # layouts with 0, 1, ..., 10 tricks
    p_caught: Estimate
    mean_tricks: Estimate
    deals: np.ndarray = field(repr=False, compare=False)
    tricks: np.ndarray = field(repr=False, compare=False)

    @property
    def seed(self) -> int:
        """The seed (entropy) of the stream behind the layouts."""
        return self.stream.entropy

    @property
    def n(self) -> int:
        """Number of layouts."""
        return sum(self.counts)

    def distribution(self) -> tuple[Estimate, ...]:
        """P(tricks = k) for k = 0..10, each with its Wilson interval (exact if exhaustive)."""
        return tuple(self._share(count) for count in self.counts)

    def _share(self, count: int) -> Estimate:
        if self.exhaustive:
            p = count / self.n
            return Estimate(p, p, p, self.n, count)
        return proportion(count, self.n)

    def format(self, style: Style = "en") -> str:
        """A short report: hand, policy, P(caught), E[tricks] and the distribution; labels in
        Russian too with ``style="ru"``."""
        words = _WORDS[style]
        talon = format_hand(self.talon, style) if self.talon is not None else words["unknown"]
        path = f" ({words['sub-stream']} {self.stream.path})" if self.stream.path else ""
        kind = words["all"] if self.exhaustive else f"{words['random']} {self.seed}{path}"
        seat_names = _SEAT_NAMES if style == "en" else _SEAT_NAMES_RU
        lines = [
            f"{words['hand']} {format_hand(self.hand, style)}, {words['seat']} {self.seat} "
            f"({seat_names[self.seat]}), {words['talon']} {talon}",
            f"{words['discard']}: {_POLICY_TEXT[style].get(self.policy, self.policy)}; "
            f"{self.n:,} {kind}",
            f"{words['information']}: {INFORMATION_TEXT[style][self.information]}",
            f"{words['caught']}  {self.p_caught}",
            f"{words['tricks']}  {self.mean_tricks}",
            words["header"],
        ]
        for k, estimate in enumerate(self.distribution()):
            if estimate.count:
                lines.append(
                    f"{k:>6}  {int(estimate.count):>7,}  {estimate.estimate:.4f} "
                    f"[{estimate.low:.4f}, {estimate.high:.4f}]"
                )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


_SEAT_NAMES = (f"{SEAT_NAMES[0]}, leads", *SEAT_NAMES[1:])
INFORMATION_TEXT: dict[Style, dict[str, str]] = {
    "en": {
        "open": "open (double-dummy: every card seen, the discard included)",
        "hidden": "discard hidden among his sound discards; otherwise every card seen",
        "floor": "discard hidden among every pair of his twelve cards (the floor)",
        "blind": "blind first lead on his own lead, then open",
        "played": "as played, low end: blind first lead, discard hidden among his sound discards",
        "played-floor": "blind first lead, discard hidden among every pair (the floor)",
        "estimate": "estimate: blind first lead, catchers keeping what they can force and "
        "judging each other card over his sound discards (perfect-information Monte Carlo)",
    },
    "ru": {
        "open": "в открытую (все карты видны, снос тоже)",
        "hidden": "снос скрыт среди его разумных сносов; остальные карты видны",
        "floor": "снос скрыт среди всех пар его двенадцати карт (нижняя граница)",
        "blind": "слепой первый ход на своём ходу, дальше в открытую",
        "played": "как играют, нижний край: слепой первый ход, снос скрыт среди разумных",
        "played-floor": "слепой первый ход, снос скрыт среди всех пар (нижняя граница)",
        "estimate": "оценка: слепой первый ход, ловящие держат верную ловлю, а прочие карты "
        "судят по его разумным сносам (Монте-Карло с полной информацией)",
    },
}
_SEAT_NAMES_RU = ("первая рука, ходит", "вторая рука", "третья рука")
_POLICY_TEXT: dict[Style, dict[str, str]] = {
    "en": {
        "dd": "best per layout knowing every card (an upper bound for the declarer)",
        "sampled": "the realistic policy: chosen before the layout is seen, from sampled layouts",
        "heuristic": "heuristic rule (prefstats.players.discards.misere_discards)",
        "fixed": "the two cards given",
    },
    "ru": {
        "dd": "лучший в каждом раскладе, видя все карты (верхняя граница для играющего)",
        "sampled": "реалистичный: выбран до того, как виден расклад, по пробным раскладам",
        "heuristic": "эвристическое правило (prefstats.players.discards.misere_discards)",
        "fixed": "две заданные карты",
    },
}
_WORDS: dict[Style, dict[str, str]] = {
    "en": {
        "hand": "hand",
        "seat": "seat",
        "talon": "talon",
        "discard": "discard",
        "unknown": "unknown (drawn per layout)",
        "all": "all layouts",
        "random": "random layouts, seed",
        "sub-stream": "sub-stream",
        "caught": "P(caught)",
        "tricks": "E[tricks]",
        "information": "information",
        "header": "tricks  layouts  share [95% CI]",
    },
    "ru": {
        "hand": "рука",
        "seat": "место",
        "talon": "прикуп",
        "discard": "снос",
        "unknown": "неизвестен (свой в каждом раскладе)",
        "all": "все расклады",
        "random": "случайных раскладов, зерно",
        "sub-stream": "подпоток",
        "caught": "P(поймали)",
        "tricks": "E[взяток]",
        "information": "информация",
        "header": "взяток раскладов доля [95% ДИ]",
    },
}


def misere_risk(
    hand: int | str,
    *,
    seat: int = FIRST_HAND,
    talon: int | str | None = None,
    discard: str | int = REALISTIC,
    n: int = 2000,
    seed: SeedLike | Stream = None,
    exhaustive: bool = False,
    choice_n: int = SampledDiscard.samples,
    progress: bool = False,
    information: str = "open",
) -> MisereRisk:
    """P(caught), the trick distribution and E[tricks] of a misère on ``hand`` (10 cards).

    ``seat``: the declarer's seat (0 = first hand, who leads to trick 1). ``talon``: the two
    talon cards if known, else drawn uniformly per layout. ``discard``: sampled (the default,
    the realistic policy), heuristic, upper-bound (or its registry name dd) or two cards (a mask
    or text) from the hand and talon. ``n`` random layouts from ``seed``; or
    ``exhaustive=True``: all 184,756 layouts of the defenders' 20 cards, which needs the talon
    and a discard fixed before the layout ("upper-bound" is not). ``choice_n``: layouts sampled
    to choose each "sampled" discard (once per talon). ``progress`` shows a progress bar (the
    layouts are played in blocks; the result is the same). ``information``: one of
    ``INFORMATION`` (see the module); every model plays the same layouts and discards for a seed.

    >>> risk = misere_risk("♠7 8 A ♣7 9 ♦7 8 ♥8 9 10", talon="♠K ♦J", discard="♠K A", n=200,
    ...                    seed=7)
    >>> risk.n, risk.p_caught.low < risk.p_caught.estimate < risk.p_caught.high
    (200, True)
    """
    hand_mask, seat, talon_mask = _checked_hand_seat_talon(hand, seat, talon)
    policy, fixed = _checked_discard(discard, hand_mask, talon_mask)
    integer("choice_n", choice_n, 1)
    if information not in INFORMATION:
        raise ValueError(
            f"information must be one of {', '.join(INFORMATION)}, got {information!r}"
        )
    if information in BLIND_MODELS and seat == FIRST_HAND and talon_mask is None:
        raise ValueError(
            f"information={information!r} with the first hand declaring needs the talon: the "
            "blind lead is one card for the layouts he cannot tell apart, which share his talon"
        )
    if exhaustive:
        _check_exhaustive(talon_mask, policy)
    else:
        integer("n", n, 2)
    stream = Stream.of(seed)
    fixed_parts = {seat: hand_mask} | ({TALON: talon_mask} if talon_mask is not None else {})
    if exhaustive:
        assert talon_mask is not None
        deals = all_layouts(hand_mask, talon_mask, seat)
    else:
        deals = deal_many(n, seed=stream.child(LAYOUT_STREAM), fixed=fixed_parts)
    discards = np.zeros(len(deals), dtype=np.uint32)
    tricks = np.zeros(len(deals), dtype=np.int8)
    played = deals.copy()
    block = EXHAUSTIVE_BLOCK if exhaustive else BLOCK
    for start in tqdm(
        range(0, len(deals), block),
        disable=not progress,
        unit="block",
        desc=f"{len(deals):,} layouts",
    ):
        rows = slice(start, start + block)
        discards[rows] = _discards(
            deals[rows], seat, policy, fixed, choice_n, stream.child(CHOICE_STREAM)
        )
        played[rows, seat] = (deals[rows, seat] | deals[rows, TALON]) & ~discards[rows]
        blind_here = information in BLIND_MODELS and seat == FIRST_HAND
        if information == "open" or (information == "blind" and not blind_here):
            tricks[rows] = misere_tricks(
                np.ascontiguousarray(played[rows, :N_SEATS]), declarer=seat
            )
        if information in HIDDEN_MODELS and not blind_here:
            tricks[rows] = _hidden_tricks(played[rows], discards[rows], seat, information)
        if information == "estimate" and not blind_here:
            tricks[rows] = _estimate_tricks(played[rows], discards[rows], seat)
    if information == "estimate" and seat == FIRST_HAND:
        tricks = _blind_estimate(played, discards, seat)
    elif information in BLIND_MODELS and seat == FIRST_HAND:
        tricks = _blind_tricks(played, discards, seat, information)
    return _result(
        hand_mask,
        seat,
        talon_mask,
        policy,
        information,
        exhaustive,
        stream,
        np.column_stack([played, discards]),
        tricks,
    )


def _possible(hands12: np.ndarray, discards: np.ndarray, information: str) -> np.ndarray | None:
    """(n, m) the catchers' possible discards of each layout: the sound ones and the one made
    (0-padded), or None for every pair."""
    if information in EVERY_PAIR_MODELS:
        return None
    return np.column_stack([sound_misere_discards(hands12, discards), discards]).astype(np.uint32)


def _hidden_tricks(
    played: np.ndarray, discards: np.ndarray, seat: int, information: str
) -> np.ndarray:
    """Tricks with the discard hidden (the first hand leading to trick 1, seeing everything)."""
    rows = np.ascontiguousarray(played[:, :N_SEATS])
    rows[:, seat] |= discards
    possible = _possible(rows[:, seat], discards, information)
    return hidden_discard_many(rows, declarer=seat, leader=FIRST_HAND, discards=possible)


def _estimate_tricks(
    played: np.ndarray, discards: np.ndarray, seat: int, first: int | None = None
) -> np.ndarray:
    """Tricks in the estimate's play (the first hand leading, ``first`` his first card if he
    is the first hand), the catchers judging over his sound discards and the one he made."""
    rows = np.ascontiguousarray(played[:, :N_SEATS])
    rows[:, seat] |= discards
    possible = _possible(rows[:, seat], discards, "estimate")
    return estimate_tricks_many(
        rows, made=discards, declarer=seat, leader=FIRST_HAND, discards=possible, first=first
    )


def _blind_estimate(played: np.ndarray, discards: np.ndarray, seat: int) -> np.ndarray:
    """The estimate after the blind lead (``solver.fewest_catches``), one card for each group
    of layouts sharing his kept ten and discard."""
    tricks = np.zeros(len(played), dtype=np.int8)
    keys = (played[:, seat].astype(np.uint64) << np.uint64(32)) | discards.astype(np.uint64)
    for key in np.unique(keys):
        group = np.flatnonzero(keys == key)
        hand = int(played[group[0], seat])
        _, tricks[group] = fewest_catches(
            (bit for bit in range(N_CARDS) if hand >> bit & 1),
            functools.partial(_estimate_tricks, played[group], discards[group], seat),
        )
    return tricks


def _blind_tricks(
    played: np.ndarray, discards: np.ndarray, seat: int, information: str
) -> np.ndarray:
    """Tricks after the blind lead, one card for each group of layouts sharing his kept ten
    and discard (which are all he sees before leading)."""
    tricks = np.zeros(len(played), dtype=np.int8)
    kept = played[:, seat].astype(np.uint64)
    keys = (kept << np.uint64(32)) | discards.astype(np.uint64)
    others = [(seat + 1) % N_SEATS, (seat + 2) % N_SEATS]
    for key in np.unique(keys):
        group = np.flatnonzero(keys == key)
        hand, discard = int(played[group[0], seat]), int(discards[group[0]])
        possible = None
        if information in HIDDEN_MODELS:
            row = _possible(
                np.array([hand | discard], dtype=np.uint32), discards[group[:1]], information
            )
            possible = (
                [int(d) for d in np.unique(row[0]) if d]
                if row is not None
                else _every_pair(hand | discard)
            )
        _, tricks[group] = blind_lead(
            hand, discard, played[group][:, others], declarer=seat, discards=possible
        )
    return tricks


def _every_pair(cards: int) -> list[int]:
    bits = [bit for bit in range(N_CARDS) if cards >> bit & 1]
    return [(1 << a) | (1 << b) for i, a in enumerate(bits) for b in bits[i + 1 :]]


def _discards(
    deals: np.ndarray, seat: int, policy: str, fixed: int, choice_n: int, stream: Stream
) -> np.ndarray:
    """The declarer's discard in each layout under the policy. A policy that cannot see the
    layout decides once per talon: the sampled discard draws its layouts at the counter of the
    declarer's twelve cards, so a talon gets the same choice in every layout."""
    if policy == "fixed":
        return np.full(len(deals), fixed, dtype=np.uint32)
    seats = np.full(len(deals), seat)
    contracts = np.full(len(deals), MISERE_RANK)
    hands12 = deals[:, seat] | deals[:, TALON]
    if policy != "sampled":
        task = DiscardTask(deals, seats, contracts, misere_discards(hands12), stream, seats)
        return discard_policy(policy)().choose(task)
    distinct, first, inverse = np.unique(hands12, return_index=True, return_inverse=True)
    task = DiscardTask(
        deals[first], seats[first], contracts[first], misere_discards(distinct), stream, distinct
    )
    return SampledDiscard(samples=choice_n).choose(task)[inverse.reshape(-1)]


def _result(
    hand: int,
    seat: int,
    talon: int | None,
    policy: str,
    information: str,
    exhaustive: bool,
    stream: Stream,
    deals: np.ndarray,
    tricks: np.ndarray,
) -> MisereRisk:
    counts = np.bincount(tricks, minlength=HAND_SIZE + 1)
    caught = int((tricks > 0).sum())
    if exhaustive:
        p, mean = caught / len(tricks), float(tricks.mean())
        p_caught = Estimate(p, p, p, len(tricks), caught)
        mean_tricks = Estimate(mean, mean, mean, len(tricks), float(tricks.sum()))
    else:
        p_caught, mean_tricks = proportion(caught, len(tricks)), mean_estimate(tricks)
    deals.flags.writeable = False
    tricks.flags.writeable = False
    return MisereRisk(
        hand=hand,
        seat=seat,
        talon=talon,
        policy=policy,
        information=information,
        exhaustive=exhaustive,
        stream=stream,
        counts=tuple(int(c) for c in counts),
        p_caught=p_caught,
        mean_tricks=mean_tricks,
        deals=deals,
        tricks=tricks,
    )


def _checked_cards(name: str, cards: int | np.integer | str, size: int) -> int:
    if isinstance(cards, str):
        try:
            mask = parse_hand(cards)
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
    elif not is_int(cards):
        raise ValueError(f"{name} must be a card mask or text, got {cards!r}")
    else:
        mask = int(cards)
        if not 0 <= mask < 1 << N_CARDS:
            raise ValueError(f"{name} must be a 32-bit card mask, got {mask}")
    if mask.bit_count() != size:
        raise ValueError(
            f"{name} must hold {size} cards, got {mask.bit_count()}: {format_hand(mask)}"
        )
    return mask


def _checked_hand_seat_talon(
    hand: int | str, seat: int, talon: int | str | None
) -> tuple[int, int, int | None]:
    """(hand, seat, talon or None) checked: ten cards, a seat, two cards outside the hand."""
    hand_mask = _checked_cards("hand", hand, HAND_SIZE)
    talon_mask = None if talon is None else _checked_cards("talon", talon, TALON_SIZE)
    if talon_mask is not None and talon_mask & hand_mask:
        raise ValueError(
            f"talon {format_hand(talon_mask)} overlaps the hand: "
            f"{format_hand(talon_mask & hand_mask)}"
        )
    return hand_mask, seat_index("seat", seat), talon_mask


def _checked_discard(discard: object, hand: int, talon: int | None) -> tuple[str, int]:
    """(policy, 0) for a policy name, or ("fixed", mask) for two cards held after the talon."""
    if isinstance(discard, str) and discard in USER_NAMES:
        return USER_NAMES[discard], 0
    if isinstance(discard, str) and discard in DISCARDS:
        return discard, 0
    if not (isinstance(discard, str) or is_int(discard)):
        raise ValueError(f"discard must be a policy name or two cards, got {discard!r}")
    try:
        mask = _checked_cards("discard", discard, TALON_SIZE)
    except ValueError as err:
        if isinstance(discard, str):
            raise ValueError(
                f"discard must be one of {', '.join(USER_NAMES)} or two cards, got {discard!r}"
            ) from None
        raise err
    held = hand | (talon or 0)
    if mask & ~held:
        where = "hand and talon" if talon is not None else "hand (the talon is unknown)"
        raise ValueError(f"discard {format_hand(mask & ~held)} is not in the {where}")
    return "fixed", mask


def _check_exhaustive(talon: int | None, policy: str) -> None:
    if talon is None:
        raise ValueError("exhaustive=True enumerates the defenders' cards: give the talon")
    if policy == "dd":
        raise ValueError(
            "exhaustive=True needs a discard fixed before the layout (cards, 'heuristic' or "
            "'sampled'); 'upper-bound' would solve every discard of all 184,756 layouts"
        )
