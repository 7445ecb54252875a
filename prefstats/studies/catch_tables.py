"""Open play's catch rates: the ``independent`` rows of ``catch_rates``, and ``catch_pairs``.

Run ``prefstats catch-tables`` (resumable: rerun to continue; see
``studies.catch_rates.build_rates`` and :func:`build_pairs`). How often a misère declarer
holding a suit is caught depends on what else he holds, so ``catch_rates`` gives each holding
in three **settings** (the ``setting`` column), each by lead:

* ``clean-sides``: the holding in ♠ and a **clean, non-void** holding in each other suit, every
  such ten-card hand equally likely (about half of them hold a five-card clean suit). Clean
  suits give him safe exits and cannot be caught (checked in the tests), so a catch is a catch
  in the measured suit. Every holding of 1 to 7 cards (the eight-card one leaves too few cards
  for three clean suits), 20,000 layouts each.
* ``lowest-sides``: the textbook setting. His other cards are the lowest of the other three
  suits, spread as evenly as possible in ♣ ♦ ♥ order (a one-card holding: 7-8-9 in each other
  suit; two cards: 7-8-9, 7-8-9, 7-8; three: 7-8-9, 7-8, 7-8; four: 7-8, 7-8, 7-8), one fixed
  hand per holding. Every catchable holding of up to four cards, 5,000 layouts each.
* ``as-dealt``: misère hands as they occur. Every seat of the deals of a study (``deal_many``'s
  deals of the seed) takes the talon and makes the heuristic misère discard (with the
  ``clean-sides`` rates); a hand counts if its ten cards then have exactly one catchable suit
  and no other suit is catchable. The dealt layout is solved, the two discards out of play.
  Holdings seen fewer than 200 times are pooled by length (``pooled`` is true, ``n`` is the
  group's). The other suits are not always clean here: a conditionally clean suit can be caught
  when he leads, so the own-lead rate counts such catches too.

Common to the settings (docs/rules.md, "Misère suit classes"): two cards are out of play, the
declarer's discards (in the first two settings drawn uniformly from the 22 cards he does not
hold, as if his final ten had been dealt and the discards were a random talon); the defenders
split the other 20 cards uniformly; the full double-dummy solver plays (misère, no trumps), each
layout three times: own lead (he leads to trick 1), left (the defender after him leads; he plays
third) and right (the defender before him leads; he plays second), on the same layouts (common
random numbers). "Own lead" lets him lead any card, usually a safe one; the one-suit game of
:mod:`prefstats.misere.classes` forces him to lead the measured suit, so its "own lead" is harsher.

``catch_pairs`` measures every pair of catchable holdings of at most three cards (in ♠ and ♣,
clean non-void holdings elsewhere, 200 layouts a pair) in the ``clean-sides`` setting.

Every (setting, holding, lead) row reports n, the caught count, P(caught) with its Wilson 95%
interval, E[tricks] with its t interval, and the counts of layouts with 0..10 tricks. E[tricks]
counts every trick of the deal: once caught he is on lead and must keep leading, so a catch often
costs several tricks. Each table's provenance records the CPU seconds its runs took. These
rows are the ``independent`` design of ``catch_rates`` (open play; the ``paired`` design, every
information model on shared layouts, is ``studies.catch_information``'s).

Randomness: item ``(a,)`` or ``(a, b)`` draws its fillers from sub-stream ``(a, [b,] 256)`` of
the seed and its layouts from ``(a, [b,] 257)`` (``lowest-sides``: ``(a, 258)``), so each item's
rows depend on the seed, the item and its number of layouts alone; ``as-dealt`` reads deal i of
its seed. Runs live in ``runs/catch-*`` through the run driver ``studies.runs``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prefstats.data import folder as data_folder
from prefstats.game.cards import N_HOLDINGS, N_RANKS, N_SUITS, format_holding, holdings
from prefstats.game.deal import (
    HAND_SIZE,
    N_PARTS,
    N_SEATS,
    TALON,
    Stream,
    deal_many,
    uniform_integers,
)
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.tables import LEADS, SETTINGS, rate_table
from prefstats.players.discards import defender_rates, misere_discards
from prefstats.solver.contracts import misere_tricks
from prefstats.stats import mean_estimate, proportion
from prefstats.studies.runs import Chunk, load_run, run_chunks
from prefstats.studies.storage import read_provenance, write_shipped
from prefstats.version import __version__

SEED = 20_240_611
N_SINGLE = 20_000  # clean-sides layouts per holding...
N_SINGLE_SLOW = 20_000  # for catchable holdings of 3-4 cards, the slowest: --n-slow lowers it
SLOW_LENGTHS = (3, 4)
N_LOWEST = 5_000  # lowest-sides layouts per holding
MAX_LOWEST_LENGTH = 4
N_PAIR = 200  # layouts per pair of holdings
MAX_PAIR_LENGTH = 3
DEALT_DEALS, DEALT_SEED = 1_000_000, 1  # the deals of the played study
DEALT_CHUNK = 20_000
MIN_DEALT = 200  # as-dealt holdings seen fewer times are pooled by length
FILLER_STREAM, LAYOUT_STREAM, LOWEST_STREAM = N_HOLDINGS, N_HOLDINGS + 1, N_HOLDINGS + 2
MODELS = {
    "clean-sides": "the holding in ♠ and a clean non-void holding in each other suit, uniform "
    "over such ten-card hands",
    "lowest-sides": "the holding in ♠ and the lowest cards of ♣ ♦ ♥, spread as evenly as "
    "possible in that order",
    "as-dealt": "dealt hands after the heuristic misère discard (clean-sides rates) with exactly "
    "one catchable suit; holdings seen fewer than 200 times pooled by length",
    "pairs": "the holdings in ♠ and ♣ and a clean non-void holding in ♦ and ♥, uniform over such "
    "ten-card hands",
}
COMMON_MODEL = (
    "two cards out of play (drawn uniformly from the 22 the declarer does not hold, or his "
    "discards when dealt); the other 20 split uniformly between the defenders; full "
    "double-dummy misère solver; leads own, left, right on the same layouts"
)
TITLE_PAIRS = "prefstats misère catch rates of two catchable suits"

Item = tuple[int, ...]  # the measured holdings, in ♠ (and ♣)


# --- the settings ------------------------------------------------------------------------------


def single_holdings() -> list[int]:
    """Every holding measured alone in ``clean-sides``: 1 to 7 cards.

    >>> len(single_holdings())
    254
    """
    return [h for h in range(1, N_HOLDINGS) if h.bit_count() < N_RANKS]


def lowest_holdings() -> list[int]:
    """The holdings measured in ``lowest-sides``: every catchable one of up to four cards."""
    codes = class_codes()
    return [
        h
        for h in range(1, N_HOLDINGS)
        if codes[h] == SuitClass.CATCHABLE and h.bit_count() <= MAX_LOWEST_LENGTH
    ]


def single_n(holding: int, n: int = N_SINGLE, n_slow: int = N_SINGLE_SLOW) -> int:
    """Layouts for one holding: ``n_slow`` for catchable holdings of 3-4 cards, else ``n``."""
    slow = class_codes()[holding] == SuitClass.CATCHABLE and holding.bit_count() in SLOW_LENGTHS
    return min(n, n_slow) if slow else n


def pair_items(max_length: int = MAX_PAIR_LENGTH) -> list[Item]:
    """Unordered pairs (a <= b) of catchable holdings of at most ``max_length`` cards.

    >>> len(pair_items())
    3570
    """
    codes = class_codes()
    catchable = [
        h
        for h in range(1, N_HOLDINGS)
        if codes[h] == SuitClass.CATCHABLE and h.bit_count() <= max_length
    ]
    return list(itertools.combinations_with_replacement(catchable, 2))


def clean_fillers(n_cards: int, n_suits: int) -> np.ndarray:
    """Every tuple (k, n_suits) of clean non-void holdings with ``n_cards`` cards in all.

    >>> clean_fillers(3, 3).tolist()  # three singleton sevens
    [[1, 1, 1]]
    """
    return _clean_fillers(n_cards, n_suits)


def lowest_sides_hand(holding: int) -> int:
    """The ``lowest-sides`` hand of a holding: it in ♠, the lowest cards of ♣ ♦ ♥ as evenly as
    possible in that order.

    >>> from prefstats.game.cards import format_hand, parse_holding
    >>> format_hand(lowest_sides_hand(parse_holding("7 10 J")))
    '♠7 10 J ♣7 8 9 ♦7 8 ♥7 8'
    """
    others = HAND_SIZE - holding.bit_count()
    sizes = [others // 3 + (suit < others % 3) for suit in range(N_SUITS - 1)]
    hand = holding
    for suit, size in enumerate(sizes, start=1):
        hand |= ((1 << size) - 1) << (N_RANKS * suit)
    return hand


def sample_hands(item: Item, n: int, seed: int) -> np.ndarray:
    """uint32 (n,): ``clean-sides`` hands, ``item`` in the first suits and clean fillers in the
    others, each tuple of fillers equally likely.

    >>> from prefstats.game.cards import format_hand
    >>> format_hand(int(sample_hands((0b1111111,), 1, seed=1)[0]))
    '♠7 8 9 10 J Q K ♣7 ♦7 ♥7'
    """
    n_cards = HAND_SIZE - sum(h.bit_count() for h in item)
    fillers = clean_fillers(n_cards, N_SUITS - len(item))
    if not len(fillers):
        raise ValueError(f"no clean fillers of {n_cards} cards for {item}")
    hands = np.zeros(n, dtype=np.uint32)
    for suit, holding in enumerate(item):
        hands |= np.uint32(holding << (N_RANKS * suit))
    picked = fillers[uniform_integers(n, len(fillers), Stream(seed, (*item, FILLER_STREAM)))]
    for j in range(picked.shape[1]):
        hands |= picked[:, j] << np.uint32(N_RANKS * (len(item) + j))
    return hands


def sample_layouts(item: Item, n: int, seed: int, setting: str = "clean-sides") -> np.ndarray:
    """uint32 (n, 4): the declarer's hand (seat 0), left defender, right defender, the two
    cards out of play (in the talon's place), in a setting of one or two holdings."""
    fixed = np.zeros((n, N_PARTS), dtype=np.uint32)
    if setting == "lowest-sides":
        fixed[:, 0] = lowest_sides_hand(item[0])
        return deal_many(n, Stream(seed, (item[0], LOWEST_STREAM)), fixed=fixed)
    fixed[:, 0] = sample_hands(item, n, seed)
    return deal_many(n, Stream(seed, (*item, LAYOUT_STREAM)), fixed=fixed)


def solve_leads(hands: np.ndarray, declarers: np.ndarray | int = 0) -> np.ndarray:
    """int8 (n, 3): the declarer's misère tricks with his own lead, the left defender's and the
    right defender's, in each row of seat hands (n, 3)."""
    hands = np.ascontiguousarray(hands[:, :N_SEATS], dtype=np.uint32)
    seats = np.broadcast_to(np.asarray(declarers), (len(hands),))
    tricks = np.zeros((len(hands), len(LEADS)), np.int8)
    for seat in range(N_SEATS):
        rows = np.flatnonzero(seats == seat)
        for lead in range(len(LEADS)):
            if rows.size:
                leader = (seat + lead) % N_SEATS
                tricks[rows, lead] = misere_tricks(hands[rows], declarer=seat, leader=leader)
    return tricks


def item_tricks(item: Item, n: int, seed: int, setting: str = "clean-sides") -> np.ndarray:
    """int8 (n, 3): tricks per lead over ``n`` layouts of one item, reproducibly from ``seed``.

    >>> item_tricks((0b1,), 5, seed=1).tolist()  # a singleton 7 is clean
    [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    """
    return solve_leads(sample_layouts(item, n, seed, setting))


def dealt_misere_hands(deals: np.ndarray, rates: np.ndarray) -> pd.DataFrame:
    """The ``as-dealt`` hands among deals (n, 4), the heuristic discard scoring with ``rates``
    (``discards.defender_rates``): per row (``row`` in ``deals``), the seat, the catchable
    holding and the seat hands as played (the declarer's ten after his discard)."""
    rows, seats, kept = [], [], []
    for seat in range(N_SEATS):
        hands12 = deals[:, seat] | deals[:, TALON]
        ten = hands12 & ~misere_discards(hands12, rates=rates)
        classes = class_codes()[holdings(ten)]
        chosen = np.flatnonzero((classes == SuitClass.CATCHABLE).sum(axis=1) == 1)
        rows.append(chosen)
        seats.append(np.full(len(chosen), seat))
        kept.append(ten[chosen])
    which, where, tens = np.concatenate(rows), np.concatenate(seats), np.concatenate(kept)
    played = deals[which, :N_SEATS].copy()
    played[np.arange(len(which)), where] = tens
    catchable = class_codes()[holdings(tens)] == SuitClass.CATCHABLE
    holding = holdings(tens)[catchable]
    return pd.DataFrame(
        {
            "row": which,
            "seat": where,
            "holding": holding.astype(np.uint8),
            "first": played[:, 0],
            "second": played[:, 1],
            "third": played[:, 2],
        }
    )


# --- runs --------------------------------------------------------------------------------------


def item_spec(
    setting: str, groups: Sequence[Sequence[Item]], ns: Sequence[int], seed: int
) -> dict[str, Any]:
    """The run driver's spec of a run over items: one chunk per group of items, ``ns[i]``
    layouts for each item of group i."""
    plain = [[[int(h) for h in item] for item in group] for group in groups]
    rows = [len(group) * int(n) for group, n in zip(groups, ns, strict=True)]
    return {
        "kind": "catch",
        "setting": setting,
        "model": MODELS[setting],
        "seed": seed,
        "groups": plain,
        "layouts": [int(n) for n in ns],
        "chunk_rows": rows,
        "n": sum(rows),
    }


def run(
    folder: str | Path,
    groups: Sequence[Sequence[Item]],
    ns: Sequence[int],
    seed: int = SEED,
    *,
    setting: str = "clean-sides",
    jobs: int = 1,
    progress: bool = True,
) -> list[Path]:
    """Compute every missing group of items into ``folder`` (the run driver, ``jobs`` loky
    processes): per layout, its item (``holding_a``, ``holding_b``: 0 for a single) and the
    tricks under each lead."""
    spec = item_spec(setting, groups, ns, seed)
    return run_chunks(item_chunk, spec, folder, jobs=jobs, progress=progress, unit="layout")


def item_chunk(spec: dict[str, Any], chunk: Chunk) -> pd.DataFrame:
    """The rows of group ``chunk.index``."""
    n = spec["layouts"][chunk.index]
    items = [tuple(item) for item in spec["groups"][chunk.index]]
    tables = [_item_table(item, n, spec["seed"], spec["setting"]) for item in items]
    return pd.concat(tables, ignore_index=True)


def _item_table(item: Item, n: int, seed: int, setting: str) -> pd.DataFrame:
    tricks = item_tricks(item, n, seed, setting)
    return pd.DataFrame(
        {
            "holding_a": np.full(n, item[0], dtype=np.uint8),
            "holding_b": np.full(n, item[1] if len(item) > 1 else 0, dtype=np.uint8),
            **{lead: tricks[:, i] for i, lead in enumerate(LEADS)},
        }
    )


def dealt_spec(
    deals: int, seed: int, rates: np.ndarray, chunk_size: int = DEALT_CHUNK
) -> dict[str, Any]:
    """The run driver's spec of an ``as-dealt`` run over deals 0 … ``deals`` − 1 of ``seed``,
    the discard scoring with ``rates`` (256,): the clean-sides rates, written into the spec."""
    return {
        "kind": "catch",
        "setting": "as-dealt",
        "model": MODELS["as-dealt"],
        "seed": seed,
        "deals": deals,
        "n": deals,
        "chunk_size": chunk_size,
        "discard_rates": [round(float(r), 12) for r in rates],
    }


def dealt_chunk(spec: dict[str, Any], chunk: Chunk) -> pd.DataFrame:
    """Deals ``chunk.start`` …: one row per deal with the as-dealt hands of its seats packed in
    (a deal has at most three), so the chunk has one row per deal as the driver asks."""
    deals = deal_many(chunk.rows, spec["seed"], start=chunk.start)
    hands = dealt_misere_hands(deals, np.array(spec["discard_rates"]))
    tricks = solve_leads(hands[["first", "second", "third"]].to_numpy(), hands["seat"].to_numpy())
    table = pd.DataFrame({"deal": np.arange(chunk.start, chunk.start + chunk.rows)})
    for seat in range(N_SEATS):
        mine = hands[hands.seat == seat]
        holding = np.zeros(chunk.rows, np.uint8)
        holding[mine["row"].to_numpy()] = mine["holding"].to_numpy()
        table[f"holding{seat}"] = holding
        for i, lead in enumerate(LEADS):
            column = np.full(chunk.rows, -1, np.int8)
            column[mine["row"].to_numpy()] = tricks[(hands.seat == seat).to_numpy(), i]
            table[f"{lead}{seat}"] = column
    return table


def dealt_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The as-dealt run's packed rows unpacked: one row per hand (holding_a, holding_b = 0,
    tricks by lead)."""
    parts = []
    for seat in range(N_SEATS):
        mine = table[table[f"holding{seat}"] > 0]
        parts.append(
            pd.DataFrame(
                {
                    "holding_a": mine[f"holding{seat}"].to_numpy(np.uint8),
                    "holding_b": np.zeros(len(mine), np.uint8),
                    **{lead: mine[f"{lead}{seat}"].to_numpy() for lead in LEADS},
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def cpu_seconds(paths: Sequence[Path]) -> float:
    """The CPU seconds the chunks of a run took, from their provenance."""
    return float(sum(read_provenance(path).get("cpu_seconds", 0.0) for path in paths))


# --- summaries -------------------------------------------------------------------------------


def catch_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per item and lead: n, P(caught) with Wilson interval, E[tricks] with t interval,
    and the counts of layouts with 0..10 tricks."""
    records = []
    for (a, b), group in rows.groupby(["holding_a", "holding_b"], sort=True):
        item = {"holding_a": int(str(a)), "holding_b": int(str(b))}
        for leader, lead in enumerate(LEADS):
            stats = _lead_stats(group[lead].to_numpy())
            records.append({**item, **stats, "lead": lead, "leader": leader})
    return pd.DataFrame(records)


def pooled_summary(rows: pd.DataFrame, least: int = MIN_DEALT) -> pd.DataFrame:
    """``catch_summary`` of as-dealt hands, holdings seen fewer than ``least`` times pooled by
    length: each of them gets its length group's statistics and ``pooled`` true. Every
    catchable holding gets a row if its length group was seen at all."""
    counts = rows.groupby("holding_a").size()
    sparse = {int(str(h)) for h, c in counts.items() if c < least}
    own = catch_summary(rows[~rows.holding_a.isin(sparse)]).assign(pooled=False)
    measured = {int(h) for h in own.get("holding_a", [])}
    codes = class_codes()
    parts = [own]
    for length in range(1, N_RANKS):
        members = [
            h
            for h in range(1, N_HOLDINGS)
            if h.bit_count() == length and codes[h] == SuitClass.CATCHABLE and h not in measured
        ]
        group = rows[rows.holding_a.isin(members)]
        if not len(group) or not members:
            continue
        stats = catch_summary(group.assign(holding_a=0)).drop(columns=["holding_a"])
        parts += [stats.assign(holding_a=h, pooled=True) for h in members]
    return pd.concat(parts, ignore_index=True).sort_values(["holding_a", "leader"])


def _lead_stats(tricks: np.ndarray) -> dict[str, Any]:
    caught = proportion(int((tricks > 0).sum()), len(tricks))
    mean = mean_estimate(tricks)
    counts = np.bincount(tricks, minlength=HAND_SIZE + 1)
    return {
        "n": len(tricks),
        "caught": int(caught.count),
        "p_caught": caught.estimate,
        "p_caught_low": caught.low,
        "p_caught_high": caught.high,
        "mean_tricks": mean.estimate,
        "mean_tricks_low": mean.low,
        "mean_tricks_high": mean.high,
        **{f"tricks_{k}": int(c) for k, c in enumerate(counts)},
    }


def single_table(summary: pd.DataFrame, setting: str) -> pd.DataFrame:
    """Rows of the shipped table for one setting: setting, holding (as printed), holding_mask,
    n_cards, suit_class, pooled, lead, stats (:func:`shipped_rates`)."""
    codes = class_codes()
    holding = [int(h) for h in summary["holding_a"]]
    front = pd.DataFrame(
        {
            "setting": setting,
            "holding": holding,
            "text": [format_holding(h) for h in holding],
            "n_cards": [h.bit_count() for h in holding],
            "suit_class": [SuitClass(codes[h]).label for h in holding],
            "pooled": summary["pooled"].to_numpy() if "pooled" in summary else False,
        }
    )
    stats = summary.drop(columns=["holding_a", "holding_b", "pooled"], errors="ignore")
    counts = ["n", "caught", *(f"tricks_{k}" for k in range(HAND_SIZE + 1)), "leader"]
    stats = stats.reset_index(drop=True).astype(dict.fromkeys(counts, "int64"))
    return shipped_rates(_ordered(pd.concat([front, stats], axis=1)))


def pair_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The shipped pairs table: holding_a (♠), holding_b (♣) as printed, their masks, lead,
    stats (:func:`shipped_pairs`)."""
    a, b = summary["holding_a"].astype(int), summary["holding_b"].astype(int)
    front = pd.DataFrame(
        {
            "holding_a": a,
            "holding_b": b,
            "text_a": [format_holding(h) for h in a],
            "text_b": [format_holding(h) for h in b],
            "n_cards": [x.bit_count() + y.bit_count() for x, y in zip(a, b, strict=True)],
        }
    )
    stats = summary.drop(columns=["holding_a", "holding_b"])
    return shipped_pairs(_ordered(pd.concat([front, stats], axis=1)))


def _ordered(table: pd.DataFrame) -> pd.DataFrame:
    first = [c for c in table.columns if c not in ("lead", "leader")]
    at = first.index("n")
    return table[[*first[:at], "lead", "leader", *first[at:]]].reset_index(drop=True)


def shipped_rates(table: pd.DataFrame) -> pd.DataFrame:
    """The catch-rate columns as shipped, from the built ones (``holding`` the mask, ``text``
    the holding as printed, ``leader`` 0..2 beside ``lead``): ``holding`` the holding as
    printed, ``holding_mask`` its 8-bit mask right after it, ``lead`` alone (the last step
    before ``catch_rates`` is written; prefstats/data/README.md)."""
    table = table.drop(columns="leader").rename(columns={"holding": "holding_mask"})
    return _text_first(table.rename(columns={"text": "holding"}), ["holding_mask"])


def shipped_pairs(table: pd.DataFrame) -> pd.DataFrame:
    """The catch-pair columns as shipped, from the built ones (``holding_a``, ``holding_b`` the
    masks, ``text_a``, ``text_b`` as printed, ``leader`` beside ``lead``): ``holding_a``,
    ``holding_b`` as printed, then ``holding_a_mask``, ``holding_b_mask``, ``lead`` alone."""
    masks = {"holding_a": "holding_a_mask", "holding_b": "holding_b_mask"}
    table = table.drop(columns="leader").rename(columns=masks)
    table = table.rename(columns={"text_a": "holding_a", "text_b": "holding_b"})
    return _text_first(table, list(masks.values()))


def _text_first(table: pd.DataFrame, masks: list[str]) -> pd.DataFrame:
    """``table`` with the ``masks`` columns moved right after the last printed holding."""
    rest = [c for c in table.columns if c not in masks]
    at = rest.index(masks[-1].removesuffix("_mask")) + 1
    return table[[*rest[:at], *masks, *rest[at:]]]


# --- entry point -----------------------------------------------------------------------------


def independent_rates(
    runs: Path,
    *,
    n: int = N_SINGLE,
    n_slow: int = N_SINGLE_SLOW,
    n_lowest: int = N_LOWEST,
    dealt: int = DEALT_DEALS,
    dealt_seed: int = DEALT_SEED,
    seed: int = SEED,
    jobs: int = 1,
    progress: bool = True,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Run (or resume) the three settings' generators: the open-play rows of ``catch_rates``
    (each layout a hand of its own) and their provenance (``studies.catch_rates`` writes the
    table)."""
    tables, paths = [], []
    singles = single_holdings()
    clean = run(
        Path(runs) / f"catch-clean-sides-n{n}-{n_slow}-s{seed}",
        [[(h,)] for h in singles],
        [single_n(h, n, n_slow) for h in singles],
        seed,
        jobs=jobs,
        progress=progress,
    )
    tables.append(single_table(catch_summary(load_run(clean[0].parent)), "clean-sides"))
    rates = defender_rates(rate_table(tables[0]))
    lowest = run(
        Path(runs) / f"catch-lowest-sides-n{n_lowest}-s{seed}",
        [[(h,)] for h in lowest_holdings()],
        [n_lowest] * len(lowest_holdings()),
        seed,
        setting="lowest-sides",
        jobs=jobs,
        progress=progress,
    )
    tables.append(single_table(catch_summary(load_run(lowest[0].parent)), "lowest-sides"))
    folder = Path(runs) / f"catch-as-dealt-d{dealt}-s{dealt_seed}"
    spec = dealt_spec(dealt, dealt_seed, rates)
    found = run_chunks(dealt_chunk, spec, folder, jobs=jobs, progress=progress)
    tables.append(single_table(pooled_summary(dealt_rows(load_run(folder))), "as-dealt"))
    paths = [*clean, *lowest, *found]
    provenance = {
        "settings": {name: MODELS[name] for name in SETTINGS},
        "model": COMMON_MODEL,
        "seed": seed,
        "layouts": {
            "clean-sides": n,
            "clean-sides 3-4 card catchable": n_slow,
            "lowest-sides": n_lowest,
        },
        "as_dealt_deals": {"deals": dealt, "seed": dealt_seed, "pooled below": MIN_DEALT},
        "cpu_seconds": round(cpu_seconds(paths), 1),
        "confidence": 0.95,
        "intervals": "Wilson for P(caught), t for E[tricks]",
    }
    return pd.concat(tables, ignore_index=True), provenance


def build_pairs(
    runs: Path,
    out: Path | None = None,
    *,
    n: int = N_PAIR,
    seed: int = SEED,
    jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Run (or resume) the pairs generator and write ``catch_pairs`` into ``out``."""
    items = pair_items()
    groups = [[it for it in items if it[0] == a] for a in sorted({it[0] for it in items})]
    paths = run(
        Path(runs) / f"catch-pairs-n{n}-s{seed}",
        groups,
        [n] * len(groups),
        seed,
        setting="pairs",
        jobs=jobs,
        progress=progress,
    )
    table = pair_table(catch_summary(load_run(paths[0].parent)))
    provenance = {
        "table": "catch_pairs",
        "prefstats_version": __version__,
        "model": f"{MODELS['pairs']}; {COMMON_MODEL}",
        "seed": seed,
        "items": len(table) // len(LEADS),
        "n_per_item": n,
        "cpu_seconds": round(cpu_seconds(paths), 1),
        "confidence": 0.95,
        "intervals": "Wilson for P(caught), t for E[tricks]",
    }
    write_shipped(table, Path(out or data_folder()) / "catch_pairs", provenance, TITLE_PAIRS)
    return table


@functools.cache
def _clean_fillers(n_cards: int, n_suits: int) -> np.ndarray:
    clean = np.flatnonzero(class_codes() == SuitClass.CLEAN).astype(np.uint32)
    grids = np.meshgrid(*[clean] * n_suits, indexing="ij")
    tuples = np.stack([g.reshape(-1) for g in grids], axis=1)
    lengths = np.bitwise_count(tuples).sum(axis=1)
    fillers: np.ndarray = tuples[lengths == n_cards]
    fillers.flags.writeable = False
    return fillers
