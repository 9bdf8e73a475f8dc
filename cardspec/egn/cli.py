"""``cardspec import egn FILE... [-o OUT.jsonl]`` and ``cardspec export egn RECORDS.jsonl [-o OUT.egn]``.

The command line adds a sub-parser per format (``egn``) and hands it to :func:`configure_import` or
:func:`configure_export`, which add the files and ``-o`` (and set ``func``).

Bad input raises :class:`~cardspec.engine.errors.RecordError` (:class:`EgnError` names the file and
the JSON path), which the command line prints as one line, exiting 2. Problems (what could not be
mapped) go to stderr as ``cardspec: warning: ...``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..engine.loader import is_one_of
from ..engine.record import dumps, read_records
from .notation import EgnError


def _clean(text: str) -> str:
    """Text from a file, with control characters shown escaped (never sent to the terminal)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


_NO_RECORD = ("not imported", "so no record", "cannot be written")


def _why(file: str, problems: list[str]) -> str:
    """Why a file gave no record: the first problem that stopped a game (else the first problem), without the
    file's name, which the error names already."""
    why = next((p for p in problems if any(m in p for m in _NO_RECORD)), problems[0])
    return _clean(why.removeprefix(f"{file}: "))


def _warn(problems: list[str]) -> None:
    for p in problems:
        print(f"cardspec: warning: {_clean(p)}", file=sys.stderr)


def _not_over(out: str | None, inputs: list[str]) -> None:
    """Refuse an output file that is one of the inputs: writing it would destroy what was read."""
    clash = is_one_of(out, inputs) if out else None
    if out and clash is not None:
        raise EgnError(out, "", f"-o is the input {clash}: writing there would destroy it")


def _write(out: str | None, text: str) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise EgnError(out, "", f"cannot write: {exc.strerror or exc}") from None


def configure_import(sp: argparse.ArgumentParser) -> None:
    """The arguments of ``cardspec import``."""
    sp.add_argument("files", nargs="+", metavar="FILE", help="EGN games (.egn) or EMN matches (.emn)")
    sp.add_argument("-o", "--output", metavar="OUT.jsonl", help="write the records here (default: stdout)")
    sp.set_defaults(func=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    """Read every file, then write one record per line; nothing is written if a file cannot be read."""
    from . import import_egn

    _not_over(args.output, args.files)
    lines: list[str] = []
    problems: list[str] = []
    for f in args.files:
        records, found = import_egn(f)
        if not records:  # not one game of the file could be imported: an error, as an unreadable file is
            raise EgnError(f, "", "no game in the file can be imported" + (f"; the first reason: {_why(f, found)}"
                                                                          if found else ""))
        problems += found
        lines += [dumps(r) for r in records]
    _warn(problems)
    _write(args.output, "".join(f"{line}\n" for line in lines))
    return 0


def configure_export(sp: argparse.ArgumentParser) -> None:
    """The arguments of ``cardspec export``."""
    sp.add_argument("records", metavar="RECORDS.jsonl", help="cardspec euchre records: one gives an EGN game, "
                    "several an EMN match")
    sp.add_argument("-o", "--output", metavar="OUT.egn", help="write the EGN here (default: stdout)")
    sp.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    """Export every record of the file: EGN for one, an EMN match for several."""
    from .exporter import export_egn

    _not_over(args.output, [args.records])
    where: list[str] = []
    records = []
    for w, rec in read_records(Path(args.records)):
        where.append(w.rstrip(": "))
        records.append(rec)
    if not records:
        raise EgnError(args.records, "", "no records to export")
    problems: list[str] = []
    doc = export_egn(records, problems, where)
    _warn(problems)
    _write(args.output, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return 0
