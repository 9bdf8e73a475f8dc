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
