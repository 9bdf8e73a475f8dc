"""Two defects of ``cardspec import egn`` a seventh review found (docs/egn.md).

* A record ``cardspec replay`` calls malformed was written (exit 0): the importer checked each record only by
  what replay checks before the first action (``check_record``), not by what it checks as the actions are
  played, such as a turned card written ``?`` (an ``upCard`` of ``Xx``). The importer now replays each record
  as replay reads it back, and stops (exit 2, one line naming the EGN key, nothing written) on a malformed one.
* A value of the wrong type was a warning and replaced by a default (``winning_score: 7.5`` gave "is not a
  int; the default 10 is used", ``initialScore: [1]`` "the missing ones are taken as 0"), where the document
  says a value of the wrong type stops the command: now exit 2, naming the file, the game's key and the type.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_hostile import cli_error

from cardspec.cli import main
from cardspec.egn import EgnError, import_egn
from cardspec.engine.audit import audit
from cardspec.engine.record import dumps

DATA = Path(__file__).parent / "data" / "egn"
EPIC = DATA / "Epic Comeback.egn"  # deal 0: up card Th, calls Pass, Order; deal 2: Kd, five passes then 'c'
MATCH = DATA / "combination examples" / "MotE W5 Match.emn"  # game 1, deal 0: up card Jd, calls Pass, Pass ...


def _doc(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8-sig"))


def _write(tmp_path: Path, doc: Any, name: str = "g.egn") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


def _epic(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    doc = _doc(EPIC)
    edit(doc)
    return _write(tmp_path, doc)


def _import_refused(p: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``cardspec import egn P -o OUT``: exit 2, one line on stderr, OUT not written; the line."""
    out = tmp_path / "out.jsonl"
    err = cli_error(["import", "egn", str(p), "-o", str(out)], capsys)
    assert not out.exists()
    return err


def _up_card(deal: int, card: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["deals"][deal]["initialState"].__setitem__("upCard", card)


# --- A: nothing is written that replay calls malformed ---------------------------------------------
def test_an_unseen_up_card_stops_the_import_naming_the_key(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    p = _epic(tmp_path, _up_card(0, "Xx"))
    err = _import_refused(p, tmp_path, capsys)
    assert f"cardspec: error: {p}: deals.0.initialState.upCard: cannot be imported: the record made from it " \
           "would be malformed" in err
    assert "the turned card is shown to every player, so a log must name it" in err


def test_an_unseen_up_card_in_a_later_deal_names_that_deal(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    p = _epic(tmp_path, _up_card(2, "Xd"))  # some diamond: still '?' in the record
    err = _import_refused(p, tmp_path, capsys)
    assert f"{p}: deals.2.initialState.upCard: cannot be imported" in err and "turned card" in err


def test_in_a_match_the_error_names_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _doc(MATCH)
    doc["games"][1]["gameData"]["deals"][0]["initialState"]["upCard"] = "Xx"
    p = _write(tmp_path, doc, "m.emn")
    err = _import_refused(p, tmp_path, capsys)
    assert f"{p}: games.1.gameData.deals.0.initialState.upCard: cannot be imported" in err
    with pytest.raises(EgnError) as info:  # the Python API refuses it alike
        import_egn(p)
    assert info.value.path == "games.1.gameData.deals.0.initialState.upCard"


@pytest.mark.parametrize("deal", range(9))
@pytest.mark.parametrize("card", ["Xx", "Xh", "Qx"])
def test_what_imports_is_never_malformed(tmp_path: Path, deal: int, card: str) -> None:
    """Whatever deal's up card is unknown, the import either stops or gives records replay reads as records."""
    p = _epic(tmp_path, _up_card(deal, card))
    try:
        recs, _ = import_egn(p)
    except EgnError as exc:
        assert exc.path == f"deals.{deal}.initialState.upCard", str(exc)
        return
    for i, rec in enumerate(recs):
        v = audit(f"r{i}: ", json.loads(dumps(rec)))
        assert v.verdict != "malformed", v.line()


def test_an_up_card_ordered_before_any_other_call_still_imports(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """An unseen up card whose deal stops at its first call (an order-up of it names no trump) leaves no call of
    that deal in the record: replay reads the record, so the import goes on (with the warning), as before."""
    def edit(d: dict[str, Any]) -> None:
        _up_card(0, "Xx")(d)
        d["deals"][0]["phases"][0]["calls"] = ["Order"]
        del d["deals"][0]["phases"][1:]
    p = _epic(tmp_path, edit)
    out = tmp_path / "out.jsonl"
    assert main(["import", "egn", str(p), "-o", str(out)]) == 0
    assert "names no trump" in capsys.readouterr().err
    assert main(["replay", str(out)]) == 1  # the first record stops before its first call: unfinished
    assert ": malformed:" not in capsys.readouterr().out


def test_valid_and_rule_breaking_games_still_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    rejected = DATA / "validation examples" / "July 4th Pairs Finals.egn"  # plays on after the game: rejected
    assert main(["import", "egn", str(EPIC), str(rejected), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{out}:1: accepted") and lines[1].startswith(f"{out}:2: rejected"), lines


# --- B: a value of the wrong type stops the command ------------------------------------------------
@pytest.mark.parametrize("key, value, want", [
    ("winning_score", 7.5, "an integer"),
    ("winning_score", "10", "an integer"),
    ("winning_score", True, "an integer"),
    ("loner_euchred_score", 4.0, "an integer"),
    ("std", "yes", "true or false"),
    ("std", 1, "true or false"),
    ("canadian", None, "true or false"),
    ("defend_alone", [], "true or false"),
    ("loner_lead", 1, "a string"),
])
def test_a_ruleset_value_of_the_wrong_type_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       key: str, value: Any, want: str) -> None:
    p = _epic(tmp_path, lambda d: d["metadata"]["ruleset"].__setitem__(key, value))
    err = _import_refused(p, tmp_path, capsys)
    assert f"cardspec: error: {p}: metadata.ruleset.{key}: must be {want}" in err
    assert "default" not in err and "not a int" not in err


def test_a_ruleset_key_left_out_takes_egns_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = _epic(tmp_path, lambda d: d["metadata"]["ruleset"].pop("std"))
    assert main(["import", "egn", str(p), "-o", str(tmp_path / "out.jsonl")]) == 0
    assert "std" not in capsys.readouterr().err
    recs, _ = import_egn(p)
    assert recs[0]["options"]["all_pass"] == "dealer_must_name"  # std: true, EGN's default


@pytest.mark.parametrize("key, value", [("initialScore", [1]), ("initialScore", []), ("finalScore", [10]),
                                        ("finalScore", [])])
def test_a_score_that_is_not_two_integers_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      key: str, value: list[int]) -> None:
    p = _epic(tmp_path, lambda d: d["metadata"].__setitem__(key, value))
    err = _import_refused(p, tmp_path, capsys)
    assert f"cardspec: error: {p}: metadata.{key}: must be an array of 2 integers" in err
    assert "taken as 0" not in err and "not checked" not in err


def test_in_a_match_a_wrong_type_names_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _doc(MATCH)
    games = doc["games"]
    games[2]["gameData"] = copy.deepcopy(games[2]["gameData"])
    games[2]["gameData"]["metadata"]["ruleset"]["winning_score"] = 7.5
    p = _write(tmp_path, doc, "m.emn")
    err = _import_refused(p, tmp_path, capsys)
    assert f"{p}: games.2.gameData.metadata.ruleset.winning_score: must be an integer" in err and "7.5" in err
