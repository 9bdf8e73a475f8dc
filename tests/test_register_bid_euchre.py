"""Bid Euchre's register entries from the clause-by-clause reading of source 004, each reading pinned.

One test per reading of each entry added by that reading (``no-trump-bids``, ``lowest-bid``, both house
rules), each named after the clause it reads, and one for the house-rule mark now carried by
``sinking-scores``. Expected values come from the text and from each reading's own words in the register,
never from engine output.

Seats: dealer 0, so seat 1 bids first; partnerships [0, 2] (team 0) and [1, 3] (team 1).

The deal (each seat's first two cards in the tricks below; the rest as in test_rules_bid_euchre's hand
"made"): trick 1, led by seat 1: JH#1, 9H#1, 9H#2, 10H#1; trick 2, led by the winner of trick 1:
10H#2, QH#1 (seat 2), JH#2 (seat 3), QH#2 (seat 0).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, trick

from cardspec.engine.errors import IllegalActionError, InvalidActionError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "bid-euchre"

# (leader, cards in playing order); each seat's twelve cards are the cards it plays.
PLAN: list[tuple[int, list[str]]] = [
    (1, ["JH#1", "9H#1", "9H#2", "10H#1"]),
    (1, ["10H#2", "QH#1", "JH#2", "QH#2"]),
    (3, ["JD#1", "KH#1", "KH#2", "AH#1"]),
    (3, ["9C#1", "10C#1", "AC#1", "JC#1"]),
    (1, ["AC#2", "9C#2", "10C#2", "JC#2"]),
    (1, ["QC#1", "QC#2", "KC#1", "KC#2"]),
    (3, ["AS#1", "9S#1", "9S#2", "10S#1"]),
    (3, ["10S#2", "AS#2", "JS#1", "JS#2"]),
    (0, ["QS#1", "QS#2", "KS#1", "KS#2"]),
    (2, ["9D#1", "10D#1", "AD#1", "9D#2"]),
    (0, ["10D#2", "QD#1", "AD#2", "QD#2"]),
    (2, ["KD#1", "JD#2", "AH#2", "KD#2"]),
]


def the_deal() -> dict[str, Any]:
    hands: list[list[str]] = [[], [], [], []]
    for leader, cards in PLAN:
        for i, c in enumerate(cards):
            hands[(leader + i) % 4].append(c)
    return {"dealer": 0, "hands": hands, "piles": {}}


def new_state(options: dict[str, Any]) -> tuple[Game, State]:
    g = Game.from_system(SYSTEM, options)
    return g, g.new_initial_state(seed=0, deals=[the_deal()])


def entry(entry_id: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry_id)


# --- no-trump-bids: "saying how many tricks ..., and what suit they’d like trump to be" --------------
def test_what_suit_they_would_like_trump_to_be_every_bid_names_a_suit() -> None:
    """no_trump_bids=false (the decision): no bid names no trump; seat 1 bids 6 hearts and the hand has
    trumps and bowers: in trick 2 seat 3's JH#2 (the right bower) beats both queens of hearts."""
    g, st = new_state({"no_trump_bids": False})
    assert not any(n.endswith(" NT") for n in st.legal_action_names())
    with pytest.raises(InvalidActionError):
        g.parse_action("bid 6 NT")
    act(st, "bid 6 H", "pass", "pass", "pass")
    assert st.current_player() == 1
    assert trick(st, *PLAN[0][1]) == 1
    assert trick(st, *PLAN[1][1]) == 3
    a = entry("no-trump-bids")
    assert a.house_rule and a.decision == "false"


def test_what_suit_they_would_like_trump_to_be_or_no_trump_house_rule() -> None:
    """no_trump_bids=true: a bid may name no trump; seat 1 bids 6 no trump and leads; with no trumps and no
    bowers JH#2 is a plain jack, so in trick 2 the first queen of hearts laid, seat 2's QH#1, wins
    (A-K-Q-J-10-9, "the card laid first is higher")."""
    _g, st = new_state({"no_trump_bids": True})
    assert {"bid 1 NT", "bid 6 NT", "bid 12 NT"} <= set(st.legal_action_names())
    act(st, "bid 6 NT", "pass", "pass", "pass")
    assert st.contract.maker == 1 and st.contract.trump < 0 and st.current_player() == 1
    assert trick(st, *PLAN[0][1]) == 1
    assert trick(st, *PLAN[1][1]) == 2


# --- lowest-bid: "Seriously, bid 1 at the least" ------------------------------------------------------
def test_bid_1_at_the_least_one_is_the_lowest_bid() -> None:
    """min_bid=1 (the decision): the first bidder may bid one; a dealer forced to bid the minimum
    (forced_bid=minimum) bids one in a suit of its choice."""
    _g, st = new_state({"min_bid": 1})
    assert {"bid 1 C", "bid 2 H"} <= set(st.legal_action_names())
    _g, st = new_state({"min_bid": 1, "forced_bid": "minimum"})
    act(st, "pass", "pass", "pass")
    assert st.current_player() == 0
    assert st.legal_action_names() == ["bid 1 C", "bid 1 D", "bid 1 H", "bid 1 S"]
    a = entry("lowest-bid")
    assert a.house_rule and a.decision == "1"


def test_bid_1_at_the_least_house_floor_of_three() -> None:
    """min_bid=3 (a house rule): the lowest bid is three - bids of one or two are refused - and a dealer
    forced to bid the minimum bids three."""
    _g, st = new_state({"min_bid": 3})
    names = st.legal_action_names()
    assert "bid 3 C" in names and not any(n.split()[1] in ("1", "2") for n in names if n != "pass")
    with pytest.raises((IllegalActionError, InvalidActionError)):
        st.apply_name("bid 2 H")
    _g, st = new_state({"min_bid": 3, "forced_bid": "minimum"})
    act(st, "pass", "pass", "pass")
    assert st.legal_action_names() == ["bid 3 C", "bid 3 D", "bid 3 H", "bid 3 S"]


# --- sinking-scores: a floor is a house rule ------------------------------------------------------------
def test_negative_your_bid_a_losing_floor_is_a_house_rule() -> None:
    """The text's only end is "The first team to a predetermined score (e.g. 50) wins"; its floors are
    registered as house rules, and the decision (no floor) is the text."""
    a = entry("sinking-scores")
    assert a.house_rule and a.decision == "none" and set(a.readings) == {"none", "-25", "-50", "-100"}


# --- bidding-rounds (a house rule): "This continues around the table until we get to the dealer, who bids or
# passes like everyone else." ---------------------------------------------------------------------------------


def outbid_then_two_passes(option: str) -> State:
    """Seat 1 bids 1 H, seat 2 bids 2 H, seats 3 and 0 (the dealer) pass."""
    _, st = new_state({"bidding_end": option})
    for text in ("bid 1 H", "bid 2 H", "pass", "pass"):
        st.apply_name(text)
    return st


def test_until_we_get_to_the_dealer_one_round_of_bidding() -> None:
    """Reading one_round (the text): the dealer's pass ends the bidding; seat 2's 2 H stands and seat 1,
    outbid, does not bid again (the next actions are the going-alone question or play)."""
    assert entry("bidding-rounds").decision == "one_round"
    st = outbid_then_two_passes("one_round")
    assert st.contract.maker == 2
    assert not any(a.startswith("bid ") for a in st.legal_action_names())


def test_until_three_pass_in_a_row_the_outbid_player_bids_again() -> None:
    """Reading until_three_pass (a house rule): after 2 H only two players passed, so seat 1 may bid again,
    above 2; three passes in a row then end it."""
    assert entry("bidding-rounds").house_rule
    st = outbid_then_two_passes("until_three_pass")
    assert st.current_player() == 1
    names = st.legal_action_names()
    assert "bid 3 S" in names and "bid 2 S" not in names and "pass" in names
    st.apply_name("bid 3 S")
    for _ in range(3):
        st.apply_name("pass")
    assert st.contract.maker == 1
    assert not any(a.startswith("bid ") for a in st.legal_action_names())
