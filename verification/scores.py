"""Score bounds and termination, proved over the fact model.

* ``score bounds``: for every reachable situation, each entity's points from one
  hand (the sum of all tables) lie in the spec's ``bounds.hand_points``; the
  achievable values are listed (Euchre: 0, 1, 2, 4);
* ``pairs in a hand`` (specs with pairs): all entities together hold at most
  the pairs the deck's cards of those ranks can make (Bird Dog: 6);
* ``hand length``: every hand ends within ``bounds.actions_per_hand`` actions
  (from the bound each phase declares, see
  :mod:`cardspec.engine.components.declared`), or is flagged with the phase
  that declares none; a phase that declares nothing at all fails;
* ``match ends``: proved when no hand lowers a counter and every scored hand
  raises one (so the match ends within a computable number of hands), and
  flagged with the reason otherwise (a score that can go down, hands that may
  be thrown in, strikes taken back): the match *may* not end. When no hand can
  move any total towards the end at all, the match *can never* end: a
  counterexample, which fails ``verify``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from cardspec.engine.game import Game
from cardspec.engine.scoring import declarers

from .facts import FactModel
from .tables import table_value
from .z3kit import Query, find, solver


def points(fm: FactModel, e: int) -> Any:
    """One entity's points from a hand."""
    return z3.Sum([table_value(fm, e, t) for t in fm.g.scoring.tables] + [z3.IntVal(0, fm.ctx)])


def bounds_query(game: Game) -> Callable[[z3.Context], Query]:
    lo, hi = game.hand_points_bounds

    def build(ctx: z3.Context) -> Query:
        fm = FactModel(game, ctx)
        bad = [z3.Or(points(fm, e) < lo, points(fm, e) > hi) for e in range(fm.E)]
        show = {k: v for e in range(fm.E) for k, v in fm.show(e).items()}
        show.update({f"points[{e}]": points(fm, e) for e in range(fm.E)})
        return Query(ctx, [z3.Or(bad)], show, base=fm)

    return build


def achievable(game: Game) -> Callable[[z3.Context], tuple[z3.Context, list[Any], Any]]:
    def build(ctx: z3.Context) -> tuple[z3.Context, list[Any], Any]:
        fm = FactModel(game, ctx)
        return ctx, fm.constraints, points(fm, 0)

    return build


def pairs_query(game: Game) -> Callable[[z3.Context], Query] | None:
    if "pairs" not in game.scoring.facts:
        return None
    deck = game.deck
    most = sum(sum(1 for c in range(deck.size) if deck.rank_of[c] == r) // 2 for r in game.scoring.pair_ranks)

    def build(ctx: z3.Context) -> Query:
        fm = FactModel(game, ctx)
        total = z3.Sum([fm.fact(e, "pairs") for e in range(fm.E)])
        return Query(ctx, [total > most], {"total pairs": total}, base=fm)

    return build


def pairs_limit(game: Game) -> int:
    deck = game.deck
    return sum(sum(1 for c in range(deck.size) if deck.rank_of[c] == r) // 2 for r in game.scoring.pair_ranks)


def phase_limits(game: Game) -> list[tuple[str, int | None, str]]:
    """Each declared phase's maximum number of actions in one hand (None: unbounded) and why.

    Taken only from the phases' declarations; undeclared phases are left out
    (see :func:`hand_length`, which fails on them).
    """
    return [(p.id, p.declared.actions_per_hand, p.declared.bound_reason)
            for p in declarers(game) if p.phase and p.declared is not None]


def hand_length(game: Game) -> tuple[str, str, dict[str, Any] | None]:
    """(status, detail, witness) of the hand-length bound, with z3 doing the arithmetic.

    A phase that declares nothing has no known bound: a counterexample, never a proof.
    """
    missing = [p.label for p in declarers(game) if p.phase and p.declared is None]
    if missing:
        return "counterexample", f"no declared bound on the actions of {', '.join(missing)}", None
    limits = phase_limits(game)
    declared = game.actions_per_hand
    if any(lim is None for _, lim, _ in limits):
        why = "; ".join(f"{p}: {w}" for p, lim, w in limits if lim is None)
        if declared is None:
            return "flagged", f"unbounded, as the spec declares: {why}", None
        return "counterexample", f"the spec declares {declared} actions but {why}", None
    ctx = z3.Context()
    counts = [z3.Int(p, ctx) for p, _, _ in limits]
    s = solver(ctx)
    for c, (_, lim, _) in zip(counts, limits, strict=True):
        s.add(c >= 0, c <= lim)
    total = z3.Sum(counts)
    if declared is None:
        return "flagged", "the spec declares no bound although every phase has one", None
    s.add(total > declared)
    if s.check() == z3.unsat:
        return "proved", f"at most {sum(lim for _, lim, _ in limits if lim)} actions ≤ {declared}", None
    return "counterexample", f"a hand can take {sum(lim for _, lim, _ in limits if lim)} actions", \
        {p: lim for p, lim, _ in limits}


def match_ends(game: Game) -> tuple[str, str, dict[str, Any] | None]:
    """(status, detail, witness): does every match end?

    A ``rounds`` match ends after its fixed number of hands (unless deals may be
    thrown in, or ties are played off); otherwise z3 looks for a hand that moves a
    total away from the end (lowers it; in a ``countdown``, raises it), or leaves
    every total unchanged, over the fact model.
    """
    m = game.match
    if m.kind == "rounds":
        redeals = [ph.id for ph in game.phases if getattr(ph, "all_pass", "") == "redeal"]
        if redeals:
            return "flagged", "may not end: every deal may be thrown in (all pass, redeal)", None
        if m.tie == "extra_hand":
            return "flagged", "may not end: extra hands are played while the best totals stay tied", None
        return "proved", f"the match is a fixed number of hands ({m.rounds}); scores do not matter", None
    ctx = z3.Context()
    fm = FactModel(game, ctx)
    # progress is a rise towards a target, or a fall in a countdown (counters fall towards its target)
    down = m.kind == "countdown"
    sign = -1 if down else 1
    r0, _ = find(ctx, [z3.Or([sign * points(fm, e) > 0 for e in range(fm.E)])], {}, witness=False, base=fm)
    if r0 == z3.unknown:
        return "timeout", "", None
    if r0 == z3.unsat:
        toward = "down to" if down else "up to"
        return "counterexample", (f"can never end: no hand moves any {m.counter} total {toward} the end "
                                  f"({'target' if m.kind != 'elimination' else 'limit'})"), None
    show = {k: v for e in range(fm.E) for k, v in {**fm.show(e), f"points[{e}]": points(fm, e)}.items()}
    r, w = find(ctx, [z3.Or([sign * points(fm, e) < 0 for e in range(fm.E)])], show, base=fm)
    if r == z3.unknown:
        return "timeout", "", None
    if r == z3.sat:
        away = "raise" if down else "lower"
        return "flagged", f"may not end: a hand can {away} a {m.counter} total", fm.decode(w or {})
    show = {k: v for e in range(fm.E) for k, v in fm.show(e).items()}
    r2, w = find(ctx, [sign * z3.Sum([points(fm, e) for e in range(fm.E)]) < 1], show, base=fm)
    if r2 == z3.unknown:
        return "timeout", "", None
    if r2 == z3.sat:
        return "flagged", f"may not end: a hand can leave every {m.counter} total unchanged", fm.decode(w or {})
    redeals = [ph.id for ph in game.phases if getattr(ph, "all_pass", "") == "redeal"]
    if redeals:
        return "flagged", "may not end: every deal may be thrown in (all pass, redeal)", None
    if m.kind == "elimination":
        if m.all_out == "replay_round":
            return "flagged", "may not end: when all remaining players go out together their strikes " \
                              "are taken back and the round replayed", None
        bound = game.num_players * m.limit
        return "proved", f"every hand adds a strike and none is taken back: at most {bound} hands", None
    if m.kind == "target" and getattr(m, "on_target", "wins") == "ends":
        if m.tie == "extra_hand":
            return "flagged", "may not end: extra hands are played while the best totals stay tied", None
        bound = len(game.teams) * (m.target - 1) + 1
        return "proved", f"every scored hand raises a total and none falls: the target is reached within " \
                         f"{bound} scored hands, and that ends the match", None
    if m.simultaneous in ("extra_hand", "highest") and m.extra_hand_tie == "another_hand":
        # highest: an exact tie at the top of those that reached the target plays an extra hand too
        return "flagged", "may not end: extra hands are played while the highest scores stay tied", None
    bound = len(game.teams) * (m.target - 1) + 1
    return "proved", f"every scored hand raises a total and none falls: at most {bound} scored hands", None

