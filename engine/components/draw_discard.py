"""The ``draw_discard`` component: draw, discard and knock turns toward a hand value.

On a turn the player draws the top card of the stock or of the discard pile and
discards one card, or takes the top ``count`` discards (``take_several``), or knocks.
Taking several either exchanges the whole hand (``then: exchange_hand``, the
default: the old hand goes on the discard pile in a chosen order and the turn
ends; ``count`` must be the hand size) or adds the cards to the hand (``then:
discard``: ``count`` a number or ``all`` of the pile, then one card is discarded as
after a draw). After a
knock every other player still in has ``final_turns`` more turns. A hand worth
exactly ``instant_win.value`` ends the round at once (also right after the deal
when ``check_after_deal`` is on). When the stock is empty, ``stock_exhausted``
either reshuffles the discard pile under its top card (a seeded chance event)
or ends the round. The discard pile starts empty unless the deal lays it (The
Card Game turns the top card of the rest of the deck: an undealt pile of 1).
With ``reveal_at_end: {source}`` every player still in lays their cards face up
when the round ends (riding-the-bus: "then you all lay out your cards"): the
hand's result lists them (``hands_shown``, per seat; empty for a seat out), so
every player sees every hand and why the lowest took the strike.

With a ``melding`` clause (:mod:`cardspec.engine.components.melding`) a player
who has drawn may instead go out (``go out X``: every other card laid in melds,
``X`` discarded); the others then have ``go_out.final_turns`` more turns (in which
they may go out too when ``go_out.after_first`` is ``allowed``).

Used by: riding-the-bus (and, with melding, the-card-game and hand-and-foot).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, Any

from ..actions import Action, KindSig
from ..errors import Source, SpecError
from ..tables import Value
from .base import Component
from .declared import ALL, BOOL, HAND, Declared, Fact, Transfer
from .melding import MeldRules, MeldState

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@dataclass
class TurnState(MeldState):
    """The turns' own part of a position: the turn count, the stage of the turn, the card drawn from
    the discard pile, who knocked, the final turns left after a knock, how the round ended (and the
    melding fields of :class:`MeldState`)."""

    turns: int = -1
    stage: str = "draw"
    drawn: int = -1
    knocker: int = -1
    knock_left: int = 0
    ended_by: str = ""


class DrawDiscard(Component):
    """Draw-and-discard turns with knocking."""

    kind = "draw_discard"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.stock: str = d["stock"]
        self.discard: str = d["discard"]
        self.discard_drawn: str = d.get("discard_drawn", "allowed")
        ts = d.get("take_several")
        count = ts["count"] if ts else 0
        self.take_all = count == "all"
        """Take the whole discard pile (``count: all``)."""
        self.take_count: int = 0 if self.take_all else count
        self.take_then: str = ts.get("then", "exchange_hand") if ts else "exchange_hand"
        self.takes = ts is not None
        self.take_min: int = ts["min_pile"] if ts else 0
        if ts and self.take_then not in ("exchange_hand", "discard"):
            raise SpecError("take_several.then must be exchange_hand or discard", file, key=f"{key}.take_several.then")
        if ts and self.take_all and self.take_then == "exchange_hand":
            raise SpecError("take_several.count 'all' needs then: discard (a hand is exchanged card for card)", file,
                            key=f"{key}.take_several.count")
        self.take_source = Source(**ts["source"]) if ts else self.source
        kn = d.get("knock")
        self.final_turns: int | None = kn["final_turns"] if kn else None
        self.knock_source = Source(**kn["source"]) if kn else self.source
        self.first_turn_knock: str = kn.get("first_turn", "allowed") if kn else "allowed"
        self.first_turn_source = Source(**kn["first_turn_source"]) if kn and "first_turn_source" in kn \
            else self.source
        if self.first_turn_knock not in ("allowed", "forbidden"):
            raise SpecError("knock.first_turn must be allowed or forbidden", file, key=f"{key}.knock.first_turn")
        iw = d.get("instant_win")
        self.instant: float | None = iw["value"] if iw else None
        self.check_after_deal = iw is not None and iw.get("check_after_deal", "on") == "on"
        self.exhausted: str = d["stock_exhausted"]
        if self.exhausted not in ("reshuffle", "end_round"):
            raise SpecError("stock_exhausted must be reshuffle or end_round", file,
                            key=f"{key}.stock_exhausted")
        if self.discard_drawn not in ("allowed", "forbidden"):
            raise SpecError("discard_drawn must be allowed or forbidden", file, key=f"{key}.discard_drawn")
        ml = d.get("melding")
        self.melding: MeldRules | None = MeldRules.build(ml, f"{key}.melding", file) if ml else None
        ra = d.get("reveal_at_end")
        self.reveal_source: Source | None = Source(**ra["source"]) if ra else None
        """Every player still in shows their hand when the round ends (``hands_shown`` in the result)."""

    def zone_ids(self) -> list[str]:
        return ["hand", self.stock, self.discard] + ([self.melding.pile] if self.melding else [])

    def action_sigs(self) -> list[KindSig]:
        out = [KindSig("draw_stock"), KindSig("draw_discard"), KindSig("discard", cards=(1, 1))]
        if self.takes and self.take_then == "exchange_hand":
            out.append(KindSig("take", cards=(self.take_count, self.take_count), ordered=True))
        elif self.takes:  # the cards taken are the top of the pile: the action names none
            out.append(KindSig("take"))
        if self.final_turns is not None:
            out.append(KindSig("knock"))
        if self.melding is not None:
            out.append(KindSig("go_out", cards=(1, 1)))
        return out

    def bind(self, game: Game) -> None:
        super().bind(game)
        if game.hand_value is None and self.melding is None:
            raise SpecError("a draw_discard phase needs a hand_value or a melding clause", self.file, key=self.key)
        if self.melding is not None:
            self.melding.bind(game, f"{self.key}.melding")
        cards = range(game.deck.size)  # the one-card actions, encoded once (legal() is the hot path)
        self._discard_acts = tuple(self.codec.encode("discard", cards=(c,)) for c in cards)
        self._out_acts = tuple(self.codec.encode("go_out", cards=(c,)) for c in cards) if self.melding else ()
        if self.stock not in {p.name for p in game.deal.piles}:
            raise SpecError(f"stock pile '{self.stock}' is not dealt", self.file, key=f"{self.key}.stock")
        if self.takes and self.take_then == "exchange_hand" and any(
                self.take_count != d.hand_size for d in game.round_deals):
            raise SpecError("take_several.count must equal the hand size (the whole hand is exchanged)",
                            self.file, key=f"{self.key}.take_several")
        self.instant_units = int(self.instant * 2) if self.instant is not None else None
        if self.instant_units is not None and game.hand_value is None:
            raise SpecError("instant_win needs a hand_value clause", self.file, key=f"{self.key}.instant_win")
        if game.hand_value is not None:  # without one (melding games) nothing reads it: no instant win
            self.hv = game.hand_value

    def new_state(self) -> TurnState:
        return TurnState()

    def _ms(self, st: State) -> TurnState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def meld_deadwood(self, st: State, hand: int) -> int | None:
        """The tally of ``hand`` in the current round (None without melding); for bots and tests."""
        if self.melding is None:
            return None
        return self.melding.deadwood(hand, st.game.round_index(st.hand_no))

    def meld_hints(self, st: State) -> tuple[int, tuple[int, ...]] | None:
        """The wild rank this round (-1 for none) and each card's penalty value (None without melding); for bots."""
        if self.melding is None:
            return None
        return self.melding.wild_by_round[st.game.round_index(st.hand_no)], self.melding.value_of

    def fact_names(self) -> list[str]:
        return ["knocker", "ended_by"] + (["deadwood", "went_out"] if self.melding is not None else [])

    def hand_facts(self, st: State, seats: tuple[int, ...]) -> dict[str, Value]:
        """``knocker`` (the entity knocked) and ``ended_by`` (how the round ended); with melding also
        ``deadwood`` (the entity's cards left, less their best melds) and ``went_out``."""
        ts = self._ms(st)
        out: dict[str, Value] = {"knocker": ts.knocker in seats, "ended_by": ts.ended_by or "knock"}
        if self.melding is None:
            return out
        ridx = st.game.round_index(st.hand_no)
        out.update(deadwood=sum(self.melding.tally_deadwood(st.hands[s], ridx, ts.laid) for s in seats),
                   went_out=ts.out_seat in seats)
        return out

    def result_fields(self, st: State) -> dict[str, Any]:
        ms = self._ms(st)
        out: dict[str, Any] = {"ended_by": ms.ended_by} if ms.ended_by else {}
        names = st.game.deck.names
        if self.reveal_source is not None:
            deck = st.game.deck
            out["hands_shown"] = [[names[c] for c in deck.cards_of(st.hands[s])] if st.active[s] else []
                                  for s in range(st.game.num_players)]
        if self.melding is None:
            return out
        out.update(went_out=ms.out_seat if ms.out_seat >= 0 else None,
                   melds=[[names[c] for c in meld] for meld in ms.laid])
        if ms.later_out:
            out["also_went_out"] = list(ms.later_out)
        return out

    def _go_out_discards(self, st: State, hand: int, drawn: int) -> list[int]:
        """The distinct discards after which the rest of ``hand`` can all be laid in melds."""
        m = self.melding
        assert m is not None
        if self._ms(st).turns < sum(st.active) and m.first_turn == "forbidden":
            return []
        ridx = st.game.round_index(st.hand_no)
        deck = st.game.deck
        held = deck.canonical(hand) if deck.has_copies else hand
        return m.out_discards(hand, held & ~(1 << drawn if drawn >= 0 else 0), ridx)

    # --- flow ---------------------------------------------------------------------
    def _end(self, st: State, how: str) -> None:
        self._ms(st).ended_by = how
        st.cur = -1
        st.next_phase()

    def _begin_turn(self, st: State, seat: int) -> None:
        st.cur = seat
        self._ms(st).turns = self._ms(st).turns + 1
        self._ms(st).stage = "draw"
        self._ms(st).drawn = -1
        if not st.piles[self.stock]:
            disc = st.piles[self.discard]
            if self.exhausted == "reshuffle" and len(disc) > 1:
                st.piles[self.stock] = st.shuffled(disc[:-1])
                st.piles[self.discard] = disc[-1:]
            else:
                self._end(st, "exhausted")

    def start(self, st: State) -> None:
        if self.discard not in {p.name for p in st.game.deal_for(st.hand_no).piles}:
            st.piles[self.discard] = []
        if self.melding is not None:
            st.piles[self.melding.pile] = []
        self._ms(st).knocker = -1
        self._ms(st).turns = -1  # _begin_turn counts the first turn as turn 0
        if self.check_after_deal and self.instant_units is not None and any(
                st.active[s] and self.hv.value(st.hands[s]) == self.instant_units
                for s in range(len(st.hands))):
            self._end(st, "instant")
            return
        self._begin_turn(st, st.next_seat(st.dealer))

    def _end_turn(self, st: State, seat: int, knocked: bool) -> None:
        if self.instant_units is not None and self.hv.value(st.hands[seat]) == self.instant_units:
            self._end(st, "instant")
            return
        if self.melding is not None and self._ms(st).out_seat >= 0:
            ms = self._ms(st)
            ms.final_left -= 0 if ms.out_seat == seat else 1
            if ms.final_left <= 0:
                self._end(st, "went_out")
                return
        if self._ms(st).knocker >= 0:
            left = self._ms(st).knock_left - (0 if knocked else 1)
            self._ms(st).knock_left = left
            if left <= 0:
                self._end(st, "knock")
                return
        self._begin_turn(st, st.next_seat(seat))

    # --- actions --------------------------------------------------------------------
    def legal(self, st: State) -> list[Action]:
        deck = st.game.deck
        codec = self.codec
        hand = st.hands[st.cur]
        if self._ms(st).stage == "discard":
            drawn = self._ms(st).drawn if self.discard_drawn == "forbidden" else -1
            held = deck.canonical(hand & ~(1 << drawn if drawn >= 0 else 0)) if deck.has_copies else hand
            acts = [self._discard_acts[c] for c in deck.cards_of(held) if c != drawn]
            if self.melding is not None and (self._ms(st).out_seat < 0 or self.melding.after_first == "allowed"):
                outs = [self._out_acts[c] for c in self._go_out_discards(st, hand, drawn)]
                if outs and self.melding.when_able == "compulsory":
                    return outs  # a player who can go out must
                acts += outs
            return acts
        disc = st.piles[self.discard]
        out = [codec.encode("draw_stock")]
        if disc:
            out.append(codec.encode("draw_discard"))
        if self.takes and len(disc) >= self._take_need():
            if self.take_then == "exchange_hand":
                out.extend({codec.canonical(codec.encode("take", cards=p), hand)
                            for p in permutations(deck.cards_of(hand))})
            else:
                out.append(codec.encode("take"))
        if self.final_turns is not None and self._ms(st).knocker < 0 and (
                self._ms(st).turns > 0 or self.first_turn_knock == "allowed"):
            out.append(codec.encode("knock"))
        out.sort()
        return out

    def apply(self, st: State, a: Action) -> None:
        k = self.codec.kind(a)
        seat = st.cur
        if k == "draw_stock" or k == "draw_discard":
            pile = st.piles[self.stock if k == "draw_stock" else self.discard]
            c = pile.pop()
            st.hands[seat] |= 1 << c
            self._ms(st).stage = "discard"
            self._ms(st).drawn = c if k == "draw_discard" else -1
            return
        if k == "discard":
            c = self.codec.cards(a)[0]
            st.hands[seat] &= ~(1 << c)
            st.piles[self.discard].append(c)
            self._end_turn(st, seat, False)
            return
        if k == "go_out":
            m = self.melding
            assert m is not None
            c = self.codec.cards(a)[0]
            ms = self._ms(st)
            laid = m.partition(st.hands[seat] & ~(1 << c), st.game.round_index(st.hand_no))
            ms.laid = ms.laid + laid
            st.piles[m.pile].extend(x for meld in laid for x in meld)
            st.hands[seat] = 0
            st.piles[self.discard].append(c)
            if ms.out_seat >= 0:  # going out too, in a turn left (go_out.after_first: allowed)
                ms.later_out = (*ms.later_out, seat)
            else:
                ms.out_seat = seat
                ms.final_left = (sum(st.active) - 1) * m.final_turns
            self._end_turn(st, seat, False)
            return
        if k == "take":
            disc = st.piles[self.discard]
            n = len(disc) if self.take_all else self.take_count
            took = disc[-n:]
            del disc[-n:]
            if self.take_then == "discard":  # the cards join the hand; a discard ends the turn
                st.hands[seat] |= st.game.deck.mask(took)
                self._ms(st).stage = "discard"
                self._ms(st).drawn = -1
                return
            disc.extend(self.codec.cards(a))
            st.hands[seat] = st.game.deck.mask(took)
            self._end_turn(st, seat, False)
            return
        # knock
        self._ms(st).knocker = seat
        self._ms(st).knock_left = (sum(st.active) - 1) * (self.final_turns or 0)
        self._end_turn(st, seat, True)

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        k = self.codec.kind(a)
        m = self.melding
        if k == "go_out" and m is not None:
            if self._ms(st).stage != "discard":
                return "a player goes out after drawing", m.go_out_source
            if self._ms(st).out_seat >= 0 and m.after_first != "allowed":
                return "someone has already gone out this round", m.after_first_source or m.go_out_source
            if self._ms(st).turns < sum(st.active) and m.first_turn == "forbidden":
                return "no one goes out in the first turn round the table", m.first_turn_source
            return ("going out lays every other card in melds"
                    + (f" (at most {m.max_melds})" if m.max_melds > 0 else "") + " and discards this one",
                    m.go_out_source)
        if k == "discard" and m is not None and m.when_able == "compulsory" and self._ms(st).stage == "discard" \
                and any(self.codec.kind(x) == "go_out" for x in self.legal(st)):
            return "a player who can go out must go out", m.go_out_source
        if k == "knock" and self._ms(st).knocker >= 0:
            return "someone has already knocked this round", self.knock_source
        if k == "knock":
            return "the first player of a round starts by drawing", self.first_turn_source
        if k == "take":
            if self._ms(st).stage == "discard":
                return "the player has drawn and must discard a card", self.source
            return (f"taking needs at least {self._take_need()} cards on the discard pile"
                    + (" and must name every card of the hand" if self.take_then == "exchange_hand" else ""),
                    self.take_source)
        if k == "discard" and self._ms(st).stage == "discard":
            return "that card cannot be discarded now", self.source
        if self._ms(st).stage == "discard":
            return "the player has drawn and must discard a card", self.source
        return "the player must draw, take or knock first", self.source

    def _take_need(self) -> int:
        """The fewest cards the discard pile must hold for taking several."""
        return max(self.take_min, self.take_count, 1)

    def declarations(self) -> Declared:
        """Draws, discards, taking several, the reshuffle; no bound on turns; knock facts."""
        assert self.game is not None
        moves = [Transfer("draw from the stock", self.stock, HAND, 1, ("draw_stock",)),
                 Transfer("draw from the discard pile", self.discard, HAND, 1, ("draw_discard",)),
                 Transfer("discard", HAND, self.discard, 1, ("discard",))]
        if self.takes and self.take_then == "exchange_hand":
            moves.append(Transfer("take several discards for the hand", HAND, self.discard, self.take_count,
                                  ("take",), swap=True))
        elif self.takes:
            moves.append(Transfer("take discards into the hand", self.discard, HAND,
                                  ALL if self.take_all else self.take_count, ("take",)))
        if self.exhausted == "reshuffle":  # as the next turn begins: all but the top discard
            ends_turn = ("discard",) + (("take",) if self.takes and self.take_then == "exchange_hand" else ()) + \
                (("knock",) if self.final_turns is not None else ()) + (("go_out",) if self.melding else ())
            moves.append(Transfer("reshuffle the discards into the stock", self.discard, self.stock,
                                  (1, self.game.deck.size - 1), ends_turn, chance=True, follow_on=True))
        facts = [Fact("knocker", BOOL), Fact("ended_by", ("knock", "instant", "exhausted"))]
        if self.melding is not None:
            m = self.melding
            moves.append(Transfer("go out: lay every other card in melds", HAND, m.pile,
                                  (m.min_size, max(d.hand_size for d in self.game.round_deals)), ("go_out",)))
            moves.append(Transfer("go out: discard the last card", HAND, self.discard, 1, ("go_out",)))
            facts = [Fact("ended_by", ("went_out", "exhausted")), Fact("deadwood", tuple(range(
                m.max_deadwood(self.game) + 1))), Fact("went_out", BOOL)]
        forced = "go out" if self.melding is not None else "knock"
        return Declared(tuple(moves), None, f"no player is ever forced to {forced}, so turns may go on without end",
                        tuple(facts))
