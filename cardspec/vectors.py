"""Language-neutral test vectors for other engines, in the spirit of perft files.

For each system (default options): seeded playthroughs listing every hand's deal
(as a record's explicit ``deals``: the dealer, each seat's cards, each pile top card
first), then at every step the seat to act, every legal action (sorted names) and
the action taken, with the results; and perft counts (the number of action
sequences of each length from the first position of a seeded match, whose deal is
given too). They are golden files: they pin the engine's behaviour so that a change
is seen, and another engine that reads the same spec can check itself against them
from the deals alone, without cardspec's shuffle. ``tests/test_vectors.py`` is the
runner; docs/vectors.md describes the format.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .engine.bots import BOTS
from .engine.game import Game
from .engine.record import logged_deals, record_of
from .engine.state import State

PLAYTHROUGH_SEEDS = (0, 1)
PERFT_SEED = 0
PERFT_DEPTH = 4


def perft(st: State, depth: int) -> int:
    """Action sequences of length ``depth`` from ``st`` (stopping early at a match end)."""
    if depth == 0 or st.is_terminal():
        return 1
    total = 0
    for a in st.legal_actions():
        c = st.copy()
        c.apply(a)
        total += perft(c, depth - 1)
    return total


def playthrough(game: Game, seed: int) -> dict[str, Any]:
    """One seeded match between rule bots: every hand's deal (as dealt, before the hand's first phase began),
    and the legal actions at every step."""
    st = game.new_initial_state(seed, keep_deals=True)
    bot = BOTS["rule"](random.Random(f"vector/{seed}"))
    steps = []
    while not st.is_terminal():
        legal = st.legal_actions()
        a = bot(st, legal)
        steps.append({"seat": st.current_player(), "legal": [game.action_name(x) for x in legal],
                      "action": game.action_name(a)})
        st.apply(a)
    rec = record_of(st)
    return {"seed": seed, "deals": rec["deals"], "steps": steps, "results": rec["results"]}


def vectors(system: str) -> dict[str, Any]:
    """All vectors of one system."""
    game = Game.from_system(system)
    root = game.new_initial_state(PERFT_SEED, keep_deals=True)
    return {"format": "cardspec-vectors/1", "system": system,
            "options": dict(sorted(game.options.items())),
            "perft": {"seed": PERFT_SEED, "deal": logged_deals(root)[0],
                      "nodes": [perft(root, d) for d in range(PERFT_DEPTH + 1)]},
            "playthroughs": [playthrough(game, s) for s in PLAYTHROUGH_SEEDS]}


def dumps(v: dict[str, Any]) -> str:
    """Stable JSON, one step per line for readable diffs."""
    return json.dumps(v, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
