"""The harness: cardspec and another engine step through the same deals together.

For each hand, both engines start from one explicit deal; at every decision the seat to act and
the legal actions are compared, and the next action is drawn by a seeded RNG from what both allow;
at the end the trick winners and the scores are compared. The first difference ends the hand and is
reported with cardspec's clause for the point (``docs/conformance.md``).
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from ..engine.bulk import play_stepped
from ..engine.errors import CardspecError, IllegalActionError, OptionError, RecordError, Source
from ..engine.game import Game
from ..engine.options import parse_value
from ..engine.record import current_deal, record_of, turn_clause
from ..engine.spec import available, load
from ..engine.state import State
from .adapter import Adapter, ConformError, Factory, Unsupported, load_factory
from .report import ActionNote, Disagreement, Report

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "vectors"
"""The project's conformance vectors (``cardspec.vectors``): ``<system>.json``, or ``<system>/*.json``."""
MAX_HANDS = 100_000
HAND_TIMEOUT = 60.0
"""The default time limit, in seconds, of the adapter's calls in one hand (``--hand-timeout``)."""
SEEDED_SPAN = 4
"""Seeded case ``i`` is hand ``i % SEEDED_SPAN`` of its match (:func:`seeded_cases`): one in four is a first hand."""
NOTE_LIMIT = 20
"""At most this many actions of each side get a note (a reason and a clause) in a ``legal`` disagreement; the
message and the report's lines name how many more there are."""
ALARM_REPEAT = 0.5
"""Seconds between further alarms while an adapter call that is past its time goes on (it swallowed one)."""
_T = TypeVar("_T")


@dataclass(frozen=True)
class HandCase:
    """One hand to run: its deal, where it comes from, and the actions to follow while both engines
    allow them (a vector hand's recorded play; then the seeded RNG chooses)."""

    label: str
    deal: dict[str, Any]
    origin: str
    script: tuple[str, ...] = ()
    start: Mapping[str, Any] | None = None
    """Where the match stands at the hand's start, in the record form of ``start`` (``docs/records.md``:
    ``hand``, ``dealer``, ``totals``, ``extra_hand``), for a hand that depends on it: the hand is run only with
    an adapter that has ``new_hand_in_match(deal, start)``. None: the hand is the same from its deal alone."""
    needs: str = ""
    """For a hand with a ``start``: how it differs from its deal alone (the report's reason when it is left out)."""
    fallback: HandCase | None = None
    """For a hand with a ``start``: the case run instead with an adapter that cannot start a hand mid-match (a
    seeded later hand's match's first hand); None: the hand is left out then (and listed)."""


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


def vector_cases(game: Game, root: Path = VECTORS, left_out: list[str] | None = None) -> list[HandCase]:
    """The deals of the project's vectors for ``game``'s system, each hand on its own, with the
    actions the vector records for it.

    A hand is compared as cardspec plays it within its match: the recorded play is replayed (under the
    vector's options) from the hand's deal alone and within the match, and the seat to act, the legal
    actions and the results compared at every step. A hand the same both ways is run from its deal alone. A
    hand that depends on the match state (a rule that reads the running totals, a round of a round schedule
    after the first) gets the match's ``start`` (hand number, dealer, totals) when cardspec, started from
    that deal and start, plays it as within the match: it is run only with an adapter that can start a hand
    mid-match (the start gives what the hands before left that a rule of it reads, ``previous``: the previous
    hand's losers, where a first lead goes left of them; each player's run of drop-outs, with a limit on
    consecutive drop-outs). Any other
    hand is left out (a deal the requested options cannot start), and added to ``left_out`` (when given) as
    ``label: why``.

    The vectors are read from ``root`` (the checkout's ``docs/vectors``); where that folder is
    absent (an installed package), a bundled system's vectors are made as ``cardspec.vectors``
    makes them, which gives the same playthroughs (``tests/test_vectors.py`` pins them)."""
    out: list[HandCase] = []
    for where, data in _vector_data(game.id, root):
        try:
            vgame = game_for(game.id, data.get("options"))
        except CardspecError:
            continue
        for pt in data.get("playthroughs", []):
            for hand_no, (deal, script, at) in enumerate(_vector_hands(vgame, pt)):
                label = f"vector {where} seed {pt.get('seed')} hand {hand_no}"
                start: dict[str, Any] | None = None
                why = _match_dependence(vgame, at, deal, script, None)
                if why is not None:
                    still = _match_dependence(vgame, at, deal, script, _start_of(at))
                    if still is not None:
                        why = still  # the match's start does not carry what decides it
                    else:  # what the requested options' rules read of the hands before (``previous``)
                        start = _start_of(at, game)
                try:
                    if why is None or start is not None:
                        game.new_initial_state(None, deals=[deal], start=start, hand_limit=1)
                except CardspecError as exc:
                    how = "alone" if start is None else "and the match's start"
                    why, start = f"the options asked for cannot start it from its deal {how}: {_first_line(exc)}", None
                if why is not None and start is None:
                    if left_out is not None:
                        left_out.append(f"{label}: {why}")
                    continue
                out.append(HandCase(label, deal, "vectors", tuple(script), start, why or ""))
    return out


def _start_of(at: State, game: Game | None = None) -> dict[str, Any]:
    """The record form of where the match ``at`` stands at the start of a hand (``start`` in ``docs/records.md``),
    for ``game`` (by default ``at``'s own): its ``previous`` gives what the rules of ``game``, under its options, read
    of the hands before (a vector's hand is compared under the vector's options and run under those asked for)."""
    start: dict[str, Any] = {"hand": at.hand_no, "dealer": at.dealer, "totals": list(at.counters),
                             "extra_hand": at.extra_hand}
    if at.extra_hand and at.contenders:
        start["contenders"] = list(at.contenders)
    if at.hand_no > 0:  # what the hands before left that a rule of this one reads (``start.previous``)
        prev: dict[str, Any] = {}
        for ph in (game or at.game).phases:
            prev.update(ph.previous_values(at))
        if prev:
            start["previous"] = prev
    return start


def _match_dependence(vgame: Game, at: State, deal: Mapping[str, Any], script: list[str],
                      start: Mapping[str, Any] | None) -> str | None:
    """Why a vector hand started from its deal (and ``start``, if given) is not the hand its match plays
    (None: it is the same).

    ``at`` is the match at the start of the hand. Both are stepped through the recorded play, comparing
    the seat to act, the legal actions, whether the hand is over and its results; from its deal alone, a
    round schedule's hand after the first differs at once (its deal and its rules go with its number)."""
    if start is None and vgame.schedule is not None and at.hand_no != 0:
        return (f"it is hand {at.hand_no} of the match, and a round schedule gives each hand its own deal and "
                "rules, while from its deal alone it is the match's first")
    other = "from its deal alone" if start is None else "from its deal and the match's start"
    try:
        alone = vgame.new_initial_state(None, deals=[deal], start=start, hand_limit=1)
    except CardspecError as exc:
        return f"it cannot be started {other}: {_first_line(exc)}"
    match = at.copy()
    before = len(match.hand_results)
    for i in range(len(script) + 1):
        done_alone, done_match = alone.is_terminal(), len(match.hand_results) > before
        if done_alone or done_match:
            if done_alone != done_match:
                where = "in its match" if done_match else other
                return f"after action {i} the hand is over only {where}"
            ra, rm = alone.hand_results[-1], match.hand_results[before]
            for key in ("thrown_in", "trick_winners", "scores"):
                if ra.get(key) != rm.get(key):
                    return f"its {key} are {rm.get(key)} in its match, {ra.get(key)} {other}"
            return None
        if alone.cur != match.cur:
            return f"at action {i} seat {match.cur} acts in its match, seat {alone.cur} {other}"
        la, lm = alone.legal_action_names(), match.legal_action_names()
        if la != lm:
            only_m, only_a = [x for x in lm if x not in la], [x for x in la if x not in lm]
            return (f"at action {i} the legal actions of seat {match.cur} differ: {_list(only_m) or 'none'} only in "
                    f"its match, {_list(only_a) or 'none'} only {other}")
        if i == len(script):
            return None  # the recorded play stops before the hand ends: it agrees as far as it goes
        try:
            match.apply_name(script[i])
            alone.apply_name(script[i])
        except CardspecError as exc:
            return f"its recorded action {i} cannot be followed: {_first_line(exc)}"
    return None


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


def _vector_hands(vgame: Game, pt: Mapping[str, Any]) -> list[tuple[dict[str, Any], list[str], State]]:
    """Each hand of a playthrough: its deal, its actions and the match at its start (replayed under the
    vector's options; a playthrough the engine no longer accepts gives the hands up to that point)."""
    hands: list[tuple[dict[str, Any], list[str], State]] = []
    try:
        st = vgame.new_initial_state(pt["seed"], keep_deals=True)  # the deals as dealt (current_deal)
        hands.append((current_deal(st), [], st.copy()))
        for step in pt["steps"]:
            hands[-1][1].append(step["action"])
            if st.apply_name(step["action"]).hand_ended and not st.is_terminal():
                hands.append((current_deal(st), [], st.copy()))
    except (CardspecError, KeyError, TypeError):
        pass
    return hands


def seeded_cases(game: Game, hands: int, seed: int) -> list[HandCase]:
    """``hands`` seeded deals: case ``i`` is hand ``i % SEEDED_SPAN`` of match ``seed + i`` (as
    ``game.new_initial_state(seed + i)`` deals it, dealer included; the hands before it played by uniformly
    random legal actions, :func:`cardspec.engine.bulk.play_stepped`), so that later hands are compared as well as
    first ones: the dealer's turn come round, running totals, a round schedule's later rounds. A later hand is
    run as its match plays it (:func:`_match_dependence`, with the match's play of it as the script): from its
    deal alone where that is the same, else from its deal and the match's ``start``, with the match's first
    hand as the ``fallback`` for an adapter that cannot start a hand mid-match; a hand that no ``start``
    carries, and a match over before that hand, give the match's first hand instead."""
    out: list[HandCase] = []
    for i in range(hands):
        s = seed + i
        deal = current_deal(game.new_initial_state(s, hand_limit=1, keep_deals=True))
        try:
            game.new_initial_state(None, deals=[deal], hand_limit=1)
        except CardspecError as exc:
            raise ConformError(f"{game.id} cannot be played one hand at a time from an explicit deal, as the "
                               f"harness does (seed {s}: {exc})") from None
        first = HandCase(f"seed {s}", deal, "seeded")
        later = _later_seeded(game, s, i % SEEDED_SPAN, first) if i % SEEDED_SPAN else None
        out.append(later or first)
    return out


def _later_seeded(game: Game, s: int, k: int, first: HandCase) -> HandCase | None:
    """Hand ``k`` of seeded match ``s`` as a case (:func:`seeded_cases`), or None to run the match's first."""
    st, _ = play_stepped(game, s, "random", hand_limit=k + 1)
    hands = _vector_hands(game, {"seed": s, "steps": record_of(st, results=False)["actions"]})
    if len(hands) <= k:
        return None  # the match is over before hand k
    deal, script, at = hands[k]
    label = f"seed {s} hand {k}"
    why = _match_dependence(game, at, deal, script, None)
    if why is None:
        return HandCase(label, deal, "seeded", tuple(script))
    start = _start_of(at)
    if _match_dependence(game, at, deal, script, start) is not None:
        return None
    return HandCase(label, deal, "seeded", tuple(script), start, why, first)


def conform(factory: Factory | str, system: str, options: Mapping[str, Any] | None = None, hands: int = 100,
            seed: int = 0, vectors: bool = True, hand_timeout: float | None = HAND_TIMEOUT) -> Report:
    """Run the other engine's adapter against cardspec on the vector deals (when ``vectors``) and
    ``hands`` seeded deals; deterministic for a seed.

    ``factory`` is a factory or its ``MODULE:NAME``. Raises :class:`ConformError` (bad input) and
    the factory's :class:`Unsupported`; whatever the adapter raises during a hand is a disagreement,
    ``SystemExit`` included (``KeyboardInterrupt`` stops the run). The adapter's calls in one hand may take
    ``hand_timeout`` seconds in all (None: no limit); the factory call as long. While adapter code runs
    (its import too), what it prints to stdout goes to stderr.
    """
    name = factory if isinstance(factory, str) else _describe(factory)
    if type(hands) is not int or not 0 <= hands <= MAX_HANDS:
        raise ConformError(f"the number of hands must be 0..{MAX_HANDS}, got {hands!r}")
    if type(seed) is not int:
        raise ConformError(f"the seed must be an integer, got {seed!r}")
    if hand_timeout is not None and (not isinstance(hand_timeout, int | float) or isinstance(hand_timeout, bool)
                                     or not math.isfinite(hand_timeout) or hand_timeout <= 0):
        raise ConformError(f"the time limit of a hand must be a positive number of seconds, got {hand_timeout!r}")
    with contextlib.redirect_stdout(sys.stderr), _Caller(hand_timeout) as call:
        make = load_factory(factory) if isinstance(factory, str) else factory
        if not callable(make):
            raise ConformError(f"the adapter factory {name} is not callable")
        game = game_for(system, options)
        left_out: list[str] = []
        cases = (vector_cases(game, left_out=left_out) if vectors else []) + seeded_cases(game, hands, seed)
        if not cases:
            why = f"{game.id} has no usable vectors" if vectors else "the vectors are left out (--no-vectors)"
            raise ConformError(f"no hands to run: {why} and -n is 0")
        told = factory_system(game)
        call.new_hand()
        try:
            adapter = call("the factory", make, told, dict(game.options))
        except _AdapterFailed as exc:
            cause = exc.__cause__
            if isinstance(cause, Unsupported):
                raise Unsupported(f"the adapter factory {name} does not play {told}: {_first_line(cause)}") from None
            if cause is None:  # the time limit
                raise ConformError(f"the adapter factory {name} did not return within {hand_timeout:g} s "
                                   f"(--hand-timeout; called with {told!r})") from None
            # a CardspecError too: it comes from the adapter, not from cardspec's own input
            raise ConformError(f"the adapter factory {name} failed: {type(cause).__name__}: {_first_line(cause)} "
                               f"(an error of the adapter, called with {told!r})") from None
        if not isinstance(adapter, Adapter):
            missing = [m for m in ("new_hand", "legal_actions", "current_seat", "apply", "hand_over", "results")
                       if not callable(getattr(adapter, m, None))]
            raise ConformError(f"the adapter factory {name} returned a {type(adapter).__name__}, which lacks "
                               f"{', '.join(missing)}")
        report = Report(game.id, dict(game.options), {n: d.default for n, d in game.spec.option_decls.items()},
                        seed, name, spec_file=None if game.spec.bundled else game.spec.file, left_out=left_out)
        mid_match = callable(getattr(adapter, "new_hand_in_match", None))
        for case in cases:
            if case.start is not None and not mid_match and case.fallback is not None:
                case = case.fallback
            if case.start is not None and not mid_match:
                report.left_out.append(f"{case.label}: {case.needs}; the adapter has no new_hand_in_match(deal, "
                                       "start) to start it where its match stands")
                continue
            rng = random.Random(f"conform/{seed}/{case.label}")
            call.new_hand()
            try:
                found = _run_hand(game, adapter, case, report.hands_run, rng, call)
            except Unsupported as exc:
                report.skipped.append(f"{case.label}: {exc}")
                continue
            except _NeedsSeed as exc:
                report.left_out.append(f"{case.label}: {exc}")
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


class _NeedsSeed(Exception):
    """cardspec's side of a hand needs chance beyond its deal (a reshuffle of the discards), which a hand started
    from an explicit deal, with no seed, cannot have: the hand is left out, with the message as its reason."""


class _AdapterFailed(Exception):
    """The adapter raised, or answered with something that is not an answer (``__cause__``: what it raised;
    None for an answer of the wrong type or a call past the time limit)."""


class _Timeout(BaseException):
    """Raised by the SIGALRM handler inside an adapter call past the hand's time limit: a BaseException, so that
    an adapter's ``except Exception`` does not swallow it."""


class _Caller:
    """Calls into the adapter: an exception it raises (``SystemExit`` too) becomes :class:`_AdapterFailed`, and
    the calls of one hand share a time limit (:meth:`new_hand` starts it again).

    Where the platform has ``signal.setitimer`` and this is the main thread, each call is interrupted by
    SIGALRM when the hand's time runs out, again every :data:`ALARM_REPEAT` seconds should the adapter swallow
    it (code that never returns to the interpreter, a C call blocking for ever, cannot be interrupted so);
    elsewhere a call that took too long is reported when it returns. As a context manager it installs the
    SIGALRM handler and, on leaving, cancels the alarm and restores the previous handler and any timer that
    was running."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.left = limit
        self.alarm = limit is not None and hasattr(signal, "setitimer") and \
            threading.current_thread() is threading.main_thread()
        self.active = False
        self._old: Any = None
        self._old_timer: tuple[float, float] = (0.0, 0.0)
        self._entered = 0.0

    def __enter__(self) -> _Caller:
        if self.alarm:
            self._old = signal.signal(signal.SIGALRM, self._ring)
            self._old_timer = signal.setitimer(signal.ITIMER_REAL, 0)
            self._entered = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.alarm:
            self.active = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old if self._old is not None else signal.SIG_DFL)
            delay, interval = self._old_timer
            if delay > 0:  # a timer someone else set: it goes on, less the time spent here
                signal.setitimer(signal.ITIMER_REAL, max(delay - (time.monotonic() - self._entered), 1e-3),
                                 interval)

    def _ring(self, signum: int, frame: FrameType | None) -> None:
        if self.active:  # only inside an adapter call: a signal delivered late does nothing
            raise _Timeout()

    def new_hand(self) -> None:
        """Start a hand's (or the factory call's) time limit afresh."""
        self.left = self.limit

    def late(self, what: str) -> str:
        return (f"{what} did not return within the time limit of {self.limit:g} s for the adapter's calls in one "
                "hand (--hand-timeout)")

    def __call__(self, what: str, fn: Callable[..., _T], *args: Any) -> _T:
        left = self.left
        if left is not None and left <= 0:
            raise _AdapterFailed(self.late(what))
        start = time.monotonic()
        try:
            try:
                if self.alarm and left is not None:
                    self.active = True
                    signal.setitimer(signal.ITIMER_REAL, left, ALARM_REPEAT)
                out = fn(*args)
            finally:
                if self.alarm:
                    self.active = False
                    signal.setitimer(signal.ITIMER_REAL, 0)
        except _Timeout:
            left = None
            self.left = 0.0
            raise _AdapterFailed(self.late(what)) from None
        except (Exception, SystemExit) as exc:  # an adapter's sys.exit() is its failure, not the run's end
            raise _AdapterFailed(f"{what} raised {type(exc).__name__}: {_first_line(exc)}") from exc
        finally:
            if left is not None:
                self.left = max(0.0, left - (time.monotonic() - start))
        if left is not None and self.left is not None and self.left <= 0:  # no alarm here: it ran past the limit
            raise _AdapterFailed(self.late(what))
        return out


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else ""


def _describe(f: Any) -> str:
    mod, qual = getattr(f, "__module__", None), getattr(f, "__qualname__", None)
    return f"{mod}:{qual}" if mod and qual else repr(f)


def _run_hand(game: Game, adapter: Adapter, case: HandCase, index: int, rng: random.Random,
              call: _Caller) -> Disagreement | None:
    st = game.new_initial_state(None, deals=[case.deal], start=case.start, hand_limit=1)
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
            if case.start is None:
                call("new_hand", adapter.new_hand, copy.deepcopy(case.deal))
            else:
                in_match: Callable[..., None] = getattr(adapter, "new_hand_in_match", None) or _missing
                call("new_hand_in_match", in_match, copy.deepcopy(case.deal), copy.deepcopy(dict(case.start)))
        except _AdapterFailed as exc:
            if isinstance(exc.__cause__, Unsupported):
                raise exc.__cause__ from None
            raise
        follow = True
        while True:
            over = _as_bool(call("hand_over()", adapter.hand_over), "hand_over()")
            if st.is_terminal() or over:
                if not (st.is_terminal() and over):
                    return _end_mismatch(game, adapter, st, found, call)
                break
            seat = _as_seat(game, call("current_seat()", adapter.current_seat), "current_seat()")
            if seat != st.cur:
                src, why = turn_clause(st)
                return found("seat", f"cardspec has seat {st.cur} to act, the other engine seat {seat}{why}",
                             src, st.cur, seat)
            legal = st.legal_action_names()
            other = _names(game, call("legal_actions()", _listed, adapter.legal_actions), st, legal)
            if set(other) != set(legal):
                return _legal_mismatch(game, st, legal, other, found)
            if follow and len(played) < len(case.script) and case.script[len(played)] in legal:
                action = case.script[len(played)]
            else:
                follow = False
                action = rng.choice(legal)
            call(f"apply({action!r})", adapter.apply, action)
            try:
                st.apply_name(action)
            except RecordError as exc:
                if exc.path != "seed":
                    raise
                raise _NeedsSeed(f"after action {len(played)} ('{action}') cardspec needs a chance event its deal "
                                 "does not give (the discards shuffled again when the stock runs out), which a "
                                 "hand started from its deal cannot have; the engines agreed up to there") from None
            played.append(action)
        return _results_mismatch(game, st, call("results()", adapter.results), found)
    except _AdapterFailed as exc:
        return found("error", f"the adapter failed: {exc}", None, None, str(exc))
    except _Timeout:  # an alarm delivered just as an adapter call ended
        text = call.late("an adapter call")
        return found("error", f"the adapter failed: {text}", None, None, text)


def _missing(*args: Any) -> None:
    raise AttributeError("the adapter has no new_hand_in_match")


def _listed(legal_actions: Callable[[], Any]) -> Any:
    """What ``legal_actions()`` returned, an iterator or generator read to the end (so that what it raises, or a
    hang in it, is the call's); a string, a mapping or no iterable as it is (:func:`_names` refuses it)."""
    given = legal_actions()
    if isinstance(given, str | bytes | Mapping | list) or not isinstance(given, Iterable):
        return given
    return list(given)


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


def _names(game: Game, given: Any, st: State | None = None, legal: Iterable[str] = ()) -> list[str]:
    """The other engine's legal actions in cardspec's canonical spelling (``play TD`` is ``play 10D``), in
    cardspec's order; a name cardspec cannot read is kept as given, and comes last. Each name is read once.

    Copies of one card are one choice: an action naming another copy of a card than cardspec's list names
    (``play QH#2`` for ``play QH#1``, when the seat holds both) is read as the action cardspec lists for it
    (its phase's ``representative``), so that an engine that lists every copy conforms; a name given twice
    is still an invalid answer."""
    if isinstance(given, str | bytes | Mapping) or not isinstance(given, Iterable):
        raise _AdapterFailed(f"legal_actions() returned {_short_repr(given)}, not a list of action names")
    read: list[tuple[str, int | None]] = []
    for n in given:
        if not isinstance(n, str):
            raise _AdapterFailed(f"legal_actions() lists {_short_repr(n)}, not an action name")
        try:
            a = game.parse_action(n)
            read.append((game.action_name(a), a))
        except (CardspecError, ValueError, IndexError):
            read.append((n, None))
    out = [n for n, _ in read]
    if len(set(out)) != len(out):
        dup = sorted(x for x, k in Counter(out).items() if k > 1)
        shown = _list(dup) if len(dup) <= 4 else f"{len(dup)} names ({_list(dup)})"
        raise _AdapterFailed(f"legal_actions() lists {shown} more than once")
    listed = set(legal)
    if st is not None and listed and game.deck.has_copies and st.cur >= 0:
        for i, (n, given_a) in enumerate(read):
            if n in listed or given_a is None:
                continue
            rep = st.comp.representative(st, given_a)
            if rep != given_a and game.action_name(rep) in listed:
                read[i] = (game.action_name(rep), rep)
        read = list(dict(read).items())  # two copies read as one action: listed once
    read.sort(key=lambda na: (0, na[1], "") if na[1] is not None else (1, 0, na[0]))
    return [n for n, _ in read]


def _short_repr(x: Any, most: int = 300) -> str:
    text = repr(x)
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


Found = Callable[..., Disagreement]


def _legal_mismatch(game: Game, st: State, legal: list[str], other: list[str], found: Found) -> Disagreement:
    """The actions only one side allows, the first :data:`NOTE_LIMIT` of each side with cardspec's reason."""
    legal_set, other_set = set(legal), set(other)
    extra = [x for x in other if x not in legal_set]
    missing = [x for x in legal if x not in other_set]
    notes: list[ActionNote] = []
    for n in extra[:NOTE_LIMIT]:
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
    for n in missing[:NOTE_LIMIT]:
        a = game.parse_action(n)
        ph = _allowing_phase(game, st, a)
        notes.append(ActionNote(n, "cardspec", f"cardspec's '{ph.id}' phase allows it", ph.allow_source(st, a)))
    parts = []
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


def _end_mismatch(game: Game, adapter: Adapter, st: State, found: Found, call: _Caller) -> Disagreement:
    if st.is_terminal():
        seat = _as_seat(game, call("current_seat()", adapter.current_seat), "current_seat()")
        other = _names(game, call("legal_actions()", _listed, adapter.legal_actions))
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
        # the hand was the state's only one (hand_limit 1): its history and trick state stay as the hand left them
        src = ph.trick_source(st, t) if t is not None else ph.result_source("trick_winners")
        return found("trick_winners", msg, src, winners, other_w)
    scores = list(r["scores"])
    if scores != other_s:
        return _score_mismatch(game, r, scores, other_s, found)
    return None


def _score_mismatch(game: Game, r: Mapping[str, Any], scores: list[Any], other: list[Any],
                    found: Found) -> Disagreement:
    """The row of the scoring tables that accounts for the other engine's score of the first differing entity
    (:meth:`~cardspec.engine.scoring.Scoring.cite`, as ``cardspec.engine.record`` cites a wrong score), with the
    facts that select it."""
    e = next((i for i, (a, b) in enumerate(zip(scores, other, strict=False)) if a != b), 0)
    src: Source | None = game.scoring.tables[0].source if game.scoring.tables else None
    how = ""
    facts = r.get("facts")
    if facts is not None and not r.get("thrown_in") and e < len(facts):
        src, shown = game.scoring.cite(facts[e], other[e] if e < len(other) else None)
        how = " (" + ", ".join(f"{n} {v}" for n, v in shown.items()) + ")"
    team = game.teams[e] if e < len(game.teams) else ()
    who = f"team {e} (seats {', '.join(map(str, team))})" if len(team) > 1 else f"seat {team[0] if team else e}"
    mine, theirs = (scores[e] if e < len(scores) else None), (other[e] if e < len(other) else None)
    return found("scores", f"cardspec scores {scores}, the other engine {other}: {who} gets {mine} in cardspec{how}, "
                 f"{theirs} in the other engine", src, scores, other)
