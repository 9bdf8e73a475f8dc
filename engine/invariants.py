"""Invariant checks run after every action by the property tests and ``cardspec check``.

Each check returns a list of violations (empty when all is well), each naming
what broke, so a runner can report the first one with its action index.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .actions import Action
from .errors import IllegalActionError
from .record import dumps, record_of, replay
from .state import State

if TYPE_CHECKING:
    from .game import Game


def conservation(st: State) -> list[str]:
    """Every card is in exactly one place."""
    seen = 0
    total = 0
    for m in st.hands:
        seen |= m
        total += m.bit_count()
    for masks in st.seat_piles.values():
        for w in masks:
            seen |= w
            total += w.bit_count()
    for pile in st.piles.values():
        for c in pile:
            seen |= 1 << c
        total += len(pile)
    size = st.game.deck.size
    if seen != st.game.deck.full_mask or total != size:
        places = st.where_is()
        dup = [st.game.deck.names[c] for c, p in places.items() if len(p) > 1]
        missing = [st.game.deck.names[c] for c in range(size) if c not in places]
        return [f"card conservation: {total} placements of {size} cards; "
                f"duplicated {dup[:5]}, missing {missing[:5]}"]
    return []


def deal_sizes(st: State) -> list[str]:
    """Right after a deal: each active hand and each undealt pile has its declared size."""
    g = st.game
    out = []
    hands, piles = st.dealt
    for s, got in enumerate(hands):
        want = g.deal_for(st.hand_no).hand_size if st.active[s] else 0
        if got != want:
            out.append(f"deal size: seat {s} was dealt {got} cards, not {want}")
    have = dict(piles)
    for name, want in g.deal_for(st.hand_no).pile_sizes(g.deck.size, sum(st.active)).items():
        if have.get(name, 0) != want:
            out.append(f"deal size: pile {name} was dealt {have.get(name, 0)} cards, not {want}")
    return out


def score_bounds(st: State) -> list[str]:
    """Every hand's points per entity lie within the spec's declared bounds."""
    lo, hi = st.game.hand_points_bounds
    return [f"score bounds: hand {r['hand']} gives {r['scores']} outside [{lo}, {hi}]"
            for r in st.hand_results if any(not lo <= p <= hi for p in r["scores"])]


def simple_actions(st: State) -> list[Action]:
    """A catalogue of actions to probe illegal moves with: every kind the game declares,
    with each card, each suit and each choice where the kind carries one."""
    g = st.game
    cached = _PROBES.get(id(g))
    if cached is not None and cached[0] is g:
        return cached[1]
    codec = g.codec
    out: list[Action] = []
    for kind, sig in codec.sigs.items():
        choices: list[str | None] = list(sig.choices) or [None]
        numbers: list[int | None] = [sig.number[0], sig.number[1]] if sig.number else [None]
        suits = list(range(len(g.deck.suits))) if sig.suit else [-1]
        for ch in choices:
            for n in numbers:
                for s in suits:
                    if sig.cards == (0, 0):
                        out.append(codec.encode(kind, n, s, (), ch))
                    elif sig.cards[0] <= 1 <= sig.cards[1]:
                        out += [codec.encode(kind, n, s, (c,), ch) for c in range(g.deck.size)]
    if len(_PROBES) >= 64:
        _PROBES.clear()
    _PROBES[id(g)] = (g, out)
    return out


_PROBES: dict[int, tuple[Game, list[Action]]] = {}
"""The probe catalogue per game (it depends on the game only), by the game's id; the entry holds the game, so
the id is not reused while it is kept (a bounded memo: a compiled ``Game`` takes no weak references)."""


def illegal_rejected(st: State, rng: random.Random, samples: int = 4) -> list[str]:
    """Sampled actions outside ``legal_actions()`` raise and leave the state unchanged."""
    legal = set(st.legal_actions())
    every = simple_actions(st)
    listed = st.comp.representative
    pool: list[Action] = []  # a uniform sample of the illegal ones, by rejection (canonical() is dear with copies)
    tried: set[int] = set()
    while len(pool) < samples and len(tried) < len(every):
        i = rng.randrange(len(every))
        if i not in tried:
            tried.add(i)
            if every[i] not in legal and listed(st, every[i]) not in legal:
                pool.append(every[i])
    before = len(st.history)
    out = []
    for a in pool:
        try:
            st.apply(a)
        except IllegalActionError:
            pass
        else:
            out.append(f"legality: '{st.game.action_name(a)}' is not in legal_actions() but applied")
        if len(st.history) != before:
            out.append("legality: a rejected action changed the state")
            break
    return out


def all_legal_apply(st: State) -> list[str]:
    """Every action in ``legal_actions()`` applies on a copy."""
    out = []
    for a in st.legal_actions():
        try:
            st.copy().apply(a)
        except IllegalActionError as exc:
            out.append(f"legality: listed action refused: {exc}")
    return out


@dataclass
class MatchReport:
    """What a checked match produced."""

    state: State
    actions: int
    violations: list[str] = field(default_factory=list)


Chooser = Callable[[State, list[Action]], Action]


def checked_match(st: State, choose: Chooser, rng: random.Random, max_actions: int = 200_000,
                  probe_every: int = 1, full: bool = False) -> MatchReport:
    """Play a match to its end, checking the invariants after every action."""
    rep = MatchReport(st, 0)
    v = rep.violations
    last_hand = -1
    hand_actions = 0
    bound = st.game.actions_per_hand
    while not st.is_terminal():
        if st.hand_no != last_hand and len(st.history) == st.hand_start:
            v += deal_sizes(st)
            last_hand = st.hand_no
            hand_actions = 0
        legal = st.legal_actions()
        if not legal:
            v.append(f"liveness: no legal action at action {rep.actions} but the match is not over")
            break
        if legal != sorted(set(legal)):
            v.append("legal_actions() is not sorted and duplicate-free")
        if full:
            v += all_legal_apply(st)
        if probe_every and rep.actions % probe_every == 0:
            v += illegal_rejected(st, rng)
        hands_before = st.hand_no
        st.apply(choose(st, legal))
        rep.actions += 1
        hand_actions += 1
        if bound is not None and hand_actions > bound and st.hand_no == hands_before:
            v.append(f"termination: hand {st.hand_no} passed {bound} actions")
        v += conservation(st)
        if rep.actions >= max_actions:
            v.append(f"termination: match not over after {max_actions} actions")
        if v:
            v[:] = [f"action {rep.actions - 1}: {x}" for x in v]
            break
    if not v:
        v += score_bounds(st)
        rec = record_of(st)
        again = replay(rec).record
        if dumps(again) != dumps(rec):
            v.append("replay: the record does not reproduce the match")
    return rep
