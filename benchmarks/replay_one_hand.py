"""One-hand Euchre records audited per second: the issue-9 figure for `cardspec replay`.

Writes N one-hand records (``scope: hand``, no seed, an explicit deal, results stated) with
non-default options (all pass twice: the hand is thrown in, as some engines play it), then times the audit of
the file, as ``cardspec replay FILE`` runs it: reading every line, validating it, replaying every
action and comparing every stated result. Half the records leave the kitty's three hidden cards
and the dealer's discard unseen (``?``). Prints records per second for each kind and together.
Pin to one core with ``taskset -c 0``.

    python benchmarks/replay_one_hand.py [-n 10000] [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from cardspec.engine.audit import audit_file
from cardspec.engine.game import Game
from cardspec.engine.record import deal_of, dumps, record_of

OPTIONS = {"all_pass": "redeal"}


def one_hand(game: Game, seed: int, hide: bool) -> str:
    """A one-hand record played by a seeded random bot, optionally with the unseen cards hidden."""
    st = game.new_initial_state(seed)
    deal = deal_of(st)
    rng = random.Random(seed)
    while not st.hand_results:
        st.apply(rng.choice(st.legal_actions()))
    rec = record_of(st)
    rec.update(seed=None, deals=[deal], scope="hand")
    rec["results"]["winners"] = None
    if hide:
        kitty = deal["piles"]["kitty"]
        deal["piles"]["kitty"] = kitty[:1] + ["?"] * (len(kitty) - 1)
        for step in rec["actions"]:
            if step["action"].startswith("discard "):
                step["action"] = "discard ?"
    return dumps(rec)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=10_000, help="records per file")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = Game.from_system("euchre", OPTIONS)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, hide in (("all cards known", False), ("kitty and discard unseen", True)):
            path = Path(tmp) / f"{hide}.jsonl"
            path.write_text("".join(one_hand(game, s, hide) + "\n" for s in range(args.n)), encoding="utf-8")
            rates = []
            for _ in range(args.runs):
                t = time.perf_counter()
                verdicts = [v.verdict for v in audit_file(path)]
                rates.append(args.n / (time.perf_counter() - t))
                if verdicts.count("accepted") != args.n:
                    raise SystemExit(f"{kind}: {args.n - verdicts.count('accepted')} records not accepted")
            out[kind] = {"records": args.n, "min": min(rates), "median": statistics.median(rates),
                         "max": max(rates)}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"cardspec replay, one-hand euchre records, options {OPTIONS}, {args.runs} runs (records/s)")
    print(f"{'records':28} {'min':>8} {'median':>8} {'max':>8}")
    for kind, r in out.items():
        print(f"{kind:28} {r['min']:8.0f} {r['median']:8.0f} {r['max']:8.0f}")


if __name__ == "__main__":
    main()
