"""What a conformance run found: each hand's first disagreement, and a summary grouped by clause."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import Source
from ..engine.loader import counted
from ..engine.options import key_of

NO_CLAUSE = "(no clause)"
KINDS = ("error", "hand_over", "seat", "legal", "thrown_in", "trick_winners", "scores")
"""The kinds of disagreement: the adapter raised or answered nonsense (``error``); one side ends
the hand and the other does not (``hand_over``); the seat to act; the legal actions; the results."""


@dataclass(frozen=True)
class ActionNote:
    """One action that only one side allows, with cardspec's reason and clause."""

    action: str
    allowed_by: str
    """``"other"`` (cardspec forbids it) or ``"cardspec"`` (the other engine does not offer it)."""
    reason: str
    clause: Source | None

    def as_json(self) -> dict[str, Any]:
        return {"action": self.action, "allowed_by": self.allowed_by, "reason": self.reason,
                "clause": _source_json(self.clause)}


@dataclass(frozen=True)
class Disagreement:
    """The first point of one hand where the two engines differ."""

    hand: int
    """The hand's index in the run (vector hands first, then the seeded ones)."""
    label: str
    """Where the hand's deal comes from (``vector euchre.json seed 0 hand 3``, ``seed 17``)."""
    action_index: int
    """Actions applied in the hand before the disagreement (at the end of a hand: all of them)."""
    kind: str
    """One of :data:`KINDS`."""
    message: str
    clause: Source | None
    """The cardspec clause that decides the point (see ``docs/conformance.md``)."""
    cardspec: Any
    """What cardspec says: the seat, the sorted legal actions, the results field."""
    other: Any
    """What the other engine says, in the same form."""
    seat: int | None = None
    phase: str | None = None
    trick: int | None = None
    notes: tuple[ActionNote, ...] = ()
    """For a ``legal`` disagreement: each action only one side allows, with its reason."""
    deal: Mapping[str, Any] = field(default_factory=dict)
    actions: tuple[str, ...] = ()
    """The actions played in the hand before the disagreement, cardspec names."""
    record: Mapping[str, Any] = field(default_factory=dict)
    """A one-hand cardspec record of the hand up to the disagreement (``cardspec replay`` reads it)."""

    def position(self) -> str:
        """Where it happened, in words."""
        where = f"hand {self.hand} ({self.label}), action {self.action_index}"
        if self.seat is not None and self.seat >= 0:
            where += f", seat {self.seat}"
        if self.phase is not None:
            where += f" in phase '{self.phase}'"
        if self.trick is not None:
            where += f", trick {self.trick}"
        return where

    def line(self) -> str:
        """One line: position, message, clause."""
        cite = f" [{self.clause.short()}]" if self.clause is not None else ""
        return f"{self.position()}: {self.message}{cite}"

    def sides(self) -> str:
        """What each side allows (a ``legal`` disagreement) or says (trick winners), in one line; else ""."""
        if self.kind == "legal":
            return f"cardspec allows {shortened(self.cardspec)}; the other engine {shortened(self.other)}"
        if self.kind == "trick_winners":
            return f"trick winners: cardspec {self.cardspec}, the other engine {self.other}"
        return ""

    def as_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "label": self.label, "action_index": self.action_index, "kind": self.kind,
                "message": self.message, "clause": _source_json(self.clause), "cardspec": self.cardspec,
                "other": self.other, "seat": self.seat, "phase": self.phase, "trick": self.trick,
                "notes": [n.as_json() for n in self.notes], "deal": dict(self.deal), "actions": list(self.actions),
                "record": dict(self.record)}


@dataclass
class Report:
    """A conformance run: which hands agree, and each other hand's first disagreement."""

    system: str
    options: dict[str, Any]
    """Every option with its value, as the adapter was given them."""
    defaults: dict[str, Any]
    seed: int
    adapter: str
    hands_run: int = 0
    hands_agreeing: int = 0
    skipped: list[str] = field(default_factory=list)
    """Hands the adapter refused with :class:`Unsupported` from ``new_hand`` (label: why)."""
    sources: dict[str, int] = field(default_factory=dict)
    """How many hands came from each source (``vectors``, ``seeded``)."""
    disagreements: list[Disagreement] = field(default_factory=list)
    spec_file: str | None = None
    """The spec file played, when the system is not a bundled spec (its absolute path); None: bundled."""
    left_out: list[str] = field(default_factory=list)
    """Hands not run, or not to the end (label: why): vector hands cardspec plays otherwise from their deal alone
    than within their match (they depend on the match state), or that the options asked for cannot start; and
    hands in which cardspec's side needs a chance event the deal does not give (the discards shuffled again)."""

    @property
    def ok(self) -> bool:
        """Every hand run agrees, and at least one ran."""
        return self.hands_run > 0 and not self.disagreements and self.hands_agreeing == self.hands_run

    def by_clause(self) -> dict[str, list[Disagreement]]:
        """The disagreements grouped by the clause they cite (most first, then by clause text)."""
        groups: dict[str, list[Disagreement]] = {}
        for d in self.disagreements:
            groups.setdefault(d.clause.short() if d.clause is not None else NO_CLAUSE, []).append(d)
        return dict(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])))

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the system's defaults."""
        return {k: v for k, v in self.options.items() if self.defaults.get(k, v) != v}

    def text(self, limit: int = 20) -> str:
        """A readable report: the summary, the groups by clause, then each hand's first disagreement
        (at most ``limit`` of them)."""
        opts = ", ".join(f"{k}={key_of(v)}" for k, v in self.changed_options().items()) or "default options"
        made = ", ".join(f"{n} {k}" for k, n in self.sources.items())
        what = f"{self.system} (spec file {self.spec_file})" if self.spec_file is not None else self.system
        lines = [f"conform {what} ({opts}) against {self.adapter}, seed {self.seed}",
                 f"  {counted(self.hands_run, 'hand')} run" + (f" ({made})" if made else "")
                 + f"; {self.hands_agreeing} agree, "
                 f"{len(self.disagreements)} disagree" + (f", {len(self.skipped)} skipped" if self.skipped else "")
                 + (f"; {counted(len(self.left_out), 'hand')} left out" if self.left_out else "")]
        if self.ok:
            lines.append("  every hand agrees")
        groups = self.by_clause()
        if groups:
            lines.append("disagreements by clause:")
            for clause, ds in groups.items():
                kinds = ", ".join(f"{k} {n}" for k, n in _count(d.kind for d in ds).items())
                lines.append(f"  {len(ds)} hand{'s' if len(ds) != 1 else ''} ({kinds}): {clause}")
                lines.append(f"    first: {ds[0].position()}: {ds[0].message}")
        if self.disagreements:
            lines.append("first disagreement of each hand:")
            for d in self.disagreements[:limit]:
                lines.append(f"  {d.line()}")
                if d.sides():
                    lines.append(f"    {d.sides()}")
            if len(self.disagreements) > limit:
                lines.append(f"  ... and {len(self.disagreements) - limit} more (--json lists every one)")
        if self.skipped:
            lines.append("skipped (the adapter cannot set these deals up):")
            lines.extend(f"  {s}" for s in self.skipped[:limit])
        if self.left_out:
            lines.append("left out (vector hands conform cannot start as their match plays them, or that need an "
                         "adapter starting a hand mid-match; hands that need a reshuffle no deal gives):")
            lines.extend(f"  {s}" for s in self.left_out[:limit])
            if len(self.left_out) > limit:
                lines.append(f"  ... and {len(self.left_out) - limit} more (--json lists every one)")
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {"system": self.system, "spec_file": self.spec_file,
                "options": {k: self.options[k] for k in sorted(self.options)}, "seed": self.seed,
                "adapter": self.adapter, "ok": self.ok, "hands_run": self.hands_run,
                "hands_agreeing": self.hands_agreeing, "sources": dict(self.sources), "skipped": list(self.skipped),
                "left_out": list(self.left_out),
                "by_clause": {c: {"hands": [d.hand for d in ds], "kinds": _count(d.kind for d in ds)}
                              for c, ds in self.by_clause().items()},
                "disagreements": [d.as_json() for d in self.disagreements]}


def shortened(xs: Any, most: int = 12) -> str:
    """Names joined with commas, at most ``most`` of them, then how many more (a report line stays short
    whatever an adapter lists)."""
    items = [str(x) for x in xs[:most]] if isinstance(xs, list | tuple) else [str(xs)]
    more = len(xs) - most if isinstance(xs, list | tuple) and len(xs) > most else 0
    return ", ".join(items) + (f" and {more} more" if more else "")


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def _source_json(s: Source | None) -> dict[str, str] | None:
    return s.as_json() if s is not None else None
