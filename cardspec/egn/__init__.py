"""EGN (Euchre Game Notation) import and export: EGN games as cardspec euchre records and back.

* :func:`import_egn`: an ``.egn`` file (EGN 1.2 to 1.4; condensed deal strings too; 1.0/1.1 through
  egn-upgrade's renames) or an ``.emn`` match file gives records and the problems found: everything
  that cannot be mapped, each naming the file and the JSON path.
* :func:`export_egn`: records back as EGN 1.4 (one record) or an EMN match (several).
* :func:`configure_import`, :func:`cmd_import`, :func:`configure_export`, :func:`cmd_export`: the
  ``cardspec import egn`` and ``cardspec export egn`` commands.

See docs/egn.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .cli import cmd_export, cmd_import, configure_export, configure_import
from .exporter import export_egn
from .importer import game_records
from .notation import EgnError, Reader, read_file, read_games

__all__ = ["EgnError", "cmd_export", "cmd_import", "configure_export", "configure_import", "export_egn",
           "import_egn"]


def import_egn(path: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of an EGN or EMN file, and the problems (what could not be mapped, with file and JSON path).

    Raises :class:`EgnError` (a :class:`~cardspec.engine.errors.RecordError`) when the file cannot be read.
    """
    file, doc = read_file(Path(path))
    problems: list[str] = []
    records: list[dict[str, Any]] = []
    for g in read_games(file, doc, problems):
        prefix = f"{g.path}." if g.path else ""
        records.extend(game_records(Reader(file, problems, prefix), g))
    return records, problems
