"""Buck Euchre's register entries from the clause-by-clause reading of source 003, each reading pinned.

One test per reading of each entry added by that reading (``thomson-version``, ``dealer-discard``,
``won-tricks-face-down``), each named after the clause it reads. Expected values come from the text and
from each reading's own words in the register, never from engine output.

Seats: the dealer of the first hand is seat 0, so seat 1 is left of the dealer. Kitty lists are top card
first; the top card is turned up.

Deal S (10H turned):
  seat 0: 9C 10C QC KC AC    seat 1: JH JD AH 9S 10S    seat 2: JC JS QS QD 10D    seat 3: AS KS AD KD 9D
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

SYSTEM = "buck-euchre"
DEAL_S: dict[str, Any] = {
    "dealer": 0,
    "hands": [h.split() for h in ("9C 10C QC KC AC", "JH JD AH 9S 10S", "JC JS QS QD 10D", "AS KS AD KD 9D")],
    "piles": {"kitty": ["10H", "9H", "KH", "QH"]},
}


def new_state(deals: list[dict[str, Any]], options: dict[str, Any]) -> State:
    return Game.from_system(SYSTEM, options).new_initial_state(seed=1, deals=deals)


def entry(entry_id: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry_id)


# --- thomson-version: "Jack Thomson describes a version of the above game" -----------------------
def dealer_takes_and_seat2_drops(st: State) -> None:
    """Deal S: everyone passes to the dealer, who takes 10H (the maker) and discards; in the stay-or-drop
    round seat 2 drops and the others stay; the hand is played out by the first legal card each time."""
    while st.comp.kind == "turn_up_trump":
        names = st.legal_action_names()
        if st.current_player() == st.dealer and "order_up" in names:
            act(st, "order_up")
        else:
            act(st, names[0] if names[0].startswith("discard") else "pass")
    while st.comp.kind == "drop_out":
        act(st, "drop" if st.current_player() == 2 else "stay")
    hands = len(st.hand_results)
    while len(st.hand_results) == hands:
        act(st, st.legal_action_names()[0])
    assert st.hand_results[-1]["dropped_out"] == [2]


def seat2_asked_on_the_third_hand(options: dict[str, Any]) -> list[str]:
    """Seat 2 drops out on hands 1 (dealer 0) and 2 (dealer 1); on hand 3 (dealer 2) seat 3, first to speak,
    orders up, the dealer discards, seats 0 and 1 stay, and seat 2 is asked: its choices."""
    st = new_state([{**DEAL_S, "dealer": d} for d in (0, 1, 2)], options)
    dealer_takes_and_seat2_drops(st)
    dealer_takes_and_seat2_drops(st)
    assert st.dealer == 2 and not st.is_terminal()
    act(st, "order_up")
    act(st, st.legal_action_names()[0])  # the dealer's discard
    assert st.contract.maker == 3
    act(st, "stay", "stay")
    assert st.current_player() == 2
    return st.legal_action_names()


def test_a_version_of_the_above_game_eby_game_drop_out_on_any_hand() -> None:
    """no_three_drop_outs=false (the decision): Ed Eby's game as described first - seat 2, out on the two
    hands before, may drop out again on the third."""
    assert sorted(seat2_asked_on_the_third_hand({"no_three_drop_outs": False})) == ["drop", "stay"]
    assert entry("thomson-version").decision == "false" and not entry("thomson-version").house_rule


def test_a_version_of_the_above_game_thomson_no_three_consecutive_drop_outs() -> None:
    """no_three_drop_outs=true: "If you stay out for two consecutive hands, then on the next hand you must
    stay in" - seat 2, out on the two hands before, may only stay; dropping is refused."""
    assert seat2_asked_on_the_third_hand({"no_three_drop_outs": True}) == ["stay"]


# --- dealer-discard: "If it is ordered up the dealer takes it and discards a card face-down." ------
def dealer_after_order_up(options: dict[str, Any]) -> State:
    """Deal S: seat 1 orders up 10H; the dealer (seat 0) has taken it and is to discard."""
    st = new_state([DEAL_S], options)
    act(st, "order_up")
    assert st.current_player() == 0
    return st


def test_dealer_takes_it_and_discards_a_card_any_card_the_turned_one_included() -> None:
    """dealer_discard=any (the decision): "discards a card" - any of the six, 10H (just taken) included;
    after discarding 10H the dealer holds the five clubs dealt."""
    st = dealer_after_order_up({"dealer_discard": "any"})
    assert set(st.legal_action_names()) == {f"discard {c}" for c in ("9C", "10C", "QC", "KC", "AC", "10H")}
    act(st, "discard 10H")
    assert sorted(st.observation(0)["zones"]["hand"][0]["cards_top_first"]) == sorted(
        ["9C", "10C", "QC", "KC", "AC"])
    a = entry("dealer-discard")
    assert a.house_rule and a.decision == "any"


def test_dealer_takes_it_and_discards_a_card_not_the_turned_card() -> None:
    """dealer_discard=not_turned_card (a house rule): the dealer keeps 10H and discards one of the five
    dealt; discarding 10H is refused."""
    st = dealer_after_order_up({"dealer_discard": "not_turned_card"})
    assert set(st.legal_action_names()) == {f"discard {c}" for c in ("9C", "10C", "QC", "KC", "AC")}
    with pytest.raises(IllegalActionError):
        st.apply_name("discard 10H")


# --- five-tricks-unopposed: "If anyone manages to take all five tricks, they immediately win the entire game."


def unopposed_maker(option: str) -> State:
    """Deal S: seat 1 orders up the 10H (the dealer picks it up and discards), then seats 2, 3 and 0 all drop
    out (everyone_drops=maker_alone); seat 1 plays its five cards alone, so it takes every trick."""
    st = new_state([DEAL_S], {"unopposed_five": option, "everyone_drops": "maker_alone"})
    act(st, "order_up")
    act(st, next(n for n in st.legal_action_names() if n.startswith("discard")))
    while st.comp.kind == "drop_out":
        act(st, "drop")
    while not st.hand_results:
        act(st, st.legal_action_names()[0])
    r = st.hand_results[0]
    assert r["maker"] == 1 and r["dropped_out"] == [0, 2, 3] and r["trick_winners"] == [1] * 5
    return st


def test_take_all_five_tricks_wins_the_game_even_unopposed() -> None:
    """Reading wins_game: the maker took all five tricks, so the maker wins the game at once."""
    assert entry("five-tricks-unopposed").decision == "wins_game"
    assert unopposed_maker("wins_game").winners == (1,)


def test_take_all_five_tricks_wins_the_game_only_against_someone() -> None:
    """Reading opposed_only: nobody played against the maker, so the five tricks only count down the maker's
    score (25 - 5 = 20), and the match goes on."""
    st = unopposed_maker("opposed_only")
    assert st.winners is None
    assert st.hand_results[0]["totals"][1] == 20


# --- won-tricks-face-down: "The winner of a trick leads to the next." ----------------------------------
# Deal S: seat 1 orders up 10H (hearts are trump), the dealer discards 9C; seats 2, 3 and 0 stay in.
# Seat 1 leads JH, the right bower and top trump; seat 2 and seat 3 hold no heart (QS, AS), the dealer
# must follow with 10H: "A trick is won by the best trump in it", so seat 1 takes JH, QS, AS, 10H.
FIRST_TRICK = ["JH", "QS", "AS", "10H"]


def after_first_trick(option: str) -> State:
    st = new_state([DEAL_S], {"won_tricks": option})
    act(st, "order_up", "discard 9C")
    while st.comp.kind == "drop_out":
        act(st, "stay")
    assert st.current_player() == 1  # the player to dealer's left leads to the first trick
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
    """won_tricks=face_up: every card taken stays in view of every seat, the taker's or not: JH, QS, AS and
    10H lie before seat 1, nothing before the others."""
    st = after_first_trick("face_up")
    assert_won_tricks_seen(st, [0, 4, 0, 0], {1: FIRST_TRICK})
