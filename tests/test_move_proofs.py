"""Card-transfer proofs (:func:`cardspec.verification.conservation.move_queries`): a transfer that moves some
of its source is proved by one query for any number of cards (its relaxed form), and by its own query where
that one finds a counterexample."""

from __future__ import annotations

from typing import Any

import pytest
import z3

from cardspec.engine.spec import load
from cardspec.verification import conservation, report, z3kit


def _without_precondition(build: Any) -> Any:
    """The query without its exactly-one constraints (the invariant's premise that each card starts in one
    place, and a moved card's one-hot choice): a card may start in two places and stay there, so it is
    satisfiable. The negated invariant, the last constraint, is an ``Or``, never dropped."""

    def broken(ctx: z3.Context) -> z3kit.Query:
        q = build(ctx)
        assert not z3.is_app_of(q.constraints[-1], z3.Z3_OP_PB_EQ)
        return z3kit.Query(ctx, [c for c in q.constraints if not z3.is_app_of(c, z3.Z3_OP_PB_EQ)], q.show, q.logic,
                           memo=False)

    return broken


@pytest.mark.parametrize("swap", [False, True])
def test_the_relaxed_query_is_a_proof_and_can_fail(swap: bool) -> None:
    """Any subset moving (and back, for a swap) keeps every card in one place: unsatisfiable. Without the
    premise that every card starts in exactly one place, it has a counterexample: the query is no tautology."""
    build = conservation.relaxed(52, swap)
    assert z3kit.refute(build)[0] == "proved"
    assert z3kit.refute(_without_precondition(build))[0] == "counterexample"


def test_every_counted_transfer_has_a_relaxed_form_and_all_has_none() -> None:
    """Hand and Foot's transfers: the ones that move some of a source (piles of 13, draws, discards) carry a
    relaxed query; the ones that move all of it (pick up the discard pile) need none."""
    from cardspec.engine.game import Game

    game = Game(load("hand-and-foot"), {})
    shapes = {t.name: t.count for t in conservation.declared_transfers(game)}
    queries = conservation.move_queries(game)
    assert len(queries) == len(shapes) >= 5
    for name, _exact, any_count in queries:
        assert (any_count is None) == (shapes[name] == "all"), name
    assert any(c == "all" for c in shapes.values()) and any(isinstance(c, int) and c > 2 for c in shapes.values())


def test_a_relaxed_counterexample_sends_the_transfer_to_its_own_query(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the relaxed query find a counterexample, the finding is the transfer's own query's: proved (and
    not said to hold for any number of cards) when that one is unsatisfiable; a counterexample when both are."""
    from cardspec.engine.game import Game

    spec = load("euchre")
    every = {f"moves: {t.name}": t.count == "all" for t in conservation.declared_transfers(Game(spec, {}))}
    assert set(every.values()) == {False, True}  # counted transfers (a card played) and all (a trick collected)
    report.forget()
    good = [f for f in report.Verifier(spec).findings({}) if f.property.startswith("moves:")]
    assert [f.property for f in good] == list(every)
    assert all(f.status == "proved" and ("any number" in f.detail) == (not every[f.property]) for f in good)

    real = conservation.relaxed
    monkeypatch.setattr(conservation, "relaxed", lambda n, swap: _without_precondition(real(n, swap)))
    report.forget()
    fallback = [f for f in report.Verifier(spec).findings({}) if f.property.startswith("moves:")]
    assert [f.property for f in fallback] == [f.property for f in good]
    assert all(f.status == "proved" and "any number" not in f.detail for f in fallback)

    real_move, real_regroup = conservation._move, conservation._regroup
    monkeypatch.setattr(conservation, "_move", lambda *a: _without_precondition(real_move(*a)))
    monkeypatch.setattr(conservation, "_regroup", lambda *a, **k: _without_precondition(real_regroup(*a, **k)))
    report.forget()
    broken = [f for f in report.Verifier(spec).findings({}) if f.property.startswith("moves:")]
    assert [f.property for f in broken] == [f.property for f in good]
    assert all(f.status == "counterexample" for f in broken)
    assert any(f.witness for f in broken)  # a transfer of one or two cards names them
    report.forget()
