"""Phase components, registered by name; a spec's ``component:`` key picks one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .auction import Auction
from .base import Component
from .book_melding import BookMelding
from .climbing_tricks import ClimbingTricks
from .declarations import Declarations
from .draw_discard import DrawDiscard
from .drop_out import DropOut
from .pile_deal import PileDeal
from .pile_trade import PileTrade
from .tricks import Tricks
from .turn_up_trump import TurnUpTrump
from .up_card import UpCard, UpCardExchange
from .widow_exchange import WidowExchange

if TYPE_CHECKING:
    from ..game import Game

COMPONENTS: dict[str, type[Component]] = {
    c.kind: c for c in (TurnUpTrump, Declarations, Tricks, DrawDiscard, Auction, PileTrade, WidowExchange,
                        DropOut, UpCard, UpCardExchange, ClimbingTricks, PileDeal, BookMelding)
}


def build_component(d: Mapping[str, Any], game: Game, key: str) -> Component:
    """Build the component a phase clause names."""
    return COMPONENTS[d["component"]](d, key, game.spec.file)


__all__ = ["COMPONENTS", "Component", "build_component"]
