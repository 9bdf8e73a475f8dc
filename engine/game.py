"""``Game``: one rule system with its options fixed, compiled into components.

The spec decides and the engine obeys: :class:`Game` reads the option-resolved
spec and builds the deck, the deal, the ranking, the phase components, the
scoring tables and the match rules. No rule system has code of its own.

>>> g = Game.from_system("euchre")
>>> g.num_players, g.deck.size, [p.kind for p in g.phases]
(4, 24, ['turn_up_trump', 'pile_trade', 'declarations', 'declarations', 'tricks'])
>>> Game.from_system("euchre", {"all_pass": "redeal"}).options["all_pass"]
'redeal'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from . import spec as spec_mod
from .actions import Action, ActionCodec
from .cards import Deck
from .components import build_component
from .components.base import Component
from .components.deal import DealRules
from .errors import NumberRangeError, OutOfRangeActionError, Source, SpecError
from .handvalue import HandValue
from .loader import key_path, relocate, spec_schema, validate
from .match import MatchRules
from .options import complete, resolve
from .ranking import Ranking, TrickTables
from .schedule import RoundSchedule, substitute
from .scoring import Scoring
from .seats import Seating, SidesRule
from .zones import build_zones, check_declared

if TYPE_CHECKING:
    from .state import State, Step


MAX_HANDS: Final = 10_000
"""The hands a match may last before the action bound stops it (``Game.action_bound``)."""
MAX_MATCH_ACTIONS: Final = 2_000_000
"""The most actions any match may take (as many as a record may hold)."""


def chosen_options(decls: Mapping[str, Any], options: Mapping[str, Any]) -> str:
    """The options set away from their defaults, as the command line gives them (``teams=true, players=3``); empty
    when every option has its default.

    >>> from types import SimpleNamespace as D
    >>> chosen_options({"teams": D(default=False), "players": D(default=4)}, {"teams": True, "players": 3})
    'teams=true, players=3'
    >>> chosen_options({"teams": D(default=False)}, {"teams": False})
    ''
    """
    return ", ".join(f"{n}={str(v).lower() if isinstance(v, bool) else v}"
                     for n, v in options.items() if v != decls[n].default)


def _under_options(spec: spec_mod.Spec, chosen: str, exc: SpecError) -> SpecError:
    """``exc``, raised building the rules under the options ``chosen``, naming them, and the file and line that
    wrote its key: with ``extends:``, an inherited key's parent file (:func:`~.loader.relocate`, as a load-time
    error names it)."""
    exc = relocate(exc, spec.loaded)
    line = exc.line
    if line is None and exc.key and exc.key != "<top>" and exc.file in ("", spec.file):
        line = spec.loaded.line_of(key_path(exc.key))
    return SpecError(f"with options {chosen}: {exc.detail}", exc.file or spec.file, line, exc.key)


class Game:
    """Frozen rules: a spec plus a complete set of option values."""

    def __init__(self, spec: spec_mod.Spec, options: Mapping[str, Any] | None = None) -> None:
        self.spec = spec
        self.id = spec.id
        decls = spec.option_decls
        self.options: dict[str, Any] = complete(decls, options)
        rules: dict[str, Any] = resolve(spec.data, decls, self.options, spec.file)
        self.rules = rules
        self._parsed: dict[str, Action] = {}
        self.steps: dict[Action, list[Step | None]] = {}
        """The :class:`Step` records ``State.apply`` returns, made once each (they are immutable; a match
        then makes fewer objects): by action, then ``2 * seat + hand_ended``; at most ``state.STEP_ACTIONS``
        actions."""
        chosen = chosen_options(decls, self.options)
        if chosen:
            # an option map may put a value of the wrong kind somewhere: check the resolved rules too
            try:
                validate(rules, spec_schema(), spec.loaded, spec.file)
            except SpecError as exc:
                raise _under_options(spec, chosen, exc) from None
        try:
            self._build(spec, rules)
        except SpecError as exc:  # a clause the options bent (players=3 with partners opposite) names them
            if not chosen:
                raise
            raise _under_options(spec, chosen, exc) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SpecError(f"with options {chosen or 'the defaults'}: cannot build the rules "
                            f"({type(exc).__name__}: {exc})", spec.file) from None

    def _build(self, spec: spec_mod.Spec, rules: dict[str, Any]) -> None:
        f = spec.file
        d = rules["deck"]
        suits = tuple(d["suits"])
        copies = d.get("copies", 1)
        if isinstance(copies, dict):  # {per_players: k, extra: e}: a copy for every k players (rounded up), plus e
            copies = -(-rules["players"]["count"] // copies["per_players"]) + copies.get("extra", 0)
        # suits: {} is a deck without suits: one unnamed suit, cards named by rank alone (birdhead's 7#1)
        jokers = d.get("jokers", 0)
        if isinstance(jokers, dict):  # {per_deck: k}: k jokers with every copy of the deck (hand-and-foot)
            jokers = jokers["per_deck"] * copies
        self.deck = Deck(tuple(d["ranks"]), suits or ("",), tuple(d["suits"][s] for s in suits) or ("none",),
                         copies, jokers)
        p = rules["players"]
        n = p["count"]
        if type(n) is not int or not 2 <= n <= 16:
            raise SpecError(f"players.count must be an integer 2..16, got {n!r}", f, key="players.count")
        self.num_players: int = n
        pships = p.get("partnerships", [])
        if pships == "opposite":  # partners sit opposite each other: seats s and s + n/2 (hand-and-foot teams)
            if n % 2 or n < 4:
                raise SpecError(f"partners sitting opposite need an even number of players, four or more (two "
                                f"sides at least), not {n}", f, key="players.partnerships")
            pships = [[s, s + n // 2] for s in range(n // 2)]
        teams = [tuple(t) for t in pships] or [(i,) for i in range(n)]
        seats = sorted(s for t in teams for s in t)
        if seats != list(range(n)):
            raise SpecError("partnerships must name every seat exactly once", f, key="players.partnerships")
        self.teams: tuple[tuple[int, ...], ...] = tuple(teams)
        self.entity_of: tuple[int, ...] = tuple(next(i for i, t in enumerate(teams) if s in t)
                                                for s in range(n))
        self.partners_mask: tuple[int, ...] = tuple(
            sum(1 << o for o in teams[self.entity_of[s]] if o != s) for s in range(n))
        self.seating = Seating.build(p, n, f)
        """Players and dummy seats (see :mod:`cardspec.engine.seats`)."""
        self.num_seats: int = self.seating.num_seats
        """Seats that hold cards: the players, then any dummy seat."""
        seat_piles = {x.seat: x.pile for x in self.seating.dummies if x.pile}
        sched = rules.get("schedule")
        self.schedule: RoundSchedule | None = RoundSchedule.build(sched, f) if sched else None
        self.round_deals: tuple[DealRules, ...] = tuple(
            DealRules.build(dr, self.deck, n, f, seat_piles) for dr in self.per_round(rules["deal"], "deal"))
        self.deal = self.round_deals[0]
        """The first round's deal (every round's, without a schedule); see :meth:`deal_for`."""
        self.ranking = self._ranking(rules.get("ranking"))
        hv = rules.get("hand_value")
        self.hand_value = HandValue.build(hv, self.deck, f) if hv else None
        self.phases: tuple[Component, ...] = tuple(
            build_component(ph, self, f"phases.{i}") for i, ph in enumerate(rules["phases"]))
        self.zones = build_zones(rules["zones"], self.deck.ranks, f)
        used = {"hand": "the deal", **{p.name: "the deal" for p in self.deal.piles}}
        for ph in self.phases:
            for z in ph.zone_ids():
                used.setdefault(z, f"phase '{ph.id}'")
        check_declared(self.zones, used, f)
        self.zone_of = {z.id: z for z in self.zones}
        self.table_zones: tuple[str, ...] = tuple(z.id for z in self.zones if z.owner == "table")
        """Zones on the table (``State.piles``), each a pile bottom to top."""
        self.seat_zones: tuple[str, ...] = tuple(z.id for z in self.zones if z.owner == "seat" and z.id != "hand")
        """Zones owned by each seat besides ``hand`` (``State.seat_piles``), each a set of cards per seat."""
        self.tallies: tuple[str, ...] = tuple(dict.fromkeys(t for ph in self.phases for t in ph.tallies()))
        """The public per-seat counts the phases keep (``State.tally``)."""
        self.settles_contract = any(ph.settles_contract for ph in self.phases)
        self.fact_phases: tuple[Component, ...] = tuple(
            ph for ph in self.phases if type(ph).add_facts is not Component.add_facts)
        """The phases that offer scoring facts (``add_facts``)."""
        self.result_phases: tuple[Component, ...] = tuple(
            ph for ph in self.phases if type(ph).result_fields is not Component.result_fields)
        """The phases that add fields to a hand's result (``result_fields``)."""
        """Whether some phase settles a contract (trump, maker: :mod:`cardspec.engine.contract`)."""
        try:
            self.codec = ActionCodec(self.deck, [sig for ph in self.phases for sig in ph.action_sigs()])
        except ValueError as exc:
            raise SpecError(f"the actions of the phases clash: {exc}", f, key="phases") from None
        for i, ph in enumerate(self.phases):
            ph.index = i
            ph.guests = []
        self._link_guests(f)
        for ph in self.phases:
            ph.bind(self)
        self.sides = SidesRule.build(rules["scoring"].get("sides"), f)
        """How seats form sides each hand (fixed partnerships unless ``scoring.sides`` says otherwise)."""
        self.fixed_sides: tuple[int, ...] | None = self.sides.fixed_index(self) if self.sides.form == "fixed" else None
        """Each seat's side for every hand, when sides are fixed for the match (else None: formed per hand)."""
        self.rings: tuple[tuple[int, ...], ...] = tuple(self.seating.ring(d) for d in range(n))
        """The clockwise ring of a hand for each dealer (:meth:`Seating.ring`)."""
        self.controllers: tuple[int, ...] = tuple(range(n)) + (-1,) * len(self.seating.dummies)
        """Who acts for each seat as a hand starts: a player for itself; a dummy seat, nobody yet (-1)."""
        self.scoring = Scoring.build(rules["scoring"], self, f)
        self.match = MatchRules.build(rules["match"], self, f)
        b = rules["bounds"]
        self.hand_points_bounds: tuple[int, int] = (b["hand_points"][0], b["hand_points"][1])
        self.actions_per_hand: int | None = b["actions_per_hand"]
        self.action_bound: int = min(MAX_MATCH_ACTIONS, self.actions_per_hand * MAX_HANDS) \
            if self.actions_per_hand else MAX_MATCH_ACTIONS
        """No match runs past this many actions (``State.apply`` refuses the next): the declared actions per
        hand times :data:`MAX_HANDS`, and never more than :data:`MAX_MATCH_ACTIONS`."""
        self.warnings: list[str] = self._warnings()
        """What a user should know before playing these rules (a target too far to reach in the action bound)."""
        self._tables: dict[tuple[int, int], TrickTables] = {}

    def _warnings(self) -> list[str]:
        m = self.match
        if m.kind not in ("target", "countdown"):
            return []
        gap = abs(m.target - m.start)
        best = max(abs(self.hand_points_bounds[0]), abs(self.hand_points_bounds[1]), 1)
        hands = -(-gap // best)
        if hands * (self.actions_per_hand or 1) > self.action_bound or hands > MAX_HANDS:
            return [f"the {m.counter} target {m.target} needs at least {hands} hands at {best} a hand, more than the "
                    f"action bound of {self.action_bound} actions ({MAX_HANDS} hands) allows: matches will stop "
                    "at the bound"]
        return []

    def per_round(self, value: Any, key: str) -> tuple[Any, ...]:
        """A spec value for every round of the schedule, ``{$round: NAME}`` references resolved.

        Without a schedule: one entry (a reference is then a spec error). Index the
        result with :meth:`round_index`.
        """
        if self.schedule is None:
            return (substitute(value, None, self.spec.file, key),)
        return tuple(substitute(value, row, self.spec.file, key) for row in self.schedule.rows)

    def round_index(self, hand_no: int) -> int:
        """The schedule row of hand ``hand_no`` (0 without a schedule)."""
        return self.schedule.index(hand_no) if self.schedule is not None else 0

    def deal_for(self, hand_no: int) -> DealRules:
        """The deal of hand ``hand_no`` (its hand size may come from the round schedule)."""
        return self.round_deals[self.round_index(hand_no)] if len(self.round_deals) > 1 else self.deal

    def _link_guests(self, file: str) -> None:
        """Give each host phase its guests (``also_on_turns_of``): the host must come earlier and host guests."""
        by_id = {ph.id: ph for ph in self.phases}
        for ph in self.phases:
            if ph.host is None:
                continue
            host = by_id.get(ph.host)
            if host is None or not host.hosts_guests or host.index > ph.index:
                raise SpecError(f"also_on_turns_of names '{ph.host}', which is no earlier phase that offers actions "
                                "on its turns (a turn_up_trump phase does)", file, key=f"{ph.key}.also_on_turns_of")
            ph.bind_host(host)
            host.guests.append(ph)

    @staticmethod
    def from_system(system: str, options: Mapping[str, Any] | None = None) -> Game:
        """A game by bundled id or spec path."""
        return Game(spec_mod.load(system), options)

    def _ranking(self, r: Mapping[str, Any] | None) -> Ranking | None:
        if r is None:
            return None
        ranks = self.deck.ranks

        def idx(xs: Sequence[str], key: str) -> tuple[int, ...]:
            bad = [x for x in xs if x not in ranks]
            if bad:
                raise SpecError(f"ranks {bad} are not in the deck", self.spec.file, key=key)
            return tuple(ranks.index(x) for x in xs)

        bowers = r.get("bowers")
        bower_rank = idx([bowers["rank"]], "ranking.bowers")[0] if bowers else None
        return Ranking(self.deck, idx(r["plain"], "ranking.plain"), idx(r["trump"], "ranking.trump"),
                       bower_rank, r.get("top_card", "none") == "twin_of_trump_card",
                       r.get("top_card_keeps_suit", True) is not False,
                       r.get("top_card_on_trump_lead", "wins") == "wins",
                       idx(r["low"], "ranking.low") if r.get("low") is not None else None,
                       Source(**bowers["source"]) if bowers and "source" in bowers else None)

    def trick_tables(self, trump: int, trump_card: int) -> TrickTables:
        """Cached ranking tables for a trump context."""
        key = (trump, trump_card if self.ranking and self.ranking.twin_top else -1)
        t = self._tables.get(key)
        if t is None:
            assert self.ranking is not None
            t = self._tables[key] = self.ranking.tables(trump, key[1])
        return t

    def new_initial_state(self, seed: int | None = 0,
                          deals: Sequence[Mapping[str, Any]] | None = None,
                          start: Mapping[str, Any] | None = None, hand_limit: int | None = None, *,
                          keep_deals: bool = False) -> State:
        """A new match: from a seed, or from explicit deals (one per hand, in order).

        ``start`` takes a match up part way (``hand``, ``dealer``, ``totals``, ``extra_hand``);
        ``hand_limit`` stops play after that many hands (a one-hand record: 1); ``keep_deals`` keeps every
        hand's deal (``State.deal_log``), which the match's record then lists as explicit ``deals``.
        """
        from .state import State

        return State(self, seed, deals, start, hand_limit, keep_deals=keep_deals)

    def simulate(self, n: int, bots: str | Sequence[str] = "random", seed: int = 0,
                 hand_limit: int | None = None) -> Iterator[State]:
        """The final states of ``n`` seeded bot matches (seeds ``seed`` on), played by the bulk loop.

        ``bots`` names one bot for every player or one per player; ``hand_limit`` cuts each match
        after that many hands. Each match is the one the step API
        plays from the same seed and bots (:mod:`cardspec.engine.bulk`), record for record.

        >>> [len(st.hand_results) > 0 for st in Game.from_system("euchre").simulate(2, "rule", 5)]
        [True, True]
        """
        from .bulk import simulate

        return simulate(self, n, bots, seed, hand_limit)

    def action_name(self, a: Action) -> str:
        """Readable name of an action."""
        return self.codec.name(a)

    def parse_action(self, text: str) -> Action:
        """The action named by ``text`` (names already parsed are remembered: a game's vocabulary is finite)."""
        a = self._parsed.get(text)
        if a is None:
            try:
                a = self.codec.parse(text)
            except NumberRangeError as exc:  # a number past the range a clause (or a register entry) sets
                for ph in self.phases:
                    if exc.kind in ph.codec_kinds():
                        why = ph.number_bound(exc.kind, exc.number)
                        if why is not None:
                            shown = " ".join(text.split())
                            shown = shown if len(shown) <= 60 else f"{shown[:57]}..."  # a number of any length
                            raise OutOfRangeActionError(shown, why[0], why[1]) from None
                raise
            if len(self._parsed) < 100_000:
                self._parsed[text] = a
        return a

    def phase_source(self, i: int) -> Source:
        """The clause of phase ``i``."""
        return self.phases[i].source

    def __repr__(self) -> str:
        return f"Game({self.id!r}, {self.options!r})"
