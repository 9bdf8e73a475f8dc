"""Register tests for Riding the Bus (source 004_945a3021da002f83.txt): one test per reading of
each ambiguity added by the clause-by-clause reading (discard-pile-view, exhausted-round-strikes,
knocker-and-exhausted), and one for the reading "5" added to strike-level.

Each test is named after the clause it pins and quotes it. Positions come from explicit deals;
the expected values come from the text and from the reading's own words, not from engine output.
The pickup pile ("stock") is listed top card first; the rest of the deck fills it in a fixed order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in "CDHS" for r in RANKS]


def deal(hands: Sequence[Sequence[str]], stock_top: Sequence[str] = (), dealer: int = 0) -> dict[str, Any]:
    """An explicit deal: the given hands, the pickup pile starting with ``stock_top``."""
    used = [c for h in hands for c in h] + list(stock_top)
    assert len(set(used)) == len(used), "a card is dealt twice"
    rest = [c for c in DECK if c not in used]
    return {"dealer": dealer, "hands": [list(h) for h in hands], "piles": {"stock": [*stock_top, *rest]}}


def new_state(options: dict[str, Any], *deals: dict[str, Any]) -> State:
    """A match under ``options`` from explicit deals (later hands, if reached, are seeded)."""
    g = Game.from_system("riding-the-bus", options)
    return g.new_initial_state(0, list(deals))


def quiet_turn(st: State, card: str) -> None:
    """Draw ``card`` from the pickup pile and discard it again: the hand is unchanged."""
    st.apply_name("draw stock")
    st.apply_name(f"discard {card}")


def reading(ambiguity: str, value: str) -> str:
    """The registered text of one reading (so that a test names a reading that exists)."""
    (a,) = [a for a in load("riding-the-bus").ambiguities if a.id == ambiguity]
    return a.readings[value]


# --- discard-pile-view: "discarding a card face up onto a “discard” pile" ---------------------------------

FOUR_HANDS = [["9H", "8H", "6C"], ["2C", "3D", "4S"], ["KS", "QS", "5D"], ["AD", "KD", "7C"]]


def three_discards(view: str) -> State:
    """Seats 1, 2 and 3 each draw a card and throw it face up: 2H, then 3S, then 5C on top."""
    st = new_state({"discard_view": view}, deal(FOUR_HANDS, stock_top=["2H", "3S", "5C"]))
    for card in ("2H", "3S", "5C"):
        quiet_turn(st, card)
    assert st.current_player() == 0
    return st


def test_discards_face_up_show_the_whole_pile() -> None:
    """"discarding a card face up onto a “discard” pile" (reading all: every card was thrown face
    up in view of all): every seat sees 5C, 3S, 2H, top first."""
    assert "Every card" in reading("discard-pile-view", "all")
    st = three_discards("all")
    for seat in range(4):
        assert st.observation(seat)["zones"]["discard"] == {"count": 3, "cards_top_first": ["5C", "3S", "2H"]}
    assert "take 9H 8H 6C" in st.legal_action_names()  # "pick up the top 3 cards"


def test_discards_face_up_on_a_squared_pile_show_the_top_card() -> None:
    """"discarding a card face up onto a “discard” pile" (reading top: the pile is squared): every
    seat sees the 5C and that three cards lie there, not the 3S and 2H below; the take of the top
    three is offered just the same."""
    assert "Only the top card" in reading("discard-pile-view", "top")
    st = three_discards("top")
    for seat in range(4):
        assert st.observation(seat)["zones"]["discard"] == {"count": 3, "cards_top_first": ["5C"]}
    assert "take 9H 8H 6C" in st.legal_action_names()
    st.apply_name("take 6C 8H 9H")  # the old hand goes back with the 9H on top
    assert st.observation(1)["zones"]["discard"] == {"count": 3, "cards_top_first": ["9H"]}


# --- exhausted-round-strikes and knocker-and-exhausted: the empty pickup pile ends the round -----------


def fifteen_hands(lowest_at: int) -> list[list[str]]:
    """Fifteen hands with no two cards of a suit in the first thirteen; the 2C 3D 4H (worth 4, the only
    hand so low) sits at seat ``lowest_at``, swapped with the 4C 5D 6H (worth 6) of seat 2."""
    hands = [[RANKS[i] + "C", RANKS[(i + 1) % 13] + "D", RANKS[(i + 2) % 13] + "H"] for i in range(13)]
    hands += [["2S", "3S", "4S"], ["5S", "6S", "7S"]]  # 9 and 18
    hands[0], hands[lowest_at] = hands[lowest_at], hands[0]
    return hands


SPADES = ["8S", "9S", "10S", "JS", "QS", "KS", "AS"]  # the whole pickup pile: 52 - 15 x 3 = 7 cards
END_ROUND = {"players": 15, "stock_exhausted": "end_round"}


def run_out_without_a_knock(exhausted_round: str) -> State:
    """Seats 1 to 7 each draw a spade and throw it back; seat 8 then finds the pickup pile empty."""
    st = new_state({**END_ROUND, "exhausted_round": exhausted_round}, deal(fifteen_hands(0), SPADES))
    for card in SPADES:
        quiet_turn(st, card)
    return st


def test_pickup_pile_runs_out_and_the_lowest_takes_a_strike() -> None:
    """"then you all lay out your cards, and the person with the lowest score receives a strike"
    (reading compare: a round ended by the empty pickup pile is scored as after a knock): seat 0,
    with 2C 3D 4H worth 4, takes the one strike."""
    assert "compared as after a knock" in reading("exhausted-round-strikes", "compare")
    st = run_out_without_a_knock("compare")
    assert len(st.hand_results) == 1
    assert st.hand_results[0]["ended_by"] == "exhausted"
    assert st.hand_results[0]["scores"] == [1] + [0] * 14
    assert st.counters == [1] + [0] * 14


def test_pickup_pile_runs_out_and_the_round_is_void() -> None:
    """"then you all lay out your cards, and the person with the lowest score receives a strike" is
    said of a knock; under reading void a round ended by the empty pickup pile gives nobody a strike,
    and the next dealer (seat 1, to the left) deals."""
    assert "nobody takes a strike" in reading("exhausted-round-strikes", "void")
    st = run_out_without_a_knock("void")
    assert len(st.hand_results) == 1
    assert st.hand_results[0]["ended_by"] == "exhausted"
    assert st.hand_results[0]["scores"] == [0] * 15
    assert st.counters == [0] * 15
    assert not st.is_terminal()
    assert st.dealer == 1
    # a lowest knocker takes nothing either
    st = run_out_after_a_knock({"exhausted_round": "void"})
    assert st.hand_results[0]["scores"] == [0] * 15


def run_out_after_a_knock(options: dict[str, Any]) -> State:
    """Seat 1 draws and throws back the 8S; seat 2 (2C 3D 4H, worth 4: the lowest) knocks; seats 3 to 8
    use six of their "1 more turn" drawing the other six spades; seat 9 then finds the pile empty."""
    st = new_state({**END_ROUND, **options}, deal(fifteen_hands(2), SPADES))
    quiet_turn(st, "8S")
    assert st.current_player() == 2
    st.apply_name("knock")
    for card in SPADES[1:]:
        quiet_turn(st, card)
    assert len(st.hand_results) == 1
    assert st.hand_results[0]["ended_by"] == "exhausted"
    return st


def test_knocker_lowest_when_the_pickup_pile_runs_out_takes_two_strikes() -> None:
    """"If the person who knocked is the lowest, they receive 2 strikes." (reading double: the
    knocker is still the knocker when the empty pickup pile ends the round)."""
    assert "still the knocker" in reading("knocker-and-exhausted", "double")
    st = run_out_after_a_knock({"knocker_after_exhaustion": "double"})
    assert st.hand_results[0]["scores"] == [0, 0, 2] + [0] * 12


def test_knocker_lowest_when_the_pickup_pile_runs_out_takes_one_strike() -> None:
    """"If the person who knocked is the lowest, they receive 2 strikes." (reading single: the round
    ended because the pile ran out, so the lowest knocker takes one strike like anyone else)."""
    assert "one strike" in reading("knocker-and-exhausted", "single")
    st = run_out_after_a_knock({"knocker_after_exhaustion": "single"})
    assert st.hand_results[0]["scores"] == [0, 0, 1] + [0] * 12


# --- strike-level, the reading "5" (the places on the bus) -------------------------------------------------


def knock_and_score(counters: list[int]) -> State:
    """Four players under strike_limit=5: seat 1 plays, seat 2 knocks, seats 3, 0 and 1 take their one
    more turn; seat 3 holds 2C 3D 4S (worth 4), the lowest hand, and starts at ``counters[3]`` strikes."""
    hands = [["9H", "8H", "6C"], ["KS", "QS", "5D"], ["AD", "KD", "7C"], ["2C", "3D", "4S"]]
    st = new_state({"strike_limit": 5}, deal(hands, stock_top=["2H", "3S", "5C", "6S"]))
    st.counters = list(counters)
    quiet_turn(st, "2H")
    st.apply_name("knock")
    for card in ("3S", "5C", "6S"):
        quiet_turn(st, card)
    assert st.hand_results[0]["scores"] == [0, 0, 0, 1]
    return st


def test_five_strikes_and_off_the_bus() -> None:
    """"Once a person gets 3 strikes they are out of the game. [or you an set a higher level if you
    want..": under the reading "5" (stand at the back, middle, front, stairs, then off) a fourth strike
    leaves the player in and a fifth puts them out."""
    assert "places on the bus" in reading("strike-level", "5")
    st = knock_and_score([0, 0, 0, 3])
    assert st.counters == [0, 0, 0, 4]
    assert st.active == [True, True, True, True]
    st = knock_and_score([0, 0, 0, 4])
    assert st.counters == [0, 0, 0, 5]
    assert st.active == [True, True, True, False]


# --- hand-value-suit: "points are only added together if the cards are the same suit" ---------------------


def knock_with_a_lone_ace(hand_value_suit: str, **options: Any) -> State:
    """Seat 1 plays a quiet turn, seat 2 knocks, seats 3, 0 and 1 take their one more turn. Seat 3 holds
    AC 2H 3H: its best suit is the lone Ace (11), its longest suit hearts (2 + 3 = 5). Seat 0 holds 9C 3D
    4S, one card of each suit: 9 under both readings. Seats 1 and 2 hold 20 (KS QS) and 21 (AD KD)."""
    hands = [["9C", "3D", "4S"], ["KS", "QS", "5D"], ["AD", "KD", "7C"], ["AC", "2H", "3H"]]
    st = new_state({"hand_value_suit": hand_value_suit, **options}, deal(hands, stock_top=["2D", "3S", "5C", "6S"]))
    quiet_turn(st, "2D")
    st.apply_name("knock")
    for card in ("3S", "5C", "6S"):
        quiet_turn(st, card)
    return st


def test_points_added_in_the_best_suit() -> None:
    """"points are only added together if the cards are the same suit" (reading best_suit: the suit that
    adds up to the most): seat 3's lone Ace is worth 11, so seat 0's 9 is the lowest and takes the strike."""
    assert "add up to the most" in reading("hand-value-suit", "best_suit")
    st = knock_with_a_lone_ace("best_suit")
    assert st.hand_results[0]["scores"] == [1, 0, 0, 0]


def test_points_added_in_the_longest_suit() -> None:
    """"points are only added together if the cards are the same suit" (reading longest_suit: the suit of
    the most cards): seat 3's two hearts make 5, below seat 0's 9, so seat 3 takes the strike."""
    assert "most cards" in reading("hand-value-suit", "longest_suit")
    st = knock_with_a_lone_ace("longest_suit")
    assert st.hand_results[0]["scores"] == [0, 0, 0, 1]


def test_the_texts_example_is_fourteen_under_both_readings() -> None:
    """"If you had a 4 of hearts, a Queen of hearts, and an Ace of Clubs, you currently have 14 points":
    hearts are both the best and the longest suit, so the example holds under each reading."""
    for value in ("best_suit", "longest_suit"):
        g = Game.from_system("riding-the-bus", {"hand_value_suit": value})
        assert g.hand_value is not None
        hand = g.deck.mask([g.deck.parse(c) for c in ("4H", "QH", "AC")])
        assert g.hand_value.points(g.hand_value.value(hand)) == 14


# --- riding-dealer-rotation: "The dealer gives each person 3 cards" (who deals the next round) -------------


@pytest.mark.parametrize(("rotation", "next_dealer"), [("left", 1), ("right", 3), ("loser", 0)])
def test_who_deals_the_next_round(rotation: str, next_dealer: int) -> None:
    """Seat 0 deals the first round and takes its strike (9 under best_suit, the lowest): reading left
    passes the deal to seat 1, reading right to seat 3, reading loser back to seat 0, who took the strike."""
    assert reading("riding-dealer-rotation", rotation)
    st = knock_with_a_lone_ace("best_suit", dealer_rotation=rotation)
    assert st.hand_results[0]["scores"] == [1, 0, 0, 0]
    assert st.dealer == next_dealer


def test_loser_deals_and_a_tie_goes_to_the_first_from_the_dealers_left() -> None:
    """Reading loser, several players tied for lowest: "If there is a tie for lowest, each person gets the
    strike"; of them, the first clockwise from the dealer's left deals. Seats 1 and 3 both hold 5 (2 and 3
    of one suit; a lone card below 5 in the others); seat 1 deals next."""
    hands = [["9C", "8C", "6D"], ["2H", "3H", "4S"], ["AD", "KD", "7C"], ["2C", "3C", "4D"]]
    st = new_state({"dealer_rotation": "loser"}, deal(hands, stock_top=["2D", "3S", "5C", "6S"]))
    quiet_turn(st, "2D")
    st.apply_name("knock")
    for card in ("3S", "5C", "6S"):
        quiet_turn(st, card)
    assert st.hand_results[0]["scores"] == [0, 1, 0, 1]
    assert st.dealer == 1


def test_the_rule_bot_knocks_in_a_hand_nobody_can_improve() -> None:
    """Seed 2575, hand 3: the four rule bots each hold three clubs worth 22 to 24 points, below the bot's 25 to
    knock, and every card drawn is worse, so each throws back what it draws; with the pickup pile reshuffled, the
    hand went on to the match's action bound (two million actions). After 20 turns a player still in, the bot
    knocks whatever it holds, and the match ends."""
    from cardspec.engine.bots import KNOCK_AFTER_TURNS
    from cardspec.engine.bulk import bot_rng, choosers

    g = Game.from_system("riding-the-bus")
    choose = choosers(g, "rule", bot_rng(2575))  # the choices simulate's bulk loop makes for seed 2575
    st = g.new_initial_state(2575)
    lengths: list[int] = []
    start = 0
    while not st.is_terminal():
        hand = st.hand_no
        st.apply(choose[st.current_player()].choose(st, st.legal_actions()))
        if st.hand_no != hand or st.is_terminal():
            lengths.append(len(st.history) - start)
            start = len(st.history)
        assert len(st.history) < 100_000  # the bot without the long-hand knock never gets out of hand 3
    assert st.winners is not None and st.hand_results[3]["ended_by"] == "knock"
    assert lengths[3] >= 2 * KNOCK_AFTER_TURNS * 4 > max(lengths[:3])  # the long-hand knock ended it
