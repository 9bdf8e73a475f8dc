"""Rule tests for Euchre (Michigan, with Farmer's Hand), source 004_945a3021da002f83.txt.

Each test is named after the clause it pins and quotes it in its docstring. Every
position is set up with an explicit deal, so the situation is exactly the one the
text describes; expected values come from the text, not from engine output.

Seats: dealer 0, so seat 1 is left of the dealer; partnerships are [0, 2] (team 0)
and [1, 3] (team 1). Kitty lists are top card first; the top card is turned up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from helpers import act, plays, suit, trick, trick_winners, up_card

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.ranking import trick_winner
from cardspec.engine.state import State

# Deal "three for the makers": seat 1 holds the three top hearts and two losers.
DEAL_THREE = {
    "dealer": 0,
    "hands": [
        ["10H", "QH", "KH", "AC", "AS"],  # seat 0, the dealer
        ["JH", "JD", "AH", "9C", "9S"],  # seat 1
        ["KC", "QC", "JC", "10C", "9D"],  # seat 2
        ["AD", "KD", "QD", "10D", "KS"],  # seat 3
    ],
    "piles": {"kitty": ["9H", "QS", "JS", "10S"]},
}

# Deal "march": seat 1 holds the five top hearts.
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

# Deal "farmer": seat 1 holds three nines/tens, seat 2 exactly two.
DEAL_FARMER = {
    "dealer": 0,
    "hands": [
        ["JH", "JD", "10H", "QH", "AC"],  # seat 0, the dealer
        ["9C", "10C", "9D", "AS", "KS"],  # seat 1: 9C 10C 9D
        ["10D", "9S", "AH", "KH", "QC"],  # seat 2: only 10D 9S
        ["JC", "QD", "KD", "AD", "JS"],  # seat 3
    ],
    "piles": {"kitty": ["9H", "KC", "10S", "QS"]},
}


def new_state(deal: dict[str, Any] = DEAL_THREE, options: dict[str, Any] | None = None,
              more_deals: Sequence[dict[str, Any]] = ()) -> tuple[Game, State]:
    """A game from an explicit deal; later hands (if any are reached) are seeded."""
    g = Game.from_system("euchre", options or {})
    return g, g.new_initial_state(seed=0, deals=[deal, *more_deals])




def cards(g: Game, mask: int) -> set[str]:
    """Names of the cards in a mask."""
    return {g.deck.names[c] for c in g.deck.cards_of(mask)}








def hearts_ordered_up(deal: dict[str, Any] = DEAL_THREE, discard: str = "10H",
                      options: dict[str, Any] | None = None,
                      alone: bool = False) -> tuple[Game, State]:
    """Seat 1 orders up the turned 9H; the dealer discards; seat 1 goes alone or not."""
    g, st = new_state(deal, options)
    act(st, "order_up", f"discard {discard}", "alone" if alone else "pass")
    return g, st


# --- card hierarchy ---------------------------------------------------------------------


def test_left_bower_follows_trump_not_its_printed_suit() -> None:
    """"for this entire hand, the “little/left” bower is considered part of the trump suit,
    and not its original/actual suit. (e.g. if Hearts is trump, the Jack of Diamonds is a
    Heart, not a Diamond.)" """
    g = Game.from_system("euchre")
    hearts = suit(g, "H")
    assert g.ranking is not None
    assert g.ranking.effective_suit(g.deck.parse("JD"), hearts) == hearts
    assert g.ranking.effective_suit(g.deck.parse("JH"), hearts) == hearts
    # "For the non-trump color, the Jacks are treated normally"
    assert g.ranking.effective_suit(g.deck.parse("JC"), hearts) == suit(g, "C")
    assert g.ranking.effective_suit(g.deck.parse("JS"), hearts) == suit(g, "S")


def test_diamond_lead_does_not_force_the_left_bower() -> None:
    """"You must play/follow the same suit that was lead if you have that suit. (Remember,
    that little bower is a trump suit now)": with hearts trump, a player whose only
    diamond is the JD is void in diamonds and may play anything."""
    g = Game.from_system("euchre")
    deal = {
        "dealer": 0,
        "hands": [
            ["10H", "AC", "KC", "QC", "JC"],
            ["AD", "KS", "QS", "9C", "10C"],
            ["JD", "AS", "KD", "QD", "10S"],  # seat 2: JD and two real diamonds
            ["JH", "AH", "KH", "QH", "9S"],
        ],
        "piles": {"kitty": ["9H", "9D", "10D", "JS"]},
    }
    st = g.new_initial_state(seed=0, deals=[deal])
    act(st, "order_up", "discard JC", "pass")
    assert st.contract.trump == suit(g, "H")
    st.apply_name("play AD")  # seat 1 leads a diamond
    assert st.current_player() == 2
    # the real diamonds must be followed; the left bower is not a diamond
    assert plays(st) == {"KD", "QD"}
    with pytest.raises(IllegalActionError):
        st.apply_name("play JD")

    # holding the JD as the only "diamond", the player is void and may play anything
    deal2 = {
        "dealer": 0,
        "hands": [
            ["10H", "AC", "KC", "QC", "JC"],
            ["AD", "KS", "QS", "9C", "10C"],
            ["JD", "AS", "JS", "10S", "9S"],  # seat 2: JD is the only diamond-faced card
            ["JH", "AH", "KH", "QH", "KD"],
        ],
        "piles": {"kitty": ["9H", "9D", "10D", "QD"]},
    }
    st = g.new_initial_state(seed=0, deals=[deal2])
    act(st, "order_up", "discard JC", "pass", "play AD")
    assert st.current_player() == 2
    assert plays(st) == {"JD", "AS", "JS", "10S", "9S"}
    st.apply_name("play AS")  # not forced to play the JD: legal


def test_trump_lead_forces_the_left_bower() -> None:
    """"You must play/follow the same suit that was lead if you have that suit. (Remember,
    that little bower is a trump suit now)": a heart (trump) lead forces a player whose
    only heart is the JD to play it."""
    g = Game.from_system("euchre")
    deal = {
        "dealer": 0,
        "hands": [
            ["10H", "AC", "KC", "QC", "JC"],
            ["QH", "KS", "QS", "9C", "10C"],  # seat 1 leads the QH
            ["JD", "AS", "KD", "QD", "10S"],  # seat 2: JD is its only heart
            ["JH", "AH", "KH", "AD", "9S"],
        ],
        "piles": {"kitty": ["9H", "9D", "10D", "JS"]},
    }
    st = g.new_initial_state(seed=0, deals=[deal])
    act(st, "order_up", "discard JC", "pass", "play QH")
    assert st.current_player() == 2
    assert plays(st) == {"JD"}
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("play KD")
    assert exc.value.source is not None  # the revoke turns on the bower: the clause that makes it a trump
    assert "bower is considered part of the trump suit" in exc.value.source.quote
    assert "JD, which counts as the led suit H" in str(exc.value)


def test_trump_hierarchy_nine_ten_queen_king_ace_left_right() -> None:
    """"The hierarchy of cards for the trump suit is as follows:
    9->10->Q->K->A->Jack of the same color->Jack of trump." """
    g = Game.from_system("euchre")
    hearts = suit(g, "H")
    order = ["9H", "10H", "QH", "KH", "AH", "JD", "JH"]
    for led in g.deck.suits:
        power = g.trick_tables(hearts, -1).power[suit(g, led)]
        values = [power[g.deck.parse(c)] for c in order]
        assert values == sorted(values) and len(set(values)) == len(values), (led, values)


def test_trump_beats_every_other_suit() -> None:
    """"When trump is involved, trump beats every other suit. So if Hearts is trump for
    the round, the 9 of Hearts beats the Ace of Spades" """
    g = Game.from_system("euchre")
    power = g.trick_tables(suit(g, "H"), -1).power[suit(g, "S")]
    trick_cards = [g.deck.parse("AS"), g.deck.parse("9H")]
    assert trick_winner(power, trick_cards) == 1


def test_plain_suit_order_jack_between_ten_and_queen() -> None:
    """"For most suits the rising value of cards is as follows 9->10->J->Q->K->A" and "the
    Jack of Spades and Jack of Clubs are still mediocre cards, beating 9 and 10 but losing
    to Q, K, and Ace of their suit." """
    g = Game.from_system("euchre")
    power = g.trick_tables(suit(g, "H"), -1).power[suit(g, "S")]
    values = [power[g.deck.parse(c)] for c in ["9S", "10S", "JS", "QS", "KS", "AS"]]
    assert values == sorted(values) and len(set(values)) == 6


def test_leading_suit_beats_non_leading_suit_unless_trump() -> None:
    """"Unless trump is involved, the leading suit always beats the non-leading suit. (e.g.
    If Hearts is trump, and I lead with the Queen of Spades, and the next player plays the
    Ace of Diamonds, my Queen is still winning" """
    g = Game.from_system("euchre")
    power = g.trick_tables(suit(g, "H"), -1).power[suit(g, "S")]
    qs, ad = g.deck.parse("QS"), g.deck.parse("AD")
    assert trick_winner(power, [qs, ad]) == 0
    # "you must be either the same suit as the leading (first) card, or be trump to win"
    assert trick_winner(power, [qs, ad, g.deck.parse("9H")]) == 2


def test_leading_suit_wins_in_actual_play() -> None:
    """"Unless trump is involved, the leading suit always beats the non-leading suit." In
    play, with hearts trump: the highest card of the led suit beats an off-suit ace, and
    its player "then lead[s] the next hand"."""
    _g, st = hearts_ordered_up(DEAL_THREE)
    # seat 1 leads the 9S; seat 2 (KC QC JC 10C 9D) has no spade and throws the 9D;
    # seat 3 follows with the KS, the dealer with the AS.
    winner = trick(st, "9S", "9D", "KS", "AS")
    assert winner == 0  # the AS, highest of the led suit
    assert st.current_player() == 0
    # seat 0 leads the AC: seat 1 follows with the 9C, seat 2 with the 10C, seat 3 (no
    # club, no trump) throws the AD: the led suit still wins.
    winner = trick(st, "AC", "9C", "10C", "AD")
    assert winner == 0


# --- calling trump ------------------------------------------------------------------------


def test_dealer_picks_up_the_turned_card_and_discards() -> None:
    """"That suit would then be trump for the round, and the dealer would then get that card
    as part of their hand, and they must choose one card in their hand to discard" """
    g, st = new_state(DEAL_THREE)
    assert st.current_player() == 1  # "The person to the left of the dealer begins."
    st.apply_name("order_up")
    assert st.contract.trump == suit(g, "H")
    assert st.contract.maker == 1
    assert st.current_player() == 0  # the dealer, to discard
    assert cards(g, st.hands[0]) == {"9H", "10H", "QH", "KH", "AC", "AS"}
    assert {n for n in st.legal_action_names()} == {
        f"discard {c}" for c in ["9H", "10H", "QH", "KH", "AC", "AS"]}
    st.apply_name("discard AC")
    assert cards(g, st.hands[0]) == {"9H", "10H", "QH", "KH", "AS"}
    assert "9H" not in {g.deck.names[c] for c in st.piles["kitty"]}


def test_pass_moves_to_the_next_player() -> None:
    """"If the first player does not want that suit to be trump, they would pass, and then
    we move to the next player (the dealer’s partner)" """
    _g, st = new_state(DEAL_THREE)
    st.apply_name("pass")
    assert st.current_player() == 2
    st.apply_name("pass")
    assert st.current_player() == 3
    st.apply_name("pass")
    assert st.current_player() == 0


def test_second_round_cannot_name_the_turned_suit() -> None:
    """"the top card on the kitty is flipped face down, and we move back to the first
    player, who may simply choose a suit except the suit that was just flipped over to be
    trump, or they can pass again." """
    g, st = new_state(DEAL_THREE)
    act(st, "pass", "pass", "pass", "pass")
    assert st.current_player() == 1
    legal = set(st.legal_action_names())
    assert legal == {"name C", "name D", "name S", "pass"}
    with pytest.raises(IllegalActionError):
        st.apply_name("name H")
    with pytest.raises(IllegalActionError):
        st.apply_name("order_up")
    st.apply_name("name S")
    assert st.contract.trump == suit(g, "S")
    assert st.contract.maker == 1
    assert cards(g, st.hands[0]) == {"10H", "QH", "KH", "AC", "AS"}  # no pick-up now


def test_screw_the_dealer_dealer_cannot_pass_in_second_round() -> None:
    """"If everyone passes the second time, the dealer may not pass, but must choose a trump
    suit (again, not the suit that was flipped over) This is called “Screw the Dealer”." """
    g, st = new_state(DEAL_THREE)
    act(st, "pass", "pass", "pass", "pass", "pass", "pass", "pass")
    assert st.current_player() == 0
    assert set(st.legal_action_names()) == {"name C", "name D", "name S"}
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("pass")
    assert exc.value.source is not None
    assert "the dealer may not pass" in exc.value.source.quote
    with pytest.raises(IllegalActionError):
        st.apply_name("name H")
    st.apply_name("name C")
    assert (st.contract.trump, st.contract.maker) == (suit(g, "C"), 0)


def test_all_pass_redeal_throws_in_the_hand_and_passes_the_deal_left() -> None:
    """"if the dealer passes a second time, you pack it up and pass the deal to the person
    on the left" (option all_pass=redeal): no score, the next dealer is seat 1."""
    second = {**DEAL_THREE, "dealer": 1}
    g, st = new_state(DEAL_THREE, {"all_pass": "redeal"}, more_deals=[second])
    act(st, "pass", "pass", "pass", "pass", "pass", "pass", "pass")
    assert st.current_player() == 0
    assert "pass" in st.legal_action_names()  # the dealer may pass under this reading
    st.apply_name("pass")
    assert len(st.hand_results) == 1
    r = st.hand_results[0]
    assert r["thrown_in"] is True
    assert r["scores"] == [0, 0]
    assert st.counters == [0, 0]
    assert st.dealer == 1
    assert st.hand_no == 1
    assert st.current_player() == 2  # left of the new dealer begins
    assert up_card(st) == g.deck.parse("9H")  # a fresh turn-up


def test_new_dealer_is_to_the_left_after_a_hand() -> None:
    """"The person to the left of the dealer is now the new dealer" """
    _g, st = hearts_ordered_up(DEAL_THREE)
    for t in [("JH", "9D", "10D", "9H"), ("JD", "10C", "QD", "QH"), ("AH", "JC", "KD", "KH"),
              ("9C", "KC", "AD", "AC"), ("AS", "9S", "QC", "KS")]:
        trick(st, *t)
    assert len(st.hand_results) == 1
    assert st.dealer == 1
    assert st.current_player() == 2


# --- Farmer's Hand -------------------------------------------------------------------------


def test_farmers_hand_trades_three_nines_and_tens_for_bottom_three_of_kitty() -> None:
    """"Farmer's Hand: During the “calling trump” period, if in your hand you have any
    combination of at least 3 9‘s and 10, you can trade those 3 for the bottom 3 cards of
    the kitty." """
    g, st = new_state(DEAL_FARMER)
    assert st.current_player() == 1
    assert "farmers_hand 9C 10C 9D" in st.legal_action_names()
    st.apply_name("farmers_hand 9C 10C 9D")
    # the bottom three of the kitty (under the turned 9H) are KC 10S QS
    assert cards(g, st.hands[1]) == {"KC", "10S", "QS", "AS", "KS"}
    kitty = {g.deck.names[c] for c in st.piles["kitty"]}
    assert kitty == {"9H", "9C", "10C", "9D"}
    # the turned card stays on top and is still offered
    assert g.deck.names[st.piles["kitty"][-1]] == "9H"
    assert up_card(st) == g.deck.parse("9H")


def test_farmers_hand_counts_as_a_pass() -> None:
    """"This is also an automatic “pass” on the trump bid as well." """
    _g, st = new_state(DEAL_FARMER)
    st.apply_name("farmers_hand 9C 10C 9D")
    assert st.current_player() == 2
    assert st.contract.trump == -1 and st.contract.maker == -1
    act(st, "pass", "pass", "pass")  # with the farmer's pass, all four have passed
    assert st.current_player() == 1
    assert set(st.legal_action_names()) == {"name C", "name D", "name S", "pass"}


def test_farmers_hand_needs_three_nines_or_tens_not_two() -> None:
    """"if in your hand you have any combination of at least 3 9‘s and 10, you can trade
    those 3": seat 2 holds only the 10D and the 9S, so it has no Farmer's Hand."""
    _g, st = new_state(DEAL_FARMER)
    st.apply_name("pass")
    assert st.current_player() == 2
    assert not [n for n in st.legal_action_names() if n.startswith("farmers_hand")]
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("farmers_hand 10D 9S QC")
    assert exc.value.source is not None
    assert "bottom 3 cards of the kitty" in exc.value.source.quote


def test_farmers_hand_trades_exactly_three() -> None:
    """"you can trade those 3 for the bottom 3 cards of the kitty": a trade of only two of
    the nines and tens is not a Farmer's Hand."""
    _g, st = new_state(DEAL_FARMER)
    with pytest.raises(IllegalActionError):
        st.apply_name("farmers_hand 9C 10C")
    with pytest.raises(IllegalActionError):
        st.apply_name("farmers_hand 9C 10C AS")


# --- going alone and scoring ------------------------------------------------------------------


def score_facts(maker: bool, tricks: int, alone: bool = False, alone_against: bool = False,
                defend_alone: bool = False) -> dict[str, Any]:
    return {"maker": maker, "tricks": tricks, "alone": alone, "alone_against": alone_against,
            "defend_alone": defend_alone}


@pytest.mark.parametrize(("facts", "points"), [
    (score_facts(True, 3), 1),
    (score_facts(True, 4), 1),
    (score_facts(False, 3), 2),
    (score_facts(False, 4), 2),
    (score_facts(False, 5), 2),
    (score_facts(True, 5), 2),
    (score_facts(True, 5, alone=True), 4),
    (score_facts(True, 3, alone=True), 1),
    (score_facts(True, 2), 0),
    (score_facts(False, 2), 0),
    (score_facts(False, 0), 0),
])
def test_score_table_one_two_two_four(facts: dict[str, Any], points: int) -> None:
    """"If your team called trump and you win 3+: 1 point / If your team did not call trump
    and you win 3+: 2 points / If your team called trump and won all 5: 2 points / If you
    went alone, and won all 5: 4 points" """
    g = Game.from_system("euchre")
    assert sum(t.evaluate(facts) for t in g.scoring.tables) == points


def test_march_overlap_first_scores_a_march_as_one() -> None:
    """"If your team called trump and you win 3+: 1 point" read first (option
    march_overlap=first): every making hand, a march included, scores 1."""
    g = Game.from_system("euchre", {"march_overlap": "first"})
    assert sum(t.evaluate(score_facts(True, 5)) for t in g.scoring.tables) == 1
    assert sum(t.evaluate(score_facts(True, 5, alone=True)) for t in g.scoring.tables) == 1
    assert sum(t.evaluate(score_facts(False, 3)) for t in g.scoring.tables) == 2


def test_makers_winning_three_tricks_score_one_point() -> None:
    """"If your team called trump and you win 3+: 1 point" (played: seat 1 orders up and
    takes the JH, JD and AH tricks, then loses two)."""
    _g, st = hearts_ordered_up(DEAL_THREE)
    assert st.current_player() == 1  # "the person to the left of the dealer begins"
    assert trick(st, "JH", "9D", "10D", "9H") == 1
    assert trick(st, "JD", "10C", "QD", "QH") == 1  # the left bower beats the queen
    assert trick(st, "AH", "JC", "KD", "KH") == 1
    assert trick(st, "9C", "KC", "AD", "AC") == 0
    assert trick(st, "AS", "9S", "QC", "KS") == 0
    r = st.hand_results[0]
    assert r["maker"] == 1
    assert r["scores"] == [0, 1]
    assert st.counters == [0, 1]


def test_euchred_makers_give_the_defenders_two_points() -> None:
    """"If your team did not call trump and you win 3+: 2 points" (played: seat 2 orders up
    hearts holding none; seat 1's team takes three tricks)."""
    g, st = new_state(DEAL_THREE)
    act(st, "pass", "order_up", "discard 10H", "pass")
    assert st.contract.maker == 2
    assert st.current_player() == 1
    for t in [("JH", "9D", "10D", "9H"), ("JD", "10C", "QD", "QH"), ("AH", "JC", "KD", "KH"),
              ("9C", "KC", "AD", "AC"), ("AS", "9S", "QC", "KS")]:
        trick(st, *t)
    assert st.hand_results[0]["trick_winners"] == [1, 1, 1, 0, 0]
    assert st.hand_results[0]["scores"] == [0, 2]
    assert g.teams[1] == (1, 3)


def march_tricks(st: State, alone: bool) -> None:
    """Seat 1 leads JH JD AH KH QH; the others follow (seat 3 sits out when alone)."""
    follows = {  # what seats 2, 3, 0 play to each lead
        "JH": ("AD", "AS", "9H"), "JD": ("KD", "KS", "10H"), "AH": ("QD", "QS", "AC"),
        "KH": ("10D", "JS", "KC"), "QH": ("9D", "10S", "QC"),
    }
    for lead in ["JH", "JD", "AH", "KH", "QH"]:
        s2, s3, s0 = follows[lead]
        seq = [lead, s2, s0] if alone else [lead, s2, s3, s0]
        assert trick(st, *seq) == 1


def test_makers_winning_all_five_score_two() -> None:
    """"If your team called trump and won all 5: 2 points" """
    _g, st = hearts_ordered_up(DEAL_MARCH, discard="JC")
    march_tricks(st, alone=False)
    assert st.hand_results[0]["scores"] == [0, 2]


def test_march_with_march_overlap_first_scores_one() -> None:
    """Option march_overlap=first: "If your team called trump and you win 3+: 1 point" is
    the first row that matches a march, so the march scores 1."""
    _g, st = hearts_ordered_up(DEAL_MARCH, discard="JC", options={"march_overlap": "first"})
    march_tricks(st, alone=False)
    assert st.hand_results[0]["scores"] == [0, 1]


def test_lone_march_scores_four() -> None:
    """"If you went alone, and won all 5: 4 points" """
    _g, st = hearts_ordered_up(DEAL_MARCH, discard="JC", alone=True)
    march_tricks(st, alone=True)
    assert st.hand_results[0]["scores"] == [0, 4]


def test_going_alone_partner_sits_out_and_tricks_have_three_cards() -> None:
    """"If you went alone, and won all 5: 4 points": the lone maker's partner (seat 3,
    opposite seat 1) sits out, so every trick has three cards."""
    g, st = hearts_ordered_up(DEAL_MARCH, discard="JC", alone=True)
    assert st.current_player() == 1
    st.apply_name("play JH")
    assert st.current_player() == 2
    st.apply_name("play AD")
    assert st.current_player() == 0  # seat 3 is skipped
    st.apply_name("play 9H")
    assert trick_winners(st) == [1]  # three cards complete the trick
    assert st.piles["trick"] == []
    assert cards(g, st.hands[3]) == {"AS", "KS", "QS", "JS", "10S"}  # never played
    with pytest.raises(IllegalActionError):
        st.apply_name("play AS")  # seat 3 cannot play


def test_going_alone_is_offered_to_the_maker_only() -> None:
    """"If you went alone": going alone belongs to the team that called trump (the spec's
    reading: the maker announces it after the dealer's exchange)."""
    _g, st = new_state(DEAL_MARCH)
    act(st, "order_up", "discard JC")
    assert st.current_player() == 1
    assert set(st.legal_action_names()) == {"alone", "pass"}


def test_game_to_ten_points_ends_the_match() -> None:
    """"The game goes until a team scores 10 points." """
    _g, st = hearts_ordered_up(DEAL_THREE)
    st.counters = [0, 9]
    for t in [("JH", "9D", "10D", "9H"), ("JD", "10C", "QD", "QH"), ("AH", "JC", "KD", "KH"),
              ("9C", "KC", "AD", "AC"), ("AS", "9S", "QC", "KS")]:
        trick(st, *t)
    assert st.counters == [0, 10]
    assert st.is_terminal()
    assert st.winners == (1, 3)
    assert st.current_player() == -1
    assert st.legal_actions() == []


def test_game_not_over_below_ten_points() -> None:
    """"The game goes until a team scores 10 points": at 9 another hand is dealt."""
    _g, st = hearts_ordered_up(DEAL_THREE)
    st.counters = [0, 8]
    for t in [("JH", "9D", "10D", "9H"), ("JD", "10C", "QD", "QH"), ("AH", "JC", "KD", "KH"),
              ("9C", "KC", "AD", "AC"), ("AS", "9S", "QC", "KS")]:
        trick(st, *t)
    assert st.counters == [0, 9]
    assert not st.is_terminal()
    assert st.hand_no == 1


def test_first_lead_passes_on_when_left_of_dealer_sits_out() -> None:
    """"Once trump has been picked, the person to the left of the dealer begins by laying out
    a card": when seat 3 goes alone, its partner seat 1 (left of the dealer) sits out, so
    the next player clockwise, seat 2, leads."""
    deal = {
        "dealer": 0,
        "hands": [
            ["10H", "AC", "KC", "QC", "JC"],
            ["AD", "KD", "QD", "10D", "9D"],
            ["AS", "KS", "QS", "JS", "10S"],
            ["JH", "JD", "AH", "KH", "QH"],
        ],
        "piles": {"kitty": ["9H", "9C", "10C", "9S"]},
    }
    g, st = new_state(deal)
    act(st, "pass", "pass", "order_up", "discard JC", "alone")
    assert st.contract.maker == 3
    assert st.current_player() == 2
    assert trick(st, "AS", "JH", "9H") == 3  # seat 2 leads, seat 3 trumps, the dealer trumps low
    assert cards(g, st.hands[1]) == {"AD", "KD", "QD", "10D", "9D"}


def test_going_alone_option_off() -> None:
    """Option going_alone=false (the text names going alone only in the score table): the
    maker is not asked, play begins at once."""
    _g, st = new_state(DEAL_MARCH, {"going_alone": False})
    act(st, "order_up", "discard JC")
    assert st.current_player() == 1
    assert all(n.startswith("play ") for n in st.legal_action_names())


@pytest.mark.parametrize(("reading", "points"), [("two", 2), ("four", 4)])
def test_euchring_a_lone_hand(reading: str, points: int) -> None:
    """"If your team did not call trump and you win 3+: 2 points": the register's
    lone-hand-euchred entry keeps that for a lone maker too (reading 'two'); 'four' pays 4."""
    g = Game.from_system("euchre", {"lone_euchre": reading})
    facts = score_facts(False, 3, alone_against=True)
    assert sum(t.evaluate(facts) for t in g.scoring.tables) == points
    assert sum(t.evaluate(score_facts(False, 3)) for t in g.scoring.tables) == 2  # no lone maker: always 2
