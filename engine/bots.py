"""Bots: a uniform random bot and a simple rule-following bot.

The rule bot reads only what its seat may see (its hand, the trick, the
turned card, the discard pile) and uses the game's own ranking and hand
values, so it plays every system without knowing which one it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import Any, Final

from .actions import NO_SUIT, Action
from .chance import below
from .state import State


class Bot:
    """A chooser for one or more seats: ``bot(st, legal)`` is the action it takes from ``legal``, the non-empty
    list of legal actions of the player to act. Subclasses write :meth:`choose`.

    A class rather than a closure: the bulk loop (:mod:`cardspec.engine.bulk`) calls :meth:`choose` as a
    method, which the compiled build calls natively; calling a closure is a generic call there (3% of the bulk
    loop's instructions in Euchre with random bots).
    """

    def choose(self, st: State, legal: list[Action]) -> Action:
        raise NotImplementedError

    def uniform_draw(self) -> Callable[[int], int] | None:
        """The ``getrandbits`` that a bot choosing uniformly among the legal actions (by
        :func:`~cardspec.engine.chance.below`) draws from, so that a phase can play itself out for it
        (``Component.play_random``); None for any other bot. A subclass of :class:`RandomBot` that chooses
        otherwise returns None again (:class:`RuleBot` does), or the bulk loop would play its phases uniformly."""
        return None

    def __call__(self, st: State, legal: list[Action]) -> Action:
        return self.choose(st, legal)


class RandomBot(Bot):
    """Choose uniformly among the legal actions (:func:`~cardspec.engine.chance.below`)."""

    def __init__(self, rng: random.Random) -> None:
        self.getrandbits: Callable[[int], int] = rng.getrandbits

    def choose(self, st: State, legal: list[Action]) -> Action:
        return legal[below(self.getrandbits, len(legal))]

    def uniform_draw(self) -> Callable[[int], int] | None:
        return self.getrandbits


def random_bot(rng: random.Random) -> Bot:
    """A :class:`RandomBot` drawing from ``rng``."""
    return RandomBot(rng)


def _trumps(st: State, suit: int, card: int) -> int:
    tt = st.game.trick_tables(suit, card)
    hand = st.game.deck.cards_of(st.hands[st.cur])
    return sum(1 for c in hand if tt.eff_suit[c] == suit or c in tt.top_cards)


def _led(st: State) -> int:
    """The led suit of the trick being played (-1 before the lead), asked of the trick-play phase."""
    led_suit = getattr(st.comp, "led_suit", None)
    return led_suit(st) if led_suit is not None else -1


def _power(st: State, c: int) -> int:
    tt = st.contract.tt
    assert tt is not None
    led = _led(st)
    if led < 0:
        led = tt.eff_suit[c]
    return tt.power[led][c] if led >= 0 else 0


def _best_value(st: State, hand: int, size: int) -> int:
    hv = st.game.hand_value
    assert hv is not None
    cards = st.game.deck.cards_of(hand)
    return max((hv.value(st.game.deck.mask(k)) for k in combinations(cards, size)), default=0)


class RuleBot(RandomBot):
    """A simple rule follower: calls with three trumps, wins tricks cheaply, knocks when high or when a hand drags
    on (at random, as :class:`RandomBot`, where none of its rules applies)."""

    def choose(self, st: State, legal: list[Action]) -> Action:
        codec = st.game.codec
        kinds = {codec.kind(a) for a in legal}
        deck = st.game.deck
        hand = st.hands[st.cur]
        own_choice = getattr(st.comp, "bot_choice", None)  # a phase with its own simple play (climbing tricks)
        if own_choice is not None:
            return own_choice(st, legal)  # type: ignore[no-any-return]
        if "play" in kinds:
            cards = [codec.cards(a)[0] for a in legal]
            trick = st.piles.get("trick", [])
            led = _led(st)
            if not trick or led < 0:
                return legal[max(range(len(cards)), key=lambda i: _power(st, cards[i]))]
            tt = st.contract.tt
            assert tt is not None
            row = tt.power[led]
            best = max(row[c] for c in trick)
            seats = st.comp.trick_seats(st)  # type: ignore[attr-defined]
            partner_wins = st.sides[seats[max(range(len(trick)), key=lambda i: (row[trick[i]], -i))]] == \
                st.sides[st.cur]
            winners = [i for i, c in enumerate(cards) if row[c] > best]
            if winners and not partner_wins:
                return legal[min(winners, key=lambda i: row[cards[i]])]
            return legal[min(range(len(cards)), key=lambda i: (row[cards[i]], deck.rank_of[cards[i]]))]
        up_card = getattr(st.comp, "up_card", None)
        up = up_card(st) if up_card is not None else -1
        if "accept" in kinds and up >= 0 and (_trumps(st, deck.suit_of[up], up) >= 3 or "pass" not in kinds):
            return next(a for a in legal if codec.kind(a) == "accept")
        if "name" in kinds:
            names = [a for a in legal if codec.kind(a) == "name"]
            best_a = max(names, key=lambda a: _trumps(st, codec.suit(a), -1))
            if _trumps(st, codec.suit(best_a), -1) >= 3 or "pass" not in kinds:
                return best_a
        if "exchange" in kinds:
            return next(a for a in legal if codec.kind(a) == "exchange")
        if "declare" in kinds:
            con = st.contract
            strong = con.trump >= 0 and _trumps(st, con.trump, con.trump_card) >= 4
            weak = con.tt is not None and all(
                max(con.tt.power[s][c] for s in range(len(deck.suits))) < 103 for c in deck.cards_of(hand))
            if strong or weak:
                return next(a for a in legal if codec.kind(a) == "declare")
        if "go_out" in kinds:  # melding games: go out whenever possible
            return next(a for a in legal if codec.kind(a) == "go_out")
        hints_of = getattr(st.comp, "meld_hints", None)
        hints = hints_of(st) if hints_of is not None else None
        if hints is not None and ("discard" in kinds or "draw_stock" in kinds):
            return _meld_choice(st, legal, kinds, hints)
        if "discard" in kinds and st.game.hand_value is None:
            return min(legal, key=lambda a: _power_any(st, codec.cards(a)[0]))
        if "discard" in kinds:
            size = st.game.deal.hand_size
            return max(legal, key=lambda a: (_best_value(st, hand & ~(1 << codec.cards(a)[0]), size), -a))
        if "draw_stock" in kinds:
            size = st.game.deal.hand_size
            now = _best_value(st, hand, size)
            long_hand = len(st.history) - st.hand_start >= 2 * KNOCK_AFTER_TURNS * st.active_count()
            if "knock" in kinds and (now >= 50 or long_hand):  # 25 points; or a hand nobody could improve
                return next(a for a in legal if codec.kind(a) == "knock")
            disc = st.piles.get(getattr(st.comp, "discard", ""), [])
            if "draw_discard" in kinds and disc and _best_value(st, hand | 1 << disc[-1], size) > now + 4:
                return next(a for a in legal if codec.kind(a) == "draw_discard")
            return next(a for a in legal if codec.kind(a) == "draw_stock")
        if "bid" in kinds and "pass" not in kinds:  # forced to bid (an auction's dealer): bid low, best suit
            bids = [a for a in legal if codec.kind(a) == "bid"]
            low = min(codec.number(a) or 0 for a in bids)
            return max((a for a in bids if codec.number(a) == low),
                       key=lambda a: (_trumps(st, codec.suit(a), -1) if codec.suit(a) >= 0 else 0, -a))
        if "bid" in kinds and "pass" in kinds and all(codec.suit(a) == NO_SUIT for a in legal
                                                      if codec.kind(a) == "bid"):
            # a bid of a number only (trump named afterwards): the lowest bid, if the best suit holds
            # at least three trumps and at least that many (a pass never bars a later bid)
            bids = [a for a in legal if codec.kind(a) == "bid"]
            low = min(bids, key=lambda a: codec.number(a) or 0)
            most = max(_trumps(st, s, -1) for s in range(len(deck.suits)))
            if most >= 3 and (codec.number(low) or 0) <= most:
                return low
        if "pass" in kinds:
            return next(a for a in legal if codec.kind(a) == "pass")
        return RandomBot.choose(self, st, legal)

    def uniform_draw(self) -> Callable[[int], int] | None:
        return None  # it draws only where its rules leave the choice open


def rule_bot(rng: random.Random) -> Bot:
    """A :class:`RuleBot` drawing from ``rng``."""
    return RuleBot(rng)


LONG_ROUND: Final = 60
"""Actions into a melding round after which the rule bot discards by an exact deadwood search."""
KNOCK_AFTER_TURNS: Final = 20
"""Turns per player still in (a draw and a discard each) after which the rule bot knocks whatever it holds: with
the pickup pile reshuffled, four bots each holding three of one suit worth 22 to 24 could otherwise draw and
throw back forever (Riding the Bus, seed 2575, hand 3)."""


def _ties(deck: Any, c: int, hand: int, wild: int) -> int:
    """How many melds card ``c`` could help make in ``hand``: wild cards count high; otherwise cards of its
    rank, and cards of its suit within two ranks (cheap, for the bot's choices only)."""
    r, s = deck.rank_of[c], deck.suit_of[c]
    if r == wild:
        return 100
    n = 0
    for d in deck.cards_of(hand & ~(1 << c)):
        if deck.rank_of[d] == wild:
            n += 1
        elif deck.rank_of[d] == r:
            n += 2
        elif deck.suit_of[d] == s and abs(deck.rank_of[d] - r) <= 2:
            n += 1
    return n


def _meld_choice(st: State, legal: list[Action], kinds: set[str], hints: tuple[int, tuple[int, ...]]) -> Action:
    """Melding games (going out is taken before this): discard the loosest card, the most valuable of equals;
    take the top discard when it is wild or joins at least two of the hand's cards. In a long round, draw
    only from the stock and discard by an exact deadwood search, so that rounds end."""
    codec = st.game.codec
    deck = st.game.deck
    hand = st.hands[st.cur]
    wild, value = hints
    deadwood = getattr(st.comp, "meld_deadwood", None)
    if "discard" in kinds and deadwood is not None and len(st.history) - st.hand_start > LONG_ROUND:
        # a long round: search for the discard that leaves the least deadwood (dearer, but it gets out)
        return min(legal, key=lambda a: (deadwood(st, hand & ~(1 << codec.cards(a)[0])),
                                         -value[codec.cards(a)[0]], a))
    if "discard" in kinds:
        return min(legal, key=lambda a: (_ties(deck, codec.cards(a)[0], hand, wild),
                                         -value[codec.cards(a)[0]], a))
    disc = st.piles.get(getattr(st.comp, "discard", ""), [])
    long_round = len(st.history) - st.hand_start > LONG_ROUND  # then fresh cards only: no take-and-return loop
    if "draw_discard" in kinds and disc and not long_round and _ties(deck, disc[-1], hand | 1 << disc[-1], wild) >= 2:
        return next(a for a in legal if codec.kind(a) == "draw_discard")
    return next(a for a in legal if codec.kind(a) == "draw_stock")


def _power_any(st: State, c: int) -> int:
    tt = st.contract.tt
    if tt is None:
        return st.game.deck.rank_of[c]
    return max(tt.power[s][c] for s in range(len(st.game.deck.suits)))


RANDOM_ACTIONS: Final = 400
"""Actions of a match that :func:`random_then_rule_bot` plays at random before the rule bot takes over."""


class RandomThenRuleBot(RuleBot):
    """Uniform random choices for the first :data:`RANDOM_ACTIONS` actions of a match, then the rule bot's
    (one generator for both): random play that still ends in games where pure chance almost never ends a
    round (a rummy's going out)."""

    def choose(self, st: State, legal: list[Action]) -> Action:
        if len(st.history) < RANDOM_ACTIONS:
            return RandomBot.choose(self, st, legal)
        return RuleBot.choose(self, st, legal)


def random_then_rule_bot(rng: random.Random) -> Bot:
    """A :class:`RandomThenRuleBot` drawing from ``rng``."""
    return RandomThenRuleBot(rng)


BOTS: dict[str, Callable[[random.Random], Bot]] = {"random": random_bot, "rule": rule_bot,
                                                   "random_then_rule": random_then_rule_bot}
