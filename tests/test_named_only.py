"""Systems a source names without rules: the registry ``spec/_named-only.yaml`` (Bid Euchre 102).

003: "Under the title Bid Euchre 102, Natty Bumppo has published a four-player variation of the
above where players are allowed to exchange some of their cards with some or all of the four undealt
cards." That is all the text says of it: no deal, bidding, play or scoring. It is listed with its
quote and the reason, and every command that needs rules refuses it (exit 2, one line).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.engine.errors import CardspecError, SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.record import dumps, record_of
from cardspec.engine.spec import NAMED_ONLY_FILE, NamedOnlyError, available, load, named_only, read_named_only

ID = "bid-euchre-102"


def test_bid_euchre_102_is_registered_by_name_only() -> None:
    reg = named_only()
    assert ID in reg and ID not in available()
    entry = reg[ID]
    assert entry.title == "Bid Euchre 102" and entry.source.doc == "003_da241fe61ee7e3bf.txt"
    assert "no rules" in entry.reason


def test_the_registry_is_not_a_spec() -> None:
    """A file named ``_*.yaml`` in the spec folder is a registry: never listed, loaded or checked as a spec."""
    assert (spec_dir() / NAMED_ONLY_FILE).is_file()
    assert not any(sid.startswith("_") for sid in available())


def test_the_quote_is_verbatim_in_its_document(sources: Path) -> None:
    for entry in named_only().values():
        text = re.sub(r"\s+", " ", (sources / entry.source.doc).read_text(encoding="utf-8"))
        assert re.sub(r"\s+", " ", entry.source.quote).strip() in text, entry.id


def test_list_shows_it_with_its_quote_and_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    line = next(r for r in capsys.readouterr().out.splitlines() if r.startswith(ID))
    assert "named only" in line and "Under the title Bid Euchre 102" in line and "no rules" in line
    assert main(["list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    row = rows[ID]
    assert row["named_only"] is True and row["rules"] is False
    assert row["source"]["doc"] == "003_da241fe61ee7e3bf.txt" and "Natty Bumppo" in row["source"]["quote"]
    assert row["reason"] == named_only()[ID].reason
    assert "euchre" in rows and "named_only" not in rows["euchre"]


@pytest.mark.parametrize("argv", [
    ["play", ID], ["simulate", ID, "-n", "1"], ["check", ID, "-n", "1"], ["verify", ID], ["rules", ID],
    ["simulate", ID, "--json"],
])
def test_commands_that_need_rules_refuse_it(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardspec: error:")
    assert f"'{ID}' (Bid Euchre 102) is registered by name only" in err and "no rules" in err
    assert "003_da241fe61ee7e3bf.txt" in err


def test_a_record_naming_it_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    st = Game.from_system("euchre").new_initial_state(1)
    st.apply(st.legal_actions()[0])
    rec = json.loads(dumps(record_of(st)))
    rec["system"] = ID
    f = tmp_path / "r.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    assert main(["replay", str(f)]) == 2
    assert "registered by name only" in capsys.readouterr().err


def test_the_api_raises_a_cardspec_error() -> None:
    with pytest.raises(NamedOnlyError, match="registered by name only") as info:
        Game.from_system(ID)
    assert isinstance(info.value, CardspecError) and info.value.entry.id == ID
    with pytest.raises(NamedOnlyError):
        load(ID)


# --- the registry is validated ----------------------------------------------------------------------------
GOOD = """systems:
  - id: made-up-game
    title: Made Up
    source: {doc: 003_da241fe61ee7e3bf.txt, quote: "Bid Euchre 102"}
    reason: no rules given
"""


def _read(tmp_path: Path, text: str) -> dict[str, object]:
    p = tmp_path / "_named-only.yaml"
    p.write_text(text, encoding="utf-8")
    return dict(read_named_only(p))


def test_a_valid_registry_reads(tmp_path: Path) -> None:
    assert list(_read(tmp_path, GOOD)) == ["made-up-game"]
    assert read_named_only(tmp_path / "absent.yaml") == {}


@pytest.mark.parametrize(("text", "key", "needle"), [
    (GOOD.replace("    reason: no rules given\n", "    reason: no rules given\n    rules: []\n"),
     "systems.0.rules", "allowed keys"),
    (GOOD.replace("    reason: no rules given\n", ""), "systems.0", "'reason' is a required property"),
    (GOOD.replace("made-up-game", "Made Up!"), "systems.0.id", "does not match"),
    (GOOD + GOOD.replace("systems:\n", ""), "systems.1.id", "registered twice"),
    (GOOD.replace("made-up-game", "euchre"), "systems.0.id", "has a spec file (euchre.yaml)"),
    (GOOD.replace("systems:", "systemz:"), "systemz", "allowed keys"),
])
def test_a_bad_registry_is_a_spec_error_naming_file_and_key(tmp_path: Path, text: str, key: str,
                                                             needle: str) -> None:
    with pytest.raises(SpecError) as info:
        _read(tmp_path, text)
    err = info.value
    assert err.file.endswith("_named-only.yaml") and err.key == key and err.line is not None
    assert needle in str(err)


def test_hostile_yaml_in_the_registry_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="anchors and aliases"):
        _read(tmp_path, "systems: &a []\nother: *a\n")
