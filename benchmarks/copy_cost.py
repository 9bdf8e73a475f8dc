"""What ``State.copy()`` costs, in every system, beside OpenSpiel's ``clone()`` of its Euchre state.

A search (MCTS, expectimax, a solver) copies the position at every node, so a copy must be cheap. For each
system this plays random legal actions from seeded deals and, at positions spread over the whole hand
(bidding, exchanges, play, the last trick), times ``State.copy()``; prints the median over the positions of
the best of ``--repeat`` timings, in microseconds. With pyspiel installed (``pip install open_spiel``), it
times ``clone()`` of OpenSpiel's euchre states the same way, as the peer figure. Pin to one core::

    taskset -c 0 python benchmarks/copy_cost.py [--positions 200] [--json] [SYSTEM ...]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from cardspec import compiled
from cardspec.engine.game import Game
from cardspec.engine.spec import available


def best_us(f: Callable[[], object], number: int = 200, repeat: int = 5) -> float:
    """The best of ``repeat`` timings of ``number`` calls, per call, in microseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            f()
        best = min(best, time.perf_counter() - start)
    return best / number * 1e6


def cardspec_copy_us(sid: str, positions: int, repeat: int) -> float:
    """Median over ``positions`` positions of one system of the cost of ``State.copy()``."""
    game = Game.from_system(sid)
    rng = random.Random(1)
    times: list[float] = []
    seed = 0
    while len(times) < positions:
        st = game.new_initial_state(seed, hand_limit=1)
        seed += 1
        while not st.is_terminal() and len(times) < positions:
            if rng.random() < 0.2:
                times.append(best_us(st.copy, repeat=repeat))
            st.apply(rng.choice(st.legal_actions()))
    return statistics.median(times)


def pyspiel_clone_us(positions: int, repeat: int) -> float | None:
    """The same for OpenSpiel's euchre ``clone()`` (None without pyspiel)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game: Any = pyspiel.load_game("euchre")
    rng = random.Random(1)
    times: list[float] = []
    while len(times) < positions:
        s = game.new_initial_state()
        while not s.is_terminal() and len(times) < positions:
            if s.is_chance_node():
                s.apply_action(rng.choice([o for o, _ in s.chance_outcomes()]))
                continue
            if rng.random() < 0.2:
                times.append(best_us(s.clone, repeat=repeat))
            s.apply_action(rng.choice(s.legal_actions()))
    return statistics.median(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("systems", nargs="*", default=list(available()))
    args = p.parse_args()
    out: dict[str, float | None] = {sid: round(cardspec_copy_us(sid, args.positions, args.repeat), 2)
                                    for sid in args.systems}
    peer = pyspiel_clone_us(args.positions, args.repeat)
    out["openspiel euchre clone()"] = round(peer, 2) if peer is not None else None
    if args.json:
        print(json.dumps(out))
        return
    print(f"State.copy() in us, median over {args.positions} positions per system; cardspec engine: "
          f"{'compiled' if compiled() else 'pure Python'}")
    for k, v in out.items():
        print(f"  {k:<28} {'not installed (pip install open_spiel)' if v is None else f'{v:8.2f}'}")


if __name__ == "__main__":
    main()
