"""Seeded bot matches, played through the step API or through the bulk loop.

A match of seed ``s`` deals from ``s`` and seeds every bot from one generator, ``Random(f"bots/{s}")``
(:func:`bot_rng`), shared by all seats: bots of one name are one chooser, so a match whose seats all
run the same bot draws from that generator exactly as a single bot would.

Two loops play a match, and give the same match move for move:

* :func:`play_stepped` drives the public step API (``legal_actions`` then ``apply``, which checks
  every action): the reference, and what any other client of the engine sees;
* :func:`play_bulk` is the bulk loop behind ``Game.simulate`` and ``cardspec simulate --fast``. An
  action a bot takes from the phase's own legal list is legal by construction, so the loop skips the
  second legality check ``State.apply`` makes and the per-step :class:`~cardspec.engine.state.Step`
  record, and calls the phase's doer for a listed action (``Component.apply_listed``) directly. It keeps the
  action bound. Where every seat runs the uniform random bot, a phase that has a loop of its own for such play
  (``Component.play_random``: trick play) plays itself out in it, choosing on its legal mask without building
  the list.

``tests/test_bulk.py`` holds the two loops to byte-identical records under every option set of every
system (random and rule bots), in whole matches of every system with every bot, and with a bot per seat.

>>> from cardspec.engine.game import Game
>>> g = Game.from_system("euchre")
>>> (a, n), (b, m) = play_stepped(g, 7, "random"), play_bulk(g, 7, "random")
>>> a.history == b.history and a.hand_results == b.hand_results and n == m == len(a.history)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from .bots import BOTS, Bot
from .errors import ActionBoundError

if TYPE_CHECKING:
    from .game import Game
    from .state import State

Bots = str | Sequence[str]
"""One bot name for every player, or one per player (names of :data:`cardspec.engine.bots.BOTS`)."""


def bot_rng(seed: int) -> random.Random:
    """The generator every bot of match ``seed`` draws from."""
    return random.Random(f"bots/{seed}")


def choosers(game: Game, bots: Bots, rng: random.Random) -> list[Bot]:
    """Each player's chooser: one chooser per bot name, shared by the players that run it.

    >>> from cardspec.engine.game import Game
    >>> cs = choosers(Game.from_system("euchre"), ["rule", "random", "rule", "random"], random.Random(0))
    >>> cs[0] is cs[2] and cs[1] is cs[3] and cs[0] is not cs[1]
    True
    >>> choosers(Game.from_system("euchre"), ["rule"], random.Random(0))
    Traceback (most recent call last):
    ...
    ValueError: 1 bot names for 4 players
    """
    names = [bots] * game.num_players if isinstance(bots, str) else list(bots)
    if len(names) != game.num_players:
        raise ValueError(f"{len(names)} bot names for {game.num_players} players")
    unknown = sorted({b for b in names if b not in BOTS})
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; the bots are {', '.join(sorted(BOTS))}")
    made = {b: BOTS[b](rng) for b in dict.fromkeys(names)}
    return [made[b] for b in names]


def play_stepped(game: Game, seed: int, bots: Bots, hand_limit: int | None = None,
                 keep_deals: bool = False) -> tuple[State, int]:
    """One seeded match through the step API; the final state and its action count. With ``hand_limit``,
    play stops after that many hands (``State.halted``), as ``Game.new_initial_state`` has it; with
    ``keep_deals``, the state keeps every hand's deal (its record lists them)."""
    choose = choosers(game, bots, bot_rng(seed))
    st = game.new_initial_state(seed, hand_limit=hand_limit, keep_deals=keep_deals)
    n = 0
    while not st.is_terminal():
        st.apply(choose[st.current_player()](st, st.legal_actions()))
        n += 1
    return st, n


def play_bulk(game: Game, seed: int, bots: Bots, hand_limit: int | None = None,
              keep_deals: bool = False) -> tuple[State, int]:
    """The same match as :func:`play_stepped`, through the bulk loop (see the module docstring)."""
    choose = choosers(game, bots, bot_rng(seed))
    st = game.new_initial_state(seed, hand_limit=hand_limit, keep_deals=keep_deals)
    history = st.history
    bound = game.action_bound
    first = choose[0]
    draw = first.uniform_draw() if all(c is first for c in choose) else None  # one uniform chooser for all
    while st.winners is None and st.halted is None:
        if len(history) >= bound:
            raise ActionBoundError(f"the match reached its action bound of {bound} actions "
                                   f"(hand {st.hand_no}) without ending")
        comp, cur = st.comp, st.cur
        if draw is not None and comp.play_random(st, draw, bound):  # the phase played out in one loop
            continue
        a = choose[st.controller[cur]].choose(st, comp.legal(st))  # a method call: native when compiled
        history.append((cur, a, st.phase))
        comp.apply_listed(st, a)  # the phase's own list gave it: legal
    return st, len(history)


def simulate(game: Game, n: int, bots: Bots = "random", seed: int = 0,
             hand_limit: int | None = None) -> Iterator[State]:
    """The final states of matches ``seed .. seed + n - 1``, played by the bulk loop, in seed order
    (each cut after ``hand_limit`` hands, if given)."""
    if n < 0:
        raise ValueError("n must not be negative")
    choosers(game, bots, bot_rng(seed))  # a bad bot name fails here, before any match is played
    for s in range(seed, seed + n):
        yield play_bulk(game, s, bots, hand_limit)[0]
