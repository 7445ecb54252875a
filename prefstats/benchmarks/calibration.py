"""``prefstats bench calibration``: how the heuristic's counted tricks translate into
double-dummy tricks, the evidence behind ``HeuristicEvaluator.talon_bonus``.

For random hands (random seat, the first hand leading), the hand's best counted strain is
played at the 6 level after the talon and the heuristic discard; the table gives, per bucket of
counted tricks (before the talon), the share of deals where the declarer takes at least k tricks.
A player bids the level he makes in about 70% of deals: 6 from a count of 5, and so on, which is
a talon bonus of one trick.
"""

from __future__ import annotations

import numpy as np

from prefstats.game.deal import deal_many
from prefstats.game.rules import Contract, Strain
from prefstats.players.counting import strain_tricks
from prefstats.players.discards import contract_discards
from prefstats.solver.contracts import contract_tricks


def counted_vs_dd(n: int = 30_000, seed: int = 42) -> tuple[np.ndarray, np.ndarray]:
    """Counted tricks (pre-talon) and DD tricks at the 6 level in that strain, for hands that
    count at least 4 tricks."""
    deals = deal_many(n, seed=seed)
    seat = np.random.default_rng(seed).integers(0, 3, n)
    hand = deals[np.arange(n), seat]
    counts = strain_tricks(hand)
    keep = counts.max(axis=1) >= 4
    deals, seat, hand, counts = deals[keep], seat[keep], hand[keep], counts[keep]
    strain = counts.argmax(axis=1)
    bids = np.array([Contract(6, Strain(int(s))).rank for s in range(5)])[strain]
    hand12 = hand | deals[:, 3]
    discard, _ = contract_discards(hand12, bids)
    hands = deals[:, :3].copy()
    hands[np.arange(len(hands)), seat] = hand12 & ~discard
    return counts.max(axis=1), contract_tricks(hands, seat, bids)


def main(n: int = 30_000) -> dict[str, float]:
    """Print and return P(DD tricks >= k) per counted-trick bucket."""
    counted, tricks = counted_vs_dd(n)
    figures: dict[str, float] = {"hands": len(counted)}
    print(f"counted tricks before the talon -> double-dummy tricks ({len(counted):,} hands)")
    print("count    hands   mean  " + "  ".join(f"P>={k:<2}" for k in range(6, 11)))
    for low in np.arange(4, 9, 0.5):
        sel = (counted >= low) & (counted < low + 0.5)
        if sel.sum() < 20:
            continue
        shares = "  ".join(f"{(tricks[sel] >= k).mean():5.2f}" for k in range(6, 11))
        print(f"{low:5.1f} {sel.sum():8,} {tricks[sel].mean():6.2f}  {shares}")
        figures[f"count {low:.1f}: hands"] = int(sel.sum())
        figures[f"count {low:.1f}: mean tricks"] = float(tricks[sel].mean())
        for k in range(6, 11):
            figures[f"count {low:.1f}: P(tricks >= {k})"] = float((tricks[sel] >= k).mean())
    return figures
