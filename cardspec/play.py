"""Terminal play: a person at one seat, bots at the others.

Type an action's number or its name (``play JD``, ``pass``); ``q`` quits.
With ``--json`` each prompt is the seat's observation as one JSON line.
"""

from __future__ import annotations

import json
import random
import sys

from .engine.bots import BOTS
from .engine.errors import ActionError
from .engine.game import Game


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
            shown_hands += 1
        legal = st.legal_actions()
        if st.current_player() != seat:
            a = chooser(st, legal)
            if not as_json:
                print(f"seat {st.current_player()}: {game.action_name(a)}")
            st.apply(a)
            continue
        obs = st.observation(seat)
        if as_json:
            print(json.dumps(obs, sort_keys=True))
        else:
            print(f"\nhand {obs['hand']}, dealer {obs['dealer']}, trump {obs['trump']}, "
                  f"up card {obs['up_card']}, {game.scoring.counter} {obs['counters']}")
            if obs["trick"]:
                print("trick: " + ", ".join(f"{t['seat']}:{t['card']}" for t in obs["trick"]))
            print(f"your cards: {' '.join(obs['my_cards'])}")
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
