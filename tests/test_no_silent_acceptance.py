"""Nothing wrong is ever accepted and nothing hangs (issue 10, section 2): each case a clear error or a
bounded run, and the command line's usage errors exit 2."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from cardspec import compiled
from cardspec.cli import main
from cardspec.engine.audit import audit
from cardspec.engine.errors import ActionBoundError, SpecError
from cardspec.engine.game import MAX_HANDS, Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.record import record_of
from cardspec.engine.spec import load

ROOT = Path(__file__).resolve().parents[1]


def spec_file(tmp_path: Path, edit: Any, name: str = "edited.yaml", base: str = "euchre") -> Path:
    """A copy of a bundled spec under a new id, edited as data."""
    data = yaml.safe_load((spec_dir() / f"{base}.yaml").read_text(encoding="utf-8"))
    data["id"] = f"edited-{base}"
    edit(data)
    p = tmp_path / name
    p.write_text(yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return p


class _NoAliases(yaml.SafeDumper):
    """Specs allow no anchors: write a shared object out each time."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _no_points(d: dict[str, Any]) -> None:
    for t in d["scoring"]["tables"]:
        for r in t["rows"]:
            r["then"] = 0


# --- a match that can never end ------------------------------------------------------------
def test_a_match_that_can_never_end_fails_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = spec_file(tmp_path, _no_points)
    assert main(["verify", str(p), "--json"]) == 1
    rows = json.loads(capsys.readouterr().out)
    ends = [r for r in rows if r["property"] == "termination: match"]
    assert ends and all(r["status"] == "counterexample" and "can never end" in r["detail"] for r in ends)


def test_a_match_that_may_not_end_stays_a_flag() -> None:
    """Bid Euchre's scores can fall for ever: it may not end, which the register explains; not a failure."""
    from cardspec.verification.scores import match_ends

    status, detail, _ = match_ends(Game.from_system("bid-euchre"))
    assert status == "flagged" and detail.startswith("may not end")


def test_simulate_stops_at_the_action_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def edit(d: dict[str, Any]) -> None:
        _no_points(d)
        d["bounds"]["actions_per_hand"] = 1  # the bound: 1 x MAX_HANDS actions

    p = spec_file(tmp_path, edit)
    t = time.perf_counter()
    assert main(["simulate", str(p), "-n", "1", "--bot", "random"]) == 2
    assert time.perf_counter() - t < 60
    err = capsys.readouterr().err
    assert f"action bound of {MAX_HANDS} actions" in err


def test_replay_rejects_a_record_past_the_action_bound(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        _no_points(d)
        d["bounds"]["actions_per_hand"] = 1

    g = Game(load(str(spec_file(tmp_path, edit))))
    st = g.new_initial_state(3)
    rng = random.Random(3)
    with pytest.raises(ActionBoundError, match="action bound"):
        while True:
            st.apply(rng.choice(st.legal_actions()))
    assert len(st.history) == g.action_bound
    rec = record_of(st, results=False)
    rec["actions"].append({"seat": st.cur, "action": g.action_name(st.legal_actions()[0])})
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == g.action_bound
    assert "action bound" in str(v.error)


def test_a_target_beyond_the_action_bound_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["options"]["target"]["max"] = 1_000_000

    g = Game(load(str(spec_file(tmp_path, edit))), {"target": 1_000_000})
    assert g.warnings and "target 1000000" in g.warnings[0]
    assert Game.from_system("euchre").warnings == []


# --- options ----------------------------------------------------------------------------------
def test_an_int_option_with_a_million_values_loads_fast_and_checks_a_sample(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["options"]["target"].update(min=1, max=1_000_000)
        d["ambiguities"].append({
            "id": "huge", "source": d["match"]["end"]["source"], "question": "How far?", "option": "target",
            "readings": {"10": "ten", "1000000": "very far"}, "decision": "10", "reasons": "a test",
            "with_options": {"lone_euchre": "four"}})

    p = spec_file(tmp_path, edit)
    t = time.perf_counter()
    spec = load(str(p))
    sets = spec.option_sets()
    assert time.perf_counter() - t < 2
    assert len(sets) < 40 and {"lone_euchre": "four", "target": 1_000_000} in sets


def test_an_option_map_missing_a_value_fails_at_load_with_its_line(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["phases"][0]["rounds"][0]["discard_turned"]["map"].pop("any")

    p = spec_file(tmp_path, edit)
    with pytest.raises(SpecError, match=r"no entry for .*'any'") as err:
        load(str(p))
    assert err.value.line is not None and err.value.key == "phases.0.rounds.0.discard_turned"


def test_an_option_map_key_that_is_no_value_fails_at_load(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["phases"][0]["rounds"][0]["discard_turned"]["map"]["sometimes"] = True

    with pytest.raises(SpecError, match=r"keys \['sometimes'\] are not values of option 'dealer_discard'"):
        load(str(spec_file(tmp_path, edit)))


def test_too_many_option_sets_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardspec.engine import spec as spec_mod

    monkeypatch.setattr(spec_mod, "MAX_OPTION_SETS", 5)
    with pytest.raises(SpecError, match="option sets to check, more than 5"):
        load("euchre").option_sets()


def test_a_record_option_must_be_a_json_value_of_its_type() -> None:
    st = Game.from_system("euchre").new_initial_state(1)
    rec = record_of(st)
    rec["options"]["going_alone"] = "yes"
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "options.going_alone"
    rec["options"]["going_alone"] = True
    rec["options"]["target"] = "10"
    assert audit("t: ", rec).error.path == "options.target"  # type: ignore[union-attr]


# --- usage errors exit 2 ----------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["check", "euchre", "-n", "0", "--no-verify"], ["check", "euchre", "-n", "-5", "--no-verify"],
    ["verify", "euchre", "--timeout-ms", "0"], ["verify", "euchre", "--timeout-ms", "-5"],
    ["docs", "--root", "/no/such/folder"], ["simulate", "euchre", "--option", "going_alone=perhaps"],
])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    t = time.perf_counter()
    assert main(argv) == 2
    assert time.perf_counter() - t < 5
    err = capsys.readouterr().err
    assert err.startswith("cardspec: error:") and len(err.strip().splitlines()) == 1


def test_version_and_json_before_or_after_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ex:
        main(["--version"])
    out = capsys.readouterr().out
    assert ex.value.code == 0 and re.match(r"cardspec \S+", out)
    assert f"({'compiled' if compiled() else 'pure-Python'} engine)" in out  # which build is running
    assert main(["--json", "list"]) == 0
    before = json.loads(capsys.readouterr().out)
    assert main(["list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == before


# --- terminal output --------------------------------------------------------------------------
def test_escape_sequences_in_a_spec_are_not_sent_to_the_terminal(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["title"] = "Euchre \x1b[2J\x1b[31mred\u202e"

    assert main(["rules", str(spec_file(tmp_path, edit))]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[2J" in out


def test_a_closed_pipe_ends_quietly() -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "0"}
    p = subprocess.run(f"{sys.executable} -m cardspec simulate euchre -n 400 --records /dev/stdout | head -c 10",
                       shell=True, capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
                       executable="/bin/bash")
    assert len(p.stdout) == 10 and "Broken pipe" not in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_docs_run_from_outside_the_project_never_call_its_documents_out_of_date(tmp_path: Path) -> None:
    """Run from another folder, `cardspec docs` finds the project's documents beside its specs (a checkout or
    an editable install: up to date); an installed copy has no documents beside it, and then says so in one
    line (exit 2) instead of calling every document out of date."""
    p = subprocess.run([sys.executable, "-m", "cardspec", "docs"], capture_output=True, text=True, cwd=tmp_path,
                       timeout=120)
    where = subprocess.run([sys.executable, "-c", "from cardspec.engine.loader import spec_dir; print(spec_dir())"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=60).stdout.strip()
    assert where, "the installed package names its spec folder"
    if (Path(where).resolve().parent / "docs" / "generated.lock").is_file():
        assert p.returncode == 0 and "docs up to date" in p.stdout, p.stdout + p.stderr
    else:
        assert p.returncode == 2 and "no docs folder here" in p.stderr and "--root" in p.stderr, p.stderr
        assert "out of date" not in p.stdout


def test_docs_away_from_a_checkout_says_what_it_needs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Review 7: away from a checkout, `cardspec docs` blamed a --root flag the user never gave. It says where it
    looked and what it checks; a --root that names no folder is still named as such."""
    from cardspec import cli

    monkeypatch.setattr(cli, "_docs_root", lambda: tmp_path / "docs")
    assert cli.main(["docs"]) == 2
    err = capsys.readouterr().err
    assert "no docs folder here" in err and "--root" in err and "--root docs" not in err and err.count("\n") == 1
    assert cli.main(["docs", "--root", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.rstrip().endswith("nowhere: no such folder")


def test_no_document_names_a_path_of_one_machine() -> None:
    pat = re.compile(r"(?<![\w.])/(?:home|root|Users|work|tmp|private|var/folders|opt/build)/")
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "rules").glob("*"))]
    bad = [f"{f.relative_to(ROOT)}:{n}" for f in files for n, line in
           enumerate(f.read_text(encoding="utf-8").splitlines(), 1) if pat.search(line)]
    assert bad == []


def test_a_record_copy_is_unchanged_by_the_checks() -> None:
    """The bound check leaves ordinary matches alone: a full euchre match still replays."""
    st = Game.from_system("euchre").new_initial_state(9)
    rng = random.Random(9)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    assert audit("t: ", copy.deepcopy(record_of(st))).verdict == "accepted"


# --- cardspec play shows only what the person's seat sees ------------------------------------
@pytest.mark.parametrize("system", ["euchre", "bird-dog-11", "riding-the-bus", "bid-euchre", "bird-dog-2p",
                                    "bird-dog-21", "the-card-game", "birdhead", "buck-euchre", "dirty-clubs",
                                    "buck-euchre-3p", "hand-and-foot"])
def test_play_never_shows_a_card_the_persons_seat_cannot_see(system: str, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Hand by hand, the screen text names no card that seat 0 could not see in that hand: every card named
    on screen is in one of seat 0's observations of the hand (its cards, the table, the tricks, the
    history), or in an action of the hand as seat 0's view shows it (face-down cards hidden)."""
    import io

    from cardspec.engine.bots import BOTS
    from cardspec.play import play_terminal

    game = Game.from_system(system, {"farmers_hand": "both_rounds"} if system == "euchre" else None)
    seed, seat, answers = 4, 0, 60
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * answers + "q\n"))
    play_terminal(game, seed, seat, "rule", False)
    screen = capsys.readouterr().out
    names = set(game.deck.names)

    def cards(text: str) -> set[str]:
        return {w for w in re.findall(r"[0-9A-Za-z#]+", text) if w in names}

    # the same match, step by step, collecting the cards seat 0 sees in each hand
    st = game.new_initial_state(seed)
    chooser = BOTS["rule"](random.Random(f"play/{seed}"))
    seen: dict[int, set[str]] = {}
    asked = 0
    while not st.is_terminal():
        mine = seen.setdefault(st.hand_no, set())
        mine |= cards(json.dumps(st.observation(seat)))
        if asked == answers and st.current_player() == seat:
            break  # where the person quits
        legal = st.legal_actions()
        if st.current_player() == seat:
            a, asked = legal[0], asked + 1
        else:
            a = chooser(st, legal)
        # the action as seat 0's view shows it (the last one of a hand has no later observation)
        mine |= cards(st.action_seen_by(seat, st.cur, a, st.phase))
        hand = st.hand_no
        st.apply(a)
        for r in st.hand_results[-1:] if st.hand_no != hand else ():
            mine |= cards(json.dumps(r.get("melds", [])))  # a finished hand's result shows its melds
            # and the hands laid face up as it ended, printed after its "-- hand N over" line
            seen.setdefault(st.hand_no, set()).update(cards(json.dumps(r.get("hands_shown", []))))
    segments = re.split(r"^-- hand \d+ over.*$", screen, flags=re.M)
    assert len(segments) >= 2, "the person saw at least one hand end"
    hands = sorted(seen)
    for h, text in zip(hands, segments, strict=False):
        leak = cards(text) - seen[h]
        assert leak == set(), f"{system}, hand {h}: the screen names cards seat {seat} never saw: {sorted(leak)}"
    assert cards(screen), "the screen shows cards"
