"""Seats, players, controllers and sides: who sits where, who acts for a seat, who plays with whom.

A game has ``players`` (``State.current_player()`` returns one of ``0..players-1``,
as OpenSpiel does) and possibly more *seats*: a spec may declare a dummy seat
(``players.dummy``) that holds cards and plays them but is no player. Seats
``0..players-1`` are the players; a dummy is seat ``players``.

* **Seating** (:class:`Seating`): the players sit clockwise in seat order; a
  dummy's place is given per hand by ``position`` (``right_of_dealer``:
  immediately before the dealer clockwise, so its place flips with the deal;
  ``left_of_dealer``; ``after_last``: fixed between the last player and seat 0).
  :meth:`Seating.ring` gives the clockwise successor of every seat for a hand;
  ``State.next_seat`` and ``State.seats_from`` follow it.
* **Visibility**: who sees a dummy's hand is the zones clause's business
  (``dummy_visibility`` on the ``hand`` zone; :mod:`cardspec.engine.zones`).
* **Taking part**: a dummy deals never, takes part only in phases that play
  cards (components with ``dummies_take_part = True``: ``tricks``), and its
  cards may be dealt face down to a pile of its own (``pile``), from which a
  ``tricks`` ``refill`` turns them into its hand.
* **Controller**: the player who chooses the dummy's actions. ``controller`` is
  a list of rules tried in order when the dummy first takes part in a hand;
  the first that names a player decides: ``not_bettor`` (the player who made no
  zero-tricks bet, when someone made one), ``not_maker`` (the player who did not
  make trump, when someone did); then ``fallback``: ``dealer`` or
  ``left_of_dealer`` (the player after the dealer). With several candidates the
  first clockwise from the dealer (``not_bettor``) or the maker (``not_maker``) is taken.
* **Sides** (:class:`SidesRule`, ``scoring.sides``): ``fixed`` (the
  partnerships of ``players``, Euchre's: unchanged for the match) or
  ``maker_vs_rest`` (formed each hand: the maker alone against the other
  players and every dummy). Sides are dissolved (each seat alone) when nobody
  made trump, or when a condition in ``dissolve`` holds (``broken_bet``: a
  zero-tricks bet was broken). A dummy without a side either stays alone (its
  captures count for nobody) or joins its controller (``dummy_without_sides``).
  Dummies never score: a side with no player does not compete.

Used by: bird-dog-2p (the dummy "Bird Dog" pile, right of the dealer, played by
the non-solo player); bird-dog-21 (``maker_vs_rest`` without a dummy: the
solo against a team of two). Planned: bid-euchre and hand-and-foot (``fixed`` partnerships).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import Source, SpecError

if TYPE_CHECKING:
    from .game import Game
    from .state import State

POSITIONS = ("right_of_dealer", "left_of_dealer", "after_last")
CONTROLLER_RULES = ("not_bettor", "not_maker")
FALLBACKS = ("dealer", "left_of_dealer")
MAX_PLAYERS = 16
"""The most players a game seats, whatever built it (the schema's bound too)."""


@dataclass(frozen=True)
class DummySeat:
    """A seat that holds and plays cards but is no player."""

    name: str
    seat: int
    pile: str | None
    position: str
    controller: tuple[str, ...]
    fallback: str
    source: Source
    controller_source: Source
    position_source: Source


@dataclass(frozen=True)
class Seating:
    """The players, the dummy seats, and the clockwise ring of each hand."""

    players: int
    dummies: tuple[DummySeat, ...] = ()

    @property
    def num_seats(self) -> int:
        """Players plus dummy seats."""
        return self.players + len(self.dummies)

    @staticmethod
    def build(p: Mapping[str, Any], players: int, file: str) -> Seating:
        """Compile ``players.dummy`` (if any)."""
        if type(players) is not int or not 2 <= players <= MAX_PLAYERS:
            raise SpecError(f"players.count must be an integer 2..{MAX_PLAYERS}, got {players!r}", file,
                            key="players.count")
        d = p.get("dummy")
        if not d:
            return Seating(players)
        key = "players.dummy"
        if d.get("deals", False) is not False or d.get("scores", False) is not False:
            raise SpecError("a dummy seat neither deals nor scores (deals: false, scores: false)", file, key=key)
        if d["position"] not in POSITIONS:
            raise SpecError(f"position must be one of {list(POSITIONS)}", file, key=f"{key}.position")
        rules = tuple(d["controller"])
        bad = [r for r in rules if r not in CONTROLLER_RULES]
        if bad:
            raise SpecError(f"controller rules {bad} are not among {list(CONTROLLER_RULES)}", file,
                            key=f"{key}.controller")
        if d["fallback"] not in FALLBACKS:
            raise SpecError(f"fallback must be one of {list(FALLBACKS)}", file, key=f"{key}.fallback")
        src = Source(**d["source"])
        dummy = DummySeat(d["name"], players, d.get("pile"), d["position"], rules, d["fallback"], src,
                          Source(**d.get("controller_source", d["source"])),
                          Source(**d.get("position_source", d["source"])))
        return Seating(players, (dummy,))

    def seat_named(self, name: str) -> int:
        """The seat of a dummy by name (``-1`` if none)."""
        return next((x.seat for x in self.dummies if x.name == name), -1)

    def ring(self, dealer: int) -> tuple[int, ...]:
        """The clockwise successor of every seat for a hand dealt by ``dealer``.

        >>> dog = DummySeat("dog", 2, None, "right_of_dealer", (), "dealer", *[None] * 3)  # type: ignore[arg-type]
        >>> s = Seating(2, (dog,))
        >>> s.ring(0), s.ring(1)
        ((1, 2, 0), (2, 0, 1))
        """
        n = self.players
        nxt = [(s + 1) % n for s in range(n)]
        for x in self.dummies:
            if x.position == "right_of_dealer":
                before = next(s for s in range(len(nxt)) if nxt[s] == dealer)
                nxt[before] = x.seat
                nxt.append(dealer)
            elif x.position == "left_of_dealer":
                nxt.append(nxt[dealer])
                nxt[dealer] = x.seat
            else:
                before = next(s for s in range(len(nxt)) if nxt[s] == 0)
                nxt[before] = x.seat
                nxt.append(0)
        return tuple(nxt)

    def deal_order(self, ring: Sequence[int], dealer: int, active: Sequence[bool]) -> list[int]:
        """Seats in dealing order: clockwise from the dealer's left, every dummy and every active player."""
        out = []
        s = dealer
        for _ in range(len(ring)):
            s = ring[s]
            if s >= self.players or active[s]:
                out.append(s)
        return out

    def controllers(self, st: State) -> tuple[int, ...]:
        """The player acting for each seat (players act for themselves)."""
        out = list(range(self.num_seats))
        for x in self.dummies:
            out[x.seat] = self.controller_of(x, st)
        return tuple(out)

    def _clockwise_players(self, st: State, start: int) -> list[int]:
        n = self.players
        return [(start + i) % n for i in range(1, n + 1) if st.active[(start + i) % n]]

    def controller_of(self, x: DummySeat, st: State) -> int:
        """The player who controls dummy ``x`` for this hand (see the module docstring)."""
        for rule in x.controller:
            if rule == "not_bettor":
                bits = sum(bit for _, bit in st.game.scoring.bet_facts)
                bettors = {s for s in range(self.players) if st.contract.decl[s] & bits}
                others = [s for s in self._clockwise_players(st, st.dealer) if s not in bettors]
                if bettors and others:
                    return others[0]
            elif rule == "not_maker" and 0 <= st.contract.maker < self.players:
                others = [s for s in self._clockwise_players(st, st.contract.maker) if s != st.contract.maker]
                if others:
                    return others[0]
        if x.fallback == "dealer":
            return st.dealer
        return self._clockwise_players(st, st.dealer)[0]


@dataclass(frozen=True)
class SidesRule:
    """How the seats form sides for a hand (``scoring.sides``)."""

    form: str
    dissolve: tuple[str, ...]
    dummy_without_sides: str
    source: Source | None

    @staticmethod
    def build(d: Mapping[str, Any] | None, file: str) -> SidesRule:
        """Compile ``scoring.sides`` (absent: the fixed partnerships)."""
        if not d:
            return SidesRule("fixed", (), "alone", None)
        key = "scoring.sides"
        if d["form"] not in ("fixed", "maker_vs_rest"):
            raise SpecError("form must be fixed or maker_vs_rest", file, key=f"{key}.form")
        bad = [c for c in d.get("dissolve", []) if c != "broken_bet"]
        if bad:
            raise SpecError(f"dissolve conditions {bad} are unknown (known: broken_bet)", file, key=f"{key}.dissolve")
        if d.get("dummy_without_sides", "alone") not in ("alone", "controller"):
            raise SpecError("dummy_without_sides must be alone or controller", file,
                            key=f"{key}.dummy_without_sides")
        return SidesRule(d["form"], tuple(d.get("dissolve", [])), d.get("dummy_without_sides", "alone"),
                         Source(**d["source"]))

    def sides(self, st: State, at_end: bool) -> tuple[tuple[tuple[int, ...], ...], bool]:
        """The sides of the hand (tuples of seats; players first) and whether they are teams.

        ``at_end``: the hand is over, so the ``dissolve`` conditions are looked at.
        The second value is False when every seat is alone (sides dissolved or never formed).
        """
        g = st.game
        seating = g.seating
        players = seating.players
        dummies = [x.seat for x in seating.dummies]
        if self.form == "fixed":
            return tuple(g.teams) + tuple((d,) for d in dummies), True
        dissolved = st.contract.maker < 0
        if at_end and "broken_bet" in self.dissolve:
            bits = sum(bit for _, bit in g.scoring.bet_facts)
            dissolved |= any(st.contract.decl[s] & bits and st.tally["tricks"][s] for s in range(players))
        if not dissolved:
            rest = tuple(s for s in range(players) if s != st.contract.maker) + tuple(dummies)
            return ((st.contract.maker,), rest), True
        alone: list[list[int]] = [[s] for s in range(players)]
        for d in dummies:
            ctl = st.controller[d] if st.controller[d] >= 0 else -1
            if self.dummy_without_sides == "controller" and 0 <= ctl < players:
                alone[ctl].append(d)
            else:
                alone.append([d])
        return tuple(tuple(s) for s in alone), False

    def fixed_index(self, game: Game) -> tuple[int, ...]:
        """For every seat, the index of its side when sides are fixed for the match (``form: fixed``)."""
        sides = tuple(game.teams) + tuple((x.seat,) for x in game.seating.dummies)
        out = [0] * game.seating.num_seats
        for i, side in enumerate(sides):
            for s in side:
                out[s] = i
        return tuple(out)

    def side_index(self, st: State) -> tuple[int, ...]:
        """For every seat, the index of its side (play-time: before any dissolving condition)."""
        sides, _ = self.sides(st, at_end=False)
        out = [0] * st.game.seating.num_seats
        for i, side in enumerate(sides):
            for s in side:
                out[s] = i
        return tuple(out)
