"""Step-API hands per second of this checkout beside another build, measured in one interleaved run.

The other build is any Python environment where another version of cardspec is
installed (for example the commit before a change)::

    git worktree add /tmp/base <commit>
    python -m venv /tmp/venv-base && /tmp/venv-base/bin/pip install /tmp/base
    taskset -c 0 python benchmarks/side_by_side.py --baseline-python /tmp/venv-base/bin/python

Each round runs ``benchmarks/throughput.py`` once under each interpreter, the
two alternating so that both see the same machine load; the figures printed
are the medians over the rounds, per system, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def one_run(python: str, systems: list[str], seconds: float) -> dict[str, float]:
    """Median hands/s per system from one throughput.py run under ``python``."""
    out = subprocess.run([python, str(HERE / "throughput.py"), "--json", "--runs", "1", "--seconds", str(seconds),
                          *systems], check=True, capture_output=True, text=True, timeout=600)
    data = json.loads(out.stdout)
    return {s: float(v["step_api_hands_per_s"]["median"]) for s, v in data.items()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--baseline-python", required=True, help="interpreter of the other build")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--json", action="store_true")
    p.add_argument("systems", nargs="*", default=["euchre", "bird-dog-11", "riding-the-bus"])
    a = p.parse_args()
    if a.rounds < 1 or a.seconds <= 0:
        print("side_by_side: --rounds must be at least 1 and --seconds positive", file=sys.stderr)
        return 2
    new: dict[str, list[float]] = {s: [] for s in a.systems}
    old: dict[str, list[float]] = {s: [] for s in a.systems}
    for _ in range(a.rounds):
        for s, v in one_run(a.baseline_python, a.systems, a.seconds).items():
            old[s].append(v)
        for s, v in one_run(sys.executable, a.systems, a.seconds).items():
            new[s].append(v)
    rows = {s: {"baseline": round(statistics.median(old[s])), "this": round(statistics.median(new[s])),
                "ratio": round(statistics.median(new[s]) / statistics.median(old[s]), 3)} for s in a.systems}
    if a.json:
        print(json.dumps(rows))
    else:
        print(f"{'system':<16} {'baseline':>10} {'this':>10} {'ratio':>7}   (step-API hands/s, medians of "
              f"{a.rounds} interleaved rounds)")
        for s, r in rows.items():
            print(f"{s:<16} {r['baseline']:>10} {r['this']:>10} {r['ratio']:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
