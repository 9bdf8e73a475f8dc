"""Review 2: engine errors name the spec file, the table's line and key, the option set and the seed (and
``check`` reports them as violations and still verifies); ``replay`` of a broken gzip stream writes the
verdicts before the break every time; a closed pipe behaves as the README says."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from cardspec.cli import NEUTRAL_HOLD, _Neutral, check_one, main
from cardspec.engine.errors import CardspecError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.tables import DecisionTable, TableError
from cardspec.simulate import match_result

ROOT = Path(__file__).resolve().parents[1]
Q = 'source: {doc: 004_945a3021da002f83.txt, quote: "The goal for each round is to win at least 3 of the 5 tricks."}'

# A small two-player trick game (citations quote the euchre text); ROWS is replaced by each test's rows.
MINI = """id: mini-tricks
title: Mini tricks
summary: Two players, no trump, five tricks, most tricks scores.
zones:
  - {id: hand, owner: seat, order: set, visibility: owner, source: {doc: 004_945a3021da002f83.txt, quote: "The \
dealer begins by dealing all 4 people 5 cards"}}
  - {id: stock, owner: table, order: stack, visibility: count, source: {doc: 004_945a3021da002f83.txt, quote: "the \
remaining 4 cards"}}
  - {id: trick, owner: table, order: sequence, visibility: all, source: {doc: 004_945a3021da002f83.txt, quote: "You \
must play/follow the same suit that was lead if you have that suit."}}
  - {id: won, owner: seat, order: set, visibility: count, source: {doc: 004_945a3021da002f83.txt, quote: "takes the \
cards, and keeps then in front of them"}}
players:
  count: 2
  source: {doc: 004_945a3021da002f83.txt, quote: "Your partner is the person opposite/across you."}
deck:
  ranks: ["9", "10", "J", "Q", "K", "A"]
  suits: {C: black, D: red, H: red, S: black}
  source: {doc: 004_945a3021da002f83.txt, quote: "all 9,10,J,Q,K,A from a normal deck. Thus 24 cards"}
deal:
  hand_size: 5
  packets: [5]
  undealt:
    - {pile: stock, count: rest}
  source: {doc: 004_945a3021da002f83.txt, quote: "The dealer begins by dealing all 4 people 5 cards"}
ranking:
  plain: ["9", "10", "J", "Q", "K", "A"]
  trump: ["9", "10", "J", "Q", "K", "A"]
  source: {doc: 004_945a3021da002f83.txt, quote: "9->10->Q->K->A->Jack of the same color->Jack of trump"}
phases:
  - component: tricks
    id: play
    tricks: 5
    first_leader: left_of_dealer
    follow: effective_suit
    source: {doc: 004_945a3021da002f83.txt, quote: "You must play/follow the same suit that was lead if you have \
that suit."}
    winner_source: {doc: 004_945a3021da002f83.txt, quote: "The person laying the winning card (based on that card \
hierarchy above) takes the cards"}
scoring:
  entity: player
  counter: points
  tables:
    - id: hand_points
      QUOTE
      inputs:
        tricks: {type: int, min: 0, max: 5}
      hit: unique
      rows:
ROWS
match:
  first_dealer: seat0
  rotation: left
  rotation_source: {doc: 004_945a3021da002f83.txt, quote: "The person to the left of the dealer is now the new dealer"}
  end:
    kind: target
    counter: points
    target: 5
    source: {doc: 004_945a3021da002f83.txt, quote: "The game goes until a team scores 10 points."}
bounds:
  hand_points: [0, 1]
  actions_per_hand: 10
ambiguities: []
options: {}
""".replace("QUOTE", Q)


def _rows(*rows: tuple[str, int]) -> str:
    return "\n".join(f"        - when: {{tricks: {w}}}\n          then: {t}\n          {Q}" for w, t in rows)


GAP = _rows(("[3, 5]", 1), ("[0, 1]", 0))  # no row for tricks=2
OVERLAP = _rows(("[3, 5]", 1), ("[0, 3]", 0))  # two rows for tricks=3
NO_POINTS = _rows(("[3, 5]", 0), ("[0, 2]", 0))  # complete, but no hand scores: the match never ends


def _spec(tmp_path: Path, rows: str, name: str = "mini.yaml") -> tuple[Path, int]:
    """The spec file, and the line of its scoring table (counting from 1)."""
    text = MINI.replace("ROWS", rows)
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    line = text.splitlines().index("    - id: hand_points") + 1
    return p, line


# --- 1. engine errors name where -----------------------------------------------------------------
def test_table_error_names_file_line_and_key() -> None:
    t = DecisionTable.build({"id": "t", "inputs": {"n": {"type": "int", "min": 0, "max": 5}},
                             "rows": [{"when": {"n": [0, 3]}, "then": 0}, {"when": {"n": [3, 4]}, "then": 1}]},
                            "unique", "f.yaml", "scoring.tables.2", 17)
    with pytest.raises(TableError) as gap:
        t.evaluate({"n": 5})
    assert str(gap.value) == "f.yaml:17: key 'scoring.tables.2': table 't': no row matches {'n': 5}"
    assert (gap.value.file, gap.value.line, gap.value.key) == ("f.yaml", 17, "scoring.tables.2")
    with pytest.raises(TableError) as both:
        t.evaluate({"n": 3})
    assert str(both.value).startswith("f.yaml:17: key 'scoring.tables.2': table 't': 2 rows match {'n': 3}")
    assert "(rows 1, 2, counting from 1)" in str(both.value)


def test_a_table_built_from_a_spec_file_knows_its_line(tmp_path: Path) -> None:
    p, line = _spec(tmp_path, GAP)
    table = Game(load(str(p))).scoring.tables[0]
    assert (table.file, table.key, table.line) == (str(p), "scoring.tables.0", line)


@pytest.mark.parametrize("rows,what", [(GAP, "no row matches {'tricks': 2}"),
                                       (OVERLAP, "2 rows match {'tricks': 3} (rows 1, 2, counting from 1)")])
def test_simulate_names_file_line_key_options_and_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       rows: str, what: str) -> None:
    p, line = _spec(tmp_path, rows)
    assert main(["simulate", str(p), "-n", "5", "--seed", "7"]) == 2
    err = capsys.readouterr().err
    assert err == (f"cardspec: error: {p}:{line}: key 'scoring.tables.0': table 'hand_points': {what} "
                   "(in the match of seed 7, options: defaults)\n")


def test_simulate_in_workers_names_the_seed_of_the_failing_match(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    p, line = _spec(tmp_path, GAP)
    game = Game(load(str(p)))
    first = next(s for s in range(100) if _fails(lambda s=s: match_result(game, s, "rule", False)))
    assert main(["simulate", str(p), "-n", str(first + 3), "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert f"{p}:{line}: key 'scoring.tables.0'" in err
    assert f"(in the match of seed {first}, options: defaults)" in err and "Traceback" not in err


def _fails(play: Callable[[], object]) -> bool:
    try:
        play()
    except CardspecError:
        return True
    return False


def test_simulate_at_the_action_bound_names_file_options_and_seed(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    p, _ = _spec(tmp_path, NO_POINTS)
    assert main(["simulate", str(p), "-n", "1", "--seed", "3", "--fast"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardspec: error: {p}: the match reached its action bound of 100000 actions")
    assert err.endswith("(in the match of seed 3, options: defaults)\n")


def test_play_names_file_line_options_and_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    p, line = _spec(tmp_path, GAP)
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 500))  # the first choice every time
    assert main(["play", str(p), "--seed", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardspec: error: {p}:{line}: key 'scoring.tables.0': table 'hand_points': no row")
    assert err.endswith("(in the match of seed 4, options: defaults)\n") and err.count("\n") == 1


def test_play_stops_at_the_action_bound_on_the_persons_own_move(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A match that cannot end reaches its action bound; when the person's own move hits it, play stops with
    ActionBoundError (which cmd_play reports with file, options and seed) instead of "not accepted" forever."""
    import random

    from cardspec.engine.bots import BOTS
    from cardspec.engine.errors import ActionBoundError
    from cardspec.play import play_terminal

    p, _ = _spec(tmp_path, NO_POINTS)
    g = Game(load(str(p)))
    st, bot = g.new_initial_state(3), BOTS["rule"](random.Random("play/3"))  # as play_terminal plays seed 3
    while True:
        st.apply(bot(st, st.legal_actions()) if st.current_player() != 0 else st.legal_actions()[0])
        if st.current_player() == 0 and len(st.history) > 10:
            break
    g.action_bound = len(st.history)  # the bound falls on the person's move
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 50))
    with pytest.raises(ActionBoundError, match=f"action bound of {len(st.history)} actions"):
        play_terminal(g, 3, 0, "rule", False)


def test_check_one_reports_an_engine_error_as_a_violation_and_plays_on(tmp_path: Path) -> None:
    p, line = _spec(tmp_path, GAP)
    row = check_one(str(p), {}, 3, "mixed")
    assert row["status"] == "FAIL" and row["matches"] == 3
    seeds = [int(re.match(r"seed (\d+): ", v).group(1)) for v in row["violations"]]  # type: ignore[union-attr]
    assert seeds == sorted(seeds) and len(seeds) >= 2  # the matches after the first failure were played too
    first = row["violations"][0]
    assert "the engine stopped the match" in first and f"{p}:{line}: key 'scoring.tables.0'" in first
    assert row["actions"] > 0


def test_check_one_reports_the_action_bound_as_a_violation(tmp_path: Path) -> None:
    p, _ = _spec(tmp_path, NO_POINTS)
    row = check_one(str(p), {}, 1, "rule")
    assert row["status"] == "FAIL" and row["actions"] == 100_000
    assert row["violations"] == ["seed 0: action 100000: the engine stopped the match: the match reached its "
                                 "action bound of 100000 actions (hand 10000) without ending"]


@pytest.mark.parametrize("rows,prop", [(GAP, "table complete (hand_points)"),
                                       (OVERLAP, "table deterministic (hand_points)")])
def test_check_reports_the_match_and_still_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    rows: str, prop: str) -> None:
    p, line = _spec(tmp_path, rows)
    assert main(["check", str(p), "-n", "2", "-j", "1", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    [m] = doc["matches"]
    assert m["options"] == {} and m["status"] == "FAIL"
    assert m["violations"][0].startswith("seed ") and f"{p}:{line}: key 'scoring.tables.0'" in m["violations"][0]
    found = [r for r in doc["verify"] if r["property"] == prop]
    assert [r["status"] for r in found] == ["counterexample"]


def test_check_text_names_the_violation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p, line = _spec(tmp_path, GAP)
    assert main(["check", str(p), "-n", "1", "-j", "1"]) == 1
    out = capsys.readouterr().out
    assert f"VIOLATION {p} (defaults): seed 0: action " in out
    assert f"{p}:{line}: key 'scoring.tables.0': table 'hand_points': no row matches" in out
    assert "counterexample" in out  # the verification ran and shows the gap


# --- 2. replay of a broken gzip stream -----------------------------------------------------------
@pytest.fixture(scope="module")
def truncated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A gzip record file cut off in the middle, and how many complete records its bytes hold."""
    d = tmp_path_factory.mktemp("trunc")
    full = d / "all.jsonl.gz"
    assert main(["simulate", "euchre", "-n", "150", "--records", str(full)]) == 0
    data = full.read_bytes()
    cut = data[: len(data) * 2 // 3]
    p = d / "cut.jsonl.gz"
    p.write_bytes(cut)
    text = zlib.decompressobj(wbits=31).decompress(cut)
    with pytest.raises(EOFError):
        gzip.decompress(cut)
    return p, text.count(b"\n")


def test_replay_of_a_truncated_gzip_writes_every_verdict_read_then_summary_and_error(
        truncated: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    p, _ = truncated
    outs = []
    for _ in range(3):
        assert main(["replay", str(p)]) == 2
        outs.append(capsys.readouterr())
    assert outs[0] == outs[1] == outs[2]  # the same every run
    lines = outs[0].out.splitlines()
    verdicts = [x for x in lines if x.startswith(f"{p}:")]
    n = len(verdicts)
    assert n > 0 and verdicts == [f"{p}:{i + 1}: " + v.split(": ", 1)[1] for i, v in enumerate(verdicts)]
    assert lines[n] == f"{n} records: {n} accepted, 0 unfinished, 0 rejected, 0 malformed"
    err = outs[0].err
    assert err.startswith(f"cardspec: error: {p}: not a valid gzip file") and f"(after {n} records;" in err


def test_replay_json_of_a_truncated_gzip_prints_the_verdicts_and_the_error(
        truncated: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    p, _ = truncated
    assert main(["replay", str(p), "--json"]) == 2
    got = capsys.readouterr()
    doc = json.loads(got.out)
    n = len(doc["verdicts"])
    assert n > 0 and doc["summary"]["records"] == n == doc["summary"]["accepted"]
    assert doc["error"].startswith(f"{p}: not a valid gzip file")
    assert f"(after {n} records;" in got.err


def test_replay_of_a_truncated_gzip_audits_every_complete_record(truncated: tuple[Path, int],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    p, complete = truncated
    assert main(["replay", str(p), "--json"]) == 2
    assert len(json.loads(capsys.readouterr().out)["verdicts"]) == complete


# --- 3. a closed pipe ----------------------------------------------------------------------------
def test_short_output_to_a_pipe_closed_after_one_line_exits_with_the_commands_code() -> None:
    """``cardspec list | head -1``: the listing fits in the pipe and goes in one write, so the reader closing
    after its first line never cuts it short (even with PYTHONUNBUFFERED, which writes each print twice)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    for _ in range(5):
        p = subprocess.Popen([sys.executable, "-m", "cardspec", "list"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=ROOT)
        assert p.stdout is not None and p.stderr is not None
        first = p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read()
        assert p.wait(timeout=120) == 0, err
        assert first.startswith(b"bid-euchre") and err == b""


def test_neutral_output_holds_text_until_a_flush() -> None:
    sink = io.StringIO()
    out = _Neutral(sink)
    print("a\x1b[31m", file=out)  # type: ignore[arg-type]
    assert sink.getvalue() == ""
    out.flush()
    assert sink.getvalue() == "a\\x1b[31m\n"
    out.write("x" * NEUTRAL_HOLD)
    assert len(sink.getvalue()) == len("a\\x1b[31m\n") + NEUTRAL_HOLD  # a full pipe's worth goes at once


def test_readme_states_what_a_closed_pipe_does() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cli = (ROOT / "cardspec" / "cli.py").read_text(encoding="utf-8")
    msg = "output closed before the command finished; its result is unknown"
    assert msg in cli and f"`cardspec: error: {msg}`" in readme
    assert "exits 2 with one line on stderr" in readme and "ends output quietly" not in readme
