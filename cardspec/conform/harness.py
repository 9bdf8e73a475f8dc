"""The harness: cardspec and another engine step through the same deals together.

For each hand, both engines start from one explicit deal; at every decision the seat to act and
the legal actions are compared, and the next action is drawn by a seeded RNG from what both allow;
at the end the trick winners and the scores are compared. The first difference ends the hand and is
reported with cardspec's clause for the point (``docs/conformance.md``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..engine.errors import CardspecError, IllegalActionError, OptionError, Source
from ..engine.game import Game
from ..engine.options import parse_value
from ..engine.record import deal_of, record_of, turn_clause
from ..engine.spec import available, load
from ..engine.state import State
from .adapter import Adapter, ConformError, Factory, Unsupported, load_factory
from .report import ActionNote, Disagreement, Report

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "vectors"
"""The project's conformance vectors (``cardspec.vectors``): ``<system>.json``, or ``<system>/*.json``."""
MAX_HANDS = 100_000
_T = TypeVar("_T")


@dataclass(frozen=True)
class HandCase:
    """One hand to run: its deal, where it comes from, and the actions to follow while both engines
    allow them (a vector hand's recorded play; then the seeded RNG chooses)."""

    label: str
    deal: dict[str, Any]
    origin: str
    script: tuple[str, ...] = ()


def game_for(system: str, options: Mapping[str, Any] | None) -> Game:
    """The cardspec game of a system with options; a string value is parsed as on the command line."""
    spec = load(system)
    decls = spec.option_decls
    opts: dict[str, Any] = {}
    for k, v in (options or {}).items():
        if k not in decls:
            raise ConformError(f"unknown option '{k}' for {spec.id}; known: {', '.join(decls) or 'none'}")
        try:
            opts[k] = parse_value(decls[k], v) if isinstance(v, str) else decls[k].check(v)
        except OptionError as exc:
            raise ConformError(str(exc)) from None
    try:
        return Game(spec, opts)
    except OptionError as exc:
        raise ConformError(str(exc)) from None


def vector_cases(game: Game, root: Path = VECTORS) -> list[HandCase]:
    """The deals of the project's vectors for ``game``'s system, each hand on its own, with the
    actions the vector records for it. A system with a round schedule has none (a deal there
    depends on the hand's number), nor does a hand the game cannot start from its deal alone.

    The vectors are read from ``root`` (the checkout's ``docs/vectors``); where that folder is
    absent (an installed package), a bundled system's vectors are made as ``cardspec.vectors``
    makes them, which gives the same playthroughs (``tests/test_vectors.py`` pins them)."""
    if game.schedule is not None:
        return []
    out: list[HandCase] = []
    for where, data in _vector_data(game.id, root):
        try:
            vgame = game_for(game.id, data.get("options"))
        except CardspecError:
            continue
        for pt in data.get("playthroughs", []):
            for hand_no, (deal, script) in enumerate(_vector_hands(vgame, pt)):
                try:
                    game.new_initial_state(None, deals=[deal], hand_limit=1)
                except CardspecError:
                    continue
                out.append(HandCase(f"vector {where} seed {pt.get('seed')} hand {hand_no}", deal, "vectors",
                                    tuple(script)))
    return out


def _vector_data(system: str, root: Path) -> list[tuple[str, dict[str, Any]]]:
    """Each vector file of a system (``<system>.json``, or every file of ``<system>/``) as (name, data)."""
    folder = root / system
    files = sorted(folder.glob("*.json")) if folder.is_dir() else [root / f"{system}.json"]
    found: list[tuple[str, dict[str, Any]]] = []
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("format") == "cardspec-vectors/1":
            found.append((f.name, data))
    if found or root.is_dir() or system not in available():
        return found
    from ..vectors import PLAYTHROUGH_SEEDS, playthrough

    g = Game.from_system(system)
    return [(f"{system}.json", {"options": dict(g.options),
                                "playthroughs": [playthrough(g, s) for s in PLAYTHROUGH_SEEDS]})]


def _vector_hands(vgame: Game, pt: Mapping[str, Any]) -> list[tuple[dict[str, Any], list[str]]]:
    """Each hand of a playthrough: its deal and its actions (replayed under the vector's options;
    a playthrough the engine no longer accepts gives the hands up to that point)."""
    hands: list[tuple[dict[str, Any], list[str]]] = []
    try:
        st = vgame.new_initial_state(pt["seed"])
        hands.append((deal_of(st), []))
        for step in pt["steps"]:
            hands[-1][1].append(step["action"])
            if st.apply_name(step["action"]).hand_ended and not st.is_terminal():
                hands.append((deal_of(st), []))
    except (CardspecError, KeyError, TypeError):
        pass
    return hands


def seeded_cases(game: Game, hands: int, seed: int) -> list[HandCase]:
    """``hands`` seeded deals: the first hand of matches ``seed``, ``seed + 1``, ... (as
    ``game.new_initial_state(seed + i)`` deals it, dealer included)."""
    out: list[HandCase] = []
    for i in range(hands):
        deal = deal_of(game.new_initial_state(seed + i, hand_limit=1))
        try:
            game.new_initial_state(None, deals=[deal], hand_limit=1)
        except CardspecError as exc:
            raise ConformError(f"{game.id} cannot be played one hand at a time from an explicit deal, as the "
                               f"harness does (seed {seed + i}: {exc})") from None
        out.append(HandCase(f"seed {seed + i}", deal, "seeded"))
    return out


def conform(factory: Factory | str, system: str, options: Mapping[str, Any] | None = None, hands: int = 100,
            seed: int = 0, vectors: bool = True) -> Report:
    """Run the other engine's adapter against cardspec on the vector deals (when ``vectors``) and
    ``hands`` seeded deals; deterministic for a seed.

    ``factory`` is a factory or its ``MODULE:NAME``. Raises :class:`ConformError` (bad input) and
    the factory's :class:`Unsupported`; whatever the adapter raises during a hand is a disagreement.
    """
    name = factory if isinstance(factory, str) else _describe(factory)
    make = load_factory(factory) if isinstance(factory, str) else factory
    if not callable(make):
        raise ConformError(f"the adapter factory {name} is not callable")
    if type(hands) is not int or not 0 <= hands <= MAX_HANDS:
        raise ConformError(f"the number of hands must be 0..{MAX_HANDS}, got {hands!r}")
    if type(seed) is not int:
        raise ConformError(f"the seed must be an integer, got {seed!r}")
    game = game_for(system, options)
    cases = (vector_cases(game) if vectors else []) + seeded_cases(game, hands, seed)
    if not cases:
        raise ConformError(f"no hands to run: {game.id} has no usable vectors and -n is 0")
    told = factory_system(game)
    try:
        adapter = make(told, dict(game.options))
    except Unsupported as exc:
        raise Unsupported(f"the adapter factory {name} does not play {told}: {_first_line(exc)}") from None
    except Exception as exc:  # a CardspecError too: it comes from the adapter, not from cardspec's own input
        raise ConformError(f"the adapter factory {name} failed: {type(exc).__name__}: {_first_line(exc)} "
                           f"(an error of the adapter, called with {told!r})") from None
    if not isinstance(adapter, Adapter):
        missing = [m for m in ("new_hand", "legal_actions", "current_seat", "apply", "hand_over", "results")
                   if not callable(getattr(adapter, m, None))]
        raise ConformError(f"the adapter factory {name} returned a {type(adapter).__name__}, which lacks "
                           f"{', '.join(missing)}")
    report = Report(game.id, dict(game.options), {n: d.default for n, d in game.spec.option_decls.items()},
                    seed, name, spec_file=None if game.spec.bundled else game.spec.file)
    for case in cases:
        rng = random.Random(f"conform/{seed}/{case.label}")
        try:
            found = _run_hand(game, adapter, case, report.hands_run, rng)
        except Unsupported as exc:
            report.skipped.append(f"{case.label}: {exc}")
            continue
        report.hands_run += 1
        report.sources[case.origin] = report.sources.get(case.origin, 0) + 1
        if found is None:
            report.hands_agreeing += 1
        else:
            report.disagreements.append(found)
    return report


def factory_system(game: Game) -> str:
    """What the adapter factory is told to play: the system's id for a bundled spec (``"euchre"``), else the
    spec file's absolute path (a spec file may reuse a bundled id with other rules; ``Game.from_system`` and
    ``cardspec.engine.spec.load`` read either)."""
    return game.id if game.spec.bundled else game.spec.file


class _AdapterFailed(Exception):
    """The adapter raised, or answered with something that is not an answer."""


def _call(what: str, fn: Callable[..., _T], *args: Any) -> _T:
    try:
        return fn(*args)
    except Exception as exc:
        raise _AdapterFailed(f"{what} raised {type(exc).__name__}: {_first_line(exc)}") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else ""


def _describe(f: Any) -> str:
    mod, qual = getattr(f, "__module__", None), getattr(f, "__qualname__", None)
    return f"{mod}:{qual}" if mod and qual else repr(f)


def _run_hand(game: Game, adapter: Adapter, case: HandCase, index: int, rng: random.Random) -> Disagreement | None:
    st = game.new_initial_state(None, deals=[case.deal], hand_limit=1)
    played: list[str] = []

    def found(kind: str, message: str, clause: Source | None, cs: Any, other: Any,
              notes: tuple[ActionNote, ...] = ()) -> Disagreement:
        over = st.is_terminal()
        query = getattr(st.comp, "trick_winners", None)
        return Disagreement(index, case.label, len(played), kind, message, clause, cs, other,
                            None if over else st.cur, None if over else st.comp.id,
                            len(query(st)) if callable(query) and not over else None, notes,
                            copy.deepcopy(case.deal), tuple(played), record_of(st, results=False))

    try:
        try:
            adapter.new_hand(copy.deepcopy(case.deal))
        except Unsupported:
            raise
        except Exception as exc:
            raise _AdapterFailed(f"new_hand raised {type(exc).__name__}: {_first_line(exc)}") from exc
        follow = True
        while True:
            over = _as_bool(_call("hand_over()", adapter.hand_over), "hand_over()")
            if st.is_terminal() or over:
                if not (st.is_terminal() and over):
                    return _end_mismatch(game, adapter, st, found)
                break
            seat = _as_seat(game, _call("current_seat()", adapter.current_seat), "current_seat()")
            if seat != st.cur:
                src, why = turn_clause(st)
                return found("seat", f"cardspec has seat {st.cur} to act, the other engine seat {seat}{why}",
                             src, st.cur, seat)
            legal = st.legal_action_names()
            other = _names(game, _call("legal_actions()", adapter.legal_actions))
            if set(other) != set(legal):
                return _legal_mismatch(game, st, legal, other, found)
            if follow and len(played) < len(case.script) and case.script[len(played)] in legal:
                action = case.script[len(played)]
            else:
                follow = False
                action = rng.choice(legal)
            _call(f"apply({action!r})", adapter.apply, action)
            st.apply_name(action)
            played.append(action)
        return _results_mismatch(game, st, _call("results()", adapter.results), found)
    except _AdapterFailed as exc:
        return found("error", f"the adapter failed: {exc}", None, None, str(exc))


def _as_bool(x: Any, what: str) -> bool:
    if isinstance(x, bool) or type(x).__name__ == "bool_":
        return bool(x)
    raise _AdapterFailed(f"{what} returned {x!r}, not a bool")


def _is_int(x: Any) -> bool:
    """An integer (a NumPy integer too), not a bool: ``True`` is no seat and no score."""
    return not isinstance(x, bool) and type(x).__name__ != "bool_" and hasattr(x, "__index__")


def _as_int(x: Any, what: str) -> int:
    if not _is_int(x):
        raise _AdapterFailed(f"{what} returned {x!r}, not a seat number")
    return int(x)


def _as_seat(game: Game, x: Any, what: str) -> int:
    """A seat number of ``game`` (0..n-1, dummy seats included); anything else is no answer."""
    seat = _as_int(x, what)
    if not 0 <= seat < game.num_seats:
        raise _AdapterFailed(f"{what} returned {x!r}, not a seat of {game.id} (0..{game.num_seats - 1})")
    return seat


def _int_list(x: Any, what: str, kind: str) -> list[int]:
    """``x`` as a list of integers (each a ``kind``: a seat number, a score); anything else is no answer,
    naming ``what`` and what it returned."""
    if isinstance(x, str | bytes | Mapping) or not isinstance(x, Iterable):
        raise _AdapterFailed(f"{what} is {x!r}, not a list of {kind}s")
    items = list(x)
    for v in items:
        if not _is_int(v):
            raise _AdapterFailed(f"{what} is {x!r}, not a list of {kind}s ({v!r} is a {type(v).__name__}, "
                                 "not an integer)")
    return [int(v) for v in items]


def _names(game: Game, given: Any) -> list[str]:
    """The other engine's legal actions in cardspec's canonical spelling (``play TD`` is ``play 10D``);
    a name cardspec cannot read is kept as given."""
    if isinstance(given, str | bytes | Mapping) or not isinstance(given, Iterable):
        raise _AdapterFailed(f"legal_actions() returned {given!r}, not a list of action names")
    out: list[str] = []
    for n in given:
        if not isinstance(n, str):
            raise _AdapterFailed(f"legal_actions() lists {n!r}, not an action name")
        try:
            out.append(game.action_name(game.parse_action(n)))
        except (CardspecError, ValueError, IndexError):
            out.append(n)
    if len(set(out)) != len(out):
        dup = sorted({x for x in out if out.count(x) > 1})
        raise _AdapterFailed(f"legal_actions() lists {', '.join(repr(d) for d in dup)} more than once")
    return sorted(out, key=lambda n: _order(game, n))


def _order(game: Game, name: str) -> tuple[int, int, str]:
    """cardspec's order of actions (as ``legal_actions()`` lists them); names it cannot read last."""
    try:
        return (0, game.parse_action(name), "")
    except (CardspecError, ValueError, IndexError):
        return (1, 0, name)


Found = Callable[..., Disagreement]


def _legal_mismatch(game: Game, st: State, legal: list[str], other: list[str], found: Found) -> Disagreement:
    notes: list[ActionNote] = []
    for n in [x for x in other if x not in legal]:
        try:
            a = game.parse_action(n)
        except (CardspecError, ValueError, IndexError) as exc:
            notes.append(ActionNote(n, "other", f"not an action of {game.id}: {exc}", None))
            continue
        try:
            st.check(a)
            notes.append(ActionNote(n, "other", "cardspec accepts it but does not list it as a distinct action",
                                    None))
        except IllegalActionError as exc:
            notes.append(ActionNote(n, "other", exc.reason, exc.source))
    for n in [x for x in legal if x not in other]:
        ph = _allowing_phase(game, st, game.parse_action(n))
        notes.append(ActionNote(n, "cardspec", f"cardspec's '{ph.id}' phase allows it", ph.source))
    parts = []
    extra = [x.action for x in notes if x.allowed_by == "other"]
    missing = [x.action for x in notes if x.allowed_by == "cardspec"]
    if extra:
        parts.append(f"the other engine allows {_list(extra)} that cardspec forbids ({notes[0].reason})")
    if missing:
        parts.append(f"cardspec allows {_list(missing)} that the other engine does not")
    return found("legal", "; ".join(parts), notes[0].clause, legal, other, tuple(notes))


def _allowing_phase(game: Game, st: State, a: int) -> Any:
    """The phase whose clause allows a legal action: the current phase, or a guest phase offering
    its actions on the current phase's turns (euchre's Farmer's Hand during the calling)."""
    kind = game.codec.kind(a)
    if kind in st.comp.codec_kinds():
        return st.comp
    return next((g for g in getattr(st.comp, "guests", []) if kind in g.codec_kinds()), st.comp)


def _list(xs: list[str], most: int = 4) -> str:
    shown = ", ".join(f"'{x}'" for x in xs[:most])
    return shown + (f" and {len(xs) - most} more" if len(xs) > most else "")


def _end_mismatch(game: Game, adapter: Adapter, st: State, found: Found) -> Disagreement:
    if st.is_terminal():
        seat = _as_seat(game, _call("current_seat()", adapter.current_seat), "current_seat()")
        other = _names(game, _call("legal_actions()", adapter.legal_actions))
        r = st.hand_results[-1]
        src = _thrown_in_source(game) if r.get("thrown_in") else game.phases[-1].source
        return found("hand_over", f"cardspec's hand is over ({'thrown in' if r.get('thrown_in') else 'played out'}), "
                     f"but the other engine asks seat {seat!r} to act: {other!r}", src, True, False)
    return found("hand_over", f"the other engine ends the hand; cardspec has seat {st.cur} to act in phase "
                 f"'{st.comp.id}': {_list(st.legal_action_names())}", st.comp.source, False, True)


def _thrown_in_source(game: Game) -> Source | None:
    for ph in game.phases:
        src = getattr(ph, "all_pass_source", None)
        if isinstance(src, Source):
            return src
    return game.match.rotation_source


def _results_mismatch(game: Game, st: State, res: Any, found: Found) -> Disagreement | None:
    if not isinstance(res, Mapping):
        raise _AdapterFailed(f"results() returned {res!r}, not a mapping")
    r = st.hand_results[-1]
    thrown = bool(r.get("thrown_in"))
    other_thrown = _as_bool(res["thrown_in"], "results()['thrown_in']") if "thrown_in" in res else None
    tricks = "trick_winners" in r  # a system with trick play
    for key in ("trick_winners", "scores") if tricks else ("scores",):
        if key not in res:
            raise _AdapterFailed(f"results() has no '{key}'")
    other_w = _int_list(res["trick_winners"], "results()['trick_winners']", "seat number") if tricks else []
    for w in other_w:
        if not 0 <= w < game.num_seats:
            raise _AdapterFailed(f"results()['trick_winners'] is {res['trick_winners']!r}: {w} is not a seat of "
                                 f"{game.id} (0..{game.num_seats - 1})")
    other_s = _int_list(res["scores"], "results()['scores']", "score")
    if len(other_s) != len(r["scores"]):
        raise _AdapterFailed(f"results()['scores'] is {res['scores']!r}: {len(other_s)} scores, but {game.id} has "
                             f"{len(r['scores'])} scoring entities")
    if other_thrown is not None and other_thrown != thrown:
        return found("thrown_in", f"cardspec {'throws the hand in' if thrown else 'plays the hand'}, the other "
                     f"engine {'throws it in' if other_thrown else 'plays it'}", _thrown_in_source(game),
                     thrown, other_thrown)
    winners = list(r.get("trick_winners", []))
    if tricks and winners != other_w:
        ph = next((p for p in game.result_phases if "trick_winners" in p.result_fields(st)), game.phases[-1])
        t = next((i for i, (a, b) in enumerate(zip(winners, other_w, strict=False)) if a != b), None)
        msg = f"trick {t}: cardspec gives the trick to seat {winners[t]}, the other engine to seat {other_w[t]}" \
            if t is not None else f"cardspec has {len(winners)} tricks won, the other engine {len(other_w)}"
        return found("trick_winners", msg, ph.result_source("trick_winners"), winners, other_w)
    scores = list(r["scores"])
    if scores != other_s:
        return _score_mismatch(game, r, scores, other_s, found)
    return None


def _score_mismatch(game: Game, r: Mapping[str, Any], scores: list[Any], other: list[Any],
                    found: Found) -> Disagreement:
    """The row of the scoring table that gives the first differing entity its points (as
    ``cardspec.engine.record`` cites a wrong score), with the facts that select it."""
    e = next((i for i, (a, b) in enumerate(zip(scores, other, strict=False)) if a != b), 0)
    src: Source | None = game.scoring.tables[0].source if game.scoring.tables else None
    how = ""
    facts = r.get("facts")
    if facts is not None and not r.get("thrown_in") and e < len(facts):
        src, shown = game.scoring.cite(facts[e])
        how = " (" + ", ".join(f"{n} {v}" for n, v in shown.items()) + ")"
    team = game.teams[e] if e < len(game.teams) else ()
    who = f"team {e} (seats {', '.join(map(str, team))})" if len(team) > 1 else f"seat {team[0] if team else e}"
    mine, theirs = (scores[e] if e < len(scores) else None), (other[e] if e < len(other) else None)
    return found("scores", f"cardspec scores {scores}, the other engine {other}: {who} gets {mine} in cardspec{how}, "
                 f"{theirs} in the other engine", src, scores, other)
