"""Bid Euchre's register entries from the clause-by-clause reading of source 004, each reading pinned.

One test per reading of each entry added by that reading (``no-trump-bids``, ``lowest-bid``, both house
rules; ``won-tricks-face-down``), each named after the clause it reads, and one for the house-rule mark now
carried by ``sinking-scores``. Expected values come from the text and from each reading's own words in the
register, never from engine output.

Seats: dealer 0, so seat 1 bids first; partnerships [0, 2] (team 0) and [1, 3] (team 1).

The deal (each seat's first two cards in the tricks below; the rest as in test_rules_bid_euchre's hand
"made"): trick 1, led by seat 1: JH#1, 9H#1, 9H#2, 10H#1; trick 2, led by the winner of trick 1:
10H#2, QH#1 (seat 2), JH#2 (seat 3), QH#2 (seat 0).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, assert_won_tricks_entry, assert_won_tricks_seen, trick

from cardspec.engine.errors import IllegalActionError, InvalidActionError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "bid-euchre"

# (leader, cards in playing order); each seat's twelve cards are the cards it plays.
PLAN: list[tuple[int, list[str]]] = [
    (1, ["JH#1", "9H#1", "9H#2", "10H#1"]),
    (1, ["10H#2", "QH#1", "JH#2", "QH#2"]),
    (3, ["JD#1", "KH#1", "KH#2", "AH#1"]),
    (3, ["9C#1", "10C#1", "AC#1", "JC#1"]),
    (1, ["AC#2", "9C#2", "10C#2", "JC#2"]),
    (1, ["QC#1", "QC#2", "KC#1", "KC#2"]),
    (3, ["AS#1", "9S#1", "9S#2", "10S#1"]),
    (3, ["10S#2", "AS#2", "JS#1", "JS#2"]),
    (0, ["QS#1", "QS#2", "KS#1", "KS#2"]),
    (2, ["9D#1", "10D#1", "AD#1", "9D#2"]),
    (0, ["10D#2", "QD#1", "AD#2", "QD#2"]),
    (2, ["KD#1", "JD#2", "AH#2", "KD#2"]),
]


def the_deal() -> dict[str, Any]:
    hands: list[list[str]] = [[], [], [], []]
    for leader, cards in PLAN:
        for i, c in enumerate(cards):
            hands[(leader + i) % 4].append(c)
    return {"dealer": 0, "hands": hands, "piles": {}}


def new_state(options: dict[str, Any]) -> tuple[Game, State]:
    g = Game.from_system(SYSTEM, options)
    return g, g.new_initial_state(seed=0, deals=[the_deal()])


def entry(entry_id: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry_id)


# --- no-trump-bids: "saying how many tricks ..., and what suit they’d like trump to be" --------------
def test_what_suit_they_would_like_trump_to_be_every_bid_names_a_suit() -> None:
    """no_trump_bids=false (the decision): no bid names no trump; seat 1 bids 6 hearts and the hand has
    trumps and bowers: in trick 2 seat 3's JH#2 (the right bower) beats both queens of hearts."""
    g, st = new_state({"no_trump_bids": False})
    assert not any(n.endswith(" NT") for n in st.legal_action_names())
    with pytest.raises(InvalidActionError):
        g.parse_action("bid 6 NT")
    act(st, "bid 6 H", "pass", "pass", "pass")
    assert st.current_player() == 1
    assert trick(st, *PLAN[0][1]) == 1
    assert trick(st, *PLAN[1][1]) == 3
    a = entry("no-trump-bids")
    assert a.house_rule and a.decision == "false"


def test_what_suit_they_would_like_trump_to_be_or_no_trump_house_rule() -> None:
    """no_trump_bids=true: a bid may name no trump; seat 1 bids 6 no trump and leads; with no trumps and no
    bowers JH#2 is a plain jack, so in trick 2 the first queen of hearts laid, seat 2's QH#1, wins
    (A-K-Q-J-10-9, "the card laid first is higher")."""
    _g, st = new_state({"no_trump_bids": True})
    assert {"bid 1 NT", "bid 6 NT", "bid 12 NT"} <= set(st.legal_action_names())
    act(st, "bid 6 NT", "pass", "pass", "pass")
    assert st.contract.maker == 1 and st.contract.trump < 0 and st.current_player() == 1
    assert trick(st, *PLAN[0][1]) == 1
    assert trick(st, *PLAN[1][1]) == 2


# --- lowest-bid: "Seriously, bid 1 at the least" ------------------------------------------------------
def test_bid_1_at_the_least_one_is_the_lowest_bid() -> None:
    """min_bid=1 (the decision): the first bidder may bid one; a dealer forced to bid the minimum
    (forced_bid=minimum) bids one in a suit of its choice."""
    _g, st = new_state({"min_bid": 1})
    assert {"bid 1 C", "bid 2 H"} <= set(st.legal_action_names())
    _g, st = new_state({"min_bid": 1, "forced_bid": "minimum"})
    act(st, "pass", "pass", "pass")
    assert st.current_player() == 0
    assert st.legal_action_names() == ["bid 1 C", "bid 1 D", "bid 1 H", "bid 1 S"]
    a = entry("lowest-bid")
    assert a.house_rule and a.decision == "1"


def test_bid_1_at_the_least_house_floor_of_three() -> None:
    """min_bid=3 (a house rule): the lowest bid is three - bids of one or two are refused - and a dealer
    forced to bid the minimum bids three."""
    _g, st = new_state({"min_bid": 3})
    names = st.legal_action_names()
    assert "bid 3 C" in names and not any(n.split()[1] in ("1", "2") for n in names if n != "pass")
    with pytest.raises((IllegalActionError, InvalidActionError)):
        st.apply_name("bid 2 H")
    _g, st = new_state({"min_bid": 3, "forced_bid": "minimum"})
    act(st, "pass", "pass", "pass")
    assert st.legal_action_names() == ["bid 3 C", "bid 3 D", "bid 3 H", "bid 3 S"]


# --- sinking-scores: a floor is a house rule ------------------------------------------------------------
def test_negative_your_bid_a_losing_floor_is_a_house_rule() -> None:
    """The text's only end is "The first team to a predetermined score (e.g. 50) wins"; its floors are
    registered as house rules, and the decision (no floor) is the text."""
    a = entry("sinking-scores")
    assert a.house_rule and a.decision == "none" and set(a.readings) == {"none", "-25", "-50", "-100"}


# --- bidding-rounds (a house rule): "This continues around the table until we get to the dealer, who bids or
# passes like everyone else." ---------------------------------------------------------------------------------


def outbid_then_two_passes(option: str) -> State:
    """Seat 1 bids 1 H, seat 2 bids 2 H, seats 3 and 0 (the dealer) pass."""
    _, st = new_state({"bidding_end": option})
    for text in ("bid 1 H", "bid 2 H", "pass", "pass"):
        st.apply_name(text)
    return st


def test_until_we_get_to_the_dealer_one_round_of_bidding() -> None:
    """Reading one_round (the text): the dealer's pass ends the bidding; seat 2's 2 H stands and seat 1,
    outbid, does not bid again (the next actions are the going-alone question or play)."""
    assert entry("bidding-rounds").decision == "one_round"
    st = outbid_then_two_passes("one_round")
    assert st.contract.maker == 2
    assert not any(a.startswith("bid ") for a in st.legal_action_names())


def test_until_three_pass_in_a_row_the_outbid_player_bids_again() -> None:
    """Reading until_three_pass (a house rule): after 2 H only two players passed, so seat 1 may bid again,
    above 2; three passes in a row then end it."""
    assert entry("bidding-rounds").house_rule
    st = outbid_then_two_passes("until_three_pass")
    assert st.current_player() == 1
    names = st.legal_action_names()
    assert "bid 3 S" in names and "bid 2 S" not in names and "pass" in names
    st.apply_name("bid 3 S")
    for _ in range(3):
        st.apply_name("pass")
    assert st.contract.maker == 1
    assert not any(a.startswith("bid ") for a in st.legal_action_names())


# --- shooting-the-moon (a house rule): "If your team’s bid was highest, and you take at least how many you
# bid, you get 1 point for every trick you took." ------------------------------------------------------------
# Seat 1 holds the twelve best hearts; seats 2 and 0 hold one 9 of hearts each; nobody else holds a heart.
MOON_HEARTS = ["JH#1", "JH#2", "JD#1", "JD#2", "AH#1", "AH#2", "KH#1", "KH#2", "QH#1", "QH#2", "10H#1", "10H#2"]
OTHERS = [f"{r}{s}#{k}" for s in "CDS" for r in ("9", "10", "J", "Q", "K", "A") for k in (1, 2)
          if f"{r}{s}" != "JD"]  # 34 cards


def moon_deal(seat1: list[str], seat2: list[str], seat0: list[str]) -> dict[str, Any]:
    """Dealer 0; seats 1, 2 and 0 as given, seat 3 the rest of the pack."""
    taken = set(seat1) | set(seat2) | set(seat0)
    rest = [c for c in [*MOON_HEARTS, "9H#1", "9H#2", *OTHERS] if c not in taken]
    return {"dealer": 0, "hands": [seat0, seat1, seat2, rest], "piles": {}}


def made_moon_deal() -> dict[str, Any]:
    return moon_deal(MOON_HEARTS, ["9H#1", *OTHERS[:11]], ["9H#2", *OTHERS[11:22]])


def moon_state(options: dict[str, Any], deal: dict[str, Any]) -> tuple[Game, State]:
    g = Game.from_system(SYSTEM, options)
    return g, g.new_initial_state(seed=0, deals=[deal])


def test_you_get_1_point_for_every_trick_no_moon_bid() -> None:
    """shoot_the_moon=false (the decision): there is no moon bid; the best bid for seat 1's twelve top hearts
    is "bid 12 H", and taking all 12 tricks (the partner playing too) scores "1 point for every trick you
    took": 12, and the other team 0."""
    g, st = moon_state({"shoot_the_moon": False}, made_moon_deal())
    assert not any("moon" in n for n in st.legal_action_names())
    with pytest.raises(InvalidActionError):
        g.parse_action("bid moon H")
    act(st, "bid 12 H", "pass", "pass", "pass")
    assert st.contract.out == 0 and st.current_player() == 1
    deal = made_moon_deal()
    s0, s2, s3 = deal["hands"][0], deal["hands"][2], deal["hands"][3]
    for i, lead in enumerate(MOON_HEARTS):  # seat 1 leads a heart every trick; order 1, 2, 3, 0
        assert trick(st, lead, s2[i], s3[i], s0[i]) == 1, f"trick {i + 1}"
    result = st.hand_results[-1]
    assert result["scores"] == [0, 12]
    assert entry("shooting-the-moon").decision == "false"


def test_shooting_the_moon_alone_for_every_trick_scores_24() -> None:
    """shoot_the_moon=true (a house rule): seat 1 bids the moon in hearts; nothing outbids it, so the others
    may only pass; the partner (seat 3) sits out unplayed and passes no card, so each trick has three cards
    (seats 1, 2, 0). Seat 1 takes all 12 tricks: the moon is made for 24 (not 12), the defenders 0."""
    a = entry("shooting-the-moon")
    assert a.house_rule and set(a.readings) == {"false", "true"}
    g, st = moon_state({"shoot_the_moon": True}, made_moon_deal())
    assert {"bid moon C", "bid moon H"} <= set(st.legal_action_names())
    act(st, "bid moon H")
    assert st.legal_action_names() == ["pass"]  # nothing outbids a moon
    with pytest.raises(IllegalActionError):
        st.apply_name("bid 12 S")
    act(st, "pass", "pass", "pass")
    assert st.contract.maker == 1 and st.contract.trump == g.deck.suits.index("H")
    assert st.contract.out == 1 << 3  # the partner sits out
    assert st.current_player() == 1
    deal = made_moon_deal()
    s0, s2 = deal["hands"][0], deal["hands"][2]
    for i, lead in enumerate(MOON_HEARTS):
        st.apply_name(f"play {lead}")
        st.apply_name(f"play {s2[i]}")
        assert i == 11 or st.current_player() == 0  # seat 3 is skipped
        if i < 11:
            assert trick(st, s0[i]) == 1
        else:
            st.apply_name(f"play {s0[i]}")
    result = st.hand_results[-1]
    assert result["trick_winners"] == [1] * 12
    assert result["scores"] == [0, 24]
    assert len(deal["hands"][3]) == 12 and st.hands[3].bit_count() == 12  # seat 3's hand was never played


def test_a_moon_bidder_already_alone_is_not_asked_to_go_alone() -> None:
    """going_alone and shoot_the_moon both on: a moon is played alone already, so its bidder is not asked
    "alone" (it would change nothing) and leads at once; a number bidder is still asked."""
    _g, st = moon_state({"shoot_the_moon": True, "going_alone": True}, made_moon_deal())
    act(st, "bid moon H", "pass", "pass", "pass")
    assert st.current_player() == 1 and st.contract.out == 1 << 3
    assert all(n.startswith("play ") for n in st.legal_action_names())
    _g2, st = moon_state({"shoot_the_moon": True, "going_alone": True}, made_moon_deal())
    act(st, "bid 12 H", "pass", "pass", "pass")
    assert st.current_player() == 1 and set(st.legal_action_names()) == {"pass", "alone"}


def test_shooting_the_moon_outbids_every_number_bid() -> None:
    """shoot_the_moon=true: after a bid of 12, the highest number, the next player may still bid the moon."""
    _g, st = moon_state({"shoot_the_moon": True}, made_moon_deal())
    act(st, "bid 12 C")
    names = st.legal_action_names()
    assert not any(n.startswith("bid 1") for n in names)  # no number outbids 12
    assert "bid moon S" in names


def test_shooting_the_moon_set_loses_24() -> None:
    """shoot_the_moon=true: seat 1 holds eleven top hearts and the 9 of clubs; it takes eleven tricks, then
    its 9 of clubs loses the last to seat 2's ace. The moon is set: team 1 loses 24 (not its bid), and team 0
    scores the one trick it took ("If your team did not have the highest bid, you get 1 point for every
    trick you took")."""
    seat1 = [*MOON_HEARTS[:11], "9C#1"]
    seat2 = ["9H#1", "10H#2", "AC#1", *[c for c in OTHERS if c not in ("9C#1", "AC#1")][:9]]
    seat0 = ["9H#2", *[c for c in OTHERS if c not in seat1 and c not in seat2][:11]]
    deal = moon_deal(seat1, seat2, seat0)
    _g, st = moon_state({"shoot_the_moon": True}, deal)
    act(st, "bid moon H", "pass", "pass", "pass")
    # tricks 1 and 2: seat 2 follows hearts (9H#1, then 10H#2); seat 0 follows with 9H#2 once
    assert trick(st, "JH#1", "9H#1", "9H#2") == 1
    assert trick(st, "JH#2", "10H#2", seat0[1]) == 1
    for i in range(2, 11):
        assert trick(st, seat1[i], seat2[i + 1], seat0[i]) == 1, f"trick {i + 1}"
    assert trick(st, "9C#1", "AC#1", seat0[11]) == 2
    result = st.hand_results[-1]
    assert result["trick_winners"] == [1] * 11 + [2]
    assert result["scores"] == [1, -24]


# --- low-no-trump (a house rule): "For most suits the rising value of cards is as follows 9->10->J->Q->K->A." -----
def test_rising_value_9_to_a_no_trump_is_ace_high() -> None:
    """low_no_trump=false (the decision), with no-trump bids: there is no low bid, and a no-trump hand ranks
    "9->10->J->Q->K->A": in trick 1 seat 1's JH#1 beats the two nines and the ten."""
    g, st = new_state({"no_trump_bids": True, "low_no_trump": False})
    assert not any("low" in n for n in st.legal_action_names())
    with pytest.raises(InvalidActionError):
        g.parse_action("bid low 6")
    act(st, "bid 6 NT", "pass", "pass", "pass")
    assert trick(st, *PLAN[0][1]) == 1
    assert entry("low-no-trump").decision == "false"


def test_rising_value_reversed_in_a_low_no_trump_hand() -> None:
    """low_no_trump=true (a house rule, with no-trump bids): seat 1 bids low 6 and leads; every suit runs
    9 high down to the ace, with no trumps and no bowers. Trick 1 (JH#1, 9H#1, 9H#2, 10H#1): the first nine
    laid, seat 2's 9H#1, wins (not seat 1's jack). Trick 2, led by seat 2 (QH#1, JH#2, QH#2, 10H#2): the ten,
    seat 1's, is highest."""
    a = entry("low-no-trump")
    assert a.house_rule and a.with_options == {"no_trump_bids": True} and a.only_with
    g, st = new_state({"no_trump_bids": True, "low_no_trump": True})
    names = st.legal_action_names()
    assert {"bid low 1", "bid low 6", "bid low 12", "bid 6 NT"} <= set(names)
    act(st, "bid low 6", "pass", "pass", "pass")
    assert st.contract.maker == 1 and st.contract.trump < 0 and st.current_player() == 1
    assert trick(st, "JH#1", "9H#1", "9H#2", "10H#1") == 2
    assert trick(st, "QH#1", "JH#2", "QH#2", "10H#2") == 1
    assert g.phases[0].result_fields(st)["contract"] == {"seat": 1, "bid": 6, "suit": "NT"}


def test_low_bid_outbids_as_a_no_trump_bid_of_that_number() -> None:
    """low_no_trump=true: "bid higher (i.e. say a higher number of tricks ...)": after bid 6 NT a low bid must
    name more tricks (low 7), and after low 6 a no-trump bid of 6 does not outbid it."""
    _g, st = new_state({"no_trump_bids": True, "low_no_trump": True})
    act(st, "bid 6 NT")
    names = set(st.legal_action_names())
    assert "bid low 7" in names and "bid low 6" not in names
    _g, st = new_state({"no_trump_bids": True, "low_no_trump": True})
    act(st, "bid low 6")
    names = set(st.legal_action_names())
    assert "bid 6 NT" not in names and "bid 7 NT" in names


def test_low_no_trump_only_with_no_trump_bids() -> None:
    """The low reading is played only with no-trump bids (the option requires no_trump_bids=true)."""
    with pytest.raises(Exception, match="no_trump_bids"):
        Game.from_system(SYSTEM, {"low_no_trump": True})


@pytest.mark.pure_only  # it patches a Game method
def test_low_no_trump_ranking_is_modelled_by_the_verifier() -> None:
    """The z3 ranking model knows the low order: the engine's low tables agree with it, and engine tables that
    ignored the low order (ranking low no-trump hands ace high) would be reported as a counterexample."""
    import dataclasses

    from cardspec.verification import ranking as vr

    opts = {"no_trump_bids": True, "low_no_trump": True}
    assert vr.engine_agrees(Game.from_system(SYSTEM, opts)) == (True, None)
    broken = Game.from_system(SYSTEM, opts)
    assert broken.ranking is not None
    broken.ranking = dataclasses.replace(broken.ranking, low=broken.ranking.plain)
    model = Game.from_system(SYSTEM, opts)
    model.trick_tables = broken.trick_tables  # type: ignore[method-assign]
    ok, witness = vr.engine_agrees(model)
    assert not ok and witness is not None and witness["trump"] == "low"


# --- won-tricks-face-down: "takes the cards, and keeps then in front of them" ---------------------------
def after_first_trick(option: str) -> State:
    """Seat 1 bids 6 hearts and leads JH#1, the right bower, to trick 1 (JH#1, 9H#1, 9H#2, 10H#1): the
    person laying the winning card, seat 1, takes the cards and leads the next trick."""
    _, st = new_state({"won_tricks": option})
    act(st, "bid 6 H", "pass", "pass", "pass")
    assert trick(st, *PLAN[0][1]) == 1
    assert st.current_player() == 1
    return st


def test_takes_the_cards_and_keeps_them_face_down_only_the_count_is_seen() -> None:
    """won_tricks=face_down (the decision): to the taker (seat 1) and to every other seat alike, seat 1
    holds the four cards of one trick and the others none; no card taken is shown, not even to the taker."""
    st = after_first_trick("face_down")
    assert_won_tricks_seen(st, [0, 4, 0, 0], None)
    assert_won_tricks_entry(SYSTEM)


def test_takes_the_cards_and_keeps_them_face_up_every_card_taken_is_seen() -> None:
    """won_tricks=face_up: every card taken stays in view of every seat, the taker's or not: JH#1, 9H#1,
    9H#2 and 10H#1 lie before seat 1, nothing before the others."""
    st = after_first_trick("face_up")
    assert_won_tricks_seen(st, [0, 4, 0, 0], {1: PLAN[0][1]})
