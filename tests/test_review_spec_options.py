"""Values that options put into the rules are held to the schema's bounds on load (fuzz round 3, #1 and #11).

The schema caps ``deck.jokers.per_deck`` and ``deck.copies.extra`` at 4 and ``players.count`` at 16, but a value
an option decides (an option map's entry, an int option's default or range) used to reach the game builder
unchecked: a map ``none: 100000`` built a deck of hundreds of thousands of jokers (minutes, gigabytes), a
``players`` default of 10000 ended in a MemoryError traceback, and an ``extra_decks`` default of 5 gave a 45 KB
error about a table input instead of "5 is greater than the maximum of 4". A spec's inverted
``bounds.hand_points`` ([1000000, 7]) loaded, and ``simulate`` exited 0.

Each case is now a spec error on load: exit 2, one short line naming the file, the line and the key where the
value is written (the map entry; the option's ``default``; with ``extends``, the part the child file writes),
within seconds. The command line is first run in a child process under a time and memory limit, so that
without the check a case fails instead of eating the machine. Independently of the schema, the engine's deck
and seating refuse sizes past a hard bound.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from test_hostile import cli_error

from cardspec.engine.cards import MAX_CARDS, Deck
from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import load_yaml_text
from cardspec.engine.seats import Seating
from cardspec.engine.spec import Spec, available, load

QUICK = 5.0  # seconds: a refusal takes well under one; without the check these cases ran for minutes
MEMORY = 2_000_000_000  # bytes of address space for the child process: without the check it grew past 2.7 GB


def _limit() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def child_cli(args: list[str]) -> tuple[int, str, float]:
    """``cardspec ARGS`` in a child process under a memory limit: exit code, stderr, seconds. A run past the
    time limit fails the test (without the fix, these specs hang)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "cardspec", *args], capture_output=True, text=True,
                           timeout=3 * QUICK, preexec_fn=_limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"cardspec {' '.join(args)} still running after {3 * QUICK} s")
    return p.returncode, p.stderr, time.perf_counter() - t0


def bundled(tmp_path: Path, system: str, old: str = "", new: str = "", name: str = "") -> Path:
    """The bundled spec copied into ``tmp_path`` (as ``name``, default its own file name), with ``old`` (which
    occurs once) replaced by ``new``."""
    text = available()[system].read_text(encoding="utf-8")
    if old:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / (name or f"{system}.yaml")
    path.write_text(text, encoding="utf-8")
    return path


def child(tmp_path: Path, parent: str, body: str, name: str = "child.yaml") -> Path:
    """A spec that ``extends`` the bundled ``parent`` (copied beside it): ``body`` after id, extends and title."""
    shutil.copyfile(available()[parent], tmp_path / f"{parent}.yaml")
    path = tmp_path / name
    path.write_text(f"id: {parent}-x\nextends: {parent}\ntitle: X\n{body}", encoding="utf-8")
    return path


def line_of(path: Path, key: str) -> int | None:
    """The line of ``key`` (dotted) in the file at ``path``; a number is a list index or, failing that, a key."""
    loaded = load_yaml_text(path.read_text(encoding="utf-8"), str(path))
    return loaded.line_of(tuple(int(p) if p.isdigit() else p for p in key.split(".")))


def refused(path: Path, key: str, needles: tuple[str, ...], capsys: pytest.CaptureFixture[str],
            command: tuple[str, ...] = ("rules",)) -> str:
    """``path`` is refused on load, fast: exit 2 with one short line naming the file, the key's line and the key
    (in a child process first, then in this one); the error's text holds every needle."""
    args = [*command, str(path)]
    code, err, secs = child_cli(args)
    assert code == 2, f"exit code {code}: {err[-2000:]!r}"
    assert secs < QUICK, f"took {secs:.1f} s"
    assert err.startswith("cardspec: error:") and err.count("\n") == 1 and "Traceback" not in err, err[-2000:]
    t0 = time.perf_counter()
    with pytest.raises(SpecError) as info:
        load(str(path))
    assert time.perf_counter() - t0 < QUICK
    exc = info.value
    assert Path(exc.file).resolve() == path.resolve(), str(exc)
    assert exc.key == key, str(exc)
    assert exc.line is not None and exc.line == line_of(path, key), str(exc)
    for n in needles:
        assert n in exc.detail, str(exc)
    out = cli_error(args, capsys)
    assert f"{path.name}:{exc.line}: key '{key}': " in out, out
    assert len(out) < 400, f"{len(out)} characters: {out[:400]}"
    return out


# --- the fuzzing report's specs ------------------------------------------------------------------------------
def test_a_map_entry_past_the_jokers_cap_is_refused_at_the_entry(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """the-card-game's ``jokers: {per_deck: {$option: jokers, map: {none: 100000, ...}}}`` (repro tcg-jokers):
    the default's map entry, at its line (the flow mapping's, 23)."""
    path = bundled(tmp_path, "the-card-game", "map: {none: 0, wild: 2}", "map: {none: 100000, wild: 2}")
    refused(path, "deck.jokers.per_deck.map.none", ("100000 is greater than the maximum of 4",), capsys)


def test_a_moved_map_entry_past_the_jokers_cap_names_the_options(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = child(tmp_path, "the-card-game", "deck:\n  jokers: {per_deck: {$option: jokers, map: {none: 0, wild: 9}}}\n")
    refused(path, "deck.jokers.per_deck.map.wild", ("with options jokers=wild: 9 is greater than the maximum of 4",),
            capsys)


@pytest.mark.parametrize("decks", [3000, 10_000, 5])
def test_an_int_default_past_the_copies_cap_is_named_at_the_default(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str],
                                                                    decks: int) -> None:
    """hand-and-foot's ``extra_decks`` with max and default 3000 or 10000 (repros hf-decks, hf-decks10000), or 5,
    which gave a 45 KB line about table input 'held' instead of the bound."""
    path = bundled(tmp_path, "hand-and-foot", "    max: 2\n    default: 2\n    description: Decks beyond",
                   f"    max: {decks}\n    default: {decks}\n    description: Decks beyond")
    out = refused(path, "options.extra_decks.default",
                  (f"{decks} is greater than the maximum of 4 (deck.copies.extra)",), capsys)
    assert "omits reachable values" not in out


def test_a_players_default_past_the_schema_is_named_at_the_default(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """hand-and-foot's ``players`` with max and default 10000 (repro hf-players10000: a MemoryError traceback):
    the players feed ``copies.per_players``, so the deck would have had 5000 copies."""
    path = bundled(tmp_path, "hand-and-foot", "    max: 8\n    default: 4\n    description: Number of players",
                   "    max: 10000\n    default: 10000\n    description: Number of players")
    refused(path, "options.players.default", ("10000 is greater than the maximum of 16 (players.count)",), capsys)


def test_inverted_hand_points_bounds_are_a_spec_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """euchre's ``bounds.hand_points: [1000000, 7]`` (repro bounds_inverted) loaded and simulated with exit 0."""
    path = bundled(tmp_path, "euchre", "  hand_points: [0, 7]", "  hand_points: [1000000, 7]")
    for command in (("rules",), ("simulate", "-n", "1")):
        out = refused(path, "bounds.hand_points", ("low bound 1000000 is above the high bound 7",), capsys,
                      command)
        assert "1000000" in out


# --- the same through extends, int ranges and other option shapes ----------------------------------------------
def test_a_childs_default_past_the_cap_is_named_in_the_child(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The child writes only the option's default (and max); the clause is the parent's. The child's key."""
    path = child(tmp_path, "hand-and-foot", "options:\n  extra_decks:\n    max: 5\n    default: 5\n")
    refused(path, "options.extra_decks.default", ("5 is greater than the maximum of 4 (deck.copies.extra)",),
            capsys)


def test_an_int_range_past_the_cap_is_refused_with_its_default_in_bounds(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The default 2 is fine, but ``--option extra_decks=3000`` would not be: the range's max is checked on load.
    In a child that writes only the option, at the child's ``max``; in one file, at the clause that refers to
    the option (as a target option's min of 0 is named at ``match.end.target``), saying which option's max."""
    path = child(tmp_path, "hand-and-foot", "options:\n  extra_decks:\n    max: 3000\n")
    refused(path, "options.extra_decks.max",
            ("with options extra_decks=3000: 3000 is greater than the maximum of 4 (deck.copies.extra)",), capsys)
    one = bundled(tmp_path, "hand-and-foot", "    max: 2\n    default: 2\n    description: Decks beyond",
                  "    max: 3000\n    default: 2\n    description: Decks beyond", name="one.yaml")
    refused(one, "deck.copies.extra", ("with options extra_decks=3000: 3000 is greater than the maximum of 4",
                                       "the max 3000 of option 'extra_decks'"), capsys)


def test_an_enum_value_put_in_directly_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = child(tmp_path, "hand-and-foot",
                 "deck:\n  copies: {per_players: 2, extra: {$option: decks}}\n"
                 "options:\n  decks: {type: enum, values: [1, 9], default: 1, description: d}\n")
    refused(path, "deck.copies.extra", ("with options decks=9: 9 is greater than the maximum of 4",
                                        "the value 9 of option 'decks'"), capsys)


def test_an_int_option_maps_middle_entry_is_named_at_its_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """An int option's map names every value of its range, not only the ends and the default; the entry keyed
    ``"3"`` is named in the child that writes it, at its line (not as inherited from the parent)."""
    path = child(tmp_path, "euchre",
                 "options:\n  table: {type: int, min: 1, max: 4, default: 1, description: d}\n"
                 "players:\n  count: {$option: table, map: {'1': 4, '2': 4, '3': 40, '4': 4}}\n")
    out = refused(path, "players.count.map.3", ("with options table=3: 40 is greater than the maximum of 16",),
                  capsys)
    assert "inherited" not in out


def test_inverted_bounds_from_an_option_map_are_named_at_the_entry(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = child(tmp_path, "euchre",
                 "bounds:\n  hand_points: {$option: lone_euchre, map: {two: [0, 7], four: [8, 7]}}\n")
    refused(path, "bounds.hand_points.map.four",
            ("with options lone_euchre=four: the low bound 8 is above the high bound 7",), capsys)


# --- the engine's own hard bounds -------------------------------------------------------------------------------
def test_the_deck_refuses_a_size_past_its_hard_bound() -> None:
    """Whatever builds a deck, one of more than MAX_CARDS cards is refused before its tables are made: at once
    and in little memory."""
    ranks, suits, colors = tuple("23456789TJQKA"), ("C", "D", "H", "S"), ("black", "red", "red", "black")
    for copies, jokers in ((100_000, 0), (1, 10**9), (0, 0), (1, -1)):
        tracemalloc.start()
        t0 = time.perf_counter()
        with pytest.raises(SpecError) as info:
            Deck(ranks, suits, colors, copies, jokers)
        secs = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert info.value.key == "deck" and str(MAX_CARDS) in info.value.detail
        assert secs < 0.5 and peak < 1_000_000
    assert Deck(ranks, suits, colors, 20, 80).size == 13 * 4 * 20 + 80 <= MAX_CARDS  # the schema's largest fit


def test_the_seating_refuses_players_past_its_hard_bound() -> None:
    for n in (10_000, 1, 17):
        with pytest.raises(SpecError) as info:
            Seating.build({}, n, "f.yaml")
        assert info.value.key == "players.count"
    assert Seating.build({}, 16, "f.yaml").num_seats == 16


def test_a_game_built_past_the_loader_still_stops_at_the_deck_bound() -> None:
    """Rules that never went through the loader's check (a Spec built by hand) still cannot allocate without
    bound: the deck refuses, naming its key."""
    base = load("the-card-game")
    data = {**base.data, "deck": {**base.data["deck"], "jokers": {"per_deck": 100_000}}}
    t0 = time.perf_counter()
    with pytest.raises(SpecError) as info:
        Game(Spec(data, base.file, base.loaded))
    assert time.perf_counter() - t0 < QUICK
    assert info.value.key == "deck"


def test_every_bundled_spec_still_loads() -> None:
    for system in available():
        assert load(system).id == system

