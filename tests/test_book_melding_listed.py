"""``book_melding`` keeps its lists (``keeps_list``): ``State`` remembers the last legal list with the position it
was made for (``State.listed``), so that applying a listed action does not check it a second time (book_melding's
own check, ``_refuse``, costs more than the look-up). The memory must change no verdict: every action
is accepted or refused, with the same resulting state and record, as by a copy that never listed anything;
copies that part ways keep their own lists; an action listed before a change of position is judged afresh."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from cardspec.engine.actions import Action
from cardspec.engine.cards import Deck
from cardspec.engine.components.book_melding import BookMelding
from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SPEC = load("hand-and-foot")


def _label(opts: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in opts.items()) or "defaults"


def _comp(g: Game) -> BookMelding:
    return next(ph for ph in g.phases if isinstance(ph, BookMelding))


def _forget(st: State) -> State:
    """``st`` with no remembered list (as if ``legal_actions`` had never been asked)."""
    st.listed = None
    return st


def _snapshot(st: State) -> tuple[Any, ...]:
    """Everything a position holds, but the remembered list."""
    phases = [None if x is None else tuple((f.name, getattr(x, f.name)) for f in dataclasses.fields(x))  # type: ignore[arg-type]
              for x in st.cstate]
    return (st.cur, st.phase, st.hand_no, tuple(st.hands), sorted(st.piles.items()), sorted(st.seat_piles.items()),
            phases, list(st.history), st.hand_results, st.winners)


def _outcome(st: State, a: Action) -> tuple[Any, ...]:
    """Apply ``a``: accepted with the position it leads to, or refused with the reason (and the position kept)."""
    try:
        st.apply(a)
    except IllegalActionError as e:
        return ("refused", str(e), _snapshot(st))
    return ("accepted", _snapshot(st))


def _plain_decode(comp: BookMelding, a: Action) -> tuple[Any, ...]:
    """``_decode`` of a well-formed action the plain way."""
    codec = comp.codec
    k, cards = codec.kind(a), codec.cards(a)
    return (k, cards, Deck.mask(cards), len(set(cards)) == len(cards), codec.number(a),
            comp.new_set_rank(cards) if k == "meld" else None)


@pytest.mark.parametrize("opts", SPEC.option_sets(), ids=_label)
def test_every_verdict_is_that_of_a_copy_that_never_listed(opts: dict[str, Any]) -> None:
    """At positions of seeded random matches (leaning toward sets, so that lay-outs, books and the foot are
    reached): each listed action, the neighbouring ints and actions listed earlier elsewhere are accepted or
    refused, with the same state and record after, by a copy keeping the list and by one that forgets it."""
    g = Game(SPEC, opts)
    comp = _comp(g)
    rnd = random.Random(11)
    seen: list[Action] = []
    checked = 0
    for seed in range(4):
        st = g.new_initial_state(seed)
        while not st.is_terminal() and len(st.hand_results) < 2 and checked < 90:
            legal = st.legal_actions()
            if st.comp is comp:
                assert all(comp._decode(a) == _plain_decode(comp, a) for a in legal)
                probes = sorted({*legal, *rnd.sample(seen, min(8, len(seen))), *(a + d for a in legal[:4]
                                                                                   for d in (-1, 1))})
                fresh = _forget(st.copy())
                assert [st.can_apply(a) for a in probes] == [fresh.can_apply(a) for a in probes]
                for a in rnd.sample(probes, min(6, len(probes))) + rnd.sample(legal, 1):
                    assert _outcome(st.copy(), a) == _outcome(_forget(st.copy()), a), (seed, len(st.history), a)
                checked += 1
                seen = (seen + legal)[-300:]
            grow = [a for a in legal if g.action_name(a).startswith(("meld", "add"))]
            st.apply(rnd.choice(grow) if grow and rnd.random() < 0.6 else rnd.choice(legal))
    assert checked >= 40


def _at_play(seed: int, opts: dict[str, Any] | None = None) -> State:
    """A position after the draw with two discards or more listed."""
    g = Game(SPEC, opts or {})
    st = g.new_initial_state(seed)
    rnd = random.Random(seed)
    while True:
        legal = st.legal_actions()
        if sum(g.codec.kind(a) == "discard" for a in legal) >= 2:
            return st
        st.apply(rnd.choice([a for a in legal if g.codec.kind(a) in ("draw_stock", "take")] or legal))


def test_a_card_taken_from_the_hand_after_listing_is_refused() -> None:
    st = _at_play(1)
    a = next(a for a in st.legal_actions() if st.game.codec.kind(a) == "discard")
    st.hands[st.cur] &= ~(1 << st.game.codec.cards(a)[0])  # changed from outside after the list was made
    assert not st.can_apply(a)
    with pytest.raises(IllegalActionError):
        st.apply(a)


def test_an_action_listed_before_a_change_of_position_is_judged_afresh() -> None:
    """Actions listed before a set was laid are judged on the position after it: those no longer legal (the
    set just laid, whose cards are on the table now) are refused, as a copy that never listed them finds."""
    g = Game(SPEC, {})
    rnd = random.Random(4)
    st = g.new_initial_state(4)
    while not any(g.codec.kind(a) == "meld" for a in st.legal_actions()):
        legal = st.legal_actions()
        st.apply(rnd.choice(legal))
    legal = st.legal_actions()
    meld = next(a for a in legal if g.codec.kind(a) == "meld")
    st.apply(meld)
    assert st.cur >= 0 and not st.can_apply(meld)
    fresh = _forget(st.copy())
    assert [st.can_apply(a) for a in legal] == [fresh.can_apply(a) for a in legal]
    with pytest.raises(IllegalActionError):
        st.apply(meld)


def test_copies_that_part_ways_keep_their_own_lists() -> None:
    st = _at_play(2)
    legal = st.legal_actions()
    discards = [a for a in legal if st.game.codec.kind(a) == "discard"]
    other = st.copy()  # it keeps the list made for the position both are at
    assert other.listed == st.listed and other.listed is not None
    st.apply(discards[0])
    assert _snapshot(other)[1:] != _snapshot(st)[1:]
    st.legal_actions()  # a list for st's new position: other's stays its own
    assert other.can_apply(discards[1]) and other.can_apply(discards[0])
    mine, plain = other.copy(), _forget(other.copy())
    assert _outcome(mine, discards[1]) == _outcome(plain, discards[1])
    for s in (st, other):
        now = s.legal_actions()
        fresh = _forget(s.copy())
        assert all(s.can_apply(a) for a in now)
        assert [s.can_apply(a) for a in legal] == [fresh.can_apply(a) for a in legal]


def test_the_list_is_remembered_for_its_position_only() -> None:
    """The remembered position names the actions applied, the player, their hand and the sizes of the pickup and
    discard piles (``list_piles``); applying an action forgets it."""
    st = _at_play(3)
    comp = _comp(st.game)
    assert comp.keeps_list and set(comp.list_piles) == {comp.stock, comp.discard}
    legal = st.legal_actions()
    assert st.listed == tuple(legal) and st.listed_key() == st.list_key()
    key = st.list_key()
    assert key[:4] == (len(st.history), st.phase, st.cur, st.hands[st.cur])
    st.apply(legal[0])
    assert st.listed is None and st.list_key() != key


def test_a_pile_changed_from_outside_after_listing_gets_the_action_judged_afresh() -> None:
    """The pickup pile emptied from outside after the list was made: the draw it listed is refused, as a copy that
    never listed finds (the kept list's key names the pile's size)."""
    g = Game(SPEC, {})
    st = g.new_initial_state(5)
    rnd = random.Random(5)
    legal = st.legal_actions()
    while not any(g.codec.kind(a) == "draw_stock" for a in legal):
        st.apply(rnd.choice(legal))
        legal = st.legal_actions()
    draw = next(a for a in legal if g.codec.kind(a) == "draw_stock")
    stock = st.piles[_comp(g).stock]
    st.piles[_comp(g).stock] = []  # changed from outside after the list was made
    assert st.listed is not None and st.listed_key() != st.list_key()
    assert not st.can_apply(draw) and not _forget(st.copy()).can_apply(draw)
    with pytest.raises(IllegalActionError):
        st.apply(draw)
    st.piles[_comp(g).stock] = stock
    assert st.can_apply(draw)
