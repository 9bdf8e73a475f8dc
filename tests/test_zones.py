"""Zones: every place a card can be is declared with its owner, order and visibility,
and each seat's observation is derived from those declarations alone.

One test per zone of each bundled spec and per seat: who sees the cards, who
sees only the count. Spec errors for undeclared, unused and malformed zones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import trick_winners

from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.state import State
from cardspec.engine.zones import Zone, view


def _played(system: str, steps: int, seed: int = 3) -> State:
    st = Game.from_system(system).new_initial_state(seed)
    for _ in range(steps):
        st.apply(st.legal_actions()[0])
    return st


def _until(system: str, done: Callable[[State], bool], seed: int = 3) -> State:
    st = Game.from_system(system).new_initial_state(seed)
    for _ in range(500):
        if done(st):
            return st
        st.apply(st.legal_actions()[0])
    raise AssertionError("the position was never reached")


@pytest.mark.parametrize("system", ["euchre", "bird-dog-11", "riding-the-bus"])
def test_a_hand_is_seen_by_its_owner_only(system: str) -> None:
    st = _played(system, 2)
    g = st.game
    for viewer in range(g.num_players):
        obs = st.observation(viewer)
        for seat, v in enumerate(obs["zones"]["hand"]):
            assert v["count"] == st.hands[seat].bit_count()
            if seat == viewer:
                assert v["cards_top_first"] == [g.deck.names[c] for c in g.deck.cards_of(st.hands[seat])]
            else:
                assert "cards_top_first" not in v


def test_euchre_kitty_shows_its_count_only_and_won_tricks_are_counted_face_down() -> None:
    st = _until("euchre", lambda s: bool(trick_winners(s)) and s.hand_no == 0)
    for viewer in range(4):
        z = st.observation(viewer)["zones"]
        assert z["kitty"] == {"count": len(st.piles["kitty"])}
        assert [w["count"] for w in z["won"]] == [w.bit_count() for w in st.seat_piles["won"]]
        assert all("cards_top_first" not in w for w in z["won"])


def test_bird_dog_captured_face_cards_are_shown_and_other_cards_are_not() -> None:
    """"non-face cards are removed from view" (000)."""
    st = _until("bird-dog-11", lambda s: len(trick_winners(s)) >= 3 and s.hand_no == 0)
    g = st.game
    face = {g.deck.ranks.index(r) for r in ("J", "Q", "K")}
    won_any = False
    for viewer in range(3):
        z = st.observation(viewer)["zones"]
        for seat, w in enumerate(z["won"]):
            cards = list(g.deck.cards_of(st.seat_piles["won"][seat]))
            won_any = won_any or bool(cards)
            assert w["count"] == len(cards)
            assert sorted(w["cards_top_first"]) == sorted(g.deck.names[c] for c in cards if g.deck.rank_of[c] in face)
        assert z["undealt"] == {"count": 3}
    assert won_any


def test_riding_the_bus_discards_are_public_and_the_stock_is_counted() -> None:
    st = _played("riding-the-bus", 6)
    names = st.game.deck.names
    for viewer in range(4):
        z = st.observation(viewer)["zones"]
        assert z["discard"]["cards_top_first"] == [names[c] for c in reversed(st.piles["discard"])]
        assert z["stock"] == {"count": len(st.piles["stock"])}


def test_trick_cards_are_public() -> None:
    st = _until("euchre", lambda s: len(s.piles["trick"]) == 2)
    for viewer in range(4):
        assert st.observation(viewer)["zones"]["trick"]["count"] == len(st.piles["trick"])


def test_where_is_covers_every_declared_zone_and_nothing_else() -> None:
    st = _played("euchre", 9)
    places = {p for ps in st.where_is().values() for p in ps}
    assert {p.split()[0] for p in places} <= {z.id for z in st.game.zones}
    assert len(st.where_is()) == st.game.deck.size


def test_top_visibility_shows_only_the_top_cards() -> None:
    z = Zone("dog", "table", "stack", "top", 3, None)
    names = tuple(f"c{i}" for i in range(10))
    assert view(z, [0, 1, 2, 3, 4], False, names, ()) == {"count": 5, "cards_top_first": ["c4", "c3", "c2"]}
    assert view(Zone("x", "table", "stack", "hidden", 0, None), [1], True, names, ()) == {}


def _spec_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (spec_dir() / "riding-the-bus.yaml").read_text()
    assert old in text
    p = tmp_path / "rtb.yaml"
    p.write_text(text.replace(old, new, 1))
    return p


def test_a_zone_used_but_not_declared_is_a_spec_error(tmp_path: Path) -> None:
    p = _spec_with(tmp_path, "  - {id: stock, owner: table", "  - {id: stockpile, owner: table")
    with pytest.raises(SpecError, match="uses zone 'stock', which the zones clause does not declare"):
        Game.from_system(str(p))


def test_a_declared_zone_nothing_uses_is_a_spec_error(tmp_path: Path) -> None:
    p = _spec_with(tmp_path, "zones:\n", "zones:\n  - {id: spare, owner: table, order: stack, visibility: count, "
                   "source: {doc: 004_945a3021da002f83.txt, quote: \"The dealer gives each person 3 cards\"}}\n")
    with pytest.raises(SpecError, match="zone 'spare' is declared but nothing puts cards in it"):
        Game.from_system(str(p))


def test_top_visibility_needs_its_count(tmp_path: Path) -> None:
    p = _spec_with(tmp_path, "{id: stock, owner: table, order: stack, visibility: count",
                   "{id: stock, owner: table, order: stack, visibility: top")
    with pytest.raises(SpecError, match="'top' visibility needs 'top: k'"):
        Game.from_system(str(p))


def test_a_spec_without_zones_is_rejected_by_the_schema(tmp_path: Path) -> None:
    text = (spec_dir() / "riding-the-bus.yaml").read_text()
    start = text.index("zones:\n")
    end = text.index("\nplayers:")
    p = tmp_path / "rtb.yaml"
    p.write_text(text[:start] + text[end + 1:])
    with pytest.raises(SpecError, match="zones"):
        Game.from_system(str(p))


def test_the_dummy_hand_is_face_up_for_both_players_and_the_other_hand_is_not() -> None:
    """"The top three cards of the Bird Dog's pile are flipped face-up for both players to see." (001)"""
    st = _until("bird-dog-2p", lambda s: s.game.codec.kind(s.legal_actions()[0]) == "play")
    g = st.game
    dog = g.num_players  # the dummy seat follows the players' seats
    assert st.hands[dog].bit_count() == 3
    for viewer in range(g.num_players):
        hands = st.observation(viewer)["zones"]["hand"]
        assert sorted(hands[dog]["cards_top_first"]) == sorted(g.deck.names[c] for c in g.deck.cards_of(st.hands[dog]))
        other = 1 - viewer
        assert "cards_top_first" not in hands[other]
        assert st.observation(viewer)["zones"]["dog_pile"] == {"count": len(st.piles["dog_pile"])}


def test_dummy_visibility_belongs_to_seat_zones_only(tmp_path: Path) -> None:
    p = _spec_with(tmp_path, "{id: stock, owner: table, order: stack, visibility: count",
                   "{id: stock, owner: table, order: stack, visibility: count, dummy_visibility: all")
    with pytest.raises(SpecError, match="dummy_visibility applies to zones owned by seats"):
        Game.from_system(str(p))
