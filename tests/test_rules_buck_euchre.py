"""Rule tests for Buck Euchre, the four-player Ohio game, source 003_da241fe61ee7e3bf.txt (the first section,
"Cards and Deal" to "Jack Thomson describes a version").

Each test is named after the clause it pins and quotes it. Positions come from explicit deals (the kitty is
listed top first: its first card is the one turned up), and expected values are worked out by hand from the
text in each docstring.

Seats: dealer 0, so seat 1 is left of the dealer and leads to the first trick.

Deal F (a club turned: clubs are trump at once; seat 1 holds the five top clubs):
  seat 0: 9H 10H QH KH AH    seat 1: JC JS AC KC QC    seat 2: 9S 10S QS KS AS    seat 3: JH JD AD KD QD
  kitty: 9C 10C 9D 10D (9C turned)
Deal S (10H turned; seat 1 orders up, the dealer takes 10H and discards 9C):
  seat 0: 9C 10C QC KC AC    seat 1: JH JD AH 9S 10S    seat 2: JC JS QS QD 10D    seat 3: AS KS AD KD 9D
  kitty: 10H 9H KH QH
Deal T (10H turned; seat 1 orders up but holds only the right bower and the ace of trumps):
  seat 0: 9C 10C QC KC AC    seat 1: JH AH 9S 10S 9D    seat 2: JC JS QS QD 10D    seat 3: JD AS KS AD KD
  kitty: 10H 9H KH QH
Deal N (9D turned; everybody passes twice, so no trumps):
  seat 0: 9C 10C QC KC AC    seat 1: JH 9S 10S QS KS    seat 2: QH JD AD KD 10D    seat 3: 9H 10H KH AH AS
  kitty: 9D JC JS QD
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, led_suit, plays, suit, trick

from cardspec.engine.components.drop_out import DropOut
from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.state import State

SYSTEM = "buck-euchre"


def deal(dealer: int, hands: list[str], kitty: str) -> dict[str, Any]:
    return {"dealer": dealer, "hands": [h.split() for h in hands], "piles": {"kitty": kitty.split()}}


DEAL_F = deal(0, ["9H 10H QH KH AH", "JC JS AC KC QC", "9S 10S QS KS AS", "JH JD AD KD QD"], "9C 10C 9D 10D")
DEAL_S = deal(0, ["9C 10C QC KC AC", "JH JD AH 9S 10S", "JC JS QS QD 10D", "AS KS AD KD 9D"], "10H 9H KH QH")
DEAL_T = deal(0, ["9C 10C QC KC AC", "JH AH 9S 10S 9D", "JC JS QS QD 10D", "JD AS KS AD KD"], "10H 9H KH QH")
DEAL_G = deal(0, ["JC 9H 10H QH KH", "JS 9S 10S QS KS", "AC AH 9D 10D QD", "KC AS KD AD JH"], "9C QC 10C JD")
DEAL_N = deal(0, ["9C 10C QC KC AC", "JH 9S 10S QS KS", "QH JD AD KD 10D", "9H 10H KH AH AS"], "9D JC JS QD")


def new_state(deals: list[dict[str, Any]], options: dict[str, Any] | None = None) -> tuple[Game, State]:
    g = Game.from_system(SYSTEM, options or {})
    return g, g.new_initial_state(seed=1, deals=deals)


def order_up_s(st: State) -> None:
    """Deal S or T: seat 1 orders up hearts; the dealer (seat 0) takes 10H and discards 9C."""
    act(st, "order_up", "discard 9C")


def play_t_two_three(st: State) -> None:
    """Deal T with seats 2 and 0 out: T1 JH / JD (the left bower must follow trump) -> seat 1; T2 AH / AD ->
    seat 1; T3 9S / AS -> seat 3; T4 KS / 10S -> seat 3; T5 KD / 9D -> seat 3. Seat 1 (the maker) 2, seat 3 3."""
    for t in (["JH", "JD"], ["AH", "AD"], ["9S", "AS"], ["KS", "10S"], ["KD", "9D"]):
        trick(st, *t)


def finish_s(st: State) -> None:
    """Deal S, everyone stays; hearts trump, the dealer holds 10H for 9C. Seats play 1, 2, 3, 0:
    T1 JH, QD, KD, 10H (seat 0 must follow trumps) -> seat 1; T2 JD (the left bower), 10D, AD, QC -> seat 1;
    T3 AH, JC, 9D, KC -> seat 1; T4 9S, QS (JS is a plain spade here: either may follow), AS, AC -> seat 3;
    T5 seat 3 KS, seat 0 10C, seat 1 10S, seat 2 JS -> seat 3 (K above J in plain spades).
    Tricks: seat 1 three, seat 3 two, seats 0 and 2 none."""
    order_up_s(st)
    act(st, "stay", "stay", "stay")
    trick(st, "JH", "QD", "KD", "10H")
    trick(st, "JD", "10D", "AD", "QC")
    trick(st, "AH", "JC", "9D", "KC")
    trick(st, "9S", "QS", "AS", "AC")
    trick(st, "KS", "10C", "10S", "JS")


def drop_round(g: Game) -> DropOut:
    return next(p for p in g.phases if isinstance(p, DropOut))


# --- cards and deal ---------------------------------------------------------------------------


def test_24_card_deck_five_cards_each_and_the_next_card_turned() -> None:
    """"A a 24 card deck is used" / "a hand of five card face-down to each player" / "The next card card is
    turned": 4 x 5 = 20 dealt, 24 - 20 = 4 left, the top one shown to everyone."""
    g = Game.from_system(SYSTEM)
    assert g.deck.size == 24 and g.num_players == 4
    st = g.new_initial_state(seed=3)
    assert [h.bit_count() for h in st.hands] == [5, 5, 5, 5] and len(st.piles["kitty"]) == 4
    top = g.deck.names[st.piles["kitty"][-1]]
    assert st.observation(2)["turned_up"] == [top]


@pytest.mark.parametrize(("packets", "first"), [("twos_then_threes", [0, 1, 8, 9, 10]),
                                                ("threes_then_twos", [0, 1, 2, 12, 13])])
def test_deal_two_or_three_at_a_time_each_reading(packets: str, first: list[int]) -> None:
    """Ambiguity deal-packets: "dealing the cards two or three at a time, in two rounds". Deck positions
    (top first) of the first player's cards: twos first gives 0, 1 then 8, 9, 10 (after 4 x 2); threes first
    gives 0, 1, 2 then 12, 13 (after 4 x 3)."""
    g = Game.from_system(SYSTEM, {"deal_packets": packets})
    hands, piles = g.deal.deal(list(range(24)), [1, 2, 3, 0], 4)
    assert sorted(g.deck.cards_of(hands[1])) == first
    assert sorted(piles["kitty"]) == [20, 21, 22, 23]


def test_deal_two_or_three_at_a_time_alternating_round_the_table() -> None:
    """Ambiguity deal-packets, reading ``alternating``: the text does not say every player gets the same packet
    in a round. Two to the first player (positions 0, 1), three to the second (2, 3, 4), two, three (the first
    round: 10 cards); then three, two, three, two: the first player's 10, 11, 12, the second's 13, 14, the
    third's 15, 16, 17, the fourth's 18, 19. Each has five."""
    g = Game.from_system(SYSTEM, {"deal_packets": "alternating"})
    hands, piles = g.deal.deal(list(range(24)), [1, 2, 3, 0], 4)
    assert [sorted(g.deck.cards_of(hands[s])) for s in (1, 2, 3, 0)] == [
        [0, 1, 10, 11, 12], [2, 3, 4, 13, 14], [5, 6, 15, 16, 17], [7, 8, 9, 18, 19]]
    assert sorted(piles["kitty"]) == [20, 21, 22, 23]


def test_everyone_starts_with_25_points() -> None:
    """"Everyone starts with 25 points"."""
    _, st = new_state([DEAL_S])
    assert st.counters == [25, 25, 25, 25]


# --- a turned club ----------------------------------------------------------------------------


def test_turned_club_is_automatically_trump_with_no_bidding_or_dropping_out() -> None:
    """"If the turned up card is a club, then clubs are automatically trump. There is no bidding or dropping
    out": with 9C turned the first action is seat 1's lead; clubs are trump with no maker; no one is asked to
    stay or drop."""
    g, st = new_state([DEAL_F])
    assert st.comp.kind == "tricks" and st.current_player() == 1
    assert st.contract.trump == suit(g, "C") and st.contract.maker == -1
    assert all(n.startswith("play ") for n in st.legal_action_names())
    assert drop_round(g).dropped_out(st) == [] and st.contract.out == 0


def test_left_bower_is_a_club_when_clubs_are_trump() -> None:
    """"the left bower (the other jack of the same colour as trumps) counts for all purposes as belonging to
    the trump suit": with clubs trump, seat 1 leads JS and the led suit is clubs, not spades; seat 2 holds
    spades but no club, so may play any card; JS beats the ace of clubs ("second is the other jack")."""
    g, st = new_state([DEAL_F])
    act(st, "play JS")
    assert led_suit(st) == suit(g, "C")
    assert plays(st) == {"9S", "10S", "QS", "KS", "AS"}  # no club: any card
    act(st, "play 9S")
    assert plays(st) == {"JH", "JD", "AD", "KD", "QD"}
    act(st, "play JH", "play 9H")
    assert st.piles["trick"] == [] and st.tally["tricks"][1] == 1


def test_five_tricks_win_the_whole_game_at_once() -> None:
    """"If anyone manages to take all five tricks, they immediately win the entire game." Seat 1 takes all
    five (JC, JS, AC, KC, QC, clubs trump): 25 - 5 = 20 is far from zero, yet the match ends with seat 1 the
    winner. The others stayed in with no trick: 25 + 5 = 30 each (penalty, decision five)."""
    _g, st = new_state([DEAL_F])
    for lead, rest in (("JC", ["9S", "JH", "9H"]), ("JS", ["10S", "JD", "10H"]), ("AC", ["QS", "AD", "QH"]),
                       ("KC", ["KS", "KD", "KH"]), ("QC", ["AS", "QD", "AH"])):
        trick(st, lead, *rest)
    assert st.is_terminal() and st.winners == (1,)
    assert st.counters == [30, 20, 30, 30]
    assert st.hand_results[-1]["scores"] == [5, -5, 5, 5]


def test_turned_club_readings() -> None:
    """Ambiguity turned-club: under `stays` (the decision) the club stays on the kitty (above); under
    `dealer_takes` the dealer (seat 0) must take 9C and discard one of the five cards held before."""
    g, st = new_state([DEAL_F], {"turned_club": "dealer_takes"})
    assert st.current_player() == 0
    assert set(st.legal_action_names()) == {f"take_up {c}" for c in ("9H", "10H", "QH", "KH", "AH")}
    with pytest.raises(IllegalActionError):
        st.apply_name("pass")
    act(st, "take_up 9H")
    names = g.deck.names
    assert "9C" in [names[c] for c in g.deck.cards_of(st.hands[0])] and names[st.piles["kitty"][-1]] == "9H"
    assert st.comp.kind == "tricks" and st.current_player() == 1
    assert st.observation(1)["history"][-1] == {"seat": 0, "action": "take_up ?"}


# --- calling ----------------------------------------------------------------------------------


def test_order_up_from_dealers_left_dealer_takes_and_discards() -> None:
    """"Starting with the player to the left of the dealer, each player has an opportunity to order up the
    turned card" / "If it is ordered up the dealer takes it and discards a card face-down": seat 1 orders up
    10H; hearts are trump, seat 1 the maker; the dealer holds 10H and puts 9C on the kitty."""
    g, st = new_state([DEAL_S])
    assert st.current_player() == 1 and st.legal_action_names() == ["pass", "order_up"]
    act(st, "order_up")
    assert st.current_player() == 0
    act(st, "discard 9C")
    names = g.deck.names
    assert st.contract.trump == suit(g, "H") and st.contract.maker == 1
    assert "10H" in [names[c] for c in g.deck.cards_of(st.hands[0])] and names[st.piles["kitty"][-1]] == "9C"


def test_dealer_may_take_the_turned_card_or_turn_it_down() -> None:
    """"If the first three pass, the dealer can take the turned up card, confirming its suit as trumps, or
    turn it down." After seats 1, 2, 3 pass, the dealer may order up (take it: the dealer is the maker) or pass."""
    _g, st = new_state([DEAL_S])
    act(st, "pass", "pass", "pass")
    assert st.current_player() == 0 and st.legal_action_names() == ["pass", "order_up"]
    act(st, "order_up", "discard 9C")
    assert st.contract.maker == 0 and st.comp.kind == "drop_out" and st.current_player() == 1


def test_second_round_names_a_suit_other_than_the_turned_one() -> None:
    """"If the dealer turns it down then each player in turn has the chance to name a trump suit different
    from that of the turned card." After four passes seat 1 may name clubs, diamonds or spades, not hearts."""
    g, st = new_state([DEAL_S])
    act(st, "pass", "pass", "pass", "pass")
    assert st.current_player() == 1
    assert st.legal_action_names() == ["pass", "name C", "name D", "name S"]
    act(st, "pass", "name S")
    assert st.contract.trump == suit(g, "S") and st.contract.maker == 2


def test_all_pass_hand_played_without_trumps_and_no_dropping_out() -> None:
    """"If the turned trump is not ordered up and not taken by the dealer, and no one names trump on the
    second round of bidding, then the hand is played without trumps and there is no opportunity to drop
    out." Eight passes: seat 1 leads at once, no trump, nobody is asked to stay or drop."""
    _g, st = new_state([DEAL_N])
    act(st, *["pass"] * 8)
    assert st.comp.kind == "tricks" and st.current_player() == 1
    assert st.contract.trump == -1 and st.contract.maker == -1


def test_no_trumps_all_suits_rank_a_k_q_j_10_9() -> None:
    """"If there are no trumps, all suits rank from high to low A-K-Q-J-10-9." Deal N, no trump: seat 1 leads
    JH; seat 2 must follow with QH only (JD is a plain diamond: no bowers); QH beats JH; seat 3 plays 9H,
    seat 0 (no heart) 9C: seat 2 wins."""
    _g, st = new_state([DEAL_N])
    act(st, *["pass"] * 8, "play JH")
    assert plays(st) == {"QH"}
    assert trick(st, "QH", "9H", "9C") == 2


# --- staying in or dropping out ----------------------------------------------------------------


def test_others_stay_or_drop_from_the_makers_left() -> None:
    """"Now each of the other players in turn, starting with the player to the trump maker's left, must say
    whether they will stay in or drop out." Seat 1 makes trump: seats 2, 3, 0 are asked, in that order; the
    maker is not."""
    _g, st = new_state([DEAL_S])
    order_up_s(st)
    asked = []
    while st.comp.kind == "drop_out":
        asked.append(st.current_player())
        assert st.legal_action_names() == ["stay", "drop"]
        act(st, "stay")
    assert asked == [2, 3, 0]


def test_dropped_player_sits_out_and_neither_adds_nor_subtracts() -> None:
    """"If you drop out you avoid the risk of a penalty ... since you are not playing you have no opportunity
    to score" / "Players who dropped out neither add not subtract any points." Seats 2 and 0 drop: each trick
    has two cards (seats 1 and 3); seat 1 takes 3 (-3: the maker made three), seat 3 takes 2 (-2), seats 2 and 0
    score 0: totals 25, 22, 25, 23."""
    g, st = new_state([DEAL_S])
    order_up_s(st)
    act(st, "drop", "stay", "drop")
    assert drop_round(g).dropped_out(st) == [2, 0]
    assert st.current_player() == 1
    act(st, "play JH")
    assert st.current_player() == 3  # seat 2 is out
    act(st, "play 9D")
    assert st.piles["trick"] == [] and st.tally["tricks"][1] == 1
    for t in (["JD", "KD"], ["AH", "AD"], ["9S", "AS"], ["KS", "10S"]):
        trick(st, *t)
    r = st.hand_results[-1]
    assert r["scores"] == [0, -3, 0, -2] and st.counters == [25, 22, 25, 23]
    assert r["dropped_out"] == [0, 2] and r["drop_round"] is True


def test_each_trick_won_subtracts_a_point() -> None:
    """"each player subtracts one point for each trick that they win": everyone stays; Deal S played so that
    seat 1 takes 3 and seat 3 takes 2, seats 0 and 2 none (see finish_s). The first two lose a point a trick
    (-3, -2); the two with no trick take the penalty (+5, decision five)."""
    _g, st = new_state([DEAL_S])
    finish_s(st)
    assert st.hand_results[-1]["scores"] == [5, -3, 5, -2]
    assert st.counters == [30, 22, 30, 23]


@pytest.mark.parametrize(("penalty", "maker_score"), [("five", 5), ("five_also", 3), ("no_trick_only", -2)])
def test_maker_committed_to_three_tricks_penalty_readings(penalty: str, maker_score: int) -> None:
    """Ambiguity penalty ("except that:" is cut off; the maker "is committed to try to win at least three
    tricks"). Deal T: seat 1 orders up and takes only 2 tricks, seat 3 takes 3 (-3). The maker scores +5
    (five: instead of the tricks), 5 - 2 = +3 (five_also) or -2 (no_trick_only: only a trickless player pays)."""
    _g, st = new_state([DEAL_T], {"penalty": penalty})
    order_up_s(st)
    act(st, "drop", "stay", "drop")
    assert st.current_player() == 1
    act(st, "play JH")
    assert plays(st) == {"JD"}  # the left bower is a heart: seat 3 must follow trumps
    act(st, "play JD")
    for t in (["AH", "AD"], ["9S", "AS"], ["KS", "10S"], ["KD", "9D"]):
        trick(st, *t)
    assert st.hand_results[-1]["scores"] == [0, maker_score, 0, -3]


def test_stayer_with_no_trick_takes_the_penalty() -> None:
    """"Anyone who stays in must take at least one trick or suffer a penalty": under every penalty reading a
    player in with no trick adds five (Deal F: seats 0, 2, 3 take none: +5 each)."""
    for penalty in ("five", "five_also", "no_trick_only"):
        _g, st = new_state([DEAL_F], {"penalty": penalty})
        for t in (["JC", "9S", "JH", "9H"], ["JS", "10S", "JD", "10H"], ["AC", "QS", "AD", "QH"],
                  ["KC", "KS", "KD", "KH"], ["QC", "AS", "QD", "AH"]):
            trick(st, *t)
        assert st.hand_results[-1]["scores"] == [5, -5, 5, 5]


@pytest.mark.parametrize(("reading", "last_may_drop"), [("maker_alone", True), ("last_stays", False)])
def test_everyone_else_drops_readings(reading: str, last_may_drop: bool) -> None:
    """Ambiguity everyone-drops. Seats 2 and 3 drop; seat 0, the last asked, may also drop under
    `maker_alone` (then seat 1 plays alone, takes all five tricks and wins the game at once), but under
    `last_stays` may only stay."""
    _g, st = new_state([DEAL_S], {"everyone_drops": reading})
    order_up_s(st)
    act(st, "drop", "drop")
    if not last_may_drop:
        assert st.legal_action_names() == ["stay"]
        with pytest.raises(IllegalActionError):
            st.apply_name("drop")
        return
    act(st, "drop")
    for c in ("JH", "JD", "AH", "9S", "10S"):
        act(st, f"play {c}")
    assert st.winners == (1,) and st.hand_results[-1]["scores"] == [0, -5, 0, 0]


@pytest.mark.parametrize(("reading", "leader"), [("left_of_dealer", 3), ("maker", 0)])
def test_first_lead_when_dealers_left_dropped_readings(reading: str, leader: int) -> None:
    """Ambiguity dropped-leader: "The player to dealer's left leads to the first trick." Seats 1 and 2
    drop after the dealer (seat 0) takes the card: the first lead is seat 3 (the next player in, clockwise
    from the dealer's left) or seat 0 (the maker)."""
    _g, st = new_state([DEAL_S], {"dropped_leader": reading})
    act(st, "pass", "pass", "pass", "order_up", "discard 9C")
    act(st, "drop", "drop", "stay")
    assert st.comp.kind == "tricks" and st.current_player() == leader


# --- Jack Thomson's rule -----------------------------------------------------------------------


def hand_with_seat2_dropping(st: State) -> None:
    """Deal S (any dealer): whoever speaks passes until the dealer, who orders up and discards; then the
    stay-or-drop round: seat 2 drops if it may (and is asked), everyone else stays; the hand is played out
    by the first legal card each time."""
    while st.comp.kind == "turn_up_trump":
        names = st.legal_action_names()
        if st.current_player() == st.dealer and "order_up" in names:
            act(st, "order_up")
        elif names[0].startswith("discard"):
            act(st, names[0])
        else:
            act(st, "pass")
    while st.comp.kind == "drop_out":
        act(st, "drop" if st.current_player() == 2 and "drop" in st.legal_action_names() else "stay")
    hands = len(st.hand_results)
    while len(st.hand_results) == hands:
        act(st, st.legal_action_names()[0])


def club_hand(st: State) -> None:
    """Deal G (a turned club: no stay-or-drop round), played out by the first legal card each time."""
    hands = len(st.hand_results)
    while len(st.hand_results) == hands:
        act(st, st.legal_action_names()[0])


def redealt(d: dict[str, Any], dealer: int) -> dict[str, Any]:
    return {**d, "dealer": dealer}


def test_must_stay_in_after_two_consecutive_drop_outs() -> None:
    """"If you stay out for two consecutive hands, then on the next hand you must stay in and take a trick or
    suffer the penalty" (option no_three_drop_outs). Deal S three times, dealers 0, 1, 2. Hands 1 and 2: the
    dealer takes the card and seat 2 drops. Hand 3 (dealer 2): seat 3 orders up, so seats 0, 1, 2 are asked;
    seat 2 has stayed out two hands running and may only stay. Without the option it may drop again."""
    deals = [redealt(DEAL_S, d) for d in (0, 1, 2)]
    for on, want in ((True, ["stay"]), (False, ["stay", "drop"])):
        _g, st = new_state(deals, {"no_three_drop_outs": on})
        hand_with_seat2_dropping(st)
        hand_with_seat2_dropping(st)
        assert not st.is_terminal() and st.dealer == 2
        # hand 3, dealer 2: seat 3 speaks first and orders up; seat 2 (the dealer) discards; then seats 0, 1, 2
        act(st, "order_up", "discard QS")
        assert st.contract.maker == 3
        act(st, "stay", "stay")
        assert st.current_player() == 2 and st.legal_action_names() == want
        if on:
            with pytest.raises(IllegalActionError) as exc:
                st.apply_name("drop")
            assert exc.value.source is not None and "two consecutive hands" in exc.value.source.quote


@pytest.mark.parametrize(("reading", "want"), [("all_hands", ["stay", "drop"]), ("offered_hands", ["stay"])])
def test_forced_hand_in_a_run_of_drop_outs_readings(reading: str, want: list[str]) -> None:
    """Ambiguity consecutive-drop-outs (with no_three_drop_outs). Hand 1 (Deal S, dealer 0): seat 2 drops.
    Hand 2 (Deal G, dealer 1): 9C is turned, clubs are trump, nobody may drop. Hand 3 (Deal S, dealer 2):
    seat 3 orders up and seat 2 drops. Hand 4 (Deal S, dealer 3): seat 0 orders up, seat 1 stays, seat 2 is
    asked. If the forced hand does not count (offered_hands) seat 2 has stayed out two hands running and must
    stay; if it counts (all_hands, the decision) it broke the run and seat 2 may drop."""
    deals = [redealt(DEAL_S, 0), redealt(DEAL_G, 1), redealt(DEAL_S, 2), redealt(DEAL_S, 3)]
    _g, st = new_state(deals, {"no_three_drop_outs": True, "forced_hands": reading})
    hand_with_seat2_dropping(st)
    club_hand(st)
    assert st.hand_results[-1]["drop_round"] is False and not st.is_terminal()
    act(st, "order_up", "discard QS")  # hand 3: seat 3 orders up, the dealer (seat 2) discards
    act(st, "stay", "stay", "drop")  # seats 0, 1 stay; seat 2 drops
    hands = len(st.hand_results)
    while len(st.hand_results) == hands:
        act(st, st.legal_action_names()[0])
    assert st.hand_results[-1]["dropped_out"] == [2] and not st.is_terminal()
    # hand 4, dealer 3: seat 0 orders up; the dealer (seat 3) discards; seats 1, 2, 3 are asked
    act(st, "order_up")
    act(st, st.legal_action_names()[0])
    act(st, "stay")
    assert st.current_player() == 2 and st.legal_action_names() == want


# --- the end of the match ----------------------------------------------------------------------




def test_first_to_reach_or_pass_zero_wins() -> None:
    """"the first player to reach or pass zero wins": seat 3 at 2 takes 2 tricks: 0, reached; it wins."""
    _g, st = new_state([DEAL_S])
    st.counters[:] = [10, 10, 10, 2]
    finish_s(st)
    assert st.counters == [15, 7, 15, 0] and st.winners == (3,)


def test_furthest_below_zero_wins() -> None:
    """"If two or more players get to or past zero on the same hand the player who goes furthest below zero
    wins": seat 1 at 1 takes 3 (-2), seat 3 at 1 takes 2 (-1): seat 1 wins."""
    _g, st = new_state([DEAL_S])
    st.counters[:] = [10, 1, 10, 1]
    finish_s(st)
    assert st.counters == [15, -2, 15, -1] and st.winners == (1,)


@pytest.mark.parametrize("reading", ["shared_win", "extra_hand"])
def test_same_score_is_a_tie_readings(reading: str) -> None:
    """Ambiguity equal-furthest ("If they have the same score, it is a tie."): seat 1 at 2 takes 3 and seat 3
    at 1 takes 2: both -1. Under shared_win both win; under extra_hand the match goes on."""
    _g, st = new_state([DEAL_S], {"equal_scores": reading})
    st.counters[:] = [10, 2, 10, 1]
    finish_s(st)
    assert st.counters == [15, -1, 15, -1]
    if reading == "shared_win":
        assert st.winners == (1, 3)
    else:
        assert st.winners is None and st.extra_hand


@pytest.mark.parametrize("reading", ["everyone", "not_dealer"])
def test_second_round_who_may_name_readings(reading: str) -> None:
    """Ambiguity second-round ("each player in turn has the chance to name a trump suit different from that of
    the turned card"). Four passes turn 10H down; seats 1, 2, 3 pass again. Under `everyone` the dealer (seat 0)
    is asked last and may name C, D or S or pass; under `not_dealer` the round is over: no trumps, seat 1 leads."""
    _g, st = new_state([DEAL_S], {"second_round": reading})
    act(st, *["pass"] * 7)
    if reading == "everyone":
        assert st.current_player() == 0
        assert st.legal_action_names() == ["pass", "name C", "name D", "name S"]
    else:
        assert st.comp.kind == "tricks" and st.current_player() == 1 and st.contract.trump == -1
