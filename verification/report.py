"""``cardspec verify``: run every proof on every option set and decide what passes.

A counterexample fails verification unless the ambiguity register accounts for
it: a table overlap (or a dead row) resolved by a hit policy that an ambiguity's
option chooses, or a property an ambiguity lists under ``resolves``. Those are
reported as ``flagged`` with the ambiguity's id. Proofs that depend only on the
deck and the deal are shared between option sets with the same deal.

Every proof about a component comes from what it declares
(:mod:`cardspec.engine.components.declared`): a phase that declares nothing
yields ``no proof for <kind> '<id>'``, and a fact a table uses that no part of
the game declares yields ``no proof for fact '<name>'`` (the table, score-bound
and termination checks that need it are then reported as counterexamples
too); both fail verification.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from cardspec.engine.game import Game
from cardspec.engine.options import complete, key_of, resolve
from cardspec.engine.spec import Spec
from cardspec.engine.tables import DecisionTable

from . import conservation, ranking, scores, tables
from .facts import FactModel
from .z3kit import Finding, Query, enumerate_values, keep, refute, tune_allocator


def _resolver(spec: Spec) -> tuple[dict[str, str], dict[str, str]]:
    """(option -> ambiguity id) and (property -> ambiguity id) from the register."""
    by_option = {a.option: a.id for a in spec.ambiguities}
    by_prop: dict[str, str] = {}
    for a in spec.data["ambiguities"]:
        for p in a.get("resolves", []):
            by_prop[p] = a["id"]
    return by_option, by_prop


def _hit_option(spec: Spec, table_id: str) -> str | None:
    for t in spec.data["scoring"]["tables"]:
        if t["id"] == table_id and isinstance(t.get("hit"), dict):
            return str(t["hit"]["$option"])
    return None


SHARED_LIMIT = 4096
"""How many shared proofs one process remembers (each a status and a small witness)."""
MODELS_LIMIT = 64
"""How many rankings' model tables one process remembers (up to a few hundred kB each)."""
_shared: dict[tuple[Any, ...], tuple[str, dict[str, Any] | None, float]] = {}
_models: dict[tuple[Any, ...], ranking.ModelTables] = {}


def forget() -> None:
    """Drop every proof this process keeps (:class:`Verifier`'s, :func:`~.z3kit.find`'s memo, the fact models'
    digests): the next proofs are solved afresh (the determinism tests compare fresh runs)."""
    from . import facts, z3kit

    _shared.clear()
    _models.clear()
    z3kit._memo.clear()
    facts._digests.clear()


def rows_at(t: DecisionTable, witness: dict[str, Any] | None, want: int) -> str:
    """Which rows of ``t`` match a table counterexample's situation (entity 0's inputs, as the witness names them),
    counting from 1: ``"rows 1, 3 match"`` (``want`` 2: an overlap, two rows or more) or ``"no row matches"``
    (``want`` 0: a gap); "" when the witness does not name every input, or the rows found are not what the
    property's counterexample must show (never a wrong row named).

    >>> from cardspec.engine.tables import DecisionTable
    >>> t = DecisionTable.build({"id": "t", "inputs": {"n": {"type": "int", "min": 0, "max": 3}},
    ...     "rows": [{"when": {"n": [0, 2]}, "then": 1}, {"when": {"n": [2, 3]}, "then": 2}]}, "unique", "")
    >>> rows_at(t, {"n[0]": 2}, 2), rows_at(t, {"n[0]": 0}, 2), rows_at(t, {}, 2)
    ('rows 1, 2 match', '', '')
    """
    facts = {k[:-3]: v for k, v in (witness or {}).items() if k.endswith("[0]")}
    if any(i.name not in facts for i in t.inputs):
        return ""
    rows = [i + 1 for i, r in enumerate(t.rows) if r.matches(facts)]
    if want == 0:
        return "no row matches" if not rows else ""
    return f"rows {', '.join(map(str, rows))} match" if len(rows) >= want else ""


def deck_key(game: Game) -> tuple[Any, ...]:
    """What makes a deck: its ranks, suits, colours, copies and jokers (every field the rest derive from)."""
    d = game.deck
    return d.ranks, d.suits, d.colors, d.copies, d.jokers


class Verifier:
    """Runs the proofs for one spec.

    The proofs that depend only on a deal, a transfer's shape or a ranking are solved once per process
    and looked up by what they depend on (:func:`deck_key`, the deals, the seats, the ranking's fields):
    across the option sets of a spec, and across the specs and parts of a spec one worker of
    ``verify -j`` runs in turn (Buck Euchre's card transfers, on Euchre's 24 cards, are Euchre's). A time
    limit is never remembered."""

    def __init__(self, spec: Spec, timeout_ms: int = 10_000) -> None:
        tune_allocator()
        self.spec = spec
        self.timeout_ms = timeout_ms
        self.by_option, self.by_prop = _resolver(spec)
        self.decisions: dict[str, Any] = {a.id: a.decision for a in spec.ambiguities}

    def _run(self, key: tuple[Any, ...], q: Callable[[Any], Query]) -> tuple[str, dict[str, Any] | None, float]:
        key = (self.timeout_ms, *key)
        if key in _shared:
            status, w, _ = _shared[key]
            return status, dict(w) if w is not None else None, 0.0
        res = refute(q, self.timeout_ms)
        if res[0] != "timeout":
            keep(_shared, key, (res[0], dict(res[1]) if res[1] is not None else None, res[2]), SHARED_LIMIT)
        return res

    def findings(self, opts: dict[str, Any]) -> Iterator[Finding]:
        spec = self.spec
        t0 = time.perf_counter()
        label = {k: key_of(v) for k, v in opts.items()}
        game = Game(spec, opts)

        def finding(prop: str, status: str, secs: float, detail: str = "", witness: Any = None,
                    amb: str | None = None) -> Finding:
            if status == "counterexample":
                amb = amb or self.by_prop.get(prop)
                if amb:
                    status = "flagged"
            if status == "flagged" and amb and f"ambiguity '{amb}'" not in detail:  # the entry named in text too
                detail = (detail + "; " if detail else "") + f"registered as ambiguity '{amb}'"
            return Finding(spec.id, label, prop, status, secs, detail, witness, amb)

        deal_key = (deck_key(game), game.round_deals, game.seating.num_seats)
        for name, q in conservation.deal_queries(game):
            st, w, s = self._run(("deal", name, deal_key), q)
            yield finding(name, st, s, witness=w)
        transfers = conservation.declared_transfers(game)
        for tr, (name, q, any_count) in zip(transfers, conservation.move_queries(game), strict=True):
            # the queries depend only on the transfer's shape (its zones are numbered, not named)
            if any_count is not None:
                st, w, s = self._run(("move any", tr.swap, game.deck.size), any_count)
                if st == "proved":
                    yield finding(f"moves: {name}", st, s, "proved for any number of cards moved")
                    continue
            st, w, s = self._run(("move", tr.count, tr.swap, game.deck.size), q)
            yield finding(f"moves: {name}", st, s, witness=w)
        for part in conservation.undeclared(game):
            yield finding(f"no proof for {part}", "counterexample", 0.0,
                          "the component declares nothing (no card transfers, no bound on its actions, "
                          "no scoring facts), so nothing about it is proved")
        if game.ranking is not None:
            r = game.ranking
            # the deck and every other parameter of the ranking (its fields), and whether identical copies may tie
            rk = (deck_key(game),
                  tuple(getattr(r, f.name) for f in dataclasses.fields(r) if f.name != "deck"),
                  tuple(getattr(ph, "identical_declared", False) for ph in game.phases))
            for name, q in ranking.queries(game):
                st, w, s = self._run(("rank", name, rk), q)
                yield finding(name, st, s, witness=_decode_cards(game, w))
            t1 = time.perf_counter()
            if rk not in _models:
                keep(_models, rk, ranking.model_tables(game), MODELS_LIMIT)
            ok, w = ranking.engine_agrees(game, _models[rk])
            yield finding("ranking: engine tables agree with the model", "proved" if ok else "counterexample",
                          time.perf_counter() - t1, "checked on every trump context" if ok else
                          "the engine ranks a card differently from the spec", w)
        if game.scoring.pair_ranks:
            t1 = time.perf_counter()
            w = pairs_agree(game)
            yield finding("scoring: engine pair count agrees with the model", "proved" if w is None else
                          "counterexample", time.perf_counter() - t1,
                          "each card used once, on every count of every pair rank", w)
        fm_decode = FactModel(game, __import__("z3").Context()).decode
        missing = game.scoring.undeclared
        for fact in missing:
            yield finding(f"no proof for fact '{fact}'", "counterexample", 0.0,
                          "a scoring table uses it but no part of the game declares it (or its domain)")
        blind = [t.id for t in game.scoring.tables
                 if any(i.name in missing for i in t.inputs) or any(f in missing for r in t.rows for f in r.per)]
        for tid in blind:
            yield finding(f"table checks ({tid})", "counterexample", 0.0,
                          f"not checked: the table uses undeclared facts {sorted(missing)}")
        for prop, tid, q in tables.queries(game):
            if tid in blind:
                continue
            hit_opt = _hit_option(spec, tid)
            amb = self.by_option.get(hit_opt) if hit_opt else None
            # a row dead under the hit policy is the register's only under a reading the register did not decide
            # (which it plays to show its consequences); under the decision it is a defect of the table
            dead_amb = amb if amb is not None and hit_opt is not None and key_of(
                game.options.get(hit_opt)) != key_of(self.decisions.get(amb)) else None
            t = next(x for x in game.scoring.tables if x.id == tid)
            if prop == "table rows never conflict" and t.hit == "unique":
                continue
            can_apply = prop.startswith("table row ") and prop.endswith("can apply")
            st, w, s = refute(q, self.timeout_ms, witness=not can_apply)  # a reachable row shows no witness
            w = fm_decode(w) if w else w
            name = f"{prop} ({tid})"
            if can_apply:
                if st == "counterexample":
                    yield finding(name, "proved", s, "reachable")
                elif st == "proved":
                    yield finding(name, "flagged" if dead_amb else "counterexample", s,
                                  f"dead row under hit policy '{t.hit}'", None, dead_amb)
                else:
                    yield finding(name, st, s)
            elif prop == "table rows never conflict" and st == "counterexample":
                yield finding(name, "flagged" if amb else "counterexample", s,
                              "; ".join(x for x in (f"rows overlap with different results; the hit policy "
                                                    f"'{t.hit}' decides", rows_at(t, w, 2)) if x), w, amb)
            elif st == "counterexample" and prop in ("table complete", "table deterministic"):
                yield finding(name, st, s, rows_at(t, w, 0 if prop == "table complete" else 2), witness=w)
            else:
                yield finding(name, st, s, witness=w)
        if blind:
            why = f"not proved: the tables use undeclared facts {sorted(missing)}"
            yield finding("score bounds", "counterexample", 0.0, why)
            yield finding("termination: match", "counterexample", 0.0, why)
        else:
            st, w, s = refute(scores.bounds_query(game), self.timeout_ms)
            shown = 64  # one more is asked for, to say whether the list is cut
            vals, s2 = enumerate_values(scores.achievable(game), limit=shown + 1, timeout_ms=self.timeout_ms)
            cut = vals is not None and len(vals) > shown
            top: list[Any] | None = None
            if cut:  # the greatest, to show how close the declared upper bound comes
                top, s3 = enumerate_values(scores.achievable(game), limit=1, timeout_ms=self.timeout_ms,
                                           largest=True)
                s2 += s3
            listed = "the achievable values not listed within the time limit" if vals is None else \
                f"achievable {vals}" if not cut else \
                f"the {shown} smallest achievable {vals[:shown]} and more, up to " + \
                (f"{top[0]}" if top else "a greatest not found in the time limit")
            lo, hi = game.hand_points_bounds
            yield finding("score bounds", st, s + s2,
                          f"declared [{lo}, {hi}]; {listed}" if st == "proved" else f"declared [{lo}, {hi}]",
                          fm_decode(w) if w else w)
        pq = scores.pairs_query(game)
        if pq is not None:
            st, w, s = refute(pq, self.timeout_ms)
            yield finding("pairs in a hand", st, s, f"at most {scores.pairs_limit(game)} across all players", w)
        t1 = time.perf_counter()
        hand_st, detail, w = scores.hand_length(game)
        yield finding("termination: hand length", hand_st, time.perf_counter() - t1, detail, w)
        if not blind:
            t1 = time.perf_counter()
            st, detail, w = scores.match_ends(game)
            if st == "proved" and hand_st != "proved":  # the match's proof takes every hand as ending
                st, detail = "flagged", "; ".join(x for x in (detail, "proved for hands that end: whether a hand "
                                                              "ends is not proved (termination: hand length)") if x)
            yield finding("termination: match", st, time.perf_counter() - t1, detail, w)
        _ = t0


def pairs_agree(game: Game) -> dict[str, Any] | None:
    """The engine's pair count against the rule (floor of count/2 per rank), for every count of each rank."""
    d = game.deck
    for r in game.scoring.pair_ranks:
        cards = [c for c in range(d.size) if d.rank_of[c] == r]
        for k in range(len(cards) + 1):
            got = game.scoring.pairs_of(game, d.mask(cards[:k]))
            if got != k // 2:
                return {"cards": d.show(cards[:k]), "engine_pairs": got, "rule_pairs": k // 2}
    return None


def _decode_cards(game: Game, w: dict[str, Any] | None) -> dict[str, Any] | None:
    if not w:
        return w
    d = game.deck
    out: dict[str, Any] = {}
    for k, v in w.items():
        if isinstance(v, int) and ("suit" in k or k in ("trump", "led")):
            out[k] = d.suits[v] if 0 <= v < len(d.suits) else "none"
        elif isinstance(v, int) and "rank" in k:
            out[k] = d.ranks[v] if 0 <= v < len(d.ranks) else v
        else:
            out[k] = v
    return out


def verify(spec: Spec, timeout_ms: int = 10_000) -> list[Finding]:
    """Every finding for every option set of a spec."""
    v = Verifier(spec, timeout_ms)
    out: list[Finding] = []
    for opts in spec.option_sets():
        out.extend(v.findings(opts))
    return out


def deal_groups(spec: Spec) -> list[list[int]]:
    """The spec's option sets (by index in ``option_sets()``) grouped by what the shared proofs depend on
    (the deck, the deals, the seats), largest group first: the unit of work when one spec's proofs are split
    across workers, so that each worker proves a deal once, as :func:`verify` does.

    Sets are grouped by the rule clauses those come from (``deck``, ``players``, ``deal``, ``schedule``), with
    the options resolved: cheap (building a ``Game`` for every option set took five seconds, in the parent,
    before any worker started). Sets whose clauses differ but give the same deal (a ``players`` key that moves
    no card) fall in different groups; the findings are the same whatever the grouping."""
    groups: dict[str, list[int]] = {}
    decls = spec.option_decls
    for i, opts in enumerate(spec.option_sets()):
        rules = resolve(spec.data, decls, complete(decls, opts), spec.file)
        key = json.dumps([rules.get(k) for k in ("deck", "players", "deal", "schedule")], sort_keys=True,
                         default=repr)
        groups.setdefault(key, []).append(i)
    return sorted(groups.values(), key=lambda idx: (-len(idx), idx[0]))


def verify_sets(spec: Spec, indices: list[int], timeout_ms: int = 10_000) -> list[list[Finding]]:
    """The findings of the option sets ``indices`` (of ``option_sets()``), one list per index: the same
    findings :func:`verify` gives for them, but for the time taken, whichever other sets run beside them."""
    v = Verifier(spec, timeout_ms)
    sets = list(spec.option_sets())
    return [list(v.findings(sets[i])) for i in indices]


def failed(findings: list[Finding]) -> list[Finding]:
    """Findings that fail verification (counterexamples and timeouts)."""
    return [f for f in findings if f.status in ("counterexample", "timeout")]
