"""Solo or shared misère: what each choice is worth, and when to invite and to accept.

Codex 3.6.9 (notes 41-43): in a four-player game the would-be misère player may, before the
talon, invite the dealer, who sees the inviter's ten cards and nothing else and accepts or
refuses. Shared, each partner gets a third of the solo result (``scoring.score_shared_misere``).

Everything here starts from **trick samples**: the declarer's tricks in n equally likely
outcomes (talon and layout drawn, discard made), as ``misere_risk.misere_risk`` produces them.
Each value is a mean over the samples with its 95% interval.

Risk-neutral, the dealer should accept exactly when the solo misère has positive expected value:
sharing gives him +S/3 where refusing gives him −S/3 (he is then one of the other three players,
each of whom loses a third of what the declarer wins), so accepting beats refusing iff E[S] > 0.
The inviter's shared value is a third of his solo value, so a risk-neutral inviter never prefers
to share a profitable misère; a risk-averse one may, since sharing divides the spread by three.

>>> outcome = np.array([0] * 80 + [1] * 15 + [2] * 5)   # tricks in 100 equally likely outcomes
>>> values = misere_values(outcome, RuleSet(players=4))
>>> float(values.loc["solo", "ev"]), float(values.loc["dealer_if_shared", "ev"])
(41.25, 13.75)
>>> dealer_should_accept(outcome, RuleSet(players=4))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from math import log

import numpy as np
import pandas as pd

from prefstats.game.rules import RuleSet
from prefstats.game.scoring import misere_net
from prefstats.stats import mean_estimate

OPTIONS = {
    "solo": ("declarer", False),  # the declarer plays alone
    "inviter_if_shared": ("declarer", True),
    "dealer_if_shared": ("dealer", True),
    "dealer_if_refused": ("dealer", False),  # he refuses; the inviter plays alone
}


@dataclass(frozen=True)
class Utility:
    """A player's attitude to risk: ``risk_aversion`` 0 is risk-neutral; ``kind`` "cara" uses
    u(x) = −exp(−a·x)/a, "mean-variance" uses E[x] − a·Var[x]/2 (a per whist)."""

    risk_aversion: float = 0.0
    kind: str = "cara"

    def __post_init__(self) -> None:
        if self.risk_aversion < 0:
            raise ValueError(f"risk_aversion must be >= 0, got {self.risk_aversion}")
        if self.kind not in ("cara", "mean-variance"):
            raise ValueError(f"utility kind must be 'cara' or 'mean-variance', got {self.kind!r}")

    def certainty_equivalent(self, values: np.ndarray) -> float:
        """The sure amount worth as much as the gamble of equally likely ``values`` (whists).

        >>> Utility(0.0).certainty_equivalent(np.array([-10.0, 30.0]))
        10.0
        >>> round(Utility(0.01, "mean-variance").certainty_equivalent(np.array([-10.0, 30.0])), 2)
        8.0
        """
        values = np.asarray(values, dtype=float)
        a = self.risk_aversion
        if a == 0:
            return float(values.mean())
        if self.kind == "mean-variance":
            return float(values.mean() - a * values.var() / 2)
        shift = values.min()  # log-sum-exp, stable for large a·x
        return float(shift - log(np.mean(np.exp(-a * (values - shift)))) / a)


def option_values(tricks: np.ndarray, rules: RuleSet) -> dict[str, np.ndarray]:
    """Net whists of each option (``OPTIONS``) in each sampled outcome."""
    tricks = _checked_tricks(tricks)
    nets = {}
    for name, (role, shared) in OPTIONS.items():
        if rules.players == 3 and (shared or role == "dealer"):
            continue  # three players: nobody to invite (the comparison row)
        nets[name] = np.asarray(misere_net(tricks, rules, shared=shared)[role], dtype=float)
    return nets


def misere_values(
    tricks: np.ndarray, rules: RuleSet | None = None, baseline: float = 0.0
) -> pd.DataFrame:
    """EV (with 95% interval), variance and sd in whists of each option, plus the baseline of
    not bidding misère (``baseline`` whists, a sure amount the user sets)."""
    return _values_table(option_values(tricks, rules or RuleSet(players=4)), len(tricks), baseline)


def _values_table(nets: dict[str, np.ndarray], n: int, baseline: float) -> pd.DataFrame:
    """``misere_values`` from the options' net whists (``option_values``) of ``n`` outcomes."""
    rows = {}
    for name, values in nets.items():
        est = mean_estimate(values) if len(values) > 1 else None
        rows[name] = {
            "ev": float(values.mean()),
            "low": est.low if est else np.nan,
            "high": est.high if est else np.nan,
            "variance": float(values.var()),
            "sd": float(values.std()),
            "n": len(values),
        }
    rows["no_misere"] = {
        "ev": baseline,
        "low": baseline,
        "high": baseline,
        "variance": 0.0,
        "sd": 0.0,
        "n": n,
    }
    return pd.DataFrame.from_dict(rows, orient="index")


def dealer_should_accept(
    tricks: np.ndarray, rules: RuleSet | None = None, utility: Utility = Utility()
) -> bool:
    """Whether the dealer prefers sharing to refusing (risk-neutral: iff the solo EV > 0)."""
    return _dealer_accepts(option_values(tricks, rules or RuleSet(players=4)), utility)


def _dealer_accepts(nets: dict[str, np.ndarray], utility: Utility) -> bool:
    """``dealer_should_accept`` from the options' net whists (``option_values``)."""
    return utility.certainty_equivalent(nets["dealer_if_shared"]) > (
        utility.certainty_equivalent(nets["dealer_if_refused"])
    )


def inviter_choice(
    tricks: np.ndarray,
    rules: RuleSet | None = None,
    utility: Utility = Utility(),
    baseline: float = 0.0,
) -> str:
    """The inviter's best move: ``"solo"``, ``"invite"`` (if he prefers sharing and the dealer,
    with the same utility, accepts; a refusal leaves him the solo game) or ``"no_misere"``."""
    rules = rules or RuleSet(players=4)
    return _inviter_choice(option_values(tricks, rules), rules, utility, baseline)


def _inviter_choice(
    nets: dict[str, np.ndarray], rules: RuleSet, utility: Utility, baseline: float
) -> str:
    """``inviter_choice`` from the options' net whists (``option_values``)."""
    solo = utility.certainty_equivalent(nets["solo"])
    best, choice = solo, "solo"
    if rules.players == 4 and _dealer_accepts(nets, utility):
        shared = utility.certainty_equivalent(nets["inviter_if_shared"])
        if shared > best:
            best, choice = shared, "invite"
    return choice if best > baseline else "no_misere"


def break_even_catch_probability(tricks_if_caught: float, rules: RuleSet | None = None) -> float:
    """The catch probability at which the solo misère is worth nothing, given the mean tricks
    taken when caught: p* = W / (W + L·m) for a win W and a loss L per trick (every convention
    writes the failed misère per trick, so a caught misère costs L times its tricks).

    >>> round(break_even_catch_probability(1.0), 3), round(break_even_catch_probability(2.0), 3)
    (0.5, 0.333)
    """
    if tricks_if_caught < 1:
        raise ValueError(f"a caught misère takes at least 1 trick, got {tricks_if_caught}")
    net = np.asarray(misere_net(np.array([0, 1]), rules or RuleSet(players=4))["declarer"])
    made, one = float(net[0]), float(net[1])
    return float(made / (made - one * tricks_if_caught))


def sharing_region(
    tricks: np.ndarray, risk_aversions: np.ndarray, rules: RuleSet | None = None
) -> pd.DataFrame:
    """For each risk aversion (CARA, per whist, both partners alike): the certainty equivalents
    of solo and shared for the inviter, of shared and refused for the dealer, and whether
    sharing makes both better off than the alternative each controls."""
    rules = rules or RuleSet(players=4)
    nets = option_values(tricks, rules)
    rows = []
    for a in np.asarray(risk_aversions, dtype=float):
        u = Utility(float(a))
        ce = {name: u.certainty_equivalent(values) for name, values in nets.items()}
        both = ce["inviter_if_shared"] > ce["solo"] and (
            ce["dealer_if_shared"] > ce["dealer_if_refused"]
        )
        rows.append(
            {"risk_aversion": a, **{f"ce_{k}": v for k, v in ce.items()}, "both_gain": both}
        )
    return pd.DataFrame(rows)


def _checked_tricks(tricks: np.ndarray) -> np.ndarray:
    tricks = np.asarray(tricks)
    if tricks.ndim != 1 or not len(tricks):
        raise ValueError("tricks must be a non-empty 1-d array of sampled trick counts")
    if not np.issubdtype(tricks.dtype, np.integer) or tricks.min() < 0 or tricks.max() > 10:
        raise ValueError("tricks must be integers 0..10")
    return tricks


RISK_AVERSIONS = (0.0, 0.005, 0.01, 0.02)  # CARA per whist: none to strongly risk-averse


def advice(tricks: np.ndarray, rules: RuleSet | None = None, utility: Utility = Utility()) -> str:
    """One paragraph of advice for the inviter and the dealer, from the numbers."""
    rules = rules or RuleSet(players=4)
    nets = option_values(tricks, rules)
    values = _values_table(nets, len(tricks), 0.0)
    solo = values.loc["solo"]
    p_caught = float(np.mean(np.asarray(tricks) > 0))
    lines = [
        f"Solo misère: EV {solo.ev:+.1f} whists [{solo.low:+.1f}, {solo.high:+.1f}], "
        f"sd {solo.sd:.1f}; caught in {p_caught:.1%} of {len(tricks):,} outcomes."
    ]
    if rules.players == 4:
        accept = _dealer_accepts(nets, utility)
        ev = {str(k): float(v) for k, v in values["ev"].items()}
        shared, refused = ev["dealer_if_shared"], ev["dealer_if_refused"]
        lines.append(
            f"Dealer: {'accept' if accept else 'refuse'} an invitation (shared EV "
            f"{shared:+.1f} vs {refused:+.1f} if he refuses)."
        )
    lines.append(f"Declarer: {_CHOICE_TEXT[_inviter_choice(nets, rules, utility, 0.0)]}.")
    return "\n".join(lines)


_CHOICE_TEXT = {
    "solo": "play the misère alone",
    "invite": "invite the dealer to share",
    "no_misere": "do not bid misère",
}
