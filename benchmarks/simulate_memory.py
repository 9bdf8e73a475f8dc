"""Peak memory of ``cardspec simulate`` at 10^4 matches and at a larger count: flat memory means streaming.

Runs ``python -m cardspec simulate SYSTEM -n N --records FILE.jsonl.gz --json`` in a subprocess for each
count (records streamed to a temporary gzip file, deleted afterwards), and prints the peak resident set
size of each run, the ``ru_maxrss`` of ``getrusage`` for that child (read per child with ``os.wait4``,
which reports the same figure as ``resource.getrusage(RUSAGE_CHILDREN)`` but for one child alone, so
that an earlier run cannot mask a later one), and the ratio large / small. Goal: within 10% (ratio at
most 1.10). With ``--workers W`` the figure is the largest peak of the child and its worker processes
(not their sum).

    python benchmarks/simulate_memory.py [SYSTEM] [--small 10000] [--large 100000] [--workers 1] [--bot rule] [--json]
    python benchmarks/simulate_memory.py --large 1000000          # the issue's figure (about an hour with the rule bot)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GOAL = 1.10


def peak_rss(system: str, n: int, workers: int, seed: int, bot: str) -> dict[str, Any]:
    """Run one ``cardspec simulate`` and return its peak RSS (MiB), wall time and record file size."""
    with tempfile.TemporaryDirectory(prefix="cardspec-mem-") as tmp:
        path = Path(tmp) / "records.jsonl.gz"
        argv = [sys.executable, "-m", "cardspec", "simulate", system, "-n", str(n), "--seed", str(seed),
                "--workers", str(workers), "--bot", bot, "--records", str(path), "--json"]
        t0 = time.perf_counter()
        with open(Path(tmp) / "out", "w+b") as out, open(Path(tmp) / "err", "w+b") as err:
            proc = subprocess.Popen(argv, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)  # reaps the child: its own rusage, not all children's
            proc.returncode = os.waitstatus_to_exitcode(status)
            secs = time.perf_counter() - t0
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
        if proc.returncode != 0:
            raise SystemExit(f"simulate_memory: {' '.join(argv[1:])} failed ({proc.returncode}): "
                             f"{stderr.decode(errors='replace').strip()}")
        scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
        stats = json.loads(stdout)
        return {"matches": n, "peak_rss_mib": round(usage.ru_maxrss * scale / 2**20, 1),
                "seconds": round(secs, 1), "records_bytes": path.stat().st_size,
                "mean_hands": stats["mean_hands"]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("system", nargs="?", default="euchre")
    p.add_argument("--small", type=int, default=10_000, help="matches of the small run (default 10^4)")
    p.add_argument("--large", type=int, default=100_000,
                   help="matches of the large run (default 10^5; 1000000 for the issue's figure)")
    p.add_argument("--workers", type=int, default=1, help="--workers of both runs (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", default="rule", help="--bot of both runs (default rule; random is faster)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    if not 1 <= a.small <= a.large <= 1_000_000 or a.workers < 1:
        print("simulate_memory: want 1 <= --small <= --large <= 1000000 and --workers >= 1", file=sys.stderr)
        return 2
    small = peak_rss(a.system, a.small, a.workers, a.seed, a.bot)
    large = peak_rss(a.system, a.large, a.workers, a.seed, a.bot)
    ratio = round(large["peak_rss_mib"] / small["peak_rss_mib"], 3)
    out = {"system": a.system, "workers": a.workers, "bot": a.bot, "small": small, "large": large, "ratio": ratio,
           "goal": GOAL, "met": ratio <= GOAL}
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"cardspec simulate {a.system} --bot {a.bot} --workers {a.workers} --records FILE.jsonl.gz: "
          "peak RSS of the child")
    for r in (small, large):
        print(f"  -n {r['matches']:>8}: {r['peak_rss_mib']:>7.1f} MiB  ({r['seconds']:.1f} s, "
              f"{r['records_bytes'] / 2**20:.1f} MiB of gzip records)")
    print(f"  ratio {ratio:.3f} (goal: at most {GOAL:.2f}, {'met' if out['met'] else 'not met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
