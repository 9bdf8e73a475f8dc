"""cardspec's Euchre beside OpenSpiel's (pyspiel), measured interleaved in one process run.

Four paths, each playing uniform random legal actions over full deals (hands):

* ``cardspec step``: the step API (``legal_actions`` / ``apply``) over seeded matches, counting hands;
* ``cardspec bulk``: ``Game.simulate`` with uniform random bots (the bulk loop, whose records are the step
  API's for the same seeds), counting hands;

  both timed by ``benchmarks/throughput.py``'s loops (a match cut after 50 hands; Euchre's end well before);
* ``pyspiel stepped``: OpenSpiel's C++ euchre driven from Python (``new_initial_state``, chance outcomes
  sampled uniformly, ``legal_actions``, ``apply_action`` until terminal; one OpenSpiel game is one deal);
* ``pyspiel evaluate_bots``: OpenSpiel's C++ game loop (``pyspiel.evaluate_bots`` with
  ``pyspiel.make_uniform_random_bot`` for every seat), one call per deal.

House rules are matched: OpenSpiel's parameters (``allow_lone_defender`` false, ``stick_the_dealer``
true) become cardspec options by ``cardspec.openspiel.options_for`` (``farmers_hand=off``,
``dealer_discard=not_turned_card``, ``lone_defender=off``, ``all_pass=dealer_must_name``).

Each round runs one timed slice of each path, the order rotating from round to round so that all see
the same machine load; the ratios are taken within each round: cardspec step over pyspiel stepped, and
cardspec bulk over ``evaluate_bots``. Goals: 1.5x for step, 1.0x for bulk. Pin to one core::

    taskset -c 0 python benchmarks/compare_openspiel.py [--seconds 1] [--rounds 5] [--json]

Exits 2 with a message when pyspiel is not installed (``pip install open_spiel``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from throughput import bulk_hands_per_second, hands_per_second  # this folder's: the same timed loops

from cardspec import compiled
from cardspec.engine.game import Game
from cardspec.openspiel import options_for

OPENSPIEL_PARAMS: dict[str, Any] = {"allow_lone_defender": False, "stick_the_dealer": True}
GOALS = {"step": 1.5, "bulk": 1.0}
BULK_PATH = "Game.simulate (the bulk loop: Python, one match after another)"


def pyspiel_stepped_slice(game: Any, seconds: float, seed: int) -> float:
    """Deals per second of OpenSpiel's euchre stepped from Python, chance outcomes sampled uniformly."""
    rnd = random.Random(seed).random
    deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rnd() * len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rnd() * len(legal))])
        deals += 1
        if time.perf_counter() >= deadline:
            break
    return deals / (time.perf_counter() - start)


def evaluate_bots_slice(pyspiel: Any, game: Any, seconds: float, seed: int) -> float:
    """Deals per second of OpenSpiel's C++ game loop with uniform random bots, one call per deal."""
    bots = [pyspiel.make_uniform_random_bot(p, seed * 10 + p) for p in range(game.num_players())]
    evaluate = pyspiel.evaluate_bots
    deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            evaluate(game.new_initial_state(), bots, seed * 1_000_000 + deals)
            deals += 1
        if time.perf_counter() >= deadline:
            break
    return deals / (time.perf_counter() - start)


def spread(xs: list[float], digits: int = 0) -> dict[str, float]:
    r: Callable[[float], float] = (lambda x: float(round(x))) if digits == 0 else (lambda x: round(x, digits))
    return {"min": r(min(xs)), "median": r(statistics.median(xs)), "max": r(max(xs))}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=1.0, help="length of each timed slice (default 1)")
    p.add_argument("--rounds", type=int, default=5, help="rounds, each one slice of every path (default 5)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    if a.rounds < 1 or a.seconds <= 0:
        print("compare_openspiel: --rounds must be at least 1 and --seconds positive", file=sys.stderr)
        return 2
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print("compare_openspiel: pyspiel is not installed; install OpenSpiel with `pip install open_spiel` "
              "(or cardspec's test extras) to compare against it", file=sys.stderr)
        return 2
    options = options_for(dict(OPENSPIEL_PARAMS), "compare_openspiel")
    game = Game.from_system("euchre", options)
    os_game = pyspiel.load_game("euchre", dict(OPENSPIEL_PARAMS))
    paths: dict[str, Callable[[float, int], float]] = {
        "cardspec_step": lambda s, seed: hands_per_second(game, s, seed)[0],
        "cardspec_bulk": lambda s, seed: bulk_hands_per_second(game, s, seed),
        "pyspiel_stepped": lambda s, seed: pyspiel_stepped_slice(os_game, s, seed),
        "pyspiel_evaluate_bots": lambda s, seed: evaluate_bots_slice(pyspiel, os_game, s, seed),
    }
    names = list(paths)
    for f in paths.values():  # warm up: imports, caches, first allocations
        f(min(0.1, a.seconds), 0)
    runs: dict[str, list[float]] = {k: [] for k in names}
    for rnd in range(a.rounds):
        for k in names[rnd % len(names):] + names[:rnd % len(names)]:
            runs[k].append(paths[k](a.seconds, rnd + 1))
    step = [c / o for c, o in zip(runs["cardspec_step"], runs["pyspiel_stepped"], strict=True)]
    bulk = [c / o for c, o in zip(runs["cardspec_bulk"], runs["pyspiel_evaluate_bots"], strict=True)]
    out: dict[str, Any] = {
        "cardspec_engine": "compiled" if compiled() else "pure Python",
        "openspiel_params": OPENSPIEL_PARAMS,
        "cardspec_options": options,
        "rounds": a.rounds, "seconds_per_slice": a.seconds,
        "deals_per_s": {k: spread(v) for k, v in runs.items()},
        "bulk_path": BULK_PATH,
        "ratios": {
            "step_vs_pyspiel_stepped": {**spread(step, 3), "goal": GOALS["step"],
                                        "met": statistics.median(step) >= GOALS["step"]},
            "bulk_vs_evaluate_bots": {**spread(bulk, 3), "goal": GOALS["bulk"],
                                      "met": statistics.median(bulk) >= GOALS["bulk"]},
        },
    }
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"Euchre, uniform random legal play over full deals; {a.rounds} interleaved rounds of {a.seconds:g} s "
          "slices")
    print(f"  cardspec engine: {out['cardspec_engine']} (cardspec.compiled(); CARDSPEC_COMPILE=1 builds it)")
    print("  OpenSpiel " + ", ".join(f"{k}={v}" for k, v in OPENSPIEL_PARAMS.items())
          + "; cardspec " + ", ".join(f"{k}={v}" for k, v in options.items()))
    print(f"{'path':<34} {'min':>9} {'median':>9} {'max':>9}   (deals/s)")
    labels = {"cardspec_step": "cardspec step API", "cardspec_bulk": "cardspec bulk (Game.simulate)",
              "pyspiel_stepped": "pyspiel stepped from Python",
              "pyspiel_evaluate_bots": "pyspiel evaluate_bots (C++ loop)"}
    for k in names:
        d = out["deals_per_s"][k]
        print(f"{labels[k]:<34} {d['min']:>9.0f} {d['median']:>9.0f} {d['max']:>9.0f}")
    print(f"{'ratio (per round)':<34} {'min':>9} {'median':>9} {'max':>9}   goal")
    for k, label in (("step_vs_pyspiel_stepped", "cardspec step / pyspiel stepped"),
                     ("bulk_vs_evaluate_bots", "cardspec bulk / evaluate_bots")):
        r = out["ratios"][k]
        print(f"{label:<34} {r['min']:>9.3f} {r['median']:>9.3f} {r['max']:>9.3f}   {r['goal']:.1f}x "
              f"({'met' if r['met'] else 'not met'} at the median)")
    print(f"  cardspec bulk = {BULK_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
