"""The ``cardspec`` command line: list, rules, play, simulate, replay, check, docs.

Every command takes ``--json``. Bad input exits with code 2 and one line on
stderr naming what is wrong and where; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from .engine.bots import BOTS
from .engine.errors import CardspecError
from .engine.game import Game
from .engine.invariants import checked_match
from .engine.loader import is_one_of, spec_dir
from .engine.options import key_of, parse_value
from .engine.spec import Spec, available, load, named_only
from .flags import ascii_int
from .parallel import BACKENDS, check_backend, ordered

if TYPE_CHECKING:
    from rich.console import Console


class UsageError(CardspecError):
    """Bad command-line usage."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _options(spec: Spec, pairs: Sequence[str]) -> dict[str, Any]:
    decls = spec.option_decls
    out: dict[str, Any] = {}
    for p in pairs:
        if "=" not in p:
            raise UsageError(f"--option wants NAME=VALUE, got '{p}'")
        k, v = p.split("=", 1)
        if k not in decls:
            raise UsageError(f"unknown option '{k}' for {spec.id}; known: {', '.join(decls) or 'none'}")
        if k in out:
            raise UsageError(f"--option {k} is given twice: give each option once")
        out[k] = parse_value(decls[k], v)
    return out


def _label(opts: dict[str, Any]) -> str:
    return ", ".join(f"{k}={key_of(v)}" for k, v in opts.items()) or "defaults"


def _clean(text: str) -> str:
    """Text for the terminal: control and format characters from a record (escape sequences, right-to-left
    overrides) are shown escaped, never sent to the terminal.

    >>> _clean("seat 1: 'play \\x1b[31mAS'")
    "seat 1: 'play \\\\x1b[31mAS'"
    """
    return "\n".join(line if line.isprintable() else
                     "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in line)
                     for line in text.split("\n"))


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    if args.json:
        print(json.dumps(data, indent=1, sort_keys=True))
    else:
        print(text)


# --- commands ------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
    rows = []
    for sid in available():
        s = load(sid)
        rows.append({"id": sid, "title": s.title, "options": list(s.option_decls),
                     "ambiguities": len(s.ambiguities)})
    named = [{"id": n.id, "title": n.title, "named_only": True, "rules": False, "reason": n.reason,
              "source": {"doc": n.source.doc, "quote": n.source.quote}} for n in named_only().values()]
    _emit(args, rows + named, "\n".join([f"{r['id']:<16} {r['title']}" for r in rows] + [
        f"{n.id:<16} {n.title} (named only, no rules: {n.reason} [{n.source.short()}])"
        for n in named_only().values()]))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .docs import rulebook

    spec = load(args.system)
    _emit(args, spec.data, rulebook(spec))
    return 0


def _progress(enabled: bool) -> Any:
    from rich.progress import Progress

    return Progress(disable=not enabled, transient=True)


def cmd_simulate(args: argparse.Namespace) -> int:
    from . import simulate

    spec = load(args.system)
    game = Game(spec, _options(spec, args.option))
    _warn(game)
    if args.n < 1 or args.n > 1_000_000:
        raise UsageError("-n must be between 1 and 1000000")
    if args.deals and args.records is None:
        raise UsageError("--deals lists each hand's deal in the records: it needs --records FILE")
    if args.records is not None:
        if not args.records:
            raise UsageError("--records needs a file name")
        clash = is_one_of(args.records, spec.loaded.files())
        if clash is not None:
            raise UsageError(f"--records {args.records} is the spec file {clash}: writing records there would "
                             "destroy it")
    check_backend(args.backend, args.workers, args.ray_address)
    t0 = time.perf_counter()
    try:
        with _progress(sys.stderr.isatty() and not args.json) as prog:
            task = prog.add_task(f"simulating {spec.id}", total=args.n)
            totals = simulate.run(game, args.system, args.seed, args.n, args.bot, args.records, args.workers,
                                  advance=lambda: prog.advance(task), backend=args.backend,
                                  address=args.ray_address, fast=args.fast, deals=args.deals)
    except OSError as exc:
        if args.records and exc.filename == args.records:
            raise UsageError(f"cannot write {args.records}: {exc.strerror}") from None
        raise
    secs = time.perf_counter() - t0
    stats = {"system": spec.id, "options": {k: game.options[k] for k in sorted(game.options)},
             "matches": args.n, "first_seed": args.seed, "bot": args.bot,
             "mean_hands": totals.hands / args.n, "mean_actions": totals.actions / args.n,
             "thrown_in_hands": totals.thrown,
             "win_share_by_seat": {str(s): round(totals.wins[s] / args.n, 4) for s in range(game.num_players)},
             "win_rate_by_seat": {str(s): round(totals.matches_won[s] / args.n, 4)
                                  for s in range(game.num_players)},
             "seconds": round(secs, 3)}
    shared = "a team's win counts for each partner" if any(len(t) > 1 for t in game.teams) else \
        "a shared win counts for each winner"
    matches = "1 match" if args.n == 1 else f"{args.n} matches"
    procs = min(args.workers, args.n)  # no more processes start than there are matches
    text = [f"{spec.id}: {matches} ({_label(_options(spec, args.option))}), bot={args.bot}",
            f"  mean hands {stats['mean_hands']:.2f}, mean actions {stats['mean_actions']:.1f}, "
            f"thrown-in hands {totals.thrown}",
            f"  matches won by seat ({shared}): "
            + ", ".join(f"{k}: {v:.3f}" for k, v in stats["win_rate_by_seat"].items()),
            f"  {secs:.2f} s" + (f" on Ray, {args.workers} tasks at a time" if args.backend == "ray" else
                                 f" in {procs} worker processes" if procs > 1 else "")
            + (f"; records in {args.records}" if args.records else "")]
    _emit(args, stats, "\n".join(text))
    return 0


VERDICT_FLUSH_LINES = 1000
VERDICT_FLUSH_SECONDS = 0.2


def cmd_replay(args: argparse.Namespace) -> int:
    """One verdict per record, then a summary; exit 0 when every record is accepted, 1 when one is
    rejected or unfinished, 2 when one cannot be read as a record (after every verdict is out)."""
    from .engine.audit import Summary, audit_file

    summary = Summary()
    verdicts = []
    first_bad = None
    broken: CardspecError | None = None  # the file stops being readable (a truncated gzip stream)
    lines: list[str] = []  # verdict lines not yet written: written together, at most a fifth of a second late
    due = time.monotonic() + VERDICT_FLUSH_SECONDS
    stdin = args.file == "-" and os.path.exists("/dev/stdin")  # its lines are named /dev/stdin:N
    try:
        for v in audit_file(Path("/dev/stdin") if stdin else Path(args.file)):
            summary.add(v)
            if v.verdict == "malformed" and first_bad is None:
                first_bad = v
            if args.json:
                verdicts.append(v.as_json())
                continue
            lines.append(_clean(v.line()))
            if len(lines) >= VERDICT_FLUSH_LINES or time.monotonic() >= due:
                print("\n".join(lines), flush=True)
                lines.clear()
                due = time.monotonic() + VERDICT_FLUSH_SECONDS
    except CardspecError as exc:  # every verdict before the break is still written, then the summary and it
        broken = exc
    # what is written does not depend on when the lines above were flushed: every verdict read is written here
    if lines:
        print("\n".join(lines))
    total = sum(summary.counts.values())
    if total == 0:
        raise broken if broken is not None else CardspecError(f"{args.file}: no records")
    if args.json:
        doc: dict[str, Any] = {"verdicts": verdicts, "summary": summary.as_json()}
        if broken is not None:  # the file broke off after these records (the error also goes to stderr, exit 2)
            doc["error"] = str(broken)
        print(json.dumps(doc, sort_keys=True))
    elif total > 1 or broken is not None:
        print(_clean(summary.text()))
    if broken is not None:
        raise CardspecError(_clean(f"{broken} (after {total} {'record' if total == 1 else 'records'}; the "
                                   "verdicts above are those of the records before it)"))
    if first_bad is not None:
        err = str(first_bad.error)
        text = err if err.startswith(first_bad.where.rstrip(": ")) else first_bad.where + err
        n = summary.counts["malformed"]
        raise CardspecError(_clean(text if n == 1 else f"{n} of {total} records cannot be read; the first: {text}"))
    return 0 if summary.counts["accepted"] == total else 1


def check_one(sid: str, opts: dict[str, Any], n: int, bot: str) -> dict[str, Any]:
    """``n`` checked matches of one system under one option set (one unit of work for ``-j``)."""
    game = Game(load(sid), opts)
    t0 = time.perf_counter()
    acts = hands = 0
    bad: list[str] = []
    for seed in range(n):
        rng = random.Random(f"check/{seed}")
        chooser = BOTS["rule" if seed % 2 and bot == "mixed" else
                       "random_then_rule" if bot == "mixed" else bot](rng)
        st = game.new_initial_state(seed)
        try:
            rep = checked_match(st, chooser, rng, probe_every=7)
        except CardspecError as exc:  # the engine stopped the match (a table without a row, the action bound):
            acts += len(st.history)  # a violation of this match, as the others; the next seed is played
            hands += len(st.hand_results)
            bad.append(f"seed {seed}: action {len(st.history)}: the engine stopped the match: {_clean(str(exc))}")
            continue
        acts += rep.actions
        hands += len(rep.state.hand_results)
        if rep.violations:
            bad.append(f"seed {seed}: {rep.violations[0]}")
    return {"system": sid, "options": {k: game.options[k] for k in opts},
            "matches": n, "actions": acts, "hands": hands, "violations": bad,
            "status": "ok" if not bad else "FAIL", "seconds": round(time.perf_counter() - t0, 2)}


def check_rows(systems: Sequence[str], n: int, bot: str, jobs: int = 1, backend: str = "process",
               address: str | None = None) -> Iterator[dict[str, Any]]:
    """Validate each spec and play ``n`` checked matches per option set, in order.

    With ``jobs`` > 1 (or on Ray) the option sets run in that many workers; the rows (and
    every match in them) are the same, in the same order: each match depends only
    on its system, options and seed.
    """
    work = ((sid, opts, spec.check_matches(opts, n), bot) for sid in systems
            for spec in (load(sid),) for opts in spec.option_sets())
    yield from ordered(check_one, work, jobs, backend, address)


FLAGGED = ("flagged: z3 shows the property can fail, and the ambiguity register accounts for it (a reading "
           "that may not end, an overlap a hit policy resolves); see docs/verification.md")


def register_stats(spec: Spec) -> dict[str, Any]:
    """The register's size, and how many of the spec's clauses (mappings citing a source, outside the register)
    hold a rule decided by an option."""
    clauses = decided = 0

    def walk(node: Any) -> None:
        nonlocal clauses, decided
        if isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, dict):
            if "source" in node:
                clauses += 1
                if any(isinstance(v, dict) and "$option" in v for v in node.values()) or any(
                        isinstance(v, dict) and "$option" in v for r in node.get("rows", []) if isinstance(r, dict)
                        for v in r.values()):
                    decided += 1
            for k, v in node.items():
                if k not in ("ambiguities", "options", "check"):
                    walk(v)

    walk(spec.data)
    return {"entries": len(spec.ambiguities), "house_rules": sum(a.house_rule for a in spec.ambiguities),
            "clauses": clauses, "decided_clauses": decided}


def cmd_check(args: argparse.Namespace) -> int:
    from rich.table import Table

    if not 1 <= args.n <= 100_000:
        raise UsageError("-n must be between 1 and 100000")
    if not 1 <= args.jobs <= 64:
        raise UsageError("-j must be between 1 and 64")
    check_backend(args.backend, args.jobs, args.ray_address)
    systems = args.systems or list(available())
    for s in systems:
        load(s)
    cited = citation_problems(systems, args.sources)
    rows: list[dict[str, Any]] = []
    vrows: list[dict[str, Any]] = []
    summary: list[dict[str, Any]] = []
    console = table_console()
    played: list[list[dict[str, Any]]] = []
    with _progress(not args.json and sys.stderr.isatty()) as bar:
        task = bar.add_task("checking", total=len(systems) + 1)
        # one stream of every system's option sets, so that no worker idles at the end of a system
        stream = check_rows(systems, args.n, args.bot, args.jobs, args.backend, args.ray_address)
        for sid in systems:
            bar.update(task, description=f"{sid}: matches")
            mine = [next(stream) for _ in load(sid).option_sets()]
            played.append(mine)
            rows += mine
            if args.verbose and not args.json:
                table = Table(title=f"{sid}: {args.n} checked matches per option set", expand=False)
                for col in ("option set", "matches", "actions", "hands", "status", "s"):
                    table.add_column(col, overflow="fold")
                for row in mine:
                    table.add_row(_label(row["options"]), str(row["matches"]), str(row["actions"]),
                                  str(row["hands"]), row["status"] if not row["violations"] else row["violations"][0],
                                  f"{row['seconds']:.1f}")
                console.print(table)
            bar.advance(task)
        if list(stream):  # none left: every row was taken above; this ends the stream, and with it its workers
            raise RuntimeError("check: more rows than option sets")
        # every system's proofs in one run, in as many workers as the matches (the largest parts first, so that
        # no worker idles behind one system's last part); the findings do not depend on the workers
        bar.update(task, description="verification")
        vrows = verify_rows(systems, 10_000, args.jobs, args.backend, args.ray_address) if not args.no_verify else []
        bar.advance(task)
    for sid, mine in zip(systems, played, strict=True):
        spec = load(sid)
        counts = Counter(r["status"] for r in vrows if r["system"] == spec.id)
        summary.append({"system": spec.id, "option_sets": len(mine), "matches": sum(r["matches"] for r in mine),
                        "violations": sum(1 for r in mine if r["violations"]), "verification": dict(counts),
                        "register": register_stats(spec)})
    failed = [r for r in rows if r["violations"]]
    vbad = [r for r in vrows if r["status"] in ("counterexample", "timeout")]
    if args.json:
        print(json.dumps({"matches": rows, "verify": vrows, "citations": cited, "systems": summary}, indent=1))
        return 1 if failed or vbad or cited["problems"] else 0
    for s in summary:
        reg = s["register"]
        share = reg["decided_clauses"] / reg["clauses"] if reg["clauses"] else 0.0
        v = s["verification"]
        ver = ", ".join(f"{v[k]} {k}" for k in ("proved", "flagged", "counterexample", "timeout") if v.get(k)) \
            if v else "not run"
        print(f"{s['system']}: {s['option_sets']} option sets, {s['matches']} matches, {s['violations']} with "
              f"violations; verification {ver}; register {reg['entries']} entries ({reg['house_rules']} house "
              f"rules), {reg['decided_clauses']} of {reg['clauses']} clauses decided ({share:.0%})")
    for r in failed:
        print(f"VIOLATION {r['system']} ({_label(r['options'])}): {r['violations'][0]}")
    shown = [r for r in vrows if r["status"] in ("counterexample", "timeout")
             or (args.verbose and r["status"] == "flagged")]
    if shown:
        print_verify(shown)
    if any(r["status"] == "flagged" for r in vrows):
        print(FLAGGED + ("" if args.verbose else "; --verbose lists them"))
    proofs = "verification not run (--no-verify)" if args.no_verify else \
        f"{len(vrows)} verification findings, {len(vbad)} failing"
    print(f"{len(rows)} option sets, {sum(r['matches'] for r in rows)} matches, "
          f"{len(failed)} with violations; {proofs}; {_citation_line(cited)}")
    return 1 if failed or vbad or cited["problems"] else 0


def sources_folder(sources: str | None) -> Path | None:
    """The source texts folder: ``--sources``, else ``CARDSPEC_SOURCES``, else ``../shared/sources`` if there;
    None when none is given or found. A folder given (by the flag or the variable) that is not one is a usage
    error naming how it was given."""
    from .engine.citations import default_sources

    env = os.environ.get("CARDSPEC_SOURCES")
    named = f"--sources {sources}" if sources else f"CARDSPEC_SOURCES={env}" if env else None
    folder = Path(sources) if sources else default_sources()
    if folder is not None and not folder.is_dir():
        if named is not None:  # given by the flag or by the variable: refused alike
            raise UsageError(f"{_clean(named)}: {'not a folder' if folder.exists() else 'no such folder'}")
        return None
    return folder


def citation_problems(systems: Sequence[str], sources: str | None) -> dict[str, Any]:
    """Every citation of the systems checked against the source texts (``engine/citations.py``);
    printed to stderr as found. No sources folder given or found: reported as not checked."""
    from .engine.citations import check_citations
    from .engine.spec import citations

    folder = sources_folder(sources)
    if folder is None:
        print("cardspec: warning: citations not checked: no source texts folder found "
              "(give --sources DIR or set CARDSPEC_SOURCES)", file=sys.stderr)
        return {"sources": None, "checked": 0, "problems": []}
    problems: list[str] = []
    checked = 0
    for sid in systems:
        spec = load(sid)
        checked += sum(1 for _ in citations(spec.data))
        for p in check_citations(spec, folder):
            problems.append(str(p))
            print(f"cardspec: citation: {_clean(str(p))}", file=sys.stderr)
    return {"sources": str(folder), "checked": checked, "problems": problems}


def _citation_line(cited: dict[str, Any]) -> str:
    if cited["sources"] is None:
        return "citations not checked"
    return f"{cited['checked']} citations checked, {len(cited['problems'])} wrong"


def verify_part(sid: str, indices: list[int], timeout_ms: int) -> list[list[dict[str, Any]]]:
    """The findings of some option sets of one system (one unit of work for ``verify -j``), per set."""
    from .verification.report import verify_sets

    return [[f.as_json() for f in part] for part in verify_sets(load(sid), indices, timeout_ms)]


def verify_rows(systems: Sequence[str], timeout_ms: int, workers: int = 1, backend: str = "process",
                address: str | None = None) -> list[dict[str, Any]]:
    """Every verification finding of the given systems (ids or spec paths), as JSON objects, in the order of
    ``systems`` and of their option sets. With several workers, each runs the option sets of one system that
    share a deal (:func:`~cardspec.verification.report.deal_groups`), the largest groups first; the findings
    are the same but for their times."""
    from .verification.report import deal_groups, verify

    specs = [load(sid) for sid in systems]  # a bad spec is reported before any work starts
    if workers == 1 and backend == "process":
        return [_typed_finding(spec, f.as_json()) for spec in specs for f in verify(spec, timeout_ms)]
    work = sorted(((len(idx), k, idx) for k, spec in enumerate(specs) for idx in deal_groups(spec)),
                  key=lambda w: (-w[0], w[1], w[2][0]))
    done: dict[tuple[int, int], list[dict[str, Any]]] = {}
    # every part in flight at once: a worker done with its part starts the next at once, rather than wait
    # for the (largest, first) part ahead of it to be collected; the parts are few and their findings small
    parts = ordered(verify_part, ((systems[k], idx, timeout_ms) for _, k, idx in work), workers, backend,
                    address, in_flight=max(1, -(-len(work) // workers)))
    for (_, k, idx), found in zip(work, parts, strict=True):
        for i, rows in zip(idx, found, strict=True):
            done[(k, i)] = [_typed_finding(specs[k], r) for r in rows]
    return [r for key in sorted(done) for r in done[key]]


def _typed_finding(spec: Spec, row: dict[str, Any]) -> dict[str, Any]:
    """A finding with its option values typed as the spec declares them (the prover names them as text)."""
    decls = spec.option_decls

    def typed(k: str, v: Any) -> Any:
        t = decls[k].value_of_key(v) if k in decls and isinstance(v, str) else None
        return v if t is None else t

    return {**row, "options": {k: typed(k, v) for k, v in row["options"].items()}}


PIPED_WIDTH = 400
"""The width of a result table written to a file or a pipe (no ``COLUMNS`` set): wide enough that no cell folds
(rich would fold at 80 columns, cutting option sets such as ``round_3_others=as_round_1`` mid-name)."""


def table_console() -> Console:
    """A console for the result tables of ``check`` and ``verify``: the terminal's width, ``COLUMNS`` if set,
    else (a file or a pipe) :data:`PIPED_WIDTH`; a table takes only the width its cells need."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else PIPED_WIDTH)


def print_verify(rows: list[dict[str, Any]]) -> None:
    """The verification table."""
    from rich.table import Table

    table = Table(title="cardspec verify")
    for col in ("property", "system", "option set", "status", "s"):
        table.add_column(col, overflow="fold")
    for r in rows:
        status = r["status"]
        if r.get("witness") is not None:
            status += " " + json.dumps(r["witness"], sort_keys=True)
        if r.get("detail"):  # what was proved too ("declared [0, 7]; achievable ..."), not only what was not
            status += f" ({r['detail']})"
        table.add_row(r["property"], r["system"], _label(r["options"]), status, f"{r['seconds']:.3f}")
    table_console().print(table)


def materiality_one(sid: str, entry: str, reading: str, n: int, matches: int) -> dict[str, Any]:
    """How much one reading of one register entry changes play (one unit of work for ``--workers``)."""
    from .verification.scenarios import materiality

    spec = load(sid)
    a = next(x for x in spec.ambiguities if x.id == entry)
    m = materiality(spec, a, reading, n, matches)
    return {"system": spec.id, "ambiguity": a.id, "decision": a.decision, "reading": reading,
            "deals": m.deals, "deal_share": m.deal_share, "matches": m.matches, "match_share": m.match_share}


def materiality_rows(systems: Sequence[str], n: int, matches: int, workers: int = 1, backend: str = "process",
                     address: str | None = None) -> list[dict[str, Any]]:
    """For each ambiguity and each non-decided reading: the share of deals and matches that change; the rows
    do not depend on the workers."""
    work = [(sid, a.id, reading, n, matches) for sid in systems for a in load(sid).ambiguities
            for reading in a.readings if reading != a.decision]
    return list(ordered(materiality_one, work, workers, backend, address))


def cmd_verify(args: argparse.Namespace) -> int:
    systems = args.systems or list(available())
    if not 1 <= args.timeout_ms <= 3_600_000:
        raise UsageError(f"--timeout-ms must be 1..3600000, got {args.timeout_ms}")
    check_backend(args.backend, args.jobs, args.ray_address)
    if args.materiality:
        if args.n < 1 or args.n > 100_000:
            raise UsageError("-n must be between 1 and 100000")
        rows = materiality_rows(systems, args.n, max(1, args.n // 5), args.jobs, args.backend, args.ray_address)
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            for r in rows:
                print(f"{r['system']:<16} {r['ambiguity']:<28} {r['reading']:>16} vs {r['decision']:<16} "
                      f"deals changed {r['deal_share']:6.1%} of {r['deals']}, "
                      f"match winners changed {r['match_share']:6.1%} of {r['matches']}")
        return 0
    t0 = time.perf_counter()
    sources_folder(args.sources)  # a folder given that is not one is refused before the proofs run
    rows = verify_rows(systems, args.timeout_ms, args.jobs, args.backend, args.ray_address)
    cited = citation_problems(systems, args.sources)
    for sid in systems:
        spec = load(sid)
        mine = [p for p in cited["problems"] if p.startswith(spec.file)]
        rows.append({"property": "every citation quotes its document", "system": spec.id, "options": {},
                     "status": "flagged" if cited["sources"] is None else "counterexample" if mine else "proved",
                     "witness": None, "detail": "not checked: no source texts folder" if cited["sources"] is None
                     else f"{len(mine)} wrong; the first: {mine[0]}" if mine else "", "seconds": 0.0})
    bad = [r for r in rows if r["status"] in ("counterexample", "timeout")]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print_verify(rows)
        print(f"{len(rows)} findings: " + ", ".join(
            f"{n} {s}" for s, n in sorted(Counter(r["status"] for r in rows).items()))
              + f"; {time.perf_counter() - t0:.1f} s")
    return 1 if bad else 0


def _docs_root() -> Path:
    """The project's docs folder: beside the bundled specs (a checkout, or an editable install), else ./docs."""
    beside = spec_dir().resolve().parent / "docs"
    return beside if (beside / "generated.lock").is_file() else Path("docs")


def cmd_docs(args: argparse.Namespace) -> int:
    from .docs import stale_docs, write_docs

    root = Path(args.root) if args.root else _docs_root()
    if not 1 <= args.jobs <= 64:
        raise UsageError(f"--jobs must be 1..64, got {args.jobs}")
    if not root.is_dir():
        if args.root:
            raise UsageError(f"--root {root}: no such folder")
        raise UsageError(f"no docs folder here ({root}) and none beside the specs ({spec_dir().resolve().parent}): "
                         "`cardspec docs` checks a source checkout's generated documents; run it in the checkout, "
                         "or name its docs folder with --root")
    if args.write:
        changed = write_docs(root, args.jobs)
        _emit(args, changed, "\n".join(f"wrote {c}" for c in changed) or "docs up to date")
        return 0
    stale = stale_docs(root, full=args.full, jobs=args.jobs)
    _emit(args, stale, "\n".join(f"out of date: {s}" for s in stale) + "\nrun `cardspec docs --write`"
          if stale else "docs up to date")
    return 1 if stale else 0


def cmd_play(args: argparse.Namespace) -> int:
    from .play import again_command, fresh_seed, play_terminal
    from .simulate import match_error

    spec = load(args.system)
    game = Game(spec, _options(spec, args.option))
    _warn(game)
    seed = fresh_seed() if args.seed is None else args.seed  # no --seed: a new game, its seed told first
    again = again_command(args.system, args.option, args.seat, args.bot, seed) if args.seed is None else None
    try:
        return play_terminal(game, seed, args.seat, args.bot, args.json, again)
    except UsageError:
        raise
    except CardspecError as exc:  # the engine stopped the match: name the spec file, options and seed
        raise match_error(game, seed, exc) from None


def _warn(game: Game) -> None:
    for w in game.warnings:
        print(f"cardspec: warning: {_clean(w)}", file=sys.stderr)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from . import compiled

    build = "compiled engine" if compiled() else "pure-Python engine"
    try:
        return f"{version('cardspec')} ({build})"
    except PackageNotFoundError:  # pragma: no cover - run from a checkout without installing
        return f"(not installed) ({build})"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardspec", description=__doc__)
    p.add_argument("--version", action="version", version=f"cardspec {_version()}")
    p.add_argument("--json", action="store_true", dest="json_anywhere",
                   help="machine-readable output (also accepted after the command)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def add(name: str, helptext: str) -> argparse.ArgumentParser:
        sp: argparse.ArgumentParser = sub.add_parser(name, help=helptext)
        sp.add_argument("--json", action="store_true", help="machine-readable output")
        return sp

    add("list", "list the rule systems").set_defaults(func=cmd_list)
    sp = add("rules", "print a system's rulebook with each clause's source")
    sp.add_argument("system")
    sp.set_defaults(func=cmd_rules)
    for name, func in (("simulate", cmd_simulate), ("play", cmd_play)):
        sp = add(name, "play seeded matches between bots" if name == "simulate" else
                 "play in the terminal against bots")
        sp.add_argument("system")
        if name == "simulate":
            sp.add_argument("--seed", type=ascii_int, default=0)
        else:
            sp.add_argument("--seed", type=ascii_int, metavar="N",
                            help="deal the game of seed N (the same seed, options, seat and bot play the same "
                                 "match); without it a new random seed is picked and printed first, with the "
                                 "command that deals that game again")
        sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        sp.add_argument("--bot", choices=sorted(BOTS), default="rule")
        if name == "simulate":
            sp.add_argument("-n", type=ascii_int, default=100)
            sp.add_argument("--records", metavar="FILE", help="stream one JSON record per match to FILE (JSON Lines), "
                            "in match order; gzip-compressed when FILE ends in .gz")
            sp.add_argument("--workers", type=ascii_int, default=1, metavar="N",
                            help="play the matches in N processes, or N Ray tasks at a time (default 1); the "
                                 "records and statistics do not depend on it")
            sp.add_argument("--fast", action="store_true",
                            help="play through the bulk loop instead of the step API: the same matches and "
                                 "records, without checking again the actions the bots take from the legal list")
            sp.add_argument("--deals", action="store_true",
                            help="with --records: each record also lists every hand's deal (explicit deals: the "
                                 "dealer, each seat's cards, each pile), so that another engine can replay it "
                                 "without cardspec's shuffle")
            _backend_args(sp)
        else:
            sp.add_argument("--seat", type=ascii_int, default=0)
        sp.set_defaults(func=func)
    sp = add("replay", "replay and check a record (JSON) or records (JSON Lines), plain or gzip-compressed")
    sp.add_argument("file", help="the record file; - reads standard input")
    sp.set_defaults(func=cmd_replay)
    sp = add("import", "turn another engine's logs into cardspec records (JSON Lines)")
    fmt = sp.add_subparsers(dest="format", required=True, parser_class=_Parser)
    from . import egn, openspiel

    isp = _format(fmt, "egn", "Euchre Game Notation games (.egn, 1.2 to 1.4) and matches (.emn)")
    egn.configure_import(isp)
    isp = _format(fmt, "openspiel", "OpenSpiel euchre histories (action ids, or a serialized state)")
    openspiel.configure_import(isp)
    isp.set_defaults(func=openspiel.cmd_import)
    sp = add("export", "write cardspec records in another engine's notation")
    fmt = sp.add_subparsers(dest="format", required=True, parser_class=_Parser)
    egn.configure_export(_format(fmt, "egn", "EGN 1.4 (one record) or an EMN match (several)"))
    from .conform import configure as configure_conform

    configure_conform(add("conform", "drive another engine through an adapter and compare it with cardspec"))
    sp = add("check", "validate every spec and play checked matches under every option set")
    sp.add_argument("systems", nargs="*")
    sp.add_argument("-n", type=ascii_int, default=20, help="matches per option set (default 20)")
    sp.add_argument("-j", "--jobs", "--workers", type=ascii_int, default=os.cpu_count() or 1, metavar="N",
                    help="workers for the matches (default: one per core); the results do not depend on it")
    _backend_args(sp)
    sp.add_argument("--bot", choices=[*sorted(BOTS), "mixed"], default="mixed")
    sp.add_argument("--no-verify", action="store_true", help="skip the z3 verification")
    sp.add_argument("-v", "--verbose", action="store_true",
                    help="also the table of option sets and every flagged verification finding")
    sp.add_argument("--sources", metavar="DIR", help="the source texts the citations quote (default: "
                    "CARDSPEC_SOURCES, else ../shared/sources)")
    sp.set_defaults(func=cmd_check)
    sp = add("verify", "prove the spec properties with z3 under every option set")
    sp.add_argument("systems", nargs="*", help="system ids or spec files (default: all bundled)")
    sp.add_argument("--timeout-ms", type=ascii_int, default=10_000, help="time limit of each solver query")
    sp.add_argument("--materiality", action="store_true",
                    help="instead: play -n deals (and n/5 matches) under each reading of each ambiguity")
    sp.add_argument("-n", type=ascii_int, default=200, help="deals per reading for --materiality")
    sp.add_argument("-j", "--jobs", "--workers", type=ascii_int, default=os.cpu_count() or 1, metavar="N",
                    help="workers for the proofs (one system each) and for --materiality (one reading each); "
                         "default: one per core; the findings do not depend on it")
    _backend_args(sp)
    sp.add_argument("--sources", metavar="DIR", help="the source texts the citations quote (default: "
                    "CARDSPEC_SOURCES, else ../shared/sources)")
    sp.set_defaults(func=cmd_verify)
    sp = add("docs", "check (or --write) the documents generated from the specs")
    sp.add_argument("--write", action="store_true", help="regenerate and write them, and the lock")
    sp.add_argument("--full", action="store_true",
                    help="regenerate in memory and compare (minutes), instead of checking the lock")
    sp.add_argument("--root", default=None, help="the docs folder (default: the project's, beside its specs)")
    sp.add_argument("-j", "--jobs", type=ascii_int, default=os.cpu_count() or 1,
                    help="processes for --write and --full, one system each (default: one per core); "
                         "the documents do not depend on it")
    sp.set_defaults(func=cmd_docs)
    return p


def _format(fmt: Any, name: str, helptext: str) -> argparse.ArgumentParser:
    """The sub-parser of one format of ``import`` or ``export``: it takes ``--json`` too (``import egn --json
    FILE``), with no default of its own, so that a ``--json`` given before the format is not reset."""
    sp: argparse.ArgumentParser = fmt.add_parser(name, help=helptext)
    sp.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
    return sp


def _backend_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--backend", choices=BACKENDS, default="process",
                    help="process: local worker processes (default); ray: Ray tasks (pip install 'cardspec[ray]')")
    sp.add_argument("--ray-address", metavar="ADDRESS", default=None,
                    help="with --backend ray: the cluster to join (default: RAY_ADDRESS, else a local Ray "
                         "instance started for the run)")


class Terminated(BaseException):
    """SIGTERM arrived (``kill``, ``timeout``): raised in the main thread so that the command unwinds as on an
    interrupt (a records file written under a temporary name is removed, an existing one left as it was)."""


def _terminate_here(pid: int) -> Any:
    """A SIGTERM handler for the process ``pid`` (the command's own): it raises :class:`Terminated` there; in a
    process forked from it (a worker) the signal does what it does by default."""
    def handler(signum: int, frame: Any) -> None:
        if os.getpid() == pid:
            raise Terminated
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    out = sys.stdout
    before: Any = None
    if threading.current_thread() is threading.main_thread():
        before = signal.signal(signal.SIGTERM, _terminate_here(os.getpid()))
    try:
        args = build_parser().parse_args(argv)
        args.json = args.json or args.json_anywhere
        if args.command not in ("check", "verify", "docs"):  # no rich output: text from specs and records
            sys.stdout = _Neutral(out)
        code: int = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # the reader went away (| head): the output, and the verdict, were cut short
        _silence(out)
        with contextlib.suppress(OSError):  # stderr closed too
            print("cardspec: error: output closed before the command finished; its result is unknown",
                  file=sys.stderr)
        return 2
    except CardspecError as exc:
        _flush_quietly(out)
        print(f"cardspec: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        _flush_quietly(out)
        name = getattr(exc, "filename", "") or ""
        print(f"cardspec: error: {exc.strerror or exc}" + (f": {name}" if name else ""), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _flush_quietly(out)
        print("cardspec: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        _flush_quietly(out)
        print("cardspec: terminated", file=sys.stderr)
        return 143
    finally:
        sys.stdout = out
        if before is not None:
            signal.signal(signal.SIGTERM, before)


def _silence(out: TextIO) -> None:
    """Standard output pointed at the null device, so that the flush at exit cannot fail again on a closed pipe
    (no "Exception ignored" at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # not a real file (a test's captured output): nothing is left to flush
        pass


NEUTRAL_HOLD = 1 << 16
"""Bytes of output :class:`_Neutral` holds for a pipe or file until a flush: as much as a Linux pipe holds."""


class _Neutral:
    """Standard output with control and format characters of specs and records (terminal escape sequences,
    right-to-left overrides) written escaped (:func:`_clean`); newlines and tabs pass.

    Unless standard output is a terminal, text is held until a flush (or until :data:`NEUTRAL_HOLD`
    characters are waiting) and then written at once, whatever Python's own buffering (``PYTHONUNBUFFERED``
    writes every ``print`` as two writes, its text and its newline): an output that fits in a pipe reaches
    it in one write, so whether a reader that closes early (``| head -1``) cuts it short does not depend on
    timing. Commands that stream (``replay``) or prompt (``play``) flush when they mean to."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        try:
            self.hold = not out.isatty()
        except (OSError, ValueError):
            self.hold = True
        self.held: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        clean = _clean(text.replace("\t", "    "))
        if not self.hold:
            return self.out.write(clean)
        self.held.append(clean)
        self.size += len(clean)
        if self.size >= NEUTRAL_HOLD:
            self._release()
        return len(text)

    def _release(self) -> None:
        if self.held:
            text = "".join(self.held)
            self.held.clear()
            self.size = 0
            self.out.write(text)

    def flush(self) -> None:
        self._release()
        self.out.flush()

    def fileno(self) -> int:
        return self.out.fileno()


def _flush_quietly(out: TextIO) -> None:
    """What a command wrote before it failed, written before its error (quietly if the reader has gone)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _silence(out)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
