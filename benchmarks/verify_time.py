"""Wall time of ``cardspec verify`` over every bundled spec: the issue-11 goal of at most 60 s on 2 cores.

Runs ``cardspec verify -j WORKERS --json`` in a fresh subprocess ``--runs`` times (each one a new
process, so no proof is remembered from an earlier run) and prints the wall seconds (min, median,
max) beside the goal, the number of findings and how many failed, and each system's share of the
proof time (the findings' own seconds, summed per system, from the last run). The findings do not
depend on the number of workers; only the time does.

    python benchmarks/verify_time.py [--workers 2] [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter

GOAL_S = 60.0


def one_run(workers: int) -> tuple[float, list[dict[str, object]]]:
    """Wall seconds of one ``cardspec verify -j workers --json`` and its findings."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "cardspec", "verify", "-j", str(workers), "--json"],
                         capture_output=True, text=True, check=False)
    secs = time.perf_counter() - t0
    if out.returncode != 0:
        print(f"verify_time: cardspec verify exited {out.returncode}: {out.stderr.strip()[-400:]}", file=sys.stderr)
        raise SystemExit(2)
    data = json.loads(out.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    return secs, findings


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workers", type=int, default=2, help="verify -j (default 2, the goal's 2 cores)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    if a.runs < 1 or a.workers < 1:
        print("verify_time: --runs and --workers must be at least 1", file=sys.stderr)
        return 2
    walls: list[float] = []
    findings: list[dict[str, object]] = []
    for _ in range(a.runs):
        secs, findings = one_run(a.workers)
        walls.append(secs)
    per_system: Counter[str] = Counter()
    for f in findings:
        per_system[str(f["system"])] += float(f["seconds"])  # type: ignore[arg-type]
    failed = sum(1 for f in findings if f["status"] in ("counterexample", "timeout"))
    med = statistics.median(walls)
    report = {"workers": a.workers, "wall_s": {"min": round(min(walls), 1), "median": round(med, 1),
                                               "max": round(max(walls), 1)},
              "goal_s": GOAL_S, "met": med <= GOAL_S, "findings": len(findings), "failed": failed,
              "proof_seconds_by_system": {k: round(v, 1) for k, v in per_system.most_common()}}
    if a.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"cardspec verify -j {a.workers} over every bundled spec, {a.runs} runs (a new process each)")
    print(f"  wall s: min {min(walls):.1f}, median {med:.1f}, max {max(walls):.1f}; goal at most {GOAL_S:.0f} s: "
          f"{'met' if med <= GOAL_S else 'NOT met'} at the median")
    print(f"  {len(findings)} findings, {failed} failed")
    print("  proof seconds by system (summed over its findings, last run):")
    for k, v in per_system.most_common():
        print(f"    {k:16} {v:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
