"""The generated documents are up to date with the specs."""

from __future__ import annotations

from conftest import ROOT

from cardspec.cli import main
from cardspec.docs import expected_docs


def test_generated_docs_are_up_to_date() -> None:
    stale = [rel for rel, text in expected_docs().items()
             if not (ROOT / "docs" / rel).is_file()
             or (ROOT / "docs" / rel).read_text(encoding="utf-8") != text]
    assert not stale, f"run `cardspec docs --write` (stale: {stale})"


def test_docs_check_reports_a_stale_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert main(["docs", "--write", "--root", str(tmp_path)]) == 0
    assert main(["docs", "--root", str(tmp_path)]) == 0
    (tmp_path / "ambiguities.md").write_text("edited\n", encoding="utf-8")
    assert main(["docs", "--root", str(tmp_path)]) == 1


def test_every_ambiguity_is_in_the_register() -> None:
    text = expected_docs()["ambiguities.md"]
    from cardspec.engine.spec import available, load

    for sid in available():
        for a in load(sid).ambiguities:
            assert f"`{a.id}`" in text
            for reading in a.readings:
                assert f"`{reading}`" in text
