"""Distinguishing scenarios: every saved record replays, and each pair really differs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from cardspec.engine.record import replay

SCEN = sorted((ROOT / "docs" / "scenarios").glob("*/*.decided.json"))


def test_scenarios_exist_for_most_ambiguities() -> None:
    assert len(SCEN) >= 15


@pytest.mark.parametrize("decided", SCEN, ids=[p.name for p in SCEN])
def test_scenario_pair_replays_and_differs(decided: Path) -> None:
    other = decided.with_name(decided.name.replace(".decided.", ".other."))
    a = json.loads(decided.read_text(encoding="utf-8"))
    b = json.loads(other.read_text(encoding="utf-8"))
    ra, rb = replay(a), replay(b)  # both replay under their own options, every action legal
    assert a["options"] != b["options"]
    assert a["seed"] == b["seed"], "the same deal under both readings"
    differs = (a["results"] != b["results"]
               or ra.state.legal_actions() != rb.state.legal_actions()
               or ra.state.current_player() != rb.state.current_player())
    assert differs, "the two readings reach the same position and results"


def test_readings_that_seat_other_player_counts_differ_from_the_deal() -> None:
    """Birdhead's ``players`` entry: under 5 players the matches cannot be played side by side with the decided
    4, and every deal differs; the scenario says so, with the two deals, rather than "none found"."""
    from cardspec.engine.spec import load
    from cardspec.verification.scenarios import distinguish

    spec = load("birdhead")
    entry = next(a for a in spec.ambiguities if a.option == "players")
    sc = distinguish(spec, entry, "5")
    assert sc is not None and sc.kind == "the deal" and sc.action_index == 0
    assert "seat 4 and 5 players" in sc.detail
    decided, other = sc.records[entry.decision], sc.records["5"]
    assert decided["actions"] == other["actions"] == []
    assert (decided["options"]["players"], other["options"]["players"]) == (4, 5)
