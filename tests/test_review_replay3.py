"""Replay fixes from a new user's review of the draw-and-discard systems.

* A card the player does not hold, and a set number that names no set, cite no clause (no text needs to say
  that only cards held are played); they cited the phase's opening quote.
* A wrong ``went_out``, ``hands_shown`` or ``melds`` cites the clause that decides that field (going out, laying
  the hands out, laying down sets), not the phase's opening quote; a wrong ``ended_by`` cites none.
* A seat the game does not have is malformed (exit 2), as a negative one was; not "out of turn".
* An eliminated player acting is told it is out of the match, citing the elimination clause.
* ``melds`` compares each set's cards in any order, and a real difference names the set.
* A number with a fraction where an action takes a whole number says so; "at most 1 card", singular.
* A one-hand record cut short is unfinished "before the hand is over".

The quotes expected are those of the spec files named, each checked to be in its file.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.errors import InvalidActionError, MalformedRecordError, RecordError
from cardspec.engine.game import Game
from cardspec.engine.record import record_of, replay
from cardspec.engine.spec import available

# spec/hand-and-foot.yaml, phase 'play': go_out and sets clauses
HF_GO_OUT = "Once they are “out”, the game is done, and not one else takes a turn."
# spec/riding-the-bus.yaml: the reveal clause and the elimination clause
RTB_REVEAL = "then you all lay out your cards"
RTB_OUT = "Once a person gets 3 strikes they are out of the game."
# spec/the-card-game.yaml: going out
TCG_GO_OUT = "The thing to remember is just that to go out you must use all your cards, and you must discard"


@pytest.mark.parametrize("system, quote", [("hand-and-foot", HF_GO_OUT), ("riding-the-bus", RTB_REVEAL),
                                           ("riding-the-bus", RTB_OUT), ("the-card-game", TCG_GO_OUT)])
def test_the_quotes_expected_are_the_specs(system: str, quote: str) -> None:
    assert quote in available()[system].read_text(encoding="utf-8")


def played(system: str, seed: int, options: dict[str, Any] | None = None, hands: int | None = 1) -> dict[str, Any]:
    """A record of ``hands`` hands (None: the whole match) between random players."""
    rng = random.Random(seed)
    st = Game.from_system(system, options).new_initial_state(seed, hand_limit=hands)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    return record_of(st)


def rejection(rec: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert not isinstance(info.value, MalformedRecordError), info.value
    return info.value


def test_a_set_with_a_card_not_held_cites_no_clause() -> None:
    rec = played("hand-and-foot", 3)
    game = Game.from_system("hand-and-foot")
    st = game.new_initial_state(3, hand_limit=1)
    i = next(k for k, s in enumerate(rec["actions"]) if s["action"].startswith("meld "))
    for step in rec["actions"][:i]:
        st.apply(game.parse_action(step["action"]))
    held = set(game.deck.cards_of(st.hands[st.current_player()]))
    missing = [game.deck.names[c] for c in range(game.deck.size) if c not in held and game.deck.names[c][0] == "9"]
    bad = copy.deepcopy(rec)
    bad["actions"][i]["action"] = "meld " + " ".join(missing[:3])
    e = rejection(bad)
    assert e.index == i and "the player does not hold that card" in str(e) and e.source is None


def test_a_set_number_that_names_no_set_cites_no_clause() -> None:
    rec = played("hand-and-foot", 3)
    i = next(k for k, s in enumerate(rec["actions"]) if s["action"].startswith("add "))
    bad = copy.deepcopy(rec)
    words = bad["actions"][i]["action"].split()
    bad["actions"][i]["action"] = " ".join(["add", "99", *words[2:]])
    e = rejection(bad)
    assert e.index == i and "there is no set 99 on the table" in str(e) and e.source is None


def test_a_wrong_went_out_cites_going_out() -> None:
    # random players seldom go out; the rule bots do (seed 1: round 1, counted from 0, ends by going out)
    rec = record_of(play_stepped(Game.from_system("hand-and-foot"), 1, "rule")[0])
    k, out = next((k, h["went_out"]) for k, h in enumerate(rec["results"]["hands"]) if h["went_out"] is not None)
    bad = copy.deepcopy(rec)
    bad["results"]["hands"][k]["went_out"] = (out + 1) % 4
    e = rejection(bad)
    assert e.path == f"results.hands.{k}.went_out" and e.source is not None and e.source.quote == HF_GO_OUT


def test_a_wrong_card_shown_cites_the_clause_that_lays_the_hands_out() -> None:
    rec = played("riding-the-bus", 5)
    bad = copy.deepcopy(rec)
    shown = bad["results"]["hands"][0]["hands_shown"]
    s = next(k for k, cards in enumerate(shown) if cards)
    game = Game.from_system("riding-the-bus")
    shown[s][0] = next(n for n in game.deck.names if all(n not in c for c in shown))
    e = rejection(bad)
    assert e.path == "results.hands.0.hands_shown" and e.source is not None and e.source.quote == RTB_REVEAL


def test_a_wrong_ended_by_cites_the_clause_that_ended_the_round() -> None:
    rec = played("riding-the-bus", 5)
    bad = copy.deepcopy(rec)
    ended = bad["results"]["hands"][0]["ended_by"]
    assert ended == "knock"
    bad["results"]["hands"][0]["ended_by"] = "exhausted"
    e = rejection(bad)
    assert e.path == "results.hands.0.ended_by" and e.source is not None
    assert e.source.quote == "After knocking, everyone else gets 1 more turn"


def test_a_wrong_went_out_in_the_card_game_cites_going_out() -> None:
    rec = played("the-card-game", 2)
    bad = copy.deepcopy(rec)
    assert bad["results"]["hands"][0]["went_out"] is not None
    bad["results"]["hands"][0]["went_out"] = None
    e = rejection(bad)
    assert e.path == "results.hands.0.went_out" and e.source is not None and e.source.quote == TCG_GO_OUT


def test_the_cards_of_a_set_may_be_stated_in_any_order() -> None:
    rec = played("hand-and-foot", 3)
    melds = rec["results"]["hands"][0]["melds"]
    assert melds and len(melds[0]) >= 3
    turned = copy.deepcopy(rec)
    turned["results"]["hands"][0]["melds"][0] = melds[0][::-1]
    assert audit("x: ", turned).verdict == "accepted"


def test_a_set_that_differs_is_named() -> None:
    rec = played("hand-and-foot", 3)
    melds = rec["results"]["hands"][0]["melds"]
    assert len(melds) >= 2
    bad = copy.deepcopy(rec)
    bad["results"]["hands"][0]["melds"][1] = melds[1][:-1]
    e = rejection(bad)
    assert e.path == "results.hands.0.melds" and str(e.message).startswith("set 1 (counted from 0): states ")
    short = copy.deepcopy(rec)
    short["results"]["hands"][0]["melds"] = melds[:-1]
    e = rejection(short)
    assert f"states {len(melds) - 1} sets on the table but the replay gives {len(melds)}; the first missing is " \
           f"set {len(melds) - 1}" in e.message


def test_a_seat_the_game_does_not_have_is_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = played("riding-the-bus", 5)
    rec["actions"][2]["seat"] = 7
    with pytest.raises(MalformedRecordError) as info:
        replay(rec)
    assert info.value.path == "actions.2.seat" and "this game has seats 0 to 3" in info.value.message
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "malformed: actions.2.seat: seat 7" in capsys.readouterr().out


def test_an_eliminated_player_acting_is_told_it_is_out() -> None:
    rec = played("riding-the-bus", 5, hands=None)
    bad = {k: v for k, v in rec.items() if k != "results"}
    bad["start"] = {"totals": [3, 0, 0, 0], "dealer": 3}  # seat 0 has its three strikes; seat 1 is left of 3
    bad["actions"] = [{"seat": 0, "action": "draw stock"}]
    e = rejection(bad)
    assert e.index == 0 and "seat 0 acts but it is out of the match: its total reached 3" in e.message
    assert "it is seat 1's turn" in e.message and e.source is not None and e.source.quote == RTB_OUT


def test_a_set_number_with_a_fraction_says_it_takes_a_whole_number() -> None:
    game = Game.from_system("hand-and-foot")
    with pytest.raises(InvalidActionError, match=re.escape("'add' takes a whole number, not '1.5'")):
        game.parse_action("add 1.5 9C#4")
    with pytest.raises(InvalidActionError, match=re.escape("'add' carries at most 1 card") + "$"):
        game.parse_action("add 1 9C#4 9C#3")


def test_a_one_hand_record_cut_short_is_unfinished_before_the_hand_is_over() -> None:
    rec = played("the-card-game", 2)
    assert rec["scope"] == "hand"
    cut = {k: v for k, v in rec.items() if k != "results"}
    cut["actions"] = rec["actions"][:3]
    v = audit("x: ", cut)
    assert v.verdict == "unfinished" and v.line().endswith("0 hands, before the hand is over")
    whole = played("the-card-game", 2, hands=None)
    cut = {k: v for k, v in whole.items() if k != "results"}
    cut["actions"] = whole["actions"][:3]
    assert audit("x: ", cut).line().endswith("0 hands, before the match is over")
