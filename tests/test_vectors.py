"""The runner for the conformance vectors in docs/vectors (perft counts and playthroughs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from cardspec.engine.game import Game
from cardspec.vectors import perft

FILES = sorted((ROOT / "docs" / "vectors").glob("*.json"))


def test_every_system_has_vectors() -> None:
    from cardspec.engine.spec import available

    assert {p.stem for p in FILES} == set(available())


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_perft_counts(path: Path) -> None:
    v = json.loads(path.read_text(encoding="utf-8"))
    game = Game.from_system(v["system"], v["options"])
    root = game.new_initial_state(v["perft"]["seed"])
    assert [perft(root, d) for d in range(len(v["perft"]["nodes"]))] == v["perft"]["nodes"]
    assert v["perft"]["nodes"][0] == 1 and all(n >= 1 for n in v["perft"]["nodes"])


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_perft_counts_from_the_deal_alone(path: Path) -> None:
    """The perft root's deal, given as an explicit deal with no seed, is the seeded root: the same cards and
    the same counts (another engine needs the deal, not cardspec's shuffle)."""
    v = json.loads(path.read_text(encoding="utf-8"))
    game = Game.from_system(v["system"], v["options"])
    root = game.new_initial_state(None, [v["perft"]["deal"]])
    seeded = game.new_initial_state(v["perft"]["seed"])
    assert root.hands == seeded.hands and root.piles == seeded.piles and root.dealer == seeded.dealer
    assert [perft(root, d) for d in range(len(v["perft"]["nodes"]))] == v["perft"]["nodes"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthroughs_from_their_deals_alone(path: Path) -> None:
    """Each playthrough lists one deal per hand, and played from those deals with no seed it takes the same
    steps to the same results: the vectors need no shuffle."""
    v = json.loads(path.read_text(encoding="utf-8"))
    game = Game.from_system(v["system"], v["options"])
    for p in v["playthroughs"]:
        assert len(p["deals"]) == len(p["results"]["hands"])
        assert [d["dealer"] for d in p["deals"]] == [r["dealer"] for r in p["results"]["hands"]]
        st = game.new_initial_state(None, p["deals"])
        for i, step in enumerate(p["steps"]):
            assert st.current_player() == step["seat"], f"seed {p['seed']} step {i}"
            assert st.legal_action_names() == step["legal"], f"seed {p['seed']} step {i}"
            st.apply_name(step["action"])
        assert st.is_terminal() and st.halted is None
        assert [r["scores"] for r in st.hand_results] == [r["scores"] for r in p["results"]["hands"]]
        assert list(st.winners or ()) == p["results"]["winners"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthroughs(path: Path) -> None:
    v = json.loads(path.read_text(encoding="utf-8"))
    game = Game.from_system(v["system"], v["options"])
    for p in v["playthroughs"]:
        st = game.new_initial_state(p["seed"])
        for i, step in enumerate(p["steps"]):
            assert st.current_player() == step["seat"], f"seed {p['seed']} step {i}"
            assert st.legal_action_names() == step["legal"], f"seed {p['seed']} step {i}"
            st.apply_name(step["action"])
        assert st.is_terminal()
        assert [r["scores"] for r in st.hand_results] == [r["scores"] for r in p["results"]["hands"]]
        assert list(st.winners or ()) == p["results"]["winners"]
