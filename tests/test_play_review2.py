"""`cardspec play` after a second new user's review: Hand-and-Foot's pile choice says which pile becomes the hand
and which the foot, a lay-out short of the minimum shows its running total, the melds at the end of a round name
their owner, The Card Game's ``go out X`` names the melds it lays, and ``play`` without ``--seed`` deals a new game
and says its seed.

Each test replays the match :func:`play_terminal` plays (the same seed and bot) to know what the screen must say;
the expected points come from the spec's ``values`` table, the expected zones from the phase's spec keys."""

from __future__ import annotations

import io
import json
import random
import re
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from cardspec.engine.bots import BOTS
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State
from cardspec.play import effect_text, play_terminal

Choose = Callable[[State, list[str]], str]


def hand_and_foot(**options: Any) -> Game:
    return Game(load("hand-and-foot"), options)


def phase_data(game: Game, component: str) -> Mapping[str, Any]:
    """The spec's clause of the game's phase of that component (as resolved for these options)."""
    return next(p for p in load(game.id).data["phases"] if p["component"] == component)


def scripted(game: Game, seed: int, choose: Choose, hands: int = 1,
             each: Callable[[State, int, str], None] | None = None) -> tuple[State, list[str]]:
    """The match play_terminal plays with the rule bot, the person at seat 0 typing ``choose``'s names, until
    ``hands`` hands are over; ``each`` sees the state before every action (and the actor and its name)."""
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"play/{seed}"))
    typed: list[str] = []
    while not st.is_terminal() and len(st.hand_results) < hands:
        legal = st.legal_actions()
        if st.current_player() != 0:
            a = bot(st, legal)
        else:
            typed.append(choose(st, [game.action_name(x) for x in legal]))
            a = game.parse_action(typed[-1])
        if each is not None:
            each(st, st.cur, game.action_name(a))
        st.apply(a)
    return st, typed


def screen(game: Game, seed: int, lines: list[str], monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines) + "q\n"))
    assert play_terminal(game, seed, 0, "rule", False) == 0
    out = capsys.readouterr().out
    assert "not accepted" not in out
    return out


def first(st: State, names: list[str]) -> str:
    return names[0]


def melding(st: State, names: list[str]) -> str:
    """A person who starts a set whenever one is offered, adds to sets, else the first action."""
    return next((n for n in names if n.startswith("meld ")), None) or \
        next((n for n in names if n.startswith("add ")), None) or names[0]


# --- 1. Hand-and-Foot: what choosing a pile does ------------------------------------------------------------------
def test_hand_and_foot_pile_choice_says_which_pile_becomes_the_hand_and_which_the_foot(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """"one becomes the hand and the other the foot": ``choose k`` names the pile zone that becomes the hand and the
    zone the other goes to (the spec's ``piles`` and ``reserve``), as the engine moves them."""
    game = hand_and_foot(teams=True)
    spec = phase_data(game, "pile_deal")
    p1, p2 = (z.replace("_", " ") for z in spec["piles"])
    foot = spec["reserve"].replace("_", " ")
    out = screen(game, 5, [], monkeypatch, capsys)
    assert f"  0) choose 1 — {p1} becomes the hand; {p2} goes to the {foot}\n" in out
    assert f"  1) choose 2 — {p2} becomes the hand; {p1} goes to the {foot}\n" in out
    st, _ = scripted(game, 5, first, hands=0)
    while st.current_player() != 0:  # the engine does what the menu says
        st.apply(BOTS["rule"](random.Random(0))(st, st.legal_actions()))
    for k, (took, left) in enumerate(((spec["piles"][0], spec["piles"][1]), (spec["piles"][1], spec["piles"][0]))):
        trial = st.copy()
        pile, other = trial.seat_piles[took][0], trial.seat_piles[left][0]
        trial.apply_name(f"choose {k + 1}")
        assert trial.hands[0] == pile and trial.seat_piles[spec["reserve"]][0] == other and pile and other


def test_hand_and_foot_fourth_round_choice_names_the_seen_piles_and_the_foot_they_were_seen_as() -> None:
    """"The fourth [and final] round, you keep both piles, and look at both of them, and decide which one you want
    as your foot": the piles lie in the ``seen`` zones and the other goes to ``reserve_seen``."""
    game = hand_and_foot(teams=True)
    spec = phase_data(game, "pile_deal")
    st = game.new_initial_state(5)
    bot = BOTS["rule"](random.Random(0))
    while not (st.comp.kind == "pile_deal" and game.round_index(st.hand_no) == 3):
        st.apply(bot(st, st.legal_actions()))
    s1, s2 = spec["seen"]
    seen_foot = spec["reserve_seen"]
    assert effect_text(st, "choose 2") == \
        f" — {s2.replace('_', ' ')} becomes the hand; {s1.replace('_', ' ')} goes to the {seat_zone(seen_foot)}"
    seat = st.cur
    pile, other = st.seat_piles[s2][seat], st.seat_piles[s1][seat]
    st.apply_name("choose 2")
    assert st.hands[seat] == pile and st.seat_piles[seen_foot][seat] == other


def seat_zone(z: str) -> str:
    return z.replace("_", " ")


# --- 2. Hand-and-Foot: the lay-out's running total ---------------------------------------------------------------
def card_value(game: Game, name: str) -> int:
    """A card's points by the spec's ``values`` table (per rank; the threes by colour)."""
    values = phase_data(game, "book_melding")["values"]
    face = name.split("#")[0]
    rank, suit = ("JK", "") if face.startswith("JK") else (face[:-1], face[-1])
    v = values[rank]
    return int(v[load(game.id).data["deck"]["suits"][suit]] if isinstance(v, Mapping) else v)


def test_hand_and_foot_shows_the_running_total_of_a_lay_out_short_of_the_minimum(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """"In order to “lay out” a player must have enough cards in sets to reach a set number of points": while the
    person's lay-out is short, each prompt says the points of the sets laid so far (the spec's card values) of the
    round's minimum; each set offered says where it would bring the lay-out."""
    game = hand_and_foot()
    minimum = load(game.id).data["schedule"]["rounds"][0]["minimum"]
    comp = next(ph for ph in game.phases if ph.kind == "book_melding")
    want: list[int | None] = []  # per prompt of the person: the lay-out so far, or None

    def note(st: State, names: list[str]) -> str:
        bs = st.cstate[comp.index]
        pending = bs.pending if st.comp is comp else -1  # type: ignore[attr-defined]
        sets = bs.melds[pending:] if pending >= 0 else ()  # type: ignore[attr-defined]
        assert all(len(m[3]) < 7 for m in sets)  # no book: a book's bonus plays no part here
        want.append(sum(card_value(game, game.deck.names[c]) for m in sets for c in m[3]) if pending >= 0 else None)
        return melding(st, names)

    _, typed = scripted(game, 5, note)
    out = screen(game, 5, typed, monkeypatch, capsys)
    prompts = [p for p in re.split(r"\nhand \d+ — ", out)[1:] if "\n  0) " in p]
    assert len(prompts) >= len(typed)
    shown = [(int(m.group(1)) if (m := re.search(rf"; your lay-out so far: (\d+) of {minimum}\n", p)) else None)
             for p in prompts[:len(typed)]]
    assert shown == want
    assert any(v is not None and v < minimum for v in want)
    # a set offered while laying out: its cards' points on top of the lay-out so far
    first_meld = next(i for i, p in enumerate(prompts) if re.search(r"\n  \d+\) meld ", p))
    base = want[first_meld] or 0
    for m in re.finditer(r"\n  \d+\) meld ([^—\n]+) — lay-out (\d+) of (\d+)", prompts[first_meld]):
        assert int(m.group(2)) == base + sum(card_value(game, c) for c in m.group(1).split())
        assert int(m.group(3)) == minimum


# --- 3. Hand-and-Foot: the owner of each meld at the end of a round ------------------------------------------------
def test_hand_and_foot_round_end_names_the_side_that_owns_each_meld(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """"lay these cards out in front of them": the melds listed as the round ends each say whose side they are,
    the side the engine kept for the set (partners sitting opposite: seats 0 and 2, 1 and 3)."""
    game = hand_and_foot(teams=True)
    comp = next(ph for ph in game.phases if ph.kind == "book_melding")
    last: list[tuple[State, int]] = []

    def keep(st: State, actor: int, name: str) -> None:
        last[:] = [(st.copy(), actor)]

    st, typed = scripted(game, 5, melding, each=keep)
    before, actor = last[0]
    r = st.hand_results[0]
    sides = [m[0] for m in before.cstate[comp.index].melds]  # type: ignore[attr-defined]
    sides += [game.entity_of[actor]] * (len(r["melds"]) - len(sides))  # sets the last action laid
    assert set(sides) == {0, 1}
    out = screen(game, 5, typed, monkeypatch, capsys)
    names = {0: "team 0 (you and seat 2)", 1: "team 1 (seat 1 and seat 3)"}
    listed = out.split("hand 0 ends with these melds on the table:\n")[1].split("-- hand 0 over")[0]
    assert listed.splitlines() == [f"   meld: {' '.join(m)} — owner: {names[s]}" for m, s in zip(r["melds"], sides,
                                                                                                   strict=True)]


# --- 4. The Card Game: going out names the melds it lays -------------------------------------------------------------
def test_the_card_game_go_out_names_the_melds_it_lays(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """"you must use all your cards, and you must discard": ``go out X`` says the melds it lays, which hold every
    card of the hand but ``X``, each of at least ``min_size`` cards; the bots' going out says so too, and the
    hand's melds name who laid them."""
    game = Game.from_system("the-card-game")
    min_size = phase_data(game, "draw_discard")["melding"]["min_size"]
    offered: dict[str, list[list[str]]] = {}

    def note(st: State, names: list[str]) -> str:
        for n in names:
            if n.startswith("go out "):
                trial = st.copy()
                trial.apply_name(n)
                done = trial.hand_results[-1] if len(trial.hand_results) > len(st.hand_results) else \
                    st.comp.result_fields(trial)
                offered.setdefault(n, [list(m) for m in done["melds"]])
        return names[0] if not offered else next((n for n in names if n.startswith("go out ")), names[0])

    st, typed = scripted(game, 1, note)
    assert offered
    out = screen(game, 1, typed, monkeypatch, capsys)
    hand = Counter()  # the person's cards at the prompt offering the going out, from the screen
    for n, melds in offered.items():
        line = next(x for x in out.splitlines() if re.match(rf"  \d+\) {re.escape(n)}( |$)", x))
        prompt = out[:out.index(line)].rsplit("your cards: ", 1)[1].split("\n")[0]
        hand = Counter(prompt.split())
        assert line.split(") ", 1)[1] == f"{n} — lays {'; '.join(' '.join(m) for m in melds)}"
        laid = Counter(c for m in melds for c in m)
        assert laid == hand - Counter([n.split()[-1]]) and all(len(m) >= min_size for m in melds)
    r = st.hand_results[0]
    went = [r["went_out"], *r.get("also_went_out", [])]
    outs = [x for x in out.split("-- hand 0 over")[0].splitlines() if re.match(r"(you|seat \d): go out ", x)]
    assert len(outs) == len(went) and all(" — lays " in x for x in outs)
    owners = [x.rsplit(" — owner: ", 1)[1] for x in out.split("-- hand 0 over")[0].splitlines()
              if x.startswith("   meld: ")]
    assert len(owners) == len(r["melds"]) and set(owners) == {"you" if s == 0 else f"seat {s}" for s in went}


# --- 5. play without --seed: a new game, its seed told ---------------------------------------------------------------
def _play(*args: str, stdin: str = "q\n") -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, "-m", "cardspec", "play", *args], input=stdin, capture_output=True,
                       text=True, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    return p


def test_play_without_a_seed_deals_a_new_game_and_prints_the_command_that_deals_it_again() -> None:
    typed = "0\n" * 6 + "q\n"
    a, b = (_play("riding-the-bus", "--seat", "1", stdin=typed) for _ in range(2))
    heads = [re.fullmatch(r"seed (\d+) \((cardspec play riding-the-bus --seat 1 --seed \1) deals this game again\)",
                          p.stdout.splitlines()[0]) for p in (a, b)]
    assert heads[0] and heads[1] and heads[0].group(1) != heads[1].group(1)
    again = _play(*shlex.split(heads[0].group(2))[2:], stdin=typed)
    assert again.stdout == a.stdout.split("\n", 1)[1]  # the seed deals the same game, and is not told again
    fixed = _play("riding-the-bus", "--seed", "0", stdin=typed)
    assert not fixed.stdout.startswith("seed ") and fixed.stdout == _play("riding-the-bus", "--seed", "0",
                                                                            stdin=typed).stdout
    helptext = subprocess.run([sys.executable, "-m", "cardspec", "play", "--help"], capture_output=True, text=True,
                              timeout=60, check=True).stdout
    assert "without it a new random" in " ".join(helptext.split())


def test_json_play_without_a_seed_tells_the_seed_in_a_json_line() -> None:
    p = _play("riding-the-bus", "--json", "--option", "players=3")
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    head = lines[0]
    assert head["event"] == "seed" and isinstance(head["seed"], int)
    assert head["again"] == f"cardspec play riding-the-bus --option players=3 --seed {head['seed']}"
    again = _play("riding-the-bus", "--json", "--option", "players=3", "--seed", str(head["seed"]))
    assert [json.loads(x) for x in again.stdout.splitlines()] == lines[1:]
