"""The auction: rule cases of docs/rules.md (with Codex numbers) and the kernel against the
records (prefstats.game.bidding)."""

import itertools

import numpy as np
import pytest

from prefstats.game.bidding import (
    ALL_PASS,
    PASS,
    Auction,
    AuctionError,
    auction_many,
    bid,
    can_bid,
    run_auction,
    verify_bid,
)
from prefstats.game.rules import LADDER, NO_BID, Contract, RuleSet

C = Contract.parse
MISERE = Contract.misere()
VARIANT = RuleSet(misere_overbid="third-hand-higher-nine")  # type: ignore[arg-type]


def play(actions, rules=None):
    auction = Auction.start(rules)
    for action in actions:
        auction = bid(auction, auction.to_act, None if action is None else C(action))  # type: ignore[arg-type]
    return auction


def test_first_hand_speaks_first_and_turns_rotate():
    a = Auction.start()
    assert a.to_act == 0
    a = bid(a, 0, C("6♠"))
    assert a.to_act == 1
    with pytest.raises(AuctionError, match="seat 0 may not speak now"):
        verify_bid(a, 0, C("7♠"))


def test_bids_must_be_higher_codex_3_3():
    a = play(["6♥"])
    with pytest.raises(AuctionError, match="6♦ does not beat 6♥"):
        verify_bid(a, 1, C("6♦"))
    assert not can_bid(a, 1, C("6♥"))
    assert can_bid(a, 1, C("6NT"))


def test_a_pass_is_final_and_last_bidder_declares():
    a = play(["6♠", None, "6♣"])  # third hand overbids, first raises, third passes
    a = bid(a, 0, C("6♦"))
    assert a.to_act == 2  # the second hand passed: skipped for good
    a = bid(a, 2, PASS)
    assert a.finished and a.result == (0, C("6♦"))


def test_all_pass():
    a = play([None, None, None])
    assert a.finished and a.result is None and a.highest is None


def test_two_passes_then_a_bid_ends_the_auction():
    a = play([None, None, "6♠"])
    assert a.finished and a.result == (2, C("6♠"))


def test_misere_only_as_first_bid_codex_3_3_9():
    a = play(["6♠", None, "6♣"])
    with pytest.raises(AuctionError, match=r"first bid \(Codex 3.3.9, 3.6.3\)"):
        verify_bid(a, 0, MISERE)
    assert can_bid(play([None]), 1, MISERE)


def test_only_a_nine_beats_misere_codex_3_6_4():
    a = play(["misère"])
    for contract in LADDER[: MISERE.rank + 1]:
        assert not can_bid(a, 1, contract)
    assert can_bid(a, 1, C("9♠"))
    assert not can_bid(a, 1, MISERE)  # a second misère does not beat misère (§2)


def test_nine_over_misere_stops_the_auction_codex_note_40():
    a = play(["misère", "9♠"])
    assert a.finished and a.result == (1, C("9♠"))
    with pytest.raises(AuctionError, match="over"):
        verify_bid(a, 2, C("9♣"))


def test_variant_third_hand_may_bid_a_higher_nine():
    a = play(["misère", "9♠"], VARIANT)
    assert not a.finished and a.to_act == 2
    a = bid(a, 2, C("9♣"))
    assert a.to_act == 1  # the misère bidder is out once beaten
    a = bid(a, 1, PASS)
    assert a.result == (2, C("9♣"))
    b = play(["misère", "9♠", None], VARIANT)
    assert b.result == (1, C("9♠"))


def test_misere_stands_when_nobody_holds_a_nine():
    a = play(["6♠", "misère", None])
    a = bid(a, 0, PASS)
    assert a.result == (1, MISERE)


def limits_to_contracts(row):
    return tuple(None if r == NO_BID else LADDER[r] for r in row)


@pytest.mark.parametrize("rules", [RuleSet(), VARIANT])
def test_kernel_equals_records_exhaustively(rules):
    # Every combination of the three players' limits: 27³ = 19,683 auctions.
    codes = range(NO_BID, len(LADDER))
    limits = np.array(list(itertools.product(codes, repeat=3)), dtype=np.int8)
    fast = auction_many(limits, rules)
    for row, (declarer, rank) in zip(limits, fast, strict=True):
        slow = run_auction(limits_to_contracts(row), rules)
        if slow.result is None:
            assert (declarer, rank) == (ALL_PASS, NO_BID)
        else:
            assert (declarer, rank) == (slow.result[0], slow.result[1].rank), row


def test_stronger_limit_wins_and_misere_needs_a_nine():
    limits = np.array([[LADDER.index(C("7♠")), MISERE.rank, NO_BID]])
    assert tuple(auction_many(limits)[0]) == (1, MISERE.rank)
    limits = np.array([[LADDER.index(C("9♥")), MISERE.rank, NO_BID]])
    assert tuple(auction_many(limits)[0]) == (0, LADDER.index(C("9♠")))


def test_auction_many_validates():
    with pytest.raises(ValueError, match="shape"):
        auction_many(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="ladder ranks"):
        auction_many(np.array([[0, 0, 26]]))
