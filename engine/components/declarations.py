"""The ``declarations`` component: optional declarations in seat order after trump.

Each asked player either makes the declaration (its ``choice`` label) or passes.
``who`` picks the players asked (the maker only, everyone, everyone but the
maker, or the ``defenders``: the players not on the maker's side), ``limit:
one`` stops asking once someone has declared, and ``effect`` says what a
declaration does:

* ``partner_sits_out``: the declarer's partners take no part in the play
  (Euchre's going alone); scoring sees a ``bool`` fact named after the choice.
  A player whose partners all sit out already (bid-euchre's moon, played alone)
  is not asked;
* ``zero_tricks_bet``: a bet to win no tricks (Bird Dog's Nil); scoring sees
  an ``enum`` fact ``none / made / broken``, and ``<choice>_against``, the same for
  the other entities' bets (``made`` if any of them made one, else ``broken`` if any
  broke one: bird-dog-11's reading that a made Nil leaves the others nothing).

``also_on_turns_of: <phase id>`` also offers the declaration on each player's
own turn in that earlier phase, in place of (and counting as) that turn's pass
(001: "A player may call nil when the option to declare is theirs"); the host
phase lists it among its legal actions (:meth:`offered`) and hands it back
(:meth:`declare_on_turn`). A player who declared there is not asked again, and
with ``who: not_declarer`` may only pass on the host's later turns.

The phase's own window (after trump, before the first card) is shaped by:

* ``window``: ``always`` (the default) asks every time; ``after_maker`` asks
  only when a player made trump, so when nobody did, the declaration can only
  be made on the host's turns (bird-dog-2p, 001: "or after another player has
  declared but prior to the first card being played"); ``after_declaration``
  asks only when some player has declared ``after`` (another phase's choice
  label): euchre's ``lone_defender: against_loner``, a defender going alone
  only against a lone maker (EGN's ``defend_alone``);
* ``preference``: the order in which players are asked, which with
  ``limit: one`` is the preference when more than one wants to declare (the
  first asked who declares has it): ``dealer_left`` (the default: clockwise
  from the dealer's left), ``maker_left`` (clockwise from the maker's left, the
  maker last; from the dealer's left when nobody made trump) or
  ``maker_right`` (the same players in the reverse order, the maker still
  last); bird-dog-2p, bird-dog-21 (001: "the player continuing clockwise
  around the table has preference"). A declaration already made on a host's
  turn stands: with ``limit: one`` nobody is then asked;
* ``turn_declaration``: ``stands`` (the default, as just said) or ``yields``
  (``limit: one`` only): a declaration made on a host's turn yields to the
  players ahead of its maker in the order of asking, who are asked first; the
  first of them to declare takes it over and the earlier one is withdrawn
  (bird-dog-21's reading of "the player continuing clockwise around the table
  has preference" against a nil already called on a declaring turn);
* ``forced: {maker, made_by, source}`` (``who: maker`` only): the maker must declare, with no pass,
  when the maker is the ``dealer_partner`` (a partner of the dealer) or the ``dealer`` and, with
  ``made_by: turn_up``, made trump by accepting the turned-up card (``any``: however it was made):
  euchre's Canadian loner, a house rule (EGN's ``canadian``: the dealer's partner who orders up
  goes alone);
* ``reveal: {seat, from, to}``: as the phase begins, the top cards of the pile
  ``from`` join the hand of the dummy seat ``seat`` until it holds ``to``, face
  up as the ``hand`` zone's ``dummy_visibility`` says, so they are seen while
  players decide (bird-dog-2p: the Bird Dog's three cards, turned once trump is
  established; a ``tricks`` ``refill`` of that seat then finds them there).

Used by: euchre (alone; a lone defender, ``who: defenders``, as house rules), bird-dog-11 (nil),
bird-dog-2p (nil on one's declaring turn, ``window``, ``preference``, ``reveal``), bird-dog-21 (the same
without ``reveal``, and ``turn_declaration``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..errors import Source, SpecError
from ..tables import Value
from .base import Component, PhaseState
from .declared import BOOL, START, Declared, Fact, Transfer, seat_hand

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@dataclass(init=False)
class AskState(PhaseState):
    """The players still to be asked, in order (a tuple: never mutated in place)."""

    asked: tuple[int, ...] = ()
    yielding: bool = False
    """``turn_declaration: yields``: a host-turn declaration stands only until someone asked takes it over."""

    def __init__(self, asked: tuple[int, ...] = (), yielding: bool = False) -> None:
        self.asked = asked
        self.yielding = yielding

    def copy(self) -> AskState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return AskState(self.asked, self.yielding)


class Declarations(Component):
    """Optional per-player declarations."""

    kind: ClassVar[str] = "declarations"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.who: str = d["who"]
        self.choice: str = d["choice"]
        enabled = d.get("enabled", True)
        if type(enabled) is not bool:  # checked before it is kept: the compiled build types every field
            raise SpecError("enabled must be true or false", file, key=f"{key}.enabled")
        self.enabled: bool = enabled
        self.limit: str = d.get("limit", "any")
        self.effect: str = d["effect"]
        self.host = d.get("also_on_turns_of")
        self.also_source = Source(**d["also_source"]) if "also_source" in d else self.source
        self.window: str = d.get("window", "always")
        """``always``; ``after_maker``: the phase's own window opens only if a player made trump;
        ``after_declaration``: only if a player declared the choice ``after``."""
        self.after: str | None = d.get("after")
        if self.window == "after_declaration" and self.after is None:
            raise SpecError("window: after_declaration needs 'after' (the choice that opens it)", file,
                            key=f"{key}.after")
        self.after_bit = 0
        self.window_source = Source(**d["window_source"]) if "window_source" in d else self.source
        self.preference: str = d.get("preference", "dealer_left")
        """The order of asking, so the preference among players who want to declare (module doc)."""
        self.preference_source = Source(**d["preference_source"]) if "preference_source" in d else self.source
        self.turn_declaration: str = d.get("turn_declaration", "stands")
        """``stands``, or ``yields``: a host-turn declaration yields to the players asked before its maker."""
        self.turn_declaration_source = Source(**d["turn_declaration_source"]) \
            if "turn_declaration_source" in d else self.source
        self.limit_source = Source(**d["limit_source"]) if "limit_source" in d else self.source
        """The clause allowing one declaration a hand (``limit: one``): a second one cites it."""
        rv = d.get("reveal")
        self.reveal: tuple[str, str, int] | None = (rv["seat"], rv["from"], rv["to"]) if rv else None
        """A dummy seat whose hand is filled face up from a pile as the phase begins: (seat, pile, size)."""
        self.reveal_source = Source(**rv["source"]) if rv else None
        self.reveal_seat = -1
        for k, v, allowed in (("who", self.who, ("maker", "all", "not_declarer", "defenders")),
                              ("limit", self.limit, ("any", "one")),
                              ("window", self.window, ("always", "after_maker", "after_declaration")),
                              ("preference", self.preference, ("dealer_left", "maker_left", "maker_right")),
                              ("turn_declaration", self.turn_declaration, ("stands", "yields"))):
            if v not in allowed:
                raise SpecError(f"{k} must be one of {list(allowed)}, got {v!r}", file, key=f"{key}.{k}")
        if self.turn_declaration == "yields" and (self.limit != "one" or not self.host):
            raise SpecError("turn_declaration: yields needs limit: one and also_on_turns_of (a declaration made on "
                            "a host's turn to yield)", file, key=f"{key}.turn_declaration")
        self.bit = 0
        self.against = sys.intern(f"{self.choice}_against")  # interned, as the loader interns names
        fd = d.get("forced")
        self.forced: tuple[str, str] | None = (fd["maker"], fd["made_by"]) if fd else None
        """(whose making forces the declaration: ``dealer_partner`` or ``dealer``; ``turn_up`` or ``any``)."""
        self.forced_source = Source(**fd["source"]) if fd else None
        if fd and (self.who != "maker" or fd["maker"] not in ("dealer_partner", "dealer")
                   or fd["made_by"] not in ("turn_up", "any")):
            raise SpecError("forced needs who: maker, maker dealer_partner or dealer, made_by turn_up or any", file,
                            key=f"{key}.forced")

    def action_sigs(self) -> list[KindSig]:
        return [KindSig("pass"), KindSig("declare", choices=(self.choice,))]

    def new_state(self) -> AskState:
        return AskState()

    def zone_ids(self) -> list[str]:
        return ["hand", self.reveal[1]] if self.reveal else []

    settles_contract = True
    """A declaration is part of the hand's contract (``State.contract.decl``; going alone sets who sits out)."""

    def bind(self, game: Game) -> None:
        super().bind(game)
        if self.effect == "zero_tricks_bet" and "tricks" not in game.tallies:
            raise SpecError("a zero-tricks bet is judged by tricks won, but no phase keeps a 'tricks' tally "
                            "(a tricks phase)", self.file, key=self.key)
        if self.reveal is not None:
            self.reveal_seat = game.seating.seat_named(self.reveal[0])
            if self.reveal_seat < 0:
                raise SpecError(f"reveal seat '{self.reveal[0]}' is not a dummy seat", self.file,
                                key=f"{self.key}.reveal.seat")
            if self.reveal[1] not in game.deal.pile_names:
                raise SpecError(f"reveal pile '{self.reveal[1]}' is not a pile of the deal", self.file,
                                key=f"{self.key}.reveal.from")
        self.bit = 1 << game.codec.labels.index(self.choice)
        if self.after is not None:
            if self.after not in game.codec.labels or self.after == self.choice:
                raise SpecError(f"after: '{self.after}' is no other declaration's choice", self.file,
                                key=f"{self.key}.after")
            self.after_bit = 1 << game.codec.labels.index(self.after)
        self.action = self.codec.encode("declare", choice=self.choice)
        self.pass_action = self.codec.encode("pass")

    def fact_names(self) -> list[str]:
        return [self.choice, self.against]

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """A ``partner_sits_out`` declaration: ``<choice>`` (a seat of ``seats`` made it) and
        ``<choice>_against`` (another seat did). A ``zero_tricks_bet``: ``<choice>`` is ``none``
        (no seat of ``seats`` bet), ``broken`` (a bettor won a trick: the ``tricks`` tally) or ``made``, and
        ``<choice>_against`` for the other seats' bets: ``made`` if any was made, else ``broken`` if any
        was broken, else ``none``."""
        decl, bit = st.contract.decl, self.bit
        if self.effect != "zero_tricks_bet":
            mine = against = False
            for s, d in enumerate(decl):
                if d & bit:
                    if s in seats:
                        mine = True
                    else:
                        against = True
            into[self.choice] = mine
            into[self.against] = against
            return
        status = others = "none"
        tricks = st.tally["tricks"]
        for s, d in enumerate(decl):
            if d & bit:
                if s in seats:
                    if tricks[s]:
                        status = "broken"
                    elif status == "none":
                        status = "made"
                elif not tricks[s]:
                    others = "made"
                elif others == "none":
                    others = "broken"
        into[self.choice] = status
        into[self.against] = others

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
        if not self.enabled or self.who == "maker" or st.contract.decl[seat] & self.bit:
            return []
        if self.limit == "one" and any(d & self.bit for d in st.contract.decl):
            return []
        return [self.action]

    def act_on_turn(self, st: State, seat: int, a: Action) -> bool:
        """Make the declaration for ``seat`` during the host phase; it is that turn's pass."""
        st.contract.decl[seat] = st.contract.decl[seat] | self.bit
        return True

    def why_not_offered(self) -> tuple[str, Source]:
        return (f"'{self.choice}' may be declared only by a player who may still declare it, on their own turn",
                self.also_source)

    def bars_host_actions(self, st: State, seat: int) -> bool:
        """Whether ``seat`` declared on a host turn and so, with ``who: not_declarer``, may only pass there."""
        return self.who == "not_declarer" and bool(st.contract.decl[seat] & self.bit)

    def _asked(self, st: State) -> tuple[int, ...]:
        """The seats asked, in order; under ``partner_sits_out`` never a seat whose partners all sit out
        already (a Bid Euchre moon is played alone: going alone would change nothing)."""
        seats = self._candidates(st)
        if self.effect != "partner_sits_out":
            return seats
        pm, out = st.game.partners_mask, st.contract.out
        return tuple(s for s in seats if not pm[s] or pm[s] & ~out)

    def _candidates(self, st: State) -> tuple[int, ...]:
        if not self.enabled:
            return ()
        maker = st.contract.maker
        if self.who == "maker":
            return (maker,) if maker >= 0 else ()
        if self.window == "after_maker" and maker < 0:
            return ()
        if self.window == "after_declaration" and not any(d & self.after_bit for d in st.contract.decl):
            return ()
        if self.who == "defenders":
            if maker < 0:
                return ()
            side = st.game.entity_of[maker]
            return tuple(s for s in st.seats_from(st.dealer) if st.game.entity_of[s] != side
                         and not st.contract.decl[s] & self.bit)
        if self.preference == "dealer_left":
            seats = st.seats_from(st.dealer)
            if self.who == "not_declarer":
                seats = [s for s in seats if s != maker]
        else:  # clockwise from the maker's left (the dealer's without one), or the reverse; the maker last
            seats = [s for s in st.seats_from(maker if maker >= 0 else st.dealer) if s != maker]
            if self.preference == "maker_right":
                seats.reverse()
            if self.who == "all" and maker >= 0:
                seats.append(maker)
        if self.turn_declaration == "yields":  # a host-turn declaration: ask only the players ahead of its maker
            held = next((i for i, s in enumerate(seats) if st.contract.decl[s] & self.bit), -1)
            if held >= 0:
                return tuple(seats[:held])
        return tuple(s for s in seats if not st.contract.decl[s] & self.bit)

    def _reveal(self, st: State) -> None:
        """Top cards of the reveal pile join the reveal seat's hand until it holds ``to`` cards."""
        assert self.reveal is not None
        seat, pile, to = self.reveal_seat, st.piles[self.reveal[1]], self.reveal[2]
        hand = st.hands[seat]
        while hand.bit_count() < to and pile:
            hand |= 1 << pile.pop()
        st.hands[seat] = hand

    def _advance(self, st: State) -> None:
        cs: AskState = st.cstate[self.index]  # type: ignore[assignment]
        queue = cs.asked
        if self.limit == "one" and not cs.yielding and any(d & self.bit for d in st.contract.decl):
            queue = ()
        if queue:
            st.cur, cs.asked = queue[0], queue[1:]
        else:
            st.next_phase()

    def start(self, st: State) -> None:
        cs: AskState = st.cstate[self.index]  # type: ignore[assignment]
        if self.reveal is not None:
            self._reveal(st)
        cs.asked = self._asked(st)
        cs.yielding = self.turn_declaration == "yields"
        self._advance(st)

    def turn_source(self, st: State) -> Source | None:
        """Who is asked now: the order of asking, ``preference_source`` (with ``limit: one``, the preference among
        players who want to declare); the phase's own clause when only the maker is asked."""
        return self.source if self.who == "maker" else self.preference_source

    def _must_declare(self, st: State) -> bool:
        """Whether the asked player (the maker) must declare (``forced``)."""
        if self.forced is None:
            return False
        con, dealer = st.contract, st.dealer
        whose, made_by = self.forced
        if made_by == "turn_up" and con.trump_card < 0:
            return False
        if whose == "dealer":
            return con.maker == dealer
        return con.maker != dealer and bool(st.game.partners_mask[dealer] >> con.maker & 1)

    def legal(self, st: State) -> list[Action]:
        if self.forced is not None and self._must_declare(st):
            return [self.action]
        return [self.pass_action, self.action] if self.pass_action < self.action else \
            [self.action, self.pass_action]

    def is_legal(self, st: State, a: Action) -> bool:
        if a == self.pass_action:
            return self.forced is None or not self._must_declare(st)
        return a == self.action

    def closed_reason(self, st: State, a: Action) -> tuple[str, Source] | None:
        """The declaration named once the phase is over, when ``limit: one`` and someone declared: ``limit_source``."""
        if a != self.action or st.phase <= self.index or self.limit != "one":
            return None
        made = [s for s, d in enumerate(st.contract.decl) if d & self.bit]
        if not made:
            return None
        return f"only one player may declare '{self.choice}' each hand, and seat {made[0]} has", self.limit_source

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source | None]:
        forced, src = self.forced, self.forced_source
        if a == self.pass_action and forced is not None and src is not None and self._must_declare(st):
            who = "the dealer" if forced[0] == "dealer" else "the dealer's partner"
            how = " by accepting the turned-up card" if forced[1] == "turn_up" else ""
            return f"{who} made trump{how}, and must declare '{self.choice}'", src
        return super().why_illegal(st, a)

    def apply(self, st: State, a: Action) -> None:
        if a == self.action:
            if self.turn_declaration == "yields":  # the first asked to declare takes over a host-turn declaration
                cs: AskState = st.cstate[self.index]  # type: ignore[assignment]
                if cs.yielding:
                    cs.yielding = False
                    for s, d in enumerate(st.contract.decl):
                        st.contract.decl[s] = d & ~self.bit
            st.contract.decl[st.cur] = st.contract.decl[st.cur] | self.bit
            if self.effect == "partner_sits_out":
                st.contract.out |= st.game.partners_mask[st.cur]
        self._advance(st)

    def declarations(self) -> Declared:
        """No cards move by an action (a ``reveal`` turns a dummy's cards up as the phase begins);
        each asked player acts once; a flag (and its ``_against``) or a bet fact."""
        assert self.game is not None
        k = 1 if self.who == "maker" else self.game.num_players
        facts: tuple[Fact, ...]
        if self.effect == "zero_tricks_bet":
            facts = (Fact(self.choice, ("none", "made", "broken")), Fact(self.against, ("none", "made", "broken")))
        else:
            facts = (Fact(self.choice, BOOL), Fact(f"{self.choice}_against", BOOL))
        moves = (Transfer("turn up the dummy seat's cards", self.reveal[1], seat_hand(self.reveal_seat),
                          (0, self.reveal[2]), (START,)),) if self.reveal else ()
        return Declared(moves, k, f"{k} players asked once", facts)
