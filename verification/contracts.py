"""CrossHair over the engine's rule kernels: contract checks and behaviour diffs.

:func:`run_crosshair` runs ``crosshair check`` (PEP 316 contracts, see
:mod:`cardspec.engine.kernels`) on each kernel in its own process, with a
per-condition budget (CrossHair's defaults stop too early to find planted bugs)
and a smaller per-path budget, and returns one result per function: ``ok`` (no
counterexample; ``detail`` says how many conditions were confirmed over all
paths), ``counterexample`` (``detail`` holds CrossHair's messages) or ``error``.

:func:`run_diffbehavior` runs ``crosshair diffbehavior`` where the engine has
two implementations of one rule: an inlined fast path beside its reference
(legal plays, trick winner), a kernel beside a brute-force reading of the rule
text (hand values), and, for
each registered ambiguity whose readings change a spec's ranking clause, the
card power under one reading beside the other (there a difference is expected;
it shows where the readings part). ``diffbehavior`` ignores preconditions, so
the targets below take fixed-size int arguments and first map them into the
domain the engine uses (non-negative masks of at most :data:`MASK_BITS` cards,
non-negative card values, ranks and suits of the deck).

Run from a shell: ``python -m cardspec.verification.contracts [--budget 2]``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from cardspec.engine import kernels
from cardspec.engine.components.tricks import plays_fast, plays_reference, winner_fast
from cardspec.engine.handvalue import hand_value_by_subsets
from cardspec.engine.ranking import trick_winner as engine_trick_winner

KERNELS_MODULE = "cardspec.engine.kernels"
THIS_MODULE = "cardspec.verification.contracts"
MASK_BITS = 64
"""Masks in the legal-play diff cover this many cards (every bundled trick deck is smaller)."""
READINGS_ENV = "CARDSPEC_DIFF_READINGS"
"""Environment variable carrying the two ranking readings to the diffbehavior process."""

_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+): (?P<level>error|info|warning): (?P<msg>.*)$")


def kernel_functions() -> list[str]:
    """Names of the kernels that carry PEP 316 postconditions (the ones CrossHair checks)."""
    return [name for name, fn in inspect.getmembers(kernels, inspect.isfunction)
            if fn.__module__ == kernels.__name__ and "post:" in (fn.__doc__ or "")]


def _crosshair(args: Sequence[str], timeout: float, env: dict[str, str] | None = None
               ) -> tuple[int, str, str, float]:
    """Run ``python -m crosshair <args>``: (exit code, stdout, stderr, seconds); -1 on a hard timeout."""
    start = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "crosshair", *args], capture_output=True, text=True,
                           timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        return -1, "", f"no answer within {timeout:.0f} s", time.perf_counter() - start
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - start


def _check_one(target: str, budget_s: float, path_s: float) -> dict[str, Any]:
    code, out, err, secs = _crosshair(
        ["check", "--analysis_kind=PEP316", f"--per_condition_timeout={budget_s}",
         f"--per_path_timeout={path_s}", "--report_all", target],
        timeout=120 + 60 * budget_s)
    lines = [m for m in map(_LINE.match, out.splitlines()) if m]
    errors = [m.group("msg") for m in lines if m.group("level") == "error"]
    infos = [m.group("msg") for m in lines if m.group("level") == "info"]
    confirmed = sum(1 for x in infos if x.startswith("Confirmed"))
    if errors:
        status, detail = "counterexample", "; ".join(errors)
    elif code != 0 or not infos:
        status = "error"
        detail = (err.strip().splitlines() or out.strip().splitlines() or ["no condition was checked"])[-1]
    else:
        status = "ok"
        detail = (f"{len(infos)} postconditions, no counterexample; {confirmed} confirmed over all paths, "
                  f"{len(infos) - confirmed} searched for {budget_s:g} s each")
    return {"function": target.rsplit(".", 1)[-1] if target.startswith(KERNELS_MODULE) else target,
            "status": status, "detail": detail, "seconds": round(secs, 2)}


def run_crosshair(budget_s: float = 2.0, targets: Sequence[str] | None = None,
                  jobs: int | None = None) -> list[dict[str, Any]]:
    """``crosshair check`` on each kernel (or on ``targets``: qualified names or file paths).

    ``budget_s`` is the per-condition budget (CPU seconds); each path gets a
    quarter of it, at most 0.5 s. Targets run in ``jobs`` processes at once
    (default: one per core, at most 2). Returns, per target, ``function``,
    ``status`` (ok / counterexample / error), ``detail`` and ``seconds``.
    """
    names = list(targets) if targets is not None else [f"{KERNELS_MODULE}.{n}" for n in kernel_functions()]
    path_s = min(0.5, budget_s / 4)
    return _in_parallel(lambda target: _check_one(target, budget_s, path_s), names, jobs)


def _in_parallel(run: Callable[[Any], dict[str, Any]], items: Sequence[Any], jobs: int | None) -> list[dict[str, Any]]:
    """``run`` over ``items``, ``jobs`` CrossHair processes at a time (default: one per core, at most 2)."""
    workers = jobs or max(1, min(2, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(run, items))


# ---------------------------------------------------------------------------------------------
# diffbehavior targets: fixed-size ints in, mapped into the engine's domain first.

_FULL = (1 << MASK_BITS) - 1


def diff_plays_fast(hand: int, led_mask: int, following: bool) -> tuple[int, ...]:
    """:func:`tricks.plays_fast` (the inlined legal-play path) on a non-negative hand."""
    return plays_fast(hand & _FULL, led_mask & _FULL, following)


def diff_plays_reference(hand: int, led_mask: int, following: bool) -> tuple[int, ...]:
    """:func:`tricks.plays_reference` (via :func:`kernels.follow_mask`) on the same hand."""
    return plays_reference(hand & _FULL, led_mask & _FULL, following)


def _hand3(v0: int, s0: int, r0: int, v1: int, s1: int, r1: int, v2: int, s2: int, r2: int
           ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    return (abs(v0), abs(v1), abs(v2)), (s0, s1, s2), (r0, r1, r2)


def diff_hand_value_kernel(v0: int, s0: int, r0: int, v1: int, s1: int, r1: int, v2: int, s2: int, r2: int,
                           set_size: int, set_units: int) -> int:
    """:func:`kernels.hand_value_of_cards` (the engine's hand value, ``combine: best_suit_sum``, which reads the
    hand through per-card tables) on a three-card hand: cards 0, 1 and 2 of those tables."""
    values, suits, ranks = _hand3(v0, s0, r0, v1, s1, r1, v2, s2, r2)
    return kernels.hand_value_of_cards([0, 1, 2], values, suits, ranks, abs(set_size), abs(set_units))


def diff_hand_value_subsets(v0: int, s0: int, r0: int, v1: int, s1: int, r1: int, v2: int, s2: int, r2: int,
                            set_size: int, set_units: int) -> int:
    """:func:`handvalue.hand_value_by_subsets` (brute force over subsets) on the same hand."""
    values, suits, ranks = _hand3(v0, s0, r0, v1, s1, r1, v2, s2, r2)
    return hand_value_by_subsets(values, suits, ranks, abs(set_size), abs(set_units))


def diff_winner_fast(p0: int, p1: int, p2: int, p3: int) -> int:
    """:func:`tricks.winner_fast` (inlined in ``try_apply``) on a four-card trick (powers are never negative)."""
    return winner_fast((abs(p0), abs(p1), abs(p2), abs(p3)), [0, 1, 2, 3])


def diff_winner_reference(p0: int, p1: int, p2: int, p3: int) -> int:
    """The engine's :func:`ranking.trick_winner` (that is, :func:`kernels.trick_winner`) on the same trick."""
    return engine_trick_winner((abs(p0), abs(p1), abs(p2), abs(p3)), [0, 1, 2, 3])


@dataclass(frozen=True)
class _Reading:
    """A ranking clause as the kernels take it."""

    ranks: int
    suit_colors: tuple[int, ...]
    plain: tuple[int, ...]
    trump: tuple[int, ...]
    bower: int
    twin_top: bool


def _readings_from_env() -> tuple[_Reading, _Reading] | None:
    raw = os.environ.get(READINGS_ENV)
    if not raw:
        return None
    a, b = (_Reading(r["ranks"], tuple(r["suit_colors"]), tuple(r["plain"]), tuple(r["trump"]), r["bower"],
                     r["twin_top"]) for r in json.loads(raw))
    return a, b


_READINGS = _readings_from_env()


def _power(r: _Reading, rank: int, suit: int, trump: int, led: int, twin_of_trump_card: bool) -> int:
    n = len(r.suit_colors)
    return kernels.card_power(abs(rank) % r.ranks, abs(suit) % n, abs(trump) % (n + 1) - 1, abs(led) % n,
                              r.bower, r.suit_colors, r.plain, r.trump, twin_of_trump_card and r.twin_top)


def diff_power_reading_a(rank: int, suit: int, trump: int, led: int, twin_of_trump_card: bool) -> int:
    """Card power under the first reading (passed in :data:`READINGS_ENV`)."""
    assert _READINGS is not None, f"set {READINGS_ENV}"
    return _power(_READINGS[0], rank, suit, trump, led, twin_of_trump_card)


def diff_power_reading_b(rank: int, suit: int, trump: int, led: int, twin_of_trump_card: bool) -> int:
    """Card power under the second reading."""
    assert _READINGS is not None, f"set {READINGS_ENV}"
    return _power(_READINGS[1], rank, suit, trump, led, twin_of_trump_card)


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffPair:
    """Two implementations of one rule, and whether they should agree."""

    name: str
    fn1: str
    fn2: str
    expect_same: bool
    env: dict[str, str] | None = None
    explain: Callable[[dict[str, int], str, str], str] | None = None
    """Renders a difference (the given ints, both results) in the game's terms."""


_GIVEN = re.compile(r"^Given: \((?P<args>.*)\),$")
_RESULT = re.compile(r"^\s*\S+ : returns (?P<value>.*)$")


def _parse_diff(text: str) -> tuple[dict[str, int], str, str] | None:
    """The first difference in a ``diffbehavior`` report: arguments (ints, bools as 0/1) and both results."""
    lines = text.splitlines()
    for i, line in enumerate(lines[:-2]):
        g = _GIVEN.match(line)
        r1, r2 = _RESULT.match(lines[i + 1]), _RESULT.match(lines[i + 2])
        if g and r1 and r2:
            args = {}
            for part in g.group("args").split(", "):
                k, _, v = part.partition("=")
                args[k] = int(v == "True") if v in ("True", "False") else int(v)
            return args, r1.group("value"), r2.group("value")
    return None


def _explain_power(game: Any, labels: tuple[str, str]) -> Callable[[dict[str, int], str, str], str]:
    deck = game.deck
    ranks, suits = deck.ranks, deck.suits

    def explain(a: dict[str, int], v1: str, v2: str) -> str:
        n = len(suits)
        trump = abs(a["trump"]) % (n + 1) - 1
        card = f"{ranks[abs(a['rank']) % len(ranks)]}{suits[abs(a['suit']) % n]}"
        top = " as the twin of the trump card" if a["twin_of_trump_card"] else ""
        led = suits[abs(a["led"]) % n]
        return (f"{card}{top}, trump {suits[trump] if trump >= 0 else 'none'}, led {led}: "
                f"power {v1} under '{labels[0]}', {v2} under '{labels[1]}'")
    return explain


def _reading_json(game: Any) -> dict[str, Any]:
    r = game.ranking
    return {"ranks": len(game.deck.ranks), "suit_colors": list(r.suit_colors), "plain": list(r.plain),
            "trump": list(r.trump), "bower": -1 if r.bower_rank is None else r.bower_rank,
            "twin_top": r.twin_top}


def ranking_reading_pairs() -> list[DiffPair]:
    """One pair per registered ambiguity whose readings compile to different ranking clauses."""
    from cardspec.engine.game import Game
    from cardspec.engine.options import parse_value
    from cardspec.engine.spec import available, load

    pairs = []
    for sid in available():
        spec = load(sid)
        for amb in spec.ambiguities:
            readings = list(amb.readings)
            if len(readings) < 2:
                continue
            decl = spec.option_decls[amb.option]
            games = [Game(spec, {**amb.with_options, amb.option: parse_value(decl, x)}) for x in readings[:2]]
            if any(g.ranking is None for g in games):
                continue
            a, b = (_reading_json(g) for g in games)
            if a == b:
                continue
            env = dict(os.environ, **{READINGS_ENV: json.dumps([a, b])})
            m = THIS_MODULE
            pairs.append(DiffPair(f"{sid}: {amb.id} ({readings[0]} vs {readings[1]})",
                                  f"{m}.diff_power_reading_a", f"{m}.diff_power_reading_b",
                                  False, env, _explain_power(games[0], (readings[0], readings[1]))))
    return pairs


def default_pairs() -> list[DiffPair]:
    """Fast paths against references (must agree), then ambiguity readings (may differ)."""
    m = THIS_MODULE
    return [
        DiffPair("legal plays: inlined fast path vs follow_mask", f"{m}.diff_plays_fast",
                 f"{m}.diff_plays_reference", True),
        DiffPair("hand value: kernel vs brute force over subsets", f"{m}.diff_hand_value_kernel",
                 f"{m}.diff_hand_value_subsets", True),
        DiffPair("trick winner: inlined fast path vs kernel", f"{m}.diff_winner_fast",
                 f"{m}.diff_winner_reference", True),
        *ranking_reading_pairs(),
    ]


def _diff_one(pair: DiffPair, budget_s: float, path_s: float) -> dict[str, Any]:
    code, out, err, secs = _crosshair(
        ["diffbehavior", f"--per_condition_timeout={budget_s}", f"--per_path_timeout={path_s}",
         pair.fn1, pair.fn2], timeout=120 + 10 * budget_s, env=pair.env)
    text = out.strip()
    if code == 0:
        status = "same"
        detail = " ".join(text.splitlines()[:2])
    elif code == 1:
        status = "different"
        detail = text
        found = _parse_diff(text)
        if found and pair.explain is not None:
            detail = f"{pair.explain(*found)}\n{text}"
    else:
        status = "error"
        detail = (err.strip().splitlines() or text.splitlines() or [f"exit code {code}"])[-1]
    return {"pair": pair.name, "fn1": pair.fn1, "fn2": pair.fn2, "expect_same": pair.expect_same,
            "status": status, "detail": detail, "seconds": round(secs, 2)}


def run_diffbehavior(pairs: Sequence[DiffPair] | None = None, budget_s: float = 10.0,
                     jobs: int | None = None) -> list[dict[str, Any]]:
    """``crosshair diffbehavior`` on each pair (default: :func:`default_pairs`).

    Returns, per pair: ``pair``, ``fn1``, ``fn2``, ``expect_same``, ``status``
    (same / different / error), ``detail`` (CrossHair's report: the inputs and
    both results for a difference) and ``seconds``.
    """
    todo = list(pairs) if pairs is not None else default_pairs()
    path_s = min(1.0, budget_s / 4)
    return _in_parallel(lambda pair: _diff_one(pair, budget_s, path_s), todo, jobs)


def main(argv: Sequence[str] | None = None) -> int:
    """Print both reports as JSON; exit 1 on a counterexample, an error or an unexpected difference."""
    p = argparse.ArgumentParser(description="CrossHair over the engine's rule kernels.")
    p.add_argument("--budget", type=float, default=2.0, help="per-condition budget of crosshair check (s)")
    p.add_argument("--diff-budget", type=float, default=10.0, help="per-pair budget of diffbehavior (s)")
    args = p.parse_args(argv)
    start = time.perf_counter()
    checks = run_crosshair(args.budget)
    check_s = time.perf_counter() - start
    diffs = run_diffbehavior(budget_s=args.diff_budget)
    print(json.dumps({"check": checks, "check_seconds": round(check_s, 1), "diffbehavior": diffs,
                      "diffbehavior_seconds": round(time.perf_counter() - start - check_s, 1)}, indent=1))
    bad = [c for c in checks if c["status"] != "ok"]
    bad_diffs = [d for d in diffs if d["status"] == "error" or (d["expect_same"] and d["status"] != "same")]
    return 1 if bad or bad_diffs else 0


if __name__ == "__main__":
    raise SystemExit(main())
