"""Rule tests for Dirty Clubs, source 003_da241fe61ee7e3bf.txt (section "Dirty Clubs", and the Buck Euchre
clauses it keeps: "This is similar to the Buck Euchre game described above except for the following").

Each test is named after the clause it pins and quotes it. Positions come from explicit deals (the kitty is
listed top first: its first card is the one turned up); expected values are worked out by hand.

Seats: dealer 0, so seat 1 is left of the dealer: first to bid and first to lead.

Deal F (9C turned: clubs are trump at once; seat 1 holds the five top clubs):
  seat 0: 9H 10H QH KH AH    seat 1: JC JS AC KC QC    seat 2: 9S 10S QS KS AS    seat 3: JH JD AD KD QD
  kitty: 9C 10C 9D 10D
Deal T (10H turned):
  seat 0: 9C 10C QC KC AC    seat 1: JH AH 9S 10S 9D    seat 2: JC JS QS QD 10D    seat 3: JD AS KS AD KD
  kitty: 10H 9H KH QH
  With hearts trump and seats 2 and 0 out: T1 JH / JD (the left bower follows trumps) -> seat 1; T2 AH / AD ->
  seat 1; T3 9S / AS -> seat 3; T4 KS / 10S -> seat 3; T5 KD / 9D -> seat 3. Seat 1 two tricks, seat 3 three.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, led_suit, plays, suit, trick

from cardspec.engine.components.auction import Auction
from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.state import State

SYSTEM = "dirty-clubs"


def deal(dealer: int, hands: list[str], kitty: str) -> dict[str, Any]:
    return {"dealer": dealer, "hands": [h.split() for h in hands], "piles": {"kitty": kitty.split()}}


DEAL_F = deal(0, ["9H 10H QH KH AH", "JC JS AC KC QC", "9S 10S QS KS AS", "JH JD AD KD QD"], "9C 10C 9D 10D")
DEAL_T = deal(0, ["9C 10C QC KC AC", "JH AH 9S 10S 9D", "JC JS QS QD 10D", "JD AS KS AD KD"], "10H 9H KH QH")
T_TRICKS = (["JH", "JD"], ["AH", "AD"], ["9S", "AS"], ["KS", "10S"], ["KD", "9D"])


def new_state(deals: list[dict[str, Any]], options: dict[str, Any] | None = None) -> tuple[Game, State]:
    g = Game.from_system(SYSTEM, options or {})
    return g, g.new_initial_state(seed=1, deals=deals)


def names_of(g: Game, mask: int) -> set[str]:
    return {g.deck.names[c] for c in g.deck.cards_of(mask)}


def seat1_bids(st: State, bid: int, trump: str) -> None:
    """Deal T: seat 1 bids, the others pass, seat 1 names trump and keeps its hand; seats 2 and 0 drop."""
    act(st, f"bid {bid}", "pass", "pass", "pass", f"name {trump}", "pass", "drop", "stay", "drop")


# --- the pack, the deal, the start --------------------------------------------------------------


def test_everyone_starts_with_20_points() -> None:
    """"Everyone starts with 20 points rather than 25.\""""
    _, st = new_state([DEAL_T])
    assert st.counters == [20, 20, 20, 20]


@pytest.mark.parametrize(("players", "size", "kitty", "lowest"),
                         [(4, 24, 4, "9"), (5, 28, 3, "8"), (6, 32, 2, "7"), (7, 36, 1, "6"), (8, 44, 4, "4")])
def test_more_than_four_players_add_low_cards_each_reading(players: int, size: int, kitty: int, lowest: str) -> None:
    """Ambiguity extra-low-cards: "by adding extra low cards to the pack - eights, sevens and so on, as
    needed". Five cards each and one left to turn: 5n + 1 cards needed. 4 players: 21 <= 24; 5: 26 -> eights
    (28); 6: 31 -> sevens (32); 7: 36 -> sixes (36, one left, turned); 8: 41 -> fives give 40, so fours (44).
    The added ranks rank below the nine (plain and trump)."""
    g = Game.from_system(SYSTEM, {"players": players})
    assert g.num_players == players and g.deck.size == size and g.deck.ranks[0] == lowest
    st = g.new_initial_state(seed=2)
    assert [h.bit_count() for h in st.hands] == [5] * players and len(st.piles["kitty"]) == kitty
    assert st.observation(0)["turned_up"] == [g.deck.names[st.piles["kitty"][-1]]]
    assert g.ranking is not None and g.ranking.plain[0] == 0 and g.ranking.trump[0] == 0


@pytest.mark.parametrize(("packets", "first"), [("twos_then_threes", [0, 1, 8, 9, 10]),
                                                ("threes_then_twos", [0, 1, 2, 12, 13])])
def test_deal_two_or_three_at_a_time_each_reading(packets: str, first: list[int]) -> None:
    """Ambiguity deal-packets ("dealing the cards two or three at a time, in two rounds"), as in Buck
    Euchre: the first player's deck positions are 0, 1, 8, 9, 10 (twos first) or 0, 1, 2, 12, 13."""
    g = Game.from_system(SYSTEM, {"deal_packets": packets})
    hands, _ = g.deal.deal(list(range(24)), [1, 2, 3, 0], 4)
    assert sorted(g.deck.cards_of(hands[1])) == first


# --- a turned club ------------------------------------------------------------------------------


def test_turned_club_means_no_bidding_and_no_dropping_out() -> None:
    """"If the turned card is not a club, there is a single round of bidding" (and Buck Euchre's "If the turned
    up card is a club, then clubs are automatically trump. There is no bidding or dropping out"): with 9C
    turned, seat 1 leads at once; clubs are trump; nobody bid."""
    g, st = new_state([DEAL_F])
    assert st.comp.kind == "tricks" and st.current_player() == 1
    assert st.contract.trump == suit(g, "C") and st.contract.maker == -1
    auction = next(p for p in g.phases if isinstance(p, Auction))
    assert auction.contract(st) is None


def test_left_bower_is_a_club_when_clubs_are_trump() -> None:
    """"the left bower (the other jack of the same colour as trumps) counts for all purposes as belonging to
    the trump suit": seat 1 leads JS with clubs trump: the led suit is clubs, not spades; seat 2 (spades, no
    club) may play any card; seats 3 and 0 hold no club either, so the aces of spades, diamonds and hearts
    cannot win: seat 1 takes the trick."""
    g, st = new_state([DEAL_F])
    act(st, "play JS")
    assert led_suit(st) == suit(g, "C")
    assert plays(st) == {"9S", "10S", "QS", "KS", "AS"}
    assert trick(st, "AS", "AD", "AH") == 1


def test_all_five_tricks_win_the_whole_game() -> None:
    """"If anyone manages to take all five tricks, they immediately win the entire game" ("play and scoring
    proceed as in Buck Euchre"): seat 1 takes all five with the top clubs: 20 - 5 = 15, yet it wins at once;
    the three others stayed in with no trick: +5 each."""
    _g, st = new_state([DEAL_F])
    for t in (["JC", "9S", "JH", "9H"], ["JS", "10S", "JD", "10H"], ["AC", "QS", "AD", "QH"],
              ["KC", "KS", "KD", "KH"], ["QC", "AS", "QD", "AH"]):
        trick(st, *t)
    assert st.winners == (1,) and st.counters == [25, 15, 25, 25]


@pytest.mark.parametrize("reading", ["stays", "dealer_takes"])
def test_turned_club_readings(reading: str) -> None:
    """Ambiguity turned-club: with a club turned there is no bidder. Under `stays` nobody takes the club;
    under `dealer_takes` the dealer may take 9C for a card of the hand, or pass."""
    g, st = new_state([DEAL_F], {"turned_club": reading})
    if reading == "stays":
        assert st.comp.kind == "tricks"
        return
    assert st.current_player() == 0
    assert set(st.legal_action_names()) == {"pass"} | {f"take_up {c}" for c in ("9H", "10H", "QH", "KH", "AH")}
    act(st, "take_up AH")
    assert names_of(g, st.hands[0]) == {"9C", "9H", "10H", "QH", "KH"}
    assert st.comp.kind == "tricks"


# --- the bidding --------------------------------------------------------------------------------


def test_single_round_of_bidding_minimum_one_higher_or_pass() -> None:
    """"Starting to the left of the dealer, each player bids the number of tricks" / "The minimum bid is one,
    and each player in turn must either bid higher than the highest bid so far or pass" / "a single round of
    bidding": seat 1 may pass or bid 1..5 (highest-bid, decision 5); after bid 2, seat 2 may bid 3..5 only;
    after seat 3 bids 3 and the dealer passes, nobody bids again: the high bidder names trump."""
    _g, st = new_state([DEAL_T])
    assert st.current_player() == 1
    assert st.legal_action_names() == ["pass", "bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    act(st, "bid 2")
    assert st.legal_action_names() == ["pass", "bid 3", "bid 4", "bid 5"]
    with pytest.raises(IllegalActionError):
        st.apply_name("bid 2")
    act(st, "pass", "bid 3", "pass")
    assert st.current_player() == 3
    assert st.legal_action_names() == ["name C", "name D", "name H", "name S", "name NT"]


def test_high_bidder_names_trumps_or_no_trumps_clubs_too() -> None:
    """"the high bidder names trumps or specifies that there will be no trumps" / "clubs can be called trump
    even if they are not turned up": 10H is turned, seat 1 bids 1 and names clubs."""
    g, st = new_state([DEAL_T])
    act(st, "bid 1", "pass", "pass", "pass", "name C")
    assert st.contract.trump == suit(g, "C") and st.contract.maker == 1


def test_bidder_may_take_the_up_card_even_if_not_a_trump() -> None:
    """"is allowed to take the turned up card and discard one card from hand face down. The bidder can
    exchange the up-card even if it is not a trump": seat 1 names spades, takes 10H (not a trump) and puts
    9D face down in its place; the others see only that a card was exchanged."""
    g, st = new_state([DEAL_T])
    act(st, "bid 1", "pass", "pass", "pass", "name S")
    assert st.current_player() == 1
    assert set(st.legal_action_names()) == {"pass"} | {f"take_up {c}" for c in ("JH", "AH", "9S", "10S", "9D")}
    act(st, "take_up 9D")
    assert names_of(g, st.hands[1]) == {"JH", "AH", "9S", "10S", "10H"}
    assert g.deck.names[st.piles["kitty"][-1]] == "9D"
    assert st.observation(2)["history"][-1] == {"seat": 1, "action": "take_up ?"}
    assert st.observation(2)["up_card"] is None


def test_bidder_may_take_the_up_card_with_no_trumps() -> None:
    """"names trumps or specifies that there will be no trumps, and is allowed to take the turned up card":
    after naming no trumps the bidder may still take it."""
    _g, st = new_state([DEAL_T])
    act(st, "bid 1", "pass", "pass", "pass", "name NT")
    assert st.contract.trump == -1 and st.contract.maker == 1
    assert "take_up 9D" in st.legal_action_names()


def test_stay_or_drop_from_the_bidders_left() -> None:
    """"Starting to the left of the bidder, each of the other players chooses to stay in or drop out": seat 3
    wins the bidding; seats 0, 1, 2 are asked in that order."""
    _g, st = new_state([DEAL_T])
    act(st, "pass", "pass", "bid 2", "pass", "name D", "pass")
    asked = []
    while st.comp.kind == "drop_out":
        asked.append(st.current_player())
        act(st, "stay")
    assert asked == [0, 1, 2]


@pytest.mark.parametrize("reading", ["no_trump", "dealer_must_bid", "redeal"])
def test_everyone_passes_readings(reading: str) -> None:
    """Ambiguity nobody-bids. Four passes: no_trump (the decision) plays the hand without trumps with nobody
    dropping out; dealer_must_bid leaves the dealer, after three passes, only bids; redeal throws the hand in
    and seat 1 deals next."""
    _g, st = new_state([DEAL_T], {"no_bid": reading})
    act(st, "pass", "pass", "pass")
    if reading == "dealer_must_bid":
        assert st.current_player() == 0 and "pass" not in st.legal_action_names()
        return
    act(st, "pass")
    if reading == "no_trump":
        assert st.comp.kind == "tricks" and st.contract.trump == -1 and st.contract.maker == -1
    else:
        assert st.hand_results[-1]["thrown_in"] is True and st.dealer == 1


@pytest.mark.parametrize(("reading", "top"), [(5, 5), (10, 10)])
def test_highest_bid_readings(reading: int, top: int) -> None:
    """Ambiguity highest-bid ("The minimum bid is one", no maximum stated): bids run to 5 or to 10."""
    _g, st = new_state([DEAL_T], {"max_bid": reading})
    assert st.legal_action_names()[-1] == f"bid {top}"


# --- scoring ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("reading", "bidder"), [("bid", -2), ("three", 5)])
def test_bidder_commitment_readings(reading: str, bidder: int) -> None:
    """Ambiguity contract-tricks. Deal T: seat 1 bids 2, names hearts and takes 2 tricks; seat 3 takes 3 (-3);
    seats 2 and 0 dropped (0). Under `bid` the bid is made: 2 tricks, -2. Under `three` (a Buck Euchre maker's
    three tricks) seat 1 is set: +5 (penalty, decision five)."""
    _g, st = new_state([DEAL_T], {"contract": reading})
    seat1_bids(st, 2, "H")
    for t in T_TRICKS:
        trick(st, *t)
    assert st.hand_results[-1]["scores"] == [0, bidder, 0, -3]


@pytest.mark.parametrize(("penalty", "bidder"), [("five", 5), ("five_also", 3), ("no_trick_only", -2)])
def test_set_bidder_penalty_readings(penalty: str, bidder: int) -> None:
    """Ambiguity penalty (Buck Euchre's "except that:" is cut off). Deal T: seat 1 bids 3 and takes 2: set.
    It scores +5 (five), 5 - 2 = +3 (five_also) or -2 (no_trick_only)."""
    _g, st = new_state([DEAL_T], {"penalty": penalty})
    seat1_bids(st, 3, "H")
    for t in T_TRICKS:
        trick(st, *t)
    assert st.hand_results[-1]["scores"] == [0, bidder, 0, -3]


def test_dropped_players_score_nothing_stayers_pay_for_no_trick() -> None:
    """"Players who dropped out neither add not subtract any points." / "Anyone who stays in must take at
    least one trick or suffer a penalty": Deal T, seat 1 bids 2 and names hearts; seat 2 drops, seats 3 and 0
    stay. Seat 0 (clubs and no trump) takes nothing: +5; seat 2: 0."""
    _g, st = new_state([DEAL_T])
    act(st, "bid 2", "pass", "pass", "pass", "name H", "pass", "drop", "stay", "stay")
    for t in (["JH", "JD", "9C"], ["AH", "AD", "10C"], ["9S", "AS", "QC"], ["KS", "KC", "10S"],
              ["KD", "AC", "9D"]):
        trick(st, *t)
    assert st.hand_results[-1]["scores"] == [5, -2, 0, -3]


# --- readings shared with Buck Euchre -------------------------------------------------------------


@pytest.mark.parametrize(("reading", "last_may_drop"), [("maker_alone", True), ("last_stays", False)])
def test_everyone_else_drops_readings(reading: str, last_may_drop: bool) -> None:
    """Ambiguity everyone-drops: seat 1 wins the bidding; seats 2 and 3 drop; the dealer, last asked, may
    drop too (maker_alone) or may only stay (last_stays)."""
    _g, st = new_state([DEAL_T], {"everyone_drops": reading})
    act(st, "bid 1", "pass", "pass", "pass", "name H", "pass", "drop", "drop")
    assert st.current_player() == 0
    assert st.legal_action_names() == (["stay", "drop"] if last_may_drop else ["stay"])


@pytest.mark.parametrize(("reading", "leader"), [("left_of_dealer", 2), ("maker", 3)])
def test_first_lead_when_dealers_left_dropped_readings(reading: str, leader: int) -> None:
    """Ambiguity dropped-leader: seat 3 wins the bidding and seat 1 (left of the dealer) drops: seat 2 leads
    (the next player in) or seat 3 (the bidder)."""
    _g, st = new_state([DEAL_T], {"dropped_leader": reading})
    act(st, "pass", "pass", "bid 1", "pass", "name D", "pass", "stay", "drop", "stay")
    assert st.comp.kind == "tricks" and st.current_player() == leader


@pytest.mark.parametrize("reading", ["shared_win", "extra_hand"])
def test_same_score_is_a_tie_readings(reading: str) -> None:
    """Ambiguity equal-furthest ("If they have the same score, it is a tie."): Deal T, seat 1 bids 2 and takes
    2 (made, -2), seat 3 takes 3 (-3); from 1 and 2 both reach -1. Both win (shared_win), or the match goes
    on (extra_hand)."""
    _g, st = new_state([DEAL_T], {"equal_scores": reading})
    st.counters[:] = [10, 1, 10, 2]
    seat1_bids(st, 2, "H")
    for t in T_TRICKS:
        trick(st, *t)
    assert st.counters == [10, -1, 10, -1]
    assert st.winners == ((1, 3) if reading == "shared_win" else None)


@pytest.mark.parametrize(("reading", "want"), [("all_hands", ["stay", "drop"]), ("offered_hands", ["stay"])])
def test_forced_hand_in_a_run_of_drop_outs_readings(reading: str, want: list[str]) -> None:
    """Ambiguity consecutive-drop-outs (with no_three_drop_outs): seat 2 drops on hand 1 (Deal T, dealer 0);
    hand 2 (a club turned, dealer 1: nobody may drop) is played; seat 2 drops on hand 3 (Deal T, dealer 2,
    seat 3 bids); on hand 4 (Deal T, dealer 3, seat 0 bids) seat 2 is asked again. If the forced hand does
    not count (offered_hands) seat 2 has dropped twice running and must stay; if it counts it broke the run."""
    club = deal(1, ["9H 10H QH KH AH", "JC 9S 10S QS KS", "AC JS AS 9D 10D", "JH JD AD KD QD"], "9C 10C KC QC")
    deals = [DEAL_T, club, {**DEAL_T, "dealer": 2}, {**DEAL_T, "dealer": 3}]
    _g, st = new_state(deals, {"no_three_drop_outs": True, "forced_hands": reading})

    def play_out() -> None:
        hands = len(st.hand_results)
        while len(st.hand_results) == hands:
            act(st, st.legal_action_names()[0])

    seat1_bids(st, 1, "H")
    play_out()
    play_out()
    assert [r["drop_round"] for r in st.hand_results] == [True, False] and not st.is_terminal()
    act(st, "bid 1", "pass", "pass", "pass", "name H", "pass", "stay", "stay", "drop")
    play_out()
    assert st.hand_results[-1]["dropped_out"] == [2] and not st.is_terminal()
    act(st, "bid 1", "pass", "pass", "pass", "name H", "pass", "stay")
    assert st.current_player() == 2 and st.legal_action_names() == want


@pytest.mark.parametrize(("reading", "asked"), [("allowed", True), ("forbidden", False)])
def test_drop_out_after_no_trumps_named_readings(reading: str, asked: bool) -> None:
    """Ambiguity no-trump-drop: seat 1 bids 1 and names no trumps, keeping its hand. Under `allowed` seat 2
    is asked to stay or drop ("Starting to the left of the bidder"); under `forbidden` everyone plays (Buck
    Euchre's "played without trumps and there is no opportunity to drop out") and seat 1 leads."""
    _g, st = new_state([DEAL_T], {"no_trump_drop": reading})
    act(st, "bid 1", "pass", "pass", "pass", "name NT", "pass")
    if asked:
        assert st.comp.kind == "drop_out" and st.current_player() == 2
    else:
        assert st.comp.kind == "tricks" and st.current_player() == 1


@pytest.mark.parametrize(("reading", "limit"), [(False, 0), (True, 2)])
def test_three_drop_outs_house_rule_readings(reading: bool, limit: int) -> None:
    """Ambiguity three-drop-outs-house-rule: Jack Thomson's "no one may drop out for three consecutive
    hands" is off by default (Dirty Clubs' own text has no such bar: a limit of 0 means none); the other
    reading makes a player who dropped out on the two hands before stay in (a limit of 2 hands). The
    behaviour under the limit is played out in test_forced_hand_in_a_run_of_drop_outs_readings."""
    g = Game.from_system("dirty-clubs", {"no_three_drop_outs": reading})
    entry = next(a for a in g.spec.ambiguities if a.id == "three-drop-outs-house-rule")
    assert entry.option == "no_three_drop_outs" and entry.decision == "false"
    comp = next(ph for ph in g.phases if ph.kind == "drop_out")
    assert comp.limit == limit  # type: ignore[attr-defined]
