"""Spec errors a reviewer found accepted or badly reported: ids and values given twice, a bad value in an
option map, ``extends`` errors, a target end's target of 0.

Each case writes an edited copy of a bundled spec and checks the error names the file, the line and the key
(the line is the one the key sits on in the written file), and that ``cardspec check FILE`` exits 2.
"""

from __future__ import annotations

import copy
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from cardspec.cli import main
from cardspec.engine.errors import SpecError
from cardspec.engine.loader import cut, load_yaml_text
from cardspec.engine.spec import available, load

Edit = Callable[[dict[str, Any]], None]


def raw(system: str) -> dict[str, Any]:
    """The bundled spec's data as its file holds it."""
    data: dict[str, Any] = yaml.safe_load(available()[system].read_text(encoding="utf-8"))
    return data


class _NoAliases(yaml.SafeDumper):
    """Dumps an object met twice twice over: specs may hold no anchors or aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def edited(tmp_path: Path, system: str, edit: Edit, name: str = "edited.yaml") -> Path:
    data = copy.deepcopy(raw(system))
    edit(data)
    return write(tmp_path / name, data)


def spec_error(path: Path) -> SpecError:
    with pytest.raises(SpecError) as info:
        load(str(path))
    return info.value


def line_of(path: Path, key: str) -> int | None:
    """The line of ``key`` (dotted) in the file at ``path``."""
    loaded = load_yaml_text(path.read_text(encoding="utf-8"), str(path))
    return loaded.line_of(tuple(int(p) if p.isdigit() else p for p in key.split(".")))


def assert_check_exits_2(path: Path, capsys: pytest.CaptureFixture[str], key: str, *, command: str = "check",
                         file: Path | None = None) -> str:
    """``cardspec COMMAND FILE`` exits 2 with one error line naming the file (or ``file``) and the key, and no
    traceback."""
    capsys.readouterr()
    args = [command, str(path), "-n", "1"] if command == "check" else [command, str(path)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardspec: error: {file or path}:"), err
    assert f"key '{key}'" in err and "Traceback" not in err, err
    return err


def second_ambiguity_reuses_first_id(d: dict[str, Any]) -> None:
    d["ambiguities"][6]["id"] = d["ambiguities"][3]["id"]


def second_phase_reuses_first_id(d: dict[str, Any]) -> None:
    d["phases"][3]["id"] = d["phases"][0]["id"]


def two_tables_share_an_id(d: dict[str, Any]) -> None:
    d["scoring"]["tables"][1]["id"] = d["scoring"]["tables"][0]["id"]


DUPLICATES: list[tuple[str, str, Edit, str, str]] = [
    # (system, case, edit, key, words of the message)
    ("euchre", "register id", second_ambiguity_reuses_first_id, "ambiguities.6.id",
     "'farmers-hand-timing' is used twice (first by ambiguities.3, line "),
    ("euchre", "phase id", second_phase_reuses_first_id, "phases.3.id", "'calling' is used twice (first by phases.0"),
    ("hand-and-foot", "table id", two_tables_share_an_id, "scoring.tables.1.id",
     "'books' is used twice (first by scoring.tables.0"),
    ("euchre", "enum value", lambda d: d["options"]["all_pass"]["values"].append("redeal"),
     "options.all_pass.values", "'redeal' is listed twice"),
    ("euchre", "enum values with one text", lambda d: d["options"].update(
        clash={"type": "enum", "values": [1, "1"], "default": 1, "description": "two values, one text"}),
     "options.clash.values", "1 and '1' are the same value '1'"),
    ("euchre", "plain ranking", lambda d: d["ranking"]["plain"].append("9"), "ranking.plain", "'9' is listed twice"),
    ("euchre", "table input values",
     lambda d: d["scoring"]["tables"][0]["inputs"].update(extra={"type": "enum", "values": ["a", "b", "a"]}),
     "scoring.tables.0.inputs.extra.values", "'a' is listed twice"),
]


@pytest.mark.parametrize("system, case, edit, key, words", DUPLICATES, ids=[c[1] for c in DUPLICATES])
def test_a_duplicate_is_a_spec_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str, case: str,
                                     edit: Edit, key: str, words: str) -> None:
    path = edited(tmp_path, system, edit)
    exc = spec_error(path)
    assert exc.key == key and words in exc.detail, str(exc)
    assert exc.file == str(path) and exc.line == line_of(path, key), str(exc)
    assert_check_exits_2(path, capsys, key)


def test_the_duplicate_enum_value_no_longer_adds_an_option_set(tmp_path: Path) -> None:
    """The reviewer's case: a value listed twice gave one option set too many; the spec is now refused, and
    the same spec without the duplicate has one option set per value."""
    assert len(load("euchre").option_sets()) == len({str(o) for o in load("euchre").option_sets()})
    exc = spec_error(edited(tmp_path, "euchre", lambda d: d["options"]["all_pass"]["values"].append("redeal")))
    assert exc.key == "options.all_pass.values"


def bad_face_up(d: dict[str, Any]) -> None:
    won = d["zones"][3]
    assert won["id"] == "won" and won["visibility"]["$option"] == "won_tricks"
    won["visibility"]["map"]["face_up"] = "allx"


@pytest.mark.parametrize("command", ["check", "rules"])
def test_a_bad_value_in_an_option_map_is_named_at_load(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       command: str) -> None:
    """The deepest schema error, not 'is not valid under any of the given schemas' cut off; the key is the
    mapped entry's, and every command that loads the spec refuses it."""
    path = edited(tmp_path, "euchre", bad_face_up)
    key = "zones.3.visibility.map.face_up"
    exc = spec_error(path)
    assert exc.key == key and exc.line == line_of(path, key)
    assert exc.detail == "with options won_tricks=face_up: 'allx' is not one of hidden, owner, all, count, top"
    err = assert_check_exits_2(path, capsys, key, command=command)
    assert "closest" not in err and "given sch " not in err


def test_a_bad_value_under_the_default_is_named_at_its_key(tmp_path: Path) -> None:
    """Without options: the value, not the whole zone, and the allowed values."""
    path = edited(tmp_path, "euchre", lambda d: d["zones"][1].update(visibility="allx"))
    exc = spec_error(path)
    assert exc.key == "zones.1.visibility" and exc.line == line_of(path, "zones.1.visibility")
    assert exc.detail == "'allx' is not one of hidden, owner, all, count, top"


def test_long_messages_are_cut_between_words() -> None:
    text = "is not valid under any of the given schemas"
    assert cut(text, 100) == text
    short = cut(text, 30)
    assert short.endswith("...") and len(short) <= 30 and text.startswith(short[:-3]) and short[-4] != " "
    assert text[len(short) - 3] == " "  # the cut falls before a word, not inside one


def test_extends_names_the_folder_it_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bundled euchre exists, but extends reads the spec's own folder: the message says which folder."""
    path = tmp_path / "ext.yaml"
    path.write_text("id: euchre-to-5\nextends: euchre\ntitle: Euchre to 5\n", encoding="utf-8")
    exc = spec_error(path)
    assert exc.key == "extends" and exc.line == 2
    assert f"extends names 'euchre', but euchre.yaml does not exist in {tmp_path}" in exc.detail
    assert "spec's own folder" in exc.detail
    assert_check_exits_2(path, capsys, "extends")


def test_an_error_in_an_inherited_key_names_the_parent_file(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The child moves the target option's default to 5; the parent's register entry for that option, decided
    at 10, now differs from the default: the error is named in the parent file, at the entry's line there."""
    parent = tmp_path / "euchre.yaml"
    shutil.copyfile(available()["euchre"], parent)
    child = tmp_path / "ext.yaml"
    child.write_text("id: euchre-to-5\nextends: euchre\ntitle: Euchre to 5\noptions:\n  target:\n    type: int\n"
                     "    min: 1\n    max: 100\n    default: 5\n    description: to 5\n", encoding="utf-8")
    entry = next(i for i, a in enumerate(raw("euchre")["ambiguities"]) if a["option"] == "target")
    key = f"ambiguities.{entry}"
    exc = spec_error(child)
    assert exc.key == key and exc.file == str(parent) and exc.line == line_of(parent, key), str(exc)
    assert "differs from the default '5'" in exc.detail and "inherited from euchre.yaml" in exc.detail
    assert_check_exits_2(child, capsys, key, file=parent)


def test_an_error_in_the_childs_own_key_stays_in_the_child(tmp_path: Path) -> None:
    parent = tmp_path / "euchre.yaml"
    shutil.copyfile(available()["euchre"], parent)
    child = tmp_path / "ext.yaml"
    child.write_text("id: euchre-x\nextends: euchre\ntitle: X\nranking:\n  plain: ['9', '9']\n", encoding="utf-8")
    exc = spec_error(child)
    assert exc.file == str(child) and exc.key == "ranking.plain" and exc.line == 5
    assert "inherited" not in exc.detail


def test_a_target_end_needs_a_target_of_at_least_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def zero(d: dict[str, Any]) -> None:
        assert d["match"]["end"]["kind"] == "target"
        d["match"]["end"]["target"] = 0

    path = edited(tmp_path, "bird-dog-11", zero)
    exc = spec_error(path)
    assert exc.key == "match.end.target" and exc.line == line_of(path, "match.end.target")
    assert "0 is less than the minimum of 1" in exc.detail
    assert_check_exits_2(path, capsys, "match.end.target")


def test_a_countdown_still_counts_down_to_zero() -> None:
    end = load("buck-euchre").data["match"]["end"]
    assert end["kind"] == "countdown" and end["target"] == 0


def test_an_option_mapping_a_target_end_to_zero_is_refused(tmp_path: Path) -> None:
    def zero_option(d: dict[str, Any]) -> None:
        d["options"]["target"]["min"] = 0

    exc = spec_error(edited(tmp_path, "euchre", zero_option))
    assert exc.key == "match.end.target" and exc.detail.startswith("with options target=0: ")


def test_a_row_range_outside_the_inputs_domain_is_refused(tmp_path: Path) -> None:
    def out_of_domain(d: dict[str, Any]) -> None:
        t = d["scoring"]["tables"][0]
        assert t["inputs"]["tricks"]["max"] == 5
        t["rows"].append({"when": {"tricks": [0, 9]}, "then": 0, "source": t["rows"][0]["source"]})

    exc = spec_error(edited(tmp_path, "euchre", out_of_domain))
    assert "tricks" in exc.key and "[0, 9]" in exc.detail
