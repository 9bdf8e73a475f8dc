"""Lost data and unnamed errors a fuzzing review found in the commands that write files, and in ``extends``.

* An output written over an input (``simulate x.yaml --records x.yaml``, ``import egn g.egn -o g.egn``,
  ``export egn r.jsonl -o r.jsonl``) destroyed it, exit 0; refused now, exit 2, the file untouched.
* A ``simulate`` that stopped (an engine error) emptied an existing records file; records are now written under
  a temporary name and renamed at the end, so the file is as it was.
* A write error on a full disk named no file (``No space left on device:``).
* ``spec_sha256`` covered the spec's own bytes only: a parent it ``extends`` could change under a record.
* ``extends``: a long chain was called a cycle, a 300-character name reached the file system, a folder named
  by ``extends`` gave a message without the spec's line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.engine.spec import _load_path, available

EUCHRE = available()["euchre"].read_text(encoding="utf-8")


def family(tmp_path: Path, parent_text: str = EUCHRE) -> tuple[Path, Path]:
    parent = tmp_path / "parent.yaml"
    parent.write_text(parent_text.replace("id: euchre\n", "id: parent\n", 1), encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("id: child\nextends: parent\ntitle: Child\n", encoding="utf-8")
    return parent, child


@pytest.mark.parametrize("which", ["child", "parent"])
def test_records_over_the_spec_or_a_file_it_extends_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str) -> None:
    parent, child = family(tmp_path)
    target = child if which == "child" else parent
    before = target.read_bytes()
    assert main(["simulate", str(child), "-n", "1", "--records", str(target)]) == 2
    assert "writing records there would destroy it" in capsys.readouterr().err
    assert target.read_bytes() == before


def test_an_empty_records_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euchre", "-n", "1", "--records", ""]) == 2
    assert "--records needs a file name" in capsys.readouterr().err


def test_conversions_over_their_input_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recs = tmp_path / "r.jsonl"
    assert main(["simulate", "euchre", "-n", "1", "--records", str(recs)]) == 0
    capsys.readouterr()
    before = recs.read_bytes()
    assert main(["export", "egn", str(recs), "-o", str(recs)]) == 2
    assert "writing there would destroy it" in capsys.readouterr().err and recs.read_bytes() == before
    egn = tmp_path / "g.egn"
    assert main(["export", "egn", str(recs), "-o", str(egn)]) == 0
    text = egn.read_bytes()
    assert main(["import", "egn", str(egn), "-o", str(egn)]) == 2
    assert "writing there would destroy it" in capsys.readouterr().err and egn.read_bytes() == text
    hist = tmp_path / "h.jsonl"
    hist.write_text(json.dumps([0, *range(21)]) + "\n", encoding="utf-8")
    assert main(["import", "openspiel", str(hist), "-o", str(hist)]) == 2
    assert "writing there would destroy it" in capsys.readouterr().err


def test_a_simulation_that_stops_leaves_the_records_file_as_it_was(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    keep = tmp_path / "keep.jsonl"
    assert main(["simulate", "euchre", "-n", "3", "--records", str(keep)]) == 0
    before = keep.read_bytes()
    gap = EUCHRE.replace("        - when: {maker: false, tricks: [3, 5]}\n          then: 2\n",
                         "        - when: {maker: false, tricks: [4, 5]}\n          then: 2\n")
    assert gap != EUCHRE
    spec = tmp_path / "gap.yaml"
    spec.write_text(gap.replace("id: euchre\n", "id: gap\n", 1), encoding="utf-8")
    assert main(["simulate", str(spec), "-n", "20", "--records", str(keep)]) == 2
    assert "no row matches" in capsys.readouterr().err
    assert keep.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gap.yaml", "keep.jsonl"]  # no temporary file left


def test_a_new_records_file_is_complete_and_byte_identical_to_one_written_in_place(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["simulate", "euchre", "-n", "3", "--records", str(a)]) == 0
    b.write_text("old", encoding="utf-8")  # replaced whole, not appended to
    assert main(["simulate", "euchre", "-n", "3", "--records", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes() and len(a.read_bytes().splitlines()) == 3


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_disk_names_the_records_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euchre", "-n", "2", "--records", "/dev/full"]) == 2
    assert "/dev/full" in capsys.readouterr().err


def test_a_parents_edit_makes_its_childs_records_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parent, child = family(tmp_path)
    recs = tmp_path / "c.jsonl"
    assert main(["simulate", str(child), "-n", "1", "--records", str(recs)]) == 0
    capsys.readouterr()
    assert main(["replay", str(recs)]) == 0
    parent.write_text(parent.read_text(encoding="utf-8") + "# an edit\n", encoding="utf-8")
    _load_path.cache_clear()  # a new process, as a later `cardspec replay` is: specs are read once per process
    assert main(["replay", str(recs)]) == 2
    out = capsys.readouterr().out
    assert "malformed: spec_sha256" in out and f"with the files it extends: {parent}" in out


def test_extends_limits_are_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "c0.yaml").write_text(EUCHRE.replace("id: euchre\n", "id: c0\n", 1), encoding="utf-8")
    for i in range(1, 11):
        (tmp_path / f"c{i}.yaml").write_text(f"id: c{i}\nextends: c{i - 1}\ntitle: C{i}\n", encoding="utf-8")
    assert main(["rules", str(tmp_path / "c8.yaml")]) == 0
    capsys.readouterr()
    assert main(["rules", str(tmp_path / "c10.yaml")]) == 2
    err = capsys.readouterr().err
    assert "extends chain deeper than 8 files (from c10.yaml)" in err and "cycle" not in err
    (tmp_path / "long.yaml").write_text(f"id: long\nextends: {'b' * 300}\ntitle: L\n", encoding="utf-8")
    assert main(["rules", str(tmp_path / "long.yaml")]) == 2
    assert "long.yaml:2: key 'extends'" in capsys.readouterr().err
    (tmp_path / "dir.yaml").mkdir()
    (tmp_path / "q.yaml").write_text("id: q\nextends: dir\ntitle: Q\n", encoding="utf-8")
    assert main(["rules", str(tmp_path / "q.yaml")]) == 2
    err = capsys.readouterr().err
    assert "q.yaml:2: key 'extends'" in err and "not a regular file" in err
