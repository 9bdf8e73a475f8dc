"""The generic property suite: written once, run on every spec and every option value.

For random legal play (hypothesis chooses seeds and the opening choices; uniform
random choices follow, and after ``RANDOM_ACTIONS`` the rule bot finishes the
match), after every action: each card is in exactly one place; deal sizes are right after each deal;
``legal_actions()`` is non-empty until the match ends; every legal action
applies and sampled illegal ones are rejected; hand scores stay within the
spec's bounds; the record replays to the same match, byte for byte.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from cardspec.engine import invariants as inv
from cardspec.engine.bots import BOTS, RANDOM_ACTIONS
from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.options import key_of
from cardspec.engine.record import dumps, record_of, replay
from cardspec.engine.spec import available, load

CASES = [(sid, opts) for sid in available() for opts in load(sid).option_sets()]


def _id(case: tuple[str, dict[str, Any]]) -> str:
    sid, opts = case
    return sid + "[" + ",".join(f"{k}={key_of(v)}" for k, v in opts.items()) + "]"


LONG_SCHEDULE = 4
"""Specs whose round schedule is longer than this run a quarter of the examples (at least 2) in the
default profile: each of their matches plays every round of the schedule. The soak profile runs all."""


def _examples(game: Game) -> int:
    full = settings.default.max_examples
    if os.environ.get("CARDSPEC_SOAK") or game.schedule is None or len(game.schedule) <= LONG_SCHEDULE:
        return full
    return max(2, full // 4)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_random_matches_keep_every_invariant(case: tuple[str, dict[str, Any]]) -> None:
    sid, opts = case
    game = Game.from_system(sid, opts)
    bot = BOTS["rule"]

    @settings(max_examples=_examples(game))
    @given(seed=hs.integers(0, 2**31 - 1), data=hs.data())
    def one(seed: int, data: hs.DataObject) -> None:
        rng = random.Random(seed)
        finish = bot(random.Random(seed + 1))

        def choose(st: Any, legal: list[int]) -> int:
            if len(st.history) < 40:  # hypothesis drives the opening, where the rules branch most
                return legal[data.draw(hs.integers(0, len(legal) - 1))]
            if len(st.history) < RANDOM_ACTIONS:
                return legal[rng.randrange(len(legal))]
            return finish(st, legal)

        rep = inv.checked_match(game.new_initial_state(seed), choose, rng, full=True)
        assert not rep.violations, rep.violations
        assert rep.state.is_terminal() and rep.state.winners

    one()


@pytest.mark.parametrize("sid", list(available()))
def test_every_option_value_is_covered(sid: str) -> None:
    """Each declared option value (int ranges: both ends and the default) is in some option set."""
    spec = load(sid)
    covered = {(k, key_of(v)) for opts in spec.option_sets() for k, v in opts.items()}
    for name, d in spec.option_decls.items():
        for v in d.sample_values():
            assert v == d.default or (name, key_of(v)) in covered


@pytest.mark.parametrize("sid", list(available()))
def test_only_with_readings_are_never_played_alone(sid: str) -> None:
    """An ambiguity registered ``only_with`` plays its other readings only with its ``with_options``."""
    spec = load(sid)
    for a in spec.ambiguities:
        if not a.only_with:
            continue
        for opts in spec.option_sets():
            if a.option in opts and key_of(opts[a.option]) != a.decision:
                assert all(key_of(opts.get(k)) == key_of(v) for k, v in a.with_options.items()), (a.id, opts)


class MatchMachine(RuleBasedStateMachine):
    """A stateful machine over every system: random actions, copies and illegal probes."""

    def __init__(self) -> None:
        super().__init__()
        self.st: Any = None
        self.shadow: Any = None

    @precondition(lambda self: self.st is None or self.st.is_terminal())
    @rule(sid=hs.sampled_from(list(available())), seed=hs.integers(0, 10**6))
    def start(self, sid: str, seed: int) -> None:
        self.st = Game.from_system(sid).new_initial_state(seed)

    @precondition(lambda self: self.st is not None and not self.st.is_terminal())
    @rule(i=hs.integers(0, 10**6))
    def act(self, i: int) -> None:
        legal = self.st.legal_actions()
        self.st.apply(legal[i % len(legal)])

    @precondition(lambda self: self.st is not None and not self.st.is_terminal())
    @rule(i=hs.integers(0, 10**6))
    def copy_is_independent(self, i: int) -> None:
        before = dumps(record_of(self.st))
        c = self.st.copy()
        legal = c.legal_actions()
        c.apply(legal[i % len(legal)])
        assert dumps(record_of(self.st)) == before
        assert len(c.history) == len(self.st.history) + 1

    @precondition(lambda self: self.st is not None and not self.st.is_terminal())
    @rule(i=hs.integers(0, 10**6))
    def illegal_is_rejected(self, i: int) -> None:
        # not legal, and not another copy of a listed card either (naming either copy is the same play)
        pool = [a for a in inv.simple_actions(self.st) if not self.st.can_apply(a)]
        a = pool[i % len(pool)]
        n = len(self.st.history)
        with pytest.raises(IllegalActionError):
            self.st.apply(a)
        assert len(self.st.history) == n

    @precondition(lambda self: self.st is not None and not self.st.is_terminal())
    @rule(a=hs.one_of(hs.integers(-2**40, 2**40), hs.integers(0, 2**20)))
    def any_int_is_refused_cleanly(self, a: int) -> None:
        """Any int at all: legal, or refused with IllegalActionError leaving the position as it was."""
        if self.st.can_apply(a):
            return
        before = (dumps(record_of(self.st)), self.st.observation(self.st.current_player()))
        with pytest.raises(IllegalActionError):
            self.st.apply(a)
        assert (dumps(record_of(self.st)), self.st.observation(self.st.current_player())) == before

    @invariant()
    def conserved(self) -> None:
        if self.st is not None:
            assert inv.conservation(self.st) == []

    @invariant()
    def live_until_over(self) -> None:
        if self.st is not None:
            assert bool(self.st.legal_actions()) != self.st.is_terminal()

    @invariant()
    def scores_in_bounds(self) -> None:
        if self.st is not None:
            assert inv.score_bounds(self.st) == []

    @invariant()
    def replays(self) -> None:
        if self.st is not None and len(self.st.history) % 25 == 0:
            rec = record_of(self.st)
            assert dumps(replay(rec).record) == dumps(rec)


MatchMachine.TestCase.settings = __import__("hypothesis").settings(
    max_examples=10, stateful_step_count=120, deadline=None)
TestMatchMachine = MatchMachine.TestCase


def test_checker_catches_a_broken_conservation() -> None:
    """The conservation check can fail: a card duplicated into a pile is reported."""
    st = Game.from_system("euchre").new_initial_state(1)
    assert inv.conservation(st) == []
    st.piles["kitty"].append(st.piles["kitty"][0])
    assert inv.conservation(st) and "duplicated" in inv.conservation(st)[0]


def test_checker_catches_out_of_bounds_scores() -> None:
    st = Game.from_system("euchre").new_initial_state(1)
    st.hand_results.append({"hand": 0, "scores": [8, 0]})  # euchre's bound: 7 (a lone march, cumulative)
    assert inv.score_bounds(st)
