"""What a new user's second review of riding-the-bus, the-card-game and hand-and-foot found (helper report,
2026-11-27), each rebuilt here from an explicit deal or a seeded ``cardspec simulate`` record.

1. riding-the-bus: four cards worth exactly 31 between the draw and the discard: register entry ``31-mid-turn``
   (option ``mid_turn_31``; decided ``off``, the three-card hand counts; ``on`` ends the round at once).
2. the-card-game and hand-and-foot: a seat acting out of turn cites the clause saying whose turn it is: the
   first-player clause on a round's first turn, the pass-on clause later, and after a round has ended, the clause
   that ends it.
3. riding-the-bus: ``draw discard`` on the empty discard pile says the pile is empty.
4. a wrong ``ended_by`` in the results cites the clause by which the round ended.
5. hand-and-foot: ``take`` on the empty discard pile says the pile is empty, citing the clause on taking the pile.
6. ``discard_drawn: forbidden`` (a house rule in both specs) cites its register entry, also for going out with the
   card just taken from the discard pile.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from test_review_newuser import _simulated

from cardspec.engine.audit import audit
from cardspec.engine.errors import IllegalActionError, Source
from cardspec.engine.game import Game
from cardspec.engine.spec import load

DOC = "004_945a3021da002f83.txt"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in "CDHS" for r in RANKS]


def _hand_starts(rec: dict[str, Any]) -> list[int]:
    """The index of each hand's first action in ``rec`` (replayed with the engine)."""
    g = Game.from_system(rec["system"], rec["options"])
    st = g.new_initial_state(rec["seed"], copy.deepcopy(rec["deals"]))
    starts = [0]
    for i, step in enumerate(rec["actions"]):
        if st.hand_no >= len(starts):
            starts.append(i)
        assert st.current_player() == step["seat"]
        st.apply_name(step["action"])
    return starts


def _rejected(rec: dict[str, Any]) -> tuple[str, Source | None, int | None, str]:
    """The audit's rejection of ``rec``: its message, its clause, its action index and the path of a result."""
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    return str(v.error), v.error.source, v.error.index, v.error.path


def _entry(system: str, entry: str) -> Any:
    (a,) = [a for a in load(system).ambiguities if a.id == entry]
    return a


# --- 1. riding-the-bus: "If at any time someone gets exactly 31 points" ------------------------------------------
def _rtb_deal() -> list[dict[str, Any]]:
    """Seat 1 (first to play, left of dealer 0) holds AH 9H 6H (26 in hearts) and the pickup pile's top is 5H."""
    hands = [["2C", "7D", "4S"], ["AH", "9H", "6H"]]
    used = [c for h in hands for c in h] + ["5H"]
    return [{"dealer": 0, "hands": hands, "piles": {"stock": ["5H", *[c for c in DECK if c not in used]]}}]


def test_if_at_any_time_someone_gets_exactly_31_points_is_read_on_the_three_card_hand() -> None:
    """Decided reading off: AH 9H 6H 5H (31 in hearts) held before the discard does not end the round; the player
    must discard, and holds at most 26 after it."""
    entry = _entry("riding-the-bus", "31-mid-turn")
    assert entry.option == "mid_turn_31" and entry.decision == "off" and set(entry.readings) == {"off", "on"}
    assert "31 is as high as you can get" in entry.reasons
    g = Game.from_system("riding-the-bus", {"players": 2})
    st = g.new_initial_state(1, _rtb_deal())
    st.apply_name("draw stock")
    assert g.hand_value is not None
    assert g.hand_value.points(g.hand_value.value(st.hands[1])) == 31.0  # four hearts: 11 + 9 + 6 + 5
    assert not st.hand_results and st.current_player() == 1
    assert st.legal_action_names() == ["discard 5H", "discard 6H", "discard 9H", "discard AH"]
    st.apply_name("discard 6H")
    assert g.hand_value.points(g.hand_value.value(st.hands[1])) == 25.0 and not st.hand_results


def test_if_at_any_time_someone_gets_exactly_31_points_they_instantly_lay_their_hand_down_mid_turn() -> None:
    """Reading on: the four cards worth 31 are laid down at once, without a discard; the round is over and the
    lowest (seat 0, 7 in diamonds) takes the strike."""
    g = Game.from_system("riding-the-bus", {"players": 2, "mid_turn_31": "on"})
    st = g.new_initial_state(1, _rtb_deal())
    st.apply_name("draw stock")
    (r,) = st.hand_results
    assert r["ended_by"] == "instant" and r["scores"] == [1, 0]
    assert sorted(r["hands_shown"][1]) == ["5H", "6H", "9H", "AH"]
    rec = {"format": "cardspec-record/1", "system": "riding-the-bus", "options": {"players": 2, "mid_turn_31": "on"},
           "seed": 1, "deals": _rtb_deal(), "actions": [{"seat": 1, "action": "draw stock"},
                                                       {"seat": 1, "action": "discard 6H"}]}
    msg, _, index, _ = _rejected(rec)
    assert index == 1 and "hand 0 is over (ended_by instant)" in msg  # the round ended before the discard
    rec["options"]["mid_turn_31"] = "off"
    assert audit("t: ", rec).verdict != "rejected"


# --- 2. whose turn it is ------------------------------------------------------------------------------------------
def test_the_person_to_the_left_of_the_dealer_begins_the_game(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "the-card-game", 3, capsys)
    first = rec["actions"][0]["seat"]
    rec["actions"] = [{"seat": (first + 1) % 4, "action": "draw stock"}]
    msg, src, index, _ = _rejected(rec)
    assert index == 0 and f"it is seat {first}'s turn" in msg
    assert src == Source(DOC, "The person to the left of the dealer begins the game.")


def test_once_they_discard_the_person_to_their_left_will_go(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "the-card-game", 3, capsys)
    cur = rec["actions"][2]["seat"]
    rec["actions"] = [*rec["actions"][:2], {"seat": (cur + 1) % 4, "action": "draw stock"}]
    msg, src, index, _ = _rejected(rec)
    assert index == 2 and f"it is seat {cur}'s turn" in msg
    assert src == Source(DOC, "Once they discard their turn is over, and the person to their left will go.")


def test_everyone_else_gets_1_more_turn_and_then_the_round_is_over(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A seat that plays on after the round ended (its turn would have come next) is told the round is over."""
    rec = _simulated(tmp_path, "the-card-game", 3, capsys)
    i = _hand_starts(rec)[1]
    late = (rec["actions"][i - 1]["seat"] + 1) % 4
    assert late != rec["actions"][i]["seat"]
    rec["actions"] = [*rec["actions"][:i], {"seat": late, "action": "draw stock"}]
    msg, src, index, _ = _rejected(rec)
    assert index == i and "hand 0 is over (ended_by went_out)" in msg
    assert src == Source(DOC, "When someone has “gone out”, everyone else gets 1 more turn to go, and then the "
                              "round is over.")


def _hf_first_turn(rec: dict[str, Any]) -> int:
    """The index of hand 0's first turn (after every player chose a pile, ``choose k``)."""
    i = next(j for j, step in enumerate(rec["actions"]) if not step["action"].startswith("choose"))
    assert i == 4  # four players, one choice each
    return i


def test_hand_and_foot_decide_who_is_to_go_first_then_the_next_player(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "hand-and-foot", 3, capsys)
    starts = _hand_starts(rec)
    i = _hf_first_turn(rec)
    first = rec["actions"][i]["seat"]
    wrong = copy.deepcopy(rec)
    wrong["actions"] = [*rec["actions"][:i], {"seat": (first + 1) % 4, "action": "draw stock"}]
    msg, src, index, _ = _rejected(wrong)
    assert index == i and f"it is seat {first}'s turn" in msg
    assert src == Source(DOC, "Decide in whatever stupid way you’d like who is to go first.", "first-player")
    later = next(j for j in range(i + 1, starts[1]) if rec["actions"][j]["seat"] != rec["actions"][j - 1]["seat"])
    cur = rec["actions"][later]["seat"]
    wrong["actions"] = [*rec["actions"][:later], {"seat": (cur + 1) % 4, "action": "draw stock"}]
    msg, src, index, _ = _rejected(wrong)
    assert index == later and f"it is seat {cur}'s turn" in msg
    assert src == Source(DOC, "Then they discard one card, and we continue.")


def test_the_players_choose_one_of_the_two_piles_in_no_order_the_text_gives(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Choosing the piles out of turn cites no clause: the text gives no order; the spec's phase decides."""
    rec = _simulated(tmp_path, "hand-and-foot", 3, capsys)
    first = rec["actions"][0]["seat"]
    rec["actions"] = [{"seat": (first + 1) % 4, "action": "choose 1"}]
    msg, src, index, _ = _rejected(rec)
    assert index == 0 and src is None and "no clause of the text says whose turn it is here" in msg


def test_once_they_are_out_the_game_is_done_and_not_one_else_takes_a_turn(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "hand-and-foot", 3, capsys)
    assert rec["results"]["hands"][1]["ended_by"] == "went_out"
    i = _hand_starts(rec)[2]
    late = (rec["actions"][i - 1]["seat"] + 1) % 4
    assert late != rec["actions"][i]["seat"]
    rec["actions"] = [*rec["actions"][:i], {"seat": late, "action": "draw stock"}]
    msg, src, index, _ = _rejected(rec)
    assert index == i and "hand 1 is over (ended_by went_out)" in msg
    assert src == Source(DOC, "Once they are “out”, the game is done, and not one else takes a turn.")


# --- 3. riding-the-bus: the first player "starts by picking up a card of the pickup pile" ----------------------
def test_starts_by_picking_up_a_card_of_the_pickup_pile_the_discard_pile_is_empty() -> None:
    g = Game.from_system("riding-the-bus", {"players": 2})
    st = g.new_initial_state(1, _rtb_deal())
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("draw discard")
    assert exc.value.reason == "the discard pile is empty"
    assert exc.value.source == Source(DOC, "The person to the left of the dealer starts by picking up a card of "
                                           "the pickup pile")


# --- 4. a wrong ended_by cites the clause that ended the round ---------------------------------------------------
def test_after_knocking_everyone_else_gets_1_more_turn_ends_the_round(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "riding-the-bus", 1, capsys)
    hand = rec["results"]["hands"][0]
    assert hand["ended_by"] == "knock"
    hand["ended_by"] = "instant"
    msg, src, _, path = _rejected(rec)
    assert path == "results.hands.0.ended_by" and "states ended_by instant but the replay gives knock" in msg
    assert src == Source(DOC, "After knocking, everyone else gets 1 more turn")


def test_hand_and_foot_an_empty_pickup_pile_ends_the_round(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "hand-and-foot", 3, capsys)
    assert rec["results"]["hands"][0]["ended_by"] == "exhausted"
    rec["results"]["hands"][0]["ended_by"] = "went_out"
    msg, src, _, path = _rejected(rec)
    assert path == "results.hands.0.ended_by"
    assert src == Source(DOC, "The remaining cards are all placed in a pile face down in the center.",
                         "pickup-exhausted")
    rec = _simulated(tmp_path, "hand-and-foot", 3, capsys)
    rec["results"]["hands"][1]["ended_by"] = "exhausted"
    msg, src, _, path = _rejected(rec)
    assert path == "results.hands.1.ended_by" and "but the replay gives went_out" in msg
    assert src == Source(DOC, "Once they are “out”, the game is done, and not one else takes a turn.")


# --- 5. hand-and-foot: "or grab the entire discard pile" when there is none ----------------------------------------
def test_grab_the_entire_discard_pile_when_it_is_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "hand-and-foot", 3, capsys)
    i = _hf_first_turn(rec)
    rec["actions"] = [*rec["actions"][:i], {"seat": rec["actions"][i]["seat"], "action": "take"}]
    msg, src, index, _ = _rejected(rec)
    assert index == i and "the discard pile is empty" in msg
    assert src == Source(DOC, "The next player may either pick up two cards from the pickup pile, or grab the "
                              "entire discard pile")
    assert src.register is None  # not take-pile-condition: that entry is about the top card, not an empty pile


# --- 6. discard_drawn: forbidden, a house rule naming its entry -----------------------------------------------
def test_which_can_be_the_card_they_just_picked_up_forbidden_is_a_house_rule() -> None:
    for system in ("the-card-game", "riding-the-bus"):
        entry = _entry(system, "discard-the-drawn-card")
        assert entry.house_rule and entry.decision == "allowed", system


def test_riding_the_bus_discarding_the_card_taken_cites_discard_the_drawn_card() -> None:
    g = Game.from_system("riding-the-bus", {"players": 2, "discard_drawn": "forbidden"})
    st = g.new_initial_state(1, _rtb_deal())
    st.apply_name("draw stock")
    st.apply_name("discard 5H")
    st.apply_name("draw discard")  # seat 0 takes the 5H
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("discard 5H")
    assert "5H was just taken from the discard pile" in exc.value.reason
    assert exc.value.source is not None and exc.value.source.register == "discard-the-drawn-card"


def _tcg_deal() -> list[dict[str, Any]]:
    """Two players, dealer 0: seat 1 holds 7H 8H 9H, the discard pile's card is the QC, seat 0 holds 2C 5D 6S."""
    deck = [r + s for s in "CDHS" for r in ["A", *RANKS[:-1]]]
    hands = [["2C", "5D", "6S"], ["7H", "8H", "9H"]]
    used = [c for h in hands for c in h] + ["QC"]
    return [{"dealer": 0, "hands": hands, "piles": {"discard": ["QC"], "stock": [c for c in deck if c not in used]}}]


def test_then_they_must_discard_one_card_going_out_with_the_card_taken() -> None:
    """Under discard_drawn=forbidden, going out with the QC just taken is refused for that reason, citing the
    entry; under the decided reading (allowed) it is legal."""
    g = Game.from_system("the-card-game", {"players": 2, "discard_drawn": "forbidden"})
    st = g.new_initial_state(1, _tcg_deal())
    st.apply_name("draw discard")
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("go out QC")
    assert "QC was just taken from the discard pile" in exc.value.reason
    assert exc.value.source == Source(DOC, "Then they must discard one card (which can be the card they just "
                                           "picked up).", "discard-the-drawn-card")
    g = Game.from_system("the-card-game", {"players": 2})
    st = g.new_initial_state(1, _tcg_deal())
    st.apply_name("draw discard")
    assert "go out QC" in st.legal_action_names()
