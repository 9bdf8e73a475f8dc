"""Option values that require others (``options.NAME.requires``): refused alone, with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.engine.errors import OptionError, SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.spec import load


def test_a_value_that_requires_another_is_refused_alone() -> None:
    with pytest.raises(OptionError, match=r"'go_out_melds=two' requires 'stock_exhausted=end_round'"):
        Game.from_system("the-card-game", {"go_out_melds": "two"})
    g = Game.from_system("the-card-game", {"go_out_melds": "two", "stock_exhausted": "end_round"})
    assert g.options["go_out_melds"] == "two"


def test_the_cli_exits_2_on_a_missing_requirement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "the-card-game", "-n", "1", "--option", "go_out_melds=two"]) == 2
    assert "requires 'stock_exhausted=end_round'" in capsys.readouterr().err


def test_option_sets_never_break_a_requirement() -> None:
    for sid in ("the-card-game",):
        for opts in load(sid).option_sets():
            Game.from_system(sid, opts)  # raises OptionError if a set breaks a requirement


@pytest.mark.parametrize(("requires", "message"), [
    ("{three: {stock_exhausted: end_round}}", "requires names 'three', which is not one of its values"),
    ("{two: {stock_exhausted: never}}", "requires stock_exhausted=never, which is no value"),
    ("{two: {nothing: end_round}}", "requires nothing=end_round, which is no value"),
])
def test_a_requirement_naming_no_value_is_a_spec_error(tmp_path: Path, requires: str, message: str) -> None:
    text = (spec_dir() / "the-card-game.yaml").read_text()
    old = "    requires: {two: {stock_exhausted: end_round}}"
    assert old in text
    p = tmp_path / "t.yaml"
    p.write_text(text.replace(old, f"    requires: {requires}"))
    with pytest.raises(SpecError, match=message):
        load(str(p))
