"""Euchre's register entries from the clause-by-clause reading of source 004, each reading pinned.

One test per reading of each entry added by that reading (``lone-hand-three-or-four``,
``won-tricks-face-down``), each named after the clause it reads. Expected values come from the text and
from each reading's own words in the register, never from engine output.

Seats: dealer 0, so seat 1 is left of the dealer; partnerships [0, 2] (team 0) and [1, 3] (team 1).
Kitty lists are top card first; the top card is turned up.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, trick

from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

# Seat 1 orders up the turned 9H and goes alone (seat 3 sits out); with JH, JD and AH it takes
# exactly three tricks, and its 9C and 9S lose to the dealer's KC and KS.
DEAL_LONE_THREE = {
    "dealer": 0,
    "hands": [
        ["10H", "QS", "KS", "AC", "KC"],  # seat 0, the dealer (discards QS after picking up 9H)
        ["JH", "JD", "AH", "9C", "9S"],  # seat 1, the lone maker
        ["AD", "KD", "QD", "10D", "QC"],  # seat 2
        ["AS", "JS", "10S", "10C", "JC"],  # seat 3, sits out
    ],
    "piles": {"kitty": ["9H", "KH", "QH", "9D"]},
}

# Seat 1 holds the five top hearts (the first trick: JH, AD, AS, 9H).
DEAL_MARCH = {
    "dealer": 0,
    "hands": [
        ["10H", "AC", "KC", "QC", "JC"],  # seat 0, the dealer
        ["JH", "JD", "AH", "KH", "QH"],  # seat 1
        ["AD", "KD", "QD", "10D", "9D"],  # seat 2
        ["AS", "KS", "QS", "JS", "10S"],  # seat 3
    ],
    "piles": {"kitty": ["9H", "9C", "10C", "9S"]},
}


def new_state(deal: dict[str, Any], options: dict[str, Any]) -> State:
    return Game.from_system("euchre", options).new_initial_state(seed=0, deals=[deal])


def facts(maker: bool, tricks: int, alone: bool = False) -> dict[str, Any]:
    """Every input of the score table (no lone defence)."""
    return {"maker": maker, "tricks": tricks, "alone": alone, "alone_against": False, "defend_alone": False}


def points(options: dict[str, Any], f: dict[str, Any]) -> int:
    g = Game.from_system("euchre", options)
    return sum(t.evaluate(f) for t in g.scoring.tables)


def reading(entry: str) -> Any:
    return next(a for a in load("euchre").ambiguities if a.id == entry)


# --- lone-hand-three-or-four: "If your team called trump and you win 3+: 1 point" ------------------
def play_lone_three(options: dict[str, Any]) -> list[int]:
    """Seat 1 orders up, goes alone and takes three tricks; the hand's scores by team."""
    st = new_state(DEAL_LONE_THREE, options)
    act(st, "order_up", "discard QS", "alone")
    assert st.contract.out == 1 << 3  # the lone maker's partner sits out
    assert trick(st, "JH", "10D", "9H") == 1
    assert trick(st, "JD", "QD", "10H") == 1  # the left bower is trump
    assert trick(st, "AH", "KD", "AC") == 1
    assert trick(st, "9C", "QC", "KC") == 0
    assert trick(st, "KS", "9S", "AD") == 0
    r = st.hand_results[0]
    assert r["trick_winners"] == [1, 1, 1, 0, 0] and r["maker"] == 1
    return list(r["scores"])


def test_if_your_team_called_trump_and_you_win_3_a_lone_hand_of_three_or_four_scores_one() -> None:
    """lone_three_four=one: "If your team called trump and you win 3+: 1 point" applies to a lone hand
    too (its team called trump, the loner won three or more), so 1; a lone march is still 4."""
    opts = {"lone_three_four": "one"}
    assert points(opts, facts(True, 3, alone=True)) == 1
    assert points(opts, facts(True, 4, alone=True)) == 1
    assert points(opts, facts(True, 5, alone=True)) == 4
    assert points(opts, facts(True, 4)) == 1
    assert play_lone_three(opts) == [0, 1]
    assert reading("lone-hand-three-or-four").decision == "one"


def test_if_your_team_called_trump_and_you_win_3_a_lone_hand_of_three_or_four_scores_two() -> None:
    """lone_three_four=two: the team's 1 doubled, as the lone march (4) doubles the team's march (2);
    a team's three or four tricks without going alone still score 1."""
    opts = {"lone_three_four": "two"}
    assert points(opts, facts(True, 3, alone=True)) == 2
    assert points(opts, facts(True, 4, alone=True)) == 2
    assert points(opts, facts(True, 5, alone=True)) == 4
    assert points(opts, facts(True, 4)) == 1
    assert play_lone_three(opts) == [0, 2]


def test_if_your_team_called_trump_and_you_win_3_a_lone_hand_of_three_or_four_scores_nothing() -> None:
    """lone_three_four=zero: a lone hand scores only when it wins all five; short of that neither
    the loner's team nor the defenders (one or two tricks) score."""
    opts = {"lone_three_four": "zero"}
    assert points(opts, facts(True, 3, alone=True)) == 0
    assert points(opts, facts(True, 4, alone=True)) == 0
    assert points(opts, facts(False, 1)) == 0
    assert points(opts, facts(True, 5, alone=True)) == 4
    assert points(opts, facts(True, 3)) == 1
    assert play_lone_three(opts) == [0, 0]


# --- won-tricks-face-down: "takes the cards, and keeps then in front of them" -----------------------
def after_first_trick(options: dict[str, Any]) -> State:
    """Seat 1 orders up and takes the first trick (JH, AD, AS, 9H); the dealer discarded JC."""
    st = new_state(DEAL_MARCH, options)
    act(st, "order_up", "discard JC", "pass")
    assert trick(st, "JH", "AD", "AS", "9H") == 1
    return st


def test_takes_the_cards_and_keeps_them_face_down_only_the_count_is_seen() -> None:
    """won_tricks=face_down: each seat's number of cards taken is public, the cards are not shown."""
    st = after_first_trick({"won_tricks": "face_down"})
    for viewer in range(4):
        won = st.observation(viewer)["zones"]["won"]
        assert [w["count"] for w in won] == [0, 4, 0, 0]
        assert all("cards_top_first" not in w for w in won)


def test_takes_the_cards_and_keeps_them_face_up_every_card_taken_is_seen() -> None:
    """won_tricks=face_up: every card taken stays in view of every player, the taker's or not."""
    st = after_first_trick({"won_tricks": "face_up"})
    for viewer in range(4):
        won = st.observation(viewer)["zones"]["won"]
        assert [w["count"] for w in won] == [0, 4, 0, 0]
        assert sorted(won[1]["cards_top_first"]) == sorted(["JH", "AD", "AS", "9H"])
        assert all(w["cards_top_first"] == [] for s, w in enumerate(won) if s != 1)


def test_the_new_entries_decide_the_text_and_are_no_house_rules() -> None:
    """Each new entry's decision is its option's default, and each is the text's own silence."""
    decls = load("euchre").option_decls
    for entry, option, readings in (("lone-hand-three-or-four", "lone_three_four", {"one", "two", "zero"}),
                                    ("won-tricks-face-down", "won_tricks", {"face_down", "face_up"}),
                                    ("deal-packets", "deal_packets", {"twos_then_threes", "alternating"})):
        a = reading(entry)
        assert a.option == option and set(a.readings) == readings and not a.house_rule
        assert a.decision == str(decls[option].default)


@pytest.mark.parametrize("reading,march,lone_march,three", [
    ("most_specific", 2, 4, 1), ("first", 1, 1, 1), ("cumulative", 3, 7, 1)])
def test_march_rows_overlap_each_reading(reading: str, march: int, lone_march: int, three: int) -> None:
    """"If your team called trump and you win 3+: 1 point", "...won all 5: 2 points", "If you went alone, and
    won all 5: 4 points": the narrowest row (2, 4), the first row (1), or every matching row (1 + 2 = 3;
    1 + 2 + 4 = 7, a lone march also being a march)."""
    t = Game.from_system("euchre", {"march_overlap": reading}).scoring.tables[0]
    base = {"maker": True, "alone_against": False, "defend_alone": False}
    assert t.evaluate({**base, "tricks": 5, "alone": False}) == march
    assert t.evaluate({**base, "tricks": 5, "alone": True}) == lone_march
    assert t.evaluate({**base, "tricks": 3, "alone": False}) == three


# --- farmers-hand-limit: "you can trade those 3 for the bottom 3 cards of the kitty" -------------------

# Seats 1 and 2 each hold three nines and tens; the kitty's bottom three (under the turned JD) are
# 10D, QH and JH.
DEAL_TWO_FARMERS = {
    "dealer": 0,
    "hands": [["AC", "KC", "QC", "JC", "AD"], ["9C", "10C", "9D", "KD", "QD"],
              ["9H", "10H", "9S", "AH", "KH"], ["10S", "JS", "QS", "KS", "AS"]],
    "piles": {"kitty": ["JD", "10D", "QH", "JH"]},
}


def first_farmer(option: str) -> State:
    """Seat 1, first to speak, trades 9C 10C 9D for the bottom three of the kitty (its pass)."""
    st = new_state(DEAL_TWO_FARMERS, {"farmers_hand_limit": option})
    assert st.current_player() == 1
    st.apply_name("farmers_hand 9C 10C 9D")
    assert set(st.observation(1)["my_cards"]) == {"KD", "QD", "10D", "QH", "JH"}
    assert st.current_player() == 2
    return st


def test_trade_those_3_for_the_bottom_3_once_each_hand() -> None:
    """Reading one_per_hand: after seat 1's trade, seat 2 (with 9H 10H 9S) is not offered one."""
    assert "One trade each hand" in reading("farmers-hand-limit").readings["one_per_hand"]
    st = first_farmer("one_per_hand")
    assert not [a for a in st.legal_action_names() if a.startswith("farmers_hand")]
    with pytest.raises(Exception, match="once per hand"):
        st.apply_name("farmers_hand 9H 10H 9S")


def test_trade_those_3_for_the_bottom_3_once_for_each_player() -> None:
    """Reading one_per_player: seat 2 may trade too, and takes the bottom three as they then lie: seat 1's
    9C 10C 9D, and the kitty's bottom three are now seat 2's 9H 10H 9S."""
    assert "Each player may trade once" in reading("farmers-hand-limit").readings["one_per_player"]
    st = first_farmer("one_per_player")
    st.apply_name("farmers_hand 9H 10H 9S")
    assert set(st.observation(2)["my_cards"]) == {"AH", "KH", "9C", "10C", "9D"}
    names = st.game.deck.names
    assert {names[c] for c in st.piles["kitty"][:3]} == {"9H", "10H", "9S"}  # the bottom, under the JD
    assert names[st.piles["kitty"][-1]] == "JD"


# --- canadian-loner (a house rule): "which anyone who has tried to play Euchre with a Canadian can attest to"


def partner_orders_up(option: str) -> State:
    """Seat 1 passes, seat 2 (the dealer's partner) orders up the turned JD, the dealer discards."""
    st = new_state(DEAL_TWO_FARMERS, {"canadian_loner": option, "farmers_hand": "off"})
    st.apply_name("pass")
    st.apply_name("order_up")
    st.apply_name("discard AD")
    assert st.current_player() == 2  # the maker decides on going alone
    return st


def test_the_dealers_partner_who_orders_up_chooses_freely() -> None:
    """Reading off (the text): "If you went alone" is the maker's choice, the dealer's partner's too."""
    assert "every maker may go alone or play with their partner" in reading("canadian-loner").readings["off"]
    assert sorted(partner_orders_up("off").legal_action_names()) == ["alone", "pass"]


def test_the_dealers_partner_who_orders_up_must_go_alone() -> None:
    """Reading on (the Canadian loner): the dealer's partner who orders up may only go alone; a pass is
    refused, citing the house rule's clause."""
    assert reading("canadian-loner").house_rule
    st = partner_orders_up("on")
    assert st.legal_action_names() == ["alone"]
    with pytest.raises(Exception, match="must declare 'alone'") as exc:
        st.apply_name("pass")
    assert "Canadian" in str(exc.value)
    st.apply_name("alone")
    assert st.hand_results == [] and st.contract.out == 1 << 0  # the dealer sits out


def test_the_canadian_loner_binds_only_the_dealers_partner_ordering_up() -> None:
    """Reading on: seat 1 (not the dealer's partner) who orders up, and the dealer's partner who names trump
    in the second round, still choose."""
    st = new_state(DEAL_TWO_FARMERS, {"canadian_loner": "on", "farmers_hand": "off"})
    st.apply_name("order_up")
    st.apply_name("discard AD")
    assert sorted(st.legal_action_names()) == ["alone", "pass"]
    st = new_state(DEAL_TWO_FARMERS, {"canadian_loner": "on", "farmers_hand": "off"})
    for _ in range(5):
        st.apply_name("pass")  # the first round, and seat 1 in the second
    assert st.current_player() == 2
    st.apply_name("name S")
    assert sorted(st.legal_action_names()) == ["alone", "pass"]


@pytest.mark.parametrize("packets, first, second", [
    ("twos_then_threes", [0, 1, 8, 9, 10], [2, 3, 11, 12, 13]),
    ("alternating", [0, 1, 10, 11, 12], [2, 3, 4, 13, 14])])
def test_dealt_in_groups_of_2_and_3_each_reading(packets: str, first: list[int], second: list[int]) -> None:
    """deal-packets: "usually done in groups of 2 and 3". Deck positions (top first) of the first two players'
    cards: two to each then three (the first 0, 1 and, after 4 x 2, 8, 9, 10); or two, three, two, three and
    then three, two, three, two (the first 0, 1 and, after 10 cards, 10, 11, 12; the second 2, 3, 4 and 13, 14).
    The kitty takes the last four either way."""
    g = Game.from_system("euchre", {"deal_packets": packets})
    hands, piles = g.deal.deal(list(range(24)), [1, 2, 3, 0], 4)
    assert sorted(g.deck.cards_of(hands[1])) == first and sorted(g.deck.cards_of(hands[2])) == second
    assert sorted(piles["kitty"]) == [20, 21, 22, 23]
