"""``State``: one position of a match, in the spirit of OpenSpiel.

``legal_actions()`` lists every legal action (sorted ints; names via
``game.action_name``), ``apply()`` checks and carries one out and returns a
frozen :class:`Step`, chance (the shuffle of each hand, reshuffles) comes from
the seed, ``observation(seat)`` hides what that seat cannot see, and
``copy()`` is cheap (flat lists and ints).

>>> from cardspec.engine.game import Game
>>> st = Game.from_system("euchre").new_initial_state(seed=7)
>>> st.current_player() == (st.dealer + 1) % 4
True
>>> sorted(st.game.action_name(a) for a in st.legal_actions())[-2:]
['order_up', 'pass']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from . import chance
from .actions import Action
from .cards import Card, CardMask
from .contract import Contract
from .errors import ActionBoundError, IllegalActionError, MalformedRecordError, RecordError, StartRuleError
from .zones import census, view

if TYPE_CHECKING:
    from .components.base import Component, PhaseState
    from .game import Game
    from .unseen import Unseen

STATE_FIELDS = (
    "game", "seed", "deals", "hand_no", "dealer", "active", "counters", "phase", "cur", "hands",
    "piles", "seat_piles", "contract", "tally", "history", "hand_results", "winners",
    "extra_hand", "hand_start", "chance_count", "comp", "cstate", "ring", "controller", "sides", "dealt",
    "first_hand", "hand_limit", "halted", "start", "unseen", "contenders", "listed", "listed_n", "listed_phase",
    "listed_cur", "listed_hand", "listed_sizes", "deal_log",
)


class Step(NamedTuple):
    """What one ``apply`` did: who acted, the action, and whether a hand ended."""

    seat: int
    action: Action
    hand_ended: bool


_new_step = tuple.__new__  # builds a Step without NamedTuple's Python-level __new__ (hot path)
STEP_ACTIONS = 4096
"""Actions whose Steps a Game keeps (``Game.steps``): Euchre has about 60; a melding game has many more."""


def _winners_of(st: State) -> tuple[int, ...] | None:
    """``st.winners``, as a call: after ``st.winners = None``, a read of the attribute in the same function is
    typed None (mypy narrows it, and the compiled build checks the value against that type)."""
    return st.winners


class State:
    """A position: every card's place, whose turn, scores, and the history."""

    __slots__ = STATE_FIELDS

    game: Game
    seed: int | None
    deals: Sequence[Mapping[str, Any]] | None
    hand_no: int
    dealer: int
    active: list[bool]
    counters: list[int]
    phase: int
    cur: int
    hands: list[CardMask]
    """The ``hand`` zone: each seat's cards."""
    piles: dict[str, list[Card]]
    """Every zone on the table, bottom to top (a kitty, a stock, the trick being played)."""
    seat_piles: dict[str, list[CardMask]]
    """Every zone owned by each seat other than ``hand`` (the cards each seat won in tricks)."""
    contract: Contract
    """What the bidding settled this hand (:mod:`cardspec.engine.contract`)."""
    tally: dict[str, list[int]]
    """Public per-seat counts this hand, each kept by the component that declares it
    (``tricks``: tricks won); see :meth:`Component.tallies`."""
    history: list[tuple[int, Action, int]]
    hand_results: list[dict[str, Any]]
    winners: tuple[int, ...] | None
    extra_hand: bool
    contenders: tuple[int, ...]
    """The entities that can win the extra hand being played (empty: every entity; see the match's
    ``extra_hand_among``)."""
    hand_start: int
    dealt: tuple[tuple[int, ...], tuple[tuple[str, int], ...]]
    """The sizes the deal gave this hand (each seat's hand, each dealt pile), before the first phase began
    (a phase that deals further, such as hand-and-foot's piles, starts at once)."""
    chance_count: int
    comp: Component
    cstate: list[PhaseState | None]
    ring: tuple[int, ...]
    """The clockwise successor of every seat this hand (a dummy's place may change with the deal)."""
    controller: tuple[int, ...]
    """The player who acts for each seat this hand (-1: not known yet; players act for themselves)."""
    sides: tuple[int, ...]
    """Each seat's side this hand, as play sees it (fixed partnerships, or formed once trump is made)."""
    first_hand: int
    """The number of the first hand this state plays (0, or later for a record that starts mid-match);
    ``deals[i]`` is the deal of hand ``first_hand + i``."""
    hand_limit: int | None
    """How many hands this state plays at most (a one-hand record: 1); None: until the match is over."""
    unseen: Unseen | None
    """The cards this hand's explicit deal does not show (``?``), for an audit; None when every card is known."""
    start: Mapping[str, Any] | None
    """Where a record that starts mid-match takes it up (see :meth:`_start_from`), as given."""
    halted: str | None
    """Why play stopped before the match was over: ``"hand_limit"`` (the hands asked for are played) or
    ``"no_deal"`` (no seed and no explicit deal for the next hand); None while play goes on."""
    deal_log: list[tuple[int, tuple[CardMask, ...], dict[str, tuple[Card, ...]]]] | None
    """With ``keep_deals``: every hand's deal as it was dealt, before the first phase began (the dealer, each
    seat's hand, each table zone bottom to top), for :func:`~cardspec.engine.record.record_of` to write as
    explicit deals; None (the default): not kept."""
    listed: tuple[Action, ...] | None
    """The last list :meth:`legal_actions` made for a phase that keeps its lists (``Component.keeps_list``: its
    check is that list, or costs more than a look-up in it), so that :meth:`apply` carries out an action from it
    with no second check; None: none kept (each :meth:`apply` drops it). The position it is for
    (:meth:`list_key`) is kept field by field in ``listed_n`` .. ``listed_sizes`` (:meth:`listed_key`): ints a
    compiled build holds natively, where a tuple would box each of them on every action."""
    listed_n: int
    listed_phase: int
    listed_cur: int
    listed_hand: CardMask
    listed_sizes: int

    def __init__(self, game: Game, seed: int | None, deals: Sequence[Mapping[str, Any]] | None,
                 start: Mapping[str, Any] | None = None, hand_limit: int | None = None, *,
                 blank: bool = False, keep_deals: bool = False) -> None:
        self.game = game
        if blank:  # an empty shell for :meth:`copy` to fill in (the compiled build has no bare __new__)
            return
        n = game.num_players
        self.seed = seed
        self.deals = deals
        self.hand_no = self.first_hand = 0
        self.hand_limit = hand_limit
        self.halted = None
        self.start = start
        self.active = [True] * game.num_seats
        self.counters = [game.match.start] * len(game.teams)
        self.history = []
        self.hand_results = []
        self.winners = None
        self.extra_hand = False
        self.contenders = ()
        self.listed = None
        self.listed_n = self.listed_phase = self.listed_cur = self.listed_hand = self.listed_sizes = -1
        self.deal_log = [] if keep_deals else None
        if start is not None:
            self._start_from(start)
        if deals:
            d = deals[0].get("dealer")
            if type(d) is not int or not 0 <= d < n:
                raise RecordError(f"deal 0: dealer must be a seat 0..{n - 1}", path="deals.0.dealer")
            if start is not None and "dealer" in start and start["dealer"] != d:
                raise RecordError(f"deal 0 names dealer {d} but the start names {start['dealer']}",
                                  path="deals.0.dealer")
            self.dealer = d
        elif start is not None and "dealer" in start:
            pass
        elif game.match.first_dealer == "random":
            self.dealer = chance.randbelow(self._seed(), -1, 0, n)
        else:
            self.dealer = 0
        if game.match.first_dealer == "seat0" and self.first_hand == 0 and self.dealer != 0:
            where = "deals.0.dealer" if deals else "start.dealer"
            raise StartRuleError(f"{where.split('.')[0]} names dealer {self.dealer} for hand 0, but seat 0 deals the "
                              "match's first hand (a record of a later hand gives its number in start.hand)",
                              path=where, source=game.match.first_dealer_source or game.match.rotation_source)
        self._start_hand()

    def _start_from(self, start: Mapping[str, Any]) -> None:
        """A match taken up part way: the hand number, the dealer, the running totals
        (each entity's counter: points, or strikes), and whether an extra hand is being played.
        Entities whose counter already puts them out of an elimination match sit out."""
        g = self.game
        n = g.num_players
        hand = start.get("hand", 0)
        if type(hand) is not int or not 0 <= hand <= 100_000:
            raise RecordError("the start's hand must be a hand number 0..100000", path="start.hand")
        self.hand_no = self.first_hand = hand
        if "dealer" in start:
            d = start["dealer"]
            if type(d) is not int or not 0 <= d < n:
                raise RecordError(f"the start's dealer must be a seat 0..{n - 1}", path="start.dealer")
            self.dealer = d
        if "totals" in start:
            t = start["totals"]
            if not isinstance(t, list) or len(t) != len(g.teams) or \
                    any(type(v) is not int or abs(v) > 1_000_000 for v in t):
                raise RecordError(f"the start's totals must list {len(g.teams)} whole numbers (one per "
                                  f"{'team' if g.fixed_sides is not None and len(g.teams) < n else 'player'}, "
                                  "at most 1000000 in size)", path="start.totals")
            self.counters = list(t)
        self.extra_hand = start.get("extra_hand", False) is True
        m = g.match
        if self.extra_hand and m.extra_hand_among == "tied":
            self.contenders = self._start_contenders(start)
        elif "contenders" in start:
            raise RecordError("the start names contenders, but only an extra hand that only the tied entities "
                              "can win has any (extra_hand true, and a reading where the others cannot win)",
                              path="start.contenders")
        if m.kind == "elimination":
            for e, team in enumerate(g.teams):
                if self.counters[e] >= m.limit:
                    for s in team:
                        self.active[s] = False
            if sum(self.active[:n]) < 2:
                raise RecordError("the start's totals leave fewer than two players in the match",
                                  path="start.totals")
            if not self.active[self.dealer if "dealer" in start else 0]:
                raise RecordError("the start's dealer is already out of the match", path="start.dealer")
        if not self.extra_hand:
            self._check_not_over(start)
        self._check_previous(start)

    def _check_not_over(self, start: Mapping[str, Any]) -> None:
        """Refuse a start from which no hand can be played: the match's own end test
        (:meth:`MatchRules.after_hand`), applied to a copy of the start as if the hand before it had just
        been scored with no points, ends the match (a total at the target, or at the floor; the last of a
        fixed number of hands played). A start that calls for a tie-break hand says ``extra_hand``."""
        g = self.game
        probe = State(g, None, None, blank=True)
        probe.counters = self.counters[:]
        probe.active = self.active[:]
        probe.hand_no = self.hand_no - 1
        probe.extra_hand = False
        probe.contenders = ()
        probe.winners = None
        probe.cur = 0
        probe.contract = Contract.empty(g.num_seats)
        g.match.after_hand(probe, [0] * len(self.counters))
        winners = _winners_of(probe)  # read afresh: the assignment above narrowed probe.winners to None
        if winners is None:
            return
        won = f"seats {', '.join(map(str, winners))} have won"
        if g.match.kind == "rounds":  # a fixed number of hands: the hand number ends it
            raise RecordError(f"the start's hand {self.hand_no} is past the match's last hand "
                              f"(hand {g.match.rounds - 1}): {won}, and no hand can be played",
                              path="start.hand", source=g.match.source)
        raise RecordError(f"the start's totals {self.counters} (before hand {self.hand_no}) already end the "
                          f"match: {won}, and no hand can be played", path="start.totals", source=g.match.source)

    def _check_previous(self, start: Mapping[str, Any]) -> None:
        """The start's ``previous``: what the hands before it left that a rule of this hand reads, one field for each
        (:meth:`Component.previous_fields`): ``losers``, the seats holding the highest card at the end of the hand
        before, in the order the rules list them (birdhead's first lead goes left of the last of them), and
        ``drop_outs``, each player's run of drop-outs just before it (a limit on consecutive drop-outs). Only for a
        later hand, and only fields a rule reads under the record's options; each phase then checks its own fields
        (:meth:`Component.check_previous`: a field it needs may not be left out of the start of a later hand)."""
        g = self.game
        given = "previous" in start
        prev = start.get("previous")
        if given:
            if self.first_hand == 0:
                raise RecordError("the start gives the previous hand, but hand 0 has none", path="start.previous")
            read = {f for ph in g.phases for f in ph.previous_fields()}
            if not read:
                raise RecordError(f"the start gives the previous hand, which no rule of {g.id} reads (under "
                                  "these options)", path="start.previous")
            if not isinstance(prev, dict):
                raise MalformedRecordError(f"the start's previous must be an object with {', '.join(sorted(read))}",
                                           path="start.previous")
            for k in prev:
                if k not in read:
                    raise MalformedRecordError(f"the start gives the previous hands' {k}, which no rule of {g.id} "
                                               f"reads (under these options; it reads {', '.join(sorted(read))})",
                                               path=f"start.previous.{k}")
        if self.first_hand > 0:
            for ph in g.phases:
                ph.check_previous(self, prev if isinstance(prev, dict) else None)

    def previous_result(self) -> Mapping[str, Any] | None:
        """The result of the hand before this one: the record's own last hand, or for the first hand of a record
        that starts mid-match, what its start says of the hand before (``start.previous``); None if neither."""
        if self.hand_results:
            return self.hand_results[-1]
        return self.start.get("previous") if self.start is not None else None

    def _start_contenders(self, start: Mapping[str, Any]) -> tuple[int, ...]:
        """Who contests the extra hand a mid-match record takes up: ``start.contenders`` as given, or else
        the entities that reached the target (``simultaneous: extra_hand``), or those tied at the best total."""
        g = self.game
        given = start.get("contenders")
        if given is not None:
            if not isinstance(given, list) or len(set(given)) < 2 or \
                    any(type(e) is not int or not 0 <= e < len(g.teams) for e in given):
                raise RecordError(f"the start's contenders must list two or more entities 0..{len(g.teams) - 1}",
                                  path="start.contenders")
            return tuple(sorted(set(given)))
        return g.match.tied_contenders(self.counters)

    # --- chance -----------------------------------------------------------------
    def _seed(self) -> int:
        """The seed, for a chance event; a record without one that needs chance is malformed (a null seed is
        allowed only where the deals cover every hand and nothing else is random: ``docs/records.md``)."""
        if self.seed is None:
            i = self.hand_no - self.first_hand
            if self.deals and i < len(self.deals) and self.deals[i] is not None:
                raise MalformedRecordError(f"chance needed but the record has no seed: hand {self.hand_no} shuffles "
                                           "cards again after its deal (the discards, when the stock runs out), "
                                           "which only the seed decides", path="seed")
            raise MalformedRecordError("chance needed but the record has no seed and no explicit deal for "
                                       f"hand {self.hand_no}", path="seed")
        return self.seed

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        """A seeded shuffle of ``cards`` for the next chance event of this hand.

        Chance is a pure function of (seed, hand, event number): see
        :mod:`cardspec.engine.chance`; a copy replays the same chance.
        """
        return list(map(cards.__getitem__, self._permutation(len(cards))))

    def _permutation(self, n: int) -> list[int]:
        """The next chance event's ordering of ``range(n)``: what :meth:`shuffled` gives for ``range(n)``."""
        self.chance_count += 1
        return chance.permutation(self._seed(), self.hand_no, self.chance_count, n)

    # --- hand flow ---------------------------------------------------------------
    def active_count(self) -> int:
        """How many seats are active (:attr:`active`): ``sum(active)``, counted in a loop that a compiled
        build runs natively (``sum`` of a list is a generic call there)."""
        n = 0
        for a in self.active:
            if a:
                n += 1
        return n

    def seats_from(self, seat: int) -> list[int]:
        """Active seats clockwise (along this hand's :attr:`ring`), starting after ``seat``.

        A dummy seat is active only in the phases it takes part in (see :meth:`_enter_phase`).
        """
        ring, active = self.ring, self.active
        out = []
        s = seat
        for _ in range(len(ring)):
            s = ring[s]
            if active[s]:
                out.append(s)
        return out

    def next_seat(self, seat: int, skip_out: bool = True) -> int:
        """The next active seat clockwise along :attr:`ring` (skipping players sitting out)."""
        ring, active = self.ring, self.active
        s = seat
        for _ in range(len(ring)):
            s = ring[s]
            if active[s] and not (skip_out and self.contract.out >> s & 1):
                return s
        return seat

    def _enter_phase(self, comp: Component) -> None:
        """Before a phase starts: dummy seats take part only in phases that play cards
        (``dummies_take_part``); when one first does, its controller and the sides are fixed."""
        seating = self.game.seating
        take = getattr(comp, "dummies_take_part", False)
        for x in seating.dummies:
            self.active[x.seat] = take
        if take and any(self.controller[x.seat] < 0 for x in seating.dummies):
            self.controller = seating.controllers(self)
            self.sides = self.game.sides.side_index(self)

    def _start_hand(self) -> None:
        g = self.game
        n = g.num_seats
        self.phase = 0
        self.comp = g.phases[0]
        self.cur = -1
        self.contract = Contract.empty(n)
        self.tally = {name: [0] * n for name in g.tallies}
        self.cstate = [ph.new_state() for ph in g.phases]
        self.chance_count = 0
        self.hand_start = len(self.history)
        seating = g.seating
        self.ring = g.rings[self.dealer]
        self.controller = g.controllers
        if seating.dummies:
            self._enter_phase(g.phases[0])
            seats = seating.deal_order(self.ring, self.dealer, self.active)
        else:
            seats = self.seats_from(self.dealer)
        self.sides = g.fixed_sides if g.fixed_sides is not None else g.sides.side_index(self)
        i = self.hand_no - self.first_hand
        explicit = self.deals[i] if self.deals and i < len(self.deals) else None
        if explicit is not None:
            from .record import explicit_deal

            on_pile = {x.seat for x in seating.dummies if x.pile}
            self.hands, dealt, stand_ins = explicit_deal(self, explicit, [s for s in seats if s not in on_pile])
            self.chance_count = 1  # the deal is the hand's first chance event, given or drawn: a later shuffle of
            # the hand (a reshuffled stock) is the seeded game's second event either way, so that a seeded record
            # written with its deals replays as played
        else:
            stand_ins = []
            order = self._permutation(g.deck.size)  # the whole deck shuffled
            self.hands, dealt = g.deal_for(self.hand_no).deal(order, seats, n)
        for z in g.table_zones:  # the table's zones the deal leaves out start empty
            if z not in dealt:
                dealt[z] = []
        self.piles = dealt
        self.seat_piles = {z: [0] * n for z in g.seat_zones}
        self.dealt = (tuple([h.bit_count() for h in self.hands]), tuple([(k, len(v)) for k, v in dealt.items()]))
        self.unseen = None
        if stand_ins:
            from .unseen import Unseen

            self.unseen = Unseen.start(self, stand_ins)
        if self.deal_log is not None:
            self.deal_log.append((self.dealer, tuple(self.hands), {k: tuple(v) for k, v in dealt.items()}))
        g.phases[0].start(self)

    def next_phase(self) -> None:
        """Leave the current phase; start the next, or score the hand."""
        self.phase += 1
        if self.phase < len(self.game.phases):
            self.comp = self.game.phases[self.phase]
            if self.game.seating.dummies:
                self._enter_phase(self.comp)
            self.comp.start(self)
        else:
            self._end_hand()

    def _result(self, thrown_in: bool, scores: list[int]) -> dict[str, Any]:
        """A hand's result: the hand and dealer, the contract (if the game has bidding), the scores,
        and what each phase adds (:meth:`Component.result_fields`)."""
        g = self.game
        r: dict[str, Any] = {"hand": self.hand_no, "dealer": self.dealer}
        if g.settles_contract:
            r.update(self.contract.result_fields(g))
        r["thrown_in"] = thrown_in  # one key at a time: a compiled build calls update(**kw) generically
        r["scores"] = scores
        r["totals"] = list(self.counters)
        for ph in g.result_phases:
            r.update(ph.result_fields(self))
        return r

    def redeal(self) -> None:
        """The hand is thrown in: no score, the deal passes on."""
        self.hand_results.append(self._result(True, [0] * len(self.counters)))
        self._next_hand()

    def _end_hand(self) -> None:
        g = self.game
        gained, _facts = g.scoring.score(self)
        for e, p in enumerate(gained):
            self.counters[e] = self.counters[e] + p
        r = self._result(False, gained)
        r["facts"] = _facts  # each entity's scoring facts: an audit names the table row that applies
        self.hand_results.append(r)
        g.match.after_hand(self, gained, _facts)
        if self.winners is None:
            self._next_hand()
        else:
            self.cur = -1

    def _next_hand(self) -> None:
        if self.hand_limit is not None and len(self.hand_results) >= self.hand_limit:
            self.halted, self.cur = "hand_limit", -1
            return
        i = self.hand_no + 1 - self.first_hand
        if self.seed is None and not (self.deals and i < len(self.deals)):
            self.halted, self.cur = "no_deal", -1  # the record says no more: stop here, all of it applied
            return
        self.hand_no += 1
        n = self.game.num_players  # the deal passes among the players only, never to a dummy seat
        if self.game.match.rotation == "none":
            pass
        elif self.game.match.rotation == "loser":
            self.dealer = self.game.match.loser_deals(self)
        elif self.game.match.rotation == "left":
            self.dealer = next((self.dealer + i) % n for i in range(1, n + 1) if self.active[(self.dealer + i) % n])
        else:
            self.dealer = next((self.dealer - i) % n for i in range(1, n + 1) if self.active[(self.dealer - i) % n])
        if self.deals and i < len(self.deals):
            d = self.deals[i].get("dealer", self.dealer)
            if d != self.dealer:
                raise RecordError(f"deal {i}: dealer {d} but the rotation gives {self.dealer}",
                                  path=f"deals.{i}.dealer", source=self.game.match.rotation_source)
        self._start_hand()

    def finish(self, entities: Sequence[int]) -> None:
        """End the match; the players of these entities win."""
        self.winners = tuple(sorted(s for e in entities for s in self.game.teams[e]))
        self.cur = -1

    # --- the public step API -----------------------------------------------------
    def current_player(self) -> int:
        """The player to act, or -1 when the match is over.

        The player controlling the acting seat :attr:`cur`: the seat itself, or for a
        dummy seat its controller this hand (:mod:`cardspec.engine.seats`).
        """
        cur = self.cur
        return self.controller[cur] if cur >= 0 else -1

    def is_terminal(self) -> bool:
        """Whether play is over: the match is over (``winners`` set), or play :attr:`halted` before it
        (the hands asked for are played, or a record without a seed gives no deal for the next hand)."""
        return self.winners is not None or self.halted is not None

    def legal_actions(self) -> list[Action]:
        """Every legal action, sorted; empty only when play is over (:meth:`is_terminal`)."""
        if self.winners is not None or self.halted is not None:
            return []
        comp = self.comp
        acts = comp.legal(self)
        if comp.keeps_list:
            cur = self.cur
            self.listed = tuple(acts)
            self.listed_n = len(self.history)
            self.listed_phase = self.phase
            self.listed_cur = cur
            self.listed_hand = self.hands[cur] if cur >= 0 else -1
            self.listed_sizes = self._list_sizes()
        return acts

    def list_key(self) -> tuple[int, int, int, int, int]:
        """What tells this position from the others a list of legal actions may have been made for: the
        actions applied (each changes the position), with the phase, the seat to act, its hand and the sizes
        of the zones the phase's list reads (``Component.list_piles``, packed in one int) as a guard against a
        state changed from outside."""
        cur = self.cur
        return len(self.history), self.phase, cur, self.hands[cur] if cur >= 0 else -1, self._list_sizes()

    def _list_sizes(self) -> int:
        """The sizes of the zones the phase's list reads (``Component.list_piles``), packed in one int."""
        sizes = 0
        zones = self.comp.list_piles
        if zones:
            piles = self.piles
            for z in zones:
                sizes = sizes << 24 | len(piles[z])
        return sizes

    def listed_key(self) -> tuple[int, int, int, int, int]:
        """The position the kept list (:attr:`listed`) was made for, as :meth:`list_key` gave it then."""
        return self.listed_n, self.listed_phase, self.listed_cur, self.listed_hand, self.listed_sizes

    def _listed_here(self) -> bool:
        """``self.listed_key() == self.list_key()``, compared field by field (no tuple built: this runs on every
        action)."""
        cur = self.cur
        return self.listed_n == len(self.history) and self.listed_phase == self.phase and self.listed_cur == cur \
            and self.listed_hand == (self.hands[cur] if cur >= 0 else -1) and self.listed_sizes == self._list_sizes()

    def legal_action_names(self) -> list[str]:
        """``legal_actions()`` as names."""
        return [self.game.action_name(a) for a in self.legal_actions()]

    def check(self, a: Action) -> None:
        """Raise :class:`IllegalActionError` (naming the clause) unless ``a`` is legal."""
        if self.winners is not None or self.halted is not None:
            why = "the match is over" if self.winners is not None else \
                "the hands asked for are played" if self.halted == "hand_limit" else \
                "there is no seed and no deal for the next hand"
            raise IllegalActionError(self._name(a), why, self.game.match.source)
        comp = self.game.phases[self.phase]
        if not self.game.codec.valid(a):  # no phase's reasons apply to an int that names no action
            raise IllegalActionError(self._name(a), "it is not an action of this game", comp.source)
        if not comp.is_legal(self, a):
            reason, src = comp.refusal(self, a)
            raise IllegalActionError(self._name(a), reason, src)

    def can_apply(self, a: Action) -> bool:
        """Yes/no form of :meth:`check`."""
        return self.winners is None and self.halted is None and self.game.phases[self.phase].is_legal(self, a)

    def apply(self, a: Action) -> Step:
        """Check and carry out ``a`` for the player to act."""
        if self.winners is not None or self.halted is not None:
            self.check(a)
        seat, hand, history = self.cur, self.hand_no, self.history
        if len(history) >= self.game.action_bound:
            raise ActionBoundError(f"the match reached its action bound of {self.game.action_bound} actions "
                                   f"(hand {self.hand_no}) without ending")
        listed = self.listed
        if listed is not None:  # kept for a position this action ends (or, refused, leaves: listed again then)
            self.listed = None
            if a not in listed or not self._listed_here():
                listed = None
        history.append((seat, a, self.phase))
        if listed is not None:  # listed for this very position: legal, carried out with no second listing
            self.comp.apply_listed(self, a)
        elif not self.comp.try_apply(self, a):
            history.pop()
            self.check(a)
        ended = self.hand_no != hand or self.winners is not None or self.halted is not None  # halted: at a hand's end
        steps = self.game.steps.get(a)
        if steps is None:
            if len(self.game.steps) >= STEP_ACTIONS:
                return _new_step(Step, (seat, a, ended))
            steps = self.game.steps[a] = [None] * (2 * self.game.num_seats)
        i = 2 * seat + ended
        step = steps[i]
        if step is None:
            step = steps[i] = _new_step(Step, (seat, a, ended))
        return step

    def apply_name(self, text: str) -> Step:
        """Apply an action given by name."""
        return self.apply(self.game.parse_action(text))

    def _name(self, a: Action) -> str:
        """The action's name, or ``#<int>`` for an int that names no action of the game."""
        return self.game.action_name(a) if self.game.codec.valid(a) else f"#{a}"

    def copy(self) -> State:
        """An independent copy (lists copied, immutable parts shared)."""
        new = State(self.game, None, None, blank=True)
        # every field of STATE_FIELDS, by name (a compiled build sets each slot directly): the immutable ones
        # shared, the rest copied below (tests/test_engine_api.py checks that none is left out)
        new.seed = self.seed
        new.deals = self.deals
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.phase = self.phase
        new.cur = self.cur
        new.winners = self.winners
        new.extra_hand = self.extra_hand
        new.hand_start = self.hand_start
        new.chance_count = self.chance_count
        new.comp = self.comp
        new.ring = self.ring
        new.controller = self.controller
        new.sides = self.sides
        new.dealt = self.dealt
        new.first_hand = self.first_hand
        new.hand_limit = self.hand_limit
        new.halted = self.halted
        new.start = self.start
        new.contenders = self.contenders
        new.listed = self.listed
        new.listed_n = self.listed_n
        new.listed_phase = self.listed_phase
        new.listed_cur = self.listed_cur
        new.listed_hand = self.listed_hand
        new.listed_sizes = self.listed_sizes
        new.deal_log = self.deal_log[:] if self.deal_log is not None else None
        new.active = self.active[:]
        new.counters = self.counters[:]
        new.hands = self.hands[:]
        new.piles = {k: v[:] for k, v in self.piles.items()}
        new.seat_piles = {k: v[:] for k, v in self.seat_piles.items()}
        new.contract = self.contract.copy()
        new.tally = {k: v[:] for k, v in self.tally.items()}
        new.cstate = [x.copy() if x is not None else None for x in self.cstate]
        new.history = self.history[:]
        new.hand_results = [dict(r) for r in self.hand_results]
        new.unseen = self.unseen.copy() if self.unseen is not None else None
        return new

    # --- views -----------------------------------------------------------------------
    def zone_cards(self) -> list[tuple[str, int, list[Card]]]:
        """Every declared zone instance with its cards: (zone id, owning seat or -1, cards bottom to top)."""
        deck_cards = self.game.deck.cards_of
        out: list[tuple[str, int, list[Card]]] = []
        for z in self.game.zones:
            if z.owner == "seat":
                masks = self.hands if z.id == "hand" else self.seat_piles[z.id]
                out.extend((z.id, s, list(deck_cards(m))) for s, m in enumerate(masks))
            else:
                out.append((z.id, -1, list(self.piles[z.id])))
        return out

    def where_is(self) -> dict[Card, list[str]]:
        """Every zone each card is in (for the conservation check), from the declared zones alone."""
        return census((zid if seat < 0 else f"{zid} {seat}", cards) for zid, seat, cards in self.zone_cards())

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, derived from the zones' declared visibility, plus public facts.

        ``zones`` maps each zone id to its view (a list per seat for seat-owned
        zones; see :func:`cardspec.engine.zones.view`). ``my_cards`` and
        ``hand_sizes`` repeat the hand zone's view for convenience. In a game
        with bidding, ``trump`` and ``maker`` give the contract; each phase adds
        the public facts of its own part (:meth:`Component.public_view`: the
        turned-up cards, the trick being played, tricks won).
        """
        g = self.game
        deck = g.deck
        names = deck.names
        hist = [{"seat": who, "action": self.action_seen_by(seat, who, a, ph)}
                for who, a, ph in self.history[self.hand_start:]]
        zones: dict[str, Any] = {}
        players = g.num_players
        for zid, owner, cards in self.zone_cards():
            v = view(g.zone_of[zid].for_seat(owner >= players), cards, owner == seat, names, deck.rank_of)
            if owner >= 0:
                zones.setdefault(zid, []).append(v)
            else:
                zones[zid] = v
        hands = zones.get("hand", [])
        return {
            "system": g.id, "seat": seat, "hand": self.hand_no, "dealer": self.dealer,
            "to_act": self.cur,
            "zones": zones,
            "my_cards": list(hands[seat].get("cards_top_first", [])) if hands else [],
            "hand_sizes": [h.get("count") for h in hands],
            **(self.contract.result_fields(g) if g.settles_contract else {}),
            **{k: v for ph in g.phases for k, v in ph.public_view(self).items()},
            "counters": {g.scoring.counter: list(self.counters)},
            "active": list(self.active),
            "history": hist,
            "legal": [g.action_name(a) for a in self.legal_actions()] if seat == self.current_player() else [],
        }

    def action_seen_by(self, seat: int, who: int, a: Action, phase: int) -> str:
        """The name of action ``a`` (taken by seat ``who`` in phase ``phase``) as ``seat`` sees it: cards
        the phase hides from the other players (a face-down discard, a kitty exchange) become ``?``."""
        g = self.game
        name = g.action_name(a)
        if who != seat and g.phases[phase].hidden(a):
            return name.split()[0] + " ?"
        return name

    def __repr__(self) -> str:
        return (f"State({self.game.id}, hand={self.hand_no}, dealer={self.dealer}, "
                f"phase={self.phase}, to_act={self.cur}, counters={self.counters})")
