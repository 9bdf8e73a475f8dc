"""Citations checked against the source texts: every ``{doc, quote}`` of a spec must quote its document.

A spec cites a document (a file name in the sources folder) and a short verbatim quote for every
clause. :func:`check_citations` finds each citation in the spec's data and reports, with the spec
file, line and key:

* a document that is not a plain file name, or not in the sources folder;
* a quote that is not in its document (whitespace runs count as one space, as line breaks in the
  texts fall anywhere);
* a quote with an invisible or direction-changing character (zero-width spaces and joiners, the
  byte order mark, bidirectional embeddings, overrides and isolates): such a quote can look verbatim
  and not be, or hide text.

``cardspec check`` and ``cardspec verify`` run it (``--sources DIR``; by default the ``CARDSPEC_SOURCES``
folder, else ``../shared/sources`` from the working folder or from the project).

>>> import re
>>> bool(INVISIBLE.search("a\\u200bb")), bool(INVISIBLE.search("plain"))
(True, False)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .loader import spec_dir
from .spec import Spec, citations

INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
"""Characters a verbatim quote never needs: soft hyphen, zero-width and joiner characters, marks and
controls of text direction, the byte order mark."""


@dataclass(frozen=True)
class CitationProblem:
    """One citation that does not hold."""

    file: str
    line: int | None
    key: str
    message: str

    def __str__(self) -> str:
        at = f":{self.line}" if self.line else ""
        return f"{self.file}{at}: {self.key}: {self.message}"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def default_sources() -> Path | None:
    """The sources folder: ``CARDSPEC_SOURCES``, else ``../shared/sources`` from the working folder or
    from the project that holds the bundled specs; None when none exists."""
    env = os.environ.get("CARDSPEC_SOURCES")
    if env:
        return Path(env)
    for base in (Path.cwd(), spec_dir().resolve().parent):
        p = base.parent / "shared" / "sources"
        if p.is_dir():
            return p
    return None


def check_citations(spec: Spec, sources: Path) -> list[CitationProblem]:
    """Every citation of ``spec`` that does not quote its document verbatim."""
    out: list[CitationProblem] = []
    texts: dict[str, str | None] = {}
    for path, src in citations(spec.data):
        key = ".".join(str(p) for p in path)
        line = spec.loaded.line_of(path)
        doc, quote = src.get("doc"), src.get("quote")
        if not isinstance(doc, str) or not isinstance(quote, str):
            out.append(CitationProblem(spec.file, line, key, "doc and quote must be text"))
            continue
        bad = INVISIBLE.search(quote)
        if bad:
            out.append(CitationProblem(spec.file, line, key, f"the quote holds an invisible or direction-changing "
                                                              f"character U+{ord(bad.group()):04X}"))
            continue
        if not doc or "/" in doc or "\\" in doc or doc in (".", ".."):
            out.append(CitationProblem(spec.file, line, key, f"'{doc}' is not a document name"))
            continue
        if doc not in texts:
            f = sources / doc
            try:
                texts[doc] = _norm(f.read_text(encoding="utf-8")) if f.is_file() else None
            except (OSError, UnicodeDecodeError):
                texts[doc] = None
        text = texts[doc]
        if text is None:
            out.append(CitationProblem(spec.file, line, key, f"cites '{doc}', which is not a readable document in "
                                                              f"{sources}"))
        elif not _norm(quote) or _norm(quote) not in text:
            out.append(CitationProblem(spec.file, line, key, f"the quote is not in {doc}: “{quote[:120]}”"))
    return out
