"""What is this hand worth? Every contract of the ladder and misère for one 10-card hand.

:func:`analyze` answers a player's first question about a hand in a seat: for each contract
(6♠ … 10NT, and misère) the chance to make it with a 95% interval, the distribution of the
declarer's tricks, E[tricks], the expected settled score in whists, and the bid that scores
best beside what the package's heuristic bidder bids. The model, stated in every output
(docs/rules.md, "Cards and deal", "Talon and discard", "Play", "Scoring"):

* the talon is uniform over the 231 pairs of the 22 cards the declarer does not see, weighted
  exactly: every pair gets the same number of layouts (a stratified sample), unless given;
* the declarer takes it and discards before he sees the defenders' cards, by the package's
  realistic policy (``discards.SampledDiscard``: the discard with the least expected loss on
  layouts he samples himself), one discard per talon and strain;
* the defenders' 20 cards are split uniformly (``game.deal.sample_layouts``), the same layouts
  for every contract (one sample, all contracts solved on it: the rows are paired);
* play is double-dummy from there, the first hand leading (``solver.solve_many``), so a
  contract's P(make) of level L is the share of layouts where the strain's tricks reach L.
  Misère is played open (today's information model: the catchers see the discard and the
  declarer sees every card before his first lead; Codex 3.6.6 hides both);
* scores are Sochi (or the convention asked for) with both defenders whisting on a contract
  (``game.scoring.contract_net_table``), settled in whists for the declarer; passing counts
  as 0 whists (the all-pass and the others' contracts are not valued).

>>> a = analyze("♠A K Q J 10 9 8 7 ♥A K", seat=0, talon="♦7 8", discard="♦7 8", n=50, seed=1)
>>> row = a.row("10♠")
>>> float(row.p_make), int(row.n)
(1.0, 50)
"""

from __future__ import annotations

import html
import itertools
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from prefstats.checks import integer, is_int
from prefstats.game.cards import (
    N_CARDS,
    N_SUITS,
    RED_SUITS,
    SUIT_SYMBOLS,
    Style,
    display_style,
    format_hand,
)
from prefstats.game.deal import (
    FIRST_HAND,
    HAND_SIZE,
    N_PARTS,
    N_SEATS,
    TALON,
    TALON_SIZE,
    SeedLike,
    Stream,
    all_layouts,
    sample_layouts,
)
from prefstats.game.rules import (
    LADDER,
    MISERE_RANK,
    NO_BID,
    Contract,
    Convention,
    RuleSet,
    Strain,
)
from prefstats.game.scoring import contract_net_table, misere_net
from prefstats.names import lookup
from prefstats.players.counting import best_strain, strain_tricks
from prefstats.players.discards import (
    REALISTIC,
    UPPER_BOUND,
    USER_NAMES,
    DiscardTask,
    SampledDiscard,
    misere_discards,
    strain_discards,
)
from prefstats.players.evaluators import HeuristicEvaluator, misere_catch_estimate
from prefstats.players.misere_risk import _checked_cards, _checked_hand_seat_talon
from prefstats.solver import makes_many, solve_many
from prefstats.solver.contracts import best_discards
from prefstats.stats import mean_estimate, wilson_interval

N_TALONS = math.comb(N_CARDS - HAND_SIZE, TALON_SIZE)  # 231 talons the declarer cannot see
DEFAULT_N = 2500  # layouts: every P(make) interval within ±0.02 (1.96·0.5/√2,500 < 0.0196)
MISERE = N_SUITS + 1  # the misère column of the per-strain arrays (♠ ♣ ♦ ♥ NT misère)
STRAIN_COLUMNS = (*Strain, MISERE)
LAYOUT_STREAM, CHOICE_STREAM = 0, 1  # sub-streams of the seed: the layouts, the discard choices
# The realistic policy with its default settings (``discards.SampledDiscard``: the heuristic's
# four best classes of discards, compared on 8 layouts he samples), for contracts and misère.
REALISTIC_POLICY = SampledDiscard()
POLICIES = tuple(USER_NAMES)  # sampled (the realistic policy), heuristic, upper-bound
POLICY_TEXT = {
    "sampled": "the realistic policy: per talon, before he sees the defenders' cards, the "
    "discard with the least mean loss on layouts he samples himself",
    "heuristic": "the rule of thumb (counted tricks; misère: the shipped catch rates)",
    "upper-bound": "the best discard for each layout knowing every card: an upper bound, no "
    "declarer can do it",
    "fixed": "the two cards given",
}
BEST_MARK = "←"


@dataclass(frozen=True)
class Analysis:
    """The analysis of one hand: ``table`` (one row per contract of the ladder and misère,
    ladder order) and the layouts behind it.

    ``table`` columns: ``contract`` (as printed: "6♠" … "10NT", "misère"), ``rank`` (ladder
    place), ``level``, ``strain``, ``n`` (layouts), ``made`` (count), ``p_make`` with
    ``p_make_low``/``p_make_high`` (95% Wilson; on misère P(not caught)), ``e_tricks`` with its
    interval, ``ev_whists`` with its interval (the declarer's settled whists), ``best`` (the
    recommended bid). ``deals`` (n, 4) holds each layout as dealt (hands, talon); ``discards``
    and ``tricks`` (n, 6) the discard and the declarer's tricks per strain column
    (♠ ♣ ♦ ♥ NT misère).
    """

    hand: int
    seat: int
    talon: int | None
    discard: str  # "sampled", "heuristic", "upper-bound" or "fixed"
    fixed_discard: int | None
    rules: RuleSet
    seed: int | None  # the stream's entropy (None when exhaustive)
    exhaustive: bool
    table: pd.DataFrame = field(repr=False)
    recommended: str  # a contract as printed, or "pass"
    heuristic: str  # the heuristic bidder's highest bid, or "pass"
    why: str
    deals: np.ndarray = field(repr=False, compare=False)
    discards: np.ndarray = field(repr=False, compare=False)
    tricks: np.ndarray = field(repr=False, compare=False)

    @property
    def n(self) -> int:
        """Layouts played for every contract."""
        return len(self.tricks)

    def row(self, contract: str | Contract) -> pd.Series:
        """The table's row of a contract ("7♠", "misère", a ``Contract``)."""
        contract = contract if isinstance(contract, Contract) else Contract.parse(contract)
        return self.table.loc[self.table["rank"] == contract.rank].iloc[0]

    def model(self, style: Style = "en") -> str:
        """The model behind the figures, in a few sentences."""
        return model_text(self, style)

    def distribution(self) -> pd.DataFrame:
        """Share of layouts by the declarer's tricks (columns 0..10) for each strain (rows ♠ ♣
        ♦ ♥ NT misère)."""
        counts = np.stack(
            [np.bincount(self.tricks[:, c], minlength=HAND_SIZE + 1) for c in STRAIN_COLUMNS]
        )
        names = [*(s + "" for s in SUIT_SYMBOLS), "NT", "misère"]
        frame = pd.DataFrame(counts / max(self.n, 1), index=names, columns=range(HAND_SIZE + 1))
        return frame.rename_axis(index="strain", columns="tricks")

    def by_talon(self, contract: str | Contract) -> pd.DataFrame:
        """P(make) of a contract given each talon the layouts hold: columns ``talon`` (text),
        ``talon_mask``, ``n``, ``made``, ``p_make``, ``p_make_low``, ``p_make_high``; sorted by
        P(make), highest first."""
        contract = contract if isinstance(contract, Contract) else Contract.parse(contract)
        made = _made(self.tricks, contract)
        talons, inverse = np.unique(self.deals[:, TALON], return_inverse=True)
        n = np.bincount(inverse, minlength=len(talons))
        count = np.bincount(inverse, weights=made, minlength=len(talons)).astype(int)
        low, high = wilson_interval(count, n)
        frame = pd.DataFrame(
            {
                "talon": [format_hand(int(t)) for t in talons],
                "talon_mask": talons,
                "n": n,
                "made": count,
                "p_make": count / n,
                "p_make_low": low,
                "p_make_high": high,
            }
        )
        return frame.sort_values(
            ["p_make", "talon_mask"], ascending=[False, True], ignore_index=True
        )

    def format(self, style: Style = "en") -> str:
        """The analysis as text: the hand, the model, one line per contract, the trick
        distributions, the recommendation and the heuristic bidder's bid."""
        return format_text(self, style)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        """The analysis as plain data (for ``--json``)."""
        table = self.table.drop(columns=["strain"]).to_dict(orient="records")
        return {
            "hand": format_hand(self.hand),
            "seat": self.seat,
            "talon": None if self.talon is None else format_hand(self.talon),
            "discard": self.discard
            if self.fixed_discard is None
            else format_hand(self.fixed_discard),
            "players": self.rules.players,
            "scoring": self.rules.scoring.value,
            "seed": self.seed,
            "exhaustive": self.exhaustive,
            "n": self.n,
            "model": self.model(),
            "recommended": self.recommended,
            "heuristic": self.heuristic,
            "why": self.why,
            "contracts": [{k: _plain(v) for k, v in row.items()} for row in table],
            "tricks": {
                strain: [float(x) for x in shares]
                for strain, shares in self.distribution().iterrows()
            },
        }

    def _repr_html_(self) -> str:
        return html_table(self, display_style())


def _plain(value: object) -> object:
    if isinstance(value, np.integer | np.bool_):
        return value.item()
    if isinstance(value, np.floating):
        return float(value)
    return value


# --- the analysis ------------------------------------------------------------------------------


def analyze(
    hand: int | str,
    *,
    seat: int = FIRST_HAND,
    talon: int | str | None = None,
    players: int = 3,
    rules: str | RuleSet = "codex",
    scoring: str | Convention = "sochi",
    n: int = DEFAULT_N,
    seed: SeedLike | Stream = None,
    discard: str | int = REALISTIC,
    exhaustive: bool = False,
    n_jobs: int = 2,
) -> Analysis:
    """P(make), the tricks and the EV in whists of every contract and misère for ``hand``.

    ``hand``: ten cards (text or mask); ``seat``: 0 first hand (leads to trick 1), 1, 2;
    ``talon``: two cards if known, else every talon weighted exactly (the ``n`` layouts are
    spread evenly over the 231 talons, rounding up); ``players`` 3 or 4 (the dealer sits out);
    ``rules`` a rule-set name or ``RuleSet``; ``scoring`` sochi, leningrad or rostov;
    ``discard``: "sampled" (the realistic policy, default), "heuristic", "upper-bound" (the
    best discard per layout knowing every card, an upper bound) or two cards (then the talon
    must be given, or the cards come from the hand); ``exhaustive``: all 184,756 splits of the
    defenders' cards instead of ``n`` samples (needs the talon and a discard chosen before the
    layout); ``n_jobs`` threads. The model is in the module docstring and in ``model()``.
    """
    hand_mask, seat, talon_mask = _checked_hand_seat_talon(hand, seat, talon)
    policy, fixed = _checked_policy(discard, hand_mask, talon_mask)
    rule_set = _rule_set(rules, players, scoring)
    n_jobs = integer("n_jobs", n_jobs, 1)
    if exhaustive:
        if talon_mask is None or policy == UPPER_BOUND:
            raise ValueError(
                "exhaustive=True needs the talon and a discard chosen before the "
                "layout (two cards, 'sampled' or 'heuristic')"
            )
        stream = Stream.of(0 if seed is None else seed)
        deals = all_layouts(hand_mask, talon_mask, seat)
    else:
        integer("n", n, 2)
        stream = Stream.of(seed)
        deals = _layouts(hand_mask, seat, talon_mask, n, stream.child(LAYOUT_STREAM))
    discards, tricks = _play(deals, seat, policy, fixed, stream.child(CHOICE_STREAM), n_jobs)
    table = _table(tricks, rule_set, exhaustive)
    recommended = _recommend(table)
    table["best"] = table["contract"] == recommended
    heuristic, why = _heuristic_bid(hand_mask, seat, table, recommended)
    for array in (deals, discards, tricks):
        array.flags.writeable = False
    return Analysis(
        hand=hand_mask,
        seat=seat,
        talon=talon_mask,
        discard=policy,
        fixed_discard=fixed if policy == "fixed" else None,
        rules=rule_set,
        seed=stream.entropy,
        exhaustive=exhaustive,
        table=table,
        recommended=recommended,
        heuristic=heuristic,
        why=why,
        deals=deals,
        discards=discards,
        tricks=tricks,
    )


def _rule_set(rules: str | RuleSet, players: int, scoring: str | Convention) -> RuleSet:
    base = rules if isinstance(rules, RuleSet) else RuleSet.named(rules)
    if not isinstance(scoring, Convention):
        scoring = lookup({c.value: c for c in Convention}, scoring, "scoring convention")
    return replace(base, players=players, scoring=scoring)


def _checked_policy(discard: object, hand: int, talon: int | None) -> tuple[str, int]:
    """(policy, 0) for a policy name, or ("fixed", mask) for two cards held after the talon."""
    if isinstance(discard, str) and discard in POLICIES:
        return discard, 0
    if isinstance(discard, str) and discard == "dd":
        raise ValueError(
            "discard 'dd' is called 'upper-bound' here (the best discard per "
            "layout, knowing every card)"
        )
    if not (isinstance(discard, str) or is_int(discard)):
        raise ValueError(
            f"discard must be one of {', '.join(POLICIES)} or two cards, got {discard!r}"
        )
    try:
        mask = _checked_cards("discard", discard, TALON_SIZE)
    except ValueError:
        raise ValueError(
            f"discard must be one of {', '.join(POLICIES)} or two cards, got {discard!r}"
        ) from None
    held = hand | (talon or 0)
    if mask & ~held:
        where = "hand and talon" if talon is not None else "hand (the talon is unknown)"
        raise ValueError(f"discard {format_hand(mask & ~held)} is not in the {where}")
    return "fixed", mask


def unseen_talons(hand: int) -> np.ndarray:
    """uint32 (231,): every pair of the 22 cards outside a 10-card hand, in card order."""
    free = [bit for bit in range(N_CARDS) if not hand >> bit & 1]
    return np.array([(1 << a) | (1 << b) for a, b in combinations(free, 2)], dtype=np.uint32)


def _layouts(hand: int, seat: int, talon: int | None, n: int, stream: Stream) -> np.ndarray:
    """uint32 (m, 4) deals around the hand in its seat: ``n`` uniform layouts of the
    defenders' cards with the talon given, else ceil(n / 231) with each of the 231 talons
    (talon t's layouts from counter t of the stream)."""
    talons = unseen_talons(hand) if talon is None else np.array([talon], dtype=np.uint32)
    per_talon = n if talon is not None else -(-n // len(talons))
    known = np.zeros((len(talons), N_PARTS), dtype=np.uint32)
    known[:, seat], known[:, TALON] = hand, talons
    return sample_layouts(known, per_talon, stream).reshape(-1, N_PARTS)


def _play(
    deals: np.ndarray, seat: int, policy: str, fixed: int, stream: Stream, n_jobs: int
) -> tuple[np.ndarray, np.ndarray]:
    """The discard and the declarer's double-dummy tricks in every strain column (♠ ♣ ♦ ♥ NT
    misère) of every layout: uint32 (m, 6) and int8 (m, 6). Each column, cut into ``n_jobs``
    parts (``_parts``), runs in ``n_jobs`` threads (the solver's kernels release the GIL; each
    thread has its own table)."""
    hands12 = deals[:, seat] | deals[:, TALON]
    discards = np.zeros((len(deals), len(STRAIN_COLUMNS)), dtype=np.uint32)
    tricks = np.zeros(discards.shape, dtype=np.int8)
    if policy == "fixed":
        discards[:] = fixed
    elif policy == "heuristic":
        discards[:, :MISERE] = strain_discards(hands12)
        discards[:, MISERE] = misere_discards(hands12)
    else:
        misere_discards(hands12[:1])  # loads the shipped rates once, before the threads

    def column(c: int, rows: slice) -> None:
        part = deals[rows]
        if policy == UPPER_BOUND:
            contract = MISERE_RANK if c == MISERE else Contract(6, Strain(c)).rank
            declarers = np.full(len(part), seat)
            discards[rows, c], tricks[rows, c] = best_discards(
                part, declarers, np.full(len(part), contract)
            )
            return
        if policy == REALISTIC:
            discards[rows, c] = _sampled_discards(part, seat, c, stream)
        played = np.ascontiguousarray(part[:, :N_SEATS])
        played[:, seat] = hands12[rows] & ~discards[rows, c]
        tricks[rows, c] = _tricks(played, seat, c)

    columns = [MISERE, Strain.NO_TRUMP, *range(N_SUITS)]  # the slowest first
    tasks = [(c, rows) for c in columns for rows in _parts(deals, n_jobs)]
    if n_jobs == 1:
        for c, rows in tasks:
            column(c, rows)
    else:
        with ThreadPoolExecutor(max_workers=n_jobs) as pool:
            for future in [pool.submit(column, c, rows) for c, rows in tasks]:
                future.result()
    return discards, tricks


def _parts(deals: np.ndarray, n: int) -> list[slice]:
    """``n`` slices of about equal size over the rows, cut where the talon changes (the rows
    of a talon stay together, so its discard is chosen once) unless there is one talon: each
    row's answers depend on that row alone, so the parts change only how the threads share
    the work."""
    starts = np.flatnonzero(np.r_[True, deals[1:, TALON] != deals[:-1, TALON]])
    if len(starts) == 1:
        starts = np.arange(len(deals))
    wanted = np.linspace(0, len(deals), n + 1)[1:-1]
    cuts = starts[np.clip(np.searchsorted(starts, wanted), 0, len(starts) - 1)]
    edges = sorted({0, *(int(x) for x in cuts), len(deals)})
    return [slice(a, b) for a, b in itertools.pairwise(edges)]


def _sampled_discards(deals: np.ndarray, seat: int, c: int, stream: Stream) -> np.ndarray:
    """uint32 (m,): the realistic discard of each layout's twelve cards for strain column c,
    chosen once per talon (the layouts he samples are drawn at the counter of his twelve
    cards, so it does not depend on the layout it is played in)."""
    hands12 = deals[:, seat] | deals[:, TALON]
    distinct, first, inverse = np.unique(hands12, return_index=True, return_inverse=True)
    seats = np.full(len(distinct), seat)
    contract = MISERE_RANK if c == MISERE else Contract(6, Strain(c)).rank
    contracts = np.full(len(distinct), contract)
    task = DiscardTask(
        deals[first],
        seats,
        contracts,
        np.zeros(len(distinct), np.uint32),
        stream.child(c),
        distinct.astype(np.int64),
    )
    return REALISTIC_POLICY.choose(task)[inverse.reshape(-1)]


def _tricks(hands: np.ndarray, seat: int, c: int) -> np.ndarray:
    """int8 (m,): the declarer's double-dummy tricks in strain column c, the first hand
    leading; on misère the clean layouts are settled by a null-window search first."""
    if c != MISERE:
        trump = int(c) if c < N_SUITS else None
        return solve_many(hands, trump=trump, declarer=seat, leader=FIRST_HAND)
    clean = makes_many(hands, 0, misere=True, declarer=seat, leader=FIRST_HAND)
    out = np.zeros(len(hands), dtype=np.int8)
    if not clean.all():
        out[~clean] = solve_many(hands[~clean], misere=True, declarer=seat, leader=FIRST_HAND)
    return out


def _made(tricks: np.ndarray, contract: Contract) -> np.ndarray:
    """bool (m,): the contract made in each layout (misère: no trick taken)."""
    if contract.is_misere:
        clean: np.ndarray = tricks[:, MISERE] == 0
        return clean
    assert contract.strain is not None
    return tricks[:, int(contract.strain)] >= contract.level


def _table(tricks: np.ndarray, rules: RuleSet, exhaustive: bool) -> pd.DataFrame:
    """One row per contract of the ladder: P(make), E[tricks] and EV in whists with their
    intervals (zero-width when exhaustive)."""
    net = contract_net_table(rules)
    misere_whists = np.asarray(misere_net(np.arange(HAND_SIZE + 1), rules)["declarer"])
    m = len(tricks)
    rows = []
    for contract in LADDER:
        column = MISERE if contract.is_misere else int(contract.strain)  # type: ignore[arg-type]
        taken = tricks[:, column].astype(np.intp)
        whists = misere_whists[taken] if contract.is_misere else net[contract.level, taken]
        made = int(_made(tricks, contract).sum())
        low, high = wilson_interval(made, m)
        e_tricks, ev = _mean(taken, exhaustive), _mean(whists, exhaustive)
        rows.append(
            {
                "contract": contract.format(),
                "rank": contract.rank,
                "level": contract.level,
                "strain": "misère" if contract.is_misere else _strain_name(contract),
                "n": m,
                "made": made,
                "p_make": made / m,
                "p_make_low": made / m if exhaustive else float(low),
                "p_make_high": made / m if exhaustive else float(high),
                "e_tricks": e_tricks[0],
                "e_tricks_low": e_tricks[1],
                "e_tricks_high": e_tricks[2],
                "ev_whists": ev[0],
                "ev_whists_low": ev[1],
                "ev_whists_high": ev[2],
            }
        )
    return pd.DataFrame(rows)


def _strain_name(contract: Contract) -> str:
    return "NT" if contract.strain == Strain.NO_TRUMP else SUIT_SYMBOLS[int(contract.strain)]  # type: ignore[arg-type]


def _mean(values: np.ndarray, exact: bool) -> tuple[float, float, float]:
    if exact or np.all(values == values[0]):
        mean = float(np.mean(values))
        return mean, mean, mean
    estimate = mean_estimate(values)
    return estimate.estimate, estimate.low, estimate.high


def _recommend(table: pd.DataFrame) -> str:
    """The contract with the highest positive EV (the lower contract on a tie), else pass."""
    positive = table[table["ev_whists"] > 0]
    if positive.empty:
        return "pass"
    return str(
        positive.sort_values(["ev_whists", "rank"], ascending=[False, True]).iloc[0]["contract"]
    )


def _heuristic_bid(hand: int, seat: int, table: pd.DataFrame, recommended: str) -> tuple[str, str]:
    """The heuristic bidder's highest bid for the hand (``evaluators.HeuristicEvaluator``) and
    one or two sentences on why it differs from the recommendation."""
    bidder = HeuristicEvaluator()
    hands = np.array([hand], dtype=np.uint32)
    limit = int(bidder.seat_limits(hands, seat)[0])
    bid = "pass" if limit == NO_BID else LADDER[limit].format()
    counts = strain_tricks(hands)[0] + bidder.talon_bonus
    strain = int(best_strain(counts[None])[0])
    strain_text = "NT" if strain == Strain.NO_TRUMP else SUIT_SYMBOLS[strain]
    noun = "trick" if counts[strain] == 1 else "tricks"
    counted = (
        f"it counts {counts[strain]:g} {noun} in {strain_text}, the talon's expected "
        f"help of {bidder.talon_bonus:g} included"
    )
    if limit == MISERE_RANK:
        estimate = float(misere_catch_estimate(hands, seat)[0])
        reason = (
            f"it bids misère on an estimated P(caught) of {estimate:.2f} (the shipped "
            f"catch rates of its suits, taken as independent; its limit is "
            f"{bidder.misere_risk_limit})"
        )
    elif limit == NO_BID:
        reason = f"it passes: {counted}, short of six"
    else:
        reason = f"it bids up to {bid}: {counted}"
    if bid == recommended:
        return bid, f"The heuristic bidder agrees: {reason}."
    parts = [f"The heuristic bidder differs: {reason}."]
    if bid != "pass":
        row = table.loc[table["contract"] == bid].iloc[0]
        parts.append(
            f"Here {bid} makes {row.p_make:.0%} of the layouts for EV {row.ev_whists:+.1f} whists."
        )
    parts.append("It counts tricks suit by suit; the analysis plays every layout out.")
    return bid, " ".join(parts)


# --- presentation --------------------------------------------------------------------------------

LABELS: dict[Style, dict[str, str]] = {
    "en": {
        "hand": "hand",
        "seat": "seat",
        "talon": "talon",
        "contract": "contract",
        "p_make": "P(make) [95% CI]",
        "e_tricks": "E[tricks]",
        "ev": "EV whists [95% CI]",
        "unknown": "unknown: all 231 talons, {k:,} layouts each",
        "layouts": "layouts",
        "seed": "seed",
        "all": "all 184,756 layouts",
        "recommended": "recommended bid",
        "pass_value": "passing counts as 0 whists",
        "heuristic": "heuristic bidder",
        "tricks": "tricks by strain, share of layouts",
        "not_caught": "misère: P(make) is P(not caught)",
        "best": "best",
        "model": "model",
        "pass": "pass",
    },
    "ru": {
        "hand": "рука",
        "seat": "место",
        "talon": "прикуп",
        "contract": "контракт",
        "p_make": "P(сыграть) [95% ДИ]",
        "e_tricks": "E[взяток]",
        "ev": "EV вистов [95% ДИ]",
        "unknown": "неизвестен: все 231 прикупа, по {k:,} раскладов",
        "layouts": "раскладов",
        "seed": "зерно",
        "all": "все 184 756 раскладов",
        "recommended": "лучшая заявка",
        "pass_value": "пас считается за 0 вистов",
        "heuristic": "эвристический игрок",
        "tricks": "взятки по масти, доля раскладов",
        "not_caught": "мизер: P(сыграть) = P(не поймали)",
        "best": "лучшее",
        "model": "модель",
        "pass": "пас",
    },
}
SEAT_TEXT: dict[Style, tuple[str, ...]] = {
    "en": ("first hand, leads", "second hand", "third hand"),
    "ru": ("первая рука, ходит", "вторая рука", "третья рука"),
}


def _contract_text(contract: str, style: Style) -> str:
    return (
        contract
        if contract == "pass" and style == "en"
        else (
            LABELS[style]["pass"] if contract == "pass" else Contract.parse(contract).format(style)
        )
    )


def model_text(analysis: Analysis, style: Style = "en") -> str:
    """The model in a few sentences (English; the numbers are the same in any notation)."""
    if analysis.talon is None:
        talon = (
            "The talon is uniform over the 231 pairs of the 22 cards he does not see, "
            "weighted exactly (the same number of layouts for each pair)."
        )
    else:
        talon = f"The talon is {format_hand(analysis.talon, style)}."
    if analysis.fixed_discard is not None:
        discard = f"He discards {format_hand(analysis.fixed_discard, style)} in every contract."
    else:
        discard = (
            "He takes the talon and discards before he sees the layout by "
            f"{POLICY_TEXT[analysis.discard]}."
        )
        if analysis.discard == UPPER_BOUND:
            discard = f"He takes the talon and discards by {POLICY_TEXT['upper-bound']}."
    split = (
        "Every split of the defenders' 20 cards is played"
        if analysis.exhaustive
        else "The defenders' 20 cards are split uniformly"
    )
    return " ".join(
        [
            talon,
            discard,
            f"{split}, the same layouts for every contract, double-dummy, the first hand leading.",
            "Misère is played open (the catchers see the discard, the declarer sees every card "
            "before his first lead): the package's information model today.",
            f"EV: the declarer's settled whists, {analysis.rules.scoring.value.capitalize()} "
            f"scoring, {analysis.rules.players} players, both defenders whisting; passing counts "
            "as 0 whists.",
        ]
    )


def _header(analysis: Analysis, style: Style) -> list[str]:
    labels = LABELS[style]
    if analysis.talon is None:
        talon = labels["unknown"].format(k=analysis.n // N_TALONS)
    else:
        talon = format_hand(analysis.talon, style)
    size = (
        labels["all"]
        if analysis.exhaustive
        else (f"{analysis.n:,} {labels['layouts']}, {labels['seed']} {analysis.seed}")
    )
    return [
        f"{labels['hand']} {format_hand(analysis.hand, style)}, {labels['seat']} "
        f"{analysis.seat} ({SEAT_TEXT[style][analysis.seat]}); {labels['talon']} {talon}; "
        f"{size}",
        f"{labels['model']}: {analysis.model(style)}",
    ]


def _interval(value: Any, low: Any, high: Any, digits: int, sign: str = "") -> str:
    value, low, high = float(value), float(low), float(high)
    return f"{value:{sign}.{digits}f} [{low:{sign}.{digits}f}, {high:{sign}.{digits}f}]"


def format_text(analysis: Analysis, style: Style = "en") -> str:
    """The CLI's table: one line per contract, then the trick shares, the bid and the why."""
    labels = LABELS[style]
    lines = [*_header(analysis, style), ""]
    lines.append(
        f"{labels['contract']:<9}{labels['p_make']:<24}{labels['e_tricks']:>9}  {labels['ev']}"
    )
    for row in analysis.table.itertuples():
        name = Contract.parse(str(row.contract)).format(style)
        mark = f"  {BEST_MARK} {labels['best']}" if row.best else ""
        lines.append(
            f"{name:<9}{_interval(row.p_make, row.p_make_low, row.p_make_high, 3):<24}"
            f"{row.e_tricks:>9.2f}  "
            f"{_interval(row.ev_whists, row.ev_whists_low, row.ev_whists_high, 1, '+')}{mark}"
        )
    lines += [f"({labels['not_caught']})", "", f"{labels['tricks']}:"]
    shares = analysis.distribution()
    lines.append("        " + "".join(f"{k:>6}" for k in shares.columns))
    for strain, values in shares.iterrows():
        name = (
            Contract.misere().format(style)
            if strain == "misère"
            else ("БК" if strain == "NT" and style == "ru" else str(strain))
        )
        lines.append(f"{name:<8}" + "".join(f"{v:>6.3f}" if v else f"{'.':>6}" for v in values))
    recommended = _contract_text(analysis.recommended, style)
    lines += [
        "",
        f"{labels['recommended']}: {recommended} ({labels['pass_value']})",
        f"{labels['heuristic']}: {_contract_text(analysis.heuristic, style)}. {analysis.why}",
    ]
    return "\n".join(lines)


def _coloured(text: str) -> str:
    """HTML of a contract or hand text with ♦ and ♥ in red."""
    out = html.escape(text)
    for suit in RED_SUITS:
        symbol = SUIT_SYMBOLS[suit]
        out = out.replace(symbol, f"<span style='color:#c00'>{symbol}</span>")
    return out


def html_table(analysis: Analysis, style: Style = "en") -> str:
    """The analysis for Jupyter: contracts down, P(make) / E[tricks] / EV across, the best bid
    marked, ♦ ♥ in red, the model below."""
    labels = LABELS[style]
    cell = "style='padding:1px 8px;text-align:right'"
    head = "".join(
        f"<th {cell}>{html.escape(labels[k])}</th>"
        for k in ("contract", "p_make", "e_tricks", "ev")
    )
    body = []
    for row in analysis.table.itertuples():
        name = _coloured(Contract.parse(str(row.contract)).format(style))
        weight = "font-weight:bold;background:#eef6ee;" if row.best else ""
        mark = f" {BEST_MARK} {labels['best']}" if row.best else ""
        body.append(
            f"<tr style='{weight}'><td {cell}>{name}</td>"
            f"<td {cell}>{_interval(row.p_make, row.p_make_low, row.p_make_high, 3)}</td>"
            f"<td {cell}>{row.e_tricks:.2f}</td>"
            f"<td {cell}>{_interval(row.ev_whists, row.ev_whists_low, row.ev_whists_high, 1, '+')}"
            f"{mark}</td></tr>"
        )
    header, model = _header(analysis, style)
    recommended = _coloured(_contract_text(analysis.recommended, style))
    heuristic = _coloured(_contract_text(analysis.heuristic, style))
    return (
        f"<div><p>{_coloured(header)}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"<p><b>{labels['recommended']}: {recommended}</b> ({labels['pass_value']}); "
        f"{labels['heuristic']}: {heuristic}. {html.escape(analysis.why)}</p>"
        f"<p style='font-size:smaller'>{html.escape(model)} ({labels['not_caught']})</p></div>"
    )
