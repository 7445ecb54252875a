"""Misère as played: the information models on shared layouts, the ``paired`` rows of
``catch_rates``.

The ``independent`` rows of ``catch_rates`` are open play: the catchers see the declarer's two
discards, and on his own lead he sees every card before leading. The ``paired`` rows measure
the same holdings under each model of docs/rules.md, "Misère information models" (the
``information`` column, in ``INFORMATION`` order), every model on the same layouts, so each
difference is paired:

* ``open``: every card seen, the discard included (the ``independent`` rows' model);
* ``hidden floor``: the catchers know his twelve candidate cards, not which two are gone, and
  must catch whichever pair of them he dropped;
* ``hidden sound``: the same over the discards the policy's rating cannot tell from the one he
  made (``players.discards.sound_misere_discards(twelve, made)``, within its tolerance);
* ``blind lead``: on his own lead he picks one first card for all the layouts of his hand, the
  one caught on fewest of them; then open play. The defenders' leads are open play;
* ``as played low``: the blind lead, then the discard hidden among the sound ones (on the
  defenders' leads: hidden sound);
* ``as played high``: the blind lead, then open play (= ``blind lead``);
* ``estimate``: the point estimate inside the bracket: catchers who keep what they can force
  whichever sound discard he made and play each other card by the share of the sound discards
  still consistent with the play on which it keeps a double-dummy catch
  (``solver.estimate_tricks_many``), against a declarer playing double-dummy; on his own lead
  his blind lead is chosen for it, as for the other models.

The bracket [as played low, as played high] holds the game as played: the catchers of real play
know less than open play grants them and more than the hidden-discard search lets them use.

Layouts: for each holding and setting, ``hands`` hands of the setting (``clean-sides``: random
clean suits beside the holding; ``lowest-sides``: the one textbook hand), each with its two
cards out of play drawn once from the 22 it lacks (his discard), then ``per_hand`` splits of the
other 20 cards between the defenders. ``as-dealt``: the first ``hands`` misère hands holding it
among the first ``DEALT_SCAN`` deals of the played study's seed (``catch_tables``' as-dealt
hands: the heuristic discard, exactly one catchable suit, in any suit), with his discard; the
catchers consider the discards his rating puts within its tolerance of its best. A hand's
layouts are the ones he cannot tell apart, so his blind lead is chosen over them, exactly.
Randomness: sub-streams ``(holding, setting, INFO_STREAM)`` (the hands' cards out of play) and
``(holding, setting, INFO_STREAM + 1)`` (the splits) of the seed, so a holding's rows depend on
the seed, the holding and the sizes alone.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prefstats.game.cards import N_CARDS, N_HOLDINGS, format_holding, parse_holding
from prefstats.game.deal import N_PARTS, N_SEATS, TALON, Stream, deal_many, sample_layouts
from prefstats.game.rules import RuleSet
from prefstats.misere.classes import SuitClass, class_codes
from prefstats.misere.tables import (
    COMMON_HOLDINGS,
    LEADS,
)
from prefstats.players.discards import (
    SOUND_TOLERANCE,
    misere_discards,
    sound_misere_discards,
)
from prefstats.players.sharing import break_even_catch_probability, misere_values
from prefstats.solver import (
    estimate_tricks_many,
    fewest_catches,
    first_lead_many,
    hidden_discard_many,
)
from prefstats.stats import clustered_proportion, mean_estimate, ratio_of_means
from prefstats.studies.catch_tables import (
    COMMON_MODEL,
    DEALT_SEED,
    MODELS,
    SEED,
    _lead_stats,
    cpu_seconds,
    dealt_misere_hands,
    lowest_sides_hand,
    sample_hands,
    solve_leads,
)
from prefstats.studies.misere_ev import EV_RULES
from prefstats.studies.runs import Chunk, load_run, run_chunks

INFORMATION = (
    "open",
    "hidden floor",
    "hidden sound",
    "blind lead",
    "as played low",
    "as played high",
    "estimate",
)
INFORMATION_SETTINGS = ("clean-sides", "lowest-sides", "as-dealt")
MAX_LENGTH = 3  # every holding of up to three cards that is not clean, and the ten published
N_HANDS, PER_HAND = 40, 10  # hands a holding and setting, layouts a hand
DEALT_MODEL = (
    "dealt hands after the heuristic misère discard (clean-sides rates) with exactly one "
    "catchable suit, the holding in any suit; the defenders' twenty cards split anew"
)
DEALT_SCAN = 200_000  # as-dealt: the hands are the first N_HANDS of a holding in these deals
INFO_STREAM = N_HOLDINGS + 3
OWN = LEADS.index("own")


def information_holdings(max_length: int = MAX_LENGTH) -> list[int]:
    """The holdings measured: every one of up to ``max_length`` cards that is not clean, and
    the ten with published catch rates (``misere.tables.COMMON_HOLDINGS``).

    >>> from prefstats.game.cards import format_holding
    >>> [format_holding(h) for h in information_holdings()][:4], len(information_holdings())
    (['8', '9', '7 9', '8 9'], 88)
    """
    codes = class_codes()
    short = {
        h
        for h in range(1, N_HOLDINGS)
        if codes[h] != SuitClass.CLEAN and h.bit_count() <= max_length
    }
    return sorted(short | {parse_holding(text) for text in COMMON_HOLDINGS})


def information_layouts(
    holding: int, setting: str, hands: int = N_HANDS, per_hand: int = PER_HAND, seed: int = SEED
) -> np.ndarray:
    """uint32 (hands * per_hand, 4): the declarer's ten (seat 0), the defenders, his two cards
    out of play (the talon's place); rows ``per_hand * h`` … of hand h share his ten and his
    cards out of play.

    >>> rows = information_layouts(0b1001, "lowest-sides", hands=2, per_hand=3, seed=1)
    >>> bool((rows[:3, 3] == rows[0, 3]).all()), np.bitwise_count(rows[0]).tolist()
    (True, [10, 10, 10, 2])
    """
    if setting not in INFORMATION_SETTINGS[:2]:
        raise ValueError(f"setting must be clean-sides or lowest-sides, got {setting!r}")
    where = INFORMATION_SETTINGS.index(setting)
    if setting == "lowest-sides":
        tens = np.full(hands, lowest_sides_hand(holding), dtype=np.uint32)
    else:
        tens = sample_hands((holding,), hands, seed)
    known = np.zeros((hands, N_PARTS), dtype=np.uint32)
    known[:, 0] = tens
    known[:, TALON] = deal_many(hands, Stream(seed, (holding, where, INFO_STREAM)), fixed=known)[
        :, TALON
    ]
    splits = sample_layouts(known, per_hand, Stream(seed, (holding, where, INFO_STREAM + 1)))
    return np.ascontiguousarray(splits.reshape(hands * per_hand, N_PARTS))


def dealt_picks(
    holdings: list[int], rates: np.ndarray, hands: int = N_HANDS, seed: int = DEALT_SEED
) -> dict[int, list[list[int]]]:
    """For each holding, the first ``hands`` (deal, seat) of the ``as-dealt`` hands holding it
    (``catch_tables.dealt_misere_hands``: the heuristic discard scoring with ``rates``, exactly
    one catchable suit) among the first ``DEALT_SCAN`` deals of ``seed``, in deal order."""
    found = dealt_misere_hands(deal_many(DEALT_SCAN, seed), rates).sort_values(["row", "seat"])
    return {
        h: found[found.holding == h][["row", "seat"]].head(hands).to_numpy().tolist()
        for h in holdings
    }


def dealt_layouts(
    picks: list[list[int]],
    holding: int,
    rates: np.ndarray,
    per_hand: int = PER_HAND,
    seed: int = SEED,
    dealt_seed: int = DEALT_SEED,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``as-dealt`` layouts of ``picks`` (deal, seat) and each row's sound discards: the
    seat's ten after the heuristic discard (scoring with ``rates``) in seat 0, his discard in
    the talon's place, ``per_hand`` splits of the other twenty cards between the defenders
    (left of him in seat 1); the sound discards are those the rating puts within its tolerance
    of its best, judging his twelve cards (``sound_misere_discards``), and the one he made."""
    deals = np.concatenate([deal_many(1, dealt_seed, start=deal) for deal, _ in picks])
    seats = np.array([seat for _, seat in picks])
    twelve = deals[np.arange(len(picks)), seats] | deals[:, TALON]
    made = misere_discards(twelve, rates=rates)
    known = np.zeros((len(picks), N_PARTS), dtype=np.uint32)
    known[:, 0], known[:, TALON] = twelve & ~made, made
    where = INFORMATION_SETTINGS.index("as-dealt")
    splits = sample_layouts(known, per_hand, Stream(seed, (holding, where, INFO_STREAM + 1)))
    sound = np.column_stack([made, sound_misere_discards(twelve, rates=rates)])
    return (
        np.ascontiguousarray(splits.reshape(len(picks) * per_hand, N_PARTS)),
        np.repeat(sound, per_hand, axis=0),
    )


def information_tricks(
    layouts: np.ndarray, sound: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """int8 (n, 3) for each of ``INFORMATION``: the tricks under each lead on the same layouts
    (n, 4) (the declarer's ten in seat 0, his two discards in the talon's place).

    His candidate cards are his ten and his discards; ``sound`` (n, k) are each row's discards
    the catchers consider (0-padded), the one made among them. By default his two cards out of
    play are random, not the rating's choice, so the catchers consider the discards the rating
    cannot tell from them (``sound_misere_discards(..., made)``: within the tolerance of their
    estimated chance of no catch, either way); the sound discards of the best would let the
    catchers fear a better hand than the measured one, and measure that hand instead. The blind
    lead is chosen for each hand (his ten and his discards) over its rows among ``layouts``.
    """
    hands = np.ascontiguousarray(layouts[:, :N_SEATS], dtype=np.uint32)
    candidates = hands.copy()
    candidates[:, 0] |= layouts[:, TALON]
    made = layouts[:, TALON]
    if sound is None:
        sound = np.column_stack([made, sound_misere_discards(candidates[:, 0], made)])
    seen = np.ascontiguousarray(layouts[:, TALON : TALON + 1], dtype=np.uint32)
    out = {"open": solve_leads(hands)}
    for name, possible in (("hidden floor", None), ("hidden sound", sound)):
        out[name] = np.column_stack(
            [
                hidden_discard_many(candidates, leader=lead, discards=possible)
                for lead in range(len(LEADS))
            ]
        ).astype(np.int8)
    blind_open, _ = _blind_own_lead(
        layouts, lambda rows, card: first_lead_many(candidates[rows], card, discards=seen[rows])
    )
    blind_sound, sound_catches = _blind_own_lead(
        layouts, lambda rows, card: first_lead_many(candidates[rows], card, discards=sound[rows])
    )
    out["blind lead"] = out["open"].copy()
    out["blind lead"][:, OWN] = blind_open
    out["as played low"] = out["hidden sound"].copy()
    out["as played low"][:, OWN] = blind_sound
    out["as played high"] = out["blind lead"].copy()
    out["estimate"] = np.column_stack(
        [
            _blind_own_lead(
                layouts,
                lambda rows, card: estimate_tricks_many(
                    candidates[rows], made=made[rows], discards=sound[rows], first=card
                ),
                least=sound_catches,  # the estimate is never below the hidden search
            )[0],
            *(
                estimate_tricks_many(candidates, made=made, leader=lead, discards=sound)
                for lead in range(1, len(LEADS))
            ),
        ]
    ).astype(np.int8)
    return out


def _blind_own_lead(
    layouts: np.ndarray,
    play: Callable[[np.ndarray, int], np.ndarray],
    least: list[dict[int, int]] | None = None,
) -> tuple[np.ndarray, list[dict[int, int]]]:
    """int8 (n,): tricks after the blind first lead (``solver.fewest_catches``), chosen for each
    hand (his ten and his two discards) over its rows; ``play(rows, card)`` gives the tricks of
    ``rows`` after he leads ``card``. Also, for each hand, the catches of each card played out;
    ``least``: such catches of another model, below this one's for every card (cards that cannot
    be the choice are then not played)."""
    tricks = np.zeros(len(layouts), dtype=np.int8)
    catches: list[dict[int, int]] = []
    _, hand_of_row = np.unique(layouts[:, [0, TALON]], axis=0, return_inverse=True)
    for hand in range(int(hand_of_row.max()) + 1 if len(layouts) else 0):
        rows = np.flatnonzero(hand_of_row == hand)
        ten = int(layouts[rows[0], 0])
        cards = [bit for bit in range(N_CARDS) if ten >> bit & 1]
        caught: dict[int, int] = {}

        def tried(
            card: int, rows: np.ndarray = rows, caught: dict[int, int] = caught
        ) -> np.ndarray:
            out = play(rows, card)
            caught[card] = int((out > 0).sum())
            return out

        _, tricks[rows] = fewest_catches(cards, tried, None if least is None else least[hand])
        catches.append(caught)
    return tricks, catches


# --- the run ----------------------------------------------------------------------------------


def information_spec(
    holdings: list[int],
    rates: np.ndarray,
    hands: int = N_HANDS,
    per_hand: int = PER_HAND,
    seed: int = SEED,
) -> dict[str, Any]:
    """The run driver's spec: one chunk per (setting, holding), ``hands * per_hand`` rows (as
    dealt: per hand found, the hands written into the spec; a holding never found is left
    out); ``rates`` (256,) the as-dealt discard's catch rates (``discards.defender_rates``)."""
    picks = dealt_picks(holdings, rates, hands)
    items: list[list[str | int]] = []
    sizes = []
    for setting in INFORMATION_SETTINGS:
        for h in holdings:
            size = len(picks[h]) if setting == "as-dealt" else hands
            if size:
                items.append([setting, h])
                sizes.append(size)
    return {
        "kind": "catch-information",
        "settings": {
            **{name: MODELS[name] for name in INFORMATION_SETTINGS[:2]},
            "as-dealt": DEALT_MODEL,
        },
        "information": list(INFORMATION),
        "sound_tolerance": SOUND_TOLERANCE,
        "seed": seed,
        "items": items,
        "hands": hands,
        "per_hand": per_hand,
        "dealt": {
            "seed": DEALT_SEED,
            "scanned": DEALT_SCAN,
            "discard_rates": [round(float(r), 12) for r in rates],
            "picks": {str(h): picks[h] for h in holdings if picks[h]},
        },
        "chunk_rows": [size * per_hand for size in sizes],
        "n": sum(sizes) * per_hand,
    }


def information_chunk(spec: dict[str, Any], chunk: Chunk) -> pd.DataFrame:
    """One row per layout of item ``chunk.index``: its setting, holding and hand, and the
    tricks under each model and lead (columns ``model|lead``)."""
    setting, holding = spec["items"][chunk.index]
    sound, hands = None, spec["hands"]
    if setting == "as-dealt":
        dealt = spec["dealt"]
        picks = dealt["picks"][str(holding)]
        rates = np.array(dealt["discard_rates"])
        layouts, sound = dealt_layouts(
            picks, holding, rates, spec["per_hand"], spec["seed"], dealt["seed"]
        )
        hands = len(picks)
    else:
        layouts = information_layouts(holding, setting, hands, spec["per_hand"], spec["seed"])
    tricks = information_tricks(layouts, sound)
    table = pd.DataFrame(
        {
            "setting": np.full(len(layouts), INFORMATION_SETTINGS.index(setting), np.uint8),
            "holding": np.full(len(layouts), holding, np.uint8),
            "hand": np.repeat(np.arange(hands, dtype=np.int16), spec["per_hand"]),
        }
    )
    for name in INFORMATION:
        for i, lead in enumerate(LEADS):
            table[f"{name}|{lead}"] = tricks[name][:, i]
    return table


def information_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The shipped table from a run's rows: one row per setting, holding, information model
    and lead, with the statistics of ``catch_rates`` and, paired with open play on the same
    layouts, ``open_caught`` (open play's catches), ``saved`` (open catches this model does not
    make) and ``added`` (its catches open play does not make)."""
    codes = class_codes()
    records = []
    for (where, holding), group in rows.groupby(["setting", "holding"], sort=True):
        mask = int(str(holding))
        front = {
            "setting": INFORMATION_SETTINGS[int(str(where))],
            "holding": format_holding(mask),
            "holding_mask": mask,
            "n_cards": mask.bit_count(),
            "suit_class": SuitClass(codes[mask]).label,
        }
        for name in INFORMATION:
            for lead in LEADS:
                tricks = group[f"{name}|{lead}"].to_numpy()
                open_caught = group[f"open|{lead}"].to_numpy() > 0
                stats = _hand_stats(tricks, group["hand"].to_numpy())
                records.append(
                    {
                        **front,
                        "information": name,
                        "lead": lead,
                        "hands": int(group["hand"].nunique()),
                        **{k: stats[k] for k in ("n", "caught")},
                        "open_caught": int(open_caught.sum()),
                        "saved": int((open_caught & (tricks == 0)).sum()),
                        "added": int((~open_caught & (tricks > 0)).sum()),
                        **{k: v for k, v in stats.items() if k not in ("n", "caught")},
                    }
                )
    return pd.DataFrame(records)


def _hand_stats(tricks: np.ndarray, hand: np.ndarray) -> dict[str, Any]:
    """``catch_tables``' statistics of a row, the intervals taken over hands, not layouts: a
    hand's layouts share his cards (and, on his own lead, his blind lead), so they are alike,
    and an interval that counted them as independent would be too narrow. P(caught): the
    Wilson interval at the effective sample size (``stats.clustered_proportion``); E[tricks]:
    the ratio estimator over hands (``stats.ratio_of_means``) where it is the wider, as the
    design effect of P(caught) is taken as at least 1."""
    stats = _lead_stats(tricks)
    order = np.argsort(hand, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(hand[order]) != 0])
    sizes = np.diff(np.r_[starts, len(hand)])
    if len(sizes) < 2:
        return stats
    caught = clustered_proportion(np.add.reduceat(tricks[order] > 0, starts), sizes)
    mean = ratio_of_means(np.add.reduceat(tricks[order].astype(float), starts), sizes)
    clustered = {"p_caught_low": caught.low, "p_caught_high": caught.high}
    if mean.high - mean.low > stats["mean_tricks_high"] - stats["mean_tricks_low"]:
        clustered |= {"mean_tricks_low": mean.low, "mean_tricks_high": mean.high}
    return stats | clustered


def paired_rates(
    runs: Path,
    rates: np.ndarray,
    *,
    hands: int = N_HANDS,
    per_hand: int = PER_HAND,
    max_length: int = MAX_LENGTH,
    seed: int = SEED,
    jobs: int = 1,
    progress: bool = True,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Run (or resume) the information run: the ``paired`` rows of ``catch_rates`` and their
    provenance (``studies.catch_rates`` writes the table); ``rates`` (256,) the as-dealt
    discard's catch rates (``discards.defender_rates`` of the clean-sides open rates)."""
    spec = information_spec(information_holdings(max_length), rates, hands, per_hand, seed)
    folder = Path(runs) / f"catch-information-h{hands}x{per_hand}-l{max_length}-s{seed}"
    paths = run_chunks(information_chunk, spec, folder, jobs=jobs, progress=progress, unit="layout")
    provenance = {
        "settings": spec["settings"],
        "model": COMMON_MODEL,
        "information": spec["information"],
        "sound_tolerance": SOUND_TOLERANCE,
        "seed": seed,
        "holdings": f"every holding of up to {max_length} cards that is not clean, and "
        + ", ".join(COMMON_HOLDINGS),
        "hands": hands,
        "layouts_per_hand": per_hand,
        "as_dealt": {
            "deals": f"the first {DEALT_SCAN:,} of seed {DEALT_SEED}",
            "hands": f"the first {hands} as-dealt hands of each holding (fewer where the deals "
            "hold fewer), in deal order",
            "discard": "heuristic, scoring with the shipped clean-sides rates",
        },
        "cpu_seconds": round(cpu_seconds(paths), 1),
        "confidence": 0.95,
        "intervals": "over hands, whose layouts are alike: Wilson at the effective sample size "
        "for P(caught), the ratio estimator's for E[tricks]",
    }
    return information_table(load_run(folder)), provenance


# --- what it is worth -------------------------------------------------------------------------


def information_ev(table: pd.DataFrame, rules: RuleSet = EV_RULES) -> pd.DataFrame:
    """Each ``paired`` row of ``catch_rates`` with what its trick distribution is worth
    (four players, Sochi by default): ``solo_ev`` in whists a deal with its 95% interval
    (over layouts, widened as much as the row's E[tricks] interval is for being taken over
    hands, whose layouts are alike), ``tricks_if_caught`` (m, E[tricks] / P(caught)),
    ``break_even`` (the P(caught) at which a solo misère with that m is worth nothing,
    ``players.sharing.break_even_catch_probability``) and ``dealer_accepts`` (a risk-neutral
    dealer accepts an invitation iff the solo EV > 0)."""
    counts = table[[f"tricks_{k}" for k in range(11)]].to_numpy()
    widths = (table.mean_tricks_high - table.mean_tricks_low).to_numpy()
    records = []
    for row, mean, caught, width in zip(
        counts, table.mean_tricks, table.p_caught, widths, strict=True
    ):
        tricks = np.repeat(np.arange(11), row)
        solo = misere_values(tricks, rules).loc["solo"].to_dict()
        layouts = mean_estimate(tricks)
        widen = max(1.0, width / (layouts.high - layouts.low)) if layouts.high > layouts.low else 1
        half = widen * (solo["high"] - solo["low"]) / 2
        m = float(mean / caught) if caught > 0 else float("nan")
        records.append(
            {
                "solo_ev": float(solo["ev"]),
                "solo_ev_low": float(solo["ev"] - half),
                "solo_ev_high": float(solo["ev"] + half),
                "tricks_if_caught": m,
                "break_even": break_even_catch_probability(m, rules) if caught > 0 else m,
                "dealer_accepts": bool(solo["ev"] > 0),
            }
        )
    return pd.concat([table.reset_index(drop=True), pd.DataFrame(records)], axis=1)
