"""Decision tables: conditional rules (scoring above all) as data.

A table has typed inputs (``bool``, ``int`` with a range, ``enum`` with values),
rows of conditions and an output, and a hit policy:

* ``unique``: exactly one row may match (a gap or an overlap is a spec error);
* ``first``: the first matching row wins;
* ``most_specific``: the matching row that covers the fewest input
  combinations wins (an overlap between equally specific rows with different
  outputs is an error).

A condition is a value (equality), for ``int`` a two-item list ``[lo, hi]``
(inclusive range), for ``enum`` and ``bool`` a list of allowed values. An output
is a constant or a linear term ``{add: k, per: {fact: coefficient}}``.
The same structure is what the verification layer hands to z3.

>>> t = DecisionTable.build({"id": "t", "inputs": {"n": {"type": "int", "min": 0, "max": 5}},
...     "rows": [{"when": {"n": [3, 5]}, "then": 1}, {"when": {"n": [0, 2]}, "then": 0}]},
...     "unique", "x.yaml")
>>> t.evaluate({"n": 4}), t.evaluate({"n": 0})
(1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import CardspecError, Source, SpecError

Value = bool | int | str


class TableError(CardspecError):
    """A decision table matched no row, or several conflicting rows, at run time.

    The message names where the table is (the spec file, its line and key, as a :class:`SpecError` does),
    when the table was built from a spec file; :attr:`file`, :attr:`line` and :attr:`key` hold them."""

    def __init__(self, message: str, file: str = "", line: int | None = None, key: str = "") -> None:
        self.file, self.line, self.key, self.detail = file, line, key, message
        where = file
        if file and line is not None:
            where += f":{line}"
        if key:
            where += f"{': ' if where else ''}key '{key}'"
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True)
class Input:
    """A typed table input; its domain is finite."""

    name: str
    type: str
    domain: tuple[Value, ...]


@dataclass(frozen=True)
class Row:
    """One row: allowed values per constrained input, and the output."""

    allowed: dict[str, frozenset[Value]]
    add: int
    per: dict[str, int]  # dicts, not Mappings: a compiled build iterates a dict natively
    source: Source | None
    volume: int

    def matches(self, facts: Mapping[str, Value]) -> bool:
        """Whether every condition holds."""
        return all(facts[k] in vals for k, vals in self.allowed.items())

    def output(self, facts: dict[str, Any]) -> int:
        """The row's result for these facts (a dict: a compiled build reads it natively)."""
        out = self.add
        per = self.per
        if per:
            for f, coef in per.items():
                out += coef * int(facts[f])
        return out


def _domain(name: str, spec: Mapping[str, Any], file: str, key: str = "") -> tuple[Value, ...]:
    t = spec["type"]
    if t == "bool":
        return (False, True)
    if t == "int":
        lo, hi = spec.get("min"), spec.get("max")
        if lo is None or hi is None or lo > hi or hi - lo > 10_000:
            raise SpecError(f"int input '{name}' needs min <= max (at most 10000 apart)", file, key=key or name)
        return tuple(range(lo, hi + 1))
    values = spec.get("values") or []
    if not values:
        raise SpecError(f"enum input '{name}' needs values", file, key=key or name)
    return tuple(values)


def _allowed(inp: Input, cond: Any, where: str, file: str) -> frozenset[Value]:
    if isinstance(cond, list):
        if inp.type == "int":
            if len(cond) != 2 or not all(type(x) is int for x in cond):
                raise SpecError(f"int condition on '{inp.name}' must be [lo, hi]", file, key=where)
            if cond[0] > cond[1]:
                raise SpecError(f"int condition on '{inp.name}' must be [lo, hi] with lo <= hi: {cond} is reversed",
                                file, key=where)
            low, high = min(inp.domain), max(inp.domain)  # an int input: a range of ints
            if cond[0] < low or cond[1] > high:  # a row for values that never occur: a typo, or a wrong domain
                raise SpecError(f"range {cond} on '{inp.name}' reaches outside its domain {low}..{high}",
                                file, key=where)
            vals: set[Value] = {v for v in inp.domain if cond[0] <= v <= cond[1]}
        else:
            twice = sorted({repr(v) for i, v in enumerate(cond) if v in cond[:i]})
            if twice:  # a slip (a value meant to be another), never a second meaning
                raise SpecError(f"condition {cond!r} on '{inp.name}' lists {', '.join(twice)} twice", file,
                                key=where)
            vals = set(cond)
    else:
        vals = {cond}
    bad = [v for v in vals if v not in inp.domain or type(v) is not type(inp.domain[0])]
    if bad or not vals:
        raise SpecError(f"condition {cond!r} on '{inp.name}' is outside its domain {list(inp.domain)}",
                        file, key=where)
    return frozenset(vals)


@dataclass(frozen=True)
class DecisionTable:
    """A compiled decision table."""

    id: str
    inputs: tuple[Input, ...]
    rows: tuple[Row, ...]
    hit: str
    source: Source | None
    file: str = field(default="", compare=False)
    """The spec file the table was built from ("" when not known); run-time errors name it."""
    key: str = field(default="", compare=False)
    """The table's key in its spec (``scoring.tables.0``), or ""."""
    line: int | None = field(default=None, compare=False)
    """The line of the table in :attr:`file`, when the loader knows it."""
    _memo: dict[tuple[Value, ...], Row] = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def build(spec: Mapping[str, Any], hit: str, file: str, key: str = "", line: int | None = None) -> DecisionTable:
        """Compile a table from its (option-resolved) spec; ``key`` and ``line`` say where it is in ``file``
        (``scoring.tables.0``, and its line when known), for the errors it raises when it is evaluated."""
        tid = spec["id"]
        at = key or f"scoring.tables.{tid}"  # errors name the table by its key (its index), so its line is found
        inputs = tuple(Input(n, s["type"], _domain(n, s, file, f"{at}.inputs.{n}")) for n, s in spec["inputs"].items())
        by_name = {i.name: i for i in inputs}
        rows = []
        for i, r in enumerate(spec["rows"]):
            where = f"{at}.rows.{i}"
            allowed: dict[str, frozenset[Value]] = {}
            for k, cond in r["when"].items():
                if k not in by_name:
                    raise SpecError(f"condition on '{k}', which is not an input of table '{tid}'",
                                    file, key=f"{where}.when.{k}")
                allowed[k] = _allowed(by_name[k], cond, f"{where}.when.{k}", file)
            then = r["then"]
            if isinstance(then, dict):
                add, per = int(then.get("add", 0)), dict(then["per"])
            elif type(then) is int:
                add, per = then, {}
            else:
                raise SpecError(f"row output must be an int or {{add, per}}, got {then!r}", file,
                                key=f"{where}.then")
            volume = 1
            for inp in inputs:
                volume *= len(allowed.get(inp.name, inp.domain))
            src = Source(**r["source"]) if "source" in r else None
            rows.append(Row(allowed, add, per, src, volume))
        tsrc = Source(**spec["source"]) if "source" in spec else None
        return DecisionTable(tid, inputs, tuple(rows), hit, tsrc, file, key, line)

    def facts_needed(self) -> set[str]:
        """Every fact the table reads (inputs and linear terms)."""
        need = {i.name for i in self.inputs}
        for r in self.rows:
            need |= set(r.per)
        return need

    def select(self, facts: dict[str, Value]) -> Row:
        """The row that applies under the hit policy; a :class:`TableError` naming the table's file, line and
        key when no row applies, or several rows conflict."""
        matching = [i for i, r in enumerate(self.rows) if r.matches(facts)]
        if not matching:
            raise TableError(f"table '{self.id}': no row matches {dict(facts)}", self.file, self.line, self.key)
        if self.hit == "first":
            return self.rows[matching[0]]
        if self.hit == "most_specific":
            least = min(self.rows[i].volume for i in matching)
            matching = [i for i in matching if self.rows[i].volume == least]
        outs = {self.rows[i].output(facts) for i in matching}
        if len(matching) > 1 and (self.hit == "unique" or len(outs) > 1):
            nums = ", ".join(str(i + 1) for i in matching)
            raise TableError(f"table '{self.id}': {len(matching)} rows match {dict(facts)} (rows {nums}, counting "
                             "from 1)", self.file, self.line, self.key)
        return self.rows[matching[0]]

    def evaluate(self, facts: dict[str, Any]) -> int:
        """The table's output for these facts (the row choice is memoised by input values)."""
        key = tuple([facts[i.name] for i in self.inputs])
        row = self._memo.get(key)
        if row is None:
            row = self._memo[key] = self.select(facts)
        return row.output(facts)
