"""``draw_discard`` keeps the sorted list of the start of a turn for each situation (``_draw_lists``: the hand when a
take exchanges it, whether the pickup pile has a card, whether a take and a knock are open). The kept lists must be
the ones a component without the memory makes, in every option set that changes them, and a caller that changes
the list it got must not change the next one."""

from __future__ import annotations

import random

import pytest

from cardspec.engine.components.draw_discard import DrawDiscard
from cardspec.engine.game import Game
from cardspec.engine.spec import load


def _phase(st_game: Game) -> DrawDiscard:
    return next(p for p in st_game.phases if isinstance(p, DrawDiscard))


@pytest.mark.parametrize("sid", ["riding-the-bus", "the-card-game"])
def test_kept_start_of_turn_lists_are_the_lists_made_afresh(sid: str) -> None:
    checked = 0
    for opts in load(sid).option_sets():
        game = Game.from_system(sid, opts)
        comp = _phase(game)
        rng = random.Random(3)
        for seed in range(4):
            st = game.new_initial_state(seed)
            while not st.is_terminal() and len(st.hand_results) < 3:
                legal = st.legal_actions()
                if st.comp is comp and comp._ms(st).stage == "draw":
                    kept = dict(comp._draw_lists)
                    comp._draw_lists.clear()
                    fresh = comp.legal(st)  # made afresh (and kept again)
                    comp._draw_lists.update(kept)
                    assert legal == fresh, (opts, seed, len(st.history))
                    legal.append(-1)  # the caller's list is its own
                    assert st.legal_actions() == fresh
                    checked += 1
                st.apply(rng.choice(st.legal_actions()))
    assert checked > 50


def test_a_knock_opens_and_closes_the_kept_list() -> None:
    """Riding the Bus: the knock is offered after the first turn round and not once someone has knocked; the two
    situations have lists of their own (the kept one of the other must not be returned)."""
    game = Game.from_system("riding-the-bus")
    comp = _phase(game)
    rng = random.Random(9)
    seen = set()
    for seed in range(30):
        st = game.new_initial_state(seed)
        while not st.is_terminal() and len(st.hand_results) < 1:
            legal = st.legal_actions()
            if st.comp is comp and comp._ms(st).stage == "draw":
                ms = comp._ms(st)
                knock_open = ms.knocker < 0 and (ms.turns > 0 or comp.first_turn_knock == "allowed")
                assert any(game.codec.kind(a) == "knock" for a in legal) == knock_open
                seen.add(knock_open)
            st.apply(rng.choice(legal))
    assert seen == {True, False}
