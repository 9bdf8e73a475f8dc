"""The ``scoring`` component: per-entity facts fed to decision tables.

After a hand, the engine gathers facts for each scoring entity (a player, or
a team in partnership games) and sums the outputs of the spec's tables into
the entity's counter (points, strikes). Each fact comes from the part of the
game that offers it: a phase component (:meth:`Component.add_facts`), the
``hand_value`` clause, or the scoring clause's own ``pairs`` and ``sides``;
nothing here knows a component's state. Fact names are general:

=============  ======  =====================================================
fact           type    meaning (declared by)
=============  ======  =====================================================
tricks         int     tricks won by the entity's players (``tricks``)
maker          bool    the entity made trump: ordered up, declared, named
                       (``turn_up_trump``)
trump_made     bool    someone made trump (it was not fixed by a turn-up)
                       (``turn_up_trump``)
pairs          int     pairs of equal cards of the pair ranks, per player
                       (``scoring.pairs``)
most_pairs     bool    strictly more pairs than every other entity
                       (``scoring.pairs``)
lowest         bool    lowest hand value among players still in (``hand_value``)
knocker        bool    the entity knocked (``draw_discard``)
ended_by       enum    knock / instant / exhausted: how a draw round ended
                       (``draw_discard``)
loser          bool    the entity holds the highest card of the last trick,
                       revealed at once (``climbing_tricks``)
top_last       int     the value of that highest card, the same for every
                       entity (``climbing_tricks``)
<choice>       bool    a declaration with effect ``partner_sits_out`` made
                       (``declarations``)
<choice>_against bool  an opposing entity made that declaration
<choice>       enum    none / made / broken for a ``zero_tricks_bet``
=============  ======  =====================================================

With ``scoring.sides`` (sides formed each hand, :mod:`cardspec.engine.seats`;
declared by ``scoring.sides``), every player entity also has:

================  ======  ==================================================
side_pairs        int     the tally of the entity's side this hand: the sum of
                          each member's own pairs, dummy seats included
side_most         bool    that tally is strictly above every other competing
                          side's (a side with no player does not compete)
side_top          bool    that tally is at least every other competing side's
                          (with ``side_most`` false: a tie for the most)
teams             bool    sides were formed (false: every seat alone)
<choice>_against  enum    for a ``zero_tricks_bet``: another player's bet,
                          made / broken / none (made wins over broken)
================  ======  ==================================================

The domains of the facts (:attr:`Scoring.facts`) come only from what the parts
of the game declare (:func:`declarers`; see
:mod:`cardspec.engine.components.declared`), never from which components are
present. A table input that the engine computes but no declaration offers is
kept in :attr:`Scoring.undeclared`, and ``cardspec verify`` fails with
``no proof for fact '<name>'``; a table input that nothing offers is a spec error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .components.declared import BOOL, Declared, Declarer, Fact
from .errors import Source, SpecError
from .kernels import pairs_from_counts
from .tables import DecisionTable, Value

if TYPE_CHECKING:
    from .cards import Deck
    from .game import Game
    from .state import State

FactDomain = tuple[Value, ...]

FACT_ORDER = ("tricks", "maker", "trump_made", "pairs", "most_pairs", "lowest", "knocker", "ended_by")
"""The order of :attr:`Scoring.facts`: these first (as in the table above), then the rest as declared."""


def pairs_declarations(deck: Deck) -> Declared:
    """What a ``scoring.pairs`` clause offers: ``pairs`` (0 to half the deck) and ``most_pairs``."""
    return Declared(facts=(Fact("pairs", tuple(range(deck.size // 2 + 1))), Fact("most_pairs", BOOL)))


def declarers(game: Game, scoring_clause: Mapping[str, Any] | None = None) -> list[Declarer]:
    """Every part of ``game`` that declares anything: its phases (in order), then ``hand_value``
    and ``scoring.pairs`` when the spec has them. A phase's declarations may be None (undeclared)."""
    out = [Declarer(ph.kind, ph.id, ph.declarations()) for ph in game.phases]
    if game.hand_value is not None:
        out.append(Declarer("hand_value", "hand_value", game.hand_value.declarations(), phase=False))
    d = game.rules["scoring"] if scoring_clause is None else scoring_clause
    if d.get("pairs"):
        out.append(Declarer("scoring.pairs", "pairs", pairs_declarations(game.deck), phase=False))
    if d.get("sides"):
        out.append(Declarer("scoring.sides", "sides", sides_declarations(game, bool(d.get("pairs"))), phase=False))
    return out


def sides_declarations(game: Game, pairs: bool) -> Declared:
    """What a ``scoring.sides`` clause offers: ``teams``, the side tally facts, each bet's ``_against``."""
    facts = [Fact("teams", BOOL)]
    if pairs:
        facts += [Fact("side_pairs", tuple(range(game.deck.size // 2 + 1))), Fact("side_most", BOOL),
                  Fact("side_top", BOOL)]
    facts += [Fact(f"{name}_against", ("none", "made", "broken"))
              for ph in game.phases for name, _bit, kind in ph.declaration_facts() if kind == "bet"]
    return Declared(facts=tuple(facts))


def declared_facts(parts: Sequence[Declarer]) -> dict[str, FactDomain]:
    """Fact name to domain, over every declaration (two parts offering one fact: the union of domains)."""
    got: dict[str, list[Value]] = {}
    seen: dict[str, set[Value]] = {}
    for p in parts:
        for f in p.declared.facts if p.declared is not None else ():
            dom, have = got.setdefault(f.name, []), seen.setdefault(f.name, set())
            for v in f.domain:
                if v not in have:
                    have.add(v)
                    dom.append(v)
    for dom in got.values():
        if dom and all(type(v) is int for v in dom):
            dom.sort(key=int)
    order = [n for n in FACT_ORDER if n in got] + [n for n in got if n not in FACT_ORDER]
    return {n: tuple(got[n]) for n in order}


@dataclass(frozen=True)
class RowUse:
    """One decision table's part in an entity's score for a hand: the row that applied, the points it gave,
    and the facts the table read."""

    table: str
    row: int
    """The applying row's number in its table, from 1."""
    points: int
    source: Source | None
    """The applying row's clause (or None when the row cites none)."""
    facts: dict[str, Value]


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
    undeclared: tuple[str, ...] = ()
    """Facts that tables use and the engine computes but no declaration offers (verification fails on them)."""
    side_facts: bool = False
    """Whether ``scoring.sides`` forms sides each hand (the ``side_*``, ``teams`` and bet ``_against`` facts)."""

    @staticmethod
    def build(d: Mapping[str, Any], game: Game, file: str) -> Scoring:
        """Compile, checking every table input against the facts the game provides."""
        deck = game.deck
        pr = d.get("pairs")
        pair_ranks: tuple[int, ...] = ()
        if pr:
            bad = [r for r in pr["ranks"] if r not in deck.ranks]
            if bad:
                raise SpecError(f"pair ranks {bad} are not in the deck", file, key="scoring.pairs")
            pair_ranks = tuple(deck.ranks.index(r) for r in pr["ranks"])
            if "won" not in game.seat_zones:
                raise SpecError("pairs are counted among won cards, but no zone 'won' is owned by each seat", file,
                                key="scoring.pairs")
        parts = declarers(game, d)
        facts = declared_facts(parts)
        bets: list[tuple[str, int]] = []
        flags: list[tuple[str, int]] = []
        for ph in game.phases:
            for name, bit, kind in ph.declaration_facts():
                (bets if kind == "bet" else flags).append((name, bit))
        # what hand_facts gathers whatever is declared; an undeclared phase may offer anything
        computed = {n for ph in game.phases for n in ph.fact_names()}
        computed |= {"pairs", "most_pairs"} if pair_ranks else set()
        side_facts = bool(d.get("sides"))
        if side_facts:
            if d["entity"] != "player" or len(game.teams) != game.num_players:
                raise SpecError("sides formed each hand need entity: player and no fixed partnerships", file,
                                key="scoring.sides")
            computed |= {"teams", "side_pairs", "side_most", "side_top"} | {f"{n}_against" for n, _ in bets}
        computed |= {"lowest"} if game.hand_value is not None else set()
        open_ended = any(p.declared is None for p in parts)
        undeclared: list[str] = []
        tables = []
        for i, t in enumerate(d["tables"]):
            # the file and line that wrote the table: with ``extends:``, an inherited table's parent file
            where, line = game.spec.loaded.locate(("scoring", "tables", i))
            table = DecisionTable.build(t, t.get("hit", "unique"), where, f"scoring.tables.{i}", line)
            for inp in table.inputs:
                if inp.name not in facts:
                    if inp.name in computed or open_ended:
                        undeclared.append(inp.name)  # offered, but no declaration gives its domain
                        continue
                    raise SpecError(f"table input '{inp.name}' is not a fact of this game; known: "
                                    f"{', '.join(sorted(set(facts) | computed))}", file,
                                    key=f"scoring.tables.{i}.inputs")
                allowed = set(inp.domain)
                stray = [v for v in facts[inp.name] if v not in allowed]
                if stray:
                    raise SpecError(f"table input '{inp.name}' omits reachable values {stray}", file,
                                    key=f"scoring.tables.{i}.inputs.{inp.name}")
            for r in table.rows:
                for f in r.per:
                    if f not in facts and (f in computed or open_ended):
                        undeclared.append(f)
                    elif f not in facts or (facts[f] and type(facts[f][0]) is not int):
                        raise SpecError(f"linear term on '{f}', which is not an integer fact", file,
                                        key=f"scoring.tables.{i}")
            tables.append(table)
        return Scoring(d["entity"], d["counter"], tuple(tables), pair_ranks, facts, tuple(bets),
                       tuple(flags), Source(**pr["source"]) if pr else None,
                       tuple(dict.fromkeys(undeclared)), side_facts)

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
        """Facts of every entity for the hand just finished, each from the part that offers it."""
        g = st.game
        out: list[dict[str, Value]] = []
        won = st.seat_piles["won"] if self.pair_ranks else []
        pairs = [sum(self.pairs_of(g, won[s]) for s in team) for team in g.teams] if self.pair_ranks else []
        valued = g.hand_value.hand_facts(st, g.teams) if g.hand_value is not None else None
        for e, team in enumerate(g.teams):
            f: dict[str, Value] = {}
            for ph in g.fact_phases:
                ph.add_facts(st, team, f)
            if valued is not None:
                f.update(valued[e])
            if self.pair_ranks:  # the scoring clause's own facts
                f["pairs"] = pairs[e]
                f["most_pairs"] = all(pairs[e] > p for i, p in enumerate(pairs) if i != e)
            out.append(f)
        if self.side_facts:
            self._side_facts(st, out)
        return out

    def _side_facts(self, st: State, out: list[dict[str, Value]]) -> None:
        """The facts of sides formed this hand (entities are players: entity ``e`` is seat ``e``)."""
        g = st.game
        sides, teams = g.sides.sides(st, at_end=True)
        own = [self.pairs_of(g, w) for w in st.seat_piles["won"]] if self.pair_ranks else []
        tally = [sum(own[s] for s in side) for side in sides] if own else []
        competing = [i for i, side in enumerate(sides) if any(s < g.num_players for s in side)]
        for e, f in enumerate(out):
            f["teams"] = teams
            if own:
                mine = next(i for i, side in enumerate(sides) if e in side)
                f["side_pairs"] = tally[mine]
                f["side_most"] = all(tally[mine] > tally[i] for i in competing if i != mine)
                f["side_top"] = all(tally[mine] >= tally[i] for i in competing if i != mine)
            for name, _bit in self.bet_facts:
                others = [out[o][name] for o in range(len(out)) if o != e]
                f[f"{name}_against"] = "made" if "made" in others else "broken" if "broken" in others else "none"

    def explain(self, facts: dict[str, Value]) -> list[RowUse]:
        """Each table's row for one entity's facts (as :meth:`score` gathered them), in table order."""
        out = []
        for t in self.tables:
            row = t.select(facts)
            out.append(RowUse(t.id, next(i for i, r in enumerate(t.rows) if r is row) + 1, t.evaluate(facts),
                              row.source, {n: facts[n] for n in sorted(t.facts_needed()) if n in facts}))
        return out

    def cite(self, facts: dict[str, Value], stated: object = None) -> tuple[Source | None, dict[str, Value]]:
        """The clause an audit cites for an entity's score, and every fact the tables read.

        With ``stated``, the score a record (or another engine) gives where these tables give another: the
        applying row of the first table one of whose other rows, for these facts, would account for the
        whole difference (a bonus missed or given wrongly is cited by the bonus row, not the points row).
        Otherwise, or when no single row choice accounts for it: the row of the first table that gives the
        entity points (else of the first table whose row cites a clause; else the first table's own clause).

        >>> from cardspec.engine.game import Game
        >>> sc = Game.from_system("bird-dog-2p").scoring
        >>> won = {"nil": "none", "nil_against": "none", "teams": True, "maker": True, "side_pairs": 3, "pairs": 3,
        ...        "side_most": True, "side_top": True}  # the solo won the hand with 3 pairs: 3 + 1 bonus point
        >>> sum(t.evaluate(won) for t in sc.tables)
        4
        >>> sc.cite(won, stated=3)[0].quote  # the bonus point missed
        'If the solo player wins the hand, they earn a bonus point.'
        >>> sc.cite(won, stated=5)[0].quote  # no row choice gives 5: the row that gives points
        'Each pair earned throughout the hand is worth one point.'
        """
        uses = self.explain(facts)
        shown = {n: v for u in uses for n, v in u.facts.items()}
        cited = [u for u in uses if u.source is not None]
        if type(stated) is int:
            off = stated - sum(u.points for u in uses)
            pick = next((u for u in cited if off and self._other_row_gives(u, facts, u.points + off)), None)
            if pick is not None:
                return pick.source, shown
        pick = next((u for u in cited if u.points != 0), cited[0] if cited else None)
        if pick is not None:
            return pick.source, shown
        return (self.tables[0].source if self.tables else None), shown

    def _other_row_gives(self, use: RowUse, facts: dict[str, Value], points: int) -> bool:
        """Whether a row of ``use``'s table other than the one that applied gives ``points`` for ``facts``."""
        table = next(t for t in self.tables if t.id == use.table)
        return any(i != use.row - 1 and r.output(facts) == points for i, r in enumerate(table.rows))

    def score(self, st: State) -> tuple[list[int], list[dict[str, Value]]]:
        """Points for each entity, and the facts they came from."""
        facts = self.hand_facts(st)
        pts = []
        for f in facts:  # loops, not sum() over a generator: a compiled build makes a generator object per sum
            p = 0
            for t in self.tables:
                p += t.evaluate(f)
            pts.append(p)
        active = st.active
        for e, team in enumerate(st.game.teams):
            out = True  # no seat of the entity still in (a loop: compiled, a generator in any() is an object)
            for s in team:
                if active[s]:
                    out = False
            if out:
                pts[e] = 0
        return pts, facts
