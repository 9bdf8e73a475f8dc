"""The ``tricks`` component: trick play under a ranking.

The first leader is left of the dealer (or the maker: ``first_leader: maker``; or the maker only when the
player to the dealer's left sits out, ``maker_if_left_out``: dirty-clubs' ``dropped_leader`` reading), skipping
players who sit out; each trick's winner leads the next. ``follow: effective_suit`` makes a
player follow the led suit as the ranking counts suits (a left bower is trump,
the Bird Dog keeps its own suit); ``follow: any`` lets anything be played. The
winner is the card of highest power (see :mod:`cardspec.engine.ranking`),
the first played among equals (``identical: first_played_wins``, the default:
two copies of one card in a two-deck game) or the last played
(``identical: last_played_wins``).

A dummy seat (:mod:`cardspec.engine.seats`) takes part in trick play
(``dummies_take_part``). ``refill: {seat, from, to}`` keeps that seat's hand
at ``to`` cards: when the phase starts and after every trick, the top cards of
the pile ``from`` join its hand until it holds ``to`` (or the pile is empty),
so the seat follows suit among those cards only (bird-dog-2p's Bird Dog: three
face-up cards, the next turned after each trick). ``dummy_leads: false`` makes
the controller of a dummy seat that won a trick lead the next one in its place.

Used by: euchre, bird-dog-11 (and bid-euchre, the buck-euchre family, bird-dog-21).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..cards import Card, CardMask
from ..chance import below
from ..errors import Source, SpecError
from ..kernels import follow_mask
from ..tables import Value
from .base import CheckingDoer, PhaseState
from .declared import ALL, HAND, START, TRICK, WON, Declared, Fact, Transfer, seat_hand

if TYPE_CHECKING:
    from ..game import Game
    from ..ranking import TrickTables
    from ..state import State

def plays_fast(hand: CardMask, led_mask: CardMask, following: bool) -> tuple[Card, ...]:
    """The fast path inlined in :meth:`Tricks.legal` and :meth:`Tricks.try_apply`, over plain ints.

    The same statements as the methods (which inline them for speed), in card-id
    order; ``following`` is "a card was led and the spec says follow suit".
    CrossHair's ``diffbehavior`` compares this with :func:`plays_reference`, and
    ``tests/test_contracts.py`` compares the methods with
    :meth:`Tricks.legal_reference` on played states.

    >>> plays_fast(0b1011, 0b0110, True), plays_fast(0b1011, 0b0110, False)
    ((1,), (0, 1, 3))
    """
    m = hand
    if following:
        f = m & led_mask
        if f:
            m = f
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return tuple(out)


def winner_fast(powers: Sequence[int], cards: Sequence[Card], last_wins: bool = False) -> int:
    """The trick-winner loop inlined in :meth:`Tricks._trick_won`: index in ``cards`` of the winner.

    Among equal powers the first played wins, or the last with ``last_wins``.

    ``powers`` is a row of the trick tables (never negative). The reference is
    :func:`kernels.trick_winner` (via :func:`ranking.trick_winner`); calling it
    from the hot path costs about 2% of Euchre throughput, hence the copy, which
    ``diffbehavior`` and ``tests/test_contracts.py`` hold to the kernel.

    >>> winner_fast((0, 5, 5, 3), [3, 1, 2]), winner_fast((0, 5, 5, 3), [3, 1, 2], last_wins=True)
    (1, 2)
    """
    best, best_i = -1, 0
    for i, c in enumerate(cards):
        p = powers[c]
        if p > best or (last_wins and p == best):
            best, best_i = p, i
    return best_i


def plays_reference(hand: CardMask, led_mask: CardMask, following: bool) -> tuple[Card, ...]:
    """The reference rule: :func:`kernels.follow_mask` when following, else the whole hand.

    >>> plays_reference(0b1011, 0b0110, True), plays_reference(0b1001, 0b0110, True)
    ((1,), (0, 3))
    """
    m = follow_mask(hand, led_mask) if following else hand
    return tuple(c for c in range(hand.bit_length()) if m >> c & 1)


@dataclass(init=False, slots=True)
class TrickState(PhaseState):
    """Trick play's own part of a position (the trick's cards are in the ``trick`` zone,
    captured cards in the ``won`` zone, tricks won per seat in the ``tricks`` tally)."""

    playing: int = 0
    """How many seats play to each trick this hand."""
    next: tuple[int, ...] = ()
    """The next seat after each seat."""
    led: int = -1
    """The led suit of the trick being played, as the ranking counts suits (-1 before the lead)."""
    seats: list[int] = field(default_factory=list)
    """Who played each card of the trick being played."""
    winners: list[int] = field(default_factory=list)
    """The winner of each completed trick."""

    def __init__(
            self, playing: int = 0, next: tuple[int, ...] = (), led: int = -1, seats: list[int] | None = None,
            winners: list[int] | None = None
    ) -> None:
        self.playing = playing
        self.next = next
        self.led = led
        self.seats = [] if seats is None else seats
        self.winners = [] if winners is None else winners

    def copy(self) -> TrickState:
        return TrickState(self.playing, self.next, self.led, self.seats[:], self.winners[:])


class Tricks(CheckingDoer):
    """Trick play."""

    kind: ClassVar[str] = "tricks"
    held_cards_forbid = True  # follow suit (and trump or head the trick) bind through the cards held

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.num_tricks: int = d["tricks"]
        self.first_leader: str = d["first_leader"]
        self.follow: str = d["follow"]
        self.winner_source = Source(**d["winner_source"])
        self.identical: str = d.get("identical", "first_played_wins")
        if self.identical not in ("first_played_wins", "last_played_wins"):
            raise SpecError(f"identical must be first_played_wins or last_played_wins, got {self.identical!r}",
                            file, key=f"{key}.identical")
        self.last_wins = self.identical == "last_played_wins"
        """Among cards of equal power (copies of one card) the last played wins the trick."""
        self.identical_declared = "identical" in d
        """Whether the spec states how identical copies rank (verification then allows them equal power)."""
        self.identical_source = Source(**d["identical_source"]) if "identical_source" in d else self.winner_source
        self.top_source = Source(**d["top_source"]) if "top_source" in d else None
        """The part of the winner clause for a trick a top card (the ranking's ``top_card``: the Bird Dog) wins
        (None: ``winner_source``)."""
        self.trump_source = Source(**d["trump_source"]) if "trump_source" in d else None
        """The part of the winner clause for a trick a trump wins (None: ``winner_source``, which then covers it)."""
        self.first_leader_source = Source(**d["first_leader_source"]) if "first_leader_source" in d else None
        """The clause naming who leads the first trick (None: the text is silent, ``first_leader`` decides)."""
        self.first_leader_plain_source = Source(**d["first_leader_plain_source"]) \
            if "first_leader_plain_source" in d else None
        """The same clause cited alone, for a first lead by the seat the text names (the player to the dealer's
        left, when that player plays): ``first_leader_source`` names the register entry deciding who leads when a
        seat sitting out moves the lead, cited only then. None: ``first_leader_source`` always."""
        self.order_source = Source(**d["order_source"]) if "order_source" in d else None
        """The clause that passes play to the next seat within a trick (None: the text is silent, and play
        passes clockwise as the component runs it)."""
        rf = d.get("refill")
        self.refill: tuple[str, str, int] | None = (rf["seat"], rf["from"], rf["to"]) if rf else None
        self.refill_source = Source(**rf["source"]) if rf else None
        self.refill_hand_source = Source(**rf["hand_source"]) if rf and "hand_source" in rf else self.refill_source
        """The clause making the refill seat's face-up cards its whole hand (cited when it plays a card not among
        them; by default ``refill.source``)."""
        self.refill_follow_source = Source(**rf["follow_source"]) if rf and "follow_source" in rf else self.source
        """The clause making the refill seat follow suit among those cards only (by default ``source``)."""
        self.refill_seat = -1
        self.dummy_leads: bool = d.get("dummy_leads", True)
        """A dummy seat that wins a trick leads the next (else its controller leads from own hand)."""

    dummies_take_part = True
    """Dummy seats play cards in this phase (see ``State._enter_phase``)."""

    def bind(self, game: Game) -> None:
        super().bind(game)
        if self.refill is not None:
            self.refill_seat = game.seating.seat_named(self.refill[0])
            if self.refill_seat < 0:
                raise SpecError(f"refill seat '{self.refill[0]}' is not a dummy seat", self.file,
                                key=f"{self.key}.refill.seat")
            if self.refill[1] not in game.deal.pile_names:
                raise SpecError(f"refill pile '{self.refill[1]}' is not a pile of the deal", self.file,
                                key=f"{self.key}.refill.from")
        if game.ranking is None:
            raise SpecError("a tricks phase needs a ranking clause", self.file, key=self.key)
        if self.num_tricks > game.deal.hand_size:
            raise SpecError(f"{self.num_tricks} tricks but hands hold {game.deal.hand_size} cards",
                            self.file, key=f"{self.key}.tricks")
        self.play_base = self.codec.base("play")
        self.play = tuple(self.codec.encode("play", cards=(c,)) for c in range(game.deck.size))
        self.copies = game.deck.canonical if game.deck.has_copies else None

    def action_sigs(self) -> list[KindSig]:
        return [KindSig("play", cards=(1, 1))]

    def zone_ids(self) -> list[str]:
        return ["hand", "trick", "won"] + ([self.refill[1]] if self.refill else [])

    def _refill(self, st: State) -> None:
        """Top cards of the refill pile join the refill seat's hand until it holds ``to`` cards."""
        assert self.refill is not None
        seat, to = self.refill_seat, self.refill[2]
        pile = st.piles[self.refill[1]]
        hand = st.hands[seat]
        while hand.bit_count() < to and pile:
            hand |= 1 << pile.pop()
        st.hands[seat] = hand

    def new_state(self) -> TrickState:
        return TrickState(0, (), -1, [], [])  # every field given: no default factories on the hot path

    def tallies(self) -> list[str]:
        return ["tricks"]

    def fact_names(self) -> list[str]:
        return ["tricks"]

    def _s(self, st: State) -> TrickState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def start(self, st: State) -> None:
        con = st.contract
        if con.tt is None:  # no trump was made: play without trump
            con.fix_trump(st.game, -1, -1, con.maker)
        lead_from = con.maker if self.first_leader == "maker" and con.maker >= 0 else None
        if self.first_leader == "left_of_loner" and con.maker >= 0 \
                and con.out & st.game.partners_mask[con.maker]:  # the maker went alone: left of the maker leads
            lead_from = st.next_seat(con.maker)
        if self.first_leader == "maker_if_left_out" and con.maker >= 0 and con.out >> st.ring[st.dealer] & 1:
            lead_from = con.maker  # the player to the dealer's left dropped out: the maker leads
        if lead_from is not None and not con.out >> lead_from & 1:
            st.cur = lead_from
        else:
            st.cur = st.next_seat(st.dealer)
        if self.refill is not None:
            self._refill(st)
        cs = self._s(st)
        cs.playing = sum(1 for s in range(len(st.active)) if st.active[s] and not con.out >> s & 1)
        cs.next = tuple(st.next_seat(s) for s in range(len(st.active)))

    def _following(self, st: State) -> bool:
        return bool(st.piles["trick"]) and self.follow == "effective_suit"

    def _mask(self, st: State) -> int:
        hand = st.hands[st.cur]
        if self._following(st):
            tt = st.contract.tt
            assert tt is not None
            return follow_mask(hand, tt.suit_mask[self._s(st).led])
        return hand

    def legal_reference(self, st: State) -> list[Action]:
        """What :meth:`legal` must return, from :func:`plays_reference` (slow; for tests)."""
        tt = st.contract.tt
        led_mask = tt.suit_mask[self._s(st).led] if tt is not None and st.piles["trick"] else 0
        plays = plays_reference(st.hands[st.cur], led_mask, self._following(st))
        if self.copies is not None:
            keep = self.copies(sum(1 << c for c in plays))
            plays = tuple(c for c in plays if keep >> c & 1)
        return [self.play[c] for c in plays]

    def legal(self, st: State) -> list[Action]:
        # fast path: plays_fast inlined (see plays_reference for the rule)
        m = st.hands[st.cur]
        if st.piles["trick"] and self.follow == "effective_suit":
            tt = st.contract.tt
            assert tt is not None
            cs: TrickState = st.cstate[self.index]  # type: ignore[assignment]  # typed: compiled, native reads
            f = m & tt.suit_mask[cs.led]
            if f:
                m = f
        if self.copies is not None:
            m = self.copies(m)
        play = self.play
        out = []
        while m:
            low = m & -m
            out.append(play[low.bit_length() - 1])
            m ^= low
        return out

    def is_legal(self, st: State, a: Action) -> bool:
        c = a - self.play_base - 1
        return 0 <= c < len(self.play) and bool(self._mask(st) >> c & 1)

    def try_apply(self, st: State, a: Action) -> bool:
        """The checked hot path: legality test and play fused (see :meth:`apply`)."""
        c = a - self.play_base - 1
        if not 0 <= c < len(self.play):
            return False
        seat = st.cur
        hand = st.hands[seat]
        tt = st.contract.tt
        assert tt is not None
        trick = st.piles["trick"]
        cs: TrickState = st.cstate[self.index]  # type: ignore[assignment]
        allowed = hand  # plays_fast inlined, as a mask
        if trick and self.follow == "effective_suit":
            f = hand & tt.suit_mask[cs.led]
            if f:
                allowed = f
        if not allowed >> c & 1:
            return False
        self._lay(st, cs, tt, trick, seat, hand, c)
        return True

    def _lay(self, st: State, cs: TrickState, tt: TrickTables, trick: list[Card], seat: int, hand: CardMask,
             c: Card) -> bool:
        """``seat``, holding ``hand``, plays card ``c`` to the trick (the doer of :meth:`try_apply` and
        :meth:`play_random`): the next seat plays, or the trick is won and its winner leads, or the phase ends
        (True)."""
        st.hands[seat] = hand & ~(1 << c)
        if not trick:
            cs.led = tt.eff_suit[c]
        trick.append(c)
        cs.seats.append(seat)
        if len(trick) < cs.playing:
            st.cur = cs.next[seat]
            return False
        w = self._trick_won(st, cs, trick, tt.power[cs.led])  # winner_fast inlined (reference: ranking.trick_winner)
        if len(cs.winners) == self.num_tricks:
            st.next_phase()
            return True
        st.cur = w if self.dummy_leads else st.controller[w]
        return False

    def play_random(self, st: State, getrandbits: Callable[[int], int], bound: int) -> bool:
        """Uniform random play of the whole phase: :meth:`legal` and the doer (:meth:`_lay`) in one loop, the
        bot's choice made on the legal mask (the ``r``-th lowest card is the ``r``-th listed play)."""
        history = st.history
        phase = st.phase
        hands = st.hands
        trick = st.piles["trick"]
        tt = st.contract.tt
        assert tt is not None
        cs: TrickState = st.cstate[self.index]  # type: ignore[assignment]
        following = self.follow == "effective_suit"
        copies = self.copies
        play = self.play
        while len(history) < bound:
            seat = st.cur
            hand = hands[seat]
            m = hand
            if trick and following:
                f = hand & tt.suit_mask[cs.led]
                if f:
                    m = f
            if copies is not None:
                m = copies(m)
            n = 0
            x = m
            while x:
                x &= x - 1
                n += 1
            r = below(getrandbits, n)
            while r:
                m &= m - 1
                r -= 1
            c = (m & -m).bit_length() - 1
            history.append((seat, play[c], phase))
            if self._lay(st, cs, tt, trick, seat, hand, c):
                return True
        return True

    def _trick_won(self, st: State, cs: TrickState, trick: list[Card], row: tuple[int, ...]) -> int:
        """A full trick: its winner (the highest power, ties to the first or the last played) takes it (the
        ``tricks`` tally, the ``won`` zone, ``cs.winners``); the trick is cleared and the refill seat refilled.
        The winner."""
        best, best_i = -1, 0
        if self.last_wins:
            for i, x in enumerate(trick):
                p = row[x]
                if p >= best:
                    best, best_i = p, i
        else:
            for i, x in enumerate(trick):
                p = row[x]
                if p > best:
                    best, best_i = p, i
        w = cs.seats[best_i]
        tally = st.tally["tricks"]
        tally[w] = tally[w] + 1
        won_zone = st.seat_piles["won"]
        won = won_zone[w]
        for x in trick:
            won |= 1 << x
        won_zone[w] = won
        cs.winners.append(w)
        trick.clear()
        cs.seats.clear()
        if self.refill is not None:
            self._refill(st)
        return w

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source | None]:
        if self.codec.kind(a) != "play":
            return "a card must be played", self.source
        c = self.codec.cards(a)[0]
        deck = st.game.deck
        refill = st.cur == self.refill_seat
        if not 0 <= c < deck.size or not st.hands[st.cur] >> c & 1:  # no clause: only cards held are played
            name = deck.names[c] if 0 <= c < deck.size else str(c)
            if refill:  # the refill seat's hand is its face-up cards, as the refill clause says
                return f"{name} is not one of seat {st.cur}'s face-up cards (its hand)", self.refill_hand_source
            return f"{name} is not in seat {st.cur}'s hand", None
        led = self._s(st).led
        suit = deck.suits[led] if 0 <= led < len(deck.suits) else str(led)
        if refill:
            return (f"seat {st.cur} holds {suit} among its face-up cards and must follow the led suit {suit}",
                    self.refill_follow_source)
        bower = self._bower_revoke(st, c, led)
        if bower is not None:
            return bower
        return f"seat {st.cur} holds {suit} and must follow the led suit {suit}", self.source

    def _bower_revoke(self, st: State, c: Card, led: int) -> tuple[str, Source | None] | None:
        """A revoke that turns on a card counting as another suit than its printed one (the left bower counts as
        trump): the only cards held of the led suit are such cards, or the card played is printed in the led suit
        but counts as trump. Named, and cited by the ranking's ``bowers.source`` (else this phase's clause); None
        when no such card decides the revoke."""
        tt, ranking = st.contract.tt, st.game.ranking
        if tt is None or ranking is None or not 0 <= led < len(tt.suit_mask):
            return None
        deck = st.game.deck
        names, suits = deck.names, deck.suits
        src = ranking.bower_source or self.source
        held = deck.cards_of(st.hands[st.cur] & tt.suit_mask[led])
        if held and all(deck.suit_of[h] != led for h in held):
            cards = ", ".join(names[h] for h in held)
            return (f"seat {st.cur} holds {cards}, which counts as the led suit {suits[led]} (the trump suit), and "
                    f"must follow it"), src
        eff = tt.eff_suit[c]
        if deck.suit_of[c] == led and eff != led and 0 <= eff < len(suits):
            return (f"{names[c]} counts as the trump suit {suits[eff]}, not as the led suit {suits[led]}, and seat "
                    f"{st.cur} holds {suits[led]}: it must follow the led suit"), src
        return None

    # --- results, facts and views --------------------------------------------------
    def result_source(self, field: str) -> Source | None:
        return self.winner_source if field == "trick_winners" else self.source

    def turn_source(self, st: State) -> Source | None:
        """The first lead: ``first_leader_plain_source`` when the seat to the dealer's left leads, else
        ``first_leader_source``; a later lead: the part of the winner clause that decided the last trick (who
        takes the trick leads next: :meth:`_winning_clause`); a card following the lead: ``order_source`` (None
        without it: play passes clockwise, as ``tricks`` runs it)."""
        if st.piles["trick"]:
            return self.order_source
        if not self._s(st).winners:
            plain = self.first_leader_plain_source
            return plain if plain is not None and st.cur == st.next_seat(st.dealer, skip_out=False) \
                else self.first_leader_source
        n = self._s(st).playing
        return self._winning_clause(st, self._hand_plays(st)[-n:])

    def _hand_plays(self, st: State) -> list[Action]:
        """This phase's plays of the hand so far, in order (read from the history: an audit's path only)."""
        return [a for _, a, ph in st.history[st.hand_start:] if ph == self.index]

    def _tied(self, st: State, plays: list[Action]) -> bool:
        """Whether one whole trick's ``plays`` (in order) hold two cards of the highest power: copies of one card,
        between which ``identical`` decides."""
        tt = st.contract.tt
        if tt is None or len(plays) != self._s(st).playing or len(plays) <= 1:
            return False
        cards = [self.codec.cards(a)[0] for a in plays]
        row = tt.power[tt.eff_suit[cards[0]]]
        best = max(row[c] for c in cards)
        return sum(1 for c in cards if row[c] == best) > 1

    def trick_source(self, st: State, trick: int, later: tuple[Action, ...] = ()) -> Source | None:
        """The clause that decides the winner of trick ``trick`` (counted from 0) of the hand being played or just
        played in ``st``, ``later`` being the hand's actions after ``st`` (its last, when ``st`` is the position
        before it): :meth:`_winning_clause` (an audit cites it for a wrongly stated winner)."""
        n = self._s(st).playing
        plays = self._hand_plays(st) + list(later)
        return self._winning_clause(st, plays[trick * n:(trick + 1) * n])

    def _winning_clause(self, st: State, plays: list[Action]) -> Source | None:
        """The part of the winner clause that decides one whole trick (``plays``, in order): ``identical_source``
        when copies of one card tie for it; ``top_source`` when a top card (the Bird Dog) wins it,
        ``trump_source`` when a trump does (each where the spec gives one); else ``winner_source``."""
        if self._tied(st, plays):
            return self.identical_source
        tt = st.contract.tt
        if tt is None or len(plays) != self._s(st).playing or not plays:
            return self.winner_source
        cards = [self.codec.cards(a)[0] for a in plays]
        won = cards[winner_fast(tt.power[tt.eff_suit[cards[0]]], cards, self.last_wins)]
        if self.top_source is not None and won in tt.top_cards:
            return self.top_source
        if self.trump_source is not None and tt.trump >= 0 and tt.eff_suit[won] == tt.trump and won not in tt.top_cards:
            return self.trump_source
        return self.winner_source

    def result_fields(self, st: State) -> dict[str, Any]:
        """The winner of each trick, in order."""
        return {"trick_winners": list(self._s(st).winners)}

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """``tricks``: the tricks the seats of the entity won."""
        won = st.tally["tricks"]
        n = 0
        for s in seats:
            n += won[s]
        into["tricks"] = n

    def public_view(self, st: State) -> dict[str, Any]:
        """The trick being played (if the ``trick`` zone is face up) and the tricks each seat won."""
        names = st.game.deck.names
        shown = st.game.zone_of["trick"].visibility == "all"
        return {"trick": [{"seat": s, "card": names[c]} for s, c in zip(self._s(st).seats, st.piles["trick"],
                                                                         strict=True)] if shown else [],
                "tricks_won": list(st.tally["tricks"])}

    def trick_winners(self, st: State) -> list[int]:
        """The winner of each trick completed so far this hand."""
        return list(self._s(st).winners)

    def led_suit(self, st: State) -> int:
        """The led suit of the trick being played (as the ranking counts suits), or -1 before a lead."""
        return self._s(st).led if st.piles["trick"] else -1

    def trick_seats(self, st: State) -> list[int]:
        """Who played each card of the trick being played, in order."""
        return list(self._s(st).seats)

    def declarations(self) -> Declared:
        """A card from hand to the trick, the completed trick to its winner; tricks × players plays."""
        assert self.game is not None
        n, t = self.game.num_seats, self.num_tricks  # a dummy seat plays to every trick too
        refill = (Transfer("turn up the refill seat's next cards", self.refill[1], seat_hand(self.refill_seat),
                           (0, self.refill[2]), ("play", START), follow_on=True),) if self.refill else ()
        return Declared((Transfer("play a card to the trick", HAND, TRICK, 1, ("play",)),
                         Transfer("collect a trick", TRICK, WON, ALL, ("play",), follow_on=True), *refill),
                        t * n, f"{t} tricks of at most {n} cards", (Fact("tricks", tuple(range(t + 1))),))
