"""The command line: every command, --json, and the exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json"]) == 0
    ids = {r["id"] for r in json.loads(capsys.readouterr().out)}
    assert {"euchre", "bird-dog-11", "riding-the-bus"} <= ids


def test_rules_renders_clauses_with_sources(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "euchre"]) == 0
    out = capsys.readouterr().out
    assert "Jack of the same color" in out and "004_945a3021da002f83.txt" in out
    assert "| maker | tricks | alone | alone_against | defend_alone | result | source |" in out


def test_simulate_json_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euchre", "-n", "4", "--json", "--option", "all_pass=redeal"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["matches"] == 4 and stats["options"]["all_pass"] == "redeal"
    assert abs(sum(stats["win_share_by_seat"].values()) - 1) < 1e-9


def test_check_json_reports_every_option_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "riding-the-bus", "-n", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out["matches"]
    from cardspec.engine.spec import load
    assert len(rows) == len(load("riding-the-bus").option_sets()) >= 9
    assert all(r["status"] == "ok" for r in rows)
    assert {"players": 15} in [r["options"] for r in rows]  # typed as the spec declares it
    assert out["verify"] and not [v for v in out["verify"] if v["status"] in ("counterexample", "timeout")]


@pytest.mark.parametrize("argv, needle", [
    (["rules", "no-such-game"], "unknown rule system"),
    (["simulate", "euchre", "--option", "all_pass=sometimes"], "all_pass"),
    (["simulate", "euchre", "--option", "nope=1"], "unknown option"),
    (["simulate", "euchre", "-n", "0"], "-n"),
    (["replay", "/nonexistent/file.json"], "cannot read"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_with_one_line(argv: list[str], needle: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardspec: error:") and needle in err


def test_play_in_the_terminal_to_the_end() -> None:
    """A person at seat 0 typing the first legal action every time finishes a match."""
    proc = subprocess.run([sys.executable, "-m", "cardspec", "play", "euchre", "--seed", "3"],
                          input="0\n" * 3000, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "match over: winners" in proc.stdout and "your cards:" in proc.stdout


def test_play_rejects_a_bad_move_and_quits_cleanly() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardspec", "play", "riding-the-bus", "--seat", "1"],
                          input="jump\nplay ZZ\nq\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "not accepted" in proc.stdout and "bye" in proc.stdout


def test_extends_states_only_the_differences(tmp_path: Path) -> None:
    """A variant spec extends a base and changes one value; the engine plays the variant."""
    shutil.copy(spec_dir() / "euchre.yaml", tmp_path / "euchre.yaml")
    (tmp_path / "euchre-to-5.yaml").write_text(
        "extends: euchre\nid: euchre-to-5\ntitle: Euchre to 5\n"
        "match:\n  end:\n    target: 5\n", encoding="utf-8")
    g = Game.from_system(str(tmp_path / "euchre-to-5.yaml"))
    assert g.id == "euchre-to-5" and g.match.target == 5 and g.deck.size == 24
    st = g.new_initial_state(4)
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    assert max(st.counters) >= 5 and max(st.counters) < 5 + 4


def test_verify_a_spec_file_given_by_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A user's own spec file is verified the same way; a counterexample exits 1 with its witness."""
    shutil.copy(spec_dir() / "euchre.yaml", tmp_path / "euchre.yaml")
    assert main(["verify", str(tmp_path / "euchre.yaml"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"system", "options", "property", "status", "seconds"} <= set(rows[0])
    assert all(r["status"] in ("proved", "flagged") for r in rows)
    (tmp_path / "tight.yaml").write_text(
        "extends: euchre\nid: tight\nbounds:\n  hand_points: [0, 2]\n  actions_per_hand: 40\n", encoding="utf-8")
    assert main(["verify", str(tmp_path / "tight.yaml"), "--json"]) == 1
    bad = [r for r in json.loads(capsys.readouterr().out) if r["status"] == "counterexample"]
    assert {r["property"] for r in bad} == {"score bounds"}  # under each option set that allows a 4
    points = [v for k, v in bad[0]["witness"].items() if k.startswith("points[")]
    assert max(points) == 4  # the lone march, over the declared 2


def test_check_gives_the_same_rows_in_parallel() -> None:
    """`cardspec check -j 2` plays the same matches as one process, rows in the same order."""
    from cardspec.cli import check_rows

    def strip(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    one = strip(list(check_rows(["bird-dog-11"], 2, "mixed", 1)))
    two = strip(list(check_rows(["bird-dog-11"], 2, "mixed", 2)))
    assert one == two and len(one) > 2


def test_check_of_several_systems_in_two_workers_keeps_each_systems_rows(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`cardspec check` streams every system's option sets through one set of workers and proves every system
    in one run: each system's summary still counts its own option sets, matches and findings, in order."""
    from cardspec.engine.spec import load

    systems = ["birdhead", "riding-the-bus"]
    assert main(["check", *systems, "-n", "1", "-j", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    sets = [len(load(s).option_sets()) for s in systems]
    assert [r["system"] for r in out["matches"]] == [s for s, k in zip(systems, sets, strict=True) for _ in range(k)]
    assert [s["system"] for s in out["systems"]] == systems
    for s, k in zip(out["systems"], sets, strict=True):
        assert s["option_sets"] == k and s["matches"] == k
        mine = [v for v in out["verify"] if v["system"] == s["system"]]
        assert mine and sum(s["verification"].values()) == len(mine)
    assert [v["system"] for v in out["verify"]] == sorted((v["system"] for v in out["verify"]), key=systems.index)


def test_check_rejects_bad_counts(capsys) -> None:  # type: ignore[no-untyped-def]
    from cardspec.cli import main

    assert main(["check", "euchre", "-n", "0"]) == 2
    assert main(["check", "euchre", "-j", "0"]) == 2
    assert "must be between" in capsys.readouterr().err


@pytest.mark.parametrize("system", ["euchre", "bird-dog-11", "riding-the-bus"])
def test_rules_mark_each_decided_rule_with_its_register_entry(system: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A rule the text leaves open is marked decided and links its entry; a stated rule is not marked."""
    from cardspec.engine.spec import load

    assert main(["rules", system]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for a in load(system).ambiguities:
        linked = [ln for ln in lines if f"[`{a.id}`](../ambiguities.md#" in ln]
        assert linked, f"{a.id} is linked from the rulebook"
    entries = {a.option for a in load(system).ambiguities}
    for ln in lines:
        if ln.startswith("- **") and "*decided*" in ln:
            assert "option `" in ln
        if ln.startswith("- **") and "option `" in ln and "*decided*" not in ln:
            # a table parameter (the number of players), not a decision: no register entry names it
            assert not any(f"option `{o}`" in ln for o in entries), ln
    assert "- **tricks**: 5" in out or system != "euchre"  # stated by the text, not marked
