"""What the fifth review found in buck-euchre-3p and bird-dog's turned cards, each rebuilt from seeded records.

4a. A record claiming a match win for a hand of five tricks cites "In this version, winning five tricks just
    allows you to subtract five points, not win the whole game." (``match.end.no_instant_win``).
4b. A bid by a player who passed earlier is allowed by "... this does not prevent you from bidding in future if
    the turn comes around to you again." (the auction's ``rebid_source``, what a conformance run cites).
4c. A bid written with a suit ("bid 1 H") cites "... but no suit is mentioned as part of the bid." and names
    where in the hand it is (the auction's ``no_suit_source``).
6.  bird-dog-21 and -11: a turned card flipped face down when everyone passed is no longer listed as turned up
    ("Cards that were not flipped (or were flipped face-down) remain face-down for the hand."); the card that
    fixes trump is.
7.  buck-euchre-3p: the ``sinking-scores`` entry records that the text has no losing score; its ceilings are
    playable readings that end random matches.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.components.auction import Auction
from cardspec.engine.game import Game
from cardspec.engine.record import record_of
from cardspec.engine.spec import load

FIVE = "In this version, winning five tricks just allows you to subtract five points, not win the whole game."
REBID = ("If you do not wish to bid higher you can pass, and this does not prevent you from bidding in future if the "
         "turn comes around to you again.")
NO_SUIT = ("A bid is the number of tricks the player offers to win if allowed to choose trumps, but no suit is "
           "mentioned as part of the bid.")
FACE_DOWN = "Cards that were not flipped (or were flipped face-down) remain face-down for the hand."
VISIBLE = "The card determining the trump suit remains visible throughout the hand."


# --- 4a. five tricks do not win the match ---------------------------------------------------------------------
def test_a_win_claimed_for_five_tricks_cites_the_five_tricks_sentence() -> None:
    g = Game.from_system("buck-euchre-3p", {})
    for seed in range(200):
        st, _ = play_stepped(g, seed, "random", hand_limit=1)
        five = [e for e, f in enumerate(st.hand_results[0]["facts"]) if f["tricks"] == 5]
        if five and st.winners is None:
            break
    else:
        raise AssertionError("no seed with five tricks to one player in a hand that does not end the match")
    bad = record_of(st)
    bad["results"]["winners"] = five
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.path == "results.winners", v.line()
    assert v.error.source is not None and v.error.source.quote == FIVE
    other = copy.deepcopy(bad)  # a win claimed after a hand of fewer tricks still cites the end clause
    for seed in range(200):
        st, _ = play_stepped(g, seed, "random", hand_limit=1)
        if all(f["tricks"] < 5 for f in st.hand_results[0]["facts"]) and st.winners is None:
            other = record_of(st)
            break
    other["results"]["winners"] = [0]
    v = audit("t: ", other)
    assert v.error is not None and v.error.source is not None
    assert v.error.source.quote == "The aim is to reach or pass zero."


# --- 4b. a passed player may bid again -----------------------------------------------------------------------
def test_a_bid_by_a_player_who_passed_is_allowed_by_the_rebid_sentence() -> None:
    g = Game.from_system("buck-euchre-3p", {})
    auction = next(p for p in g.phases if isinstance(p, Auction))
    for seed in range(300):
        st, _ = play_stepped(g, seed, "random", hand_limit=1)
        rec = record_of(st)
        replay = g.new_initial_state(rec["seed"])
        passed: set[int] = set()
        for step in rec["actions"]:
            a = g.parse_action(step["action"])
            if replay.phase == auction.index:
                kind = g.codec.kind(a)
                if kind == "pass":
                    passed.add(replay.cur)
                elif kind == "bid" and replay.cur in passed:
                    assert auction.passed_before(replay, replay.cur)
                    src = auction.allow_source(replay, a)
                    assert src is not None and src.quote == REBID
                    return
            replay.apply(a)
    raise AssertionError("no seed where a player bids after passing")


def test_a_first_bid_cites_the_auction_not_the_rebid_sentence() -> None:
    g = Game.from_system("buck-euchre-3p", {})
    auction = next(p for p in g.phases if isinstance(p, Auction))
    st = g.new_initial_state(0)
    while st.phase != auction.index:
        st.apply(st.legal_actions()[0])
    bid = next(a for a in st.legal_actions() if g.codec.kind(a) == "bid")
    src = auction.allow_source(st, bid)
    assert src is not None and src.quote != REBID


# --- 4c. a bid with a suit -------------------------------------------------------------------------------------
def test_a_bid_with_a_suit_cites_the_no_suit_sentence_and_the_action() -> None:
    g = Game.from_system("buck-euchre-3p", {})
    st, _ = play_stepped(g, 0, "random", hand_limit=1)
    bad = record_of(st)
    i = next(k for k, a in enumerate(bad["actions"]) if a["action"].startswith("bid "))
    bad["actions"][i]["action"] += " H"
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == i, v.line()
    assert f"action {i} of the hand" in str(v.error), str(v.error)
    assert v.error.source is not None and v.error.source.quote == NO_SUIT


def test_a_bid_with_a_card_after_its_suit_still_cites_no_clause() -> None:
    """bid-euchre's bids name a suit: a card after it is a word no clause speaks of."""
    g = Game.from_system("bid-euchre", {})
    st, _ = play_stepped(g, 0, "random", hand_limit=1)
    bad = record_of(st)
    i = next(k for k, a in enumerate(bad["actions"]) if a["action"].startswith("bid ") and
             len(a["action"].split()) == 3)
    bad["actions"][i]["action"] += " QH#1"
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == i, v.line()
    assert v.error.source is None


# --- 6. turned cards flipped face down -----------------------------------------------------------------------
@pytest.mark.parametrize("system", ["bird-dog-21", "bird-dog-11", "bird-dog-2p"])
def test_cards_turned_down_are_not_listed_as_turned_up(system: str) -> None:
    """bird-dog-2p too: "Establishing the solo player / Determining trump remains unchanged." """
    g = Game.from_system(system, {})
    st = g.new_initial_state(0)
    first = st.observation(0)["turned_up"]
    assert len(first) == 1
    for _ in range(g.num_players):  # everyone passes the first declare round
        st.apply(g.parse_action("pass"))
    obs = st.observation(0)
    assert obs["up_card"] is not None and obs["turned_up"] == [obs["up_card"]]
    assert first[0] not in obs["turned_up"]
    while st.phase == 0 and "pass" in st.legal_action_names():
        st.apply(g.parse_action("pass"))
    for seat in range(g.num_players):
        obs = st.observation(seat)
        assert len(obs["turned_up"]) == 1 and first[0] not in obs["turned_up"], obs["turned_up"]
    data = load(system).data["phases"][0]
    assert data["turned_down"] == "hidden"
    assert data["turned_down_source"]["quote"] == FACE_DOWN and data["trump_card_source"]["quote"] == VISIBLE


def test_euchre_still_lists_the_turned_down_card() -> None:
    g = Game.from_system("euchre", {})
    st = g.new_initial_state(0)
    up = st.observation(0)["turned_up"]
    for _ in range(4):
        st.apply(g.parse_action("pass"))
    assert st.observation(0)["turned_up"] == up


def test_bird_dog_21_cites_the_own_cards_pair_sentence() -> None:
    data = load("bird-dog-21").data
    assert data["scoring"]["pairs"]["own_cards_source"]["quote"] == \
        "Team members may not combine separately acquired cards to create a pair"


# --- 7. sinking scores -----------------------------------------------------------------------------------------
def test_buck_euchre_3p_registers_the_rising_scores_and_its_ceilings_end_random_matches() -> None:
    spec = load("buck-euchre-3p")
    entry = next(a for a in spec.ambiguities if a.id == "sinking-scores")
    assert entry.option == "ceiling" and entry.decision == "none" and entry.house_rule
    assert set(entry.readings) == {"none", "30", "45", "60"}
    g = Game.from_system("buck-euchre-3p", {"ceiling": "30"})
    ended_by_ceiling = 0
    for seed in range(5):
        st, _ = play_stepped(g, seed, "random")
        assert st.winners is not None
        totals = st.hand_results[-1]["totals"]
        if max(totals) >= 30 and min(totals) > 0:
            ended_by_ceiling += 1
            assert all(totals[s] < 30 for s in st.winners)
    assert ended_by_ceiling > 0


def test_a_start_at_the_ceiling_is_refused() -> None:
    from cardspec.engine.errors import SpecError

    raw: dict[str, Any] = copy.deepcopy(load("buck-euchre-3p").data)
    raw["match"]["end"]["ceiling"] = 15
    from cardspec.engine.match import _check_start

    with pytest.raises(SpecError, match="ceiling"):
        _check_start(raw["match"]["end"], 15, True, Game.from_system("buck-euchre-3p", {}), "x.yaml")
