"""Bots: a uniform random bot and a simple rule-following bot.

The rule bot reads only what its seat may see (its hand, the trick, the
turned card, the discard pile) and uses the game's own ranking and hand
values, so it plays every system without knowing which one it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from .actions import Action, Kind, arg_of, cards_of_action, kind_of
from .state import State

Bot = Callable[[State, list[Action]], Action]


def random_bot(rng: random.Random) -> Bot:
    """Choose uniformly among the legal actions."""

    def choose(st: State, legal: list[Action]) -> Action:
        return legal[rng.randrange(len(legal))]

    return choose


def _trumps(st: State, suit: int, card: int) -> int:
    tt = st.game.trick_tables(suit, card)
    hand = st.game.deck.cards_of(st.hands[st.cur])
    return sum(1 for c in hand if tt.eff_suit[c] == suit or c in tt.top_cards)


def _power(st: State, c: int) -> int:
    tt = st.tt
    assert tt is not None
    led = st.led if st.trick else tt.eff_suit[c]
    return tt.power[led][c] if led >= 0 else 0


def _best_value(st: State, hand: int, size: int) -> int:
    hv = st.game.hand_value
    assert hv is not None
    cards = list(st.game.deck.cards_of(hand))
    return max((hv.value(st.game.deck.mask(k)) for k in combinations(cards, size)), default=0)


def rule_bot(rng: random.Random) -> Bot:
    """A simple rule follower: calls with three trumps, wins tricks cheaply, knocks when high."""

    def choose(st: State, legal: list[Action]) -> Action:
        kinds = {kind_of(a) for a in legal}
        deck = st.game.deck
        hand = st.hands[st.cur]
        if Kind.PLAY in kinds:
            cards = [cards_of_action(a)[0] for a in legal]
            if not st.trick:
                return legal[max(range(len(cards)), key=lambda i: _power(st, cards[i]))]
            tt = st.tt
            assert tt is not None
            best = max(tt.power[st.led][c] for c in st.trick)
            partner_wins = st.game.entity_of[st.trick_seats[
                max(range(len(st.trick)), key=lambda i: (tt.power[st.led][st.trick[i]], -i))]] == \
                st.game.entity_of[st.cur]
            winners = [i for i, c in enumerate(cards) if tt.power[st.led][c] > best]
            if winners and not partner_wins:
                return legal[min(winners, key=lambda i: tt.power[st.led][cards[i]])]
            return legal[min(range(len(cards)),
                             key=lambda i: (tt.power[st.led][cards[i]], deck.rank_of[cards[i]]))]
        if Kind.ACCEPT in kinds and st.up >= 0 and (
                _trumps(st, deck.suit_of[st.up], st.up) >= 3 or Kind.PASS not in kinds):
            return next(a for a in legal if kind_of(a) == Kind.ACCEPT)
        if Kind.NAME in kinds:
            names = [a for a in legal if kind_of(a) == Kind.NAME]
            best_a = max(names, key=lambda a: _trumps(st, arg_of(a), -1))
            if _trumps(st, arg_of(best_a), -1) >= 3 or Kind.PASS not in kinds:
                return best_a
        if Kind.EXCHANGE in kinds:
            return next(a for a in legal if kind_of(a) == Kind.EXCHANGE)
        if Kind.DECLARE in kinds:
            strong = st.trump >= 0 and _trumps(st, st.trump, st.trump_card) >= 4
            weak = st.tt is not None and all(
                max(st.tt.power[s][c] for s in range(len(deck.suits))) < 103 for c in deck.cards_of(hand))
            if strong or weak:
                return next(a for a in legal if kind_of(a) == Kind.DECLARE)
        if Kind.DISCARD in kinds and st.game.hand_value is None:
            return min(legal, key=lambda a: _power_any(st, cards_of_action(a)[0]))
        if Kind.DISCARD in kinds:
            size = st.game.deal.hand_size
            return max(legal, key=lambda a: (_best_value(st, hand & ~(1 << cards_of_action(a)[0]), size), -a))
        if Kind.DRAW_STOCK in kinds:
            size = st.game.deal.hand_size
            now = _best_value(st, hand, size)
            if Kind.KNOCK in kinds and now >= 50:
                return next(a for a in legal if kind_of(a) == Kind.KNOCK)
            disc = st.piles.get(getattr(st.comp, "discard", ""), [])
            if Kind.DRAW_DISCARD in kinds and disc and _best_value(st, hand | 1 << disc[-1], size) > now + 4:
                return next(a for a in legal if kind_of(a) == Kind.DRAW_DISCARD)
            return next(a for a in legal if kind_of(a) == Kind.DRAW_STOCK)
        if Kind.PASS in kinds:
            return next(a for a in legal if kind_of(a) == Kind.PASS)
        return legal[rng.randrange(len(legal))]

    return choose


def _power_any(st: State, c: int) -> int:
    tt = st.tt
    if tt is None:
        return st.game.deck.rank_of[c]
    return max(tt.power[s][c] for s in range(len(st.game.deck.suits)))


BOTS: dict[str, Callable[[random.Random], Bot]] = {"random": random_bot, "rule": rule_bot}
