"""Helpers shared by the rule tests: play actions by name and whole tricks."""

from __future__ import annotations

from cardspec.engine.game import Game
from cardspec.engine.state import State


def act(st: State, *names: str) -> None:
    """Apply actions by name, in order."""
    for n in names:
        st.apply_name(n)


def plays(st: State) -> set[str]:
    """The cards the player to act may play."""
    return {n.split()[1] for n in st.legal_action_names() if n.startswith("play ")}


def trick(st: State, *cards_in_order: str) -> int:
    """Play one whole trick (cards in playing order); return the winning seat."""
    before, hands_before = len(st.trick_winners), len(st.hand_results)
    for c in cards_in_order:
        st.apply_name(f"play {c}")
    if len(st.hand_results) > hands_before:  # the last trick ended the hand
        return int(st.hand_results[-1]["trick_winners"][-1])
    assert len(st.trick_winners) == before + 1, "the trick did not complete"
    return st.trick_winners[-1]


def suit(g: Game, s: str) -> int:
    """A suit's index."""
    return g.deck.suits.index(s)
