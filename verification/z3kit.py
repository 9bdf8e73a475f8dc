"""Small helpers around z3: a fresh context per query, time limits, witnesses, a memo of solved queries.

Each query gets its own :class:`z3.Context` (a prototype showed the same query
taking 57 ms fresh and timing out after earlier queries in a shared context).
A query that hits its time limit is reported as ``timeout``, never as a proof.

Witnesses are canonical: when a query is satisfiable, the reported terms are
given their lexicographically smallest values (in the order the query lists
them; ``False`` before ``True``), found by fixing each term in turn to its least
value on an incremental solver (:func:`smallest`). The first model z3 finds
depends on solver internals (random seeds, the order in which the constraints
and a formula's arguments were built, z3's version), the smallest one does not:
the same spec and options give the same witness, byte for byte, in any run
order, process or worker. z3's random seeds are pinned as well
(:data:`RANDOM_SEED`), for every solver this module makes. Likewise
:func:`enumerate_values` lists the smallest values, not the first found.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

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


class Base(Protocol):
    """Constraints made on demand, with a digest of their SMT-LIB text (see :func:`query_key`)."""

    @property
    def constraints(self) -> list[Any]: ...

    @property
    def digest(self) -> str: ...


@dataclass
class Query:
    """Constraints whose satisfiability refutes a property, plus the names to report."""

    ctx: z3.Context
    constraints: list[Any]
    show: Mapping[str, Any]
    logic: str | None = None
    """A z3 logic for the solver (``QF_FD`` for the purely Boolean and pseudo-Boolean card-transfer
    queries, which its SAT core decides several times faster); None: z3's general solver."""
    memo: bool = True
    """Whether :func:`find` may look the answer up (False where the caller keeps answers by a cheaper key
    than the formula's text, as :class:`~cardspec.verification.report.Verifier` does for card transfers)."""
    base: Base | None = None
    """Constraints shared by many queries, added before ``constraints`` (the fact model of a game,
    :class:`~cardspec.verification.facts.FactModel`): the memo's key reads its digest, made once, rather
    than print them for every query, and they are made only when the query is solved."""

    def all_constraints(self) -> list[Any]:
        """The base's constraints, then the query's own."""
        return [*self.base.constraints, *self.constraints] if self.base is not None else self.constraints


@functools.cache
def tune_allocator() -> bool:
    """Keep freed heap memory in the process rather than hand it back to the system at once (glibc only).

    Each query makes and drops a z3 context of a few megabytes; by default glibc returns that memory on
    every drop and the kernel maps it again on the next query, which cost Hand and Foot's proofs about a
    fifth of their time in page faults. A 64 MiB pad on the heap's top (``M_TOP_PAD``) and a higher trim
    threshold (``M_TRIM_THRESHOLD``) stop the churn; the resident memory stays the same. Elsewhere (or
    should ``mallopt`` be missing) nothing changes. Returns whether the settings were applied.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_top_pad = -1, -2
    return bool(mallopt(m_top_pad, 64 << 20)) and bool(mallopt(m_trim_threshold, 256 << 20))


MEMO_LIMIT = 4096
"""How many solved queries :func:`find` and :func:`enumerate_values` remember in one process."""
_memo: dict[str, Any] = {}


def query_key(ctx: z3.Context, constraints: list[Any], *extra: Any) -> str:
    """A digest of a query: its SMT-LIB text (declarations included, as a plain solver prints it; a
    solver for a logic such as ``QF_FD`` prints nothing) and ``extra``.

    Two queries with the same key are the same formula over the same names, so they have the same
    answer and the same canonical witness: many option sets of one spec leave a scoring table, its
    facts or its bounds unchanged, and the proof is then looked up rather than solved again.
    """
    plain = z3.Solver(ctx=ctx)
    plain.add(*constraints)
    h = hashlib.sha256(plain.sexpr().encode())
    for x in extra:
        h.update(b"\0" + (x.sexpr() if isinstance(x, z3.ExprRef) else repr(x)).encode())
    return h.hexdigest()


def keep(memo: dict[Any, Any], key: Any, value: Any, limit: int) -> None:
    """Put ``value`` in ``memo`` under ``key``, first dropping the oldest entry if ``memo`` holds ``limit``:
    the bounded stores of solved queries here, and of kept proofs, ranking models and fact-model digests
    (:mod:`~cardspec.verification.report`, :mod:`~cardspec.verification.facts`)."""
    if len(memo) >= limit:
        memo.pop(next(iter(memo)))
    memo[key] = value


def _remember(key: str, value: Any) -> None:
    keep(_memo, key, value, MEMO_LIMIT)


def solver(ctx: z3.Context, timeout_ms: int = TIMEOUT_MS, logic: str | None = None) -> z3.Solver:
    """A solver in ``ctx`` (for ``logic``, if given) with a time limit and pinned random seeds."""
    s = z3.SolverFor(logic, ctx=ctx) if logic else z3.Solver(ctx=ctx)
    s.set("timeout", timeout_ms)
    s.set("random_seed", RANDOM_SEED)
    return s


def smallest(ctx: z3.Context, constraints: list[Any], terms: Mapping[str, Any], timeout_ms: int = TIMEOUT_MS
             ) -> dict[str, Any] | None:
    """The lexicographically smallest values of ``terms`` (in their order) under satisfiable ``constraints``.

    Booleans count ``False`` before ``True``. Returns None when z3 does not finish
    (time limit) or an objective is unbounded: the caller then has no canonical witness.

    The terms are fixed one at a time, each to its least value given those before it, which is the
    definition of the lexicographic minimum: a Boolean by one check of ``False``, an integer by
    halving the gap below the best value found (after a search for a bound that doubles its step).
    An incremental solver does this much faster than :class:`z3.Optimize` with one ``lex`` objective
    per term (3 s against a few hundredths for 64 terms). Every reported term is a Boolean or an integer;
    a term of another sort has no order here, so there is then no canonical witness (None).
    """
    if not terms:
        return {}
    if not all(z3.is_bool(t) or z3.is_int(t) for t in terms.values()):
        return None
    deadline = time.perf_counter() + timeout_ms / 1000
    s = solver(ctx, timeout_ms)
    s.add(*constraints)

    def check(extra: Any) -> tuple[Any, Any]:
        if time.perf_counter() > deadline:
            return z3.unknown, None
        s.push()
        s.add(extra)
        r = s.check()
        best = s.model() if r == z3.sat else None
        s.pop()
        return r, best

    r, model = check(z3.BoolVal(True, ctx))
    if r != z3.sat:
        return None
    out: dict[str, Any] = {}
    for name, t in terms.items():
        if z3.is_bool(t):
            r, m = check(z3.Not(t))
            if r == z3.unknown:
                return None
            value: Any = r != z3.sat
            model = m if r == z3.sat else model
        else:
            hi = model.eval(t, model_completion=True).as_long()  # a value the terms so far allow
            step = 1
            while True:  # a bound below: t <= hi - step has no model
                r, m = check(t <= hi - step)
                if r == z3.unknown:
                    return None
                if r == z3.unsat:
                    break
                model = m
                hi = model.eval(t, model_completion=True).as_long()
                step *= 2
                if step > 1 << 64:
                    return None  # unbounded below
            lo = hi - step + 1
            while lo < hi:  # the least value lies in [lo, hi]
                mid = (lo + hi) // 2
                r, m = check(t <= mid)
                if r == z3.unknown:
                    return None
                if r == z3.sat:
                    model = m
                    hi = model.eval(t, model_completion=True).as_long()
                else:
                    lo = mid + 1
            value = hi
        s.add(t == value)
        out[name] = value
    return out


def find(ctx: z3.Context, constraints: list[Any], show: Mapping[str, Any], timeout_ms: int = TIMEOUT_MS,
         witness: bool = True, logic: str | None = None, memo: bool = True, base: Base | None = None
         ) -> tuple[Any, dict[str, Any] | None]:
    """Check ``constraints`` (after ``base``'s, if given): (``z3.sat``/``unsat``/``unknown``, the canonical
    witness of a ``sat``).

    A plain solver decides (fast); only a satisfiable query, when a ``witness`` is
    wanted, is minimised (:func:`smallest`). Should the minimisation not finish,
    the witness is the plain solver's model (the one case where it is not canonical,
    as a ``timeout`` status is never reproducible either).
    """
    params = ("find", timeout_ms, witness, logic, *(x for kv in show.items() for x in kv))
    key = "" if not memo else query_key(ctx, constraints, *params) if base is None else \
        query_key(ctx, constraints, "base", base.digest, *params)
    if memo and key in _memo:
        res, w = _memo[key]
        return res, dict(w) if w is not None else None
    if base is not None:
        constraints = [*base.constraints, *constraints]
    s = solver(ctx, timeout_ms, logic)
    s.add(*constraints)
    res = s.check()
    if res != z3.sat or not witness:
        if res != z3.unknown and memo:  # a time limit is never remembered: a later try may finish
            _remember(key, (res, None))
        return res, None
    w = smallest(ctx, constraints, show, timeout_ms)
    if w is None:
        m = s.model()
        w = {k: python_value(m.eval(v, model_completion=True)) for k, v in show.items()}
    elif memo:
        _remember(key, (res, dict(w)))
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
    res, w = find(ctx, q.constraints, q.show, timeout_ms, witness, q.logic, q.memo, base=q.base)
    secs = time.perf_counter() - t0
    if res == z3.unsat:
        return "proved", None, secs
    if res == z3.sat:
        return "counterexample", w, secs
    return "timeout", None, secs


def enumerate_values(build: Callable[[z3.Context], tuple[z3.Context, list[Any], Any]], limit: int = 64,
                     timeout_ms: int = TIMEOUT_MS, largest: bool = False) -> tuple[list[Any] | None, float]:
    """The values an integer expression can take under constraints, ascending (None on timeout); with
    ``largest``, descending from the greatest (``limit=1``: the maximum).

    With more than ``limit`` values, the ``limit`` smallest: the list never depends on the order in which
    z3 happens to find values. Each value is the least one above the one before (:func:`_least_above`),
    so the count of checks grows with the values listed and the logarithm of the gaps between them, never
    with the range the expression spans (Hand and Foot's hand scores span 118,440 points, in steps of 5;
    a search that listed whatever z3 found first and narrowed the range around it descended a few points
    a check and ran out of checks before it reached the least). The expression must be bounded below
    (else None; with ``largest``, bounded above)."""
    t0 = time.perf_counter()
    ctx = z3.Context()
    _, cons, expr = build(ctx)
    s = solver(ctx, timeout_ms)
    s.add(*cons)
    key = query_key(ctx, cons, "enumerate", limit, timeout_ms, largest, expr)
    if key in _memo:
        return list(_memo[key]), time.perf_counter() - t0
    values = _enumerate(s, -expr if largest else expr, limit, t0 + timeout_ms / 1000)
    if values is not None and largest:
        values = [-v for v in values]
    if values is not None:
        _remember(key, tuple(values))
    return values, time.perf_counter() - t0


class _Unknown(Exception):
    """A check z3 did not decide (time limit), or an expression unbounded below."""


def _enumerate(s: z3.Solver, expr: Any, limit: int, deadline: float) -> list[Any] | None:
    def check(*extra: Any) -> int | None:
        """A value of ``expr`` under ``extra``, None when there is none."""
        if time.perf_counter() > deadline:
            raise _Unknown
        s.push()
        s.add(*extra)
        try:
            r = s.check()
            if r == z3.unknown:
                raise _Unknown
            value = python_value(s.model().eval(expr, model_completion=True)) if r == z3.sat else None
        finally:
            s.pop()
        if value is not None and not isinstance(value, int):
            raise _Unknown
        return value

    try:
        first = check()
        if first is None:
            return []
        step = 1  # below: nothing is at most first - step (doubling: the expression may be unbounded)
        while (lower := check(expr <= first - step)) is not None:
            first = lower
            step *= 2
            if step > 1 << 64:
                raise _Unknown
        seen = [_least_above(check, expr, first - step, first)]
        gap = 1
        while len(seen) < limit:
            nxt = _probe_above(check, expr, seen[-1], gap)
            if nxt is None:
                break
            gap = nxt - seen[-1]
            seen.append(nxt)
        return seen
    except _Unknown:
        return None


def _probe_above(check: Callable[..., int | None], expr: Any, floor: int, hint: int) -> int | None:
    """The least value of ``expr`` above ``floor`` (None: there is none). The first guesses look within the
    last gap ``hint`` of ``floor``, then twice and four times as far; then anywhere above."""
    lo = floor  # nothing lies in (floor, lo]
    step = hint
    for _ in range(3):
        found = check(expr > lo, expr <= lo + step)
        if found is not None:
            return _least_above(check, expr, lo, found)
        lo += step
        step *= 2
    found = check(expr > lo)
    return None if found is None else _least_above(check, expr, lo, found)


def _least_above(check: Callable[..., int | None], expr: Any, lo: int, value: int) -> int:
    """The least value of ``expr`` in ``(lo, value]``, knowing ``value`` is one and nothing is in ``(?, lo]``:
    first whether any lies below ``value`` at all (the usual answer when the gaps are regular), then halving."""
    below = check(expr > lo, expr < value)
    if below is None:
        return value
    value = below
    while value - lo > 1:
        mid = (lo + value) // 2
        found = check(expr > lo, expr <= mid)
        if found is None:
            lo = mid
        else:
            value = found
    return value


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
