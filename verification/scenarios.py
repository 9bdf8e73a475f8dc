"""Distinguishing scenarios and materiality for every registered ambiguity.

For an ambiguity whose readings can change a result, a *distinguishing
scenario* is a concrete deal and action sequence whose legal moves, trick
winner, hand score or match winner differ between two readings. It is found by
search through the engine: the same seed (so the same deals) under both
readings, the same choices (a bot plays under the decided reading and every
action is replayed, by name, under the other) until the two positions disagree. Each is
saved as one replayable game record per reading.

*Materiality* plays N seeded deals, and M seeded matches, under each reading with
the same bots, and reports the share whose hand outcome, or match winner, changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cardspec.engine.bots import BOTS
from cardspec.engine.game import Game
from cardspec.engine.record import record_of
from cardspec.engine.spec import Ambiguity, Spec
from cardspec.engine.state import State


@dataclass
class Scenario:
    """Two records (decided reading, other reading) and what differs."""

    ambiguity: str
    reading: str
    decision: str
    kind: str  # the deal | legality | trick winner | hand score | match winner
    action_index: int
    detail: str
    records: dict[str, dict[str, Any]]


def _value(spec: Spec, option: str, text: str) -> Any:
    v = spec.option_decls[option].value_of_key(text)
    if v is None:
        raise KeyError(text)
    return v


def _trick_winners(st: State) -> list[int]:
    """The trick winners of the hand so far, as the phases report them (empty without trick play)."""
    for ph in st.game.phases:
        won = ph.result_fields(st).get("trick_winners")
        if won is not None:
            return list(won)
    return []


def _compare(a: State, b: State) -> tuple[str, str] | None:
    wa, wb = _trick_winners(a), _trick_winners(b)
    if wa != wb and len(wa) == len(wb):
        return "trick winner", f"trick {len(wa)}: seat {wa[-1]} against seat {wb[-1]}"
    ra, rb = a.hand_results, b.hand_results
    for x, y in zip(ra, rb, strict=False):
        if x.get("scores") != y.get("scores") or x.get("thrown_in") != y.get("thrown_in"):
            return "hand score", f"hand {x['hand']}: scores {x['scores']} against {y['scores']}"
    if a.winners != b.winners and (a.winners is not None or b.winners is not None):
        return "match winner", f"winners {list(a.winners or [])} against {list(b.winners or [])}"
    if len(ra) != len(rb):
        return "hand score", f"hand {min(len(ra), len(rb))} ends under one reading only"
    return None


SEARCH_ACTIONS = 100_000
"""The scenario search stops after this many actions in all (long games reach it before 300 matches)."""


def distinguish(spec: Spec, amb: Ambiguity, reading: str, seeds: int = 300,
                max_actions: int = SEARCH_ACTIONS) -> Scenario | None:
    """Search for a scenario that tells the decided reading from ``reading``: up to ``seeds`` seeded
    matches and ``max_actions`` actions in all; a result that differs is preferred to legal moves that do."""
    base = {**amb.with_options, amb.option: _value(spec, amb.option, amb.decision)}
    other = {**amb.with_options, amb.option: _value(spec, amb.option, reading)}
    gd, go = Game(spec, base), Game(spec, other)
    legality: Scenario | None = None
    spent = 0
    for seed in range(seeds):
        if spent >= max_actions:
            break
        rng = random.Random(f"scenario/{seed}")
        bot = BOTS["rule" if seed % 2 else "random_then_rule"](rng)
        a, b = gd.new_initial_state(seed), go.new_initial_state(seed)
        if gd.num_players != go.num_players:  # nothing to play side by side: the deal itself tells them apart
            return Scenario(amb.id, reading, amb.decision, "the deal", 0,
                            f"the readings seat {gd.num_players} and {go.num_players} players, so every deal "
                            "differs", {amb.decision: record_of(a), reading: record_of(b)})
        while not a.is_terminal() and not b.is_terminal() and spent < max_actions:
            la, lb = a.legal_actions(), b.legal_actions()
            # compared by name: the two readings' games may number their actions differently
            na, nb = [gd.action_name(x) for x in la], [go.action_name(x) for x in lb]
            if a.current_player() != b.current_player() or (na != nb and legality is None):
                legality = Scenario(amb.id, reading, amb.decision, "legality", len(a.history),
                                    f"under '{amb.decision}' seat {a.current_player()} may choose "
                                    f"{na}; under '{reading}' seat {b.current_player()} may choose {nb}",
                                    {amb.decision: record_of(a), reading: record_of(b)})
            if a.current_player() != b.current_player():
                break
            name = na[la.index(bot(a, la))]
            if name not in nb:
                name = next((x for x in na if x in nb), name)
                if name not in nb:
                    break
            a.apply(la[na.index(name)])
            b.apply(lb[nb.index(name)])
            spent += 1
            diff = _compare(a, b)
            if diff is not None:
                return Scenario(amb.id, reading, amb.decision, diff[0], len(a.history) - 1, diff[1],
                                {amb.decision: record_of(a), reading: record_of(b)})
    return legality


@dataclass
class Materiality:
    """Shares of deals and matches whose outcome changes between two readings."""

    reading: str
    deals: int
    deal_share: float
    matches: int
    match_share: float


MATERIALITY_ACTIONS = 100_000
"""A materiality match or first hand stops after this many actions: one that has not ended by then counts
as unfinished (a reading under which play may go on for ever must not stall the documents)."""


def _first_hand(game: Game, seed: int) -> Any:
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"materiality/{seed}"))
    while not st.hand_results and not st.is_terminal() and len(st.history) < MATERIALITY_ACTIONS:
        st.apply(bot(st, st.legal_actions()))
    if not st.hand_results:
        return "unfinished"
    r = st.hand_results[0]
    return (r.get("trick_winners"), r.get("scores"), r.get("thrown_in"))


def _match(game: Game, seed: int) -> Any:
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"materiality/{seed}"))
    while not st.is_terminal() and len(st.history) < MATERIALITY_ACTIONS:
        st.apply(bot(st, st.legal_actions()))
    return st.winners if st.is_terminal() else "unfinished"


def materiality(spec: Spec, amb: Ambiguity, reading: str, deals: int, matches: int) -> Materiality:
    """Play ``deals`` first hands and ``matches`` matches under both readings with the same bots."""
    gd = Game(spec, {**amb.with_options, amb.option: _value(spec, amb.option, amb.decision)})
    go = Game(spec, {**amb.with_options, amb.option: _value(spec, amb.option, reading)})
    dd = sum(1 for s in range(deals) if _first_hand(gd, s) != _first_hand(go, s))
    md = sum(1 for s in range(matches) if _match(gd, 10_000 + s) != _match(go, 10_000 + s))
    return Materiality(reading, deals, dd / deals if deals else 0.0, matches, md / matches if matches else 0.0)
