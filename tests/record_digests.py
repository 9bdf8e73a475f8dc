"""Digests of seeded matches' records, for comparing two builds of the engine (``tests/test_compiled.py``).

Run as a script it prints, as JSON, which build it imported (``cardspec.compiled()``) and the digests;
``tests/test_compiled.py`` runs it on the pure-Python source checkout and compares with the build
installed. Every option set of every system is played for ``HANDS`` hands with the random and the
rule bot, and every system's default match to its end with the rule bot.
"""

from __future__ import annotations

import hashlib
import json
import sys

import cardspec
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import dumps, record_of
from cardspec.engine.spec import available, load

HANDS = 3


def digests() -> dict[str, str]:
    """label -> sha256 of the record: ``<system>/<option set number>/<bot>``, and ``<system>/match``."""
    out: dict[str, str] = {}
    for sid in available():
        for k, opts in enumerate(load(sid).option_sets()):
            game = Game(load(sid), opts)
            for bot in ("random", "rule"):
                st, _ = play_stepped(game, 1000 + k, bot, HANDS)
                out[f"{sid}/{k}/{bot}"] = hashlib.sha256(dumps(record_of(st)).encode()).hexdigest()
        st, _ = play_stepped(Game.from_system(sid), 3, "rule")
        out[f"{sid}/match"] = hashlib.sha256(dumps(record_of(st)).encode()).hexdigest()
    return out


if __name__ == "__main__":
    json.dump({"compiled": cardspec.compiled(), "digests": digests()}, sys.stdout, sort_keys=True)
