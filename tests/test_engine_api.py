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
