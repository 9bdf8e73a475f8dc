"""The ``turn_up_trump`` component: calling trump over turned-up cards.

Rounds run clockwise from the dealer's left, each player passing or acting once:

* ``accept_turn_up``: accept the turned card's suit as trump (Euchre's
  ``order_up``, Bird Dog's ``declare``); with ``dealer_exchange`` the dealer
  takes the card and discards one face down.
* ``name_suit``: name a suit, optionally not the turned one (Euchre's second round).

When every player passes the last round, ``all_pass`` decides: the dealer
must name (so may not pass in the last round), the hand is thrown in and
redealt, or the next undealt card is turned and fixes trump with no maker.
A ``kitty_exchange`` (Euchre's Farmer's Hand) lets a player holding enough
cards of some ranks swap them for cards of the kitty, counting as a pass.

Used by: euchre, bird-dog-11 (and, per docs/design.md, buck-euchre,
bird-dog-21 and bird-dog-2p).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..actions import Action, Kind, arg_of, cards_of_action, encode, kind_of
from ..errors import Source, SpecError
from .base import Component

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


class TurnUpTrump(Component):
    """Calling trump over turned-up cards."""

    kind = "turn_up_trump"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__({**d, "source": d["rounds"][0]["source"]}, key, file)
        self.pile: str = d["pile"]
        self.rounds: list[dict[str, Any]] = [dict(r) for r in d["rounds"]]
        self.round_sources = [Source(**r["source"]) for r in d["rounds"]]
        self.all_pass: str = d["all_pass"]
        self.all_pass_source = Source(**d["all_pass_source"])
        if self.all_pass not in ("dealer_must_name", "redeal", "turn_up_fixed"):
            raise SpecError("all_pass must be dealer_must_name, redeal or turn_up_fixed, "
                            f"got {self.all_pass!r}",
                            file, key=f"{key}.all_pass")
        ex = d.get("kitty_exchange")
        self.exchange: dict[str, Any] | None = dict(ex) if ex and ex["enabled"] is True else None
        self.exchange_source = Source(**ex["source"]) if ex else None
        for i, r in enumerate(self.rounds):
            if r["kind"] == "accept_turn_up" and ("turn_up" not in r or "action" not in r):
                raise SpecError("an accept_turn_up round needs turn_up and action", file,
                                key=f"{key}.rounds.{i}")

    def labels(self) -> list[str]:
        out = [r["action"] for r in self.rounds if r["kind"] == "accept_turn_up"]
        if self.exchange:
            out.append(self.exchange["name"])
        return out

    def exchange_labels(self) -> list[str]:
        return [self.exchange["name"]] if self.exchange else []

    def bind(self, game: Game) -> None:
        super().bind(game)
        deck = game.deck
        if self.pile not in {p.name for p in game.deal.piles}:
            raise SpecError(f"pile '{self.pile}' is not an undealt pile", self.file, key=f"{self.key}.pile")
        size = game.deal.pile_sizes(deck.size, game.num_players)[self.pile]
        ups = [r["turn_up"] for r in self.rounds if r["kind"] == "accept_turn_up"]
        if self.all_pass == "turn_up_fixed":
            ups.append(max(ups, default=-1) + 1)
        if ups and max(ups) >= size:
            raise SpecError(f"turn-up {max(ups)} needs more than the {size} cards of '{self.pile}'",
                            self.file, key=self.key)
        self.accept_arg = {i: game.codec.label_index(r["action"])
                           for i, r in enumerate(self.rounds) if r["kind"] == "accept_turn_up"}
        if self.exchange:
            ex = self.exchange
            bad = [r for r in ex["ranks"] if r not in deck.ranks]
            if bad:
                raise SpecError(f"exchange ranks {bad} are not in the deck", self.file, key=self.key)
            self.ex_ranks = frozenset(deck.ranks.index(r) for r in ex["ranks"])
            self.ex_mask = sum(1 << c for c in range(deck.size) if deck.rank_of[c] in self.ex_ranks)
            self.ex_arg = game.codec.label_index(ex["name"])
        self.pass_action = encode(Kind.PASS)
        self.discard_action = tuple(encode(Kind.DISCARD, cards=(c,)) for c in range(deck.size))
        self.accept_action = {r: encode(Kind.ACCEPT, arg=x) for r, x in self.accept_arg.items()}
        self.name_action = tuple(encode(Kind.NAME, arg=s) for s in range(len(deck.suits)))

    # --- helpers ---------------------------------------------------------------
    def _turn_up(self, st: State, k: int) -> int:
        pile = st.piles[self.pile]
        return pile[-1 - k]

    def _enter_round(self, st: State, r: int) -> None:
        st.pv["round"] = r
        st.pv["passes"] = 0
        rd = self.rounds[r]
        if rd["kind"] == "accept_turn_up":
            st.up = self._turn_up(st, rd["turn_up"])
            if st.up not in st.seen:
                st.seen.append(st.up)
        else:
            st.up = -1
        st.cur = st.next_seat(st.dealer)

    def _last_turned_suit(self, st: State) -> int:
        return st.game.deck.suit_of[st.seen[-1]] if st.seen else -1

    def _forced(self, st: State) -> bool:
        """The dealer may not pass: last round, everyone else passed, dealer must name."""
        r = st.pv["round"]
        return (self.all_pass == "dealer_must_name" and r == len(self.rounds) - 1
                and st.cur == st.dealer)

    def start(self, st: State) -> None:
        self._enter_round(st, 0)

    def legal(self, st: State) -> list[Action]:
        if st.pv.get("discarding"):
            return [self.discard_action[c] for c in st.game.deck.cards_of(st.hands[st.cur])]
        r = st.pv["round"]
        rd = self.rounds[r]
        out: list[Action] = []
        if rd["kind"] == "accept_turn_up":
            out.append(self.accept_action[r])
        else:
            skip = self._last_turned_suit(st) if rd.get("exclude_turned") else -1
            out.extend(a for s, a in enumerate(self.name_action) if s != skip)
        if not self._forced(st):
            out.append(self.pass_action)
            if self.exchange and self.exchange.get("scope", "turn") == "hand" and st.pv.get("farmer") == st.cur:
                return [self.pass_action]  # the exchange was this player's pass for the whole hand
        if self.exchange:
            out.extend(self._exchanges(st))
        out.sort()
        return out

    def _exchanges(self, st: State) -> list[Action]:
        ex = self.exchange
        if not ex or st.pv["round"] not in ex["rounds"] or st.pv.get("exchanged") or self._forced(st):
            return []
        held = st.hands[st.cur] & self.ex_mask
        if held.bit_count() < ex["count"]:
            return []
        eligible = list(st.game.deck.cards_of(held))
        return [encode(Kind.EXCHANGE, arg=self.ex_arg, cards=combo)
                for combo in combinations(eligible, ex["count"])]

    def apply(self, st: State, a: Action) -> None:
        k = kind_of(a)
        deck = st.game.deck
        if k == Kind.DISCARD:
            c = cards_of_action(a)[0]
            st.hands[st.cur] &= ~(1 << c)
            st.piles[self.pile].append(c)
            st.pv["discarding"] = False
            st.next_phase()
            return
        if k == Kind.ACCEPT:
            up = st.up
            st.set_trump(deck.suit_of[up], up, st.cur)
            if self.rounds[st.pv["round"]].get("dealer_exchange"):
                st.piles[self.pile].remove(up)
                st.hands[st.dealer] |= 1 << up
                st.pv["discarding"] = True
                st.cur = st.dealer
                return
            st.next_phase()
            return
        if k == Kind.NAME:
            st.set_trump(arg_of(a), -1, st.cur)
            st.next_phase()
            return
        if k == Kind.EXCHANGE:
            assert self.exchange is not None
            give = cards_of_action(a)
            pile = st.piles[self.pile]
            n = self.exchange["count"]
            take = pile[:n] if self.exchange["from"] == "bottom" else pile[-n:]
            for c in give:
                st.hands[st.cur] &= ~(1 << c)
            for c in take:
                st.hands[st.cur] |= 1 << c
            if self.exchange["from"] == "bottom":
                pile[:n] = list(give)
            else:
                pile[-n:] = list(give)
            st.pv["exchanged"] = True
            st.pv["farmer"] = st.cur
            if not self.exchange["counts_as_pass"]:
                return
        # a pass (an exchange counts as one)
        st.pv["passes"] += 1
        if st.pv["passes"] < sum(st.active):
            st.cur = st.next_seat(st.cur)
            return
        r = st.pv["round"] + 1
        if r < len(self.rounds):
            self._enter_round(st, r)
            return
        if self.all_pass == "redeal":
            st.redeal()
            return
        # turn_up_fixed: the next card is turned and fixes trump, with no maker
        ups = [rd["turn_up"] for rd in self.rounds if rd["kind"] == "accept_turn_up"]
        card = self._turn_up(st, max(ups) + 1)
        st.up = card
        st.seen.append(card)
        st.set_trump(deck.suit_of[card], card, -1)
        st.next_phase()

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        k = kind_of(a)
        r = st.pv.get("round", 0)
        if st.pv.get("discarding"):
            return "the dealer must discard a card from hand", self.round_sources[r]
        if k == Kind.PASS and self._forced(st):
            return "the dealer may not pass: everyone else has passed", self.all_pass_source
        if k == Kind.NAME and self.rounds[r]["kind"] == "name_suit":
            return "the suit that was turned down may not be named", self.round_sources[r]
        if k == Kind.EXCHANGE and self.exchange_source is not None:
            return "the exchange needs the named cards of the allowed ranks, once per hand, " \
                   "in the allowed round", self.exchange_source
        return f"not allowed in round {r + 1} of calling trump", self.round_sources[r]

    def hidden(self, a: Action) -> bool:
        return kind_of(a) in (Kind.DISCARD, Kind.EXCHANGE)
