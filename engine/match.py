"""The ``match`` component: dealer rotation, match end and tie-breaks.

Two kinds of end, each a general rule used by several systems:

* ``target``: the first entity to reach the target wins (Euchre to 10, Bird
  Dog to 11); ``simultaneous: extra_hand`` plays another hand when several
  reach it together, and ``extra_hand_tie`` says what a tie after it means.
* ``elimination``: an entity whose counter reaches the limit is out (Riding the
  Bus, three strikes); the last one left wins; ``all_out`` says what happens
  when the last ones go out together (share the win, fewest strikes wins, or
  the round's strikes are taken back).

Dealer rotation is ``left`` (clockwise, the next active seat) or ``right``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import Source, SpecError

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

    @staticmethod
    def build(d: Mapping[str, Any], game: Game, file: str) -> MatchRules:
        """Compile and check against the scoring counter."""
        e = d["end"]
        if e["counter"] != game.scoring.counter:
            raise SpecError(f"match counter '{e['counter']}' is not the scoring counter "
                            f"'{game.scoring.counter}'", file, key="match.end.counter")
        if e["kind"] == "target" and "target" not in e:
            raise SpecError("a target end needs a target", file, key="match.end")
        if e["kind"] == "elimination" and type(e.get("limit")) is not int:
            raise SpecError("an elimination end needs an integer limit", file, key="match.end.limit")
        if d["rotation"] not in ("left", "right"):
            raise SpecError("rotation must be left or right", file, key="match.rotation")
        if e.get("all_out", "shared_win") not in ("shared_win", "replay_round", "fewest_strikes"):
            raise SpecError("all_out must be shared_win, replay_round or fewest_strikes", file,
                            key="match.end.all_out")
        if e.get("simultaneous", "highest") not in ("extra_hand", "highest"):
            raise SpecError("simultaneous must be extra_hand or highest", file, key="match.end.simultaneous")
        return MatchRules(d["first_dealer"], d["rotation"], e["kind"], e["counter"], e.get("target", 0),
                          e.get("simultaneous", "highest"), e.get("extra_hand_tie", "another_hand"),
                          e.get("limit", 0), e.get("all_out", "shared_win"), Source(**e["source"]),
                          Source(**d["rotation_source"]))

    def after_hand(self, st: State, gained: list[int]) -> None:
        """Apply the end rule after a hand; sets ``st.winners`` when the match is over."""
        g = st.game
        totals = st.counters
        if self.kind == "target":
            if st.extra_hand:
                best = max(totals)
                top = [e for e, v in enumerate(totals) if v == best]
                if len(top) == 1 or self.extra_hand_tie == "shared_win":
                    st.finish(top)
                return
            reached = [e for e, v in enumerate(totals) if v >= self.target]
            if len(reached) == 1:
                st.finish(reached)
            elif len(reached) > 1:
                if self.simultaneous == "extra_hand":
                    st.extra_hand = True
                else:
                    best = max(totals[e] for e in reached)
                    st.finish([e for e in reached if totals[e] == best])
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
                totals[e] -= gained[e]
            return
        for e in out_now:
            for s in g.teams[e]:
                st.active[s] = False
        if len(still) == 1:
            st.finish(still)
