"""Decision-table checks with z3: gaps, conflicting overlaps and dead rows.

For every table of the spec (after options are applied):

* ``complete``: every reachable situation (the fact model of
  :mod:`cardspec.verification.facts`) matches some row;
* ``deterministic``: no two rows with different results match one situation (under the ``unique`` hit
  policy no two rows at all, as the engine refuses a situation two rows match);
  under the ``first`` or ``most_specific`` hit policy an overlap is resolved
  by the policy, which must then come from an option that the ambiguity
  register names (otherwise the overlap fails verification);
* ``no dead rows``: every row is the one that applies in some reachable situation.

Each failure carries a witness situation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from cardspec.engine.game import Game
from cardspec.engine.tables import DecisionTable, Row

from .facts import FactModel
from .z3kit import Query


def row_cond(fm: FactModel, e: int, t: DecisionTable, row: Row) -> Any:
    """The z3 condition of a row for entity ``e``."""
    parts = [fm.member(e, name, vals) for name, vals in row.allowed.items()]
    return z3.And(parts) if parts else z3.BoolVal(True, fm.ctx)


def row_out(fm: FactModel, e: int, row: Row) -> Any:
    """The z3 output of a row for entity ``e``."""
    out: Any = z3.IntVal(row.add, fm.ctx)
    for f, coef in row.per.items():
        out = out + coef * fm.fact(e, f)
    return out


def selection_order(t: DecisionTable) -> list[int]:
    """Row indexes in the order the hit policy tries them."""
    idx = list(range(len(t.rows)))
    if t.hit == "most_specific":
        idx.sort(key=lambda i: t.rows[i].volume)
    return idx


def table_value(fm: FactModel, e: int, t: DecisionTable) -> Any:
    """The table's result for entity ``e`` under its hit policy (0 where no row matches)."""
    out: Any = z3.IntVal(0, fm.ctx)
    for i in reversed(selection_order(t)):
        out = z3.If(row_cond(fm, e, t, t.rows[i]), row_out(fm, e, t.rows[i]), out)
    return out


def queries(game: Game) -> list[tuple[str, str, Callable[[z3.Context], Query]]]:
    """(property, table id, query) for every table check."""
    out: list[tuple[str, str, Callable[[z3.Context], Query]]] = []
    for t in game.scoring.tables:
        def gap(ctx: z3.Context, t: DecisionTable = t) -> Query:
            fm = FactModel(game, ctx)
            conds = [row_cond(fm, 0, t, r) for r in t.rows]
            return Query(ctx, [z3.Not(z3.Or(conds))], fm.show(0, t), base=fm)

        def overlap(ctx: z3.Context, t: DecisionTable = t) -> Query:
            fm = FactModel(game, ctx)
            bad = []
            for i, a in enumerate(t.rows):
                for j in range(i + 1, len(t.rows)):
                    b = t.rows[j]
                    if t.hit == "most_specific" and a.volume != b.volume:
                        continue  # resolved by the policy
                    if t.hit == "first":
                        continue
                    # most_specific: two rows of one volume conflict only where no narrower row matches
                    narrower = [row_cond(fm, 0, t, c) for c in t.rows
                                if t.hit == "most_specific" and c.volume < a.volume]
                    # unique: any two rows that match one situation are an error there (DecisionTable.select),
                    # whether or not their results agree
                    differ = [] if t.hit == "unique" else [row_out(fm, 0, a) != row_out(fm, 0, b)]
                    bad.append(z3.And(row_cond(fm, 0, t, a), row_cond(fm, 0, t, b), *differ,
                                      *[z3.Not(c) for c in narrower]))
            return Query(ctx, [z3.Or(bad) if bad else z3.BoolVal(False, ctx)], fm.show(0, t), base=fm)

        def raw_overlap(ctx: z3.Context, t: DecisionTable = t) -> Query:
            fm = FactModel(game, ctx)
            bad = []
            for i, a in enumerate(t.rows):
                for b in t.rows[i + 1:]:
                    bad.append(z3.And(row_cond(fm, 0, t, a), row_cond(fm, 0, t, b),
                                      row_out(fm, 0, a) != row_out(fm, 0, b)))
            return Query(ctx, [z3.Or(bad) if bad else z3.BoolVal(False, ctx)], fm.show(0, t), base=fm)

        out.append(("table complete", t.id, gap))
        out.append(("table deterministic", t.id, overlap))
        out.append(("table rows never conflict", t.id, raw_overlap))
        order = selection_order(t)
        for k, i in enumerate(order):
            def dead(ctx: z3.Context, t: DecisionTable = t, i: int = i, before: list[int] = order[:k]) -> Query:
                fm = FactModel(game, ctx)
                cons = [row_cond(fm, 0, t, t.rows[i])]
                cons += [z3.Not(row_cond(fm, 0, t, t.rows[j])) for j in before]
                return Query(ctx, cons, fm.show(0, t), base=fm)
            out.append((f"table row {i + 1} can apply", t.id, dead))
    return out
