"""`cardspec play` after a new user's review: ``--json`` writes only JSON lines on stdout, each hand's header
comes before every move of that hand (also after the person is out), a hand holding a card more than the deal
gave shows the best value one discard leaves, and a number past the menu's end says the menu's range.

Each test replays the match :func:`play_terminal` plays (the same seed and bot) to know what the screen must say.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from itertools import combinations

import pytest

from cardspec.engine.bots import BOTS
from cardspec.engine.game import Game
from cardspec.engine.state import State
from cardspec.play import choices, play_terminal
from cardspec.play_table import hand_value_line

MOVE = re.compile(r"^(you|seat \d+( \([^)]*\))?( for seat \d+)?|you, for [^:]+): \S")
HEADER = re.compile(r"^(?:== )?hand (\d+) ")  # the header before bots' moves, or the prompt's headline


def replay(game: Game, seed: int, hands: int) -> tuple[State, list[str], list[int]]:
    """The match play_terminal plays with the rule bot, the person typing the first legal action, until the
    person's first turn once ``hands`` hands are over (or the match ends): the state then, the lines typed, and
    the hand of every move shown."""
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"play/{seed}"))
    typed: list[str] = []
    moves: list[int] = []
    while not st.is_terminal():
        legal = st.legal_actions()
        if st.current_player() == 0:
            if len(st.hand_results) >= hands:
                break
            typed.append(game.action_name(legal[0]))
            a = legal[0]
        else:
            a = bot(st, legal)
        moves.append(st.hand_no)
        st.apply(a)
    return st, typed, moves


def run(game: Game, seed: int, lines: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], as_json: bool = False) -> tuple[str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines) + "q\n"))
    assert play_terminal(game, seed, 0, "rule", as_json) == 0
    got = capsys.readouterr()
    return got.out, got.err


# --- 1. --json: stdout is JSON lines only ---------------------------------------------------------------------
def test_json_play_writes_only_json_lines_after_a_bad_input_and_a_quit() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardspec", "play", "riding-the-bus", "--seed", "1", "--json"],
                          input="0\n5\nplay nonsense\nq\n", capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    parsed = [json.loads(x) for x in lines]
    errors = [x["error"] for x in parsed if "error" in x]
    assert len(errors) == 2 and "not in 0.." in errors[0]
    assert sum("legal" in x for x in parsed) == 4  # a prompt before each line typed
    assert "bye" in proc.stderr and "bye" not in proc.stdout


def test_json_play_of_a_whole_match_tells_each_hand_and_the_end_as_json_lines(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("riding-the-bus")
    st, typed, _ = replay(game, 2, 99)
    assert st.is_terminal()
    out, _ = run(game, 2, typed, monkeypatch, capsys, as_json=True)
    parsed = [json.loads(x) for x in out.splitlines()]
    assert sum("legal" in x for x in parsed) == len(typed)
    over = [x for x in parsed if x.get("event") == "hand_over"]
    assert [(x["hand"], x["scores"], x["totals"]) for x in over] == \
        [(r["hand"], r["scores"], r["totals"]) for r in st.hand_results]
    assert all(x["why"] for x in over)
    assert parsed[-1] == {"event": "match_over", "winners": list(st.winners or ()), "counter": game.scoring.counter,
                          "totals": st.counters}


# --- 2. each hand's header before its moves -------------------------------------------------------------------
@pytest.mark.parametrize(("system", "seed", "hands"), [("riding-the-bus", 2, 99), ("hand-and-foot", 1, 2)])
def test_every_move_comes_after_the_header_of_its_hand(system: str, seed: int, hands: int,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Each move line follows the header of the hand the record puts it in, and every hand has one header:
    also the hands after the person is out (riding-the-bus, seed 2: out after hand 2, the match goes on)."""
    game = Game.from_system(system)
    st, typed, moves = replay(game, seed, hands)
    assert len(set(moves)) >= 2
    out, _ = run(game, seed, typed, monkeypatch, capsys)
    headers: list[int] = []
    under: list[int] = []
    for line in out.splitlines():
        m = HEADER.match(line)
        if m:
            if not headers or headers[-1] != int(m.group(1)):  # each prompt repeats its hand's headline
                headers.append(int(m.group(1)))
        elif MOVE.match(line):
            under.append(headers[-1] if headers else -1)
    assert under == moves
    assert headers == sorted(set(moves))
    assert out.count("\n== hand ") < len(headers) or system != "riding-the-bus"  # not before every hand: the
    # person's own prompt, when it comes first, is the hand's header
    if system == "riding-the-bus":
        limit = game.match.limit
        assert st.is_terminal() and limit is not None
        out_after = next(r["hand"] for r in st.hand_results if r["totals"][0] >= limit)
        later = [r["hand"] for r in st.hand_results if r["hand"] > out_after]
        assert later and set(later) <= set(headers)


# --- 3. the value of a hand holding a card more than the deal gave -------------------------------------------
def test_a_hand_with_a_card_over_the_deal_shows_the_best_value_after_a_discard() -> None:
    game = Game.from_system("riding-the-bus")
    cards = ["3S", "7S", "JS", "AS"]
    assert hand_value_line(game, cards, 3) == "best after a discard: 28"
    assert hand_value_line(game, cards[1:], 3) == "your hand's value: 28"
    assert hand_value_line(game, cards, 2) is None  # two over: no hand the rules score


def test_the_play_screen_after_a_draw_shows_the_best_value_after_a_discard(monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("riding-the-bus")
    hv = game.hand_value
    assert hv is not None
    st = game.new_initial_state(1)
    bot = BOTS["rule"](random.Random("play/1"))
    typed: list[str] = []
    while st.current_player() != 0 or st.hands[0].bit_count() <= st.dealt[0][0]:
        legal = st.legal_actions()
        a = bot(st, legal) if st.current_player() != 0 else legal[0]
        if st.current_player() == 0:
            typed.append(game.action_name(a))
        st.apply(a)
    held = list(game.deck.cards_of(st.hands[0]))
    best = max(hv.points(hv.value(game.deck.mask(c))) for c in combinations(held, len(held) - 1))
    whole = hv.points(hv.value(st.hands[0]))
    out, _ = run(game, 1, typed, monkeypatch, capsys)
    last = out.split("\nhand ")[-1]
    assert f"best after a discard: {int(best)}" in last
    assert "your hand's value" not in last and f"value: {int(whole)}" not in last.replace(f"discard: {int(best)}", "")


# --- 4. a number past the menu's end ---------------------------------------------------------------------------
def test_a_number_past_the_menus_end_names_the_menus_range(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("riding-the-bus")
    st = game.new_initial_state(1)
    bot = BOTS["rule"](random.Random("play/1"))
    while st.current_player() != 0:
        st.apply(bot(st, st.legal_actions()))
    n = len(choices(game, st.comp, st.observation(0)["legal"]))
    out, _ = run(game, 1, ["99"], monkeypatch, capsys)
    assert f"not accepted: 99 is not in 0..{n - 1}" in out
    assert "names no action" not in out


# --- what a move takes from the face-up discard pile ------------------------------------------------------------
def test_a_draw_from_the_discard_names_the_card_and_the_menu_names_what_take_takes(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Riding the Bus's discard pile is face up ("discarding a card face up onto a “discard” pile"), so when a
    bot draws its top card the log names it, and the menu's `take` ("pick up the top 3 cards on the discard
    pile") names the three it takes. The expected cards are read from the replayed state before each move."""
    game = Game.from_system("riding-the-bus")
    seed = 3
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"play/{seed}"))
    typed: list[str] = []
    bot_takes: list[str] = []
    menu_takes: list[str] = []
    names = game.deck.names
    while not st.is_terminal():  # until the person's seventh prompt, shown before the `q` that ends the run
        legal = st.legal_actions()
        pile = [names[c] for c in reversed(st.piles["discard"])]  # top first
        if st.current_player() == 0:
            if any(game.action_name(a).startswith("take ") for a in legal):
                menu_takes.append(f"takes {' '.join(pile[:3])} from the discard")
            if len(typed) == 6:
                break
            a = legal[0]
            typed.append(game.action_name(a))
        else:
            a = bot(st, legal)
            if game.action_name(a) == "draw discard":
                bot_takes.append(f"seat {st.cur}: draw discard — takes {pile[0]} from the discard")
        st.apply(a)
    assert bot_takes and menu_takes  # the seed shows both
    out, _ = run(game, seed, typed, monkeypatch, capsys)
    lines = out.splitlines()
    for want in bot_takes:
        assert want in lines
    take_lines = [x for x in lines if re.match(r"^\s+\d+\) take ", x)]
    assert [x.split(" — ")[-1] for x in take_lines] == menu_takes
    assert not any("takes" in x for x in lines if x.startswith("seat ") and "draw stock" in x)  # face down: unnamed
