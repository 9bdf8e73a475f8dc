"""Every clause cites its source, and every quote is verbatim in that source."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardspec.engine.spec import available, load

SPECS = list(available())


def _sources(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, str]]]:
    if isinstance(node, dict):
        if set(node) == {"doc", "quote"}:
            yield path, node
            return
        for k, v in node.items():
            yield from _sources(v, f"{path}.{k}" if path else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _sources(v, f"{path}.{i}")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("system", SPECS)
def test_every_quote_is_verbatim_in_its_document(system: str, sources: Path) -> None:
    cited = list(_sources(load(system).data))
    assert len(cited) >= 10, "a spec cites its source for every clause"
    texts: dict[str, str] = {}
    for path, src in cited:
        doc = sources / src["doc"]
        assert doc.is_file(), f"{system}:{path}: cites missing document {src['doc']}"
        text = texts.setdefault(src["doc"], _norm(doc.read_text(encoding="utf-8")))
        assert _norm(src["quote"]) in text, \
            f"{system}:{path}: quote not found in {src['doc']}: {src['quote']!r}"


@pytest.mark.parametrize("system", SPECS)
def test_every_clause_carries_a_source(system: str) -> None:
    data = load(system).data
    for key in ("players", "deck", "deal"):
        assert "source" in data[key], f"{system}: {key} has no source"
    for i, ph in enumerate(data["phases"]):
        assert "source" in ph or all("source" in r for r in ph.get("rounds", [])), f"phase {i}"
    for t in data["scoring"]["tables"]:
        assert "source" in t and all("source" in r for r in t["rows"]), f"table {t['id']}"
    assert "source" in data["match"]["end"]
    for a in data["ambiguities"]:
        assert a["source"]["quote"], a["id"]


def test_a_wrong_quote_is_caught(sources: Path) -> None:
    """The check itself can fail: a quote edited by one word is not in the text."""
    src = next(s for _, s in _sources(load("euchre").data))
    text = _norm((sources / src["doc"]).read_text(encoding="utf-8"))
    assert _norm(src["quote"]) in text
    assert _norm(src["quote"] + " zebra") not in text


# --- the tool's own citation check (engine/citations.py, `check` and `verify`) ---------------------
def _spec_with(tmp_path: Path, old: str, new: str, name: str = "cited.yaml") -> Path:
    from cardspec.engine.loader import spec_dir

    text = (spec_dir() / "euchre.yaml").read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / name
    p.write_text(text.replace("id: euchre", "id: cited-euchre", 1).replace(old, new, 1), encoding="utf-8")
    return p


def test_the_bundled_specs_cite_verbatim_by_the_tools_check(sources: Path) -> None:
    from cardspec.engine.citations import check_citations

    for system in SPECS:
        assert check_citations(load(system), sources) == []


@pytest.mark.parametrize("old,new,what", [
    ("Thus 24 cards", "Thus 25 cards", "is not in 004"),
    ("doc: 004_945a3021da002f83.txt, quote: \"all 9", "doc: 999_missing.txt, quote: \"all 9", "not a readable"),
    ("Thus 24 cards", "Thus 24\u200b cards", "U+200B"),
    ("Thus 24 cards", "Thus \u202e24 cards", "U+202E"),
])
def test_a_wrong_citation_is_named_with_its_line(tmp_path: Path, sources: Path, old: str, new: str,
                                                   what: str) -> None:
    from cardspec.engine.citations import check_citations

    p = _spec_with(tmp_path, old, new)
    problems = check_citations(load(str(p)), sources)
    assert len(problems) == 1 and what in problems[0].message, problems
    assert problems[0].key == "deck.source" and problems[0].line is not None
    line = p.read_text(encoding="utf-8").splitlines()[problems[0].line - 1]
    assert new.split()[-1] in line or "source" in line


def test_a_document_path_is_refused_at_load(tmp_path: Path) -> None:
    from cardspec.engine.errors import SpecError

    p = _spec_with(tmp_path, "doc: 004_945a3021da002f83.txt, quote: \"all 9",
                   "doc: ../sources/004_945a3021da002f83.txt, quote: \"all 9")
    with pytest.raises(SpecError, match=r"deck\.source\.doc"):
        load(str(p))


def test_check_and_verify_fail_on_a_made_up_quote(tmp_path: Path, sources: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from cardspec.cli import main

    p = _spec_with(tmp_path, "Thus 24 cards", "Thus 99 cards")
    assert main(["check", str(p), "-n", "1", "--no-verify", "--sources", str(sources)]) == 1
    assert "Thus 99 cards" in capsys.readouterr().err
    assert main(["verify", str(p), "--sources", str(sources)]) == 1
    assert main(["check", "euchre", "-n", "1", "--no-verify", "--sources", str(sources)]) == 0
    assert main(["check", "euchre", "-n", "1", "--no-verify", "--sources", str(tmp_path / "none")]) == 2


def test_a_user_spec_with_a_bundled_id_is_recorded_by_path_and_hash(tmp_path: Path) -> None:
    """A spec that copies a bundled id is never judged by the bundled one."""
    from cardspec.engine.audit import audit
    from cardspec.engine.game import Game
    from cardspec.engine.loader import spec_dir
    from cardspec.engine.record import record_of

    text = (spec_dir() / "euchre.yaml").read_text(encoding="utf-8")
    p = tmp_path / "euchre.yaml"
    p.write_text(text.replace("target: {$option: target}", "target: 3", 1), encoding="utf-8")
    st = Game(load(str(p))).new_initial_state(1)
    import random
    rng = random.Random(1)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    assert max(st.hand_results[-1]["totals"]) >= 3  # the user's target, not the bundled 10
    rec = record_of(st)
    assert rec["system"] == str(p.resolve()) and len(rec["spec_sha256"]) == 64
    assert audit("t: ", rec).verdict == "accepted"
    p.write_text(text, encoding="utf-8")  # the file changes: the record no longer names it
    from cardspec.engine import spec as spec_mod
    spec_mod._load_path.cache_clear()
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "spec_sha256"
