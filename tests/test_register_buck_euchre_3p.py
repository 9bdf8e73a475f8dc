"""Three Player Buck Euchre's register entries from the clause-by-clause reading of source 003, each reading
pinned.

One test per reading of each entry added by that reading (``forced-dealer-bid``, ``no-trump-drop``,
``drop-order``, ``won-tricks-face-down``), each named after the clause it reads. Expected values come from
the text and from each reading's own words in the register, never from engine output.

Seats: dealer 0 (seed 4), so seat 1 is left of the dealer (first to bid, first to lead) and seat 2 right of
the dealer; the widow is offered to seats 2, 0, 1 and declined by all in these tests.

Deal B:
  seat 0: 10H QH AS KS AD     seat 1: JH AH 9C 9S 9D     seat 2: KH JD AC KC QC
  widow: 10C JC 10D QD KD     spare (out of play): 10S JS QS 9H
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, assert_won_tricks_entry, assert_won_tricks_seen, trick

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "buck-euchre-3p"
SEED = 4  # seat 0 deals first
DEAL_B: dict[str, Any] = {
    "dealer": 0,
    "hands": [["10H", "QH", "AS", "KS", "AD"], ["JH", "AH", "9C", "9S", "9D"], ["KH", "JD", "AC", "KC", "QC"]],
    "piles": {"widow": ["10C", "JC", "10D", "QD", "KD"], "spare": ["10S", "JS", "QS", "9H"]},
}


def after_widow(options: dict[str, Any]) -> State:
    """Deal B; seats 2, 0 and 1 decline the widow, so the bidding starts with seat 1."""
    st = Game.from_system(SYSTEM, options).new_initial_state(seed=SEED, deals=[DEAL_B])
    act(st, "pass", "pass", "pass")
    assert st.comp.kind == "auction" and st.current_player() == 1
    return st


def entry(entry_id: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry_id)


# --- forced-dealer-bid: 'The lowest possible bid is "one".' ------------------------------------------
def test_lowest_possible_bid_is_one_forced_dealer_may_bid_any_number() -> None:
    """forced_bid=any (the decision): seats 1 and 2 pass with no bid; the dealer must bid (nobody-bids) and
    may bid any number from one to the highest bid, ten (max_bid's default)."""
    st = after_widow({"forced_bid": "any"})
    act(st, "pass", "pass")
    assert st.current_player() == 0
    assert st.legal_action_names() == [f"bid {k}" for k in range(1, 11)]
    act(st, "bid 4")
    assert st.current_player() == 1  # "the bidding then goes on as usual"
    a = entry("forced-dealer-bid")
    assert a.decision == "any" and not a.house_rule


def test_lowest_possible_bid_is_one_forced_dealer_bids_one() -> None:
    """forced_bid=minimum: the forced dealer must bid one, the lowest possible bid; a higher bid is refused,
    and the bidding goes on."""
    st = after_widow({"forced_bid": "minimum"})
    act(st, "pass", "pass")
    assert st.legal_action_names() == ["bid 1"]
    with pytest.raises(IllegalActionError):
        st.apply_name("bid 4")
    act(st, "bid 1")
    assert st.current_player() == 1 and "bid 2" in st.legal_action_names()


# --- no-trump-drop: "names the trump suit or announces that there are no trumps. Then each ..." -------
def after_no_trumps(options: dict[str, Any]) -> State:
    """Seat 1 bids one, seats 2 and 0 pass (two in succession), and seat 1 announces no trumps."""
    st = after_widow(options)
    act(st, "bid 1", "pass", "pass", "name NT")
    assert st.contract.maker == 1 and st.contract.trump < 0
    return st


def test_announces_no_trumps_then_the_others_may_still_drop_out() -> None:
    """no_trump_drop=allowed (the decision): after "no trumps" the others are asked, from the bidder's left:
    seat 2 first, and it may drop out."""
    st = after_no_trumps({"no_trump_drop": "allowed"})
    assert st.comp.kind == "drop_out" and st.current_player() == 2
    assert sorted(st.legal_action_names()) == ["drop", "stay"]


def test_announces_no_trumps_then_nobody_may_drop_out() -> None:
    """no_trump_drop=forbidden: as in an Ohio hand without trumps nobody is asked; the play begins at once
    with the player to the dealer's left, seat 1, to lead."""
    st = after_no_trumps({"no_trump_drop": "forbidden"})
    assert st.comp.kind == "tricks" and st.current_player() == 1
    assert not any(n in ("stay", "drop") for n in st.legal_action_names())


# --- drop-order: "Then each of the other players in turn announces whether they will play or drop out." -
def asked_in_turn(options: dict[str, Any]) -> list[int]:
    """Seat 1 passes, seat 2 (the dealer's right) bids one, seats 0 and 1 pass, seat 2 names hearts; the
    two others both play: the seats asked, in order."""
    st = after_widow(options)
    act(st, "pass", "bid 1", "pass", "pass", "name H")
    assert st.contract.maker == 2
    asked = []
    while st.comp.kind == "drop_out":
        asked.append(st.current_player())
        act(st, "stay")
    return asked


def test_each_of_the_other_players_in_turn_from_the_bidders_left() -> None:
    """drop_order=maker_left (the decision): the player to the high bidder's (seat 2's) left, seat 0, is
    asked first, then seat 1."""
    assert asked_in_turn({"drop_order": "maker_left"}) == [0, 1]
    assert entry("drop-order").decision == "maker_left"


def test_each_of_the_other_players_in_turn_from_the_dealers_left() -> None:
    """drop_order=dealer_left: the bidding order from the dealer's left, the bidder skipped: seat 1 first,
    then seat 0."""
    assert asked_in_turn({"drop_order": "dealer_left"}) == [1, 0]


# --- won-tricks-face-down: "The winner of a trick leads to the next." (the Ohio play, kept here) --------
# Deal B: seat 1 bids one, seats 2 and 0 pass, seat 1 names hearts; seats 2 and 0 play. Seat 1, left of the
# dealer, leads JH, the right bower and top trump; seat 2 follows with KH, the dealer with 10H: "A trick is
# won by the best trump in it", so seat 1 takes JH, KH, 10H (three cards, one trick).
FIRST_TRICK = ["JH", "KH", "10H"]


def after_first_trick(option: str) -> State:
    st = after_widow({"won_tricks": option})
    act(st, "bid 1", "pass", "pass", "name H")
    while st.comp.kind == "drop_out":
        act(st, "stay")
    assert st.current_player() == 1
    assert trick(st, *FIRST_TRICK) == 1
    assert st.current_player() == 1  # "The winner of a trick leads to the next."
    return st


def test_the_winner_of_a_trick_keeps_it_face_down_only_the_count_is_seen() -> None:
    """won_tricks=face_down (the decision): to the taker (seat 1) and to the two other seats alike, seat 1
    holds the three cards of one trick and the others none; no card taken is shown, not even to the taker."""
    st = after_first_trick("face_down")
    assert_won_tricks_seen(st, [0, 3, 0], None)
    assert_won_tricks_entry(SYSTEM)


def test_the_winner_of_a_trick_keeps_it_face_up_every_card_taken_is_seen() -> None:
    """won_tricks=face_up: every card taken stays in view of every seat, the taker's or not: JH, KH and 10H
    lie before seat 1, nothing before the others."""
    st = after_first_trick("face_up")
    assert_won_tricks_seen(st, [0, 3, 0], {1: FIRST_TRICK})
