"""The fact model: what the per-entity scoring facts can be, together, after one hand.

Built from the facts the game's parts declare (their names and finite domains,
see :func:`cardspec.engine.scoring.declarers`), not from any one game or from
component kinds: the declared ``tricks`` (``0..T``) add up to the ``T`` tricks
played; at most one entity made trump; a declaration with effect
``partner_sits_out`` is made only by the maker when only the maker is asked; a
zero-tricks bet is made exactly when its entity took no trick (and with
``limit: one`` at most one entity bets); pairs come
from the cards an entity won (each card counted once: a lemma per rank, then
the totals, which keeps the queries small); ``most_pairs`` is strict; in a
draw-and-discard round someone is lowest, at most one player knocked, and a
round ended by a knock has a knocker; a player who dropped out (``dropped``)
won no trick and, when the maker is never asked, is not the maker; after climbing tricks (birdhead) some
entity is a ``loser`` and every entity sees the same ``top_last``. A fact no declaration offers has no
variable here; the report fails on it (``no proof for fact '<name>'``).
"""

from __future__ import annotations

from typing import Any

import z3

from cardspec.engine.game import Game
from cardspec.engine.tables import DecisionTable

_digests: dict[int, tuple[Game, str]] = {}
DIGESTS_LIMIT = 64
"""How many games' base formulas :meth:`FactModel.digest` remembers in one process (each keeps its game
alive; the verifier reads one game's at a time)."""


class FactModel:
    """z3 variables for every fact of every entity, with the constraints linking them.

    The variables are made at once; the constraints (:attr:`constraints`) when first read: a query whose
    answer is remembered needs only the variables its own terms use, and the base formula's :attr:`digest`,
    made once per game (:class:`~cardspec.verification.z3kit.Query`'s ``base``)."""

    def __init__(self, game: Game, ctx: z3.Context) -> None:
        self.g = game
        self.ctx = ctx
        self.domains = dict(game.scoring.facts)
        E = len(game.teams)
        self.E = E
        self.vars: list[dict[str, Any]] = []
        for e in range(E):
            v: dict[str, Any] = {}
            for name, dom in self.domains.items():
                v[name] = z3.Bool(f"{name}_{e}", ctx) if dom and type(dom[0]) is bool else z3.Int(f"{name}_{e}", ctx)
            self.vars.append(v)
        self._constraints: list[Any] | None = None

    @property
    def constraints(self) -> list[Any]:
        """Every constraint of the model (made on first use)."""
        if self._constraints is None:
            self._constraints = self._build()
        return self._constraints

    @property
    def digest(self) -> str:
        """A digest of :attr:`constraints` as SMT-LIB text (:func:`~cardspec.verification.z3kit.query_key`),
        the same for every model of one game: made once per game and process."""
        kept = _digests.get(id(self.g))
        if kept is not None and kept[0] is self.g:
            return kept[1]
        from .z3kit import keep, query_key

        digest = query_key(self.ctx, self.constraints)
        keep(_digests, id(self.g), (self.g, digest), DIGESTS_LIMIT)  # the game is kept: its id is never reused
        return digest

    def _build(self) -> list[Any]:
        game, ctx = self.g, self.ctx
        cons: list[Any] = []
        for v in self.vars:
            for name, dom in self.domains.items():
                if not (dom and type(dom[0]) is bool):
                    cons += [v[name] >= 0, v[name] < len(dom)] if type(dom[0]) is str else \
                        [v[name] >= min(dom), v[name] <= max(dom)]
        total = max((int(x) for x in self.domains.get("tricks", ())), default=0)
        self.dummies = game.seating.num_seats - game.num_players
        self.dummy_tricks = [z3.Int(f"dummy_tricks_{d}", ctx) for d in range(self.dummies)]
        cons += [t >= 0 for t in self.dummy_tricks]
        if "tricks" in self.domains:  # every trick of the hand is won (by an entity or a dummy seat)
            cons.append(z3.Sum([v["tricks"] for v in self.vars] + self.dummy_tricks) == total)
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
                        if getattr(ph, "who", "") == "defenders" and "maker" in v:
                            cons.append(z3.Implies(v[name], z3.Not(v["maker"])))
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
                if kind == "bet" and getattr(ph, "limit", "any") == "one":  # one bettor a hand (bird-dog-2p, -21)
                    none = self.domains[name].index("none")
                    cons.append(z3.AtMost(*[v[name] != none for v in self.vars], 1))
        if "dropped" in self.domains:  # drop_out: a player who dropped out plays no card, so wins no trick
            not_maker = any("dropped" in ph.fact_names() and getattr(ph, "who", "") == "not_maker"
                            for ph in game.phases)
            for v in self.vars:
                if "tricks" in v:
                    cons.append(z3.Implies(v["dropped"], v["tricks"] == 0))
                if not_maker and "maker" in v:  # the maker is never asked
                    cons.append(z3.Implies(v["dropped"], z3.Not(v["maker"])))
        if "pairs" in self.domains:
            cons += self._pairs(total)
        if game.scoring.side_facts:
            cons += self._sides()
        if "lowest" in self.domains:
            cons.append(z3.Or([v["lowest"] for v in self.vars]))
        if "loser" in self.domains:  # climbing_tricks: someone holds the highest revealed card
            cons.append(z3.Or([v["loser"] for v in self.vars]))
        if "top_last" in self.domains:  # climbing_tricks: one highest revealed card, the same for everyone
            cons += [v["top_last"] == self.vars[0]["top_last"] for v in self.vars]
            cons += [z3.Or([v["top_last"] == x for x in self.domains["top_last"]]) for v in self.vars]
        if "knocker" in self.domains:
            cons.append(z3.AtMost(*[v["knocker"] for v in self.vars], 1))
        if "ended_by" in self.domains:  # one cause ends the round for everyone
            for v in self.vars:
                cons.append(v["ended_by"] == self.vars[0]["ended_by"])
            if "knocker" in self.domains and "knock" in self.domains["ended_by"]:
                knock = self.domains["ended_by"].index("knock")
                cons.append(z3.Implies(self.vars[0]["ended_by"] == knock,
                                       z3.Or([v["knocker"] for v in self.vars])))
        return cons

    def _pairs(self, tricks: int) -> list[Any]:
        g = self.g
        deck = g.deck
        per_trick = g.seating.num_seats
        cons: list[Any] = []
        ranks = g.scoring.pair_ranks
        avail = {r: sum(1 for c in range(deck.size) if deck.rank_of[c] == r) for r in ranks}
        dummy_ranks: list[list[Any]] = [[] for _ in range(self.dummies)]
        for r in ranks:
            counts = [z3.Int(f"won_rank{r}_{e}", self.ctx) for e in range(self.E)]
            extra = [z3.Int(f"dummy_won_rank{r}_{d}", self.ctx) for d in range(self.dummies)]
            cons += [k >= 0 for k in counts + extra]
            cons.append(z3.Sum(counts + extra) <= avail[r])  # each card is won by one holder at most
            for e, k in enumerate(counts):
                self.vars[e].setdefault("_ranks", []).append(k)
            for d, k in enumerate(extra):
                dummy_ranks[d].append(k)
        self.dummy_pairs = [z3.Int(f"dummy_pairs_{d}", self.ctx) for d in range(self.dummies)]
        for d, ks in enumerate(dummy_ranks):
            cons.append(z3.Sum(ks) <= per_trick * self.dummy_tricks[d])
            cons.append(self.dummy_pairs[d] == z3.Sum([k / 2 for k in ks]))
        for e, v in enumerate(self.vars):
            ks = v.pop("_ranks")
            if "tricks" in v:
                cons.append(z3.Sum(ks) <= per_trick * v["tricks"])
            cons.append(v["pairs"] == z3.Sum([k / 2 for k in ks]))
            others = [o["pairs"] for f, o in enumerate(self.vars) if f != e]
            if "most_pairs" in v:
                cons.append(v["most_pairs"] == z3.And([v["pairs"] > p for p in others]))
        return cons

    def _sides(self) -> list[Any]:
        """Sides formed each hand (``scoring.sides``, :class:`cardspec.engine.seats.SidesRule`).

        ``teams``: trump was made and no dissolving condition holds (``broken_bet``:
        a zero-tricks bet was broken); then the maker is alone and every other
        player and dummy seat form one side. ``side_pairs``: the sum of the side's
        members' own pairs; without teams each player's own (plus a dummy's when
        dummies join their controller, who may be any player). ``side_most``: the
        tally beats every other competing side's (a side without a player does
        not compete). Each bet's ``_against``: made if another entity's bet was
        made, else broken if one was broken, else none.
        """
        g, ctx, vs = self.g, self.ctx, self.vars
        rule = g.sides
        cons: list[Any] = []
        makers = [v["maker"] for v in vs] if "maker" in self.domains else []
        bets = [name for name, _ in g.scoring.bet_facts if name in self.domains]
        broken_any = z3.Or([v[b] == self.domains[b].index("broken") for v in vs for b in bets] or
                           [z3.BoolVal(False, ctx)])
        teams = z3.Or(makers) if makers else z3.BoolVal(False, ctx)
        if "broken_bet" in rule.dissolve:
            teams = z3.And(teams, z3.Not(broken_any))
        dpairs = getattr(self, "dummy_pairs", [])
        ctl = [z3.Int(f"controller_{d}", ctx) for d in range(self.dummies)]
        cons += [z3.And(c >= 0, c < self.E) for c in ctl]
        for e, v in enumerate(vs):  # e: the entity, a possible controller of each dummy
            if "teams" in v:
                cons.append(v["teams"] == teams)
            if "side_pairs" in v and "pairs" in v:
                rest = z3.Sum([z3.If(o["maker"], 0, o["pairs"]) if makers else o["pairs"] for o in vs if o is not v]
                              + dpairs + [z3.IntVal(0, ctx)])
                with_team = z3.If(v["maker"], v["pairs"], v["pairs"] + rest) if makers else v["pairs"]
                alone = v["pairs"]
                if rule.dummy_without_sides == "controller":
                    alone = v["pairs"] + z3.Sum([z3.If(ctl[d] == e, dpairs[d], 0) for d in range(len(dpairs))] +
                                                [z3.IntVal(0, ctx)])
                cons.append(v["side_pairs"] == z3.If(teams, with_team, alone))
        if all("side_most" in v and "side_pairs" in v for v in vs) and vs:
            for v in vs:
                same = [o for o in vs if o is not v]
                with_team = z3.And([z3.If(z3.Or(v["maker"], o["maker"]), v["side_pairs"] > o["side_pairs"],
                                          z3.BoolVal(True, ctx)) for o in same]) if makers else \
                    z3.BoolVal(True, ctx)
                alone = z3.And([v["side_pairs"] > o["side_pairs"] for o in same] or [z3.BoolVal(True, ctx)])
                cons.append(v["side_most"] == z3.If(teams, with_team, alone))
        if all("side_top" in v and "side_pairs" in v for v in vs) and vs:  # as side_most, ties allowed
            for v in vs:
                same = [o for o in vs if o is not v]
                with_team = z3.And([z3.If(z3.Or(v["maker"], o["maker"]), v["side_pairs"] >= o["side_pairs"],
                                          z3.BoolVal(True, ctx)) for o in same]) if makers else \
                    z3.BoolVal(True, ctx)
                alone = z3.And([v["side_pairs"] >= o["side_pairs"] for o in same] or [z3.BoolVal(True, ctx)])
                cons.append(v["side_top"] == z3.If(teams, with_team, alone))
        for b in bets:
            made, broken, none = (self.domains[b].index(x) for x in ("made", "broken", "none"))
            if f"{b}_against" not in self.domains:
                continue
            for v in vs:
                others = [o[b] for o in vs if o is not v]
                against = v[f"{b}_against"]
                cons.append(against == z3.If(z3.Or([x == made for x in others] or [z3.BoolVal(False, ctx)]), made,
                                             z3.If(z3.Or([x == broken for x in others] or [z3.BoolVal(False, ctx)]),
                                                   broken, none)))
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
        # ``values`` is a frozenset, whose order follows string hashing (PYTHONHASHSEED):
        # build the disjunction in domain order, so the formula is the same in every process
        if dom and type(dom[0]) is str:
            return z3.Or(_runs(v, sorted(dom.index(x) for x in values)))
        if all(type(x) is int for x in values):
            return z3.Or(_runs(v, sorted(values)))
        return z3.Or([v == x for x in sorted(values, key=int)])

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


def _runs(v: Any, xs: list[int]) -> list[Any]:
    """``v`` is one of the sorted integers ``xs``, as one term per run of consecutive values: ``v == x`` for a
    lone value, ``lo <= v <= hi`` for a run (the same integers; a row such as "at least 10 points" over a fact
    whose values go up to hundreds is one term, not hundreds, which z3's Python API builds slowly).

    >>> ctx = z3.Context()
    >>> x = z3.Int("x", ctx)
    >>> _runs(x, [1, 2, 3, 7, 9, 10])
    [And(x >= 1, x <= 3), x == 7, And(x >= 9, x <= 10)]
    """
    out: list[Any] = []
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(v == xs[i] if i == j else z3.And(v >= xs[i], v <= xs[j]))
        i = j + 1
    return out
