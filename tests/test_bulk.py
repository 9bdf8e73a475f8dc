"""The bulk loop (``Game.simulate``, ``cardspec simulate --fast``) plays the step API's matches, record for
record: under every option set of every system, with every bot, and with a different bot per seat."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine.bots import BOTS
from cardspec.engine.bulk import bot_rng, play_bulk, play_stepped
from cardspec.engine.errors import ActionBoundError
from cardspec.engine.game import Game
from cardspec.engine.record import dumps, record_of
from cardspec.engine.spec import available, load

CASES = [(sid, k, opts) for sid in available() for k, opts in enumerate(load(sid).option_sets())]
HANDS = 3
"""Hands per match under every option set (whole matches are compared under each system's defaults)."""


def _label(case: Any) -> str:
    return f"{case[0]}-{case[1]}" if isinstance(case, tuple) else str(case)


def _same(game: Game, seed: int, bots: Any, hand_limit: int | None) -> str:
    (a, n), (b, m) = play_stepped(game, seed, bots, hand_limit), play_bulk(game, seed, bots, hand_limit)
    one, two = dumps(record_of(a)), dumps(record_of(b))
    assert one == two and n == m == len(a.history) > 0
    return one


@pytest.mark.parametrize("case", CASES, ids=_label)
def test_every_option_set_gives_the_step_api_records(case: tuple[str, int, dict[str, Any]]) -> None:
    sid, k, opts = case
    game = Game(load(sid), opts)
    for bot in ("random", "rule"):
        _same(game, 1000 + k, bot, HANDS)


@pytest.mark.parametrize("sid", available())
def test_whole_matches_give_the_step_api_records(sid: str) -> None:
    game = Game.from_system(sid)
    for bot in sorted(BOTS):
        rec = json.loads(_same(game, 3, bot, None if bot != "random" else 20))
        assert rec["results"]["hands"], "no hand was played"


def test_a_bot_per_seat_draws_from_the_one_shared_generator() -> None:
    """Mixed bots: the same match either way, and not the match of either bot alone."""
    game = Game.from_system("euchre")
    mixed = _same(game, 9, ["rule", "random", "rule", "random"], None)
    assert mixed != _same(game, 9, "rule", None) and mixed != _same(game, 9, "random", None)


def test_the_step_api_match_is_the_documented_one() -> None:
    """``play_stepped`` is the plain step-API loop with the bots seeded ``bots/<seed>`` (written out here)."""
    game = Game.from_system("bird-dog-11")
    chooser = BOTS["rule"](random.Random("bots/4"))
    st = game.new_initial_state(4)
    while not st.is_terminal():
        st.apply(chooser(st, st.legal_actions()))
    assert dumps(record_of(play_stepped(game, 4, "rule")[0])) == dumps(record_of(st))
    assert bot_rng(4).random() == random.Random("bots/4").random()


def test_game_simulate_yields_the_matches_in_seed_order() -> None:
    game = Game.from_system("riding-the-bus")
    got = [dumps(record_of(st)) for st in game.simulate(3, "rule", 20)]
    assert got == [dumps(record_of(play_stepped(game, s, "rule")[0])) for s in (20, 21, 22)]
    assert list(game.simulate(0)) == []


@pytest.mark.parametrize(("bots", "message"), [
    (["rule"], "1 bot names for 4 players"),
    ("clever", "unknown bot 'clever'"),
    (["rule", "rule", "rule", "clever"], "unknown bot 'clever'"),
])
def test_bad_bots_are_named_before_any_match(bots: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        next(Game.from_system("euchre").simulate(1, bots))


def test_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        next(Game.from_system("euchre").simulate(-1))


def test_the_bulk_loop_keeps_the_action_bound() -> None:
    game = Game.from_system("euchre")
    game.action_bound = 10
    with pytest.raises(ActionBoundError, match="action bound of 10"):
        play_bulk(game, 0, "random")


def test_simulate_fast_writes_the_same_file_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for extra in ([], ["--fast"], ["--fast", "--workers", "2"]):
        path = tmp_path / f"r{len(outs)}.jsonl"
        assert main(["simulate", "riding-the-bus", "-n", "6", "--seed", "2", "--records", str(path), "--json",
                     *extra]) == 0
        stats = json.loads(capsys.readouterr().out)
        del stats["seconds"]
        outs.append((path.read_bytes(), stats))
    assert outs[0][0].count(b"\n") == 6
    assert outs[1] == outs[0] and outs[2] == outs[0]


@pytest.mark.pure_only
def test_trick_play_plays_itself_out_only_for_uniform_random_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The identity tests above compare the phase-long loop (``Tricks.play_random``) only if the bulk loop takes
    it: it does for all-random seats, and never with a rule bot at any seat (whose choices are not uniform)."""
    from cardspec.engine.components.tricks import Tricks

    calls: list[int] = []
    real = Tricks.play_random

    def counted(self: Tricks, st: Any, draw: Any, bound: int) -> bool:
        calls.append(len(st.history))
        return real(self, st, draw, bound)

    monkeypatch.setattr(Tricks, "play_random", counted)
    game = Game.from_system("euchre")
    st, _ = play_bulk(game, 5, "random", hand_limit=4)
    assert len(calls) == 4 == len(st.hand_results)  # once a hand: the whole phase in one call
    calls.clear()
    for bots in ("rule", ["random", "rule", "random", "random"], "random_then_rule"):
        play_bulk(game, 5, bots, hand_limit=4)
        assert calls == [], bots
