"""``start.previous``: a record of a later birdhead hand gives the previous hand's losers, whose last one's left
neighbour leads first (002: the loser of the round decides who starts the next); conform's vector and seeded
later hands of birdhead run with it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import record_of


def _later_hand(seed: int) -> tuple[dict[str, Any], list[int]]:
    """Hand 1 of seeded birdhead match ``seed`` as a one-hand record with its start (previous losers
    included), and the losers of hand 0."""
    g = Game.from_system("birdhead")
    first, _ = play_stepped(g, seed, "random", hand_limit=1)
    both, _ = play_stepped(g, seed, "random", hand_limit=2, keep_deals=True)
    whole = record_of(both)
    losers = list(first.hand_results[0]["losers"])
    rec = {"format": whole["format"], "system": "birdhead", "options": whole["options"], "seed": None,
           "scope": "hand", "deals": [whole["deals"][1]], "actions": whole["actions"][len(first.history):],
           "start": {"hand": 1, "dealer": whole["deals"][1]["dealer"], "totals": list(first.counters),
                     "previous": {"losers": losers}}}
    return rec, losers


def test_a_later_hand_with_the_previous_losers_replays() -> None:
    for seed in range(6):
        rec, losers = _later_hand(seed)
        v = audit("t: ", rec)
        assert v.verdict == "accepted", v.line()
        assert rec["actions"][0]["seat"] == (losers[-1] + 1) % 4  # left of the last loser leads


def test_a_later_hand_without_them_is_malformed() -> None:
    rec, _ = _later_hand(1)
    del rec["start"]["previous"]
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None, v.line()
    assert v.error.path == "start.previous" and "previous hand's last loser" in str(v.error)


def test_other_losers_move_the_first_lead_and_the_record_is_rejected_there() -> None:
    rec, losers = _later_hand(2)
    moved = copy.deepcopy(rec)
    moved["start"]["previous"]["losers"] = [(losers[-1] + 1) % 4]  # the lead would go one seat further on
    v = audit("t: ", moved)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 0, v.line()
    assert v.error.source is not None and v.error.source.quote.startswith(
        "At the second or later round, the left player of the loser of before round")


@pytest.mark.parametrize(("system", "start", "path"), [
    ("birdhead", {"hand": 0, "previous": {"losers": [1]}}, "start.previous"),
    ("birdhead", {"hand": 2, "previous": {"losers": [1, 1]}}, "start.previous.losers"),
    ("birdhead", {"hand": 2, "previous": {"losers": [4]}}, "start.previous.losers"),
    ("birdhead", {"hand": 2, "previous": {"losers": []}}, "start.previous.losers"),
    ("euchre", {"hand": 2, "previous": {"losers": [1]}}, "start.previous"),
])
def test_a_previous_that_cannot_be_is_malformed(system: str, start: dict[str, Any], path: str) -> None:
    g = Game.from_system(system)
    st, _ = play_stepped(g, 0, "random", hand_limit=1)
    rec = dict(record_of(st), start=start, scope="hand")
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == path, v.line()


def test_conform_runs_birdhead_later_hands_with_the_previous_losers() -> None:
    from cardspec.conform.harness import seeded_cases, vector_cases

    g = Game.from_system("birdhead")
    left_out: list[str] = []
    vectors = vector_cases(g, left_out=left_out)
    assert left_out == []
    later = [c for c in vectors if c.start is not None]
    assert later and all(c.start is not None and c.start["previous"]["losers"] for c in later)
    seeded = seeded_cases(g, 8, 0)
    assert [c.label for c in seeded][:4] == ["seed 0", "seed 1 hand 1", "seed 2 hand 2", "seed 3 hand 3"]
