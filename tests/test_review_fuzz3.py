"""Tracebacks, unbounded reads, silent acceptance and unnamed errors a third fuzzing review found.

* ``docs``: a generated document that is not UTF-8 gave a ``UnicodeDecodeError`` traceback; a lock naming a
  huge file read it whole; a lock entry such as ``../../x`` was read from outside the docs folder.
* ``import openspiel``: JSON nested 3000 deep gave a ``RecursionError`` traceback; returns in which partners
  disagree (``[0, 0, 5, -5]``) were imported without a word.
* ``import egn``: ``winning_score: 1000`` gave an error naming no file; a ``dealNumber`` of 1e30 or an
  ``initialScore`` of ``[1e30, 0]`` or ``[100, 0]`` imported (exit 0) as records ``replay`` calls malformed;
  a file with no importable game exited 0 with an empty output.
* ``CARDSPEC_SOURCES`` naming a missing folder gave a warning and exit 0, where ``--sources`` exits 2.
* ``--json`` after the format word (``import egn --json``) was an unrecognized argument.
* Numeric flags read non-ASCII digits (``-n ٣``); a repeated ``--option`` silently kept the last value.
* ``simulate -n 2 --workers 256`` started 256 processes.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from test_hostile import cli_error

from cardspec import docs, parallel
from cardspec.cli import main
from cardspec.engine.loader import record_schema

EGN = Path(__file__).parent / "data" / "egn" / "Epic Comeback.egn"
OPENSPIEL = Path(__file__).parent / "data" / "openspiel" / "euchre-histories.jsonl"


def _lock(root: Path, files: dict[str, str]) -> None:
    root.mkdir(exist_ok=True)
    (root / docs.LOCK).write_text(json.dumps({"format": "cardspec-docs-lock/1", "inputs": "x", "files": files}),
                                  encoding="utf-8")


# --- docs ----------------------------------------------------------------------------------------
def test_docs_a_document_that_is_not_utf8_is_out_of_date_by_name(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _lock(tmp_path, {"bin.md": "abc"})
    (tmp_path / "bin.md").write_bytes(b"# rules\n\xff\xfe")
    assert main(["docs", "--root", str(tmp_path)]) == 1  # out of date, as any edited document is
    out = capsys.readouterr()
    assert "out of date: bin.md (not UTF-8 text (byte 8))" in out.out and "Traceback" not in out.err


def test_docs_a_huge_document_is_not_read_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _lock(tmp_path, {"big.md": "abc"})
    with (tmp_path / "big.md").open("wb") as fh:  # sparse: takes no room on the disk
        fh.truncate(4 * docs.MAX_DOC_BYTES)
    tracemalloc.start()
    try:
        code = main(["docs", "--root", str(tmp_path)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 1 and f"out of date: big.md (larger than {docs.MAX_DOC_BYTES} bytes)" in capsys.readouterr().out
    assert peak < 2 * docs.MAX_DOC_BYTES, peak  # about 17 MB (the input digest); reading it whole: over 128 MB


def test_docs_write_compares_with_a_bounded_read(tmp_path: Path) -> None:
    """``--write`` reads an existing document only as far as the new text needs: a non-UTF-8 or huge file is
    simply different (and rewritten), never a traceback or a whole read."""
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"\xe9")
    assert docs._same(bad, "\u00e9") is False
    big = tmp_path / "big.md"
    with big.open("wb") as fh:
        fh.truncate(4 * docs.MAX_DOC_BYTES)
    tracemalloc.start()
    try:
        assert docs._same(big, "text") is False
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    crlf = tmp_path / "crlf.md"
    crlf.write_bytes(b"a\r\nb\r\n")
    assert docs._same(crlf, "a\nb\n")  # as read_text reads it


@pytest.mark.parametrize("rel", ["../outside.md", "../../etc/passwd", "/etc/passwd", "rules/../../x.md"])
def test_docs_a_lock_entry_outside_the_folder_is_refused(tmp_path: Path, rel: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "outside.md").write_text("abc", encoding="utf-8")
    root = tmp_path / "docs"
    _lock(root, {"fine.md": "abc", rel: "abc"})
    err = cli_error(["docs", "--root", str(root)], capsys)
    assert f"{root / docs.LOCK}: files: {json.dumps(rel)} is not a document under {root}" in err


# --- import openspiel ----------------------------------------------------------------------------
def test_openspiel_deeply_nested_json_is_refused_as_replay_refuses_it(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "deep.jsonl"
    good = OPENSPIEL.read_text(encoding="utf-8").splitlines()[0]
    f.write_text(good + "\n" + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    err = cli_error(["import", "openspiel", str(f)], capsys)
    assert f"{f}:2: JSON nested too deeply" in err


@pytest.mark.parametrize("returns", [[0, 0, 5, -5], [1, -1, 1, 1], [2, 2, 2, 2], [1.5, -1.5, 1.5, -1.5]])
def test_openspiel_returns_openspiel_never_gives_are_refused(tmp_path: Path, returns: list[float],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "h.jsonl"
    good = json.loads(OPENSPIEL.read_text(encoding="utf-8").splitlines()[0])
    lines = [json.dumps(good), json.dumps({**good, "returns": returns})]
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    err = cli_error(["import", "openspiel", str(f), "-o", str(out)], capsys)
    assert f"{f}:2: returns [" in err and not out.exists()


def test_openspiel_returns_as_openspiel_gives_them_still_import(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "h.jsonl"
    good = json.loads(OPENSPIEL.read_text(encoding="utf-8").splitlines()[0])
    f.write_text(json.dumps({**good, "returns": [float(r) for r in good["returns"]]}) + "\n", encoding="utf-8")
    assert main(["import", "openspiel", str(f)]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["results"]["hands"][0]["scores"] == [max(0, r) for r in good["returns"][:2]]


# --- import egn ----------------------------------------------------------------------------------
def _egn(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    doc = json.loads(EGN.read_text(encoding="utf-8-sig"))
    edit(doc)
    p = tmp_path / "g.egn"
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


def test_egn_a_winning_score_out_of_range_names_file_and_key(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    p = _egn(tmp_path, lambda d: d["metadata"].setdefault("ruleset", {}).update(winning_score=1000))
    err = cli_error(["import", "egn", str(p)], capsys)
    assert f"{p}: metadata.ruleset.winning_score: 1000 cannot be mapped: option 'target' must be between" in err


def test_egn_a_deal_number_no_record_can_hold_is_refused(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from cardspec.egn.notation import MAX_DEAL_NUMBER

    assert record_schema()["properties"]["start"]["properties"]["hand"]["maximum"] == MAX_DEAL_NUMBER
    p = _egn(tmp_path, lambda d: d["deals"][0].update(dealNumber=10 ** 30))
    out = tmp_path / "out.jsonl"
    err = cli_error(["import", "egn", str(p), "-o", str(out)], capsys)
    assert f"{p}: deals.0.dealNumber: {10 ** 30} is out of range" in err and not out.exists()


@pytest.mark.parametrize("score, why", [([10 ** 30, 0], "at most 1000000"), ([100, 0], "already end the match"),
                                        ([10, 3], "already end the match")])
def test_egn_an_initial_score_no_record_can_start_from_is_refused(tmp_path: Path, score: list[int], why: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    p = _egn(tmp_path, lambda d: d["metadata"].update(initialScore=score))
    out = tmp_path / "out.jsonl"
    err = cli_error(["import", "egn", str(p), "-o", str(out)], capsys)
    assert f"{p}: metadata.initialScore: cannot be imported" in err and why in err and not out.exists()


def test_egn_what_imports_is_never_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = _egn(tmp_path, lambda d: d["metadata"].update(initialScore=[9, 0]))
    out = tmp_path / "out.jsonl"
    assert main(["import", "egn", str(p), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out)]) == 1  # the game goes on after 10: rejected at that action, not malformed
    assert "malformed" not in capsys.readouterr().out


def test_egn_a_file_with_no_importable_game_is_an_error(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    p = _egn(tmp_path, lambda d: d["metadata"].setdefault("ruleset", {}).update(num_players=5))
    good = tmp_path / "good.egn"
    good.write_bytes(EGN.read_bytes())
    out = tmp_path / "out.jsonl"
    err = cli_error(["import", "egn", str(good), str(p), "-o", str(out)], capsys)
    assert f"{p}: <top>: no game in the file can be imported; the first reason: metadata.ruleset.num_players: 5" \
        in err
    assert not out.exists()  # nothing is written when a file cannot be imported


# --- CARDSPEC_SOURCES ----------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [["verify", "euchre"], ["check", "euchre", "-n", "1", "--no-verify"]])
@pytest.mark.parametrize("kind", ["missing", "file"])
def test_cardspec_sources_naming_no_folder_is_refused_as_the_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str], argv: list[str],
                                                                  kind: str) -> None:
    folder = tmp_path / "sources"
    if kind == "file":
        folder.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("CARDSPEC_SOURCES", str(folder))
    err = cli_error(argv, capsys)
    assert f"CARDSPEC_SOURCES={folder}: {'no such folder' if kind == 'missing' else 'not a folder'}" in err
    monkeypatch.delenv("CARDSPEC_SOURCES")
    flag = cli_error([*argv, "--sources", str(folder)], capsys)
    assert f"--sources {folder}: " in flag


# --- --json after the format ---------------------------------------------------------------------
def test_json_is_taken_after_the_format_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    for argv in (["import", "egn", "--json", str(EGN), "-o", str(out)],
                 ["import", "--json", "egn", str(EGN), "-o", str(out)],
                 ["--json", "import", "egn", str(EGN), "-o", str(out)]):
        assert main(argv) == 0, capsys.readouterr().err
    assert main(["import", "openspiel", "--json", str(OPENSPIEL), "-o", str(tmp_path / "o.jsonl")]) == 0
    assert main(["export", "egn", "--json", str(out), "-o", str(tmp_path / "g.egn")]) == 0
    assert main(["export", "egn", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["fileType"] == "Euchre Game Notation"


# --- numeric flags, repeated options -------------------------------------------------------------
@pytest.mark.parametrize("argv, flag", [
    (["simulate", "euchre", "-n", "\u0663"], "-n"),
    (["simulate", "euchre", "-n", "1", "--seed", "\u0661\u0662"], "--seed"),
    (["simulate", "euchre", "-n", "1", "--workers", "\u0662"], "--workers"),
    (["simulate", "euchre", "-n", "\uff13"], "-n"),  # fullwidth 3
    (["simulate", "euchre", "-n", "1", "--seed", "1" * 5000], "--seed"),
    (["simulate", "euchre", "-n", " 3"], "-n"),
    (["play", "euchre", "--seed", "1", "--seat", "\u0661"], "--seat"),
    (["check", "euchre", "-n", "\u0661"], "-n"),
    (["check", "euchre", "-j", "\u0661"], "-j"),
    (["verify", "euchre", "--timeout-ms", "\u0661\u0660\u0660"], "--timeout-ms"),
    (["verify", "euchre", "--workers", "\u0661"], "-j"),
    (["docs", "-j", "\u0661"], "-j"),
    (["conform", "euchre", "--adapter", "x:y", "-n", "\u0663"], "-n/--hands"),
    (["conform", "euchre", "--adapter", "x:y", "--seed", "\u0661"], "--seed"),
])
def test_numeric_flags_take_ascii_digits_only(argv: list[str], flag: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    err = cli_error(argv, capsys)
    assert f"argument {flag}" in err and "digits 0 to 9" in err and len(err) < 300, err


def test_numeric_flags_still_take_ascii_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euchre", "-n", "2", "--seed", "-7", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["matches"] == 2 and stats["first_seed"] == -7
    assert main(["simulate", "euchre", "-n", "2", "--seed", "+7", "--json"]) == 0  # a sign either way, as int() reads
    plus = json.loads(capsys.readouterr().out)
    assert main(["simulate", "euchre", "-n", "2", "--seed", "7", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    plus.pop("seconds", None), plain.pop("seconds", None)  # wall time, not a result
    assert plus == plain and plus["first_seed"] == 7


def test_an_option_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = cli_error(["simulate", "euchre", "-n", "1", "--option", "target=10", "--option", "target=5"], capsys)
    assert "--option target is given twice" in err


def test_conform_refuses_an_option_given_twice(capsys: pytest.CaptureFixture[str]) -> None:
    err = cli_error(["conform", "euchre", "--adapter", "x:y", "--option", "target=10", "--option", "target=5"],
                    capsys)
    assert "--option target is given twice" in err


def test_the_pytest_plugin_reads_its_numbers_as_the_command_line_does() -> None:
    """The plugin's ``--cardspec-hands`` and ``--cardspec-seed`` take the same ASCII-only numbers."""
    import argparse

    from cardspec.flags import ascii_int
    from cardspec.pytest_plugin import pytest_addoption

    types: dict[str, object] = {}

    class Group:
        def addoption(self, name: str, **kw: object) -> None:
            types[name] = kw.get("type")

    class Parser:
        def getgroup(self, *a: object) -> Group:
            return Group()

        def addini(self, *a: object, **kw: object) -> None:
            pass

    pytest_addoption(Parser())  # type: ignore[arg-type]
    assert types["--cardspec-hands"] is ascii_int and types["--cardspec-seed"] is ascii_int
    with pytest.raises(argparse.ArgumentTypeError):
        ascii_int("\u0663")


# --- workers -------------------------------------------------------------------------------------
def _recording_pool(sizes: list[int]) -> type:
    class Pool:
        """A process pool that runs each task at once in this process, noting how many workers it was asked
        for (so no test starts 256 processes)."""

        def __init__(self, max_workers: int, mp_context: Any = None) -> None:
            sizes.append(max_workers)

        def __enter__(self) -> Pool:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
            f: Future[Any] = Future()
            try:
                f.set_result(fn(*args))
            except Exception as exc:  # handed back through the future, as a pool does
                f.set_exception(exc)
            return f

    return Pool


def test_no_more_processes_than_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    sizes: list[int] = []
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", _recording_pool(sizes))
    one, many = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    assert main(["simulate", "euchre", "-n", "2", "--records", str(one)]) == 0
    assert sizes == []
    assert main(["simulate", "euchre", "-n", "2", "--workers", "256", "--records", str(many)]) == 0
    assert sizes == [2]
    assert many.read_bytes() == one.read_bytes()  # the records do not depend on the workers
    assert "in 2 worker processes" in capsys.readouterr().out
    sizes.clear()
    assert list(parallel.ordered(pow, [(2, 3), (3, 2), (2, 5)], workers=64)) == [8, 9, 32]
    assert sizes == [3]
    assert list(parallel.ordered(pow, [], workers=8)) == [] and sizes == [3]


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_replay_refuses_a_device_as_standard_input(json_flag: list[str]) -> None:
    """``cardspec replay - < /dev/zero``: a device never ends; it is refused as ``replay /dev/zero`` is, at once,
    not read until memory runs out."""
    import subprocess
    import sys

    with open("/dev/zero", "rb") as dev:
        p = subprocess.run([sys.executable, "-m", "cardspec", *json_flag, "replay", "-"], stdin=dev,
                           capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, (p.returncode, p.stderr[-300:])
    assert "standard input is a device" in p.stderr and "Traceback" not in p.stderr
