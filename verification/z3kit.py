"""Small helpers around z3: a fresh context per query, time limits, witnesses.

Each query gets its own :class:`z3.Context` (a prototype showed the same query
taking 57 ms fresh and timing out after earlier queries in a shared context).
A query that hits its time limit is reported as ``timeout``, never as a proof.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3

TIMEOUT_MS = 10_000


@dataclass
class Finding:
    """One verified property of one system under one option set."""

    system: str
    options: dict[str, str]
    property: str
    status: str  # proved | counterexample | flagged | timeout
    seconds: float
    detail: str = ""
    witness: dict[str, Any] | None = None
    ambiguity: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The JSON form (keys: system, options, property, status, seconds[, witness])."""
        d: dict[str, Any] = {"system": self.system, "options": self.options, "property": self.property,
                             "status": self.status, "seconds": round(self.seconds, 4)}
        if self.detail:
            d["detail"] = self.detail
        if self.witness is not None:
            d["witness"] = self.witness
        if self.ambiguity:
            d["ambiguity"] = self.ambiguity
        return d


@dataclass
class Query:
    """Constraints whose satisfiability refutes a property, plus the names to report."""

    ctx: z3.Context
    constraints: list[Any]
    show: Mapping[str, Any]


def refute(build: Callable[[z3.Context], Query], timeout_ms: int = TIMEOUT_MS
           ) -> tuple[str, dict[str, Any] | None, float]:
    """Prove a property by showing its negation unsatisfiable.

    Returns ``("proved", None, s)``, ``("counterexample", witness, s)`` or ``("timeout", None, s)``.
    """
    t0 = time.perf_counter()
    ctx = z3.Context()
    q = build(ctx)
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", timeout_ms)
    solver.add(*q.constraints)
    res = solver.check()
    secs = time.perf_counter() - t0
    if res == z3.unsat:
        return "proved", None, secs
    if res == z3.sat:
        m = solver.model()
        return "counterexample", {k: python_value(m.eval(v, model_completion=True)) for k, v in q.show.items()}, secs
    return "timeout", None, secs


def enumerate_values(build: Callable[[z3.Context], tuple[z3.Context, list[Any], Any]], limit: int = 64,
                     timeout_ms: int = TIMEOUT_MS) -> tuple[list[Any] | None, float]:
    """All values an expression can take under constraints (None on timeout)."""
    t0 = time.perf_counter()
    ctx = z3.Context()
    _, cons, expr = build(ctx)
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", timeout_ms)
    solver.add(*cons)
    seen: list[Any] = []
    while len(seen) < limit:
        r = solver.check()
        if r == z3.unsat:
            break
        if r != z3.sat:
            return None, time.perf_counter() - t0
        v = solver.model().eval(expr, model_completion=True)
        seen.append(python_value(v))
        solver.add(expr != v)
    return sorted(seen), time.perf_counter() - t0


def python_value(v: Any) -> Any:
    """A z3 value as a Python bool, int or string."""
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_int_value(v):
        return v.as_long()
    return str(v)


def ite_chain(ctx: z3.Context, key: Any, table: Mapping[int, Any], default: Any) -> Any:
    """``table[key]`` as a chain of If over the table's keys."""
    out = default if not isinstance(default, int) else z3.IntVal(default, ctx)
    for k, v in table.items():
        val = v if not isinstance(v, int) else z3.IntVal(v, ctx)
        out = z3.If(key == k, val, out)
    return out
