"""Review 7: an error in a scoring table's input or row names the table by its key (``scoring.tables.0``), so the
message carries the line of the row or input itself, not the line of ``tables:``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardspec.engine.errors import SpecError
from cardspec.engine.loader import spec_dir
from cardspec.engine.spec import load


def _edited(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    for f in spec_dir().glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "euchre.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path, line


@pytest.mark.parametrize(("old", "new", "says"), [
    ("- when: {tricks: [0, 2]}", "- when: {tricks: [2, 0]}", "[2, 0] is reversed"),
    ("- when: {maker: true, tricks: [3, 5]}", "- when: {maker: [true, false, true], tricks: [3, 5]}",
     "lists True twice"),
])
def test_a_reversed_range_or_a_value_listed_twice_is_named(tmp_path: Path, old: str, new: str, says: str) -> None:
    """Review 7: a reversed range was only "must be [lo, hi]", and a value listed twice was accepted silently."""
    path, line = _edited(tmp_path, old, new)
    with pytest.raises(SpecError, match=re.escape(says)) as e:
        load(str(path))
    assert f"euchre.yaml:{line}:" in str(e.value)


@pytest.mark.parametrize(("old", "new", "key"), [
    ("- when: {maker: true, tricks: [3, 5]}", "- when: {makr: true, tricks: [3, 5]}",
     "scoring.tables.0.rows.0.when.makr"),
    ("- when: {tricks: [0, 2]}", "- when: {tricks: [0, 9]}", "scoring.tables.0.rows.8.when.tricks"),
    ("- when: {tricks: [0, 2]}", "- when: {tricks: [2, 0]}", "scoring.tables.0.rows.8.when.tricks"),
    ("        tricks: {type: int, min: 0, max: 5}\n        alone:", "        tricks: {type: int, min: 5, max: 0}\n"
     "        alone:", "scoring.tables.0.inputs.tricks"),
])
def test_a_table_error_names_its_row_or_input(tmp_path: Path, old: str, new: str, key: str) -> None:
    path, line = _edited(tmp_path, old, new)
    with pytest.raises(SpecError) as e:
        load(str(path))
    text = str(e.value)
    assert f"key '{key}'" in text and f"euchre.yaml:{line}:" in text, text


def test_a_table_counterexample_names_the_rows_that_match(tmp_path: Path) -> None:
    """Review 7: a table's counterexample names the rows its situation matches, as the engine's own error does:
    bid-euchre with a row 3 that also covers a made contract (tests/broken/unique-same-result-overlap.yaml)."""
    from conftest import ROOT

    from cardspec.verification.report import Verifier

    for f in spec_dir().glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    shutil.copy(ROOT / "tests" / "broken" / "unique-same-result-overlap.yaml", tmp_path / "broken.yaml")
    found = [f for f in Verifier(load(str(tmp_path / "broken.yaml"))).findings({})
             if f.property == "table deterministic (hand_points)"]
    assert found and found[0].status == "counterexample" and found[0].detail == "rows 1, 3 match", found


@pytest.mark.parametrize("system", ["riding-the-bus", "hand-and-foot"])
def test_a_match_is_not_proved_to_end_where_its_hands_are_not(system: str) -> None:
    """Review 7: "termination: match proved" stood beside a hand length flagged unbounded. The match's proof takes
    every hand as ending, so where that is not proved the match's end is flagged, saying so."""
    from cardspec.verification.report import Verifier

    found = {f.property: f for f in Verifier(load(system)).findings({})}
    assert found["termination: hand length"].status != "proved"
    end = found["termination: match"]
    assert end.status == "flagged" and "proved for hands that end" in end.detail, (end.status, end.detail)
    euchre = {f.property: f for f in Verifier(load("euchre")).findings({})}
    assert euchre["termination: hand length"].status == "proved"  # hands proved to end: the match's own finding
    assert "proved for hands that end" not in euchre["termination: match"].detail


def test_the_verify_table_shows_what_was_proved_and_which_entry_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """Review 7: the text table dropped a proof's detail ("declared [0, 7]; achievable ...") and never named the
    register entry a table's flag comes from (only --json did)."""
    from cardspec.cli import print_verify

    rows = [{"property": "score bounds", "system": "euchre", "options": {}, "status": "proved",
             "detail": "declared [0, 7]; achievable [0, 1, 2, 4]", "witness": None, "seconds": 0.1}]
    print_verify(rows)
    assert "declared [0, 7]" in capsys.readouterr().out
    from cardspec.verification.report import Verifier

    flagged = [f for f in Verifier(load("euchre")).findings({"march_overlap": "first"})
               if f.status == "flagged" and f.property.startswith("table row ")]
    assert flagged and all("registered as ambiguity 'march-row-overlap'" in f.detail for f in flagged)
