"""Terminal play: a person at one seat, bots at the others.

Type an action's number or its name (``play JD``, ``pass``); ``q`` quits.
With ``--json`` each prompt is the seat's observation as one JSON line.
When the person acts for another seat it controls (a dummy, such as
bird-dog-2p's Bird Dog), the prompt names that seat and shows the cards of it
that the person sees (:func:`acting_lines`).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from typing import Any

from .engine.bots import BOTS
from .engine.errors import ActionError
from .engine.game import Game


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


def table_lines(game: Game, obs: Mapping[str, Any]) -> list[str]:
    """The prompt's lines about the round and the table, derived from the spec alone: this round's
    schedule parameters (hand size, wild rank, ...), and what the seat sees of each pile on the table
    (the top of a stacked pile such as the discard pile, every card of a laid-out one, or the count)."""
    out = []
    sched = game.schedule
    if sched is not None:
        i = sched.index(obs["hand"])
        params = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sched.rows[i].items())
        out.append(f"round {i + 1} of {len(sched)}: {params}")
    for zid in game.table_zones:
        seen = obs["zones"].get(zid)
        if zid == "trick" or not isinstance(seen, Mapping) or "count" not in seen:
            continue  # the trick has its own line; a hidden pile shows nothing
        n = seen["count"]
        cards = seen.get("cards_top_first")
        if "sets" in obs and game.zone_of[zid].order == "sequence":
            cards = None  # a melding phase shows its sets one by one (set_lines)
        if cards is None or not n:
            out.append(f"{zid}: {n} card{'s' * (n != 1)}")
        elif game.zone_of[zid].order == "stack":
            out.append(f"{zid}: top {cards[0]} ({n} card{'s' * (n != 1)})")
        else:
            out.append(f"{zid}: {' '.join(cards)}")
    return out


def seat_zone_lines(game: Game, obs: Mapping[str, Any], seat: int) -> list[str]:
    """One line per seat-owned zone besides the hand that holds cards (a foot, a face-down pile):
    the cards of each seat's instance where the seat sees them, else the count."""
    out = []
    for zid in game.seat_zones:
        views = obs["zones"].get(zid)
        if not isinstance(views, list) or not any(v.get("count") for v in views):
            continue
        parts = []
        for s, v in enumerate(views):
            who = "you" if s == seat else f"seat {s}"
            cards = v.get("cards_top_first")
            parts.append(f"{who} {' '.join(cards)}" if cards else f"{who} {v.get('count', 0)}")
        out.append(f"{zid}: " + ", ".join(parts))
    return out


def set_lines(obs: Mapping[str, Any]) -> list[str]:
    """The sets on the table, side by side (from a melding phase's public view), and who has laid out."""
    sets = obs.get("sets")
    if not isinstance(sets, list):
        return []
    out = []
    sides = sorted({m["side"] for m in sets})
    for side in sides:
        mine = [f"#{m['number']} {' '.join(m['cards'])}" + (f" ({m['book']} book)" if m["book"] else "")
                for m in sets if m["side"] == side]
        out.append(f"side {side} sets: " + "; ".join(mine))
    if "lay_out_minimum" in obs:
        out.append(f"lay-out minimum {obs['lay_out_minimum']}; laid out: {obs.get('laid_out', [])}; "
                   f"in the foot: {obs.get('in_foot', [])}")
    if obs.get("answer"):
        out.append(f"the partner answered: {obs['answer']}")
    return out


def score_lines(game: Game, result: Mapping[str, Any]) -> list[str]:
    """Why each entity scored what it did this hand: its scoring facts and the row of each table that applied
    (the row's quote), from the hand's result."""
    facts = result.get("facts")
    if result.get("thrown_in"):
        return ["   the hand was thrown in: no score"]
    if not facts:
        return []
    out = []
    for e, f in enumerate(facts):
        team = game.teams[e]
        who = f"team {e} (seats {', '.join(map(str, team))})" if len(team) > 1 else f"seat {team[0]}"
        parts = []
        for t in game.scoring.tables:
            row = t.select(f)
            shown = ", ".join(f"{n} {f[n]}" for n in sorted(t.facts_needed()) if n in f)
            quote = f" — “{row.source.quote}”" if row.source is not None else ""
            parts.append(f"{t.evaluate(f)} from {t.id} ({shown}){quote}")
        out.append(f"   {who}: {result['scores'][e]}: " + "; ".join(parts))
    return out


def play_terminal(game: Game, seed: int, seat: int, bot: str, as_json: bool) -> int:
    """Run an interactive match; returns the exit code."""
    if not 0 <= seat < game.num_players:
        from .cli import UsageError

        raise UsageError(f"--seat must be 0..{game.num_players - 1}")
    st = game.new_initial_state(seed)
    chooser = BOTS[bot](random.Random(f"play/{seed}"))
    shown_hands = 0
    while not st.is_terminal():
        while shown_hands < len(st.hand_results):
            r = st.hand_results[shown_hands]
            print(f"-- hand {r['hand']} over: scores {r['scores']}, totals {r['totals']}")
            for text in score_lines(game, r):
                print(text)
            shown_hands += 1
        legal = st.legal_actions()
        if st.current_player() != seat:
            a = chooser(st, legal)
            if not as_json:  # as the person's seat sees it: a face-down card stays face down
                who = seat_label(game, st.cur) + (f" for seat {st.current_player()}" if st.cur != st.current_player()
                                                   else "")
                print(f"{who}: {st.action_seen_by(seat, st.cur, a, st.phase)}")
            st.apply(a)
            continue
        obs = st.observation(seat)
        if as_json:
            print(json.dumps(obs, sort_keys=True))
        else:
            shown = "".join(f", {label} {obs[k]}" for k, label in (("trump", "trump"), ("up_card", "up card"))
                            if obs.get(k) is not None)  # only what this game's phases show, once it is known
            totals = obs["counters"].get(game.scoring.counter, [])
            print(f"\nhand {obs['hand']}, dealer {obs['dealer']}{shown}, {game.scoring.counter} {totals}")
            if obs.get("trick"):
                print("trick: " + ", ".join(f"{t['seat']}:{t['card']}" for t in obs["trick"]))
            for text in table_lines(game, obs) + seat_zone_lines(game, obs, seat) + set_lines(obs):
                print(text)
            print(f"your cards: {' '.join(obs['my_cards'])}")
            for text in acting_lines(game, obs, seat):
                print(text)
            for i, name in enumerate(obs["legal"]):
                print(f"  {i}) {name}")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            print("bye")
            return 0
        text = line.strip()
        try:
            a = legal[int(text)] if text.isdigit() and int(text) < len(legal) else game.parse_action(text)
            st.apply(a)
        except ActionError as exc:
            print(f"not accepted: {exc}")
    print(f"match over: winners {list(st.winners or ())}, {game.scoring.counter} {st.counters}")
    return 0
