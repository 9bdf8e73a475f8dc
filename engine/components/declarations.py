"""The ``declarations`` component: optional declarations in seat order after trump.

Each asked player either makes the declaration (its ``choice`` label) or passes.
``who`` picks the players asked (the maker only, everyone, or everyone but the
maker), ``limit: one`` stops asking once someone has declared, and ``effect``
says what a declaration does:

* ``partner_sits_out``: the declarer's partners take no part in the play
  (Euchre's going alone); scoring sees a ``bool`` fact named after the choice;
* ``zero_tricks_bet``: a bet to win no tricks (Bird Dog's Nil); scoring sees
  an ``enum`` fact ``none / made / broken``.

``also_on_turns_of: <phase id>`` also offers the declaration on each player's
own turn in that earlier phase, in place of (and counting as) that turn's pass
(001: "A player may call nil when the option to declare is theirs"); the host
phase lists it among its legal actions (:meth:`offered`) and hands it back
(:meth:`declare_on_turn`). A player who declared there is not asked again, and
with ``who: not_declarer`` may only pass on the host's later turns.

Used by: euchre (alone), bird-dog-11 (nil), bird-dog-2p (nil on one's declaring turn; bird-dog-21 later).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action, KindSig
from ..errors import Source, SpecError
from .base import Component, PhaseState
from .declared import BOOL, Declared, Fact

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@dataclass
class AskState(PhaseState):
    """The players still to be asked, in order (a tuple: never mutated in place)."""

    asked: tuple[int, ...] = ()


class Declarations(Component):
    """Optional per-player declarations."""

    kind = "declarations"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.who: str = d["who"]
        self.choice: str = d["choice"]
        self.enabled: bool = d.get("enabled", True)
        self.limit: str = d.get("limit", "any")
        self.effect: str = d["effect"]
        self.host = d.get("also_on_turns_of")
        self.also_source = Source(**d["also_source"]) if "also_source" in d else self.source
        for k, v, allowed in (("who", self.who, ("maker", "all", "not_declarer")),
                              ("limit", self.limit, ("any", "one"))):
            if v not in allowed:
                raise SpecError(f"{k} must be one of {list(allowed)}, got {v!r}", file, key=f"{key}.{k}")
        if type(self.enabled) is not bool:
            raise SpecError("enabled must be true or false", file, key=f"{key}.enabled")
        self.bit = 0

    def action_sigs(self) -> list[KindSig]:
        return [KindSig("pass"), KindSig("declare", choices=(self.choice,))]

    def new_state(self) -> AskState:
        return AskState()

    def bind(self, game: Game) -> None:
        super().bind(game)
        self.bit = 1 << game.codec.labels.index(self.choice)
        self.action = self.codec.encode("declare", choice=self.choice)
        self.pass_action = self.codec.encode("pass")

    def declaration_facts(self) -> list[tuple[str, int, str]]:
        kind = "bet" if self.effect == "zero_tricks_bet" else "flag"
        return [(self.choice, self.bit, kind)]

    def bind_host(self, host: Component) -> None:
        """Only a bet can be declared on a host's turns (going alone needs the contract first)."""
        if self.effect != "zero_tricks_bet":
            raise SpecError("only a bet can be declared on another phase's turns (a partner sitting out needs the "
                            "contract first)", self.file, key=f"{self.key}.also_on_turns_of")

    def offered(self, st: State, seat: int, host_round: int) -> list[Action]:
        """The declaration, if ``seat`` may make it now on a turn of the host phase (any round)."""
        if not self.enabled or self.who == "maker" or st.decl[seat] & self.bit:
            return []
        if self.limit == "one" and any(d & self.bit for d in st.decl):
            return []
        return [self.action]

    def act_on_turn(self, st: State, seat: int, a: Action) -> bool:
        """Make the declaration for ``seat`` during the host phase; it is that turn's pass."""
        st.decl[seat] |= self.bit
        return True

    def why_not_offered(self) -> tuple[str, Source]:
        return (f"'{self.choice}' may be declared only by a player who may still declare it, on their own turn",
                self.also_source)

    def bars_host_actions(self, st: State, seat: int) -> bool:
        """Whether ``seat`` declared on a host turn and so, with ``who: not_declarer``, may only pass there."""
        return self.who == "not_declarer" and bool(st.decl[seat] & self.bit)

    def _asked(self, st: State) -> tuple[int, ...]:
        if not self.enabled:
            return ()
        if self.who == "maker":
            return (st.maker,) if st.maker >= 0 else ()
        seats = st.seats_from(st.dealer)
        if self.who == "not_declarer":
            seats = [s for s in seats if s != st.maker]
        return tuple(s for s in seats if not st.decl[s] & self.bit)

    def _advance(self, st: State) -> None:
        cs: AskState = st.cstate[self.index]  # type: ignore[assignment]
        queue = cs.asked
        if self.limit == "one" and any(d & self.bit for d in st.decl):
            queue = ()
        if queue:
            st.cur, cs.asked = queue[0], queue[1:]
        else:
            st.next_phase()

    def start(self, st: State) -> None:
        cs: AskState = st.cstate[self.index]  # type: ignore[assignment]
        cs.asked = self._asked(st)
        self._advance(st)

    def legal(self, st: State) -> list[Action]:
        return [self.pass_action, self.action] if self.pass_action < self.action else \
            [self.action, self.pass_action]

    def is_legal(self, st: State, a: Action) -> bool:
        return a == self.action or a == self.pass_action

    def apply(self, st: State, a: Action) -> None:
        if a == self.action:
            st.decl[st.cur] |= self.bit
            if self.effect == "partner_sits_out":
                st.out |= st.game.partners_mask[st.cur]
        self._advance(st)

    def declarations(self) -> Declared:
        """No cards move; each asked player acts once; a flag (and its ``_against``) or a bet fact."""
        assert self.game is not None
        k = 1 if self.who == "maker" else self.game.num_players
        facts: tuple[Fact, ...]
        if self.effect == "zero_tricks_bet":
            facts = (Fact(self.choice, ("none", "made", "broken")),)
        else:
            facts = (Fact(self.choice, BOOL), Fact(f"{self.choice}_against", BOOL))
        return Declared((), k, f"{k} players asked once", facts)
