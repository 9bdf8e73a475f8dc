"""Documents generated from the specs: the rulebook of each system and the ambiguity register.

``cardspec docs --write`` writes ``docs/rules/<id>.md``, ``docs/ambiguities.md`` (with the
scenario records), ``docs/verification.md`` and the vectors, and ``docs/generated.lock``: the
digest of the specs and package that generated them and of each document. ``cardspec docs``
checks the lock (quick); ``cardspec docs --full`` regenerates everything and compares.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
from contextvars import ContextVar
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from .engine.errors import CardspecError
from .engine.options import key_of
from .engine.spec import Ambiguity, Spec, available, load

SOURCE_KEYS = ("source",)
_DECIDED: ContextVar[dict[str, tuple[str, str]] | None] = ContextVar("decided", default=None)
"""While a rulebook renders: each option that a register entry decides, with the entry's id and the link to
the entry (in docs/ambiguities.md for a bundled spec, further down the page for a spec file)."""


def entry_title(system: str, entry_id: str, house_rule: bool) -> str:
    """The heading text of a register entry, qualified by its system: the register holds every system's
    entries, and entries of different systems share ids (``penalty``, ``deal-packets``, ...).

    >>> entry_title("dirty-clubs", "penalty", False)
    'dirty-clubs: `penalty`'
    """
    return f"{system}: `{entry_id}`" + (" (house rule)" if house_rule else "")


def entry_anchor(system: str, entry_id: str, house_rule: bool) -> str:
    """The anchor of a register entry's heading (:func:`entry_title`) in docs/ambiguities.md: the id that
    GitHub (and Pandoc, Python-Markdown, VS Code) derive from the heading text, unique in the register
    since it starts with the system's id.

    >>> entry_anchor("euchre", "dealer-discard", True), entry_anchor("dirty-clubs", "penalty", False)
    ('euchre-dealer-discard-house-rule', 'dirty-clubs-penalty')
    """
    text = entry_title(system, entry_id, house_rule)
    return re.sub(r"[^a-z0-9 _-]", "", text.lower()).replace(" ", "-")


def _src(d: Any) -> str:
    return f'{d["doc"]}: {_quote(d)}'


def _quote(d: Any) -> str:
    """A citation's quote, and the register entry that decides the clause, if one does."""
    return f'“{d["quote"]}”' + (f" (as register entry `{d['register']}` decides)" if d.get("register") else "")


def _value(v: Any) -> str:
    if isinstance(v, dict):
        if "$option" in v:
            m = v.get("map")
            text = f"option `{v['$option']}`" + (f" mapped {m}" if m else "")
            entry = (_DECIDED.get() or {}).get(v["$option"])
            return f"*decided* ([`{entry[0]}`]({entry[1]})): {text}" if entry else text
        if "$round" in v:
            return f"per round: `{v['$round']}` (see the schedule)"
        return "{" + ", ".join(f"{k}: {_value(x)}" for k, x in v.items()
                               if not k.endswith("source")) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def _is_clause(v: Any) -> bool:
    """A nested clause (rendered as a sub-section with its sources): a mapping that cites a source or holds one."""
    return isinstance(v, dict) and "$option" not in v and "$round" not in v and any(
        k.endswith("source") or _is_clause(x) for k, x in v.items())


def _clause(title: str, d: dict[str, Any], level: str = "##") -> list[str]:
    out = [f"{level} {title}", ""]
    nested = []
    for k, v in d.items():
        if k.endswith("source") or k in ("rows", "tables", "rounds"):
            continue
        if _is_clause(v):
            nested.append(k)
            out.append(f"- **{k}**: see below")
            continue
        out.append(f"- **{k}**: {_value(v)}")
    for k, v in d.items():
        if k.endswith("source"):
            label = "Source" if k == "source" else f"Source ({k.removesuffix('_source')})"
            out.append(f"- {label}: {_src(v)}")
    out.append("")
    if isinstance(d.get("rounds"), list) and d["rounds"] and all(
            isinstance(r, dict) and not _is_clause(r) for r in d["rounds"]):
        out += _schedule_table(d["rounds"])
        if "back_down" in d:
            out += ["After the last row, `back_down` (`without_repeat`) plays the rows again from the last but one "
                    "to the first, or (`with_repeat`) from the last to the first; `none` stops.", ""]
    deeper = level + "#" if len(level) < 6 else level
    for k in nested:
        out += _clause(f"{title} › {k}", d[k], deeper)
    return out


def _schedule_table(rows: list[dict[str, Any]]) -> list[str]:
    """The per-round parameters, one row per round in play order (before any way back down)."""
    params = list(rows[0])
    out = ["| round | " + " | ".join(params) + " |", "|" + "---|" * (len(params) + 1)]
    for i, r in enumerate(rows):
        out.append(f"| {i + 1} | " + " | ".join(_value(r.get(p, "")) for p in params) + " |")
    out.append("")
    return out


def _zones(items: list[Any]) -> list[str]:
    out = ["## Zones", "", "| zone | owner | order | visibility | description | source |", "|---|---|---|---|---|---|"]
    for z in items:
        choices = [(f" (option `{z['$option']}` = {k})", v) for k, v in z["map"].items()] if "$option" in z \
            else [("", z)]
        for label, x in choices:
            vis = _value(x["visibility"]) + (f" {x['top']}" if "top" in x else "") + \
                (f", shows {', '.join(x['shows_ranks'])}" if "shows_ranks" in x else "")
            out.append(f"| `{x['id']}`{label} | {x['owner']} | {x['order']} | {vis} | {x.get('description', '')} | "
                       f"{_quote(x['source'])} |")
    out.append("")
    return out


def _table(t: dict[str, Any]) -> list[str]:
    inputs = list(t["inputs"])
    out = [f"### Table `{t['id']}` (hit policy: {_value(t.get('hit', 'unique'))})", "",
           f"Source: {_src(t['source'])}", ""]
    out.append("| " + " | ".join([*inputs, "result", "source"]) + " |")
    out.append("|" + "---|" * (len(inputs) + 2))
    for r in t["rows"]:
        cells = [_value(r["when"].get(i, "any")) for i in inputs]
        then = r["then"]
        if isinstance(then, dict) and "per" in then:
            then = " + ".join([str(then.get("add", 0))] + [f"{c}×{f}" for f, c in then["per"].items()])
        cells += [_value(then), _quote(r["source"])]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    return out


def rulebook(spec: Spec) -> str:
    """The rulebook of one system, each clause with its source; each rule the text leaves open is marked
    *decided*, with its register entry: a link into docs/ambiguities.md for a bundled spec; for a spec
    file (``cardspec rules my-game.yaml``), whose entries no generated page holds, the entries follow
    the rules on the same page."""
    at = "../ambiguities.md#" if spec.bundled else "#"
    token = _DECIDED.set({a.option: (a.id, at + entry_anchor(spec.id, a.id, a.house_rule))
                          for a in spec.ambiguities})
    try:
        return _rulebook(spec)
    finally:
        _DECIDED.reset(token)


def _rulebook(spec: Spec) -> str:
    d = spec.data
    decided = _DECIDED.get() or {}
    made = "Generated from the spec by `cardspec docs --write`; do not edit." if spec.bundled else \
        f"Generated from {spec.file} by `cardspec rules`."
    out = [f"# {d['title']} (`{d['id']}`)", "", d.get("summary", ""), "", made, "",
           "Each rule is either **stated** by the text, under the quote its clause cites (*Source*), or "
           "***decided*** where the text is silent, unclear or contradicts itself: then it is an option, and "
           "its register entry gives the question, every reading and the reasons.", ""]
    if d.get("zones"):
        out += _zones(d["zones"])
    for key in ("players", "deck", "schedule", "deal", "ranking", "hand_value"):
        if key in d:
            out += _clause(key.replace("_", " ").capitalize(), d[key])
    out += ["## Phases", ""]
    for i, ph in enumerate(d["phases"]):
        out += _clause(f"{i + 1}. `{ph['id']}` ({ph['component']})", ph, "###")
        for j, r in enumerate(ph.get("rounds", [])):
            out += _clause(f"Round {j + 1}", r, "####")
    out += _clause("Scoring", d["scoring"])
    for t in d["scoring"]["tables"]:
        out += _table(t)
    out += _clause("Match", {k: v for k, v in d["match"].items() if k != "end"})
    out += _clause("Match end", d["match"]["end"], "###")
    out += ["## Options", "", "| option | type | values | default | decided by | description |",
            "|---|---|---|---|---|---|"]
    for name, o in d["options"].items():
        vals = ", ".join(key_of(v) for v in o.get("values", [])) or f"{o.get('min')}..{o.get('max')}" \
            if o["type"] != "bool" else "true, false"
        entry = decided.get(name)
        by = f"[`{entry[0]}`]({entry[1]})" if entry else ""
        out.append(f"| `{name}` | {o['type']} | {vals} | {key_of(o['default'])} | {by} | {o['description']} |")
    out += ["", "## Ambiguities", ""]
    if spec.bundled:
        out += [f"{len(d['ambiguities'])} registered; see [the register](../ambiguities.md#{d['id']}).", ""]
    else:
        out += [f"{len(d['ambiguities'])} registered, each a playable option (`cardspec verify --materiality "
                f"{spec.file}` plays deals under each reading).", ""]
        for a in spec.ambiguities:
            out += _entry(spec.id, a, "###")
    return "\n".join(out)


MATERIALITY_DEALS = 100
MATERIALITY_MATCHES = 20


def _ambiguities_head() -> list[str]:
    return ["# Ambiguity register", "",
           "Every place where a source text is silent, contradicts itself or is defective, with the",
           "readings, the decision and why. Each reading is a value of a spec option, so every reading",
           "is playable: `cardspec simulate SYSTEM --option NAME=VALUE`.", "",
           "Under each, a **distinguishing scenario** found by search through the engine (same seed, same",
           "choices under both readings; both records are in `docs/scenarios/` and replay with",
           "`cardspec replay`), and the **materiality**: the share of seeded deals (first hands, "
           f"{MATERIALITY_DEALS}) and of seeded",
           f"matches ({MATERIALITY_MATCHES}) whose outcome changes when rule bots play under each reading.",
           "", "Generated from the specs by `cardspec docs --write`; do not edit.", ""]


def ambiguities_doc(specs: list[Spec], files: dict[str, str] | None = None) -> str:
    """The ambiguity register of every system, with distinguishing scenarios and materiality.

    Scenario records are added to ``files`` (relative path -> content) when given.
    """
    out = _ambiguities_head()
    for spec in specs:
        out += _ambiguity_section(spec, files)
    return "\n".join(out)


def _entry(system: str, a: Ambiguity, level: str) -> list[str]:
    """One register entry: its heading (the anchor of :func:`entry_anchor`), quote, question, readings,
    decision and reasons."""
    kind = ["**House rules outside the text.** The text states its rule; the other readings are rules "
            "other engines play, kept so that their logs can be audited under their own rules.", ""] \
        if a.house_rule else []
    out = [f"{level} {entry_title(system, a.id, a.house_rule)}", "",
           f"> “{a.source.quote}” ({a.source.doc})", "", *kind,
           f"**Question.** {a.question}", "", f"**Readings** (option `{a.option}`"
           + (f", with {', '.join(f'{k}={key_of(v)}' for k, v in a.with_options.items())}"
              if a.with_options else "") + "):", ""]
    for val, text in a.readings.items():
        mark = " **(decision)**" if val == a.decision else ""
        out.append(f"- `{val}`{mark}: {text}")
    return [*out, "", f"**Why.** {a.reasons}", ""]


def _ambiguity_section(spec: Spec, files: dict[str, str] | None) -> list[str]:
    """One system's part of the register (its scenario records go into ``files``)."""
    from .engine.record import dumps
    from .verification.scenarios import distinguish, materiality

    out = [f"## {spec.id}", ""]
    for a in spec.ambiguities:
        out += _entry(spec.id, a, "###")
        for val in a.readings:
            if val == a.decision:
                continue
            sc = distinguish(spec, a, val)
            if sc is None:
                out.append(f"- `{val}` against `{a.decision}`: no distinguishing scenario found in the "
                           "search budget (300 seeded matches, 100,000 actions).")
            else:
                paths = []
                for reading, rec in sc.records.items():
                    side = "decided" if reading == a.decision else "other"
                    rel = f"scenarios/{spec.id}/{a.id}.{val}.{side}.json"
                    paths.append(f"[{reading}]({rel})")
                    if files is not None:
                        files[rel] = dumps(rec) + "\n"
                out.append(f"- `{val}` against `{a.decision}`: {sc.kind} differs at action "
                           f"{sc.action_index} ({sc.detail}); records: {', '.join(paths)}.")
            m = materiality(spec, a, val, MATERIALITY_DEALS, MATERIALITY_MATCHES)
            out.append(f"  Materiality: {m.deal_share:.0%} of deals and {m.match_share:.0%} of match "
                       "winners change.")
        out.append("")
    return out


def verification_doc(specs: list[Spec]) -> str:
    """What ``cardspec verify`` proves, per system and option set (timings left out: they vary)."""
    out = _verification_head()
    for spec in specs:
        out += _verification_section(spec)
    return "\n".join(out + _VERIFICATION_TAIL)


_VERIFICATION_TAIL = ["Rows under an option set other than the defaults are shown only where the result differs.", ""]


def _verification_head() -> list[str]:
    return ["# Verification report", "",
           "What `cardspec verify` establishes for every bundled spec under every option set it runs",
           "(`Spec.option_sets`: the defaults; each option moved alone to each of its other values, where",
           "for a numeric option that is its least and greatest value only; and each reading of a register",
           "entry together with the options it is registered with). Statuses: **proved**",
           "(z3 found the negation unsatisfiable, or an exhaustive check passed), **counterexample**",
           "(with a witness; fails verification), **flagged** (cannot be proved and says why, or a",
           "counterexample that a registered ambiguity accounts for), **timeout** (never a proof).",
           "Run `cardspec verify --json` for the same with timings.", "",
           "The card-movement, hand-length and fact proofs are built only from what each component",
           "declares (`Component.declarations()`, `engine/components/declared.py`): a component that",
           "declares nothing is a failing `no proof for <kind> '<id>'`, and a fact that a table reads",
           "but nothing declares is a failing `no proof for fact '<name>'`.", "",
           "A scoring table must be complete (a row for every reachable situation) and deterministic:",
           "under the `unique` hit policy no two rows match one situation at all (the engine refuses it",
           "even where their results agree); under `first` and `most_specific` no two rows the policy",
           "cannot tell apart give different results. Where a register entry's option sets the hit",
           "policy, the overlaps it resolves are flagged as that entry's, and so is a row dead under a",
           "reading the entry did not decide; a row dead under the decided reading is a counterexample.", "",
           "The table, score-bound and termination proofs range over the fact model",
           "(`verification/facts.py`): every combination of the declared facts that their links allow.",
           "It over-approximates real deals, which is what makes a bound proved over it hold for every",
           "deal; so the values a `score bounds` row lists as achievable are the model's, and may include",
           "scores no deal gives (Hand and Foot's model lets a hand's points take any whole number in",
           "their range, where real card values step by 5).", "",
           "Generated by `cardspec docs --write`; do not edit.", ""]


def _verification_section(spec: Spec) -> list[str]:
    """One system's part of the verification report."""
    from .verification.report import verify

    out: list[str] = []
    findings = verify(spec)
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.status] = counts.get(f.status, 0) + 1
    out += [f"## {spec.id}", "", ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ".", ""]
    out += ["| property | option set | status | detail |", "|---|---|---|---|"]
    seen: set[tuple[str, str, str]] = set()
    for f in findings:
        label = ", ".join(f"{k}={v}" for k, v in f.options.items()) or "defaults"
        detail = f.detail
        if f.witness:
            detail += (" — " if detail else "") + "witness: " + ", ".join(
                f"{k}={v}" for k, v in f.witness.items())
        key = (f.property, f.status, detail)
        if label != "defaults" and key in seen:
            continue  # same result as under the defaults
        seen.add(key)
        out.append(f"| {f.property} | {label} | {f.status} | {detail.replace('|', '/')} |")
    out.append("")
    return out


def _system_docs(system: str) -> tuple[list[str], list[str], dict[str, str]]:
    """Everything generated for one system: its register section, its verification section, and its
    files (rulebook, scenario records, vectors). A pure function of the system's spec and the package."""
    from .vectors import dumps as vector_dumps
    from .vectors import vectors as system_vectors

    spec = load(system)
    files = {f"rules/{spec.id}.md": rulebook(spec)}
    amb = _ambiguity_section(spec, files)
    ver = _verification_section(spec)
    files[f"vectors/{spec.id}.json"] = vector_dumps(system_vectors(spec.id))
    return amb, ver, files


def expected_docs(jobs: int = 1) -> dict[str, str]:
    """Relative path → content of every generated document (and scenario record).

    ``jobs`` > 1 generates the systems in that many processes; the result is the
    same, byte for byte (each system's part is a pure function, assembled in order).
    """
    systems = available()
    if jobs > 1 and len(systems) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(jobs, len(systems))) as pool:
            parts = list(pool.map(_system_docs, systems))
    else:
        parts = [_system_docs(s) for s in systems]
    files: dict[str, str] = {}
    amb, ver = _ambiguities_head(), _verification_head()
    for a, v, f in parts:
        files.update((k, f[k]) for k in f if k.startswith("rules/"))
        amb += a
        ver += v
    files["ambiguities.md"] = "\n".join(amb)
    files["verification.md"] = "\n".join(ver + _VERIFICATION_TAIL)
    for _a, _v, f in parts:
        files.update((k, f[k]) for k in f if not k.startswith("rules/"))
    return files


LOCK = "generated.lock"
"""The lock file beside the generated documents: the digest of what generated them, and of each of them."""
_INPUT_PACKAGES = ("cardspec", "cardspec.engine", "cardspec.engine.components", "cardspec.verification",
                   "cardspec.spec")


def input_digest() -> str:
    """SHA-256 over every file that generation reads: the package's Python sources, specs and schemas.

    Files are named by package and relative path, so an installed copy and a
    checkout of the same commit give the same digest.
    """
    import importlib

    h = hashlib.sha256()
    for name in _INPUT_PACKAGES:
        root = Path(str(importlib.import_module(name).__file__)).parent
        for f in sorted(root.iterdir()):
            if f.is_file() and f.suffix in (".py", ".yaml", ".json"):
                h.update(f"{name}/{f.name}\0".encode())
                h.update(f.read_bytes())
                h.update(b"\0")
        schema = root / "schema"
        if name == "cardspec.spec" and schema.is_dir():
            for f in sorted(schema.glob("*.json")):
                h.update(f"{name}/schema/{f.name}\0".encode())
                h.update(f.read_bytes())
    return h.hexdigest()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


MAX_DOC_BYTES = 16 << 20
"""The most bytes of a generated document (or of the lock) read: far above the largest (under 1 MB)."""


def _read_doc(p: Path, limit: int = MAX_DOC_BYTES) -> tuple[str | None, str]:
    """The text of a generated document as ``Path.read_text`` gives it (newlines translated), reading at most
    ``limit`` + 1 bytes; or None and why it cannot be the document (larger than ``limit`` bytes, not UTF-8).
    A file that cannot be opened raises :class:`OSError` (the command line names it, exit 2)."""
    st = p.stat()
    if not stat.S_ISREG(st.st_mode):  # a device or a pipe: never opened (it may never end, or block)
        return None, "not a regular file"
    if st.st_size > limit:
        return None, f"larger than {limit} bytes"
    with p.open("rb") as fh:
        raw = fh.read(limit + 1)
    if len(raw) > limit:  # it grew, or the size the system gives is not its length
        return None, f"larger than {limit} bytes"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte {exc.start})"
    return text.replace("\r\n", "\n").replace("\r", "\n"), ""


def _same(p: Path, text: str) -> bool:
    """Whether the file ``p`` holds ``text`` (as ``read_text`` reads it), reading no more than ``text`` needs
    (twice its bytes, for a file written with CRLF newlines) + 1."""
    return _read_doc(p, 2 * len(text.encode("utf-8")) + 2)[0] == text


def _inside(rel: str) -> bool:
    """Whether the lock's entry ``rel`` names a file under the docs folder: relative, with no ``..``."""
    parts = PurePosixPath(rel).parts
    return bool(parts) and not PurePosixPath(rel).is_absolute() and ".." not in parts and "\\" not in rel \
        and not PureWindowsPath(rel).drive


def write_docs(root: Path, jobs: int = 1) -> list[str]:
    """Regenerate every document under ``root``, write the changed ones and the lock; return what changed."""
    changed = []
    files = expected_docs(jobs)
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.exists() and not p.is_file():
            raise CardspecError(f"{p}: not a regular file; a generated document is written there")
        if not p.exists() or not _same(p, text):
            p.write_text(text, encoding="utf-8")
            changed.append(rel)
    lock = {"format": "cardspec-docs-lock/1", "inputs": input_digest(),
            "files": {rel: _digest(text) for rel, text in sorted(files.items())}}
    text = json.dumps(lock, indent=1, sort_keys=True) + "\n"
    if not (root / LOCK).exists() or not _same(root / LOCK, text):
        (root / LOCK).write_text(text, encoding="utf-8")
        changed.append(LOCK)
    return changed


def stale_docs(root: Path, full: bool = False, jobs: int = 1) -> list[str]:
    """What is out of date under ``root`` (empty: up to date).

    The quick check (the default) reads the lock: the specs and the package must be
    byte for byte the ones that generated the documents, and every document must
    still have the content it was generated with (none edited by hand, none
    missing). ``full`` regenerates everything and compares, which takes minutes.
    """
    if full:
        return [rel for rel, text in expected_docs(jobs).items()
                if not (root / rel).is_file() or not _same(root / rel, text)]
    try:
        text, _ = _read_doc(root / LOCK)
        if text is None:
            raise ValueError(LOCK)
        lock = json.loads(text)
        files = dict(lock["files"])
        inputs = str(lock["inputs"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return [f"{LOCK} (missing or unreadable)"]
    outside = next((rel for rel in files if not isinstance(rel, str) or not _inside(rel)), None)
    if outside is not None:  # never read: the lock names only documents under the docs folder
        raise CardspecError(f"{root / LOCK}: files: {json.dumps(outside)[:200]} is not a document under {root} "
                            "(a lock names its documents by relative paths, without '..')")
    out = []
    if inputs != input_digest():
        out.append(f"{LOCK} (the specs or the package changed since the documents were generated)")
    for rel, digest in files.items():
        p = root / rel
        if not p.is_file():
            out.append(rel)
            continue
        doc, why = _read_doc(p)
        if doc is None:
            out.append(f"{rel} ({why})")
        elif _digest(doc) != digest:
            out.append(rel)
    return out
