"""The ``scoring`` component: per-entity facts fed to decision tables.

After a hand, the engine computes facts for each scoring entity (a player, or
a team in partnership games) and sums the outputs of the spec's tables into
the entity's counter (points, strikes). Fact names are general:

=============  ======  =====================================================
fact           type    meaning
=============  ======  =====================================================
tricks         int     tricks won by the entity's players
maker          bool    the entity made trump (ordered up, declared, named)
trump_made     bool    someone made trump (it was not fixed by a turn-up)
pairs          int     pairs of equal cards of the pair ranks, per player
most_pairs     bool    strictly more pairs than every other entity
lowest         bool    lowest hand value among players still in
knocker        bool    the entity knocked
ended_by       enum    knock / instant / exhausted (how a draw round ended)
<choice>       bool    a declaration with effect ``partner_sits_out`` made
<choice>_against bool  an opposing entity made that declaration
<choice>       enum    none / made / broken for a ``zero_tricks_bet``
=============  ======  =====================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import Source, SpecError
from .kernels import pairs_from_counts
from .tables import DecisionTable, Value

if TYPE_CHECKING:
    from .game import Game
    from .state import State

FactDomain = tuple[Value, ...]


@dataclass(frozen=True)
class Scoring:
    """Compiled scoring clause."""

    entity: str
    counter: str
    tables: tuple[DecisionTable, ...]
    pair_ranks: tuple[int, ...]
    facts: Mapping[str, FactDomain]
    bet_facts: tuple[tuple[str, int], ...]  # (fact, declaration bit) for zero-trick bets
    flag_facts: tuple[tuple[str, int], ...]  # (fact, declaration bit) for plain declarations
    pairs_source: Source | None

    @staticmethod
    def build(d: Mapping[str, Any], game: Game, file: str) -> Scoring:
        """Compile, checking every table input against the facts the game provides."""
        deck = game.deck
        max_tricks = max((getattr(p, "num_tricks", 0) for p in game.phases), default=0)
        facts: dict[str, FactDomain] = {"tricks": tuple(range(max_tricks + 1)), "maker": (False, True),
                                        "trump_made": (False, True)}
        pr = d.get("pairs")
        pair_ranks: tuple[int, ...] = ()
        if pr:
            bad = [r for r in pr["ranks"] if r not in deck.ranks]
            if bad:
                raise SpecError(f"pair ranks {bad} are not in the deck", file, key="scoring.pairs")
            pair_ranks = tuple(deck.ranks.index(r) for r in pr["ranks"])
            most = deck.size // 2
            facts["pairs"] = tuple(range(most + 1))
            facts["most_pairs"] = (False, True)
        if game.hand_value is not None:
            facts["lowest"] = (False, True)
            facts["knocker"] = (False, True)
            facts["ended_by"] = ("knock", "instant", "exhausted")
        bets: list[tuple[str, int]] = []
        flags: list[tuple[str, int]] = []
        for ph in game.phases:
            for name, bit, kind in ph.declaration_facts():
                if kind == "bet":
                    facts[name] = ("none", "made", "broken")
                    bets.append((name, bit))
                else:
                    facts[name] = (False, True)
                    facts[f"{name}_against"] = (False, True)
                    flags.append((name, bit))
        tables = []
        for i, t in enumerate(d["tables"]):
            table = DecisionTable.build(t, t.get("hit", "unique"), file)
            for inp in table.inputs:
                if inp.name not in facts:
                    raise SpecError(f"table input '{inp.name}' is not a fact of this game; known: "
                                    f"{', '.join(sorted(facts))}", file, key=f"scoring.tables.{i}.inputs")
                stray = [v for v in facts[inp.name] if v not in inp.domain]
                if stray:
                    raise SpecError(f"table input '{inp.name}' omits reachable values {stray}", file,
                                    key=f"scoring.tables.{i}.inputs.{inp.name}")
            for r in table.rows:
                for f in r.per:
                    if f not in facts or (facts[f] and type(facts[f][0]) is not int):
                        raise SpecError(f"linear term on '{f}', which is not an integer fact", file,
                                        key=f"scoring.tables.{i}")
            tables.append(table)
        return Scoring(d["entity"], d["counter"], tuple(tables), pair_ranks, facts, tuple(bets),
                       tuple(flags), Source(**pr["source"]) if pr else None)

    def pairs_of(self, game: Game, won: int) -> int:
        """Pairs among won cards: each card counts once (three Jacks make one pair).

        The count per pair rank goes to :func:`kernels.pairs_from_counts`.
        """
        rank_of = game.deck.rank_of
        ranks = []
        while won:
            low = won & -won
            ranks.append(rank_of[low.bit_length() - 1])
            won ^= low
        return pairs_from_counts(tuple([ranks.count(r) for r in dict.fromkeys(self.pair_ranks)]))

    def hand_facts(self, st: State) -> list[dict[str, Value]]:
        """Facts of every entity for the hand just finished."""
        g = st.game
        out: list[dict[str, Value]] = []
        pairs = [sum(self.pairs_of(g, st.won[s]) for s in team) for team in g.teams] \
            if self.pair_ranks else []
        values: list[int] = []
        if g.hand_value is not None:
            values = [g.hand_value.value(st.hands[s]) for s in range(g.num_players)]
            live = [values[s] for s in range(g.num_players) if st.active[s]]
            low = min(live)
        for e, team in enumerate(g.teams):
            f: dict[str, Value] = {
                "tricks": sum(st.tricks[s] for s in team),
                "maker": st.maker in team,
                "trump_made": st.maker >= 0,
            }
            if self.pair_ranks:
                f["pairs"] = pairs[e]
                f["most_pairs"] = all(pairs[e] > p for i, p in enumerate(pairs) if i != e)
            if g.hand_value is not None:
                f["lowest"] = any(st.active[s] and values[s] == low for s in team)
                f["knocker"] = st.pv.get("knocker", -1) in team
                f["ended_by"] = st.pv.get("ended_by", "knock")
            for name, bit in self.flag_facts:
                f[name] = any(st.decl[s] & bit for s in team)
                f[f"{name}_against"] = any(st.decl[s] & bit for s in range(len(st.decl)) if s not in team)
            for name, bit in self.bet_facts:
                bettors = [s for s in team if st.decl[s] & bit]
                f[name] = ("none" if not bettors else
                           "broken" if any(st.tricks[s] for s in bettors) else "made")
            out.append(f)
        return out

    def score(self, st: State) -> tuple[list[int], list[dict[str, Value]]]:
        """Points for each entity, and the facts they came from."""
        facts = self.hand_facts(st)
        pts = [sum(t.evaluate(f) for t in self.tables) for f in facts]
        for e, team in enumerate(st.game.teams):
            if not any(st.active[s] for s in team):
                pts[e] = 0
        return pts, facts
