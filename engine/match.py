"""The ``match`` component: dealer rotation, match end and tie-breaks.

Two kinds of end, each a general rule used by several systems:

* ``target``: the first entity to reach the target wins (Euchre to 10, Bird
  Dog to 11); ``simultaneous: extra_hand`` plays another hand when several
  reach it together, ``highest`` lets the highest of them win at once (an
  exact tie at the top still plays another hand), and ``extra_hand_tie`` says
  what a tie after an extra hand means; ``extra_hand_among: tied`` lets only the
  entities whose tie called for the extra hand win it (the others play it; the
  default ``all``: the best total of every entity after it wins);
  with ``on_target: ends``, reaching the target only ends the match: the best
  total of all (``winner: lowest`` or ``highest``) wins, ``tie`` deciding ties
  (birdhead: the game ends at 22 minus points, the lowest total wins);
  with ``floor``, an entity whose total falls to the floor loses and the best
  of the others wins (Bid Euchre, where scores can fall for ever).
* ``elimination``: an entity whose counter reaches the limit is out (Riding the
  Bus, three strikes); the last one left wins; ``all_out`` says what happens
  when the last ones go out together (share the win, fewest strikes wins, or
  the round's strikes are taken back).
* ``rounds``: the match is a fixed number of hands (``rounds``, by default the
  length of the round schedule: The Card Game's 11 or 21 rounds, Hand and
  Foot's 4); ``winner: lowest`` or ``highest`` total wins; ``tie`` is
  ``shared_win`` or ``extra_hand`` (another hand with the last round's
  parameters, until the best total is alone).
* ``countdown``: counters start at ``match.start`` (Buck Euchre's 25) and the
  first entity to reach or pass ``target`` (default 0) going down wins;
  ``simultaneous`` says what happens when several do on one hand: ``furthest``
  (the furthest past the target wins, ties share), ``extra_hand`` or
  ``shared_win``. With either end, ``maker_first``: the entity that made trump
  (Bid Euchre's bidding team) wins if it is among them, else the best total.
  With ``ceiling`` (a countdown's mirror of a target end's ``floor``), an entity whose
  total rises to the ceiling or above loses and the best of the others wins
  (buck-euchre-3p's ``sinking-scores`` house rule, where penalties can raise
  totals for ever).

Every counter starts at ``match.start`` (default 0), whatever the end. A match that would be over before
its first hand is refused (a ``SpecError`` naming the key, and the options that give the values): a target
end whose start is at or past the target, a countdown whose start is at or below its target, an elimination
whose start is at or past the limit, a floor at or above the start. A rounds end plays whatever the start.

``instant_win: {when: {FACT: VALUE or [lo, hi]}, source}`` (with any end): after a
hand, an entity whose scoring facts all match ``when`` wins the match at once,
before the end rule is applied (buck-euchre and dirty-clubs: "If anyone manages to
take all five tricks, they immediately win the entire game": ``when: {tricks: 5}``).
``no_instant_win: {when: ..., source}`` is the clause saying that such a hand does *not*
win at once (buck-euchre-3p: "winning five tricks just allows you to subtract five points,
not win the whole game"): an audit cites it for winners a record states after a hand in
which an entity's facts match ``when`` while the replay plays on.

Dealer rotation is ``left`` (clockwise, the next active seat), ``right``, ``none`` (the same
seat deals, or starts, every hand: hand-and-foot's ``first_player: fixed`` reading), or ``loser``
(the player who did worst in the hand deals the next: riding-the-bus's ``dealer_rotation: loser`` reading).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import Source, SpecError
from .tables import Value

if TYPE_CHECKING:
    from .game import Game
    from .state import State


@dataclass(frozen=True)
class MatchRules:
    """Compiled match clause."""

    first_dealer: str
    rotation: str
    kind: str
    counter: str
    target: int
    simultaneous: str
    extra_hand_tie: str
    limit: int
    all_out: str
    source: Source
    rotation_source: Source
    start: int = 0
    rounds: int = 0
    winner: str = "highest"
    tie: str = "shared_win"
    floor: int | None = None
    """Target ends: an entity whose total falls to this or below loses, and the best of the others wins."""
    instant: tuple[tuple[str, tuple[Value, ...]], ...] = ()
    """``instant_win``: (fact, the values that match) pairs; an entity matching them all wins at once."""
    instant_source: Source | None = None
    on_target: str = "wins"
    """Target ends: ``wins`` (whoever reaches the target wins) or ``ends`` (reaching it ends the match;
    ``winner`` picks the best total of all, ``tie`` decides ties: birdhead)."""
    extra_hand_among: str = "all"
    """Who can win an extra (tie-break) hand: ``all`` (the best total of every entity after it) or
    ``tied`` (only the entities whose tie called for it; the others play it but cannot win)."""
    winner_source: Source | None = None
    """The clause that says who wins once the match is over (``end.winner_source``); None: ``source`` says."""
    tie_source: Source | None = None
    """The clause that settles a tie for the win (``end.tie_source``); None: the winner's clause says."""
    first_dealer_source: Source | None = None
    """The clause that says who deals the first hand (``first_dealer_source``); a record whose first deal, from
    the match's start, names another dealer than a fixed first dealer (``seat0``) breaks it."""
    no_instant: tuple[tuple[str, tuple[Value, ...]], ...] = ()
    """``no_instant_win``: (fact, the values that match) pairs of a hand the text says does not win at once."""
    no_instant_source: Source | None = None
    ceiling: int | None = None
    """Countdown ends: an entity whose total rises to this or above loses, and the best of the others wins."""
    simultaneous_source: Source | None = None
    """The clause for several entities reaching the target on one hand (``end.simultaneous_source``: Bird Dog's
    "If two players reach 21 at the same time, another hand is played"): cited for the winners when that rule
    decides the match's end (several reached the target on the last hand, or an extra hand was played); None:
    the other end clauses say."""

    def simultaneous_decides(self, st: State) -> bool:
        """Whether the rule for several entities reaching the target together (``simultaneous``) decides the
        end of the match as the replay ``st`` stands: an extra hand has been played, or the last hand took
        several to the target (a target end whose reaching wins, or a countdown)."""
        if st.extra_hand:
            return True
        if self.kind not in ("target", "countdown") or self.on_target != "wins" or not st.hand_results:
            return False
        return len(self.reached(st.counters)) > 1

    def winners_source(self, stated: Sequence[int] | None, replayed: Sequence[int] | None,
                       st: State | None = None) -> Source:
        """The clause a wrong statement of the winners breaks: the simultaneous clause when the replay ``st``
        (if given) shows that rule deciding the end (:meth:`simultaneous_decides`) and the spec names one;
        else the end clause when the record and the replay disagree on whether the match is over; else the
        tie clause when either names several winners; else the winner clause (each falling back to the end
        clause where the spec gives none).

        >>> s = Source("a.txt", "end"); w = Source("a.txt", "win"); t = Source("a.txt", "tie")
        >>> m = MatchRules("random", "left", "target", "points", 10, "highest", "another_hand", 0, "shared_win", s, s,
        ...                winner_source=w, tie_source=t)
        >>> [m.winners_source(a, b).quote for a, b in (([1], None), ([1], [2]), ([1], [1, 3]), ([0, 2], [1]))]
        ['end', 'win', 'tie', 'tie']
        """
        if self.simultaneous_source is not None and st is not None and self.simultaneous_decides(st):
            return self.simultaneous_source
        if self.no_instant_source is not None and st is not None and stated and replayed is None \
                and st.hand_results and any(all(f.get(k) in vals for k, vals in self.no_instant)
                                            for f in st.hand_results[-1].get("facts") or ()):
            return self.no_instant_source  # a win claimed for a hand the text says wins nothing at once
        if stated is None or replayed is None:
            return self.source
        win = self.winner_source or self.source
        return (self.tie_source or win) if len(stated) > 1 or len(replayed) > 1 else win

    @staticmethod
    def build(d: Mapping[str, Any], game: Game, file: str) -> MatchRules:
        """Compile and check against the scoring counter."""
        e = d["end"]
        if e["counter"] != game.scoring.counter:
            raise SpecError(f"match counter '{e['counter']}' is not the scoring counter "
                            f"'{game.scoring.counter}'", file, key="match.end.counter")
        if e["kind"] == "target" and "target" not in e:
            raise SpecError("a target end needs a target", file, key="match.end")
        floor = e.get("floor")
        if floor is not None and (e["kind"] != "target" or type(floor) is not int or floor >= e["target"]):
            raise SpecError("a floor needs a target end and an integer below the target", file,
                            key="match.end.floor")
        ceiling = e.get("ceiling")
        if ceiling is not None and (e["kind"] != "countdown" or type(ceiling) is not int):
            raise SpecError("a ceiling needs a countdown end and an integer above the start", file,
                            key="match.end.ceiling")
        if e["kind"] == "elimination" and type(e.get("limit")) is not int:
            raise SpecError("an elimination end needs an integer limit", file, key="match.end.limit")
        rounds = e.get("rounds", len(game.schedule) if game.schedule is not None else 0)
        if e["kind"] == "rounds" and (type(rounds) is not int or rounds < 1):
            raise SpecError("a rounds end needs 'rounds' or a schedule", file, key="match.end.rounds")
        if e.get("winner", "highest") not in ("highest", "lowest"):
            raise SpecError("winner must be highest or lowest", file, key="match.end.winner")
        if e.get("tie", "shared_win") not in ("shared_win", "extra_hand"):
            raise SpecError("tie must be shared_win or extra_hand", file, key="match.end.tie")
        if e.get("on_target", "wins") not in ("wins", "ends") or (e.get("on_target", "wins") == "ends"
                                                                  and e["kind"] != "target"):
            raise SpecError("on_target must be wins or ends, and ends needs a target end", file,
                            key="match.end.on_target")
        start = d.get("start", 0)
        if type(start) is not int:
            raise SpecError("start must be an integer", file, key="match.start")
        _check_start(e, start, "start" in d, game, file)
        if d["rotation"] not in ("left", "right", "none", "loser"):
            raise SpecError("rotation must be left, right, none or loser", file, key="match.rotation")
        if e.get("all_out", "shared_win") not in ("shared_win", "replay_round", "fewest_strikes"):
            raise SpecError("all_out must be shared_win, replay_round or fewest_strikes", file,
                            key="match.end.all_out")
        simultaneous = e.get("simultaneous", "furthest" if e["kind"] == "countdown" else "highest")
        if simultaneous not in ("extra_hand", "highest", "furthest", "shared_win", "maker_first"):
            raise SpecError("simultaneous must be extra_hand, highest, furthest, shared_win or maker_first", file,
                            key="match.end.simultaneous")
        if e.get("extra_hand_among", "all") not in ("all", "tied"):
            raise SpecError("extra_hand_among must be all or tied", file, key="match.end.extra_hand_among")
        iw = e.get("instant_win")
        instant = _when(iw, game, file, "instant_win")
        niw = e.get("no_instant_win")
        no_instant = _when(niw, game, file, "no_instant_win")
        return MatchRules(d["first_dealer"], d["rotation"], e["kind"], e["counter"], e.get("target", 0),
                          simultaneous, e.get("extra_hand_tie", "another_hand"),
                          e.get("limit", 0), e.get("all_out", "shared_win"), Source(**e["source"]),
                          Source(**d["rotation_source"]), start, rounds, e.get("winner", "highest"),
                          e.get("tie", "shared_win"), floor, tuple(instant),
                          Source(**iw["source"]) if iw else None, e.get("on_target", "wins"),
                          e.get("extra_hand_among", "all"),
                          Source(**e["winner_source"]) if "winner_source" in e else None,
                          Source(**e["tie_source"]) if "tie_source" in e else None,
                          Source(**d["first_dealer_source"]) if "first_dealer_source" in d else None,
                          no_instant=tuple(no_instant), no_instant_source=Source(**niw["source"]) if niw else None,
                          ceiling=ceiling,
                          simultaneous_source=Source(**e["simultaneous_source"]) if "simultaneous_source" in e
                          else None)

    def reached(self, totals: Sequence[int]) -> list[int]:
        """The entities whose total has reached the target (at or below it in a countdown)."""
        down = self.kind == "countdown"
        return [e for e, v in enumerate(totals) if (v <= self.target if down else v >= self.target)]

    def tied_contenders(self, totals: Sequence[int]) -> tuple[int, ...]:
        """Who contests an extra hand called at ``totals``: those that reached the target when several
        reaching it together calls for one (``simultaneous: extra_hand``), else those tied at the best total
        (of those that reached the target, or of all when none did). Used to take up a mid-match record."""
        reached = self.reached(totals) or list(range(len(totals)))
        if self.kind in ("target", "countdown") and self.on_target == "wins" and self.simultaneous == "extra_hand":
            return tuple(reached)
        lowest = self.kind == "countdown" or self.winner == "lowest"
        return tuple(self._best(list(totals), reached, lowest))

    def _best(self, totals: list[int], among: list[int], lowest: bool) -> list[int]:
        """The entities of ``among`` with the best total (the lowest or the highest)."""
        best = (min if lowest else max)(totals[e] for e in among)
        return [e for e in among if totals[e] == best]

    def _among(self, st: State) -> list[int]:
        """The entities that can win now: after an extra hand under ``extra_hand_among: tied``, only
        those whose tie called for it; otherwise every entity."""
        if st.extra_hand and st.contenders:
            return list(st.contenders)
        return list(range(len(st.counters)))

    def _extra_hand(self, st: State, tied: list[int]) -> None:
        """Play another hand to break the tie between ``tied``."""
        st.extra_hand = True
        st.contenders = tuple(tied) if self.extra_hand_among == "tied" else ()

    def loser_deals(self, st: State) -> int:
        """``rotation: loser``: the next dealer is the player who did worst in the hand just scored (the
        most strikes or points against; the least points where points are good). Of several, the first
        clockwise from the dealer's left; a loser who is out of the match passes the deal to the next player
        still in, clockwise."""
        g = st.game
        gained = st.hand_results[-1]["scores"]
        bad_up = self.kind in ("elimination", "countdown") or self.winner == "lowest"
        worst = (max if bad_up else min)(gained)
        n = g.num_players
        order = [(st.dealer + i) % n for i in range(1, n + 1)]
        loser = next(s for s in order if gained[g.entity_of[s]] == worst)
        return next((loser + i) % n for i in range(n) if st.active[(loser + i) % n])

    def _rounds_end(self, st: State) -> None:
        """After the last scheduled hand (or a tie-break hand): the best total wins."""
        if st.hand_no + 1 < self.rounds:
            return
        top = self._best(st.counters, self._among(st), self.winner == "lowest")
        if len(top) == 1 or self.tie == "shared_win":
            st.finish(top)
        else:
            self._extra_hand(st, top)

    def after_hand(self, st: State, gained: list[int],
                   facts: Sequence[Mapping[str, Value]] | None = None) -> None:
        """Apply the end rule after a hand (``facts``: each entity's scoring facts, for ``instant_win``);
        sets ``st.winners`` when the match is over."""
        g = st.game
        totals = st.counters
        if self.instant and facts is not None:
            won = [e for e, f in enumerate(facts) if all(f.get(k) in vals for k, vals in self.instant)]
            if won:
                st.finish(won)
                return
        if self.kind == "rounds":
            self._rounds_end(st)
            return
        if self.kind == "target" and self.on_target == "ends":
            if st.extra_hand or any(v >= self.target for v in totals):  # the match ends: the best total wins
                top = self._best(totals, self._among(st), self.winner == "lowest")
                if len(top) == 1 or self.tie == "shared_win":
                    st.finish(top)
                else:
                    self._extra_hand(st, top)
            return
        if self.kind in ("target", "countdown"):
            down = self.kind == "countdown"  # countdown: first to reach or pass the target going down
            if st.extra_hand:
                top = self._best(totals, self._among(st), down)
                if len(top) == 1 or self.extra_hand_tie == "shared_win":
                    st.finish(top)
                elif self.extra_hand_among == "tied":
                    st.contenders = tuple(top)  # the next extra hand is between those still tied
                return
            reached = self.reached(totals)
            if not reached and self.floor is not None:
                sunk = [e for e, v in enumerate(totals) if v <= self.floor]
                if sunk:  # the sunk entities lose; the best of the others (of all, if none is left) wins
                    rest = [e for e in range(len(totals)) if e not in sunk] or sunk
                    st.finish(self._best(totals, rest, False))
                return
            if not reached and self.ceiling is not None:
                over = [e for e, v in enumerate(totals) if v >= self.ceiling]
                if over:  # the entities at the ceiling lose; the best (the lowest) of the others, or of all, wins
                    rest = [e for e in range(len(totals)) if e not in over] or over
                    st.finish(self._best(totals, rest, True))
                return
            if len(reached) == 1:
                st.finish(reached)
            elif len(reached) > 1:
                if self.simultaneous == "extra_hand":
                    self._extra_hand(st, reached)
                elif self.simultaneous == "shared_win":
                    st.finish(reached)
                elif self.simultaneous == "maker_first" and (maker := st.contract.maker) >= 0 \
                        and g.entity_of[maker] in reached:
                    st.finish([g.entity_of[maker]])  # the maker's (the bidder's) entity counts first
                else:
                    top = self._best(totals, reached, down)
                    if len(top) > 1 and self.simultaneous == "highest":
                        self._extra_hand(st, top)  # an exact tie at the top: another hand (then extra_hand_tie)
                    else:
                        st.finish(top)
            return
        out_now = [e for e, team in enumerate(g.teams)
                   if any(st.active[s] for s in team) and totals[e] >= self.limit]
        still = [e for e, team in enumerate(g.teams)
                 if any(st.active[s] for s in team) and totals[e] < self.limit]
        if not still and out_now:
            if self.all_out == "shared_win":
                st.finish(out_now)
                return
            if self.all_out == "fewest_strikes":
                least = min(totals[e] for e in out_now)
                st.finish([e for e in out_now if totals[e] == least])
                return
            for e in out_now:  # replay_round: this round's strikes are not applied
                totals[e] = totals[e] - gained[e]
            return
        for e in out_now:
            for s in g.teams[e]:
                st.active[s] = False
        if len(still) == 1:
            st.finish(still)


def _when(clause: Mapping[str, Any] | None, game: Game, file: str, key: str) -> list[tuple[str, tuple[Value, ...]]]:
    """``instant_win.when`` or ``no_instant_win.when`` as (fact, the values that match) pairs, each fact a declared
    scoring fact and each value one it can take (a ``SpecError`` naming the key otherwise)."""
    out: list[tuple[str, tuple[Value, ...]]] = []
    for fact, want in (clause["when"].items() if clause else ()):
        dom = game.scoring.facts.get(fact)
        if dom is None:
            raise SpecError(f"{key} names '{fact}', which is not a declared fact of this game", file,
                            key=f"match.end.{key}.when.{fact}")
        vals: tuple[Value, ...]
        if isinstance(want, list):
            if len(want) != 2 or not all(type(x) is int for x in want):
                raise SpecError("a range is [lo, hi] of integers", file, key=f"match.end.{key}.when.{fact}")
            vals = tuple(v for v in dom if type(v) is int and want[0] <= v <= want[1])
        else:
            vals = tuple(v for v in dom if v == want and type(v) is type(want))
        if not vals:
            raise SpecError(f"{key}: '{fact}' can never be {want!r}", file, key=f"match.end.{key}.when.{fact}")
        out.append((fact, vals))
    return out


def _check_start(e: Mapping[str, Any], start: int, start_given: bool, game: Game, file: str) -> None:
    """Refuse a match that is over before its first hand: every counter starts at ``start``, so a target
    end whose start is at or past the target (every entity has reached it), a countdown whose start is at or
    below its target, an elimination whose start is at or past the limit (every entity is out), or a floor at
    or above the start (every entity has fallen to it) leaves nothing to play. A rounds end plays its hands
    whatever the start. The key named is ``match.start`` when the spec gives a start, else the other end of
    the comparison (a countdown names its target, given or not)."""
    kind = e["kind"]
    target = e.get("target", 0)
    problem = ""
    key = "match.start"
    other = ""
    if kind == "target" and type(target) is int and start >= target:
        other = "match.end.target"
        problem = (f"match.start {start} is at or past match.end.target {target}: every entity has reached the "
                   "target before the first hand")
    elif kind == "countdown" and type(target) is int and target >= start:
        key, other = "match.end.target", "match.start"
        problem = (f"a countdown's match.end.target {target} must lie below match.start {start}: every entity "
                   "has reached the target before the first hand")
    elif kind == "elimination" and type(e.get("limit")) is int and start >= e["limit"]:
        other = "match.end.limit"
        problem = (f"match.start {start} is at or past match.end.limit {e['limit']}: every entity is out before "
                   "the first hand")
    elif kind == "countdown" and type(e.get("ceiling")) is int and start >= e["ceiling"]:
        other = "match.end.ceiling"
        problem = (f"match.start {start} is at or above match.end.ceiling {e['ceiling']}: every entity has risen "
                   "to the ceiling before the first hand")
    elif kind == "target" and type(e.get("floor")) is int and start <= e["floor"]:
        other = "match.end.floor"
        problem = (f"match.start {start} is at or below match.end.floor {e['floor']}: every entity has fallen to "
                   "the floor before the first hand")
    if problem:
        if key == "match.start" and not start_given:
            key, other = other, key
        given = [w for w in (_option_of(game, key), _option_of(game, other)) if w]
        why = f" ({'; '.join(given)})" if given else ""
        raise SpecError(f"the match is over before it starts: {problem}{why}", file,
                        _line_of(game, tuple(key.split("."))), key)


def _option_of(game: Game, key: str) -> str:
    """``"match.end.target comes from option 'target' (10)"`` when the spec file gives ``key`` by an option
    (``{$option: NAME}``); else ""."""
    node: Any = getattr(getattr(game, "spec", None), "data", None)
    for part in key.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping) or not isinstance(node.get("$option"), str):
        return ""
    name: str = node["$option"]
    value = getattr(game, "options", {}).get(name)
    return f"{key} comes from option '{name}' ({value!r})"


def _line_of(game: Game, path: tuple[str, ...]) -> int | None:
    """The line of ``path`` in the spec file, when the game's spec keeps its lines."""
    loaded = getattr(getattr(game, "spec", None), "loaded", None)
    line_of = getattr(loaded, "line_of", None)
    line = line_of(path) if callable(line_of) else None
    return line if type(line) is int else None
