"""Dirty Clubs' register entries from the clause-by-clause reading of source 003, each reading pinned.

One test per reading of each entry added by that reading (``five-tricks``, ``forced-dealer-bid``,
``won-tricks-face-down``), each named after the clause it reads. Expected values come from the text and
from each reading's own words in the register, never from engine output.

Seats: dealer 0, so seat 1 is left of the dealer: first to bid and first to lead. Kitty lists are top card
first; the top card is turned up.

Deal F (9C turned: clubs are trump at once; seat 1 holds the five top clubs):
  seat 0: 9H 10H QH KH AH    seat 1: JC JS AC KC QC    seat 2: 9S 10S QS KS AS    seat 3: JH JD AD KD QD
  kitty: 9C 10C 9D 10D
Deal T (10H turned):
  seat 0: 9C 10C QC KC AC    seat 1: JH AH 9S 10S 9D    seat 2: JC JS QS QD 10D    seat 3: JD AS KS AD KD
  kitty: 10H 9H KH QH
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, assert_won_tricks_entry, assert_won_tricks_seen, trick

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "dirty-clubs"


def deal(hands: list[str], kitty: str) -> dict[str, Any]:
    return {"dealer": 0, "hands": [h.split() for h in hands], "piles": {"kitty": kitty.split()}}


DEAL_F = deal(["9H 10H QH KH AH", "JC JS AC KC QC", "9S 10S QS KS AS", "JH JD AD KD QD"], "9C 10C 9D 10D")
DEAL_T = deal(["9C 10C QC KC AC", "JH AH 9S 10S 9D", "JC JS QS QD 10D", "JD AS KS AD KD"], "10H 9H KH QH")


def new_state(deal_: dict[str, Any], options: dict[str, Any]) -> State:
    return Game.from_system(SYSTEM, options).new_initial_state(seed=1, deals=[deal_])


def entry(entry_id: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry_id)


# --- five-tricks: "In this version, winning five tricks just allows you to subtract five points" -------
def seat1_takes_all_five(options: dict[str, Any]) -> State:
    """Deal F: clubs are trump (no bidding, nobody drops); seat 1 leads the five top clubs and takes every
    trick; the others stayed in with no trick."""
    st = new_state(DEAL_F, options)
    for t in (["JC", "9S", "JH", "9H"], ["JS", "10S", "JD", "10H"], ["AC", "QS", "AD", "QH"],
              ["KC", "KS", "KD", "KH"], ["QC", "AS", "QD", "AH"]):
        assert trick(st, *t) == 1
    return st


def test_winning_five_tricks_wins_the_whole_game_as_in_buck_euchre() -> None:
    """five_tricks=win_game (the decision): "If anyone manages to take all five tricks, they immediately win
    the entire game" - seat 1, at 20 - 5 = 15, wins at once; the three others add five for no trick."""
    st = seat1_takes_all_five({"five_tricks": "win_game"})
    assert st.is_terminal() and st.winners == (1,)
    assert st.counters == [25, 15, 25, 25]
    assert entry("five-tricks").decision == "win_game"


def test_winning_five_tricks_just_allows_you_to_subtract_five_points() -> None:
    """five_tricks=five_points: seat 1 only subtracts five (20 - 5 = 15, above zero), so nobody has won and
    another hand is dealt."""
    st = seat1_takes_all_five({"five_tricks": "five_points"})
    assert not st.is_terminal() and st.winners is None
    assert st.counters == [25, 15, 25, 25] and len(st.hand_results) == 1


# --- forced-dealer-bid: "The minimum bid is one" (with no_bid=dealer_must_bid) ------------------------
def dealer_forced(options: dict[str, Any]) -> State:
    """Deal T (10H turned, so there is bidding): seats 1, 2 and 3 pass; the dealer may not pass."""
    st = new_state(DEAL_T, {"no_bid": "dealer_must_bid", **options})
    act(st, "pass", "pass", "pass")
    assert st.current_player() == 0
    with pytest.raises(IllegalActionError):
        st.apply_name("pass")
    return st


def test_the_minimum_bid_is_one_forced_dealer_may_bid_any_number() -> None:
    """forced_bid=any (the decision): the forced dealer may bid from one to five (max_bid's default), and
    then names trump."""
    st = dealer_forced({"forced_bid": "any"})
    assert st.legal_action_names() == [f"bid {k}" for k in range(1, 6)]
    act(st, "bid 3")
    assert st.current_player() == 0 and "name H" in st.legal_action_names()
    a = entry("forced-dealer-bid")
    assert a.only_with and a.with_options == {"no_bid": "dealer_must_bid"} and a.decision == "any"


def test_the_minimum_bid_is_one_forced_dealer_bids_one() -> None:
    """forced_bid=minimum: the forced dealer must bid one, the minimum; three is refused."""
    st = dealer_forced({"forced_bid": "minimum"})
    assert st.legal_action_names() == ["bid 1"]
    with pytest.raises(IllegalActionError):
        st.apply_name("bid 3")


# --- won-tricks-face-down: "The winner of a trick leads to the next." (the play "as in Buck Euchre") ------
# Deal F: clubs are trump at once; seat 1 leads JC, the right bower and top trump, against 9S, JH and 9H (no
# club among them): "A trick is won by the best trump in it", so seat 1 takes JC, 9S, JH, 9H.
FIRST_TRICK = ["JC", "9S", "JH", "9H"]


def after_first_trick(option: str) -> State:
    st = new_state(DEAL_F, {"won_tricks": option})
    assert trick(st, *FIRST_TRICK) == 1
    assert st.current_player() == 1  # "The winner of a trick leads to the next."
    return st


def test_the_winner_of_a_trick_keeps_it_face_down_only_the_count_is_seen() -> None:
    """won_tricks=face_down (the decision): to the taker (seat 1) and to every other seat alike, seat 1
    holds the four cards of one trick and the others none; no card taken is shown, not even to the taker."""
    st = after_first_trick("face_down")
    assert_won_tricks_seen(st, [0, 4, 0, 0], None)
    assert_won_tricks_entry(SYSTEM)


def test_the_winner_of_a_trick_keeps_it_face_up_every_card_taken_is_seen() -> None:
    """won_tricks=face_up: every card taken stays in view of every seat, the taker's or not: JC, 9S, JH and
    9H lie before seat 1, nothing before the others."""
    st = after_first_trick("face_up")
    assert_won_tricks_seen(st, [0, 4, 0, 0], {1: FIRST_TRICK})
