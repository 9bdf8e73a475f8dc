"""The ``drop_out`` component: once trump is made, the other players in turn stay in or drop out.

Each player asked answers ``stay`` or ``drop``. A player who drops out sits
out the hand (``State.contract.out``, as a partner of a lone player does):
trick play skips them, they lead no trick, and scoring sees the fact
``dropped`` (true when every player of the entity dropped out), so a table can
give them nothing ("Players who dropped out neither add not subtract any
points"), and ``opposed`` (some player of another entity stayed in: false for a
maker who plays alone because everyone else dropped out).

Parameters, each a general rule with the spec choosing its value:

* ``who``: ``not_maker`` (the default: every player but the maker, who is
  committed to the contract) or ``all`` (the maker too, asked last);
* ``order``: ``maker_left`` (the default: clockwise from the maker's left, or
  from the dealer's left when there is no maker) or ``dealer_left``;
* ``skip_when``: conditions under which nobody is asked and everyone plays:
  ``no_maker`` (nobody made trump or won the bidding: trump was fixed by a
  turned card, or the hand is played without trump after everyone passed;
  buck-euchre, dirty-clubs: "There is no bidding or dropping out") and
  ``no_trump`` (the hand is played without trump, whoever chose that);
* ``consecutive_limit``: a player who dropped out on each of the last
  ``consecutive_limit`` hands must stay in (buck-euchre's Jack Thomson
  option: "If you stay out for two consecutive hands, then on the next hand
  you must stay in"; null or 0: no limit). Past hands are read from the
  match's hand results (this phase adds ``dropped_out`` and ``drop_round`` to
  each); a record that starts at a later hand must give the hands before it
  in ``start.previous.drop_outs``: each player's run of drop-outs just before
  its first hand (as ``consecutive_counts`` counts, 0 up to the limit).
  ``consecutive_counts`` says which hands make a run: ``all_hands``
  (every hand played: a hand played in full, even one with no chance to drop,
  breaks the run) or ``offered_hands`` (only hands with a stay-or-drop round:
  a hand without one neither extends nor breaks it). Hands thrown in never count;
* ``forbid_at_or_below``: a player whose counter (the scoring counter of the
  player's entity) is at or below this number may not drop out and must play
  (buck-euchre-3p, the Columbus game: "A player whose score is five points or
  less is not allowed to drop out"; null: no such bar). Only buck-euchre-3p
  uses it;
* ``last_must_stay``: when every other player asked has dropped out, the last
  player asked must stay in, so the maker never plays alone (a reading of
  buck-euchre and dirty-clubs, where the text is silent; default false).

The bound on actions is one answer per player asked; no cards move.

Used by: buck-euchre, dirty-clubs (the stay-or-drop round from the maker's,
or the bidder's, left; skipped when nobody made trump), buck-euchre-3p
(``forbid_at_or_below: 5``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..errors import MalformedRecordError, Source, SpecError
from ..tables import Value
from .base import CheckingDoer, PhaseState
from .declared import BOOL, Declared, Fact

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

WHO = ("not_maker", "all")
ORDER = ("maker_left", "dealer_left")
SKIP = ("no_maker", "no_trump")
COUNTS = ("all_hands", "offered_hands")


@dataclass(init=False)
class DropState(PhaseState):
    """The players still to be asked, and the answers so far (immutable fields only)."""

    queue: tuple[int, ...] = ()
    """The players still to be asked, in order (the player to act first)."""
    asked: tuple[int, ...] = ()
    """Every player asked this hand, in order."""
    dropped: tuple[int, ...] = ()
    """The players who dropped out this hand, in order."""
    held: bool = False
    """Whether the stay-or-drop round was held this hand."""

    def __init__(
            self, queue: tuple[int, ...] = (), asked: tuple[int, ...] = (), dropped: tuple[int, ...] = (),
            held: bool = False
    ) -> None:
        self.queue = queue
        self.asked = asked
        self.dropped = dropped
        self.held = held

    def copy(self) -> DropState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return DropState(self.queue, self.asked, self.dropped, self.held)


class DropOut(CheckingDoer):
    """A stay-or-drop round after trump is made."""

    kind: ClassVar[str] = "drop_out"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.who: str = d.get("who", "not_maker")
        self.order: str = d.get("order", "maker_left")
        self.order_source = Source(**d["order_source"]) if "order_source" in d else self.source
        """The clause (or register entry) saying who is asked first and that the turn passes on: cited for a seat
        acting out of turn (by default the phase's own clause)."""
        self.skip_when: tuple[str, ...] = tuple(d.get("skip_when", ()))
        self.skip_source = Source(**d["skip_source"]) if "skip_source" in d else self.source
        # the values the schema cannot type are checked before they are kept (the compiled build types every field)
        limit = d.get("consecutive_limit")
        if limit is not None and (type(limit) is not int or limit < 0):
            raise SpecError(f"consecutive_limit must be a whole number or null, got {limit!r}", file,
                            key=f"{key}.consecutive_limit")
        self.limit: int = 0 if limit is None else limit
        self.counts: str = d.get("consecutive_counts", "all_hands")
        self.limit_source = Source(**d["consecutive_source"]) if "consecutive_source" in d else self.source
        floor = d.get("forbid_at_or_below")
        if floor is not None and type(floor) is not int:
            raise SpecError(f"forbid_at_or_below must be an integer or null, got {floor!r}", file,
                            key=f"{key}.forbid_at_or_below")
        self.floor: int | None = floor
        self.floor_source = Source(**d["forbid_source"]) if "forbid_source" in d else self.source
        last = d.get("last_must_stay", False)
        if type(last) is not bool:
            raise SpecError("last_must_stay must be true or false", file, key=f"{key}.last_must_stay")
        self.last_must_stay: bool = last
        self.last_source = Source(**d["last_must_stay_source"]) if "last_must_stay_source" in d else self.source
        for k, v, allowed in (("who", self.who, WHO), ("order", self.order, ORDER),
                              ("consecutive_counts", self.counts, COUNTS)):
            if v not in allowed:
                raise SpecError(f"{k} must be one of {list(allowed)}, got {v!r}", file, key=f"{key}.{k}")
        bad = [s for s in self.skip_when if s not in SKIP]
        if bad:
            raise SpecError(f"skip_when may list {list(SKIP)}, got {bad}", file, key=f"{key}.skip_when")

    # --- building -----------------------------------------------------------------
    def action_sigs(self) -> list[KindSig]:
        return [KindSig("stay"), KindSig("drop")]

    def bind(self, game: Game) -> None:
        super().bind(game)
        self.stay_action = self.codec.encode("stay")
        self.drop_action = self.codec.encode("drop")

    def new_state(self) -> DropState:
        return DropState()

    def _s(self, st: State) -> DropState:
        return st.cstate[self.index]  # type: ignore[return-value]

    # --- the rules ------------------------------------------------------------------
    def skipped(self, st: State) -> bool:
        """Whether nobody is asked this hand (a ``skip_when`` condition holds)."""
        con = st.contract
        return ("no_maker" in self.skip_when and con.maker < 0) or ("no_trump" in self.skip_when and con.trump < 0)

    def _queue(self, st: State) -> tuple[int, ...]:
        maker = st.contract.maker
        start = maker if self.order == "maker_left" and maker >= 0 else st.dealer
        seats = [s for s in st.seats_from(start) if s != maker and not st.contract.out >> s & 1]
        if self.who == "all" and maker >= 0 and not st.contract.out >> maker & 1:
            seats.append(maker)
        return tuple(s for s in seats if s < st.game.num_players)

    def start(self, st: State) -> None:
        cs = self._s(st)
        if self.skipped(st):
            st.next_phase()
            return
        cs.queue = self._queue(st)
        cs.held = True
        self._advance(st)

    def _advance(self, st: State) -> None:
        cs = self._s(st)
        if cs.queue:
            st.cur, cs.queue = cs.queue[0], cs.queue[1:]
            cs.asked = (*cs.asked, st.cur)
        else:
            st.next_phase()

    def _run(self, st: State, seat: int) -> int:
        """How many hands in a row, just before this one, ``seat`` dropped out (as ``consecutive_counts`` counts),
        up to the limit. Where the state's own hands are all part of the run and it starts at a later hand, the run
        goes on before its first hand: ``start.previous.drop_outs`` says how far."""
        run = 0
        for r in st.hand_results[::-1]:  # newest first (a slice: mypyc fails on reversed() of this list)
            if r.get("thrown_in"):
                continue
            if self.counts == "offered_hands" and not r.get("drop_round"):
                continue
            if seat in r.get("dropped_out", ()):
                run += 1
                if run >= self.limit:
                    return run
            else:
                return run
        if st.first_hand > 0:
            run = min(self.limit, run + self._start_run(st, seat))
        return run

    def _start_run(self, st: State, seat: int) -> int:
        """``seat``'s run of drop-outs just before the first hand of a state that starts at a later hand, as its
        start gives it (``start.previous.drop_outs``, checked by :meth:`check_previous`)."""
        prev = st.start.get("previous") if st.start is not None else None
        runs = prev.get("drop_outs") if isinstance(prev, dict) else None
        if not isinstance(runs, list) or not 0 <= seat < len(runs):
            raise MalformedRecordError(self._missing(st), path="start.previous", source=self.limit_source)
        v: int = runs[seat]
        return v

    def _missing(self, st: State) -> str:
        return (f"hand {st.first_hand} is not the match's first: whether a player must stay in reads how many hands "
                f"in a row each dropped out just before it, which the start must give (previous: {{drop_outs: "
                f"[...]}}, one count per player)")

    def previous_fields(self) -> tuple[str, ...]:
        """``drop_outs``, with a limit on consecutive drop-outs: each player's run of drop-outs just before the hand."""
        return ("drop_outs",) if self.limit else ()

    def check_previous(self, st: State, prev: Mapping[str, Any] | None) -> None:
        """With a limit on consecutive drop-outs, a record that starts at a later hand must give each player's run of
        drop-outs just before it (``start.previous.drop_outs``): a whole number from 0 up to the limit (a player who
        dropped out on ``limit`` hands in a row stays in on the next, so no run is longer), and up to the number of
        hands before it."""
        if not self.limit:
            return
        if prev is None:
            raise MalformedRecordError(self._missing(st), path="start.previous", source=self.limit_source)
        n = st.game.num_players
        top = min(self.limit, st.first_hand)
        runs = prev.get("drop_outs")
        where = "start.previous.drop_outs"
        if runs is None:
            raise MalformedRecordError(self._missing(st), path=where, source=self.limit_source)
        if not isinstance(runs, list) or len(runs) != n:
            raise MalformedRecordError(f"the start's previous drop_outs must list {n} whole numbers, one per player "
                                       f"(how many hands in a row each dropped out just before hand {st.first_hand})",
                                       path=where, source=self.limit_source)
        for seat, v in enumerate(runs):
            if type(v) is not int or not 0 <= v <= top:
                why = ""
                if type(v) is int and v > self.limit:
                    why = (f" (a player who dropped out on {self.limit} hands in a row must stay in on the next, so no "
                           "run is longer)")
                elif type(v) is int and v > top:
                    why = f" (there are only {st.first_hand} hands before hand {st.first_hand})"
                raise MalformedRecordError(f"the start's previous drop_outs for seat {seat} must be a whole number "
                                           f"0..{top}, got {v!r}{why}", path=where, source=self.limit_source)

    def previous_values(self, st: State) -> dict[str, Any]:
        """Each player's run of drop-outs before the hand ``st`` is about to play (:meth:`_run`), with the limit on."""
        if not self.limit or st.hand_no == 0:
            return {}
        return {"drop_outs": [self._run(st, s) for s in range(st.game.num_players)]}

    def must_stay(self, st: State) -> tuple[str, Source] | None:
        """Why the player to act may not drop out now (and the clause), or None if they may."""
        seat = st.cur
        if self.floor is not None and st.counters[st.game.entity_of[seat]] <= self.floor:
            return f"a player whose score is {self.floor} or less may not drop out", self.floor_source
        if self.limit and self._run(st, seat) >= self.limit:
            return (f"a player who dropped out on {self.limit} hands in a row must stay in on the next",
                    self.limit_source)
        maker = st.contract.maker
        if self.last_must_stay and maker >= 0 and seat != maker:
            cs = self._s(st)
            if not any(s != maker for s in cs.queue) and \
                    all(s in cs.dropped for s in cs.asked if s not in (seat, maker)):
                return "everyone else has dropped out: the last player asked must stay in", self.last_source
        return None

    def legal(self, st: State) -> list[Action]:
        if self.must_stay(st) is not None:
            return [self.stay_action]
        return sorted((self.stay_action, self.drop_action))

    def is_legal(self, st: State, a: Action) -> bool:
        if a == self.stay_action:
            return True
        return a == self.drop_action and self.must_stay(st) is None

    def try_apply(self, st: State, a: Action) -> bool:
        if not self.is_legal(st, a):
            return False
        if a == self.drop_action:
            cs = self._s(st)
            cs.dropped = (*cs.dropped, st.cur)
            st.contract.out |= 1 << st.cur
        self._advance(st)
        return True

    def closed_reason(self, st: State, a: Action) -> tuple[str, Source] | None:
        """A ``skip_when`` condition held as the phase began (nobody was asked): ``skip_source``."""
        if st.phase > self.index and not self._s(st).held and self.skipped(st):
            why = "trump has no maker" if "no_maker" in self.skip_when and st.contract.maker < 0 else \
                "the hand is played without trump"
            return f"nobody stays in or drops out this hand ({why})", self.skip_source
        return None

    def turn_source(self, st: State) -> Source | None:
        """Who is asked now: ``order_source``."""
        return self.order_source

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        if a == self.drop_action:
            why = self.must_stay(st)
            if why is not None:
                return why
        return "each player asked says whether they stay in or drop out", self.source

    # --- results and scoring ----------------------------------------------------------
    def dropped_out(self, st: State) -> list[int]:
        """The players who dropped out this hand, in order."""
        return list(self._s(st).dropped)

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """``dropped``: every player of ``seats`` dropped out this hand; ``opposed``: a player of another
        entity, still in the match, did not."""
        dropped = self._s(st).dropped
        active = st.active
        into["dropped"] = bool(seats) and all(s in dropped for s in seats)
        into["opposed"] = any(active[s] and s not in dropped and s not in seats for s in range(st.game.num_players))

    def fact_names(self) -> list[str]:
        return ["dropped", "opposed"]

    def result_fields(self, st: State) -> dict[str, Any]:
        """Who dropped out, and whether the stay-or-drop round was held (the consecutive limit reads both)."""
        cs = self._s(st)
        return {"dropped_out": sorted(cs.dropped), "drop_round": cs.held}

    def public_view(self, st: State) -> dict[str, Any]:
        """Who has dropped out so far this hand."""
        return {"dropped_out": list(self._s(st).dropped)}

    def declarations(self) -> Declared:
        """No cards move; each player asked answers once; the ``dropped`` and ``opposed`` facts."""
        assert self.game is not None
        n = self.game.num_players
        k = n if self.who == "all" else n - 1
        return Declared((), k, f"each of at most {k} players answers once (stay or drop)",
                        (Fact("dropped", BOOL), Fact("opposed", BOOL)))
