"""Hostile inputs a fuzzing review found ending in a traceback, a hang or a silent acceptance; each now gets a
clear error and exit 2 (or, for a move typed in ``play``, "not accepted").

* Digits other than ASCII's: ``str.isdigit`` passes ``²`` and ``٣``; ``int`` refuses the one and reads the other
  as 3, so ``bid ²`` was a traceback and ``bid ٣ S`` replayed as ``bid 3 S``. A 5,000-digit menu number passed
  ``int``'s limit.
* ``import openspiel``: NaN or infinite returns, a line ``²``, an empty file, ``/dev/zero``.
* ``import egn``: condensed deal strings whose bits decode to an index past the deck or a table of one player.
* Devices and FIFOs given as a record or log file: ``/dev/urandom`` never ended, a FIFO blocked.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.egn.condensed import CondensedError, unpack
from cardspec.engine.actions import whole_number
from cardspec.engine.errors import InvalidActionError
from cardspec.engine.game import Game


@pytest.mark.parametrize("text", ["\u00b2", "\u0663", "\u2460", "\uff11"])
def test_a_digit_outside_ascii_is_no_number(text: str) -> None:
    assert whole_number(text) is None
    with pytest.raises(InvalidActionError, match="takes a number in the digits 0 to 9"):
        Game.from_system("bid-euchre").parse_action(f"bid {text} S")


def test_a_record_with_a_superscript_bid_is_rejected_not_a_traceback(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    first = Game.from_system("bid-euchre").new_initial_state(0).current_player()  # the seeded first bidder
    rec = {"format": "cardspec-record/1", "system": "bid-euchre", "options": {}, "seed": 0,
           "actions": [{"seat": first, "action": "bid \u00b2"}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "rejected: action 0: 'bid \u00b2': 'bid' takes a number in the digits 0 to 9" in out, out


@pytest.mark.parametrize("typed", ["\u00b2", "9" * 5000, "-1"])
def test_play_refuses_a_number_it_cannot_read(typed: str, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{typed}\nq\n"))
    assert main(["play", "euchre", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "not accepted" in out and out.rstrip().endswith("bye")


DEAL = [0, *range(21)]  # a dealer, then the 20 cards dealt and the turned card: a whole deal, no call yet


@pytest.mark.parametrize("content, message", [
    (f'{{"history": {DEAL}, "returns": [NaN, 0, 0, 0]}}\n', "returns must list 4 finite numbers"),
    (f'{{"history": {DEAL}, "returns": [Infinity, 0, 0, 0]}}\n', "returns must list 4 finite numbers"),
    ("\u00b2\n", "not an action id"),
    ("", "no history in the file"),
])
def test_import_openspiel_refuses_what_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      content: str, message: str) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["import", "openspiel", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [("MMAK_UA", "the string ends too soon"),
                                           ("IAAWQEAAhhQAAA", "a table of 1 player")])
def test_condensed_strings_that_decode_to_no_deal_are_refused(text: str, message: str) -> None:
    with pytest.raises(CondensedError, match=message):
        unpack(text, 0)


@pytest.mark.parametrize("argv", [["replay"], ["import", "openspiel"], ["import", "egn"], ["export", "egn"]])
def test_devices_and_fifos_are_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        argv: list[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # opening it to read would block: it is refused before
    for path in ("/dev/urandom", str(fifo)):
        assert main([*argv, path]) == 2
        assert "not a regular file" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs /proc (Linux)")
@pytest.mark.parametrize("argv", [["replay"], ["export", "egn"]])
def test_a_read_that_fails_midway_names_the_file(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """/proc/self/mem is a regular file whose reads fail with an I/O error: the error names it."""
    assert main([*argv, "/proc/self/mem"]) == 2
    assert "cannot read /proc/self/mem: Input/output error" in capsys.readouterr().err


def test_an_integer_option_in_other_digits_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """int("٣") is 3: an option value typed in Arabic-Indic digits was taken silently."""
    from cardspec.engine.options import parse_value
    from cardspec.engine.spec import load

    decls = load("bid-euchre").option_decls
    name = next(n for n, d in decls.items() if d.type == "int")
    with pytest.raises(Exception, match="must be an integer"):
        parse_value(decls[name], "\u0663")
    assert main(["simulate", "bid-euchre", "-n", "1", "--option", f"{name}=\u0663"]) == 2
    assert "must be an integer" in capsys.readouterr().err
