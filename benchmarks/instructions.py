"""Instructions per action, counted by valgrind: the steady figure where timings on a shared host move by 10-30%.

For each system, plays ``--matches`` seeded matches with uniform random legal actions through the step API
(``legal_actions`` / ``apply``, a match cut after 50 hands) after a warm-up of a tenth as many, under
``valgrind --tool=cachegrind``; runs the warm-up alone the same way; and prints the difference divided by
the actions played. Euchre is played with OpenSpiel's house rules (as ``compare_openspiel.py``); every other
system with its default options. ``PYTHONHASHSEED=0`` and one OpenBLAS thread keep the counts within about
1.5% from run to run (object addresses still vary). Compare builds by pointing ``PYTHONPATH`` at each::

    PYTHONPATH=/path/to/compiled/install python benchmarks/instructions.py --matches 100 euchre riding-the-bus

``--bulk`` counts the bulk loop instead (``Game.simulate`` with random bots, each match cut after 50 hands), the
path ``compare_openspiel.py`` sets against OpenSpiel's ``evaluate_bots``.

Counts of a few matches include first-use work (memo and table building); use at least 30 matches (3 for
The Card Game and Hand and Foot, whose matches are long). Exits 2 when valgrind is not installed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys

from compare_openspiel import OPENSPIEL_PARAMS  # this folder's: Euchre under OpenSpiel's house rules
from throughput import HANDS_PER_MATCH  # and the same cut of a match

from cardspec.engine.spec import available


def play(sid: str, matches: int, warm_only: bool, bulk: bool = False) -> int:
    """Play the warm-up (and, unless ``warm_only``, the timed matches); the timed matches' action count. With
    ``bulk``, through ``Game.simulate`` with random bots (whole matches, seeds 0 on; the warm-up from 10**6)."""
    from cardspec.engine.game import Game
    from cardspec.openspiel import options_for

    opts = options_for(dict(OPENSPIEL_PARAMS), "instructions") if sid == "euchre" else {}
    g = Game.from_system(sid, opts)

    def run_bulk(k: int, seed: int) -> int:
        return sum(len(st.history) for st in g.simulate(k, "random", seed, hand_limit=HANDS_PER_MATCH))

    if bulk:
        run_bulk(max(1, matches // 10), 10**6)
        return 0 if warm_only else run_bulk(matches, 0)

    def run(k: int) -> int:
        rnd = random.Random(1).random
        acts = 0
        for m in range(k):
            st = g.new_initial_state(m)
            la, ap = st.legal_actions, st.apply
            while st.winners is None and len(st.hand_results) < HANDS_PER_MATCH:
                legal = la()
                ap(legal[int(rnd() * len(legal))])
            acts += len(st.history)
        return acts

    run(max(1, matches // 10))
    return 0 if warm_only else run(matches)


def count(sid: str, matches: int, warm_only: bool, bulk: bool = False) -> int:
    """Instructions of one child run under cachegrind."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--child", sid, str(matches)] + (["--warm-only"] if warm_only else []) \
        + (["--bulk"] if bulk else [])
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if m is None:
        raise RuntimeError(f"no instruction count in valgrind's output for {sid}")
    return int(m.group(1).replace(",", ""))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--matches", type=int, default=30)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--warm-only", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--bulk", action="store_true",
                   help="the bulk loop (Game.simulate, random bots) in place of the step API")
    p.add_argument("systems", nargs="*", default=["euchre", "birdhead", "riding-the-bus"])
    a = p.parse_args()
    if a.child:
        print(play(a.systems[0], int(a.systems[1]), a.warm_only, a.bulk))
        return 0
    if a.matches < 1:
        print("instructions: --matches must be at least 1", file=sys.stderr)
        return 2
    unknown = [s for s in a.systems if s not in available()]
    if unknown:
        print(f"instructions: no system {unknown[0]!r}; the systems are {', '.join(available())}", file=sys.stderr)
        return 2
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (apt install valgrind)", file=sys.stderr)
        return 2
    from cardspec import compiled

    print(f"cardspec engine: {'compiled' if compiled() else 'pure Python'}; {a.matches} matches per system, "
          f"{'the bulk loop (Game.simulate)' if a.bulk else 'the step API'}")
    per: dict[str, float] = {}
    for sid in a.systems:
        actions = play(sid, a.matches, False, a.bulk)
        spent = count(sid, a.matches, False, a.bulk) - count(sid, a.matches, True, a.bulk)
        per[sid] = spent / actions
        ratio = f", {per[sid] / per['euchre']:.2f}x Euchre's" if "euchre" in per else ""
        print(f"{sid:<16} {actions:>7} actions  {per[sid]:>9,.0f} instructions per action{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
