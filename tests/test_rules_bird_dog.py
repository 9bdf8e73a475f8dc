"""Rule tests for Bird Dog (three players, to 11), source 000_9d59842f04c7ddaf.txt.

Each test is named after the clause it pins and quotes it in its docstring. Positions
come from explicit deals; expected values come from the text, not from engine output.

Seats: dealer 0, so seat 1 is left of the dealer and play goes 1, 2, 0. The undealt
pile of three is listed top card first; the top card is turned up first.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, plays, suit, trick, trick_winners, up_card

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.state import State

# 10D turned: the 10H is the Bird Dog. Seat 2 holds the 10H, one diamond and spades.
DEAL_TEN = {
    "dealer": 0,
    "hands": [
        ["QC", "KC", "AC", "JD", "9H", "JH", "QH"],  # seat 0, the dealer
        ["AD", "KD", "QD", "AH", "9C", "10C", "JC"],  # seat 1
        ["10H", "9D", "AS", "KS", "QS", "JS", "10S"],  # seat 2
    ],
    "piles": {"undealt": ["10D", "KH", "9S"]},
}

# 9D turned: the 9H is the Bird Dog. Seat 2 holds it with every high diamond.
DEAL_PAIRS = {
    "dealer": 0,
    "hands": [
        ["10H", "JH", "QH", "KH", "AH", "JS", "QS"],  # seat 0, the dealer
        ["9C", "10C", "JC", "QC", "KC", "9S", "10S"],  # seat 1
        ["9H", "AD", "KD", "QD", "JD", "10D", "AC"],  # seat 2
    ],
    "piles": {"undealt": ["9D", "KS", "AS"]},
}

# The seven tricks of DEAL_PAIRS with diamonds trump, each in playing order.
# Seat 2 wins them all and collects JC JS JH JD, QC QS QD QH, KC KD KH.
PAIRS_TRICKS = [
    ("KC", "AC", "10H"),  # seat 1 leads; seat 2 follows with the AC and wins
    ("AD", "QS", "QC"),  # then seat 2 leads, seat 0 and seat 1 follow
    ("KD", "JS", "JC"),
    ("QD", "JH", "9C"),
    ("JD", "QH", "10C"),
    ("10D", "KH", "9S"),
    ("9H", "AH", "10S"),  # the Bird Dog, led as a heart, beats the AH
]


def new_state(deal: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[Game, State]:
    """A game from an explicit deal; later hands are seeded."""
    g = Game.from_system("bird-dog-11", options or {})
    return g, g.new_initial_state(seed=0, deals=[deal])










def names(g: Game, cards: Any) -> set[str]:
    return {g.deck.names[c] for c in cards}


# --- trump and the Bird Dog ------------------------------------------------------------------


def test_ten_of_diamonds_turned_makes_ten_of_hearts_the_bird_dog() -> None:
    """"For example: If the 10 of Diamonds is face up as the potential trump determining
    card, the 10 of Hearts is the potential Bird Dog." """
    g, st = new_state(DEAL_TEN)
    assert up_card(st) == g.deck.parse("10D")
    assert st.current_player() == 1  # "The player left of the dealer has the first option"
    st.apply_name("declare")
    assert st.contract.trump == suit(g, "D")
    assert st.contract.maker == 1
    assert st.contract.tt is not None
    assert names(g, st.contract.tt.top_cards) == {"10H"}
    assert names(g, g.trick_tables(suit(g, "D"), g.deck.parse("10D")).top_cards) == {"10H"}


def test_bird_dog_is_same_colour_and_value_as_the_turned_card() -> None:
    """"The same color and the same value of the card face up is the potential highest card
    in the hand, henceforth referred to as the Bird Dog." """
    g = Game.from_system("bird-dog-11")
    for turned, bird_dog in [("9D", "9H"), ("KH", "KD"), ("AS", "AC"), ("JC", "JS")]:
        t = g.trick_tables(g.deck.suit_of[g.deck.parse(turned)], g.deck.parse(turned))
        assert names(g, t.top_cards) == {bird_dog}


def test_bird_dog_beats_every_trump() -> None:
    """"The Bird Dog is the highest card in the hand" and "The trick is taken by the player
    who plays ... if the Bird Dog was played, the Bird Dog.": seat 2, void in diamonds,
    plays the 10H on a lead of the ace of trump and wins."""
    g, st = new_state(DEAL_TEN)
    act(st, "declare", "pass", "pass", "pass")  # diamonds trump; nobody goes Nil
    assert trick(st, "KD", "9D", "JD") == 1
    st.apply_name("play AD")  # the ace of trump
    assert "10H" in plays(st)  # void in diamonds: any card may be played
    st.apply_name("play 10H")
    st.apply_name("play QC")
    assert trick_winners(st) == [1, 2]
    assert st.current_player() == 2  # the winner leads the next trick
    # in the ranking tables, the Bird Dog outranks every trump on every lead
    power = g.trick_tables(suit(g, "D"), g.deck.parse("10D")).power
    for led in range(4):
        for trump in ["9D", "10D", "JD", "QD", "KD", "AD"]:
            assert power[led][g.deck.parse("10H")] > power[led][g.deck.parse(trump)]


def test_bird_dog_retains_its_suit_and_must_follow_a_heart_lead() -> None:
    """"A player must follow the suit led at the start of the trick." and "The Bird Dog
    retains its suit and is played as such.": seat 2's only heart is the 10H, so a heart
    lead forces it; it then wins over the AH."""
    _g, st = new_state(DEAL_TEN)
    act(st, "declare", "pass", "pass", "pass", "play AH")
    assert st.current_player() == 2
    assert plays(st) == {"10H"}
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("play AS")
    assert exc.value.source is not None
    assert "must follow the suit led" in exc.value.source.quote
    st.apply_name("play 10H")
    assert trick(st, "QH") == 2


def test_bird_dog_is_not_trump_for_following() -> None:
    """"The Bird Dog retains its suit and is played as such.": it is a heart, not a
    diamond, so with diamonds led seat 2 must play its 9D and may not play the 10H."""
    _g, st = new_state(DEAL_TEN)
    act(st, "declare", "pass", "pass", "pass", "play KD")
    assert st.current_player() == 2
    assert plays(st) == {"9D"}
    with pytest.raises(IllegalActionError):
        st.apply_name("play 10H")


def test_highest_card_of_the_lead_suit_wins_without_trump() -> None:
    """"The trick is taken by the player who plays either: the highest card of the lead
    suit, or if a trump card was played the highest trump card" """
    _g, st = new_state(DEAL_PAIRS)
    act(st, "declare", "pass", "pass", "pass")  # diamonds trump, 9H the Bird Dog
    assert trick(st, "KC", "AC", "10H") == 2  # highest club; the 10H is off-suit
    assert trick(st, "AD", "QS", "QC") == 2  # no trump but the AD: highest of the lead
    assert trick(st, "KD", "JS", "JC") == 2


def test_trump_beats_the_lead_suit() -> None:
    """"if a trump card was played the highest trump card": the QD (trump) played by a
    player void in spades beats the ace of the spade lead."""
    g, st = new_state(DEAL_TEN)
    act(st, "declare", "pass", "pass", "pass")
    assert trick(st, "KD", "9D", "JD") == 1
    assert trick(st, "AD", "10H", "QC") == 2  # the Bird Dog
    # seat 2 leads the AS: seat 0 and seat 1 are void in spades; seat 1 trumps with QD
    assert trick(st, "AS", "AC", "QD") == 1
    assert g.deck.suits[st.contract.trump] == "D"


def test_all_pass_turns_the_next_card_and_left_of_dealer_declares_first() -> None:
    """"If all three players pass, the face up card is flipped face down, the next card is
    flipped face up, and again the player left of the dealer has the first option to
    declare and establish trump as the suit of the face up card." """
    g, st = new_state(DEAL_TEN)
    act(st, "pass", "pass", "pass")
    assert st.current_player() == 1
    assert up_card(st) == g.deck.parse("KH")
    assert st.contract.trump == -1
    st.apply_name("declare")
    assert st.contract.trump == suit(g, "H")
    assert st.contract.maker == 1
    assert st.contract.tt is not None
    assert names(g, st.contract.tt.top_cards) == {"KD"}


def test_all_pass_twice_third_card_fixes_trump_with_no_declarer() -> None:
    """"If all three players again pass, the face up card is flipped face down, the last
    card of the pile of three is flipped face up and establishes the trump suit and the
    Bird Dog." """
    g, st = new_state(DEAL_PAIRS)
    act(st, "pass", "pass", "pass")
    assert up_card(st) == g.deck.parse("KS")
    act(st, "pass", "pass", "pass")
    assert up_card(st) == g.deck.parse("AS")
    assert st.contract.trump == suit(g, "S")
    assert st.contract.maker == -1
    assert st.contract.tt is not None
    assert names(g, st.contract.tt.top_cards) == {"AC"}
    # trump is fixed: the Nil round begins, left of the dealer first
    assert st.current_player() == 1
    assert set(st.legal_action_names()) == {"nil", "pass"}


def test_trump_card_remains_visible_throughout_the_hand() -> None:
    """"The card determining the trump suit remains visible throughout the hand." """
    _g, st = new_state(DEAL_PAIRS)
    act(st, "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass")
    st.apply_name(st.legal_action_names()[0])  # seat 1 plays a card
    for seat in range(3):
        assert st.observation(seat)["up_card"] == "AS"
        assert st.observation(seat)["trump"] == "S"


# --- pairs and points --------------------------------------------------------------------


@pytest.mark.parametrize(("won", "pairs"), [
    (["JC", "JD"], 1),
    (["JC", "JD", "JH"], 1),
    (["JC", "JD", "JH", "JS"], 2),
    (["JC", "JD", "QC", "QD", "KC"], 2),
    (["AC", "AD", "AH", "AS"], 0),  # "Ace has no face"
    (["9C", "9D", "10H", "10S"], 0),
    (["KC", "QC", "JC"], 0),
])
def test_three_jacks_make_one_pair_four_make_two(won: list[str], pairs: int) -> None:
    """"Points are earned by winning pairs of face cards (Jack with Jack, Queen with Queen,
    King with King) – Each face card can only be used once; i.e. three Jacks creates one
    pair, four Jacks creates two pairs." """
    g = Game.from_system("bird-dog-11")
    mask = g.deck.mask(g.deck.parse(c) for c in won)
    assert g.scoring.pairs_of(g, mask) == pairs


def test_each_pair_is_worth_one_point() -> None:
    """"Each pair earned throughout the hand is worth one point." """
    g = Game.from_system("bird-dog-11")
    table = next(t for t in g.scoring.tables if t.id == "pair_points")
    assert [table.evaluate({"pairs": k, "nil_against": "none"}) for k in (0, 1, 2, 5)] == [0, 1, 2, 5]


@pytest.mark.parametrize(("facts", "bonus"), [
    ({"most_pairs": True, "maker": False, "trump_made": True}, 1),
    ({"most_pairs": True, "maker": True, "trump_made": True}, 0),
    ({"most_pairs": False, "maker": False, "trump_made": True}, 0),  # a tie, or not the most
    ({"most_pairs": False, "maker": True, "trump_made": True}, 0),
])
def test_bonus_point_for_a_hand_winner_who_did_not_declare(facts: dict[str, Any], bonus: int) -> None:
    """"If that player did not declare and establish the trump prior to the hand, they earn
    a bonus point. If they did declare the trump or there is a tie, no bonus point is
    awarded." """
    g = Game.from_system("bird-dog-11")
    table = next(t for t in g.scoring.tables if t.id == "bonus_point")
    assert table.evaluate({**facts, "nil_against": "none"}) == bonus


def test_bonus_point_when_nobody_declared() -> None:
    """"If that player did not declare ... they earn a bonus point." When the third card
    fixed trump nobody declared; under the spec's decision (bonus_without_declarer=awarded)
    the hand winner still did not declare and earns it; the other reading gives none."""
    facts = {"most_pairs": True, "maker": False, "trump_made": False, "nil_against": "none"}
    g = Game.from_system("bird-dog-11")
    table = next(t for t in g.scoring.tables if t.id == "bonus_point")
    assert table.evaluate(facts) == 1
    g = Game.from_system("bird-dog-11", {"bonus_without_declarer": "none"})
    table = next(t for t in g.scoring.tables if t.id == "bonus_point")
    assert table.evaluate(facts) == 0


def test_nil_made_plus_three_broken_minus_three() -> None:
    """"If the Nil is successful, the player going nil earns three points. If the Nil is
    broken, that player loses three points." """
    g = Game.from_system("bird-dog-11")
    table = next(t for t in g.scoring.tables if t.id == "nil_bet")
    assert table.evaluate({"nil": "made"}) == 3
    assert table.evaluate({"nil": "broken"}) == -3
    assert table.evaluate({"nil": "none"}) == 0


def play_pairs_hand(st: State) -> None:
    for t in PAIRS_TRICKS:
        assert trick(st, *t) == 2


def test_non_declaring_hand_winner_earns_pairs_plus_bonus() -> None:
    """"Each pair earned throughout the hand is worth one point." and "If that player did not
    declare and establish the trump prior to the hand, they earn a bonus point.": seat 1
    declares, seat 2 takes every trick and 5 pairs (JJ JJ QQ QQ KK) and scores 5 + 1."""
    _g, st = new_state(DEAL_PAIRS)
    act(st, "declare", "pass", "pass", "pass")
    assert st.contract.maker == 1
    play_pairs_hand(st)
    assert st.hand_results[0]["scores"] == [0, 0, 6]
    assert st.counters == [0, 0, 6]


def test_declarer_hand_winner_earns_no_bonus() -> None:
    """"If they did declare the trump or there is a tie, no bonus point is awarded.": seat 2
    declares and takes the same 5 pairs: 5 points."""
    _g, st = new_state(DEAL_PAIRS)
    act(st, "pass", "declare", "pass", "pass", "pass")
    assert st.contract.maker == 2
    assert st.current_player() == 1  # "The player to the left of the dealer begins the hand."
    play_pairs_hand(st)
    assert st.hand_results[0]["scores"] == [0, 0, 5]


def test_nil_made_earns_three_points() -> None:
    """"If a player goes Nil, they are placing a three point bet that they will win no
    tricks throughout the hand. If the Nil is successful, the player going nil earns three
    points.": seat 0 goes Nil and takes no trick."""
    _g, st = new_state(DEAL_PAIRS)
    act(st, "declare")
    # "The player left of the dealer has the first option, the option then continues
    # clockwise around the table."
    assert st.current_player() == 1
    st.apply_name("pass")
    assert st.current_player() == 2
    st.apply_name("pass")
    assert st.current_player() == 0
    st.apply_name("nil")
    play_pairs_hand(st)
    assert st.hand_results[0]["scores"] == [3, 0, 6]


def test_broken_nil_loses_three_and_pairs_still_score() -> None:
    """"If the Nil is broken, that player loses three points. Regular scoring continues with
    one point awarded for each pair acquired throughout the hand.": seat 2 goes Nil, takes
    every trick: 5 pairs + 1 bonus - 3."""
    _g, st = new_state(DEAL_PAIRS)
    act(st, "declare", "pass", "nil", "pass")
    play_pairs_hand(st)
    assert st.hand_results[0]["scores"] == [0, 0, 5 + 1 - 3]


def test_every_player_may_go_nil() -> None:
    """"Each player after the trump is established and prior to the first card being
    played has the opportunity to go Nil." (several Nils: the spec's nil_limit=any)"""
    _g, st = new_state(DEAL_PAIRS)
    act(st, "declare", "nil", "pass")
    assert st.current_player() == 0
    assert "nil" in st.legal_action_names()
    st.apply_name("nil")
    play_pairs_hand(st)
    # seat 1 declared and took no trick (nil made), seat 0 took no trick (nil made)
    assert st.hand_results[0]["scores"] == [3, 3, 6]


# --- winning the game ------------------------------------------------------------------------


def test_first_player_to_eleven_wins() -> None:
    """"The first player to earn 11 points wins the game." """
    _g, st = new_state(DEAL_PAIRS)
    st.counters = [0, 0, 10]
    act(st, "declare", "pass", "pass", "pass")
    play_pairs_hand(st)
    assert st.counters == [0, 0, 16]
    assert st.is_terminal()
    assert st.winners == (2,)


def test_below_eleven_the_game_goes_on() -> None:
    """"Be the first player to earn 11 points": at 10 another hand is dealt."""
    _g, st = new_state(DEAL_PAIRS)
    st.counters = [0, 0, 4]
    act(st, "declare", "pass", "pass", "pass")
    play_pairs_hand(st)
    assert st.counters == [0, 0, 10]
    assert not st.is_terminal()
    assert st.hand_no == 1


def test_two_players_reaching_eleven_play_another_hand() -> None:
    """"If two players reach 11 on the same hand, another hand is played including all three
    players. The player with the highest score after the hand is the winner." """
    _g, st = new_state(DEAL_PAIRS)
    st.counters = [8, 0, 10]
    act(st, "declare", "pass", "pass", "nil")  # seat 0 goes Nil and makes it: 8 + 3
    play_pairs_hand(st)
    assert st.counters == [11, 0, 16]
    assert not st.is_terminal()  # two reached 11: no winner yet
    assert st.hand_no == 1
    # the extra hand includes all three players
    assert [bin(h).count("1") for h in st.hands] == [7, 7, 7]
    assert st.active == [True, True, True]
    start = len(st.hand_results)
    while not st.is_terminal() and st.hand_no < 20:
        st.apply(st.legal_actions()[0])
    assert st.is_terminal()
    assert len(st.hand_results) > start
    best = max(st.counters)
    assert st.counters.count(best) == 1
    assert st.winners == (st.counters.index(best),)


def rotated_pairs_deal() -> dict[str, Any]:
    """DEAL_PAIRS moved one seat on, for the next dealer (seat 1): the same play follows."""
    h = DEAL_PAIRS["hands"]
    return {"dealer": 1, "hands": [h[2], h[0], h[1]], "piles": DEAL_PAIRS["piles"]}


def tied_after_extra_hand(options: dict[str, Any] | None = None) -> State:
    """Seats 0 and 2 reach 11 together (11 and 16); in the extra hand seat 0 declares and
    takes the 5 pairs (no bonus): 16 each, a tie for the highest score."""
    g = Game.from_system("bird-dog-11", options or {})
    st = g.new_initial_state(seed=0, deals=[DEAL_PAIRS, rotated_pairs_deal()])
    st.counters = [8, 0, 10]
    act(st, "declare", "pass", "pass", "nil")
    play_pairs_hand(st)
    assert st.counters == [11, 0, 16] and not st.is_terminal()
    # extra hand: dealer 1; seat 2 leads; seat 2 passes, seat 0 declares; nobody goes Nil
    assert st.dealer == 1 and st.current_player() == 2
    act(st, "pass", "declare", "pass", "pass", "pass")
    assert st.contract.maker == 0
    for t in PAIRS_TRICKS:
        assert trick(st, *t) == 0
    assert st.hand_results[-1]["scores"] == [5, 0, 0]
    assert st.counters == [16, 0, 16]
    return st


def test_tie_after_the_extra_hand_plays_another_hand() -> None:
    """"The player with the highest score after the hand is the winner.": two players tied
    for the highest score after the extra hand have no single winner; under the spec's
    decision (extra_hand_tie=another_hand) a further hand is played."""
    st = tied_after_extra_hand()
    assert not st.is_terminal()
    assert st.hand_no == 2


def test_tie_after_the_extra_hand_shared_win_option() -> None:
    """Option extra_hand_tie=shared_win: "The player with the highest score after the hand
    is the winner." read as both tied players winning."""
    st = tied_after_extra_hand({"extra_hand_tie": "shared_win"})
    assert st.is_terminal()
    assert st.winners == (0, 2)
