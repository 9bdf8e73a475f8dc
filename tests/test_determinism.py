"""Same spec, options and seed: the same record, byte for byte, across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.engine.spec import available


@pytest.mark.parametrize("sid", list(available()))
def test_simulate_records_are_byte_identical(sid: str, tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["simulate", sid, "-n", "3", "--seed", "11", "--records", str(a)]) == 0
    assert main(["simulate", sid, "-n", "3", "--seed", "11", "--records", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    c = tmp_path / "c.jsonl"
    assert main(["simulate", sid, "-n", "3", "--seed", "12", "--records", str(c)]) == 0
    assert c.read_bytes() != a.read_bytes(), "a different seed gives different matches"


def test_records_do_not_depend_on_hash_randomisation(tmp_path: Path) -> None:
    outs = []
    for hs in ("1", "2"):
        f = tmp_path / f"r{hs}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hs}
        subprocess.run([sys.executable, "-m", "cardspec", "simulate", "bird-dog-11", "-n", "2",
                        "--seed", "5", "--records", str(f)], check=True, env=env,
                       capture_output=True)
        outs.append(f.read_bytes())
    assert outs[0] == outs[1]


def test_a_malformed_records_message_does_not_depend_on_hash_randomisation(tmp_path: Path) -> None:
    """Three option values of the wrong JSON type: jsonschema finds them in the order of a set of keys, and the
    verdict once named a different one from run to run. The error named first is chosen by a total order."""
    f = tmp_path / "r.jsonl"
    assert main(["simulate", "euchre", "-n", "1", "--records", str(f)]) == 0
    rec = json.loads(f.read_text(encoding="utf-8"))
    rec["options"] = {"all_pass": [1], "target": {"x": 1}, "farmers_hand": [2]}
    f.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    outs = set()
    for hs in ("0", "1", "2", "3", "4"):
        p = subprocess.run([sys.executable, "-m", "cardspec", "replay", "--json", str(f)], env={
            **os.environ, "PYTHONHASHSEED": hs}, capture_output=True, text=True, timeout=120)
        assert p.returncode == 2, p.stderr  # a record that does not match the schema is malformed input
        outs.add(p.stdout + p.stderr)
    assert len(outs) == 1
    assert "options.all_pass: [1] is not of type" in outs.pop()


def test_every_simulated_record_replays(tmp_path: Path) -> None:
    for sid in available():
        f = tmp_path / f"{sid}.jsonl"
        assert main(["simulate", sid, "-n", "4", "--bot", "random_then_rule", "--records", str(f)]) == 0
        assert main(["replay", str(f)]) == 0
