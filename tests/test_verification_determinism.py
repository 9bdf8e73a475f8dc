"""``cardspec verify`` is reproducible: same spec and options, same report, byte for byte.

The report (the ``docs/verification.md`` text and every finding as JSON, in
order, without timings) is computed twice in this process, in a subprocess with
another ``PYTHONHASHSEED``, and with z3 disturbed (another random seed, every
query's constraints in reverse order): the witnesses are the lexicographically
smallest ones (:mod:`cardspec.verification.z3kit`), so none of this may change
them. The specs cover every kind of witness: table overlaps and termination
(Euchre, Bid Euchre, all option sets) and counterexamples to table, ranking and
score-bound proofs (the broken corpus of ``tests/broken/``, default options).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import z3

from cardspec.engine.loader import spec_dir
from cardspec.engine.spec import load
from cardspec.verification import report, scores, z3kit

HERE = Path(__file__).resolve().parent
SPECS = ("euchre", "bid-euchre")
BROKEN = ("scoring-gap.yaml", "scoring-overlap.yaml", "ranking-tie.yaml", "ranking-unranked-ace.yaml",
          "bounds-too-tight.yaml", "unregistered-overlap.yaml")


def report_text(specs: tuple[str, ...], broken_dir: str) -> str:
    """The verification report of ``specs`` (as ``docs/verification.md`` renders it, and as JSON rows)
    followed by the default-options findings of the broken specs in ``broken_dir``."""
    from cardspec.docs import verification_doc

    findings: list[Any] = []
    verify = report.verify

    def recording(spec: Any, timeout_ms: int = 10_000) -> list[Any]:
        out = verify(spec, timeout_ms)
        findings.extend(out)
        return out

    report.verify = recording
    try:
        doc = verification_doc([load(s) for s in specs])
    finally:
        report.verify = verify
    for name in BROKEN:
        findings.extend(report.Verifier(load(str(Path(broken_dir) / name))).findings({}))
    rows = [{k: v for k, v in f.as_json().items() if k != "seconds"} for f in findings]
    return doc + "\n" + "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n"


def _subprocess(broken_dir: Path, hash_seed: str) -> subprocess.Popen[str]:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from test_verification_determinism import "
            "report_text, SPECS; sys.stdout.write(report_text(SPECS, sys.argv[2]))")
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.Popen([sys.executable, "-c", code, str(HERE), str(broken_dir)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


@pytest.fixture(scope="module")
def broken_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled specs (the broken ones extend them) beside the broken corpus."""
    d = tmp_path_factory.mktemp("specs")
    for f in spec_dir().glob("*.yaml"):
        shutil.copy(f, d / f.name)
    for name in BROKEN:
        shutil.copy(HERE / "broken" / name, d / name)
    return d


@pytest.fixture(scope="module")
def runs(broken_dir: Path) -> Iterator[dict[str, str]]:
    """The report from a subprocess with another hash seed (started first, it runs alongside)
    and twice from this process."""
    ours = os.environ.get("PYTHONHASHSEED", "")
    other = str((int(ours) + 1) % 4_294_967_296) if ours.isdigit() else "1"  # unset or random: ours is random
    proc = _subprocess(broken_dir, other)
    try:
        report.forget()  # each run solves afresh, not from the proofs the process keeps
        first = report_text(SPECS, str(broken_dir))
        report.forget()
        second = report_text(SPECS, str(broken_dir))
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    yield {"first": first, "second": second, "subprocess": out}


def test_the_report_has_witnesses_to_compare(runs: dict[str, str]) -> None:
    text = runs["first"]
    for kind in ("table rows never conflict (hand_points)", "termination: match", "table complete (hand_points)",
                 "ranking: strict order (one winner per trick)", "score bounds"):
        assert any(kind in line and '"witness"' in line for line in text.splitlines()), kind
    assert "witness: " in text  # the docs table shows them too


def test_same_report_twice_in_one_process(runs: dict[str, str]) -> None:
    assert runs["first"] == runs["second"]


def test_same_report_in_a_process_with_another_hash_seed(runs: dict[str, str]) -> None:
    assert runs["subprocess"] == runs["first"]


def test_witnesses_do_not_depend_on_solver_internals(runs: dict[str, str], broken_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Another random seed and every query's constraints reversed: z3 takes other paths and finds
    other first models, but the smallest witness is the same."""
    find = z3kit.find

    def reversed_find(ctx: Any, constraints: list[Any], *args: Any, base: Any = None, **kw: Any) -> Any:
        if base is not None:  # the fact model's constraints too, written into the query
            constraints = [*base.constraints, *constraints]
        return find(ctx, list(reversed(constraints)), *args, **kw)

    report.forget()
    monkeypatch.setattr(z3kit, "RANDOM_SEED", 7)
    monkeypatch.setattr(z3kit, "find", reversed_find)
    monkeypatch.setattr(scores, "find", reversed_find)
    z3.set_param("smt.random_seed", 7, "sat.random_seed", 7)
    try:
        assert report_text(SPECS, str(broken_dir)) == runs["first"]
    finally:
        z3.set_param("smt.random_seed", 0, "sat.random_seed", 0)


def test_enumerated_values_are_the_smallest() -> None:
    """More values than the limit: the smallest ones, ascending, whatever z3 finds first."""

    def build(ctx: z3.Context) -> tuple[z3.Context, list[Any], Any]:
        x, y = z3.Int("x", ctx), z3.Int("y", ctx)
        return ctx, [x >= -3, x <= 40, y >= 0, y <= 1, x != 5], 2 * x + y

    vals, _ = z3kit.enumerate_values(build, limit=10)
    assert vals == [-6, -5, -4, -3, -2, -1, 0, 1, 2, 3]
    full, _ = z3kit.enumerate_values(build, limit=1000)
    assert full == sorted(set(range(-6, 82)) - {10, 11})


def test_enumeration_reaches_the_least_values_of_a_wide_sparse_range() -> None:
    """A range as wide as Hand and Foot's hand scores (118,440 points, in steps of 5), whatever value z3
    finds first: the smallest values are listed (the search looks above the last one found, not around
    what z3 found; the old search ran out of checks and listed nothing), and a range unbounded below gives
    None rather than a guess."""

    def build(ctx: z3.Context) -> tuple[z3.Context, list[Any], Any]:
        k, j = z3.Int("k", ctx), z3.Int("j", ctx)
        return ctx, [k >= -1860, k <= 21828, j >= 0, j <= 3, j != 2], 5 * k + 7 * j

    vals, _ = z3kit.enumerate_values(build, limit=12)
    want = sorted({5 * k + 7 * j for k in range(-1860, -1840) for j in (0, 1, 3)})[:12]
    assert vals == want

    def unbounded(ctx: z3.Context) -> tuple[z3.Context, list[Any], Any]:
        x = z3.Int("x", ctx)
        return ctx, [x <= 3], x

    assert z3kit.enumerate_values(unbounded, limit=5)[0] is None
    assert z3kit.enumerate_values(unbounded, limit=2, largest=True)[0] == [3, 2]
    top = sorted({5 * k + 7 * j for k in range(21800, 21829) for j in (0, 1, 3)}, reverse=True)[:3]
    assert z3kit.enumerate_values(build, limit=3, largest=True)[0] == top == [109161, 109156, 109151]


def test_a_move_query_names_its_cards_smallest_first() -> None:
    """The one-hot move encoding still gives a canonical witness: with the conservation goal dropped (so the
    query is satisfiable), the two distinct cards moved are named by their ids, the smallest possible: 0, 1."""
    from cardspec.verification.conservation import _move

    build = _move(24, "hand", "trick", 2, swap=False)

    def relaxed(ctx: z3.Context) -> z3kit.Query:
        q = build(ctx)
        return z3kit.Query(ctx, q.constraints[:-1], q.show)  # without the negated invariant

    status, witness, _ = z3kit.refute(relaxed)
    assert status == "counterexample" and witness == {"card 0": 0, "card 1": 1}
    assert z3kit.refute(build)[0] == "proved"
