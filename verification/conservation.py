"""Conservation and deal sizes, proved with z3 for every deal and every move kind.

* ``deal``: for every shuffle (any mapping of cards to deck positions), dealing
  by the spec's packets puts each card in exactly one place, and the places'
  sizes are the declared ones and add up to the deck, for every round's deal.
* ``moves``: inductively, one card transfer at a time: if every card is in
  exactly one place before a transfer (its cards are where it takes them
  from), it is after. The transfers are exactly those the game's parts declare
  (:meth:`Component.declarations <cardspec.engine.components.base.Component.declarations>`;
  Euchre: the dealer's pick-up and discard, the Farmer's Hand exchange, play and
  collect a trick; Riding the Bus: draws, discards, taking several discards,
  reshuffles), never chosen by component kind. A transfer of some of its
  source's cards is proved once for any number of them (:func:`relaxed`), so
  one proof per deck and shape serves every count. A phase that declares nothing
  gets no proof: the report fails with ``no proof for <kind> '<id>'``.
  ``tests/test_declared_moves.py`` checks in played matches that every action
  moves cards exactly as one of its phase's declared transfers says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from cardspec.engine.components.deal import DealRules
from cardspec.engine.components.declared import ALL, Transfer
from cardspec.engine.game import Game
from cardspec.engine.scoring import declarers

from .z3kit import Query

Move = tuple[str, Callable[[z3.Context], Query]]
ELSEWHERE = "elsewhere"
SMALL_MOVE = 2
"""Transfers of at most this many cards name each moved card; larger fixed counts (hand-and-foot's
piles of 13 from decks of up to 324 cards) are counted with pseudo-boolean constraints instead."""


def deal_places(game: Game, deal: DealRules) -> list[tuple[str, list[int], int]]:
    """The places one deal fills: (name, deck positions top first, declared size), hands then piles.

    Seats are every seat dealt a packet (players and dummy seats); a dummy seat's
    cards go to its own pile (``PileRule.seat``), named as that pile.
    """
    n = game.deck.size
    seats = game.seating.num_seats
    positions, slices = deal._layout(n, seats)
    on_seat = {pr.seat: pr.name for pr in deal.piles if pr.seat >= 0}
    undealt = [pr for pr in deal.piles if pr.seat < 0]
    sizes = deal.pile_sizes(n, seats - len(on_seat))
    out: list[tuple[str, list[int], int]] = [
        (on_seat.get(s, f"hand {s}"), list(positions[s]), deal.hand_size) for s in range(seats)]
    out += [(pr.name, list(range(sl.start, sl.stop)), sizes[pr.name])
            for pr, sl in zip(undealt, slices, strict=True)]
    return out


def deal_queries(game: Game) -> list[Move]:
    """Every deal of every round: each card in exactly one place, and every place its declared size.

    A shuffle sends card ``c`` to deck position ``pos(c)``; ``pos`` is left
    uninterpreted (any function into the positions, so in particular every
    permutation the engine's chance draws). The deal layout (packets to the seats
    in turn, then the undealt piles) gives each place a set of positions. The
    first query asks z3 for a card and a position ``pos(c)`` that lies in no
    place or in two: its absence proves, for every shuffle at once, that every
    card lands in exactly one place. The size of each query grows with the deck,
    not with its square, so a 104-card deck over 11 round sizes proves quickly.
    The second query compares each place's number of positions with the size the
    spec declares and checks they add up to the deck, so the layout uses every
    position exactly once. Each distinct deal (a round schedule may change the
    hand size) gets its own pair of queries.
    """
    n = game.deck.size
    deals = list(dict.fromkeys(game.round_deals))
    out: list[Move] = []
    for k, deal in enumerate(deals):
        places = deal_places(game, deal)
        tag = "" if len(deals) == 1 else f" (hand size {deal.hand_size})"

        def one_place(ctx: z3.Context, places: list[tuple[str, list[int], int]] = places) -> Query:
            pos = z3.Function("pos", z3.IntSort(ctx), z3.IntSort(ctx))
            c = z3.Int("card", ctx)
            p = pos(c)
            member = [z3.Or([p == q for q in ps] or [z3.BoolVal(False, ctx)]) for _, ps, _ in places]
            cons = [c >= 0, c < n, p >= 0, p < n, z3.Not(z3.PbEq([(m, 1) for m in member], 1))]
            return Query(ctx, cons, {"card": c, "position": p})

        def sizes_match(ctx: z3.Context, places: list[tuple[str, list[int], int]] = places) -> Query:
            got = [z3.Int(f"size_{name}", ctx) for name, _, _ in places]
            cons: list[Any] = [g == len(ps) for g, (_, ps, _) in zip(got, places, strict=True)]
            cons.append(z3.Sum(got) == n)
            bad = [g != want for g, (_, _, want) in zip(got, places, strict=True)]
            return Query(ctx, [z3.And(cons), z3.Or(bad)],
                         {name: g for g, (name, _, _) in zip(got, places, strict=True)})

        _ = k
        out += [(f"deal: every card in exactly one place{tag}", one_place),
                (f"deal: hand and pile sizes add up to the deck{tag}", sizes_match)]
    return out


def declared_transfers(game: Game) -> list[Transfer]:
    """Every card transfer the game's parts declare, once each (by name and shape), in phase order."""
    out: dict[tuple[Any, ...], Transfer] = {}
    for p in declarers(game):
        for t in p.declared.transfers if p.declared is not None else ():
            out.setdefault((t.name, t.count, t.swap), t)
    return list(out.values())


def undeclared(game: Game) -> list[str]:
    """``<kind> '<id>'`` of every phase that declares nothing (so nothing about it can be proved)."""
    return [p.label for p in declarers(game) if p.declared is None]


def move_queries(game: Game) -> list[tuple[str, Callable[[z3.Context], Query], Callable[[z3.Context], Query] | None]]:
    """One inductive query per declared transfer (see :mod:`cardspec.engine.components.declared`), with
    the same query for any number of cards when the transfer moves some of its source, not all.

    Each query abstracts the table to the two zones a transfer touches plus one
    place for everything else, which it leaves alone; this is sound because the
    invariant is per card. A transfer of a fixed number of cards (or a swap of
    as many back) picks that many distinct cards of its source; ``all`` moves
    every card of the source; a range moves any subset of that size. Phases
    that declare nothing get no query here: :func:`undeclared` names them and
    the report fails on each.

    The second query of a transfer that moves some of its source (its :func:`relaxed` form) lets any
    subset move (and, for a swap, any subset of the destination back): each transfer of that shape is one
    of those moves, so proving it proves the transfer, and one proof per deck and shape serves every
    count (Hand and Foot's piles of 13, its draws of 2, its discards, on decks of up to 324 cards). Where
    the relaxed query has a counterexample, the transfer's own query decides, and names its cards.
    """
    n = game.deck.size
    out: list[tuple[str, Callable[[z3.Context], Query], Callable[[z3.Context], Query] | None]] = []
    for t in declared_transfers(game):
        c = t.count
        if isinstance(c, int) and c <= SMALL_MOVE:
            out.append((t.name, _move(n, t.source, t.dest, c, t.swap), relaxed(n, t.swap)))
        elif isinstance(c, int):  # a packet of many cards: the pseudo-boolean form stays small on big decks
            out.append((t.name, _regroup(n, t.source, t.dest, everything=False, lo=c, hi=c, swap=t.swap),
                        relaxed(n, t.swap)))
        else:
            lo, hi = c if isinstance(c, tuple) else (1, n)
            out.append((t.name, _regroup(n, t.source, t.dest, everything=c == ALL, lo=lo, hi=hi,
                                         swap=t.swap), None if c == ALL else relaxed(n, t.swap)))
    return out


def relaxed(n: int, swap: bool) -> Callable[[z3.Context], Query]:
    """Any subset of the source's cards moves to the destination (with ``swap``, and any subset of the
    destination's back): no count. Unsatisfiable (every card still in exactly one place) for every deck,
    which is what makes it a proof of each counted transfer of its shape."""
    return _regroup(n, "source", "destination", everything=False, lo=0, hi=-1, swap=swap, counted=False)


def _state(ctx: z3.Context, n: int, places: list[str], tag: str) -> list[list[Any]]:
    return [[z3.Bool(f"{tag}_{p}_{c}", ctx) for c in range(n)] for p in range(len(places))]


def _exactly_one(mem: list[list[Any]], c: int) -> Any:
    return z3.PbEq([(mem[p][c], 1) for p in range(len(mem))], 1)


def _move(n: int, src: str, dst: str, k: int, swap: bool) -> Callable[[z3.Context], Query]:
    """``k`` distinct cards of ``src`` move to ``dst`` (and, for a ``swap``, ``k`` of ``dst`` move back).

    Each moved card is a one-hot choice among the deck's cards (pure Boolean constraints, which z3's SAT
    core decides fast on big decks); the witness names the chosen cards by id."""
    places = [src, dst, ELSEWHERE]

    def build(ctx: z3.Context) -> Query:
        mem = _state(ctx, n, places, "m")
        xs = [[z3.Bool(f"x{i}_{c}", ctx) for c in range(n)] for i in range(k)]
        ys = [[z3.Bool(f"y{i}_{c}", ctx) for c in range(n)] for i in range(k)] if swap else []
        cons: list[Any] = [_exactly_one(mem, c) for c in range(n)]
        for group in (xs, ys):
            cons += [z3.PbEq([(b, 1) for b in sel], 1) for sel in group]  # each moved card is one card
            if len(group) > 1:  # and distinct
                cons += [z3.PbLe([(sel[c], 1) for sel in group], 1) for c in range(n)]

        def moved(group: list[list[Any]], c: int) -> Any:
            return z3.Or([sel[c] for sel in group]) if group else z3.BoolVal(False, ctx)

        # preconditions: each moved card is where the move takes it from
        for sel in xs:
            cons += [z3.Implies(sel[c], mem[0][c]) for c in range(n)]
        for sel in ys:
            cons += [z3.Implies(sel[c], mem[1][c]) for c in range(n)]
        new = [[mem[p][c] for c in range(n)] for p in range(3)]
        for c in range(n):
            mx, my = moved(xs, c), moved(ys, c)
            new[0][c] = z3.Or(z3.And(mem[0][c], z3.Not(mx)), my)
            new[1][c] = z3.Or(z3.And(mem[1][c], z3.Not(my)), mx)
        cons.append(z3.Or([z3.Not(_exactly_one(new, c)) for c in range(n)]))
        ids = [z3.Sum([z3.If(sel[c], c, 0) for c in range(n)]) for sel in xs + ys]
        return Query(ctx, cons, {f"card {i}": x for i, x in enumerate(ids)}, "QF_FD", memo=False)

    return build


def _regroup(n: int, src: str, dst: str, everything: bool, lo: int = 0, hi: int = -1,
             swap: bool = False, counted: bool = True) -> Callable[[z3.Context], Query]:
    """All (``everything``) or ``lo``..``hi`` of the cards of ``src`` move to ``dst`` (and, for a
    ``swap``, as many of ``dst`` move back; without ``counted``, any number, and ``lo``..``hi`` are
    not read)."""
    places = [src, dst, ELSEWHERE]

    def build(ctx: z3.Context) -> Query:
        mem = _state(ctx, n, places, "m")
        flag = [z3.BoolVal(True, ctx) if everything else z3.Bool(f"moved_{c}", ctx) for c in range(n)]
        fwd = [z3.And(mem[0][c], flag[c]) for c in range(n)]
        bwd = [z3.And(mem[1][c], z3.Bool(f"back_{c}", ctx)) if swap else z3.BoolVal(False, ctx) for c in range(n)]
        cons: list[Any] = [_exactly_one(mem, c) for c in range(n)]
        if not everything and counted:
            cons.append(z3.PbGe([(f, 1) for f in fwd], lo))
            if hi >= 0:
                cons.append(z3.PbLe([(f, 1) for f in fwd], hi))
        if swap and counted:
            cons.append(z3.Sum([z3.If(f, 1, 0) for f in fwd]) == z3.Sum([z3.If(b, 1, 0) for b in bwd]))
        new = [[z3.Or(z3.And(mem[0][c], z3.Not(fwd[c])), bwd[c]) for c in range(n)],
               [z3.Or(z3.And(mem[1][c], z3.Not(bwd[c])), fwd[c]) for c in range(n)],
               [mem[2][c] for c in range(n)]]
        cons.append(z3.Or([z3.Not(_exactly_one(new, c)) for c in range(n)]))
        return Query(ctx, cons, {}, "QF_FD", memo=False)

    return build
