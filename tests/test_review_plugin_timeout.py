"""The pytest plugin bounds a hanging engine as ``cardspec conform`` does: ``--cardspec-hand-timeout SECONDS``
(or ``hand_timeout=`` in the test) is the time an adapter's calls in one hand may take in all; a hand over it is
an error disagreement, and the test run goes on. Time limits are read in the ASCII digits only, as every numeric
flag is (``float()`` alone reads ``٣`` as 3)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.flags import ascii_seconds

ADAPTER = '''
import time
from cardspec.engine.game import Game

class Hangs:
    def __init__(self, system, options):
        self.game = Game.from_system(system, options)
    def new_hand(self, deal):
        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)
    def legal_actions(self):
        if len(self.st.history) >= 2:
            time.sleep(600)
        return self.st.legal_action_names()
    def current_seat(self):
        return self.st.cur
    def apply(self, action):
        self.st.apply_name(action)
    def hand_over(self):
        return self.st.is_terminal()
    def results(self):
        r = self.st.hand_results[-1]
        return {"trick_winners": r["trick_winners"], "scores": r["scores"]}

def factory(system, options):
    return Hangs(system, options)
'''

TESTS = '''
def test_from_the_command_line(cardspec_conform):
    report = cardspec_conform("dirty-clubs", hands=1, vectors=False)
    assert not report.ok
    print("MESSAGE", report.disagreements[0].message)

def test_in_the_test(cardspec_conform):
    report = cardspec_conform("dirty-clubs", hands=1, vectors=False, hand_timeout=0.4)
    assert not report.ok
    print("MESSAGE", report.disagreements[0].message)
'''

LATE = "legal_actions() did not return within the time limit of {} s for the adapter's calls in one hand"


def _pytest(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "hanging_adapter.py").write_text(ADAPTER)
    (tmp_path / "test_engine.py").write_text(TESTS)
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "cardspec.pytest_plugin", "-p", "no:cacheprovider",
           str(tmp_path / "test_engine.py"), "--cardspec-adapter", f"{tmp_path / 'hanging_adapter.py'}:factory",
           *argv]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)


def test_plugin_hand_timeout_from_the_command_line_and_from_the_test(tmp_path: Path) -> None:
    began = time.monotonic()
    run = _pytest(tmp_path, "--cardspec-hand-timeout", "0.6")
    assert time.monotonic() - began < 120
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout
    messages = [line for line in run.stdout.splitlines() if "MESSAGE" in line]
    assert len(messages) == 2
    assert LATE.format("0.6") in messages[0]  # the command line's limit
    assert LATE.format("0.4") in messages[1]  # the test's own wins over it


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e3", "\u0663", "abc"])
def test_plugin_refuses_a_time_limit_that_is_not_a_positive_ascii_number(tmp_path: Path, value: str) -> None:
    run = _pytest(tmp_path, f"--cardspec-hand-timeout={value}")
    assert run.returncode == 4, run.stdout + run.stderr  # pytest's usage error: no test ran
    assert "--cardspec-hand-timeout" in run.stderr
    assert "must be a positive number of seconds written in the digits 0 to 9" in run.stderr


@pytest.mark.parametrize("value", ["\u0663", "1e3", "\uff15"])
def test_conform_hand_timeout_is_read_in_the_ascii_digits(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "--adapter", "x.py:f", "dirty-clubs", "-n", "1", f"--hand-timeout={value}"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == f"cardspec: error: --hand-timeout wants a positive number of seconds, got '{value}'"


@pytest.mark.parametrize(("text", "value"), [("60", 60.0), ("0.5", 0.5), (".25", 0.25), ("3.", 3.0)])
def test_ascii_seconds_reads_decimals(text: str, value: float) -> None:
    assert ascii_seconds(text) == value


@pytest.mark.parametrize("text", ["", ".", "0.0", "-0.5", "+1", " 1", "1 ", "1_000", "0x10"])
def test_ascii_seconds_refuses(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="positive number of seconds"):
        ascii_seconds(text)
