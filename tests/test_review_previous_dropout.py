"""``start.previous.drop_outs``: a record of a later buck-euchre hand, with Jack Thomson's limit on consecutive
drop-outs (``no_three_drop_outs``: "If you stay out for two consecutive hands, then on the next hand you must stay
in"), gives each player's run of drop-outs just before it, so that the audit knows who must stay in; conform runs
the later hands the limit decides with it.

The runs the tests expect are counted here from the rule text, not by the engine: newest hand first, a hand thrown
in skipped (it was not played), a hand on which the player did not drop out (stayed in, made trump, or had no
chance: the default ``forced_hands: all_hands``) ends the run, and two drop-outs in a row are all the rule reads."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from test_conform import SelfAdapter

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.errors import MalformedRecordError, RecordError
from cardspec.engine.game import Game
from cardspec.engine.record import record_of

SYSTEM = "buck-euchre"
LIMIT_ON = {"no_three_drop_outs": True}
LIMIT = 2
"""'If you stay out for two consecutive hands, then on the next hand you must stay in'."""
CLAUSE = "If you stay out for two consecutive hands, then on the next hand you must stay in"


def _runs(results: list[dict[str, Any]], players: int) -> list[int]:
    """Each player's run of drop-outs at the end of ``results`` (the hands before some hand), as the rule reads it."""
    runs = []
    for seat in range(players):
        run = 0
        for r in reversed(results):
            if r.get("thrown_in"):
                continue
            if seat not in r.get("dropped_out", ()):
                break
            run += 1
        runs.append(min(run, LIMIT))
    return runs


def _hands(seed: int, first: int, last: int, options: dict[str, Any] | None = None
           ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Hands ``first``..``last`` of seeded random match ``seed`` as a record of its own, starting at hand ``first``
    (no ``start.previous`` yet), and the results of the match's hands before ``first``."""
    g = Game.from_system(SYSTEM, options if options is not None else LIMIT_ON)
    before, _ = play_stepped(g, seed, "random", hand_limit=first)
    upto, _ = play_stepped(g, seed, "random", hand_limit=last + 1, keep_deals=True)
    whole = record_of(upto)
    n_before = len(before.history)
    rec = {"format": whole["format"], "system": SYSTEM, "options": whole["options"], "seed": None,
           "deals": whole["deals"][first:last + 1], "actions": whole["actions"][n_before:],
           "start": {"hand": first, "dealer": whole["deals"][first]["dealer"], "totals": list(before.counters)}}
    if first == last:
        rec["scope"] = "hand"
    return rec, [dict(r) for r in before.hand_results]


def _forced_case() -> tuple[int, int, int]:
    """The first (seed, hand, seat) of the seeded random matches where ``seat`` dropped out on the two hands before
    ``hand`` and is asked to stay or drop on it (and so must stay in)."""
    g = Game.from_system(SYSTEM, LIMIT_ON)
    for seed in range(3, 40):  # seed - hand is the seeded conform run's seed: kept non-negative
        st, _ = play_stepped(g, seed, "random", hand_limit=6, keep_deals=True)
        res = st.hand_results
        for k in range(2, len(res)):
            for seat in range(4):
                if _runs(res[:k], 4)[seat] == LIMIT and res[k].get("drop_round") and res[k].get("maker") != seat:
                    return seed, k, seat
    raise AssertionError("no seeded match has a player who dropped out on two hands in a row and is asked again")


FORCED = _forced_case()


def _answer_index(rec: dict[str, Any], seat: int, nth: int = 0) -> int:
    """The index in ``rec``'s actions of ``seat``'s ``nth`` stay-or-drop answer (a player answers once a hand)."""
    return [i for i, a in enumerate(rec["actions"]) if a["seat"] == seat and a["action"] in ("stay", "drop")][nth]


def test_the_forced_player_stays_in_the_match_and_was_asked() -> None:
    seed, k, seat = FORCED
    rec, before = _hands(seed, k, k)
    assert _runs(before, 4)[seat] == LIMIT
    i = _answer_index(rec, seat)
    assert rec["actions"][i]["action"] == "stay"  # the match's own play obeyed the limit


def test_with_previous_the_drop_is_illegal_citing_the_limit() -> None:
    seed, k, seat = FORCED
    rec, before = _hands(seed, k, k)
    rec["start"]["previous"] = {"drop_outs": _runs(before, 4)}
    v = audit("t: ", rec)
    assert v.verdict == "accepted", v.line()
    i = _answer_index(rec, seat)
    bad = copy.deepcopy(rec)
    bad["actions"][i]["action"] = "drop"
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    assert v.error.index == i
    assert v.error.source is not None and v.error.source.quote.startswith(CLAUSE), v.line()
    assert "2 hands in a row" in str(v.error)


def test_the_start_run_decides_it_and_the_engine_lists_only_stay() -> None:
    seed, k, seat = FORCED
    rec, before = _hands(seed, k, k)
    runs = _runs(before, 4)
    g = Game.from_system(SYSTEM, LIMIT_ON)
    i = _answer_index(rec, seat)
    for run, legal in ((LIMIT, ["stay"]), (LIMIT - 1, ["drop", "stay"]), (0, ["drop", "stay"])):
        start = dict(rec["start"], previous={"drop_outs": [run if s == seat else r for s, r in enumerate(runs)]})
        st = g.new_initial_state(None, deals=rec["deals"], start=start, hand_limit=1)
        for a in rec["actions"][:i]:
            st.apply_name(a["action"])
        assert st.cur == seat
        assert sorted(st.legal_action_names()) == legal
    # a run shorter than the limit lets the player drop out: the record is then not rejected at the drop
    short = copy.deepcopy(rec)
    short["start"]["previous"] = {"drop_outs": [LIMIT - 1 if s == seat else r for s, r in enumerate(runs)]}
    short["actions"][i]["action"] = "drop"
    v = audit("t: ", short)
    assert v.error is None or v.error.index != i, v.line()


def test_the_run_goes_on_from_the_start_into_the_records_own_hands() -> None:
    """A record starting one hand earlier gives the runs before that hand; the drop-out on it, played in the record,
    makes the run of two that forbids the drop-out on the next."""
    seed, k, seat = FORCED
    rec, before = _hands(seed, k - 1, k)
    runs = _runs(before, 4)
    assert runs[seat] == LIMIT - 1  # it dropped out on hand k - 2 and then on hand k - 1, in the record
    rec["start"]["previous"] = {"drop_outs": runs}
    v = audit("t: ", rec)
    assert v.verdict == "unfinished" and v.error is None, v.line()  # the deals run out after hand k
    j = _answer_index(rec, seat, 1)
    assert rec["actions"][_answer_index(rec, seat, 0)]["action"] == "drop" and rec["actions"][j]["action"] == "stay"
    bad = copy.deepcopy(rec)
    bad["actions"][j]["action"] = "drop"
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == j, v.line()
    assert v.error.source is not None and v.error.source.quote.startswith(CLAUSE)
    # with no drop-out before hand k - 1, the record's one drop-out is a run of one: the second drop is allowed
    bad["start"]["previous"] = {"drop_outs": [0 if s == seat else r for s, r in enumerate(runs)]}
    v = audit("t: ", bad)
    assert v.error is None or v.error.index != j, v.line()


def test_a_later_hand_without_the_runs_is_malformed() -> None:
    seed, k, _ = FORCED
    rec, _ = _hands(seed, k, k)
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None, v.line()
    assert v.error.path == "start.previous" and "drop_outs" in str(v.error)
    rec["start"]["previous"] = {}
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "start.previous.drop_outs", v.line()
    g = Game.from_system(SYSTEM, LIMIT_ON)
    with pytest.raises(RecordError) as exc:
        g.new_initial_state(None, deals=rec["deals"], start={"hand": k, "dealer": rec["deals"][0]["dealer"]})
    assert exc.value.path == "start.previous"


@pytest.mark.parametrize(("runs", "why"), [
    ([0, -1, 0, 0], "negative"),
    ([0, "1", 0, 0], "not a number"),
    ([0, 1.0, 0, 0], "a float"),
    ([0, True, 0, 0], "a bool"),
    ([0, 1, 0], "one short"),
    ([0, 1, 0, 0, 0], "one too many"),
    ([0, LIMIT + 1, 0, 0], "longer than the limit lets a run be"),
    ("2", "not a list"),
    (None, "null"),
])
def test_runs_that_cannot_be_are_malformed(runs: Any, why: str) -> None:
    seed, k, _ = FORCED
    rec, _ = _hands(seed, k, k)
    rec["start"]["previous"] = {"drop_outs": runs}
    v = audit("t: ", rec)  # the schema refuses some of them, naming the item (start.previous.drop_outs.1)
    assert v.verdict == "malformed" and v.error is not None, (why, v.line())
    assert v.error.path.startswith("start.previous.drop_outs"), (why, v.error.path)
    g = Game.from_system(SYSTEM, LIMIT_ON)  # the engine's own check, with no schema before it
    with pytest.raises(MalformedRecordError) as exc:
        g.new_initial_state(None, deals=rec["deals"], start=rec["start"], hand_limit=1)
    assert exc.value.path == "start.previous.drop_outs", why


def test_a_run_longer_than_the_hands_before_is_malformed() -> None:
    rec, _ = _hands(FORCED[0], 1, 1)
    rec["start"]["previous"] = {"drop_outs": [0, 2, 0, 0]}  # only hand 0 lies before hand 1
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "start.previous.drop_outs", v.line()
    rec["start"]["previous"] = {"drop_outs": [0, 1, 0, 0]}
    assert audit("t: ", rec).verdict != "malformed"


def test_previous_where_no_rule_reads_it_is_malformed() -> None:
    seed, k, _ = FORCED
    off, _ = _hands(seed, k, k, {})  # Ed Eby's game: no limit, so nothing reads the runs
    off["start"]["previous"] = {"drop_outs": [0, 0, 0, 0]}
    v = audit("t: ", off)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "start.previous", v.line()
    del off["start"]["previous"]
    assert audit("t: ", off).verdict != "malformed"  # and without it the same hand is fine
    on, before = _hands(seed, k, k)
    on["start"]["previous"] = {"drop_outs": _runs(before, 4), "losers": [1]}  # birdhead's field: no rule here
    v = audit("t: ", on)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "start.previous.losers", v.line()
    first, _ = _hands(seed, 0, 0)
    first["start"]["previous"] = {"drop_outs": [0, 0, 0, 0]}  # hand 0 has no hands before it
    v = audit("t: ", first)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "start.previous", v.line()


# --- conform ------------------------------------------------------------------------------------------------
class _MidMatch(SelfAdapter):
    """cardspec as the other engine (``test_conform``'s, without a planted fault), able also to start a hand where
    its match stands; ``forget`` zeroes the runs of drop-outs it is given (an engine that does not keep the limit
    across a start)."""

    forget = False

    def new_hand_in_match(self, deal: dict[str, Any], start: dict[str, Any]) -> None:
        start = copy.deepcopy(start)
        if self.forget and "previous" in start:
            start["previous"]["drop_outs"] = [0] * len(start["previous"]["drop_outs"])
        self.st = self.game.new_initial_state(None, deals=[deal], start=start, hand_limit=1)


class _Forgets(_MidMatch):
    forget = True


def test_conform_runs_the_hand_the_limit_decides_with_the_runs_in_its_start() -> None:
    """Seeded case ``i`` is hand ``i % 4`` of match ``seed + i``: the forced hand is the case for ``i = k`` (and
    seed ``s - k``). Before ``start.previous.drop_outs`` no start carried the runs, and the case was the match's
    first hand instead."""
    from cardspec.conform import conform
    from cardspec.conform.harness import seeded_cases

    seed, k, seat = FORCED
    assert 0 < k < 4
    g = Game.from_system(SYSTEM, LIMIT_ON)
    cases = seeded_cases(g, k + 1, seed - k)
    case = cases[k]
    assert case.label == f"seed {seed} hand {k}"
    assert case.start is not None and case.start["previous"]["drop_outs"][seat] == LIMIT
    _, before = _hands(seed, k, k)
    assert case.start["previous"]["drop_outs"] == _runs(before, 4)
    assert "'drop'" in case.needs  # from its deal alone the player could drop out

    r = conform(lambda s, o: _MidMatch(s, o), SYSTEM, LIMIT_ON, hands=k + 1, seed=seed - k, vectors=False)
    assert r.ok and r.hands_run == k + 1 and not r.left_out, r.left_out
    forgets = conform(lambda s, o: _Forgets(s, o), SYSTEM, LIMIT_ON, hands=k + 1, seed=seed - k, vectors=False)
    bad = [d for d in forgets.disagreements if d.label == f"seed {seed} hand {k}"]
    assert len(bad) == 1 and bad[0].kind == "legal" and bad[0].seat == seat, forgets.disagreements
    assert any(n.clause is not None and n.clause.quote.startswith(CLAUSE) for n in bad[0].notes), bad[0].notes


def test_vector_hands_run_under_the_limit_get_the_runs_of_their_match() -> None:
    """buck-euchre-3p's vector hands that depend on the totals (a score of five or less forbids dropping out) are
    started where their match stands; run with the limit on, the start carries the runs of drop-outs of the
    vector's match (played without the limit), as the limit counts them, and none is left out for the want of it."""
    from cardspec.conform.harness import VECTORS, _vector_data, _vector_hands, game_for, vector_cases

    game = game_for("buck-euchre-3p", LIMIT_ON)
    left_out: list[str] = []
    cases = {c.label: c for c in vector_cases(game, left_out=left_out)}
    assert left_out == []
    checked = 0
    for where, data in _vector_data("buck-euchre-3p", VECTORS):
        vgame = game_for("buck-euchre-3p", data.get("options"))
        assert not vgame.options["no_three_drop_outs"]
        for pt in data["playthroughs"]:
            for k, (_, _, at) in enumerate(_vector_hands(vgame, pt)):
                case = cases.get(f"vector {where} seed {pt.get('seed')} hand {k}")
                if case is None or case.start is None:
                    continue
                assert case.start["previous"] == {"drop_outs": _runs(at.hand_results, 3)}
                checked += 1
    assert checked > 0
