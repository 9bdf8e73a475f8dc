"""The ``pile_trade`` component: trade cards of given ranks for cards of a pile, on another phase's turn.

A player holding at least ``count`` cards of the listed ``ranks`` may give
``count`` of them for the ``count`` cards at the ``from`` end (``bottom`` or
``top``) of ``pile``, on their own turn in the host phase named by
``also_on_turns_of`` (in the host's rounds listed in ``host_rounds``), once per
hand (``once_per: hand``, the default) or once per player each hand (``once_per: seat``: a
later trader takes the earlier one's cards). With ``counts_as_pass`` the trade is that turn's pass; with ``scope:
hand`` the trader passes on every later turn of the host (forced actions
aside). The component has no turns of its own: the host lists the trade among
its legal actions (:meth:`offered`) and hands it back (:meth:`act_on_turn`).

Used by: euchre (Farmer's Hand: three nines or tens for the bottom three
cards of the kitty during the calling of trump).

>>> from cardspec.engine.game import Game
>>> g = Game.from_system("euchre")
>>> [ph.kind for ph in g.phases]
['turn_up_trump', 'pile_trade', 'declarations', 'declarations', 'tricks']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..errors import Source, SpecError
from .base import Component, PhaseState
from .declared import HAND, Declared, Transfer

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@dataclass(init=False)
class TradeState(PhaseState):
    """Whether the trade was made this hand, and by whom."""

    done: bool = False
    trader: int = -1
    traders: int = 0
    """Every seat that traded this hand, as a bit mask."""

    def __init__(self, done: bool = False, trader: int = -1, traders: int = 0) -> None:
        self.done = done
        self.trader = trader
        self.traders = traders

    def copy(self) -> TradeState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return TradeState(self.done, self.trader, self.traders)


class PileTrade(Component):
    """A once-per-hand trade with a pile, offered on a host phase's turns."""

    kind: ClassVar[str] = "pile_trade"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.host = d["also_on_turns_of"]
        self.enabled: bool = d["enabled"]
        if type(self.enabled) is not bool:
            raise SpecError("enabled must be true or false", file, key=f"{key}.enabled")
        self.name: str = d["name"]
        self.pile: str = d["pile"]
        self.rank_names: list[str] = list(d["ranks"])
        self.count: int = d["count"]
        self.end: str = d["from"]
        self.host_rounds: frozenset[int] = frozenset(d["host_rounds"])
        self.counts_as_pass: bool = d["counts_as_pass"]
        self.scope: str = d.get("scope", "turn")
        if self.scope not in ("turn", "hand"):
            raise SpecError(f"scope must be turn or hand, got {self.scope!r}", file, key=f"{key}.scope")
        self.once_per: str = d.get("once_per", "hand")
        if self.once_per not in ("hand", "seat"):
            raise SpecError(f"once_per must be hand or seat, got {self.once_per!r}", file, key=f"{key}.once_per")

    def action_sigs(self) -> list[KindSig]:
        # one card up to the trade size parse, so a short trade is refused by the rule (and cites it)
        return [KindSig("exchange", choices=(self.name,), cards=(1, self.count))] if self.enabled else []

    def zone_ids(self) -> list[str]:
        return ["hand", self.pile]

    def new_state(self) -> TradeState:
        return TradeState()

    def bind_host(self, host: Component) -> None:
        """Any host will do: the trade needs only the host's turns and rounds; ``host_rounds`` names rounds the
        host has."""
        n = host.host_round_count()
        stray = sorted(r for r in self.host_rounds if not 0 <= r < n)
        if stray:
            raise SpecError(f"host_rounds names rounds {stray}, but phase '{self.host}' has {n} (numbered from 0)",
                            self.file, key=f"{self.key}.host_rounds")

    def bind(self, game: Game) -> None:
        super().bind(game)
        deck = game.deck
        bad = [r for r in self.rank_names if r not in deck.ranks]
        if bad:
            raise SpecError(f"trade ranks {bad} are not in the deck", self.file, key=f"{self.key}.ranks")
        size = game.deal.pile_sizes(deck.size, game.num_players).get(self.pile)
        if size is None or size < self.count:
            raise SpecError(f"pile '{self.pile}' is no undealt pile of at least {self.count} cards", self.file,
                            key=f"{self.key}.pile")
        ranks = frozenset(deck.ranks.index(r) for r in self.rank_names)
        self.mask = sum(1 << c for c in range(deck.size) if deck.rank_of[c] in ranks)
        self.base = self.codec.base("exchange", self.name) if self.enabled else 0

    def _s(self, st: State) -> TradeState:
        return st.cstate[self.index]  # type: ignore[return-value]

    # --- no turns of its own ----------------------------------------------------------
    def start(self, st: State) -> None:
        st.next_phase()

    def legal(self, st: State) -> list[Action]:
        return []

    # --- offered on the host's turns ----------------------------------------------------
    def offered(self, st: State, seat: int, host_round: int) -> list[Action]:
        """The trades ``seat`` may make on this turn of the host (one per choice of cards given)."""
        if not self.enabled or host_round not in self.host_rounds:
            return []
        cs = self._s(st)
        if (cs.traders >> seat & 1) if self.once_per == "seat" else cs.done:
            return []
        held = st.hands[seat] & self.mask
        if held.bit_count() < self.count:
            return []
        deck = st.game.deck
        eligible = deck.cards_of(held)
        pack = self.codec.with_cards
        if not deck.has_copies:
            return [pack(self.base, combo) for combo in combinations(eligible, self.count)]
        canonical = self.codec.canonical
        return sorted({canonical(pack(self.base, combo), held) for combo in combinations(eligible, self.count)})

    def act_on_turn(self, st: State, seat: int, a: Action) -> bool:
        """Make the trade; whether it is the turn's pass."""
        give = self.codec.cards(a)
        pile = st.piles[self.pile]
        n = self.count
        take = pile[:n] if self.end == "bottom" else pile[-n:]
        hand = st.hands[seat]
        for c in give:
            hand &= ~(1 << c)
        for c in take:
            hand |= 1 << c
        st.hands[seat] = hand
        if self.end == "bottom":
            pile[:n] = list(give)
        else:
            pile[-n:] = list(give)
        cs = self._s(st)
        cs.done, cs.trader = True, seat
        cs.traders |= 1 << seat
        return self.counts_as_pass

    def bars_host_actions(self, st: State, seat: int) -> bool:
        """With ``scope: hand``, the trader only passes on the host's later turns."""
        return self.scope == "hand" and bool(self._s(st).traders >> seat & 1)

    def hidden(self, a: Action) -> bool:
        return self.codec.kind(a) == "exchange"

    def why_not_offered(self) -> tuple[str, Source]:
        """Why a trade named now is refused, and the clause."""
        once = "once per hand" if self.once_per == "hand" else "once per player each hand"
        return (f"the trade needs {self.count} cards of {'/'.join(self.rank_names)} named, {once}, "
                "in the allowed round", self.source)

    def declarations(self) -> Declared:
        """The trade: ``count`` cards from the hand for as many of the pile; it is a turn of the host."""
        moves = (Transfer(f"{self.name} exchange", HAND, self.pile, self.count, ("exchange",), swap=True),) \
            if self.enabled else ()
        extra = 0 if self.counts_as_pass or not self.enabled else 1
        return Declared(moves, extra, "made on a turn of the host phase" +
                        ("" if extra == 0 else ", in addition to that turn"), ())
