"""Result tables written to a file or a pipe: ``check`` and ``verify`` wrapped them at rich's 80 columns, so an
option set such as ``round_3_others=as_round_1`` was folded mid-name and two rows read alike (a new user's
review). Piped, a table now takes the width its cells need (up to ``PIPED_WIDTH``); ``COLUMNS`` still rules."""

from __future__ import annotations

import pytest

from cardspec.cli import PIPED_WIDTH, print_verify, table_console

LONG = {"round_3_others": "as_round_1", "round_2_passing": "left_and_keep", "pickup_exhausted": "reshuffle_once"}


def rows() -> list[dict[str, object]]:
    return [{"property": "every round ends within its action bound", "system": "hand-and-foot", "options": LONG,
             "status": "proved", "seconds": 0.25}]


def test_a_piped_table_keeps_each_option_set_on_one_line(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert table_console().width == PIPED_WIDTH  # pytest's captured output is no terminal
    print_verify(rows())
    out = capsys.readouterr().out
    label = ", ".join(f"{k}={v}" for k, v in LONG.items())
    assert any(label in line for line in out.splitlines()), out
    assert max(len(line) for line in out.splitlines()) > 80  # wider than rich's default would allow


def test_columns_still_sets_the_width(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    assert table_console().width == 60
    print_verify(rows())
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= 60
