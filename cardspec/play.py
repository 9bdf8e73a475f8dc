"""Terminal play: a person at one seat, bots at the others.

Each prompt shows the table as the person's seat sees it (:mod:`cardspec.play_table`, from its observation
only): the hand, dealer, trump and turned card, a row per seat (team, cards, tricks, total, notes), the trick,
the piles, the person's cards (and a hand's value where the game has one). Every play is echoed as the seat
sees it (a face-down card stays ``?``), trick winners are announced, and a finished hand says why each side
scored (the row of each scoring table that applied).

A menu entry says what it would do where that is not in its name, worked out on a copy of the state and told only
as the seat's observation shows it: the cards it takes from the table, the melds it lays (``go out 6C — lays ...``),
where it brings a lay-out toward the round's minimum, which pile a pile choice makes the hand and which the foot.
The melds listed as a hand ends name the side that laid each. Without ``--seed`` the match's seed is random and
told first, with the command that deals the match again.

Type a menu number or an action's name (``play JD``, ``pass``); ``q`` quits. The menu lists once the actions
that name the same cards in different orders (Riding the Bus's ``take``) and asks for the order next; a
going-alone declaration reads ``alone`` / ``partner`` (either word may be typed, as may ``pass``).
With ``--json`` stdout is JSON lines only: each prompt is the seat's observation (a number indexes its ``legal``
list), an input not accepted is ``{"error": ...}``, and a finished hand and the match are ``{"event": ...}``
lines; ``bye`` goes to stderr.
When the person acts for another seat it controls (a dummy, such as
bird-dog-2p's Bird Dog), the prompt names that seat and shows the cards of it
that the person sees (:func:`acting_lines`).
"""

from __future__ import annotations

import json
import random
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .engine.actions import whole_number
from .engine.bots import BOTS
from .engine.errors import ActionBoundError, ActionError
from .engine.game import Game
from .play_table import (
    clean,
    console,
    hand_over,
    hand_value_line,
    headline,
    laid_text,
    lay_out_text,
    score_lines,
    seat_table,
    seat_zone_lines,
    set_lines,
    table_cards,
    table_lines,
    taken_text,
    totals_line,
    trick_line,
    who,
)

if TYPE_CHECKING:
    from .engine.components.base import Component
    from .engine.state import State


def seat_label(game: Game, s: int) -> str:
    """``seat 2 (dog)`` for a dummy seat (named in the spec), ``seat 0`` for a player."""
    name = next((x.name for x in game.seating.dummies if x.seat == s), None)
    return f"seat {s} ({name})" if name else f"seat {s}"


def acting_lines(game: Game, obs: Mapping[str, Any], seat: int) -> list[str]:
    """The prompt's lines about the seat acting now, when player ``seat`` acts for a seat it controls
    (``obs["to_act"]`` is not ``seat``): which seat, and that seat's cards as ``seat`` sees them."""
    actor = obs["to_act"]
    if actor == seat or actor < 0:
        return []
    label = seat_label(game, actor)
    out = [f"you act for {label}, which you control this hand"]
    hands = obs["zones"].get("hand", [])
    shown = hands[actor].get("cards_top_first") if actor < len(hands) else None
    if shown is not None:
        out.append(f"{label} cards: {' '.join(shown)}")
    return out


# --- the menu ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Choice:
    """A menu entry: its text, and the legal actions it stands for (several: the same cards named in different
    orders, the order asked next)."""

    label: str
    names: tuple[str, ...]


def lone_choice(comp: Component) -> str | None:
    """The choice of a declaration whose declarer's partners sit out (going alone), from the phase's own data;
    its menu reads as a choice between going alone and playing with the partner. None for any other phase."""
    if comp.kind == "declarations" and getattr(comp, "effect", None) == "partner_sits_out":
        return str(getattr(comp, "choice", "")) or None
    return None


def word(comp: Component, name: str) -> str:
    """An action as the menu and the log say it: a going-alone declaration's ``pass`` is ``partner`` (and its
    choice, ``defend_alone``, ``defend alone``); the engine's names are unchanged."""
    lone = lone_choice(comp)
    if lone is None:
        return name
    return "partner" if name == "pass" else lone.replace("_", " ") if name == lone else name


def aliases(comp: Component) -> dict[str, str]:
    """The words a person may type for an action besides its engine name (lower case)."""
    lone = lone_choice(comp)
    return {"partner": "pass", lone.replace("_", " "): lone} if lone else {}


def choices(game: Game, comp: Component, names: Sequence[str]) -> list[Choice]:
    """The menu: the legal actions in order, those that name the same cards in different orders listed once
    (at the first of them), and a going-alone declaration as ``alone`` / ``partner``."""
    deck = set(game.deck.names)
    lone = lone_choice(comp)
    groups: dict[tuple[str, ...], list[str]] = {}
    for n in names:
        toks = n.split()
        cards = sorted(t for t in toks if t in deck)
        key = tuple("" if t in deck else t for t in toks) + tuple(cards) if len(cards) > 1 else (n,)
        groups.setdefault(key, []).append(n)
    out = []
    for g in groups.values():
        w = word(comp, g[0])
        if len(g) > 1:
            label = f"{g[0]}  (these cards in any order: {len(g)} orders, asked next)"
        elif w == "partner" and lone is not None:
            label = "partner — play with your partner (pass)"
        elif g[0] == lone:
            label = f"{w} — your partner sits out this hand" + (f" ({g[0]})" if w != g[0] else "")
        else:
            label = w
        out.append(Choice(label, tuple(g)))
    return out


def effect_text(st: State, name: str) -> str:
    """What the action ``name`` does, where its name does not say, as the phase words it
    (``Component.action_effect``: `` — pile 1 becomes the hand; pile 2 goes to the foot``); ``""`` if nothing."""
    try:
        text = st.comp.action_effect(st, st.game.parse_action(name))
    except ActionError:
        return ""
    return f" — {text}" if text else ""


def melds_now(st: State) -> list[list[str]]:
    """The melds on the table in the hand being played, as its result will list them (the phase's ``melds``)."""
    if st.is_terminal():
        return []
    return [list(m) for m in st.comp.result_fields(st).get("melds") or ()]


def melds_after(st: State, hand: int, results: int) -> list[list[str]]:
    """After an action taken in hand ``hand`` (``results`` hands over before it): the melds on the table, or
    those of the hand's public result when the action ended it."""
    if len(st.hand_results) > results:
        return [list(m) for m in st.hand_results[results].get("melds") or ()]
    return melds_now(st) if st.hand_no == hand else []


def ask_order(game: Game, c: Choice) -> str | None:
    """Which order of a grouped choice: a number, the cards in order, or Enter for the first. None: quit;
    ``""``: not one of them."""
    print(f"in which order? the cards go in the order named (Enter: {c.names[0]})")
    for i, n in enumerate(c.names):
        print(f"    {i}) {n}")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line or line.strip().lower() in ("q", "quit"):
        return None
    text = line.strip()
    if not text:
        return c.names[0]
    k = whole_number(text)
    if k is not None and k >= 0:
        return c.names[k] if k < len(c.names) else ""
    deck = set(game.deck.names)
    return next((n for n in c.names if text == n or text.split() == [t for t in n.split() if t in deck]), "")


# --- the match ------------------------------------------------------------------------------------------
class TrickWatch:
    """Who won each trick, as the seat learns it: from its observations (the tricks each seat has won, or the
    winners of a climbing game's tricks) and, for a hand's last trick, from the hand's result."""

    def __init__(self) -> None:
        self.hand, self.count, self.won = -1, 0, [0]
        self.trick: list[str] = []
        """The plays of the trick in progress at the last look (``seat 1 QH``)."""

    def told(self, game: Game, seat: int, winners: Sequence[int], by: int, name: str) -> list[str]:
        """The lines announcing ``winners``: each with the trick's plays, the last one being ``name`` by ``by``."""
        plays = [*self.trick, f"{who(game, by, seat)} {name.split(' ', 1)[1]}"] if name.startswith("play ") \
            else self.trick
        self.trick = []
        return [f"» {who(game, s, seat)} {'win' if s == seat else 'wins'} the trick"
                + (f": {', '.join(plays)}" if plays and len(winners) == 1 else "") for s in winners]

    def seen(self, obs: Mapping[str, Any]) -> list[int]:
        """The winners of the tricks completed since the last look."""
        if obs["hand"] != self.hand:
            self.hand, self.count, self.won = obs["hand"], 0, [0] * len(obs.get("tricks_won", ()))
        if "trick_winners" in obs:
            new = list(obs["trick_winners"][self.count:])
        else:
            now = list(obs.get("tricks_won", ()))
            new = [s for s, n in enumerate(now) for _ in range(n - (self.won[s] if s < len(self.won) else 0))]
            self.won = now
        self.count += len(new)
        return new

    def remember(self, game: Game, obs: Mapping[str, Any], seat: int) -> None:
        """Keep the plays of the trick in progress."""
        line = trick_line(game, obs, seat)
        self.trick = line.removeprefix("trick: ").split(" — ")[0].split(", ") if line else []

    def ended(self, r: Mapping[str, Any]) -> list[int]:
        """The winners of a finished hand's tricks not yet told."""
        new = list((r.get("trick_winners") or [])[self.count if r["hand"] == self.hand else 0:])
        self.hand, self.count = -1, 0
        return new


def show_prompt(st: State, obs: Mapping[str, Any], seat: int, menu: Sequence[Choice],
                sits_out: Sequence[int]) -> None:
    """The table as the seat sees it, its cards, and the menu."""
    game = st.game
    print()
    print(headline(game, obs, seat))
    console().print(seat_table(game, obs, seat, {s: ["sits out"] for s in sits_out}))
    print(totals_line(game, obs["counters"].get(game.scoring.counter, []), seat))
    lines = [trick_line(game, obs, seat), *table_lines(game, obs), *seat_zone_lines(game, obs, seat),
             *set_lines(game, obs, seat), f"your cards: {' '.join(obs['my_cards']) or '(none)'}",
             hand_value_line(game, obs["my_cards"], dealt_to(st, seat)),
             *acting_lines(game, obs, seat)]
    for text in lines:
        if text:
            print(text)
    for i, c in enumerate(menu):
        print(f"  {i}) {c.label}")


def dealt_to(st: State, seat: int) -> int | None:
    """How many cards the deal gave ``seat``'s hand this hand (None: not known, as when a phase deals the hands)."""
    sizes = st.dealt[0]
    return sizes[seat] if seat < len(sizes) and sizes[seat] else None


def not_in_menu(text: str, count: int) -> str | None:
    """Why a typed number names no choice: it is past the end of the menu's ``count`` choices (None: not a
    number, or one in range)."""
    k = whole_number(text)
    if k is None or k < 0 or k < count:
        return None
    return f"{text} is not in 0..{count - 1}" if count else f"{text}: there is nothing to choose"


def fresh_seed() -> int:
    """A new seed for a match nobody asked for by number (``cardspec play`` without ``--seed``)."""
    return random.SystemRandom().randrange(1, 1_000_000_000)


def again_command(system: str, options: Sequence[str], seat: int, bot: str, seed: int) -> str:
    """The command that plays the match of ``seed`` again (the same deal, options, seat and bot)."""
    words = ["cardspec", "play", system, *(w for o in options for w in ("--option", o)),
             *(["--seat", str(seat)] if seat else []), *(["--bot", bot] if bot != "rule" else []), "--seed", str(seed)]
    return " ".join(shlex.quote(w) for w in words)


def play_terminal(game: Game, seed: int, seat: int, bot: str, as_json: bool, again: str | None = None) -> int:
    """Run an interactive match; returns the exit code. ``again``: the seed was picked at random, and this is
    the command that deals the match again (told first: a line, or with ``as_json`` an ``{"event": "seed"}``
    line)."""
    if not 0 <= seat < game.num_players:
        from .cli import UsageError

        raise UsageError(f"--seat must be 0..{game.num_players - 1}")
    if again is not None:
        print(json.dumps({"event": "seed", "seed": seed, "again": again}, sort_keys=True) if as_json else
              f"seed {seed} ({clean(again)} deals this game again)")
    st = game.new_initial_state(seed)
    chooser = BOTS[bot](random.Random(f"play/{seed}"))
    tricks = TrickWatch()
    shown_hands = 0
    headed = -1  # the last hand whose header is shown: each hand's header comes before its first move

    def say(text: str, **data: Any) -> None:  # a message: a JSON object with --json (stdout is JSON lines only)
        print(json.dumps(data, sort_keys=True) if as_json else text)

    sits_out: dict[int, set[int]] = {}  # each hand's partners of a player who went alone (the seat saw it)

    def went_alone(comp: Component, who_: int, name: str) -> None:
        if name == lone_choice(comp):
            team = game.teams[game.entity_of[who_]] if who_ < len(game.entity_of) else ()
            sits_out.setdefault(st.hand_no, set()).update(p for p in team if p != who_)

    def told(by: int, name: str) -> None:  # what the last action (as the seat saw it) showed: tricks, hands over
        nonlocal shown_hands
        if as_json:  # a finished hand: its scores, totals and why, as one JSON line
            for r in st.hand_results[shown_hands:]:
                print(json.dumps({"event": "hand_over", "hand": r["hand"], "scores": r["scores"], "totals": r["totals"],
                                  "why": [text.strip() for text in score_lines(game, r)]}, sort_keys=True))
            shown_hands = len(st.hand_results)
            return
        if shown_hands == len(st.hand_results) and not st.is_terminal():
            obs = st.observation(seat)
            for text in tricks.told(game, seat, tricks.seen(obs), by, name):
                print(text)
            tricks.remember(game, obs, seat)
        while shown_hands < len(st.hand_results):
            r = st.hand_results[shown_hands]
            for text in tricks.told(game, seat, tricks.ended(r), by, name):
                print(text)
            before, head, lines, table = hand_over(game, r, seat, laid_by.pop(r["hand"], []))
            for text in [*before, head, *lines]:
                print(text)
            if table is not None:
                console().print(table)
            shown_hands += 1

    laid_by: dict[int, list[int]] = {}  # per hand: the seat that laid each meld on the table, in the result's order

    def effects(before: Mapping[str, Any], old: list[list[str]], after: State, hand: int, results: int,
                actor: int, name: str) -> tuple[str, list[list[str]]]:
        """What an action did, as the seat sees it (`` — takes ...; lays ...; lay-out 30 of 50``): cards taken
        from face-up table zones, melds laid that its name does not list, the actor's lay-out toward the
        minimum; compared between the seat's observations before and after (only cards shown face up count),
        or the finished hand's public result. Also the melds on the table after it."""
        new = melds_after(after, hand, results)
        parts: list[str | None] = []
        if after.hand_no == hand and len(after.hand_results) == results:
            now = after.observation(seat)
            parts += [taken_text(before, now, actor), laid_text(old, new, name, table_cards(now)),
                      lay_out_text(before, now, actor)]
        else:  # the hand is over: its result, melds included, is public
            parts.append(laid_text(old, new, name, None))
        text = "; ".join(p for p in parts if p)
        return (f" — {text}" if text else ""), new

    def took(actor: int, a: int) -> str:
        """Apply ``a`` (the actor's); what it did as the seat saw it (:func:`effects`); the melds it laid are
        remembered as the actor's."""
        hand, results, before, old = st.hand_no, len(st.hand_results), st.observation(seat), melds_now(st)
        st.apply(a)
        text, new = effects(before, old, st, hand, results, actor, game.action_name(a))
        mine = laid_by.setdefault(hand, [])
        del mine[len(new):]
        mine += [actor] * (len(new) - len(mine))
        return text

    def preview(name: str) -> str:
        """What a menu entry would do (:func:`effects`, and what choosing a pile does): played on a copy, so
        nothing hidden is shown (only the table zones' shown cards and the public result are compared)."""
        trial, actor = st.copy(), st.cur
        try:
            trial.apply(game.parse_action(name))
        except ActionError:
            return ""
        return effect_text(st, name) + \
            effects(st.observation(seat), melds_now(st), trial, st.hand_no, len(st.hand_results), actor, name)[0]

    while not st.is_terminal():
        if not as_json and st.hand_no != headed:
            headed = st.hand_no
            if st.current_player() != seat:  # a bot moves first: the hand's header before its moves (the
                print()  # person's own prompt opens with the same headline)
                print(f"== {headline(game, st.observation(seat), seat)}")
        legal = st.legal_actions()
        comp = st.comp
        if st.current_player() != seat:
            a = chooser(st, legal)
            actor, name = st.cur, st.action_seen_by(seat, st.cur, a, st.phase)  # a face-down card stays face down
            if not as_json:
                by = seat_label(game, actor) + (f" for seat {st.current_player()}"
                                                if actor != st.current_player() else "")
                w = word(comp, name)
                went_alone(comp, actor, name)
                print(f"{by}: {w if w == name else f'{w} ({name})'}{took(actor, a)}")
            else:
                st.apply(a)
            told(actor, name)
            continue
        obs = st.observation(seat)
        menu = [Choice(c.label + preview(c.names[0]), c.names) for c in choices(game, comp, obs["legal"])]
        if as_json:
            print(json.dumps(obs, sort_keys=True))
        else:
            show_prompt(st, obs, seat, menu, sorted(sits_out.get(st.hand_no, set())))
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            print("bye", file=sys.stderr if as_json else sys.stdout)  # --json: stdout carries JSON lines only
            return 0
        text = line.strip()
        try:
            past = not_in_menu(text, len(legal) if as_json else len(menu))
            if past is not None:
                try:  # a number past the menu's end: the range, unless it is the name of an action
                    game.parse_action(text)
                except ActionError:
                    say(f"not accepted: {past}", error=past)
                    continue
            if as_json:
                k = whole_number(text)
                a = legal[k] if k is not None and 0 <= k < len(legal) else game.parse_action(text)
            else:
                picked: str | None = text
                k = whole_number(text)
                if k is not None and 0 <= k < len(menu):
                    c = menu[k]
                    picked = c.names[0] if len(c.names) == 1 else ask_order(game, c)
                    if picked is None:
                        print("bye")
                        return 0
                    if not picked:
                        print("not accepted: not one of the orders listed")
                        continue
                a = game.parse_action(aliases(comp).get(text.lower(), picked or text))
            actor = st.cur
            taken = took(actor, a)  # an illegal action raises here, before anything is shown
        except ActionBoundError:
            raise  # the match cannot go on: not the person's mistake (cmd_play names the spec, options and seed)
        except ActionError as exc:
            say(f"not accepted: {clean(exc)}", error=str(exc))
            continue
        if not as_json:
            name = game.action_name(a)
            w = word(comp, name)
            print(f"{'you' if actor == seat else f'you, for {seat_label(game, actor)}'}: "
                  f"{w if w == name else f'{w} ({name})'}{taken}")
            went_alone(comp, actor, name)
        told(actor, game.action_name(a))
    told(-1, "")
    winners = list(st.winners or ())
    if as_json:
        print(json.dumps({"event": "match_over", "winners": winners, "counter": game.scoring.counter,
                          "totals": st.counters}, sort_keys=True))
        return 0
    print(f"match over: winners {', '.join(who(game, s, seat) for s in winners) or 'none'} — "
          f"{totals_line(game, st.counters, seat)}")
    return 0
