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
  legal; afterwards any of those cards may be the one that went.

What stays unchecked is listed (:attr:`Unseen.notes`): that a seat holding unseen cards followed
suit when it could have (only its known cards and show-outs say so), and results that depend on
where unseen cards lie. Used by :func:`cardspec.engine.record.replay`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .actions import Action
from .cards import Card
from .errors import CardspecError, RecordError, Source

if TYPE_CHECKING:
    from .state import State

UNSEEN = "?"
"""How a record writes a card it does not show."""


def in_hand(st: State, index: int) -> str:
    """Where action ``index`` of a record falls, as an audit names it: ``hand 0, action 8 of the hand``, with
    ``, trick 1`` while a trick-taking phase is under way (tricks counted from 0)."""
    query = getattr(st.comp, "trick_winners", None)
    trick = f", trick {len(query(st))}" if callable(query) else ""
    return f"hand {st.hand_no}, action {index - st.hand_start} of the hand{trick}"

Place = tuple[str, int]
"""Where a card lies: (zone id, owning seat), the seat -1 for a zone on the table."""


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

    def copy(self) -> Unseen:
        return Unseen(set(self.cards), {c: set(p) for c, p in self.allowed.items()}, dict(self.why_not),
                      list(self.notes), self.hand)

    @staticmethod
    def start(st: State, stand_ins: list[Card]) -> Unseen | None:
        """The unseen cards of a newly dealt hand, from the stand-ins the deal put in their places."""
        if not stand_ins:
            return None
        where = locate(st, stand_ins)
        places = {where[c] for c in stand_ins}
        u = Unseen(set(stand_ins), {c: set(places) for c in stand_ins}, hand=st.hand_no)
        counts: dict[Place, int] = {}
        for c in stand_ins:
            counts[where[c]] = counts.get(where[c], 0) + 1
        u.notes.append(f"hand {st.hand_no}: {len(stand_ins)} cards never shown in the deal (" + ", ".join(
            f"{n} in {_place_name(p)}" for p, n in sorted(counts.items())) + "); a seat holding unseen "
            "cards was held to its known cards and its show-outs")
        return u

    # --- the replay's hooks ---------------------------------------------------------
    def play(self, st: State, a: Action, index: int, name: Callable[[Action], str]) -> None:
        """Carry out ``a`` for the seat to act, judged on its known cards: the unseen cards it shows
        are placed first, and afterwards the unseen cards its legality rules out leave the seat's places."""
        seat = st.cur
        mine: Place = ("hand", seat)
        for c in st.game.codec.cards(a):
            if c in self.cards:
                self._pin(st, c, mine, index, name(a))
        before = self._where(st)
        hidden = before.get(mine, 0)  # the unseen cards in the seat's hand (a hand names its cards first)
        hand = st.hand_no
        if hidden:
            known = st.hands[seat] & ~hidden
            if self._legal_with(st, seat, known, a):
                shown = False
                for c in sorted(self.cards):
                    if mine in self.allowed[c] and not self._legal_with(st, seat, known | 1 << c, a):
                        self.allowed[c].discard(mine)
                        self.why_not[(c, mine)] = Exclusion(index, name(a), self._clause(st, seat, known | 1 << c, a))
                        shown = True
                if shown and _matching(self, _cards_at(before)) is None:
                    src = next((e.source for e in self.why_not.values() if e.index == index), None)
                    raise RecordError(
                        f"'{name(a)}' is illegal: it is legal only if seat {seat} held none of the unseen cards "
                        f"it rules out, and they cannot all lie elsewhere, so seat {seat} held one ("
                        f"{in_hand(st, index)})", index=index, source=src)
            st.hands[seat] = known
        try:
            st.apply(a)
        finally:
            if st.hand_no == hand:
                st.hands[seat] = st.hands[seat] | hidden
        if st.hand_no == hand:
            self._settle(st, before)

    def play_hidden(self, st: State, word: str, index: int) -> None:
        """An action whose card is unseen (``discard ?``): legal when some card the seat may hold makes it
        legal; afterwards each of those cards may be the one that went."""
        g = st.game
        seat = st.cur
        mine: Place = ("hand", seat)
        names = g.deck.names
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
            self.notes.append(f"hand {self.hand}: {len(self.cards)} cards stayed unseen; a result that "
                              "depends on where they lie was worked from one placement consistent with every play")

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
        _realise(st, m, where)
        self.cards.discard(c)
        del self.allowed[c]
        del m[c]
        self.at = _masks_at(m)

    def _settle(self, st: State, places: dict[Place, int]) -> None:
        """After a move: an unseen card allowed in a place may now be wherever that place's unseen cards went
        (all of a kitty taken up: the kitty's name moves with it; one card of a hand discarded unseen:
        the hand's cards may be in the hand or where the discard went). ``places`` is :func:`_places` before the
        move: most moves leave every unseen card where it was, and that is told by comparing masks."""
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


def _matching(u: Unseen, where: dict[Card, Place]) -> dict[Card, Place] | None:
    """A placement of every unseen card in an allowed place, each place keeping as many unseen cards as it
    holds now; None when there is none (augmenting paths over the places' slots)."""
    cap: dict[Place, int] = {}
    for c in u.cards:
        cap[where[c]] = cap.get(where[c], 0) + 1
    slots = [p for p in sorted(cap) for _ in range(cap[p])]
    owner: list[Card | None] = [None] * len(slots)
    spans = [(p, range(slots.index(p), slots.index(p) + cap[p])) for p in sorted(cap)]  # each place's slots

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


def _realise(st: State, m: dict[Card, Place], where: dict[Card, Place]) -> None:
    """Move stand-ins so that each unseen card lies in its place in ``m`` (swaps of two cards); ``where`` is where
    each card lies now, and is kept up to date."""
    for c in sorted(m):
        while where[c] != m[c]:  # each swap puts one card in its place for good
            p = m[c]
            other = next(d for d in sorted(m) if where[d] == p and m[d] != p)
            _swap(st, c, where[c], other, p)
            where[c], where[other] = p, where[c]


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
