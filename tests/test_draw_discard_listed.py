"""``draw_discard`` remembers its last legal list so that applying a listed action does not build the list
again: the memory must never let through an action that is not legal in the position it is applied in."""

from __future__ import annotations

import random

import pytest

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.state import State

SYSTEMS = ("riding-the-bus", "the-card-game")


def _at_discard(sid: str, seed: int) -> State:
    st = Game.from_system(sid).new_initial_state(seed)
    while st.game.codec.kind(st.legal_actions()[0]) != "discard" or len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    return st


@pytest.mark.parametrize("sid", SYSTEMS)
def test_every_position_agrees_with_a_fresh_list(sid: str) -> None:
    """At every position of seeded random matches: each listed action is accepted, and so is exactly what a
    copy that never listed anything accepts (the memory changes no verdict)."""
    game = Game.from_system(sid)
    rng = random.Random(5)
    for seed in range(3):
        st = game.new_initial_state(seed)
        while not st.is_terminal() and len(st.hand_results) < 2:
            fresh = st.copy()  # its own phase states (State.copy copies them)
            for x in fresh.cstate:  # forget the remembered list
                if x is not None and hasattr(x, "listed"):
                    x.listed = ((), ())
            legal = st.legal_actions()
            probe = sorted({*legal, *(a + d for a in legal for d in (-1, 1) if a + d >= 0)})
            assert [st.can_apply(a) for a in probe] == [fresh.can_apply(a) for a in probe]
            assert all(st.can_apply(a) for a in legal)
            st.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_card_taken_from_the_hand_after_listing_is_refused(sid: str) -> None:
    st = _at_discard(sid, 1)
    legal = st.legal_actions()
    a = legal[0]
    card = st.game.codec.cards(a)[0]
    st.hands[st.cur] &= ~(1 << card)  # changed from outside after the list was made
    with pytest.raises(IllegalActionError):
        st.apply(a)


@pytest.mark.parametrize("sid", SYSTEMS)
def test_copies_that_part_ways_keep_their_own_lists(sid: str) -> None:
    st = _at_discard(sid, 2)
    legal = st.legal_actions()
    other = st.copy()
    st.apply(legal[0])
    other.apply(legal[1])
    for s in (st, other):
        now = s.legal_actions()
        assert all(s.can_apply(a) for a in now)
        stale = [a for a in legal if a not in now and s.game.codec.kind(a) == "discard"]
        assert stale and not any(s.can_apply(a) for a in stale)

