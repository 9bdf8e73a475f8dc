"""A seeded record written with its deals (``cardspec simulate --deals``) replays as played when a hand shuffles
again (a stock rebuilt from the discards): the given deal counts as the hand's first chance event, as the seeded
deal does, so the reshuffle is the seeded game's second event in both (review 7: these records were rejected)."""

from __future__ import annotations

import random

import pytest

from cardspec.engine.game import Game
from cardspec.engine.record import record_of, replay

CASES = [("the-card-game", {}), ("hand-and-foot", {"pickup_exhausted": "reshuffle_once"})]


@pytest.mark.parametrize(("system", "options"), CASES)
def test_a_record_with_its_deals_replays_through_a_reshuffle(system: str, options: dict[str, str]) -> None:
    g = Game.from_system(system, options)
    reshuffled = 0
    for seed in range(1, 6):
        rng = random.Random(seed)
        st = g.new_initial_state(seed, hand_limit=4, keep_deals=True)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
            if st.chance_count >= 2:  # a second shuffle in this hand
                reshuffled += 1
        rec = record_of(st)
        assert len(rec["deals"]) == len(st.hand_results)
        again = replay(rec).state
        assert again.history == st.history and again.hand_results == st.hand_results, (system, seed)
    assert reshuffled, "no hand reshuffled: the test would prove nothing"
