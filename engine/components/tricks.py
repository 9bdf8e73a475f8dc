"""The ``tricks`` component: trick play under a ranking.

The first leader is left of the dealer (or the maker), skipping players who sit
out; each trick's winner leads the next. ``follow: effective_suit`` makes a
player follow the led suit as the ranking counts suits (a left bower is trump,
the Bird Dog keeps its own suit); ``follow: any`` lets anything be played. The
winner is the card of highest power (see :mod:`cardspec.engine.ranking`),
the first played among equals.

Used by: euchre, bird-dog-11 (and bid-euchre, the buck-euchre family, bird-dog-21).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..actions import KIND_SHIFT, Action, Kind, cards_of_action, kind_of
from ..cards import Card, CardMask
from ..errors import IllegalActionError, Source, SpecError
from ..kernels import follow_mask
from .base import Component

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

PLAY_BASE = int(Kind.PLAY) << KIND_SHIFT


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


def winner_fast(powers: Sequence[int], cards: Sequence[Card]) -> int:
    """The trick-winner loop inlined in :meth:`Tricks.try_apply`: index in ``cards`` of the winner.

    ``powers`` is a row of the trick tables (never negative). The reference is
    :func:`kernels.trick_winner` (via :func:`ranking.trick_winner`); calling it
    from the hot path costs about 2% of Euchre throughput, hence the copy, which
    ``diffbehavior`` and ``tests/test_contracts.py`` hold to the kernel.

    >>> winner_fast((0, 5, 5, 3), [3, 1, 2])
    1
    """
    best, best_i = -1, 0
    for i, c in enumerate(cards):
        p = powers[c]
        if p > best:
            best, best_i = p, i
    return best_i


def plays_reference(hand: CardMask, led_mask: CardMask, following: bool) -> tuple[Card, ...]:
    """The reference rule: :func:`kernels.follow_mask` when following, else the whole hand.

    >>> plays_reference(0b1011, 0b0110, True), plays_reference(0b1001, 0b0110, True)
    ((1,), (0, 3))
    """
    m = follow_mask(hand, led_mask) if following else hand
    return tuple(c for c in range(hand.bit_length()) if m >> c & 1)


class Tricks(Component):
    """Trick play."""

    kind = "tricks"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.num_tricks: int = d["tricks"]
        self.first_leader: str = d["first_leader"]
        self.follow: str = d["follow"]
        self.winner_source = Source(**d["winner_source"])

    def bind(self, game: Game) -> None:
        super().bind(game)
        if game.ranking is None:
            raise SpecError("a tricks phase needs a ranking clause", self.file, key=self.key)
        if self.num_tricks > game.deal.hand_size:
            raise SpecError(f"{self.num_tricks} tricks but hands hold {game.deal.hand_size} cards",
                            self.file, key=f"{self.key}.tricks")
        self.play = tuple(PLAY_BASE | (c + 1) for c in range(game.deck.size))

    def start(self, st: State) -> None:
        if st.tt is None:  # no trump was made: play without trump
            st.set_trump(-1, -1, st.maker)
        lead_from = st.maker if self.first_leader == "maker" and st.maker >= 0 else None
        if lead_from is not None and not st.out >> lead_from & 1:
            st.cur = lead_from
        else:
            st.cur = st.next_seat(st.dealer)
        st.trick = []
        st.trick_seats = []
        st.pv["playing"] = sum(1 for s in range(len(st.active)) if st.active[s] and not st.out >> s & 1)
        st.pv["next"] = tuple(st.next_seat(s) for s in range(len(st.active)))

    def _following(self, st: State) -> bool:
        return bool(st.trick) and self.follow == "effective_suit"

    def _mask(self, st: State) -> int:
        hand = st.hands[st.cur]
        if self._following(st):
            assert st.tt is not None
            return follow_mask(hand, st.tt.suit_mask[st.led])
        return hand

    def legal_reference(self, st: State) -> list[Action]:
        """What :meth:`legal` must return, from :func:`plays_reference` (slow; for tests)."""
        tt = st.tt
        led_mask = tt.suit_mask[st.led] if tt is not None and st.trick else 0
        return [self.play[c] for c in plays_reference(st.hands[st.cur], led_mask, self._following(st))]

    def legal(self, st: State) -> list[Action]:
        # fast path: plays_fast inlined (see plays_reference for the rule)
        m = st.hands[st.cur]
        if st.trick and self.follow == "effective_suit":
            f = m & st.tt.suit_mask[st.led]  # type: ignore[union-attr]
            if f:
                m = f
        play = self.play
        out = []
        while m:
            low = m & -m
            out.append(play[low.bit_length() - 1])
            m ^= low
        return out

    def is_legal(self, st: State, a: Action) -> bool:
        c = a - PLAY_BASE - 1
        return 0 <= c < len(self.play) and bool(self._mask(st) >> c & 1)

    def try_apply(self, st: State, a: Action) -> bool:
        """The checked hot path: legality test and play fused (see :meth:`apply`)."""
        c = a - PLAY_BASE - 1
        if not 0 <= c < len(self.play):
            return False
        seat = st.cur
        hand = st.hands[seat]
        tt = st.tt
        assert tt is not None
        trick = st.trick
        allowed = hand  # plays_fast inlined, as a mask
        if trick and self.follow == "effective_suit":
            f = hand & tt.suit_mask[st.led]
            if f:
                allowed = f
        if not allowed >> c & 1:
            return False
        st.hands[seat] = hand & ~(1 << c)
        if not trick:
            st.led = tt.eff_suit[c]
        trick.append(c)
        st.trick_seats.append(seat)
        pv = st.pv
        if len(trick) < pv["playing"]:
            st.cur = pv["next"][seat]
            return True
        row = tt.power[st.led]  # winner_fast inlined (reference: ranking.trick_winner)
        best, best_i = -1, 0
        for i, x in enumerate(trick):
            p = row[x]
            if p > best:
                best, best_i = p, i
        w = st.trick_seats[best_i]
        st.tricks[w] += 1
        won = st.won[w]
        for x in trick:
            won |= 1 << x
        st.won[w] = won
        st.trick_winners.append(w)
        st.trick = []
        st.trick_seats = []
        if len(st.trick_winners) == self.num_tricks:
            st.next_phase()
        else:
            st.cur = w
        return True

    def apply(self, st: State, a: Action) -> None:
        if not self.try_apply(st, a):
            reason, src = self.why_illegal(st, a)
            raise IllegalActionError(st.game.action_name(a), reason, src)

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        if kind_of(a) != Kind.PLAY:
            return "a card must be played", self.source
        c = cards_of_action(a)[0]
        deck = st.game.deck
        if not 0 <= c < deck.size or not st.hands[st.cur] >> c & 1:
            name = deck.names[c] if 0 <= c < deck.size else str(c)
            return f"{name} is not in seat {st.cur}'s hand", self.source
        suit = deck.suits[st.led]
        return f"seat {st.cur} holds {suit} and must follow the led suit {suit}", self.source
