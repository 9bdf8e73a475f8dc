"""A deal that is no deal of the game is malformed wherever it stands in a record (docs/records.md), not only as
the first deal; a dealer other than the rotation's is a disagreement with the rules (rejected)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import record_of

SYSTEM = "dirty-clubs"


@pytest.fixture(scope="module")
def rec() -> dict[str, Any]:
    """A dirty-clubs match of at least four hands, with every hand's deal listed and no seed."""
    st, _ = play_stepped(Game.from_system(SYSTEM), 1, "rule", keep_deals=True)
    r = record_of(st)
    assert len(r["deals"]) >= 4
    r["seed"] = None
    return r




EDITS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a name that is no card", lambda d: d["hands"][0].__setitem__(0, "ZZ"), "hands.0.0: 'ZZ' is not a card"),
    ("a card dealt twice", lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0]),
     "hands.1.0: '{card}' appears more often than the deck holds it"),
    ("a hand one card short", lambda d: d["hands"][0].pop(), "hands.0: seat 0 must hold 5 cards"),
    ("a dealer who is no player", lambda d: d.__setitem__("dealer", 9),
     "dealer: dealer 9: the dealer must be a player, 0..3"),
    ("a hand for a seat the game lacks", lambda d: d["hands"].append([]), "hands: hands must list 4 hands"),
]


@pytest.mark.parametrize("deal", [0, 1, 3])
@pytest.mark.parametrize("what, edit, message", EDITS, ids=[e[0] for e in EDITS])
def test_a_deal_that_is_no_deal_of_the_game_is_malformed_in_any_hand(
        rec: dict[str, Any], deal: int, what: str, edit: Callable[[dict[str, Any]], None], message: str) -> None:
    r = copy.deepcopy(rec)
    card = r["deals"][deal]["hands"][0][0]
    edit(r["deals"][deal])
    v = audit("t: ", r)
    assert v.verdict == "malformed", (what, v.verdict, str(v.error))
    assert f"deals.{deal}.{message.format(card=card)}" in str(v.error), str(v.error)


@pytest.mark.parametrize("deal", [1, 3])
def test_a_dealer_the_rotation_does_not_give_is_rejected(rec: dict[str, Any], deal: int) -> None:
    """Dirty Clubs passes the deal to the left: another player named as dealer breaks the rotation."""
    r = copy.deepcopy(rec)
    right = r["deals"][deal]["dealer"]
    assert right == (r["deals"][deal - 1]["dealer"] + 1) % 4  # the rotation, as the text gives it
    r["deals"][deal]["dealer"] = (right + 2) % 4
    v = audit("t: ", r)
    assert v.verdict == "rejected", str(v.error)
    assert f"deals.{deal}.dealer" in str(v.error) and f"rotation gives {right}" in str(v.error)


def test_the_unedited_record_is_accepted(rec: dict[str, Any]) -> None:
    assert audit("t: ", rec).verdict == "accepted"
