"""Review 7 (a new user's pass over the command line): signed seeds as README states them, and the reason
`conform` gives when it has no hands to run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_conform import clean_factory

from cardspec.conform import ConformError, conform


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardspec", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_a_negative_seed_is_a_seed_like_any_other(tmp_path: Path) -> None:
    """README: a seed is any whole number, `--seed -1` included: the same record by the step API and the bulk
    loop, which replays as accepted, and another match than seed 1's; a count of matches below 1 is refused."""
    step = _cli("simulate", "euchre", "-n", "2", "--seed", "-1", "--records", "a.jsonl", cwd=tmp_path)
    fast = _cli("simulate", "euchre", "-n", "2", "--seed", "-1", "--fast", "--records", "b.jsonl", cwd=tmp_path)
    plus = _cli("simulate", "euchre", "-n", "2", "--seed", "+1", "--records", "c.jsonl", cwd=tmp_path)
    assert step.returncode == fast.returncode == plus.returncode == 0, step.stderr + fast.stderr + plus.stderr
    a = (tmp_path / "a.jsonl").read_bytes()
    assert a == (tmp_path / "b.jsonl").read_bytes() and a != (tmp_path / "c.jsonl").read_bytes()
    assert [json.loads(line)["seed"] for line in a.splitlines()] == [-1, 0]
    again = _cli("replay", "a.jsonl", cwd=tmp_path)
    assert again.returncode == 0 and "2 accepted" in again.stdout, again.stdout + again.stderr
    bad = _cli("simulate", "euchre", "-n", "-1", "--seed", "1", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "-n must be" in bad.stderr, bad.stderr


def test_no_hands_to_run_names_the_flag_that_left_the_vectors_out() -> None:
    with pytest.raises(ConformError, match=r"the vectors are left out \(--no-vectors\) and -n is 0"):
        conform(clean_factory, "euchre", hands=0, vectors=False)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_leaves_no_temporary_records_file(tmp_path: Path, workers: str) -> None:
    """README: a run that stops leaves an existing records file as it was. Review 7: SIGTERM (``kill``,
    ``timeout``) left the temporary ``*.partial`` file behind; it now unwinds as an interrupt does (exit 143)."""
    import signal
    import time

    keep = tmp_path / "keep.jsonl"
    keep.write_text("as it was\n")
    p = subprocess.Popen([sys.executable, "-m", "cardspec", "simulate", "euchre", "-n", "1000000", "--seed", "1",
                          "--workers", workers, "--records", str(keep)], cwd=tmp_path, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not any(f.name.endswith(".partial") and f.stat().st_size > 0 for f in tmp_path.iterdir()):
            assert p.poll() is None and time.monotonic() < deadline, "no records were being written"
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 143 and err.strip().endswith("cardspec: terminated"), (p.returncode, err)
    assert [f.name for f in tmp_path.iterdir()] == ["keep.jsonl"] and keep.read_text() == "as it was\n"
