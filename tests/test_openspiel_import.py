"""``cardspec import openspiel``: OpenSpiel euchre histories audited under OpenSpiel's rules as options.

The histories in tests/data/openspiel/euchre-histories.jsonl were played by open_spiel 2.0.2 itself
(random legal play; 40 with default parameters, 40 with ``allow_lone_defender``, 20 without stick the
dealer), with the returns OpenSpiel gave: independent of cardspec.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine.audit import audit
from cardspec.engine.errors import RecordError
from cardspec.openspiel import card_name, read_histories, record_of_history

DATA = Path(__file__).parent / "data" / "openspiel" / "euchre-histories.jsonl"


def histories() -> list[tuple[str, list[int], dict[str, Any], list[int] | None]]:
    return read_histories(DATA)


def test_every_openspiel_hand_is_accepted_with_its_returns_as_scores() -> None:
    seen = {"lone": 0, "thrown_in": 0}
    for where, h, params, ret in histories():
        rec, problems = record_of_history(h, params, ret, where)
        assert problems == []
        v = audit(f"{where}: ", rec)
        assert v.verdict == "accepted", v.line()
        assert any("never shown" in n for n in v.unchecked)  # the kitty under the up card
        if 29 in h[22:]:
            seen["lone"] += 1
        if ret == [0, 0, 0, 0]:
            seen["thrown_in"] += 1
    assert seen["lone"] >= 5 and seen["thrown_in"] >= 1


def test_a_wrong_return_is_rejected_at_the_score() -> None:
    where, h, params, ret = histories()[0]
    assert ret is not None
    rec, _ = record_of_history(h, params, [-r for r in ret], where)
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.path == "results.hands.0.scores"


def _discarding_the_up_card() -> tuple[list[int], dict[str, Any]]:
    """A history where the dealer picked up and then discarded the up card (OpenSpiel's own apply
    accepts it silently; its legal actions never offer it)."""
    for _, h, params, _ret in histories():
        if params:
            continue
        up = h[21]
        bids = h[22:]
        if bids and bids[0] == 25 + up % 4:  # the first bidder ordered up
            return [*h[:23], up], params
    raise AssertionError("no order-up in the first bid")


def test_the_dealer_discarding_the_up_card_breaks_openspiels_rule_not_the_texts() -> None:
    h, params = _discarding_the_up_card()
    rec, _ = record_of_history(h, params, None, "t")
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 1
    assert "may not discard the card picked up" in str(v.error)
    text = copy.deepcopy(rec)
    text["options"]["dealer_discard"] = "any"
    assert audit("t: ", text).verdict == "unfinished"  # the text allows it; the record stops there


def test_a_serialized_state_file_imports(tmp_path: Path) -> None:
    _, h, params, _ = histories()[0]
    assert params == {}
    f = tmp_path / "state.txt"
    f.write_text("".join(f"{a}\n" for a in h), encoding="utf-8")
    [(w, h2, p2, r2)] = read_histories(f)
    assert h2 == h and p2 == {} and r2 is None
    rec, _ = record_of_history(h2, p2, r2, w)
    assert audit("t: ", rec).verdict == "accepted"


def test_card_ids_follow_openspiels_layout() -> None:
    """rank * 4 + suit, ranks 9 T J Q K A, suits C D H S."""
    assert [card_name(i) for i in (0, 1, 2, 3, 4, 10, 23)] == ["9C", "9D", "9H", "9S", "10C", "JH", "AS"]


@pytest.mark.parametrize("line,what", [
    ("{not json", "not JSON"),
    ("[3, 1, 2]", "stops before the deal"),
    ('{"history": [7, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}', "dealer"),
    ('{"history": [0, 0,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}', "21 different card ids"),
    ('{"history": [0, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20, 99]}', "no OpenSpiel euchre action"),
    ('{"history": [0, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20], "params": {"x": 1}}', "parameter 'x'"),
    ('"text"', "list of action ids"),
])
def test_bad_histories_are_named(tmp_path: Path, line: str, what: str) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=what):
        for where, h, params, ret in read_histories(f):
            record_of_history(h, params, ret, where)


def test_the_cli_writes_records_that_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "records.jsonl"
    assert main(["import", "openspiel", str(DATA), "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(histories()) and all(json.loads(x)["scope"] == "hand" for x in lines)
    assert main(["replay", str(out)]) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1]\n", encoding="utf-8")
    assert main(["import", "openspiel", str(bad)]) == 2
    assert "stops before the deal" in capsys.readouterr().err
