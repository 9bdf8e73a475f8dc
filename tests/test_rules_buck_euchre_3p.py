"""Rule tests for Three Player Buck Euchre (the Columbus game), source 003_da241fe61ee7e3bf.txt
(section "Three Player Buck Euchre", and the Ohio game's clauses it keeps).

Each test is named after the clause it pins and quotes it. Positions come from explicit deals, and
expected values are worked out by hand from the text.

Seats: dealer 0 (seed 4 makes seat 0 the first dealer), so seat 1 is left of the dealer and seat 2 right
of the dealer. The widow is asked of seat 2, then 0, then 1; the bidding starts with seat 1.

Deal B (planned trick by trick, hearts trump named by seat 1, seat 1 leads as left of the dealer):
  seat 0: 10H QH AS KS AD     seat 1: JH AH 9C 9S 9D     seat 2: KH JD AC KC QC
  widow: 10C JC 10D QD KD     spare (out of play): 10S JS QS 9H
  T1 seat 1 JH (right bower), seat 2 must follow trump: KH (or the left bower JD), seat 0 10H -> seat 1
  T2 seat 1 AH, seat 2 JD (the left bower, above the ace), seat 0 QH -> seat 2
  T3 seat 2 AC, seat 0 (no club) AS, seat 1 9C -> seat 2 (no trump played, the ace of the led suit)
  T4 seat 2 KC, seat 0 KS, seat 1 (no club) 9S -> seat 2
  T5 seat 2 QC, seat 0 AD, seat 1 9D -> seat 2
  Tricks: seat 0: 0, seat 1: 1, seat 2: 4.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, plays, trick, trick_winners

from cardspec.engine.components.auction import Auction
from cardspec.engine.components.widow_exchange import WidowExchange
from cardspec.engine.errors import IllegalActionError, InvalidActionError
from cardspec.engine.game import Game
from cardspec.engine.state import State

SEED = 4  # seat 0 deals first
SYSTEM = "buck-euchre-3p"

DEAL_B: dict[str, Any] = {
    "dealer": 0,
    "hands": [["10H", "QH", "AS", "KS", "AD"], ["JH", "AH", "9C", "9S", "9D"], ["KH", "JD", "AC", "KC", "QC"]],
    "piles": {"widow": ["10C", "JC", "10D", "QD", "KD"], "spare": ["10S", "JS", "QS", "9H"]},
}
TRICKS_B = [["JH", "KH", "10H"], ["AH", "JD", "QH"], ["AC", "AS", "9C"], ["KC", "KS", "9S"], ["QC", "AD", "9D"]]
"""Deal B's tricks, each in playing order (leader first)."""

# Deal M: seat 1 holds five trumps in hearts (JH JD AH KH QH) and takes every trick.
DEAL_M: dict[str, Any] = {
    "dealer": 0,
    "hands": [["9S", "10S", "QS", "KS", "AS"], ["JH", "JD", "AH", "KH", "QH"], ["9C", "10C", "QC", "KC", "AC"]],
    "piles": {"widow": ["9D", "10D", "QD", "KD", "AD"], "spare": ["JC", "JS", "9H", "10H"]},
}
TRICKS_M = [["JH", "9C", "9S"], ["JD", "10C", "10S"], ["AH", "QC", "QS"], ["KH", "KC", "KS"], ["QH", "AC", "AS"]]


def new_state(deal: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
              game: Game | None = None) -> tuple[Game, State]:
    """A match whose first hand is ``deal`` (later hands come from the seed)."""
    g = game or Game.from_system(SYSTEM, options or {})
    return g, g.new_initial_state(seed=SEED, deals=[deal] if deal is not None else None)


def phase(g: Game, kind: type[Any]) -> Any:
    return next(p for p in g.phases if isinstance(p, kind))


def no_widow(st: State) -> None:
    """Everyone declines the widow (seats 2, 0, 1)."""
    act(st, "pass", "pass", "pass")


def stay_all(st: State) -> None:
    """Every player asked whether to play or drop out plays (when the game asks)."""
    while st.comp.kind == "drop_out":
        act(st, "stay")


def play_tricks(st: State, tricks: list[list[str]]) -> list[int]:
    return [trick(st, *t) for t in tricks]


# --- the deck and the deal -------------------------------------------------------------------


def test_24_card_deck_four_hands_dealt_no_card_turned_up() -> None:
    """"A a 24 card deck is used, consisting of A-K-Q-J-10-9" / "four hands are still dealt, but no card
    is turned up": three hands of five (the Ohio game's "a hand of five card"), a widow of five, and
    24 - 4 x 5 = 4 cards left over; nothing is turned up."""
    g = Game.from_system(SYSTEM)
    assert g.deck.size == 24 and g.num_players == 3
    for seed in range(4):
        st = g.new_initial_state(seed)
        assert [h.bit_count() for h in st.hands] == [5, 5, 5]
        assert len(st.piles["widow"]) == 5 and len(st.piles["spare"]) == 4
        union = 0
        for m in [*st.hands, *(sum(1 << c for c in p) for p in st.piles.values())]:
            assert union & m == 0
            union |= m
        assert union == g.deck.full_mask
        obs = st.observation(0)
        assert obs.get("turned_up") in (None, []) and obs["trump"] is None


@pytest.mark.parametrize(("packets", "first_positions"), [
    # deck positions (top first) of the first hand's cards: 2 to each of 3 hands (0..5), then 3 each
    ("twos_then_threes", [0, 1, 6, 7, 8]),
    ("threes_then_twos", [0, 1, 2, 9, 10]),
])
def test_deal_packets_each_reading(packets: str, first_positions: list[int]) -> None:
    """Ambiguity deal-packets: "dealing the cards two or three at a time, in two rounds". The widow takes
    the next five cards (15..19), the last four are left over."""
    g = Game.from_system(SYSTEM, {"deal_packets": packets})
    hands, piles = g.deal.deal(list(range(24)), [1, 2, 0], 3)
    assert sorted(g.deck.cards_of(hands[1])) == first_positions
    assert sorted(piles["widow"]) == [15, 16, 17, 18, 19] and sorted(piles["spare"]) == [20, 21, 22, 23]


# --- the widow ---------------------------------------------------------------------------------


def test_dealer_right_then_dealer_then_dealer_left_may_exchange() -> None:
    """"The player to dealer's right has the first opportunity to exchange, then the dealer, and finally
    the player to dealer's left." Dealer 0: seats 2, 0, 1; then the bidding starts left of the dealer."""
    g, st = new_state(DEAL_B)
    asked = []
    for _ in range(3):
        assert st.comp.kind == "widow_exchange"
        assert st.legal_action_names() == ["pass", "take_widow"]
        asked.append(st.current_player())
        act(st, "pass")
    assert asked == [2, 0, 1]
    assert st.comp.kind == "auction" and st.current_player() == 1
    assert phase(g, WidowExchange).exchanged_by(st) == []


def test_exchange_whole_hand_for_the_face_down_widow() -> None:
    """"has an opportunity to exchange it for the face-down widow, if no one else has already done so":
    seat 2 (first asked) takes the widow: its hand becomes the five widow cards, its own five lie face down
    in the widow's place, and nobody else is asked (exchanged-hand, decision one)."""
    g, st = new_state(DEAL_B)
    before = st.hands[2]
    act(st, "take_widow")
    names = g.deck.names
    assert sorted(names[c] for c in g.deck.cards_of(st.hands[2])) == sorted(DEAL_B["piles"]["widow"])
    assert sum(1 << c for c in st.piles["widow"]) == before
    assert st.comp.kind == "auction" and st.current_player() == 1  # seats 0 and 1 are not asked
    assert phase(g, WidowExchange).exchanged_by(st) == [2]
    obs = st.observation(0)
    assert obs["zones"]["widow"] == {"count": 5}  # face down, to everyone (the exchanger remembers it)
    assert obs["widow_taken_by"] == [2]


def test_exchanged_hand_readings() -> None:
    """Ambiguity exchanged-hand: under `any`, after seat 2 exchanges, seat 0 is still asked and may take
    what lies in the widow's place now, seat 2's old hand; under `one` (the decision) nobody is."""
    g, st = new_state(DEAL_B, {"widow_exchanges": "any"})
    hand2, hand0 = st.hands[2], st.hands[0]
    act(st, "take_widow")
    assert st.comp.kind == "widow_exchange" and st.current_player() == 0
    act(st, "take_widow")
    assert st.hands[0] == hand2 and sum(1 << c for c in st.piles["widow"]) == hand0
    act(st, "pass")
    assert st.comp.kind == "auction" and phase(g, WidowExchange).exchanged_by(st) == [2, 0]


def test_widow_exchange_declares_a_whole_hand_swap() -> None:
    """The exchange moves a whole hand for the whole widow (declared for the conservation proof), one
    answer per seat asked."""
    g = Game.from_system(SYSTEM)
    d = phase(g, WidowExchange).declarations()
    (t,) = d.transfers
    assert (t.source, t.dest, t.count, t.swap, t.actions) == ("hand", "widow", "all", True, ("exchange",))
    assert d.actions_per_hand == 3


# --- the auction -------------------------------------------------------------------------------


def test_bidding_starts_left_of_dealer_a_number_without_a_suit() -> None:
    """"The bidding starts with the player to the left of the dealer" / "no suit is mentioned as part of
    the bid" / "The lowest possible bid is "one"": pass or bid 1..10 (highest-bid, decision 10)."""
    g, st = new_state(DEAL_B)
    no_widow(st)
    assert st.current_player() == 1
    assert st.legal_action_names() == ["pass", *[f"bid {k}" for k in range(1, 11)]]
    with pytest.raises(InvalidActionError):
        g.parse_action("bid 3 H")
    with pytest.raises(InvalidActionError):
        g.parse_action("bid 0")


def test_bid_more_than_five_as_a_sacrifice() -> None:
    """"It is legal to bid more than five as a sacrifice." / "Each number bid must be higher than the
    previous one.\""""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 4")
    assert st.legal_action_names() == ["pass", *[f"bid {k}" for k in range(5, 11)]]
    act(st, "bid 6")
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("bid 6")
    assert exc.value.source is not None and "must be higher" in exc.value.source.quote
    assert "bid 7" in st.legal_action_names()


def test_a_pass_does_not_prevent_bidding_again_and_bidding_goes_round() -> None:
    """"If you do not wish to bid higher you can pass, and this does not prevent you from bidding in future
    if the turn comes around to you again." / "goes round the table clockwise as many times as necessary":
    seat 1 bids 1, seat 2 passes, seat 0 bids 2, seat 1 bids 3, seat 2 (who passed) bids 4 on the second
    round, seat 0 bids 5; then seats 1 and 2 pass in succession and seat 0, the highest bidder, names."""
    g, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 1", "pass", "bid 2", "bid 3")
    assert st.current_player() == 2 and "bid 4" in st.legal_action_names()
    act(st, "bid 4", "bid 5", "pass", "pass")
    assert st.current_player() == 0
    assert phase(g, Auction).contract(st) == (0, 5, -1)


def test_two_passes_in_succession_the_highest_bidder_names_trump_or_no_trump() -> None:
    """"When two players in succession have passed, the third player (the highest bidder) names the trump
    suit or announces that there are no trumps.\""""
    g, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 2", "pass", "pass")
    assert st.current_player() == 1
    assert st.legal_action_names() == ["name C", "name D", "name H", "name S", "name NT"]
    act(st, "name H")
    assert st.contract.trump == g.deck.suits.index("H") and st.contract.maker == 1


def test_nobody_bids_dealer_must_bid() -> None:
    """Ambiguity nobody-bids, decision dealer_must_bid: after seats 1 and 2 pass with no bid, the third
    player, the dealer, "(the highest bidder)", may not pass."""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "pass", "pass")
    assert st.current_player() == 0
    assert st.legal_action_names() == [f"bid {k}" for k in range(1, 11)]
    with pytest.raises(IllegalActionError):
        st.apply_name("pass")
    act(st, "bid 1", "pass", "pass")
    assert st.current_player() == 0 and st.comp.kind == "auction"  # the dealer names trump


def test_nobody_bids_redeal_reading() -> None:
    """Ambiguity nobody-bids, reading redeal: all three pass in succession, the hand is thrown in with no
    score and the deal passes to the left (seat 1)."""
    _, st = new_state(DEAL_B, {"no_bid": "redeal"})
    no_widow(st)
    act(st, "pass", "pass", "pass")
    assert st.hand_results[-1]["thrown_in"] and st.hand_results[-1]["scores"] == [0, 0, 0]
    assert st.dealer == 1 and st.counters == [15, 15, 15]


def test_nobody_bids_no_trump_reading() -> None:
    """Ambiguity nobody-bids, reading no_trump (the Ohio game's "the hand is played without trumps and there
    is no opportunity to drop out. Each player must take at least one trick or suffer a penalty"): deal B
    without trumps. T1 seat 1 leads JH; hearts are led, seat 2 must play KH (JD is a diamond now), seat 0
    plays 10H; A-K-Q-J-10-9: KH wins. T2 seat 2 AC, seat 0 AS, seat 1 9C -> seat 2; T3 seat 2 KC, seat 0
    KS, seat 1 9S -> seat 2; T4 seat 2 QC, seat 0 QH, seat 1 AH -> seat 2; T5 seat 2 JD, seat 0 AD, seat 1
    9D -> seat 0 (AD above JD). Tricks 1 (seat 0), 0 (seat 1), 4 (seat 2): seat 0 -1, seat 1 took none
    +5, seat 2 -4."""
    _, st = new_state(DEAL_B, {"no_bid": "no_trump"})
    no_widow(st)
    act(st, "pass", "pass", "pass")
    assert st.comp.kind == "tricks" and st.contract.maker == -1 and st.contract.trump == -1
    assert st.current_player() == 1
    act(st, "play JH")
    assert plays(st) == {"KH"}
    act(st, "play KH", "play 10H")
    assert trick_winners(st) == [2]
    assert play_tricks(st, [["AC", "AS", "9C"], ["KC", "KS", "9S"], ["QC", "QH", "AH"]]) == [2, 2, 2]
    assert trick(st, "JD", "AD", "9D") == 0
    assert st.hand_results[-1]["scores"] == [-1, 5, -4]


def test_highest_bid_readings() -> None:
    """Ambiguity highest-bid: bids stop at 10 (decision), at 6 ("more than five"), or at 15."""
    for reading, top in ((6, 6), (10, 10), (15, 15)):
        _, st = new_state(DEAL_B, {"max_bid": reading})
        no_widow(st)
        assert st.legal_action_names()[-1] == f"bid {top}"
        act(st, f"bid {top}")
        assert st.legal_action_names() == ["pass"]


# --- the play ----------------------------------------------------------------------------------


def test_left_of_dealer_leads_bowers_and_following_suit() -> None:
    """"The player to dealer's left leads to the first trick." / "The top trump is the jack of the trump
    suit (right bower), second is the other jack of the same colour (left bower)" / "Players must follow
    suit if they can." Deal B with hearts trump (see the module docstring): winners 1, 2, 2, 2, 2."""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H")
    stay_all(st)
    assert st.current_player() == 1
    act(st, "play JH")
    assert plays(st) == {"KH", "JD"}  # the left bower counts as a heart
    act(st, "play KH", "play 10H")
    assert play_tricks(st, TRICKS_B[1:]) == [2, 2, 2, 2]
    assert st.hand_results[-1]["trick_winners"] == [1, 2, 2, 2, 2]


def test_opening_leader_readings() -> None:
    """Ambiguity opening-leader: under `maker` the high bidder (seat 2) leads; under the decision the
    player to the dealer's left (seat 1) leads whoever bid."""
    for reading, leader in (("left_of_dealer", 1), ("maker", 2)):
        _, st = new_state(DEAL_B, {"first_leader": reading})
        no_widow(st)
        act(st, "pass", "bid 1", "pass", "pass", "name C")
        stay_all(st)
        assert st.comp.kind == "tricks" and st.current_player() == leader


# --- scoring -----------------------------------------------------------------------------------


def test_starts_with_15_points() -> None:
    """"Each player starts with just 15 points.\""""
    _, st = new_state()
    assert st.counters == [15, 15, 15]


def test_subtract_a_point_for_each_trick() -> None:
    """"you subtract a point for each trick that you win": seat 1 bids 1 and names hearts in deal B, takes
    1 trick (made): -1; seat 2 takes 4: -4; seat 0 stayed in and took none: +5."""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H")
    stay_all(st)
    play_tricks(st, TRICKS_B)
    assert st.hand_results[-1]["scores"] == [5, -1, -4]
    assert st.counters == [20, 14, 11]


def test_a_set_bidder_adds_five() -> None:
    """"a bidder who fails to win at least the number of tricks bid ... must add five points": seat 1 bids 2
    in deal B and takes 1 trick: +5 (set-bidder-tricks, decision instead: nothing subtracted); seat 2 -4;
    seat 0, who stayed in and took no trick, +5."""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 2", "pass", "pass", "name H")
    stay_all(st)
    play_tricks(st, TRICKS_B)
    assert st.hand_results[-1]["scores"] == [5, 5, -4]
    assert st.hand_results[-1]["contract"] == {"seat": 1, "bid": 2, "suit": "H"}


def test_set_bidder_tricks_readings() -> None:
    """Ambiguity set-bidder-tricks: under `also` the set bidder of 2 with 1 trick scores 5 - 1 = +4."""
    _, st = new_state(DEAL_B, {"set_bidder": "also"})
    no_widow(st)
    act(st, "bid 2", "pass", "pass", "name H")
    stay_all(st)
    play_tricks(st, TRICKS_B)
    assert st.hand_results[-1]["scores"] == [5, 4, -4]


def test_a_sacrifice_bid_is_set_for_five() -> None:
    """A bid above five can never be made (five tricks a hand): seat 1 bids 6 with five trumps in deal M,
    takes all five tricks and is still set: +5; the others stayed in and took none: +5 each."""
    _, st = new_state(DEAL_M)
    no_widow(st)
    act(st, "bid 6", "pass", "pass", "name H")
    stay_all(st)
    assert play_tricks(st, TRICKS_M) == [1, 1, 1, 1, 1]
    assert st.hand_results[-1]["scores"] == [5, 5, 5]


def test_five_tricks_are_only_five_points() -> None:
    """"In this version, winning five tricks just allows you to subtract five points, not win the whole
    game.": seat 1 bids 5 in deal M and takes all five: 15 - 5 = 10, and the match goes on (unlike the Ohio
    game's "they immediately win the entire game")."""
    _, st = new_state(DEAL_M)
    no_widow(st)
    act(st, "bid 5", "pass", "pass", "name H")
    stay_all(st)
    play_tricks(st, TRICKS_M)
    assert st.hand_results[-1]["scores"] == [5, -5, 5]
    assert st.counters == [20, 10, 20]
    assert st.winners is None and not st.is_terminal() and st.hand_no == 1


# --- the match ---------------------------------------------------------------------------------


def finish_with(totals: list[int], scores_deal: dict[str, Any], options: dict[str, Any] | None = None,
                bid: str = "bid 5") -> State:
    """Deal M from the given totals: seat 1 bids and takes all five tricks (-5), the others +5."""
    g = Game.from_system(SYSTEM, options or {})
    st = g.new_initial_state(seed=SEED, deals=[scores_deal])
    st.counters = list(totals)
    no_widow(st)
    act(st, bid, "pass", "pass", "name H")
    stay_all(st)
    play_tricks(st, TRICKS_M)
    return st


def test_the_aim_is_to_reach_or_pass_zero() -> None:
    """"The aim is to reach or pass zero.": seat 1 at 4 takes five tricks: 4 - 5 = -1, and wins."""
    st = finish_with([12, 4, 9], DEAL_M)
    assert st.counters == [17, -1, 14] and tuple(st.winners or ()) == (1,)


def play_b(totals: list[int], options: dict[str, Any] | None = None) -> State:
    """Deal B from the given totals: seat 1 bids 1 in hearts and makes it: seat 0 +5, seat 1 -1, seat 2 -4."""
    g = Game.from_system(SYSTEM, options or {})
    st = g.new_initial_state(seed=SEED, deals=[DEAL_B])
    st.counters = list(totals)
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H")
    stay_all(st)
    play_tricks(st, TRICKS_B)
    return st


def test_two_reach_zero_the_most_negative_wins() -> None:
    """"If two or even all three players get to zero in the same hand, the winner is the one whose score
    is most negative.": seat 1 at 1 goes to 1 - 1 = 0, seat 2 at 2 goes to 2 - 4 = -2; both reach zero,
    seat 2 is further below it and wins."""
    st = play_b([10, 1, 2])
    assert st.counters == [15, 0, -2] and tuple(st.winners or ()) == (2,)


def test_equal_most_negative_readings() -> None:
    """Ambiguity equal-most-negative: seat 1 at 1 and seat 2 at 4 both reach exactly 0 (1 - 1, 4 - 4).
    Under shared_win (decision; the Ohio game's "it is a tie") both win; under extra_hand another hand is
    dealt."""
    st = play_b([10, 1, 4])
    assert st.counters == [15, 0, 0] and tuple(st.winners or ()) == (1, 2)
    st = play_b([10, 1, 4], {"equal_scores": "extra_hand"})
    assert st.counters == [15, 0, 0] and st.winners is None and st.hand_no == 1


def test_the_deal_passes_to_the_left() -> None:
    """"thereafter the turn to deal passes to the left after each hand": dealer 0, then seat 1."""
    st = finish_with([15, 15, 15], DEAL_M)
    assert st.dealer == 1 and st.hand_no == 1


# --- staying in or dropping out ----------------------------------------------------------------

TRICKS_B_WITHOUT_0 = [["JH", "KH"], ["AH", "JD"], ["AC", "9C"], ["KC", "9S"], ["QC", "9D"]]
"""Deal B's tricks with seat 0 out: seat 1 leads JH, seat 2 follows KH -> seat 1; AH, JD (left bower) ->
seat 2; then seat 2 leads its clubs and seat 1 follows or discards: seat 2 wins 4."""


def test_the_others_in_turn_play_or_drop_out() -> None:
    """"Then each of the other players in turn announces whether they will play or drop out.": after
    seat 1 names trump, seat 2 (the bidder's left, as in the Ohio game) answers, then seat 0; the bidder
    is not asked."""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H")
    assert st.comp.kind == "drop_out" and st.current_player() == 2
    assert st.legal_action_names() == ["stay", "drop"]
    act(st, "stay")
    assert st.current_player() == 0
    act(st, "stay")
    assert st.comp.kind == "tricks" and st.current_player() == 1


def test_players_who_dropped_out_neither_add_nor_subtract() -> None:
    """"Players who dropped out neither add not subtract any points.": seat 0 drops out of deal B (it
    would have taken no trick and added five); seat 1 (bid 1, one trick) -1, seat 2 (four tricks) -4,
    seat 0 0."""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H", "stay", "drop")
    assert play_tricks(st, TRICKS_B_WITHOUT_0) == [1, 2, 2, 2, 2]
    assert st.hand_results[-1]["scores"] == [0, -1, -4]
    assert st.hand_results[-1]["dropped_out"] == [0]


def test_a_player_at_five_or_fewer_may_not_drop_out() -> None:
    """"A player whose score is five points or less is not allowed to drop out, but must play every
    hand.": seat 2 at 6 may drop out; seat 0 at exactly 5 may only stay."""
    _, st = new_state(DEAL_B)
    st.counters = [5, 15, 6]
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H")
    assert st.current_player() == 2 and st.legal_action_names() == ["stay", "drop"]
    act(st, "drop")
    assert st.current_player() == 0 and st.legal_action_names() == ["stay"]
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("drop")
    assert exc.value.source is not None and "five points or less" in exc.value.source.quote
    act(st, "stay")
    assert st.comp.kind == "tricks"


def test_a_player_at_five_or_fewer_stays_in_and_risks_the_penalty() -> None:
    """Seat 0 at 4 must play deal B, takes no trick and adds five: 4 + 5 = 9."""
    _, st = new_state(DEAL_B)
    st.counters = [4, 15, 15]
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H", "stay", "stay")
    play_tricks(st, TRICKS_B)
    assert st.counters == [9, 14, 11]


def test_both_drop_out_readings() -> None:
    """Ambiguity both-drop-out: under the decision both seats 2 and 0 drop out, seat 1 plays alone and
    takes all five tricks (bid 1 made): 15 - 5 = 10; the others 0. Under `true` seat 0, the last asked
    after seat 2 dropped, may only stay."""
    _, st = new_state(DEAL_B)
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H", "drop", "drop")
    assert [trick(st, c) for c in ("JH", "AH", "9C", "9S", "9D")] == [1] * 5
    assert st.hand_results[-1]["scores"] == [0, -5, 0]
    _, st = new_state(DEAL_B, {"last_must_stay": True})
    no_widow(st)
    act(st, "bid 1", "pass", "pass", "name H", "drop")
    assert st.current_player() == 0 and st.legal_action_names() == ["stay"]


def play_out(st: State) -> None:
    """Finish the hand with the first legal card each time (the cards do not matter here)."""
    hand = st.hand_no
    while st.hand_no == hand and not st.is_terminal():
        st.apply(st.legal_actions()[0])


@pytest.mark.parametrize(("house_rule", "third"), [(False, ["stay", "drop"]), (True, ["stay"])])
def test_three_drop_outs_house_rule_readings(house_rule: bool, third: list[str]) -> None:
    """Ambiguity three-drop-outs-house-rule: seat 0 drops out of two hands in a row; on the third, under
    the house rule ("If you stay out for two consecutive hands, then on the next hand you must stay in")
    it may only stay; under the decision it may drop again."""
    _, st = new_state(DEAL_B, {"no_three_drop_outs": house_rule})
    no_widow(st)  # hand 1, dealer 0: seat 1 bids, seat 2 then seat 0 answer
    act(st, "bid 1", "pass", "pass", "name H", "stay", "drop")
    play_out(st)
    assert st.dealer == 1
    no_widow(st)  # hand 2, dealer 1: seat 2 bids first, seat 0 then seat 1 answer
    act(st, "bid 1", "pass", "pass", "name H")
    assert st.current_player() == 0
    act(st, "drop", "stay")
    play_out(st)
    assert st.dealer == 2 and [r["dropped_out"] for r in st.hand_results] == [[0], [0]]
    no_widow(st)  # hand 3, dealer 2: seat 0 passes, seat 1 bids; seat 2 then seat 0 answer
    act(st, "pass", "bid 1", "pass", "pass", "name H", "stay")
    assert st.current_player() == 0 and st.legal_action_names() == third
