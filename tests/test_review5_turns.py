"""A seat acting out of turn cites the clause that says whose turn it is (review of 2026-11-28, finding 4): the
widow's order of asking, the high bidder naming trump once the bidding is over, the stay-or-drop order (decided
by the ``drop-order`` register entry), and the order of asking for a nil (``nil-preference``).

Each case is found in seeded matches of random bots and rebuilt as a record whose action is given to the next
seat; the audit rejects it at that action, naming whose turn it was."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import record_of

WIDOW = ("The player to dealer's right has the first opportunity to exchange, then the dealer, and finally the "
         "player to dealer's left.")
NAME_3P = ("When two players in succession have passed, the third player (the highest bidder) names the trump suit or "
           "announces that there are no trumps.")
NAME_DC = "After the bidding, the high bidder names trumps or specifies that there will be no trumps"
DROP_3P = "Then each of the other players in turn announces whether they will play or drop out."
NIL = "the player continuing clockwise around the table has preference"

Pick = Callable[[list[dict[str, Any]], int], bool]


def _widow(actions: list[dict[str, Any]], i: int) -> bool:
    return actions[i]["action"] in ("exchange", "pass") and i == 0


def _name(actions: list[dict[str, Any]], i: int) -> bool:
    return actions[i]["action"].startswith("name ") or actions[i]["action"] == "no_trump"


def _drop(actions: list[dict[str, Any]], i: int) -> bool:
    return actions[i]["action"] in ("stay", "drop")


CASES: list[tuple[str, dict[str, Any], Pick, str, str | None]] = [
    ("buck-euchre-3p", {}, _widow, WIDOW, None),
    ("buck-euchre-3p", {}, _name, NAME_3P, None),
    ("dirty-clubs", {}, _name, NAME_DC, None),
    ("buck-euchre-3p", {}, _drop, DROP_3P, "drop-order"),
]


def _moved(system: str, options: dict[str, Any], pick: Pick) -> tuple[int, str, Any]:
    """The first action ``pick`` chooses in a seeded match, given to the next seat: (index, message, clause)."""
    g = Game.from_system(system, options)
    for seed in range(200):
        rec = record_of(play_stepped(g, seed, "random", hand_limit=1)[0])
        acts = rec["actions"]
        i = next((j for j in range(len(acts)) if pick(acts, j)), None)
        if i is None:
            continue
        bad = copy.deepcopy(rec)
        bad["actions"][i]["seat"] = (acts[i]["seat"] + 1) % g.num_players
        v = audit("t: ", bad)
        assert v.verdict == "rejected" and v.error is not None, v.line()
        return i if v.error.index == i else -1, str(v.error), v.error.source
    pytest.fail(f"no case in 200 seeds of {system}")


@pytest.mark.parametrize(("system", "options", "pick", "quote", "register"), CASES,
                         ids=["widow-order", "3p-names-trump", "dirty-clubs-names-trump", "drop-order"])
def test_a_seat_out_of_turn_cites_whose_turn_it_is(system: str, options: dict[str, Any], pick: Pick, quote: str,
                                                    register: str | None) -> None:
    i, msg, src = _moved(system, options, pick)
    assert i >= 0 and "acts but it is seat" in msg, msg
    assert src is not None and (src.quote, src.register) == (quote, register), msg


def test_a_nil_asked_out_of_the_order_of_preference_cites_it() -> None:
    """bird-dog-21: after a declare, the nil question goes clockwise from the solo ("the player continuing
    clockwise around the table has preference", the ``nil-preference`` entry); a pass given to another seat
    there cites it."""
    g = Game.from_system("bird-dog-21")
    for seed in range(300):
        st, _ = play_stepped(g, seed, "random", hand_limit=1)
        rec = record_of(st)
        acts = rec["actions"]
        nil_phase = next(k for k, p in enumerate(g.phases) if p.id == "nil")
        i = next((j for j, (_s, _a, ph) in enumerate(st.history) if ph == nil_phase), None)
        if i is None:
            continue
        bad = copy.deepcopy(rec)
        bad["actions"][i]["seat"] = (acts[i]["seat"] + 1) % g.num_players
        v = audit("t: ", bad)
        assert v.verdict == "rejected" and v.error is not None and v.error.source is not None, v.line()
        assert v.error.index == i and "acts but it is seat" in str(v.error), v.line()
        assert (v.error.source.quote, v.error.source.register) == (NIL, "nil-preference"), v.line()
        return
    pytest.fail("no nil question in 300 seeds")


def test_an_action_its_kind_cannot_carry_is_placed_in_its_hand() -> None:
    """birdhead: a lead of four cards, where a play carries at most three, is rejected at that action with its
    place in the hand ("action 0 of the hand"), as every other rejection gives it."""
    g = Game.from_system("birdhead")
    st = play_stepped(g, 3, "random", hand_limit=1, keep_deals=True)[0]
    rec = record_of(st)
    seat = rec["actions"][0]["seat"]
    hand = rec["deals"][0]["hands"][seat]
    bad = copy.deepcopy(rec)
    bad["actions"][0]["action"] = "play " + " ".join(hand[:4])
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 0, v.line()
    assert "at most 3" in str(v.error) and "action 0 of the hand" in str(v.error), v.line()
