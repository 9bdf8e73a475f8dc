"""Ranking proofs: every trick has exactly one winner, and the special cards behave.

The z3 model is built from the spec's ranking clause (plain and trump orders,
bowers, the top card), independently of the engine's precomputed tables, over
symbolic trump, trump-fixing card and led suit:

* ``ranking: strict order``: no two distinct cards that can meet in a trick and
  can win it have equal power (identical copies are allowed only when a
  ``tricks`` phase states which of them wins: ``identical: first_played_wins``
  or ``last_played_wins``);
* ``ranking: the led card can win``: the card led always counts for the trick,
  so every trick has a winner;
* ``ranking: right bower is top`` (specs with bowers): the Jack of trump beats
  every other card (except a declared top card);
* ``ranking: top card beats every trump and keeps its suit`` (specs with a top card; with
  ``top_card_on_trump_lead: own_suit``, every trump unless trump is led, and then ``ranking: on a
  trump lead the top card cannot win``);
* ``ranking: engine tables agree``: for every trump context the engine's power
  order equals the model's (this catches engine bugs the spec does not have).

A ranking with a ``low`` order has one more trump context, the low no-trump
hand (:data:`LOW_NO_TRUMP`): the symbolic trump ranges over it too, where the
model ranks every suit by ``low`` (no trump, no bower, no top card), so every
property above is proved for it as well, and the engine's low tables are
compared with the model's.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

import z3

from cardspec.engine.game import Game
from cardspec.engine.ranking import LED, LOW_NO_TRUMP, TOP, TRUMP

from .z3kit import Query


class RankModel:
    """The spec's ranking as z3 terms over (rank, suit) of a card."""

    def __init__(self, game: Game, ctx: z3.Context) -> None:
        assert game.ranking is not None
        self.g = game
        self.ctx = ctx
        self.r = game.ranking
        d = game.deck
        self.nsuits = len(d.suits)
        self.nranks = len(d.ranks)
        self.red = {s for s, c in enumerate(d.colors) if c == "red"}

    def i(self, v: int) -> Any:
        return z3.IntVal(v, self.ctx)

    def color(self, s: Any) -> Any:
        """1 for red, 0 for black."""
        out = self.i(0)
        for x in sorted(self.red):
            out = z3.If(s == x, self.i(1), out)
        return out

    def pos(self, order: tuple[int, ...], r: Any) -> Any:
        out = self.i(-1)
        for k, rank in enumerate(order):
            out = z3.If(r == rank, self.i(k), out)
        return out

    def eff(self, r: Any, s: Any, t: Any, tr: Any = None, ts: Any = None) -> Any:
        """The suit a card follows as; with the trump card given, a top card may keep its own suit."""
        if self.r.bower_rank is None:
            return s
        left = z3.And(t >= 0, r == self.r.bower_rank, self.color(s) == self.color(t))
        if tr is not None and self.r.twin_top and self.r.top_keeps_suit:
            left = z3.And(left, z3.Not(self.is_top(r, s, t, tr, ts)))
        return z3.If(left, t, s)

    def is_top(self, r: Any, s: Any, t: Any, tr: Any, ts: Any) -> Any:
        if not self.r.twin_top:
            return z3.BoolVal(False, self.ctx)
        return z3.And(t >= 0, r == tr, s != ts, self.color(s) == self.color(ts))

    def power(self, r: Any, s: Any, t: Any, led: Any, tr: Any, ts: Any) -> Any:
        e = self.eff(r, s, t, tr, ts)
        tp = self.pos(self.r.trump, r)
        if self.r.bower_rank is not None:
            n = len(self.r.trump)
            tp = z3.If(r == self.r.bower_rank, z3.If(s == t, self.i(n + 2), self.i(n + 1)), tp)
        pp = self.pos(self.r.plain, r)
        if self.r.low is not None:  # a low no-trump hand ranks every suit by the low order
            pp = z3.If(t == LOW_NO_TRUMP, self.pos(self.r.low, r), pp)
        trump_p = z3.If(tp >= 0, TRUMP + tp, self.i(0))
        led_p = z3.If(pp >= 0, LED + pp, self.i(0))
        top = self.is_top(r, s, t, tr, ts)
        if not self.r.top_beats_trump_lead:  # on a trump lead the top card is a card of its own suit
            top = z3.And(top, led != t)
        return z3.If(top, self.i(TOP),
                     z3.If(z3.And(t >= 0, e == t), trump_p, z3.If(e == led, led_p, self.i(0))))

    def context(self, tag: str = "") -> tuple[Any, Any, Any, Any, list[Any]]:
        """Symbolic trump, led suit and trump-fixing card, with their domains."""
        t, led = z3.Int(f"trump{tag}", self.ctx), z3.Int(f"led{tag}", self.ctx)
        tr, ts = z3.Int(f"trump_card_rank{tag}", self.ctx), z3.Int(f"trump_card_suit{tag}", self.ctx)
        trumps = z3.And(t >= -1, t < self.nsuits)
        if self.r.low is not None:  # the low no-trump context
            trumps = z3.Or(trumps, t == LOW_NO_TRUMP)
        dom = [trumps, led >= 0, led < self.nsuits, tr >= 0, tr < self.nranks, ts == t]
        return t, led, tr, ts, dom

    def card(self, name: str) -> tuple[Any, Any, list[Any]]:
        r, s = z3.Int(f"{name}_rank", self.ctx), z3.Int(f"{name}_suit", self.ctx)
        return r, s, [r >= 0, r < self.nranks, s >= 0, s < self.nsuits]


def _show(m: RankModel, **terms: Any) -> dict[str, Any]:
    return dict(terms)


def queries(game: Game) -> list[tuple[str, Callable[[z3.Context], Query]]]:
    """The ranking properties for a spec with a ranking clause."""
    if game.ranking is None:
        return []
    out: list[tuple[str, Callable[[z3.Context], Query]]] = []
    # copies of one card tie in power; a tricks phase that states which of them wins (first or last played) decides
    identical_ok = any(getattr(ph, "identical_declared", False) for ph in game.phases)

    def strict(ctx: z3.Context) -> Query:
        m = RankModel(game, ctx)
        t, led, tr, ts, dom = m.context()
        ra, sa, da = m.card("a")
        rb, sb, db = m.card("b")
        same = z3.And(ra == rb, sa == sb)
        distinct = z3.Not(same) if (game.deck.copies == 1 or identical_ok) else z3.BoolVal(True, ctx)
        if game.deck.copies > 1 and not identical_ok:
            distinct = z3.BoolVal(True, ctx)  # two copies of one card are distinct cards
        pa, pb = m.power(ra, sa, t, led, tr, ts), m.power(rb, sb, t, led, tr, ts)
        cons = [*dom, *da, *db, distinct, pa > 0, pb > 0, pa == pb]
        if game.deck.copies == 1:
            cons.append(z3.Not(same))
        return Query(ctx, cons, {"trump": t, "led": led, "a_rank": ra, "a_suit": sa, "b_rank": rb,
                                 "b_suit": sb, "trump_card_rank": tr})

    def led_can_win(ctx: z3.Context) -> Query:
        m = RankModel(game, ctx)
        t, _led, tr, ts, dom = m.context()
        r, s, dc = m.card("c")
        p = m.power(r, s, t, m.eff(r, s, t, tr, ts), tr, ts)
        return Query(ctx, [*dom, *dc, p <= 0], {"trump": t, "rank": r, "suit": s})

    out += [("ranking: strict order (one winner per trick)", strict),
            ("ranking: the led card can win", led_can_win)]
    if game.ranking.bower_rank is not None:
        def right_top(ctx: z3.Context) -> Query:
            m = RankModel(game, ctx)
            t, led, tr, ts, dom = m.context()
            r, s, dc = m.card("c")
            assert game.ranking is not None and game.ranking.bower_rank is not None
            br = game.ranking.bower_rank
            pr = m.power(m.i(br), t, t, led, tr, ts)
            pc = m.power(r, s, t, led, tr, ts)
            return Query(ctx, [*dom, *dc, t >= 0, z3.Not(z3.And(r == br, s == t)),
                               z3.Not(m.is_top(r, s, t, tr, ts)), pc >= pr],
                         {"trump": t, "led": led, "rank": r, "suit": s})
        out.append(("ranking: the right bower beats every other card", right_top))
    if game.ranking.twin_top:
        def top_beats(ctx: z3.Context) -> Query:
            m = RankModel(game, ctx)
            t, led, tr, ts, dom = m.context()
            r, s, dc = m.card("c")
            xr, xs, dx = m.card("top")
            top = m.is_top(xr, xs, t, tr, ts)
            bad = z3.Or(m.power(r, s, t, led, tr, ts) >= m.power(xr, xs, t, led, tr, ts),
                        m.eff(xr, xs, t, tr, ts) != xs)
            lead = [] if game.ranking is None or game.ranking.top_beats_trump_lead else [led != t]
            return Query(ctx, [*dom, *dc, *dx, t >= 0, top, z3.Not(z3.And(r == xr, s == xs)), *lead, bad],
                         {"trump": t, "led": led, "top_rank": xr, "top_suit": xs, "rank": r, "suit": s})
        out.append(("ranking: the top card beats every trump and keeps its suit" if game.ranking.top_beats_trump_lead
                    else "ranking: the top card beats every trump unless trump is led, and keeps its suit",
                    top_beats))

        if not game.ranking.top_beats_trump_lead:
            def top_on_trump_lead(ctx: z3.Context) -> Query:
                m = RankModel(game, ctx)
                t, _led, tr, ts, dom = m.context()
                xr, xs, dx = m.card("top")
                top = m.is_top(xr, xs, t, tr, ts)
                # on a trump lead the top card wins nothing, unless it follows as trump (a bower not keeping its suit)
                return Query(ctx, [*dom, *dx, t >= 0, top, m.eff(xr, xs, t, tr, ts) != t,
                                   m.power(xr, xs, t, t, tr, ts) != 0],
                             {"trump": t, "top_rank": xr, "top_suit": xs})
            out.append(("ranking: on a trump lead the top card cannot win", top_on_trump_lead))
    return out


ModelTables = dict[tuple[int, int], tuple[list[list[int]], list[int]]]
"""The model's trick tables: for each trump context (trump suit, trump card), the power of each card
for each led suit and each card's effective suit."""


def _contexts(game: Game) -> list[tuple[int, int]]:
    assert game.ranking is not None
    d = game.deck
    contexts = [(-1, -1)] + [(tsuit, c) for tsuit in range(len(d.suits)) for c in range(d.size)
                             if d.suit_of[c] == tsuit]
    if not game.ranking.twin_top:
        contexts = [(-1, -1)] + [(tsuit, -1) for tsuit in range(len(d.suits))]
    if game.ranking.low is not None:
        contexts.append((LOW_NO_TRUMP, -1))
    return contexts


def model_tables(game: Game) -> ModelTables:
    """The model's power and effective suit of every card in every trump context, evaluated by z3.

    They depend only on the deck and the ranking's parameters, so callers may keep them for every option
    set that leaves those unchanged (:class:`~cardspec.verification.report.Verifier` does)."""
    d = game.deck
    ctx = z3.Context()
    m = RankModel(game, ctx)
    t, led, tr, ts = (z3.Int(x, ctx) for x in ("t", "l", "tr", "ts"))
    r, s = z3.Int("r", ctx), z3.Int("s", ctx)
    p_expr = m.power(r, s, t, led, tr, ts)
    e_expr = m.eff(r, s, t, tr, ts)
    out: ModelTables = {}
    for tsuit, tcard in _contexts(game):
        trank = d.rank_of[tcard] if tcard >= 0 else 0
        power = [[0] * d.size for _ in d.suits]
        eff = [0] * d.size
        for lsuit, c in product(range(len(d.suits)), range(d.size)):
            sub = [(t, z3.IntVal(tsuit, ctx)), (led, z3.IntVal(lsuit, ctx)), (tr, z3.IntVal(trank, ctx)),
                   (ts, z3.IntVal(tsuit, ctx)), (r, z3.IntVal(d.rank_of[c], ctx)),
                   (s, z3.IntVal(d.suit_of[c], ctx))]
            power[lsuit][c] = z3.simplify(z3.substitute(p_expr, *sub)).as_long()
            if lsuit == 0:
                eff[c] = z3.simplify(z3.substitute(e_expr, *sub)).as_long()
        out[(tsuit, tcard)] = (power, eff)
    return out


def engine_agrees(game: Game, model: ModelTables | None = None) -> tuple[bool, dict[str, Any] | None]:
    """Compare the engine's trick tables with the model (``model``, else :func:`model_tables`), for every
    trump context (no solver search)."""
    assert game.ranking is not None
    d = game.deck
    model = model_tables(game) if model is None else model
    for tsuit, tcard in _contexts(game):
        tt = game.trick_tables(tsuit, tcard)
        trump_name = d.suits[tsuit] if tsuit >= 0 else "low" if tsuit == LOW_NO_TRUMP else None
        power, eff_of = model[(tsuit, tcard)]
        model_masks = [0] * len(d.suits)
        for lsuit, c in product(range(len(d.suits)), range(d.size)):
            want, eff = power[lsuit][c], eff_of[c]
            if lsuit == 0:
                model_masks[eff] |= 1 << c
            if want != tt.power[lsuit][c] or eff != tt.eff_suit[c]:
                return False, {"trump": trump_name,
                               "trump_card": d.names[tcard] if tcard >= 0 else None,
                               "led": d.suits[lsuit], "card": d.names[c], "model_power": want,
                               "engine_power": tt.power[lsuit][c], "model_suit": eff,
                               "engine_suit": tt.eff_suit[c]}
        for s_, mask in enumerate(model_masks):
            if mask != tt.suit_mask[s_]:
                extra = d.show(d.cards_of(tt.suit_mask[s_] ^ mask))
                return False, {"trump": trump_name, "follow_suit": d.suits[s_],
                               "cards_following_differently": extra}
    return True, None
