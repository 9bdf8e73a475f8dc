"""``cardspec simulate``: seeded bot matches, streamed, in one process or split across worker processes.

Match ``i`` (counting from 0) is always played from seed ``first_seed + i`` with the bots seeded from it
(:func:`play_match`), whichever process plays it. Workers (local processes, or Ray tasks: see
:mod:`cardspec.parallel`) play consecutive chunks of matches; the parent takes the chunks back in match
order, writes their records in that order and adds their results to running counters in that order, so
the records and the statistics (floating-point sums included) are the same bytes whatever the number of
workers and the backend. At most a few chunks per worker are in flight at once, and nothing else is kept:
memory stays flat however many matches are played.

Records go to a JSON Lines file as they are produced; a name ending in ``.gz`` is gzip-compressed with
deterministic bytes (no file name and a zero time stamp in the gzip header).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import stat
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

from .engine.bulk import play_bulk, play_stepped
from .engine.errors import ActionBoundError, CardspecError
from .engine.game import Game, chosen_options
from .engine.record import dumps, record_of
from .engine.spec import load
from .engine.state import State
from .parallel import ordered

T = TypeVar("T")

CHUNK = 32
"""Matches a worker plays per task, at most; the output never depends on it."""
IN_FLIGHT_PER_WORKER = 3
"""Tasks queued per worker, at most, so that finished chunks never pile up in memory."""
GZIP_LEVEL = 6

MatchResult = tuple[int, int, int, tuple[int, ...], bytes | None]
"""One match: actions, hands, thrown-in hands, winning seats, and its record line (UTF-8) or None."""


def play_match(game: Game, seed: int, bot: str, fast: bool = False,
               deals: bool = False) -> tuple[State, int]:
    """One seeded match between bots (:mod:`cardspec.engine.bulk`): through the step API, or with
    ``fast`` through the bulk loop, which plays the same match; the final state and its action count. With
    ``deals``, the state keeps every hand's deal, which its record lists."""
    return (play_bulk if fast else play_stepped)(game, seed, bot, None, deals)


def match_error(game: Game, seed: int, exc: CardspecError, bot: str | None = None) -> CardspecError:
    """An error the engine raised while playing the match of ``seed`` (a decision table with no row for a
    hand, a match past its action bound), as one that names the spec file, the option set and the seed:
    ``spec.yaml:38: key 'scoring.tables.0': table 'points': no row matches {...} (in the match of seed 3,
    options: defaults)``."""
    file = game.spec.file
    text = str(exc)
    named = getattr(exc, "file", "")  # the file that wrote the clause: with ``extends:``, maybe a parent file
    if named and named != file and file and text.startswith(named):
        where = f"{text} (inherited from {Path(named).name}, which {Path(file).name} extends)"
    else:
        where = text if file and text.startswith(file) else f"{file or game.id}: {text}"
    if isinstance(exc, ActionBoundError):  # a match that may not end: say where that is told, and what may help
        where += "; `cardspec verify` says whether every match ends under these options (termination: match)"
        if bot == "random":
            where += ", and uniformly random play can keep one going where the rules allow it: try --bot rule"
    opts = chosen_options(game.spec.option_decls, game.options) or "defaults"
    return CardspecError(f"{where} (in the match of seed {seed}, options: {opts})")


def match_result(game: Game, seed: int, bot: str, records: bool, fast: bool = False,
                 deals: bool = False) -> MatchResult:
    """Play the match of ``seed`` and keep only what the summary and the record file need (with ``deals``, a
    record that lists every hand's deal); an engine error names the spec file, the option set and the seed
    (:func:`match_error`)."""
    try:
        st, n = play_match(game, seed, bot, fast, deals)
    except CardspecError as exc:
        raise match_error(game, seed, exc, bot) from None
    hands = st.hand_results
    line = (dumps(record_of(st)) + "\n").encode("utf-8") if records else None
    return n, len(hands), sum(1 for r in hands if r["thrown_in"]), tuple(st.winners or ()), line


@dataclass
class Totals:
    """Running counters of the summary statistics, added to in match order."""

    matches: int = 0
    actions: int = 0
    hands: int = 0
    thrown: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    """Each seat's share of the wins: a match's win split evenly among its winners (the shares sum to the
    matches won)."""
    matches_won: Counter[int] = field(default_factory=Counter)
    """Matches each seat is among the winners of: a team's win counts for each partner."""

    def add(self, r: MatchResult) -> None:
        actions, hands, thrown, winners, _ = r
        self.matches += 1
        self.actions += actions
        self.hands += hands
        self.thrown += thrown
        if winners:
            share = 1 / len(winners)
            for w in winners:
                self.wins[w] += share  # type: ignore[assignment]
                self.matches_won[w] += 1


class Sink(Protocol):
    """Where record lines go: a binary file, or a gzip stream over one."""

    def write(self, data: bytes, /) -> int: ...

    def close(self) -> None: ...


def open_records(path: str, gz: bool | None = None) -> Sink:
    """The record file, binary; gzip with a fixed header (no name, time 0) when ``gz`` (by default, when
    ``path`` ends in ``.gz``)."""
    raw = open(path, "wb")  # noqa: SIM115
    if not (path.endswith(".gz") if gz is None else gz):
        return raw
    try:
        return _OwningGzip(raw)
    except BaseException:
        raw.close()
        raise


class _OwningGzip(gzip.GzipFile):
    """A deterministic gzip stream that also closes the file under it."""

    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__(filename="", mode="wb", fileobj=raw, compresslevel=GZIP_LEVEL, mtime=0)
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


# --- workers -----------------------------------------------------------------------------------
_GAMES: dict[tuple[str, str], Game] = {}
"""The games a worker process has built, by system and options: a worker builds each once."""


def _play_chunk(system: str, options: dict[str, Any], bot: str, records: bool,
                start: int, stop: int, fast: bool = False, deals: bool = False) -> list[MatchResult]:
    """Matches ``start .. stop-1`` (by seed), in a worker."""
    key = (system, repr(sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = Game(load(system), options)
    return [match_result(game, seed, bot, records, fast, deals) for seed in range(start, stop)]


def results(game: Game, system: str, first_seed: int, n: int, bot: str, records: bool,
            workers: int = 1, backend: str = "process", address: str | None = None,
            fast: bool = False, deals: bool = False) -> Iterator[MatchResult]:
    """The results of matches ``0 .. n-1`` (seeds ``first_seed + i``), in match order; with ``fast``
    played by the bulk loop (the same matches); with ``deals``, records that list every hand's deal.

    With ``workers`` above 1, or ``backend="ray"``, the matches are played in chunks by worker processes
    (:func:`cardspec.parallel.ordered`), each building its own ``Game`` from ``system`` and
    ``game.options``; the results are the same either way.
    """
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if backend == "process" and (workers == 1 or n == 1):
        for i in range(n):
            yield match_result(game, first_seed + i, bot, records, fast, deals)
        return
    chunk = max(1, min(CHUNK, -(-n // (workers * 4))))
    opts = dict(game.options)
    tasks = ((system, opts, bot, records, a, b, fast, deals) for a, b in _bounds(first_seed, n, chunk))
    for part in ordered(_play_chunk, tasks, workers, backend, address, IN_FLIGHT_PER_WORKER):
        yield from part


def _bounds(first_seed: int, n: int, chunk: int) -> Iterator[tuple[int, int]]:
    for s in range(0, n, chunk):
        yield first_seed + s, first_seed + min(s + chunk, n)


def run(game: Game, system: str, first_seed: int, n: int, bot: str, records_path: str | None,
        workers: int = 1, advance: Callable[[], None] | None = None, backend: str = "process",
        address: str | None = None, fast: bool = False, deals: bool = False) -> Totals:
    """Play ``n`` matches, stream their records to ``records_path`` (if any) in match order, and return
    the running totals. The file is opened before any match is played. A regular file (or a new one) is written
    under a temporary name beside it and renamed when every match is written: a run that stops (an engine error,
    a full disk, an interrupt) leaves a file that was there as it was. An ``OSError`` of the file names it."""
    out: Sink | None = None
    staged, target = False, ""
    if records_path is not None:
        staged = _stage(records_path)
        target = f"{records_path}.{os.getpid()}.partial" if staged else records_path
        out = _named(records_path, open_records, target, records_path.endswith(".gz"))
    totals = Totals()
    done = False
    try:
        for r in results(game, system, first_seed, n, bot, out is not None, workers, backend, address, fast,
                         deals):
            totals.add(r)
            if out is not None and r[4] is not None:
                _named(records_path, out.write, r[4])
            if advance is not None:
                advance()
        if out is not None:
            _named(records_path, out.close)
            if staged:
                _named(records_path, os.replace, target, records_path)
        done = True
    finally:
        if not done:
            if out is not None:
                with contextlib.suppress(OSError):
                    out.close()
            if staged:
                with contextlib.suppress(OSError):
                    os.unlink(target)
    return totals


def _stage(path: str) -> bool:
    """Whether the records go to a temporary file renamed at the end: a regular file or a new one (not a device
    such as ``/dev/stdout``, where a rename cannot go)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _named(path: str | None, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, an I/O step of writing the records file at ``path``; its ``OSError`` names that file (a full
    disk's names none, a temporary file's names the temporary one)."""
    try:
        return fn(*args)
    except BrokenPipeError:
        raise  # a reader that stopped (``| head``): the command line ends quietly
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), path) from None
