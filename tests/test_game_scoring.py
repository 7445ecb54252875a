"""Scoring and settlement: each convention's writing, the worked examples, shared misère, errors.

Expected numbers are written out by hand from the tables in ``prefstats/game/scoring.py``
(docs/rules.md, "Scoring"), not recomputed from the convention data.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prefstats.game.rules import Contract, Convention, RuleSet
from prefstats.game.scoring import (
    CONVENTIONS,
    LENINGRAD,
    ROSTOV,
    SOCHI,
    PlayedDeal,
    ScoringConvention,
    Writing,
    convention_of,
    misere_net,
    misere_table,
    score_deal,
    score_shared_misere,
    settle,
    shared_misere_payment,
)

ALL = [SOCHI, LENINGRAD, ROSTOV]
NAMES = {c.name: c for c in ALL}


def score(convention, **deal):
    d = PlayedDeal(**deal)
    return score_deal(d, RuleSet(players=d.players, scoring=convention.name))


def on_declarer(w, declarer=0):
    """Whists each player writes on the declarer."""
    return w.whists[:, declarer].tolist()


# --- the conventions as data ----------------------------------------------------------------


def test_one_frozen_convention_per_enum_member():
    assert set(CONVENTIONS) == set(Convention)
    for member, conv in CONVENTIONS.items():
        assert conv.name == member.value
        assert convention_of(member) is conv
        assert convention_of(RuleSet(scoring=member)) is conv
    assert convention_of(SOCHI) is SOCHI
    with pytest.raises(dataclasses.FrozenInstanceError):
        SOCHI.pulya_worth = 20  # type: ignore[misc]


@pytest.mark.parametrize("conv", ALL, ids=lambda c: c.name)
def test_common_data(conv):
    assert conv.game_values == (2, 4, 6, 8, 10) and conv.misere_value == 10
    assert conv.whist_obligation == (4, 2, 1, 1, 1)  # Codex 3.8.2
    assert conv.mountain_worth == 10
    assert [conv.game_value(level) for level in range(6, 11)] == [2, 4, 6, 8, 10]


def test_convention_differences():
    assert SOCHI.whist_price == ROSTOV.whist_price == (2, 4, 6, 8, 10)
    assert LENINGRAD.whist_price == LENINGRAD.undertrick_mountain == (4, 8, 12, 16, 20)
    assert SOCHI.whist_shortfall == LENINGRAD.whist_shortfall == (2, 4, 6, 8, 10)
    assert ROSTOV.whist_shortfall == (1, 2, 3, 4, 5)
    assert SOCHI.greedy_whist and not LENINGRAD.greedy_whist and not ROSTOV.greedy_whist
    assert (SOCHI.pulya_worth, LENINGRAD.pulya_worth, ROSTOV.pulya_worth) == (10, 20, 10)
    assert [c.misere_mountain for c in ALL] == [10, 20, 10]


def test_convention_validation():
    with pytest.raises(ValueError, match="one entry per level"):
        dataclasses.replace(SOCHI, whist_price=(2, 4, 6))
    with pytest.raises(ValueError, match="at least one entry"):
        dataclasses.replace(SOCHI, allpass_prices=())
    with pytest.raises(ValueError, match="must be positive"):
        dataclasses.replace(SOCHI, pulya_worth=0)


# --- trick contracts --------------------------------------------------------------------------

# (convention, pulya of the declarer, whists per defence trick)
MADE = [("sochi", 2, 2), ("leningrad", 2, 4), ("rostov", 2, 2)]


@pytest.mark.parametrize(("name", "pulya", "price"), MADE)
def test_made_both_whist(name, pulya, price):
    w = score(NAMES[name], tricks=(6, 3, 1), contract="6♠", declarer=0)
    assert w.pulya.tolist() == [pulya, 0, 0] and w.mountain.tolist() == [0, 0, 0]
    assert on_declarer(w) == [0, 3 * price, 1 * price]
    assert w.whists[:, 1:].sum() == 0


@pytest.mark.parametrize(
    ("name", "mountain", "whist_1", "whist_2"),
    [
        # 6♠ down one, defence 3 + 2: mountain, and whists = tricks x price + consolation
        ("sochi", 2, 3 * 2 + 2, 2 * 2 + 2),
        ("leningrad", 4, 3 * 4 + 4, 2 * 4 + 4),
        ("rostov", 2, 3 * 2 + 2, 2 * 2 + 2),
    ],
)
def test_failed_both_whist_with_consolation(name, mountain, whist_1, whist_2):
    w = score(NAMES[name], tricks=(5, 3, 2), contract="6♠", declarer=0)
    assert w.pulya.tolist() == [0, 0, 0] and w.mountain.tolist() == [mountain, 0, 0]
    assert on_declarer(w) == [0, whist_1, whist_2]


def test_failed_by_three_on_nine_sochi():
    # 9NT with 6 tricks: 3 x 8 into the mountain, consolation 3 x 8 from each defender.
    w = score(SOCHI, tricks=(1, 6, 3), contract="9NT", declarer=1)
    assert w.mountain.tolist() == [0, 24, 0]
    assert on_declarer(w, 1) == [8 + 24, 0, 3 * 8 + 24]


@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov"])
def test_one_whister_made_writes_all_defence_tricks(name):
    # 6♣ made exactly; seat 1 whists (1 trick), seat 2 passes (3 tricks): 4 tricks' whists.
    conv = NAMES[name]
    w = score(conv, tricks=(6, 1, 3), contract="6♣", declarer=0, whisters=(1,))
    assert on_declarer(w) == [0, 4 * conv.whist_price[0], 0]
    assert w.mountain.tolist() == [0, 0, 0]  # the pair took its 4


@pytest.mark.parametrize(
    ("name", "mountain", "whister", "passer"),
    [
        # 7♦ down two, whister 3 tricks, passer 2: Sochi greedy, the others gentleman's
        ("sochi", 8, 5 * 4 + 8, 8),
        ("leningrad", 16, 5 * 8 // 2 + 16, 5 * 8 // 2 + 16),
        ("rostov", 8, 5 * 4 // 2 + 8, 5 * 4 // 2 + 8),
    ],
)
def test_one_whister_failed_greedy_or_gentleman(name, mountain, whister, passer):
    w = score(NAMES[name], tricks=(5, 3, 2), contract="7♦", declarer=0, whisters=(1,))
    assert w.mountain.tolist() == [mountain, 0, 0]
    assert on_declarer(w) == [0, whister, passer]


def test_gentleman_odd_whist_goes_to_the_whister():
    odd = dataclasses.replace(ROSTOV, whist_price=(3, 4, 6, 8, 10))
    deal = PlayedDeal(tricks=(5, 3, 2), contract="6♥", declarer=0, whisters=(2,))
    w = score_deal(deal, convention=odd)
    consolation = 2
    assert on_declarer(w) == [0, 7 + consolation, 8 + consolation]


def test_both_pass_writes_no_whists():
    made = score(SOCHI, tricks=(8, 1, 1), contract="8♠", declarer=0, whisters=())
    assert made.pulya.tolist() == [6, 0, 0] and made.whists.sum() == 0
    assert made.mountain.tolist() == [0, 0, 0]  # nobody whisted, nobody is responsible
    checked_ten = score(SOCHI, tricks=(9, 1, 0), contract="10NT", declarer=0, whisters=())
    assert checked_ten.mountain.tolist() == [10, 0, 0]
    assert on_declarer(checked_ten) == [0, 10, 10]  # consolation only


@pytest.mark.parametrize(("name", "per_trick"), [("sochi", 2), ("leningrad", 2), ("rostov", 1)])
def test_lone_whister_short(name, per_trick):
    # 6♠ made with 8: the pair took 2 of the 4 owed; the lone whister answers for both.
    w = score(NAMES[name], tricks=(8, 1, 1), contract="6♠", declarer=0, whisters=(2,))
    assert w.mountain.tolist() == [0, 0, 2 * per_trick]
    assert w.pulya.tolist() == [2, 0, 0]


@pytest.mark.parametrize(
    ("tricks", "mountain"),
    [
        ((7, 3, 0), [0, 0, 2]),  # one short: the whister with 0 writes it (3 > his half of 2)
        ((9, 1, 0), [0, 2, 4]),  # three short: 1 and 2 below their halves
        ((8, 2, 0), [0, 0, 4]),  # Parlett: 2 and 0, the one with none writes both
        ((6, 4, 0), [0, 0, 0]),  # the pair took 4: nobody is short
    ],
)
def test_two_whisters_share_the_obligation(tricks, mountain):
    w = score(SOCHI, tricks=tricks, contract="6♠", declarer=0)
    assert w.mountain.tolist() == mountain


@pytest.mark.parametrize(("declarer", "first", "second"), [(0, 1, 2), (1, 2, 0), (2, 0, 1)])
def test_one_trick_obligation_falls_on_the_second_whister(declarer, first, second):
    tricks = [0, 0, 0]
    tricks[declarer] = 10
    w = score(SOCHI, tricks=tuple(tricks), contract="8♥", declarer=declarer)
    assert w.mountain[second] == 6 and w.mountain[first] == 0
    assert w.pulya[declarer] == 6


def test_one_trick_obligation_met_by_the_first_whister():
    w = score(SOCHI, tricks=(9, 1, 0), contract="9♠", declarer=0)
    assert w.mountain.tolist() == [0, 0, 0]
    assert on_declarer(w) == [0, 8, 0]


def test_both_liable_variant_and_seven():
    both = dataclasses.replace(SOCHI, odd_obligation_to_second=False)
    deal = PlayedDeal(tricks=(10, 0, 0), contract="8♠", declarer=0)
    assert score_deal(deal, convention=both).mountain.tolist() == [0, 6, 6]
    seven = PlayedDeal(tricks=(9, 1, 0), contract="7♠", declarer=0)
    assert score_deal(seven).mountain.tolist() == [0, 0, 4]  # halves of 2: one each


def test_four_players_dealer_writes_nothing():
    # seat 2 deals; seat 3 declares 7♠ and goes down one; defenders 0 then 1 in speaking order.
    deal = PlayedDeal(tricks=(2, 2, 0, 6), contract="7♠", declarer=3, dealer=2)
    assert deal.defenders == (0, 1)
    w = score_deal(deal)
    assert w.mountain.tolist() == [0, 0, 0, 4]
    assert on_declarer(w, 3) == [2 * 4 + 4, 2 * 4 + 4, 0, 0]
    assert w.pulya[2] == w.mountain[2] == w.whists[2].sum() == w.whists[:, 2].sum() == 0


def test_four_players_second_whister_skips_the_dealer():
    deal = PlayedDeal(tricks=(0, 0, 10, 0), contract="10♦", declarer=2, dealer=3)
    assert deal.defenders == (0, 1)
    assert score_deal(deal).mountain.tolist() == [0, 10, 0, 0]


def test_consolation_from_dealer_variant():
    codex = dataclasses.replace(SOCHI, consolation_from_dealer=True)
    deal = PlayedDeal(tricks=(2, 2, 0, 6), contract="7♠", declarer=3, dealer=2)
    assert on_declarer(score_deal(deal, convention=codex), 3) == [12, 12, 4, 0]


# --- misère -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "per_trick"), [("sochi", 10), ("leningrad", 20), ("rostov", 10)])
def test_misere(name, per_trick):
    conv = NAMES[name]
    made = score(conv, tricks=(0, 6, 4), contract="misère", declarer=0)
    assert made.pulya.tolist() == [10, 0, 0] and made.mountain.sum() == made.whists.sum() == 0
    for taken in (1, 3, 10):
        caught = score(conv, tricks=(taken, 10 - taken, 0), contract="мизер", declarer=0)
        assert caught.mountain.tolist() == [per_trick * taken, 0, 0]
        assert caught.pulya.sum() == caught.whists.sum() == 0


# --- all-pass ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "tricks", "round_", "pulya", "mountain"),
    [
        ("sochi", (3, 3, 4), 1, [0, 0, 0], [3, 3, 4]),
        ("sochi", (3, 3, 4), 2, [0, 0, 0], [6, 6, 8]),
        ("sochi", (3, 3, 4), 3, [0, 0, 0], [9, 9, 12]),
        ("sochi", (3, 3, 4), 7, [0, 0, 0], [9, 9, 12]),  # the progression stops at 3
        ("sochi", (0, 4, 6), 1, [1, 0, 0], [0, 4, 6]),
        ("sochi", (0, 4, 6), 3, [3, 0, 0], [0, 12, 18]),
        ("leningrad", (0, 4, 6), 1, [2, 0, 0], [0, 8, 12]),
        ("leningrad", (2, 2, 6), 2, [0, 0, 0], [8, 8, 24]),
    ],
)
def test_all_pass_into_the_mountain(name, tricks, round_, pulya, mountain):
    w = score(NAMES[name], tricks=tricks, allpass_round=round_)
    assert w.pulya.tolist() == pulya and w.mountain.tolist() == mountain
    assert w.whists.sum() == 0


def test_all_pass_rostov_whists():
    w = score(ROSTOV, tricks=(2, 3, 5))
    assert w.whists[0].tolist() == [0, 15, 25] and w.whists[1:].sum() == 0
    tie = score(ROSTOV, tricks=(3, 4, 3))
    assert tie.whists[:, 1].tolist() == [20, 0, 20] and tie.whists[:, [0, 2]].sum() == 0
    zero = score(ROSTOV, tricks=(0, 4, 6), allpass_round=3)  # no progression
    assert zero.pulya.tolist() == [1, 0, 0] and zero.whists[0].tolist() == [0, 20, 30]
    assert zero.mountain.sum() == 0
    both_zero = score(ROSTOV, tricks=(0, 10, 0))
    assert both_zero.pulya.tolist() == [1, 0, 1]
    assert both_zero.whists[:, 1].tolist() == [50, 0, 50]


def test_all_pass_four_players_dealer_sits_out():
    w = score(SOCHI, tricks=(0, 3, 3, 4), dealer=0)
    assert w.mountain.tolist() == [0, 3, 3, 4] and w.pulya.tolist() == [0, 0, 0, 0]
    r = score(ROSTOV, tricks=(2, 0, 5, 3), dealer=1)
    assert r.whists[0].tolist() == [0, 0, 25, 15] and r.whists[1:].sum() == 0


# --- settlement -------------------------------------------------------------------------------


def naive_settle(mountains, pulyas, whists, conv):
    """docs/rules.md, "Scoring", literally: pulya takes mountain points away; each player's
    mountain x 10 / n is paid to each other player; whists net pairwise."""
    n = len(mountains)
    ratio = conv.pulya_worth / conv.mountain_worth
    folded = [m - p * ratio for m, p in zip(mountains, pulyas, strict=True)]
    net = [0.0] * n
    for i in range(n):
        for j in range(n):
            if i != j:
                pay = folded[i] * conv.mountain_worth / n
                net[i] += whists[i][j] - whists[j][i] - pay
                net[j] += pay
    return net


def test_pulya_point_value():
    for n in (3, 4):
        for conv, worth in ((SOCHI, 10), (LENINGRAD, 20), (ROSTOV, 10)):
            pulya = [7] + [0] * (n - 1)
            net = settle([0] * n, pulya, np.zeros((n, n)), n, conv)
            assert net[0] == pytest.approx(worth * 7 * (n - 1) / n)
            assert net[1:] == pytest.approx([-worth * 7 / n] * (n - 1))


def test_worked_example_four_player_misere():
    made = score_deal(PlayedDeal(tricks=(0, 0, 4, 6), contract="misère", declarer=0, dealer=1))
    assert made.net().tolist() == [75.0, -25.0, -25.0, -25.0]
    for k in range(1, 11):
        deal = PlayedDeal(tricks=(k, 0, 10 - k, 0), contract="misère", declarer=0, dealer=1)
        assert score_deal(deal).net().tolist() == [-75.0 * k, 25.0 * k, 25.0 * k, 25.0 * k]


@st.composite
def writings(draw, players=None):
    n = draw(st.sampled_from([3, 4])) if players is None else players
    points = st.integers(0, 300)
    mountains = draw(st.lists(points, min_size=n, max_size=n))
    pulyas = draw(st.lists(points, min_size=n, max_size=n))
    whists = [[0 if i == j else draw(points) for j in range(n)] for i in range(n)]
    return n, mountains, pulyas, whists


@settings(max_examples=200, deadline=None)
@given(writings(), st.sampled_from(ALL))
def test_settlement_zero_sum_and_naive_twin(writing, conv):
    n, mountains, pulyas, whists = writing
    net = settle(mountains, pulyas, whists, n, conv)
    assert abs(net.sum()) < 1e-9
    assert net == pytest.approx(naive_settle(mountains, pulyas, whists, conv))
    shifted = settle([m + 5 for m in mountains], pulyas, whists, n, conv)
    assert shifted == pytest.approx(net)  # a common mountain cancels


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([3, 4]).flatmap(lambda n: st.lists(writings(n), min_size=1, max_size=5)))
def test_settlement_batch_equals_loop(batch):
    n = batch[0][0]
    mountains, pulyas, whists = (np.array([w[k] for w in batch]) for k in (1, 2, 3))
    nets = settle(mountains, pulyas, whists, n)
    for row, (_, m, p, w) in zip(nets, batch, strict=True):
        assert row == pytest.approx(settle(m, p, w, n))


def test_every_deal_settles_to_zero():
    deals = [
        PlayedDeal(tricks=(5, 3, 2), contract="7♦", declarer=0, whisters=(1,)),
        PlayedDeal(tricks=(0, 3, 3, 4), dealer=0, allpass_round=2),
        PlayedDeal(tricks=(2, 0, 5, 3), dealer=1),
        PlayedDeal(tricks=(10, 0, 0, 0), contract="8NT", declarer=0, dealer=3),
    ]
    for deal in deals:
        for conv in ALL:
            net = score_deal(deal, convention=conv).net(conv)
            assert abs(net.sum()) < 1e-9


def test_writing_arithmetic_and_immutability():
    a = score(SOCHI, tricks=(6, 2, 2), contract="6♠", declarer=0)
    b = score(SOCHI, tricks=(0, 3, 7), contract="misère", declarer=0)
    total = a + b
    assert total.pulya.tolist() == [12, 0, 0]
    assert total.net() == pytest.approx(a.net() + b.net())
    assert total == b + a and total != a and Writing.zeros(3) + a == a
    with pytest.raises(ValueError):
        a.pulya[0] = 5
    with pytest.raises(ValueError, match="players must be 3 or 4"):
        Writing([0, 0], [0, 0], np.zeros((2, 2)))
    with pytest.raises(ValueError, match="whists"):
        Writing([0, 0, 0], [0, 0, 0], np.zeros((3, 4)))


# --- shared misère ----------------------------------------------------------------------------


@pytest.mark.parametrize("inviter_dealer", [(0, 3), (2, 1), (3, 0)])
def test_shared_misere_thirds_sochi(inviter_dealer):
    inviter, dealer = inviter_dealer
    defenders = [s for s in range(4) if s not in inviter_dealer]
    made = score_shared_misere(inviter, dealer, 0).net()
    assert made[inviter] == made[dealer] == 25.0
    assert made[defenders].tolist() == [-25.0, -25.0]  # as against a solo misère
    for k in range(1, 11):
        caught = score_shared_misere(inviter, dealer, k).net()
        assert caught[inviter] == caught[dealer] == -25.0 * k
        assert caught[defenders].tolist() == [25.0 * k, 25.0 * k]


def test_shared_misere_writing_sochi():
    made = score_shared_misere(0, 3, 0)
    assert made.pulya.tolist() == [10, 0, 0, 0] and made.whists[3, 0] == 50
    assert made.whists.sum() == 50
    caught = score_shared_misere(0, 3, 3)
    assert caught.mountain.tolist() == [30, 0, 0, 0] and caught.whists[0, 3] == 150
    assert caught.whists.sum() == 150


@pytest.mark.parametrize(
    ("name", "payment", "solo_made", "solo_per_trick"),
    [("sochi", 50, 75, 75), ("leningrad", 100, 150, 150), ("rostov", 50, 75, 75)],
)
def test_shared_misere_every_convention(name, payment, solo_made, solo_per_trick):
    rules = RuleSet(players=4, scoring=name)
    assert tuple(shared_misere_payment(rules)) == (payment, payment)
    made = score_shared_misere(1, 0, 0, rules)
    assert made.whists[0, 1] == payment
    assert made.net(rules).tolist() == pytest.approx(np.array([1, 1, -1, -1]) * solo_made / 3)
    caught = score_shared_misere(1, 0, 2, rules).net(rules)
    assert caught.tolist() == pytest.approx(np.array([-1, -1, 1, 1]) * 2 * solo_per_trick / 3)


def test_sharing_payment_follows_the_data():
    dearer = dataclasses.replace(SOCHI, pulya_worth=30, misere_mountain=6)
    assert shared_misere_payment(dearer) == (150, 30)
    net = score_shared_misere(0, 1, 0, convention=dearer).net(dearer)
    assert net[0] == net[1] == pytest.approx(-net[2])
    odd = dataclasses.replace(SOCHI, pulya_worth=5, misere_value=1)  # 2.5 whists
    with pytest.raises(ValueError, match="fractional"):
        shared_misere_payment(odd)


def test_misere_net_table_and_vectorised():
    solo4 = misere_table(RuleSet(players=4))
    assert set(solo4) == {"declarer", "dealer", "defender_1", "defender_2"}
    assert solo4["declarer"].tolist() == [75.0] + [-75.0 * k for k in range(1, 11)]
    assert solo4["dealer"].tolist() == solo4["defender_1"].tolist()
    shared = misere_table(RuleSet(players=4), shared=True)
    assert shared["declarer"].tolist() == shared["dealer"].tolist()
    assert shared["defender_2"].tolist() == solo4["defender_2"].tolist()
    assert set(misere_table()) == {"declarer", "defender_1", "defender_2"}

    rng = np.random.default_rng(3)
    tricks = rng.integers(0, 11, size=(50, 4))
    nets = misere_net(tricks, RuleSet(players=4, scoring="leningrad"), shared=True)
    assert nets["declarer"].shape == (50, 4)
    for k in (0, 1, 7):
        mask = tricks == k
        solo = score_shared_misere(0, 3, k, RuleSet(players=4, scoring="leningrad"))
        assert np.all(nets["declarer"][mask] == solo.net(LENINGRAD)[0])
    total = sum(nets[role] for role in nets)
    assert np.allclose(total, 0)
    assert misere_net(2, RuleSet(players=4))["declarer"] == -150.0


# --- errors -----------------------------------------------------------------------------------


def test_errors_players():
    with pytest.raises(ValueError, match="players must be 3 or 4, got 5"):
        settle([0] * 5, [0] * 5, np.zeros((5, 5)), players=5)
    with pytest.raises(ValueError, match="3 or 4 players"):
        PlayedDeal(tricks=(5, 5))
    with pytest.raises(ValueError, match="the deal has 4 players, the rules 3"):
        score_deal(PlayedDeal(tricks=(0, 3, 3, 4), dealer=0), RuleSet(players=3))
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 4\)"):
        settle([0, 0, 0], [0, 0, 0], np.zeros((3, 3)), players=4)
    with pytest.raises(ValueError, match="whists need shape"):
        settle([0, 0, 0], [0, 0, 0], np.zeros((3, 2)))


def test_errors_tricks():
    with pytest.raises(ValueError, match=r"tricks of seat 1 must be an integer in 0\.\.10, got 11"):
        PlayedDeal(tricks=(0, 11, 0))
    with pytest.raises(ValueError, match=r"tricks of seat 0 must be an integer in 0\.\.10, got -1"):
        PlayedDeal(tricks=(-1, 5, 6))
    with pytest.raises(ValueError, match="must be an integer"):
        PlayedDeal(tricks=(2.5, 5, 2.5))
    with pytest.raises(ValueError, match="sum to 10, got 9"):
        PlayedDeal(tricks=(6, 2, 1), contract="6♠", declarer=0)
    with pytest.raises(ValueError, match=r"tricks must be 0\.\.10"):
        misere_net(np.array([0, 11]))
    with pytest.raises(ValueError, match="must be integers"):
        misere_net(np.array([0.5]))
    with pytest.raises(
        ValueError, match=r"tricks of the inviter must be an integer in 0\.\.10, got 12"
    ):
        score_shared_misere(0, 3, 12)


def test_errors_dealer():
    with pytest.raises(ValueError, match="3-player game has no sitting-out dealer, got dealer=2"):
        PlayedDeal(tricks=(3, 3, 4), dealer=2)
    with pytest.raises(ValueError, match="4-player game needs the dealer's seat"):
        PlayedDeal(tricks=(3, 3, 4, 0))
    with pytest.raises(ValueError, match=r"dealer's seat 0\.\.3, got 4"):
        PlayedDeal(tricks=(3, 3, 4, 0), dealer=4)
    with pytest.raises(ValueError, match=r"the dealer \(seat 0\) sits out"):
        PlayedDeal(tricks=(1, 3, 3, 3), dealer=0)
    with pytest.raises(ValueError, match="declarer must be an active seat"):
        PlayedDeal(tricks=(6, 0, 2, 2), contract="6♠", declarer=1, dealer=1)


def test_errors_contract_and_whist():
    with pytest.raises(ValueError, match="declarer must be an active seat"):
        PlayedDeal(tricks=(6, 2, 2), contract="6♠")
    with pytest.raises(ValueError, match="all-pass has no declarer"):
        PlayedDeal(tricks=(6, 2, 2), declarer=0)
    with pytest.raises(ValueError, match="whisters must be defenders"):
        PlayedDeal(tricks=(6, 2, 2), contract="6♠", declarer=0, whisters=(0,))
    with pytest.raises(ValueError, match="nobody whists a misère"):
        PlayedDeal(tricks=(0, 5, 5), contract=Contract.misere(), declarer=0, whisters=(1,))
    with pytest.raises(ValueError, match="allpass_round must be"):
        PlayedDeal(tricks=(3, 3, 4), allpass_round=0)
    with pytest.raises(ValueError, match="applies to an all-pass only"):
        PlayedDeal(tricks=(6, 2, 2), contract="6♠", declarer=0, allpass_round=2)
    with pytest.raises(ValueError, match="bad contract"):
        PlayedDeal(tricks=(6, 2, 2), contract="5♠", declarer=0)


def test_errors_shared_misere():
    with pytest.raises(ValueError, match=r"shared misère \(Codex 3\.6\.9\) needs 4 players, got 3"):
        score_shared_misere(0, 2, 0, RuleSet(players=3))
    with pytest.raises(ValueError, match="needs 4 players, got 3"):
        misere_net(0, RuleSet(players=3), shared=True)
    with pytest.raises(ValueError, match="inviter and dealer must be two seats"):
        score_shared_misere(1, 1, 0)
    with pytest.raises(ValueError, match="inviter and dealer must be two seats"):
        score_shared_misere(0, 4, 0)


def test_convention_type_is_data():
    assert isinstance(convention_of(Convention.ROSTOV), ScoringConvention)
