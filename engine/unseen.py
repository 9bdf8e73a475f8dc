"""Cards a record never shows: an audit that checks what the known cards decide, and never guesses.

Other engines' logs leave cards unseen: the kitty cards under the turned card, the dealer's
discard, the hand of a partner sitting out. A record writes such a card as ``?`` in a deal
(``"hands": [["JD", "?", ...], ...]``, ``"piles": {"kitty": ["9C", "?", "?", "?"]}``) and an
action whose card is unseen as its word and ``?`` (``discard ?``).

The engine needs a card in every place, so each ``?`` holds a stand-in (the deck's free cards in
order), but no check reads a stand-in:

* a seat's move is judged against its *known* cards only (the stand-ins are taken out of its hand
  while the rules are asked); a rule that binds a player because of a card they hold ("follow suit
  if you can") can only bind through cards known to be there;
* a legal play also tells what the player did *not* hold: every unseen card that would have made
  the play illegal is ruled out of that seat's hand (a *show-out*), with the action and clause;
* an unseen card that turns up (played from a hand) must be one that can be there: not known
  elsewhere, not ruled out by an earlier show-out (a renege shown by an earlier show-out is
  rejected at the play, citing the clause), and the rest of the unseen cards must still have a
  place (a matching of cards to places; :func:`_matching`); when no placement is left, the play
  that made it so is rejected;
* an action with an unseen card (``discard ?``) is legal when some card the seat may hold makes it
  legal; afterwards any of those cards may be the one that went;
* a move of a seat holding unseen cards is legal when some placement of them makes it legal: the one the
  stand-ins are in, else (where a card held only forbids, ``Component.held_cards_forbid``: follow suit) the
  placement keeping out of the hand the cards that alone forbid it, else (a hand laid out whole, a count of
  cards kept) each other unseen card brought in and placements at random; a move legal on the known cards that
  no placement tried allows is carried out on them and noted, not refused;
* what the engine decides from a hand holding unseen cards (an instant win on its value) is not decided on the
  stand-ins: the record being replayed tells (:meth:`Unseen.instant`, reading it ahead through :func:`reading`).
  The hand ends there when some placement makes it so and the record says the hand is over there (no other
  ending stated, and no action left but the hand's result listed, or a next action only the end allows); the
  cards are then placed so, and what other such placements change is not checked. Else play goes on, on a
  placement that does not make it where there is one, and a note says so;
* what follows from a hand's scores (who is out, the next dealer, who leads, the match's end and winners) follows
  the record where the scores depend on the unseen cards: the hand's last action is played again on other
  placements, and play goes on from one that gives the stated result and what the record gives next
  (:meth:`Unseen.rescue`; failing that, the stated scores are taken where they are seen to vary). Winners that
  follow from unchecked totals are listed as unchecked, never rejected;
* a card the rules turn face up for every player (a phase's ``turned_up``) is in every faithful log: a deal
  that writes it ``?`` is malformed (:meth:`Unseen.check_turned`);
* a result field of a hand that comes out otherwise when the hand is played again on other deals of the
  unseen cards, or that names one, is not checked (:meth:`Unseen.results_unchecked`), nor are the running
  totals after a score not checked.

What stays unchecked is listed (:attr:`Unseen.notes`): that a seat holding unseen cards followed
suit when it could have (only its known cards and show-outs say so), and results that depend on
where unseen cards lie. Used by :func:`cardspec.engine.record.replay`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import combinations, islice
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import Card
from .errors import CardspecError, MalformedRecordError, RecordError, Source

if TYPE_CHECKING:
    from .state import State

UNSEEN = "?"
"""How a record writes a card it does not show."""
UNCHECKED = "unchecked"
"""The key of a hand's result (in ``State.hand_results``, never written to a record) that lists the fields its
unseen cards leave unchecked (:meth:`Unseen.results_unchecked`): replay does not compare them."""


def in_hand(st: State, index: int) -> str:
    """Where action ``index`` of a record falls, as an audit names it: ``hand 0, action 8 of the hand``, with
    ``, trick 1`` while a trick-taking phase is under way (tricks counted from 0)."""
    query = getattr(st.comp, "trick_winners", None)
    trick = f", trick {len(query(st))}" if callable(query) else ""
    return f"hand {st.hand_no}, action {index - st.hand_start} of the hand{trick}"

Place = tuple[str, int]
"""Where a card lies: (zone id, owning seat), the seat -1 for a zone on the table."""


@dataclass(frozen=True)
class Ahead:
    """What the record being replayed says from here on: its actions and its stated hand results (None when it
    states none). An instant win that only unseen cards could make is decided by it (:meth:`Unseen.instant`)."""

    actions: Sequence[Any]
    hands: Sequence[Any] | None
    depth: int = 0
    """0 in the replay itself; 1 in a branch tried ahead (decided on the next action alone); 2 and more: the record
    is not read (play goes on)."""


_AHEAD: ContextVar[Ahead | None] = ContextVar("cardspec_unseen_ahead", default=None)


@contextmanager
def _ahead(make: Callable[[Ahead | None], Ahead | None]) -> Iterator[None]:
    """While the block runs, what the record says ahead is ``make`` of what it was (restored after)."""
    token = _AHEAD.set(make(_AHEAD.get()))
    try:
        yield
    finally:
        _AHEAD.reset(token)


def reading(rec: Any) -> AbstractContextManager[None]:
    """While a record is replayed: what it says ahead (:class:`Ahead`) for :meth:`Unseen.instant`."""
    stated = rec.get("results") if isinstance(rec, dict) else None
    hands = stated.get("hands") if isinstance(stated, dict) else None
    acts = rec.get("actions") if isinstance(rec, dict) else None
    ahead = Ahead(acts if isinstance(acts, list) else [], hands if isinstance(hands, list) else None)
    return _ahead(lambda _: ahead)


def _blind() -> AbstractContextManager[None]:
    """A hand played again on other placements: the record is not read."""
    return _ahead(lambda a: Ahead(a.actions, a.hands, 2) if a is not None else None)


def _deeper() -> AbstractContextManager[None]:
    """A branch tried ahead: the record is read one level less far."""
    return _ahead(lambda a: Ahead(a.actions, a.hands, a.depth + 1) if a is not None else None)


@dataclass
class Exclusion:
    """Why an unseen card cannot be in a place: the action that showed it, and the clause."""

    index: int
    action: str
    source: Source | None


@dataclass
class Unseen:
    """The unseen cards of one hand: the places they may be in, and the show-outs so far."""

    cards: set[Card]
    """The cards not yet seen (each holds a stand-in place in the engine's state)."""
    allowed: dict[Card, set[Place]]
    """The places each unseen card may lie in."""
    why_not: dict[tuple[Card, Place], Exclusion] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """What could not be checked, for the verdict."""
    hand: int = 0
    at: dict[Place, int] | None = field(default=None, repr=False, compare=False)
    """:func:`_places` of the unseen cards when last asked, kept while they stay there (most moves leave them
    where they are); None when the cards have changed."""
    dealt: dict[Card, Place] = field(default_factory=dict)
    """Where the deal put each unseen card (for a message naming the deal's list)."""
    unchecked_totals: bool = False
    """A result of an earlier hand depended on unseen cards: the running totals are not checked."""
    replay_from: State | None = field(default=None, repr=False, compare=False)
    """The state when the hand's first action with unseen cards about was judged, its cards exchanged as the
    stand-ins were since (:func:`_realise`): the deal the play agrees with, from there on; the actions from
    :attr:`start_at` on replay from it."""
    start_at: int = 0
    before: State | None = field(default=None, repr=False, compare=False)
    """The state before the last action was carried out (its cards placed): should it end the hand, the
    placements of the unseen cards are tried on it (:meth:`results_unchecked`)."""
    settled: bool = False
    """The hand's results were looked at as it ended (an instant win the record tells, :meth:`instant`)."""
    moved: list[tuple[Card, Card]] = field(default_factory=list, repr=False, compare=False)
    """Stand-ins exchanged while an action was carried out (:meth:`instant`): undone on the places before it
    (:meth:`_settle`), as they are no move of the action."""
    partial: set[str] = field(default_factory=set)
    """Result fields of a phase one of whose actions was carried out on a seat's known cards alone (no placement
    tried allowed it, :meth:`_judge`): what the hand's unseen cards did in it is unknown, so they are not checked."""

    def copy(self) -> Unseen:
        new = Unseen(set(self.cards), {c: set(p) for c, p in self.allowed.items()}, dict(self.why_not),
                     list(self.notes), self.hand, dealt=self.dealt, unchecked_totals=self.unchecked_totals)
        new.settled = self.settled
        new.partial = set(self.partial)
        return new

    def check_turned(self, st: State, first: int) -> None:
        """Refuse a deal that writes ``?`` for a card the rules turn face up for every player (a phase's
        ``turned_up`` cards, :meth:`Component.public_view`): a log shows it, so a record must name it (judged
        on it, the engine would have to guess it, and what follows would rest on the guess).
        ``first`` is the index of the deal's first hand."""
        if not self.cards:
            return
        by_name = st.game.deck.by_name
        for ph in st.game.phases:
            for n in ph.public_view(st).get("turned_up") or ():
                c = by_name.get(n)
                if c is not None and c in self.cards and c in self.dealt:  # a card the deal wrote '?'
                    zid, seat = self.dealt[c]
                    at = f"deals.{st.hand_no - first}." + (f"piles.{zid}" if seat < 0 else f"hands.{seat}")
                    raise MalformedRecordError(
                        f"the turned card is shown to every player, so a log must name it, not "
                        f"'{UNSEEN}' (hand {st.hand_no}, the '{ph.id}' phase turns it up)", path=at,
                        source=ph.source)

    @staticmethod
    def start(st: State, stand_ins: list[Card]) -> Unseen | None:
        """The unseen cards of a newly dealt hand, from the stand-ins the deal put in their places."""
        if not stand_ins:
            return None
        where = locate(st, stand_ins)
        places = {where[c] for c in stand_ins}
        u = Unseen(set(stand_ins), {c: set(places) for c in stand_ins}, hand=st.hand_no,
                   dealt={c: where[c] for c in stand_ins})
        counts: dict[Place, int] = {}
        for c in stand_ins:
            counts[where[c]] = counts.get(where[c], 0) + 1
        u.notes.append(f"hand {st.hand_no}: {len(stand_ins)} cards never shown in the deal (" + ", ".join(
            f"{n} in {_place_name(p)}" for p, n in sorted(counts.items())) + "); a move of a seat holding unseen "
            "cards was judged on a placement of them that allows it, and its show-outs kept")
        return u

    # --- the replay's hooks ---------------------------------------------------------
    def play(self, st: State, a: Action, index: int, name: Callable[[Action], str]) -> None:
        """Carry out ``a`` for the seat to act: legal when some placement of the unseen cards makes it legal.
        The unseen cards it shows are placed first; then the seat's hand is judged as it stands (the stand-ins
        in it), else on a placement the play itself asks for (:meth:`_judge`); afterwards the unseen cards that
        would have made it illegal leave the seat's places (show-outs)."""
        seat = st.cur
        mine: Place = ("hand", seat)
        self._snapshot(st)
        self.moved = []  # what the action's own carrying out exchanges (:meth:`instant`)
        for c in st.game.codec.cards(a):
            if c in self.cards:
                self._pin(st, c, mine, index, name(a))
        before = self._where(st)
        hidden = before.get(mine, 0)  # the unseen cards in the seat's hand (a hand names its cards first)
        hand = st.hand_no
        if hidden and self._judge(st, seat, a, index, name(a)):  # no placement found: judged on the known cards
            before = self._where(st)
            hidden = before.get(mine, 0)
            self.before = _before(st)
            st.hands[seat] = st.hands[seat] & ~hidden
            try:
                st.apply(a)
            finally:
                if st.hand_no == hand:
                    st.hands[seat] = st.hands[seat] | hidden
        else:
            self._sure_show_outs(st, seat, a, index, name(a))
            before = self._where(st)
            self.before = _before(st)
            st.apply(a)
        if st.hand_no == hand:
            self._settle(st, before)

    def _sure_show_outs(self, st: State, seat: int, a: Action, index: int, action: str) -> None:
        """``a`` legal as the cards lie: every unseen card whose holding would make it illegal whatever else the hand
        holds (``Component.sure_forbidding``: a lower card under a play of the lowest cards, in climbing tricks)
        leaves the places of the seat's hand (a show-out, kept as :meth:`_judge`'s are)."""
        forbid = st.comp.sure_forbidding(st, a)
        if not forbid or not st.can_apply(a):
            return
        mine: Place = ("hand", seat)
        where = _cards_at(self._where(st))
        for c in sorted(self.cards):
            if forbid >> c & 1 and where[c] != mine and mine in self.allowed[c]:
                self._rule_out(st, seat, c, st.hands[seat] | 1 << c, a, index, action)

    def _judge(self, st: State, seat: int, a: Action, index: int, action: str) -> bool:
        """Put the unseen cards where ``a`` is legal, if some placement tried makes it so, and rule out of the
        seat's hand the unseen cards that would make it illegal; True when none tried does, but ``a`` is legal
        on the seat's known cards (it is then carried out on them, and a note says it was not checked).

        Where a card held can only forbid a play (``held_cards_forbid``: follow suit), the play is legal exactly
        when the seat's hand may hold none of the unseen cards that alone forbid it: that is decided. Elsewhere
        (a hand that must be laid out whole, a count of cards kept) the placements tried are the one the cards
        lie in, each one other unseen card brought in, and some at random; a play none of them allows is judged
        on the known cards when it is legal on them (unchecked), else refused."""
        mine: Place = ("hand", seat)
        where = _cards_at(self._where(st))
        hidden = [c for c, p in where.items() if p == mine]
        known = st.hands[seat]
        for c in hidden:
            known &= ~(1 << c)
        others = [c for c in sorted(self.cards) if where[c] != mine and mine in self.allowed[c]]
        if st.can_apply(a):  # legal as the cards lie: a card kept out is one that, in any stand-in's place, forbids it
            full = st.hands[seat]
            for c in others:
                if not any(self._legal_with(st, seat, full & ~(1 << s) | 1 << c, a) for s in hidden):
                    self._rule_out(st, seat, c, full & ~(1 << hidden[0]) | 1 << c, a, index, action)
            return False
        on_known = self._legal_with(st, seat, known, a)
        if on_known and st.comp.held_cards_forbid:  # the cards that forbid it alone leave the hand
            for c in sorted(self.cards):
                if mine in self.allowed[c] and not self._legal_with(st, seat, known | 1 << c, a):
                    self._rule_out(st, seat, c, known | 1 << c, a, index, action)
            m = _matching(self, where)
            if m is None:
                src = next((e.source for e in self.why_not.values() if e.index == index), None)
                raise RecordError(
                    f"'{action}' is illegal: it is legal only if seat {seat} held none of the unseen cards "
                    f"it rules out, and they cannot all lie elsewhere, so seat {seat} held one ("
                    f"{in_hand(st, index)})", index=index, source=src)
            self._place(st, m, where)
            if st.can_apply(a):
                return False
        else:
            for c in others:  # a card the play may need: one other unseen card brought into the hand
                keep = self.allowed[c]
                self.allowed[c] = {mine}
                m = _matching(self, where)
                self.allowed[c] = keep
                if m is not None and self._legal_with(st, seat, _in(m, mine, known), a):
                    self._place(st, m, where)
                    return False
            hinted = self._stated_hint(st, others, len(hidden))
            if hinted:  # the unseen cards the record says this hand laid out, brought in together
                kept = {c: self.allowed[c] for c in hinted}
                for c in hinted:
                    self.allowed[c] = {mine}
                m = _matching(self, where)
                self.allowed.update(kept)
                if m is not None and self._legal_with(st, seat, _in(m, mine, known), a):
                    self._place(st, m, where)
                    return False
            rng = random.Random(index)
            for _ in range(_SEARCH if others else 0):  # the hand's unseen cards at random
                m = _matching(self, where, rng)
                if m is None:
                    break
                if self._legal_with(st, seat, _in(m, mine, known), a):
                    self._place(st, m, where)
                    return False
        if on_known:  # legal on the known cards, and on no placement tried: carried out on them, unchecked
            self.partial.update(st.comp.result_fields(st))  # what it lays or takes rests on the unseen cards
            self.notes.append(f"hand {st.hand_no}: action {index - st.hand_start} of the hand ('{action}') is legal "
                              f"on seat {seat}'s known cards, but no placement of its unseen cards tried allows it; "
                              "it was carried out on the known cards, not checked")
            return True
        return False  # illegal on every placement tried: the engine says why

    def _stated_hint(self, st: State, others: list[Card], slots: int) -> list[Card]:
        """Of the unseen cards ``others`` that may be brought into the seat's hand, those the record names in this
        hand's stated result (the sets laid out), in the order it names them, at most ``slots`` (the seat's unseen
        cards): a hand laid out whole is tried with the cards the record says were laid (read ahead, as
        :meth:`instant` reads it; a placement still has to make the action legal, so a wrong statement changes
        nothing). Empty where the record is not read or states no result for the hand."""
        ahead = _AHEAD.get()
        k = len(st.hand_results)
        if ahead is None or ahead.depth >= 2 or ahead.hands is None or k >= len(ahead.hands) or \
                not isinstance(ahead.hands[k], dict) or slots <= 0:
            return []
        ids = st.game.deck.by_name
        pool = set(others)
        out: list[Card] = []
        for name in _names_in(ahead.hands[k], ids):
            c = ids[name]
            if c in pool and c not in out:
                out.append(c)
                if len(out) == slots:
                    break
        return out

    def _snapshot(self, st: State) -> None:
        """Keep :attr:`replay_from` at the hand's first action judged here."""
        if self.replay_from is None:
            self.replay_from, self.start_at = st.copy(), len(st.history)

    def _rule_out(self, st: State, seat: int, c: Card, hand: int, a: Action, index: int, action: str) -> None:
        """Unseen card ``c`` is not in the seat's hand: with it there, ``a`` (legal) would not be."""
        mine: Place = ("hand", seat)
        self.allowed[c].discard(mine)
        self.why_not[(c, mine)] = Exclusion(index, action, self._clause(st, seat, hand, a))

    def _place(self, st: State, m: dict[Card, Place], where: dict[Card, Place]) -> list[tuple[Card, Card]]:
        """Move the stand-ins to the placement ``m``; the swaps made."""
        swaps = _realise(st, m, dict(where), self.replay_from)
        self.at = None
        return swaps

    def play_hidden(self, st: State, word: str, index: int) -> None:
        """An action whose card is unseen (``discard ?``): legal when some card the seat may hold makes it
        legal; afterwards each of those cards may be the one that went."""
        g = st.game
        seat = st.cur
        mine: Place = ("hand", seat)
        names = g.deck.names
        self._snapshot(st)
        cands: list[tuple[Card, Action]] = []
        for c in g.deck.cards_of(st.hands[seat]):
            try:
                a = g.parse_action(f"{word} {names[c]}")
            except CardspecError:
                raise RecordError(f"'{word} {UNSEEN}' is no action of this game", index=index) from None
            if st.can_apply(a):
                cands.append((c, a))
        if not cands:
            raise RecordError(f"'{word} {UNSEEN}' is illegal: no card seat {seat} may hold can be used so "
                              f"({in_hand(st, index)})", index=index,
                              source=st.comp.source)
        stand = [x for x in cands if x[0] in self.cards]
        c, a = (stand or cands)[0]
        for k, _ in cands:
            if k not in self.cards:  # a known card that may now be the one that went
                self.cards.add(k)
                self.allowed[k] = {mine}
                self.at = None
        before = self._where(st)
        hand = st.hand_no
        self.before = _before(st)
        self.moved = []
        st.apply(a)
        if st.hand_no != hand:
            return
        went = locate(st, (c,))[c]
        for k in self.cards:
            if mine in self.allowed[k]:
                self.allowed[k].add(went)
        self.notes.append(f"hand {hand}: action {index - st.hand_start} of the hand ('{word} {UNSEEN}') used "
                          f"one of {len(cands)} cards, unseen")
        self._settle(st, before)

    def ended(self) -> None:
        """The hand is over; say what stayed unseen."""
        if self.cards:
            self.notes.append(f"hand {self.hand}: {len(self.cards)} cards stayed unseen; a result found to depend "
                              "on where they lie (the hand played again on other deals of them) was not checked")

    def results_unchecked(self, st: State) -> None:
        """The hand ended with unseen cards: the fields of its result that another placement of them gives
        otherwise (the hand's last action played again from :attr:`before`, the unseen cards placed at random
        where they may lie), and those that name a card left unseen (a set laid out of unseen cards), are not
        checked: they are listed under the result's :data:`UNCHECKED` key, which replay skips, and a note says
        so. A score not checked leaves the running totals unchecked from here on."""
        if self.settled:  # looked at as it ended (:meth:`instant`)
            return
        r = st.hand_results[-1]
        differ: set[str] = set()
        trials: list[State] = []
        with _blind():
            if self.cards and self.before is not None and self.before.unseen is not None:
                differ = _differ(self.before, self.before.unseen, st, trials)
            if self.cards and self.replay_from is not None:
                differ |= _differ_played(self.replay_from, self.start_at, self.cards, st, trials)
        names = st.game.deck.names
        unseen = {names[c] for c in self.cards}
        differ.update(k for k, v in r.items() if k != "facts" and _names_any(v, unseen))  # a card left unseen
        differ.update(k for k in self.partial if k in r)  # an action carried out on known cards alone
        earlier = self.unchecked_totals
        if self.unchecked_totals or "scores" in differ:
            differ.add("totals")
        if not differ:
            return
        r = self._as_stated(st, r, differ, trials, earlier)
        r[UNCHECKED] = sorted(k for k in differ if k in r)  # replay() does not compare these
        self.unchecked_totals = self.unchecked_totals or "totals" in differ
        self.notes.append(f"hand {r.get('hand', self.hand)}: {', '.join(sorted(differ))} depend on where the unseen "
                          "cards lie (or on an earlier hand's that did), and were not checked")

    def rescue(self, st: State, a: Action, ok: Callable[[State], bool] | None = None, varies: bool = False) -> bool:
        """The hand's last action ``a`` ended it, and what the record gives next is refused: its next deal (its
        dealer, or a seat dealt cards, follows from the hand's scores: who is out of the match), its next action
        (who leads the next hand, whether the match is over), or its winners. When the scores depend on the unseen
        cards, another placement of them may give what the record gives: the action is carried out again from
        :attr:`before` on placements at random (:data:`_RESCUES`), and play goes on from the first on which the
        hand's result agrees with the one the record states (where it states one; fields naming an unseen card
        aside), the next deal is taken and ``ok`` holds (the next action can be carried out, the winners agree).

        Where none does, but the scores came out otherwise on the placements tried (or ``varies``: they are known
        to depend on the unseen cards), the record's stated scores and totals are taken as the hand's (a tie for the
        lowest hand, say, that few placements give): the match's end rule is applied to them, and play goes on if
        the rest agrees. False when nothing does (the record is then refused as before)."""
        pre = self.before
        if pre is None or pre.unseen is None or not self.cards:
            return False
        u = pre.unseen
        ahead = _AHEAD.get()
        k = len(pre.hand_results)
        want: dict[str, Any] = ahead.hands[k] if ahead is not None and ahead.hands is not None and \
            k < len(ahead.hands) and isinstance(ahead.hands[k], dict) else {}
        where = _cards_at(_places(pre, u._mask()))
        rng = random.Random(len(pre.history))
        scores: set[str] = set()
        first: State | None = None
        with _blind():
            for trial in _tried(pre, u, where, rng, a, _RESCUES, k + 1):  # stopped before the next deal
                if len(trial.hand_results) <= k:
                    continue
                got = trial.hand_results[k]
                scores.add(repr(got.get("scores")))
                first = first or trial.copy()
                if _agrees(got, want, u.cards, trial) and self._go_on_from(st, pre, trial, ok):
                    return True
            if first is not None and not varies and len(scores) < 2:  # do the scores depend on the placement?
                if len(st.hand_results) > k:  # the replay's own placement's (the hand scored, the next deal refused)
                    scores.add(repr(st.hand_results[k].get("scores")))
                for trial in _tried(pre, u, where, rng, a, _TRIES if len(scores) < 2 else 0, k + 1):
                    if len(trial.hand_results) > k:
                        scores.add(repr(trial.hand_results[k].get("scores")))
                    if len(scores) > 1:
                        break
            if first is None or not (varies or len(scores) > 1) or not self._stated_scores(pre, first, want):
                return False
            kept = len(self.notes)
            if _agrees(first.hand_results[k], want, u.cards, first) and self._go_on_from(st, pre, first, ok):
                return True
            del self.notes[kept - 1:]  # the note _stated_scores left: nothing was taken as stated
            return False

    def _stated_scores(self, pre: State, trial: State, want: dict[str, Any]) -> bool:
        """Give hand ``k``'s result in ``trial`` (stopped before the next deal) the scores and totals the record
        states, and apply the match's end rule to them again (from ``pre``, the state before the hand's last
        action); False when the record states neither, or no list of the entities' numbers."""
        g = trial.game
        k = len(pre.hand_results)
        r = trial.hand_results[k]
        n = len(g.teams)
        sc: Any = want.get("scores")
        tot: Any = want.get("totals")

        def numbers(v: Any) -> bool:
            return isinstance(v, list) and len(v) == n and all(type(x) is int for x in v)

        if not numbers(sc) and not numbers(tot):
            return False
        gained = list(sc) if numbers(sc) else [t - c for t, c in zip(tot, pre.counters, strict=True)]
        totals = list(tot) if numbers(tot) else [c + x for c, x in zip(pre.counters, gained, strict=True)]
        r["scores"], r["totals"] = gained, totals
        trial.counters = list(totals)
        trial.winners, trial.active, trial.extra_hand = pre.winners, pre.active[:], pre.extra_hand
        trial.contenders, trial.halted = pre.contenders, None
        g.match.after_hand(trial, gained, r.get("facts"))
        if trial.winners is not None:
            trial.cur = -1
        else:
            trial.halted = "hand_limit"  # as :meth:`_go_on_from` finds a trial stopped before the next deal
        self.notes.append(f"hand {self.hand}: no placement of the unseen cards tried gives the stated scores "
                          f"{gained}; they depend on where the unseen cards lie, and were taken as stated")
        return True

    def _go_on_from(self, st: State, pre: State, trial: State, ok: Callable[[State], bool] | None) -> bool:
        """Deal the next hand on ``trial`` (stopped before it) and, when that is taken and ``ok`` holds, go on
        from it (``st`` takes its place)."""
        k = len(pre.hand_results)
        trial.hand_limit = pre.hand_limit
        if trial.halted == "hand_limit" and trial.winners is None:
            trial.halted = None
            try:
                trial._next_hand()
            except (CardspecError, LookupError, ValueError):  # the record's next deal is no deal of it
                return False
        if ok is not None and not ok(trial):
            return False
        if len(st.hand_results) > k and UNCHECKED in st.hand_results[k]:  # looked at already
            trial.hand_results[k][UNCHECKED] = st.hand_results[k][UNCHECKED]
        _adopt(st, trial)
        if st.unseen is not None and st.unseen.hand == self.hand:  # no next hand dealt
            st.unseen = self
        holder = st.unseen
        if holder is None and not st.is_terminal():
            holder = st.unseen = Unseen(set(), {}, hand=st.hand_no)
        if holder is not None:
            holder.notes.append(f"hand {self.hand}: what the record gives after it follows from results that depend "
                                "on the unseen cards; they were placed so that it does (play goes on from there)")
            holder.unchecked_totals = holder.unchecked_totals or self.unchecked_totals
        return True

    def _as_stated(self, st: State, r: dict[str, Any], differ: set[str], trials: list[State], earlier: bool
                   ) -> dict[str, Any]:
        """The hand's result ``r`` (the last in ``st``) disagrees with the record's stated one only in fields that
        depend on the unseen cards (``differ``): where a placement tried (``trials``, each played to the hand's end)
        gives the stated result, play goes on from it (``st`` takes its place), so that what follows from the
        hand's scores (the totals, who is out, the next dealer, the match's end and winners) is what the record
        states. Returns the hand's result as ``st`` now holds it. ``earlier``: the totals were already off."""
        ahead = _AHEAD.get()
        k = len(st.hand_results) - 1
        if ahead is None or ahead.hands is None or k >= len(ahead.hands) or not isinstance(ahead.hands[k], dict):
            return r
        want = ahead.hands[k]
        off = {f for f, v in want.items() if f in r and f not in ("facts", UNCHECKED) and r[f] != v}
        if not off or not off <= differ:  # agrees, or disagrees where it is checked (rejected)
            return r
        for trial in trials:
            if _agrees(trial.hand_results[k], want, self.cards, trial, {"totals"} if earlier else set()):
                _adopt(st, trial)
                if st.unseen is not None and st.unseen.hand == self.hand:  # no next hand dealt: this one goes on
                    st.unseen = self
                self.notes.append(f"hand {self.hand}: the unseen cards were placed so that the hand gives the "
                                  f"stated {', '.join(sorted(off))} (play goes on from there)")
                return st.hand_results[k]
        if "scores" in differ and self.rescue(st, st.history[-1][1], varies=True):  # placements at random, or as stated
            return st.hand_results[k]
        return r

    def instant(self, st: State, seats: Sequence[int], test: Callable[[int], bool], what: str,
                ending: tuple[str, Any], end: Callable[[State], None], go_on: Callable[[State], None]) -> bool:
        """An instant end of the hand on the value of a seat's hand (``what``: an instant win), checked for
        ``seats``: ``test`` tells whether a hand (a mask) makes it, ``ending`` is the result field and value a hand
        so ended states (``("ended_by", "instant")``), ``end`` ends the hand so and ``go_on`` carries play on
        without it. True when the hand was ended (by ``end``); else the caller calls ``go_on``.

        On known cards alone it is decided as ever. A hand holding unseen cards may make it on some placement and
        not on another: the record tells which, and a legal record is never refused for it. The hand ends here
        when some placement makes it so and the record says the hand is over here: its stated result for the
        hand does not name another ending, and either it has no action left but lists the hand, or its next
        action is one that only the hand's end allows (the next seat to act, then, where both allow it, the
        actions that follow; :meth:`_record_ends`). The unseen cards are then placed so, and the result fields that
        other such placements give otherwise are not checked (:data:`UNCHECKED`). Else play goes on, on a placement
        that does not make it when there is one, and a note says it was not checked."""
        mask = self._mask()
        if any(test(st.hands[s]) for s in seats if not st.hands[s] & mask):  # decided on known cards
            end(st)
            return True
        unsure = [s for s in seats if st.hands[s] & mask]
        if not unsure:
            return False
        ahead = _AHEAD.get()
        found = self._record_ends(st, ahead, unsure, test, ending, end, go_on) if ahead is not None and \
            ahead.depth < 2 else None
        if found is not None:
            self._end_here(st, found[0], found[1], unsure, test, what, end)
            return True
        if any(test(st.hands[s]) for s in unsure):  # the stand-ins make it: play goes on on a placement that does not
            m = self._avoiding(st, unsure, test)
            if m is not None:
                self.moved += self._place(st, m, _cards_at(self._where(st)))
            note = f"hand {st.hand_no}: {what} on seat {unsure[0]}'s cards, some unseen, was not checked (play went on)"
            if note not in self.notes:
                self.notes.append(note)
        return False

    def _record_ends(self, st: State, ahead: Ahead, unsure: list[int], test: Callable[[int], bool],
                     ending: tuple[str, Any], end: Callable[[State], None], go_on: Callable[[State], None]
                     ) -> tuple[int, dict[Card, Place]] | None:
        """Whether the record says the hand ends here (:meth:`instant`): the seat and a placement of the unseen
        cards that makes it so, or None."""
        k = len(st.hand_results)  # the entry of this hand in the stated results
        hands = ahead.hands
        entry = hands[k] if hands is not None and k < len(hands) and isinstance(hands[k], dict) else None
        key, value = ending
        if entry is not None and key in entry and entry[key] != value:  # the record names another ending
            return None
        nxt = len(st.history)  # the record's next action (the one being carried out is in the history)
        if nxt >= len(ahead.actions):  # no action left: the hand ended if the record lists its result
            return self._making(st, unsure, test) if entry is not None else None
        seat = ahead.actions[nxt].get("seat") if isinstance(ahead.actions[nxt], dict) else None
        with _deeper():
            on = self._branch(st, None, go_on)  # play going on, as the cards lie (a placement found if needed)
            if any(test(st.hands[s]) for s in unsure):
                m = self._avoiding(st, unsure, test)
                if m is None:  # every placement tried makes it: the hand ends
                    return self._making(st, unsure, test)
                on = self._branch(st, m, go_on)
            off = self._branch(st, None, end)  # who acts next does not depend on the placement, but for scores
            on_ok, off_ok = _next_is(on, seat), _next_is(off, seat)
            if not off_ok:
                return None
            found = self._making(st, unsure, test)
            if found is None or (on_ok and ahead.depth > 0):
                return None
            if not on_ok:
                return found
            off = self._branch(st, found[1], end)  # both allow the next action: the actions after it tell
            if not _survives(on, ahead.actions, nxt) and _survives(off, ahead.actions, nxt):
                return found
        return None

    def _branch(self, st: State, m: dict[Card, Place] | None, then: Callable[[State], None]) -> State:
        """A copy of ``st`` with the unseen cards placed by ``m`` (None: as they lie), ``then`` carried out on it."""
        trial = st.copy()
        if m is not None:
            _realise(trial, m, _cards_at(self._where(st)))
        try:
            then(trial)
        except (CardspecError, LookupError, ValueError):
            trial.winners = trial.winners or ()  # a branch that cannot go on is no branch (no next action)
        return trial

    def _making(self, st: State, unsure: list[int], test: Callable[[int], bool]
                ) -> tuple[int, dict[Card, Place]] | None:
        """A seat of ``unsure`` and a placement of the unseen cards (where they may lie) under which its hand passes
        ``test``; None when none tried does (every choice of its unseen cards, up to :data:`_COMBOS`)."""
        where = _cards_at(self._where(st))
        for seat in unsure:
            mine: Place = ("hand", seat)
            hidden = [c for c, p in where.items() if p == mine]
            known = st.hands[seat]
            for c in hidden:
                known &= ~(1 << c)
            cands = [c for c in sorted(self.cards) if mine in self.allowed[c]]
            for combo in islice(combinations(cands, len(hidden)), _COMBOS):
                hand = known
                for c in combo:
                    hand |= 1 << c
                if not test(hand):
                    continue
                m = self._pinned(combo, mine, where)
                if m is not None:
                    return seat, m
        return None

    def _pinned(self, combo: Iterable[Card], mine: Place, where: dict[Card, Place],
                rng: random.Random | None = None) -> dict[Card, Place] | None:
        """A placement with the cards ``combo`` in ``mine`` (the others where they may lie), or None."""
        keep = {c: self.allowed[c] for c in combo}
        for c in keep:
            self.allowed[c] = {mine}
        try:
            return _matching(self, where, rng)
        finally:
            self.allowed.update(keep)

    def _avoiding(self, st: State, unsure: list[int], test: Callable[[int], bool]) -> dict[Card, Place] | None:
        """A placement of the unseen cards (placements at random, :data:`_SEARCH`) under which no hand of ``unsure``
        passes ``test``; None when none tried is."""
        where = _cards_at(self._where(st))
        rng = random.Random(len(st.history))
        for _ in range(_SEARCH):
            m = _matching(self, where, rng)
            if m is None:
                return None
            if not any(test(_in(m, ("hand", s), st.hands[s] & ~self._mask())) for s in unsure):
                return m
        return None

    def _end_here(self, st: State, seat: int, m: dict[Card, Place], unsure: list[int], test: Callable[[int], bool],
                  what: str, end: Callable[[State], None]) -> None:
        """End the hand by ``end`` on placement ``m`` (seat ``seat`` makes it), as the record says; the result fields
        other such placements give otherwise (or that name an unseen card) are not checked."""
        where = _cards_at(self._where(st))
        snap = st.copy()
        self.moved += self._place(st, m, where)
        self.notes.append(f"hand {st.hand_no}: the record ends the hand here by {what} on seat {seat}'s cards, some "
                          "unseen: a placement of them makes it, not checked")
        k = len(st.hand_results)
        end(st)
        self.settled = True
        if len(st.hand_results) <= k:
            return
        r = st.hand_results[k]
        differ: set[str] = set()
        rng = random.Random(k)
        with _deeper():
            for s in unsure:  # each seat that may make it, its cards and the others' placed otherwise
                found = self._making(snap, [s], test)
                if found is None:
                    continue
                mine: Place = ("hand", s)
                combo = [c for c, p in found[1].items() if p == mine]
                for _ in range(_TRIES):
                    alt = self._pinned(combo, mine, where, rng)
                    if alt is None:
                        break
                    trial = self._branch(snap, alt, end)
                    if len(trial.hand_results) > k:
                        got = trial.hand_results[k]
                        differ.update(f for f, v in r.items() if f not in ("facts", UNCHECKED) and got.get(f) != v)
        names = st.game.deck.names
        unseen = {names[c] for c in self.cards}
        differ.update(f for f, v in r.items() if f not in ("facts", UNCHECKED) and _names_any(v, unseen))
        if self.unchecked_totals or "scores" in differ:
            differ.add("totals")
        if differ:
            r[UNCHECKED] = sorted(set(r.get(UNCHECKED, ())) | {f for f in differ if f in r})
            self.unchecked_totals = self.unchecked_totals or "totals" in differ
            self.notes.append(f"hand {r.get('hand', self.hand)}: {', '.join(sorted(differ))} depend on where the "
                              "unseen cards lie (or on an earlier hand's that did), and were not checked")
        new = st.unseen
        if new is not self and not st.is_terminal():  # the next hand is dealt: what this one leaves goes with it
            if new is None:
                new = st.unseen = Unseen(set(), {}, hand=st.hand_no)
            new.notes[:0] = self.notes
            new.unchecked_totals = new.unchecked_totals or self.unchecked_totals

    # --- internals ------------------------------------------------------------------
    def _where(self, st: State) -> dict[Place, int]:
        """:func:`_places` of the unseen cards, from :attr:`at` when they are all still there."""
        if self.at is None or not _still(st, self.at):
            self.at = _places(st, self._mask())
        return self.at

    def _mask(self) -> int:
        """The unseen cards as a mask."""
        m = 0
        for c in self.cards:
            m |= 1 << c
        return m

    @staticmethod
    def _legal_with(st: State, seat: int, hand: int, a: Action) -> bool:
        keep = st.hands[seat]
        st.hands[seat] = hand
        try:
            return st.can_apply(a)
        finally:
            st.hands[seat] = keep

    @staticmethod
    def _clause(st: State, seat: int, hand: int, a: Action) -> Source | None:
        keep = st.hands[seat]
        st.hands[seat] = hand
        try:
            return st.comp.why_illegal(st, a)[1]
        finally:
            st.hands[seat] = keep

    def _pin(self, st: State, c: Card, place: Place, index: int, action: str) -> None:
        """Card ``c`` shows up in ``place``: check it may be there, move its stand-in, and it is seen."""
        if place not in self.allowed[c]:
            e = self.why_not.get((c, place))
            if e is None:  # the seat holds no unseen card: the engine names the move illegal
                return
            raise RecordError(
                f"'{action}' is illegal: seat {place[1]} showed at action {e.index} ('{e.action}') that it held "
                f"no {st.game.deck.names[c]} ({in_hand(st, index)})",
                index=index, source=e.source)
        keep = self.allowed[c]
        self.allowed[c] = {place}
        where = _cards_at(self._where(st))
        m = _matching(self, where)
        if m is None:
            self.allowed[c] = keep
            src = next(reversed(self.why_not.values())).source if self.why_not else None
            raise RecordError(
                f"'{action}' is illegal: with {st.game.deck.names[c]} in seat {place[1]}'s hand the unseen cards "
                f"cannot be placed as the earlier plays require ({in_hand(st, index)})", index=index, source=src)
        _realise(st, m, where, self.replay_from)
        self.cards.discard(c)
        del self.allowed[c]
        del m[c]
        self.at = _masks_at(m)

    def _settle(self, st: State, places: dict[Place, int]) -> None:
        """After a move: an unseen card allowed in a place may now be wherever that place's unseen cards went
        (all of a kitty taken up: the kitty's name moves with it; one card of a hand discarded unseen:
        the hand's cards may be in the hand or where the discard went). ``places`` is :func:`_places` before the
        move: most moves leave every unseen card where it was, and that is told by comparing masks. Stand-ins
        exchanged during the move (:attr:`moved`) are exchanged in ``places`` too: they are no move of the action."""
        if self.moved:
            at = _cards_at(places)
            for c, d in self.moved:
                if c in at and d in at:
                    at[c], at[d] = at[d], at[c]
            places = _masks_at(at)
            self.moved = []
        if _still(st, places):
            return
        now = self.at = _places(st, self._mask())
        where, before = _cards_at(now), _cards_at(places)
        went: dict[Place, set[Place]] = {}
        for c in self.cards:
            went.setdefault(before.get(c, where[c]), set()).add(where[c])
        if any(ps != {p} for p, ps in went.items()):
            for c in self.cards:
                self.allowed[c] = {q for p in self.allowed[c] for q in went.get(p, {p})}


_SEARCH = 200
"""Placements at random tried for a play no simpler placement allows (:meth:`Unseen._judge`)."""
_TRIES = 12
"""Placements of the unseen cards tried (at random) when a hand's result is looked at
(:meth:`Unseen.results_unchecked`)."""
_DEALS = 8
"""Deals of the unseen cards at random the hand is played again on (:func:`_differ_played`)."""
_RESCUES = 400
"""Placements at random tried when the record's next deal depends on them (:meth:`Unseen.rescue`)."""
_COMBOS = 20000
"""Choices of a hand's unseen cards tried for an instant end the record tells (:meth:`Unseen._making`)."""
_LOOK = 40
"""Actions of the record played ahead on both branches when its next action allows either (:meth:`Unseen.instant`)."""


def _next_is(st: State, seat: Any) -> bool:
    """Whether ``seat`` may act next in ``st``."""
    return not st.is_terminal() and st.cur == seat


def _survives(st: State, actions: Sequence[Any], at: int) -> bool:
    """Whether the record's actions from ``at`` on (up to :data:`_LOOK`) can be carried out on ``st``."""
    from .record import _step_with_unseen

    for i in range(at, min(len(actions), at + _LOOK)):
        step = actions[i]
        if not isinstance(step, dict) or not _next_is(st, step.get("seat")) or not isinstance(step.get("action"), str):
            return False
        try:
            _step_with_unseen(st, step["action"], i, {}, [])
        except (CardspecError, LookupError, ValueError):
            return False
    return True
def _before(st: State) -> State | None:
    """A copy of ``st`` to try the results on, should the action about to be carried out end the hand: only in
    the hand's last phase (a hand thrown in earlier scores nothing)."""
    return st.copy() if st.phase == len(st.game.phases) - 1 else None


def _tried(pre: State, u: Unseen, where: dict[Card, Place], rng: random.Random, a: Action, tries: int,
           hand_limit: int | None = None) -> Iterator[State]:
    """Up to ``tries`` copies of ``pre``, each with the unseen cards placed at random (``where``: where they lie now)
    and ``a`` carried out on it (the copy stopped after ``hand_limit`` hands, if given); a placement on which ``a``
    cannot be carried out is passed over, and the tries end when no placement is left."""
    for _ in range(tries):
        m = _matching(u, where, rng)
        if m is None:
            return
        trial = pre.copy()
        _realise(trial, m, dict(where))
        if hand_limit is not None:
            trial.hand_limit = hand_limit
        try:
            trial.apply(a)
        except (CardspecError, LookupError, ValueError):
            continue
        yield trial


def _differ(pre: State, u: Unseen, st: State, keep: list[State] | None = None) -> set[str]:
    """The fields of the last hand's result in ``st`` that come out otherwise when its last action is played
    from ``pre`` (the state before it, ``u`` its unseen cards) with the unseen cards placed at random."""
    r = st.hand_results[-1]
    a = st.history[-1][1]
    rng = random.Random(r.get("hand", 0))
    where = _cards_at(_places(pre, u._mask()))
    out: set[str] = set()
    for trial in _tried(pre, u, where, rng, a, _TRIES):
        if len(trial.hand_results) == len(st.hand_results):
            alt = trial.hand_results[-1]
            out.update(k for k, v in r.items() if k not in ("facts", UNCHECKED) and alt.get(k) != v)
            if keep is not None:
                keep.append(trial)
    return out


def _differ_played(start: State, at: int, cards: set[Card], st: State, keep: list[State] | None = None
                   ) -> set[str]:
    """The fields of the last hand's result in ``st`` that come out otherwise when the hand's actions from
    ``at`` on are played again from ``start`` with the unseen ``cards`` dealt otherwise, at random (a deal on
    which an action is illegal is dropped)."""
    r = st.hand_results[-1]
    rng = random.Random(r.get("hand", 0))
    steps = [a for _, a, _ in st.history[at:]]
    dealt = start.unseen.cards if start.unseen is not None else set()
    order = sorted(cards & dealt)  # the cards unseen then and still (not a known card an unseen discard may be)
    out: set[str] = set()
    for _ in range(_DEALS):
        other = rng.sample(order, len(order))
        trial = start.copy()
        trial.unseen = None
        _rename(trial, dict(zip(order, other, strict=True)))
        try:
            for a in steps:
                trial.apply(a)
        except (CardspecError, LookupError, ValueError):  # a deal the play cannot be carried out on
            continue
        if len(trial.hand_results) == len(st.hand_results):
            alt = trial.hand_results[-1]
            out.update(k for k, v in r.items() if k not in ("facts", UNCHECKED) and alt.get(k) != v)
            if keep is not None:
                keep.append(trial)
    return out


def _agrees(got: dict[str, Any], want: dict[str, Any], cards: set[Card], st: State, ignore: set[str] | None = None
            ) -> bool:
    """Whether a hand's result ``got`` (in ``st``) agrees with the stated ``want`` in every field both give, but
    those ``ignore`` names and those that name an unseen card (``cards``: they name a stand-in)."""
    names = st.game.deck.names
    unseen = {names[c] for c in cards}
    return all(got[f] == v for f, v in want.items() if f in got and f not in ("facts", UNCHECKED)
               and (ignore is None or f not in ignore) and not _names_any(got[f], unseen))


def _adopt(st: State, other: State) -> None:
    """``st`` becomes ``other`` (every field taken over)."""
    from .state import STATE_FIELDS

    for name in STATE_FIELDS:
        setattr(st, name, getattr(other, name))


def _names_any(v: Any, names: set[str]) -> bool:
    """Whether a result's value names one of the cards ``names`` (a string, or one in nested lists)."""
    if isinstance(v, str):
        return v in names
    if isinstance(v, list):
        return any(_names_any(x, names) for x in v)
    return False


def _names_in(v: Any, names: Mapping[str, int], limit: int = 10_000) -> list[str]:
    """The card names a stated result names (strings in nested lists and mappings), in order, at most ``limit``
    looked at (a record's result is bounded in size, but no more is needed)."""
    out: list[str] = []
    todo: list[Any] = [v]
    while todo and len(out) < limit:
        x = todo.pop()
        if isinstance(x, str):
            if x in names:
                out.append(x)
        elif isinstance(x, list):
            todo.extend(reversed(x))
        elif isinstance(x, dict):
            todo.extend(reversed([x[k] for k in x if k != "facts"]))
    return out


def _in(m: dict[Card, Place], place: Place, known: int) -> int:
    """The hand ``known`` with the unseen cards placement ``m`` puts in ``place``."""
    for c, p in m.items():
        if p == place:
            known |= 1 << c
    return known


def _place_name(p: Place) -> str:
    return f"{p[0]} of seat {p[1]}" if p[1] >= 0 else p[0]


def locate(st: State, cards: Iterable[Card] | None = None) -> dict[Card, Place]:
    """Where cards are (all of them, or the ones given): (zone id, seat) for seat zones, (zone id, -1)
    for table zones."""
    out: dict[Card, Place] = {}
    if cards is None:
        for zid, seat, held in st.zone_cards():
            for c in held:
                out[c] = (zid, seat)
        return out
    wanted = list(cards)
    want = 0
    for c in wanted:
        want |= 1 << c
    found: dict[Card, Place] = {}
    for zid, ms in (("hand", st.hands), *st.seat_piles.items()):  # the first zone holding a card names it
        for s, m in enumerate(ms):
            hit = m & want
            want &= ~m
            while hit:
                low = hit & -hit
                found[low.bit_length() - 1] = (zid, s)
                hit ^= low
    if want:
        for zid, pile in st.piles.items():
            for c in pile:
                if want >> c & 1:
                    found[c] = (zid, -1)
                    want &= ~(1 << c)
    for c in wanted:  # in the order asked
        if c in found:
            out[c] = found[c]
    return out


def _places(st: State, want: int) -> dict[Place, int]:
    """Where the cards of mask ``want`` are, as each place's cards (a mask), the place named as by :func:`locate`;
    cheaper than :func:`locate` when all that is asked is whether cards moved."""
    out: dict[Place, int] = {}
    for zid, ms in (("hand", st.hands), *st.seat_piles.items()):
        for s, m in enumerate(ms):
            hit = m & want
            if hit:
                out[(zid, s)] = hit
                want ^= hit
    if want:
        for zid, pile in st.piles.items():
            hit = 0
            for c in pile:
                if want >> c & 1:
                    hit |= 1 << c
            if hit:
                out[(zid, -1)] = hit
                want ^= hit
    return out


def _still(st: State, places: dict[Place, int]) -> bool:
    """Whether every card of :func:`_places` ``places`` is still in its place (a card is in one place at a
    time, so then none has moved)."""
    for (zid, seat), m in places.items():
        if seat >= 0:
            held = (st.hands if zid == "hand" else st.seat_piles[zid])[seat]
        else:
            held = 0
            for c in st.piles[zid]:
                held |= 1 << c
        if held & m != m:
            return False
    return True


def _masks_at(where: dict[Card, Place]) -> dict[Place, int]:
    """Each card's place turned into :func:`_places`."""
    out: dict[Place, int] = {}
    for c, p in where.items():
        out[p] = out.get(p, 0) | 1 << c
    return out


def _cards_at(places: dict[Place, int]) -> dict[Card, Place]:
    """:func:`_places` turned into each card's place."""
    out: dict[Card, Place] = {}
    for p, m in places.items():
        while m:
            low = m & -m
            out[low.bit_length() - 1] = p
            m ^= low
    return out


def _matching(u: Unseen, where: dict[Card, Place], rng: random.Random | None = None) -> dict[Card, Place] | None:
    """A placement of every unseen card in an allowed place, each place keeping as many unseen cards as it
    holds now; None when there is none (augmenting paths over the places' slots). With ``rng``, one of the
    placements at random (the cards, the places and each place's slots taken in a random order)."""
    cap: dict[Place, int] = {}
    for c in u.cards:
        cap[where[c]] = cap.get(where[c], 0) + 1
    slots = [p for p in sorted(cap) for _ in range(cap[p])]
    owner: list[Card | None] = [None] * len(slots)
    spans = [(p, range(slots.index(p), slots.index(p) + cap[p])) for p in sorted(cap)]  # each place's slots
    if rng is not None:
        shuffled = [(p, rng.sample(list(span), len(span))) for p, span in spans]
        rng.shuffle(shuffled)
        order = sorted(u.cards)
        rng.shuffle(order)
        for c in order:
            if not _augment(u, c, shuffled, owner, set()):
                return None
        return {c: slots[i] for i, c in enumerate(owner) if c is not None}

    def augment(c: Card, seen: set[int]) -> bool:
        allowed = u.allowed[c]
        for p, span in spans:  # the slots in order, a place's at a time (most places are not allowed)
            if p in allowed:
                for i in span:
                    if i not in seen:
                        seen.add(i)
                        o = owner[i]
                        if o is None or augment(o, seen):
                            owner[i] = c
                            return True
        return False

    for c in sorted(u.cards, key=lambda c: (len(u.allowed[c]), c)):
        if not augment(c, set()):
            return None
    return {c: slots[i] for i, c in enumerate(owner) if c is not None}


def _augment(u: Unseen, c: Card, spans: list[tuple[Place, list[int]]], owner: list[Card | None], seen: set[int]
             ) -> bool:
    """:func:`_matching`'s augmenting path from card ``c``, over the slots in the order ``spans`` gives."""
    allowed = u.allowed[c]
    for p, span in spans:
        if p in allowed:
            for i in span:
                if i not in seen:
                    seen.add(i)
                    o = owner[i]
                    if o is None or _augment(u, o, spans, owner, seen):
                        owner[i] = c
                        return True
    return False


def _realise(st: State, m: dict[Card, Place], where: dict[Card, Place], dealt: State | None = None
             ) -> list[tuple[Card, Card]]:
    """Move stand-ins so that each unseen card lies in its place in ``m`` (swaps of two cards); ``where`` is where
    each card lies now, and is kept up to date. Each swap also exchanges the two cards in ``dealt`` (the hand's
    state when its first unseen card was judged: :attr:`Unseen.replay_from`), which so stays the deal the play agrees
    with. Returns the swaps made."""
    swaps: list[tuple[Card, Card]] = []
    for c in sorted(m):
        while where[c] != m[c]:  # each swap puts one card in its place for good
            p = m[c]
            other = next(d for d in sorted(m) if where[d] == p and m[d] != p)
            _swap(st, c, where[c], other, p)
            swaps.append((c, other))
            if dealt is not None:
                _rename(dealt, {c: other, other: c})
            where[c], where[other] = p, where[c]
    return swaps


def _rename(st: State, to: dict[Card, Card]) -> None:
    """Put card ``to[c]`` wherever card ``c`` lies in ``st``'s hands and piles (``to`` a permutation)."""
    mask = 0
    for c in to:
        mask |= 1 << c
    for masks in (st.hands, *st.seat_piles.values()):
        for s, held in enumerate(masks):
            hit = held & mask
            if hit:
                new = held & ~mask
                for c, d in to.items():
                    if hit >> c & 1:
                        new |= 1 << d
                masks[s] = new
    for pile in st.piles.values():
        for i, c in enumerate(pile):
            if mask >> c & 1:
                pile[i] = to[c]


def _swap(st: State, a: Card, pa: Place, b: Card, pb: Place) -> None:
    _put(st, a, pa, b)
    _put(st, b, pb, a)


def _put(st: State, old: Card, p: Place, new: Card) -> None:
    """Replace card ``old`` by ``new`` in place ``p``."""
    zid, seat = p
    if seat >= 0:
        masks = st.hands if zid == "hand" else st.seat_piles[zid]
        masks[seat] = masks[seat] & ~(1 << old) | 1 << new
    else:
        pile = st.piles[zid]
        pile[pile.index(old)] = new
