"""``draw_discard`` checks an action by listing the legal ones (``keeps_list``), so ``State`` keeps the list
``legal_actions()`` made and applies an action from it without listing again: the kept list must never let through
an action that is not legal in the position it is applied in."""

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
            legal = st.legal_actions()
            assert st.listed == tuple(legal)
            fresh = st.copy()
            fresh.listed = None  # forget the kept list
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


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_pile_emptied_after_listing_is_read_afresh(sid: str) -> None:
    """A draw from the discard pile, listed, is refused once the pile was emptied from outside (the sizes of the
    stock and the discard pile are part of the position a list is kept for), as on a copy that never listed."""
    st = Game.from_system(sid).new_initial_state(3)
    codec = st.game.codec
    while "draw_discard" not in [codec.kind(a) for a in st.legal_actions()]:
        st.apply(st.legal_actions()[0])
    legal = st.legal_actions()
    take = next(a for a in legal if codec.kind(a) == "draw_discard")
    fresh = st.copy()
    fresh.listed = None
    for x in (st, fresh):
        x.piles[x.comp.discard].clear()  # type: ignore[attr-defined]
        with pytest.raises(IllegalActionError):
            x.apply(take)
