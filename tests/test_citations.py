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
