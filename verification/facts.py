"""The fact model: what the per-entity scoring facts can be, together, after one hand.

Built from the facts the game's parts declare (their names and finite domains,
see :func:`cardspec.engine.scoring.declarers`), not from any one game or from
component kinds: the declared ``tricks`` (``0..T``) add up to the ``T`` tricks
played; at most one entity made trump; a declaration with effect
``partner_sits_out`` is made only by the maker when only the maker is asked; a
zero-tricks bet is made exactly when its entity took no trick; pairs come
from the cards an entity won (each card counted once: a lemma per rank, then
the totals, which keeps the queries small); ``most_pairs`` is strict; in a
draw-and-discard round someone is lowest, at most one player knocked, and a
round ended by a knock has a knocker. A fact no declaration offers has no
variable here; the report fails on it (``no proof for fact '<name>'``).
"""

from __future__ import annotations

from typing import Any

import z3

from cardspec.engine.game import Game
from cardspec.engine.tables import DecisionTable


class FactModel:
    """z3 variables for every fact of every entity, with the constraints linking them."""

    def __init__(self, game: Game, ctx: z3.Context) -> None:
        self.g = game
        self.ctx = ctx
        self.domains = dict(game.scoring.facts)
        E = len(game.teams)
        self.E = E
        self.vars: list[dict[str, Any]] = []
        cons: list[Any] = []
        for e in range(E):
            v: dict[str, Any] = {}
            for name, dom in self.domains.items():
                if dom and type(dom[0]) is bool:
                    v[name] = z3.Bool(f"{name}_{e}", ctx)
                else:
                    v[name] = z3.Int(f"{name}_{e}", ctx)
                    cons += [v[name] >= 0, v[name] < len(dom)] if type(dom[0]) is str else \
                        [v[name] >= min(dom), v[name] <= max(dom)]
            self.vars.append(v)
        total = max((int(x) for x in self.domains.get("tricks", ())), default=0)
        if "tricks" in self.domains:  # every trick of the hand is won: the declared 0..T adds up to T
            cons.append(z3.Sum([v["tricks"] for v in self.vars]) == total)
        if "maker" in self.domains:
            makers = [v["maker"] for v in self.vars]
            cons.append(z3.AtMost(*makers, 1))
            if "trump_made" in self.domains:
                for v in self.vars:
                    cons.append(v["trump_made"] == z3.Or(makers))
        for ph in game.phases:
            for name, _bit, kind in ph.declaration_facts():
                if name not in self.domains:
                    continue  # undeclared: the report fails on it
                for e, v in enumerate(self.vars):
                    if kind == "flag":
                        if getattr(ph, "who", "") == "maker" and "maker" in v:
                            cons.append(z3.Implies(v[name], v["maker"]))
                        others = [o[name] for f, o in enumerate(self.vars) if f != e]
                        cons.append(v[f"{name}_against"] == (z3.Or(others) if others else z3.BoolVal(False, ctx)))
                    else:
                        made, broken = self.domains[name].index("made"), self.domains[name].index("broken")
                        if "tricks" in v:
                            if len(game.teams[e]) == 1:
                                cons.append(z3.Implies(v[name] == made, v["tricks"] == 0))
                            cons.append(z3.Implies(v[name] == broken, v["tricks"] >= 1))
                        if getattr(ph, "who", "") == "not_declarer" and "maker" in v:
                            cons.append(z3.Implies(v["maker"], v[name] == self.domains[name].index("none")))
        if "pairs" in self.domains:
            cons += self._pairs(total)
        if "lowest" in self.domains:
            cons.append(z3.Or([v["lowest"] for v in self.vars]))
        if "knocker" in self.domains:
            cons.append(z3.AtMost(*[v["knocker"] for v in self.vars], 1))
        if "ended_by" in self.domains:
            knock = self.domains["ended_by"].index("knock")
            for v in self.vars:
                cons.append(v["ended_by"] == self.vars[0]["ended_by"])
            if "knocker" in self.domains:
                cons.append(z3.Implies(self.vars[0]["ended_by"] == knock,
                                       z3.Or([v["knocker"] for v in self.vars])))
        self.constraints = cons

    def _pairs(self, tricks: int) -> list[Any]:
        g = self.g
        deck = g.deck
        per_trick = g.num_players
        cons: list[Any] = []
        ranks = g.scoring.pair_ranks
        avail = {r: sum(1 for c in range(deck.size) if deck.rank_of[c] == r) for r in ranks}
        for r in ranks:
            counts = [z3.Int(f"won_rank{r}_{e}", self.ctx) for e in range(self.E)]
            cons += [k >= 0 for k in counts]
            cons.append(z3.Sum(counts) <= avail[r])  # each card is won by one entity at most
            for e, k in enumerate(counts):
                self.vars[e].setdefault("_ranks", []).append(k)
        for e, v in enumerate(self.vars):
            ks = v.pop("_ranks")
            if "tricks" in v:
                cons.append(z3.Sum(ks) <= per_trick * v["tricks"])
            cons.append(v["pairs"] == z3.Sum([k / 2 for k in ks]))
            others = [o["pairs"] for f, o in enumerate(self.vars) if f != e]
            if "most_pairs" in v:
                cons.append(v["most_pairs"] == z3.And([v["pairs"] > p for p in others]))
        return cons

    def fact(self, e: int, name: str) -> Any:
        """The z3 term of a fact."""
        return self.vars[e][name]

    def member(self, e: int, name: str, values: frozenset[Any]) -> Any:
        """The fact lies in ``values``."""
        v = self.vars[e][name]
        dom = self.domains[name]
        if dom and type(dom[0]) is bool:
            if values == {True}:
                return v
            if values == {False}:
                return z3.Not(v)
            return z3.BoolVal(True, self.ctx)
        if dom and type(dom[0]) is str:
            return z3.Or([v == dom.index(x) for x in values])
        return z3.Or([v == x for x in values])

    def show(self, e: int, table: DecisionTable | None = None) -> dict[str, Any]:
        """Terms to report in a witness (a table's inputs, or every fact)."""
        names = [i.name for i in table.inputs] if table else list(self.domains)
        return {f"{n}[{e}]": self.vars[e][n] for n in names}

    def decode(self, witness: dict[str, Any]) -> dict[str, Any]:
        """Enum indexes back to their names."""
        out = {}
        for k, v in witness.items():
            name = k.split("[")[0]
            dom = self.domains.get(name)
            out[k] = dom[v] if dom and type(dom[0]) is str and isinstance(v, int) and 0 <= v < len(dom) else v
        return out
