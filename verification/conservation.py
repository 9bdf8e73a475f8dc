"""Conservation and deal sizes, proved with z3 for every deal and every move kind.

* ``deal``: the shuffle is a mapping from cards to deck positions that is
  one-to-one in both directions; for every such shuffle, dealing by the spec's
  packets puts each card in exactly one place and gives every hand and pile its
  declared size.
* ``moves``: inductively, one move kind at a time: if every card is in exactly
  one place before a legal move (its cards are where the move takes them from),
  it is after. The move kinds come from the spec's components (play and
  collect a trick, the dealer's pick-up and discard, kitty exchanges, draws,
  discards, taking several discards, reshuffles).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from cardspec.engine.game import Game

from .z3kit import Query

Move = tuple[str, Callable[[z3.Context], Query]]


def deal_queries(game: Game) -> list[Move]:
    """Every deal: each card in exactly one place, each position holding exactly one card.

    The shuffle is ``pos[c]`` (card to position) and ``card[p]`` (position to card),
    one-to-one both ways. Places are the spec's packet layout (hands, then piles),
    which partitions the positions; with the second lemma each place's size is the
    number of its positions, which the third query compares with the declared sizes.
    """
    n = game.deck.size
    seats = game.num_players
    positions, slices = game.deal._layout(n, seats)
    sizes = game.deal.pile_sizes(n, seats)
    place_pos: list[tuple[str, list[int], int]] = [
        (f"hand {s}", list(positions[s]), game.deal.hand_size) for s in range(seats)]
    place_pos += [(pr.name, list(range(sl.start, sl.stop)), sizes[pr.name])
                  for pr, sl in zip(game.deal.piles, slices, strict=True)]

    def shuffle(ctx: z3.Context) -> tuple[list[Any], list[Any], list[Any]]:
        pos = [z3.Int(f"pos_{c}", ctx) for c in range(n)]
        card = [z3.Int(f"card_{p}", ctx) for p in range(n)]
        cons: list[Any] = []
        for c in range(n):
            cons += [pos[c] >= 0, pos[c] < n, card[c] >= 0, card[c] < n]
        for c in range(n):
            for p in range(n):
                cons.append((pos[c] == p) == (card[p] == c))
        return pos, card, cons

    def one_place(ctx: z3.Context) -> Query:
        pos, _card, cons = shuffle(ctx)
        bad = []
        for c in range(n):
            member = [z3.Or([pos[c] == p for p in ps] or [z3.BoolVal(False, ctx)]) for _, ps, _ in place_pos]
            bad.append(z3.Not(z3.PbEq([(m, 1) for m in member], 1)))
        return Query(ctx, [*cons, z3.Or(bad)], {f"pos {game.deck.names[c]}": pos[c] for c in range(min(n, 6))})

    def one_card(ctx: z3.Context) -> Query:
        pos, _card, cons = shuffle(ctx)
        bad = [z3.Not(z3.PbEq([(pos[c] == p, 1) for c in range(n)], 1)) for p in range(n)]
        return Query(ctx, [*cons, z3.Or(bad)], {})

    def sizes_match(ctx: z3.Context) -> Query:
        got = [z3.Int(f"size_{name}", ctx) for name, _, _ in place_pos]
        cons: list[Any] = [g == len(ps) for g, (_, ps, _) in zip(got, place_pos, strict=True)]
        cons.append(z3.Sum(got) == n)
        bad = [g != want for g, (_, _, want) in zip(got, place_pos, strict=True)]
        return Query(ctx, [z3.And(cons), z3.Or(bad)],
                     {name: g for g, (name, _, _) in zip(got, place_pos, strict=True)})

    return [("deal: every card in exactly one place", one_place),
            ("deal: every position holds exactly one card", one_card),
            ("deal: hand and pile sizes", sizes_match)]


HAND = "the mover's hand"
ELSEWHERE = "elsewhere"


def move_queries(game: Game) -> list[Move]:
    """One inductive query per move kind the spec's components use.

    Each query abstracts the table to the places a move touches (the mover's
    hand and the piles involved) plus one place for everything else, which a
    move leaves alone; this is sound because the invariant is per card.
    """
    moves: list[tuple[str, str, str, int, bool]] = []
    # (name, source, destination, cards, swap): a swap also moves as many cards back
    for ph in game.phases:
        if ph.kind == "turn_up_trump":
            pile = ph.pile  # type: ignore[attr-defined]
            if any(r.get("dealer_exchange") for r in ph.rounds):  # type: ignore[attr-defined]
                moves.append(("dealer picks up the turned card", pile, HAND, 1, False))
                moves.append(("dealer discards", HAND, pile, 1, False))
            ex = ph.exchange  # type: ignore[attr-defined]
            if ex:
                moves.append((f"{ex['name']} exchange", HAND, pile, ex["count"], True))
        elif ph.kind == "tricks":
            moves.append(("play a card to the trick", HAND, "trick", 1, False))
        elif ph.kind == "draw_discard":
            stock, disc = ph.stock, ph.discard  # type: ignore[attr-defined]
            moves.append(("draw from the stock", stock, HAND, 1, False))
            moves.append(("draw from the discard pile", disc, HAND, 1, False))
            moves.append(("discard", HAND, disc, 1, False))
            if ph.take_count:  # type: ignore[attr-defined]
                moves.append(("take several discards for the hand", HAND, disc,
                              ph.take_count, True))  # type: ignore[attr-defined]
    n = game.deck.size
    out: list[Move] = [(m[0], _move(n, *m[1:])) for m in moves]
    if any(ph.kind == "tricks" for ph in game.phases):
        out.append(("collect a trick", _regroup(n, "trick", "the winner's won cards", everything=True)))
    for ph in game.phases:
        if ph.kind == "draw_discard" and ph.exhausted == "reshuffle":  # type: ignore[attr-defined]
            out.append(("reshuffle the discards into the stock",
                        _regroup(n, ph.discard, ph.stock, everything=False)))  # type: ignore[attr-defined]
    return out


def _state(ctx: z3.Context, n: int, places: list[str], tag: str) -> list[list[Any]]:
    return [[z3.Bool(f"{tag}_{p}_{c}", ctx) for c in range(n)] for p in range(len(places))]


def _exactly_one(mem: list[list[Any]], c: int) -> Any:
    return z3.PbEq([(mem[p][c], 1) for p in range(len(mem))], 1)


def _move(n: int, src: str, dst: str, k: int, swap: bool) -> Callable[[z3.Context], Query]:
    places = [src, dst, ELSEWHERE]

    def build(ctx: z3.Context) -> Query:
        mem = _state(ctx, n, places, "m")
        xs = [z3.Int(f"x{i}", ctx) for i in range(k)]
        ys = [z3.Int(f"y{i}", ctx) for i in range(k)] if swap else []
        cons: list[Any] = [_exactly_one(mem, c) for c in range(n)]
        cons += [z3.And(x >= 0, x < n) for x in xs + ys]
        if len(xs) > 1:
            cons.append(z3.Distinct(xs))
        if len(ys) > 1:
            cons.append(z3.Distinct(ys))

        def moved(group: list[Any], c: int) -> Any:
            return z3.Or([x == c for x in group]) if group else z3.BoolVal(False, ctx)

        # preconditions: each moved card is where the move takes it from
        for x in xs:
            cons.append(z3.Or([z3.And(x == c, mem[0][c]) for c in range(n)]))
        for y in ys:
            cons.append(z3.Or([z3.And(y == c, mem[1][c]) for c in range(n)]))
        new = [[mem[p][c] for c in range(n)] for p in range(3)]
        for c in range(n):
            mx, my = moved(xs, c), moved(ys, c)
            new[0][c] = z3.Or(z3.And(mem[0][c], z3.Not(mx)), my)
            new[1][c] = z3.Or(z3.And(mem[1][c], z3.Not(my)), mx)
        cons.append(z3.Or([z3.Not(_exactly_one(new, c)) for c in range(n)]))
        return Query(ctx, cons, {f"card {i}": x for i, x in enumerate(xs + ys)})

    return build


def _regroup(n: int, src: str, dst: str, everything: bool) -> Callable[[z3.Context], Query]:
    """All (``everything``) or some of the cards of ``src`` move to ``dst``."""
    places = [src, dst, ELSEWHERE]

    def build(ctx: z3.Context) -> Query:
        mem = _state(ctx, n, places, "m")
        flag = [z3.BoolVal(True, ctx) if everything else z3.Bool(f"moved_{c}", ctx) for c in range(n)]
        cons: list[Any] = [_exactly_one(mem, c) for c in range(n)]
        new = [[z3.And(mem[0][c], z3.Not(flag[c])) for c in range(n)],
               [z3.Or(mem[1][c], z3.And(mem[0][c], flag[c])) for c in range(n)],
               [mem[2][c] for c in range(n)]]
        cons.append(z3.Or([z3.Not(_exactly_one(new, c)) for c in range(n)]))
        return Query(ctx, cons, {})

    return build
