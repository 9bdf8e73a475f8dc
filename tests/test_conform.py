"""The conformance harness (cardspec.conform), its command line, its pytest plugin, and the OpenSpiel
adapter in examples/. The harness tests run cardspec itself as "the other engine", with one planted
bug each, so they need no other engine; the OpenSpiel tests skip without pyspiel."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardspec.conform import (
    ConformError,
    Report,
    Unsupported,
    cmd_conform,
    configure,
    conform,
    load_factory,
    vector_cases,
)
from cardspec.engine.game import Game
from cardspec.engine.spec import available, load

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve()
OPENSPIEL = ROOT / "examples" / "openspiel_adapter.py"
DISCARD_CLAUSE = ("That suit would then be trump for the round, and the dealer would then get that card as part "
                  "of their hand, and they must choose one card in their hand to discard")
FOLLOW_CLAUSE = "You must play/follow the same suit that was lead if you have that suit."
BOWER_CLAUSE = "the “little/left” bower is considered part of the trump suit, and not its original/actual suit"
WINNER_CLAUSE = "The person laying the winning card (based on that card hierarchy above) takes the cards"
TEXT_RULES = {"farmers_hand": "off"}


# --- cardspec itself as the other engine, with a planted bug ------------------------------------
class SelfAdapter:
    """cardspec playing the other engine's part; ``bug`` plants one fault."""

    def __init__(self, system: str, options: dict[str, Any], bug: str | None = None) -> None:
        self.game = Game.from_system(system, options)
        self.bug = bug
        self.deal: dict[str, Any] = {}

    def new_hand(self, deal: dict[str, Any]) -> None:
        self.deal = deal
        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)

    def _playing(self) -> bool:
        return not self.st.is_terminal() and self.st.comp.id == "play"

    def legal_actions(self) -> list[str]:
        names = self.st.legal_action_names()
        if self.bug == "no_follow" and self._playing():  # any card of the hand, suit or not
            g = self.game
            return [f"play {g.deck.names[c]}" for c in g.deck.cards_of(self.st.hands[self.st.cur])]
        if self.bug == "spelling":  # "play TD" for "play 10D": the same action, spelled otherwise
            return [n.replace(" 10", " T") for n in names]
        return names

    def current_seat(self) -> int:
        if self.bug == "seat" and self._playing() and len(self.st.history) > 12:
            return (self.st.cur + 1) % 4
        return self.st.cur

    def apply(self, action: str) -> None:
        if self.bug == "raise" and len(self.st.history) == 3:
            raise RuntimeError("engine crashed\nsecond line")
        self.st.apply_name(action)

    def hand_over(self) -> bool:
        return self.st.is_terminal()

    def results(self) -> dict[str, Any]:
        r = self.st.hand_results[-1]
        winners, scores = list(r["trick_winners"]), list(r["scores"])
        if self.bug == "last_trick" and winners:
            winners[-1] = (winners[-1] + 1) % 4
        if self.bug == "score" and not r["thrown_in"]:
            scores = [s + 1 if s else 0 for s in scores]
        return {"trick_winners": winners, "scores": scores}


def _factory(bug: str | None) -> Callable[[str, dict[str, Any]], SelfAdapter]:
    def make(system: str, options: dict[str, Any]) -> SelfAdapter:
        return SelfAdapter(system, options, bug)
    return make


def clean_factory(system: str, options: dict[str, Any]) -> SelfAdapter:
    return SelfAdapter(system, options)


def trick_bug_factory(system: str, options: dict[str, Any]) -> SelfAdapter:
    return SelfAdapter(system, options, "last_trick")


def unsupported_factory(system: str, options: dict[str, Any]) -> SelfAdapter:
    raise Unsupported(f"no {system} here")


def broken_factory(system: str, options: dict[str, Any]) -> SelfAdapter:
    raise KeyError("boom")


def not_an_adapter(system: str, options: dict[str, Any]) -> object:
    return object()


NOT_CALLABLE = 42


def _vector_hand_count(system: str) -> int:
    data = json.loads((ROOT / "docs" / "vectors" / f"{system}.json").read_text())
    return sum(len(pt["results"]["hands"]) for pt in data["playthroughs"])


def test_self_adapter_agrees_on_every_hand() -> None:
    r = conform(clean_factory, "euchre", hands=30)
    assert r.ok and r.disagreements == [] and not r.skipped, r.text()
    assert r.sources == {"vectors": _vector_hand_count("euchre"), "seeded": 30}
    assert r.hands_run == r.hands_agreeing == _vector_hand_count("euchre") + 30
    assert "every hand agrees" in r.text()


def test_the_docs_adapter_agrees_on_every_system(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(from cardspec\.engine\.game import Game\n.*?)```", text, re.S)
    assert code is not None
    (tmp_path / "selfie.py").write_text(code.group(1))
    for sid in available():  # hand-and-foot too: its deals are the whole stock, as dealt (current_deal)
        r = conform(f"{tmp_path / 'selfie.py'}:factory", sid, hands=3)
        assert r.ok and r.hands_run >= 3, r.text()


def test_other_spelling_of_an_action_is_the_same_action() -> None:
    r = conform(_factory("spelling"), "euchre", TEXT_RULES, hands=20, vectors=False)
    assert r.ok, r.text()


def test_vector_hands_are_the_vectors_deals_and_play() -> None:
    game = Game.from_system("euchre")
    cases = vector_cases(game)
    data = json.loads((ROOT / "docs" / "vectors" / "euchre.json").read_text())
    stated = [h for pt in data["playthroughs"] for h in pt["results"]["hands"]]
    assert len(cases) == len(stated) > 0
    for case, want in zip(cases, stated, strict=True):
        assert case.deal["dealer"] == want["dealer"]
        st = game.new_initial_state(None, deals=[case.deal], hand_limit=1)
        for a in case.script:
            st.apply_name(a)
        assert st.is_terminal()
        got = st.hand_results[-1]
        assert (got["trick_winners"], got["scores"]) == (want["trick_winners"], want["scores"])


def test_vectors_are_made_when_the_folder_is_absent(tmp_path: Path) -> None:
    game = Game.from_system("euchre", TEXT_RULES)
    made = vector_cases(game, root=tmp_path / "no-such-folder")
    assert made == vector_cases(game) and len(made) == _vector_hand_count("euchre")
    assert vector_cases(game, root=tmp_path) == []  # a folder without this system's vectors: none


def test_planted_extra_action_cites_the_rule_cardspec_applies() -> None:
    r = conform(_factory("no_follow"), "euchre", TEXT_RULES, hands=20, vectors=False)
    assert not r.ok and r.disagreements
    for d in r.disagreements:
        assert d.kind == "legal" and d.phase == "play" and d.clause is not None
        assert d.clause.quote == FOLLOW_CLAUSE
        assert set(d.other) > set(d.cardspec)
        for n in d.notes:  # a left bower played on its printed suit: the clause that makes it trump
            bower = "counts as the trump suit" in n.reason
            assert n.allowed_by == "other" and n.clause is not None, n
            assert n.clause.quote == (BOWER_CLAUSE if bower else FOLLOW_CLAUSE), n
        assert "cardspec forbids" in d.message
    assert list(r.by_clause()) == [f'004_945a3021da002f83.txt: "{FOLLOW_CLAUSE}"']
    assert r.hands_agreeing + len(r.disagreements) == r.hands_run == 20


def test_planted_wrong_trick_winner_cites_the_winner_clause() -> None:
    r = conform(_factory("last_trick"), "euchre", TEXT_RULES, hands=10, vectors=False)
    assert len(r.disagreements) == 10 and r.hands_agreeing == 0
    for d in r.disagreements:
        assert d.kind == "trick_winners" and d.clause is not None and d.clause.quote == WINNER_CLAUSE
        assert d.cardspec[:-1] == d.other[:-1] and d.cardspec[-1] != d.other[-1]
        assert d.message.startswith("trick 4:")
        assert d.action_index == len(d.actions) > 0


def _row_quote(facts: dict[str, Any]) -> str:
    """The euchre table's row for a scoring entity's facts (text rules, most specific row)."""
    if facts["tricks"] < 3:
        return "The goal for each round is to win at least 3 of the 5 tricks."
    if not facts["maker"]:
        return "If your team did not call trump and you win 3+: 2 points"
    if facts["tricks"] == 5:
        return "If you went alone, and won all 5: 4 points" if facts["alone"] else \
            "If your team called trump and won all 5: 2 points"
    return "If your team called trump and you win 3+: 1 point"


def test_planted_wrong_score_cites_the_table_row() -> None:
    r = conform(_factory("score"), "euchre", TEXT_RULES, hands=12, vectors=False)
    assert len(r.disagreements) == 12
    quotes = set()
    for d in r.disagreements:
        assert d.kind == "scores" and d.clause is not None
        e = next(i for i, (a, b) in enumerate(zip(d.cardspec, d.other, strict=True)) if a != b)
        st = Game.from_system("euchre", TEXT_RULES).new_initial_state(None, deals=[dict(d.deal)], hand_limit=1)
        for a in d.actions:
            st.apply_name(a)
        assert d.clause.quote == _row_quote(st.hand_results[-1]["facts"][e])
        assert f"team {e}" in d.message
        quotes.add(d.clause.quote)
    assert len(quotes) > 1  # more than one row is cited: the row follows the facts


def test_adapter_that_raises_is_a_disagreement_not_a_crash() -> None:
    r = conform(_factory("raise"), "euchre", TEXT_RULES, hands=5, vectors=False)
    assert len(r.disagreements) == 5
    for d in r.disagreements:
        assert d.kind == "error" and d.action_index == len(d.actions) == len(d.record["actions"]) == 3
        assert re.fullmatch(r"the adapter failed: apply\('[a-z_]+( \w+)?'\) raised RuntimeError: engine crashed",
                            d.message), d.message
        assert d.clause is None and d.other == d.message.removeprefix("the adapter failed: ")


def test_wrong_seat_cites_the_turn_clause() -> None:
    r = conform(_factory("seat"), "euchre", TEXT_RULES, hands=8, vectors=False)
    assert len(r.disagreements) == 8
    for d in r.disagreements:
        assert d.kind == "seat" and d.other == (d.cardspec + 1) % 4 and d.seat == d.cardspec
        assert d.trick is not None and d.phase == "play"
        st = Game.from_system("euchre", TEXT_RULES).new_initial_state(None, deals=[dict(d.deal)], hand_limit=1)
        for a in d.actions:
            st.apply_name(a)
        if st.piles["trick"]:  # following a lead: "The next person to the left then must follow"
            assert d.clause is not None and d.clause.quote == "The next person to the left then must follow"
        else:  # a lead after a trick: the trick's winner leads
            assert d.clause is not None and d.clause.quote == WINNER_CLAUSE


def test_report_is_deterministic_for_a_seed() -> None:
    a = conform(_factory("no_follow"), "euchre", TEXT_RULES, hands=15, seed=3)
    b = conform(_factory("no_follow"), "euchre", TEXT_RULES, hands=15, seed=3)
    c = conform(_factory("no_follow"), "euchre", TEXT_RULES, hands=15, seed=4)
    assert a.as_json() == b.as_json() and a.text() == b.text()
    assert a.as_json()["disagreements"] != c.as_json()["disagreements"]


def test_disagreement_record_replays_in_cardspec() -> None:
    from cardspec.engine.record import replay

    r = conform(_factory("no_follow"), "euchre", TEXT_RULES, hands=5, vectors=False)
    for d in r.disagreements:
        rep = replay(json.loads(json.dumps(dict(d.record))))
        assert [a["action"] for a in rep.record["actions"]] == list(d.actions)
        assert rep.state.legal_action_names() == d.cardspec


# --- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "words"), [
    ("no_colon", "wants MODULE:FACTORY"),
    (":factory", "no module before"),
    ("json:", "wants MODULE:FACTORY"),
    ("no_such_module_xyz:factory", "cannot import adapter module 'no_such_module_xyz'"),
    ("json:no_such_factory", "has no attribute 'no_such_factory'"),
    ("json:decoder", "is not callable"),
    (f"{HERE}:NOT_CALLABLE", "is not callable (it is a int)"),
    ("/no/such/dir/adapter.py:factory", "not found"),
])
def test_bad_adapter_strings(spec: str, words: str) -> None:
    with pytest.raises(ConformError, match=None) as exc:
        load_factory(spec)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_adapter_module_that_fails_to_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad_adapter.py"
    bad.write_text("raise RuntimeError('no engine here')\n")
    with pytest.raises(ConformError, match="RuntimeError: no engine here"):
        load_factory(f"{bad}:factory")


@pytest.mark.parametrize(("factory", "words", "error"), [
    (broken_factory, "failed: KeyError", ConformError),
    (not_an_adapter, "returned a object, which lacks new_hand", ConformError),
    (unsupported_factory, "no euchre here", Unsupported),
])
def test_factories_that_cannot_start(factory: Any, words: str, error: type[Exception]) -> None:
    with pytest.raises(error, match=words):
        conform(factory, "euchre", hands=1)


@pytest.mark.parametrize(("options", "words"), [
    ({"no_such_option": "x"}, "unknown option 'no_such_option'"),
    ({"farmers_hand": "sometimes"}, "farmers_hand"),
    ({"going_alone": "maybe"}, "true or false"),
])
def test_bad_options(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ConformError, match=words):
        conform(clean_factory, "euchre", options, hands=1)


# --- the command line ----------------------------------------------------------------------------
def _args(*argv: str, with_json: bool = False) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="cardspec")
    sub = p.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("conform")
    if with_json:  # the cli's own helper adds --json to every command; configure must not add it again
        sp.add_argument("--json", action="store_true")
    configure(sp)
    return p.parse_args(["conform", *argv])


def test_cmd_conform_agrees_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    args = _args("euchre", "--adapter", f"{HERE}:clean_factory", "-n", "5", "--option", "farmers_hand=off")
    assert args.func is cmd_conform
    assert cmd_conform(args) == 0
    out = capsys.readouterr().out
    assert "every hand agrees" in out and "(farmers_hand=off)" in out


def test_cmd_conform_disagrees_exit_1_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = _args("euchre", "--adapter", f"{HERE}:trick_bug_factory", "-n", "3", "--no-vectors", "--json",
                 with_json=True)
    assert cmd_conform(args) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["hands_run"] == 3 and len(data["disagreements"]) == 3
    assert list(data["by_clause"]) == [f'004_945a3021da002f83.txt: "{WINNER_CLAUSE}"']
    assert data["disagreements"][0]["clause"]["quote"] == WINNER_CLAUSE


@pytest.mark.parametrize(("argv", "words", "error"), [
    (["--adapter", "nope"], "wants MODULE:FACTORY", ConformError),
    (["--adapter", "no_such_module_xyz:f"], "cannot import", ConformError),
    (["--adapter", f"{HERE}:clean_factory", "--option", "farmers_hand"], "wants NAME=VALUE", ConformError),
    (["--adapter", f"{HERE}:clean_factory", "--option", "bogus=1"], "unknown option 'bogus'", ConformError),
    (["--adapter", f"{HERE}:clean_factory", "-n", "-1"], "-n must be between", ConformError),
    (["--adapter", f"{HERE}:clean_factory", "-n", "0", "--no-vectors"], "no hands to run", ConformError),
    (["--adapter", f"{HERE}:unsupported_factory"], "no euchre here", Unsupported),
])
def test_cmd_conform_bad_input(argv: list[str], words: str, error: type[Exception]) -> None:
    with pytest.raises(error, match=words) as exc:
        cmd_conform(_args("euchre", *argv))
    from cardspec.engine.errors import CardspecError

    assert isinstance(exc.value, CardspecError)  # cardspec.cli.main prints it as one line, exit 2


# --- the pytest plugin ---------------------------------------------------------------------------
PLUGIN_TESTS = '''
def test_agrees(cardspec_conform):
    report = cardspec_conform("euchre", {"farmers_hand": "off"}, hands=4)
    assert report.ok, report.text()
    assert report.options["going_alone"] is False  # --cardspec-option is laid over the test's options

def test_finds_the_bug(cardspec_conform):
    report = cardspec_conform("euchre", adapter="ADAPTER:trick_bug_factory", hands=3, vectors=False)
    assert not report.ok and "takes the cards" in report.text()
'''


def _pytest(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_engine.py").write_text(PLUGIN_TESTS.replace("ADAPTER", str(HERE)))
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "cardspec.pytest_plugin", "-p", "no:cacheprovider",
           str(tmp_path / "test_engine.py"), *argv]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)


def test_pytest_plugin_fixture(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--cardspec-adapter", f"{HERE}:clean_factory", "--cardspec-option", "going_alone=false")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_pytest_plugin_skips_without_an_adapter(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "-rs", "-k", "agrees")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout and "--cardspec-adapter" in run.stdout


# --- OpenSpiel's euchre --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def openspiel() -> Any:
    pytest.importorskip("pyspiel")
    import importlib.util

    spec = importlib.util.spec_from_file_location("openspiel_adapter", OPENSPIEL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_openspiel_under_the_texts_rules_disagrees_at_the_dealers_discard(openspiel: Any) -> None:
    r: Report = conform(openspiel.factory, "euchre", TEXT_RULES, hands=60)
    assert not r.ok and r.hands_agreeing > 0 and len(r.disagreements) > 10, r.text()
    for d in r.disagreements:
        turned = d.deal["piles"]["kitty"][0]
        assert d.kind == "legal" and d.phase == "calling" and d.seat == d.deal["dealer"], d.line()
        assert d.clause is not None and d.clause.quote == DISCARD_CLAUSE
        assert [(n.action, n.allowed_by) for n in d.notes] == [(f"discard {turned}", "cardspec")]
        assert d.actions[-1] == "order_up"
    assert list(r.by_clause()) == [f'004_945a3021da002f83.txt: "{DISCARD_CLAUSE}"']


def test_openspiel_under_its_house_rules_agrees(openspiel: Any) -> None:
    decls = load("euchre").option_decls
    if "dealer_discard" not in decls or "lone_defender" not in decls:
        pytest.skip("euchre has no dealer_discard / lone_defender option yet")
    for extra in ({}, {"lone_defender": "always", "all_pass": "redeal"}):
        r = conform(openspiel.factory, "euchre", {**TEXT_RULES, "dealer_discard": "not_turned_card", **extra},
                    hands=150, seed=1)
        assert r.ok and r.hands_run == _vector_hand_count("euchre") + 150, r.text()


def test_openspiel_scores_a_euchred_loner_two_not_four(openspiel: Any) -> None:
    opts = {**TEXT_RULES, "lone_euchre": "four"}
    if "dealer_discard" in load("euchre").option_decls:
        opts["dealer_discard"] = "not_turned_card"
    r = conform(openspiel.factory, "euchre", opts, hands=150, vectors=False)
    assert r.disagreements, r.text()
    for d in r.disagreements:
        assert d.kind == "scores" and 4 in d.cardspec and 2 in d.other, d.line()
        assert d.clause is not None and d.clause.quote == "If your team did not call trump and you win 3+: 2 points"


def test_openspiel_deal_mapping(openspiel: Any) -> None:
    game = Game.from_system("euchre", TEXT_RULES)
    from cardspec.engine.record import deal_of

    for seed in range(8):
        deal = deal_of(game.new_initial_state(seed, hand_limit=1))
        a = openspiel.factory("euchre", dict(game.options))
        a.new_hand(deal)
        s = a.state
        assert s.dealer() == deal["dealer"] and openspiel.card_name(s.upcard()) == deal["piles"]["kitty"][0]
        holders = s.card_holder()
        for seat, hand in enumerate(deal["hands"]):
            assert sorted(openspiel.card_name(c) for c in range(24) if holders[c] == seat) == sorted(hand)
        assert a.current_seat() == (deal["dealer"] + 1) % 4
        assert sorted(a.legal_actions()) == ["order_up", "pass"]


def test_openspiel_thrown_in_hand_matches_all_pass_redeal(openspiel: Any) -> None:
    opts = {**TEXT_RULES, "all_pass": "redeal"}
    game = Game.from_system("euchre", opts)
    from cardspec.engine.record import deal_of

    deal = deal_of(game.new_initial_state(5, hand_limit=1))
    st = game.new_initial_state(None, deals=[deal], hand_limit=1)
    a = openspiel.factory("euchre", dict(game.options))
    a.new_hand(deal)
    for _ in range(8):
        assert "pass" in a.legal_actions() and "pass" in st.legal_action_names()
        a.apply("pass")
        st.apply_name("pass")
    assert a.hand_over() and st.is_terminal()
    r = st.hand_results[-1]
    assert a.results() == {"trick_winners": r["trick_winners"], "scores": r["scores"], "thrown_in": True}
    assert r["thrown_in"] is True and r["scores"] == [0, 0]


@pytest.mark.parametrize(("system", "options", "words"), [
    ("euchre", {"farmers_hand": "first_round"}, "no Farmer's Hand"),
    ("euchre", {"farmers_hand": "off", "lone_defender": "against_loner"}, "against_loner"),
    ("bid-euchre", {}, "euchre only"),
])
def test_openspiel_unsupported(openspiel: Any, system: str, options: dict[str, Any], words: str) -> None:
    with pytest.raises(Unsupported, match=words):
        openspiel.factory(system, options)


def test_openspiel_text_defaults_are_unsupported_via_conform(openspiel: Any) -> None:
    with pytest.raises(Unsupported, match="farmers_hand=off"):
        conform(openspiel.factory, "euchre", hands=1)
