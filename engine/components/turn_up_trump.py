"""The ``turn_up_trump`` component: calling trump over turned-up cards.

Rounds run clockwise from the dealer's left, each player passing or acting once:

* ``accept_turn_up``: accept the turned card's suit as trump (Euchre's
  ``order_up``, Bird Dog's ``declare``); with ``dealer_exchange`` the dealer
  takes the card and discards one face down (any card of the hand, or with
  ``discard_turned: false`` any but the card picked up: euchre's
  ``dealer_discard: not_turned_card``, OpenSpiel's rule, a house rule).
* ``name_suit``: name a suit, optionally not the turned one (Euchre's second round).

A round with ``skip_dealer: true`` ends when every player but the dealer (who
speaks last) has passed: the dealer is not asked (a buck-euchre reading of "each
player in turn has the chance to name a trump suit", after the dealer turned
the card down).

When every player passes the last round, ``all_pass`` decides: the dealer
must name (so may not pass in the last round), the hand is thrown in and
redealt, the next undealt card is turned and fixes trump with no maker
(``turn_up_fixed``), or the card turned for the last round fixes it
(``up_card_fixed``: bird-dog-2p, whose last declare round is over the
card that already established trump), or the hand is played without trump and
without a maker (``no_trump``: buck-euchre, "then the hand is played without trumps").
``auto_trump: {suits: [C], source}``: when the card turned for the first round
is of one of these suits, that suit is trump at once, with no maker and no
calling (buck-euchre: "If the turned up card is a club, then clubs are
automatically trump"); the first round must then turn a card up.
Later phases with ``also_on_turns_of: <this phase's id>`` are *guests*: their
actions are offered on each player's turn here too, in place of the pass
(Euchre's Farmer's Hand, a ``pile_trade``; Bird Dog's nil "when the option to
declare is theirs", a ``declarations`` phase). The host lists what each guest
offers, hands a guest's action back to it, and counts it as the turn's pass
when the guest says so; a guest may leave a player only the pass on later turns.

Every card turned up this hand is listed in the public view's ``turned_up``; with ``turned_down:
hidden`` only the card face up now is (the one on offer, then the one that fixed trump): a card
turned face down when everyone passed stays face down for the hand (bird-dog-11 and bird-dog-21:
"Cards that were not flipped (or were flipped face-down) remain face-down for the hand.";
``turned_down_source``, and ``trump_card_source`` for the card kept face up).

Used by: euchre, bird-dog-11, buck-euchre (``auto_trump``, ``all_pass: no_trump``)
(and, per docs/design.md, bird-dog-21 and bird-dog-2p).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..errors import Source, SpecError
from ..tables import Value
from .base import Component, PhaseState
from .declared import BOOL, DEALER, HAND, Declared, Fact, Transfer

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@dataclass(init=False)
class CallingState(PhaseState):
    """The calling phase's own part of a position."""

    round: int = 0
    passes: int = 0
    discarding: bool = False
    up: int = -1
    """The card turned up for this round (-1: none; a name-a-suit round shows none)."""
    seen: tuple[int, ...] = ()
    """Every card turned up this hand, in order."""

    def __init__(
            self, round: int = 0, passes: int = 0, discarding: bool = False, up: int = -1, seen: tuple[int, ...] = ()
    ) -> None:
        self.round = round
        self.passes = passes
        self.discarding = discarding
        self.up = up
        self.seen = seen

    def copy(self) -> CallingState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return CallingState(self.round, self.passes, self.discarding, self.up, self.seen)


class TurnUpTrump(Component):
    """Calling trump over turned-up cards."""

    kind: ClassVar[str] = "turn_up_trump"
    hosts_guests = True
    settles_contract = True

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__({**d, "source": d["rounds"][0]["source"]}, key, file)
        self.keeps_list = True  # its check is the list of legal actions (the base one)
        self.pile: str = d["pile"]
        self.rounds: list[dict[str, Any]] = [dict(r) for r in d["rounds"]]
        self.round_sources = [Source(**r["source"]) for r in d["rounds"]]
        self.all_pass: str = d["all_pass"]
        self.all_pass_source = Source(**d["all_pass_source"])
        self.order_source = Source(**d["order_source"]) if "order_source" in d else None
        """The clause that says who calls first and that the turn passes to the next player (None: the first
        round's clause stands for the order too)."""
        self.turned_down: str = d.get("turned_down", "shown")
        """``shown``: ``turned_up`` lists every card turned up this hand; ``hidden``: only the one face up now."""
        if self.turned_down not in ("shown", "hidden"):
            raise SpecError(f"turned_down must be shown or hidden, got {self.turned_down!r}", file,
                            key=f"{key}.turned_down")
        self.turned_down_source = Source(**d["turned_down_source"]) if "turned_down_source" in d else None
        self.trump_card_source = Source(**d["trump_card_source"]) if "trump_card_source" in d else None
        if self.all_pass not in ("dealer_must_name", "redeal", "turn_up_fixed", "up_card_fixed", "no_trump"):
            raise SpecError("all_pass must be dealer_must_name, redeal, turn_up_fixed, up_card_fixed or no_trump, "
                            f"got {self.all_pass!r}",
                            file, key=f"{key}.all_pass")
        at = d.get("auto_trump")
        # auto_trump: suits that are trump at once when the first round's turned card is of them
        self.auto_suit_names: tuple[str, ...] = tuple(at["suits"]) if at else ()
        self.auto_source = Source(**at["source"]) if at else None
        self.auto_closed_source = Source(**at["closed_source"]) if at and "closed_source" in at else self.auto_source
        """The clause saying nobody calls trump in a hand ``auto_trump`` fixed it (by default ``auto_trump``'s)."""
        self.auto_suits: frozenset[int] = frozenset()
        if at and self.rounds[0]["kind"] != "accept_turn_up":
            raise SpecError("auto_trump needs a first round that turns a card up (accept_turn_up)", file,
                            key=f"{key}.auto_trump")
        if self.rounds[-1].get("skip_dealer") and self.all_pass == "dealer_must_name":
            raise SpecError("the dealer must name in the last round, which skips the dealer", file,
                            key=f"{key}.rounds.{len(self.rounds) - 1}.skip_dealer")
        for i, r in enumerate(self.rounds):
            if r["kind"] == "accept_turn_up" and ("turn_up" not in r or "action" not in r):
                raise SpecError("an accept_turn_up round needs turn_up and action", file,
                                key=f"{key}.rounds.{i}")
        # the rounds' settings read on every turn, one typed table each (by round; the compiled build reads
        # these natively, where a value from a round's dict would be a generic object)
        self._accepts: tuple[bool, ...] = tuple(r["kind"] == "accept_turn_up" for r in self.rounds)
        self._turn_ups: tuple[int, ...] = tuple(int(r.get("turn_up", -1)) for r in self.rounds)
        self._dealer_exchange: tuple[bool, ...] = tuple(bool(r.get("dealer_exchange")) for r in self.rounds)
        self._discard_turned: tuple[bool, ...] = tuple(bool(r.get("discard_turned", True)) for r in self.rounds)
        self._exclude_turned: tuple[bool, ...] = tuple(bool(r.get("exclude_turned")) for r in self.rounds)
        self._skip_dealer: tuple[int, ...] = tuple(1 if r.get("skip_dealer") else 0 for r in self.rounds)
        # the deepest card of the pile the rounds turn up, and the one after it, which all_pass: turn_up_fixed
        # turns to fix trump (-1 and 0 with no accept_turn_up round)
        self._last_up: int = max((t for t, acc in zip(self._turn_ups, self._accepts, strict=True) if acc), default=-1)
        self._fixed_up: int = self._last_up + 1

    def host_round_count(self) -> int:
        return len(self.rounds)

    def zone_ids(self) -> list[str]:
        return ["hand", self.pile]

    def new_state(self) -> CallingState:
        return CallingState()

    def _s(self, st: State) -> CallingState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def action_sigs(self) -> list[KindSig]:
        out = [KindSig("pass"), KindSig("discard", cards=(1, 1))]
        accepts = tuple(dict.fromkeys(r["action"] for r in self.rounds if r["kind"] == "accept_turn_up"))
        if accepts:
            out.append(KindSig("accept", choices=accepts))
        if any(r["kind"] == "name_suit" for r in self.rounds):
            out.append(KindSig("name", suit=True))
        return out

    def bind(self, game: Game) -> None:
        super().bind(game)
        deck = game.deck
        if self.pile not in game.deal.pile_names:
            raise SpecError(f"pile '{self.pile}' is not an undealt pile", self.file, key=f"{self.key}.pile")
        size = game.deal.pile_sizes(deck.size, game.num_players)[self.pile]
        deepest = self._fixed_up if self.all_pass == "turn_up_fixed" else self._last_up
        if deepest >= size:
            raise SpecError(f"turn-up {deepest} needs more than the {size} cards of '{self.pile}'",
                            self.file, key=self.key)
        codec = self.codec
        self.pass_action = codec.encode("pass")
        self.discard_action = tuple(codec.encode("discard", cards=(c,)) for c in range(deck.size))
        self.accept_action = {i: codec.encode("accept", choice=r["action"])
                              for i, r in enumerate(self.rounds) if r["kind"] == "accept_turn_up"}
        self.name_action = tuple(codec.encode("name", suit=s) for s in range(len(deck.suits))) \
            if "name" in codec.sigs else ()
        bad = [x for x in self.auto_suit_names if x not in deck.suits]
        if bad:
            raise SpecError(f"auto_trump suits {bad} are not suits of the deck", self.file,
                            key=f"{self.key}.auto_trump.suits")
        self.auto_suits = frozenset(deck.suits.index(x) for x in self.auto_suit_names)

    # --- helpers ---------------------------------------------------------------
    def _turn_up(self, st: State, k: int) -> int:
        pile = st.piles[self.pile]
        return pile[-1 - k]

    def _enter_round(self, st: State, r: int) -> None:
        cs = self._s(st)
        cs.round = r
        cs.passes = 0
        if self._accepts[r]:
            cs.up = self._turn_up(st, self._turn_ups[r])
            if cs.up not in cs.seen:
                cs.seen += (cs.up,)
        else:
            cs.up = -1
        st.cur = st.next_seat(st.dealer)

    def _last_turned_suit(self, st: State) -> int:
        seen = self._s(st).seen
        return st.game.deck.suit_of[seen[-1]] if seen else -1

    def up_card(self, st: State) -> int:
        """The card turned up for the current round (-1: none)."""
        return self._s(st).up

    def public_view(self, st: State) -> dict[str, Any]:
        """Every card turned up this hand (with ``turned_down: hidden``, only the one face up now), and the one
        on offer now."""
        cs = self._s(st)
        names = st.game.deck.names
        shown = cs.seen if self.turned_down == "shown" else tuple(c for c in cs.seen if c == cs.up)
        return {"turned_up": [names[c] for c in shown], "up_card": names[cs.up] if cs.up >= 0 else None}

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """``maker`` and ``trump_made``, from the contract this phase settled."""
        st.contract.add_facts(seats, into)

    def fact_names(self) -> list[str]:
        return ["maker", "trump_made"]

    def _forced(self, st: State) -> bool:
        """The dealer may not pass: last round, everyone else passed, dealer must name."""
        if st.cur != st.dealer or self.all_pass != "dealer_must_name":
            return False
        cs: CallingState = st.cstate[self.index]  # type: ignore[assignment]
        return cs.round == len(self.rounds) - 1

    def start(self, st: State) -> None:
        self._enter_round(st, 0)
        if self.auto_suits:
            up = self._s(st).up
            suit = st.game.deck.suit_of[up]
            if suit in self.auto_suits:  # auto_trump: the turned card's suit is trump, no maker, no calling
                st.contract.fix_trump(st.game, suit, up, -1)
                st.next_phase()

    def legal(self, st: State) -> list[Action]:
        cs: CallingState = st.cstate[self.index]  # type: ignore[assignment]
        if cs.discarding:
            deck = st.game.deck
            held = deck.canonical(st.hands[st.cur]) if deck.has_copies else st.hands[st.cur]
            if not self._discard_turned[cs.round] and cs.up >= 0:
                held &= ~(1 << cs.up)
            return [self.discard_action[c] for c in deck.cards_of(held)]
        r = cs.round
        out: list[Action] = []
        if self._accepts[r]:
            out.append(self.accept_action[r])
        else:
            skip = self._last_turned_suit(st) if self._exclude_turned[r] else -1
            out.extend(a for s, a in enumerate(self.name_action) if s != skip)
        if not self._forced(st):
            out.append(self.pass_action)
            seat = st.cur
            for g in self.guests:  # guests' actions, in place of the pass
                if g.bars_host_actions(st, seat):
                    return [self.pass_action]
            for g in self.guests:
                out.extend(g.offered(st, seat, r))
        out.sort()
        return out

    def _guest_of(self, st: State, a: Action) -> Component | None:
        """The guest that offers ``a`` on this turn, if any (never when the dealer is forced)."""
        if self._forced(st):
            return None
        r = self._s(st).round
        for g in self.guests:
            offered = g.offered(st, st.cur, r)
            if a in offered or (st.game.deck.has_copies and self.codec.canonical(a, st.hands[st.cur]) in offered):
                return g
        return None

    def apply(self, st: State, a: Action) -> None:
        k = self.codec.kind(a)
        deck = st.game.deck
        cs: CallingState = st.cstate[self.index]  # type: ignore[assignment]
        if k == "discard":
            c = self.codec.cards(a)[0]
            st.hands[st.cur] = st.hands[st.cur] & ~(1 << c)
            st.piles[self.pile].append(c)
            cs.discarding = False
            st.next_phase()
            return
        if k == "accept":
            up = cs.up
            st.contract.fix_trump(st.game, deck.suit_of[up], up, st.cur)
            if self._dealer_exchange[cs.round]:
                st.piles[self.pile].remove(up)
                st.hands[st.dealer] = st.hands[st.dealer] | (1 << up)
                cs.discarding = True
                st.cur = st.dealer
                return
            st.next_phase()
            return
        if k == "name":
            st.contract.fix_trump(st.game, self.codec.suit(a), -1, st.cur)
            st.next_phase()
            return
        guest = self._guest_of(st, a) if k != "pass" else None
        if guest is not None and not guest.act_on_turn(st, st.cur, a):
            return  # a guest's action that is not this turn's pass: the same player acts again
        # a pass (a guest's action may count as one)
        cs.passes += 1
        if cs.passes < st.active_count() - self._skip_dealer[cs.round]:
            st.cur = st.next_seat(st.cur)
            return
        r = cs.round + 1
        if r < len(self.rounds):
            self._enter_round(st, r)
            return
        if self.all_pass == "redeal":
            st.redeal()
            return
        if self.all_pass == "no_trump":  # the hand is played without trump, with no maker
            st.contract.fix_trump(st.game, -1, -1, -1)
            st.next_phase()
            return
        if self.all_pass == "up_card_fixed":  # the card turned for the last round fixes trump, with no maker
            st.contract.fix_trump(st.game, deck.suit_of[cs.up], cs.up, -1)
            st.next_phase()
            return
        # turn_up_fixed: the next card is turned and fixes trump, with no maker
        card = self._turn_up(st, self._fixed_up)
        cs.up = card
        cs.seen += (card,)
        st.contract.fix_trump(st.game, deck.suit_of[card], card, -1)
        st.next_phase()

    def turn_source(self, st: State) -> Source | None:
        """The dealer's discard after picking up: that round's clause; a call: ``order_source`` (who calls
        first, then the next player), else the first round's clause."""
        if self._s(st).discarding:
            return self.round_sources[self._s(st).round]
        return self.order_source or self.source

    def contract_source(self, st: State) -> Source | None:
        """The clause by which trump and the maker were settled this hand, read while the hand is played (an
        audit cites it for a wrong ``trump`` or ``maker``): the round in which trump was made (its own clause:
        ordering up in the first round, naming a suit in the second); the all-pass clause when the dealer,
        everyone else having passed the last round, was forced to name, when the all-pass rule fixed trump
        with no maker, or when nobody made it (the hand thrown in); ``auto_trump``'s clause when the first
        turned card fixed it at once."""
        cs = self._s(st)
        c = st.contract
        if c.maker < 0:
            if self.auto_source is not None and cs.round == 0 and cs.passes == 0 and c.trump in self.auto_suits:
                return self.auto_source
            return self.all_pass_source
        if self.all_pass == "dealer_must_name" and cs.round == len(self.rounds) - 1 and c.maker == st.dealer:
            return self.all_pass_source  # the dealer speaks last: everyone else passed, and the dealer may not
        return self.round_sources[cs.round]

    def closed_reason(self, st: State, a: Action) -> tuple[str, Source] | None:
        """``auto_trump`` fixed trump as the phase began (the turned card's suit), so nobody ordered up, named or
        passed this hand: ``auto_trump.closed_source`` (else ``auto_trump``'s clause) for a call or a pass."""
        cs = self._s(st)
        c = st.contract
        if self.auto_closed_source is None or st.phase <= self.index or self.codec.kind(a) not in (
                "accept", "name", "pass") or c.maker >= 0 or cs.round != 0 or cs.passes != 0 \
                or c.trump not in self.auto_suits or cs.up < 0:
            return None
        deck = st.game.deck
        return (f"nobody calls trump this hand: the turned card {deck.names[cs.up]} made {deck.suits[c.trump]} "
                "trump at once"), self.auto_closed_source

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        k = self.codec.kind(a)
        r = self._s(st).round
        if self._s(st).discarding:
            up = self._s(st).up
            if self.codec.kind(a) == "discard" and self.codec.cards(a) == (up,) and st.hands[st.cur] >> up & 1:
                return "the dealer may not discard the card picked up", self.round_sources[r]
            return "the dealer must discard a card from hand", self.round_sources[r]
        if k == "pass" and self._forced(st):
            return "the dealer may not pass: everyone else has passed", self.all_pass_source
        if k == "name" and self.rounds[r]["kind"] == "name_suit":
            return "the suit that was turned down may not be named", self.round_sources[r]
        for g in self.guests:
            if k in g.codec_kinds():
                return g.why_not_offered()
        return f"not allowed in round {r + 1} of calling trump", self.round_sources[r]

    def hidden(self, a: Action) -> bool:
        return self.codec.kind(a) == "discard" or any(g.hidden(a) for g in self.guests)

    def declarations(self) -> Declared:
        """The dealer's pick-up and discard; rounds × players turns; maker facts (guests declare their own)."""
        assert self.game is not None
        n = self.game.num_players
        moves: list[Transfer] = []
        extra = 0
        if any(r.get("dealer_exchange") for r in self.rounds):
            moves.append(Transfer("dealer picks up the turned card", self.pile, DEALER, 1, ("accept",)))
            moves.append(Transfer("dealer discards", HAND, self.pile, 1, ("discard",)))
            extra += 1
        rounds = len(self.rounds)
        return Declared(tuple(moves), rounds * n + extra, f"{rounds} rounds of {n} turns, {extra} discard",
                        (Fact("maker", BOOL), Fact("trump_made", BOOL)))
