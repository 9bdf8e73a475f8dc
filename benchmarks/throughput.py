"""Random full hands, and actions, per second through the public step API, and hands through the bulk loop.

For each system: start matches from seeds, and count complete hands (deals)
and the actions taken, choosing uniformly among ``legal_actions()`` and calling
``apply``; then the same for ``Game.simulate`` (the bulk loop, uniform random
bots), which counts hands only. Several runs; prints min / median / max of
each (every run times every system in turn, so that all see the same machine
load), and each system's cost per action beside Euchre's (goal: within 2x).
Every bundled system by default. Pin to one core with ``taskset -c 0``.

The figures are steady-state ones: each system's ``Game`` is built once and
played untimed for ``--warm-up`` seconds first (default 1), so that the memos
a long simulation keeps warm (hand values, legal lists, meld searches) are
warm when the timing starts, as they are after the first seconds of any long
run; ``--warm-up 0`` times a cold start.

    python benchmarks/throughput.py [--seconds 2] [--runs 5] [--json] [SYSTEM ...]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from cardspec import compiled
from cardspec.engine.game import Game
from cardspec.engine.spec import available

PER_ACTION_GOAL = 2.0
"""Goal: every system's cost per action within this factor of Euchre's."""
HANDS_PER_MATCH = 50
"""A match is cut after this many hands: uniform random play need not end a match (Bid Euchre's totals sink
for ever), only its hands; the figure is hands per second either way."""


def hands_per_second(game: Game, seconds: float, seed: int) -> tuple[float, float]:
    """Hands completed, and actions taken, per second of random play through the step API."""
    rng = random.Random(seed)
    rnd = rng.random
    hands = 0
    actions = 0
    n_matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        st = game.new_initial_state(seed * 100_000 + n_matches)
        n_matches += 1
        results = st.hand_results
        legal_actions, apply = st.legal_actions, st.apply
        while st.winners is None and len(results) < HANDS_PER_MATCH:
            legal = legal_actions()
            apply(legal[int(rnd() * len(legal))])
        hands += len(results)
        actions += len(st.history)
        if time.perf_counter() >= deadline:
            break
    took = time.perf_counter() - start
    return hands / took, actions / took


def bulk_hands_per_second(game: Game, seconds: float, seed: int) -> float:
    """Hands completed per second by ``Game.simulate`` with uniform random bots (matches cut as above)."""
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    for st in game.simulate(10**9, "random", seed * 100_000, hand_limit=HANDS_PER_MATCH):
        hands += len(st.hand_results)
        if time.perf_counter() >= deadline:
            break
    return hands / (time.perf_counter() - start)


def spread(runs: list[float]) -> dict[str, int]:
    return {"min": round(min(runs)), "median": round(statistics.median(runs)), "max": round(max(runs))}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("--warm-up", type=float, default=1.0, metavar="SECONDS",
                   help="untimed play of each system before its runs (default 1; 0 times a cold start)")
    p.add_argument("systems", nargs="*", default=list(available()))
    args = p.parse_args()
    games = {sid: Game.from_system(sid) for sid in args.systems}
    if not args.json:
        print(f"cardspec engine: {'compiled' if compiled() else 'pure Python'} (CARDSPEC_COMPILE=1 builds it)")
    for game in games.values():
        if args.warm_up > 0:
            hands_per_second(game, args.warm_up, 0)
    step: dict[str, list[tuple[float, float]]] = {sid: [] for sid in games}
    bulk: dict[str, list[float]] = {sid: [] for sid in games}
    for i in range(args.runs):  # each run times every system in turn, so that all see the same machine load
        for sid, game in games.items():
            step[sid].append(hands_per_second(game, args.seconds, i + 1))
            bulk[sid].append(bulk_hands_per_second(game, args.seconds, i + 1))
    out = {}
    for sid in games:
        out[sid] = {"step_api_hands_per_s": spread([b[0] for b in step[sid]]),
                    "step_api_actions_per_s": spread([b[1] for b in step[sid]]),
                    "bulk_hands_per_s": spread(bulk[sid])}
        if not args.json:
            h, a, b = (out[sid][k] for k in ("step_api_hands_per_s", "step_api_actions_per_s", "bulk_hands_per_s"))
            print(f"{sid:<16} through the step API: hands/s min {h['min']}, median {h['median']}, max {h['max']}; "
                  f"actions/s min {a['min']}, median {a['median']}, max {a['max']}")
            print(f"{'':<16} through the bulk loop: hands/s min {b['min']}, median {b['median']}, max {b['max']}")
    base = out.get("euchre", {}).get("step_api_actions_per_s", {}).get("median")
    if base:
        for sid, row in out.items():  # cost per action relative to Euchre's: actions/s of Euchre over this one's
            row["cost_per_action_vs_euchre"] = round(base / row["step_api_actions_per_s"]["median"], 2)
            if not args.json:
                ratio = row["cost_per_action_vs_euchre"]
                print(f"{sid:<16} cost per action {1e6 / row['step_api_actions_per_s']['median']:6.1f} us, "
                      f"{ratio:.2f}x Euchre's (goal at most {PER_ACTION_GOAL:.1f}x: "
                      f"{'met' if ratio <= PER_ACTION_GOAL else 'NOT met'})")
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
