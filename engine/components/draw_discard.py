"""The ``draw_discard`` component: draw, discard and knock turns toward a hand value.

On a turn the player draws the top card of the stock or of the discard pile and
discards one card, or takes the top ``count`` discards for the whole hand
(placing the old hand on the discard pile in a chosen order), or knocks. After a
knock every other player still in has ``final_turns`` more turns. A hand worth
exactly ``instant_win.value`` ends the round at once (also right after the deal
when ``check_after_deal`` is on). When the stock is empty, ``stock_exhausted``
either reshuffles the discard pile under its top card (a seeded chance event)
or ends the round.

Used by: riding-the-bus (and, with melding, the-card-game and hand-and-foot).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import TYPE_CHECKING, Any

from ..actions import Action, Kind, cards_of_action, encode, kind_of
from ..errors import Source, SpecError
from .base import Component

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


class DrawDiscard(Component):
    """Draw-and-discard turns with knocking."""

    kind = "draw_discard"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.stock: str = d["stock"]
        self.discard: str = d["discard"]
        self.discard_drawn: str = d.get("discard_drawn", "allowed")
        ts = d.get("take_several")
        self.take_count: int = ts["count"] if ts else 0
        self.take_min: int = ts["min_pile"] if ts else 0
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

    def bind(self, game: Game) -> None:
        super().bind(game)
        if game.hand_value is None:
            raise SpecError("a draw_discard phase needs a hand_value clause", self.file, key=self.key)
        if self.stock not in {p.name for p in game.deal.piles}:
            raise SpecError(f"stock pile '{self.stock}' is not dealt", self.file, key=f"{self.key}.stock")
        if self.take_count and self.take_count != game.deal.hand_size:
            raise SpecError("take_several.count must equal the hand size (the whole hand is exchanged)",
                            self.file, key=f"{self.key}.take_several")
        self.instant_units = int(self.instant * 2) if self.instant is not None else None
        self.hv = game.hand_value

    # --- flow ---------------------------------------------------------------------
    def _end(self, st: State, how: str) -> None:
        st.pv["ended_by"] = how
        st.cur = -1
        st.next_phase()

    def _begin_turn(self, st: State, seat: int) -> None:
        st.cur = seat
        st.pv["turns"] = st.pv.get("turns", -1) + 1
        st.pv["stage"] = "draw"
        st.pv["drawn"] = -1
        if not st.piles[self.stock]:
            disc = st.piles[self.discard]
            if self.exhausted == "reshuffle" and len(disc) > 1:
                st.piles[self.stock] = st.shuffled(disc[:-1])
                st.piles[self.discard] = disc[-1:]
            else:
                self._end(st, "exhausted")

    def start(self, st: State) -> None:
        st.piles[self.discard] = []
        st.pv["knocker"] = -1
        st.pv["turns"] = -1  # _begin_turn counts the first turn as turn 0
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
        if st.pv["knocker"] >= 0:
            left = st.pv["final_left"] - (0 if knocked else 1)
            st.pv["final_left"] = left
            if left <= 0:
                self._end(st, "knock")
                return
        self._begin_turn(st, st.next_seat(seat))

    # --- actions --------------------------------------------------------------------
    def legal(self, st: State) -> list[Action]:
        deck = st.game.deck
        hand = st.hands[st.cur]
        if st.pv["stage"] == "discard":
            drawn = st.pv["drawn"] if self.discard_drawn == "forbidden" else -1
            return [encode(Kind.DISCARD, cards=(c,)) for c in deck.cards_of(hand) if c != drawn]
        disc = st.piles[self.discard]
        out = [encode(Kind.DRAW_STOCK)]
        if disc:
            out.append(encode(Kind.DRAW_DISCARD))
        if self.take_count and len(disc) >= max(self.take_min, self.take_count):
            out.extend(encode(Kind.TAKE, cards=p) for p in permutations(deck.cards_of(hand)))
        if self.final_turns is not None and st.pv["knocker"] < 0 and (
                st.pv["turns"] > 0 or self.first_turn_knock == "allowed"):
            out.append(encode(Kind.KNOCK))
        out.sort()
        return out

    def apply(self, st: State, a: Action) -> None:
        k = kind_of(a)
        seat = st.cur
        if k == Kind.DRAW_STOCK or k == Kind.DRAW_DISCARD:
            pile = st.piles[self.stock if k == Kind.DRAW_STOCK else self.discard]
            c = pile.pop()
            st.hands[seat] |= 1 << c
            st.pv["stage"] = "discard"
            st.pv["drawn"] = c if k == Kind.DRAW_DISCARD else -1
            return
        if k == Kind.DISCARD:
            c = cards_of_action(a)[0]
            st.hands[seat] &= ~(1 << c)
            st.piles[self.discard].append(c)
            self._end_turn(st, seat, False)
            return
        if k == Kind.TAKE:
            disc = st.piles[self.discard]
            took = disc[-self.take_count:]
            del disc[-self.take_count:]
            disc.extend(cards_of_action(a))
            st.hands[seat] = st.game.deck.mask(took)
            self._end_turn(st, seat, False)
            return
        # knock
        st.pv["knocker"] = seat
        st.pv["final_left"] = (sum(st.active) - 1) * (self.final_turns or 0)
        self._end_turn(st, seat, True)

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        k = kind_of(a)
        if k == Kind.KNOCK and st.pv.get("knocker", -1) >= 0:
            return "someone has already knocked this round", self.knock_source
        if k == Kind.KNOCK:
            return "the first player of a round starts by drawing", self.first_turn_source
        if k == Kind.TAKE:
            return (f"taking needs at least {max(self.take_min, self.take_count)} cards on the discard "
                    "pile and must name every card of the hand", self.take_source)
        if k == Kind.DISCARD and st.pv.get("stage") == "discard":
            return "that card cannot be discarded now", self.source
        if st.pv.get("stage") == "discard":
            return "the player has drawn and must discard a card", self.source
        return "the player must draw, take or knock first", self.source
