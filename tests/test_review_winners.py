"""A wrong statement of the match's winners cites the clause it breaks (the spec's ``match.end.winner_source`` or
``tie_source``, not only the end-of-match clause), and no message says ``None``."""

from __future__ import annotations

import copy
import json
from typing import Any

import yaml
from conftest import ROOT

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import record_of


def _end(system: str) -> dict[str, Any]:
    """The spec's ``match.end`` mapping, read from the YAML file itself."""
    end: dict[str, Any] = yaml.safe_load((ROOT / "spec" / f"{system}.yaml").read_text(encoding="utf-8"))["match"]["end"]
    return end


def _match(system: str, seed: int) -> dict[str, Any]:
    st, _ = play_stepped(Game.from_system(system), seed, "rule")
    return record_of(st)


def test_the_wrong_single_winner_cites_the_winner_clause() -> None:
    """Birdhead: "The player receiving the lowest minus points wins the game." A record naming another player
    alone breaks that clause, not the clause that ends the match."""
    rec = _match("birdhead", 3)
    got = rec["results"]["winners"]
    other = next(s for s in range(4) if s not in got)
    rec["results"]["winners"] = [other]
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.source is not None
    want = _end("birdhead")["tie_source" if len(got) > 1 else "winner_source"]["quote"]
    assert v.error.source.quote == want
    assert _end("birdhead")["source"]["quote"] != want  # the test could fail: the two clauses differ


def test_winners_stated_before_the_match_is_over_are_named_so() -> None:
    """A record cut after its first hand that still states winners: the replay's match is not over, which the
    message says in words, citing the end-of-match clause."""
    rec = _match("euchre", 2)
    hand0 = rec["results"]["hands"][0]
    n = next(i for i, a in enumerate(rec["actions"]) if i > 0 and _hand_of(rec, i) > 0)
    cut = copy.deepcopy(rec)
    cut["actions"] = rec["actions"][:n]
    cut["results"] = {"hands": [hand0], "winners": [0, 2]}
    v = audit("t: ", cut)
    assert v.verdict == "rejected" and v.error is not None
    msg = str(v.error)
    assert "None" not in msg and "the match is not over" in msg, msg
    assert v.error.source is not None and v.error.source.quote == _end("euchre")["source"]["quote"]


def _hand_of(rec: dict[str, Any], i: int) -> int:
    """The hand action ``i`` of a seeded record belongs to (by replaying the first ``i`` actions)."""
    g = Game.from_system(rec["system"], rec["options"])
    st = g.new_initial_state(rec["seed"])
    for a in rec["actions"][:i]:
        st.apply_name(a["action"])
    return st.hand_no


def test_a_maker_stated_for_a_hand_with_none_is_named_so() -> None:
    """Dirty Clubs: when a club is turned up, clubs are trump and nobody bids, so the hand has no maker; a record
    stating one is told the replay has none (never "gives None")."""
    g = Game.from_system("dirty-clubs")
    for seed in range(60):
        st, _ = play_stepped(g, seed, "rule", hand_limit=1)
        rec = record_of(st)
        hand = rec["results"]["hands"][0]
        if hand.get("maker") is None and "maker" in hand:
            break
    else:
        raise AssertionError("no hand without a maker in 60 seeds")
    assert hand["trump"] == "C"  # the text: a turned club makes clubs trump, with no bidding
    hand["maker"] = 1
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None
    msg = str(v.error)
    assert "states maker 1 but the replay has no maker" in msg and "None" not in msg, msg


def test_a_tie_stated_as_a_single_winner_cites_the_tie_clause() -> None:
    """Dirty Clubs from totals [5, 3, 9, 2]: seats 1 and 3 both pass zero on one hand with the same score; "If they
    have the same score, it is a tie" (the register's ``equal-furthest``, decided: they share the win). A record
    naming seat 1 alone breaks that clause."""
    rec = json.loads((ROOT / "tests" / "data" / "review_clauses" / "dc-tiew-5-3-9-2-1.json").read_text())
    assert rec["start"]["totals"] == [5, 3, 9, 2] and rec["results"]["winners"] == [1]
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.source is not None
    assert "states winners [1] but the replay gives [1, 3]" in str(v.error)
    tie = _end("dirty-clubs")["tie_source"]
    assert (v.error.source.quote, v.error.source.register) == (tie["quote"], "equal-furthest")
    assert tie["quote"] == "If they have the same score, it is a tie."
