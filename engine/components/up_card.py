"""The turned-up card when no calling rounds are played over it: ``up_card`` and ``up_card_exchange``.

``up_card`` turns the top card of ``pile`` face up as the hand's phases begin
(everyone sees it for the rest of the hand, while it lies there). With
``auto_trump: {suits, source}``, a turned card of one of those suits makes its
suit trump at once, with no maker, so a later bidding phase with
``skip_if_trump_fixed`` is not played (dirty-clubs: "If the turned card is not
a club, there is a single round of bidding"). It takes no action.

``up_card_exchange`` lets one player take the turned card into hand and put
one card face down in its place (``take_up 9C``: take the up card, discard the
9 of clubs), once trump is settled. ``who`` lists who may, in order of
precedence: ``maker`` (the player who made trump or won the bidding) and
``dealer_if_turned`` (the dealer, when the turned card itself fixed trump with
no maker). With ``optional: true`` the player may pass and keep the hand
(dirty-clubs: "is allowed to take the turned up card and discard one card from
hand face down"); with ``optional: false`` the player must take it, and may
then discard any card but the one taken. When nobody qualifies (no maker, or
the hand is played without trump), or the turned card has left the pile, the
phase is not played. The turned card need not be a trump ("The bidder can
exchange the up-card even if it is not a trump").

Used by: dirty-clubs (``up_card`` with ``auto_trump: [C]``; the bidder's
exchange), buck-euchre (``up_card_exchange`` for the dealer after an automatic
club, as a reading of the text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..errors import IllegalActionError, Source, SpecError
from .base import CheckingDoer, Component, PhaseState
from .declared import HAND, Declared, Transfer

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

ROLES = ("maker", "dealer_if_turned")


@dataclass(init=False)
class UpState(PhaseState):
    """The card turned up this hand (-1: none yet)."""

    up: int = -1

    def __init__(self, up: int = -1) -> None:
        self.up = up

    def copy(self) -> UpState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return UpState(self.up)


class UpCard(Component):
    """Turns the top card of a pile face up; it may fix trump at once (``auto_trump``)."""

    kind: ClassVar[str] = "up_card"
    settles_contract = True

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.pile: str = d["pile"]
        at = d.get("auto_trump")
        self.auto_suit_names: tuple[str, ...] = tuple(at["suits"]) if at else ()
        self.auto_source = Source(**at["source"]) if at else None
        self.auto_suits: frozenset[int] = frozenset()

    def zone_ids(self) -> list[str]:
        return [self.pile]

    def bind(self, game: Game) -> None:
        super().bind(game)
        if self.pile not in game.deal.pile_names:
            raise SpecError(f"pile '{self.pile}' is not an undealt pile", self.file, key=f"{self.key}.pile")
        if game.deal.pile_sizes(game.deck.size, game.num_players)[self.pile] < 1:
            raise SpecError(f"pile '{self.pile}' is empty after the deal: no card to turn up", self.file,
                            key=f"{self.key}.pile")
        bad = [x for x in self.auto_suit_names if x not in game.deck.suits]
        if bad:
            raise SpecError(f"auto_trump suits {bad} are not suits of the deck", self.file,
                            key=f"{self.key}.auto_trump.suits")
        self.auto_suits = frozenset(game.deck.suits.index(x) for x in self.auto_suit_names)

    def new_state(self) -> UpState:
        return UpState()

    def _s(self, st: State) -> UpState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def up_card(self, st: State) -> int:
        """The card turned up this hand (-1 before this phase)."""
        return self._s(st).up

    def start(self, st: State) -> None:
        up = st.piles[self.pile][-1]
        self._s(st).up = up
        suit = st.game.deck.suit_of[up]
        if suit in self.auto_suits:  # auto_trump: its suit is trump at once, with no maker
            st.contract.fix_trump(st.game, suit, up, -1)
        st.next_phase()

    def legal(self, st: State) -> list[Action]:
        return []

    def contract_source(self, st: State) -> Source | None:
        """``auto_trump``'s clause when the turned card fixed trump this hand; else None (a later phase did)."""
        up = self._s(st).up
        return self.auto_source if up >= 0 and st.game.deck.suit_of[up] in self.auto_suits else None

    def apply(self, st: State, a: Action) -> None:
        raise IllegalActionError(st.game.action_name(a), "turning up a card takes no action", self.source)

    def public_view(self, st: State) -> dict[str, Any]:
        """The turned card, and whether it still lies face up on the pile."""
        up = self._s(st).up
        if up < 0:
            return {"turned_up": [], "up_card": None}
        names = st.game.deck.names
        pile = st.piles[self.pile]
        return {"turned_up": [names[up]], "up_card": names[up] if pile and pile[-1] == up else None}

    def declarations(self) -> Declared:
        """No card moves (the card is turned face up where it lies); no action."""
        return Declared((), 0, "turns a card face up; no action")


@dataclass(init=False)
class ExchangeState(PhaseState):
    """Who may exchange this hand, and whether they did."""

    seat: int = -1
    taken: bool = False

    def __init__(self, seat: int = -1, taken: bool = False) -> None:
        self.seat = seat
        self.taken = taken

    def copy(self) -> ExchangeState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return ExchangeState(self.seat, self.taken)


class UpCardExchange(CheckingDoer):
    """One player may (or must) take the turned card and discard one card face down."""

    kind: ClassVar[str] = "up_card_exchange"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.keeps_list = True  # its check is the list of legal actions
        self.pile: str = d["pile"]
        self.who: tuple[str, ...] = tuple(d["who"])
        self.optional: bool = d.get("optional", True)
        self.choice: str = d.get("choice", "take_up")
        bad = [w for w in self.who if w not in ROLES]
        if bad:
            raise SpecError(f"who may list {list(ROLES)}, got {bad}", file, key=f"{key}.who")
        if type(self.optional) is not bool:
            raise SpecError("optional must be true or false", file, key=f"{key}.optional")

    def action_sigs(self) -> list[KindSig]:
        return [KindSig("pass"), KindSig("exchange", choices=(self.choice,), cards=(1, 1))]

    def zone_ids(self) -> list[str]:
        return ["hand", self.pile]

    def bind(self, game: Game) -> None:
        super().bind(game)
        if self.pile not in game.deal.pile_names:
            raise SpecError(f"pile '{self.pile}' is not an undealt pile", self.file, key=f"{self.key}.pile")
        self.pass_action = self.codec.encode("pass")
        self.take = tuple(self.codec.encode("exchange", choice=self.choice, cards=(c,))
                          for c in range(game.deck.size))

    def new_state(self) -> ExchangeState:
        return ExchangeState()

    def _s(self, st: State) -> ExchangeState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def chooser(self, st: State) -> int:
        """Who may take the turned card this hand (-1: nobody)."""
        pile = st.piles[self.pile]
        if not pile:
            return -1
        con = st.contract
        for role in self.who:
            if role == "maker" and con.maker >= 0 and not con.out >> con.maker & 1:
                return con.maker
            if role == "dealer_if_turned" and con.maker < 0 and con.trump >= 0 and con.trump_card == pile[-1]:
                return st.dealer
        return -1

    def start(self, st: State) -> None:
        seat = self.chooser(st)
        if seat < 0:
            st.next_phase()
            return
        self._s(st).seat = seat
        st.cur = seat

    def legal(self, st: State) -> list[Action]:
        up = st.piles[self.pile][-1]
        out = [self.take[c] for c in st.game.deck.cards_of(st.hands[st.cur]) if c != up]
        if self.optional:
            out.append(self.pass_action)
        out.sort()
        return out

    def is_legal(self, st: State, a: Action) -> bool:
        return a in self.legal(st)

    def try_apply(self, st: State, a: Action) -> bool:
        if not self.is_legal(st, a):
            return False
        self.apply_listed(st, a)
        return True

    def apply_listed(self, st: State, a: Action) -> None:
        if a != self.pass_action:
            c = self.codec.cards(a)[0]
            pile = st.piles[self.pile]
            up = pile.pop()
            st.hands[st.cur] = (st.hands[st.cur] | 1 << up) & ~(1 << c)
            pile.append(c)
            self._s(st).taken = True
        st.next_phase()

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        if a == self.pass_action:
            return "the turned card must be taken", self.source
        return "take the turned card and discard one card held before (not the card taken)", self.source

    def hidden(self, a: Action) -> bool:
        return self.codec.kind(a) == "exchange"

    def public_view(self, st: State) -> dict[str, Any]:
        """Whether the turned card was taken this hand."""
        cs = self._s(st)
        return {"up_card_taken_by": cs.seat if cs.taken else None}

    def declarations(self) -> Declared:
        """The turned card for one card of the hand, swapped; at most one action."""
        return Declared((Transfer("take the turned card, discard one", HAND, self.pile, 1, ("exchange",),
                                  swap=True),), 1, "one player takes the turned card or passes, once")
