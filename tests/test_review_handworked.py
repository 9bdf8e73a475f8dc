"""What a hand-worked review of seven systems against their texts found (helper report, 2026-11-27).

1. bid-euchre: with both teams at or past the target and equal totals, the register's decision read "equal
   totals share the win" while the engine played another hand. The reading now says what the engine does
   (another hand), and sharing is a reading of its own (``both_reach: highest_shared``).
2. A scoring row whose result or condition an option sets cites the register entry that decides it, checked
   when a spec loads; an audit citing such a row names the entry (bid-euchre's moon rows cited the trick-score
   sentences, buck-euchre's penalty rows their quotes alone).
3. The verifier no longer proves that a match ends when an exact tie at the top of those that reached the
   target plays extra hands (``simultaneous: highest`` with ``extra_hand_tie: another_hand``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from test_no_silent_acceptance import spec_file

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.record import record_of
from cardspec.engine.spec import load
from cardspec.verification.scores import match_ends


# --- 1. the register says what bid-euchre does with equal totals at the target -------------------------------
def test_bid_euchre_register_reading_for_equal_totals_is_the_engines() -> None:
    entry = next(a for a in load("bid-euchre").ambiguities if a.id == "both-teams-reach-target")
    assert entry.decision == "highest"
    assert "equal totals play another hand" in entry.readings["highest"]
    assert "equal totals share the win" in entry.readings["highest_shared"]
    assert "share" not in entry.readings["highest"]


# --- 2. clauses set by an option name their register entry (checked at load) --------------------------------
def test_a_row_set_by_an_option_without_its_register_entry_is_a_spec_error(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        row = d["scoring"]["tables"][0]["rows"][3]  # a lone hand's 3 or 4 tricks: option lone_three_four
        assert "$option" in row["then"]
        del row["source"]["register"]

    p = spec_file(tmp_path, edit)
    with pytest.raises(SpecError, match=r"set by option\(s\) lone_three_four: its citation must name the register "
                                        r"entry that decides it \(lone-hand-three-or-four\)") as exc:
        load(str(p))
    assert "scoring.tables.0.rows.3.source" in str(exc.value)


def test_an_audit_of_a_wrong_moon_score_names_the_moon_entry() -> None:
    """Seed 0's first hand (random bots, shoot_the_moon on): seat 0 bids the moon (12 tricks) and is set, -24."""
    g = Game.from_system("bid-euchre", {"shoot_the_moon": True})
    st, _ = play_stepped(g, 0, "random", hand_limit=1)
    rec = record_of(st)
    hand = rec["results"]["hands"][0]
    assert hand["contract"]["bid"] == 12 and hand["scores"][0] == -24  # a moon set: -24
    bad = copy.deepcopy(rec)
    bad["results"]["hands"][0]["scores"][0] = -12  # a plain set of 12 would lose 12
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.source is not None, v.line()
    assert v.error.path == "results.hands.0.scores"
    assert (v.error.source.quote, v.error.source.register) == (
        "saying how many tricks they believe their team will take", "shooting-the-moon")


# --- 3. termination is not proved where exact ties at the target play extra hands without end ----------------
@pytest.mark.parametrize(("simultaneous", "tie", "status"), [
    ("highest", "another_hand", "flagged"),  # an exact tie at the top: extra hands while it lasts
    ("highest", "shared_win", "proved"),
    ("extra_hand", "another_hand", "flagged"),
    ("extra_hand", "shared_win", "proved"),
])
def test_match_end_with_exact_ties_at_the_top(tmp_path: Path, simultaneous: str, tie: str, status: str) -> None:
    """Euchre's totals never fall, so only the tie rule can keep its match from ending."""
    def edit(d: dict[str, Any]) -> None:
        d["match"]["end"].update(simultaneous=simultaneous, extra_hand_tie=tie)

    got, detail, _ = match_ends(Game.from_system(str(spec_file(tmp_path, edit))))
    assert got == status, detail
    if status == "flagged":
        assert detail == "may not end: extra hands are played while the highest scores stay tied"


def test_a_key_set_by_an_option_without_its_register_entry_is_a_spec_error(tmp_path: Path) -> None:
    """``first_leader: {$option: loner_lead}`` beside a ``first_leader_source`` naming no entry (new-user review:
    dirty-clubs' lead, buck-euchre-3p's dealer who must bid, bid-euchre's forced bid cited their quotes alone)."""
    def edit(d: dict[str, Any]) -> None:
        play = next(p for p in d["phases"] if p["component"] == "tricks")
        assert "$option" in play["first_leader"]
        del play["first_leader_source"]["register"]

    p = spec_file(tmp_path, edit)
    with pytest.raises(SpecError, match=r"set by option\(s\) loner_lead: its citation must name the register entry "
                                        r"that decides it \(loner-lead\)") as exc:
        load(str(p))
    assert ".first_leader_source" in str(exc.value)
