"""Review fixes: an adapter answer of the wrong type is the adapter's invalid answer (an ``error``), never a
disagreement of the other engine; a match that is over before its first hand is refused as a spec error."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from cardspec.cli import main
from cardspec.conform import Report, conform
from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.spec import available, load

ROOT = Path(__file__).resolve().parents[1]
TEXT_RULES = {"farmers_hand": "off"}


# --- adapters: cardspec itself, with one answer of the wrong type ---------------------------------
class Selfie:
    """cardspec as the other engine; ``fault`` changes one answer's type, ``answer`` gives the wrong answer."""

    def __init__(self, system: str, options: dict[str, Any], fault: str = "", answer: Any = None) -> None:
        self.game = Game.from_system(system, options)
        self.fault, self.answer = fault, answer

    def new_hand(self, deal: dict[str, Any]) -> None:
        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)

    def legal_actions(self) -> Any:
        return self.answer if self.fault == "legal" else self.st.legal_action_names()

    def current_seat(self) -> Any:
        if self.fault == "seat" or (self.fault == "late_seat" and self.st.is_terminal()):
            return self.answer
        return self.st.cur

    def apply(self, action: str) -> None:
        self.st.apply_name(action)

    def hand_over(self) -> Any:
        if self.fault == "over":
            return self.answer
        if self.fault == "late_seat":  # never over: the harness asks who acts after cardspec's hand ended
            return False
        return self.st.is_terminal()

    def results(self) -> Any:
        r = self.st.hand_results[-1]
        out: dict[str, Any] = {"trick_winners": list(r["trick_winners"]), "scores": list(r["scores"]),
                               "thrown_in": bool(r["thrown_in"])}
        if self.fault == "results":
            return self.answer
        if self.fault in out:
            out[self.fault] = self.answer(out[self.fault]) if callable(self.answer) else self.answer
        if self.fault == "more_points":  # a true score disagreement, with valid ints
            out["scores"] = [s + 1 for s in out["scores"]]
        return out


def _factory(fault: str, answer: Any = None) -> Callable[[str, dict[str, Any]], Selfie]:
    def make(system: str, options: dict[str, Any]) -> Selfie:
        return Selfie(system, options, fault, answer)
    return make


def _run(fault: str, answer: Any = None, hands: int = 2) -> Report:
    return conform(_factory(fault, answer), "euchre", TEXT_RULES, hands=hands, vectors=False)


def _invalid(r: Report, call: str, shown: str) -> None:
    """Every hand ends with the adapter's invalid answer naming ``call`` and what it returned (``shown``)."""
    assert r.hands_run == len(r.disagreements) > 0 and r.hands_agreeing == 0, r.text()
    for d in r.disagreements:
        assert d.kind == "error", d.line()
        assert d.message.startswith(f"the adapter failed: {call}"), d.message
        assert shown in d.message, d.message
        assert d.clause is None and d.other == d.message.removeprefix("the adapter failed: ")


def test_string_scores_are_an_invalid_answer_not_a_score_disagreement() -> None:
    r = _run("scores", lambda s: [str(x) for x in s])
    _invalid(r, "results()['scores']", "not a list of scores")
    assert all(re.search(r"'\d+' is a str, not an integer", d.message) for d in r.disagreements)
    assert not any(d.kind == "scores" for d in r.disagreements)


@pytest.mark.parametrize("convert, shown", [
    (lambda s: [bool(x) for x in s], "is a bool, not an integer"),
    (lambda s: [float(x) for x in s], "is a float, not an integer"),
    (lambda s: [None for _ in s], "None is a NoneType, not an integer"),
    (lambda s: " ".join(map(str, s)), "not a list of scores"),
    (lambda s: {"team 0": s[0]}, "not a list of scores"),
    (lambda s: 7, "is 7, not a list of scores"),
    (lambda s: [*s, 0], "3 scores, but euchre has 2 scoring entities"),
])
def test_scores_of_the_wrong_type_or_length_are_invalid(convert: Callable[[list[int]], Any], shown: str) -> None:
    _invalid(_run("scores", convert), "results()['scores']", shown)


@pytest.mark.parametrize("convert, shown", [
    (lambda w: [str(x) for x in w], "is a str, not an integer"),
    (lambda w: [x == 1 for x in w], "is a bool, not an integer"),
    (lambda w: [x + 4 for x in w], "is not a seat of euchre (0..3)"),
    (lambda w: None, "None, not a list of seat numbers"),
])
def test_trick_winners_that_are_no_seats_are_invalid(convert: Callable[[list[int]], Any], shown: str) -> None:
    _invalid(_run("trick_winners", convert), "results()['trick_winners']", shown)


def test_missing_results_and_wrong_thrown_in_are_invalid() -> None:
    _invalid(_run("results", [1, 0]), "results()", "returned [1, 0], not a mapping")
    _invalid(_run("thrown_in", 0), "results()['thrown_in']", "returned 0, not a bool")
    _invalid(_run("thrown_in", "no"), "results()['thrown_in']", "returned 'no', not a bool")


@pytest.mark.parametrize("answer, shown", [
    ("0", "returned '0', not a seat number"),
    (True, "returned True, not a seat number"),
    (1.0, "returned 1.0, not a seat number"),
    (9, "returned 9, not a seat of euchre (0..3)"),
    (-1, "returned -1, not a seat of euchre (0..3)"),
])
def test_a_seat_to_act_that_is_no_seat_is_invalid(answer: Any, shown: str) -> None:
    r = _run("seat", answer)
    _invalid(r, "current_seat()", shown)
    assert all(d.action_index == 0 for d in r.disagreements)  # the first question already


@pytest.mark.parametrize("answer, shown", [
    ("pass", "returned 'pass', not a list of action names"),
    ({"pass": 1, "order_up": 1}, "not a list of action names"),
    ([0, 1], "lists 0, not an action name"),
    (None, "returned None, not a list of action names"),
    (["pass", "pass"], "lists 'pass' more than once"),
])
def test_legal_actions_of_the_wrong_type_are_invalid(answer: Any, shown: str) -> None:
    _invalid(_run("legal", answer), "legal_actions()", shown)


@pytest.mark.parametrize("answer", [1, 0, "yes", None])
def test_hand_over_that_is_no_bool_is_invalid(answer: Any) -> None:
    _invalid(_run("over", answer), "hand_over()", f"returned {answer!r}, not a bool")


def test_a_seat_asked_after_cardspecs_hand_ended_is_checked_too() -> None:
    _invalid(_run("late_seat", "north"), "current_seat()", "returned 'north', not a seat number")
    r = _run("late_seat", 2)  # a real seat: the hand_over disagreement it always was
    assert [d.kind for d in r.disagreements] == ["hand_over"] * r.hands_run and r.hands_run > 0


def test_valid_answers_still_agree_and_real_differences_still_disagree() -> None:
    ok = _run("scores", tuple, hands=3)  # any list-like of ints is an answer
    assert ok.ok and ok.hands_agreeing == 3, ok.text()
    wrong = _run("more_points", hands=3)
    assert [d.kind for d in wrong.disagreements] == ["scores"] * 3, wrong.text()


def test_the_cli_reports_an_invalid_answer_as_a_disagreement(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    adapter = _stringy(tmp_path)
    code = main(["conform", "--adapter", f"{adapter}:factory", "euchre", "--option", "farmers_hand=off",
                 "-n", "1", "--no-vectors"])
    out = capsys.readouterr().out
    assert code == 1
    assert "(error 1)" in out and "results()['scores'] is ['" in out and "not a list of scores" in out
    assert "cardspec scores" not in out  # not reported as the other engine scoring otherwise


def _stringy(tmp_path: Path) -> Path:
    """An adapter file playing cardspec, its scores given as strings."""
    adapter = tmp_path / "stringy.py"
    adapter.write_text(
        "from cardspec.engine.game import Game\n\n"
        "class Stringy:\n"
        "    def __init__(self, system, options):\n        self.game = Game.from_system(system, options)\n"
        "    def new_hand(self, deal):\n"
        "        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)\n"
        "    def legal_actions(self):\n        return self.st.legal_action_names()\n"
        "    def current_seat(self):\n        return self.st.cur\n"
        "    def apply(self, action):\n        self.st.apply_name(action)\n"
        "    def hand_over(self):\n        return self.st.is_terminal()\n"
        "    def results(self):\n"
        "        r = self.st.hand_results[-1]\n"
        "        return {'trick_winners': r['trick_winners'], 'scores': [str(s) for s in r['scores']]}\n\n"
        "def factory(system, options):\n    return Stringy(system, options)\n", encoding="utf-8")
    return adapter


# --- a match over before its first hand ----------------------------------------------------------------
def _spec_copy(tmp_path: Path, system: str, change: Callable[[dict[str, Any]], None], name: str = "") -> Path:
    data = yaml.safe_load(available()[system].read_text(encoding="utf-8"))
    data["id"] = name or f"my-{system}"
    change(data)
    path = tmp_path / f"{data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node = data
        *parents, last = key.split(".")
        for p in parents:
            node = node[p]
        node[last] = value
    return change


def _refused(path: Path, key: str, words: str, options: dict[str, Any] | None = None) -> SpecError:
    with pytest.raises(SpecError) as info:
        Game(load(str(path)), options)
    err = info.value
    assert err.file == str(path) or err.file.endswith(path.name), err
    assert err.key == key, err
    assert "the match is over before it starts" in str(err) and re.search(words, str(err)), err
    return err


@pytest.mark.parametrize("start", [10, 11, 500])
def test_a_target_end_starting_at_or_past_its_target_is_refused(tmp_path: Path, start: int) -> None:
    path = _spec_copy(tmp_path, "euchre", _set("match.start", start))
    err = _refused(path, "match.start", rf"match.start {start} is at or past match.end.target 10")
    assert "match.end.target comes from option 'target' (10)" in str(err)
    assert str(path.name) in str(err)


def test_a_target_from_options_names_the_options(tmp_path: Path) -> None:
    path = _spec_copy(tmp_path, "euchre", _set("match.start", 7))
    assert Game(load(str(path))).match.start == 7  # the default target 10 lies past the start
    assert Game(load(str(path)), {"target": 8}).match.target == 8
    err = _refused(path, "match.start", r"match.start 7 is at or past match.end.target 5", {"target": 5})
    assert "with options target=5" in str(err) and "option 'target' (5)" in str(err)
    assert err.line is not None


@pytest.mark.parametrize("start", [0, -3])
def test_a_countdown_starting_at_or_below_its_target_is_refused(tmp_path: Path, start: int) -> None:
    path = _spec_copy(tmp_path, "buck-euchre", _set("match.start", start))
    _refused(path, "match.end.target", rf"match.end.target 0 must lie below match.start {start}")
    assert Game(load(str(_spec_copy(tmp_path, "buck-euchre", _set("match.start", 1), "ok")))).match.start == 1


def test_an_elimination_starting_at_or_past_its_limit_is_refused(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["match"]["start"] = 4
        data["options"]["strike_limit"]["default"] = 5  # so that the defaults still play
        for amb in data["ambiguities"]:
            if amb["option"] == "strike_limit":
                amb["decision"] = "5"

    path = _spec_copy(tmp_path, "riding-the-bus", change)
    assert Game(load(str(path))).match.limit == 5
    err = _refused(path, "match.start", r"match.start 4 is at or past match.end.limit 4", {"strike_limit": 4})
    assert "with options strike_limit=4" in str(err) and "option 'strike_limit' (4)" in str(err)
    _refused(_spec_copy(tmp_path, "riding-the-bus", _set("match.start", 3), "at-limit"), "match.start",
             r"match.start 3 is at or past match.end.limit 3: every entity is out")


def test_a_floor_at_or_above_the_start_is_refused(tmp_path: Path) -> None:
    path = _spec_copy(tmp_path, "bid-euchre", _set("match.start", -25))
    assert Game(load(str(path))).match.floor is None  # no floor: a start below 0 is playable
    assert Game(load(str(path)), {"floor": "-50"}).match.floor == -50
    err = _refused(path, "match.start", r"match.start -25 is at or below match.end.floor -25", {"floor": "-25"})
    assert "with options floor=-25" in str(err) and "option 'floor'" in str(err)


def test_a_rounds_end_plays_whatever_the_start(tmp_path: Path) -> None:
    path = _spec_copy(tmp_path, "the-card-game", _set("match.start", 1000))
    g = Game(load(str(path)))
    assert g.match.kind == "rounds" and g.match.start == 1000
    st = g.new_initial_state(0)
    assert st.counters == [1000] * len(g.teams) and not st.is_terminal()


def test_the_cli_refuses_such_a_spec_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _spec_copy(tmp_path, "euchre", _set("match.start", 10))
    adapter = _stringy(tmp_path)  # never called: the spec is refused first
    assert main(["conform", "--adapter", f"{adapter}:factory", str(path), "-n", "1"]) == 2
    err = capsys.readouterr().err
    assert "match.start" in err and "over before it starts" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_without_a_start_the_other_key_is_named(tmp_path: Path) -> None:
    def no_start(data: dict[str, Any]) -> None:
        del data["match"]["start"]

    _refused(_spec_copy(tmp_path, "buck-euchre", no_start), "match.end.target",
             r"match.end.target 0 must lie below match.start 0")
    err = _refused(_spec_copy(tmp_path, "bid-euchre", _set("match.end.floor", 0)), "match.end.floor",
                   r"match.start 0 is at or below match.end.floor 0")
    assert "option" not in str(err)  # neither value comes from an option


def test_the_report_counts_hands_and_leaves_out_an_empty_source_list() -> None:
    """"0 hands run ()" read as a defect: the count is singular for one hand, and with no hands there is no
    empty parenthesis."""
    from cardspec.conform.report import Report

    def line(n: int, sources: dict[str, int]) -> str:
        r = Report("euchre", {}, {}, 1, "x:y", n, n, [], sources, [])
        return r.text().splitlines()[1]

    assert line(0, {}) == "  0 hands run; 0 agree, 0 disagree"
    assert line(1, {"seeded": 1}) == "  1 hand run (1 seeded); 1 agree, 0 disagree"
    assert line(3, {"seeded": 3}).startswith("  3 hands run (3 seeded);")
