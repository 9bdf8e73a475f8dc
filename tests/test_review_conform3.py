"""Review fixes of ``cardspec conform``: an adapter's ``sys.exit`` is its failure, never the run's exit; a
per-hand time limit; an adapter's prints kept off stdout; short report lines for huge legal lists; copies of
one card compared as one choice; vector hands that depend on the match state left out, and said so."""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from cardspec.cli import main
from cardspec.conform import conform, vector_cases
from cardspec.engine.game import Game

TEXT_RULES = {"farmers_hand": "off"}


# --- adapters: cardspec itself, with one fault at a time ------------------------------------------
class Selfie:
    """cardspec as the other engine; ``fault`` plants one misbehaviour after ``after`` actions of a hand."""

    def __init__(self, system: str, options: dict[str, Any], fault: str = "", after: int = 3) -> None:
        self.game = Game.from_system(system, options)
        self.fault, self.after = fault, after

    def _due(self) -> bool:
        return len(self.st.history) >= self.after

    def new_hand(self, deal: dict[str, Any]) -> None:
        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)

    def legal_actions(self) -> Any:
        legal = self.st.legal_action_names()
        if self.fault == "print":
            print("DEBUG {not json")
        if self.fault == "hang" and self._due():
            time.sleep(30)
        if self.fault == "hang_swallowed" and self._due():
            with contextlib.suppress(Exception):  # an adapter that swallows every Exception must still be stopped
                time.sleep(30)
        if self.fault == "hang_swallowed_once" and self._due():
            try:
                time.sleep(30)
            except BaseException:  # swallows even the harness's first alarm
                time.sleep(30)
        if self.fault == "huge":
            return legal + [f"junk {i}" for i in range(200_000)]
        if self.fault == "every_copy":
            return self._every_copy(legal)
        if self.fault == "second_copy_only":
            return [self._other_copy(n) for n in legal]
        if self.fault == "copy_twice":
            return [*legal, legal[0]]
        if self.fault == "forbidden_copy":
            return self._every_copy(legal) + self._forbidden_copies(legal)
        return legal

    def _held(self) -> list[str]:
        st = self.st
        return [self.game.deck.names[c] for c in self.game.deck.cards_of(st.hands[st.cur])]

    def _every_copy(self, legal: list[str]) -> list[str]:
        """Each ``play X#1`` listed also as ``play X#2`` when the seat holds that copy too."""
        held = set(self._held())
        out = list(legal)
        for n in legal:
            other = self._other_copy(n)
            if other != n and other.split()[1] in held:
                out.append(other)
        return out

    def _other_copy(self, name: str) -> str:
        words = name.split()
        if len(words) != 2 or words[0] != "play" or "#" not in words[1]:
            return name
        face, _, copy_no = words[1].partition("#")
        other = f"{face}#{2 if copy_no == '1' else 1}"
        return f"play {other}" if other in self._held() else name

    def _forbidden_copies(self, legal: list[str]) -> list[str]:
        """The second copy of a held card that cardspec does not let the seat play (a renege), if any."""
        listed = {n.split()[1].split("#")[0] for n in legal if n.startswith("play ")}
        if not listed:
            return []
        return sorted({f"play {c}" for c in self._held() if c.endswith("#2") and c.split("#")[0] not in listed})

    def current_seat(self) -> int:
        return self.st.cur

    def apply(self, action: str) -> None:
        if self.fault == "exit0" and self._due():
            sys.exit(0)
        if self.fault == "exit3" and self._due():
            sys.exit(3)
        if self.fault == "interrupt" and self._due():
            raise KeyboardInterrupt
        self.st.apply_name(action)

    def hand_over(self) -> bool:
        return self.st.is_terminal()

    def results(self) -> Any:
        return self.st.hand_results[-1]


def _factory(fault: str = "", after: int = 3) -> Callable[[str, dict[str, Any]], Selfie]:
    def make(system: str, options: dict[str, Any]) -> Selfie:
        return Selfie(system, options, fault, after)
    return make


ADAPTER_FILE = '''
import sys, time
from cardspec.engine.game import Game
print("printed at import")

class A:
    def __init__(self, system, options, fault):
        self.game = Game.from_system(system, options)
        self.fault = fault
    def new_hand(self, deal):
        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)
    def legal_actions(self):
        if self.fault == "print":
            print("DEBUG garbage {not json", flush=True)
        if self.fault == "hang" and len(self.st.history) > 3:
            time.sleep(3600)
        return self.st.legal_action_names()
    def current_seat(self):
        return self.st.cur
    def apply(self, action):
        if self.fault == "exit0" and len(self.st.history) == 3:
            sys.exit(0)
        self.st.apply_name(action)
    def hand_over(self):
        return self.st.is_terminal()
    def results(self):
        return self.st.hand_results[-1]

def exit0(system, options):
    return A(system, options, "exit0")
def printing(system, options):
    print("printed by the factory")
    return A(system, options, "print")
def hang(system, options):
    return A(system, options, "hang")
def factory_exit(system, options):
    sys.exit(3)
'''


@pytest.fixture()
def adapter_file(tmp_path: Path) -> str:
    path = tmp_path / "faulty_adapter.py"
    path.write_text(ADAPTER_FILE)
    return str(path)


# --- 1. SystemExit is the adapter's failure ---------------------------------------------------------
def test_sys_exit_in_apply_is_an_error_disagreement_not_the_run_exit() -> None:
    r = conform(_factory("exit0"), "dirty-clubs", hands=2, vectors=False)
    assert r.hands_run == 2 and r.hands_agreeing == 0 and not r.ok
    assert len(r.disagreements) == 2
    for d in r.disagreements:
        assert d.kind == "error" and d.action_index == 3 and d.clause is None and len(d.actions) == 3
        shape = r"the adapter failed: apply\('(pass|bid \d+|play [0-9JQKA]+[CDHS])'\) raised SystemExit: 0"
        assert re.fullmatch(shape, d.message), d.message
        assert d.other == d.message.removeprefix("the adapter failed: ")


def test_sys_exit_0_in_apply_makes_the_command_exit_1_with_a_report(adapter_file: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "--adapter", f"{adapter_file}:exit0", "dirty-clubs", "-n", "2", "--no-vectors"])
    out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert out.splitlines()[1] == "  2 hands run (2 seeded); 0 agree, 2 disagree"
    assert "the adapter failed: apply(" in out and ") raised SystemExit: 0" in out


def test_factory_sys_exit_is_exit_code_2_with_a_message(adapter_file: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "--adapter", f"{adapter_file}:factory_exit", "dirty-clubs", "-n", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "printed at import",  # the module's own print, sent to stderr
        f"cardspec: error: the adapter factory {adapter_file}:factory_exit failed: SystemExit: 3 "
        "(an error of the adapter, called with 'dirty-clubs')"]


def test_sys_exit_while_importing_the_adapter_is_exit_code_2(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "exits.py"
    path.write_text("import sys\nsys.exit(0)\n")
    code = main(["conform", "--adapter", f"{path}:factory", "dirty-clubs", "-n", "1"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == f"cardspec: error: cannot import adapter module '{path}': SystemExit: 0"


def test_keyboard_interrupt_still_stops_the_run() -> None:
    with pytest.raises(KeyboardInterrupt):
        conform(_factory("interrupt"), "dirty-clubs", hands=2, vectors=False)


# --- 2. a per-hand time limit ------------------------------------------------------------------------
LATE = ("the adapter failed: legal_actions() did not return within the time limit of 0.5 s for the adapter's "
        "calls in one hand (--hand-timeout)")


@pytest.mark.parametrize("fault", ["hang", "hang_swallowed", "hang_swallowed_once"])
def test_a_hanging_adapter_call_is_an_error_disagreement_naming_the_time_limit(fault: str) -> None:
    began = time.monotonic()
    r = conform(_factory(fault, after=4), "dirty-clubs", hands=2, vectors=False, hand_timeout=0.5)
    assert time.monotonic() - began < 20
    assert r.hands_run == 2 and r.hands_agreeing == 0
    assert [(d.kind, d.action_index, d.message, d.other) for d in r.disagreements] == \
        [("error", 4, LATE, LATE.removeprefix("the adapter failed: "))] * 2


def test_the_alarm_is_cancelled_and_the_previous_handler_and_timer_restored() -> None:
    def mine(signum: int, frame: Any) -> None:
        raise AssertionError("the test's own SIGALRM handler ran")

    old = signal.signal(signal.SIGALRM, mine)
    try:
        signal.setitimer(signal.ITIMER_REAL, 100.0)
        r = conform(_factory("hang", after=4), "dirty-clubs", hands=1, vectors=False, hand_timeout=0.3)
        assert [d.message for d in r.disagreements] == [LATE.replace("0.5 s", "0.3 s")]
        assert signal.getsignal(signal.SIGALRM) is mine
        left, interval = signal.getitimer(signal.ITIMER_REAL)
        assert 90.0 < left <= 100.0 and interval == 0.0
        signal.setitimer(signal.ITIMER_REAL, 0)
        r = conform(_factory(), "dirty-clubs", hands=1, vectors=False, hand_timeout=0.3)
        assert r.ok and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_hand_timeout_on_the_command_line(adapter_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "--adapter", f"{adapter_file}:hang", "dirty-clubs", "-n", "1", "--no-vectors",
                 "--hand-timeout", "0.5"])
    out, _ = capsys.readouterr()
    assert code == 1
    assert out.splitlines()[1] == "  1 hand run (1 seeded); 0 agree, 1 disagree"
    assert LATE in out


def test_a_factory_that_hangs_is_bad_input_naming_the_time_limit() -> None:
    from cardspec.conform import ConformError

    def slow(system: str, options: dict[str, Any]) -> Selfie:
        time.sleep(30)
        return Selfie(system, options)

    began = time.monotonic()
    with pytest.raises(ConformError) as caught:
        conform(slow, "dirty-clubs", hands=1, vectors=False, hand_timeout=0.3)
    assert time.monotonic() - began < 20
    assert str(caught.value) == (f"the adapter factory {__name__}:test_a_factory_that_hangs_is_bad_input_naming_the_"
                                 "time_limit.<locals>.slow did not return within 0.3 s (--hand-timeout; called with "
                                 "'dirty-clubs')")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "abc"])
def test_hand_timeout_must_be_a_positive_number(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "--adapter", "x.py:f", "dirty-clubs", "-n", "1", f"--hand-timeout={value}"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == f"cardspec: error: --hand-timeout wants a positive number of seconds, got '{value}'"


@pytest.mark.parametrize("value", [0, -2.5, float("nan"), True, "5"])
def test_conform_refuses_a_bad_time_limit(value: Any) -> None:
    from cardspec.conform import ConformError
    with pytest.raises(ConformError, match="the time limit of a hand must be a positive number of seconds"):
        conform(_factory(), "dirty-clubs", hands=1, vectors=False, hand_timeout=value)


# --- 3. an adapter's prints go to stderr ---------------------------------------------------------------
def test_adapter_prints_do_not_corrupt_json_output(adapter_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--json", "conform", "--adapter", f"{adapter_file}:printing", "dirty-clubs", "-n", "2"])
    out, err = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["ok"] is True and data["hands_run"] == data["hands_agreeing"] > 2
    assert "DEBUG" not in out and "printed" not in out
    assert "printed at import" in err and "printed by the factory" in err and "DEBUG garbage {not json" in err


def test_prints_of_an_adapter_object_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    r = conform(_factory("print"), "euchre", TEXT_RULES, hands=1, vectors=False)
    out, err = capsys.readouterr()
    assert r.ok and out == "" and err.count("DEBUG {not json\n") > 5


# --- 4. huge legal lists: short lines, bounded work ---------------------------------------------------
def test_a_huge_legal_list_gives_short_lines() -> None:
    began = time.monotonic()
    r = conform(_factory("huge"), "dirty-clubs", hands=1, vectors=False)
    assert time.monotonic() - began < 30
    (d,) = r.disagreements
    assert d.kind == "legal" and len(d.other) == 200_000 + len(d.cardspec)
    assert d.message.startswith("the other engine allows 'junk 0', 'junk 1', 'junk 10', 'junk 100' and 199996 "
                                "more that cardspec forbids (not an action of dirty-clubs: ")
    assert len(d.notes) == 20 and all(n.allowed_by == "other" for n in d.notes)
    sides = d.sides()
    assert sides.startswith(f"cardspec allows {', '.join(d.cardspec)}; the other engine ")
    assert sides.endswith(f" and {len(d.other) - 12} more")
    text = r.text()
    assert len(text) < 3000, len(text)
    assert max(len(line) for line in text.splitlines()) < 1000


# --- 5. copies of one card are one choice ------------------------------------------------------------
@pytest.mark.parametrize("fault", ["every_copy", "second_copy_only"])
def test_listing_other_copies_of_identical_cards_conforms(fault: str) -> None:
    r = conform(_factory(fault), "bid-euchre", hands=4)
    assert r.ok, r.text()
    assert r.hands_run == r.hands_agreeing and r.hands_run > 4 and r.disagreements == []


def test_an_engine_listing_every_copy_is_really_exercised() -> None:
    """The bid-euchre deals do reach positions where the adapter lists a second copy (so the test above
    compares something)."""
    seen: list[list[str]] = []

    class Spy(Selfie):
        def legal_actions(self) -> Any:
            out = super().legal_actions()
            if any(n.endswith("#2") and n.replace("#2", "#1") in out for n in out):
                seen.append(out)
            return out

    r = conform(lambda s, o: Spy(s, o, "every_copy"), "bid-euchre", hands=4)
    assert r.ok and len(seen) > 0


def test_a_copy_listed_twice_is_still_an_invalid_answer() -> None:
    r = conform(_factory("copy_twice"), "bid-euchre", hands=1, vectors=False)
    (d,) = r.disagreements
    assert d.kind == "error" and d.action_index == 0
    first = Game.from_system("bid-euchre").new_initial_state(None, deals=[dict(d.deal)], hand_limit=1)
    assert d.message == (f"the adapter failed: legal_actions() lists '{first.legal_action_names()[0]}' more "
                         "than once")


def test_a_forbidden_copy_is_still_a_disagreement() -> None:
    r = conform(_factory("forbidden_copy"), "bid-euchre", hands=6, vectors=False)
    assert r.disagreements, r.text()
    for d in r.disagreements:
        assert d.kind == "legal"
        assert all(n.allowed_by == "other" and n.action.endswith("#2") for n in d.notes)
        assert "cardspec accepts it but does not list it" not in d.message
        assert d.message.startswith("the other engine allows 'play ")


# --- 6. hands that depend on the match state ----------------------------------------------------------
def test_birdhead_hands_led_by_the_previous_loser_run_with_the_losers_in_the_start() -> None:
    """A later birdhead hand's first lead goes left of the previous hand's last loser: its start carries the
    losers (``start.previous``), so it runs with an adapter that starts hands mid-match, and is left out (as
    every hand needing a start is) for one that cannot."""
    game = Game.from_system("birdhead")
    left_out: list[str] = []
    cases = vector_cases(game, left_out=left_out)
    labels = [c.label for c in cases]
    assert left_out == [] and "vector birdhead.json seed 0 hand 1" in labels
    hand1 = next(c for c in cases if c.label == "vector birdhead.json seed 0 hand 1")
    assert hand1.start is not None and hand1.start["previous"]["losers"]
    r = conform(_factory(), "birdhead", hands=1)  # no new_hand_in_match
    assert r.ok and any(x.startswith("vector birdhead.json seed 0 hand 1: ") and "new_hand_in_match" in x
                        for x in r.left_out)
    InMatch.starts.clear()
    in_match = conform(lambda s, o: InMatch(s, o), "birdhead", hands=1)
    assert in_match.ok and in_match.left_out == [] and in_match.sources["vectors"] == len(labels)
    assert InMatch.starts and all(st["previous"]["losers"] for st in InMatch.starts)
    as_first = conform(lambda s, o: IgnoresStart(s, o), "birdhead", hands=1)  # every hand led as the first is
    assert not as_first.ok


def test_every_vector_hand_starts_as_its_match_plays_it() -> None:
    """Each birdhead vector hand: one whose first seat from its deal alone is the match's runs alone; any other
    runs with a start, from which its first seat is the match's."""
    from cardspec.conform.harness import VECTORS, _vector_data, _vector_hands

    game = Game.from_system("birdhead")
    cases = {c.label: c for c in vector_cases(game)}
    checked = 0
    for where, data in _vector_data("birdhead", VECTORS):
        for pt in data["playthroughs"]:
            for k, (deal, _, at) in enumerate(_vector_hands(game, pt)):
                case = cases[f"vector {where} seed {pt['seed']} hand {k}"]
                alone = game.new_initial_state(None, deals=[deal], hand_limit=1)
                assert (case.start is None) == (alone.cur == at.cur)
                if case.start is not None:
                    assert game.new_initial_state(None, deals=[deal], start=case.start, hand_limit=1).cur == at.cur
                checked += 1
    assert checked == len(cases) > 0


class InMatch(Selfie):
    """Selfie that can start a hand where its match stands (``new_hand_in_match``); ``ignore_start`` drops the
    start (an engine that always plays a hand as the match's first)."""

    ignore_start = False
    starts: ClassVar[list[dict[str, Any]]] = []

    def new_hand_in_match(self, deal: dict[str, Any], start: dict[str, Any]) -> None:
        self.starts.append(start)
        self.st = self.game.new_initial_state(None, deals=[deal], start=None if self.ignore_start else start,
                                              hand_limit=1)


class IgnoresStart(InMatch):
    ignore_start = True


def test_buck_euchre_3p_hands_where_a_total_forbids_dropping_need_the_match_start() -> None:
    game = Game.from_system("buck-euchre-3p")
    left_out: list[str] = []
    cases = vector_cases(game, left_out=left_out)
    assert left_out == []
    needing = [c for c in cases if c.start is not None]
    assert needing and all("'drop' only from its deal alone" in c.needs for c in needing)
    first = needing[0]
    assert (first.label, dict(first.start or {}), first.needs) == (
        "vector buck-euchre-3p.json seed 0 hand 5", {"hand": 5, "dealer": 0, "totals": [5, 17, 10],
                                                     "extra_hand": False},
        "at action 6 the legal actions of seat 0 differ: none only in its match, 'drop' only from its deal alone")
    # an adapter without new_hand_in_match: those hands are left out, and the report says why
    r = conform(_factory(), "buck-euchre-3p", hands=1)
    assert r.ok and r.sources["vectors"] == len(cases) - len(needing)
    assert r.left_out[0] == (f"{first.label}: {first.needs}; the adapter has no new_hand_in_match(deal, start) to "
                             "start it where its match stands")
    # an adapter that starts hands mid-match: every vector hand runs, each from where its match stands
    InMatch.starts = []
    r = conform(lambda s, o: InMatch(s, o), "buck-euchre-3p", hands=1)
    assert r.ok and r.left_out == [] and r.sources == {"vectors": len(cases), "seeded": 1}
    assert InMatch.starts == [dict(c.start) for c in needing if c.start is not None]
    # so the floor rule is compared: an engine that ignores the totals offers 'drop' where cardspec forbids it
    r = conform(lambda s, o: IgnoresStart(s, o), "buck-euchre-3p", hands=0)
    assert {d.label for d in r.disagreements} == {c.label for c in needing}
    d = next(x for x in r.disagreements if x.label == first.label)
    assert (d.kind, d.action_index, d.seat) == ("legal", 6, 0)
    assert d.message == "the other engine allows 'drop' that cardspec forbids (a player whose score is 5 or less " \
                        "may not drop out)"
    assert d.clause is not None and "five points or less is not allowed to drop out" in d.clause.short()
    assert d.record["start"] == {"hand": 5, "dealer": 0, "totals": [5, 17, 10], "extra_hand": False}


def test_round_schedule_hands_after_the_first_are_left_out() -> None:
    game = Game.from_system("the-card-game")
    cases = vector_cases(game)
    alone = [c for c in cases if c.start is None]
    assert alone and all(c.label.endswith(" hand 0") for c in alone)
    later = [c for c in cases if c.start is not None]
    assert [c.start["hand"] for c in later if c.start is not None][:3] == [1, 2, 3]
    assert later[0].needs == ("it is hand 1 of the match, and a round schedule gives each hand its own deal and "
                              "rules, while from its deal alone it is the match's first")
    r = conform(_factory(), "the-card-game", hands=1)
    assert r.ok and r.sources == {"vectors": len(alone), "seeded": 1} and len(r.left_out) == len(later)
    assert "left out (vector hands conform cannot start as their match plays them, or that need an adapter " \
           "starting a hand mid-match; hands that need a reshuffle no deal gives):" in r.text()
    # with an adapter that starts hands mid-match, the later rounds (more cards, other wild ranks) are compared
    r = conform(lambda s, o: InMatch(s, o), "the-card-game", hands=1)
    assert r.ok and r.left_out == [] and r.sources == {"vectors": len(cases), "seeded": 1}
    r = conform(lambda s, o: IgnoresStart(s, o), "the-card-game", hands=0)
    assert {d.label for d in r.disagreements} == {c.label for c in later}
    assert all(d.kind == "error" and d.message.startswith("the adapter failed: new_hand_in_match raised")
               for d in r.disagreements)


@pytest.mark.parametrize("system", ["euchre", "dirty-clubs", "bid-euchre"])
def test_hands_that_do_not_depend_on_the_match_are_all_kept(system: str) -> None:
    left_out: list[str] = []
    cases = vector_cases(Game.from_system(system), left_out=left_out)
    data = json.loads((Path(__file__).resolve().parents[1] / "docs" / "vectors" / f"{system}.json").read_text())
    assert left_out == [] and len(cases) == sum(len(pt["results"]["hands"]) for pt in data["playthroughs"])


class EveryCopyCombination(Selfie):
    """Lists each legal play with every choice of the held copies of its cards (birdhead's ``play 3#2 3#4``
    also as ``play 3#1 3#4``, ...), as an engine modelling the physical cards would."""

    def legal_actions(self) -> Any:
        legal = self.st.legal_action_names()
        held = self._held()
        out: set[str] = set()
        for n in legal:
            words = n.split()
            if words[0] != "play":
                out.add(n)
                continue
            choices = [[h for h in held if h.split("#")[0] == c.split("#")[0]] for c in words[1:]]
            out.update("play " + " ".join(sorted(combo, key=held.index)) for combo in itertools.product(*choices)
                       if len(set(combo)) == len(combo))
        return sorted(out)


def test_an_engine_listing_every_combination_of_copies_conforms_in_birdhead() -> None:
    extra: list[int] = []

    class Counting(EveryCopyCombination):
        def legal_actions(self) -> Any:
            out = super().legal_actions()
            extra.append(len(out) - len(self.st.legal_action_names()))
            return out

    r = conform(lambda s, o: Counting(s, o), "birdhead", hands=5)
    assert r.ok and r.hands_run == r.hands_agreeing == 5 + r.sources["vectors"], r.text()
    assert sum(1 for x in extra if x > 0) > 10  # positions where more than cardspec's list was given
