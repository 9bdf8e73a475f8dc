"""The audit of a file of records: one verdict per record, a summary, and exit codes.

``cardspec replay FILE.jsonl`` checks every record, prints one verdict each (accepted,
unfinished, rejected, malformed), then a summary with the rejections counted by clause. It
exits 0 when every record is accepted, 1 when one is rejected or unfinished, and 2 when a
record cannot be read (after printing every verdict). A truncated log is never accepted.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine import record
from cardspec.engine.audit import Summary, audit, audit_file
from cardspec.engine.game import Game


@pytest.fixture(scope="module")
def whole() -> dict[str, Any]:
    """A whole euchre match between random players, and its record with its results."""
    rng = random.Random(7)
    st = Game.from_system("euchre").new_initial_state(seed=7)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    return record.record_of(st)


def lines(tmp_path: Path, recs: list[Any], name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else record.dumps(r) for r in recs) + "\n", encoding="utf-8")
    return path


def renege_at(rec: dict[str, Any]) -> tuple[int, str]:
    """The first card play of ``rec`` where the player holds a card the follow rule forbids, and that card's
    play: the action a renege puts there."""
    game = Game.from_system("euchre")
    st = game.new_initial_state(rec["seed"])
    for i, step in enumerate(rec["actions"]):
        if step["action"].startswith("play "):
            legal = {game.action_name(a) for a in st.legal_actions()}
            held = [f"play {game.deck.names[c]}" for c in game.deck.cards_of(st.hands[st.cur])]
            barred = [p for p in held if p not in legal]
            if barred:
                return i, barred[0]
        st.apply(game.parse_action(step["action"]))
    raise AssertionError("no play in the record could renege")


def reneged(rec: dict[str, Any]) -> dict[str, Any]:
    """The record with its first possible renege made: a card held but not of the led suit, played by a player
    who holds the led suit (the follow clause forbids it)."""
    bad = copy.deepcopy(rec)
    i, play = renege_at(bad)
    bad["actions"][i]["action"] = play
    return bad


def test_every_record_gets_a_verdict_and_the_summary_counts_them(
        tmp_path: Path, whole: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """Accepted, unfinished (cut after 30 actions), rejected (an illegal card; a wrong score), and a line that
    is no JSON: every record is judged, the bad line does not stop the file, and the exit code is 2."""
    cut = copy.deepcopy(whole)
    cut["actions"] = cut["actions"][:30]
    del cut["results"]
    wrong = copy.deepcopy(whole)
    wrong["results"]["hands"][0]["scores"] = [s + 1 for s in wrong["results"]["hands"][0]["scores"]]
    path = lines(tmp_path, [whole, cut, reneged(whole), "{not json", wrong])
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    rows = out.splitlines()
    assert code == 2
    assert rows[0].startswith(f"{path}:1: accepted: euchre")
    assert rows[1].startswith(f"{path}:2: unfinished: euchre, 30 actions")
    k = renege_at(whole)[0]
    assert rows[2].startswith(f"{path}:3: rejected: action {k}: 'play ")
    assert f"(hand 0, action {k} of the hand, trick " in rows[2]  # the fixture's first renege is in hand 0
    assert "must follow the led suit" in rows[2] and "You must play/follow the same suit" in rows[2]
    assert rows[3].startswith(f"{path}:4: malformed: malformed JSON")
    assert rows[4].startswith(f"{path}:5: rejected: results.hands.0.scores")
    assert rows[5] == "5 records: 1 accepted, 1 unfinished, 2 rejected, 1 malformed"
    assert rows[6] == "rejected by clause:" and len(rows) == 9  # the follow clause and the scoring table
    assert err.startswith("cardspec: error: ") and f"{path}:4: malformed JSON" in err and err.count("\n") == 1


def test_json_verdicts_carry_their_errors(tmp_path: Path, whole: dict[str, Any],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` prints every verdict with its error (message, action index, result path, clause)."""
    path = lines(tmp_path, [whole, reneged(whole)])
    assert main(["replay", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    ok, bad = data["verdicts"]
    assert ok["verdict"] == "accepted" and ok["record"]["results"] == whole["results"] and "error" not in ok
    assert bad["verdict"] == "rejected" and bad["error"]["index"] == renege_at(whole)[0]
    assert bad["error"]["clause"]["doc"].endswith(".txt") and bad["error"]["clause"]["quote"]
    assert data["summary"] == {"records": 2, "accepted": 1, "unfinished": 0, "rejected": 1, "malformed": 0,
                               "rejected_by_clause": {f"{bad['error']['clause']['doc']}: "
                                                      f"“{bad['error']['clause']['quote']}”": 1}}


def test_a_truncated_log_is_unfinished_never_accepted(tmp_path: Path, whole: dict[str, Any],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    cut = copy.deepcopy(whole)
    cut["actions"] = cut["actions"][:-1]
    cut["results"]["hands"] = cut["results"]["hands"][:-1]
    cut["results"]["winners"] = None
    assert main(["replay", str(lines(tmp_path, [cut]))]) == 1
    assert "unfinished: euchre" in capsys.readouterr().out
    assert audit("x: ", cut).verdict == "unfinished"


def test_a_wrong_hand_index_in_the_results_is_compared(whole: dict[str, Any]) -> None:
    bad = copy.deepcopy(whole)
    bad["results"]["hands"][1]["hand"] = 5
    v = audit("x: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.path == "results.hands.1.hand"


def test_unknown_system_and_schema_errors_are_malformed_not_rejected(whole: dict[str, Any]) -> None:
    other = copy.deepcopy(whole)
    other["system"] = "no-such-game"
    assert audit("x: ", other).verdict == "malformed"
    broken = copy.deepcopy(whole)
    broken["actions"][0]["seat"] = "north"
    assert audit("x: ", broken).verdict == "malformed"
    assert audit("x: ", [1, 2]).verdict == "malformed"


def test_every_record_accepted_exits_0(tmp_path: Path, whole: dict[str, Any],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(lines(tmp_path, [whole, whole, whole]))]) == 0
    out = capsys.readouterr().out
    assert out.count("accepted: euchre") == 3 and "3 records: 3 accepted, 0 unfinished, 0 rejected" in out


def test_control_characters_from_a_record_are_shown_escaped(tmp_path: Path, whole: dict[str, Any],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """An action name with a terminal escape sequence or a right-to-left override never reaches the terminal
    as such."""
    bad = copy.deepcopy(whole)
    bad["actions"][2]["action"] = "play \x1b[2J\u202eAS"
    assert main(["replay", str(lines(tmp_path, [bad]))]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[2J\\u202e" in out


def test_audit_file_and_summary_agree(tmp_path: Path, whole: dict[str, Any]) -> None:
    s = Summary()
    for v in audit_file(lines(tmp_path, [whole, reneged(whole), "[]"])):
        s.add(v)
    assert s.counts == {"accepted": 1, "unfinished": 0, "rejected": 1, "malformed": 1}
    assert sum(s.by_clause.values()) == 1


def test_a_rejection_in_a_later_hand_names_the_hand(whole: dict[str, Any]) -> None:
    """The global action index, the hand and the action within the hand."""
    start = len(whole["actions"]) - 1
    hands = whole["results"]["hands"]
    assert len(hands) >= 2
    bad = copy.deepcopy(whole)
    last = bad["actions"][start]
    bad["actions"][start] = {"seat": (last["seat"] + 1) % 4, "action": last["action"]}
    v = audit("x: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == start
    n = len(hands) - 1
    game = Game.from_system("euchre")
    st = game.new_initial_state(whole["seed"])
    first = None  # the record index of the last hand's first action, seen as the hand number changes
    for i, step in enumerate(whole["actions"][:start]):
        if st.hand_no == n and first is None:
            first = i
        st.apply(game.parse_action(step["action"]))
    assert st.hand_no == n and first is not None
    assert f"(hand {n}, action {start - first} of the hand, trick 4" in str(v.error)


def test_a_long_file_gets_every_verdict_in_order(tmp_path: Path, whole: dict[str, Any],
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Verdict lines are written in batches (every thousand, or a fifth of a second): none is lost or
    reordered across a batch's end, and the summary follows the last."""
    from cardspec import cli

    monkeypatch.setattr(cli, "VERDICT_FLUSH_LINES", 7)
    bad = reneged(whole)
    path = lines(tmp_path, [bad if i % 5 == 4 else whole for i in range(23)])
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [ln.split(": ")[0] for ln in out[:23]] == [f"{path}:{i + 1}" for i in range(23)]
    assert [("rejected" in ln) for ln in out[:23]] == [i % 5 == 4 for i in range(23)]
    assert out[23] == "23 records: 19 accepted, 0 unfinished, 4 rejected, 0 malformed"
