"""The ``widow_exchange`` component: a player may exchange their whole hand for a face-down spare hand.

The deal leaves a spare hand, the *widow*, face down on the table (an undealt
pile of ``pile``, exactly a hand's size). The seats are asked once each, in
``order`` (positions relative to the dealer: ``right_of_dealer``, ``dealer``,
``left_of_dealer``); the seat asked either takes the widow (the action named
by ``choice``: its whole hand goes face down to the widow's place and the
widow's cards become its hand) or passes. ``limit: one`` allows one exchange a
hand, so the phase ends as soon as a seat has exchanged ("if no one else has
already done so"), and the hand given up stays face down out of play;
``limit: any`` lets every seat asked exchange its hand for whatever lies in
the widow's place then (the hand given up by an earlier player included).
The exchanges are public (who exchanged), the cards are not: the pile's zone
says who sees it.

Used by: buck-euchre-3p (the Columbus game: the player to dealer's right,
then the dealer, then the player to dealer's left may exchange for the
widow). Planned (docs/design.md): dirty-clubs' up-card exchange is a different
mode (one card for the turned card) and is not this component.

>>> from cardspec.engine.game import Game
>>> g = Game.from_system("buck-euchre-3p")
>>> st = g.new_initial_state(seed=1)
>>> st.legal_action_names()
['pass', 'take_widow']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..errors import Source, SpecError
from .base import CheckingDoer, PhaseState
from .declared import ALL, HAND, Declared, Transfer

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

POSITIONS = ("right_of_dealer", "dealer", "left_of_dealer")
"""The seats ``order`` may name, relative to the dealer."""
LIMITS = ("one", "any")


@dataclass(init=False)
class WidowState(PhaseState):
    """How many seats have been asked, and who exchanged (immutable fields only)."""

    asked: int = 0
    """Seats asked so far (the position in ``order`` of the seat to act)."""
    exchanged: tuple[int, ...] = ()
    """The seats that took the widow this hand, in order."""

    def __init__(self, asked: int = 0, exchanged: tuple[int, ...] = ()) -> None:
        self.asked = asked
        self.exchanged = exchanged

    def copy(self) -> WidowState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return WidowState(self.asked, self.exchanged)


class WidowExchange(CheckingDoer):
    """Whole-hand exchanges with a face-down spare hand, offered to seats in a fixed order."""

    kind: ClassVar[str] = "widow_exchange"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.pile: str = d["pile"]
        self.choice: str = d["choice"]
        self.order: tuple[str, ...] = tuple(d["order"])
        self.limit: str = d["limit"]
        self.limit_source = Source(**d["limit_source"]) if "limit_source" in d else self.source
        self.order_source = Source(**d["order_source"]) if "order_source" in d else self.source
        bad = [p for p in self.order if p not in POSITIONS]
        if bad or not self.order or len(set(self.order)) != len(self.order):
            raise SpecError(f"order must list distinct positions of {list(POSITIONS)}, got {list(self.order)}",
                            file, key=f"{key}.order")
        if self.limit not in LIMITS:
            raise SpecError(f"limit must be one of {list(LIMITS)}, got {self.limit!r}", file, key=f"{key}.limit")

    # --- building -----------------------------------------------------------------
    def action_sigs(self) -> list[KindSig]:
        return [KindSig("pass"), KindSig("exchange", choices=(self.choice,))]

    def zone_ids(self) -> list[str]:
        return ["hand", self.pile]

    def bind(self, game: Game) -> None:
        super().bind(game)
        deal = game.deal
        size = deal.pile_sizes(game.deck.size, game.num_players).get(self.pile)
        if size != deal.hand_size:
            raise SpecError(f"pile '{self.pile}' must be an undealt pile of a hand's size ({deal.hand_size} cards), "
                            f"got {size}", self.file, key=f"{self.key}.pile")
        if len(self.order) > game.num_players or (game.num_players < 3 and {"right_of_dealer", "left_of_dealer"}
                                                   <= set(self.order)):
            raise SpecError(f"order names {len(self.order)} distinct seats but the game has {game.num_players} "
                            "players", self.file, key=f"{self.key}.order")
        self.pass_action = self.codec.encode("pass")
        self.take_action = self.codec.encode("exchange", choice=self.choice)

    def new_state(self) -> WidowState:
        return WidowState()

    def _s(self, st: State) -> WidowState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def seat_at(self, st: State, i: int) -> int:
        """The seat of the ``i``-th position of ``order`` this hand."""
        seats = st.seats_from(st.dealer)  # left of the dealer first, the dealer last
        pos = self.order[i]
        return seats[0] if pos == "left_of_dealer" else seats[-1] if pos == "dealer" else seats[-2]

    # --- the rules ------------------------------------------------------------------
    def start(self, st: State) -> None:
        st.cur = self.seat_at(st, 0)

    def legal(self, st: State) -> list[Action]:
        return [self.pass_action, self.take_action]

    def is_legal(self, st: State, a: Action) -> bool:
        return a == self.pass_action or a == self.take_action

    def try_apply(self, st: State, a: Action) -> bool:
        if not self.is_legal(st, a):
            return False
        cs = self._s(st)
        if a == self.take_action:
            seat = st.cur
            pile = st.piles[self.pile]
            given = sorted(st.game.deck.cards_of(st.hands[seat]))
            hand = 0
            for c in pile:
                hand |= 1 << c
            st.hands[seat] = hand
            pile[:] = given
            cs.exchanged = (*cs.exchanged, seat)
        cs.asked += 1
        if cs.asked >= len(self.order) or (self.limit == "one" and cs.exchanged):
            st.next_phase()
        else:
            st.cur = self.seat_at(st, cs.asked)
        return True

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        return f"seat {st.cur} may take the widow ({self.choice}) or pass", self.source

    def turn_source(self, st: State) -> Source | None:
        """Who is asked now: ``order_source``, the clause naming the order of asking (else the phase's own)."""
        return self.order_source

    def closed_reason(self, st: State, a: Action) -> tuple[str, Source] | None:
        """The widow taken again once the phase is over, ``limit: one`` having been used: ``limit_source``."""
        cs = self._s(st)
        if a != self.take_action or st.phase <= self.index or self.limit != "one" or not cs.exchanged:
            return None
        return f"only one player may take the widow each hand, and seat {cs.exchanged[0]} has", self.limit_source

    # --- results and views ----------------------------------------------------------
    def exchanged_by(self, st: State) -> list[int]:
        """The seats that took the widow this hand, in order."""
        return list(self._s(st).exchanged)

    def public_view(self, st: State) -> dict[str, Any]:
        """Who has taken the widow so far this hand."""
        return {"widow_taken_by": list(self._s(st).exchanged)}

    def result_fields(self, st: State) -> dict[str, Any]:
        """Who took the widow this hand."""
        return {"widow_taken_by": list(self._s(st).exchanged)}

    def declarations(self) -> Declared:
        """A whole hand for the whole widow, swapped; one answer per seat asked; no facts."""
        n = len(self.order)
        return Declared((Transfer("exchange a hand for the widow", HAND, self.pile, ALL, ("exchange",), swap=True),),
                        n, f"each of {n} seats is asked once (exchange or pass)", ())
