"""Small helpers around z3: a fresh context per query, time limits, witnesses.

Each query gets its own :class:`z3.Context` (a prototype showed the same query
taking 57 ms fresh and timing out after earlier queries in a shared context).
A query that hits its time limit is reported as ``timeout``, never as a proof.

Witnesses are canonical: when a query is satisfiable, the reported terms are
given their lexicographically smallest values (in the order the query lists
them; ``False`` before ``True``), found by :class:`z3.Optimize` with one
``minimize`` objective per term and ``lex`` priority. The first model z3 finds
depends on solver internals (random seeds, the order in which the constraints
and a formula's arguments were built, z3's version), the smallest one does not:
the same spec and options give the same witness, byte for byte, in any run
order, process or worker. z3's random seeds are pinned as well
(:data:`RANDOM_SEED`), for every solver this module makes. Likewise
:func:`enumerate_values` lists the smallest values, not the first found.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3

TIMEOUT_MS = 10_000
RANDOM_SEED = 0
"""z3's random seed (0 is z3's default), pinned globally and on every solver made here."""

z3.set_param("smt.random_seed", RANDOM_SEED, "sat.random_seed", RANDOM_SEED)


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


def solver(ctx: z3.Context, timeout_ms: int = TIMEOUT_MS) -> z3.Solver:
    """A solver in ``ctx`` with a time limit and pinned random seeds."""
    s = z3.Solver(ctx=ctx)
    s.set("timeout", timeout_ms)
    s.set("random_seed", RANDOM_SEED)
    return s


def smallest(ctx: z3.Context, constraints: list[Any], terms: Mapping[str, Any], timeout_ms: int = TIMEOUT_MS
             ) -> dict[str, Any] | None:
    """The lexicographically smallest values of ``terms`` (in their order) under satisfiable ``constraints``.

    Booleans count ``False`` before ``True``. Returns None when z3 does not finish
    (time limit) or an objective is unbounded: the caller then has no canonical witness.
    """
    if not terms:
        return {}
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", timeout_ms)
    opt.set(priority="lex")
    opt.set("random_seed", RANDOM_SEED)
    opt.add(*constraints)
    goals = [opt.minimize(z3.If(t, 1, 0, ctx) if z3.is_bool(t) else t) for t in terms.values()]
    if opt.check() != z3.sat or not all(z3.is_int_value(h.value()) for h in goals):
        return None
    m = opt.model()
    return {k: python_value(m.eval(v, model_completion=True)) for k, v in terms.items()}


def find(ctx: z3.Context, constraints: list[Any], show: Mapping[str, Any], timeout_ms: int = TIMEOUT_MS,
         witness: bool = True) -> tuple[Any, dict[str, Any] | None]:
    """Check ``constraints``: (``z3.sat``/``unsat``/``unknown``, the canonical witness of a ``sat``).

    A plain solver decides (fast); only a satisfiable query, when a ``witness`` is
    wanted, is minimised (:func:`smallest`). Should the minimisation not finish,
    the witness is the plain solver's model (the one case where it is not canonical,
    as a ``timeout`` status is never reproducible either).
    """
    s = solver(ctx, timeout_ms)
    s.add(*constraints)
    res = s.check()
    if res != z3.sat or not witness:
        return res, None
    w = smallest(ctx, constraints, show, timeout_ms)
    if w is None:
        m = s.model()
        w = {k: python_value(m.eval(v, model_completion=True)) for k, v in show.items()}
    return res, w


def refute(build: Callable[[z3.Context], Query], timeout_ms: int = TIMEOUT_MS, witness: bool = True
           ) -> tuple[str, dict[str, Any] | None, float]:
    """Prove a property by showing its negation unsatisfiable.

    Returns ``("proved", None, s)``, ``("counterexample", witness, s)`` or ``("timeout", None, s)``;
    the witness is canonical (see :func:`find`), or None when ``witness`` is False.
    """
    t0 = time.perf_counter()
    ctx = z3.Context()
    q = build(ctx)
    res, w = find(ctx, q.constraints, q.show, timeout_ms, witness)
    secs = time.perf_counter() - t0
    if res == z3.unsat:
        return "proved", None, secs
    if res == z3.sat:
        return "counterexample", w, secs
    return "timeout", None, secs


def enumerate_values(build: Callable[[z3.Context], tuple[z3.Context, list[Any], Any]], limit: int = 64,
                     timeout_ms: int = TIMEOUT_MS) -> tuple[list[Any] | None, float]:
    """The values an integer expression can take under constraints, ascending (None on timeout).

    With more than ``limit`` values, the ``limit`` smallest: the list never depends
    on the order in which z3 happens to find values. The search splits the range
    left first: a value ``v`` found in ``[a, b]`` leaves ``[a, v-1]`` to search
    before ``v`` is listed and ``[v+1, b]`` after (at most about two checks per value
    listed, one where z3 answers with the low end). The expression must be bounded below (else None).
    """
    t0 = time.perf_counter()
    ctx = z3.Context()
    _, cons, expr = build(ctx)
    s = solver(ctx, timeout_ms)
    s.add(*cons)
    seen: list[Any] = []
    todo: list[tuple[int | None, int | None, Any]] = [(None, None, None)]  # (low, high, value), next on top
    budget = 4 * limit + 4
    while todo and len(seen) < limit:
        lo, hi, value = todo.pop()
        if value is not None:
            seen.append(value)
            continue
        if lo is not None and hi is not None and lo > hi:
            continue
        budget -= 1
        if budget < 0:
            return None, time.perf_counter() - t0
        s.push()
        if lo is not None:
            s.add(expr >= lo)
        if hi is not None:
            s.add(expr <= hi)
        r = s.check()
        v = python_value(s.model().eval(expr, model_completion=True)) if r == z3.sat else None
        s.pop()
        if r == z3.unsat:
            continue
        if v is None:
            return None, time.perf_counter() - t0
        todo += [(v + 1, hi, None), (None, None, v), (lo, v - 1, None)]
    return seen, time.perf_counter() - t0


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
