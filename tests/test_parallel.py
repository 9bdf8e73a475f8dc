"""Work split across workers (``cardspec.parallel``): local processes and a local Ray instance give the
same records, rows and findings as one worker, in the same order, and errors come back by name."""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import check_rows, main, materiality_rows, verify_rows
from cardspec.engine.errors import CardspecError
from cardspec.engine.spec import load
from cardspec.parallel import ordered
from cardspec.verification.report import deal_groups


def strip(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without their wall times, which are all that may differ."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_results_come_back_in_submission_order() -> None:
    """Many small tasks with several in flight per worker: the results keep the order of the tasks."""
    tasks = [(b, e) for b in range(2, 6) for e in range(12)]
    assert list(ordered(pow, tasks, workers=2, in_flight=2)) == [b ** e for b, e in tasks]


def test_an_error_in_a_worker_comes_back_with_its_message() -> None:
    with pytest.raises(CardspecError, match="no-such-system"):
        list(ordered(load, [("euchre",), ("no-such-system",)], workers=2))


def test_bad_backend_and_worker_counts_are_named() -> None:
    with pytest.raises(CardspecError, match="--backend must be one of process, ray"):
        list(ordered(pow, [(2, 2)], backend="threads"))
    with pytest.raises(CardspecError, match="--workers must be between 1 and 1024, got 0"):
        list(ordered(pow, [(2, 2)], workers=0))


def test_ray_missing_is_a_clear_usage_error(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    assert main(["simulate", "euchre", "-n", "2", "--backend", "ray"]) == 2
    assert "pip install 'cardspec[ray]'" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["simulate", "euchre", "--workers", "0"], ["simulate", "euchre", "--backend", "x"],
                                  ["verify", "euchre", "--workers", "0"], ["check", "euchre", "--workers", "0"]])
def test_bad_worker_flags_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "cardspec: error:" in capsys.readouterr().err


VERIFIED = ["riding-the-bus", "birdhead"]  # several deal groups (riding-the-bus's player counts), two systems
TIMEOUT_MS = 60_000
"""Each proof's time limit here: generous, so that a busy machine (CI builds the compiled engine beside the suite)
does not turn a proof into a timeout in one run and not in the other; what is compared is the split by workers."""


@pytest.fixture(scope="module")
def one_worker_findings() -> list[dict[str, Any]]:
    return strip(verify_rows(VERIFIED, TIMEOUT_MS, 1))


def test_verify_findings_do_not_depend_on_workers(one_worker_findings: list[dict[str, Any]]) -> None:
    """Split by deal group across two processes: the same findings, in system then option-set order."""
    assert len(deal_groups(load("riding-the-bus"))) > 1
    assert strip(verify_rows(VERIFIED, TIMEOUT_MS, 2)) == one_worker_findings
    assert [r["system"] for r in one_worker_findings] == sorted((r["system"] for r in one_worker_findings),
                                                                key=VERIFIED.index)


def test_materiality_rows_do_not_depend_on_workers() -> None:
    one = materiality_rows(["riding-the-bus"], 6, 1, 1)
    two = materiality_rows(["riding-the-bus"], 6, 1, 2)
    assert one == two
    spec = load("riding-the-bus")
    assert len(one) == sum(len(a.readings) - 1 for a in spec.ambiguities)


# --- a local Ray instance ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray instance for the module (two CPUs, a small object store), shut down after it."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=96 * 1024 * 1024,
             configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_simulate_gives_the_one_worker_records(local_ray: None, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`cardspec simulate --backend ray`: the same record file, byte for byte, and the same statistics."""
    out: dict[str, dict[str, Any]] = {}
    for name, extra in (("one", []), ("ray", ["--backend", "ray", "--workers", "2"])):
        assert main(["simulate", "euchre", "-n", "9", "--seed", "5", "--records", str(tmp_path / f"{name}.jsonl.gz"),
                     "--json", *extra]) == 0
        out[name] = json.loads(capsys.readouterr().out)
        del out[name]["seconds"]
    one = (tmp_path / "one.jsonl.gz").read_bytes()
    assert (tmp_path / "ray.jsonl.gz").read_bytes() == one
    assert gzip.decompress(one).count(b"\n") == 9
    assert out["ray"] == out["one"]


def test_ray_check_and_verify_give_the_one_worker_rows(local_ray: None,
                                                       one_worker_findings: list[dict[str, Any]]) -> None:
    assert strip(list(check_rows(["bird-dog-11"], 2, "mixed", 2, "ray"))) == \
        strip(list(check_rows(["bird-dog-11"], 2, "mixed", 1)))
    assert strip(verify_rows(VERIFIED, TIMEOUT_MS, 2, "ray")) == one_worker_findings
    assert materiality_rows(["riding-the-bus"], 4, 1, 2, "ray") == materiality_rows(["riding-the-bus"], 4, 1, 1)


def test_ray_task_errors_come_back_by_name(local_ray: None) -> None:
    with pytest.raises(CardspecError, match="no-such-system") as info:
        list(ordered(load, [("euchre",), ("no-such-system",)], workers=2, backend="ray"))
    assert "Traceback" not in str(info.value)
