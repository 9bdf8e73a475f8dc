"""The interface every phase component implements.

A phase component runs one part of a hand (calling trump, declarations, trick
play, draw-and-discard turns). It is built from its spec clause, then bound to
the game once the action labels are known. At play time it is stateless: all
position data lives in :class:`~cardspec.engine.state.State` (``st.pv`` holds
the current phase's own variables), so a state copies cheaply.

Each action has a check (:meth:`legal`, and :meth:`why_illegal` for the clause
an illegal one breaks) and a doer (:meth:`apply`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..errors import Source

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


class Component:
    """Base class of phase components."""

    kind = "component"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        self.id: str = d["id"]
        self.key = key
        self.file = file
        self.source = Source(**d["source"])
        self.game: Game | None = None

    # --- building -----------------------------------------------------------------
    def labels(self) -> list[str]:
        """Action labels this component names (``order_up``, ``nil``, ...)."""
        return []

    def declare_labels(self) -> list[str]:
        """Labels that are declarations."""
        return []

    def exchange_labels(self) -> list[str]:
        """Labels that carry cards (kitty exchanges)."""
        return []

    def declaration_facts(self) -> list[tuple[str, int, str]]:
        """Scoring facts this component provides: (name, declaration bit, 'flag' or 'bet')."""
        return []

    def bind(self, game: Game) -> None:
        """Called once the game's action codec exists."""
        self.game = game

    # --- play -----------------------------------------------------------------------
    def start(self, st: State) -> None:
        """Enter the phase: set ``st.cur`` or finish at once with ``st.next_phase()``."""
        raise NotImplementedError

    def legal(self, st: State) -> list[Action]:
        """Every legal action of the player to act, sorted."""
        raise NotImplementedError

    def is_legal(self, st: State, a: Action) -> bool:
        """Whether ``a`` is legal now (override for a faster check)."""
        return a in self.legal(st)

    def apply(self, st: State, a: Action) -> None:
        """Carry out a legal action."""
        raise NotImplementedError

    def try_apply(self, st: State, a: Action) -> bool:
        """Check and carry out ``a``; False (and nothing done) if it is illegal.

        The hot path of ``State.apply``; a component may fuse the check into the doer.
        """
        if not self.is_legal(st, a):
            return False
        self.apply(st, a)
        return True

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        """Why ``a`` is not legal now, and the clause it breaks."""
        return f"not allowed in the '{self.id}' phase now", self.source

    def hidden(self, a: Action) -> bool:
        """Whether the cards of this action are hidden from the other players."""
        return False
