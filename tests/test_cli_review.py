"""The command line after a new user's review: gzip record files, a closed pipe, win rates, typed options
in ``check --json``, and usage errors for a Ray address without Ray and a sources path that is no folder."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main, verify_rows
from cardspec.engine.game import Game
from cardspec.engine.spec import load

PYTHON_TYPES = {"int": int, "bool": bool, "enum": str}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _replayed(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    """Replay's exit code and --json output, with the file's name taken out of every verdict."""
    code, out, _ = _run(["replay", str(path), "--json"], capsys)
    doc = json.loads(out)
    for v in doc["verdicts"]:
        v["where"] = v["where"].replace(str(path), "FILE")
    return code, doc


def test_replay_reads_a_gzip_records_file_as_it_reads_the_plain_one(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    plain, packed = tmp_path / "r.jsonl", tmp_path / "r.jsonl.gz"
    for f in (plain, packed):
        assert _run(["simulate", "riding-the-bus", "-n", "3", "--seed", "5", "--records", str(f)], capsys)[0] == 0
    assert packed.read_bytes()[:2] == b"\x1f\x8b"
    code, want = _replayed(plain, capsys)
    assert code == 0 and want["summary"]["accepted"] == 3
    assert _replayed(packed, capsys) == (0, want)
    renamed = tmp_path / "records.jsonl"  # told by its first bytes, not by its name
    shutil.copy(packed, renamed)
    assert _replayed(renamed, capsys) == (0, want)
    code, out, _ = _run(["replay", str(packed)], capsys)
    assert code == 0 and f"{packed}:3: accepted" in out and "3 records: 3 accepted" in out


def test_replay_names_the_line_of_a_bad_record_inside_a_gzip_file(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    packed = tmp_path / "r.jsonl.gz"
    assert _run(["simulate", "riding-the-bus", "-n", "2", "--records", str(packed)], capsys)[0] == 0
    lines = gzip.decompress(packed.read_bytes()).split(b"\n")
    packed.write_bytes(gzip.compress(b"\n".join([lines[0], b"", b"not json", *lines[1:]])))
    code, out, err = _run(["replay", str(packed)], capsys)
    assert code == 2 and f"{packed}:3: malformed" in out and f"{packed}:4: accepted" in out
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_truncated_gzip_file_exits_2_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    packed = tmp_path / "r.jsonl.gz"
    assert _run(["simulate", "riding-the-bus", "-n", "3", "--records", str(packed)], capsys)[0] == 0
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed.read_bytes()[:-12])
    code, _, err = _run(["replay", str(cut)], capsys)
    assert code == 2 and err.startswith(f"cardspec: error: {cut}: not a valid gzip file (")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_gzip_file_with_a_bad_stream_exits_2_naming_the_file(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\x1f\x8b" + b"x" * 40)
    code, _, err = _run(["replay", str(bad)], capsys)
    assert code == 2 and err.startswith(f"cardspec: error: {bad}: not a valid gzip file (")
    assert err.count("\n") == 1


def test_replay_cut_short_by_a_closed_pipe_exits_2_without_traceback(tmp_path: Path) -> None:
    """A reader that closes after the first verdict: the records after it were never audited (and these are
    rejected), so the replay does not report success."""
    packed = tmp_path / "one.jsonl"
    subprocess.run([sys.executable, "-m", "cardspec", "simulate", "riding-the-bus", "-n", "1",
                    "--records", str(packed)], check=True, capture_output=True, timeout=120)
    good = packed.read_text().strip()
    rec = json.loads(good)
    rec["actions"][0] = "no such action"
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join([good] + [json.dumps(rec)] * 4000) + "\n")  # far more than a pipe holds
    p = subprocess.Popen([sys.executable, "-m", "cardspec", "replay", str(many)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stderr is not None
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=300) == 2, err
    assert f"{many}:1: accepted: riding-the-bus" in first
    assert "Traceback" not in err and "Exception ignored" not in err
    assert err.count("\n") == 1 and "output closed before the command finished" in err


def _winners(records: Path) -> list[list[int]]:
    return [json.loads(line)["results"]["winners"] for line in records.read_text().splitlines()]


def test_simulate_win_rate_counts_a_team_win_for_each_partner(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    opts = ["--option", "teams=true", "--option", "players=6"]
    records = tmp_path / "r.jsonl"
    code, out, _ = _run(["simulate", "hand-and-foot", "-n", "10", "--seed", "40", *opts, "--json",
                         "--records", str(records)], capsys)
    assert code == 0
    stats = json.loads(out)
    n = stats["matches"]
    rates = {int(s): r for s, r in stats["win_rate_by_seat"].items()}
    won = _winners(records)
    assert len(won) == n
    assert rates == {s: round(sum(s in w for w in won) / n, 4) for s in range(6)}
    game = Game(load("hand-and-foot"), {"teams": True, "players": 6})
    assert any(len(team) > 1 for team in game.teams)
    for team in game.teams:
        assert len({rates[s] for s in team}) == 1
    assert sum(rates.values()) > 1
    assert abs(sum(stats["win_share_by_seat"].values()) - 1) < 1e-9
    code, text, _ = _run(["simulate", "hand-and-foot", "-n", "10", "--seed", "40", *opts], capsys)
    shown = ", ".join(f"{s}: {rates[s]:.3f}" for s in range(6))
    assert code == 0 and f"matches won by seat (a team's win counts for each partner): {shown}" in text
    assert "win share" not in text


def test_simulate_win_rates_do_not_depend_on_workers(capsys: pytest.CaptureFixture[str]) -> None:
    def stats(workers: str) -> dict[str, Any]:
        code, out, _ = _run(["simulate", "riding-the-bus", "-n", "12", "--seed", "3", "--workers", workers, "--json"],
                            capsys)
        assert code == 0
        got: dict[str, Any] = json.loads(out)
        del got["seconds"]
        return got

    one = stats("1")
    assert one == stats("2") and sum(one["win_rate_by_seat"].values()) >= 1


def _assert_typed(sid: str, options: dict[str, Any]) -> None:
    decls = load(sid).option_decls
    for k, v in options.items():
        assert type(v) is PYTHON_TYPES[decls[k].type], (sid, k, v)


@pytest.mark.parametrize("system", ["euchre", "riding-the-bus"])
def test_check_json_gives_option_values_the_types_the_spec_declares(system: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["check", system, "-n", "1", "-j", "1", "--no-verify", "--json"], capsys)
    assert code == 0
    rows = json.loads(out)["matches"]
    kinds = {load(system).option_decls[k].type for r in rows for k in r["options"]}
    assert "int" in kinds and (system != "euchre" or "bool" in kinds)
    for r in rows:
        _assert_typed(system, r["options"])


def test_verify_findings_give_option_values_the_types_the_spec_declares() -> None:
    rows = verify_rows(["riding-the-bus"], 10_000)
    assert {"players": 15} in [r["options"] for r in rows]
    for r in rows:
        _assert_typed("riding-the-bus", r["options"])


@pytest.mark.parametrize("argv", [
    ["simulate", "riding-the-bus", "-n", "1", "--ray-address", "ray://nowhere:10001"],
    ["check", "riding-the-bus", "-n", "1", "--no-verify", "--ray-address", "auto"],
    ["verify", "riding-the-bus", "--ray-address", "auto"],
])
def test_a_ray_address_without_the_ray_backend_is_a_usage_error(argv: list[str],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2 and out == ""
    assert err == "cardspec: error: --ray-address needs --backend ray\n"


def test_sources_that_is_a_file_is_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "sources.txt"
    file.write_text("not a folder\n")
    code, _, err = _run(["check", "riding-the-bus", "-n", "1", "-j", "1", "--no-verify", "--sources", str(file)],
                        capsys)
    assert code == 2 and err == f"cardspec: error: --sources {file}: not a folder\n"
    code, _, err = _run(["check", "riding-the-bus", "-n", "1", "-j", "1", "--no-verify", "--sources",
                         str(tmp_path / "missing")], capsys)
    assert code == 2 and err.endswith(": no such folder\n")


def test_check_without_verification_says_it_was_not_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["check", "riding-the-bus", "-n", "1", "-j", "1", "--no-verify"], capsys)
    assert code == 0 and "verification not run (--no-verify)" in out
    assert "verification findings" not in out  # no "0 findings, 0 failing" for proofs never tried


def test_an_accepted_record_that_stops_before_the_match_ends_names_no_winners(
        capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).resolve().parents[1] / "docs" / "examples" / "one-hand-euchre.jsonl"
    code, out, _ = _run(["replay", str(example)], capsys)
    assert code == 1  # the example holds rejected records too, on purpose
    assert ": accepted: euchre, 23 actions, 1 hand, the hands it holds (no match end)" in out
    assert "winners None" not in out


def test_replay_of_dash_reads_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "r.jsonl.gz"
    assert _run(["simulate", "riding-the-bus", "-n", "2", "--records", str(records)], capsys)[0] == 0
    done = subprocess.run([sys.executable, "-m", "cardspec", "replay", "-"], input=records.read_bytes(),
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert b"2 records: 2 accepted" in done.stdout and b":2: accepted: riding-the-bus" in done.stdout


def test_replay_reads_one_pretty_printed_record_inside_a_gzip_file(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """One JSON document over many lines is read again from its start (a seek on the gzip stream)."""
    plain = tmp_path / "r.jsonl"
    assert _run(["simulate", "riding-the-bus", "-n", "1", "--seed", "3", "--records", str(plain)], capsys)[0] == 0
    doc = json.loads(plain.read_text(encoding="utf-8"))
    packed = tmp_path / "one.json.gz"
    packed.write_bytes(gzip.compress(json.dumps(doc, indent=2).encode()))
    code, out, _ = _run(["replay", str(packed)], capsys)
    assert code == 0 and f"{packed}: accepted: riding-the-bus, {len(doc['actions'])} actions" in out


def test_a_ray_address_without_ray_is_refused_by_the_library_too() -> None:
    """The check lives in ``parallel.check_backend``: a library call that would ignore the address refuses it."""
    from cardspec.engine.errors import CardspecError
    from cardspec.parallel import ordered

    with pytest.raises(CardspecError, match="--ray-address needs --backend ray"):
        list(ordered(pow, [(2, 3)], address="ray://head:10001"))
    assert list(ordered(pow, [(2, 3)])) == [8]


def test_one_match_and_one_record_are_counted_in_the_singular(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate -n 1` reports "1 match", and the audit's summary of its one record "1 record:"."""
    from cardspec.engine.audit import Summary, audit_file

    out_file = tmp_path / "one.jsonl"
    code, out, _ = _run(["simulate", "euchre", "-n", "1", "--records", str(out_file)], capsys)
    assert code == 0 and out.startswith("euchre: 1 match (") and "1 matches" not in out
    summary = Summary()
    for v in audit_file(out_file):
        summary.add(v)
    assert summary.text() == "1 record: 1 accepted, 0 unfinished, 0 rejected, 0 malformed"
