"""Euchre's house rules outside the text (register entries marked ``house_rule``) and the lead when the
maker goes alone, each reading pinned: the rules other engines play, so their logs can be audited under
them (issue 9). The text's own rule is the default in every case.

Expected values: the text (004) — the dealer "must choose one card in their hand to discard"; defenders
"win 3+: 2 points"; "The game goes until a team scores 10 points." — and, for the house rules, the rule
as the other engine states it (OpenSpiel: the dealer's legal discards are the five original cards; EGN:
"A successful lone defence (3+ tricks) scores 4"; EGN's LEFT_OF_LONER: the player left of the lone maker
leads).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

BASE = {"farmers_hand": "off"}


def game(**opts: Any) -> Game:
    return Game.from_system("euchre", {**BASE, **opts})


def ordered_up(g: Game, seed: int) -> State:
    """The first seat to act orders up; the dealer is then to discard."""
    st = g.new_initial_state(seed)
    st.apply_name("order_up")
    return st


def test_the_house_rule_entries_are_marked_and_decide_the_text() -> None:
    amb = {a.id: a for a in load("euchre").ambiguities}
    assert amb["dealer-discard"].house_rule and amb["dealer-discard"].decision == "any"
    assert amb["lone-defender"].house_rule and amb["lone-defender"].decision == "off"
    assert amb["other-targets"].house_rule and amb["other-targets"].decision == "10"
    assert not amb["loner-lead"].house_rule  # the text's own silence on the lead, not a house rule
    assert not amb["screw-the-dealer"].house_rule


# --- dealer-discard ------------------------------------------------------------------------
def test_dealer_discard_any_the_picked_up_card_may_go() -> None:
    """The text: the turned card is "part of their hand" and any "one card in their hand" is discarded."""
    g = game()
    for seed in range(10):
        st = ordered_up(g, seed)
        up = g.deck.names[st.cstate[0].up]  # type: ignore[attr-defined]
        assert st.cur == st.dealer
        assert f"discard {up}" in st.legal_action_names()
        assert len(st.legal_actions()) == 6


def test_dealer_discard_not_turned_card_keeps_the_picked_up_card() -> None:
    """OpenSpiel: the dealer's legal discards are the five cards of the original hand."""
    g = game(dealer_discard="not_turned_card")
    for seed in range(10):
        st = ordered_up(g, seed)
        up = g.deck.names[st.cstate[0].up]  # type: ignore[attr-defined]
        names = st.legal_action_names()
        assert f"discard {up}" not in names and len(names) == 5
        with pytest.raises(IllegalActionError, match="may not discard the card picked up"):
            st.check(g.parse_action(f"discard {up}"))


# --- lone-defender -------------------------------------------------------------------------
def _to_going_alone(g: Game, seed: int, alone: bool) -> State:
    st = ordered_up(g, seed)
    st.apply(st.legal_actions()[0])  # the dealer discards
    assert st.comp.id == "going_alone"
    st.apply_name("alone" if alone else "pass")
    return st


@pytest.mark.parametrize("alone", [False, True])
def test_lone_defender_off_nobody_defends_alone(alone: bool) -> None:
    st = _to_going_alone(game(), 1, alone)
    assert st.comp.id == "play"


def test_lone_defender_against_loner_is_asked_only_against_a_lone_maker() -> None:
    g = game(lone_defender="against_loner")
    assert _to_going_alone(g, 1, False).comp.id == "play"
    st = _to_going_alone(g, 1, True)
    maker = st.contract.maker
    assert st.comp.id == "defending_alone" and g.entity_of[st.cur] != g.entity_of[maker]
    assert st.legal_action_names() == ["pass", "defend_alone"]


def test_lone_defender_always_is_asked_after_any_maker_decision_first_defender_from_dealers_left() -> None:
    g = game(lone_defender="always")
    st = _to_going_alone(g, 1, False)
    maker = st.contract.maker
    assert st.comp.id == "defending_alone"
    first = next((st.dealer + k) % 4 for k in range(1, 5) if g.entity_of[(st.dealer + k) % 4] != g.entity_of[maker])
    assert st.cur == first
    st.apply_name("pass")
    assert st.comp.id == "defending_alone" and st.cur == (first + 2) % 4  # then the other defender
    st.apply_name("defend_alone")
    assert st.comp.id == "play"
    assert st.contract.out == 1 << ((first + 2 + 2) % 4)  # the lone defender's partner sits out


def _lone_defence_hands(g: Game, want_three: bool) -> tuple[State, int]:
    """A finished hand where the first defender went alone, with the defenders taking 3+ tricks or not."""
    for seed in range(400):
        st = _to_going_alone(g, seed, False)
        defender = st.cur
        st.apply_name("defend_alone")
        rng = random.Random(seed)
        while not st.hand_results:
            st.apply(rng.choice(st.legal_actions()))
        r = st.hand_results[0]
        side = g.entity_of[defender]
        taken = sum(1 for w in r["trick_winners"] if g.entity_of[w] == side)
        if (taken >= 3) == want_three:
            return st, side
    raise AssertionError("no such hand")


def test_a_lone_defence_taking_three_scores_four() -> None:
    st, side = _lone_defence_hands(game(lone_defender="always"), True)
    assert st.hand_results[0]["scores"][side] == 4 and st.hand_results[0]["scores"][1 - side] == 0


def test_a_failed_lone_defence_scores_the_makers_as_usual() -> None:
    st, side = _lone_defence_hands(game(lone_defender="always"), False)
    r = st.hand_results[0]
    makers = 1 - side
    taken = sum(1 for w in r["trick_winners"] if st.game.entity_of[w] == makers)
    assert r["scores"][side] == 0
    assert r["scores"][makers] == (2 if taken == 5 else 1)  # "win 3+: 1 point", "won all 5: 2 points"


# --- loner-lead ----------------------------------------------------------------------------
def _dealers_partner_goes_alone(g: Game) -> State:
    """The player left of the dealer passes; the dealer's partner orders up and goes alone, so the
    dealer sits out."""
    st = g.new_initial_state(2)
    st.apply_name("pass")  # left of the dealer
    st.apply_name("order_up")  # the dealer's partner
    st.apply(st.legal_actions()[0])  # the dealer discards
    st.apply_name("alone")
    return st


def test_loner_lead_left_of_dealer() -> None:
    st = _dealers_partner_goes_alone(game())
    maker = st.contract.maker
    assert maker == (st.dealer + 2) % 4 and st.contract.out == 1 << st.dealer
    assert st.comp.id == "play" and st.cur == (st.dealer + 1) % 4


def test_loner_lead_left_of_loner() -> None:
    st = _dealers_partner_goes_alone(game(loner_lead="left_of_loner"))
    maker = st.contract.maker
    assert st.comp.id == "play" and st.cur == (maker + 1) % 4 and st.cur != (st.dealer + 1) % 4


def test_loner_lead_left_of_loner_without_a_loner_is_left_of_the_dealer() -> None:
    g = game(loner_lead="left_of_loner")
    st = g.new_initial_state(4)
    st.apply_name("pass")
    st.apply_name("order_up")
    st.apply(st.legal_actions()[0])
    st.apply_name("pass")
    assert st.comp.id == "play" and st.cur == (st.dealer + 1) % 4


# --- other-targets -------------------------------------------------------------------------
@pytest.mark.parametrize("target", [10, 5, 11])
def test_the_match_ends_when_a_team_reaches_the_target(target: int) -> None:
    g = game(target=target)
    for seed in range(5):
        st = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        assert st.winners is not None
        totals = st.hand_results[-1]["totals"]
        before = [t - s for t, s in zip(totals, st.hand_results[-1]["scores"], strict=True)]
        assert max(totals) >= target and max(before) < target
        assert all(g.entity_of[w] == totals.index(max(totals)) for w in st.winners)
