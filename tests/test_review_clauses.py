"""Review fixes: the clause a rejection cites, for hand-edited records whose verdict and index were already right
(the records are the reviewer's, in ``tests/data/review_clauses/``; each is a simulated match with one edit).

Expected quotes come from the source texts: birdhead (002), the Buck Euchre page with Dirty Clubs and the
three-player game (003), bird-dog-21 (001), hand-and-foot and bid-euchre (004).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cardspec.engine.audit import Verdict, audit

DATA = Path(__file__).resolve().parent / "data" / "review_clauses"

BH_WINNER = ("The player who played the highest card(s) in the trick (if there is more than one player, the last "
             "player in them) takes the trick, and becomes the next start player.")
BH_COUNT = "Each of the other players plays the same number of cards that were led."
DC_NO_BIDDING = "There is no bidding or dropping out"
HF_RATIO = "you are allowed only 1 wild for every 2 “normal” cards"
BE_IDENTICAL = "since there is 2 of every card, the card laid first is higher than a card laid second"
B3_HIGHEST = "It is legal to bid more than five as a sacrifice."
B3_LOWEST = 'The lowest possible bid is "one".'
BD_ONE_NIL = "Only one player may nil per hand."


def _record(name: str) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return rec


def _judge(rec: dict[str, Any]) -> Verdict:
    return audit("t: ", rec)


def _cited(v: Verdict) -> tuple[int | None, str, str | None, str | None]:
    """The rejection's action index, result path, quote and register entry."""
    assert v.verdict == "rejected", v.line()
    assert v.error is not None
    src = v.error.source
    assert src is not None, v.line()
    return v.error.index, v.error.path, src.quote, src.register


# --- 1. birdhead: the trick-winner clause, for a stated winner and for the next lead ----------------------------
def test_birdhead_wrong_stated_trick_winner_cites_the_winner_clause() -> None:
    index, path, quote, _ = _cited(_judge(_record("birdhead-trickwinner")))
    assert (index, path, quote) == (None, "results.hands.0.trick_winners", BH_WINNER)


def test_birdhead_lead_out_of_turn_after_a_trick_cites_the_winner_clause() -> None:
    index, _, quote, _ = _cited(_judge(_record("bh-wrong-leader")))
    assert (index, quote) == (4, BH_WINNER)


# --- 2. birdhead: a follower plays as many cards as were led -------------------------------------------------------
def test_birdhead_one_card_on_a_two_card_lead_cites_the_count_clause() -> None:
    v = _judge(_record("birdhead-renege"))
    index, _, quote, _ = _cited(v)
    assert (index, quote) == (1, BH_COUNT)
    assert v.error is not None and "as many cards as were led (2)" in v.error.message


# --- 3. dirty-clubs: a turned club, no bidding or dropping out ------------------------------------------------------
@pytest.mark.parametrize("action", ["drop", "stay", "bid 1", "pass"])
def test_dirty_clubs_bid_or_drop_after_a_turned_club_cites_no_bidding(action: str) -> None:
    rec = _record("dc-drop-clubs")
    rec["actions"][0]["action"] = action
    index, _, quote, _ = _cited(_judge(rec))
    assert (index, quote) == (0, DC_NO_BIDDING)


def test_dirty_clubs_a_card_not_held_does_not_cite_no_bidding() -> None:
    """Only an earlier phase's own actions cite the clause that closes it; a card not held cites none."""
    rec = _record("dc-drop-clubs")
    del rec["actions"][0]
    rec["actions"][0] = {"seat": rec["actions"][0]["seat"], "action": "play 9H"}
    v = _judge(rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 0
    assert v.error.source is None or v.error.source.quote != DC_NO_BIDDING


# --- 4. hand-and-foot: two wild cards with one natural card -----------------------------------------------------
def test_hand_and_foot_two_wilds_and_one_natural_cite_the_wild_ratio() -> None:
    index, _, quote, _ = _cited(_judge(_record("hf-two-wilds")))
    assert (index, quote) == (13, HF_RATIO)


# --- 5. bid-euchre: the first of two identical cards wins ---------------------------------------------------------
def test_bid_euchre_lead_by_the_second_identical_card_cites_the_identical_clause() -> None:
    index, _, quote, _ = _cited(_judge(_record("be-identical")))
    assert (index, quote) == (48, BE_IDENTICAL)


# --- 6. buck-euchre-3p: a bid past the register's highest bid ------------------------------------------------------
def test_buck_euchre_3p_bid_11_cites_the_highest_bid_register_entry() -> None:
    v = _judge(_record("b3-bid-11"))
    index, _, quote, register = _cited(v)
    assert (index, quote, register) == (2, B3_HIGHEST, "highest-bid")
    assert v.error is not None and "from 1 to 10" in v.error.message


def test_buck_euchre_3p_bid_0_cites_the_lowest_bid() -> None:
    index, _, quote, register = _cited(_judge(_record("b3-bid-0")))
    assert (index, quote, register) == (2, B3_LOWEST, None)


# --- 7. bird-dog-21: a second Nil ----------------------------------------------------------------------------------
def test_bird_dog_21_second_nil_on_the_players_turn_cites_one_nil_a_hand() -> None:
    """The second Nil named by the seat whose turn it is (the first leader): refused by the one-Nil rule."""
    rec = _record("bd-two-nils")
    rec["actions"][2]["seat"] = 1
    v = _judge(rec)
    index, _, quote, _ = _cited(v)
    assert (index, quote) == (2, BD_ONE_NIL)
    assert v.error is not None and "seat 2 has" in v.error.message


def test_bird_dog_21_second_nil_out_of_turn_cites_one_nil_a_hand() -> None:
    """The reviewer's record: a second Nil named by a seat whose turn it is not breaks the one-Nil rule whoever
    names it, so the rule is cited rather than the turn."""
    index, _, quote, _ = _cited(_judge(copy.deepcopy(_record("bd-two-nils"))))
    assert (index, quote) == (2, BD_ONE_NIL)
