"""The contract of a hand: what the bidding settled, which play and scoring read.

A hand's bidding phases (calling trump, an auction, declarations) settle who
plays what: the trump suit (and the card that fixed it), the maker, each
seat's declarations, and which seats sit out. :class:`Contract` holds exactly
that, typed, one per hand (``State.contract``). Bidding components write it;
trick play reads it (trump for the ranking tables, the maker for the first
lead, the seats sitting out); sides formed each hand and the scoring facts
``maker`` and ``trump_made`` read it too. A game without bidding (riding-the-bus,
the-card-game) leaves it empty, and its records and observations show none of it.

Written by: ``turn_up_trump``, ``auction``, ``declarations`` (euchre,
bird-dog-11, bird-dog-2p, bid-euchre). Read by: ``tricks``, :mod:`.seats`,
:mod:`.match` (``maker_first``).

>>> c = Contract.empty(3)
>>> c.maker, c.trump, c.decl, c.made()
(-1, -1, [0, 0, 0], False)
>>> d = c.copy(); d.decl[1] |= 1; c.decl
[0, 0, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .tables import Value

if TYPE_CHECKING:
    from .game import Game
    from .ranking import TrickTables


@dataclass(init=False, slots=True)
class Contract:
    """What the bidding of a hand settled. Built every hand: its ``__init__`` is written out (``init=False``), as
    :class:`~cardspec.engine.components.base.PhaseState`'s subclasses' are, to run natively when compiled."""

    trump: int
    """The trump suit (a suit index), or -1: none (not yet made, or no trump), or -3: a low no-trump hand
    (:data:`cardspec.engine.ranking.LOW_NO_TRUMP`: no trump, every suit ranked by the ``low`` order)."""
    trump_card: int
    """The card that fixed trump (a turned-up card), or -1."""
    maker: int
    """The seat that made trump or won the bidding, or -1."""
    decl: list[int]
    """Each seat's declarations, as bits (one bit per ``declarations`` phase)."""
    out: int
    """The seats sitting out this hand, as a bit mask (a partner of a player going alone)."""
    tt: TrickTables | None
    """The ranking's trick tables for this trump, once it is fixed (None before)."""

    def __init__(
            self, trump: int, trump_card: int, maker: int, decl: list[int], out: int, tt: TrickTables | None
    ) -> None:
        self.trump = trump
        self.trump_card = trump_card
        self.maker = maker
        self.decl = decl
        self.out = out
        self.tt = tt

    @staticmethod
    def empty(seats: int) -> Contract:
        """Nothing settled yet, for a hand of ``seats`` seats."""
        return Contract(-1, -1, -1, [0] * seats, 0, None)

    def copy(self) -> Contract:
        """An independent copy (the trick tables are immutable and shared)."""
        return Contract(self.trump, self.trump_card, self.maker, self.decl[:], self.out, self.tt)

    def fix_trump(self, game: Game, suit: int, card: int, maker: int) -> None:
        """Fix trump (``suit`` -1: no trump), the card that fixed it, and the maker (-1: none)."""
        self.trump, self.trump_card, self.maker = suit, card, maker
        if game.ranking is not None:
            self.tt = game.trick_tables(suit, card)

    def made(self) -> bool:
        """Whether someone made trump (it was not fixed by a turn-up, nor left unmade)."""
        return self.maker >= 0

    def add_facts(self, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """The scoring facts ``maker`` (the entity of ``seats`` made it) and ``trump_made``, written into ``into``."""
        into["maker"] = self.maker in seats
        into["trump_made"] = self.maker >= 0

    def result_fields(self, game: Game) -> dict[str, Any]:
        """The contract in a hand's result: trump (a suit letter or None) and maker (a seat or None)."""
        return {"trump": game.deck.suits[self.trump] if self.trump >= 0 else None,
                "maker": self.maker if self.maker >= 0 else None}
