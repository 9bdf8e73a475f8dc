"""Records that leave cards unseen, and records without a seed whose hands shuffle again.

- the-card-game, every dealt card written ``?``: going out lays the whole hand, which few placements of the unseen
  cards allow; the cards the record says were laid are tried together (``Unseen._stated_hint``), and where no
  placement is found the action's result fields (the sets laid) are not checked. Before, such records were
  rejected ('go out ...' is illegal; the sets on the table "come out" otherwise).
- A hand that shuffles the discards again needs the seed: a record without one is ``malformed`` (a null seed is
  allowed only where the deals cover all chance, docs/records.md), naming the hand; before, it was ``rejected``
  as if a rule were broken.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_review_unseen import mask_deal

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import record_of


def _masked(system: str, seed: int, hands: int, options: dict[str, Any] | None = None,
            p: float = 1.0) -> dict[str, Any]:
    """A random-bot match of ``hands`` hands, its deals kept, every dealt card but each pile's top written ``?``
    (with chance ``p``), and no seed."""
    g = Game.from_system(system, options or {})
    st, _ = play_stepped(g, seed, "random", hand_limit=hands, keep_deals=True)
    rec = record_of(st)
    rng = random.Random(seed)
    for d in rec["deals"]:
        mask_deal(d, rng, p)
    rec["seed"] = None
    return rec


@pytest.mark.parametrize("seed", [0, 4])
def test_the_card_game_going_out_with_unseen_cards_is_not_rejected(seed: int) -> None:
    """Seed 4: seat 1 goes out in round 2 with every card of its hand unseen (rejected before); seed 0: the sets
    on the table stated for round 2 were compared with the ones laid from the known cards alone."""
    rec = _masked("the-card-game", seed, 2)
    assert any(a["action"].startswith("go out ") for a in rec["actions"])
    v = audit("t: ", rec)
    assert v.verdict in ("accepted", "unfinished"), v.line()


def test_a_wrong_go_out_still_fails_with_unseen_cards() -> None:
    """The stated sets only suggest where the unseen cards lie: a go-out whose discard the seat cannot hold (a card
    the record shows elsewhere) is still refused."""
    rec = _masked("the-card-game", 4, 2)
    i = next(i for i, a in enumerate(rec["actions"]) if a["action"].startswith("go out "))
    shown = rec["deals"][0]["piles"]["discard"][0]  # the first hand's turned card: on the table, not in a hand
    rec["actions"][i]["action"] = f"go out {shown}"
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == i, v.line()


def _first_reshuffle(system: str, options: dict[str, Any], seed: int, hands: int) -> int | None:
    """The first hand in which the stock grows during play (the discards shuffled into it), stepping the match."""
    g = Game.from_system(system, options)
    st, _ = play_stepped(g, seed, "random", hand_limit=hands)
    rec = record_of(st)
    st = g.new_initial_state(seed)
    for step in rec["actions"]:
        hand, before = st.hand_no, len(st.piles["stock"])
        st.apply(g.parse_action(step["action"]))
        if st.hand_no == hand and len(st.piles.get("stock", [])) > before:
            return hand
    return None


def test_a_record_without_a_seed_whose_hand_shuffles_again_is_malformed() -> None:
    opts = {"players": 15}  # a pickup pile of six cards runs out
    seed = next(s for s in range(20) if _first_reshuffle("riding-the-bus", opts, s, 30) is not None)
    hand = _first_reshuffle("riding-the-bus", opts, seed, 30)
    g = Game.from_system("riding-the-bus", opts)
    st, _ = play_stepped(g, seed, "random", hand_limit=30, keep_deals=True)
    rec = record_of(st)
    assert audit("t: ", rec).verdict in ("accepted", "unfinished")  # with its seed the reshuffle is known
    rec["seed"] = None
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None, v.line()
    assert v.error.path == "seed"
    assert f"no seed: hand {hand} shuffles cards again after its deal" in str(v.error)
