"""Hostile and malformed input: each case fails fast, in bounded memory, saying what and where.

Specs are a real spec (``euchre.yaml``) with one targeted edit; records are a real seeded match
with one targeted edit. Every bad input must raise the right error naming the file and line (specs),
the key, or the action index (records), within a second; through the command line it must exit 2
with one line on stderr and no traceback.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cardspec.cli import main
from cardspec.engine import record
from cardspec.engine.errors import RecordError, SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import MAX_BYTES, load_yaml_text, record_schema, spec_dir
from cardspec.engine.spec import load

FAST = 3.0  # seconds: every hostile case must be refused within this (a bound against blow-ups, with room for a
#            loaded 2-core machine; the dense-line case takes about 0.6 s alone)
PEAK = 20_000_000  # bytes: the most Python may allocate while refusing a big file
BIG = 50_000_000  # bytes: the "50 MB file"
EUCHRE = (spec_dir() / "euchre.yaml").read_text(encoding="utf-8")


# --- helpers -------------------------------------------------------------------------------------
def edited(old: str, new: str, text: str = EUCHRE) -> str:
    """``text`` with the one occurrence of ``old`` replaced (fails if it is not there once)."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in the spec"
    return text.replace(old, new)


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the one occurrence of ``needle`` in ``text``."""
    assert text.count(needle) == 1, f"{needle!r} occurs {text.count(needle)} times"
    return text[: text.index(needle)].count("\n") + 1


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def spec_error(path: Path) -> SpecError:
    """Load ``path`` as a spec; it must fail with a SpecError within :data:`FAST` seconds."""
    t0 = time.perf_counter()
    with pytest.raises(SpecError) as info:
        load(str(path))
    assert time.perf_counter() - t0 < FAST, "the spec was not refused within a second"
    exc = info.value
    assert path.name in str(exc), f"the error does not name the file: {exc}"
    return exc


def cli_verdict(argv: list[str], capsys: pytest.CaptureFixture[str], code: int) -> str:
    """Run the CLI on records that read well: the exit code (0 accepted, 1 rejected or unfinished),
    the verdicts on stdout, nothing on stderr, within a second."""
    t0 = time.perf_counter()
    got = main(argv)
    secs = time.perf_counter() - t0
    out = capsys.readouterr()
    assert got == code, f"exit code {got}, stdout {out.out[:300]!r}, stderr {out.err!r}"
    assert out.err == "" and secs < FAST, (out.err, secs)
    assert "Traceback" not in out.out
    return out.out


def cli_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the CLI: exit code 2, one line on stderr, no traceback, within a second."""
    t0 = time.perf_counter()
    code = main(argv)
    secs = time.perf_counter() - t0
    err = capsys.readouterr().err
    assert code == 2, f"exit code {code}, stderr {err!r}"
    assert secs < FAST, f"took {secs:.2f} s"
    assert err.startswith("cardspec: error:"), err
    assert err.count("\n") == 1 and err.endswith("\n"), f"not exactly one line: {err!r}"
    assert "Traceback" not in err
    return err


def peak_of(fn: Callable[[], Any]) -> tuple[Any, int, float]:
    """Run ``fn`` under tracemalloc; its result (or the exception it raised), peak bytes, seconds."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        out: Any = fn()
    except Exception as exc:
        out = exc
    secs = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return out, peak, secs


def write_big(path: Path, head: bytes, fill: bytes, size: int = BIG, tail: bytes = b"") -> Path:
    """A file of ``size`` bytes: head, fill repeated, tail; written in 1 MB pieces."""
    chunk = fill * (1_000_000 // len(fill))
    with path.open("wb") as fh:
        fh.write(head)
        left = size - len(head) - len(tail)
        while left > 0:
            piece = chunk[:left]
            fh.write(piece)
            left -= len(piece)
        fh.write(tail)
    assert path.stat().st_size == size
    return path


# --- specs: the harness itself --------------------------------------------------------------------
def test_an_unedited_copy_loads(tmp_path: Path) -> None:
    """The targeted edits below, not the copying, are what make each spec bad."""
    spec = load(str(write(tmp_path, "euchre.yaml", EUCHRE)))
    assert spec.id == "euchre" and len(spec.ambiguities) >= 2
    assert Game(spec).deck.size == 24


# --- specs: one targeted edit each ----------------------------------------------------------------
# (name, edited text, needle for the expected line, expected key, words the message must contain)
SPEC_CASES: list[tuple[str, str, str, str | None, tuple[str, ...]]] = [
    ("unknown-key", edited("deck:\n", "deck:\n  jokerz: 2\n"), "jokerz", "deck.jokerz",
     ("jokerz", "allowed keys")),
    ("wrong-type", edited("hand_size: 5", 'hand_size: "five"'), "hand_size", "deal.hand_size",
     ("'five'", "integer")),
    ("bool-for-int", edited("hand_size: 5", "hand_size: yes"), "hand_size", "deal.hand_size",
     ("True", "integer")),
    ("bad-indentation", edited("  undealt:\n", "    undealt:\n"), "    undealt:", None,
     ("malformed YAML",)),
    ("tab-indentation", edited("  undealt:\n", "\tundealt:\n"), "\tundealt:", None,
     ("malformed YAML",)),
    ("duplicate-key", edited("title:", "id: euchre-again\ntitle:"), "id: euchre-again", "id",
     ("duplicate key",)),
    ("non-string-key", edited("deck:\n", "deck:\n  [1, 2]: x\n"), "[1, 2]: x", "deck",
     ("not a string",)),
    ("python-tag", edited("hand_size: 5", "hand_size: !!python/object/apply:os.system [ls]"),
     "hand_size", None, ("YAML tag", "python/object/apply:os.system", "not allowed")),
    ("custom-tag-on-mapping", edited("deal:\n  hand_size", "deal: !deal\n  hand_size"), "deal: !deal",
     None,
     ("YAML tag '!deal' is not allowed",)),
    ("huge-integer", edited("hand_size: 5", "hand_size: " + "9" * 5000), "hand_size",
     "deal.hand_size", ("bad value", "digits")),
    ("second-document", EUCHRE + "---\nid: other\n", "---\nid: other", None,
     ("more than one YAML document",)),
    ("deal-does-not-add-up", edited("hand_size: 5", "hand_size: 7"), "deal:\n  hand_size", "deal",
     ("the deal uses 32 cards but the deck has 24",)),
    ("undeclared-option", edited("{$option: going_alone}", "{$option: going_solo}"),
     "{$option: going_solo}", "phases.2.enabled", ("undeclared option 'going_solo'",)),
    ("decision-not-default", edited("decision: dealer_must_name", "decision: redeal"),
     "- id: screw-the-dealer", "ambiguities.0", ("decision 'redeal' differs from the default",)),
    ("ambiguity-undeclared-option", edited("option: going_alone\n", "option: go_it_alone\n"),
     "- id: going-alone-procedure", "ambiguities.1", ("names undeclared option 'go_it_alone'",)),
    ("rank-not-in-deck", edited("bowers: {rank: J,", "bowers: {rank: Z,"), "bowers:", None,
     ("not in the deck",)),
]


@pytest.mark.parametrize("name, text, needle, key, words", SPEC_CASES,
                         ids=[c[0] for c in SPEC_CASES])
def test_bad_spec_names_line_and_key(tmp_path: Path, name: str, text: str, needle: str,
                                     key: str | None, words: tuple[str, ...]) -> None:
    exc = spec_error(write(tmp_path, f"{name}.yaml", text))
    want = line_of(text, needle)
    assert exc.line == want, f"line {exc.line}, expected {want}: {exc}"
    assert f":{want}:" in str(exc)
    if key is not None:
        assert exc.key == key and f"key '{key}'" in str(exc), str(exc)
    for w in words:
        assert w in str(exc), f"{w!r} not in {exc}"


def test_unclosed_bracket_names_the_line_it_opened_on(tmp_path: Path) -> None:
    text = edited('plain: ["9", "10", "J", "Q", "K", "A"]', 'plain: ["9", "10", "J", "Q", "K", "A"')
    exc = spec_error(write(tmp_path, "bracket.yaml", text))
    opened = line_of(text, 'plain: ["9", "10", "J", "Q", "K", "A"')
    assert "malformed YAML" in exc.detail
    # The parser notices at the next line; the message also names the line the bracket opened on.
    assert exc.line == opened + 1 and f"line {opened}" in exc.detail, str(exc)


@pytest.mark.parametrize("name, content, words, line", [
    ("empty", "", "empty file", None),
    ("only-a-comment", "# nothing here\n", "empty file", None),
    ("top-level-list", "- id: euchre\n- title: x\n", "mapping at the top level", 1),
    ("top-level-scalar", "euchre\n", "mapping at the top level", 1),
    ("non-utf8", b"id: euchre\ntitle: \xff\xfe caf\xe9\n", "not UTF-8", 2),
])
def test_degenerate_files(tmp_path: Path, name: str, content: str | bytes, words: str,
                          line: int | None) -> None:
    exc = spec_error(write(tmp_path, f"{name}.yaml", content))
    assert words in exc.detail and exc.line == line, str(exc)


def test_alias_bomb_is_refused_before_expansion(tmp_path: Path) -> None:
    """Billion laughs: nine levels of nine aliases would be 9**9 nodes if expanded."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10)]
    text = "\n".join(lines) + "\n"
    (exc, peak, secs) = peak_of(lambda: load(str(write(tmp_path, "bomb.yaml", text))))
    assert isinstance(exc, SpecError), exc
    assert "aliases are not allowed" in exc.detail and exc.line == 1
    assert secs < FAST and peak < PEAK


def test_a_single_alias_is_refused_with_its_line(tmp_path: Path) -> None:
    text = edited("  ranks: [\"9\", \"10\", \"J\", \"Q\", \"K\", \"A\"]\n  suits",
                  "  ranks: &r [\"9\", \"10\", \"J\", \"Q\", \"K\", \"A\"]\n  suits")
    text = edited('  plain: ["9", "10", "J", "Q", "K", "A"]', "  plain: *r", text)
    exc = spec_error(write(tmp_path, "alias.yaml", text))
    assert "aliases" in exc.detail and exc.line == line_of(text, "&r")


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{a: ", "}")])
def test_deep_flow_nesting_is_refused_without_recursion(tmp_path: Path, opener: str,
                                                        closer: str) -> None:
    text = "x: " + opener * 10_000 + "1" + closer * 10_000 + "\n"
    exc = spec_error(write(tmp_path, "deep.yaml", text))  # a RecursionError would fail here
    assert "nesting deeper than" in exc.detail and exc.line == 1


def test_deep_block_nesting_names_the_first_line_too_deep(tmp_path: Path) -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "leaf\n"
    exc = spec_error(write(tmp_path, "deep-block.yaml", text))
    # the mapping that starts on line n is level n; level 49 is one too deep
    assert "nesting deeper than 48" in exc.detail and exc.line == 49, str(exc)


def test_a_50_mb_spec_is_refused_by_size_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as fh:  # sparse: 50 MB on paper, nothing on disk
        fh.write(b"id: euchre\n")
        fh.truncate(BIG)
    (exc, peak, secs) = peak_of(lambda: load(str(path)))
    assert isinstance(exc, SpecError), exc
    assert f"{BIG} bytes" in exc.detail and str(MAX_BYTES) in exc.detail
    assert secs < 0.1 and peak < 1_000_000, (secs, peak)


def test_many_nodes_under_the_size_limit_are_refused_fast(tmp_path: Path) -> None:
    text = "x: [" + "1," * 400_000 + "1]\n"
    assert len(text) < MAX_BYTES
    exc = spec_error(write(tmp_path, "nodes.yaml", text))
    assert "YAML nodes" in exc.detail


def test_one_long_scalar_under_the_size_limit_is_handled_fast(tmp_path: Path) -> None:
    text = edited('summary: Four', "summary: " + "x" * 900_000 + " Four")
    exc = spec_error(write(tmp_path, "long.yaml", text))
    assert exc.key == "summary" and exc.line == line_of(text, "summary:") and "too long" in str(exc)
    assert len(str(exc)) < 600  # the 900 KB value is not copied into the message


def test_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "folder.yaml").mkdir()
    exc = spec_error(tmp_path / "folder.yaml")
    assert "not a regular file" in exc.detail


def test_a_device_is_refused_without_reading_it() -> None:
    """``/dev/zero`` never ends; run in a child with a memory cap, so a regression cannot hurt."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
            "from cardspec.cli import main\n"
            "sys.exit(main(['rules', '/dev/zero']))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr[-500:]
    assert proc.stderr.startswith("cardspec: error: /dev/zero") and "not a regular file" in proc.stderr


@pytest.mark.parametrize("parent, words", [
    ("no-such-spec", "does not exist"),
    ("../euchre", "same folder"),
    ("/etc/passwd", "same folder"),
    (".hidden", "same folder"),
])
def test_bad_extends(tmp_path: Path, parent: str, words: str) -> None:
    child = tmp_path / "sub"
    child.mkdir()
    write(tmp_path, "euchre.yaml", EUCHRE)  # a real spec one folder up: must not be reachable
    text = f"# a variant\nextends: {parent}\nid: variant\n"
    exc = spec_error(write(child, "variant.yaml", text))
    assert words in exc.detail and exc.key == "extends" and exc.line == 2, str(exc)


def test_extends_cycle_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b\nid: a\n")
    write(tmp_path, "b.yaml", "extends: a\nid: b\n")
    t0 = time.perf_counter()
    with pytest.raises(SpecError) as info:
        load(str(tmp_path / "a.yaml"))
    assert time.perf_counter() - t0 < FAST
    exc = info.value
    assert "extends cycle through 'a'" in exc.detail and exc.key == "extends" and exc.line == 1
    assert exc.file.endswith("b.yaml")  # where the cycle closes


def test_load_yaml_text_refuses_oversized_text() -> None:
    with pytest.raises(SpecError, match="larger than"):
        load_yaml_text("a: 1\n" + "#" * MAX_BYTES, "x.yaml")


# --- specs through the command line ---------------------------------------------------------------
CLI_SPEC_CASES = [c for c in SPEC_CASES if c[0] in (
    "unknown-key", "wrong-type", "bad-indentation", "python-tag", "huge-integer", "second-document",
    "deal-does-not-add-up", "undeclared-option", "decision-not-default")]


@pytest.mark.parametrize("name, text, needle, key, words", CLI_SPEC_CASES,
                         ids=[c[0] for c in CLI_SPEC_CASES])
def test_cli_rules_on_a_bad_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                 text: str, needle: str, key: str | None,
                                 words: tuple[str, ...]) -> None:
    path = write(tmp_path, f"{name}.yaml", text)
    err = cli_error(["rules", str(path)], capsys)
    assert f"{path.name}:{line_of(text, needle)}:" in err, err
    assert all(w in err for w in words), err


@pytest.mark.parametrize("name, content", [
    ("empty", ""),
    ("bomb", "a: &a [1, 1, 1]\nb: [*a, *a, *a]\n"),
    ("deep", "x: " + "[" * 10_000 + "]" * 10_000 + "\n"),
    ("non-utf8", b"id: \xff\n"),
    ("list", "- 1\n"),
])
def test_cli_rules_on_hostile_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                    content: str | bytes) -> None:
    path = write(tmp_path, f"{name}.yaml", content)
    assert path.name in cli_error(["rules", str(path)], capsys)


def test_cli_rules_on_a_50_mb_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as fh:
        fh.truncate(BIG)
    assert "limit" in cli_error(["rules", str(path)], capsys)


def test_cli_rules_on_a_missing_spec_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "no such spec file" in cli_error(["rules", str(tmp_path / "nope.yaml")], capsys)


# --- records --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def match() -> tuple[Game, dict[str, Any]]:
    """A whole euchre match with random legal actions, and its record."""
    rng = random.Random(1)
    st = Game.from_system("euchre").new_initial_state(seed=1)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    rec = record.record_of(st)
    assert len(rec["results"]["hands"]) >= 2 and rec["results"]["winners"]
    return st.game, rec


@pytest.fixture
def rec(match: tuple[Game, dict[str, Any]]) -> dict[str, Any]:
    """A fresh deep copy of the match record, free to edit."""
    return copy.deepcopy(match[1])


def dump(tmp_path: Path, data: Any, name: str = "record.json") -> Path:
    return write(tmp_path, name, record.dumps(data) + "\n")


def state_before(game: Game, rec: dict[str, Any], index: int) -> Any:
    """The state just before action ``index`` of ``rec``."""
    st = game.new_initial_state(rec["seed"])
    for step in rec["actions"][:index]:
        st.apply(game.parse_action(step["action"]))
    return st


def test_a_valid_record_replays(tmp_path: Path, rec: dict[str, Any],
                                capsys: pytest.CaptureFixture[str]) -> None:
    out = cli_verdict(["replay", str(dump(tmp_path, rec))], capsys, 0)
    assert f"accepted: euchre, {len(rec['actions'])} actions" in out


def test_a_pretty_printed_record_replays(tmp_path: Path, rec: dict[str, Any],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "pretty.json", "\n\n" + json.dumps(rec, indent=2) + "\n")
    assert "accepted: euchre" in cli_verdict(["replay", str(path)], capsys, 0)


def test_a_card_not_held_names_the_action_and_cites_no_clause(
        tmp_path: Path, match: tuple[Game, dict[str, Any]], rec: dict[str, Any],
        capsys: pytest.CaptureFixture[str]) -> None:
    game = match[0]
    i = next(k for k, s in enumerate(rec["actions"]) if s["action"].startswith("play "))
    st = state_before(game, rec, i)
    seat = rec["actions"][i]["seat"]
    held = set(game.deck.cards_of(st.hands[seat]))
    card = next(game.deck.names[c] for c in range(game.deck.size) if c not in held)
    rec["actions"][i]["action"] = f"play {card}"
    err = cli_verdict(["replay", str(dump(tmp_path, rec))], capsys, 1)
    assert f"rejected: action {i}: 'play {card}' is illegal" in err, err
    assert f"{card} is not in seat {seat}'s hand" in err and ".txt" not in err, err  # no text says "hold it"
    with pytest.raises(RecordError) as info:
        record.replay(rec)
    assert info.value.index == i and info.value.source is None


def test_a_wrong_score_names_the_result_path(tmp_path: Path, rec: dict[str, Any],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    k = 1
    true_scores = rec["results"]["hands"][k]["scores"]
    rec["results"]["hands"][k]["scores"] = [s + 3 for s in true_scores]
    err = cli_verdict(["replay", str(dump(tmp_path, rec))], capsys, 1)
    assert "rejected: results" in err, err
    assert f"results.hands.{k}.scores" in err and str(true_scores) in err and ".txt" in err, err


def test_a_wrong_total_and_wrong_winners(rec: dict[str, Any]) -> None:
    bad = copy.deepcopy(rec)
    bad["results"]["hands"][0]["totals"] = [99, 99]
    with pytest.raises(RecordError, match=r"results\.hands\.0\.totals"):
        record.replay(bad)
    rec["results"]["winners"] = [s for s in range(4) if s not in rec["results"]["winners"]]
    with pytest.raises(RecordError, match=r"results\.winners"):
        record.replay(rec)


def test_a_wrong_seat_names_the_action(tmp_path: Path, rec: dict[str, Any],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    j = 3
    actual = rec["actions"][j]["seat"]
    rec["actions"][j]["seat"] = (actual + 1) % 4
    err = cli_verdict(["replay", str(dump(tmp_path, rec))], capsys, 1)
    assert f"action {j}: seat {(actual + 1) % 4} acts but it is seat {actual}'s turn" in err, err
    assert ".txt" in err


def test_an_unknown_action_names_the_action(tmp_path: Path, rec: dict[str, Any],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    rec["actions"][2]["action"] = "jump"
    err = cli_verdict(["replay", str(dump(tmp_path, rec))], capsys, 1)
    assert "action 2:" in err and "'jump'" in err, err


def test_an_action_after_the_match_is_over(rec: dict[str, Any]) -> None:
    n = len(rec["actions"])
    rec["actions"].append({"seat": 0, "action": "pass"})
    with pytest.raises(RecordError, match=f"action {n}: 'pass' after the match is over"):
        record.replay(rec)


def test_truncated_json(tmp_path: Path, rec: dict[str, Any],
                        capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "cut.json", record.dumps(rec)[:700])
    err = cli_error(["replay", str(path)], capsys)
    assert "cut.json" in err and "malformed JSON" in err, err


def test_json_nested_100000_deep(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in (("arrays.json", "[" * 100_000 + "]" * 100_000),
                       ("objects.json", '{"a":' * 100_000 + "1" + "}" * 100_000)):
        err = cli_error(["replay", str(write(tmp_path, name, text))], capsys)
        assert name in err and "nested too deeply" in err, err


@pytest.fixture
def old_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The line limit these tests were written for (1,000,000 bytes): each holds the reader to a bound in time and
    memory that scales with the limit. The real limit (64 MiB, ``record.MAX_RECORD_BYTES``) has its own tests in
    ``tests/test_review7_records.py``. A module global, not ``Final``: the compiled build reads it at run time."""
    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 1_000_000)


def test_a_50_mb_single_line_is_refused_fast_in_bounded_memory(
        old_limit: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_big(tmp_path / "huge.json", b'{"format":"', b"x", tail=b'"}')
    (code, peak, secs) = peak_of(lambda: main(["replay", str(path)]))
    err = capsys.readouterr().err
    assert code == 2 and "huge.json:1: line longer than" in err, (code, err)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert secs < FAST and peak < PEAK, (secs, peak)


def test_a_50_mb_pretty_document_is_refused_fast_in_bounded_memory(
        old_limit: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_big(tmp_path / "huge.json", b"{\n", b' "x": 1,\n', tail=b'"y": 2\n}\n')
    (code, peak, secs) = peak_of(lambda: main(["replay", str(path)]))
    err = capsys.readouterr().err
    assert code == 2 and "huge.json: record larger than" in err, (code, err)
    assert secs < FAST and peak < PEAK, (secs, peak)


def test_50_mb_of_blank_lines_is_skipped_fast(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = write_big(tmp_path / "blank.json", b"", b"\n \n\t\n")
    (code, peak, secs) = peak_of(lambda: main(["replay", str(path)]))
    err = capsys.readouterr().err
    assert code == 2 and "no records" in err
    assert secs < FAST and peak < PEAK, (secs, peak)


def test_a_huge_line_after_good_records_names_its_line(
        old_limit: None, tmp_path: Path, rec: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    good = (record.dumps(rec) + "\n").encode()
    path = write_big(tmp_path / "mixed.jsonl", good * 2, b"[")
    (code, peak, _) = peak_of(lambda: main(["replay", str(path)]))
    err = capsys.readouterr().err
    assert code == 2 and "mixed.jsonl:3: line longer than" in err, err
    assert peak < PEAK, peak


def test_a_record_at_the_size_limit_is_checked_within_a_second(
        old_limit: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A line just under the limit, of well-formed actions: the schema check must not take seconds."""
    n = (record.MAX_RECORD_BYTES - 200) // len('{"action":"pass","seat":0},')
    big = {"format": record.FORMAT, "system": "euchre", "options": {}, "seed": 1,
           "actions": [{"seat": 0, "action": "pass"}] * n}
    path = dump(tmp_path, big)
    assert record.MAX_RECORD_BYTES * 0.95 < path.stat().st_size < record.MAX_RECORD_BYTES
    err = cli_verdict(["replay", str(path)], capsys, 1)
    assert "action 1: seat 0 acts but it is seat" in err or "action 0: seat 0 acts" in err, err


@pytest.mark.parametrize("item", [b"[]", b"{}", b"0"])
def test_a_line_of_tiny_containers_is_parsed_in_bounded_time_and_memory(
        old_limit: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], item: bytes) -> None:
    """The densest JSON: one container per three bytes, right up to the line limit."""
    n = (record.MAX_RECORD_BYTES - 10) // (len(item) + 1)
    path = write(tmp_path, "dense.json", b"[" + b",".join([item] * n) + b"]\n")
    (code, peak, secs) = peak_of(lambda: main(["replay", str(path)]))
    err = capsys.readouterr().err
    assert code == 2 and "<top>:" in err and "is not of type 'object'" in err, err
    assert len(err) < 200  # the value is not copied into the message
    assert secs < FAST and peak < 3 * PEAK, (secs, peak)


@pytest.mark.parametrize("edit, where", [
    (lambda r: r.update(extra=1), "extra: Additional properties are not allowed"),
    (lambda r: r["actions"][4].update(note="x"), "actions.4.note:"),
    (lambda r: r["options"].update(nosuch=True), "options.nosuch: unknown option 'nosuch'"),
    (lambda r: r["options"].update(all_pass="maybe"), "options.all_pass:"),
    (lambda r: r["options"].update(going_alone=3), "options.going_alone:"),
    (lambda r: r.update(seed="one"), "seed: 'one' is not of type"),
    (lambda r: r.update(seed=1.5), "seed: 1.5 is not of type"),
    (lambda r: r.update(seed=True), "seed: True is not of type"),
    (lambda r: r.update(seed=None), "seed: chance needed"),
    (lambda r: r.pop("actions"), "<top>: missing required key 'actions'"),
    (lambda r: r.update(format="cardspec-record/9"), "format:"),
    (lambda r: r.update(system="no-such-game"), "system:"),
    (lambda r: r["actions"][1].update(seat=16), "actions.1.seat: 16 is greater than"),
    (lambda r: r["actions"][1].update(action=7), "actions.1.action: 7 is not of type"),
    (lambda r: r["actions"][1].update(action="x" * 65), "actions.1.action:"),
    (lambda r: r["results"]["hands"][0].update(ended_by="boredom"), "results.hands.0.ended_by:"),
])
def test_bad_record_fields_name_the_key(tmp_path: Path, rec: dict[str, Any],
                                        capsys: pytest.CaptureFixture[str],
                                        edit: Callable[[dict[str, Any]], Any], where: str) -> None:
    edit(rec)
    err = cli_error(["replay", str(dump(tmp_path, rec))], capsys)
    assert where in err, err


def test_a_misspelt_key_names_the_required_key_it_leaves_missing(tmp_path: Path, rec: dict[str, Any],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``sed`` for ``seed``: the unknown key is named, and so is the required one it leaves out."""
    rec["sed"] = rec.pop("seed")
    err = cli_error(["replay", str(dump(tmp_path, rec))], capsys)
    assert "sed: Additional properties are not allowed ('sed' was unexpected); missing required key 'seed'" in err


def test_a_record_of_unknown_keys_names_every_missing_required_key(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``{"bad": 1}``: the unknown key, then each required key once (the record schema's ``required`` list)."""
    required = sorted(record.record_schema()["required"])
    err = cli_error(["replay", str(write(tmp_path, "bad.json", '{"bad": 1}\n'))], capsys)
    assert "bad: Additional properties are not allowed" in err
    assert "missing required keys " + ", ".join(repr(k) for k in required) in err, err
    err = cli_error(["replay", str(write(tmp_path, "empty.json", "{}\n"))], capsys)
    assert "<top>: missing required keys " + ", ".join(repr(k) for k in required) in err, err


def test_an_integral_float_seed_is_malformed(rec: dict[str, Any]) -> None:
    """JSON Schema counts 1.0 as an integer; the replay refuses it (never other chance than the seed 1)."""
    rec["seed"] = float(rec["seed"])
    with pytest.raises(record.MalformedRecordError) as info:
        record.replay(rec)
    assert info.value.path == "seed"


def test_a_record_that_is_not_an_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = cli_error(["replay", str(write(tmp_path, "list.json", "[1, 2]\n"))], capsys)
    assert "<top>" in err and "not of type 'object'" in err


def test_duplicate_json_keys_are_refused(tmp_path: Path, rec: dict[str, Any],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    text = record.dumps(rec).replace('"seed":1', '"seed":1,"seed":2')
    assert text.count('"seed"') == 2
    err = cli_error(["replay", str(write(tmp_path, "dup.json", text))], capsys)
    assert "duplicate key 'seed'" in err, err


def test_non_utf8_record_names_the_line(tmp_path: Path, rec: dict[str, Any],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    good = record.dumps(rec).encode()
    path = write(tmp_path, "latin1.jsonl", good + b"\n" + b'{"system":"caf\xe9"}\n')
    err = cli_error(["replay", str(path)], capsys)
    assert "latin1.jsonl:2: not UTF-8" in err, err


def test_nan_and_huge_numbers(tmp_path: Path, rec: dict[str, Any],
                              capsys: pytest.CaptureFixture[str]) -> None:
    text = record.dumps(rec).replace('"seed":1', '"seed":NaN')
    assert "seed: nan is not of type" in cli_error(
        ["replay", str(write(tmp_path, "nan.json", text))], capsys)
    text = record.dumps(rec).replace('"seed":1', '"seed":' + "9" * 5000)
    assert "malformed JSON" in cli_error(["replay", str(write(tmp_path, "big.json", text))], capsys)


# --- explicit deals -------------------------------------------------------------------------------
@pytest.fixture
def dealt(match: tuple[Game, dict[str, Any]]) -> dict[str, Any]:
    """A record with one explicit deal (the seed-1 deal) and no actions."""
    deal = record.deal_of(match[0].new_initial_state(seed=1))
    return {"format": record.FORMAT, "system": "euchre", "options": {}, "seed": None,
            "deals": [deal], "actions": []}


def test_an_explicit_deal_replays(tmp_path: Path, dealt: dict[str, Any],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = cli_verdict(["replay", str(dump(tmp_path, dealt))], capsys, 1)  # no action played: not over
    assert "unfinished: euchre, 0 actions, 0 hands, before the match is over" in out


def test_an_explicit_deal_with_a_duplicated_card(tmp_path: Path, dealt: dict[str, Any],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    hands = dealt["deals"][0]["hands"]
    hands[1][0] = hands[0][0]
    err = cli_error(["replay", str(dump(tmp_path, dealt))], capsys)
    assert "deals.0.hands.1.0:" in err and f"'{hands[0][0]}' appears more often" in err, err


@pytest.mark.parametrize("edit, where", [
    (lambda d: d["hands"][1].pop(), "deals.0.hands.1: seat 1 must hold 5 cards"),
    (lambda d: d["hands"][2].append(d["piles"]["kitty"].pop()), "deals.0.hands.2: seat 2 must hold"),
    (lambda d: d["hands"].pop(), "deals.0.hands: hands must list 4 hands"),
    (lambda d: d["hands"][0].__setitem__(0, "ZZ"), "deals.0.hands.0.0: 'ZZ' is not a card"),
    (lambda d: d.update(piles={}), "deals.0.piles: piles must give exactly ['kitty']"),
    (lambda d: d.update(dealer=7), "deals.0.dealer:"),
    (lambda d: d["hands"][0].__setitem__(0, 5), "deals.0.hands.0.0: 5 is not of type 'string'"),
])
def test_an_explicit_deal_with_a_wrong_shape(tmp_path: Path, dealt: dict[str, Any],
                                             capsys: pytest.CaptureFixture[str],
                                             edit: Callable[[dict[str, Any]], Any],
                                             where: str) -> None:
    edit(dealt["deals"][0])
    err = cli_error(["replay", str(dump(tmp_path, dealt))], capsys)
    assert where in err, err


def test_a_record_naming_an_inconsistent_spec_file(tmp_path: Path, rec: dict[str, Any],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("hand_size: 5", "hand_size: 7")
    rec["system"] = str(write(tmp_path, "seven.yaml", text))
    err = cli_error(["replay", str(dump(tmp_path, rec))], capsys)
    where = f"seven.yaml:{line_of(text, 'deal:' + chr(10) + '  hand_size')}: key 'deal'"
    assert "system:" in err and where in err and "deck has 24" in err, err


# --- JSON Lines -----------------------------------------------------------------------------------
def test_json_lines_with_several_records(tmp_path: Path, rec: dict[str, Any],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Forty records (about 300 KB) cross the reader's chunk boundaries; blank lines are skipped."""
    line = record.dumps(rec)
    path = write(tmp_path, "many.jsonl", "\ufeff" + "\n".join([line, "", "  "] + [line] * 39) + "\n")
    assert path.stat().st_size > 2**18  # more than one chunk of the reader
    out = cli_verdict(["replay", str(path)], capsys, 0).splitlines()
    assert len(out) == 41 and out[0].startswith(f"{path}:1: accepted") and out[1].startswith(f"{path}:4: accepted")
    assert out[-2].startswith(f"{path}:42: accepted")
    assert out[-1] == "40 records: 40 accepted, 0 unfinished, 0 rejected, 0 malformed"


def test_json_lines_error_names_the_line(tmp_path: Path, rec: dict[str, Any],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    bad = copy.deepcopy(rec)
    bad["actions"][5]["action"] = "jump"
    text = "\n".join([record.dumps(rec), "", record.dumps(rec), record.dumps(bad)]) + "\n"
    out = cli_verdict(["replay", str(write(tmp_path, "three.jsonl", text))], capsys, 1).splitlines()
    assert "three.jsonl:4: rejected: action 5:" in out[2] and "jump" in out[2], out
    assert out[0].startswith(f"{tmp_path}/three.jsonl:1: accepted") and "3:" in out[1] and "accepted" in out[1]
    assert out[3] == "3 records: 2 accepted, 0 unfinished, 1 rejected, 0 malformed"


def test_json_lines_malformed_line_names_the_line(tmp_path: Path, rec: dict[str, Any],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    text = record.dumps(rec) + "\n" + record.dumps(rec)[:300] + "\n" + record.dumps(rec) + "\n"
    err = cli_error(["replay", str(write(tmp_path, "cut.jsonl", text))], capsys)
    assert "cut.jsonl:2: malformed JSON" in err, err


@pytest.mark.parametrize("name, content, words", [
    ("empty.json", "", "no records"),
    ("blank.json", "\n\n   \n", "no records"),
    ("text.json", "hello\n", "text.json:1: malformed JSON"),
])
def test_degenerate_record_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                 content: str, words: str) -> None:
    assert words in cli_error(["replay", str(write(tmp_path, name, content))], capsys)


def test_replay_of_a_folder_or_missing_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot read" in cli_error(["replay", str(tmp_path)], capsys)
    assert "cannot read" in cli_error(["replay", str(tmp_path / "none.json")], capsys)


# --- the record schema check agrees with jsonschema -----------------------------------------------
def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            yield from _paths(v, (*path, i))


def test_the_record_check_agrees_with_jsonschema(match: tuple[Game, dict[str, Any]]) -> None:
    """Random wrong types, values and keys: valid for one means valid for the other."""
    base = copy.deepcopy(match[1])
    base["deals"] = [record.deal_of(match[0].new_initial_state(seed=1))]
    validator = jsonschema.Draft202012Validator(record_schema())
    values: list[Any] = [None, True, False, 0, -1, 16, 1.0, 1.5, "", "x" * 70, "pass", [], {},
                         [1], {"a": 1}, "knock", record.FORMAT, 10**20, float("nan")]
    rng = random.Random(7)
    invalid = 0
    for _ in range(300):
        r = copy.deepcopy(base)
        path = rng.choice([p for p in _paths(r) if p])
        parent: Any = r
        for p in path[:-1]:
            parent = parent[p]
        x = rng.random()
        if x < 0.15 and isinstance(parent, dict):
            del parent[path[-1]]
        elif x < 0.25 and isinstance(parent, dict):
            parent["zz"] = 1
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(values))
        reference = next(iter(validator.iter_errors(r)), None)
        try:
            record._validate(r, "")
            ours = None
        except RecordError as exc:
            ours = exc
        assert (reference is None) == (ours is None), (path, reference, ours)
        invalid += reference is not None
    assert invalid > 150  # the mutations do hit the schema
