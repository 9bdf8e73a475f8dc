"""Verdicts on records, one per record: the audit of a file of another engine's logs.

Each record gets one verdict:

* ``accepted``: every action is legal, every stated result agrees, and the match is over (for a
  ``scope: hand`` record, the hand is over);
* ``unfinished``: every action is legal and every stated result agrees, but the record stops
  before the match is over (a truncated log is never accepted);
* ``rejected``: an action or a stated result disagrees with the rules; the verdict names the
  action index (and the hand), or the result path, and the clause that decides it;
* ``malformed``: the record cannot be read as a record of a known system (not JSON, not the
  record schema, an unknown system or option, a deal that is no deal of the game).

:func:`audit_file` reads a record file (one JSON document, or JSON Lines) and audits every
record in it; a record that cannot be read does not stop the others. Only a file that
cannot be read at all (missing, a line over the size limit) raises.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import MalformedRecordError, RecordError
from .loader import counted
from .record import filled_record, read_records, replay
from .state import State

VERDICTS = ("accepted", "unfinished", "rejected", "malformed")


@dataclass
class Verdict:
    """The audit of one record."""

    where: str
    """The file and line (``path:3: ``), as errors name it."""
    verdict: str
    system: str | None = None
    actions: int = 0
    hands: int = 0
    winners: list[int] | None = None
    error: RecordError | None = None
    state: State | None = field(default=None, repr=False)
    """The final state (accepted and unfinished records): :attr:`record` is built from it."""
    unseen_actions: dict[int, str] = field(default_factory=dict, repr=False)
    """The actions given with an unseen card, by index (written as given in :attr:`record`)."""
    unchecked: list[str] = field(default_factory=list)
    """What the audit could not check (cards the record never shows)."""

    @property
    def clause(self) -> str | None:
        """The clause a rejection cites, as ``doc: “quote”``."""
        src = self.error.source if self.error is not None else None
        return f"{src.doc}: “{src.quote}”{src.decided()}" if src is not None else None

    def line(self) -> str:
        """One line of text for the terminal."""
        if self.verdict in ("accepted", "unfinished"):
            scope = "hand" if self.state is not None and self.state.hand_limit is not None else "match"
            more = f", before the {scope} is over" if self.verdict == "unfinished" else \
                f", winners {self.winners}" if self.winners is not None else ", the hands it holds (no match end)"
            todo = f" ({counted(len(self.unchecked), 'note')} on what could not be checked)" if self.unchecked else ""
            return f"{self.where}{self.verdict}: {self.system}, {counted(self.actions, 'action')}, " \
                f"{counted(self.hands, 'hand')}{more}{todo}"
        msg = str(self.error)
        here = self.where.rstrip(": ")
        if msg.startswith(here):  # a read error names the line itself
            msg = msg[len(here):].lstrip(": ")
        return f"{self.where}{self.verdict}: {msg}"

    def as_json(self) -> dict[str, Any]:
        """The verdict as a JSON object (errors with message, action index, result path and clause)."""
        out: dict[str, Any] = {"where": self.where.rstrip(": "), "verdict": self.verdict, "system": self.system,
                               "actions": self.actions, "hands": self.hands, "winners": self.winners,
                               "unchecked": self.unchecked}
        if self.error is not None:
            e = self.error
            out["error"] = {"message": str(e), "index": e.index, "path": e.path or None,
                            "clause": e.source.as_json() if e.source else None}
        if self.state is not None:
            out["record"] = self.record
        return out

    @property
    def record(self) -> dict[str, Any] | None:
        """The record with its results filled in (accepted and unfinished records)."""
        return filled_record(self.state, self.unseen_actions) if self.state is not None else None


@dataclass
class Summary:
    """Counts over a file's verdicts."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    by_clause: Counter[str] = field(default_factory=Counter)

    def add(self, v: Verdict) -> None:
        self.counts[v.verdict] = self.counts[v.verdict] + 1
        if v.verdict == "rejected":
            self.by_clause[v.clause or "(no clause)"] = self.by_clause[v.clause or "(no clause)"] + 1

    def as_json(self) -> dict[str, Any]:
        return {"records": sum(self.counts.values()), **self.counts,
                "rejected_by_clause": dict(sorted(self.by_clause.items()))}

    def text(self) -> str:
        c = self.counts
        out = f"{counted(sum(c.values()), 'record')}: " + ", ".join(f"{c[k]} {k}" for k in VERDICTS)
        if self.by_clause:
            out += "\nrejected by clause:\n" + "\n".join(f"  {n}  {k}" for k, n in self.by_clause.most_common())
        return out


def _system_of(rec: Any) -> str | None:
    s = rec.get("system") if isinstance(rec, dict) else None
    return s if isinstance(s, str) else None


def audit(where: str, rec: Any) -> Verdict:
    """The verdict on one parsed record."""
    played = _played(rec)
    try:
        r = replay(rec)
    except MalformedRecordError as exc:
        return Verdict(where, "malformed", _system_of(rec), played, error=exc)
    except RecordError as exc:
        return Verdict(where, "rejected", _system_of(rec), played, error=exc)
    st = r.state
    done = st.winners is not None or st.halted == "hand_limit"
    return Verdict(where, "accepted" if done else "unfinished", st.game.id, len(st.history),
                   len(st.hand_results), list(st.winners) if st.winners is not None else None, state=st,
                   unchecked=r.unchecked, unseen_actions=r.unseen_actions)


def _played(rec: Any) -> int:
    acts = rec.get("actions") if isinstance(rec, dict) else None
    return len(acts) if isinstance(acts, list) else 0


def audit_file(path: Path) -> Iterator[Verdict]:
    """Every record of a file, audited in order; an unreadable record is a ``malformed`` verdict."""
    for where, rec in read_records(path, keep_going=True):
        if isinstance(rec, RecordError):
            yield Verdict(where, "malformed", error=rec)
        else:
            yield audit(where, rec)
