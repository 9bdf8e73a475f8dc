"""The generated documents are up to date with the specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from cardspec.cli import main
from cardspec.docs import LOCK, input_digest, rulebook, stale_docs
from cardspec.engine.spec import available, load


def test_generated_docs_are_up_to_date() -> None:
    """The lock names this package and these specs, and every document is as generated."""
    stale = stale_docs(ROOT / "docs")
    assert not stale, f"run `cardspec docs --write` (stale: {stale})"


@pytest.mark.parametrize("sid", list(available()))
def test_rulebooks_regenerate_identically(sid: str) -> None:
    """The cheap part regenerated in full: each rulebook is exactly what its spec gives."""
    assert (ROOT / "docs" / "rules" / f"{sid}.md").read_text(encoding="utf-8") == rulebook(load(sid))


def _fake_docs(root: Path) -> None:
    """A tiny generated tree with a correct lock, without the minutes of a real generation."""
    import hashlib

    (root / "a.md").write_text("alpha\n", encoding="utf-8")
    lock = {"format": "cardspec-docs-lock/1", "inputs": input_digest(),
            "files": {"a.md": hashlib.sha256(b"alpha\n").hexdigest()}}
    (root / LOCK).write_text(json.dumps(lock), encoding="utf-8")


def test_docs_check_reports_an_edited_file(tmp_path: Path) -> None:
    _fake_docs(tmp_path)
    assert main(["docs", "--root", str(tmp_path)]) == 0
    (tmp_path / "a.md").write_text("edited\n", encoding="utf-8")
    assert main(["docs", "--root", str(tmp_path)]) == 1


def test_docs_check_reports_changed_inputs_and_a_missing_lock(tmp_path: Path) -> None:
    _fake_docs(tmp_path)
    lock = json.loads((tmp_path / LOCK).read_text(encoding="utf-8"))
    lock["inputs"] = "0" * 64
    (tmp_path / LOCK).write_text(json.dumps(lock), encoding="utf-8")
    assert any("changed since" in s for s in stale_docs(tmp_path))
    (tmp_path / LOCK).unlink()
    assert main(["docs", "--root", str(tmp_path)]) == 1


def test_every_ambiguity_is_in_the_register() -> None:
    text = (ROOT / "docs" / "ambiguities.md").read_text(encoding="utf-8")
    for sid in available():
        for a in load(sid).ambiguities:
            assert f"`{a.id}`" in text
            for reading in a.readings:
                assert f"`{reading}`" in text
