"""Review fixes: a mid-match start that is already over, what a wrong result cites, the conformance
harness with a spec file and with an adapter file that imports its neighbours, and the records docs.

Expected values come from the Euchre text (004): "The game goes until a team scores 10 points."
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_partial_records import one_hand

from cardspec.cli import main
from cardspec.conform import ConformError, conform, load_factory
from cardspec.engine.audit import Verdict, audit, audit_file
from cardspec.engine.errors import RecordError
from cardspec.engine.game import Game
from cardspec.engine.spec import available

ROOT = Path(__file__).resolve().parents[1]
RECORDS_MD = ROOT / "docs" / "records.md"
CONFORMANCE_MD = ROOT / "docs" / "conformance.md"
GAME_TO_10 = "The game goes until a team scores 10 points."
ROTATION = "The person to the left of the dealer is now the new dealer"


def _judge(rec: dict[str, Any]) -> Verdict:
    return audit("t: ", rec)


# --- 1. a start from which no hand can be played -----------------------------------------------------
@pytest.mark.parametrize("totals", [[15, 0], [12, 11], [10, 3]])
def test_a_start_past_the_target_is_malformed(totals: list[int]) -> None:
    rec = one_hand(5, scope=None)
    rec["start"] = {"hand": 3, "dealer": rec["deals"][0]["dealer"], "totals": totals, "extra_hand": False}
    v = _judge(rec)
    assert v.verdict == "malformed", v.line()
    assert v.error is not None and v.error.path == "start.totals"
    assert "already end the match" in v.error.message and str(totals) in v.error.message
    assert v.error.source is not None and v.error.source.quote == GAME_TO_10


def test_a_start_below_the_target_still_plays() -> None:
    rec = one_hand(5, scope=None)
    gained = rec["results"]["hands"][0]["scores"]
    rec["start"] = {"hand": 3, "dealer": rec["deals"][0]["dealer"], "totals": [9, 9]}
    rec["results"]["hands"][0].update(hand=3, totals=[9 + gained[0], 9 + gained[1]])
    rec["results"]["winners"] = [0, 2] if gained[0] else [1, 3]
    v = _judge(rec)
    assert v.verdict == "accepted", v.line()


def test_negative_start_totals_are_left_when_the_spec_declares_no_bound() -> None:
    """Euchre declares no floor and no per-hand minimum: a negative total is not refused."""
    rec = one_hand(5, scope=None)
    rec["start"] = {"hand": 3, "dealer": rec["deals"][0]["dealer"], "totals": [-5, 0]}
    del rec["results"]
    v = _judge(rec)
    assert v.verdict == "unfinished", v.line()


@pytest.mark.parametrize(("system", "options", "start", "path"), [
    ("bid-euchre", {"floor": "-25"}, {"totals": [-25, 10]}, "start.totals"),  # at the floor: lost
    ("bid-euchre", {"floor": "-25"}, {"totals": [-24, 10]}, None),
    ("bid-euchre", {}, {"totals": [-400, 10]}, None),  # no floor: scores fall for ever
    ("buck-euchre", {}, {"totals": [0, 25, 25, 25]}, "start.totals"),  # counted down to the target
    ("buck-euchre", {}, {"totals": [1, 25, 25, 25]}, None),
    ("the-card-game", {}, {"hand": 11}, "start.hand"),  # every one of the 11 rounds played
    ("the-card-game", {}, {"hand": 10}, None),
    ("birdhead", {}, {"totals": [22, 0, 0, 0]}, "start.totals"),  # reaching 22 ends the game
    ("birdhead", {}, {"totals": [21, 0, 0, 0]}, None),
    ("bird-dog-2p", {}, {"totals": [11, 3]}, "start.totals"),
    ("bird-dog-2p", {}, {"totals": [11, 12], "extra_hand": True}, None),  # a tie-break hand is to be played
    ("riding-the-bus", {}, {"totals": [3, 3, 3, 0]}, "start.totals"),  # one player left
    ("riding-the-bus", {}, {"totals": [3, 3, 0, 0]}, None),
])
def test_the_match_end_test_judges_every_start(system: str, options: dict[str, Any], start: dict[str, Any],
                                               path: str | None) -> None:
    g = Game.from_system(system, options)
    if "dealer" not in start and g.match.kind == "elimination":
        start = {**start, "dealer": 3}
    if path is None:
        st = g.new_initial_state(1, start=start)
        assert not st.is_terminal() and st.legal_actions()
        return
    with pytest.raises(RecordError) as info:
        g.new_initial_state(1, start=start)
    assert info.value.path == path
    assert "fewer than two" in info.value.message or "no hand can be played" in info.value.message


def test_the_cli_refuses_a_start_that_is_over_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = one_hand(5, scope=None)
    rec["start"] = {"hand": 3, "dealer": rec["deals"][0]["dealer"], "totals": [15, 0]}
    f = tmp_path / "over.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    assert main(["replay", str(f)]) == 2
    out = capsys.readouterr()
    assert "start.totals" in out.out + out.err and "Traceback" not in out.err


# --- 4. what a wrong result cites --------------------------------------------------------------------
def test_scores_of_the_wrong_length_are_malformed_without_a_clause() -> None:
    rec = one_hand(5)
    rec["results"]["hands"][0]["scores"] = [*rec["results"]["hands"][0]["scores"], 0]
    v = _judge(rec)
    assert v.verdict == "malformed", v.line()
    assert v.error is not None and v.error.path == "results.hands.0.scores" and v.error.source is None
    assert "one number per scoring entity" in v.error.message and "2 (one per team)" in v.error.message


def test_totals_of_the_wrong_length_are_malformed() -> None:
    rec = one_hand(5)
    rec["results"]["hands"][0]["totals"] = [0]
    v = _judge(rec)
    assert v.verdict == "malformed" and v.error is not None, v.line()
    assert v.error.path == "results.hands.0.totals" and v.error.source is None


def test_a_wrong_score_cites_the_scoring_row() -> None:
    rec = one_hand(5)
    scores = rec["results"]["hands"][0]["scores"]
    rec["results"]["hands"][0]["scores"] = [s + 1 for s in scores]
    v = _judge(rec)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    assert v.error.path == "results.hands.0.scores"
    g = Game.from_system("euchre")
    rows = {r.source.quote for t in g.scoring.tables for r in t.rows if r.source is not None}
    assert v.error.source is not None and v.error.source.quote in rows
    assert v.error.source.quote != ROTATION


@pytest.mark.parametrize("start", [None, 7])
def test_a_wrong_hand_number_is_rejected_without_the_rotation_clause(start: int | None) -> None:
    rec = one_hand(5)
    if start is not None:
        gained = rec["results"]["hands"][0]["scores"]
        rec["start"] = {"hand": start, "dealer": rec["deals"][0]["dealer"], "totals": [0, 0]}
        rec["results"]["hands"][0]["totals"] = gained
    rec["results"]["hands"][0]["hand"] = 5
    v = _judge(rec)
    assert v.verdict == "rejected", v.line()
    assert v.error is not None and v.error.path == "results.hands.0.hand" and v.error.source is None
    assert f"is hand {start or 0}" in v.error.message
    assert ("the start's hand 7" in v.error.message) == (start is not None)


def test_a_wrong_dealer_still_cites_the_rotation_clause() -> None:
    rec = one_hand(5)
    rec["results"]["hands"][0]["dealer"] = (rec["results"]["hands"][0]["dealer"] + 1) % 4
    v = _judge(rec)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    assert v.error.source is not None and v.error.source.quote == ROTATION


# --- 2. the harness with a spec file -----------------------------------------------------------------
def _docs_adapter(folder: Path) -> Path:
    """The minimal adapter of docs/conformance.md, as a file."""
    text = CONFORMANCE_MD.read_text(encoding="utf-8")
    code = re.search(r"```python\n(from cardspec\.engine\.game import Game\n.*?)```", text, re.S)
    assert code is not None
    path = folder / "selfie_docs.py"
    path.write_text(code.group(1), encoding="utf-8")
    return path


def _euchre_copy(folder: Path, new_id: str | None) -> Path:
    """The bundled euchre spec copied to ``folder`` (under ``new_id``, or keeping the id ``euchre``)."""
    text = available()["euchre"].read_text(encoding="utf-8")
    if new_id is not None:
        text, n = re.subn(r"(?m)^id: euchre$", f"id: {new_id}", text)
        assert n == 1
    path = folder / f"{new_id or 'euchre'}-copy.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_docs_adapter_plays_a_spec_file_with_a_new_id(tmp_path: Path) -> None:
    spec = _euchre_copy(tmp_path, "my-euchre")
    r = conform(f"{_docs_adapter(tmp_path)}:factory", str(spec), hands=2, vectors=False)
    assert r.ok and r.hands_run == 2, r.text()
    assert r.system == "my-euchre" and r.spec_file == str(spec.resolve())
    assert r.text().splitlines()[0].startswith(f"conform my-euchre (spec file {spec.resolve()})")
    assert r.as_json()["spec_file"] == str(spec.resolve())


class _Recorder:
    """A factory that records what it was told to play, then plays it with the docs' way (Game.from_system)."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def __call__(self, system: str, options: dict[str, Any]) -> Any:
        self.told.append(system)
        return _SelfPlay(Game.from_system(system, options))


class _SelfPlay:
    def __init__(self, game: Game) -> None:
        self.game = game

    def new_hand(self, deal: dict[str, Any]) -> None:
        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)

    def legal_actions(self) -> list[str]:
        return self.st.legal_action_names()

    def current_seat(self) -> int:
        return self.st.cur

    def apply(self, action: str) -> None:
        self.st.apply_name(action)

    def hand_over(self) -> bool:
        return self.st.is_terminal()

    def results(self) -> dict[str, Any]:
        return self.st.hand_results[-1]


def test_a_spec_file_that_keeps_a_bundled_id_is_passed_by_path(tmp_path: Path) -> None:
    spec = _euchre_copy(tmp_path, None)
    rec = _Recorder()
    r = conform(rec, str(spec), hands=1, vectors=False)
    assert rec.told == [str(spec.resolve())]
    assert r.system == "euchre" and r.spec_file == str(spec.resolve()), r.text()
    assert "(spec file " in r.text().splitlines()[0]


def test_a_bundled_system_is_passed_by_id(tmp_path: Path) -> None:
    rec = _Recorder()
    r = conform(rec, "euchre", hands=1, vectors=False)
    assert rec.told == ["euchre"] and r.spec_file is None
    assert r.text().splitlines()[0].startswith("conform euchre (default options)")


def test_an_error_inside_the_factory_is_the_adapters(tmp_path: Path) -> None:
    spec = _euchre_copy(tmp_path, "my-euchre")

    def by_id(system: str, options: dict[str, Any]) -> Any:
        return _SelfPlay(Game.from_system("my-euchre", options))  # an id cardspec does not bundle

    words = r"the adapter factory .*by_id failed: SpecError: .*unknown rule system .*an error of the adapter"
    with pytest.raises(ConformError, match=words):
        conform(by_id, str(spec), hands=1, vectors=False)


def test_the_cli_reports_a_failing_factory_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _euchre_copy(tmp_path, "my-euchre")
    adapter = tmp_path / "byid_adapter.py"
    adapter.write_text("from cardspec.engine.game import Game\n\n"
                       "def factory(system, options):\n    return Game.from_system('my-euchre', options)\n",
                       encoding="utf-8")
    assert main(["conform", "--adapter", f"{adapter}:factory", str(spec), "-n", "1"]) == 2
    err = capsys.readouterr().err
    assert "the adapter factory" in err and "failed" in err and "Traceback" not in err


# --- 3. an adapter file importing a module next to it ------------------------------------------------
@pytest.fixture
def clean_modules() -> Iterator[None]:
    before = set(sys.modules)
    path = list(sys.path)
    yield
    for name in set(sys.modules) - before:
        del sys.modules[name]
    sys.path[:] = path


@pytest.mark.usefixtures("clean_modules")
def test_an_adapter_file_imports_its_neighbour(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "review_neighbour_base.py").write_text(_docs_adapter(tmp_path).read_text(encoding="utf-8"),
                                                     encoding="utf-8")
    (folder / "review_bugs.py").write_text("from review_neighbour_base import Selfie\n\n"
                                           "def factory(system, options):\n    return Selfie(system, options)\n",
                                           encoding="utf-8")
    path_before = list(sys.path)
    make = load_factory(f"{folder / 'review_bugs.py'}:factory")
    assert sys.path == path_before  # the folder is on the path only while the file loads
    r = conform(make, "euchre", hands=1, vectors=False)
    assert r.ok, r.text()


@pytest.mark.usefixtures("clean_modules")
def test_a_missing_neighbour_is_still_one_line(tmp_path: Path) -> None:
    (tmp_path / "lonely.py").write_text("from review_no_such_module import X\n", encoding="utf-8")
    path_before = list(sys.path)
    with pytest.raises(ConformError, match="No module named 'review_no_such_module'"):
        load_factory(f"{tmp_path / 'lonely.py'}:factory")
    assert sys.path == path_before


# --- 5. the records docs -----------------------------------------------------------------------------
def test_the_scenarios_replay_as_the_docs_say() -> None:
    text = RECORDS_MD.read_text(encoding="utf-8")
    para = text[text.index("The distinguishing scenarios"):]
    para = para[:para.index("\n\n")]
    example = re.search(r"`(docs/scenarios/[^`]+\.json)`", para)
    assert example is not None and "`accepted`" in para and "`unfinished`" in para
    verdicts = {v.verdict for v in audit_file(ROOT / example.group(1))}
    assert verdicts == {"accepted"}
    seen = {v.verdict for f in sorted((ROOT / "docs" / "scenarios").glob("*/*.json")) for v in audit_file(f)}
    assert seen == {"accepted", "unfinished"}


def test_the_key_table_lists_spec_sha256() -> None:
    text = RECORDS_MD.read_text(encoding="utf-8")
    schema = json.loads((ROOT / "spec" / "schema" / "record.schema.json").read_text(encoding="utf-8"))
    keys = set(re.findall(r"(?m)^\| `([a-z_0-9]+)` \|", text.split("## Unseen cards")[0]))
    assert "spec_sha256" in keys
    assert set(schema["properties"]) <= keys


def test_a_relative_system_path_is_read_from_the_current_directory(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """As docs/records.md says: not from the record file's folder."""
    folder = tmp_path / "recs"
    folder.mkdir()
    _euchre_copy(folder, "my-euchre")
    rec = one_hand(5)
    rec["system"] = "my-euchre-copy.yaml"
    f = folder / "rel.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    [away] = list(audit_file(f))
    assert away.verdict == "malformed" and away.error is not None and away.error.path == "system"
    monkeypatch.chdir(folder)
    [here] = list(audit_file(f))
    assert here.verdict == "accepted", here.line()
    assert "current directory" in RECORDS_MD.read_text(encoding="utf-8")
