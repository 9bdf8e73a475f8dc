"""Every link between the generated documents reaches one heading, and the right one.

The register (docs/ambiguities.md) holds the entries of every system, and systems share entry ids
(``penalty``, ``deal-packets``, ``highest-bid``, ...): an entry's anchor must name its system, or a
rulebook's link lands on another system's entry (the first heading of that name).

The documents are rendered in memory by the generator's own functions; the register's distinguishing
scenarios and materiality (minutes of search and play, and no part of its headings or links) are stubbed.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import PurePosixPath
from types import SimpleNamespace
from typing import Any

import pytest

from cardspec import docs as gen
from cardspec.engine.spec import Spec, available, load

LINK = re.compile(r"\]\(([^)\s]*)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"""<a\s+(?:id|name)\s*=\s*["']([^"']+)["']""")


def _slug(text: str) -> str:
    """The id GitHub gives a heading (github-slugger): the text as rendered (no link targets, code marks or
    HTML), lower-cased, punctuation other than ``-`` and ``_`` dropped, each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]*>", "", text)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _headings(doc: str) -> list[tuple[int, str, str]]:
    """(level, text, slug) of each heading outside fenced code."""
    out, fenced = [], False
    for line in doc.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if m:
            out.append((len(m.group(1)), m.group(2), _slug(m.group(2))))
    return out


def _anchors(doc: str) -> Counter[str]:
    """How many times each anchor occurs in a document: heading ids (before GitHub's ``-1`` suffixes for
    repeats, so a repeated id counts twice) and explicit ``<a id=...>`` / ``<a name=...>`` anchors."""
    return Counter([s for _, _, s in _headings(doc)] + HTML_ANCHOR.findall(doc))


def _links(doc: str) -> list[str]:
    return LINK.findall(doc)


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    """Relative path under docs/ -> content: every rulebook and the register, as the generator writes them."""
    specs = [load(s) for s in available()]
    nothing = SimpleNamespace(deal_share=0.0, match_share=0.0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("cardspec.verification.scenarios.distinguish", lambda *a, **k: None)
        mp.setattr("cardspec.verification.scenarios.materiality", lambda *a, **k: nothing)
        register = gen.ambiguities_doc(specs)
    return {"ambiguities.md": register, **{f"rules/{s.id}.md": gen.rulebook(s) for s in specs}}


def _target(doc: str, link: str) -> tuple[str, str]:
    """The document (relative to docs/) and the anchor a link in ``doc`` names."""
    path, _, anchor = link.partition("#")
    if not path:
        return doc, anchor
    parts: list[str] = []
    for part in (PurePosixPath(doc).parent / path).parts:
        if part == "..":
            assert parts, f"{doc}: {link} leaves docs/"
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts), anchor


def _check_links(docs: dict[str, str]) -> int:
    """Assert that each anchored link in ``docs`` names a document among them and an anchor that occurs
    there exactly once; return how many links were checked."""
    checked = 0
    anchors = {rel: _anchors(text) for rel, text in docs.items()}
    for rel, text in docs.items():
        for link in _links(text):
            if "#" not in link or "://" in link:
                continue
            target, anchor = _target(rel, link)
            assert target in docs, f"{rel}: {link} names {target}, not a generated document"
            n = anchors[target][anchor]
            assert n == 1, f"{rel}: {link}: #{anchor} occurs {n} times in {target}"
            checked += 1
    return checked


def test_every_anchored_link_reaches_exactly_one_anchor(rendered: dict[str, str]) -> None:
    assert _check_links(rendered) > 100  # every decided rule of every system links its entry


def _owner(register: str, anchor: str) -> tuple[str, str]:
    """The system section (``## id``) holding the register's heading of ``anchor``, and that heading's text."""
    section = ""
    for level, text, slug in _headings(register):
        if level == 2:
            section = text
        if slug == anchor:
            return section, text
    raise AssertionError(f"no heading #{anchor} in the register")


def test_each_rulebook_link_lands_on_its_own_systems_entry(rendered: dict[str, str]) -> None:
    """A link from system S's rulebook to entry E (or to the register) lands in S's section, on E."""
    register = rendered["ambiguities.md"]
    for sid in available():
        for m in re.finditer(r"\[([^\]]*)\]\(\.\./ambiguities\.md#([^)]*)\)", rendered[f"rules/{sid}.md"]):
            label, anchor = m.groups()
            section, heading = _owner(register, anchor)
            assert section == sid, f"{sid}: {m.group(0)} lands in {section}'s section ({heading})"
            if label.startswith("`"):
                assert label in heading, f"{sid}: {m.group(0)} lands on {heading}"


@pytest.mark.parametrize(("system", "entry"), [
    ("dirty-clubs", "penalty"), ("dirty-clubs", "highest-bid"), ("bird-dog-21", "deal-packets"),
    ("buck-euchre-3p", "won-tricks-face-down"), ("birdhead", "dealer-rotation")])
def test_a_shared_entry_id_reaches_its_own_system(rendered: dict[str, str], system: str, entry: str) -> None:
    """Entry ids other systems also register: the rulebook's link reaches this system's entry, not the
    first of that name (buck-euchre's ``penalty`` comes before dirty-clubs')."""
    sharing = [s for s in available() if s != system and any(a.id == entry for a in load(s).ambiguities)]
    assert sharing, f"{entry} is no longer shared; pick another"
    links = re.findall(rf"\[`{re.escape(entry)}`\]\(\.\./ambiguities\.md#([^)]*)\)", rendered[f"rules/{system}.md"])
    assert links, f"{system}'s rulebook links no {entry} entry"
    for anchor in links:
        assert _anchors(rendered["ambiguities.md"])[anchor] == 1
        section, heading = _owner(rendered["ambiguities.md"], anchor)
        assert (section, f"`{entry}`" in heading) == (system, True), (anchor, section, heading)


def test_a_spec_file_rulebook_links_its_entries_on_the_same_page(tmp_path: Any) -> None:
    """``cardspec rules my-game.yaml``: the entries follow the rules on the page, and the links reach them."""
    sid = "dirty-clubs"
    p = tmp_path / f"{sid}.yaml"
    shutil.copyfile(available()[sid], p)
    spec: Spec = load(str(p))
    assert not spec.bundled
    page = gen.rulebook(spec)
    assert _check_links({"rules/my-game.md": page}) >= len(spec.ambiguities)
    for a in spec.ambiguities:
        assert _anchors(page)[gen.entry_anchor(spec.id, a.id, a.house_rule)] == 1
