"""Round schedules: per-round parameters (hand size, wild rank, ...) given as a table.

Used by The Card Game (round 1 deals 3 cards with 3s wild, round 2 deals 4 with
4s wild, ... up to 13 with kings wild, optionally back down to 3) and, later,
Hand and Foot (four rounds with rising lay-out minimums and pile passing). A
game without a ``schedule`` clause plays one fixed kind of round (Euchre, Bird
Dog, Riding the Bus).

Spec form (``schedule`` at the top level)::

    schedule:
      rounds:                       # one mapping of parameters per round, in order
        - {hand_size: 3, wild_rank: "3"}
        - {hand_size: 4, wild_rank: "4"}
      back_down: none               # none | without_repeat | with_repeat (after the last row,
                                    # play the rows again from the last to the first; with_repeat
                                    # plays the last row twice)
      source: {doc: ..., quote: ...}

Every row names the same parameters (scalars: ints, strings, booleans). Any other
clause that accepts a round parameter refers to one with ``{$round: NAME}``; the
value is resolved for each round before the clause is compiled (the deal) or as
the round starts (a component calls :meth:`Game.per_round
<cardspec.engine.game.Game.per_round>` and indexes the tuple with
:meth:`RoundSchedule.index`). Hands past the end of the schedule (a tie-break
hand after the last round) repeat the last round's parameters.

>>> s = RoundSchedule.build({"rounds": [{"hand_size": 3}, {"hand_size": 4}, {"hand_size": 5}],
...                          "back_down": "without_repeat", "source": {"doc": "x.txt", "quote": "abc"}}, "f")
>>> len(s), [s.row(i)["hand_size"] for i in range(len(s))]
(5, [3, 4, 5, 4, 3])
>>> substitute({"hand_size": {"$round": "hand_size"}, "packets": [1]}, s.row(2), "f", "deal")
{'hand_size': 5, 'packets': [1]}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Source, SpecError

ROUND_REF = "$round"
"""The key of a reference to a round parameter: ``{$round: NAME}``."""

BACK_DOWN = ("none", "without_repeat", "with_repeat")


@dataclass(frozen=True)
class RoundSchedule:
    """The compiled schedule: the parameters of every round, in play order."""

    rows: tuple[Mapping[str, Any], ...]
    params: tuple[str, ...]
    source: Source

    @staticmethod
    def build(d: Mapping[str, Any], file: str) -> RoundSchedule:
        """Compile; every row must name the same parameters, with scalar values."""
        rows_in = d["rounds"]
        if not rows_in:
            raise SpecError("a schedule needs at least one round", file, key="schedule.rounds")
        params = tuple(rows_in[0])
        for i, r in enumerate(rows_in):
            if set(r) != set(params):
                raise SpecError(f"round {i + 1} names {sorted(r)}, not {sorted(params)} as round 1 does",
                                file, key=f"schedule.rounds.{i}")
            for k, v in r.items():
                if type(v) not in (int, str, bool):
                    raise SpecError(f"round parameter '{k}' must be a number, a word or a boolean",
                                    file, key=f"schedule.rounds.{i}.{k}")
        back = d.get("back_down", "none")
        if back not in BACK_DOWN:
            raise SpecError(f"back_down must be one of {list(BACK_DOWN)}", file, key="schedule.back_down")
        rows = [dict(r) for r in rows_in]
        if back == "without_repeat":
            rows += rows[-2::-1]
        elif back == "with_repeat":
            rows += rows[::-1]
        return RoundSchedule(tuple(rows), params, Source(**d["source"]))

    def __len__(self) -> int:
        return len(self.rows)

    def index(self, hand_no: int) -> int:
        """The schedule row of hand ``hand_no`` (hands past the end repeat the last row)."""
        return min(hand_no, len(self.rows) - 1)

    def row(self, hand_no: int) -> Mapping[str, Any]:
        """The parameters of hand ``hand_no``."""
        return self.rows[self.index(hand_no)]

    def column(self, name: str) -> tuple[Any, ...]:
        """One parameter for every round."""
        return tuple(r[name] for r in self.rows)


def is_round_ref(node: Any) -> bool:
    """Whether a spec value is a ``{$round: NAME}`` reference."""
    return isinstance(node, dict) and ROUND_REF in node


def substitute(node: Any, row: Mapping[str, Any] | None, file: str, path: str = "") -> Any:
    """``node`` with every ``{$round: NAME}`` replaced by the row's value (``row`` None: no schedule)."""
    if isinstance(node, dict):
        if ROUND_REF in node:
            name = node[ROUND_REF]
            if row is None:
                raise SpecError(f"refers to round parameter '{name}' but the spec has no schedule", file, key=path)
            if name not in row:
                raise SpecError(f"the schedule has no round parameter '{name}'; it has {sorted(row)}",
                                file, key=path)
            return row[name]
        return {k: substitute(v, row, file, f"{path}.{k}" if path else k) for k, v in node.items()}
    if isinstance(node, list):
        return [substitute(v, row, file, f"{path}.{i}") for i, v in enumerate(node)]
    return node
