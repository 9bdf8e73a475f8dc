"""Rule tests for Bid Euchre, source 004_945a3021da002f83.txt (section "Bid Euchre", built on "Euchre").

Each test is named after the clause it pins and quotes it. Positions come from explicit deals, and
expected values are worked out by hand from the text: the two scripted hands below were planned trick
by trick (every trick follows suit, so each winner is simply the highest card by the Euchre order, the
first of two identical cards winning), and the scores are the text's own examples.

Seats: dealer 0, so seat 1 bids first; partnerships [0, 2] (team 0) and [1, 3] (team 1).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import act, trick, trick_winners

from cardspec.engine import kernels
from cardspec.engine.components.auction import Auction
from cardspec.engine.components.tricks import Tricks, winner_fast
from cardspec.engine.errors import IllegalActionError, InvalidActionError, RecordError
from cardspec.engine.game import Game
from cardspec.engine.ranking import trick_winner
from cardspec.engine.record import dumps, record_of, replay
from cardspec.engine.spec import Spec, load
from cardspec.engine.state import State

Plan = list[tuple[int, list[str], int]]

# Hand "made": seat 1 bids 6 H; team 1 (seats 1, 3) takes 8 tricks, team 0 takes 4.
# (leader, cards in playing order, the winner by the text's hierarchy)
PLAN_MADE: Plan = [
    (1, ["JH#1", "9H#1", "9H#2", "10H#1"], 1),  # right bower
    (1, ["10H#2", "QH#1", "JH#2", "QH#2"], 3),  # the other right bower
    (3, ["JD#1", "KH#1", "KH#2", "AH#1"], 3),  # left bower over the ace of trump
    (3, ["9C#1", "10C#1", "AC#1", "JC#1"], 1),
    (1, ["AC#2", "9C#2", "10C#2", "JC#2"], 1),
    (1, ["QC#1", "QC#2", "KC#1", "KC#2"], 3),  # two kings: the first laid wins
    (3, ["AS#1", "9S#1", "9S#2", "10S#1"], 3),
    (3, ["10S#2", "AS#2", "JS#1", "JS#2"], 0),
    (0, ["QS#1", "QS#2", "KS#1", "KS#2"], 2),  # two kings: the first laid wins
    (2, ["9D#1", "10D#1", "AD#1", "9D#2"], 0),
    (0, ["10D#2", "QD#1", "AD#2", "QD#2"], 2),
    (2, ["KD#1", "JD#2", "AH#2", "KD#2"], 3),  # seats 3 and 0 are void in diamonds: the left bower wins
]

# Hand "set": seat 1 bids 6 H; team 1 takes 5 tricks, team 0 takes 7.
PLAN_SET: Plan = [
    (1, ["JH#1", "9H#1", "9H#2", "10H#1"], 1),
    (1, ["10H#2", "QH#1", "JH#2", "QH#2"], 3),
    (3, ["JD#1", "KH#1", "KH#2", "AH#1"], 3),
    (3, ["9C#1", "10C#1", "AC#1", "JC#1"], 1),
    (1, ["9C#2", "10C#2", "JC#2", "AC#2"], 0),
    (0, ["QC#1", "QC#2", "KC#1", "KC#2"], 2),
    (2, ["9S#1", "9S#2", "AS#1", "10S#1"], 0),
    (0, ["10S#2", "JS#1", "AS#2", "JS#2"], 2),
    (2, ["QS#1", "QS#2", "KS#1", "KS#2"], 0),
    (0, ["9D#1", "9D#2", "AD#1", "10D#1"], 2),
    (2, ["10D#2", "QD#1", "AD#2", "QD#2"], 0),
    (0, ["KD#1", "KD#2", "AH#2", "JD#2"], 3),
]


def hands_of(plan: Plan) -> list[list[str]]:
    """Each seat's twelve cards: the cards it plays in the plan."""
    hands: list[list[str]] = [[], [], [], []]
    for leader, cards, _ in plan:
        for i, c in enumerate(cards):
            hands[(leader + i) % 4].append(c)
    return hands


def deal_of(plan: Plan, dealer: int = 0) -> dict[str, Any]:
    return {"dealer": dealer, "hands": hands_of(plan), "piles": {}}


def new_state(plan: Plan = PLAN_MADE, options: dict[str, Any] | None = None, game: Game | None = None
              ) -> tuple[Game, State]:
    """A match whose first hand is the plan's deal (later hands come from seed 0)."""
    g = game or Game.from_system("bid-euchre", options or {})
    return g, g.new_initial_state(seed=0, deals=[deal_of(plan)])


def play_plan(st: State, plan: Plan) -> None:
    """Play every trick of the plan, checking the leader and the winner of each."""
    for i, (leader, cards, winner) in enumerate(plan):
        assert st.current_player() == leader, f"trick {i + 1}"
        assert trick(st, *cards) == winner, f"trick {i + 1}"


def auction(g: Game) -> Auction:
    comp = g.phases[0]
    assert isinstance(comp, Auction)
    return comp


def variant(edit: Any, options: dict[str, Any] | None = None) -> Game:
    """Bid Euchre with its spec edited in memory."""
    base = load("bid-euchre")
    data = copy.deepcopy(base.data)
    edit(data)
    return Game(Spec(data, base.file, base.loaded), options)


def write_variant(tmp_path: Path, edit: Any) -> str:
    """Bid Euchre edited and written to a spec file (for records, which name their system)."""
    data = copy.deepcopy(load("bid-euchre").data)
    edit(data)
    data["id"] = "bid-euchre-variant"
    path = tmp_path / "bid-euchre-variant.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return str(path)


def last_played_wins(d: dict[str, Any]) -> None:
    d["phases"][2]["identical"] = "last_played_wins"


# --- the deck and the deal -------------------------------------------------------------------


def test_pinochle_deck_has_48_cards_two_of_each() -> None:
    """"Pinochle Deck (all 9,10,J,Q,K,A from 2 normal decks. Thus 48 cards)": every card twice,
    each copy named, so a record says which one moved."""
    g = Game.from_system("bid-euchre")
    deck = g.deck
    assert deck.size == 48
    faces = [f"{r}{s}" for s in "CDHS" for r in ("9", "10", "J", "Q", "K", "A")]
    assert sorted(deck.names) == sorted(f"{f}#{k}" for f in faces for k in (1, 2))
    assert deck.parse("QH#1") != deck.parse("QH#2")
    with pytest.raises(KeyError, match="ambiguous"):
        deck.parse("QH")


def test_everyone_gets_12_cards_and_none_remain() -> None:
    """"Begin by dealing out all the cards to everyone, (thus each person gets 12 cards) There is no
    kitty, and no cards remaining.\""""
    g = Game.from_system("bid-euchre")
    for seed in range(5):
        st = g.new_initial_state(seed)
        assert [h.bit_count() for h in st.hands] == [12, 12, 12, 12]
        assert all(not p for p in st.piles.values())
        union = 0
        for h in st.hands:
            assert union & h == 0  # no card, and no copy, is dealt twice
            union |= h
        assert union == g.deck.full_mask


def test_an_explicit_deal_must_name_each_copy() -> None:
    """Copies are distinct cards: a deal naming a bare QH, or one copy twice, is refused."""
    g = Game.from_system("bid-euchre")
    bare = deal_of(PLAN_MADE)
    bare["hands"][0] = ["QH" if c == "QH#2" else c for c in bare["hands"][0]]
    with pytest.raises(RecordError, match="'QH' is ambiguous: the deck holds 2 copies; write QH#1 or QH#2"):
        g.new_initial_state(0, [bare])
    twice = deal_of(PLAN_MADE)
    twice["hands"][0] = ["QH#1" if c == "QH#2" else c for c in twice["hands"][0]]
    with pytest.raises(RecordError, match="more often than the deck holds it"):
        g.new_initial_state(0, [twice])


@pytest.mark.parametrize(("packets", "first_seat_positions"), [
    # deck positions (top first) of the first seat's cards, worked out from the packet pattern:
    ("twos_and_threes", [0, 1, 8, 9, 10, 20, 21, 28, 29, 30, 40, 41]),  # 2, 3, 2, 3, 2 round the table
    ("ones", list(range(0, 48, 4))),
    ("fours", [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35]),
])
def test_deal_packets_each_reading(packets: str, first_seat_positions: list[int]) -> None:
    """Ambiguity deal-packets: "Begin by dealing out all the cards to everyone" gives no packets; each
    reading deals 12 each from the top, the first packet to the dealer's left."""
    g = Game.from_system("bid-euchre", {"deal_packets": packets})
    order = list(range(48))  # the deck's card ids as the shuffled order, top first
    hands, piles = g.deal.deal(order, [1, 2, 3, 0], 4)
    assert piles == {}
    assert sorted(g.deck.cards_of(hands[1])) == first_seat_positions
    assert [h.bit_count() for h in hands] == [12] * 4


def test_deal_packets_readings_are_distinguishable() -> None:
    """The same seed deals different hands under each packet reading (records differ)."""
    hands = {p: Game.from_system("bid-euchre", {"deal_packets": p}).new_initial_state(11).hands
             for p in ("twos_and_threes", "ones", "fours")}
    assert len({tuple(h) for h in hands.values()}) == 3


# --- the auction ---------------------------------------------------------------------------


def test_left_of_dealer_begins_the_bidding_with_a_number_and_a_suit() -> None:
    """"The person to the left of the dealer begins the bidding by saying how many tricks they believe
    their team will take, and what suit they’d like trump to be." Bids run 1..12 (highest-bid)."""
    g, st = new_state()
    assert st.current_player() == 1
    names = st.legal_action_names()
    assert names[0] == "pass"
    assert len(names) == 1 + 12 * 4
    assert {"bid 1 C", "bid 6 H", "bid 12 S"} <= set(names)
    assert not any(n.startswith("bid 13") for n in names)
    with pytest.raises(InvalidActionError):
        g.parse_action("bid 13 H")  # no such bid: the highest is 12
    with pytest.raises(InvalidActionError):
        g.parse_action("bid 6 NT")  # a bid names a suit: "what suit they’d like trump to be"


def test_next_person_must_bid_higher_or_pass() -> None:
    """"The next person must either bid higher (i.e. say a higher number of tricks they expect to take)
    along with a trump suit [which may be the same as the previous person’s trump suit bid] or they
    must pass.\""""
    _, st = new_state()
    act(st, "bid 6 H")
    assert st.current_player() == 2
    names = set(st.legal_action_names())
    assert "pass" in names and "bid 7 H" in names  # the same suit may be bid again, one higher
    assert {n for n in names if n.startswith("bid")} == {f"bid {k} {s}" for k in range(7, 13) for s in "CDHS"}
    for low in ("bid 6 S", "bid 6 H", "bid 3 C"):
        with pytest.raises(IllegalActionError) as exc:
            st.apply_name(low)
        assert exc.value.source is not None and "bid higher" in exc.value.source.quote
        assert "6 H" in exc.value.reason
    assert st.current_player() == 2 and len(st.history) == 1  # refused actions change nothing


def test_one_round_ending_with_the_dealer_then_the_high_bidder_leads() -> None:
    """"This continues around the table until we get to the dealer, who bids or passes like everyone
    else." / "the person with the highest bid begins by laying out a card": one round only, and the
    last, highest bid is the contract."""
    g, st = new_state()
    act(st, "bid 6 H", "pass", "bid 7 S")
    assert st.current_player() == 0  # the dealer
    assert "pass" in st.legal_action_names()  # someone has bid: the dealer may pass
    act(st, "pass")
    assert st.contract.trump == g.deck.suits.index("S") and st.contract.maker == 3
    assert st.comp.kind == "tricks" and st.current_player() == 3  # seat 1 gets no second turn
    assert all(n.startswith("play ") for n in st.legal_action_names())
    assert auction(g).contract(st) == (3, 7, g.deck.suits.index("S"))


def test_auction_sequences_counted_by_hand() -> None:
    """The number of legal action sequences of the auction, counted from the rules alone: with a standing
    bid of h (0: none) a player has 1 + 4 (12 - h) choices (pass, or a higher number in any of four
    suits), except the forced dealer, who may not pass when nobody has bid."""
    from cardspec.vectors import perft

    def choices(h: int) -> int:
        return 1 + 4 * (12 - h)

    counts, standing = [], {0: 1}  # sequences so far, by standing bid
    for _ in range(3):
        counts.append(sum(n * choices(h) for h, n in standing.items()))
        after: dict[int, int] = {}
        for h, n in standing.items():
            after[h] = after.get(h, 0) + n
            for k in range(h + 1, 13):
                after[k] = after.get(k, 0) + 4 * n
        standing = after
    _, st = new_state()
    assert [perft(st, d) for d in (1, 2, 3)] == counts == [49, 1153, 17393]
    act(st, "pass", "pass", "pass")
    assert perft(st, 1) == choices(0) - 1


def test_dealer_bidding_last_may_outbid() -> None:
    """The dealer "bids or passes like everyone else": a higher bid by the dealer takes the contract."""
    g, st = new_state()
    act(st, "bid 6 H", "pass", "pass", "bid 8 D")
    assert st.contract.maker == 0 and st.contract.trump == g.deck.suits.index("D") and st.current_player() == 0


def test_dealer_must_bid_when_no_one_has() -> None:
    """"assuming no one has bid the dealer must bid": after three passes the dealer may not pass,
    and (forced-dealer-bid, decision any) may make any bid."""
    g, st = new_state()
    act(st, "pass", "pass", "pass")
    assert st.current_player() == 0
    names = st.legal_action_names()
    assert "pass" not in names and len(names) == 12 * 4
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("pass")
    assert exc.value.source is not None and exc.value.source.quote == "assuming no one has bid the dealer must bid"
    act(st, "bid 4 C")
    assert st.contract.maker == 0 and st.contract.trump == g.deck.suits.index("C")
    assert st.current_player() == 0  # the dealer, the highest (only) bidder, leads


def test_forced_dealer_bid_readings() -> None:
    """Ambiguity forced-dealer-bid ("May as well bid 1, and pick a suit."): under `minimum` the forced
    dealer bids exactly 1; under `any` any number. An unforced dealer is not limited either way."""
    for reading, numbers in (("any", set(range(1, 13))), ("minimum", {1})):
        _, st = new_state(options={"forced_bid": reading})
        act(st, "pass", "pass", "pass")
        names = st.legal_action_names()
        assert {int(n.split()[1]) for n in names} == numbers
        assert {n.split()[2] for n in names} == set("CDHS")
        if reading == "minimum":
            with pytest.raises(IllegalActionError) as exc:
                st.apply_name("bid 4 C")
            assert exc.value.source is not None and exc.value.source.quote == "May as well bid 1, and pick a suit."
        _, st2 = new_state(options={"forced_bid": reading})
        act(st2, "bid 2 C", "pass", "pass")
        assert "bid 9 D" in st2.legal_action_names() and "pass" in st2.legal_action_names()


def test_outbid_readings() -> None:
    """Ambiguity outbid-by-suit: under `higher_number_or_new_suit`, 6 S outbids 6 H (but 6 H does not
    outbid itself, and 5 S is still too low); under the decision it is refused."""
    g, st = new_state(options={"outbid": "higher_number_or_new_suit"})
    act(st, "bid 6 H")
    names = set(st.legal_action_names())
    assert {"bid 6 C", "bid 6 D", "bid 6 S"} <= names and "bid 6 H" not in names and "bid 5 S" not in names
    act(st, "bid 6 S", "pass", "pass")
    assert st.contract.maker == 2 and st.contract.trump == g.deck.suits.index("S")
    _, st2 = new_state()
    act(st2, "bid 6 H")
    with pytest.raises(IllegalActionError):
        st2.apply_name("bid 6 S")


def test_highest_bid_readings() -> None:
    """Ambiguity highest-bid: bids stop at 12 (decision); under the reading "24" a bid of 13 is legal,
    can never be made (12 tricks), and a set costs "negative your bid": -13."""
    _, st = new_state(options={"max_bid": 24})
    names = st.legal_action_names()
    assert "bid 13 H" in names and "bid 24 S" in names and "bid 25 S" not in names
    act(st, "bid 13 H", "pass", "pass", "pass")
    play_plan(st, PLAN_MADE)
    assert st.hand_results[0]["scores"] == [4, -13]


# --- trick play ------------------------------------------------------------------------------


def test_identical_cards_the_one_laid_first_wins() -> None:
    """"since there is 2 of every card, the card laid first is higher than a card laid second. (e.g. if I
    lay the Queen of hearts, and you lay the Queen of hearts after me, my Queen is higher than yours.)"
    Spades trump; seat 1 leads QH#2 and seat 2 covers with QH#1: seat 1 wins, whatever the copy numbers."""
    deal = {"dealer": 0, "piles": {}, "hands": [
        ["9H#1", "9C#1", "9C#2", "10C#1", "10C#2", "JC#1", "JC#2", "QC#1", "QC#2", "KC#1", "KC#2", "AC#1"],
        ["QH#2", "AS#1", "AS#2", "KS#1", "KS#2", "QS#1", "QS#2", "10S#1", "10S#2", "9S#1", "9S#2", "AC#2"],
        ["QH#1", "9D#1", "9D#2", "10D#1", "10D#2", "QD#1", "QD#2", "KD#1", "KD#2", "AD#1", "AD#2", "JS#1"],
        ["10H#1", "10H#2", "9H#2", "JH#1", "JH#2", "KH#1", "KH#2", "AH#1", "AH#2", "JD#1", "JD#2", "JS#2"],
    ]}
    g = Game.from_system("bid-euchre")
    st = g.new_initial_state(0, [deal])
    act(st, "bid 1 S", "pass", "pass", "pass")
    assert st.current_player() == 1
    assert trick(st, "QH#2", "QH#1", "10H#1", "9H#1") == 1
    # the reference path (ranking.trick_winner, the kernel) agrees with the inlined one
    assert st.contract.tt is not None
    row = st.contract.tt.power[g.deck.suits.index("H")]
    assert trick_winner(row, [g.deck.parse(c) for c in ("QH#2", "QH#1", "10H#1", "9H#1")]) == 0
    assert trick_winner(row, [g.deck.parse(c) for c in ("QH#1", "QH#2", "10H#1", "9H#1")]) == 0
    play = g.phases[2]
    assert isinstance(play, Tricks) and play.identical == "first_played_wins" and not play.last_wins
    assert play.identical_source.quote.endswith("the card laid first is higher than a card laid second")


def test_identical_left_bowers_the_first_laid_wins() -> None:
    """With hearts trump both Jacks of diamonds are left bowers ("Card Hierarchy is the same as Euchre"):
    the first laid wins, as in trick 3 of the planned hand where JD#1 beats every other trump, and in
    trick 2 where the second right bower laid beats everything (the first, JH#1, is gone)."""
    g, st = new_state()
    act(st, "bid 6 H", "pass", "pass", "pass")
    assert trick(st, *PLAN_MADE[0][1]) == 1
    assert trick(st, *PLAN_MADE[1][1]) == 3
    assert trick(st, *PLAN_MADE[2][1]) == 3
    # two left bowers in one trick: the first laid (by seat 3) beats the second (by seat 0)
    tt = g.trick_tables(g.deck.suits.index("H"), -1)
    jd1, jd2, ah = g.deck.parse("JD#1"), g.deck.parse("JD#2"), g.deck.parse("AH#1")
    row = tt.power[g.deck.suits.index("C")]
    assert row[jd1] == row[jd2] > row[ah]
    assert trick_winner(row, [ah, jd2, jd1]) == 1 and trick_winner(row, [ah, jd1, jd2]) == 1


def test_identical_rule_is_a_tricks_parameter_both_paths() -> None:
    """`identical: last_played_wins` (for another system) reverses the tie in the kernel, the reference
    path and the inlined fast path alike."""
    powers = (0, 105, 105, 103)
    assert kernels.trick_winner((105, 105, 103)) == 0
    assert kernels.trick_winner((105, 105, 103), last_wins=True) == 1
    assert trick_winner(powers, [1, 2, 3]) == 0 and trick_winner(powers, [1, 2, 3], last_wins=True) == 1
    assert winner_fast(powers, [1, 2, 3]) == 0 and winner_fast(powers, [1, 2, 3], last_wins=True) == 1
    assert winner_fast(powers, [3, 1, 2], last_wins=True) == 2  # a strictly higher card still wins
    g = variant(last_played_wins)
    st = g.new_initial_state(0, [deal_of(PLAN_MADE)])
    act(st, "bid 6 H", "pass", "pass", "pass")
    for _, cards, _ in PLAN_MADE[:5]:
        trick(st, *cards)
    # trick 6: QC#1 QC#2 KC#1 KC#2 by seats 1 2 3 0: the second king (seat 0) now wins
    assert trick(st, *PLAN_MADE[5][1]) == 0
    with pytest.raises(Exception, match="identical must be"):
        variant(lambda d: d["phases"][2].update(identical="random"))


def test_follow_suit_with_copies() -> None:
    """"You must play/follow the same suit that was lead if you have that suit." Legal plays name the
    first copy held; playing the other copy of a held card is legal too."""
    _, st = new_state()
    act(st, "bid 6 H", "pass", "pass", "pass", "play JH#1")
    # seat 2 holds 9H#1, QH#1 and AH#1 (trumps): it must play one of them
    assert st.current_player() == 2
    assert {n.split()[1] for n in st.legal_action_names()} == {"9H#1", "QH#1", "AH#1"}
    with pytest.raises(IllegalActionError):
        st.apply_name("play JC#1")


# --- scoring -------------------------------------------------------------------------------------


def test_bidders_who_make_score_every_trick_they_took() -> None:
    """"If your team’s bid was highest, and you take at least how many you bid, you get 1 point for every
    trick you took. (e.g. If you bid 6 Hearts, and took 8 tricks, you get 8 points.)" and "If your team did
    not have the highest bid, you get 1 point for every trick you took." (the defenders took 4)."""
    _, st = new_state(PLAN_MADE)
    act(st, "bid 6 H", "pass", "pass", "pass")
    play_plan(st, PLAN_MADE)
    r = st.hand_results[0]
    assert r["trick_winners"] == [w for _, _, w in PLAN_MADE]
    assert r["scores"] == [4, 8] and r["totals"] == [4, 8]
    assert r["contract"] == {"seat": 1, "bid": 6, "suit": "H"} and r["maker"] == 1 and r["trump"] == "H"


def test_bidders_who_fail_get_negative_their_bid() -> None:
    """"If your team’s bid was highest, and you did not take at least how many you bid, you get negative
    your bid. (e.g. If you bid 6 Hearts, and took 5, you get -6 points." The defenders took 7: 7 points."""
    _, st = new_state(PLAN_SET)
    act(st, "bid 6 H", "pass", "pass", "pass")
    play_plan(st, PLAN_SET)
    assert st.hand_results[0]["scores"] == [7, -6]


def test_the_bid_sets_the_line_between_made_and_set() -> None:
    """The same 8 tricks: a bid of 8 is made (8 points), a bid of 9 is set (-9)."""
    for bid, team1 in ((8, 8), (9, -9)):
        _, st = new_state(PLAN_MADE)
        act(st, f"bid {bid} H", "pass", "pass", "pass")
        play_plan(st, PLAN_MADE)
        assert st.hand_results[0]["scores"] == [4, team1]


def test_contract_facts() -> None:
    """The auction's facts for an entity: the team holding the contract has it `made` (its tricks reach
    the bid) or `set`, with its bid; the other team has `none` and 0. Read after 11 tricks: team 1 has
    7 tricks in the "made" hand and 4 in the "set" one. No moon was bid, so `moon` is `none` for both (the
    fact exists under every option, as the scoring table reads it)."""
    for plan, state in ((PLAN_MADE, "made"), (PLAN_SET, "set")):
        g, st = new_state(plan)
        act(st, "bid 6 H", "pass", "pass", "pass")
        for _, cards, _ in plan[:11]:
            trick(st, *cards)
        comp = auction(g)
        # the bidder (seat 1) made trump for its team; someone made it, so trump_made holds for both
        assert comp.hand_facts(st, (1, 3)) == {"maker": True, "trump_made": True, "contract": state, "bid": 6,
                                                 "moon": "none"}
        assert comp.hand_facts(st, (0, 2)) == {"maker": False, "trump_made": True, "contract": "none", "bid": 0,
                                                 "moon": "none"}
        facts = g.scoring.hand_facts(st)
        assert facts[1]["maker"] is True and facts[0]["maker"] is False
    assert g.scoring.facts["contract"] == ("none", "made", "set")
    assert g.scoring.facts["bid"] == tuple(range(13))


# --- going alone ---------------------------------------------------------------------------------


def test_going_alone_readings() -> None:
    """Ambiguity going-alone ("This game is based on normal Euchre"): under the decision nobody is asked
    and the bidder leads at once; under `true` the bidder may go alone and tricks have three cards."""
    _, st = new_state()
    act(st, "bid 6 H", "pass", "pass", "pass")
    assert st.comp.kind == "tricks" and "alone" not in st.legal_action_names()
    _, st2 = new_state(options={"going_alone": True})
    act(st2, "bid 6 H", "pass", "pass", "pass")
    assert st2.current_player() == 1 and set(st2.legal_action_names()) == {"alone", "pass"}
    act(st2, "alone", "play JH#1", "play 9H#1")
    assert st2.current_player() == 0  # seat 3, the partner, sits out
    act(st2, "play 10H#1")
    assert trick_winners(st2) == [1]


# --- the match -----------------------------------------------------------------------------------


def near_target(plan: Plan, totals: list[int], options: dict[str, Any] | None = None) -> State:
    """Play the plan's hand (seat 1 bids 6 H) from the given running totals."""
    _, st = new_state(plan, options)
    st.counters = list(totals)
    act(st, "bid 6 H", "pass", "pass", "pass")
    play_plan(st, plan)
    return st


def test_first_team_to_the_target_wins() -> None:
    """"The first team to a predetermined score (e.g. 50) wins": 45 + 8 reaches 50, 30 + 4 does not."""
    st = near_target(PLAN_MADE, [30, 45])
    assert st.counters == [34, 53] and st.winners == (1, 3)
    st2 = near_target(PLAN_MADE, [30, 40])
    assert st2.winners is None


def test_target_score_readings() -> None:
    """Ambiguity target-score: 25, 50 (decision) or 100; 20 + 8 ends a game to 25 only."""
    assert near_target(PLAN_MADE, [0, 20], {"target": 25}).winners == (1, 3)
    assert near_target(PLAN_MADE, [0, 20]).winners is None
    assert near_target(PLAN_MADE, [0, 95], {"target": 100}).winners == (1, 3)
    assert near_target(PLAN_MADE, [0, 60], {"target": 100}).winners is None


@pytest.mark.parametrize(("reading", "winners", "over"), [
    ("highest", (0, 2), True),  # 49 + 4 = 53 beats 44 + 8 = 52
    ("highest_shared", (0, 2), True),  # the same: only equal totals are shared
    ("bidders", (1, 3), True),  # the bidding team, though lower
    ("extra_hand", None, False),  # another hand is played
])
def test_both_teams_reaching_the_target_readings(reading: str, winners: tuple[int, ...] | None,
                                                 over: bool) -> None:
    """Ambiguity both-teams-reach-target: the made contract and the defenders both pass 50."""
    st = near_target(PLAN_MADE, [49, 44], {"both_reach": reading})
    assert st.counters == [53, 52]
    assert st.is_terminal() == over and st.winners == winners
    if not over:
        assert st.extra_hand and st.hand_no == 1 and st.legal_actions()


@pytest.mark.parametrize(("reading", "winners", "over"), [
    ("highest", None, False),  # equal totals: neither team is first, another hand is played
    ("highest_shared", (0, 1, 2, 3), True),  # equal totals share the win
    ("bidders", (1, 3), True),  # the bidding team
    ("extra_hand", None, False),
])
def test_both_teams_reaching_the_target_with_equal_totals(reading: str, winners: tuple[int, ...] | None,
                                                          over: bool) -> None:
    """Ambiguity both-teams-reach-target, equal totals: 48 + 4 = 52 and 44 + 8 = 52."""
    st = near_target(PLAN_MADE, [48, 44], {"both_reach": reading})
    assert st.counters == [52, 52]
    assert st.is_terminal() == over and st.winners == winners
    if not over:  # the extra hand: a tie after it plays yet another (the spec's extra_hand_tie: another_hand)
        assert st.extra_hand and st.hand_no == 1 and st.legal_actions()


def test_sinking_scores_readings() -> None:
    """Ambiguity sinking-scores ("you get negative your bid"): by the text (decision `none`) a team at -50
    plays on; under a house floor a team at or below it loses and the other team wins."""
    st = near_target(PLAN_SET, [10, -44])
    assert st.counters == [17, -50] and st.winners is None and st.current_player() >= 0
    assert near_target(PLAN_SET, [10, -44], {"floor": "-50"}).winners == (0, 2)
    assert near_target(PLAN_SET, [10, -44], {"floor": "-100"}).winners is None
    assert near_target(PLAN_SET, [10, -20], {"floor": "-25"}).winners == (0, 2)  # -20 - 6 = -26
    assert near_target(PLAN_SET, [10, -20], {"floor": "-50"}).winners is None


def test_deal_passes_to_the_left() -> None:
    """"The person to the left of the dealer is now the new dealer" (from the Euchre section)."""
    _, st = new_state()
    act(st, "bid 6 H", "pass", "pass", "pass")
    play_plan(st, PLAN_MADE)
    assert st.hand_no == 1 and st.dealer == 1 and st.current_player() == 2


# --- records, observation, declarations ------------------------------------------------------


def played_record() -> dict[str, Any]:
    _, st = new_state()
    act(st, "bid 6 H", "pass", "pass", "pass")
    play_plan(st, PLAN_MADE)
    return record_of(st)


def test_a_double_deck_record_replays() -> None:
    """The record names every copy it plays, states the contract, and replays to the same bytes."""
    rec = played_record()
    plays = [a["action"] for a in rec["actions"] if a["action"].startswith("play ")]
    assert len(plays) == 48 and all("#" in p for p in plays)
    assert rec["results"]["hands"][0]["contract"] == {"seat": 1, "bid": 6, "suit": "H"}
    again = replay(json.loads(dumps(rec))).record
    assert dumps(again) == dumps(rec)
    seeded = Game.from_system("bid-euchre").new_initial_state(5)
    while len(seeded.hand_results) < 2:
        seeded.apply(seeded.legal_actions()[-1])  # the highest bid, then the highest-sorted card
    assert dumps(replay(record_of(seeded)).record) == dumps(record_of(seeded))


def test_a_wrong_stated_contract_is_reported() -> None:
    rec = played_record()
    rec["results"]["hands"][0]["contract"] = {"seat": 3, "bid": 6, "suit": "H"}
    with pytest.raises(RecordError, match="states contract") as exc:
        replay(rec)
    assert exc.value.path == "results.hands.0.contract"
    assert exc.value.source is not None and "begins the bidding" in exc.value.source.quote


def test_swapping_which_identical_card_was_laid_first() -> None:
    """Trick 6 of the planned hand: QC#1 QC#2 KC#1 KC#2 by seats 1 2 3 0; seat 3's king, laid first,
    wins. Swapping the two kings in the actions alone is rejected (each seat plays a card it does not
    hold, citing the follow clause); swapping them in the deal too replays, and seat 3 still wins: the
    first laid wins whatever its copy number. Under `identical: last_played_wins` the same record's
    stated trick winners no longer hold."""
    rec = played_record()
    idx = [i for i, a in enumerate(rec["actions"]) if a["action"] in ("play KC#1", "play KC#2")]
    assert [rec["actions"][i]["seat"] for i in idx] == [3, 0]
    swapped = copy.deepcopy(rec)
    swapped["actions"][idx[0]]["action"], swapped["actions"][idx[1]]["action"] = "play KC#2", "play KC#1"
    with pytest.raises(RecordError, match="KC#2 is not in seat 3's hand") as exc:
        replay(swapped)
    assert exc.value.index == idx[0]
    assert exc.value.source is None  # a card not held breaks no clause: no text needs to say "play what you hold"
    hands = swapped["deals"][0]["hands"]
    hands[3][hands[3].index("KC#1")] = "KC#2"
    hands[0][hands[0].index("KC#2")] = "KC#1"
    out = replay(swapped)
    assert out.state.hand_results[0]["trick_winners"][5] == 3
    assert out.record["results"] == rec["results"]


def test_last_played_wins_changes_the_trick_winner(tmp_path: Path) -> None:
    """The same record under a spec whose tricks say `identical: last_played_wins`: seat 0's KC#2, laid
    last, now wins trick 6, so seat 0 must lead trick 7 and the recorded lead by seat 3 is refused."""
    rec = played_record()
    rec["system"] = write_variant(tmp_path, last_played_wins)
    with pytest.raises(RecordError, match="seat 3 acts but it is seat 0's turn") as exc:
        replay(rec)
    assert exc.value.index == 4 + 6 * 4  # four bids, six tricks, then the first card of trick 7


def test_bids_are_public_in_every_observation() -> None:
    _, st = new_state()
    act(st, "bid 6 H", "pass", "bid 7 S")
    obs = st.observation(2)
    assert {"seat": 1, "action": "bid 6 H"} in obs["history"]
    assert {"seat": 3, "action": "bid 7 S"} in obs["history"]
    assert obs["legal"] == [] and obs["to_act"] == 0
    assert sorted(obs["my_cards"]) == sorted(hands_of(PLAN_MADE)[2])
    others = [v for i, v in enumerate(obs["zones"]["hand"]) if i != 2]
    assert others == [{"count": 12}] * 3  # the bids are public, the other hands are not


def test_auction_declarations() -> None:
    """The auction moves no cards, takes at most one turn per player, and offers the contract facts."""
    g = Game.from_system("bid-euchre")
    d = auction(g).declarations()
    assert d.transfers == () and d.actions_per_hand == 4
    assert d.fact_domains()["contract"] == ("none", "made", "set") and d.fact_domains()["bid"][-1] == 12
    assert g.actions_per_hand == 4 + 1 + 48


# --- the auction component's other parameters (for dirty-clubs and buck-euchre-3p) ---------------


def test_auction_redeal_when_everyone_passes() -> None:
    g = variant(lambda d: d["phases"][0].update(all_pass="redeal"))
    st = g.new_initial_state(0, [deal_of(PLAN_MADE)])
    act(st, "pass", "pass", "pass")
    assert "pass" in st.legal_action_names()
    act(st, "pass")
    assert st.hand_no == 1 and st.hand_results[0]["thrown_in"] and st.dealer == 1


def test_auction_until_passes_in_a_row() -> None:
    """`end: {passes: 3}`: bidding goes round until three passes follow a bid."""
    g = variant(lambda d: d["phases"][0].update(end={"passes": 3}))
    st = g.new_initial_state(0, [deal_of(PLAN_MADE)])
    act(st, "bid 2 C", "pass", "pass", "pass")
    assert st.contract.maker == 1
    st2 = g.new_initial_state(0, [deal_of(PLAN_MADE)])
    act(st2, "bid 2 C", "pass", "pass", "bid 3 D", "pass", "bid 4 D", "pass", "pass")
    assert st2.comp.kind == "auction" and st2.current_player() == 1  # two passes after 4 D: not over
    act(st2, "pass")
    assert st2.contract.maker == 2 and st2.contract.trump == g.deck.suits.index("D") and st2.current_player() == 2
    d = auction(g).declarations()
    assert d.actions_per_hand == 12 * 3 + 4


def test_auction_number_only_then_the_bidder_names_trump_or_no_trump() -> None:
    def edit(d: dict[str, Any]) -> None:
        d["phases"][0].update(suit_in_bid=False, no_trump=True, max=5)
    g = variant(edit)
    st = g.new_initial_state(0, [deal_of(PLAN_MADE)])
    assert st.legal_action_names() == ["pass", "bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    act(st, "bid 3", "pass", "pass", "pass")
    assert st.current_player() == 1 and st.comp.kind == "auction"
    assert st.legal_action_names() == ["name C", "name D", "name H", "name S", "name NT"]
    with pytest.raises(IllegalActionError, match="names trump"):
        st.apply_name("bid 4")
    act(st, "name NT")
    assert st.contract.trump == -1 and st.contract.maker == 1 and st.comp.kind == "tricks"
    assert auction(g).result_fields(st) == {"contract": {"seat": 1, "bid": 3, "suit": "NT"}}


def test_auction_clause_errors_name_the_key() -> None:
    from cardspec.engine.errors import SpecError

    for edit, key, message in (
        (lambda d: d["phases"][0].update(min=5, max=3), "phases.0.max", "1 <= min <= max"),
        (lambda d: d["phases"][0].update(suit_in_bid=False, outbid="higher_number_or_new_suit"),
         "phases.0.outbid", "needs bids that name a suit"),
        (lambda d: d["phases"][0].update(end={"rounds": 1, "passes": 2}), "phases.0.end", "exactly one"),
    ):
        with pytest.raises(SpecError, match=message) as exc:
            variant(edit)
        assert exc.value.key == key
