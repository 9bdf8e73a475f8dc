"""The public engine API: observations, copies, steps, errors, explicit deals."""

from __future__ import annotations

import pytest

from cardspec.engine import state as state_module
from cardspec.engine.errors import IllegalActionError, InvalidActionError
from cardspec.engine.game import Game
from cardspec.engine.record import deal_of


def test_observation_hides_other_hands_and_face_down_cards() -> None:
    """A seat sees its own cards, not the others', and not the dealer's face-down discard."""
    g = Game.from_system("euchre", {"farmers_hand": "off"})
    st = g.new_initial_state(3)
    st.apply_name("order_up")  # the first player orders up: the dealer picks up and must discard
    dealer = st.current_player()
    assert dealer == st.dealer
    discard = st.legal_action_names()[0]
    st.apply_name(discard)
    for seat in range(4):
        obs = st.observation(seat)
        mine = {g.deck.names[c] for c in g.deck.cards_of(st.hands[seat])}
        assert set(obs["my_cards"]) == mine
        others = {g.deck.names[c] for s in range(4) if s != seat for c in g.deck.cards_of(st.hands[s])}
        text = repr(obs)
        assert not any(f"'{c}'" in text for c in others - mine - set(obs["turned_up"]) - {discard.split()[1]})
        shown = [h["action"] for h in obs["history"] if h["seat"] == dealer]
        assert shown == ([discard] if seat == dealer else ["discard ?"])
    assert st.observation(0)["hand_sizes"] == [5, 5, 5, 5]


def test_copy_is_cheap_and_independent() -> None:
    st = Game.from_system("bird-dog-11").new_initial_state(5)
    c = st.copy()
    c.apply(c.legal_actions()[0])
    assert len(st.history) == 0 and len(c.history) == 1
    assert st.hands is not c.hands and st.piles["undealt"] is not c.piles["undealt"]


def test_apply_returns_a_frozen_step() -> None:
    st = Game.from_system("euchre").new_initial_state(1)
    seat = st.current_player()
    step = st.apply_name("pass")
    assert step.seat == seat and step.hand_ended is False
    with pytest.raises(AttributeError):
        step.seat = 3  # type: ignore[misc]


@pytest.mark.parametrize("system", ["euchre", "hand-and-foot"])
def test_every_step_names_the_seat_the_action_and_whether_a_hand_ended(system: str) -> None:
    """Steps are kept per game and shared (they are immutable): each still says who acted, what, and
    whether that action ended a hand, as the state before and after it shows."""
    import random

    g = Game.from_system(system)
    rng = random.Random(4)
    for seed in range(3):
        st = g.new_initial_state(seed, hand_limit=2)
        while not st.is_terminal():
            seat, hands = st.cur, len(st.hand_results)
            a = rng.choice(st.legal_actions())
            step = st.apply(a)
            assert step == (seat, a, len(st.hand_results) > hands or st.winners is not None)
            assert step.seat == seat and step.action == a
    assert 0 < len(g.steps) <= state_module.STEP_ACTIONS


@pytest.mark.pure_only  # it lowers a module constant, which a compiled module has bound
def test_past_the_kept_actions_steps_are_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_module, "STEP_ACTIONS", 3)
    g = Game.from_system("euchre")
    st = g.new_initial_state(8)
    while not st.is_terminal():
        seat, hands, a = st.cur, len(st.hand_results), st.legal_actions()[-1]
        assert st.apply(a) == (seat, a, len(st.hand_results) > hands or st.winners is not None)
    assert len(g.steps) == 3


def test_invalid_and_illegal_actions_are_different_errors() -> None:
    g = Game.from_system("euchre")
    st = g.new_initial_state(1)
    with pytest.raises(InvalidActionError):
        st.apply_name("jump")
    with pytest.raises(IllegalActionError) as err:
        st.apply_name("name H")  # no naming in the first round
    assert err.value.source is not None and err.value.source.doc.endswith(".txt")


def test_an_explicit_deal_round_trips() -> None:
    g = Game.from_system("riding-the-bus")
    st = g.new_initial_state(9)
    again = g.new_initial_state(None, [deal_of(st)])
    assert again.hands == st.hands and again.piles == st.piles and again.dealer == st.dealer


def test_legal_actions_are_sorted_and_named() -> None:
    g = Game.from_system("riding-the-bus", {"first_turn_knock": "allowed"})
    st = g.new_initial_state(2)
    legal = st.legal_actions()
    assert legal == sorted(legal)
    assert st.legal_action_names() == ["draw stock", "knock"]


def _phase_state_classes() -> list[type]:
    import importlib
    import pkgutil

    import cardspec.engine.components as components
    from cardspec.engine.components.base import PhaseState

    for m in pkgutil.iter_modules(components.__path__):
        importlib.import_module(f"cardspec.engine.components.{m.name}")
    out: list[type] = []
    todo: list[type] = [PhaseState]
    while todo:
        for sub in todo.pop().__subclasses__():
            out.append(sub)
            todo.append(sub)
    return sorted(out, key=lambda c: c.__qualname__)


def _distinct(cls: type) -> object:
    """An instance of a phase state whose every field differs from its default (and from the others)."""
    import dataclasses

    def vary(d: object, i: int) -> object:  # of the default's shape (a compiled class checks a fixed-size tuple)
        if isinstance(d, bool):
            return not d
        if isinstance(d, int):
            return 7 + i
        if isinstance(d, str):
            return f"s{i}"
        if isinstance(d, tuple) and d:
            return tuple(vary(x, i + k) for k, x in enumerate(d))
        return (i, i + 1) if isinstance(d, tuple) else [i, i + 1]

    fields = dataclasses.fields(cls)
    return cls(*[vary(f.default if f.default is not dataclasses.MISSING else f.default_factory(),  # type: ignore[misc]
                      i) for i, f in enumerate(fields)])


@pytest.mark.parametrize("cls", _phase_state_classes(), ids=lambda c: c.__qualname__)
def test_every_phase_state_copies_every_field(cls: type) -> None:
    """A copy of each component's phase state is of its own class, equal in every field (a field added
    but not copied would come back as its default), and shares no list with the original."""
    import dataclasses

    assert len(_phase_state_classes()) >= 14
    x = _distinct(cls)
    c = x.copy()  # type: ignore[attr-defined]
    assert type(c) is cls and c is not x
    for f in dataclasses.fields(cls):
        assert getattr(c, f.name) == getattr(x, f.name), f.name
        if isinstance(getattr(x, f.name), list):
            assert getattr(c, f.name) is not getattr(x, f.name), f.name


def _constructed_classes() -> list[type]:
    """The dataclasses built on every hand (and by every copy): each phase state, and the contract."""
    from cardspec.engine.contract import Contract

    return [*_phase_state_classes(), Contract]


@pytest.mark.parametrize("cls", _constructed_classes(), ids=lambda c: c.__qualname__)
def test_a_per_hand_dataclass_has_its_own_constructor_over_its_fields(cls: type) -> None:
    """Each is a dataclass with ``init=False`` and an ``__init__`` of its own, which a compiled build runs
    natively (the one ``@dataclass`` writes is interpreted Python: about 0.3 us a call against 0.08). The
    constructor takes the fields in their order with their defaults, so it builds what ``@dataclass`` would."""
    import dataclasses
    import types

    from cardspec import compiled

    assert not cls.__dataclass_params__.init  # type: ignore[attr-defined]
    fields = dataclasses.fields(cls)
    if compiled():
        assert not isinstance(cls.__init__, types.FunctionType), "an interpreted constructor"
    else:
        import inspect

        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [p.name for p in params] == [f.name for f in fields]
        for p, f in zip(params, fields, strict=True):
            if f.default is not dataclasses.MISSING:
                assert p.default == f.default and type(p.default) is type(f.default), f.name
            elif f.default_factory is not dataclasses.MISSING:
                assert p.default is None, f.name  # None stands for a fresh default_factory() value
            else:
                assert p.default is inspect.Parameter.empty, f.name
    if all(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING for f in fields):
        x, y = cls(), cls()
        for f in fields:
            want = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
            assert getattr(x, f.name) == want, f.name
            if isinstance(want, list):
                assert getattr(x, f.name) is not getattr(y, f.name), f.name  # not one list shared by all
    args = [object() for _ in fields]  # each argument lands in its own field (no types are checked here when pure)
    if not compiled():
        x = cls(*args)
        assert [getattr(x, f.name) for f in fields] == args


@pytest.mark.pure_only  # a compiled class takes no interpreted subclass
def test_a_phase_state_without_its_own_copy_gets_every_field() -> None:
    import dataclasses

    from cardspec.engine.components.base import PhaseState

    @dataclasses.dataclass
    class Extra(PhaseState):
        a: int = 0
        b: tuple[int, ...] = ()

    c = Extra(3, (1, 2)).copy()
    assert type(c) is Extra and (c.a, c.b) == (3, (1, 2))  # type: ignore[attr-defined]


@pytest.mark.parametrize("system", ["euchre", "the-card-game", "bird-dog-2p"])
def test_a_copy_holds_every_field_of_the_state(system: str) -> None:
    """Every field of a State (its ``__slots__``) is set in a copy and equal to the original's; the mutable
    ones are not shared, so play on the copy leaves the original as it was."""
    import random

    g = Game.from_system(system)
    rng = random.Random(2)
    st = g.new_initial_state(6, hand_limit=2)
    while not st.is_terminal():
        c = st.copy()
        for name in state_module.STATE_FIELDS:
            mine, theirs = getattr(st, name), getattr(c, name)
            assert theirs == mine, name
            if isinstance(mine, (list, dict)) and name != "game":
                assert theirs is not mine, name
        a = rng.choice(st.legal_actions())
        c.apply(a)
        assert c.history[:-1] == st.history and c.history[-1][1] == a
        st.apply(a)


LISTING_SYSTEMS = ["euchre", "bid-euchre", "buck-euchre", "dirty-clubs", "bird-dog-2p", "riding-the-bus",
                   "the-card-game", "hand-and-foot"]
"""Systems with a phase that keeps its lists: its check is its list of legal actions (turn-up trump, an auction, an
up-card exchange, draw-and-discard turns), or costs more than a look-up in it (book melding)."""
LISTS_READ_HANDS = {"euchre", "buck-euchre", "dirty-clubs", "riding-the-bus", "the-card-game", "hand-and-foot"}
"""Those whose listing phases list discards (from the hand held); the others' list bids and passes only."""


@pytest.mark.parametrize("system", LISTING_SYSTEMS)
def test_the_kept_list_admits_exactly_the_actions_legal_at_its_own_position(system: str) -> None:
    """``State.legal_actions()`` keeps its list for a phase that ``keeps_list``, and ``apply`` carries out
    an action from it without listing again, only at the position the list was made for: on a copy (which keeps
    the list), each action of the last position's list that is not legal now is refused, naming the clause, as it
    is on a copy that never listed anything; each legal one is carried out as it is there."""
    import random

    g = Game.from_system(system)
    assert any(ph.keeps_list for ph in g.phases)
    rng = random.Random(5)
    st = g.new_initial_state(11, hand_limit=3)
    kept = refused = guarded = 0
    before: list[int] = []
    while not st.is_terminal():
        legal = st.legal_actions()
        if st.comp.keeps_list:
            kept += 1
            assert st.listed == tuple(legal) and st.listed_key() == st.list_key()
            for b in dict.fromkeys(before + legal[:3]):
                kept_list, fresh = st.copy(), st.copy()
                fresh.listed = None  # a copy that never listed: its check lists afresh
                assert kept_list.listed == st.listed
                if b in legal or (g.deck.has_copies and fresh.can_apply(b)):  # another copy of a listed class
                    kept_list.apply(b)
                    fresh.apply(b)
                    assert kept_list.history == fresh.history and kept_list.hands == fresh.hands
                    assert kept_list.cstate == fresh.cstate and kept_list.cur == fresh.cur
                else:
                    refused += 1
                    for x in (kept_list, fresh):
                        with pytest.raises(IllegalActionError):
                            x.apply(b)
                    assert kept_list.listed is None  # dropped: the next try lists afresh
            changed, fresh = st.copy(), st.copy()
            hand = st.hands[st.cur]  # from outside: its highest card swapped for the lowest it lacks (same size)
            changed.hands[st.cur] = fresh.hands[st.cur] = (hand ^ 1 << (hand.bit_length() - 1)) | (~hand & (hand + 1))
            fresh.listed = None
            assert changed.listed is not None and changed.listed_key() != changed.list_key()
            outcomes = []
            for x in (changed, fresh):
                try:
                    x.apply(legal[-1])
                    outcomes.append((x.history, x.hands, x.cur))
                except IllegalActionError as e:
                    outcomes.append(str(e))
            assert outcomes[0] == outcomes[1]
            guarded += isinstance(outcomes[0], str)
        else:
            assert st.listed is None  # no list kept for a phase with a check of its own
        before = legal
        st.apply(rng.choice(legal))
    assert kept > 0 and refused > 0
    assert guarded > 0 or system not in LISTS_READ_HANDS  # a list of bids reads no hand: nothing to guard


@pytest.mark.pure_only  # counts the calls of a component's legal(), patched on the instance
def test_an_action_just_listed_is_checked_without_listing_again() -> None:
    g = Game.from_system("euchre")
    st = g.new_initial_state(3)
    comp = st.comp
    assert comp.keeps_list
    calls = []
    real = comp.legal
    comp.legal = lambda s: calls.append(1) or real(s)  # type: ignore[method-assign]
    try:
        legal = st.legal_actions()
        assert len(calls) == 1
        st.apply(legal[0])  # listed for this very position: a look-up
        assert len(calls) == 1
        st.apply(st.copy().legal_actions()[0])  # listed on a copy only: this state lists afresh to check it
        assert len(calls) == 3
    finally:
        del comp.legal


def test_the_names_a_spec_gives_are_interned() -> None:
    """The loader interns a spec's short strings (zone, tally, fact and choice names), so that play's dict
    look-ups by the names written in the engine's source find their keys by identity; quotes are left alone."""
    import sys

    from cardspec.engine.loader import INTERN_UP_TO, load_yaml_text

    loaded = load_yaml_text("zones: {trick: table}\nquote: " + "x" * (INTERN_UP_TO + 1) + "\n", "x.yaml").data
    key = next(iter(loaded["zones"]))
    assert key is sys.intern("tr" + "ick") and loaded["zones"][key] is sys.intern("tab" + "le")
    assert loaded["quote"] is not sys.intern("x" * (INTERN_UP_TO + 1))
    g = Game.from_system("euchre")
    st = g.new_initial_state(1)
    assert all(name is sys.intern(name) for name in [*st.piles, *st.seat_piles, *st.tally])
    assert all(i.name is sys.intern(i.name) for t in g.scoring.tables for i in t.inputs)
