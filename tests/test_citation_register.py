"""A clause that a register entry decides (a house rule, or a reading where the text is silent) names that entry
in its citation (``register``), beside the quote of the text it departs from or fills in: the rulebook, the
scoring explanation and an audit's JSON clause all show it, so a house-rule row citing "Red 3: -500 points"
does not read as the text's own rule. A citation naming no entry of the spec is a spec error at its line.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from test_review_spec import line_of, raw, write

from cardspec.cli import main
from cardspec.engine.errors import Source, SpecError
from cardspec.engine.game import Game
from cardspec.engine.spec import available, citations, load
from cardspec.play_table import why_rows


def test_every_register_citation_of_the_bundled_specs_names_one_of_its_entries() -> None:
    seen = 0
    for system in available():
        spec = load(system)
        ids = {a.id: a for a in spec.ambiguities}
        for path, src in citations(spec.data):
            if "register" in src:
                seen += 1
                assert src["register"] in ids, (system, path)
    assert seen >= 8  # hand-and-foot's red threes (zone, set-aside, table, 2 rows) and freeze; bid-euchre's low order


def test_the_red_threes_rows_name_the_house_rule_entry_not_the_texts_value() -> None:
    spec = load("hand-and-foot")
    entry = next(a for a in spec.ambiguities if a.id == "red-threes")
    assert entry.house_rule and entry.decision == "held"  # the text's rule is the default; laid aside is the house's
    table = next(t for t in spec.data["scoring"]["tables"] if t["id"] == "red_threes")
    assert [r["source"].get("register") for r in table["rows"]] == ["red-threes", "red-threes"]
    assert [r["then"]["per"]["set_aside"] for r in table["rows"]] == [100, -100]  # not the text's -500


def test_a_house_rule_row_in_a_finished_hand_says_which_entry_decides_it() -> None:
    game = Game.from_system("hand-and-foot", {"red_threes": "laid_aside"})
    st = game.new_initial_state(3)
    while not st.hand_results:
        st.apply(st.legal_actions()[0])
    rows = why_rows(game, st.hand_results[0]["facts"][0])
    red = [r for r in rows if r.startswith("red_threes row")]
    assert len(red) == 1 and red[0].endswith("“Red 3: -500 points” (as register entry 'red-threes' decides)")
    plain = [r for r in rows if not r.startswith("red_threes row") and "register entry" not in r]
    assert plain  # the text's own rows cite the text alone
    # the others are rows an option sets (their citations must name its entry: Spec._check_row_registers)
    decided = [r for r in rows if not r.startswith("red_threes row") and "register entry" in r]
    assert all(any(f"'{e}' decides" in r for e in ("exhausted-round-scoring", "wild-book-value", "going-out-bonus"))
               for r in decided), decided


def test_the_rulebook_shows_the_entry_beside_the_quote(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "bid-euchre"]) == 0
    out = capsys.readouterr().out
    assert "9->10->J->Q->K->A.” (as register entry `low-no-trump` decides)" in out
    assert main(["rules", "hand-and-foot"]) == 0
    out = capsys.readouterr().out
    assert "| any | True | 0 + 100×set_aside | “Red 3: -500 points” (as register entry `red-threes` decides) |" in out


def test_the_json_form_carries_the_entry_only_when_there_is_one() -> None:
    assert Source("a.txt", "abc").as_json() == {"doc": "a.txt", "quote": "abc"}
    assert Source("a.txt", "abc", "x").as_json() == {"doc": "a.txt", "quote": "abc", "register": "x"}


def test_a_citation_naming_no_entry_is_a_spec_error_at_its_line(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = copy.deepcopy(raw("bid-euchre"))
    data["ranking"]["low_source"]["register"] = "low-no-trumps"
    path = write(tmp_path / "typo.yaml", data)
    with pytest.raises(SpecError) as info:
        load(str(path))
    e = info.value
    assert "'low-no-trumps'" in e.detail and "no entry" in e.detail
    assert e.key == "ranking.low_source.register"
    assert e.line == line_of(path, "ranking.low_source")
    assert main(["check", str(path)]) == 2
    assert "low-no-trumps" in capsys.readouterr().err


def test_a_lone_defenders_four_points_name_the_house_rule_not_the_two_point_sentence_alone() -> None:
    """The text's only defence row gives 2 ("you win 3+: 2 points"); the 4 a lone defender scores is the
    lone-defender house rule's, and the rows and the phase that allow it say so."""
    spec = load("euchre")
    assert next(a for a in spec.ambiguities if a.id == "lone-defender").house_rule
    rows = spec.data["scoring"]["tables"][0]["rows"]
    lone = [r for r in rows if r["when"].get("defend_alone") is True]
    assert len(lone) == 2 and all(r["then"] == 4 and r["source"]["register"] == "lone-defender" for r in lone)
    phase = next(p for p in spec.data["phases"] if p.get("id") == "defending_alone")
    assert phase["source"]["register"] == "lone-defender"
    plain = [r for r in rows if r["then"] == 2]
    assert plain and all("register" not in r["source"] for r in plain)  # the text's own 2-point row
