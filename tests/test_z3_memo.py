"""The memo of solved z3 queries (:mod:`cardspec.verification.z3kit`): a query is looked up only when it is
the same formula, whatever solver logic it uses, and a looked-up answer is the one solving gives."""

from __future__ import annotations

import pytest
import z3

from cardspec.verification import conservation, z3kit


def _query(n: int, k: int, swap: bool, drop_preconditions: bool) -> tuple[z3.Context, list[object], dict[str, object],
                                                                          str | None]:
    q = conservation._move(n, "from", "to", k, swap)(z3.Context())
    cons = [c for c in q.constraints if not (drop_preconditions and z3.is_implies(c))]
    return q.ctx, cons, dict(q.show), q.logic


def test_a_qf_fd_query_is_keyed_by_its_formula() -> None:
    """A ``QF_FD`` solver prints nothing, so the key must come from the formula itself: a move without its
    preconditions (a card may be moved from where it is not) has a counterexample, the true move none, and
    the first answer must never be reused for the second."""
    z3kit._memo.clear()
    for k, swap in ((1, False), (2, True)):
        bctx, broken, show, logic = _query(12, k, swap, True)
        assert logic == "QF_FD"
        res, w = z3kit.find(bctx, broken, show, logic=logic)
        assert res == z3.sat and w is not None and w["card 0"] == 0
        ctx, sound, show, logic = _query(12, k, swap, False)
        assert z3kit.query_key(ctx, sound, logic) != z3kit.query_key(bctx, broken, logic)
        assert z3kit.find(ctx, sound, show, logic=logic) == (z3.unsat, None)


def test_a_remembered_answer_is_the_solved_one_and_a_copy() -> None:
    """The same formula built twice (in two contexts) is solved once; the second answer, from the memo,
    equals the first, and changing the returned witness does not change what is remembered."""
    z3kit._memo.clear()
    ctx, broken, show, logic = _query(10, 1, False, True)
    first = z3kit.find(ctx, broken, show, logic=logic)
    assert len(z3kit._memo) == 1
    assert first[1] is not None
    first[1]["card 0"] = 99
    ctx2, broken2, show2, _ = _query(10, 1, False, True)
    again = z3kit.find(ctx2, broken2, show2, logic=logic)
    assert len(z3kit._memo) == 1 and again == (z3.sat, {"card 0": 0})


def test_the_memo_is_bounded() -> None:
    """At most :data:`~cardspec.verification.z3kit.MEMO_LIMIT` answers are kept; the oldest goes first."""
    z3kit._memo.clear()
    limit, z3kit.MEMO_LIMIT = z3kit.MEMO_LIMIT, 2
    try:
        for n in (3, 4, 5):
            ctx, cons, show, logic = _query(n, 1, False, False)
            assert z3kit.find(ctx, cons, show, logic=logic)[0] == z3.unsat
        assert len(z3kit._memo) == 2
    finally:
        z3kit.MEMO_LIMIT = limit
        z3kit._memo.clear()


def test_ranking_proofs_are_kept_per_ranking_not_shared_across_readings() -> None:
    """Bird Dog's ``bird_dog_on_trump_lead`` changes one ranking parameter (the top card on a trump lead).
    One verifier runs both readings: each gets its own model tables, and the engine's tables agree with
    each (a model kept from the other reading would disagree on the trump-led tricks)."""
    from cardspec.engine.spec import load
    from cardspec.verification import report

    spec = load("bird-dog-2p")
    report.forget()
    v = report.Verifier(spec)
    for opts in ({}, {"bird_dog_on_trump_lead": "own_suit"}):
        agree = [f for f in v.findings(opts) if f.property == "ranking: engine tables agree with the model"]
        assert [f.status for f in agree] == ["proved"], (opts, agree)
    assert len(report._models) == 2


def test_proofs_kept_from_other_specs_give_the_findings_a_cold_process_gives() -> None:
    """The proofs a process keeps (deals, transfers, rankings; :class:`~cardspec.verification.report.Verifier`)
    are looked up by what they depend on, across specs: Buck Euchre verified after Euchre and Bid Euchre
    (other decks, deals and rankings, some alike) gives the findings it gives with nothing kept, and some of
    its proofs were looked up (they report no time: Euchre's transfers of one card on a 24-card deck)."""
    from cardspec.engine.spec import load
    from cardspec.verification import report

    def findings(sid: str) -> list[dict[str, object]]:
        return [f.as_json() for f in report.Verifier(load(sid)).findings({})]

    report.forget()
    cold = findings("buck-euchre")
    report.forget()
    findings("euchre")
    findings("bid-euchre")
    warm = findings("buck-euchre")
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in cold]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in warm] == strip
    looked_up = [r["property"] for r, c in zip(warm, cold, strict=True) if r["seconds"] == 0.0 < c["seconds"]]
    assert "moves: collect a trick" in looked_up, looked_up


def test_a_query_on_a_fact_model_is_keyed_by_the_models_digest_and_answers_as_if_inlined() -> None:
    """Table checks add a row's terms to the game's fact model (``Query.base``): the memo's key reads the
    model's digest, made once per game, instead of printing the model for every query. The digest is the
    one a fresh model of the same game prints; games whose fact models differ (Euchre's and Bid Euchre's)
    have different digests; and every table check answers as it does with the model's constraints written
    into the query, on the memo's first and second look."""
    from cardspec.engine.game import Game
    from cardspec.engine.spec import load
    from cardspec.verification import facts, tables

    a, b = Game(load("euchre"), {}), Game(load("bid-euchre"), {})
    fa, fb = facts.FactModel(a, z3.Context()), facts.FactModel(b, z3.Context())
    fresh = facts.FactModel(a, z3.Context())
    assert fa.digest == z3kit.query_key(fresh.ctx, fresh.constraints)
    assert set(fa.domains) != set(fb.domains) and fa.digest != fb.digest
    for game in (a, b):
        z3kit._memo.clear()
        for prop, tid, build in tables.queries(game):
            wit = not prop.startswith("table row")
            q = build(z3.Context())
            assert q.base is not None
            inlined = z3kit.find(q.ctx, q.all_constraints(), q.show, witness=wit, memo=False)
            first = z3kit.refute(build, witness=wit)[:2]
            again = z3kit.refute(build, witness=wit)[:2]
            assert inlined[0] in (z3.sat, z3.unsat)
            status = "counterexample" if inlined[0] == z3.sat else "proved"
            assert first == again == (status, inlined[1]), (tid, prop)


def test_the_kept_digests_and_models_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fact-model digests keep their games alive and ranking models weigh up to a few hundred kB: each store
    holds at most its limit, the oldest going first."""
    from cardspec.engine.game import Game
    from cardspec.engine.spec import load
    from cardspec.verification import facts, report

    report.forget()
    monkeypatch.setattr(facts, "DIGESTS_LIMIT", 2)
    games = [Game(load(sid), {}) for sid in ("euchre", "bid-euchre", "buck-euchre")]
    for g in games:
        _ = facts.FactModel(g, z3.Context()).digest
    assert [kept[0] for kept in facts._digests.values()] == games[1:]
    monkeypatch.setattr(report, "MODELS_LIMIT", 1)
    for sid in ("euchre", "bid-euchre"):
        list(report.Verifier(load(sid)).findings({}))
    assert len(report._models) == 1
    report.forget()
