"""``cardspec simulate --workers N`` and streamed records: the output never depends on the worker count."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from cardspec import parallel, simulate
from cardspec.cli import main
from cardspec.engine.bots import BOTS
from cardspec.engine.game import Game
from cardspec.engine.record import dumps, record_of

SYSTEMS = ("euchre", "riding-the-bus", "bird-dog-11")
N = 7


def run(capsys: pytest.CaptureFixture[str], system: str, records: Path, *extra: str) -> dict[str, object]:
    """``cardspec simulate --json``; returns the summary without its wall time."""
    assert main(["simulate", system, "-n", str(N), "--seed", "11", "--records", str(records), "--json",
                 *extra]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert isinstance(stats, dict)
    del stats["seconds"]
    return stats


@pytest.mark.parametrize("system", SYSTEMS)
def test_records_and_summary_do_not_depend_on_workers(system: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    outs = {w: run(capsys, system, tmp_path / f"w{w}.jsonl", "--workers", str(w)) for w in (1, 2, 3)}
    files = {w: (tmp_path / f"w{w}.jsonl").read_bytes() for w in (1, 2, 3)}
    assert files[1].count(b"\n") == N and outs[1]["matches"] == N
    assert files[2] == files[1]
    assert files[3] == files[1]
    assert json.dumps(outs[2], sort_keys=True) == json.dumps(outs[1], sort_keys=True)
    assert json.dumps(outs[3], sort_keys=True) == json.dumps(outs[1], sort_keys=True)


def test_match_i_is_played_from_seed_plus_i_in_match_order(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Each line is the match of seed ``--seed + i`` with the bots seeded ``bots/<seed>``, in order, even when
    chunks of one match each keep several tasks in flight per worker."""
    path = tmp_path / "r.jsonl"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(simulate, "CHUNK", 1)
        run(capsys, "riding-the-bus", path, "--workers", "2")
    game = Game.from_system("riding-the-bus")
    want = []
    for seed in range(11, 11 + N):
        chooser = BOTS["rule"](random.Random(f"bots/{seed}"))
        st = game.new_initial_state(seed)
        while not st.is_terminal():
            st.apply(chooser(st, st.legal_actions()))
        want.append(dumps(record_of(st)) + "\n")
    assert path.read_text(encoding="utf-8") == "".join(want)


def test_gzip_records_are_the_plain_bytes_and_deterministic(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    plain = run(capsys, "euchre", tmp_path / "r.jsonl")
    first = run(capsys, "euchre", tmp_path / "a.jsonl.gz")
    second = run(capsys, "euchre", tmp_path / "b.jsonl.gz", "--workers", "2")
    a, b = (tmp_path / "a.jsonl.gz").read_bytes(), (tmp_path / "b.jsonl.gz").read_bytes()
    assert a[:2] == b"\x1f\x8b", "not gzip"
    assert a[4:8] == b"\0\0\0\0" and not a[3] & 0x08, "the gzip header holds a time stamp or a file name"
    assert gzip.decompress(a) == (tmp_path / "r.jsonl").read_bytes()
    assert a == b
    assert plain == first == second


@pytest.mark.parametrize("value", ["0", "-2"])
def test_bad_workers_is_a_usage_error(value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euchre", "-n", "2", "--workers", value, "--records", str(tmp_path / "r.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers must be between 1 and 1024" in err and value in err
    assert not (tmp_path / "r.jsonl").exists(), "a usage error must not create the record file"


def test_workers_must_be_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euchre", "--workers", "two"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_spawned_workers_give_the_same_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The ``spawn`` start method (used where ``fork`` is unsafe: other threads running, or not Linux)."""
    import multiprocessing

    one = run(capsys, "bird-dog-11", tmp_path / "one.jsonl")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "mp_context", lambda: multiprocessing.get_context("spawn"))
        two = run(capsys, "bird-dog-11", tmp_path / "two.jsonl", "--workers", "2")
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    assert two == one
